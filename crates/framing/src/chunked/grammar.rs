//! The chunk-line grammar byte by byte (RFC 9112 §7.1, §7.1.1): every shape
//! the one-pass fast path does not take.

use super::state::{ChunkedDecoder, State};
use crate::class::{is_qdtext, is_quoted_pair_byte, HEX, NOT_HEX, TCHAR};
use crate::Error;

impl ChunkedDecoder {
    /// One framing byte, outside the fast path.
    pub(super) fn byte(&mut self, b: u8) -> Result<(), Error> {
        use State as S;
        let ws = b == b' ' || b == b'\t';
        let tchar = TCHAR[b as usize];
        if matches!(
            self.state,
            S::SizeWs
                | S::ExtNameStart
                | S::ExtName
                | S::ExtNameWs
                | S::ExtValueStart
                | S::ExtToken
                | S::ExtQuoted
                | S::ExtQuotedPair
                | S::ExtValueEnd
                | S::ExtValueWs
        ) && b != b'\r'
        {
            self.ext_byte()?;
        }
        // A LF anywhere in a chunk line is a bare LF.
        let in_line = !matches!(self.state, S::LineLf | S::DataCr | S::DataLf);
        if b == b'\n' && in_line {
            return Err(Error::ChunkBareLf);
        }
        self.state = match self.state {
            S::LineStart => match HEX[b as usize] {
                NOT_HEX => return Err(Error::InvalidChunkSize),
                d => {
                    self.size = u64::from(d);
                    S::Size
                }
            },
            S::Size => match HEX[b as usize] {
                NOT_HEX => match b {
                    b'\r' => S::LineLf,
                    b';' => {
                        self.ext_byte()?;
                        S::ExtNameStart
                    }
                    b' ' | b'\t' => {
                        self.ext_byte()?;
                        S::SizeWs
                    }
                    _ => return Err(Error::InvalidChunkSize),
                },
                d => {
                    self.size = self
                        .size
                        .checked_mul(16)
                        .map(|s| s | u64::from(d))
                        .ok_or(Error::ChunkSizeOverflow)?;
                    S::Size
                }
            },
            S::SizeWs => match b {
                _ if ws => S::SizeWs,
                b';' => S::ExtNameStart,
                _ => return Err(Error::InvalidChunkSize),
            },
            S::ExtNameStart => match b {
                _ if ws => S::ExtNameStart,
                _ if tchar => S::ExtName,
                _ => return Err(Error::InvalidChunkExtension),
            },
            S::ExtName => match b {
                _ if tchar => S::ExtName,
                b'\r' => S::LineLf,
                b';' => S::ExtNameStart,
                b'=' => S::ExtValueStart,
                _ if ws => S::ExtNameWs,
                _ => return Err(Error::InvalidChunkExtension),
            },
            S::ExtNameWs => match b {
                _ if ws => S::ExtNameWs,
                b';' => S::ExtNameStart,
                b'=' => S::ExtValueStart,
                _ => return Err(Error::InvalidChunkExtension),
            },
            S::ExtValueStart => match b {
                _ if ws => S::ExtValueStart,
                b'"' => S::ExtQuoted,
                _ if tchar => S::ExtToken,
                _ => return Err(Error::InvalidChunkExtension),
            },
            S::ExtToken => match b {
                _ if tchar => S::ExtToken,
                b'\r' => S::LineLf,
                b';' => S::ExtNameStart,
                _ if ws => S::ExtValueWs,
                _ => return Err(Error::InvalidChunkExtension),
            },
            S::ExtQuoted => match b {
                b'"' => S::ExtValueEnd,
                b'\\' => S::ExtQuotedPair,
                _ if is_qdtext(b) => S::ExtQuoted,
                _ => return Err(Error::InvalidChunkExtension),
            },
            S::ExtQuotedPair => match b {
                _ if is_quoted_pair_byte(b) => S::ExtQuoted,
                _ => return Err(Error::InvalidChunkExtension),
            },
            S::ExtValueEnd => match b {
                b'\r' => S::LineLf,
                b';' => S::ExtNameStart,
                _ if ws => S::ExtValueWs,
                _ => return Err(Error::InvalidChunkExtension),
            },
            S::ExtValueWs => match b {
                _ if ws => S::ExtValueWs,
                b';' => S::ExtNameStart,
                _ => return Err(Error::InvalidChunkExtension),
            },
            S::LineLf => match b {
                b'\n' => return self.line_done(),
                _ => return Err(Error::ChunkBareCr),
            },
            S::DataCr => match b {
                b'\r' => S::DataLf,
                b'\n' => return Err(Error::ChunkBareLf),
                _ => return Err(Error::MissingChunkCrlf),
            },
            S::DataLf => match b {
                b'\n' => S::LineStart,
                _ => return Err(Error::ChunkBareCr),
            },
            // Not framing states: `decode` never sends bytes here.
            S::Data | S::Trailers | S::Done | S::Failed(_) => self.state,
        };
        Ok(())
    }

    /// A chunk line is complete: the data or the trailer section follows.
    pub(super) fn line_done(&mut self) -> Result<(), Error> {
        self.ext_bytes = 0;
        if self.size == 0 {
            self.state = State::Trailers;
            return Ok(());
        }
        self.data_total = self.data_total.saturating_add(self.size);
        if self.limits.over_budget(self.data_total) {
            return Err(Error::BodyTooLarge);
        }
        self.state = State::Data;
        Ok(())
    }

    /// Counts one extension byte against the per-chunk bound.
    pub(super) fn ext_byte(&mut self) -> Result<(), Error> {
        self.ext_bytes += 1;
        if self.ext_bytes > self.limits.max_chunk_ext_bytes() {
            return Err(Error::ChunkExtensionTooLong);
        }
        Ok(())
    }
}
