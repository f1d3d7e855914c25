//! Compile-fail test of isa-derive: spec and attribute mistakes are compile errors that say
//! where.
//!
//! One case, `tests/ui/mistakes.rs`, holds every mistake. rustc checks it here directly, with
//! the isa-derive this test was built against (the proc macro in the test's own `deps`
//! directory; every dev-dependency of this package alike), and its errors must be `tests/ui/mistakes.stderr` line for line, spans
//! included. (trybuild did the same through a crate of its own in a target directory of its
//! own, where it built isa-derive, the compiler, syn and pest a second time: ~20 s of every
//! clean test run.) The case names its specs through `ISA_DERIVE_UI` (`target!` accepts
//! `concat!` and `env!`), set for rustc to this directory; the output reads it `$DIR`, as
//! trybuild wrote it. Regenerate the snapshot with
//! `TRYBUILD=overwrite cargo test -p isa-derive-ui --test ui`.

use std::env::consts::{DLL_PREFIX, DLL_SUFFIX};
use std::path::{Path, PathBuf};
use std::process::Command;

const CASE: &str = "tests/ui/mistakes.rs";
const EXPECTED: &str = "tests/ui/mistakes.stderr";

#[test]
fn ui() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    let deps = std::env::current_exe().expect("the test binary's path");
    let deps = deps.parent().expect("the test binary's directory");
    let out = std::env::temp_dir().join(format!("isa-derive-ui-{}", std::process::id()));
    let mut rustc = Command::new(rustc());
    rustc
        .current_dir(dir)
        .env("ISA_DERIVE_UI", dir.join("tests/ui"))
        .args(["--edition=2021", "--crate-type=bin", "--crate-name=mistakes", "--emit=metadata"])
        .args(["--color=never", "--diagnostic-width=140", "-A", "dead_code", CASE])
        .arg(format!("-Ldependency={}", deps.display()))
        .arg("-o")
        .arg(&out);
    // The case sees this package's dev-dependencies, as trybuild's crate did.
    for name in dev_dependencies(dir) {
        rustc.arg("--extern").arg(format!("{name}={}", artifact(deps, &name).display()));
    }
    let output = rustc.output().expect("rustc runs");
    let _ = std::fs::remove_file(&out);
    assert!(!output.status.success(), "{CASE} compiled: every item in it is a mistake");
    let stderr = normalize(&String::from_utf8_lossy(&output.stderr), dir);
    let expected_path = dir.join(EXPECTED);
    if std::env::var_os("TRYBUILD").is_some_and(|v| v == "overwrite") {
        std::fs::write(&expected_path, &stderr).expect("write the snapshot");
        return;
    }
    let expected = std::fs::read_to_string(&expected_path).expect("the snapshot");
    if stderr.trim_end() != expected.trim_end() {
        let line = stderr.lines().zip(expected.lines()).position(|(a, b)| a != b);
        panic!(
            "rustc's errors for {CASE} differ from {EXPECTED} (first at line {}):\n\
             ---- rustc ----\n{stderr}\n---- {EXPECTED} ----\n{expected}",
            line.map_or_else(|| "end".to_string(), |l| (l + 1).to_string())
        );
    }
}

/// rustc's errors as trybuild showed them: this directory is `$DIR`, and the summary lines at
/// the end are left out.
fn normalize(stderr: &str, dir: &Path) -> String {
    let dir = format!("{}/", dir.display());
    let mut text: String = stderr
        .lines()
        .filter(|l| {
            !l.starts_with("error: aborting due to")
                && !l.starts_with("For more information about this error")
                && !l.starts_with("For more information about an error")
                && !l.starts_with("Some errors have detailed explanations")
        })
        .map(|l| l.replace(&dir, "$DIR/") + "\n")
        .collect();
    while text.ends_with("\n\n") {
        text.pop();
    }
    text
}

/// The rustc of the toolchain that runs the tests (it built the proc macro): beside `$CARGO`.
fn rustc() -> PathBuf {
    if let Some(rustc) = std::env::var_os("RUSTC") {
        return rustc.into();
    }
    std::env::var_os("CARGO")
        .map(PathBuf::from)
        .and_then(|cargo| {
            let rustc = cargo.with_file_name(format!("rustc{}", std::env::consts::EXE_SUFFIX));
            rustc.is_file().then_some(rustc)
        })
        .unwrap_or_else(|| "rustc".into())
}

/// The crate names of this package's `[dev-dependencies]` (`isa-derive` → `isa_derive`).
fn dev_dependencies(dir: &Path) -> Vec<String> {
    let manifest = std::fs::read_to_string(dir.join("Cargo.toml")).expect("Cargo.toml");
    let mut section = "";
    let mut names = Vec::new();
    for line in manifest.lines().map(str::trim) {
        if line.starts_with('[') {
            section = line;
        } else if section == "[dev-dependencies]" && !line.is_empty() && !line.starts_with('#') {
            let name = line.split(['=', '.', ' ']).next().unwrap_or_default();
            names.push(name.replace('-', "_"));
        }
    }
    names
}

/// A dependency's library beside this test binary (`target/<profile>/deps`): the proc macro
/// or the rlib. Another build of it (another profile) may lie there too: the newest is the one
/// built from the sources as they are now, since cargo built this test's own before running it.
fn artifact(deps: &Path, name: &str) -> PathBuf {
    let prefix = format!("lib{name}-");
    let proc_macro = format!("{DLL_PREFIX}{name}-");
    let newest = std::fs::read_dir(deps)
        .expect("the deps directory")
        .filter_map(Result::ok)
        .filter(|e| {
            e.file_name().to_str().is_some_and(|n| {
                (n.starts_with(&prefix) && n.ends_with(".rlib"))
                    || (n.starts_with(&proc_macro) && n.ends_with(DLL_SUFFIX))
            })
        })
        .filter_map(|e| Some((e.metadata().ok()?.modified().ok()?, e.path())))
        .max();
    newest.map(|(_, path)| path).unwrap_or_else(|| panic!("no library of {name} in {}", deps.display()))
}
