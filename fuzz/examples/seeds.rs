//! Writes the seed corpora of the fuzz targets from the conformance tables
//! of `http-net-head` and `http-net-framing`, the shared security cases and
//! the bench inputs: `cargo run --manifest-path fuzz/Cargo.toml --example
//! seeds -- DIR` fills `DIR/<target>/` (`cargo xtask fuzz` runs it into
//! `fuzz/corpus/`). Each file is named after the hash of its bytes, so
//! running it again adds nothing twice.

use std::path::Path;

#[allow(dead_code)]
#[path = "../../crates/head/tests/cases/mod.rs"]
mod head_cases;

#[path = "../../crates/framing/tests/cases/mod.rs"]
mod framing_cases;

/// A known-attack row (the compare crate's list in `compare/tests/rows/security.rs`).
struct Row {
    #[allow(dead_code)]
    id: &'static str,
    client: bool,
    bytes: &'static [u8],
}

const SECURITY: &[Row] = include!("../../compare/tests/rows/security.rs");

const BENCH: [&[u8]; 3] = [
    include_bytes!("../../benches/inputs/browser_get.http"),
    include_bytes!("../../benches/inputs/small_get.http"),
    include_bytes!("../../benches/inputs/exchange_request.http"),
];
const RESPONSE_1K: &[u8] = include_bytes!("../../benches/inputs/response_1k.http");

fn write(dir: &Path, target: &str, prefix: &[u8], bytes: &[u8]) {
    let d = dir.join(target);
    std::fs::create_dir_all(&d).expect("corpus directory");
    let mut data = prefix.to_vec();
    data.extend_from_slice(bytes);
    // FNV-1a, enough to name files.
    let h = data.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3)
    });
    std::fs::write(d.join(format!("seed-{h:016x}")), data).expect("seed file");
}

fn main() {
    let dir = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "fuzz/corpus".into());
    let dir = Path::new(&dir);
    let mut requests: Vec<Vec<u8>> = BENCH.iter().map(|b| b.to_vec()).collect();
    let mut responses: Vec<Vec<u8>> = vec![RESPONSE_1K.to_vec()];
    let mut blocks: Vec<Vec<u8>> = Vec::new();
    for c in head_cases::CASES {
        match c.mode {
            head_cases::Mode::Request => requests.push(c.input.to_vec()),
            head_cases::Mode::Response | head_cases::Mode::ResponseRejectFold => {
                responses.push(c.input.to_vec())
            }
            head_cases::Mode::Block => blocks.push(c.input.to_vec()),
        }
    }
    for c in framing_cases::LENGTH_CASES {
        match c.side {
            framing_cases::Side::Request => requests.push(c.raw_head()),
            framing_cases::Side::Response { .. } => responses.push(c.raw_head()),
        }
    }
    for r in SECURITY {
        if r.client {
            responses.push(r.bytes.to_vec());
        } else {
            requests.push(r.bytes.to_vec());
        }
    }
    let chunked: Vec<&[u8]> = framing_cases::CHUNK_CASES
        .iter()
        .chain(framing_cases::TRAILER_CASES)
        .map(|c| c.input)
        .collect();

    for r in &requests {
        write(dir, "request_head", &[1], r);
        write(dir, "differential_httparse", &[], r);
        write(dir, "differential_front_line", &[1], r);
        for ctrl in 0..4u8 {
            write(dir, "server_conn", &[ctrl], r);
        }
    }
    for r in &responses {
        write(dir, "response_head", &[1], r);
        write(dir, "response_head", &[0x81], r);
        write(dir, "differential_front_line", &[0], r);
        for ctrl in 0..5u8 {
            write(dir, "client_conn", &[ctrl], r);
        }
    }
    for c in &chunked {
        write(dir, "chunked_decoder", &[1], c);
        // A chunked request, head and body, for the server.
        let mut m = b"POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n".to_vec();
        m.extend_from_slice(c);
        write(dir, "server_conn", &[2], &m);
    }
    for b in &blocks {
        // A trailer section after a last chunk.
        let mut c = b"0\r\n".to_vec();
        c.extend_from_slice(b);
        write(dir, "chunked_decoder", &[1], &c);
    }
    // The round trip reads its message from the bytes: a spread of shapes.
    for i in 0..64u8 {
        let bytes: Vec<u8> = (0..96u8)
            .map(|j| i.wrapping_mul(37).wrapping_add(j.wrapping_mul(11)))
            .collect();
        write(dir, "round_trip", &[], &bytes);
    }
    println!(
        "seeds: {} requests, {} responses, {} chunked bodies, {} field blocks into {}",
        requests.len(),
        responses.len(),
        chunked.len(),
        blocks.len(),
        dir.display()
    );
}
