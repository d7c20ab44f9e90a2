//! The request head as an `http::Request`: the method, the URI from the
//! target, the version, the fields in order (duplicates kept), and the
//! peer's address in the extensions.

use std::cell::RefCell;
use std::net::SocketAddr;
use std::sync::Arc;

use bytes::{Bytes, BytesMut};
use http::header::{HeaderName, HeaderValue};
use http::{HeaderMap, Method, Request, Uri, Version};
use http_net_tokio::http_net_conn::{self as conn, BodyKind, RequestView, Span};

use crate::body::{Body, BodyLimit, Chan};
use crate::error::Error;

/// The peer's address, in every request's extensions when the listener
/// knows it (a TCP listener does).
///
/// ```
/// use http_net_tower::{Body, PeerAddr};
///
/// fn who(req: &http::Request<Body>) -> String {
///     match req.extensions().get::<PeerAddr>() {
///         Some(PeerAddr(addr)) => addr.to_string(),
///         None => "unknown".into(),
///     }
/// }
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PeerAddr(pub SocketAddr);

/// The request head as it was received, for a service that must see it
/// so (a conformance origin, a proxy): the target's bytes, and the fields
/// with the case of their names and their order across names, which
/// `http::HeaderMap` does not keep (it lowercases names and lists a name's
/// values together). In the extensions of every request when
/// [`ServiceHandler::received_head`](crate::ServiceHandler::received_head)
/// is on (one allocation a request; off by default).
///
/// ```
/// use http_net_tower::{Body, ReceivedHead};
///
/// fn first_field_name(req: &http::Request<Body>) -> Option<Vec<u8>> {
///     let head = req.extensions().get::<ReceivedHead>()?;
///     head.fields().next().map(|(name, _)| name.to_vec())
/// }
/// ```
#[derive(Clone, Debug)]
pub struct ReceivedHead {
    /// The bytes from the target to the last field value.
    bytes: Bytes,
    target: (usize, usize),
    /// (name start, name end, value start, value end) in `bytes`.
    fields: Vec<[usize; 4]>,
}

impl ReceivedHead {
    /// The request target as received.
    pub fn target(&self) -> &[u8] {
        self.bytes.get(self.target.0..self.target.1).unwrap_or(&[])
    }

    /// The fields as received (name case kept), in order.
    pub fn fields(&self) -> impl Iterator<Item = (&[u8], &[u8])> + '_ {
        self.fields.iter().map(|[a, b, c, d]| {
            (
                self.bytes.get(*a..*b).unwrap_or(&[]),
                self.bytes.get(*c..*d).unwrap_or(&[]),
            )
        })
    }
}

/// What the handler keeps of the request for the response.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Facts {
    /// `HEAD`: the response carries no body.
    pub(crate) head: bool,
    /// `TE: trailers`: the client takes trailers on a chunked response.
    pub(crate) te_trailers: bool,
    /// The request may switch protocols (`Upgrade`, or `CONNECT`).
    pub(crate) may_switch: bool,
    /// HTTP/1.0: a streamed response is close-delimited, not chunked.
    pub(crate) http10: bool,
}

/// The request built for the service, the channel its body reads through
/// (`None` without a body), and the facts the response needs.
pub(crate) struct Built {
    pub(crate) request: Request<Body>,
    pub(crate) chan: Option<Arc<Chan>>,
    pub(crate) facts: Facts,
}

/// The method as the `http` crate names it (the common ones without a
/// lookup; the general twin is `Method::from_bytes`).
fn method(view: &RequestView<'_>) -> Result<Method, Error> {
    Ok(match view.method() {
        conn::Method::Get => Method::GET,
        conn::Method::Post => Method::POST,
        conn::Method::Head => Method::HEAD,
        conn::Method::Put => Method::PUT,
        conn::Method::Delete => Method::DELETE,
        _ => Method::from_bytes(view.method_bytes()).map_err(|_| Error::Target)?,
    })
}

/// Whether a field value, a comma-separated list, has `token` as a member
/// (ASCII case-insensitive, parameters after `;` ignored): the framing
/// crate's list members, each without its parameters.
pub(crate) fn list_has(value: &[u8], token: &[u8]) -> bool {
    use http_net_tokio::http_net_conn::framing::syntax::{list_members, trim_ows};
    list_members(value).any(|m| {
        let name = m.split(|&b| b == b';').next().unwrap_or(&[]);
        trim_ows(name).eq_ignore_ascii_case(token)
    })
}

/// The room of a thread's [`HEADS`] buffer; a head longer than a quarter of
/// it is copied on its own.
const HEADS_ROOM: usize = 16 * 1024;

