//! H4 / H4b (docs/PERFORMANCE.md): 1 MiB bodies through `http-net-framing`, beside a
//! plain copy of the same bytes and httparse's `parse_chunk_size` loop.
//!
//! Run pinned: `taskset -c 1 cargo bench -p http-net-benches --bench framing
//! -- --warm-up-time 1 --measurement-time 3`.

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, BatchSize, Criterion, Throughput};
use http_net_benches::{body_bytes, chunked, MIB};
use http_net_framing::{BodyLimits, ChunkedDecoder, LengthDecoder};

const READ: usize = 16 * 1024;

fn decoder() -> ChunkedDecoder {
    ChunkedDecoder::new(BodyLimits::DEFAULT, http_net_head::HeadLimits::DEFAULT)
}

/// The whole chunked body through `decode`, each data range handed to `sink`.
#[inline(always)]
fn decode_all(dec: &mut ChunkedDecoder, input: &[u8], mut sink: impl FnMut(&[u8])) {
    dec.reset();
    let mut pos = 0;
    loop {
        let rest = &input[pos..];
        let step = dec.decode(rest, &mut []).unwrap();
        sink(&rest[step.data]);
        pos += step.consumed;
        if step.done {
            break;
        }
    }
    assert_eq!(pos, input.len());
}

/// httparse's chunk-size parser doing the same work: size line, data, CR LF,
/// last chunk, empty trailer section.
#[inline(always)]
fn httparse_all(input: &[u8], mut sink: impl FnMut(&[u8])) {
    let mut pos = 0;
    loop {
        let httparse::Status::Complete((n, size)) =
            httparse::parse_chunk_size(&input[pos..]).unwrap()
        else {
            panic!("partial")
        };
        pos += n;
        if size == 0 {
            assert_eq!(&input[pos..pos + 2], b"\r\n");
            pos += 2;
            break;
        }
        let end = pos + size as usize;
        sink(&input[pos..end]);
        assert_eq!(&input[end..end + 2], b"\r\n");
        pos = end + 2;
    }
    assert_eq!(pos, input.len());
}

fn body_1mib(c: &mut Criterion) {
    let body = body_bytes(MIB);
    let framed = chunked(&body, 4096);
    let mut g = c.benchmark_group("body_1mib");
    g.throughput(Throughput::Bytes(MIB as u64));

    // H4b: Content-Length body in 16 KiB reads, against the copies alone.
    let mut buf = vec![0u8; READ];
    g.bench_function("memcpy_16k_reads", |b| {
        b.iter(|| {
            for read in black_box(&body[..]).chunks(READ) {
                let n = read.len();
                buf[..n].copy_from_slice(read);
                black_box(&buf[..n]);
            }
        })
    });
    g.bench_function("content_length_16k_reads", |b| {
        b.iter(|| {
            let mut dec = LengthDecoder::new(black_box(MIB as u64));
            for read in black_box(&body[..]).chunks(READ) {
                let n = read.len();
                buf[..n].copy_from_slice(read);
                let step = dec.decode(&buf[..n]);
                black_box(&buf[step.data]);
            }
            assert_eq!(dec.remaining(), 0);
        })
    });

    // H4: chunked body in 4 KiB chunks.
    let mut dec = decoder();
    g.bench_function("chunked_4k_borrowed", |b| {
        b.iter(|| {
            decode_all(&mut dec, black_box(&framed), |d| {
                black_box(d);
            })
        })
    });
    let mut out = Vec::with_capacity(MIB);
    g.bench_function("chunked_4k_copied_out", |b| {
        b.iter(|| {
            out.clear();
            decode_all(&mut dec, black_box(&framed), |d| out.extend_from_slice(d));
            assert_eq!(out.len(), MIB);
        })
    });
    g.bench_function("chunked_4k_in_place", |b| {
        b.iter_batched_ref(
            || framed.clone(),
            |buf| {
                dec.reset();
                let step = dec.decode_in_place(buf, &mut []).unwrap();
                assert!(step.done && step.data_len == MIB);
                black_box(&buf[..step.data_len]);
            },
            BatchSize::LargeInput,
        )
    });
    g.bench_function("httparse_chunk_size_loop", |b| {
        b.iter(|| {
            out.clear();
            httparse_all(black_box(&framed), |d| out.extend_from_slice(d));
            assert_eq!(out.len(), MIB);
        })
    });
    g.bench_function("httparse_chunk_size_loop_borrowed", |b| {
        b.iter(|| {
            httparse_all(black_box(&framed), |d| {
                black_box(d);
            })
        })
    });
    g.finish();
}

criterion_group!(benches, body_1mib);
criterion_main!(benches);
