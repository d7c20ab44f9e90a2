//! `cargo xtask package [--baseline-rev REV] [--semver-only] [--allow-dirty] [--no-test]`:
//! every publishable crate packages, builds and passes its tests from its
//! own packaged sources, and (when a baseline is known) keeps semver.
//!
//! 1. The licence files: `LICENSE-MIT` and `LICENSE-APACHE` at the root,
//!    and the same bytes in each publishable crate (each package ships them).
//!    The workspace README's Rust examples are in the facade's README (which
//!    the facade runs as doctests), so they are tested in the package too.
//! 2. `cargo publish --workspace --dry-run --locked`: packages the crates in
//!    dependency order and builds each from its `.crate`, the unpublished
//!    siblings resolved from the packages just made; nothing is uploaded.
//!    Cargo unpacks those packages under `$CARGO_HOME/registry/src/-HASH/`,
//!    the hash taken from the checkout's path, and never unpacks a
//!    `NAME-VERSION` again once it is there: a second run from the same path
//!    with changed sources but the same version would build the first run's
//!    sources. Nor does it look at a registry package's files to decide
//!    whether its build is fresh. So the unpacked copies of our own packages
//!    are deleted first ([`stale_unpacked`]), and the dry run builds in a
//!    target directory of its own, emptied first (`target/publish-dry-run`).
//! 3. `cargo package -p NAME.. --no-verify --locked` leaves the `.crate`
//!    files in `target/package/`; each must hold its README and licences.
//! 4. The `.crate` files are unpacked into `target/package-test/ws/`, a
//!    workspace of their own whose `[patch.crates-io]` points every sibling
//!    at its unpacked package (so no crate is ever taken from the registry:
//!    `http-net` there is another project's crate), with the repository's
//!    `Cargo.lock`; `cargo test --workspace --all-features` runs there.
//!    A packaged source that includes a file from outside its package
//!    (`include_str!("../../..")`) is an error, except the known cases in
//!    [`OUTSIDE_INCLUDES`], whose one test is skipped by name, with a note.
//! 5. `cargo semver-checks --baseline-rev REV -p NAME..` for the publishable
//!    crates when a baseline is known and cargo-semver-checks is installed;
//!    otherwise one line says it skipped and why. The baseline is
//!    `--baseline-rev REV` (any revision git knows, e.g. `HEAD` to check the
//!    wiring), else the `Commit:` line of the newest release in
//!    `CHANGELOG.md` when it holds a full 40-hex commit. It is always a
//!    commit of this repository: `--baseline-rev` makes cargo-semver-checks
//!    build the baseline from that commit, never from the crates.io
//!    registry (where `http-net` is another project's crate).
//!    `--semver-only` runs this step alone (no packaging, no tests).

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

use crate::args::Args;
use crate::process::{self, Result};

/// A packaged source that still includes a file from outside its package,
/// known and being fixed elsewhere: (package, file in the package, the
/// included path as written, the test that reads it). The file is copied to
/// where the path points so that the package compiles, and the test is
/// skipped. A case no longer found in the sources is reported, so that its
/// row is deleted.
const OUTSIDE_INCLUDES: &[(&str, &str, &str, &str)] = &[];

