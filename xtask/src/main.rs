//! `cargo xtask <command>`: project automation, the one command that runs
//! the workshop's tools (`tools/`, see its README). Its dependencies: the
//! tools' library crates, `http-net-head` for the conformance table the
//! `proxies` corpus includes, `http-net-conn` (`doc-tables`) for
//! `docs-check`; `hostile` is a binary of its own (`tools/hostile`), run
//! through cargo.
//!
//! - `ci`: what `.ci/run` runs: fmt check, clippy, tests, module cycles, code
//!   size, docs.
//! - `bench`: the workspace's criterion benches (`http-net-benches`), pinned.
//! - `bench-ab REF [ROUNDS]`: the 5% regression gate, REF against the working
//!   tree, interleaved rounds, or `--instructions` counted by callgrind;
//!   `--adapters`: over `compare`'s H2/H3 exchanges through `http-net-tokio`
//!   (see `bench_ab.rs`, `bench_count.rs`).
//! - `compare [--rounds N] [--only h1,h2,..]`: http-net against httparse,
//!   picohttpparser and hyper on the workloads H1-H5 of docs/PERFORMANCE.md (see `compare.rs`).
//! - `compare sockets [--rounds N] [--duration S]`: H6, whole servers under
//!   wrk (see `sockets.rs`).
//! - `fuzz [TARGET] [--time S] [--smoke]`: the cargo-fuzz targets (see `fuzz.rs`).
//! - `docs-check`: `docs/ARCHITECTURE.md` against the code (see `docs_check.rs`).
//! - `module-cycles [CRATE...]`: each crate's modules (libraries and
//!   binaries of `crates/`, `xtask/`, `tools/`) import downwards only: no
//!   cycle in the module → module graph (see `tools/module-cycles`).
//! - `size [--json] [--root DIR] [--bounds] [--max CRATE=N] [--max-sum NAME=N]`: lines
//!   of code per library crate, bounds (see `tools/size`).
//! - `rendered-docs [--no-build]`: no intra-doc link syntax left as text in
//!   the HTML `cargo doc` renders (see `rendered_docs.rs`).
//! - `conformance [--check | --recorded]`: the RFC requirements matrix, `docs/CONFORMANCE.md`
//!   (see `tools/conformance`).
//! - `hostile [OPTIONS] [-- SERVER COMMAND]`: the resource exhaustion suite
//!   against a server process (see `tools/hostile`).
//! - `proxies [--reduced] [--only NAMES] [--origin CMD]`: request smuggling behind
//!   real proxies, in front of any origin serving the garden contract (see
//!   `proxies/mod.rs`).
//! - `package [--baseline-rev REV] [--semver-only]`: packaging, tests from the packages and
//!   the semver check (see `package.rs`).

mod bench_ab;
mod bench_count;
mod compare;
mod criterion;
mod docs_check;
mod figures;
mod fuzz;
mod guard;
mod package;
mod proxies;
mod rendered_docs;
mod report;
mod sockets;

use std::process::{Command, ExitCode};

use tool_support::process::{self, cargo, Result};
// The shared helpers, at the crate root where the commands name them
// (`crate::process`, `crate::args`).
use tool_support::args;