thread_local! {
    /// The buffer this thread copies request heads into, one after the
    /// other: each head is split off as a [`Bytes`] that shares the buffer,
    /// and once every request of a filled buffer has been dropped the next
    /// head reuses it from the start (as a connection's read buffer does on
    /// hyper). In the steady state a head costs no allocation; a service
    /// that keeps a request's field value keeps its part of the buffer
    /// (at most [`HEADS_ROOM`]) alive, and a new buffer is taken meanwhile.
    static HEADS: RefCell<BytesMut> = RefCell::new(BytesMut::with_capacity(HEADS_ROOM));
}

/// `bytes` copied into one [`Bytes`] that the request's parts share: into
/// the thread's [`HEADS`] buffer (fast path; the general twin is
/// `Bytes::copy_from_slice`, an allocation and a shared header at the
/// first slice, each request).
fn copy_head(bytes: &[u8]) -> Bytes {
    if bytes.len() > HEADS_ROOM / 4 {
        return Bytes::copy_from_slice(bytes);
    }
    HEADS
        .try_with(|heads| {
            let mut heads = heads.try_borrow_mut().ok()?;
            // Reclaims the whole buffer when every head in it is gone,
            // else takes a new one of the same room.
            heads.reserve(bytes.len());
            heads.extend_from_slice(bytes);
            Some(heads.split().freeze())
        })
        .ok()
        .flatten()
        .unwrap_or_else(|| Bytes::copy_from_slice(bytes))
}

