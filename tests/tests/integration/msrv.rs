//! The declared minimum Rust version is true: every package of the workspace declares it, and
//! no locked dependency needs a newer one (clippy's `incompatible_msrv` lint holds the
//! workspace's own code to it).

use std::path::Path;
use std::process::Command;

/// `1.88` as (1, 88, 0).
fn version(text: &str) -> (u32, u32, u32) {
    let mut parts = text.split('.').map(|p| p.parse::<u32>().unwrap_or(0));
    (parts.next().unwrap_or(0), parts.next().unwrap_or(0), parts.next().unwrap_or(0))
}

/// The workspace's declared `rust-version`.
fn declared(root: &Path) -> String {
    let manifest = std::fs::read_to_string(root.join("Cargo.toml")).expect("the workspace manifest");
    let line = manifest.lines().find(|l| l.starts_with("rust-version")).expect("a workspace rust-version");
    line.split('"').nth(1).expect("a quoted version").to_string()
}

#[test]
fn every_package_declares_the_workspace_rust_version() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let ours = declared(&root);
    for member in
        ["isa-runtime", "isa-compiler", "isa-derive", "generated", "isa-cli", "tests", "examples/nvidia-sph"]
    {
        let text = std::fs::read_to_string(root.join(member).join("Cargo.toml")).expect("a member manifest");
        let ok = text.contains("rust-version.workspace = true")
            || text.contains(&format!("rust-version = \"{ours}\""));
        assert!(ok, "{member}/Cargo.toml does not declare rust-version {ours}");
    }
}

#[test]
fn no_locked_dependency_needs_a_newer_rust() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let ours = declared(&root);
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let out = Command::new(cargo)
        .args(["metadata", "--format-version", "1", "--locked"])
        .current_dir(&root)
        .output()
        .expect("cargo metadata runs");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let json = String::from_utf8_lossy(&out.stdout);
    // Each package object has `"name":"…"` … `"rust_version":"…"` (or null).
    let mut newer = Vec::new();
    let mut seen = 0;
    for chunk in json.split("\"rust_version\":\"").skip(1) {
        let Some(v) = chunk.split('"').next() else { continue };
        seen += 1;
        if version(v) > version(&ours) {
            newer.push(v.to_string());
        }
    }
    assert!(seen > 10, "cargo metadata listed {seen} rust versions");
    assert!(newer.is_empty(), "locked dependencies need Rust {newer:?}, newer than the declared {ours}");
}
