//! The processes of a chain: the `echo --format garden` origin and the
//! proxies, each with a minimal configuration written into a temporary
//! directory, listening on 127.0.0.1, and stopped by its own pid when its
//! guard drops (also when a run fails).

use std::io::{BufRead, BufReader};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use crate::process::Result;

/// A proxy the suite can put in front of the origin.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Proxy {
    /// nginx: `proxy_http_version 1.1`, an upstream with `keepalive`.
    Nginx,
    /// HAProxy: `mode http`, `http-reuse always`.
    Haproxy,
    /// Apache httpd: `mod_proxy_http` with its pooled backend worker.
    Apache,
    /// Varnish: every request passed to the backend (no caching).
    Varnish,
}

impl Proxy {
    /// Every proxy, in report order.
    pub const ALL: [Proxy; 4] = [Proxy::Nginx, Proxy::Haproxy, Proxy::Apache, Proxy::Varnish];

    /// The name used on the command line and in the report.
    pub fn name(self) -> &'static str {
        match self {
            Proxy::Nginx => "nginx",
            Proxy::Haproxy => "haproxy",
            Proxy::Apache => "apache",
            Proxy::Varnish => "varnish",
        }
    }

    /// The Debian package that provides it.
    pub fn package(self) -> &'static str {
        match self {
            Proxy::Nginx => "nginx",
            Proxy::Haproxy => "haproxy",
            Proxy::Apache => "apache2",
            Proxy::Varnish => "varnish",
        }
    }

    fn binary_name(self) -> &'static str {
        match self {
            Proxy::Nginx => "nginx",
            Proxy::Haproxy => "haproxy",
            Proxy::Apache => "apache2",
            Proxy::Varnish => "varnishd",
        }
    }

    /// The name from the command line.
    pub fn parse(name: &str) -> Option<Proxy> {
        Proxy::ALL.into_iter().find(|p| p.name() == name)
    }

    /// The executable, from `PATH` or the sbin directories Debian uses.
    pub fn binary(self) -> Option<PathBuf> {
        let path = std::env::var_os("PATH").unwrap_or_default();
        std::env::split_paths(&path)
            .chain(["/usr/sbin", "/usr/local/sbin", "/sbin"].map(PathBuf::from))
            .map(|d| d.join(self.binary_name()))
            .find(|p| p.is_file())
    }

    /// The version line the binary prints.
    pub fn version(self, bin: &Path) -> String {
        let arg = match self {
            Proxy::Nginx => "-v",
            Proxy::Haproxy => "-v",
            Proxy::Apache => "-v",
            Proxy::Varnish => "-V",
        };
        let out = Command::new(bin).arg(arg).output();
        let text = out
            .map(|o| {
                let mut t = String::from_utf8_lossy(&o.stdout).into_owned();
                t.push_str(&String::from_utf8_lossy(&o.stderr));
                t
            })
            .unwrap_or_default();
        let line = text.lines().next().unwrap_or("").trim();
        // "nginx version: nginx/1.22.1", "HAProxy version 2.6.12-1 ...",
        // "Server version: Apache/2.4.71 (Debian)", "varnishd (varnish-7.1.1 ...)".
        line.split_whitespace()
            .find(|w| w.chars().any(|c| c.is_ascii_digit()) && w.contains('.'))
            .map(|w| {
                w.trim_start_matches(|c: char| !c.is_ascii_digit())
                    .to_string()
            })
            .map(|w| w.trim_end_matches(')').to_string())
            .unwrap_or_else(|| line.to_string())
    }

    /// Writes the configuration into `dir` and starts the proxy on
    /// 127.0.0.1:`port`, forwarding to `upstream`.
    pub fn start(self, bin: &Path, dir: &Path, port: u16, upstream: SocketAddr) -> Result<Proc> {
        let d = dir.display();
        let (host, uport) = (upstream.ip(), upstream.port());
        let write = |name: &str, text: String| -> Result<PathBuf> {
            let p = dir.join(name);
            std::fs::write(&p, text).map_err(|e| format!("cannot write {}: {e}", p.display()))?;
            Ok(p)
        };
        let mut cmd = Command::new(bin);
        match self {
            Proxy::Nginx => {
                // One process (no master, no workers), so every request
                // shares one upstream keep-alive cache.
                let conf = write(
                    "nginx.conf",
                    format!(
                        "daemon off;\nmaster_process off;\nworker_processes 1;\npid {d}/nginx.pid;\n\
                         error_log {d}/nginx-error.log warn;\nevents {{ worker_connections 256; }}\n\
                         http {{\n  access_log off;\n  client_body_temp_path {d}/body;\n  proxy_temp_path {d}/proxy;\n\
                         \x20 fastcgi_temp_path {d}/fastcgi;\n  uwsgi_temp_path {d}/uwsgi;\n  scgi_temp_path {d}/scgi;\n\
                         \x20 upstream origin {{ server {host}:{uport}; keepalive 16; }}\n\
                         \x20 server {{\n    listen 127.0.0.1:{port};\n    location / {{\n\
                         \x20     proxy_pass http://origin;\n      proxy_http_version 1.1;\n\
                         \x20     proxy_set_header Connection \"\";\n      proxy_read_timeout 5s;\n    }}\n  }}\n}}\n"
                    ),
                )?;
                cmd.arg("-p")
                    .arg(dir)
                    .arg("-e")
                    .arg(dir.join("nginx-error.log"));
                cmd.arg("-c").arg(conf);
            }
            Proxy::Haproxy => {
                let conf = write(
                    "haproxy.cfg",
                    format!(
                        "global\n  nbthread 1\n\ndefaults\n  mode http\n  timeout connect 2s\n  timeout client 10s\n\
                         \x20 timeout server 5s\n  timeout http-request 5s\n  timeout http-keep-alive 10s\n  http-reuse always\n\n\
                         frontend front\n  bind 127.0.0.1:{port}\n  default_backend origin\n\n\
                         backend origin\n  server s1 {host}:{uport}\n"
                    ),
                )?;
                cmd.arg("-db").arg("-f").arg(conf);
            }
            Proxy::Apache => {
                let m = "/usr/lib/apache2/modules";
                // Run as a user when started as root (httpd will not serve as root).
                let user = if is_root() {
                    "User www-data\nGroup www-data\n"
                } else {
                    ""
                };
                let conf = write(
                    "httpd.conf",
                    format!(
                        "ServerRoot \"{d}\"\nDefaultRuntimeDir \"{d}\"\nPidFile \"{d}/httpd.pid\"\n\
                         ErrorLog \"{d}/httpd-error.log\"\nLogLevel warn\nServerName 127.0.0.1\n{user}\
                         Listen 127.0.0.1:{port}\n\
                         LoadModule mpm_event_module {m}/mod_mpm_event.so\n\
                         LoadModule authz_core_module {m}/mod_authz_core.so\n\
                         LoadModule proxy_module {m}/mod_proxy.so\n\
                         LoadModule proxy_http_module {m}/mod_proxy_http.so\n\
                         ThreadsPerChild 16\nKeepAlive On\nTimeout 10\n\
                         ProxyPass \"/\" \"http://{host}:{uport}/\" keepalive=On timeout=5\n"
                    ),
                )?;
                // -X: one process in the foreground, so one backend pool.
                cmd.arg("-X").arg("-f").arg(conf);
            }
            Proxy::Varnish => {
                let vcl = write(
                    "default.vcl",
                    format!(
                        "vcl 4.1;\nbackend origin {{ .host = \"{host}\"; .port = \"{uport}\"; }}\n\
                         sub vcl_recv {{ return (pass); }}\n"
                    ),
                )?;
                cmd.arg("-F")
                    .arg("-n")
                    .arg(dir.join("varnish"))
                    .arg("-a")
                    .arg(format!("127.0.0.1:{port}"))
                    .arg("-T")
                    .arg("127.0.0.1:0")
                    .arg("-f")
                    .arg(vcl)
                    .arg("-s")
                    .arg("malloc,16m")
                    .arg("-j")
                    .arg("none");
            }
        }
        let proc = Proc::spawn(self.name(), cmd, dir)?;
        proc.wait_listening(
            SocketAddr::from(([127, 0, 0, 1], port)),
            Duration::from_secs(20),
        )?;
        Ok(proc)
    }
}

