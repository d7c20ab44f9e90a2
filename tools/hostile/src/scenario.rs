//! The attacks the suite makes, by name.

/// One attack.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scenario {
    /// Each connection sends one `GET`, reads the answer, then sits idle;
    /// reconnects when closed.
    IdleFlood,
    /// Each connection sends its head one byte a second, never ending it;
    /// reconnects after the server's `408` (or any close).
    Slowloris,
    /// Each connection sends a whole head announcing a 1,000,000-byte body,
    /// then one byte of it every 5 s; reconnects when closed.
    SlowBody,
    /// Each connection pipelines `GET`s as fast as the server takes them and
    /// never reads a response; reconnects when dropped.
    Pipeliner,
    /// One wave of connections (no reconnects) opened at up to 1,000 a
    /// second, each sending one `GET` and staying open, even after the
    /// server closed its side (a peer that never closes): how many beyond
    /// the cap are answered `503`, closed unanswered, or left hanging.
    Burst,
    /// Connections reset (RST) mid-head, mid-body and mid-response in turn,
    /// then reconnect.
    Resets,
    /// TLS (`--tls`): each connection opens TCP and sends nothing;
    /// reconnects when closed.
    TlsSilent,
    /// TLS: each connection sends the first half of a ClientHello, then
    /// nothing; reconnects when closed.
    TlsPartialHello,
    /// TLS: each connection sends a whole ClientHello (the server does a
    /// key exchange and signs), resets the connection once the server's
    /// answer begins, and reconnects at once (within the open rate), as it
    /// does when the server closes it unanswered; one that gets no answer
    /// stalls until the server closes it.
    TlsHelloFlood,
}

impl Scenario {
    /// Every plain-HTTP scenario, in the order the suite runs them.
    pub const ALL: [Scenario; 6] = [
        Scenario::IdleFlood,
        Scenario::Slowloris,
        Scenario::SlowBody,
        Scenario::Pipeliner,
        Scenario::Burst,
        Scenario::Resets,
    ];

    /// The TLS scenarios (`--tls`), in the order the suite runs them.
    pub const TLS: [Scenario; 3] = [
        Scenario::TlsSilent,
        Scenario::TlsPartialHello,
        Scenario::TlsHelloFlood,
    ];

    /// The name `--only` takes.
    pub fn name(self) -> &'static str {
        match self {
            Scenario::IdleFlood => "idle-flood",
            Scenario::Slowloris => "slowloris",
            Scenario::SlowBody => "slow-body",
            Scenario::Pipeliner => "pipeliner",
            Scenario::Burst => "burst",
            Scenario::Resets => "resets",
            Scenario::TlsSilent => "tls-silent",
            Scenario::TlsPartialHello => "tls-partial-hello",
            Scenario::TlsHelloFlood => "tls-hello-flood",
        }
    }

    /// The scenario named `name`.
    pub fn parse(name: &str) -> Option<Scenario> {
        Scenario::ALL
            .into_iter()
            .chain(Scenario::TLS)
            .find(|s| s.name() == name)
    }

    /// Whether it speaks TLS (its target must be a TLS server).
    pub fn tls(self) -> bool {
        Scenario::TLS.contains(&self)
    }

    /// Whether a connection the server closed is opened again.
    pub fn reconnects(self) -> bool {
        self != Scenario::Burst
    }

    /// Whether the attacker reads what the server sends.
    pub fn reads(self) -> bool {
        self != Scenario::Pipeliner
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scenario_names_round_trip() {
        for s in Scenario::ALL.into_iter().chain(Scenario::TLS) {
            assert_eq!(Scenario::parse(s.name()), Some(s));
        }
        assert_eq!(Scenario::parse("nope"), None);
    }
}
