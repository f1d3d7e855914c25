//! The test build reuses what the README's main job built (`cargo run -p isa-cli
//! --no-default-features`): every crate of the main job is resolved with the same features by
//! `cargo test --workspace`, which unifies the features of every member's dev-dependencies
//! too, built or not. One feature more (criterion, a dev-dependency of the benches, turned on
//! syn 2's `full` through ciborium, half and zerocopy-derive) makes the test build compile that
//! crate and everything above it again: syn 2, pest_generator, pest_derive and the compiler, on
//! the test build's critical path.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use std::process::Command;

/// Each package's features as `cargo tree` resolves them for `args` (`name version` → each
/// set of its features, comma-separated: one for the host, one for the target, where they differ).
fn resolved(root: &Path, args: &[&str]) -> BTreeMap<String, BTreeSet<String>> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let out = Command::new(cargo)
        .args(["tree", "--locked", "--prefix", "none", "--format", "{p}|{f}"])
        .args(args)
        .current_dir(root)
        .output()
        .expect("cargo tree runs");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let mut packages = BTreeMap::new();
    for line in String::from_utf8_lossy(&out.stdout).lines() {
        let Some((package, features)) = line.split_once('|') else { continue };
        // `name vX.Y.Z (path)` for workspace members: the name and version only.
        let package: Vec<&str> = package.split_whitespace().take(2).collect();
        let features = features.trim_end_matches("(*)").trim().to_string();
        packages.entry(package.join(" ")).or_insert_with(BTreeSet::new).insert(features);
    }
    packages
}

#[test]
fn the_test_build_resolves_the_main_job_s_crates_alike() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let main_job = resolved(&root, &["-p", "isa-cli", "--no-default-features", "-e", "normal,build"]);
    let tests = resolved(&root, &["--workspace", "-e", "normal,build,dev"]);
    assert!(main_job.len() > 20 && main_job.contains_key("isa-compiler v0.1.0"), "{main_job:?}");
    let differ: Vec<String> = main_job
        .iter()
        // The command itself is built with its targets for the tests.
        .filter(|(package, _)| !package.starts_with("isa-cli "))
        .filter_map(|(package, features)| {
            let other = tests.get(package)?;
            (other != features)
                .then(|| format!("{package}: {features:?} in the main job, {other:?} in the tests"))
        })
        .collect();
    assert!(differ.is_empty(), "the test build compiles these again: {differ:#?}");
}
