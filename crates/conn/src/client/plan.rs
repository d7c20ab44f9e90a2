//! One request's plan, Sans-IO, for both client adapters: which
//! connection an attempt goes out on (a pooled one or a new one), whether
//! a failed attempt is sent again (the connection's retry rule, once), and
//! what follows a response (the answer, or a redirect hop: its method, URL,
//! body and fields, after draining the redirect's body). The adapter
//! carries each step out with its own I/O; the decisions are made here
//! once.

use alloc::borrow::Cow;
use core::time::Duration;

use super::attempt::{Failure, Retry};
use super::conn::ClientConn;
use crate::client_settings::ClientSettings;
use crate::redirect::{location, Origin, Redirect, RedirectError, Redirects, REDIRECT_BODY_DRAIN};
use crate::request_body::RequestBody;
use crate::time::{RequestDeadline, Timestamp};
use crate::url::{Url, UrlError};
use crate::FieldPair;

/// What follows a response, as [`RequestPlan::answered`] decides.
#[non_exhaustive]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Answered {
    /// The response is the caller's.
    Done,
    /// A redirect is followed: read and drop at most `drain` bytes of its
    /// body (so that a short body's connection can be reused), then send
    /// the next attempt ([`RequestPlan::method`], [`RequestPlan::url`]).
    Redirect {
        /// Body bytes to read and drop at most.
        drain: usize,
    },
}

/// One request's plan: reuse or connect, send, retry, redirect, drain
/// (issue 34, point 4). The adapter's loop, either I/O style:
///
/// ```
/// use core::time::Duration;
/// use http_net_conn::{ClientConn, ClientSettings, Config, Failure, RequestBody, Timestamp};
/// use http_net_conn::driver::{Answered, RequestPlan};
///
/// let s = ClientSettings { redirects: http_net_conn::Redirects::follow(1), ..ClientSettings::DEFAULT };
/// let now = Timestamp::from_nanos(0);
/// let mut plan = RequestPlan::chase(&s, now, b"GET", "http://a.example/old")?;
/// let mut body: RequestBody<'_, [u8]> = RequestBody::Empty;
/// let mut fields = std::borrow::Cow::Borrowed(&[][..]);
/// assert!(plan.reuse()); // the first attempt may take a pooled connection
/// // It failed on a new connection: the caller's error, not sent again.
/// let mut conn = ClientConn::new(Config::DEFAULT);
/// plan.arm(&mut conn);
/// assert!(!plan.failed(Some(&conn), Failure::Closed, true));
/// // A 301 is followed, its body drained first.
/// let next = plan.answered(301, Some(b"/new"), &mut body, &mut fields)?;
/// assert!(matches!(next, Answered::Redirect { .. }));
/// assert_eq!(plan.url()?.target(), "/new");
/// assert_eq!(plan.answered(200, None, &mut body, &mut fields)?, Answered::Done);
/// # Ok::<(), Box<dyn core::error::Error>>(())
/// ```
#[derive(Clone, Debug)]
pub struct RequestPlan<'u> {
    /// The redirect chase of a request to a URL (none for one to a host
    /// and port, which follows no redirect).
    chase: Option<Chase<'u>>,
    request: RequestDeadline,
    expect_wait: Duration,
    /// The current hop was sent again already: the next attempt goes out
    /// on a new connection, and a failure of it is final.
    retried: bool,
}

/// A URL request's redirect chase: the method and URL to send now, the
/// first origin (credentials stay with it, RFC 9110 §15.4), and the hops
/// followed, for [`Redirects::decide`]. The caller's method and URL are
/// borrowed until a redirect replaces them (a request that follows none
/// allocates nothing for its plan).
#[derive(Clone, Debug)]
struct Chase<'u> {
    policy: Redirects,
    method: Cow<'u, [u8]>,
    url: Cow<'u, str>,
    first: Origin<'u>,
    followed: usize,
}

