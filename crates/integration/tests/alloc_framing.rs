//! Steady-state decoding (`http-net-framing`) allocates nothing: the
//! per-thread counting global allocator (`support/counting.rs`) counts the
//! allocations made while decoding, after a warm-up message.

#[path = "support/counting.rs"]
mod counting;

use counting::thread_count;

use http_net_framing::{
    request_body, BodyKind, BodyLimits, ChunkedDecoder, ChunkedEncoder, LengthDecoder,
};
use http_net_head::{Field, Parsed, RequestParser};

/// A request with a chunked body of `chunks` 4 KiB chunks and two trailers.
fn message(chunks: usize) -> Vec<u8> {
    let mut m = b"POST /upload HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n".to_vec();
    let data = vec![b'x'; 4096];
    for i in 0..chunks {
        m.extend_from_slice(ChunkedEncoder::header(data.len()).as_bytes());
        if i % 7 == 0 {
            // An extension now and then takes the general path.
            let n = m.len() - 2;
            m.splice(n..n, b";name=\"v\"".iter().copied());
        }
        m.extend_from_slice(&data);
        m.extend_from_slice(ChunkedEncoder::CHUNK_END);
    }
    ChunkedEncoder::write_last(&mut m, &[(b"Checksum", b"abc"), (b"Expires", b"never")]).unwrap();
    m
}

/// A server's parsing state, made once and reused for every message.
struct Server {
    parser: RequestParser,
    decoder: ChunkedDecoder,
    fields: [Field; 16],
    trailers: [Field; 8],
    pending: Vec<u8>,
}

impl Server {
    fn new() -> Self {
        Server {
            parser: RequestParser::new(http_net_head::HeadLimits::DEFAULT),
            decoder: ChunkedDecoder::new(BodyLimits::DEFAULT, http_net_head::HeadLimits::DEFAULT),
            fields: [Field::default(); 16],
            trailers: [Field::default(); 8],
            pending: Vec::with_capacity(64 * 1024),
        }
    }

    /// Parses the head, decides the body, decodes it in 16 KiB reads;
    /// returns the data length and the trailer count.
    fn serve(&mut self, input: &[u8]) -> (usize, usize) {
        let Server {
            parser,
            decoder,
            fields,
            trailers,
            pending,
        } = self;
        parser.reset();
        decoder.reset();
        let Ok(Parsed::Complete(head)) = parser.parse(input, fields) else {
            panic!("head")
        };
        let kind = request_body(
            head.version,
            &head.known,
            fields,
            input,
            &BodyLimits::DEFAULT,
        )
        .unwrap();
        assert_eq!(kind, BodyKind::Chunked);
        pending.clear();
        let (mut data, mut count) = (0, 0);
        for read in input[head.len..].chunks(16 * 1024) {
            pending.extend_from_slice(read);
            loop {
                let step = decoder.decode(pending, trailers).unwrap();
                data += step.data.len();
                if let Some(t) = step.trailers {
                    count = t.field_count;
                }
                pending.drain(..step.consumed);
                if step.done || step.consumed == 0 {
                    break;
                }
            }
        }
        assert!(decoder.is_done());
        (data, count)
    }
}

#[test]
fn steady_state_decoding_allocates_nothing() {
    let input = message(256);
    let mut server = Server::new();
    // Warm-up.
    let first = server.serve(&input);
    assert_eq!(first, (256 * 4096, 2));

    let mut buf = input.clone();
    let body_at = input.windows(4).position(|w| w == b"\r\n\r\n").unwrap() + 4;

    let before = thread_count();
    for _ in 0..3 {
        let again = server.serve(&input);
        assert_eq!(again, first);
    }
    // In place, and a Content-Length body.
    let mut in_place = ChunkedDecoder::new(BodyLimits::DEFAULT, http_net_head::HeadLimits::DEFAULT);
    let step = in_place
        .decode_in_place(&mut buf[body_at..], &mut server.trailers)
        .unwrap();
    assert!(step.done && step.data_len == 256 * 4096);
    let mut length = LengthDecoder::new(input.len() as u64);
    for read in input.chunks(16 * 1024) {
        let _ = length.decode(read);
    }
    assert_eq!(length.remaining(), 0);
    let after = thread_count();
    assert_eq!(after - before, 0, "allocations in steady state");
}

#[test]
fn the_counter_counts() {
    let before = thread_count();
    let v = std::hint::black_box(vec![1u8; 10]);
    assert!(thread_count() > before);
    drop(v);
}
