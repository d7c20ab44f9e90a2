use crate::{Field, Span};

/// Where the field lines of one name sit in a parsed field list: how many
/// there are and the index of the first and the last. Lines in between with
/// other names are skipped by [`FieldRefs::values`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FieldRefs {
    count: u16,
    first: u16,
    last: u16,
}

impl FieldRefs {
    /// No occurrence.
    pub const EMPTY: FieldRefs = FieldRefs {
        count: 0,
        first: 0,
        last: 0,
    };

    /// Records one more occurrence at field index `index`.
    pub fn push(&mut self, index: usize) {
        let index = index as u16;
        if self.count == 0 {
            self.first = index;
        }
        self.last = index;
        self.count = self.count.saturating_add(1);
    }

    /// How many field lines had this name.
    pub const fn count(self) -> usize {
        self.count as usize
    }

    /// Whether no field line had this name.
    pub const fn is_empty(self) -> bool {
        self.count == 0
    }

    /// The index of the first such field line, if any.
    pub const fn first(self) -> Option<usize> {
        if self.count == 0 {
            None
        } else {
            Some(self.first as usize)
        }
    }

    /// The values of every field line named `name` (compared ASCII
    /// case-insensitively), in received order.
    pub fn values<'a>(
        self,
        name: &'a [u8],
        fields: &'a [Field],
        buf: &'a [u8],
    ) -> impl Iterator<Item = Span> + 'a {
        let range = if self.count == 0 {
            0..0
        } else {
            self.first as usize..(self.last as usize + 1).min(fields.len())
        };
        fields
            .get(range)
            .unwrap_or(&[])
            .iter()
            .filter(move |f| f.name.get(buf).eq_ignore_ascii_case(name))
            .map(|f| f.value)
    }
}

/// The `Connection` options the lower layers act on, compared as tokens
/// (RFC 9110 §7.6.1), never as substrings.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ConnectionOptions {
    bits: u8,
}

impl ConnectionOptions {
    /// No option listed.
    pub const EMPTY: ConnectionOptions = ConnectionOptions { bits: 0 };
    const CLOSE: u8 = 1;
    const KEEP_ALIVE: u8 = 2;
    const UPGRADE: u8 = 4;

    /// `close` was listed.
    pub const fn close(self) -> bool {
        self.bits & Self::CLOSE != 0
    }
    /// `keep-alive` was listed.
    pub const fn keep_alive(self) -> bool {
        self.bits & Self::KEEP_ALIVE != 0
    }
    /// `upgrade` was listed.
    pub const fn upgrade(self) -> bool {
        self.bits & Self::UPGRADE != 0
    }
    /// Records `close`.
    pub fn set_close(&mut self) {
        self.bits |= Self::CLOSE;
    }
    /// Records `keep-alive`.
    pub fn set_keep_alive(&mut self) {
        self.bits |= Self::KEEP_ALIVE;
    }
    /// Records `upgrade`.
    pub fn set_upgrade(&mut self) {
        self.bits |= Self::UPGRADE;
    }
}

/// What the next layers need to know about a field section, gathered while it
/// is parsed so that no second pass over the fields is needed.
#[non_exhaustive]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct KnownFields {
    /// Every `Content-Length` field line.
    pub content_length: FieldRefs,
    /// Every `Transfer-Encoding` field line (several lines form one list).
    pub transfer_encoding: FieldRefs,
    /// Every `Host` field line.
    pub host: FieldRefs,
    /// Every `Upgrade` field line.
    pub upgrade: FieldRefs,
    /// Every `Expect` field line.
    pub expect: FieldRefs,
    /// The tokens of every `Connection` field line.
    pub connection: ConnectionOptions,
}

impl KnownFields {
    /// No field seen.
    pub const EMPTY: KnownFields = KnownFields {
        content_length: FieldRefs::EMPTY,
        transfer_encoding: FieldRefs::EMPTY,
        host: FieldRefs::EMPTY,
        upgrade: FieldRefs::EMPTY,
        expect: FieldRefs::EMPTY,
        connection: ConnectionOptions::EMPTY,
    };
}

/// The field names whose lines [`KnownFields`] records.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Known {
    Other,
    Host,
    ContentLength,
    TransferEncoding,
    Connection,
    Upgrade,
    Expect,
}