fn is_root() -> bool {
    Command::new("id")
        .arg("-u")
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim() == "0")
        .unwrap_or(false)
}

/// A free port on 127.0.0.1 (the kernel's pick, released for the proxy).
pub fn free_port() -> Result<u16> {
    let l = TcpListener::bind("127.0.0.1:0").map_err(|e| format!("bind 127.0.0.1:0: {e}"))?;
    l.local_addr()
        .map(|a| a.port())
        .map_err(|e| format!("local_addr: {e}"))
}

/// A started process, stopped by its pid when dropped: SIGTERM, then
/// SIGKILL after 3 s.
pub struct Proc {
    name: String,
    child: Child,
    log: PathBuf,
}

impl Proc {
    /// Starts `cmd` in `dir` with stdout and stderr going to `dir/NAME.log`.
    pub fn spawn(name: &str, mut cmd: Command, dir: &Path) -> Result<Proc> {
        let log = dir.join(format!("{name}.log"));
        let f = std::fs::File::create(&log).map_err(|e| format!("{}: {e}", log.display()))?;
        let f2 = f.try_clone().map_err(|e| e.to_string())?;
        cmd.current_dir(dir)
            .stdin(Stdio::null())
            .stdout(f)
            .stderr(f2);
        let child = cmd
            .spawn()
            .map_err(|e| format!("cannot start {name} ({:?}): {e}", cmd.get_program()))?;
        Ok(Proc {
            name: name.to_string(),
            child,
            log,
        })
    }

