//! The tables of the shipped VC4 spec and of small specs, cell by cell.

use isa_compiler::backend::docs::{html, markdown};
use isa_compiler::ir::{self, Field, Piece, Type};

fn vc4() -> ir::Target {
    let src = include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/../isa-specs/vc4.isa"));
    match isa_compiler::check_source(src) {
        Ok(t) => t,
        Err(d) => panic!("vc4.isa: {}", isa_compiler::diag::render("vc4.isa", src, &d)),
    }
}

/// The lines of the Markdown section that starts with `heading`, up to the next heading.
fn section<'a>(doc: &'a str, heading: &str) -> Vec<&'a str> {
    let mut lines = doc.lines().skip_while(|l| *l != heading);
    let first = lines.next().unwrap_or_else(|| panic!("no section {heading}"));
    std::iter::once(first).chain(lines.take_while(|l| !l.starts_with('#'))).collect()
}

/// The cells of the table row whose first cell is `first`.
fn row(lines: &[&str], first: &str) -> Vec<String> {
    let mut in_code = false;
    lines
        .iter()
        .filter(|l| {
            if l.starts_with("```") {
                in_code = !in_code;
            }
            !in_code && l.starts_with('|')
        })
        .map(|l| {
            // Split at unescaped pipes.
            let mut cells = Vec::new();
            let mut cur = String::new();
            let mut prev = ' ';
            for c in l.chars() {
                if c == '|' && prev != '\\' {
                    cells.push(cur.trim().to_string());
                    cur.clear();
                } else {
                    cur.push(c);
                }
                prev = c;
            }
            cells[1..].to_vec()
        })
        .find(|cells| cells.first().map(String::as_str) == Some(first))
        .unwrap_or_else(|| panic!("no row {first} in\n{}", lines.join("\n")))
}

#[test]
fn docs_vc4_alu_table() {
    let md = markdown(&vc4());
    let alu = section(&md, "### Format `alu`");
    let header = row(&alu, "Field");
    assert_eq!(header, ["Field", "Bits", "Width", "Type", "Value", "Description"]);
    let sig = row(&alu, "sig");
    assert_eq!(sig[1], "63:60");
    assert_eq!(sig[2], "4");
    assert_eq!(sig[3], "[Sig](#enum-sig)");
    assert_eq!(sig[4], "in bkpt..=loadam (0..=12)");
    let op_add = row(&alu, "op_add");
    assert_eq!(op_add[1], "28:24");
    assert_eq!(op_add[3], "[AddOp](#enum-addop)");
    assert_eq!(op_add[5], "Add-pipe operation.");
    let waddr_add = row(&alu, "waddr_add");
    assert_eq!(waddr_add[1], "43:38");
    assert_eq!(waddr_add[3], "u6");
    assert_eq!(waddr_add[4], "default 39");
    assert_eq!(row(&alu, "cond_add")[4], "default never (0)");
    let pack = row(&alu, "pack");
    assert_eq!(
        pack[3],
        "switch pm: false → [RegfilePack](#enum-regfilepack), true → [MulPack](#enum-mulpack)"
    );
    assert_eq!(row(&alu, "pm")[4], "selects the type of `pack`");
    // The diagram: the first word from sig down to waddr_mul, fields in order.
    let diagram = alu.join("\n");
    assert!(diagram.contains("| sig | unpack | pm | pack | cond_add |"), "{diagram}");
    assert!(diagram.contains("| mul_b |"), "{diagram}");
    // The patterns: sig 0..=12 is three cubes.
    assert!(diagram.contains("0xxx xxxx"), "{diagram}");
    assert!(diagram.contains("1100 xxxx"), "{diagram}");
    assert!(alu.iter().any(|l| l.contains("`one_peripheral`") && l.contains("at most one closely coupled")));
}