const USAGE: &str = "usage: cargo xtask <command>
  ci                                  fmt check, clippy, tests, module cycles, size, docs and rendered-docs
                                      (what .ci/run runs)
  bench [CRITERION ARGS]              the workspace benches (http-net-benches), pinned
  bench-ab REF [ROUNDS]               REF against the working tree, interleaved (default 5 rounds)
           [--filter REGEX] [--warm-up S] [--measurement S] [--cpu N] [--instructions] [--adapters]
                                      (no verdict when a control moves by more than 3%;
                                      instructions: counted by callgrind, for a busy host;
                                      adapters: compare's H2/H3 exchanges through http-net-tokio)
  compare [--rounds N] [--only h1,h2,h3,h3c,h4,h4b,h5] [--no-scalar] [--no-equivalence] [--no-write]
          [--settle S] [--unguarded]
                                      H1-H5 against httparse, picohttpparser, hyper
  compare goals                       the opening goal table of docs/PERFORMANCE.md, from the
                                      compare and compare sockets sections
  compare sockets [--rounds N] [--duration S] [--only NAMES] [--no-write]
                                      H6: hello vs hyper, tiny_http, may_minihttp under wrk
  fuzz [TARGET] [--time S] [--smoke]  cargo-fuzz targets (default 60 s each; smoke: 20 s)
  docs-check                          docs/ARCHITECTURE.md: its state tables are the code's, its paths exist
  module-cycles [CRATE...]            each crate's modules import downwards only: fail on a cycle in
                                      the module -> module graph of each lib.rs and main.rs crate of
                                      crates/*, xtask, xtask/*, tools/* (or of the CRATE folders)
  size [--json] [--files] [--root DIR] [--bounds] [--max CRATE=N]... [--max-sum NAME=N]...
                                      lines of code per library crate (tests, comments left out), and
                                      the sums std-io + tokio, conn + std-io + tokio; fail over a bound
  rendered-docs [--no-build]          cargo doc --workspace --no-deps, then fail on link syntax left as
                                      text ([`Name`]) in the rendered HTML (known failures listed)
  conformance [--check | --recorded]  run the tests, write docs/CONFORMANCE.md
                                      (check: no tests, fail if stale; recorded: write from recorded results)
  hostile [--connections N] [--seconds S] [--only NAMES] [--ci] [--settle S] [--tls]
          [--open-rate N] [--source IP] [--server-arg ARG]... [--max-p99-ms MS] [--max-rss-mb MB]
          [-- SERVER COMMAND...]
                                      resource exhaustion suite (default: release hello, then echo;
                                      --tls: the TLS scenarios against tls_server, then tls_tokio)
  proxies [--reduced] [--only nginx,haproxy,apache,varnish] [--filter S] [--list]
          [--origin CMD] [--origin-args ARGS] [--release] [--report PATH]
                                      request smuggling behind real proxies (reduced: nginx, HAProxy);
                                      origin: a garden-contract server (default \"echo --format garden\";
                                      echo and echo_tokio are built), run with --addr 127.0.0.1:0
  package [--baseline-rev REV] [--semver-only] [--allow-dirty] [--no-test]
                                      package every crate (dry run), test it from its .crate, semver check";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let rest = args.get(1..).unwrap_or(&[]);
    let result = match args.first().map(String::as_str) {
        Some("ci") => ci(),
        Some("bench") => bench(rest),
        Some("bench-ab") => bench_ab::main(rest),
        Some("compare") if rest.first().is_some_and(|a| a == "sockets") => {
            sockets::main(&rest[1..])
        }
        Some("compare") => compare::main(rest),
        Some("docs-check") => docs_check::main(rest),
        Some("rendered-docs") => rendered_docs::main(rest),
        Some("module-cycles") => tool_module_cycles::main(rest),
        Some("size") => tool_size::main(rest),
        Some("fuzz") => fuzz::main(rest),
        Some("conformance") => tool_conformance::main(rest),
        Some("hostile") => return tool_binary("tool-hostile", rest),
        Some("proxies") => proxies::main(rest),
        Some("package") => package::main(rest),
        Some("help" | "--help" | "-h") => {
            println!("{USAGE}");
            return ExitCode::SUCCESS;
        }
        _ => {
            eprintln!("{USAGE}");
            return ExitCode::from(2);
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("xtask: {e}");
            ExitCode::FAILURE
        }
    }
}

fn ci() -> Result {
    process::run("format", &mut cargo(&["fmt", "--all", "--", "--check"]))?;
    process::run(
        "lint",
        &mut cargo(&[
            "clippy",
            "--workspace",
            "--all-targets",
            "--",
            "-D",
            "warnings",
        ]),
    )?;
    process::run("test", &mut cargo(&["test", "--workspace"]))?;
    // Every library crate's modules import downwards only.
    tool_module_cycles::main(&[])?;
    // Lines of code per library crate, held to the committed bounds.
    tool_size::main(&["--bounds".to_string()])?;
    process::run(
        "docs",
        cargo(&["doc", "--workspace", "--no-deps"]).env("RUSTDOCFLAGS", "-D warnings"),
    )?;
    rendered_docs::check(Some("-D warnings"))
}

/// Runs a tool that is a binary of its own: `cargo run -p PACKAGE -- ARGS`
/// in the current directory (so that paths in ARGS read as the user wrote
/// them); the tool's output is its own and its exit status xtask's.
fn tool_binary(package: &str, args: &[String]) -> ExitCode {
    let manifest = process::root().join("Cargo.toml");
    let status = Command::new("cargo")
        .args(["run", "--quiet", "--manifest-path"])
        .arg(&manifest)
        .args(["-p", package, "--"])
        .args(args)
        .status();
    match status {
        Ok(s) if s.success() => ExitCode::SUCCESS,
        Ok(s) => ExitCode::from(s.code().map_or(1, |c| u8::try_from(c).unwrap_or(1))),
        Err(e) => {
            eprintln!("xtask: cannot start cargo for {package}: {e}");
            ExitCode::FAILURE
        }
    }
}

/// `cargo bench -p http-net-benches`: built first on every core, then run
/// pinned to the last CPU with taskset (extra arguments go to criterion).
fn bench(args: &[String]) -> Result {
    process::run(
        "build the benches",
        &mut cargo(&["bench", "-p", "http-net-benches", "--no-run"]),
    )?;
    let cpu = process::cpus().saturating_sub(1);
    let mut cmd = if process::have_taskset() {
        let mut c = Command::new("taskset");
        c.arg("-c").arg(cpu.to_string()).arg("cargo");
        c
    } else {
        eprintln!("xtask: taskset not found: running unpinned");
        Command::new("cargo")
    };
    cmd.current_dir(process::root())
        .args(["bench", "-p", "http-net-benches"]);
    if !args.is_empty() {
        cmd.arg("--").args(args);
    }
    process::run("bench", &mut cmd)
}
