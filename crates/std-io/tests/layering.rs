//! SPEC §1: `http-net-std` depends on `http-net-conn` only; the head and
//! framing types it uses come through `conn`'s re-exports.

use http_net_conn::{framing, head, BodyKind, Method, Version};

/// The `[dependencies]` of this crate's manifest, by name.
fn dependencies() -> Vec<String> {
    let manifest = include_str!("../Cargo.toml");
    let mut names = Vec::new();
    let mut inside = false;
    for line in manifest.lines().map(str::trim) {
        if line.starts_with('[') {
            inside = line == "[dependencies]";
            continue;
        }
        if inside && !line.is_empty() && !line.starts_with('#') {
            let name = line.split(['=', '.', ' ']).next().unwrap_or("");
            names.push(name.to_string());
        }
    }
    names
}

#[test]
fn depends_on_conn_only() {
    assert_eq!(dependencies(), ["http-net-conn"]);
}

#[test]
fn conn_re_exports_the_types_its_api_exposes() {
    // The root names are the layers' own types, not copies.
    let m: head::Method = Method::Get;
    let v: head::Version = Version::Http11;
    let k: framing::BodyKind = BodyKind::Length(3);
    assert_eq!(
        (m, v, k),
        (
            head::Method::Get,
            head::Version::Http11,
            framing::BodyKind::Length(3)
        )
    );
    let _: http_net_conn::HeadLimits = http_net_conn::Config::DEFAULT.head_limits();
    let _: http_net_conn::BodyLimits = http_net_conn::Config::DEFAULT.body_limits();
}
