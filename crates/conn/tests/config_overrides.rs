//! `ConfigOverrides`: the settings an adapter's builder lays over a whole
//! `Config`.

use http_net_conn::{Config, ConfigOverrides, LocalError};

#[test]
fn unset_overrides_leave_every_config_as_it_is() {
    for config in [
        Config::DEFAULT,
        Config::DEFAULT.with_front_line(true),
        Config::DEFAULT.with_server_name(b"own").unwrap(),
        Config::DEFAULT.with_output_high_water(16 * 1024),
    ] {
        assert_eq!(ConfigOverrides::NONE.apply(config), config);
        assert_eq!(ConfigOverrides::default().apply(config), config);
    }
}

#[test]
fn set_overrides_replace_the_configs_own_values_and_keep_the_rest() {
    let base = Config::DEFAULT
        .with_front_line(true)
        .with_server_name(b"own")
        .unwrap()
        .with_drain_limit(7);
    let got = ConfigOverrides::NONE
        .with_front_line(false)
        .with_server_name(b"over")
        .unwrap()
        .with_body_budget(10)
        .apply(base);
    assert!(!got.head_limits().front_line());
    assert_eq!(got.server_name(), Some(&b"over"[..]));
    assert_eq!(got.body_limits().body_budget(), 10);
    assert_eq!(got.drain_limit(), 7);
    // The body limits other than the budget stay the configuration's.
    assert_eq!(
        got.body_limits()
            .with_body_budget(base.body_limits().body_budget()),
        base.body_limits()
    );
}

#[test]
fn each_override_changes_only_its_own_setting() {
    let base = Config::DEFAULT;
    let front = ConfigOverrides::NONE.with_front_line(true).apply(base);
    assert_eq!(front, base.with_front_line(true));
    let name = ConfigOverrides::NONE
        .with_server_name(b"n")
        .unwrap()
        .apply(base);
    assert_eq!(name, base.with_server_name(b"n").unwrap());
    let budget = ConfigOverrides::NONE.with_body_budget(0).apply(base);
    assert_eq!(
        budget,
        base.with_body_limits(base.body_limits().with_body_budget(0))
    );
}

#[test]
fn a_server_name_is_validated_as_config_validates_it() {
    // Empty, CR LF (a split response), surrounding whitespace, NUL, DEL; HTAB inside is allowed.
    const NAMES: [&[u8]; 7] = [
        b"",
        b"a\r\nSet-Cookie: x",
        b" a",
        b"a ",
        b"\0",
        b"\x7f",
        b"a\tb",
    ];
    for name in NAMES {
        let got = ConfigOverrides::NONE.with_server_name(name);
        let want = Config::DEFAULT.with_server_name(name);
        assert_eq!(got.map(|o| o.apply(Config::DEFAULT)), want, "{name:?}");
        if name != b"a\tb" {
            assert_eq!(got, Err(LocalError::InvalidFieldValue), "{name:?}");
        }
    }
}

#[test]
fn overrides_and_stage_are_send_and_sync_like_every_public_type() {
    fn send_sync<T: Send + Sync + Copy + core::fmt::Debug>() {}
    send_sync::<ConfigOverrides>();
    send_sync::<http_net_conn::Stage>();
}
