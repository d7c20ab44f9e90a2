//! Both clients carry out the core's one plan for a request
//! (`http_net_conn::driver::RequestPlan`, `IdlePool`): reuse within the
//! idle life and a new connection after it, the idle bound per origin, a
//! redirect whose short body is drained so that the next hop reuses its
//! connection (a long one is not), and a retry that goes out once per hop.
//! Every test runs the same steps through `http_net_std::Client` and
//! `http_net_tokio::Client` and asserts one answer for both.
//!
//! The origin is a raw `std::net` thread per connection: each answer's
//! body names the connection it came on (`c0`, `c1`...), so the answers
//! show which connection carried each request.

mod support;

use http_net_conn::ClientOptions;
use std::io::Write;
use std::net::{SocketAddr, TcpListener};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::Duration;

use http_net_conn::Redirects;
use support::std_io::read_request;

/// What a connection does with the request it read.
#[derive(Clone, Copy)]
enum Reply {
    /// `200` with the connection's name as the body.
    Ok,
    /// `302` to `/next` with a body of this many bytes.
    Moved(usize),
    /// Closes without answering.
    Close,
}

/// An origin that gives the `i`th connection it accepts `scripts[i]`, one
/// reply per request (connections past the scripts answer `Ok` to every
/// request); counts the connections accepted. Answered connections stay
/// open until the test ends.
fn origin(scripts: Vec<Vec<Reply>>) -> (SocketAddr, Arc<Mutex<usize>>) {
    let l = TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = l.local_addr().unwrap();
    let accepted = Arc::new(Mutex::new(0));
    let count = Arc::clone(&accepted);
    thread::spawn(move || {
        for (i, s) in l.incoming().enumerate() {
            let Ok(mut s) = s else { return };
            *count.lock().unwrap() += 1;
            let script = scripts.get(i).cloned().unwrap_or_default();
            thread::spawn(move || {
                s.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
                let mut step = 0;
                while read_request(&mut s).is_some() {
                    let reply = script.get(step).copied().unwrap_or(Reply::Ok);
                    step += 1;
                    let answer = match reply {
                        Reply::Ok => {
                            let name = format!("c{i}");
                            format!("HTTP/1.1 200 OK\r\nContent-Length: {}\r\n\r\n{name}", name.len())
                        }
                        Reply::Moved(n) => format!(
                            "HTTP/1.1 302 Found\r\nLocation: /next\r\nContent-Length: {n}\r\n\r\n{}",
                            "m".repeat(n)
                        ),
                        Reply::Close => return,
                    };
                    if s.write_all(answer.as_bytes()).is_err() {
                        return;
                    }
                }
            });
        }
    });
    (addr, accepted)
}

/// One step of a test, run by either client.
#[derive(Clone, Copy)]
enum Step {
    /// `GET /` (redirects followed as the client's settings say); its head
    /// is kept in the slot.
    Get(usize),
    /// Reads the slot's body to its end: "status body reused" is the
    /// step's answer (or the error's name).
    Read(usize),
    /// Waits this long.
    Sleep(Duration),
}

/// The client settings a test varies.
#[derive(Clone, Copy)]
struct Setup {
    max_idle_per_host: usize,
    idle_ttl: Duration,
    redirects: Redirects,
}

impl Default for Setup {
    fn default() -> Setup {
        Setup {
            max_idle_per_host: 4,
            idle_ttl: Duration::from_secs(30),
            redirects: Redirects::none(),
        }
    }
}

/// The answers of `steps` through the blocking client.
fn run_std(addr: SocketAddr, setup: Setup, steps: &[Step]) -> Vec<String> {
    let client = http_net_std::Client::builder()
        .max_idle_per_host(setup.max_idle_per_host)
        .idle_ttl(setup.idle_ttl)
        .redirects(setup.redirects)
        .build();
    let url = format!("http://{addr}/");
    let mut slots: Vec<Option<http_net_std::ClientResponse>> = (0..4).map(|_| None).collect();
    let mut out = Vec::new();
    for step in steps {
        match *step {
            Step::Get(i) => match client.get(&url) {
                Ok(r) => slots[i] = Some(r),
                Err(e) => out.push(format!("{e:?}")),
            },
            Step::Read(i) => {
                let Some(mut r) = slots[i].take() else {
                    continue;
                };
                let body = r.body_to_vec(1 << 20).unwrap();
                let body = String::from_utf8_lossy(&body);
                out.push(format!("{} {body} {}", r.status(), r.reused()));
            }
            Step::Sleep(d) => thread::sleep(d),
        }
    }
    out
}