#[test]
fn docs_vc4_scattered_and_fixed_fields() {
    let md = markdown(&vc4());
    let f = section(&md, "### Format `load_imm_per_elem_signed`");
    let elements = row(&f, "elements[0..16]");
    assert_eq!(elements[1], "16+i, i");
    assert_eq!(elements[2], "16 × 2");
    assert_eq!(elements[3], "s2");
    assert_eq!(elements[4], "16 elements; element 0 at 16, 0; stride 1");
    let sig = row(&f, "sig");
    assert_eq!(sig[4], "is load_imm (14)");
    assert_eq!(row(&f, "mode")[4], "is 1");
    assert!(row(&f, "imm")[4].starts_with("view"));
    let text = f.join("\n");
    // Element i's high bit is at 16+i: the diagram shows two 16-bit runs of `elements`.
    assert!(text.contains(" 31      16 15       0\n"), "{text}");
    assert!(text.contains("| elements | elements |"), "{text}");

    let branch = section(&md, "### Format `branch`");
    assert!(branch.iter().any(|l| l.contains("Don't-care bits") && l.contains("59:56")));
}

#[test]
fn docs_vc4_enum_tables() {
    let md = markdown(&vc4());
    let add = section(&md, "### Enum `AddOp`");
    assert_eq!(row(&add, "Value"), ["Value", "Name", "vc4asm", "mesa", "Semantics", "Description"]);
    let or = row(&add, "21");
    assert_eq!(or[1], "or");
    assert_eq!(or[4], "yes");
    assert_eq!(or[5], "Bitwise or.");
    assert_eq!(row(&add, "30")[2], "`av8adds`");
    // v8adds has semantics now (a builtin on byte lanes); the saturating 32-bit pack has none.
    assert_eq!(row(&add, "30")[4], "yes");
    let pack = section(&md, "### Enum `RegfilePack`");
    assert_eq!(row(&pack, "8")[1], "sat32");
    assert_eq!(row(&pack, "8")[4], "");
    assert_eq!(row(&pack, "1")[4], "yes");
    let text = add.join("\n");
    assert!(text.contains("`(a: u32, b: u32) -> u32`"), "{text}");
    assert!(text.contains("9..=11, 25..=29"), "{text}");
    assert!(text.contains("printed as `???` in mesa"), "{text}");

    let sig = section(&md, "### Enum `Sig`");
    let small = row(&sig, "13");
    assert_eq!(small[1], "small_imm");
    assert_eq!(small[3], "`sig_small_imm`");
    assert_eq!(row(&sig, "0")[2], "`bkpt` (also `break`)");
    assert_eq!(row(&sig, "1")[3], "`\"\"`");

    let read_a = section(&md, "### Enum `ReadA`");
    assert_eq!(row(&read_a, "0..=31")[1], "ra");
    assert_eq!(row(&read_a, "0..=31")[2], "`ra{v}`");
    assert_eq!(row(&read_a, "33..=34")[3], "`???`");

    // `<` in a Markdown cell stays literal inside its code span.
    let imm = section(&md, "### Enum `SmallImm`");
    assert_eq!(row(&imm, "48..=63")[3], "`<bad imm {v}>`");
}

#[test]
fn docs_vc4_header_properties_rules() {
    let t = vc4();
    let md = markdown(&t);
    assert!(md.starts_with("# Broadcom VideoCore IV QPU\n"), "{md}");
    assert!(md.contains("| Word size | 64 bits |"));
    assert!(md.contains("| Byte order | little-endian |"));
    assert!(md.contains("| vc4asm (default) | `#` |"));
    assert!(md.contains("- [`alu`](#format-alu)"));
    let props = section(&md, "## Properties");
    let p = row(&props, "`is_thread_end`");
    assert_eq!(p[1], "bool");
    assert_eq!(p[2], "false");
    assert_eq!(p[3], "[alu](#format-alu)");
    let rules = section(&md, "## Program rules");
    assert!(
        row(&rules, "`thread_end_physical`")[1].contains("must not write to either physical register file")
    );
    // Deterministic.
    assert_eq!(md, markdown(&t));
}

