//! Running programs: commands with their output, the executables cargo
//! built (and the JSON fields of what the tools print), pinning to a core,
//! temporary directories, and a description of the machine and commit.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// The result type of every command: an error is a message for the user.
pub type Result<T = ()> = std::result::Result<T, String>;

/// The repository root (two folders above `tools/support`).
pub fn root() -> PathBuf {
    let manifest = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    manifest
        .parent()
        .and_then(Path::parent)
        .map(Path::to_path_buf)
        .unwrap_or(manifest)
}

/// `cargo ARGS` run from the repository root.
pub fn cargo(args: &[&str]) -> Command {
    let mut c = Command::new("cargo");
    c.current_dir(root()).args(args);
    c
}

/// Runs one command with inherited stdio, failing with its description if it fails.
pub fn run(description: &str, cmd: &mut Command) -> Result {
    eprintln!("==> {description}: {}", show(cmd));
    let status = cmd
        .status()
        .map_err(|e| format!("{description}: cannot start {:?}: {e}", cmd.get_program()))?;
    if status.success() {
        Ok(())
    } else {
        Err(format!("{description} failed ({status})"))
    }
}

/// Runs a command and returns its standard output (stderr inherited).
pub fn output(description: &str, cmd: &mut Command) -> Result<String> {
    let out = cmd
        .stderr(Stdio::inherit())
        .output()
        .map_err(|e| format!("{description}: cannot start {:?}: {e}", cmd.get_program()))?;
    if !out.status.success() {
        return Err(format!("{description} failed ({})", out.status));
    }
    Ok(String::from_utf8_lossy(&out.stdout).into_owned())
}

/// The command line of `cmd`, for logs.
pub fn show(cmd: &Command) -> String {
    let mut s = cmd.get_program().to_string_lossy().into_owned();
    for a in cmd.get_args() {
        s.push(' ');
        s.push_str(&a.to_string_lossy());
    }
    s
}

/// One executable target cargo built, read from `--message-format=json`.
#[derive(Clone, Debug)]
pub struct Artifact {
    /// The target's name (`[[bench]] name`, binary name, example name).
    pub name: String,
    /// Its kind: `bench`, `bin`, `example`, `test`, ...
    pub kind: String,
    /// The path of the executable.
    pub executable: PathBuf,
}

/// The bench binaries a `cargo bench --no-run` command built, by bench
/// name ([`cargo_executables`], the `bench` kind only).
pub fn bench_executables(
    description: &str,
    cmd: &mut Command,
) -> Result<std::collections::BTreeMap<String, PathBuf>> {
    Ok(cargo_executables(description, cmd)?
        .into_iter()
        .filter(|a| a.kind == "bench")
        .map(|a| (a.name, a.executable))
        .collect())
}

/// Runs a cargo build command with `--message-format=json` appended and
/// returns the executables it produced. Cargo's human output goes to stderr.
pub fn cargo_executables(description: &str, cmd: &mut Command) -> Result<Vec<Artifact>> {
    cmd.arg("--message-format=json-render-diagnostics");
    eprintln!("==> {description}: {}", show(cmd));
    let stdout = output(description, cmd)?;
    let mut found = Vec::new();
    for line in stdout.lines() {
        if !line.contains("\"reason\":\"compiler-artifact\"") {
            continue;
        }
        let Some(executable) = json_string(line, "executable") else {
            continue;
        };
        let target = match line.find("\"target\":") {
            Some(i) => &line[i..],
            None => continue,
        };
        let name = json_string(target, "name").unwrap_or_default();
        let kind = target
            .find("\"kind\":[\"")
            .map(|i| {
                let rest = &target[i + 9..];
                rest[..rest.find('"').unwrap_or(0)].to_string()
            })
            .unwrap_or_default();
        found.push(Artifact {
            name,
            kind,
            executable: PathBuf::from(executable),
        });
    }
    Ok(found)
}

