//! The rustdoc of generated code: each instruction struct documents its encoding (fixed bits,
//! field positions) and its syntax per dialect, and spec prose never reads as an intra-doc link
//! (the one warning `cargo doc -p isa-generated` gave: maxwell's `a[0x70]`). Checked on the
//! generated text, without running rustdoc.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex, OnceLock, PoisonError};

/// The generated Rust of shipped spec `name`, made once per test run: the tests below read the
/// same texts, and agx's and maxwell's take seconds each to make.
fn generated(name: &str) -> Arc<String> {
    type Made = BTreeMap<String, Arc<OnceLock<Arc<String>>>>;
    static MADE: Mutex<Made> = Mutex::new(BTreeMap::new());
    let once =
        MADE.lock().unwrap_or_else(PoisonError::into_inner).entry(name.to_string()).or_default().clone();
    once.get_or_init(|| {
        let path = format!("isa-specs/{name}");
        let full = format!("{}/../{path}", env!("CARGO_MANIFEST_DIR"));
        let source = std::fs::read_to_string(&full).unwrap_or_else(|e| panic!("{full}: {e}"));
        match isa_compiler::compile(&path, &source) {
            Ok(out) => Arc::new(out.rust),
            Err(rendered) => panic!("{rendered}"),
        }
    })
    .clone()
}

/// The doc comment right above `pub struct {name} {`.
fn struct_doc(rust: &str, name: &str) -> String {
    let lines: Vec<&str> = rust.lines().collect();
    let at =
        lines.iter().position(|l| *l == format!("pub struct {name} {{")).unwrap_or_else(|| panic!("{name}"));
    let mut doc: Vec<&str> = lines[..at]
        .iter()
        .rev()
        .skip_while(|l| l.starts_with("#["))
        .take_while(|l| l.starts_with("///"))
        .copied()
        .collect();
    doc.reverse();
    doc.join("\n")
}

/// VC4's small-immediate ALU instruction is signal 13 in bits 63:60 (VideoCore IV 3D
/// Architecture Reference Guide, QPU instruction encoding); its raddr_b bits hold the
/// immediate.
#[test]
fn vc4_struct_docs_give_the_encoding_and_both_dialects() {
    let rust = generated("vc4.isa");
    let doc = struct_doc(&rust, "AluSmallImm");
    assert!(
        doc.contains(
            "/// A 64-bit word; `word & 0xf000000000000000 == 0xd000000000000000` (its fixed fields)."
        ),
        "{doc}"
    );
    assert!(doc.contains("/// | 63:60 | `sig` | = 0xd |"), "{doc}");
    assert!(doc.contains("/// | 17:12 | `small_imm` |  |"), "{doc}");
    assert!(doc.contains("/// `vc4asm`:") && doc.contains("/// `mesa`:"), "{doc}");
}

/// nvdisasm's MOV: `MOV R1, R2` with an optional lane mask and guard predicate.
#[test]
fn maxwell_struct_docs_give_the_syntax() {
    let rust = generated("maxwell.isa");
    let doc = struct_doc(&rust, "MovR");
    assert!(doc.contains("/// - `mov_r`: `` {guard}MOV {rd}, {src_b}[, {quad_mask}] ``"), "{doc}");
    assert!(doc.contains("/// - `guard`: ``  | @[!]{pred}  ``"), "{doc}");
}

/// Brackets in doc prose outside code spans are escaped, in every shipped spec's code; the
/// backend's own links (``[`FORMATS`]``) are the only ones.
#[test]
fn doc_prose_has_no_bare_brackets() {
    let dir = format!("{}/../isa-specs", env!("CARGO_MANIFEST_DIR"));
    let mut specs: Vec<String> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{dir}: {e}"))
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter(|n| n.ends_with(".isa"))
        .collect();
    specs.sort();
    assert!(specs.len() >= 6, "{specs:?}");
    // One thread a spec: the largest take most of the test's time.
    std::thread::scope(|scope| {
        for spec in &specs {
            scope.spawn(move || no_bare_brackets(spec, &generated(spec)));
        }
    });
}

/// Asserts that every `///` line of `rust` escapes its brackets outside code spans, but for
/// intra-doc links to code (``[`FORMATS`]``).
fn no_bare_brackets(spec: &str, rust: &str) {
    for line in rust.lines().map(str::trim_start).filter(|l| l.starts_with("///")) {
        let mut in_code = false;
        let mut prev = ' ';
        let mut chars = line.chars().peekable();
        while let Some(c) = chars.next() {
            if c == '`' {
                while chars.next_if_eq(&'`').is_some() {}
                in_code = !in_code;
            } else if (c == '[' || c == ']') && !in_code {
                let link = if c == '[' { chars.peek() == Some(&'`') } else { prev == '`' };
                assert!(prev == '\\' || link, "{spec}: bare bracket in `{line}`");
            }
            prev = c;
        }
    }
}
