//! The chunked decoder: any body bytes, decoded whole, fed in random pieces
//! (the streaming contract), and in place, must give the same data, the same
//! trailers and the same outcome; it never consumes past the message.
#![no_main]

use http_net_framing::{BodyLimits, ChunkedDecoder};
use http_net_fuzz::Rng;
use http_net_head::Field;
use libfuzzer_sys::fuzz_target;

type Trailers = Vec<(Vec<u8>, Vec<u8>)>;

/// Decodes with the input growing piece by piece (`pieces` false: all at
/// once). Returns (data, trailers, consumed, outcome).
fn decode(data: &[u8], rng: Option<&mut Rng>) -> (Vec<u8>, Trailers, usize, Result<bool, String>) {
    let mut dec = ChunkedDecoder::new(BodyLimits::DEFAULT, http_net_head::HeadLimits::DEFAULT);
    let mut trailers = [Field::default(); 100];
    let mut out = Vec::new();
    let mut got = Vec::new();
    let mut pos = 0;
    let mut avail = match rng {
        Some(_) => 0,
        None => data.len(),
    };
    let mut rng = rng;
    loop {
        if let Some(r) = rng.as_deref_mut() {
            avail = (avail + 1 + r.below(24)).min(data.len());
        }
        let input = &data[pos..avail];
        let step = match dec.decode(input, &mut trailers) {
            Ok(s) => s,
            Err(e) => return (out, got, pos, Err(format!("{e:?}"))),
        };
        assert!(step.consumed <= input.len());
        assert!(step.data.end <= step.consumed || step.data.is_empty());
        out.extend_from_slice(&input[step.data.clone()]);
        if let Some(block) = step.trailers {
            for f in &trailers[..block.field_count] {
                got.push((f.name.get(input).to_vec(), f.value.get(input).to_vec()));
            }
        }
        pos += step.consumed;
        if step.done {
            return (out, got, pos, Ok(true));
        }
        if avail == data.len() && step.consumed == 0 {
            return (out, got, pos, Ok(false));
        }
    }
}

fuzz_target!(|input: &[u8]| {
    let Some((&ctrl, data)) = input.split_first() else {
        return;
    };
    let whole = decode(data, None);
    let mut rng = Rng::new(&[ctrl]);
    let pieces = decode(data, Some(&mut rng));
    assert_eq!(whole.0, pieces.0, "data differs");
    assert_eq!(whole.3, pieces.3, "outcome differs");
    if whole.3 == Ok(true) {
        assert_eq!(whole.1, pieces.1, "trailers differ");
        assert_eq!(whole.2, pieces.2, "consumed differs");
    }

    let mut copy = data.to_vec();
    let mut dec = ChunkedDecoder::new(BodyLimits::DEFAULT, http_net_head::HeadLimits::DEFAULT);
    let mut trailers = [Field::default(); 100];
    match dec.decode_in_place(&mut copy, &mut trailers) {
        Ok(step) => {
            assert!(step.data_len <= step.consumed);
            if step.done {
                assert_eq!(whole.3, Ok(true));
                assert_eq!(&copy[..step.data_len], &whole.0[..]);
                assert_eq!(step.consumed, whole.2);
            }
        }
        Err(e) => assert_eq!(whole.3, Err(format!("{e:?}")), "in place differs"),
    }
});
