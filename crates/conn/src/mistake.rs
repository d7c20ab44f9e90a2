//! What a handler returns when it fails ([`HandlerError`]: any error, so
//! that `?` works), and the application's own mistakes ([`Mistake`]) that
//! both servers report, at most once a second for each kind
//! ([`MistakeGate`]): a mistake repeated on every request must not flood
//! the log, and one made once must not go unseen.

use alloc::boxed::Box;
use core::error::Error as StdError;
use core::fmt;
#[cfg(target_has_atomic = "64")]
use core::sync::atomic::{AtomicU64, Ordering};

use crate::{LocalError, OwnedFields, Timestamp};

/// The error a handler returns: any `Error + Send + Sync + 'static`, so
/// that a handler uses `?` on its own errors (a parse error, a database
/// error) as on the server's. It boxes only when an error is made; a
/// handler that returns `Ok` allocates nothing.
///
/// It is not itself an [`Error`](core::error::Error), so that every error
/// converts into it with `?` (as `anyhow::Error`); [`HandlerError::get_ref`]
/// gives the error inside.
///
/// ```
/// use http_net_conn::HandlerError;
///
/// fn parse(n: &str) -> Result<u32, HandlerError> {
///     Ok(n.parse::<u32>()?)
/// }
/// let e = parse("x").unwrap_err();
/// assert!(e.downcast_ref::<core::num::ParseIntError>().is_some());
/// assert_eq!(e.to_string(), "invalid digit found in string");
/// assert_eq!(e.status(), None); // a plain error: `500`, and reported
/// ```
///
/// # An error that chooses its answer
///
/// An error may carry the status it stands for, chosen where it is
/// raised: [`HandlerError::bad_request`] and its siblings, or
/// [`with_status`](HandlerError::with_status) on an error or on a
/// `Result` ([`WithStatus`]). When a handler returns such an error before
/// it began an answer, the server answers with that status as if the
/// handler had called `respond_with` (any status in `400..=599`): the
/// connection is kept as after any answer (a `408` closes it, RFC 9110
/// §15.5.9), the answer is not the application's mistake, the access log
/// records the status and the error, and the server's `error_body` hook
/// gives its body (it sees the status and the error). The server's
/// `error_status` hook chooses the status of errors that carry none (an
/// application's own error type, found by downcasting). A status outside
/// `400..=599`, or a field the writer refuses, is the application's
/// mistake ([`Mistake::Refused`]): `500`, and the connection closes. Once
/// an answer has begun, the status is not used.
///
/// Some statuses need a field: a `405` needs `Allow` (RFC 9110 §15.5.6),
/// a `401` needs `WWW-Authenticate` (§15.5.2); add them with
/// [`with_field`](HandlerError::with_field).
///
/// ```
/// use http_net_conn::{HandlerError, WithStatus};
///
/// fn limit(v: &[u8]) -> Result<u32, HandlerError> {
///     let n: u32 = core::str::from_utf8(v)
///         .map_err(HandlerError::bad_request)?
///         .parse()
///         .with_status(400)?;
///     Ok(n)
/// }
/// assert_eq!(limit(b"x").unwrap_err().status(), Some(400));
/// assert_eq!(limit(&[0xff]).unwrap_err().status(), Some(400));
///
/// let e = HandlerError::new(core::fmt::Error)
///     .with_status(405)
///     .with_field("Allow", "GET, HEAD");
/// assert_eq!(e.status(), Some(405));
/// assert_eq!(e.fields().next(), Some((&b"Allow"[..], &b"GET, HEAD"[..])));
/// ```
pub struct HandlerError {
    inner: Box<dyn StdError + Send + Sync + 'static>,
    /// The status it stands for, if one was chosen.
    status: Option<u16>,
    /// Fields its answer carries (`Allow`, `WWW-Authenticate`, ...).
    fields: OwnedFields,
}