/// The answers of `steps` through the async client.
fn run_tokio(addr: SocketAddr, setup: Setup, steps: &[Step]) -> Vec<String> {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    rt.block_on(async {
        let client = http_net_tokio::Client::builder()
            .max_idle_per_host(setup.max_idle_per_host)
            .idle_ttl(setup.idle_ttl)
            .redirects(setup.redirects)
            .build();
        let url = format!("http://{addr}/");
        let mut slots: Vec<Option<http_net_tokio::ClientResponse>> = (0..4).map(|_| None).collect();
        let mut out = Vec::new();
        for step in steps {
            match *step {
                Step::Get(i) => match client.get(&url).await {
                    Ok(r) => slots[i] = Some(r),
                    Err(e) => out.push(format!("{e:?}")),
                },
                Step::Read(i) => {
                    let Some(mut r) = slots[i].take() else {
                        continue;
                    };
                    let body = r.body_to_vec(1 << 20).await.unwrap();
                    let body = String::from_utf8_lossy(&body);
                    out.push(format!("{} {body} {}", r.status(), r.reused()));
                }
                Step::Sleep(d) => tokio::time::sleep(d).await,
            }
        }
        out
    })
}

/// Runs `steps` through both clients, each against its own origin with
/// `scripts`: the answers and the connections accepted, the same for both.
fn both(scripts: Vec<Vec<Reply>>, setup: Setup, steps: &[Step]) -> (Vec<String>, usize) {
    let (addr, accepted) = origin(scripts.clone());
    let std_answers = run_std(addr, setup, steps);
    let std_conns = *accepted.lock().unwrap();
    let (addr, accepted) = origin(scripts);
    let tokio_answers = run_tokio(addr, setup, steps);
    let tokio_conns = *accepted.lock().unwrap();
    assert_eq!(
        std_answers, tokio_answers,
        "the same answers, std and tokio"
    );
    assert_eq!(
        std_conns, tokio_conns,
        "the same connections, std and tokio"
    );
    (std_answers, std_conns)
}

fn get_and_read(n: usize) -> Vec<Step> {
    (0..n).flat_map(|_| [Step::Get(0), Step::Read(0)]).collect()
}

#[test]
fn a_connection_is_reused_within_its_idle_life_and_not_after_it() {
    let setup = Setup {
        idle_ttl: Duration::from_millis(300),
        ..Setup::default()
    };
    let mut steps = get_and_read(2);
    steps.push(Step::Sleep(Duration::from_millis(600)));
    steps.extend(get_and_read(1));
    let (answers, conns) = both(vec![], setup, &steps);
    assert_eq!(answers, ["200 c0 false", "200 c0 true", "200 c1 false"]);
    assert_eq!(conns, 2);
}

#[test]
fn no_connection_is_kept_with_an_idle_bound_of_zero() {
    let setup = Setup {
        max_idle_per_host: 0,
        ..Setup::default()
    };
    let (answers, conns) = both(vec![], setup, &get_and_read(2));
    assert_eq!(answers, ["200 c0 false", "200 c1 false"]);
    assert_eq!(conns, 2);
}

#[test]
fn the_idle_bound_per_origin_keeps_the_first_given_back() {
    // Two responses at once: two connections. Both bodies read, both given
    // back; a bound of one keeps the first. Then two at once again: the
    // kept one and a new one.
    let setup = Setup {
        max_idle_per_host: 1,
        ..Setup::default()
    };
    let steps = [
        Step::Get(0),
        Step::Get(1),
        Step::Read(0),
        Step::Read(1),
        Step::Get(0),
        Step::Get(1),
        Step::Read(0),
        Step::Read(1),
    ];
    let (answers, conns) = both(vec![], setup, &steps);
    assert_eq!(
        answers,
        [
            "200 c0 false",
            "200 c1 false",
            "200 c0 true",
            "200 c2 false"
        ]
    );
    assert_eq!(conns, 3);
}

