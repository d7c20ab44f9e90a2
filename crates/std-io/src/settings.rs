//! The server's settings, gathered by [`ServerBuilder`](crate::ServerBuilder).

use std::ops::{Deref, DerefMut};
use std::time::Duration;

use http_net_conn::ServerSettings;

/// The server's settings (see the [`ServerBuilder`](crate::ServerBuilder)
/// methods for each): the ones both adapters share (`core`, reached
/// through `Deref`), and this adapter's thread pool.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Settings {
    pub(crate) core: ServerSettings,
    pub(crate) stack_size: usize,
    pub(crate) max_idle_threads: usize,
    pub(crate) keep_idle_threads: Duration,
}

impl Settings {
    /// The defaults each [`ServerBuilder`](crate::ServerBuilder) method names.
    pub(crate) const DEFAULT: Settings = Settings {
        core: ServerSettings::DEFAULT,
        stack_size: 2 * 1024 * 1024,
        max_idle_threads: 64,
        keep_idle_threads: Duration::from_secs(60),
    };
}

impl Default for Settings {
    fn default() -> Self {
        Settings::DEFAULT
    }
}

impl Deref for Settings {
    type Target = ServerSettings;
    fn deref(&self) -> &ServerSettings {
        &self.core
    }
}

impl DerefMut for Settings {
    fn deref_mut(&mut self) -> &mut ServerSettings {
        &mut self.core
    }
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