#[test]
fn docs_vc4_html() {
    let t = vc4();
    let page = html(&t);
    assert!(page.starts_with("<!doctype html>"), "{}", &page[..200.min(page.len())]);
    assert!(page.contains("<title>Broadcom VideoCore IV QPU</title>"));
    assert!(page.contains("<code>&lt;bad imm {v}&gt;</code>"));
    assert!(!page.contains("<bad imm"));
    assert!(page.contains(r#"<h3 id="enum-addop">"#));
    assert!(page.contains(r##"<a href="#enum-addop">AddOp</a>"##));
    assert!(page.contains("<td>63:60</td>"));
    assert!(page.trim_end().ends_with("</html>"));
    assert_eq!(page, html(&t));
}

const NESTED: &str = r#"
/// A test target.
target t {
title "Test <target>"
word 32
byte_order big
dialect d { comment ";" }
}

/// Two bytes.
enum Kind : u2 {
/// First | kind.
a = 0 "a|b"
b = 1
}

/// 10-bit fixed point.
number fx10 = fixed(width: 10, fraction: 8, signed)
/// A small float.
number fp20 = float(sign: 1, exponent: 6, mantissa: 13, bias: 31)

/// A pair of bytes.
layout Pair : 16 {
/// Low byte.
lo: u8 @ 7:0
/// High byte.
hi: u8 @ 15:8
}

/// The header.
layout Header : 64 {
/// Kind.
kind: Kind @ 1:0
unused @ 15:2
/// One pair.
first: Pair @ 31:16
/// Two pairs.
pairs[2]: Pair @ 32 + 16 * i +: 16
}
"#;

#[test]
fn docs_place_split_nested_layouts_and_descending_arrays() {
    let source = "target t {\n    word 32\n}\n\
        layout Pair : 16 {\n    lo: u8 @ 7:0\n    hi: u8 @ 15:8\n}\n\
        layout Split : 64 {\n    split: Pair @ [63:56, 7:0]\n    back[2]: Pair @ 40 - 16 * i +: 16\n}\n";
    let t = match isa_compiler::check_source(source) {
        Ok(t) => t,
        Err(d) => panic!("{}", isa_compiler::diag::render("split.isa", source, &d)),
    };
    let md = markdown(&t);
    let split = section(&md, "### Layout `Split`");
    // The pair's high byte is the split's first piece, its low byte the second.
    let hi = row(&split, "split.hi");
    assert_eq!(hi[1..4], ["63:56", "56", "1"]);
    let lo = row(&split, "split.lo");
    assert_eq!(lo[1..4], ["7:0", "0", "0"]);
    // Element i of `back` starts at bit 40 - 16i: element 1 at 39:24.
    let back = row(&split, "back[2]");
    assert_eq!(back[3], "55:24 (element i: 55-16i:40-16i)");
    assert_eq!(back[5], "2 elements; element 0 at 55:40; stride -16");
    let lo = row(&split, "back[i].lo");
    assert_eq!(lo[1..4], ["47:40", "40 - 16i", "1"]);
}

#[test]
fn docs_nested_layout_offsets() {
    let t = match isa_compiler::check_source(NESTED) {
        Ok(t) => t,
        Err(d) => panic!("{}", isa_compiler::diag::render("nested.isa", NESTED, &d)),
    };
    let md = markdown(&t);
    let header = section(&md, "### Layout `Header`");
    assert_eq!(row(&header, "Field"), ["Field", "Bit width", "Type", "Bits", "Word", "Value", "Description"]);
    let first = row(&header, "first");
    assert_eq!(first[1], "16");
    assert_eq!(first[2], "struct [Pair](#layout-pair)");
    assert_eq!(first[3], "31:16");
    assert_eq!(first[4], "0");
    // An array: its name with the count, the total width, all its bits and words.
    let pairs = row(&header, "pairs[2]");
    assert_eq!(pairs[1], "32");
    assert_eq!(pairs[3], "63:32 (element i: 47+16i:32+16i)");
    assert_eq!(pairs[4], "1");
    assert_eq!(pairs[5], "2 elements; element 0 at 47:32; stride 16");
    // Reserved bits are rows too, as the documents list them.
    assert_eq!(row(&header, "reserved"), ["reserved", "14", "-", "15:2", "0", "", ""]);
    // Flattened: absolute offsets of the nested fields.
    let flat = row(&header, "first.hi");
    assert_eq!(flat[1], "31:24");
    assert_eq!(flat[2], "24");
    assert_eq!(flat[3], "0");
    let flat = row(&header, "pairs[i].hi");
    assert_eq!(flat[1], "47:40");
    assert_eq!(flat[2], "40 + 16i");
    assert_eq!(flat[3], "1");
    let text = header.join("\n");
    assert!(text.contains("Don't-care bits: 15:2"), "{text}");
    // The nested layout says where it is used.
    let pair = section(&md, "### Layout `Pair`");
    let text = pair.join("\n");
    assert!(text.contains("[Header](#layout-header)"), "{text}");
    assert!(text.contains("`pairs` at bit 32 + 16i"), "{text}");
    // Pipes are escaped in cells, `<` in prose.
    let kind = section(&md, "### Enum `Kind`");
    assert_eq!(row(&kind, "0")[2], r"`a\|b`");
    assert_eq!(row(&kind, "0")[3], r"First \| kind.");
    assert!(md.starts_with("# Test &lt;target>\n"), "{md}");
    // Number formats.
    let fx = section(&md, "### Number `fx10`");
    assert!(fx.join("\n").contains("width 10, fraction 8, signed (two's complement); 1.0 = `0x100`"));
    let page = html(&t);
    assert!(page.contains("<title>Test &lt;target&gt;</title>"));
    assert!(page.contains("<code>a|b</code>"));
}

#[test]
fn docs_never_panic_on_odd_ir() {
    let mut t = vc4();
    // Dangling ids, a cycle of layouts and absurd positions must not panic.
    t.layouts.push(ir::Layout {
        name: "Loop".into(),
        doc: String::new(),
        width: 8,
        fields: vec![Field {
            name: "me".into(),
            doc: String::new(),
            ty: Type::Layout(ir::LayoutId(0)),
            pieces: vec![Piece { lo: 0, width: 8 }],
            array: Some((4096, vec![i64::MIN])),
            fixed: None,
            allowed: Some(vec![(5, 1)]),
            default: Some(u64::MAX),
            element_defaults: Vec::new(),
            is_tag: true,
            view: false,
            span: t.formats[0].span,
        }],
        unused: vec![Piece { lo: u32::MAX, width: 64 }],
        reserved: vec![ir::Reserved {
            name: None,
            doc: String::new(),
            pieces: vec![Piece { lo: u32::MAX, width: 64 }],
            after: 99,
        }],
        union: Some(ir::Union {
            tag: "me.x".into(),
            tag_pieces: Vec::new(),
            tag_ty: Type::Enum(ir::EnumId(999)),
            arms: vec![(3, ir::LayoutId(77))],
        }),
        constraints: Vec::new(),
        leaves: Vec::new(),
    });
    if let Some(f) = t.formats.get_mut(0) {
        f.fields[0].ty = Type::Enum(ir::EnumId(999));
        f.fields[1].ty = Type::Switch { tag: 77, arms: vec![(1, Type::Number(ir::NumberId(3)))] };
    }
    t.enums[0].width = 40;
    t.enums[0].else_spellings = vec![None, None, Some("`x`".into())];
    let md = markdown(&t);
    assert!(md.contains("### Layout `Loop`"));
    let _ = html(&t);
}

/// The first cells of the rows of a section's field table, in order.
fn row_names(lines: &[&str]) -> Vec<String> {
    lines
        .iter()
        .skip_while(|l| !l.starts_with("| Field |"))
        .skip(2)
        .take_while(|l| l.starts_with("| "))
        .filter_map(|l| l.split(" | ").next())
        .map(|c| c.trim_start_matches("| ").to_string())
        .collect()
}

/// Issue 14: a layout's bits that nothing declares are listed, as the reserved members of its
/// value that hold them, so a reader sees every bit.
#[test]
fn docs_list_undeclared_bits_of_layouts() {
    let t = match isa_compiler::check_source(FAMILY) {
        Ok(t) => t,
        Err(d) => panic!("{}", isa_compiler::diag::render("family.isa", FAMILY, &d)),
    };
    let md = markdown(&t);
    let header = section(&md, "### Layout `Header`");
    // `low` is 7:0 and `high` 31:24: bits 23:8 are the member `reserved_23_8` of word 0.
    assert_eq!(row(&header, "Reserved member"), ["Reserved member", "Bit width", "Bits", "Word"]);
    assert_eq!(row(&header, "reserved_23_8"), ["reserved_23_8", "16", "23:8", "0"]);
    assert_eq!(header.iter().filter(|l| l.starts_with("| reserved")).count(), 1, "{header:?}");
    let page = html(&t);
    assert!(page.contains("<td><code>reserved_23_8</code></td><td>16</td><td>23:8</td><td>0</td>"), "{page}");
    // Bits an `unused` declares are rows of the field table, not undeclared.
    let t = match isa_compiler::check_source(NESTED) {
        Ok(t) => t,
        Err(d) => panic!("{}", isa_compiler::diag::render("nested.isa", NESTED, &d)),
    };
    let md = markdown(&t);
    assert!(!md.contains("Reserved member"), "{md}");
}

/// Fields a format gets from groups and forms come in inclusion order; the table lists them
/// most significant first, as the reference documents do, while a layout keeps its order.
const FAMILY: &str = r#"
target t {
    word 64
    dialect d { comment ";" }
}

group guarded {
    pred_neg: bool @ 19
    pred: u3 @ 18:16
}

group float_b {
    form r(op) {
        opcode: u13 @ 63:51 is op >> 3
        zero @ 38:28
        rb: u8 @ 27:20
    }
    form i(op) {
        opcode: u7 @ 63:57 is op >> 9
        opcode_lo: u5 @ 55:51 is (op >> 3) & 0x1f
        imm: u20 @ [56, 38:20]
    }
}

format fadd {
    use float_b { r(0x5c58), i(0x3858) }
    zero @ 43:41
    use guarded
    ra: u8 @ 15:8
    rd: u8 @ 7:0
    /// Shares bits 7:0 with `rd`: a tie keeps spec order.
    view rd_view: u8 @ 7:0
    syntax d { "fadd " {rd} ", " {ra} }
}

layout Header : 32 {
    low: u8 @ 7:0
    high: u8 @ 31:24
}
"#;

#[test]
fn docs_format_rows_in_hardware_order() {
    let t = match isa_compiler::check_source(FAMILY) {
        Ok(t) => t,
        Err(d) => panic!("{}", isa_compiler::diag::render("family.isa", FAMILY, &d)),
    };
    // Spec order first, to show the test has something to reorder.
    let spec: Vec<&str> = t.formats[0].fields.iter().map(|f| f.name.as_str()).collect();
    assert_eq!(spec[..4], ["opcode", "zero_38_28", "rb", "zero_43_41"]);
    let md = markdown(&t);
    assert_eq!(
        row_names(&section(&md, "### Format `fadd_r`")),
        ["opcode", "zero_43_41", "zero_38_28", "rb", "pred_neg", "pred", "ra", "rd", "rd_view"]
    );
    // `imm`'s highest bit, 56, puts it between the two opcode fields.
    assert_eq!(
        row_names(&section(&md, "### Format `fadd_i`")),
        ["opcode", "imm", "opcode_lo", "zero_43_41", "pred_neg", "pred", "ra", "rd", "rd_view"]
    );
    assert_eq!(row_names(&section(&md, "### Layout `Header`")), ["low", "high"]);
    let page = html(&t);
    let rb = page.find("<code>rb</code>").unwrap_or_else(|| panic!("{page}"));
    let zero = page.find("<code>zero_43_41</code>").unwrap_or_else(|| panic!("{page}"));
    assert!(zero < rb, "HTML rows in hardware order too");
}
