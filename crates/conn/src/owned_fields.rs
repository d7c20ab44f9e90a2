//! Fields copied out of a connection's buffer, for keeping past its next
//! command: what an adapter's owned response head and trailer list hold.

use alloc::vec::Vec;

/// The value of the first field of `fields` named `name` (ASCII
/// case-insensitive, RFC 9110 §5.1): the lookup every field list shares.
pub(crate) fn first_named<'a>(
    mut fields: impl Iterator<Item = (&'a [u8], &'a [u8])>,
    name: &[u8],
) -> Option<&'a [u8]> {
    fields
        .find(|(n, _)| n.eq_ignore_ascii_case(name))
        .map(|(_, v)| v)
}

/// Owned (name, value) field lines in received order, looked up by name as
/// the borrowed views are: a response head's or a message's trailers,
/// copied out of the connection (each line allocates). An adapter keeps
/// one per response (or request) and refills it, so its allocation is
/// reused.
///
/// ```
/// use http_net_conn::OwnedFields;
///
/// let mut trailers = OwnedFields::new();
/// trailers.extend([(&b"Digest"[..], &b"sha-256=abc"[..])]);
/// assert_eq!(trailers.get(b"digest"), Some(&b"sha-256=abc"[..]));
/// assert_eq!(trailers.iter().count(), 1);
/// trailers.clear();
/// assert!(trailers.is_empty());
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct OwnedFields {
    lines: Vec<(Vec<u8>, Vec<u8>)>,
}

impl OwnedFields {
    /// No fields (allocates nothing).
    pub const fn new() -> OwnedFields {
        OwnedFields { lines: Vec::new() }
    }
    /// The fields as (name, value) bytes, in received order.
    pub fn iter(&self) -> impl Iterator<Item = (&[u8], &[u8])> {
        self.lines.iter().map(|(n, v)| (&n[..], &v[..]))
    }
    /// The value of the first field named `name` (ASCII case-insensitive).
    pub fn get(&self, name: &[u8]) -> Option<&[u8]> {
        first_named(self.iter(), name)
    }
    /// How many field lines there are.
    pub fn len(&self) -> usize {
        self.lines.len()
    }
    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.lines.is_empty()
    }
    /// Forgets every line (keeping the allocation).
    pub fn clear(&mut self) {
        self.lines.clear();
    }
    /// Replaces the lines with `fields`, reusing the memory of the lines
    /// held before: no allocation when there are no more lines than before
    /// and each name and value fits where the one before it was (a client
    /// that keeps one `OwnedFields` per connection copies each response's
    /// head into it without allocating in steady state).
    ///
    /// ```
    /// use http_net_conn::OwnedFields;
    /// let mut f: OwnedFields = [(&b"A"[..], &b"1"[..]), (b"B", b"2")].into_iter().collect();
    /// f.refill([(&b"C"[..], &b"3"[..])]);
    /// assert_eq!(f.iter().collect::<Vec<_>>(), [(&b"C"[..], &b"3"[..])]);
    /// ```
    pub fn refill<'a>(&mut self, fields: impl IntoIterator<Item = (&'a [u8], &'a [u8])>) {
        let mut n = 0;
        for (name, value) in fields {
            match self.lines.get_mut(n) {
                Some((old_name, old_value)) => {
                    old_name.clear();
                    old_name.extend_from_slice(name);
                    old_value.clear();
                    old_value.extend_from_slice(value);
                }
                None => self.lines.push((name.to_vec(), value.to_vec())),
            }
            n += 1;
        }
        self.lines.truncate(n);
    }
}

impl<'a> Extend<(&'a [u8], &'a [u8])> for OwnedFields {
    fn extend<I: IntoIterator<Item = (&'a [u8], &'a [u8])>>(&mut self, iter: I) {
        self.lines
            .extend(iter.into_iter().map(|(n, v)| (n.to_vec(), v.to_vec())));
    }
}

impl<'a> FromIterator<(&'a [u8], &'a [u8])> for OwnedFields {
    fn from_iter<I: IntoIterator<Item = (&'a [u8], &'a [u8])>>(iter: I) -> OwnedFields {
        let mut fields = OwnedFields::new();
        fields.extend(iter);
        fields
    }
}