/// The string value of the first `"key":"value"` in `json` (no escapes
/// beyond `\\` and `\"` are expected in paths and names).
pub fn json_string(json: &str, key: &str) -> Option<String> {
    let pat = format!("\"{key}\":\"");
    let start = json.find(&pat)? + pat.len();
    let mut out = String::new();
    let mut chars = json[start..].chars();
    while let Some(c) = chars.next() {
        match c {
            '"' => return Some(out),
            '\\' => out.push(chars.next()?),
            c => out.push(c),
        }
    }
    None
}

/// The number after the first `"key":` in `json`.
pub fn json_number(json: &str, key: &str) -> Option<f64> {
    let pat = format!("\"{key}\":");
    let start = json.find(&pat)? + pat.len();
    let rest = json[start..].trim_start();
    let end = rest
        .find(|c: char| !(c.is_ascii_digit() || matches!(c, '.' | '-' | '+' | 'e' | 'E')))
        .unwrap_or(rest.len());
    rest[..end].parse().ok()
}

/// Whether `cmd` runs and exits with success, its output discarded (a
/// tool's `--version`: is it installed?).
pub fn succeeds(cmd: &mut Command) -> bool {
    cmd.stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

/// Whether `taskset` can pin processes here (Linux with util-linux).
pub fn have_taskset() -> bool {
    cfg!(target_os = "linux") && succeeds(Command::new("taskset").arg("-V"))
}

/// The number of CPUs this process may run on.
pub fn cpus() -> usize {
    std::thread::available_parallelism()
        .map(usize::from)
        .unwrap_or(1)
}

/// A command for `program`, pinned to `cpu` with taskset when available.
pub fn pinned(program: &Path, cpu: Option<usize>) -> Command {
    match cpu {
        Some(cpu) if have_taskset() => {
            let mut c = Command::new("taskset");
            c.arg("-c").arg(cpu.to_string()).arg(program);
            c
        }
        _ => Command::new(program),
    }
}

/// `nproc`, the CPU model and the kernel, for the reports.
pub fn machine() -> String {
    // `lscpu | grep 'Model name'`, else /proc/cpuinfo.
    let from = |text: &str, key: &str| {
        text.lines()
            .find(|l| l.trim_start().starts_with(key))
            .and_then(|l| l.split(':').nth(1))
            .map(|m| m.trim().to_string())
    };
    let model = Command::new("lscpu")
        .output()
        .ok()
        .and_then(|o| from(&String::from_utf8_lossy(&o.stdout), "Model name"))
        .or_else(|| {
            std::fs::read_to_string("/proc/cpuinfo")
                .ok()
                .and_then(|s| from(&s, "model name"))
        })
        .unwrap_or_else(|| "unknown CPU".to_string());
    let kernel = Command::new("uname")
        .arg("-sr")
        .output()
        .ok()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
        .unwrap_or_default();
    let rustc = Command::new("rustc")
        .arg("--version")
        .output()
        .ok()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
        .unwrap_or_default();
    format!("nproc {}, {model}, {kernel}, {rustc}", cpus())
}

/// The current UTC time as `YYYY-MM-DD HH:MM UTC`, from `date`.
pub fn now_utc() -> String {
    Command::new("date")
        .args(["-u", "+%Y-%m-%d %H:%M UTC"])
        .output()
        .ok()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
        .unwrap_or_else(|| "unknown date".to_string())
}

/// The short commit of HEAD in `dir`, with `+dirty` when the tree has changes.
pub fn describe_commit(dir: &Path) -> String {
    let head = Command::new("git")
        .current_dir(dir)
        .args(["rev-parse", "--short", "HEAD"])
        .output()
        .ok()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
        .unwrap_or_default();
    let dirty = Command::new("git")
        .current_dir(dir)
        .args(["status", "--porcelain", "--untracked-files=no"])
        .output()
        .map(|o| !o.stdout.is_empty())
        .unwrap_or(false);
    if dirty {
        format!("{head}+dirty")
    } else {
        head
    }
}

/// A fresh, empty directory under the system temporary directory.
pub fn temp_dir(tag: &str) -> Result<PathBuf> {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos())
        .unwrap_or(0);
    let dir = std::env::temp_dir().join(format!("xtask-{tag}-{}-{nanos}", std::process::id()));
    std::fs::create_dir_all(&dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    Ok(dir)
}
