//! The client connection: four pipelined requests (method by the control
//! byte: GET, HEAD, CONNECT, POST with a body, OPTIONS *; as many as the
//! connection takes), then any bytes as the server's answers, fed whole and
//! in random pieces: never a panic or a livelock, the same events however
//! the answers are split.
#![no_main]

use http_net_fuzz::{client_method, run_client, split, Rng};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|input: &[u8]| {
    let Some((&ctrl, data)) = input.split_first() else {
        return;
    };
    let method = client_method(ctrl);
    let whole = run_client(&[data], method, 4);
    let mut rng = Rng::new(&[ctrl]);
    let pieces = split(data, &mut rng);
    let split = run_client(&pieces, method, 4);
    assert_eq!(whole.events, split.events, "events differ with the split");
    assert_eq!(whole.output, split.output, "requests differ with the split");
});
