// Shared by the H6 axum servers (included with `include!`): the one router
// both serve, on hyper (`axum::serve`) and on http-net (`http-net-tower`),
// each on a current-thread runtime.

/// The router: `GET /plaintext` answers `Hello, World!` as `text/plain`,
/// with `Server: axum`, as an axum application writes it.
fn router() -> axum::Router {
    use axum::http::header::{CONTENT_TYPE, SERVER};
    axum::Router::new().route(
        "/plaintext",
        axum::routing::get(|| async {
            (
                [(SERVER, "axum"), (CONTENT_TYPE, "text/plain")],
                "Hello, World!",
            )
        }),
    )
}