/// One recorded name: its first and last letters (lowercase), its bytes
/// (lowercase) as little-endian words with the case bit of each letter
/// (`fold`), and its kind, at the index of its length. The words are the
/// first and last eight bytes and bytes 8 to 16 (names of 8 bytes or more),
/// or the first and last four (names of 4 to 7 bytes), so that a compare is
/// two or three word tests: `(word | fold) == lower` admits exactly a letter
/// and its uppercase in each letter lane, and only the byte itself elsewhere.
#[cfg(not(http_net_general_path))]
#[derive(Clone, Copy)]
struct Entry {
    first: u8,
    last: u8,
    head: u64,
    head_fold: u64,
    mid: u64,
    mid_fold: u64,
    tail: u64,
    tail_fold: u64,
    kind: Known,
}

#[cfg(not(http_net_general_path))]
const NONE: Entry = Entry {
    first: 0,
    last: 0,
    head: 0,
    head_fold: 0,
    mid: 0,
    mid_fold: 0,
    tail: 0,
    tail_fold: 0,
    kind: Known::Other,
};

/// `name[at..at + len]` (lowercase) as a little-endian word, and the case
/// bits of its letters.
#[cfg(not(http_net_general_path))]
const fn word_of(name: &[u8], at: usize, len: usize) -> (u64, u64) {
    let mut w = 0u64;
    let mut fold = 0u64;
    let mut i = 0;
    while i < len && at + i < name.len() {
        let b = name[at + i];
        w |= (b as u64) << (8 * i);
        if b.is_ascii_lowercase() {
            fold |= 0x20 << (8 * i);
        }
        i += 1;
    }
    (w, fold)
}

/// The names whose lines [`KnownFields`] records (lowercase).
const NAMES: [(&[u8], Known); 6] = [
    (b"host", Known::Host),
    (b"expect", Known::Expect),
    (b"upgrade", Known::Upgrade),
    (b"connection", Known::Connection),
    (b"content-length", Known::ContentLength),
    (b"transfer-encoding", Known::TransferEncoding),
];

/// The recorded names by length (names of 31 bytes or more share the last
/// slot, which is empty). A name byte is never 0, so an empty slot never
/// matches.
#[cfg(not(http_net_general_path))]
const BY_LENGTH: [Entry; 32] = {
    let mut t = [NONE; 32];
    let names = NAMES;
    let mut i = 0;
    while i < names.len() {
        let (name, kind) = names[i];
        let n = name.len();
        let w = if n >= 8 { 8 } else { 4 };
        let (head, head_fold) = word_of(name, 0, w);
        let (mid, mid_fold) = word_of(name, 8, 8);
        let (tail, tail_fold) = word_of(name, n - w, w);
        t[n] = Entry {
            first: name[0],
            last: name[n - 1],
            head,
            head_fold,
            mid,
            mid_fold,
            tail,
            tail_fold,
            kind,
        };
        i += 1;
    }
    t
};

/// Classifies a field name (ASCII case-insensitive, RFC 9110 §5.1). One
/// table slot by length, then the first and last letters rule out nearly
/// every other name (`Sec-Fetch-Mode` against `content-length`) before the
/// full compare, which is two or three word tests.
// Fast path; general twin: `classify_general`; 262 -> 244 ns, 3734 -> 3459 Ir (docs/PERFORMANCE.md).
#[cfg(not(http_net_general_path))]
#[inline(always)]
pub(crate) fn classify(name: &[u8]) -> Known {
    let e = &BY_LENGTH[name.len().min(31)];
    let (Some(&f), Some(&l)) = (name.first(), name.last()) else {
        return Known::Other;
    };
    if (f | 0x20) != e.first || (l | 0x20) != e.last {
        return Known::Other;
    }
    let same = if let (Some(h), Some(t)) = (name.first_chunk::<8>(), name.last_chunk::<8>()) {
        let h = u64::from_le_bytes(*h);
        let t = u64::from_le_bytes(*t);
        let m = match name.get(8..).and_then(<[u8]>::first_chunk::<8>) {
            Some(m) => u64::from_le_bytes(*m),
            None => e.mid,
        };
        ((h | e.head_fold) ^ e.head) | ((t | e.tail_fold) ^ e.tail) | ((m | e.mid_fold) ^ e.mid)
            == 0
    } else if let (Some(h), Some(t)) = (name.first_chunk::<4>(), name.last_chunk::<4>()) {
        let h = u64::from(u32::from_le_bytes(*h));
        let t = u64::from(u32::from_le_bytes(*t));
        ((h | e.head_fold) ^ e.head) | ((t | e.tail_fold) ^ e.tail) == 0
    } else {
        false
    };
    if same {
        e.kind
    } else {
        Known::Other
    }
}