/// Entry point.
pub fn main(args: &[String]) -> Result {
    let args = Args::parse(args, &["baseline-rev"])?;
    let started = Instant::now();
    let root = process::root();
    let crates = publishable(&root)?;
    let names: Vec<&str> = crates.iter().map(|c| c.name.as_str()).collect();
    eprintln!("==> publishable crates: {}", names.join(", "));

    if args.flag("semver-only") {
        return semver_checks(&root, &names, args.options.get("baseline-rev").cloned());
    }

    check_licences(&root, &crates)?;
    check_readme_examples(&root)?;

    let dirty: &[&str] = if args.flag("allow-dirty") {
        &["--allow-dirty"]
    } else {
        &[]
    };
    for dir in stale_unpacked(&cargo_home(), &crates) {
        std::fs::remove_dir_all(&dir)
            .map_err(|e| format!("cannot remove {}: {e}", dir.display()))?;
        eprintln!(
            "==> removed an earlier run's unpacked package {}",
            dir.display()
        );
    }
    let dry_target = root.join("target").join("publish-dry-run");
    if dry_target.exists() {
        std::fs::remove_dir_all(&dry_target)
            .map_err(|e| format!("cannot remove {}: {e}", dry_target.display()))?;
    }
    process::run(
        "package and build every crate from its .crate (dry run, nothing uploaded)",
        cargo(&root)
            .args(["publish", "--workspace", "--dry-run", "--locked"])
            .arg("--target-dir")
            .arg(&dry_target)
            .args(dirty),
    )?;
    // `cargo package --workspace` would package the `publish = false`
    // members too: name the publishable ones.
    let mut package = cargo(&root);
    package
        .args(["package", "--no-verify", "--locked"])
        .args(dirty);
    for name in &names {
        package.args(["-p", name]);
    }
    process::run("the .crate files", &mut package)?;
    let packages = root.join("target").join("package");
    for c in &crates {
        let file = packages.join(format!("{}-{}.crate", c.name, c.version));
        let listing = process::output("list a .crate", Command::new("tar").arg("tzf").arg(&file))?;
        for wanted in ["README.md", "LICENSE-MIT", "LICENSE-APACHE", "Cargo.toml"] {
            let path = format!("{}-{}/{wanted}", c.name, c.version);
            if !listing.lines().any(|l| l == path) {
                return Err(format!("{} lacks {wanted}", file.display()));
            }
        }
    }

    if args.flag("no-test") {
        eprintln!("xtask package: --no-test: the packaged sources' tests were not run");
    } else {
        test_packages(&root, &packages, &crates)?;
    }

    semver_checks(&root, &names, args.options.get("baseline-rev").cloned())?;
    eprintln!(
        "xtask package: done in {:.0} s",
        started.elapsed().as_secs_f64()
    );
    Ok(())
}

/// A workspace member that `cargo publish` would upload.
#[derive(Debug)]
struct Crate {
    name: String,
    version: String,
    dir: PathBuf,
}

fn cargo(root: &Path) -> Command {
    let mut c = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()));
    c.current_dir(root);
    c
}

/// Cargo's home: `$CARGO_HOME`, else `$HOME/.cargo`.
fn cargo_home() -> PathBuf {
    match std::env::var_os("CARGO_HOME") {
        Some(h) => PathBuf::from(h),
        None => PathBuf::from(std::env::var_os("HOME").unwrap_or_default()).join(".cargo"),
    }
}

/// The unpacked copies of our packages that an earlier `cargo publish
/// --dry-run` left in a local overlay registry under `home/registry/src/`
/// (the directories whose name starts with `-`: a registry with no host).
/// A registry with a host (`index.crates.io-..`) is never touched.
fn stale_unpacked(home: &Path, crates: &[Crate]) -> Vec<PathBuf> {
    let Ok(sources) = std::fs::read_dir(home.join("registry").join("src")) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for source in sources.flatten() {
        if !source.file_name().to_string_lossy().starts_with('-') {
            continue;
        }
        for c in crates {
            let dir = source.path().join(format!("{}-{}", c.name, c.version));
            if dir.is_dir() {
                out.push(dir);
            }
        }
    }
    out.sort();
    out
}

/// The members of the root manifest's `members = [..]` whose manifest does
/// not say `publish = false`, with their versions (the workspace's when
/// `version.workspace = true`).
fn publishable(root: &Path) -> Result<Vec<Crate>> {
    let manifest = read(&root.join("Cargo.toml"))?;
    let members = string_list(&manifest, "members")
        .ok_or("Cargo.toml: no `members = [..]` in [workspace]")?;
    let workspace_version = table_value(&manifest, "workspace.package", "version");
    let mut out = Vec::new();
    for member in members {
        let dir = root.join(&member);
        let text = read(&dir.join("Cargo.toml"))?;
        if table_value(&text, "package", "publish").as_deref() == Some("false") {
            continue;
        }
        let name = table_value(&text, "package", "name")
            .ok_or(format!("{member}/Cargo.toml: no package name"))?;
        let version = match table_value(&text, "package", "version") {
            Some(v) => v,
            None => workspace_version
                .clone()
                .ok_or("Cargo.toml: no [workspace.package] version")?,
        };
        out.push(Crate { name, version, dir });
    }
    if out.is_empty() {
        return Err("no publishable crate in the workspace".into());
    }
    Ok(out)
}