impl HandlerError {
    /// The error `e`.
    pub fn new<E: StdError + Send + Sync + 'static>(e: E) -> HandlerError {
        HandlerError {
            inner: Box::new(e),
            status: None,
            fields: OwnedFields::new(),
        }
    }

    /// This error, standing for an answer with `status` (meant:
    /// `400..=599`; see [the type's docs](HandlerError#an-error-that-chooses-its-answer)).
    #[must_use]
    pub fn with_status(mut self, status: u16) -> HandlerError {
        self.status = Some(status);
        self
    }

    /// This error, whose answer carries the field `name: value` (in the
    /// order added), checked by the writer as every response field is.
    #[must_use]
    pub fn with_field(mut self, name: impl AsRef<[u8]>, value: impl AsRef<[u8]>) -> HandlerError {
        self.fields.extend([(name.as_ref(), value.as_ref())]);
        self
    }

    /// The status this error stands for, if one was chosen
    /// ([`with_status`](HandlerError::with_status)); `None` for a plain
    /// error (which the server's `error_status` hook may still choose).
    pub fn status(&self) -> Option<u16> {
        self.status
    }

    /// The fields its answer carries, as (name, value) bytes.
    pub fn fields(&self) -> impl Iterator<Item = (&[u8], &[u8])> {
        self.fields.iter()
    }

    /// `e`, standing for `400 Bad Request` (RFC 9110 §15.5.1): for
    /// `.map_err(HandlerError::bad_request)?` on a value the peer sent.
    pub fn bad_request<E: Into<HandlerError>>(e: E) -> HandlerError {
        e.into().with_status(400)
    }

    /// `e`, standing for `403 Forbidden` (RFC 9110 §15.5.4).
    pub fn forbidden<E: Into<HandlerError>>(e: E) -> HandlerError {
        e.into().with_status(403)
    }

    /// `e`, standing for `404 Not Found` (RFC 9110 §15.5.5).
    pub fn not_found<E: Into<HandlerError>>(e: E) -> HandlerError {
        e.into().with_status(404)
    }

    /// `e`, standing for `409 Conflict` (RFC 9110 §15.5.10).
    pub fn conflict<E: Into<HandlerError>>(e: E) -> HandlerError {
        e.into().with_status(409)
    }

    /// `e`, standing for `422 Unprocessable Content` (RFC 9110 §15.5.21).
    pub fn unprocessable<E: Into<HandlerError>>(e: E) -> HandlerError {
        e.into().with_status(422)
    }

    /// The error inside.
    pub fn get_ref(&self) -> &(dyn StdError + Send + Sync + 'static) {
        &*self.inner
    }

    /// The error inside, if it is a `T`.
    pub fn downcast_ref<T: StdError + 'static>(&self) -> Option<&T> {
        self.inner.downcast_ref::<T>()
    }

    /// The boxed error inside.
    pub fn into_inner(self) -> Box<dyn StdError + Send + Sync + 'static> {
        self.inner
    }
}

impl<E: StdError + Send + Sync + 'static> From<E> for HandlerError {
    fn from(e: E) -> HandlerError {
        HandlerError::new(e)
    }
}

/// Chooses the status of a `Result`'s error where it is raised, in a `?`
/// chain: `value.parse::<u32>().with_status(400)?` (see
/// [`HandlerError`]'s docs for what the server sends).
///
/// ```
/// use http_net_conn::{HandlerError, WithStatus};
///
/// let r: Result<u32, HandlerError> = "x".parse::<u32>().with_status(400);
/// assert_eq!(r.unwrap_err().status(), Some(400));
/// ```
pub trait WithStatus<T> {
    /// The `Ok` value as it is; the error as a [`HandlerError`] standing
    /// for `status`.
    fn with_status(self, status: u16) -> Result<T, HandlerError>;
}

impl<T, E: Into<HandlerError>> WithStatus<T> for Result<T, E> {
    fn with_status(self, status: u16) -> Result<T, HandlerError> {
        self.map_err(|e| e.into().with_status(status))
    }
}

impl fmt::Debug for HandlerError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&self.inner, f)
    }
}

impl fmt::Display for HandlerError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.inner, f)
    }
}

/// A mistake of the application (its handler), not of the peer: the
/// server answers for it (`500`, or a response cut short) and reports it,
/// since only the application's author can fix it.
#[non_exhaustive]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mistake {
    /// The connection refused one of the handler's commands, and nothing
    /// of it was sent: a field name that is not a token, a CR LF in a
    /// value, a `Content-Length` that conflicts with the body; the
    /// [`LocalError`] names the rule and its RFC section.
    Refused(LocalError),
    /// The handler returned without answering (the server answered `500`).
    Unanswered,
    /// The handler began an answer and returned without finishing it (the
    /// peer saw a response cut short, and the connection closed).
    Unfinished,
    /// The handler panicked.
    Panicked,
}

/// The number of kinds of [`Mistake`] (one per variant, and one per
/// [`LocalError`] variant).
const KINDS: usize = 20;

impl Mistake {
    /// Its kind: one per variant, each [`LocalError`] its own.
    fn kind(self) -> usize {
        match self {
            Mistake::Refused(l) => match l {
                LocalError::WrongState => 0,
                LocalError::InvalidFieldName => 1,
                LocalError::InvalidFieldValue => 2,
                LocalError::InvalidReason => 3,
                LocalError::InvalidStatus => 4,
                LocalError::ConflictingFraming => 5,
                LocalError::BodyOverrun => 6,
                LocalError::BodyUnderrun => 7,
                LocalError::InvalidRequestLine => 8,
                LocalError::OutputFull => 9,
                LocalError::UpgradeNotOffered => 10,
                LocalError::InformationalAsFinal => 11,
                LocalError::NotInformational => 12,
                LocalError::InvalidHost => 13,
                LocalError::ForbiddenTrailerField => 14,
                LocalError::TrailersNotChunked => 15,
                LocalError::PipelineFull => 16,
            },
            Mistake::Unanswered => 17,
            Mistake::Unfinished => 18,
            Mistake::Panicked => 19,
        }
    }
}