/// The general twin of `classify`: the name compared whole with each
/// recorded one, ASCII case-insensitively.
#[cfg(any(test, http_net_general_path))]
pub(crate) fn classify_general(name: &[u8]) -> Known {
    NAMES
        .iter()
        .find(|(n, _)| name.eq_ignore_ascii_case(n))
        .map_or(Known::Other, |&(_, kind)| kind)
}

#[cfg(http_net_general_path)]
pub(crate) use classify_general as classify;

impl KnownFields {
    /// Records field line `index` of kind `kind` whose value is `value`.
    #[inline(always)]
    pub(crate) fn record(&mut self, kind: Known, index: usize, value: &[u8]) {
        match kind {
            Known::Other => {}
            Known::Host => self.host.push(index),
            Known::ContentLength => self.content_length.push(index),
            Known::TransferEncoding => self.transfer_encoding.push(index),
            Known::Upgrade => self.upgrade.push(index),
            Known::Expect => self.expect.push(index),
            Known::Connection => self.connection.add_tokens(value),
        }
    }
}

impl ConnectionOptions {
    /// Adds the options listed in one `Connection` value:
    /// `#connection-option`, elements separated by `,` with OWS around them
    /// (RFC 9110 §5.6.1, §7.6.1), each compared whole and case-insensitively.
    /// CR and LF are trimmed as well: they can only be left there by an
    /// obs-fold a response parser kept.
    pub(crate) fn add_tokens(&mut self, value: &[u8]) {
        // The common value is one option alone: a value equal to one of the
        // three names holds no `,` or OWS, so it is one whole element.
        // Fast path; general twin: the element loop below; 4007 -> 3844 Ir (docs/PERFORMANCE.md).
        #[cfg(not(http_net_general_path))]
        match *value {
            [a, b, c, d, e, f, g, h, i, j]
                if fold_eq([a, b, c, d, e, f, g, h, i, j], *b"keep-alive") =>
            {
                return self.set_keep_alive()
            }
            [a, b, c, d, e] if fold_eq([a, b, c, d, e], *b"close") => return self.set_close(),
            [a, b, c, d, e, f, g] if fold_eq([a, b, c, d, e, f, g], *b"upgrade") => {
                return self.set_upgrade()
            }
            _ => {}
        }
        for element in value.split(|&b| b == b',') {
            let element = element.trim_ascii();
            match element.len() {
                5 if element.eq_ignore_ascii_case(b"close") => self.set_close(),
                10 if element.eq_ignore_ascii_case(b"keep-alive") => self.set_keep_alive(),
                7 if element.eq_ignore_ascii_case(b"upgrade") => self.set_upgrade(),
                _ => {}
            }
        }
    }
}

