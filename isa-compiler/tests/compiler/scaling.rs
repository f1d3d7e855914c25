//! Synthetic specs of many encodings check and generate (the times are
//! `benches/scaling.rs`'s). 500 encodings in CI; the 10,000 of the scaling goal take minutes
//! in a test build, so that one is run on demand (`-- --ignored scaling`).

use super::synthetic;

fn check_and_generate(n: usize) {
    let source = synthetic::spec(n);
    let target = isa_compiler::check_source(&source).unwrap_or_else(|d| panic!("{d:?}"));
    assert_eq!(target.formats.len(), n);
    let last = n - 1;
    assert_eq!(target.formats[last].name, format!("op{last}"));
    let rust = isa_compiler::backend::rust::generate(&target);
    // The last encoding's fixed bits: its number in the opcode, bits 31:18.
    let fixed = format!("pub const FIXED_BITS: u32 = {:#x};", (last as u32) << 18);
    assert!(rust.contains(&fixed), "no `{fixed}`");
    assert!(rust.contains(&format!("pub struct Op{last} {{")));
    // Every encoding's fields read alike: the decoder reads them with one shared leaf, which
    // picks the encoding by its opcode and returns the instruction (no `Result`, so that the
    // pick is a computation of the discriminant, not a jump per encoding); no encoding has a
    // leaf of its own.
    assert_eq!(rust.matches("fn decode_layout_").count(), 1);
    assert!(rust.contains("fn decode_layout_1(word: u32) -> Instruction {"));
    assert!(!rust.contains("fn decode_leaf("));
    // Past 256 encodings the discriminant is two bytes: with the three one-byte fields the
    // enum is 6 bytes, aligned to 8 so that it is one integer the decoder writes in one store.
    assert!(rust.contains("#[repr(align(8))]\npub enum Instruction {"));
    // The decoder alone (the decode-scaling bench's build): the same decoder, without the
    // syntax tables and printers, and each struct and `Instruction` without the derives, docs,
    // encoders and per-variant methods that took rustc past 19 GB at 10,000 encodings. Its
    // `Instruction` and `decode` are written by the full module's writer, spelled alike.
    let decoder = isa_compiler::backend::rust::generate_decoder_compact_from(&target, "synthetic.isa");
    assert!(decoder.contains("fn decode_layout_1 (word : u32) -> Instruction {"));
    assert!(decoder.contains("pub fn decode(word: u32) -> Result<Instruction, isa_runtime::DecodeError> {"));
    assert!(!decoder.contains("pub static FORMATS") && rust.contains("pub static FORMATS"));
    assert!(decoder.contains(&format!("#[derive(Clone, Copy)]\npub struct Op{last} {{")));
    assert!(
        decoder.contains("#[derive(Clone, Copy)]\n#[repr(align(8))]\npub enum Instruction {\nOp0(Op0),\n")
    );
    assert_eq!(decoder.matches("fn from_word(").count(), n);
    // `decode` and its shared leaf, as the full module's build (unformatted) has them.
    let compact = isa_compiler::backend::rust::generate_compact_from(&target, "synthetic.isa");
    let decode = |module: &str| {
        let start = module.find("fn decode_layout_1 ").expect("a shared leaf");
        let decode = module.find("pub fn decode(").expect("decode");
        let end = decode + module[decode..].find("\n}\n").expect("decode ends") + 3;
        module[start..end].to_string()
    };
    assert_eq!(decode(&decoder), decode(&compact));
    for absent in ["fn to_word", "fn fields", "fn encode", "fn match_format", "# Encoding"] {
        assert!(!decoder.contains(absent) && rust.contains(absent), "{absent}");
    }
}

#[test]
fn five_hundred_encodings_check_and_generate() {
    check_and_generate(500);
}

#[test]
#[ignore = "minutes in a test build; the time is the scaling bench's"]
fn ten_thousand_encodings_check_and_generate() {
    check_and_generate(10_000);
}