#[test]
fn a_redirect_drains_a_short_body_and_the_next_hop_reuses_its_connection() {
    let setup = Setup {
        redirects: Redirects::follow(2),
        ..Setup::default()
    };
    let scripts = vec![vec![Reply::Moved(100)]];
    let (answers, conns) = both(scripts, setup, &get_and_read(1));
    assert_eq!(answers, ["200 c0 true"]);
    assert_eq!(conns, 1);
}

#[test]
fn a_redirect_with_a_body_past_the_drain_takes_a_new_connection() {
    let setup = Setup {
        redirects: Redirects::follow(2),
        ..Setup::default()
    };
    let long = http_net_conn::driver::REDIRECT_BODY_DRAIN + 4096;
    let scripts = vec![vec![Reply::Moved(long)]];
    let (answers, conns) = both(scripts, setup, &get_and_read(1));
    assert_eq!(answers, ["200 c1 false"]);
    assert_eq!(conns, 2);
}

#[test]
fn a_retry_goes_out_once_on_a_new_connection() {
    // c0 answers, then closes under the next request: it is sent again on
    // a new connection, c1, which closes too: that failure is final.
    let scripts = vec![vec![Reply::Ok, Reply::Close], vec![Reply::Close]];
    let (answers, conns) = both(scripts, Setup::default(), &get_and_read(2));
    assert_eq!(answers, ["200 c0 false", "ConnectionClosed"]);
    assert_eq!(conns, 2);
}

#[test]
fn a_redirect_hop_may_be_retried_again() {
    // c0 answers `/` and is kept; the next `GET /` on it is cut (the
    // retry, on c1, gets a 302), and the hop to `/next` on c1 is cut again:
    // a new hop has its own retry, on c2.
    let setup = Setup {
        redirects: Redirects::follow(2),
        ..Setup::default()
    };
    let scripts = vec![
        vec![Reply::Ok, Reply::Close],
        vec![Reply::Moved(0), Reply::Close],
    ];
    let (answers, conns) = both(scripts, setup, &get_and_read(2));
    assert_eq!(answers, ["200 c0 false", "200 c2 false"]);
    assert_eq!(conns, 3);
}

#[test]
fn after_a_retry_the_next_hop_takes_a_pooled_connection_again() {
    // The retry of `GET /` goes out on c1, whose 302 is drained and kept:
    // the hop to `/next` reuses c1 (the retry's new connection was for its
    // own hop only).
    let setup = Setup {
        redirects: Redirects::follow(2),
        ..Setup::default()
    };
    let scripts = vec![vec![Reply::Ok, Reply::Close], vec![Reply::Moved(0)]];
    let (answers, conns) = both(scripts, setup, &get_and_read(2));
    assert_eq!(answers, ["200 c0 false", "200 c1 true"]);
    assert_eq!(conns, 2);
}

#[test]
fn a_retry_takes_no_pooled_connection() {
    // c0 and c1 idle in the pool; the next request takes c1 (the newest),
    // which closes under it: the retry opens c2 rather than take c0.
    let scripts = vec![vec![Reply::Ok], vec![Reply::Ok, Reply::Close]];
    let mut steps = vec![Step::Get(0), Step::Get(1), Step::Read(0), Step::Read(1)];
    steps.extend(get_and_read(1));
    let (answers, conns) = both(scripts, Setup::default(), &steps);
    assert_eq!(answers, ["200 c0 false", "200 c1 false", "200 c2 false"]);
    assert_eq!(conns, 3);
}

/// A stream that fails every write once it has read a byte: a pooled
/// connection whose next request head cannot be written (the server went
/// away between the look at the socket and the write).
struct FailsAfterAResponse<S> {
    inner: S,
    read: bool,
}

impl std::io::Read for FailsAfterAResponse<std::net::TcpStream> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.read |= n > 0;
        Ok(n)
    }
}

impl std::io::Write for FailsAfterAResponse<std::net::TcpStream> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        if self.read {
            return Err(std::io::ErrorKind::BrokenPipe.into());
        }
        self.inner.write(buf)
    }
    fn flush(&mut self) -> std::io::Result<()> {
        self.inner.flush()
    }
}

impl http_net_std::Transport for FailsAfterAResponse<std::net::TcpStream> {
    fn set_read_timeout(&mut self, t: Option<Duration>) -> std::io::Result<()> {
        self.inner.set_read_timeout(t)
    }
    fn set_write_timeout(&mut self, t: Option<Duration>) -> std::io::Result<()> {
        self.inner.set_write_timeout(t)
    }
    fn shutdown_write(&mut self) -> std::io::Result<()> {
        self.inner.shutdown(std::net::Shutdown::Write)
    }
}