/// `key = "value"` (or a bare value: `false`) in `[table]` of a manifest.
fn table_value(manifest: &str, table: &str, key: &str) -> Option<String> {
    let mut inside = false;
    for line in manifest.lines().map(str::trim) {
        if line.starts_with('[') {
            inside = line.trim_matches(['[', ']']).trim() == table;
            continue;
        }
        if !inside {
            continue;
        }
        let Some((k, v)) = line.split_once('=') else {
            continue;
        };
        if k.trim() == key {
            let v = v.split('#').next().unwrap_or("").trim();
            return Some(v.trim_matches('"').to_string());
        }
    }
    None
}

/// The strings of `key = [ "a", "b", ... ]` (over several lines too).
fn string_list(manifest: &str, key: &str) -> Option<Vec<String>> {
    let start = manifest
        .lines()
        .position(|l| l.trim_start().starts_with(key) && l.contains('['))?;
    let mut text = String::new();
    for line in manifest.lines().skip(start) {
        let line = line.split('#').next().unwrap_or("");
        text.push_str(line);
        if line.contains(']') {
            break;
        }
    }
    let inner = text.split_once('[')?.1.split_once(']')?.0;
    Some(
        inner
            .split(',')
            .map(|s| s.trim().trim_matches('"').to_string())
            .filter(|s| !s.is_empty())
            .collect(),
    )
}

fn read(path: &Path) -> Result<String> {
    std::fs::read_to_string(path).map_err(|e| format!("cannot read {}: {e}", path.display()))
}

/// The root licence files exist and each crate carries identical copies.
fn check_licences(root: &Path, crates: &[Crate]) -> Result {
    for file in ["LICENSE-MIT", "LICENSE-APACHE"] {
        let original = read(&root.join(file))?;
        for c in crates {
            let copy = read(&c.dir.join(file))?;
            if copy != original {
                return Err(format!(
                    "{}/{file} differs from the root {file}: copy it again",
                    c.dir.display()
                ));
            }
        }
    }
    eprintln!("==> licence files: present and identical in every crate");
    Ok(())
}

/// The ```rust blocks of a Markdown text.
fn rust_blocks(markdown: &str) -> Vec<String> {
    let mut blocks = Vec::new();
    let mut current: Option<String> = None;
    for line in markdown.lines() {
        match current.as_mut() {
            None if line.trim_start().starts_with("```rust") => current = Some(String::new()),
            None => {}
            Some(_) if line.trim_start().starts_with("```") => {
                blocks.extend(current.take());
            }
            Some(block) => {
                block.push_str(line);
                block.push('\n');
            }
        }
    }
    blocks
}

/// The workspace README is not in any package; its Rust examples are run as
/// doctests through the facade's README, so each must appear there whole.
fn check_readme_examples(root: &Path) -> Result {
    let workspace = read(&root.join("README.md"))?;
    let facade = rust_blocks(&read(&root.join("crates/http-net/README.md"))?);
    for block in rust_blocks(&workspace) {
        if !facade.iter().any(|f| f.contains(&block)) {
            return Err(format!(
                "README.md has a Rust example that crates/http-net/README.md lacks \
                 (the facade runs its README as doctests; copy it there):\n{block}"
            ));
        }
    }
    eprintln!("==> README.md's Rust examples are in crates/http-net/README.md (doctested)");
    Ok(())
}

