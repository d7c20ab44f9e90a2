//! Response heads: any bytes, both obs-fold options, parsed whole and
//! resumed over growing prefixes, must agree; the body-length decision for
//! GET, HEAD and CONNECT never panics; unfolding stays in bounds.
#![no_main]

use http_net_fuzz::Rng;
use http_net_head::{
    unfold_in_place, Field, HeadLimits, Method, ObsFold, Parsed, ResponseOptions, ResponseParser,
};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|input: &[u8]| {
    let Some((&ctrl, data)) = input.split_first() else {
        return;
    };
    let options = ResponseOptions::DEFAULT
        .with_obs_fold(if ctrl & 0x80 == 0 {
            ObsFold::Replace
        } else {
            ObsFold::Reject
        })
        .with_bare_lf(ctrl & 0x40 != 0)
        .with_whitespace_before_colon(ctrl & 0x20 != 0)
        .with_reason_without_space(ctrl & 0x10 != 0);
    let limits = HeadLimits::DEFAULT;
    let mut fields = [Field::default(); 100];
    let whole = ResponseParser::new(limits, options).parse(data, &mut fields);

    let mut rng = Rng::new(&[ctrl]);
    let mut parser = ResponseParser::new(limits, options);
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
        assert!((100..=999).contains(&head.status));
        assert_eq!(fields[..head.field_count], fields2[..head.field_count]);
        for m in [Method::Get, Method::Head, Method::Connect] {
            let _ = http_net_framing::response_body(
                m,
                head.status,
                head.version,
                &head.known,
                &fields[..head.field_count],
                data,
                &http_net_framing::BodyLimits::DEFAULT,
            );
        }
        if head.obs_fold {
            let mut copy = data.to_vec();
            for f in &fields[..head.field_count] {
                unfold_in_place(&mut copy, f.value);
                let v = f.value.get(&copy);
                assert!(!v.contains(&b'\r') && !v.contains(&b'\n'));
            }
        }
    }
});
