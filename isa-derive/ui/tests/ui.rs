//! Compile-fail tests of isa-derive: spec and attribute mistakes are compile errors that say
//! where.
//!
//! One case, `tests/ui/mistakes.rs`, holds every mistake: trybuild checks each case as a crate
//! of its own with a rustc of its own. It compiles the case in a crate under
//! `target/tests/trybuild`, where `CARGO_MANIFEST_DIR` is that crate's directory, so the case
//! names its specs through `ISA_DERIVE_UI`, set here to this directory (`target!` accepts
//! `concat!` and `env!`). Regenerate the `.stderr` snapshot with
//! `TRYBUILD=overwrite cargo test -p isa-derive-ui --test ui`.

#[test]
fn ui() {
    std::env::set_var("ISA_DERIVE_UI", concat!(env!("CARGO_MANIFEST_DIR"), "/tests/ui"));
    let t = trybuild::TestCases::new();
    t.compile_fail("tests/ui/*.rs");
}