/// Unpacks the `.crate` files into a workspace of their own and runs every
/// crate's tests there.
fn test_packages(root: &Path, packages: &Path, crates: &[Crate]) -> Result {
    let base = root.join("target").join("package-test");
    let ws = base.join("ws");
    if base.exists() {
        std::fs::remove_dir_all(&base)
            .map_err(|e| format!("cannot remove {}: {e}", base.display()))?;
    }
    std::fs::create_dir_all(&ws).map_err(|e| format!("cannot create {}: {e}", ws.display()))?;
    let mut dirs = Vec::new();
    for c in crates {
        let file = packages.join(format!("{}-{}.crate", c.name, c.version));
        process::run(
            "unpack",
            Command::new("tar").arg("xzf").arg(&file).arg("-C").arg(&ws),
        )?;
        dirs.push(format!("{}-{}", c.name, c.version));
    }

    let skips = outside_includes(&ws, &base, crates)?;

    // Patch only the names some package depends on (an unused patch is a
    // warning); every such name is one of ours.
    let manifests: Vec<String> = dirs
        .iter()
        .map(|d| read(&ws.join(d).join("Cargo.toml")))
        .collect::<Result<_>>()?;
    let mut text = String::from(
        "# Written by `cargo xtask package`: the packaged crates, tested from\n\
         # their own sources, each sibling patched to its unpacked package.\n\
         [workspace]\nresolver = \"2\"\nmembers = [\n",
    );
    for d in &dirs {
        text.push_str(&format!("    \"{d}\",\n"));
    }
    text.push_str("]\n\n[patch.crates-io]\n");
    for (c, d) in crates.iter().zip(&dirs) {
        let used = manifests.iter().any(|m| {
            m.contains(&format!("dependencies.{}]", c.name))
                || m.contains(&format!("dependencies.\"{}\"]", c.name))
        });
        if used {
            text.push_str(&format!("{} = {{ path = \"{d}\" }}\n", c.name));
        }
    }
    write(&ws.join("Cargo.toml"), &text)?;
    // The repository's lock, so the dev-dependencies are the versions CI
    // tested (cargo drops the entries of the members left out).
    std::fs::copy(root.join("Cargo.lock"), ws.join("Cargo.lock"))
        .map_err(|e| format!("cannot copy Cargo.lock: {e}"))?;

    let mut cmd = cargo(&ws);
    cmd.args(["test", "--workspace", "--all-features", "--target-dir"])
        .arg(base.join("target"));
    if !skips.is_empty() {
        cmd.arg("--");
        for s in &skips {
            cmd.args(["--skip", s]);
        }
    }
    process::run("every crate's tests, from its packaged sources", &mut cmd)?;
    check_no_registry_crate(&ws, crates)?;
    Ok(())
}

/// After the test run: the lock of the package workspace has no entry of one
/// of our names from a registry (a patch that did not apply would show so).
fn check_no_registry_crate(ws: &Path, crates: &[Crate]) -> Result {
    let lock = read(&ws.join("Cargo.lock"))?;
    let mut name = "";
    for line in lock.lines() {
        if let Some(n) = line.strip_prefix("name = ") {
            name = n.trim_matches('"');
        }
        if line.starts_with("source = ") && crates.iter().any(|c| c.name == name) {
            return Err(format!(
                "the packaged crates' lock takes {name} from {line}: a sibling was not patched"
            ));
        }
    }
    Ok(())
}

fn write(path: &Path, text: &str) -> Result {
    std::fs::write(path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))
}

/// Every `include_str!("..")` / `include_bytes!("..")` with a literal
/// relative path in the unpacked sources must stay inside its package. The
/// known cases of [`OUTSIDE_INCLUDES`] get their file copied where the path
/// points and give the names of the tests to skip.
fn outside_includes(ws: &Path, base: &Path, crates: &[Crate]) -> Result<Vec<String>> {
    let mut skips = Vec::new();
    let mut problems = Vec::new();
    for c in crates {
        let dir = ws.join(format!("{}-{}", c.name, c.version));
        let mut files = Vec::new();
        rust_files(&dir, &mut files)?;
        for file in files {
            let text = read(&file)?;
            for path in included_paths(&text) {
                let Some(parent) = file.parent() else {
                    continue;
                };
                if inside(&dir, parent, &path) {
                    continue;
                }
                let rel = file
                    .strip_prefix(&dir)
                    .map(|p| p.to_string_lossy().replace('\\', "/"))
                    .unwrap_or_default();
                let known = OUTSIDE_INCLUDES
                    .iter()
                    .find(|k| k.0 == c.name && k.1 == rel && k.2 == path);
                match known {
                    Some(&(_, _, _, test)) => {
                        let target = normalize(&parent.join(&path));
                        if !target.starts_with(base) {
                            problems.push(format!(
                                "{}/{rel}: {path} points outside target/package-test",
                                c.name
                            ));
                            continue;
                        }
                        // The workspace file the path meant.
                        let source = normalize(&c.dir.join(&rel))
                            .parent()
                            .map(|p| normalize(&p.join(&path)))
                            .unwrap_or_default();
                        if let Some(d) = target.parent() {
                            std::fs::create_dir_all(d)
                                .map_err(|e| format!("cannot create {}: {e}", d.display()))?;
                        }
                        std::fs::copy(&source, &target).map_err(|e| {
                            format!("cannot copy {} for {}: {e}", source.display(), c.name)
                        })?;
                        eprintln!(
                            "xtask package: NOTE {}/{rel} includes {path}, outside its package \
                             (known; being moved): the package compiles against a copy and \
                             the test `{test}` is SKIPPED",
                            c.name
                        );
                        skips.push(test.to_string());
                    }
                    None => problems.push(format!(
                        "{}/{rel} includes {path}, which is not in the package",
                        c.name
                    )),
                }
            }
        }
    }
    for k in OUTSIDE_INCLUDES {
        if !skips.iter().any(|s| s == k.3) {
            eprintln!(
                "xtask package: NOTE {}/{} no longer includes {}: delete its row of \
                 OUTSIDE_INCLUDES in xtask/src/package.rs",
                k.0, k.1, k.2
            );
        }
    }
    if problems.is_empty() {
        Ok(skips)
    } else {
        Err(format!(
            "packaged sources read files their package lacks:\n  {}",
            problems.join("\n  ")
        ))
    }
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) -> Result {
    let entries =
        std::fs::read_dir(dir).map_err(|e| format!("cannot list {}: {e}", dir.display()))?;
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            rust_files(&path, out)?;
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
    Ok(())
}