impl fmt::Display for Mistake {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Mistake::Refused(l) => write!(f, "the connection refused the handler's command: {l}"),
            Mistake::Unanswered => f.write_str("the handler returned without answering (sent 500)"),
            Mistake::Unfinished => {
                f.write_str("the handler returned with its answer unfinished (response cut short)")
            }
            Mistake::Panicked => f.write_str("the handler panicked"),
        }
    }
}

/// Lets through at most one report of each kind of [`Mistake`] per second,
/// for a whole server (shared by its connections: atomics, no lock).
///
/// ```
/// use core::time::Duration;
/// use http_net_conn::{Mistake, Timestamp};
/// use http_net_conn::driver::{MistakeGate};
///
/// let gate = MistakeGate::new();
/// let ms = |m: u64| Timestamp::from_nanos(m * 1_000_000);
/// assert!(gate.admit(Mistake::Unanswered, ms(0)));
/// assert!(!gate.admit(Mistake::Unanswered, ms(999)));
/// assert!(gate.admit(Mistake::Panicked, ms(999))); // another kind
/// assert!(gate.admit(Mistake::Unanswered, ms(1000)));
/// ```
#[cfg(target_has_atomic = "64")]
#[derive(Debug)]
pub struct MistakeGate {
    /// Per kind, when it was last let through (ms since the epoch, plus
    /// one; 0: never).
    last: [AtomicU64; KINDS],
}

#[cfg(target_has_atomic = "64")]
impl MistakeGate {
    /// A gate that has let nothing through.
    pub const fn new() -> MistakeGate {
        MistakeGate {
            last: [const { AtomicU64::new(0) }; KINDS],
        }
    }

    /// Whether `m`, made at `now`, is reported: the first of its kind, or
    /// a second or more after the last of its kind that was.
    pub fn admit(&self, m: Mistake, now: Timestamp) -> bool {
        let Some(slot) = self.last.get(m.kind()) else {
            return false;
        };
        let now_ms = (now.as_nanos() / 1_000_000).saturating_add(1);
        let last = slot.load(Ordering::Relaxed);
        if last != 0 && now_ms.saturating_sub(last) < 1000 {
            return false;
        }
        // Of two connections making it at once, one reports.
        slot.compare_exchange(last, now_ms, Ordering::Relaxed, Ordering::Relaxed)
            .is_ok()
    }
}

#[cfg(target_has_atomic = "64")]
impl Default for MistakeGate {
    fn default() -> MistakeGate {
        MistakeGate::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kind_has_its_own_slot() {
        let all = [
            LocalError::WrongState,
            LocalError::InvalidFieldName,
            LocalError::InvalidFieldValue,
            LocalError::InvalidReason,
            LocalError::InvalidStatus,
            LocalError::ConflictingFraming,
            LocalError::BodyOverrun,
            LocalError::BodyUnderrun,
            LocalError::InvalidRequestLine,
            LocalError::OutputFull,
            LocalError::UpgradeNotOffered,
            LocalError::InformationalAsFinal,
            LocalError::NotInformational,
            LocalError::InvalidHost,
            LocalError::ForbiddenTrailerField,
            LocalError::TrailersNotChunked,
            LocalError::PipelineFull,
        ];
        let mut seen = [false; KINDS];
        let mistakes = all.iter().map(|&l| Mistake::Refused(l)).chain([
            Mistake::Unanswered,
            Mistake::Unfinished,
            Mistake::Panicked,
        ]);
        for m in mistakes {
            assert!(!seen[m.kind()], "{m:?} shares a kind");
            seen[m.kind()] = true;
        }
    }

    #[test]
    fn a_gate_lets_one_of_a_kind_through_per_second() {
        let g = MistakeGate::new();
        let ms = |m: u64| Timestamp::from_nanos(m * 1_000_000);
        let m = Mistake::Refused(LocalError::InvalidFieldName);
        assert!(g.admit(m, ms(0)));
        for t in [1, 500, 999] {
            assert!(!g.admit(m, ms(t)));
        }
        assert!(g.admit(Mistake::Refused(LocalError::InvalidFieldValue), ms(5)));
        assert!(g.admit(m, ms(1000)));
        assert!(!g.admit(m, ms(1500)));
        assert!(g.admit(m, ms(2000)));
    }
}
