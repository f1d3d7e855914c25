//! Rust generated for data layouts (`backend::rust::layouts`): a bit-backed view per layout with
//! checked decode, a getter and a range-checked setter per field, nested views and `fields()`.
//!
//! The generated code is checked as text (formatted with prettyplease) and parsed with syn;
//! it is compiled and exercised where a target crate includes it.

use isa_compiler::backend::rust::layouts;
use isa_compiler::check_source;
use isa_compiler::ir;

/// A target with one enum and a 96-bit layout: a nested 8-bit layout, an array of four nested
/// layouts with stride 8 (one element straddles words 1 and 2), an enum, a bool, a signed field.
const SMALL: &str = r#"
target demo {
    word 32
}

enum Mode : u2 {
    OFF = 0
    ON = 1
    AUTO = 2
}

/// Eight bits at the start of the header.
layout Inner : 8 {
    a: u3 @ 2:0
    b: s4 @ 6:3
    c: bool @ 7
}

layout Elem : 8 {
    x: u4 @ 3:0
    mode: Mode @ 5:4
    y: bool @ 6
    unused @ 7
}

/// The header.
layout Demo : 96 {
    inner: Inner @ 7:0
    /// How the header is used.
    mode: Mode @ 9:8
    flag: bool @ 10
    unused @ 35:11
    elems[4]: Elem @ 36 + 8 * i +: 8
    wide: u20 @ 87:68
    delta: s8 @ 95:88
}
"#;

/// Generated layout code, formatted; panics (failing the test) if it is not valid Rust.
fn generated(source: &str) -> String {
    let t = match check_source(source) {
        Ok(t) => t,
        Err(d) => panic!("the checker rejects the spec: {d:#?}"),
    };
    let tokens = layouts::generate_for(&t);
    let file = syn::parse2::<syn::File>(tokens).expect("generated layout code parses as Rust");
    prettyplease::unparse(&file)
}

/// `text` without whitespace and without the trailing commas of wrapped parameter lists, so
/// the expectations do not depend on where prettyplease breaks lines.
fn squash(text: &str) -> String {
    text.split_whitespace().collect::<String>().replace(",)", ")")
}

fn assert_contains(text: &str, wanted: &[&str]) {
    let squashed = squash(text);
    let missing: Vec<&&str> = wanted.iter().filter(|w| !squashed.contains(&squash(w))).collect();
    assert!(missing.is_empty(), "missing from the generated code: {missing:#?}\n\n{text}");
}

#[test]
fn small_layout_has_a_view_with_accessors() {
    let text = generated(SMALL);
    assert_contains(
        &text,
        &[
            "pub struct Demo {\n    words: [u32; 3],\n}",
            "pub struct Inner {\n    words: [u32; 1],\n}",
            "pub const WIDTH: u32 = 96;",
            "pub fn from_words(words: [u32; 3]) -> Result<Self, isa_runtime::DecodeError>",
            "pub fn to_words(&self) -> [u32; 3]",
            "pub fn from_bytes(bytes: &[u8]) -> Result<Self, isa_runtime::DecodeError>",
            "pub fn to_bytes(&self) -> [u8; 12]",
            "pub fn fields(&self) -> Vec<(&'static str, isa_runtime::value::Value)>",
            // A nested layout is read and written as its own view.
            "pub fn inner(&self) -> Inner",
            "pub fn set_inner(&mut self, v: Inner) -> Result<(), isa_runtime::EncodeError>",
            // Arrays take an index.
            "pub fn elems(&self, i: usize) -> Option<Elem>",
            "pub fn set_elems(&mut self, i: usize, v: Elem) -> Result<(), isa_runtime::EncodeError>",
            "copy_layout_bits(&self.words, 36 + 8 * i, &mut words, 0, 8);",
            // Enums, bools, signed and unsigned fields.
            "pub fn mode(&self) -> Mode",
            "pub fn set_mode(&mut self, v: Mode) -> Result<(), isa_runtime::EncodeError>",
            "pub fn flag(&self) -> bool",
            "pub fn wide(&self) -> u32",
            "pub fn delta(&self) -> i8",
            "pub fn b(&self) -> i8",
            // Range checks of fields narrower than their Rust type.
            "if v > 1048575 {",
            "if !(-8..=7).contains(&v) {",
            // Decode checks name the field's path, nested ones included.
            "field: \"mode\"",
            "field: \"elems[3].mode\"",
            "bits: 20",
            // Zero is a valid header here.
            "impl Default for Demo",
            "fn copy_layout_bits(src: &[u32], from: u32, dst: &mut [u32], to: u32, width: u32)",
            "(\"elems\", isa_runtime::value::Value::Array(",
            "(\"inner\", isa_runtime::value::Value::Struct(self.inner().fields()))",
        ],
    );
    // The element straddling words 1 and 2 is read bit-exactly, and i32-wide u20 is checked.
    assert!(!text.contains("unsafe"));
    assert!(!text.contains("field: \"unused\""), "reserved bits have no accessors");
}