    /// The last lines of the process's output, for error messages.
    pub fn log_tail(&self) -> String {
        let text = std::fs::read_to_string(&self.log).unwrap_or_default();
        let lines: Vec<&str> = text.lines().collect();
        lines[lines.len().saturating_sub(15)..].join("\n")
    }

    /// Waits until `addr` accepts connections, failing if the process exits.
    pub fn wait_listening(&self, addr: SocketAddr, limit: Duration) -> Result {
        let start = Instant::now();
        loop {
            if TcpStream::connect_timeout(&addr, Duration::from_millis(200)).is_ok() {
                return Ok(());
            }
            if start.elapsed() > limit {
                return Err(format!(
                    "{} did not listen on {addr} within {limit:?}:\n{}",
                    self.name,
                    self.log_tail()
                ));
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// Whether the process is still running.
    pub fn running(&mut self) -> bool {
        matches!(self.child.try_wait(), Ok(None))
    }
}

impl Drop for Proc {
    fn drop(&mut self) {
        if !self.running() {
            return;
        }
        let pid = self.child.id().to_string();
        let _ = Command::new("kill")
            .args(["-TERM", &pid])
            .stderr(Stdio::null())
            .status();
        let start = Instant::now();
        while start.elapsed() < Duration::from_secs(3) {
            if !self.running() {
                return;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The origin: `echo --format garden` on an ephemeral port.
pub struct Origin {
    /// Where it listens.
    pub addr: SocketAddr,
    /// The process.
    pub proc: Proc,
}

impl Origin {
    /// Starts the origin `echo` with `args` (its format among them) and
    /// `--addr 127.0.0.1:0`, in `dir`.
    pub fn start(echo: &Path, dir: &Path, args: &[String]) -> Result<Origin> {
        let log = dir.join("echo.log");
        let f = std::fs::File::create(&log).map_err(|e| format!("{}: {e}", log.display()))?;
        let mut cmd = Command::new(echo);
        cmd.args(args)
            .args(["--addr", "127.0.0.1:0"])
            .current_dir(dir)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(f);
        let mut child = cmd
            .spawn()
            .map_err(|e| format!("cannot start {}: {e}", echo.display()))?;
        let stdout = child.stdout.take().ok_or("echo: no stdout")?;
        let proc = Proc {
            name: "echo".into(),
            child,
            log,
        };
        // "listening on http://ADDR", read on a thread so a silent echo
        // cannot hang the run.
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let mut line = String::new();
            let _ = BufReader::new(stdout).read_line(&mut line);
            let _ = tx.send(line);
        });
        let line = rx.recv_timeout(Duration::from_secs(20)).unwrap_or_default();
        let addr = line
            .trim()
            .strip_prefix("listening on http://")
            .and_then(|a| a.parse().ok())
            .ok_or_else(|| format!("echo printed {line:?}:\n{}", proc.log_tail()))?;
        Ok(Origin { addr, proc })
    }
}
