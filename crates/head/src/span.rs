/// A range of byte offsets into the buffer a head was parsed from.
///
/// Spans, not borrows, are what parsed heads hold, so a connection can keep a
/// head beside the buffer it owns. Offsets fit a `u32`: heads are bounded by
/// [`HeadLimits`](crate::HeadLimits) far below 4 GiB.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Span {
    start: u32,
    end: u32,
}

impl Span {
    /// The empty span at offset 0.
    pub const EMPTY: Span = Span { start: 0, end: 0 };

    /// A span from `start` (inclusive) to `end` (exclusive).
    /// `end` below `start` gives an empty span at `start`.
    pub const fn new(start: usize, end: usize) -> Span {
        let start = start as u32;
        let end = end as u32;
        Span {
            start,
            end: if end < start { start } else { end },
        }
    }

    /// A span from `start` to `end`, which the caller knows are in order
    /// (no clamp).
    #[inline(always)]
    #[cfg(not(http_net_general_path))]
    pub(crate) const fn ordered(start: usize, end: usize) -> Span {
        Span {
            start: start as u32,
            end: end as u32,
        }
    }

    /// The first offset.
    pub const fn start(self) -> usize {
        self.start as usize
    }

    /// One past the last offset.
    pub const fn end(self) -> usize {
        self.end as usize
    }

    /// The number of bytes covered.
    pub const fn len(self) -> usize {
        (self.end - self.start) as usize
    }

    /// Whether the span covers no byte.
    pub const fn is_empty(self) -> bool {
        self.end == self.start
    }

    /// The bytes of `buf` this span covers; an empty slice if `buf` is too
    /// short (a span applied to the wrong buffer never panics).
    pub fn get(self, buf: &[u8]) -> &[u8] {
        buf.get(self.start()..self.end()).unwrap_or(&[])
    }

    /// The same span moved `by` bytes towards the end of the buffer.
    pub const fn shifted(self, by: usize) -> Span {
        Span::new(self.start() + by, self.end() + by)
    }
}