#[test]
fn small_layout_joins_the_rest_of_the_target() {
    let t = check_source(SMALL).expect("the spec checks");
    // The backend's output for the whole target includes the layouts.
    let whole = isa_compiler::backend::rust::generate(&t);
    let file = syn::parse_file(&whole).expect("the target's generated code parses");
    let mut names: Vec<String> = file
        .items
        .iter()
        .filter_map(|item| match item {
            syn::Item::Struct(s) => Some(s.ident.to_string()),
            syn::Item::Enum(e) => Some(e.ident.to_string()),
            syn::Item::Fn(f) => Some(f.sig.ident.to_string()),
            _ => None,
        })
        .collect();
    let count = names.len();
    names.sort();
    names.dedup();
    assert_eq!(names.len(), count, "generated items clash: {names:?}");
    // A target of layouts only has no unit struct, so the layout keeps the name `Demo`.
    for wanted in ["Mode", "Inner", "Elem", "Demo"] {
        assert!(names.iter().any(|n| n == wanted), "no `{wanted}` in {names:?}");
    }
}

/// The NVIDIA SPH example of the language reference (§15.2).
fn sph_snippet() -> String {
    let readme = include_str!("../../../isa-specs/README.md");
    let start = readme
        .find("/// NVIDIA Shader Program Header, version 3")
        .expect("the SPH example is in the reference");
    let end = start + readme[start..].find("```").expect("the SPH example ends");
    readme[start..end].to_string()
}

#[test]
fn sph_header_has_typed_accessors() {
    let text = generated(&sph_snippet());
    assert_contains(
        &text,
        &[
            // The union of the two types, chosen by a path both have.
            "pub enum Sph {\n    /// `common_word0.sph_type` = VTG: layout `SphType1`.\n    SphType1(SphType1),",
            "pub fn from_words(words: [u32; 20]) -> Result<Self, isa_runtime::DecodeError>",
            "field: \"common_word0.sph_type\"",
            "pub fn from_value(value: &isa_runtime::value::Value) -> Result<Self, isa_runtime::EncodeError>",
            "let tag = value.path(\"common_word0.sph_type\")",
            // Getters for what both arms have.
            "pub fn common_word0(&self) -> CommonWord0 {\n match self {\n Sph::SphType1(x) => x.common_word0(),",
            // The arms are views.
            "pub struct SphType1 {\n    words: [u32; 20],\n}",
            "pub const WIDTH: u32 = 640;",
            "pub fn to_bytes(&self) -> [u8; 80]",
            "pub fn sph_type(&self) -> SphType",
            "pub fn set_sph_type(&mut self, v: SphType) -> Result<(), isa_runtime::EncodeError>",
            "pub fn version(&self) -> u8",
            "pub fn shader_local_memory_low_size(&self) -> u32",
            "pub fn imap_generic_vector(&self, i: usize) -> Option<ImapVector>",
            "pub fn imap_fixed_fnc_texture(&self, i: usize) -> Option<ImapTexture>",
            // Constraints over paths, each naming what it reads.
            "rule: \"sph_type_matches_shader_type\"",
            "fields: &[\"common_word0.sph_type\", \"common_word0.shader_type\"]",
            "impl isa_runtime::layout::Layout for Sph",
            "pub static TARGET: isa_runtime::layout::Root<Sph>",
            // Undefined SphType and ShaderType values in an arm are decode errors.
            "field: \"common_word0.shader_type\"",
        ],
    );
    // A zeroed SPH has no SphType: no `Default`.
    assert!(!text.contains("impl Default for SphType1"), "an all-zero SPH is not valid");
    assert!(text.contains("impl Default for CommonWord1"));
}

/// A field whose type is chosen by another field of the same layout.
const SWITCH: &str = r#"
target demo {
    word 32
}

enum Kind : u2 {
    A = 1
    B = 2
}

layout Pair : 8 {
    lo: u4 @ 3:0
    hi: u4 @ 7:4
}

layout Tagged : 16 {
    kind: Kind @ 1:0
    unused @ 7:2
    body: switch kind { A => Pair, B => u8 } @ 15:8
}
"#;

#[test]
fn switch_field_reads_as_an_enum_of_its_arms() {
    let text = generated(SWITCH);
    assert_contains(
        &text,
        &[
            "pub enum TaggedBody {\n    Pair(Pair),\n    U8(u8),\n}",
            "pub fn body(&self) -> Option<TaggedBody>",
            "pub fn set_body(&mut self, v: TaggedBody) -> Result<(), isa_runtime::EncodeError>",
            "field: \"body\"",
            "let mut pending_body: Option<&isa_runtime::value::Value> = None;",
        ],
    );
}

/// A layout with bits no field names: a named `unused` range, an anonymous one, an undeclared
/// gap, and a gap wider than 64 bits; a nested layout with a gap of its own.
const GAPS: &str = r#"
target demo {
    word 32
}