impl<'u> RequestPlan<'u> {
    /// The plan of a request to a host and port started at `now`: no
    /// redirect followed.
    pub fn new(s: &ClientSettings, now: Timestamp) -> RequestPlan<'u> {
        RequestPlan {
            chase: None,
            request: RequestDeadline::new(now, s.request_timeout),
            expect_wait: s.expect_wait,
            retried: false,
        }
    }

    /// The plan of `method url` started at `now`, following redirects as
    /// `s.redirects` says; an unusable `url` is the [`UrlError`].
    pub fn chase(
        s: &ClientSettings,
        now: Timestamp,
        method: &'u [u8],
        url: &'u str,
    ) -> Result<RequestPlan<'u>, UrlError> {
        let first = Url::parse(url)?;
        let mut plan = RequestPlan::new(s, now);
        plan.chase = Some(Chase {
            policy: s.redirects,
            method: Cow::Borrowed(method),
            url: Cow::Borrowed(url),
            first: first.origin(),
            followed: 0,
        });
        Ok(plan)
    }

    /// The whole request's deadline.
    pub fn deadline(&self) -> RequestDeadline {
        self.request
    }

    /// The method of the attempt to send now (a URL request's).
    pub fn method(&self) -> &[u8] {
        self.chase.as_ref().map_or(&[], |c| &c.method)
    }

    /// The URL of the attempt to send now; a plan made by
    /// [`new`](RequestPlan::new), for a host and port, has none:
    /// [`UrlError::MissingHost`].
    pub fn url(&self) -> Result<Url<'_>, UrlError> {
        self.chase
            .as_ref()
            .map_or(Err(UrlError::MissingHost), |c| Url::parse(&c.url))
    }

    /// Whether the attempt to send now may take a pooled connection: not
    /// after a retry, which goes out on a new one.
    pub fn reuse(&self) -> bool {
        !self.retried
    }

    /// Sets the request's deadlines on the connection an attempt goes out
    /// on ([`ClientConn::arm`]).
    pub fn arm(&self, conn: &mut ClientConn) {
        conn.arm(self.request, self.expect_wait);
    }

    /// After an attempt failed as `failure` says, on `conn` (none when no
    /// connection was had): whether it is sent again, on a new connection.
    /// The connection's rule ([`ClientConn::retry`], RFC 9110 §9.2.2),
    /// once per hop.
    pub fn failed(
        &mut self,
        conn: Option<&ClientConn>,
        failure: Failure,
        replayable: bool,
    ) -> bool {
        self.again(conn.map_or(Retry::No, |c| c.retry(failure, replayable)))
    }

    /// [`failed`](RequestPlan::failed) with the connection's answer
    /// ([`ClientConn::retry`]) already had: whether the attempt is sent
    /// again, once per hop.
    pub fn again(&mut self, retry: Retry) -> bool {
        let again = !self.retried && retry.is_retry();
        self.retried |= again;
        again
    }

    /// After a response head with `status` and `Location` value
    /// `location_value`: the answer, or a redirect the policy follows
    /// ([`Redirects::decide`]), the plan then at the next URL and method,
    /// with `body` and `fields` made the next hop's (a body dropped for a
    /// `GET`, credentials left behind at another origin than the first).
    /// The [`RedirectError`] when it may not be followed: past the hop
    /// limit, a downgrade to `http`, a body that cannot be sent again, a
    /// `Location` that is missing or no `http` or `https` URL.
    pub fn answered<'f, R: ?Sized>(
        &mut self,
        status: u16,
        location_value: Option<&[u8]>,
        body: &mut RequestBody<'_, R>,
        fields: &mut Cow<'_, [FieldPair<'f>]>,
    ) -> Result<Answered, RedirectError> {
        let Some(c) = self.chase.as_mut().filter(|c| c.policy.follows(status)) else {
            return Ok(Answered::Done);
        };
        let here = Url::parse(&c.url).map_err(|_| RedirectError::BadLocation)?;
        let next = here.resolve(location(location_value)?);
        let there = Url::parse(&next).map_err(|_| RedirectError::BadLocation)?;
        let hop = c.policy.decide(&Redirect {
            status,
            method: &c.method,
            followed: c.followed,
            first: c.first,
            from: here.origin(),
            to: there.origin(),
            replayable: body.replayable(),
        })?;
        c.method = Cow::Owned(hop.method(&c.method).to_vec());
        c.followed += 1;
        c.url = Cow::Owned(next);
        if !hop.keeps_body() {
            *body = RequestBody::Empty;
        }
        if fields.iter().any(|(n, _)| !hop.keeps_field(n)) {
            fields.to_mut().retain(|(n, _)| hop.keeps_field(n));
        }
        self.retried = false;
        Ok(Answered::Redirect {
            drain: REDIRECT_BODY_DRAIN,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{BodyLength, Config, Redirects};

    fn t0() -> Timestamp {
        Timestamp::from_nanos(0)
    }

    /// A connection that carried a response and then closed under the
    /// next request, sent in full: what the retry rule looks at.
    fn closed_under(method: &[u8]) -> ClientConn {
        let mut c = ClientConn::new(Config::DEFAULT);
        let host: &[(&[u8], &[u8])] = &[(b"Host", b"a")];
        c.send_request(b"GET", b"/", host, BodyLength::Empty)
            .unwrap();
        let n = c.output().len();
        c.consume_output(n);
        let _ = c.recv(b"HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n");
        while !matches!(c.poll_event(), Ok(crate::ClientEvent::Idle) | Err(_)) {}
        c.send_request(method, b"/", host, BodyLength::Empty)
            .unwrap();
        let n = c.output().len();
        c.consume_output(n);
        c.recv_eof();
        c
    }

    #[test]
    fn a_retry_goes_out_once_on_a_new_connection() {
        let mut plan = RequestPlan::new(&ClientSettings::DEFAULT, t0());
        assert!(plan.reuse());
        assert!(plan.failed(Some(&closed_under(b"GET")), Failure::Closed, true));
        assert!(!plan.reuse(), "the retry takes no pooled connection");
        // Even a connection the rule would retry on: once.
        assert!(!plan.failed(Some(&closed_under(b"GET")), Failure::Closed, true));
    }

    #[test]
    fn no_retry_without_a_connection_or_for_a_post_sent() {
        let mut plan = RequestPlan::new(&ClientSettings::DEFAULT, t0());
        assert!(!plan.failed(None, Failure::Closed, true));
        assert!(!plan.failed(Some(&closed_under(b"POST")), Failure::Closed, true));
        assert!(plan.reuse());
    }

    #[test]
    fn a_redirect_drains_changes_the_hop_and_allows_a_retry_again() {
        let s = ClientSettings {
            redirects: Redirects::follow(2),
            ..ClientSettings::DEFAULT
        };
        let mut plan = RequestPlan::chase(&s, t0(), b"POST", "http://a/form").unwrap();
        let mut body: RequestBody<'_, [u8]> = RequestBody::Bytes(b"x");
        let mut fields: Cow<'_, [FieldPair<'_>]> = Cow::Owned(alloc::vec![
            (&b"Authorization"[..], &b"t"[..]),
            (b"X", b"y")
        ]);
        assert!(plan.failed(Some(&closed_under(b"GET")), Failure::Closed, true));
        let next = plan
            .answered(303, Some(b"http://b/done"), &mut body, &mut fields)
            .unwrap();
        assert_eq!(
            next,
            Answered::Redirect {
                drain: REDIRECT_BODY_DRAIN
            }
        );
        assert_eq!(plan.method(), b"GET");
        assert_eq!(plan.url().unwrap().host(), "b");
        assert!(matches!(body, RequestBody::Empty), "a 303 drops the body");
        assert_eq!(*fields, [(&b"X"[..], &b"y"[..])], "credentials stay behind");
        assert!(plan.reuse(), "a new hop may take a pooled connection");
        assert_eq!(
            plan.answered(404, None, &mut body, &mut fields),
            Ok(Answered::Done)
        );
    }

    fn chase<'u>(method: &'u [u8], url: &'u str) -> RequestPlan<'u> {
        let s = ClientSettings {
            redirects: Redirects::follow(5),
            ..ClientSettings::DEFAULT
        };
        RequestPlan::chase(&s, t0(), method, url).unwrap()
    }

    #[test]
    fn a_chase_keeps_the_first_origin_for_credentials() {
        let mut c = chase(b"GET", "http://a/1");
        let mut body: RequestBody<'_, [u8]> = RequestBody::Empty;
        let auth = || Cow::Owned(alloc::vec![(&b"authorization"[..], &b"t"[..])]);
        // Away and back: on the first origin again, credentials go along.
        let mut away = auth();
        c.answered(302, Some(b"http://b/2"), &mut body, &mut away)
            .unwrap();
        assert!(away.is_empty());
        let mut back = auth();
        c.answered(307, Some(b"http://A:80/3"), &mut body, &mut back)
            .unwrap();
        assert_eq!(back, auth());
        assert_eq!(c.url().unwrap().target(), "/3");
    }

    #[test]
    fn a_chase_refuses_what_the_policy_refuses() {
        let mut c = chase(b"PUT", "https://a/");
        let mut none = Cow::Borrowed(&[][..]);
        let mut reader: &[u8] = b"x";
        let mut streamed: RequestBody<'_, &[u8]> = RequestBody::Reader {
            reader: &mut reader,
            len: None,
        };
        let again = c.answered(307, Some(b"/again"), &mut streamed, &mut none);
        assert_eq!(again, Err(RedirectError::BodyNotReplayable));
        let mut body: RequestBody<'_, [u8]> = RequestBody::Empty;
        let down = c.answered(301, Some(b"http://a/"), &mut body, &mut none);
        assert_eq!(down, Err(RedirectError::Downgrade));
        let missing = c.answered(301, None, &mut body, &mut none);
        assert_eq!(missing, Err(RedirectError::BadLocation));
        let ftp = c.answered(301, Some(b"ftp://a/"), &mut body, &mut none);
        assert_eq!(ftp, Err(RedirectError::BadLocation));
        let mut many = chase(b"GET", "http://a/");
        for _ in 0..5 {
            many.answered(302, Some(b"/x"), &mut body, &mut none)
                .unwrap();
        }
        let past = many.answered(302, Some(b"/x"), &mut body, &mut none);
        assert_eq!(past, Err(RedirectError::TooMany));
        // Off: a redirect is the answer.
        let off = ClientSettings::DEFAULT;
        let mut plan = RequestPlan::chase(&off, t0(), b"GET", "http://a/").unwrap();
        let answer = plan.answered(302, Some(b"/x"), &mut body, &mut none);
        assert_eq!(answer, Ok(Answered::Done));
        let bad = RequestPlan::chase(&off, t0(), b"GET", "ftp://a/").err();
        assert_eq!(bad, Some(UrlError::UnsupportedScheme));
    }

    #[test]
    fn a_plan_without_a_url_follows_nothing() {
        let s = ClientSettings {
            redirects: Redirects::follow(2),
            ..ClientSettings::DEFAULT
        };
        let mut plan = RequestPlan::new(&s, t0());
        let mut body: RequestBody<'_, [u8]> = RequestBody::Empty;
        let next = plan.answered(302, Some(b"/x"), &mut body, &mut Cow::Borrowed(&[][..]));
        assert_eq!(next, Ok(Answered::Done));
        assert_eq!(plan.url().err(), Some(UrlError::MissingHost));
    }

    #[test]
    fn the_plan_arms_the_connection_with_the_request_deadline() {
        let s = ClientSettings {
            request_timeout: Some(Duration::from_secs(2)),
            ..ClientSettings::DEFAULT
        };
        let plan = RequestPlan::new(&s, t0());
        let mut c = ClientConn::new(Config::DEFAULT);
        plan.arm(&mut c);
        assert_eq!(c.request_deadline(), plan.deadline());
        assert_eq!(
            c.poll_timeout(t0()),
            Some(t0().saturating_add(Duration::from_secs(2)))
        );
    }
}
