//! The chunked decoder's state: the type and where it stands in the
//! grammar. The parent module reads with it ([`ChunkedDecoder::decode`] and
//! its fast path); `grammar.rs` moves it byte by byte.

use http_net_head::FieldBlockParser;

use crate::{BodyLimits, Error};

/// Where the decoder stands in the chunked grammar (RFC 9112 §7.1):
///
/// ```text
/// chunked-body = *chunk last-chunk trailer-section CRLF
/// chunk        = chunk-size [ chunk-ext ] CRLF chunk-data CRLF
/// chunk-ext    = *( BWS ";" BWS chunk-ext-name [ BWS "=" BWS chunk-ext-val ] )
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum State {
    /// Before the first digit of a chunk-size.
    LineStart,
    /// In the chunk-size digits.
    Size,
    /// BWS after the size: only `;` may follow.
    SizeWs,
    /// After `;`: BWS, then a name.
    ExtNameStart,
    /// In an extension name.
    ExtName,
    /// BWS after a name: `=` or `;` must follow.
    ExtNameWs,
    /// After `=`: BWS, then a token or a quoted-string.
    ExtValueStart,
    /// In a token value.
    ExtToken,
    /// In a quoted-string value.
    ExtQuoted,
    /// After a backslash in a quoted-string.
    ExtQuotedPair,
    /// After the closing quote.
    ExtValueEnd,
    /// BWS after a value: only `;` may follow.
    ExtValueWs,
    /// After the CR of the chunk line.
    LineLf,
    /// In chunk data (`size` bytes left).
    Data,
    /// After chunk data: CR expected.
    DataCr,
    /// After chunk data and CR: LF expected.
    DataLf,
    /// After the last chunk: the trailer section.
    Trailers,
    /// The message is complete.
    Done,
    /// An error was returned; it is returned again.
    Failed(Error),
}

/// A streaming chunked-body decoder (RFC 9112 §7.1), resumable at any byte.
///
/// Each [`decode`](ChunkedDecoder::decode) step reads framing up to the next
/// chunk data and returns that data as a range of its input (no copy); call
/// it again with the unconsumed input, extended with what arrives. The
/// decoder never consumes a byte past the end of the message, and does not
/// consume the trailer section until all of it is present (so the trailer
/// spans it returns are relative to one input). After an error, every call
/// returns the same error.
///
/// Strictness (RFC 9112 §7.1, §7.1.1): hex digits only, within `u64`; extensions
/// `;name[=token/quoted-string]` with BWS only around `;` and `=`, no CTL,
/// bounded per chunk; CR LF after the size line and after the data, never a
/// bare LF or CR; trailers with the head's field rules and limits; the body
/// budget checked as each size is read; and an overhead guard: once framing
/// bytes pass [`BodyLimits::overhead_guard_bytes`], data must be at least a
/// quarter of the bytes read.
///
/// ```
/// use http_net_framing::{ChunkedDecoder, BodyLimits};
///
/// let input = b"5\r\nhello\r\n6;lang=en\r\n world\r\n0\r\n\r\nGET / HTTP/1.1\r\n";
/// let mut decoder = ChunkedDecoder::new(BodyLimits::DEFAULT, http_net_head::HeadLimits::DEFAULT);
/// let (mut pos, mut body) = (0, Vec::new());
/// loop {
///     let step = decoder.decode(&input[pos..], &mut []).unwrap();
///     body.extend_from_slice(&input[pos..][step.data]);
///     pos += step.consumed;
///     if step.done {
///         break;
///     }
/// }
/// assert_eq!(body, b"hello world");
/// assert_eq!(&input[pos..], b"GET / HTTP/1.1\r\n"); // the next message stays
/// ```
#[derive(Clone, Debug)]
pub struct ChunkedDecoder {
    pub(super) limits: BodyLimits,
    pub(super) trailer_parser: FieldBlockParser,
    pub(super) state: State,
    /// The chunk-size being read, then the data bytes left in the chunk.
    pub(super) size: u64,
    /// Extension bytes on the current chunk line.
    pub(super) ext_bytes: usize,
    /// Data bytes declared so far (for the budget and the overhead guard).
    pub(super) data_total: u64,
    /// Framing bytes read so far (size lines, extensions, CR LFs).
    pub(super) overhead: u64,
}
