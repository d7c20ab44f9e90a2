//! `cargo xtask fuzz [TARGET] [--time SECONDS] [--smoke]`: runs the
//! cargo-fuzz targets of `fuzz/`.
//!
//! The toolchain here is stable; cargo-fuzz needs nightly flags
//! (`-Zsanitizer=address`), so `RUSTC_BOOTSTRAP=1` is set for it. cargo-fuzz
//! is installed (`cargo install cargo-fuzz --locked`) when it is missing.
//!
//! Each target's corpus is `fuzz/corpus/TARGET` (not committed), seeded by
//! `fuzz/examples/seeds.rs` from the head and framing conformance tables,
//! the shared security cases and the bench inputs, plus any committed file
//! in `fuzz/seeds/TARGET` (regression inputs). libFuzzer replays the whole corpus
//! before it starts mutating, so `--smoke` (20 s per target) both replays the
//! corpus and fuzzes. `--time S` runs every target (or TARGET) S seconds
//! (default 60). A crash leaves its input in `fuzz/artifacts/TARGET/` and
//! fails the command.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;

use crate::args::Args;
use crate::process::{self, Result};

/// Entry point.
pub fn main(args: &[String]) -> Result {
    let args = Args::parse(args, &["time", "jobs"])?;
    let smoke = args.flag("smoke");
    let seconds: u64 = args.value("time", if smoke { 20 } else { 60 })?;
    let root = process::root();
    let fuzz = root.join("fuzz");
    let all = targets(&fuzz)?;
    let chosen: Vec<String> = match args.words.first() {
        Some(t) if all.contains(t) => vec![t.clone()],
        Some(t) => return Err(format!("no fuzz target {t:?}; targets: {}", all.join(", "))),
        None => all,
    };
    ensure_cargo_fuzz()?;
    let started = Instant::now();
    process::run(
        "build the fuzz targets",
        cargo_fuzz(&root).args(["build", "--fuzz-dir"]).arg(&fuzz),
    )?;
    eprintln!("built in {:.0} s", started.elapsed().as_secs_f64());
    // Seed corpora from the conformance tables, security cases and bench
    // inputs (files named by content: nothing is added twice).
    process::run(
        "write the seed corpora",
        Command::new("cargo")
            .current_dir(&root)
            .env_remove("RUSTFLAGS")
            .env("CARGO_TARGET_DIR", fuzz.join("target"))
            .args(["run", "--quiet", "--manifest-path"])
            .arg(fuzz.join("Cargo.toml"))
            .args(["--example", "seeds", "--"])
            .arg(fuzz.join("corpus")),
    )?;
    let mut summary = Vec::new();
    let mut failed = Vec::new();
    for t in &chosen {
        let corpus = seed_corpus(&fuzz, t)?;
        let t0 = Instant::now();
        let mut cmd = cargo_fuzz(&root);
        cmd.args(["run", "--fuzz-dir"])
            .arg(&fuzz)
            .arg(t)
            .arg(&corpus)
            .arg("--")
            .arg(format!("-max_total_time={seconds}"))
            .arg("-print_final_stats=1")
            .arg("-max_len=65536")
            .arg("-rss_limit_mb=2048")
            .arg("-timeout=10");
        let dict = fuzz.join("http.dict");
        if dict.exists() {
            cmd.arg(format!("-dict={}", dict.display()));
        }
        eprintln!("==> fuzz {t} for {seconds} s: {}", process::show(&cmd));
        let out = cmd
            .stdout(Stdio::inherit())
            .stderr(Stdio::piped())
            .output()
            .map_err(|e| format!("cannot start cargo fuzz: {e}"))?;
        let log = String::from_utf8_lossy(&out.stderr);
        let runs = stat(&log, "stat::number_of_executed_units:").unwrap_or(0);
        let corpus_len = std::fs::read_dir(&corpus).map(|d| d.count()).unwrap_or(0);
        let secs = t0.elapsed().as_secs_f64();
        if out.status.success() {
            summary.push(format!(
                "{t:<22} clean   {secs:>6.0} s  {runs:>12} runs  corpus {corpus_len}"
            ));
        } else {
            // Show the panic message (before its long backtrace) and the
            // end of libFuzzer's report.
            let lines: Vec<&str> = log.lines().collect();
            if let Some(at) = lines.iter().position(|l| l.contains("panicked at")) {
                for l in &lines[at..(at + 8).min(lines.len())] {
                    eprintln!("{l}");
                }
            }
            for l in &lines[lines.len().saturating_sub(12)..] {
                eprintln!("{l}");
            }
            summary.push(format!(
                "{t:<22} FAILED  {secs:>6.0} s  {runs:>12} runs  (input in fuzz/artifacts/{t}/)"
            ));
            failed.push(t.clone());
        }
    }
    println!();
    for line in &summary {
        println!("{line}");
    }
    println!("total {:.0} s", started.elapsed().as_secs_f64());
    if failed.is_empty() {
        Ok(())
    } else {
        Err(format!("fuzz target(s) failed: {}", failed.join(", ")))
    }
}

/// The fuzz targets: `fuzz/fuzz_targets/*.rs`.
fn targets(fuzz: &Path) -> Result<Vec<String>> {
    let dir = fuzz.join("fuzz_targets");
    let mut out: Vec<String> = std::fs::read_dir(&dir)
        .map_err(|e| format!("{}: {e}", dir.display()))?
        .flatten()
        .filter_map(|e| {
            let p = e.path();
            if p.extension()? == "rs" {
                Some(p.file_stem()?.to_string_lossy().into_owned())
            } else {
                None
            }
        })
        .collect();
    out.sort();
    Ok(out)
}

/// `cargo fuzz` with `RUSTC_BOOTSTRAP=1`, run from the repository root.
fn cargo_fuzz(root: &Path) -> Command {
    let mut c = Command::new("cargo");
    // Always fuzz/target: a CARGO_TARGET_DIR meant for other builds would
    // mix sanitizer builds into it.
    c.current_dir(root)
        .env("RUSTC_BOOTSTRAP", "1")
        .env_remove("RUSTFLAGS")
        .env("CARGO_TARGET_DIR", root.join("fuzz/target"))
        .arg("fuzz");
    c
}

fn ensure_cargo_fuzz() -> Result {
    if process::succeeds(Command::new("cargo").args(["fuzz", "--version"])) {
        return Ok(());
    }
    process::run(
        "install cargo-fuzz",
        Command::new("cargo").args(["install", "cargo-fuzz", "--locked"]),
    )
}

/// Creates `fuzz/corpus/TARGET` and copies in the committed seeds that are
/// not there yet.
fn seed_corpus(fuzz: &Path, target: &str) -> Result<PathBuf> {
    let corpus = fuzz.join("corpus").join(target);
    std::fs::create_dir_all(&corpus).map_err(|e| format!("{}: {e}", corpus.display()))?;
    let seeds = fuzz.join("seeds").join(target);
    if let Ok(entries) = std::fs::read_dir(&seeds) {
        for e in entries.flatten() {
            let dest = corpus.join(e.file_name());
            if !dest.exists() {
                std::fs::copy(e.path(), &dest)
                    .map_err(|err| format!("{}: {err}", dest.display()))?;
            }
        }
    }
    Ok(corpus)
}

/// The number after `key` in libFuzzer's final statistics.
fn stat(log: &str, key: &str) -> Option<u64> {
    log.lines().rev().find_map(|l| {
        l.trim()
            .strip_prefix(key)
            .and_then(|v| v.trim().parse().ok())
    })
}