/// The literal paths of `include_str!("..")` and `include_bytes!("..")`.
fn included_paths(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for mac in ["include_str!(\"", "include_bytes!(\""] {
        let mut rest = text;
        while let Some(i) = rest.find(mac) {
            rest = &rest[i + mac.len()..];
            if let Some(end) = rest.find('"') {
                out.push(rest[..end].to_string());
            }
        }
    }
    out
}

/// Whether `from.join(rel)` stays inside `dir` (by path components).
fn inside(dir: &Path, from: &Path, rel: &str) -> bool {
    normalize(&from.join(rel)).starts_with(normalize(dir))
}

/// `a/b/../c` as `a/c`, without touching the file system.
fn normalize(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for part in path.components() {
        match part {
            std::path::Component::ParentDir => {
                out.pop();
            }
            std::path::Component::CurDir => {}
            other => out.push(other),
        }
    }
    out
}

/// The baseline of the semver check when `--baseline-rev` is not given: the
/// `Commit:` line of the newest release section of CHANGELOG.md, when it
/// holds a full commit hash (40 hex digits between backticks).
fn changelog_baseline(changelog: &str) -> Option<String> {
    let mut in_release = false;
    for line in changelog.lines() {
        if let Some(title) = line.strip_prefix("## ") {
            if in_release {
                return None; // the newest release has no commit line
            }
            in_release = !title.to_ascii_lowercase().contains("unreleased");
            continue;
        }
        if in_release {
            if let Some(rest) = line.trim_start().strip_prefix("Commit: `") {
                let rev = rest.split('`').next().unwrap_or("");
                let hex = rev.len() == 40 && rev.chars().all(|c| c.is_ascii_hexdigit());
                return hex.then(|| rev.to_string());
            }
        }
    }
    None
}

