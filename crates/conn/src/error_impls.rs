//! The trait impls both adapters' errors share, written once: a macro each
//! adapter invokes beside its `Error` enum.

/// Writes, for an adapter's error enum `$error` (both adapters' have the
/// same variants: `Io(std::io::Error)`, `Protocol(Error)`, `Url(UrlError)`
/// and `Redirect(RedirectError)` of this crate's errors, `Timeout`,
/// `TooSlow`, `ConnectionClosed`, `NotSwitched`, `BodyUnavailable`,
/// `Evicted`, `OverLimit` and `UnsupportedTransferCoding`), its `Display`,
/// `std::error::Error` (whose `source` is the wrapped error of those four,
/// none for the others) and the conversions `From<Error>`,
/// `From<UrlError>`, `From<RedirectError>`, both ways with
/// `std::io::Error` (an adapter error into an I/O error of the kind a copy
/// loop expects, the adapter error kept inside and an `Io` its own I/O
/// error; such an I/O error back, any other one as `Io`: each adapter's
/// `into_io` and `from_io` are these conversions), and `local_of`, the
/// core's [`LocalError`](crate::LocalError) an error wraps.
///
/// Not API: an adapter's implementation detail, hidden from the docs.
#[doc(hidden)]
#[macro_export]
macro_rules! __adapter_error_impls {
    ($error:ident) => {
        impl ::core::fmt::Display for $error {
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                match self {
                    $error::Io(e) => ::core::write!(f, "i/o error: {e}"),
                    $error::Protocol(e) => ::core::fmt::Display::fmt(e, f),
                    $error::Timeout(stage) => ::core::write!(f, "timed out {stage}"),
                    $error::TooSlow(stage) => {
                        ::core::write!(f, "below the minimum data rate {stage}")
                    }
                    $error::Url(e) => ::core::write!(f, "unusable URL: {e}"),
                    $error::ConnectionClosed => {
                        f.write_str("the peer closed the connection before sending a response")
                    }
                    $error::NotSwitched => {
                        f.write_str("the connection was not switched to another protocol")
                    }
                    $error::BodyUnavailable => f.write_str("the body can no longer be read"),
                    $error::Evicted => {
                        f.write_str("evicted at the connection limit to admit a newcomer")
                    }
                    $error::OverLimit(limit) => {
                        ::core::write!(f, "the body is larger than {limit}")
                    }
                    $error::Redirect(e) => ::core::write!(f, "redirect not followed: {e}"),
                    $error::UnsupportedTransferCoding(codings) => {
                        ::core::fmt::Display::fmt(&$crate::UnsupportedCodings(codings), f)
                    }
                }
            }
        }

        impl $error {
            /// The core's local error this one wraps, if any (a handler's
            /// end asks it: `HandlerEnd::local_of`).
            pub(crate) fn local_of(&self) -> ::core::option::Option<$crate::LocalError> {
                match self {
                    $error::Protocol($crate::Error::Local(l)) => ::core::option::Option::Some(*l),
                    _ => ::core::option::Option::None,
                }
            }
        }

        impl ::core::convert::From<$error> for ::std::io::Error {
            fn from(e: $error) -> ::std::io::Error {
                use ::std::io::{Error as IoError, ErrorKind as K};
                use $crate::{Error as E, RemoteError as R};
                match e {
                    $error::Io(e) => e,
                    $error::Timeout(_) | $error::TooSlow(_) | $error::Evicted => {
                        IoError::new(K::TimedOut, e)
                    }
                    $error::Protocol(E::Remote(R::UnexpectedEof)) | $error::ConnectionClosed => {
                        IoError::new(K::UnexpectedEof, e)
                    }
                    $error::Protocol(_) | $error::Url(_) | $error::UnsupportedTransferCoding(_) => {
                        IoError::new(K::InvalidData, e)
                    }
                    $error::NotSwitched
                    | $error::BodyUnavailable
                    | $error::OverLimit(_)
                    | $error::Redirect(_) => IoError::other(e),
                }
            }
        }

        impl ::core::convert::From<::std::io::Error> for $error {
            fn from(e: ::std::io::Error) -> $error {
                if !e.get_ref().is_some_and(|inner| inner.is::<$error>()) {
                    return $error::Io(e);
                }
                match e.into_inner().map(|b| b.downcast::<$error>()) {
                    ::core::option::Option::Some(::core::result::Result::Ok(inner)) => *inner,
                    // Unreachable in practice: `is::<$error>()` was checked above.
                    _ => $error::BodyUnavailable,
                }
            }
        }

        impl ::std::error::Error for $error {
            fn source(&self) -> ::core::option::Option<&(dyn ::std::error::Error + 'static)> {
                match self {
                    $error::Io(e) => ::core::option::Option::Some(e),
                    $error::Protocol(e) => ::core::option::Option::Some(e),
                    $error::Url(e) => ::core::option::Option::Some(e),
                    $error::Redirect(e) => ::core::option::Option::Some(e),
                    _ => ::core::option::Option::None,
                }
            }
        }

        impl ::core::convert::From<$crate::Error> for $error {
            fn from(e: $crate::Error) -> $error {
                $error::Protocol(e)
            }
        }

        impl ::core::convert::From<$crate::UrlError> for $error {
            fn from(e: $crate::UrlError) -> $error {
                $error::Url(e)
            }
        }

        impl ::core::convert::From<$crate::RedirectError> for $error {
            fn from(e: $crate::RedirectError) -> $error {
                $error::Redirect(e)
            }
        }
    };
}
