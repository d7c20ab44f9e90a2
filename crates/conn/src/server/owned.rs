//! An owned copy of a request head, for keeping past the connection's next
//! command or moving to another thread.

use alloc::string::String;
use alloc::vec::Vec;

use http_net_framing::BodyKind;
use http_net_head::{Method, TargetForm, Version};

use crate::target::{query_pairs, target_path, target_query, QueryPairs};
use crate::{OwnedFields, RequestView};

/// A request head copied out of the connection's buffer
/// ([`RequestView::to_owned_head`]): it borrows nothing, so a handler can
/// keep it while it answers (the view borrows the connection), or send it
/// to another thread. Copying allocates: the method, the target and each
/// field.
///
/// ```
/// use http_net_conn::{Config, ServerConn, ServerEvent};
///
/// let mut conn = ServerConn::new(Config::DEFAULT);
/// conn.recv(b"PURGE /items/7?all=1 HTTP/1.1\r\nHost: a\r\n\r\n");
/// let Ok(ServerEvent::Request(view)) = conn.poll_event() else { panic!() };
/// let head = view.to_owned_head();
/// conn.responder().send_head(204, &[], http_net_conn::BodyLength::Empty).unwrap();
/// // The copy outlives the borrow of the connection.
/// assert_eq!(head.method_str(), "PURGE");
/// assert_eq!(head.path(), b"/items/7");
/// assert_eq!(head.query_pairs().collect::<Vec<_>>(), [(&b"all"[..], &b"1"[..])]);
/// std::thread::spawn(move || assert_eq!(head.field(b"host"), Some(&b"a"[..])))
///     .join()
///     .unwrap();
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OwnedRequestHead {
    method: Method,
    method_str: String,
    target: Vec<u8>,
    target_form: TargetForm,
    version: Version,
    fields: OwnedFields,
    body_kind: BodyKind,
}

impl OwnedRequestHead {
    pub(crate) fn of(view: &RequestView<'_>) -> OwnedRequestHead {
        OwnedRequestHead {
            method: view.method(),
            method_str: String::from(view.method_str()),
            target: view.target().to_vec(),
            target_form: view.target_form(),
            version: view.version(),
            fields: view.fields().collect(),
            body_kind: view.body_kind(),
        }
    }
    /// The method.
    pub fn method(&self) -> Method {
        self.method
    }
    /// The method's name as received, extension methods included.
    pub fn method_str(&self) -> &str {
        &self.method_str
    }
    /// The request target, as received.
    pub fn target(&self) -> &[u8] {
        &self.target
    }
    /// The target's form.
    pub fn target_form(&self) -> TargetForm {
        self.target_form
    }
    /// The target's path ([`target_path`](crate::target_path)).
    pub fn path(&self) -> &[u8] {
        target_path(&self.target)
    }
    /// The target's query ([`target_query`](crate::target_query)).
    pub fn query(&self) -> Option<&[u8]> {
        target_query(&self.target)
    }
    /// The query's `key=value` pairs ([`query_pairs`](crate::query_pairs)).
    pub fn query_pairs(&self) -> QueryPairs<'_> {
        query_pairs(self.query().unwrap_or(&[]))
    }
    /// The version.
    pub fn version(&self) -> Version {
        self.version
    }
    /// The fields as (name, value) bytes, in received order.
    pub fn fields(&self) -> impl Iterator<Item = (&[u8], &[u8])> {
        self.fields.iter()
    }
    /// The value of the first field named `name` (ASCII case-insensitive).
    pub fn field(&self, name: &[u8]) -> Option<&[u8]> {
        self.fields.get(name)
    }
    /// How the request body is delimited.
    pub fn body_kind(&self) -> BodyKind {
        self.body_kind
    }
}

impl RequestView<'_> {
    /// An owned copy of the head, which borrows nothing (see
    /// [`OwnedRequestHead`]).
    pub fn to_owned_head(&self) -> OwnedRequestHead {
        OwnedRequestHead::of(self)
    }
}
