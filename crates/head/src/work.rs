//! A count of bytes examined, kept only with the `count-work` feature (used
//! by the linearity test); without it every call compiles to nothing.

/// Bytes examined by one parser since its last reset.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Work {
    #[cfg(feature = "count-work")]
    bytes: u64,
}

impl Work {
    /// Nothing examined yet.
    pub(crate) const fn new() -> Work {
        Work {
            #[cfg(feature = "count-work")]
            bytes: 0,
        }
    }

    /// Records that `n` more bytes were examined.
    #[inline(always)]
    pub(crate) fn add(&mut self, n: usize) {
        #[cfg(feature = "count-work")]
        {
            self.bytes += n as u64;
        }
        let _ = n;
    }

    /// The total so far.
    #[cfg(feature = "count-work")]
    pub(crate) fn total(self) -> u64 {
        self.bytes
    }
}