layout Inner : 8 {
    a: u7 @ 6:0
}

layout Gappy : 160 {
    a: u4 @ 3:0
    /// The document's spare bits.
    unused spare @ 7:4
    b: u8 @ 15:8
    unused @ 23
    c: u8 @ 31:24
    inner: Inner @ 39:32
}
"#;

#[test]
fn reserved_members_of_a_layout_with_gaps() {
    let t = check_source(GAPS).expect("the spec checks");
    let members = |name: &str| -> Vec<(String, u32, u32)> {
        let l = t.layouts.iter().find(|l| l.name == name).expect("layout");
        isa_compiler::placement::reserved_members(l)
            .into_iter()
            .map(|m| (m.name, m.piece.lo, m.piece.width))
            .collect()
    };
    // The named range keeps its name; the undeclared bits 22:16 and the declared bit 23 are
    // separate members (the declaration is the unit); the 120 bits above `inner` are cut at 64.
    assert_eq!(
        members("Gappy"),
        [
            ("spare".to_string(), 4, 4),
            ("reserved_22_16".to_string(), 16, 7),
            ("reserved_23".to_string(), 23, 1),
            ("reserved_103_40".to_string(), 40, 64),
            ("reserved_159_104".to_string(), 104, 56),
        ]
    );
    assert_eq!(members("Inner"), [("reserved_7".to_string(), 7, 1)]);
    // Seen from the outer layout, the nested member is at its bits there.
    let leaves: Vec<(String, Vec<ir::Piece>)> = isa_compiler::placement::reserved_leaves(&t, ir::LayoutId(1))
        .into_iter()
        .map(|r| (r.path, r.pieces))
        .collect();
    assert_eq!(leaves.len(), 6);
    assert_eq!(leaves[5], ("inner.reserved_7".to_string(), vec![ir::Piece { lo: 39, width: 1 }]));

    let text = generated(GAPS);
    assert_contains(
        &text,
        &[
            // A getter and a range-checked setter, like a field's.
            "pub fn reserved_22_16(&self) -> u8",
            "pub fn set_reserved_22_16(&mut self, v: u8) -> Result<(), isa_runtime::EncodeError>",
            "if v > 127 {",
            "pub fn spare(&self) -> u8",
            "pub fn reserved_103_40(&self) -> u64",
            "pub fn reserved_159_104(&self) -> u64",
            // In the value, after the fields, and read back from it.
            "(\"inner\", isa_runtime::value::Value::Struct(self.inner().fields())), (\"spare\",",
            "\"reserved_22_16\" => {",
            // A warning for each that is not zero, nested ones by their path and bits here.
            "message: \"reserved bits 22:16 are not zero\"",
            "fields: &[\"reserved_22_16\"]",
            "message: \"reserved bits 39 are not zero\"",
            "fields: &[\"inner.reserved_7\"]",
            "warning: true",
            "pub fn broken_constraints(&self) -> Vec<isa_runtime::program::Violation>",
        ],
    );
}

#[test]
fn a_field_may_not_take_a_reserved_member_s_name() {
    // Bits 7:2 are no field's: their member is `reserved_7_2`.
    let source = "target demo {\n    word 32\n}\n\nlayout L : 8 {\n    reserved_7_2: u2 @ 1:0\n}\n";
    let d = match check_source(source) {
        Ok(_) => panic!("the clash is an error"),
        Err(d) => isa_compiler::diag::render("bad.isa", source, &d),
    };
    assert!(d.contains("error: field `reserved_7_2` has the name of the layout's reserved bits 7:2"), "{d}");
    assert!(d.contains("bad.isa:6:5"), "{d}");
}

/// A catch-all variant carries a payload of a wider Rust type: `from_bits` takes no value
/// wider than the field, so neither decode nor `from_value` nor a setter cuts one to fit; the
/// payload's own type takes no such value either, nor another variant's (POINTS).
#[test]
fn a_catch_all_takes_only_values_that_fit() {
    let source = "target demo {\n    word 32\n}\n\nenum Topology : u4 {\n    POINTS = 1\n    other(_)\n}\n\nlayout L : 8 {\n    t: Topology @ 3:0\n    u: u4 @ 7:4\n}\n";
    let t = check_source(source).expect("the spec checks");
    let text = prettyplease::unparse(
        &syn::parse_file(&isa_compiler::backend::rust::generate(&t)).expect("generated code parses"),
    );
    assert_contains(
        &text,
        &[
            "_ if bits >> 4 != 0 => None,",
            "_ => { match TopologyOther::new(bits as u8) {",
            "pub struct TopologyOther(core::num::NonZeroU8);",
            "pub const fn new(n: u8) -> Option<Self> { if n <= 15 && !matches!(n, 1) {",
        ],
    );
    // From JSON, a number the field cannot hold is out of range, naming the field's width.
    assert_contains(
        &text,
        &["Some(n) if !(0..=15).contains(&n) => { isa_runtime::EncodeError::OutOfRange {"],
    );
}