/// `cargo semver-checks` for the publishable crates `names` against a
/// baseline commit of this repository, or one line saying why not.
fn semver_checks(root: &Path, names: &[&str], given: Option<String>) -> Result {
    let (rev, from) = match given {
        Some(rev) => (Some(rev), "--baseline-rev"),
        None => (
            changelog_baseline(&read(&root.join("CHANGELOG.md"))?),
            "CHANGELOG.md",
        ),
    };
    let Some(rev) = rev else {
        eprintln!(
            "xtask package: semver check SKIPPED: no baseline (no --baseline-rev, and the \
             newest release in CHANGELOG.md has no 40-hex `Commit:` yet)"
        );
        return Ok(());
    };
    let installed = process::succeeds(cargo(root).args(["semver-checks", "--version"]));
    if !installed {
        let msg = format!(
            "semver check against {rev} (from {from}): cargo-semver-checks is not installed \
             (cargo install cargo-semver-checks --locked)"
        );
        if from == "--baseline-rev" {
            return Err(msg);
        }
        eprintln!("xtask package: semver check SKIPPED: {msg}");
        return Ok(());
    }
    // The baseline must be a commit of this repository: a revision git does
    // not know is an error here, never a reason to fall back to a registry
    // crate (`http-net` on crates.io is another project).
    let commit = process::output(
        &format!("the baseline {rev} (from {from})"),
        Command::new("git")
            .current_dir(root)
            .args(["rev-parse", "--verify", "--quiet"])
            .arg(format!("{rev}^{{commit}}")),
    )
    .map_err(|e| {
        format!("semver check: {rev} (from {from}) is not a commit of this repository: {e}")
    })?;
    let commit = commit.trim().to_string();
    let started = Instant::now();
    let mut check = cargo(root);
    check.args(["semver-checks", "--baseline-rev", &commit]);
    for name in names {
        check.args(["-p", name]);
    }
    process::run(
        &format!("semver check against {commit} (from {from})"),
        &mut check,
    )?;
    eprintln!(
        "xtask package: semver check against {commit} passed in {:.0} s",
        started.elapsed().as_secs_f64()
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_workspace_readme_examples_are_the_facades() {
        check_readme_examples(&process::root()).unwrap();
    }

    #[test]
    fn reads_the_baseline_of_the_newest_release() {
        let full = "0123456789abcdef0123456789abcdef01234567";
        let log = format!(
            "# Changelog\n\n## [Unreleased]\n\nCommit: `deadbeef`\n\n## [0.2.0]\n\n\
             Commit: `{full}`\n\n## [0.1.0]\n\nCommit: `89abcdef`\n"
        );
        assert_eq!(changelog_baseline(&log).as_deref(), Some(full));
        // An abbreviated hash is not a baseline: it may become ambiguous.
        let short = "## [0.2.0]\n\nCommit: `0123abcd`\n";
        assert_eq!(changelog_baseline(short), None);
        let pending = "## [Unreleased]\n\n## [0.1.0]\n\nCommit: `TBD` (after the review)\n";
        assert_eq!(changelog_baseline(pending), None);
        assert_eq!(
            changelog_baseline(&format!("## [0.1.0]\n\n## [0.0.1]\nCommit: `{full}`\n")),
            None
        );
    }

    #[test]
    fn finds_includes_outside_a_package() {
        let src = "x\n#[doc = include_str!(\"../README.md\")]\nlet d = include_str!(\"../../../docs/A.md\");\nlet b = include_bytes!(\"data.bin\");";
        assert_eq!(
            included_paths(src),
            ["../README.md", "../../../docs/A.md", "data.bin"]
        );
        let dir = Path::new("/t/ws/c-0.1.0");
        let from = Path::new("/t/ws/c-0.1.0/src");
        assert!(inside(dir, from, "../README.md"));
        assert!(inside(dir, from, "data.bin"));
        assert!(!inside(dir, from, "../../../docs/A.md"));
    }

    #[test]
    fn finds_only_our_packages_in_local_overlay_registries() {
        let home = std::env::temp_dir().join(format!("xtask-stale-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&home);
        let src = home.join("registry").join("src");
        for d in [
            "-0123abcd/http-net-conn-0.1.0",
            "-0123abcd/http-net-conn-0.0.9",
            "-0123abcd/serde-1.0.0",
            "-4567ef/http-net-conn-0.1.0",
            "index.crates.io-1949cf8c6b5b557f/http-net-conn-0.1.0",
        ] {
            std::fs::create_dir_all(src.join(d)).unwrap();
        }
        let crates = [Crate {
            name: "http-net-conn".into(),
            version: "0.1.0".into(),
            dir: PathBuf::new(),
        }];
        let found = stale_unpacked(&home, &crates);
        assert_eq!(
            found,
            [
                src.join("-0123abcd/http-net-conn-0.1.0"),
                src.join("-4567ef/http-net-conn-0.1.0")
            ]
        );
        assert!(stale_unpacked(&home.join("none"), &crates).is_empty());
        std::fs::remove_dir_all(&home).unwrap();
    }

    #[test]
    fn lists_the_publishable_members() {
        let names: Vec<String> = publishable(&process::root())
            .unwrap()
            .into_iter()
            .map(|c| c.name)
            .collect();
        assert!(names.contains(&"http-net".to_string()), "{names:?}");
        assert!(names.contains(&"http-net-head".to_string()), "{names:?}");
        assert!(!names
            .iter()
            .any(|n| n == "xtask" || n == "http-net-benches"));
    }
}
