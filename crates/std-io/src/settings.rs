//! The server's settings, gathered by [`ServerBuilder`](crate::ServerBuilder).

use std::time::Duration;

use http_net_conn::{Config, ConfigOverrides};

use crate::wire::Rate;

/// The server's settings (see the [`ServerBuilder`](crate::ServerBuilder) methods for each).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Settings {
    pub(crate) conn: Config,
    pub(crate) max_connections: usize,
    pub(crate) max_connections_per_peer: usize,
    pub(crate) max_requests: u64,
    pub(crate) idle_timeout: Duration,
    pub(crate) head_timeout: Duration,
    pub(crate) body_timeout: Duration,
    pub(crate) write_timeout: Duration,
    pub(crate) min_body_rate: Rate,
    pub(crate) min_response_rate: Rate,
    pub(crate) response_timeout: Option<Duration>,
    pub(crate) eviction_grace: Duration,
    pub(crate) drain_time: Duration,
    pub(crate) drain_bytes: u64,
    pub(crate) stack_size: usize,
    pub(crate) max_idle_threads: usize,
    pub(crate) keep_idle_threads: Duration,
    pub(crate) shutdown_timeout: Duration,
    pub(crate) tunnels: bool,
    pub(crate) wipe: bool,
    /// Set by [`ServerBuilder::server_name`](crate::ServerBuilder::server_name),
    /// [`front_line`](crate::ServerBuilder::front_line) and
    /// [`max_body_bytes`](crate::ServerBuilder::max_body_bytes); applied to
    /// `conn` when the server is made (so that `conn_config` may come before
    /// or after them).
    pub(crate) overrides: ConfigOverrides,
}

impl Settings {
    /// The defaults each [`ServerBuilder`](crate::ServerBuilder) method names.
    pub(crate) const DEFAULT: Settings = Settings {
        // Reading pauses at 16 KiB of output waiting (`Config::DEFAULT`: 64
        // KiB): a peer that pipelines without reading holds less memory.
        conn: Config::DEFAULT.with_output_high_water(16 * 1024),
        max_connections: 1024,
        max_connections_per_peer: 0,
        max_requests: 1000,
        idle_timeout: Duration::from_secs(30),
        head_timeout: Duration::from_secs(10),
        body_timeout: Duration::from_secs(30),
        write_timeout: Duration::from_secs(30),
        min_body_rate: Rate::KESTREL,
        min_response_rate: Rate::KESTREL,
        response_timeout: None,
        eviction_grace: Duration::from_secs(1),
        drain_time: Duration::from_secs(2),
        drain_bytes: 1024 * 1024,
        stack_size: 2 * 1024 * 1024,
        max_idle_threads: 64,
        keep_idle_threads: Duration::from_secs(60),
        shutdown_timeout: Duration::from_secs(30),
        tunnels: false,
        wipe: false,
        overrides: ConfigOverrides::NONE,
    };
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use http_net_conn::{Placement, PreparedResponse, ServerConn, ServerEvent};

    /// Answers every request a peer pipelined without reading the
    /// responses, as far as the connection surfaces them; returns the
    /// output then queued.
    pub(crate) fn pipelined_output(conn: &mut ServerConn, requests: usize) -> usize {
        let req = b"GET / HTTP/1.1\r\nHost: a\r\n\r\n";
        let ok = PreparedResponse::new(200, &[(b"Content-Type", b"text/plain")]).unwrap();
        let body = [b'x'; 1000];
        let mut sent = 0;
        while sent < requests {
            if conn.recv(req) < req.len() {
                break;
            }
            sent += 1;
            loop {
                match conn.poll_event() {
                    Ok(ServerEvent::Request(_)) => {
                        let placed = conn.responder().respond(&ok, &body).unwrap();
                        // 1,000 bytes are under `COPY_LIMIT`: copied.
                        assert_eq!(placed, Placement::Queued);
                    }
                    Ok(ServerEvent::NeedInput) => break,
                    // Paused at the output high water: the peer reads nothing.
                    _ => return conn.output().len(),
                }
            }
        }
        conn.output().len()
    }

    #[test]
    fn a_non_reading_pipeliner_queues_at_most_16_kib_and_one_response() {
        // 1,024 such peers hold 1,024 output buffers: at `Config::DEFAULT`'s
        // 64 KiB high water that is 64 MiB, at the server's 16 KiB 16 MiB.
        assert_eq!(Settings::DEFAULT.conn.output_high_water(), 16 * 1024);
        let mut conn = ServerConn::new(Settings::DEFAULT.conn);
        let queued = pipelined_output(&mut conn, 1000);
        assert!(queued > 16 * 1024, "{queued}");
        assert!(queued <= 16 * 1024 + 1200, "{queued}");
    }
}
