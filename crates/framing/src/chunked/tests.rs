use super::*;

fn decoder() -> ChunkedDecoder {
    ChunkedDecoder::new(BodyLimits::DEFAULT, http_net_head::HeadLimits::DEFAULT)
}

#[test]
fn fast_line_takes_only_the_common_shape() {
    assert_eq!(fast_line(b"1000\r\nx"), Some((0x1000, 6)));
    assert_eq!(fast_line(b"fFfFfFfFfFfFfFfF\r\n"), Some((u64::MAX, 18)));
    // Everything else goes to the general path.
    for other in [
        &b""[..],
        b"1000",
        b"1000\r",
        b"\r\n",
        b"10000000000000000\r\n",
        b"5;a\r\n",
        b"5 \r\n",
        b"5\n",
        b"5\rx",
    ] {
        assert_eq!(fast_line(other), None, "{other:?}");
    }
}

#[test]
fn fast_and_general_paths_agree() {
    // The same chunk line fed whole (fast path) and byte by byte (general).
    for line in [&b"1\r\n"[..], b"00ff\r\n", b"FFFF\r\n", b"abcde\r\n"] {
        let mut whole = decoder();
        let step = whole.decode(line, &mut []).unwrap();
        let mut bytes = decoder();
        let mut consumed = 0;
        for b in line {
            consumed += bytes
                .decode(core::slice::from_ref(b), &mut [])
                .unwrap()
                .consumed;
        }
        assert_eq!((step.consumed, consumed), (line.len(), line.len()));
        assert_eq!((whole.size, whole.state), (bytes.size, bytes.state));
        assert_eq!(whole.state, State::Data);
    }
}

#[test]
fn an_error_is_returned_again() {
    let mut d = decoder();
    assert_eq!(d.decode(b"5\nhello", &mut []), Err(Error::ChunkBareLf));
    assert_eq!(d.decode(b"0\r\n\r\n", &mut []), Err(Error::ChunkBareLf));
    let mut fields = [Field::default(); 2];
    assert_eq!(
        d.decode_in_place(&mut [b'0'], &mut fields),
        Err(Error::ChunkBareLf)
    );
}

#[test]
fn after_the_end_nothing_is_consumed_and_reset_starts_over() {
    let mut d = decoder();
    let step = d.decode(b"0\r\n\r\n0\r\n\r\n", &mut []).unwrap();
    assert_eq!((step.consumed, step.done), (5, true));
    let again = d.decode(b"0\r\n\r\n", &mut []).unwrap();
    assert_eq!((again.consumed, again.done), (0, true));
    d.reset();
    assert!(!d.is_done());
    let step = d.decode(b"3\r\nabc", &mut []).unwrap();
    assert_eq!((step.consumed, step.data, d.data_declared()), (6, 3..6, 3));
}

#[test]
fn one_step_yields_one_run_of_data() {
    let input = b"3\r\nabc\r\n2\r\nde\r\n0\r\n\r\n";
    let mut d = decoder();
    let s1 = d.decode(input, &mut []).unwrap();
    assert_eq!((s1.consumed, s1.data.clone()), (6, 3..6));
    let s2 = d.decode(&input[6..], &mut []).unwrap();
    assert_eq!((s2.consumed, s2.data.clone()), (7, 5..7));
    let s3 = d.decode(&input[13..], &mut []).unwrap();
    assert_eq!((s3.consumed, s3.data.is_empty(), s3.done), (7, true, true));
}

#[test]
fn trailer_spans_refer_to_the_step_input() {
    let input = b"1\r\nz\r\n0\r\nA: b\r\n\r\nrest";
    let mut fields = [Field::default(); 4];
    // Streaming: the last step starts after the data.
    let mut d = decoder();
    let first = d.decode(input, &mut fields).unwrap();
    let rest = &input[first.consumed..];
    let step = d.decode(rest, &mut fields).unwrap();
    let block = step.trailers.unwrap();
    assert_eq!(
        (block.field_count, step.consumed, step.done),
        (1, rest.len() - 4, true)
    );
    assert_eq!(
        (fields[0].name.get(rest), fields[0].value.get(rest)),
        (&b"A"[..], &b"b"[..])
    );
    // In place: spans refer to the buffer, and the trailer bytes stay put.
    let mut buf = *input;
    let mut d = decoder();
    let step = d.decode_in_place(&mut buf, &mut fields).unwrap();
    assert!(step.done);
    assert_eq!(
        (&buf[..step.data_len], &buf[step.consumed..]),
        (&b"z"[..], &b"rest"[..])
    );
    assert_eq!(
        (fields[0].name.get(&buf), fields[0].value.get(&buf)),
        (&b"A"[..], &b"b"[..])
    );
}

#[test]
fn an_incomplete_trailer_section_is_not_consumed() {
    let input = b"0\r\nA: b\r\n";
    let mut fields = [Field::default(); 4];
    let mut d = decoder();
    let step = d.decode(input, &mut fields).unwrap();
    assert_eq!((step.consumed, step.done), (3, false));
    let mut more = input[3..].to_vec();
    more.extend_from_slice(b"\r\n");
    let step = d.decode(&more, &mut fields).unwrap();
    assert_eq!((step.consumed, step.done), (more.len(), true));
    assert_eq!(fields[0].value.get(&more), b"b");
}

#[test]
fn the_decoder_stays_small() {
    // It lives in every connection; keep an eye on its size.
    let size = core::mem::size_of::<ChunkedDecoder>();
    assert!(size <= 256, "ChunkedDecoder is {size} bytes");
}
