//! One grammar, read and write: what a connection agrees to send is exactly
//! what the peer connection parses back unchanged.
//!
//! The regression cases are values the client used to send although a
//! `ServerConn` rejects them (RFC 9110 §7.2 `Host`, RFC 9112 §3.2 request
//! targets). The proptests generate valid and invalid methods, targets,
//! fields, statuses and reasons and check both directions: sending succeeds
//! if and only if the peer parses the message back byte for byte.

use http_net_conn::{BodyLength, ClientConn, Config, Error, LocalError, ServerConn, ServerEvent};

type Fields = Vec<(Vec<u8>, Vec<u8>)>;

fn pairs(fields: &Fields) -> Vec<(&[u8], &[u8])> {
    fields
        .iter()
        .map(|(n, v)| (n.as_slice(), v.as_slice()))
        .collect()
}

fn send(method: &[u8], target: &[u8], host: &[u8]) -> Result<(), Error> {
    let mut c = ClientConn::new(Config::DEFAULT);
    c.send_request(method, target, &[(b"Host", host)], BodyLength::Empty)
}

/// What a `ServerConn` makes of these request bytes: the method, target and
/// fields of the request it surfaces, or `None` when it refuses them.
fn server_reads(bytes: &[u8]) -> Option<(Vec<u8>, Vec<u8>, Fields)> {
    let mut s = ServerConn::new(Config::DEFAULT);
    s.recv(bytes);
    match s.poll_event() {
        Ok(ServerEvent::Request(r)) => Some((
            r.method_bytes().to_vec(),
            r.target().to_vec(),
            r.fields().map(|(n, v)| (n.to_vec(), v.to_vec())).collect(),
        )),
        _ => None,
    }
}

/// The request line and fields as a writer that checks nothing would put
/// them on the wire.
fn raw_request(method: &[u8], target: &[u8], fields: &Fields) -> Vec<u8> {
    let mut out = Vec::new();
    out.extend_from_slice(method);
    out.push(b' ');
    out.extend_from_slice(target);
    out.extend_from_slice(b" HTTP/1.1\r\n");
    for (n, v) in fields {
        out.extend_from_slice(n);
        out.extend_from_slice(b": ");
        out.extend_from_slice(v);
        out.extend_from_slice(b"\r\n");
    }
    out.extend_from_slice(b"\r\n");
    out
}

#[test]
fn client_refuses_hosts_the_server_rejects() {
    for host in [
        &b"a:99999"[..],
        b"[[::",
        b"a%zz",
        b"[::1",
        b"a:",
        b"[1::2::3]",
    ] {
        assert_eq!(
            send(b"GET", b"/", host),
            Err(LocalError::InvalidHost.into()),
            "{host:?}"
        );
        let raw = raw_request(b"GET", b"/", &vec![(b"Host".to_vec(), host.to_vec())]);
        assert_eq!(server_reads(&raw), None, "{host:?}");
    }
}

#[test]
fn client_refuses_targets_the_server_rejects() {
    for (method, target) in [
        (&b"GET"[..], &b"http://u@a/"[..]),
        (b"CONNECT", b"a.example"),
        (b"CONNECT", b"a:b:c"),
        (b"GET", b"http://a:99999/"),
        (b"GET", b"http://[::1/"),
        (b"GET", b"/[x]"),
        (b"GET", b"http://a/[x]"),
    ] {
        assert_eq!(
            send(method, target, b"a"),
            Err(LocalError::InvalidRequestLine.into()),
            "{target:?}"
        );
        let raw = raw_request(method, target, &vec![(b"Host".to_vec(), b"a".to_vec())]);
        assert_eq!(server_reads(&raw), None, "{target:?}");
    }
}

#[test]
fn client_sends_what_the_server_accepts() {
    for (method, target, host) in [
        (&b"GET"[..], &b"/"[..], &b"a"[..]),
        (b"GET", b"http://a%41/x", b"a%41"),
        (b"GET", b"http://[::1]:8080/", b"[::1]:8080"),
        (b"CONNECT", b"[v1.x]:443", b"[v1.x]:443"),
        (b"OPTIONS", b"*", b"a:1"),
    ] {
        let fields = vec![(b"Host".to_vec(), host.to_vec())];
        let mut c = ClientConn::new(Config::DEFAULT);
        c.send_request(method, target, &pairs(&fields), BodyLength::Empty)
            .unwrap();
        assert_eq!(
            server_reads(c.output()),
            Some((method.to_vec(), target.to_vec(), fields)),
            "{target:?}"
        );
    }
}
