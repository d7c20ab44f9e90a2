//! Every public item of `http-net-conn` outside its adapter module
//! (`http_net_conn::driver`) and every one of `http-net-std` is reachable
//! through the facade, and by one path: `conn`'s own items in
//! `http_net::conn`, none of the driver's, the std adapter's own items in `http_net::blocking`,
//! and what the std adapter re-exports from the core only in `conn`. The
//! facade lists them one by one (a crate re-exported whole would bring its
//! own re-exports, a second path for each), so this test catches an item
//! added to a crate and not to the facade.

use std::collections::BTreeSet;

/// The names a crate root re-exports with `pub use path::{..};` or
/// `pub use path::Name;`, split into those from the crate's own modules and
/// those from another crate (`http_net_*`).
fn root_uses(src: &str) -> (BTreeSet<String>, BTreeSet<String>) {
    let code: String = src
        .lines()
        .filter(|l| !l.trim_start().starts_with("//"))
        .collect::<Vec<_>>()
        .join("\n");
    let (mut own, mut other) = (BTreeSet::new(), BTreeSet::new());
    let mut rest = code.as_str();
    while let Some(at) = rest.find("pub use ") {
        rest = &rest[at + "pub use ".len()..];
        let end = rest.find(';').expect("a `pub use` ends with `;`");
        let item = &rest[..end];
        rest = &rest[end..];
        if item.contains(" as ") || !item.contains("::") {
            continue; // a crate re-exported under a name
        }
        let (path, names) = match item.find('{') {
            Some(b) => (&item[..b], item[b + 1..].trim_end_matches('}')),
            None => {
                let cut = item.rfind("::").unwrap();
                (&item[..cut], &item[cut + 2..])
            }
        };
        let to = if path.trim().starts_with("http_net_") {
            &mut other
        } else {
            &mut own
        };
        for n in names.split(',').map(str::trim).filter(|n| !n.is_empty()) {
            to.insert(n.to_string());
        }
    }
    (own, other)
}

/// The names the facade's module `m` lists.
fn facade_module(m: &str) -> BTreeSet<String> {
    let src = include_str!("../../http-net/src/lib.rs");
    let start = src
        .find(&format!("pub mod {m} {{"))
        .unwrap_or_else(|| panic!("the facade has no module {m}"));
    let body = &src[start..];
    let body = &body[..body.find("\n}\n").expect("the module ends")];
    let (_, other) = root_uses(body);
    other
}

#[test]
fn the_facade_lists_every_item_of_conn_once() {
    let (own, _) = root_uses(include_str!("../../conn/src/lib.rs"));
    let facade = facade_module("conn");
    let missing: Vec<_> = own.difference(&facade).collect();
    let extra: Vec<_> = facade.difference(&own).collect();
    assert!(
        missing.is_empty(),
        "conn items not in http_net::conn: {missing:?}"
    );
    assert!(
        extra.is_empty(),
        "http_net::conn lists what conn does not define: {extra:?}"
    );
}

/// What an adapter author needs and an application does not: the driver
/// module holds it, and the facade gives none of it.
#[test]
fn the_facade_gives_nothing_of_the_driver_module() {
    let (driver, _) = root_uses(include_str!("../../conn/src/driver.rs"));
    let facade = facade_module("conn");
    let leaked: Vec<_> = driver.intersection(&facade).collect();
    assert!(
        leaked.is_empty(),
        "driver items in http_net::conn: {leaked:?}"
    );
    for n in [
        "Expiry",
        "ReadTimeouts",
        "NextRead",
        "ReadStep",
        "AfterHandler",
        "HandlerOutcome",
        "Begin",
        "RequestPolicy",
        "EvictPolicy",
        "Flow",
        "Rank",
        "SlotState",
        "Summary",
        "FlowGauge",
        "rank",
        "pick_eviction",
        "REFUSING_AT_ONCE",
        "YOUNG_RESPONSE_STALL_MS",
        "Meter",
        "Bound",
        "MistakeGate",
        "MistakeSink",
    ] {
        assert!(driver.contains(n), "{n} is not in conn's driver module");
    }
}

/// The names std's modules re-export from the core (`pub use
/// http_net_conn::..` in any file of `crates/std-io/src`): the core's types,
/// which the facade gives in `conn` only.
fn std_reexports_of_conn() -> BTreeSet<String> {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../std-io/src");
    let mut names = BTreeSet::new();
    for entry in std::fs::read_dir(dir).expect("std-io/src") {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "rs") {
            let src = std::fs::read_to_string(&path).unwrap();
            let (_, other) = root_uses(&src);
            names.extend(other);
        }
    }
    names
}

#[test]
fn the_facade_lists_every_item_of_the_std_adapter_once() {
    let (std_root, _) = root_uses(include_str!("../../std-io/src/lib.rs"));
    let from_conn = std_reexports_of_conn();
    let conn = facade_module("conn");
    let blocking = facade_module("blocking");
    for n in &from_conn {
        if !std_root.contains(n) && !include_str!("../../std-io/src/lib.rs").contains(n.as_str()) {
            continue; // used inside std, not exported
        }
        assert!(
            conn.contains(n),
            "{n}: std re-exports the core's, the facade's conn lacks it"
        );
        assert!(
            !blocking.contains(n),
            "{n} has two paths: blocking and conn"
        );
    }
    for n in std_root.difference(&from_conn) {
        assert!(
            blocking.contains(n),
            "{n}: std's own item is not in http_net::blocking"
        );
    }
    let stray: Vec<_> = blocking.difference(&std_root).collect();
    assert!(
        stray.is_empty(),
        "http_net::blocking lists what std does not export: {stray:?}"
    );
}
