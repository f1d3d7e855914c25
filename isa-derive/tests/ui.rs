//! Compile-fail tests: spec and attribute mistakes are compile errors that say where.
//!
//! trybuild compiles each case in a crate of its own under `target/tests/trybuild`, where
//! `CARGO_MANIFEST_DIR` is that crate's directory, so the cases name their specs through
//! `ISA_DERIVE_UI`, set here to this directory (`target!` accepts `concat!` and `env!`).
//! Regenerate the `.stderr` snapshots with `TRYBUILD=overwrite cargo test -p isa-derive --test ui`.

#[test]
fn ui() {
    std::env::set_var("ISA_DERIVE_UI", concat!(env!("CARGO_MANIFEST_DIR"), "/tests/ui"));
    let t = trybuild::TestCases::new();
    t.compile_fail("tests/ui/*.rs");
}
