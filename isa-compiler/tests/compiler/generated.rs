//! The generated Rust of small specs, as snapshots: a change to the compiler shows its effect
//! on generated code in review (rust-analyzer's and iced's habit). The specs are the ones the
//! derive tests compile and run (`isa-derive/tests/specs/`), so what is shown here is also
//! known to compile and behave; `cargo insta review` accepts an intended change.

fn generated(path: &str) -> String {
    let full = format!("{}/../{path}", env!("CARGO_MANIFEST_DIR"));
    let source = std::fs::read_to_string(&full).unwrap_or_else(|e| panic!("{full}: {e}"));
    match isa_compiler::compile(path, &source) {
        Ok(out) => out.rust,
        Err(rendered) => panic!("{rendered}"),
    }
}

/// Two formats of a 16-bit machine: enums, decoder, encoder, syntax tables, assembler.
#[test]
fn toy_target() {
    insta::assert_snapshot!(generated("isa-derive/tests/specs/toy.isa"));
}

/// Groups, forms, lets, `zero` and `execute when` expanded: six encodings and an interpreter.
#[test]
fn family_target() {
    insta::assert_snapshot!(generated("isa-derive/tests/specs/family.isa"));
}
