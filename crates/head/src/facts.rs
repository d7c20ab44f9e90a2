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
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FieldFacts {
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