/// Builds the service's request from the head: one copy of the bytes from
/// the target to the last field value, which the URI and every field value
/// share (no copy per field).
pub(crate) fn build(
    view: &RequestView<'_>,
    peer: Option<SocketAddr>,
    keep_head: bool,
) -> Result<Built, Error> {
    let buf = view.buf();
    let head = view.head();
    let spans = view.field_spans().get(..head.field_count).unwrap_or(&[]);
    let lo = head.target.start();
    let hi = spans
        .iter()
        .map(|f| f.value.end().max(f.name.end()))
        .fold(head.target.end(), usize::max);
    let shared = copy_head(buf.get(lo..hi).unwrap_or(&[]));
    let part = |s: Span| shared.slice(s.start() - lo..s.end() - lo);

    let uri = Uri::from_maybe_shared(part(head.target)).map_err(|_| Error::Target)?;
    let mut headers = HeaderMap::with_capacity(spans.len());
    let (mut te_trailers, mut upgrade) = (false, false);
    for f in spans {
        let name = HeaderName::from_bytes(f.name.get(buf)).map_err(|_| Error::Field)?;
        let value = HeaderValue::from_maybe_shared(part(f.value)).map_err(|_| Error::Field)?;
        if name == http::header::TE {
            te_trailers |= list_has(value.as_bytes(), b"trailers");
        } else if name == http::header::UPGRADE {
            upgrade = true;
        }
        headers.append(name, value);
    }
    let method = method(view)?;
    let http10 = view.version() == conn::Version::Http10;
    let facts = Facts {
        head: method == Method::HEAD,
        te_trailers,
        may_switch: upgrade || method == Method::CONNECT,
        http10,
    };
    let (body, chan) = match view.body_kind() {
        BodyKind::Length(n) if n > 0 => Body::streamed(Some(n)),
        BodyKind::Chunked => Body::streamed(None),
        _ => (Body::empty(), None),
    };
    let mut request = Request::new(body);
    *request.method_mut() = method;
    *request.uri_mut() = uri;
    *request.version_mut() = if http10 {
        Version::HTTP_10
    } else {
        Version::HTTP_11
    };
    *request.headers_mut() = headers;
    let ext = request.extensions_mut();
    if let Some(chan) = &chan {
        ext.insert(BodyLimit(Arc::clone(chan)));
    }
    if keep_head {
        let at = |s: Span| s.start() - lo..s.end() - lo;
        let t = at(head.target);
        ext.insert(ReceivedHead {
            target: (t.start, t.end),
            fields: spans
                .iter()
                .map(|f| {
                    let (n, v) = (at(f.name), at(f.value));
                    [n.start, n.end, v.start, v.end]
                })
                .collect(),
            bytes: shared,
        });
    }
    if let Some(peer) = peer {
        ext.insert(PeerAddr(peer));
        #[cfg(feature = "connect-info")]
        ext.insert(axum::extract::ConnectInfo(peer));
    }
    Ok(Built {
        request,
        chan,
        facts,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use http_net_tokio::http_net_conn::{Config, ServerConn, ServerEvent};

    fn built(raw: &[u8]) -> Built {
        let mut conn = ServerConn::new(Config::DEFAULT);
        assert_eq!(conn.recv(raw), raw.len());
        let peer = "10.0.0.1:4000".parse().ok();
        match conn.poll_event() {
            Ok(ServerEvent::Request(view)) => build(&view, peer, true).unwrap(),
            other => panic!("no request: {other:?}"),
        }
    }

    #[test]
    fn the_head_maps_with_fields_in_order_and_duplicates_kept() {
        let b = built(
            b"PATCH /a/b?x=1&y=2 HTTP/1.1\r\nHost: h\r\nX-Dup: 1\r\nAccept: */*\r\n\
              X-Dup: 2\r\nContent-Length: 3\r\n\r\nabc",
        );
        let r = &b.request;
        assert_eq!(r.method(), Method::PATCH);
        assert_eq!(r.uri().path(), "/a/b");
        assert_eq!(r.uri().query(), Some("x=1&y=2"));
        assert_eq!(r.version(), Version::HTTP_11);
        let dups: Vec<_> = r.headers().get_all("x-dup").iter().collect();
        assert_eq!(dups, ["1", "2"]);
        let names: Vec<_> = r.headers().keys().map(|k| k.as_str()).collect();
        assert_eq!(names, ["host", "x-dup", "accept", "content-length"]);
        assert_eq!(
            r.extensions().get::<PeerAddr>(),
            Some(&PeerAddr("10.0.0.1:4000".parse().unwrap()))
        );
        assert!(r.extensions().get::<BodyLimit>().is_some());
        let received = r.extensions().get::<ReceivedHead>().unwrap();
        assert_eq!(received.target(), b"/a/b?x=1&y=2");
        let fields: Vec<_> = received.fields().collect();
        assert_eq!(
            fields,
            [
                (&b"Host"[..], &b"h"[..]),
                (b"X-Dup", b"1"),
                (b"Accept", b"*/*"),
                (b"X-Dup", b"2"),
                (b"Content-Length", b"3"),
            ]
        );
        assert!(b.chan.is_some());
        assert_eq!(http_body::Body::size_hint(r.body()).exact(), Some(3));
    }

    #[test]
    fn absolute_and_authority_forms_keep_their_authority() {
        let b = built(b"GET http://h.example:8080/p?q HTTP/1.1\r\nHost: h.example:8080\r\n\r\n");
        let u = b.request.uri();
        assert_eq!(u.scheme_str(), Some("http"));
        assert_eq!(u.authority().map(|a| a.as_str()), Some("h.example:8080"));
        assert_eq!(u.path(), "/p");
        let b = built(b"OPTIONS * HTTP/1.1\r\nHost: h\r\n\r\n");
        assert_eq!(b.request.uri(), "*");
    }

    #[test]
    fn http10_te_trailers_and_upgrade_are_seen() {
        let b = built(b"GET / HTTP/1.0\r\n\r\n");
        assert_eq!(b.request.version(), Version::HTTP_10);
        assert!(b.chan.is_none(), "no body, no channel");
        assert!(!b.facts.te_trailers && !b.facts.may_switch && !b.facts.head);
        let b = built(
            b"HEAD / HTTP/1.1\r\nHost: h\r\nTE: gzip;q=0.5, Trailers\r\nConnection: TE, upgrade\r\n\
              Upgrade: websocket\r\n\r\n",
        );
        assert!(b.facts.te_trailers && b.facts.may_switch && b.facts.head);
    }

    #[test]
    fn heads_share_a_thread_buffer_and_stay_intact_after_it_is_reused() {
        // A head kept while thousands more pass: the buffer is reclaimed or
        // replaced meanwhile, never written over under a live head.
        let kept = copy_head(b"/kept?x=1 Host h");
        let mut last = Bytes::new();
        for i in 0..5_000u32 {
            let head = format!("/p/{i} X-N {i}");
            last = copy_head(head.as_bytes());
            assert_eq!(last, head.as_bytes());
        }
        assert_eq!(kept, &b"/kept?x=1 Host h"[..]);
        assert_eq!(last, &b"/p/4999 X-N 4999"[..]);
        // Two heads in a row share one buffer: the second starts where the
        // first ends.
        let (a, b) = (copy_head(b"aaaa"), copy_head(b"bbbb"));
        assert_eq!(a.as_ptr().wrapping_add(4), b.as_ptr());
        // A long head is copied on its own.
        let long = vec![b'x'; HEADS_ROOM];
        assert_eq!(copy_head(&long), long);
    }

    #[test]
    fn list_members_are_matched_whole() {
        assert!(list_has(b"a, trailers", b"trailers"));
        assert!(!list_has(b"trailersx", b"trailers"));
    }
}