/// Whether `bytes` equals `lower` (lowercase letters and `-`) ASCII
/// case-insensitively: the case bit is set only where `lower` has a letter,
/// so `b | 0x20 == l` admits exactly `l` and its uppercase.
#[cfg(not(http_net_general_path))]
#[inline(always)]
fn fold_eq<const N: usize>(bytes: [u8; N], lower: [u8; N]) -> bool {
    let mut diff = 0;
    let mut i = 0;
    while i < N {
        let fold = if lower[i].is_ascii_lowercase() {
            0x20
        } else {
            0
        };
        diff |= (bytes[i] | fold) ^ lower[i];
        i += 1;
    }
    diff == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_classified_whole_and_case_insensitively() {
        assert_eq!(classify(b"Host"), Known::Host);
        assert_eq!(classify(b"HOST"), Known::Host);
        assert_eq!(classify(b"Hostx"), Known::Other);
        assert_eq!(classify(b"hos"), Known::Other);
        assert_eq!(classify(b"content-LENGTH"), Known::ContentLength);
        assert_eq!(classify(b"Transfer-Encoding"), Known::TransferEncoding);
        assert_eq!(classify(b"Transfer-Encodinx"), Known::Other);
        assert_eq!(classify(b"Connection"), Known::Connection);
        assert_eq!(classify(b"Upgrade"), Known::Upgrade);
        assert_eq!(classify(b"Expect"), Known::Expect);
        assert_eq!(classify(b"abcdef"), Known::Other);
        assert_eq!(classify(&[b'a'; 40]), Known::Other);
        // Every byte of the word compares counts, in each of the three words,
        // and only a letter's case is folded.
        assert_eq!(classify(b"TRANSFER-ENCODING"), Known::TransferEncoding);
        assert_eq!(classify(b"transfer-enc0ding"), Known::Other);
        assert_eq!(classify(b"transfer_encoding"), Known::Other);
        assert_eq!(classify(b"tRansfer-encoding"), Known::TransferEncoding);
        assert_eq!(classify(b"trAnsfer-encoding"), Known::TransferEncoding);
        assert_eq!(classify(b"transfer-encodinG"), Known::TransferEncoding);
        assert_eq!(classify(b"transfeR\rencoding"), Known::Other);
        assert_eq!(classify(b"content\rlength"), Known::Other);
        assert_eq!(classify(b"content-lengtH"), Known::ContentLength);
        assert_eq!(classify(b"contenT-length"), Known::ContentLength);
        assert_eq!(classify(b"conte.t-length"), Known::Other);
        assert_eq!(classify(b"h\x0fst"), Known::Other);
        assert_eq!(classify(b"hOsT"), Known::Host);
        assert_eq!(classify(b"h_st"), Known::Other);
        assert_eq!(classify(b"Expecs"), Known::Other);
        assert_eq!(classify(b"eXPECT"), Known::Expect);
        assert_eq!(classify(b"upGrade"), Known::Upgrade);
        assert_eq!(classify(b"up-rade"), Known::Other);
        assert_eq!(classify(b"connectiOn"), Known::Connection);
        assert_eq!(classify(b"connect1on"), Known::Other);
        assert_eq!(classify(b""), Known::Other);
        assert_eq!(classify(b"h"), Known::Other);
    }

    /// The fast classifier against its general twin: every recorded name in
    /// both cases, and every one-byte change of it at every position.
    #[test]
    fn classify_agrees_with_its_general_twin() {
        for (name, kind) in NAMES {
            for upper in [false, true] {
                let mut n = name.to_vec();
                if upper {
                    n.make_ascii_uppercase();
                }
                assert_eq!(classify(&n), kind);
                for i in 0..n.len() {
                    for b in 0..=255u8 {
                        let mut m = n.clone();
                        m[i] = b;
                        assert_eq!(classify(&m), classify_general(&m), "{m:?}");
                    }
                }
                for cut in 0..n.len() {
                    assert_eq!(classify(&n[..cut]), classify_general(&n[..cut]));
                }
            }
        }
    }

    #[test]
    fn connection_tokens_are_whole_elements() {
        let mut c = ConnectionOptions::default();
        c.add_tokens(b"keep-alive-ish, closed, xupgrade");
        assert_eq!(c, ConnectionOptions::default());
        c.add_tokens(b" ,\tCLOSE ,, Upgrade\t");
        assert!(c.close() && c.upgrade() && !c.keep_alive());
        c.add_tokens(b"a,\r\n keep-alive");
        assert!(c.keep_alive());
        // The one-option fast path: exact, case-insensitive, whole.
        for (v, close, keep, up) in [
            (&b"CLOSE"[..], true, false, false),
            (b"Keep-Alive", false, true, false),
            (b"uPGRADE", false, false, true),
            (b"keep\ralive", false, false, false),
            (b"keep_alive", false, false, false),
            (b"cl0se", false, false, false),
            (b"upgr@de", false, false, false),
        ] {
            let mut c = ConnectionOptions::default();
            c.add_tokens(v);
            assert_eq!(
                (c.close(), c.keep_alive(), c.upgrade()),
                (close, keep, up),
                "{v:?}"
            );
        }
    }
}