impl tokio::io::AsyncRead for FailsAfterAResponse<tokio::net::TcpStream> {
    fn poll_read(
        mut self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
        buf: &mut tokio::io::ReadBuf<'_>,
    ) -> std::task::Poll<std::io::Result<()>> {
        let before = buf.filled().len();
        let r = std::pin::Pin::new(&mut self.inner).poll_read(cx, buf);
        let got = buf.filled().len() > before;
        self.read |= got;
        r
    }
}

impl tokio::io::AsyncWrite for FailsAfterAResponse<tokio::net::TcpStream> {
    fn poll_write(
        mut self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
        buf: &[u8],
    ) -> std::task::Poll<std::io::Result<usize>> {
        if self.read {
            return std::task::Poll::Ready(Err(std::io::ErrorKind::BrokenPipe.into()));
        }
        std::pin::Pin::new(&mut self.inner).poll_write(cx, buf)
    }
    fn poll_flush(
        mut self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<std::io::Result<()>> {
        std::pin::Pin::new(&mut self.inner).poll_flush(cx)
    }
    fn poll_shutdown(
        mut self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<std::io::Result<()>> {
        std::pin::Pin::new(&mut self.inner).poll_shutdown(cx)
    }
}

struct Flaky;

impl http_net_tokio::Connector for Flaky {
    type Stream = FailsAfterAResponse<tokio::net::TcpStream>;
    async fn connect(&self, host: &str, port: u16) -> std::io::Result<Self::Stream> {
        let inner = tokio::net::TcpStream::connect((host, port)).await?;
        Ok(FailsAfterAResponse { inner, read: false })
    }
}

#[test]
fn a_request_whose_reader_was_not_read_is_sent_again_when_its_head_failed() {
    // The `PUT`'s head cannot be written on the pooled c0: nothing of the
    // request left and nothing of its body was read from the reader, so
    // it goes out again on c1 (the retry rule's `NotSent`), in both.
    let read_timeout = Duration::from_millis(300);
    let (addr, accepted) = origin(vec![]);
    let client = http_net_std::Client::builder()
        .read_timeout(read_timeout)
        .connector(|host: &str, port| {
            let inner = std::net::TcpStream::connect((host, port))?;
            Ok(FailsAfterAResponse { inner, read: false })
        })
        .build();
    let url = format!("https://{addr}/");
    let mut answers = Vec::new();
    let first = client.get(&url).and_then(|mut r| r.body_to_vec(100));
    answers.push(format!("{:?}", first.map(String::from_utf8)));
    let mut reader: &[u8] = b"data";
    let body = http_net_std::RequestBody::Reader {
        reader: &mut reader,
        len: Some(4),
    };
    let put = client.send(b"PUT", &url, &[], body);
    let put = put.and_then(|mut r| r.body_to_vec(100));
    answers.push(format!("{:?}", put.map(String::from_utf8)));
    let std_answers = (answers, *accepted.lock().unwrap());

    let (addr, accepted) = origin(vec![]);
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let tokio_answers = rt.block_on(async {
        let client = http_net_tokio::Client::builder()
            .read_timeout(read_timeout)
            .connector(Flaky);
        let url = format!("http://{addr}/");
        let mut answers = Vec::new();
        let first = match client.get(&url).await {
            Ok(mut r) => r.body_to_vec(100).await,
            Err(e) => Err(e),
        };
        answers.push(format!("{:?}", first.map(String::from_utf8)));
        let mut reader: &[u8] = b"data";
        let body = http_net_tokio::RequestBody::Reader {
            reader: &mut reader,
            len: Some(4),
        };
        let put = match client.request(b"PUT", &url, &[], body).await {
            Ok(mut r) => r.body_to_vec(100).await,
            Err(e) => Err(e),
        };
        answers.push(format!("{:?}", put.map(String::from_utf8)));
        (answers, *accepted.lock().unwrap())
    });
    assert_eq!(
        std_answers, tokio_answers,
        "the same answers, std and tokio"
    );
    assert_eq!(
        tokio_answers.0,
        ["Ok(Ok(\"c0\"))", "Ok(Ok(\"c1\"))"],
        "sent again on a new connection"
    );
    assert_eq!(tokio_answers.1, 2);
}
