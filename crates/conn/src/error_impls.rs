//! The trait impls both adapters' errors share, written once: a macro each
//! adapter invokes beside its `Error` enum.

/// Writes, for an adapter's error enum `$error` with the variants
/// `Io(std::io::Error)`, `Protocol(Error)`, `Url(UrlError)` and
/// `Redirect(RedirectError)` (this crate's errors), `std::error::Error`
/// (whose `source` is the wrapped error of those four, none for the
/// others) and the conversions `From<Error>`, `From<UrlError>` and
/// `From<RedirectError>`. Each adapter keeps its own `Display`, whose
/// words are its own, and its own `From<std::io::Error>`.
///
/// Not API: an adapter's implementation detail, hidden from the docs.
#[doc(hidden)]
#[macro_export]
macro_rules! __adapter_error_impls {
    ($error:ident) => {
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
