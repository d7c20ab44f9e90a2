//! Request heads: any bytes, parsed whole and resumed over growing prefixes
//! (the resumable contract), must give the same head or the same error;
//! spans stay inside the head; the body-length decision never panics.
#![no_main]

use http_net_fuzz::Rng;
use http_net_head::{Field, HeadLimits, Parsed, RequestParser};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|input: &[u8]| {
    let Some((&ctrl, data)) = input.split_first() else {
        return;
    };
    let limits = HeadLimits::DEFAULT;
    let mut fields = [Field::default(); 100];
    let whole = RequestParser::new(limits).parse(data, &mut fields);
    let whole_fields = fields;

    // The same bytes arriving in pieces, the same parser resumed.
    let mut rng = Rng::new(&[ctrl]);
    let mut parser = RequestParser::new(limits);
    let mut fields2 = [Field::default(); 100];
    let mut end = 0;
    let resumed = loop {
        end = (end + 1 + rng.below(if ctrl & 1 == 0 { 3 } else { 64 })).min(data.len());
        match parser.parse(&data[..end], &mut fields2) {
            Ok(Parsed::Partial) if end < data.len() => continue,
            other => break other,
        }
    };
    assert_eq!(whole, resumed, "whole and resumed parses differ");

    if let Ok(Parsed::Complete(head)) = whole {
        assert!(head.len <= data.len());
        assert!(head.field_count <= fields.len());
        let head_bytes = &data[..head.len];
        for span in [head.method_span, head.target] {
            assert!(span.end() <= head.len);
        }
        for (a, b) in whole_fields[..head.field_count]
            .iter()
            .zip(&fields2[..head.field_count])
        {
            assert_eq!(a, b, "fields differ");
            assert!(a.name.end() <= head.len && a.value.end() <= head.len);
            assert!(!a.name.get(head_bytes).is_empty());
        }
        let _ = http_net_framing::request_body(
            head.version,
            &head.known,
            &whole_fields[..head.field_count],
            data,
            &http_net_framing::BodyLimits::DEFAULT,
        );
    }
});
