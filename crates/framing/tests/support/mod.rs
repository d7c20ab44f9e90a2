//! The feeding helper shared by the integration tests: a chunked body fed as
//! a connection would, in pieces, with unconsumed bytes kept buffered.
#![allow(dead_code)]

use http_net_framing::{ChunkedDecoder, Error};
use http_net_head::Field;

/// What feeding a chunked body gave.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Data, trailers, the bytes never consumed (buffered or never fed), and
    /// how many bytes had been fed when the message completed.
    Done {
        data: Vec<u8>,
        trailers: Vec<(Vec<u8>, Vec<u8>)>,
        rest: Vec<u8>,
        fed: usize,
    },
    Error(Error),
    Incomplete,
}

pub fn trailers_of(fields: &[Field], count: usize, buf: &[u8]) -> Vec<(Vec<u8>, Vec<u8>)> {
    fields[..count]
        .iter()
        .map(|f| (f.name.get(buf).to_vec(), f.value.get(buf).to_vec()))
        .collect()
}

/// Feeds `pieces` as a connection would: unconsumed bytes stay buffered and
/// the next piece is appended; the decoder is stepped until it stalls.
pub fn feed(mut dec: ChunkedDecoder, pieces: &[&[u8]], in_place: bool) -> Outcome {
    let mut pending: Vec<u8> = Vec::new();
    let mut data = Vec::new();
    let mut fields = [Field::default(); 8];
    let mut fed = 0;
    for (i, piece) in pieces.iter().enumerate() {
        pending.extend_from_slice(piece);
        fed += piece.len();
        loop {
            let (consumed, done, trailers) = if in_place {
                let step = match dec.decode_in_place(&mut pending, &mut fields) {
                    Ok(step) => step,
                    Err(e) => return Outcome::Error(e),
                };
                assert!(step.data_len <= step.consumed && step.consumed <= pending.len());
                data.extend_from_slice(&pending[..step.data_len]);
                let t = step
                    .trailers
                    .map(|b| trailers_of(&fields, b.field_count, &pending));
                (step.consumed, step.done, t)
            } else {
                let step = match dec.decode(&pending, &mut fields) {
                    Ok(step) => step,
                    Err(e) => return Outcome::Error(e),
                };
                assert!(step.data.start <= step.data.end && step.data.end <= step.consumed);
                assert!(step.consumed <= pending.len());
                data.extend_from_slice(&pending[step.data.clone()]);
                let t = step
                    .trailers
                    .map(|b| trailers_of(&fields, b.field_count, &pending));
                (step.consumed, step.done, t)
            };
            pending.drain(..consumed);
            if done {
                assert!(dec.is_done());
                let mut rest = pending;
                for p in &pieces[i + 1..] {
                    rest.extend_from_slice(p);
                }
                return Outcome::Done {
                    data,
                    trailers: t_or_empty(trailers),
                    rest,
                    fed,
                };
            }
            if consumed == 0 {
                break;
            }
        }
    }
    Outcome::Incomplete
}

fn t_or_empty(t: Option<Vec<(Vec<u8>, Vec<u8>)>>) -> Vec<(Vec<u8>, Vec<u8>)> {
    t.unwrap_or_default()
}
