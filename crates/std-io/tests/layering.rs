//! The layering rule: `http-net-std` depends on `http-net-conn` only; the head and
//! framing types it uses come through `conn`'s re-exports.

use http_net_conn::{framing, head, BodyKind, Method, Version};

/// The names in the `[dependencies]` tables of a manifest: `[dependencies]`
/// with one line per dependency (`name = ..`, `name.workspace = true`), and
/// `[dependencies.name]` tables, the form `cargo package` writes into the
/// packaged `Cargo.toml`; target-specific tables count too. Dev- and
/// build-dependencies do not.
fn dependencies(manifest: &str) -> Vec<String> {
    let mut names = Vec::new();
    let mut inside = false;
    for line in manifest.lines().map(str::trim) {
        if let Some(header) = line.strip_prefix('[') {
            let header = header.trim_end_matches(']').trim();
            // `target.'cfg(unix)'.dependencies` counts as `dependencies`.
            let table = match header.strip_prefix("target.") {
                Some(rest) => rest.split_once(".dependencies").map_or("-", |(_, t)| t),
                None => header.strip_prefix("dependencies").unwrap_or("-"),
            };
            inside = table.is_empty();
            if let Some(name) = table.strip_prefix('.') {
                names.push(name.trim_matches('"').to_string());
            }
            continue;
        }
        if inside && !line.is_empty() && !line.starts_with('#') {
            let name = line.split(['=', '.', ' ']).next().unwrap_or("");
            names.push(name.trim_matches('"').to_string());
        }
    }
    names
}

#[test]
fn reads_both_manifest_forms() {
    let workspace = "[package]\nname = \"x\"\n\n[dependencies]\n# c\na.workspace = true\nb = { path = \"b\" }\n\n[dev-dependencies]\nc = \"1\"\n";
    assert_eq!(dependencies(workspace), ["a", "b"]);
    let packaged = "[package]\nname = \"x\"\n\n[dependencies.a]\nversion = \"0.1.0\"\n\n[dev-dependencies.c]\nversion = \"1\"\n\n[target.\"cfg(unix)\".dependencies.d]\nversion = \"2\"\n\n[target.\"cfg(unix)\".dev-dependencies.e]\nversion = \"3\"\n";
    assert_eq!(dependencies(packaged), ["a", "d"]);
}

#[test]
fn depends_on_conn_only() {
    // The manifest this test was built from: the workspace's, or the one
    // `cargo package` rewrote.
    assert_eq!(
        dependencies(include_str!("../Cargo.toml")),
        ["http-net-conn"]
    );
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
