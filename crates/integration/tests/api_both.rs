//! The API promises both adapters make alike, written once and run against
//! each (issue 24, "One surface, two I/O styles"): which of their public
//! types are `Send` and `Sync` (the crates' "threads" documentation), and
//! what their errors say (and which `std::io::ErrorKind` each becomes). Each `api!` below is a module of tests per
//! adapter; what only one adapter has stays in its own `tests/api.rs`.

fn assert_send_sync<T: Send + Sync>() {}
fn assert_send<T: Send>() {}

macro_rules! api {
    ($($adapter:ident),+) => {$(
        mod $adapter {
            use $adapter::{
                Body, BodyWriter, Client, ClientBuilder, ClientResponse, Counters, Error,
                Exchange, Limit, Server, ServerBuilder, ServerHandle, Stage, Upgraded,
            };

            #[test]
            fn owned_types_are_send_and_sync() {
                super::assert_send_sync::<(
                    Server,
                    ServerBuilder,
                    ServerHandle,
                    Counters,
                    Client,
                    ClientBuilder,
                    Error,
                    Stage,
                    Limit,
                )>();
            }

            #[test]
            fn streams_are_send() {
                // They own (or borrow) a connection's stream, which is
                // `Send` only. (The body types' lifetimes are inferred: the
                // async ones have a second.)
                super::assert_send::<(
                    ClientResponse,
                    Exchange<'static>,
                    Body,
                    BodyWriter,
                    Upgraded<'static>,
                )>();
            }

            #[test]
            fn over_limit_names_the_setting_and_is_not_the_peers_fault() {
                let e = Error::OverLimit(Limit::BodyToVec(10));
                assert!(!e.is_peer_fault());
                assert_eq!(
                    e.to_string(),
                    "the body is larger than the body_to_vec limit of 10 bytes"
                );
                let e = Error::OverLimit(Limit::BodyBudget(1000));
                assert!(!e.is_peer_fault());
                assert_eq!(
                    e.to_string(),
                    "the body is larger than the body limit of 1000 bytes"
                );
            }

            #[test]
            fn display_names_the_stage() {
                assert_eq!(Error::Timeout(Stage::Connect).to_string(), "timed out connecting");
                assert_eq!(
                    Error::Timeout(Stage::Head).to_string(),
                    "timed out reading a message head"
                );
                assert_eq!(
                    Error::TooSlow(Stage::Body).to_string(),
                    "below the minimum data rate reading a message body"
                );
            }

            #[test]
            fn wraps_the_cores_errors_as_their_source() {
                use http_net_conn::{LocalError, RedirectError};
                use std::error::Error as _;
                let e = Error::from(http_net_conn::Error::Local(LocalError::InvalidFieldName));
                assert!(matches!(e, Error::Protocol(_)));
                assert!(!e.is_peer_fault());
                assert_eq!(e.source().map(|s| s.to_string()), Some(e.to_string()));
                let e = Error::from(RedirectError::Downgrade);
                assert!(matches!(e, Error::Redirect(RedirectError::Downgrade)));
                assert!(e.source().is_some());
                let e = Error::from(http_net_conn::Url::parse("ftp://a/").unwrap_err());
                assert!(matches!(e, Error::Url(_)));
                assert!(e.source().is_some());
                assert!(Error::NotSwitched.source().is_none());
            }

            #[test]
            fn into_io_keeps_one_kind_each_and_from_io_gives_the_error_back() {
                use http_net_conn::{Error as ConnError, LocalError, RemoteError};
                use std::io::{self, ErrorKind};
                let cases = [
                    (Error::Timeout(Stage::Body), ErrorKind::TimedOut),
                    (Error::TooSlow(Stage::Write), ErrorKind::TimedOut),
                    (
                        Error::Protocol(ConnError::Remote(RemoteError::UnexpectedEof)),
                        ErrorKind::UnexpectedEof,
                    ),
                    (Error::ConnectionClosed, ErrorKind::UnexpectedEof),
                    (
                        Error::Protocol(ConnError::Remote(RemoteError::UnsolicitedResponse)),
                        ErrorKind::InvalidData,
                    ),
                    (
                        Error::Protocol(ConnError::Local(LocalError::WrongState)),
                        ErrorKind::InvalidData,
                    ),
                    (Error::UnsupportedTransferCoding(Vec::new()), ErrorKind::InvalidData),
                    (Error::NotSwitched, ErrorKind::Other),
                    (Error::BodyUnavailable, ErrorKind::Other),
                    (Error::OverLimit(Limit::BodyToVec(1)), ErrorKind::Other),
                ];
                for (e, kind) in cases {
                    let name = format!("{e:?}");
                    let io = e.into_io();
                    assert_eq!(io.kind(), kind, "{name}");
                    assert!(io.get_ref().is_some_and(|i| i.is::<Error>()), "{name}");
                    assert_eq!(format!("{:?}", Error::from_io(io)), name);
                }
                // An I/O error is its own, both ways.
                let io = Error::Io(ErrorKind::BrokenPipe.into()).into_io();
                assert_eq!(io.kind(), ErrorKind::BrokenPipe);
                assert!(matches!(Error::from_io(io), Error::Io(_)));
                // The conversions `?` uses are the two functions.
                let io: io::Error = Error::NotSwitched.into();
                assert!(matches!(Error::from(io), Error::NotSwitched));
            }

            #[test]
            fn display_lists_the_transfer_codings_not_decoded() {
                let e = Error::UnsupportedTransferCoding(vec![b"gzip".to_vec(), b"br".to_vec()]);
                assert!(!e.is_peer_fault());
                assert_eq!(
                    e.to_string(),
                    "the response body carries the transfer coding gzip, br, \
                     which the client does not decode (RFC 9112 §6.1)"
                );
            }
        }
    )+};
}

api!(http_net_std, http_net_tokio);
