//! Differential against httparse: wherever both parse a complete request
//! head, method, target, version and fields (names and values) must be
//! identical. A head http-net accepts and httparse rejects is a finding,
//! unless it is one of the differences explained in `docs/SECURITY.md`
//! (listed in `explained`): those are rules where httparse is stricter
//! than RFC 9112 and http-net follows the RFC.
#![no_main]

use http_net_head::{Field, HeadLimits, Parsed, RequestParser, Version};
use libfuzzer_sys::fuzz_target;

/// Differences explained in docs/SECURITY.md, "differential_httparse".
fn explained(data: &[u8], head_len: usize, err: httparse::Error) -> bool {
    let head = &data[..head_len];
    match err {
        // RFC 9110 §2.5: another HTTP/1.x minor version is read as 1.1;
        // httparse knows only HTTP/1.0 and HTTP/1.1.
        httparse::Error::Version => head
            .windows(7)
            .any(|w| w.starts_with(b"HTTP/1.") && !matches!(w[6], b'0' | b'1')),
        _ => false,
    }
}

fuzz_target!(|data: &[u8]| {
    let mut fields = [Field::default(); 100];
    let ours = RequestParser::new(HeadLimits::DEFAULT).parse(data, &mut fields);
    let mut headers = [httparse::EMPTY_HEADER; 100];
    let mut req = httparse::Request::new(&mut headers);
    let theirs = req.parse(data);
    match (ours, theirs) {
        (Ok(Parsed::Complete(h)), Ok(httparse::Status::Complete(len))) => {
            assert_eq!(h.len, len, "head length");
            assert_eq!(
                h.method_span.get(data),
                req.method.unwrap().as_bytes(),
                "method"
            );
            assert_eq!(h.target.get(data), req.path.unwrap().as_bytes(), "target");
            let v = req.version.unwrap();
            assert_eq!(h.version == Version::Http11, v == 1, "version");
            assert_eq!(h.field_count, req.headers.len(), "field count");
            for (f, hh) in fields[..h.field_count].iter().zip(req.headers.iter()) {
                assert_eq!(f.name.get(data), hh.name.as_bytes(), "field name");
                assert_eq!(f.value.get(data), hh.value, "field value");
            }
        }
        (Ok(Parsed::Complete(h)), Err(e)) => {
            assert!(
                explained(data, h.len, e),
                "http-net accepts a head httparse rejects ({e:?}): {:?}",
                String::from_utf8_lossy(&data[..h.len])
            );
        }
        _ => {}
    }
});
