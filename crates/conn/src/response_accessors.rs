//! The response-head accessors both adapters' `ClientResponse` offer,
//! written once: a macro each adapter invokes inside its
//! `impl ClientResponse`.

/// Writes, inside an adapter's `impl ClientResponse`, the accessors that
/// read the response head the adapter kept: `status`, `version`, `reason`,
/// `fields`, `field` and `transfer_codings`. The adapter names its head
/// field, whose own fields are `status: u16`, `version: Version`,
/// `reason: Vec<u8>`, `fields: OwnedFields` and `codings: Vec<Vec<u8>>`.
/// The docs link to `ClientBuilder::accept_transfer_codings`, which the
/// adapter defines.
///
/// Not API: an adapter's implementation detail, hidden from the docs.
#[doc(hidden)]
#[macro_export]
macro_rules! __client_response_accessors {
    (head: $head:ident) => {
        /// The status code.
        pub fn status(&self) -> u16 {
            self.$head.status
        }
        /// The HTTP version of the response.
        pub fn version(&self) -> $crate::Version {
            self.$head.version
        }
        /// The reason phrase.
        pub fn reason(&self) -> &[u8] {
            &self.$head.reason
        }
        /// The fields as (name, value), in received order.
        pub fn fields(&self) -> impl ::core::iter::Iterator<Item = (&[u8], &[u8])> {
            self.$head.fields.iter()
        }
        /// The value of the first field named `name` (ASCII case-insensitive).
        pub fn field(&self, name: &[u8]) -> ::core::option::Option<&[u8]> {
            self.$head.fields.get(name)
        }
        /// The transfer codings the body bytes still carry, in the order
        /// applied (RFC 9112 §6.1): empty unless
        /// [`ClientBuilder::accept_transfer_codings`] is on and the response's
        /// `Transfer-Encoding` does not end in `chunked`; the body is then the
        /// coded bytes, for the caller to decode.
        pub fn transfer_codings(&self) -> impl ::core::iter::Iterator<Item = &[u8]> {
            self.$head.codings.iter().map(|c| &c[..])
        }
    };
}
