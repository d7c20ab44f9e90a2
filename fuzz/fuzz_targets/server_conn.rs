//! The server connection: any bytes, fed whole and in random pieces, every
//! request answered (one of four ways, by the control byte), every output
//! taken: never a panic or a livelock, and the same events, errors and
//! output bytes however the input is split.
#![no_main]

use http_net_fuzz::{run_server, split, Answer, Rng};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|input: &[u8]| {
    let Some((&ctrl, data)) = input.split_first() else {
        return;
    };
    let answer = Answer::from_byte(ctrl);
    let whole = run_server(&[data], answer);
    let mut rng = Rng::new(&[ctrl]);
    let pieces = split(data, &mut rng);
    let split = run_server(&pieces, answer);
    assert_eq!(whole.events, split.events, "events differ with the split");
    assert_eq!(whole.output, split.output, "output differs with the split");
});
