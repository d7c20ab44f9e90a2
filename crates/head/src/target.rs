/// The form of a request target (RFC 9112 §3.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TargetForm {
    /// `/path?query` (RFC 9112 §3.2.1)
    Origin,
    /// `scheme://authority/path?query` (RFC 9112 §3.2.2)
    Absolute,
    /// `host:port`, only with CONNECT (RFC 9112 §3.2.3)
    Authority,
    /// `*`, only with OPTIONS (RFC 9112 §3.2.4)
    Asterisk,
}
