//! Spec mistakes become located diagnostics (file:line:col and a snippet, rustc style), several
//! per run, and the checker never panics. One snapshot per kind of mistake.

use crate::common::{diagnose, spec};

#[test]
fn grammar_error() {
    insta::assert_snapshot!(diagnose(&spec("enum Op : u2 {\n    add = 0\n    sub 1\n}\n")));
}

#[test]
fn unknown_type() {
    insta::assert_snapshot!(diagnose(&spec(
        "format f {\n    op: Opcode @ 31:28 is 1\n    syntax asm { \"f\" }\n}\n"
    )));
}

#[test]
fn duplicate_definition() {
    insta::assert_snapshot!(diagnose(&spec("enum Op : u1 {\n    a = 0\n}\nenum Op : u1 {\n    b = 1\n}\n")));
}

#[test]
fn duplicate_field() {
    insta::assert_snapshot!(diagnose(&spec(
        "format f {\n    rd: u4 @ 3:0\n    rd: u4 @ 7:4\n    syntax asm { \"f \" {rd} }\n}\n"
    )));
}

#[test]
fn overlapping_fields() {
    insta::assert_snapshot!(diagnose(&spec(
        "format f {\n    op: u4 @ 31:28 is 1\n    rd: u8 @ 7:0\n    rs: u8 @ 10:3\n    syntax asm { \"f \" {rd} \", \" {rs} }\n}\n"
    )));
}

/// `unused @ a, b, c` is one clause for many ranges; each range is checked on its own (the
/// checker once paired ranges with clauses, so a clause's second range went unchecked).
#[test]
fn each_range_of_an_unused_list_is_checked() {
    let ok = spec("format f {\n    op: u4 @ 31:28 is 1\n    rd: u8 @ 7:0\n    unused @ 27:20, 15:8, 19\n    unused @ 18:16\n    syntax asm { \"f \" {rd} }\n}\n");
    assert!(isa_compiler::check_source(&ok).is_ok());
    let out = diagnose(&spec(
        "format f {\n    op: u4 @ 31:28 is 1\n    rd: u8 @ 7:0\n    unused @ 27:20, 15:6\n    unused @ 19:16\n    syntax asm { \"f \" {rd} }\n}\n",
    ));
    assert!(out.contains("fields `rd` and `unused` overlap at bit 6"), "{out}");
    assert!(out.contains("bad.isa:8:5") && out.contains("`unused` uses bits 6..=15"), "{out}");
    assert!(!out.contains("9 |"), "the clause ends at its last range: {out}");
    let wide = diagnose(&spec(
        "format f {\n    op: u4 @ 31:28 is 1\n    unused @ 27:20, 32\n    syntax asm { \"f\" }\n}\n",
    ));
    assert!(wide.contains("outside the 32-bit word"), "{wide}");
}

#[test]
fn field_outside_word() {
    insta::assert_snapshot!(diagnose(&spec(
        "format f {\n    op: u4 @ 35:32 is 1\n    syntax asm { \"f\" }\n}\n"
    )));
}

/// The word is the longest instruction: a format declared wider is an error at its width, not
/// a generated decoder whose shifts overflow (`x` at 95:88 of a 64-bit word).
#[test]
fn format_wider_than_the_word() {
    insta::assert_snapshot!(diagnose(&spec(
        "format wide : 96 {\n    op: u8 @ 31:24 is 0x51\n    x: u8 @ 95:88\n    unused @ 23:0\n    syntax asm { \"wide \" {x} }\n}\n"
    )));
}

/// An enum field's `in` clause that holds none of the values its enum defines leaves no word to
/// decode (`Size` defines 0 and 1; the clause allows 2..=3): an error at the set.
#[test]
fn enum_field_set_holds_no_value_of_its_enum() {
    insta::assert_snapshot!(diagnose(&spec(
        "enum Size : u2 {\n    b32 = 0\n    b64 = 1\n}\nformat f {\n    op: u4 @ 31:28 is 1\n    size: Size @ 1:0 in 2..=3\n    unused @ 27:2\n    syntax asm { \"f\" {size} }\n}\n"
    )));
}

/// A guard reads a field's value, in the printer, the assembler and the checker alike: a
/// signed 4-bit field's values are -8..=7 and an unsigned one's 0..=15, so `x == -9`, `x in
/// {8..=20}` and `y != 99` never hold (or always do), and are errors where written (`x == -1`
/// holds for the bits 0xf: it is no error).
#[test]
fn guard_constant_no_value_holds() {
    insta::assert_snapshot!(diagnose(&spec(
        "format f {\n    x: s4 @ 3:0\n    y: u4 @ 7:4\n    unused @ 31:8\n    syntax asm {\n        | y == 1 && x == -1 => \"m1\"\n        | y == 2 && x == -9 => \"m9\"\n        | y == 3 && x in {8..=20} => \"big\"\n        | y != 99 => \"f \" {x}\n        | _ => \"g\"\n    }\n}\n"
    )));
}

/// `==` or `!=` with a number the field cannot hold is an error at the number wherever it is
/// written, as a set member is (before, only a guard's plain number was: `x == -9223372036854775808`
/// in a guard, `300 == x`, and every constraint's were accepted, and the arm or constraint
/// never held, or always did).
#[test]
fn comparisons_with_a_number_the_field_cannot_hold() {
    insta::assert_snapshot!(diagnose(&spec(
        "format f {\n    op: u4 @ 31:28 is 0\n    x: u8 @ 7:0\n    y: s4 @ 11:8\n    b: bool @ 12\n    unused @ 27:13\n\
         \x20   constraint c \"c\": x != 300 && (y == 8 || b == 2)\n    syntax asm {\n\
         \x20       | x == -9223372036854775808 => \"n\"\n        | 256 == x => \"m\"\n        | _ => \"f \" {x}\n    }\n}\n"
    )));
    // The values at both ends hold: no error.
    isa_compiler::check_source(&spec(
        "format f {\n    op: u4 @ 31:28 is 0\n    x: u8 @ 7:0\n    y: s4 @ 11:8\n    unused @ 27:12\n\
         \x20   constraint c \"c\": x != 255 && y != -8 && y != 7\n    syntax asm {\n\
         \x20       | x == 0 && y == -8 => \"n\"\n        | _ => \"f \" {x} \", \" {y}\n    }\n}\n",
    ))
    .unwrap_or_else(|d| panic!("{d:?}"));
}

/// Sets hold negative members (a signed field's values; before, a syntax error), and a member
/// the field cannot hold is an error where it is written: in a field's `in` clause (its bits
/// are kept: `-3` of an `s4` is 0xd) and in a guard or a constraint, for a signed, an unsigned
/// and a `bool` field; semantics read fields unsigned, so there a negative member is an error.
#[test]
fn set_members_the_field_cannot_hold() {
    insta::assert_snapshot!(diagnose(&spec(
        "format f {\n    op: u16 @ 31:16 is 1\n    b: bool @ 15\n    k: u3 @ 14:12 in {-1, 2}\n    y: s4 @ 11:8 in {-9..=-1, 8}\n    u: u4 @ 7:4\n    x: s4 @ 3:0\n\
         \x20   constraint c \"c\": x in {-8, -12}\n    syntax asm {\n        | x in {-8..=-1, 8..=10} && u in {-1, 16, 3} => \"n\"\n        | b in {2} => \"b\"\n        | _ => \"f\"\n    }\n}\n"
    )));
    // An `s4`'s -3..=1 are the bits 0xd..=0xf and 0..=1 (two's complement), in written order.
    let src = spec("format f {\n    op: u28 @ 31:4 is 1\n    x: s4 @ 3:0 in {-3..=1}\n    syntax asm { \"f \" {x} }\n}\n");
    let t = isa_compiler::check_source(&src).unwrap_or_else(|d| panic!("{d:?}"));
    assert_eq!(t.formats[0].fields[1].allowed, Some(vec![(13, 15), (0, 1)]));
}

/// A number past 64 bits is an error where it is written (before, it was read as 2^64 - 1: a
/// `u64` enum's value, a 64-bit field's `is`, silently), and a number format's argument is a
/// signed 64-bit number (before, `-9223372036854775808` panicked the parser on overflow and
/// `18446744073709551615` was read as -1).
#[test]
fn numbers_past_64_bits_are_errors() {
    for (body, number) in [
        ("enum E : u64 { a = 99999999999999999999999 }\n", "99999999999999999999999"),
        ("enum E : u64 { a = 0x1_0000_0000_0000_0000 }\n", "0x1_0000_0000_0000_0000"),
        (
            "number F = float(sign: 1, exponent: 8, mantissa: 23, bias: 18446744073709551615)\n",
            "18446744073709551615",
        ),
        (
            "number F = float(sign: 1, exponent: 8, mantissa: 23, bias: -9223372036854775809)\n",
            "-9223372036854775809",
        ),
    ] {
        let d = isa_compiler::check_source(&spec(body)).err().unwrap_or_else(|| panic!("accepted: {body}"));
        assert_eq!(d.len(), 1, "{body}");
        assert_eq!(d[0].message, format!("`{number}` does not fit in 64 bits"));
    }
    let largest = "enum E : u64 { a = 18446744073709551615 }\n\
                   number F = float(sign: 1, exponent: 8, mantissa: 23, bias: -9223372036854775808)\n";
    let t = isa_compiler::check_source(&spec(largest)).unwrap_or_else(|d| panic!("{d:?}"));
    assert_eq!(t.enums[0].variants[0].values, isa_compiler::ir::Values::One(u64::MAX));
}

/// A range prints value + shift as a signed 64-bit number: a range whose printed numbers
/// pass it is an error at the spelling (before, `a(0..=18446744073709551615)` printed its last
/// value as `a-1`, and `{v+9223372036854775807}` overflowed in the generator).
#[test]
fn a_range_printed_past_64_bits_is_an_error() {
    insta::assert_snapshot!(diagnose(&spec(
        "enum A : u64 { a(0..=18446744073709551615) }\n\
         enum B : u8 { b(0..=255) \"b{v+9223372036854775807}\" }\n\
         enum C : u8 { c(0..=255) \"c{v+9223372036854775552}\", d(_) }\n"
    )));
}

/// A doc comment before `use g`, in a `fields` run and in a body, is an error at the comment
/// (before: "expected field clause" at `g`, `use` read as a field's name; and "expected
/// `form`, constraint kind, doc" at `use`).
#[test]
fn doc_comment_before_a_use() {
    insta::assert_snapshot!(diagnose(&spec(
        "group g {\n    fields @ 27:24 { a: u4 }\n}\ngroup h {\n    c: u4 @ 3:0\n}\n\
         format f {\n    op: u4 @ 31:28 is 1\n    fields @ 27:20 {\n        /// The operand.\n        use g,\n        b: u4\n    }\n\
         \x20   /// The other.\n    use h\n    unused @ 19:4\n    syntax asm { \"f \" {a} {c} }\n}\n"
    )));
}

#[test]
fn enum_value_does_not_fit() {
    insta::assert_snapshot!(diagnose(&spec("enum Cond : u2 {\n    always = 0\n    never = 4\n}\n")));
}

#[test]
fn enum_value_reused() {
    insta::assert_snapshot!(diagnose(&spec("enum Cond : u2 {\n    always = 0\n    never = 0\n}\n")));
}

#[test]
fn ambiguous_encodings() {
    insta::assert_snapshot!(diagnose(&spec(
        "format add {\n    op: u4 @ 31:28 is 1\n    rd: u8 @ 7:0\n    syntax asm { \"add \" {rd} }\n}\n\
         format sub {\n    op: u2 @ 31:30 is 0\n    rd: u8 @ 7:0\n    syntax asm { \"sub \" {rd} }\n}\n"
    )));
}

#[test]
fn field_width_differs_from_type() {
    insta::assert_snapshot!(diagnose(&spec(
        "enum Op : u3 {\n    a = 0\n}\nformat f {\n    op: Op @ 31:28\n    syntax asm { {op} }\n}\n"
    )));
}

#[test]
fn unknown_name_in_syntax() {
    insta::assert_snapshot!(diagnose(&spec(
        "format f {\n    rd: u8 @ 7:0\n    syntax asm { \"f \" {rs} }\n}\n"
    )));
}

#[test]
fn unknown_dialect_and_template() {
    insta::assert_snapshot!(diagnose(&spec(
        "format f {\n    rd: u8 @ 7:0\n    syntax gas { \"f \" operand(rd) }\n}\n"
    )));
}

#[test]
fn bit_range_written_low_to_high() {
    insta::assert_snapshot!(diagnose(&spec("format f {\n    rd: u8 @ 0:7\n    syntax asm { {rd} }\n}\n")));
}

#[test]
fn several_errors_in_one_run() {
    let out = diagnose(&spec(
        "enum Op : u1 {\n    a = 0\n    b = 2\n}\nformat f {\n    op: Op @ 31\n    x: Nope @ 3:0\n    y: u4 @ 40:37\n    syntax asm { {op} }\n}\n",
    ));
    assert!(out.ends_with("found 3 errors\n"), "{out}");
    insta::assert_snapshot!(out);
}

#[test]
fn no_target() {
    insta::assert_snapshot!(diagnose("enum Op : u1 {\n    a = 0\n}\n"));
}

/// Layouts for the union tests: two 16-bit arms sharing `head.kind`, one with it elsewhere.
const ARMS: &str = "enum Kind : u2 {\n    a = 1\n    b = 2\n}\n\
layout Head : 8 {\n    kind: Kind @ 1:0\n    unused @ 7:2\n}\n\
layout A : 16 {\n    head: Head @ 7:0\n    x: u8 @ 15:8\n}\n\
layout B : 16 {\n    head: Head @ 15:8\n    y: u8 @ 7:0\n}\n\
layout C : 8 {\n    z: u8 @ 7:0\n}\n";

#[test]
fn union_arms_must_share_the_tag() {
    insta::assert_snapshot!(diagnose(&spec(&format!(
        "{ARMS}layout U : 16 = switch head.kind {{ a => A, b => B }} {{ }}\n\
         layout V : 16 = switch head.kind {{ a => A, b => C, b => Nope }} {{ }}\n"
    ))));
}

#[test]
fn unknown_path_in_a_layout_constraint() {
    insta::assert_snapshot!(diagnose(&spec(&format!(
        "{ARMS}layout W : 16 {{\n    head: Head @ 7:0\n    x: u8 @ 15:8\n    \
         constraint c \"x is small\": head.knd == a || x < 4\n}}\n"
    ))));
}

#[test]
fn interleaved_stream_mistakes() {
    let source =
        "target t {\n    word 64\n    dialect asm\n    stream control { every 4; slot slot; pad 0x1 }\n}\n\
        format slot : 21 {\n    stall: u4 @ 3:0\n    syntax asm { {stall} }\n}\n\
        format nop {\n    op: u8 @ 63:56 is 0x50\n    syntax asm { \"nop\" }\n}\n";
    insta::assert_snapshot!(diagnose(source));
}

#[test]
fn layout_that_contains_itself() {
    insta::assert_snapshot!(diagnose(&spec(
        "layout A : 8 {\n    b: B @ 7:0\n}\nlayout B : 8 {\n    a: A @ 7:0\n}\n"
    )));
}

/// Every cycle of layouts is reported once, named from its first layout in declaration order,
/// at the field closing it: a cycle of three, a self-loop and a separate cycle entered from a
/// layout that is on none (the label names only the cycle's layouts, not the way in).
#[test]
fn layout_cycles_each_once_from_their_first_layout() {
    let text = diagnose(&spec(
        "layout A : 8 {\n    b: B @ 7:0\n}\nlayout B : 8 {\n    c: C @ 7:0\n}\nlayout C : 8 {\n    a: A @ 7:0\n}\n\
         layout D : 8 {\n    d: D @ 7:0\n}\n\
         layout P : 8 {\n    e: E @ 7:0\n}\nlayout E : 8 {\n    f: F @ 7:0\n}\nlayout F : 8 {\n    e: E @ 7:0\n}\n",
    ));
    // Lines: HEAD is 4, A's field is 6, B's 9, C's 12, D's 15, P's 18, E's 21, F's 24.
    for (message, at, label) in [
        ("layout `C` contains itself", "bad.isa:12:5", "through A → B → C"),
        ("layout `D` contains itself", "bad.isa:15:5", "through D\n"),
        ("layout `F` contains itself", "bad.isa:24:5", "through E → F\n"),
    ] {
        let one = text
            .split("error: ")
            .find(|e| e.starts_with(message))
            .unwrap_or_else(|| panic!("{message}: {text}"));
        assert!(one.contains(at) && one.contains(label), "{message}: {one}");
    }
    assert!(text.ends_with("found 3 errors\n"), "{text}");
}

/// Garbage never panics the parser or checker.
#[test]
fn arbitrary_text_never_panics() {
    let samples = [
        "",
        "target",
        "target t { word 999 }",
        "format f { x: u65 @ 200:0 }",
        "target t {} format f { x: u8 @ (1/0):0 }",
        "target t {} enum E : u0 { a = 0 }",
        "target t {} format f { x[0]: u2 @ [i, i] }",
        "target t {} template t(a) { | a == => \"x\" }",
        "target t {} format f { a: u4 @ 3:0 syntax default { t(a, a, a) } }",
        "target t { dialect d { comment } } rule r \"x\" { each i: q[i] }",
        "\u{0}\u{ffff}",
    ];
    for s in samples {
        let _ = isa_compiler::check_source(s);
    }
}

mod fuzz {
    use proptest::prelude::*;

    /// `junk` put into vc4.isa at byte `pos` (or the nearest character boundary before it).
    fn mutated(pos: usize, junk: &str) -> String {
        let base = include_str!("../../../isa-specs/vc4.isa");
        let mut cut = pos.min(base.len());
        while !base.is_char_boundary(cut) {
            cut -= 1;
        }
        format!("{}{}{}", &base[..cut], junk, &base[cut..])
    }

    /// Cases of each test below: 50, or `PROPTEST_CASES` when set (the spec fuzzer mutates the
    /// shipped specs at scale: `fuzz --only specs`, README).
    fn cases() -> u32 {
        std::env::var("PROPTEST_CASES").ok().and_then(|s| s.parse().ok()).unwrap_or(50)
    }

    // Random bytes mixed into a valid spec never panic the compiler: cases over the first 600
    // bytes, in three tests (a third of the bytes each) that run side by side.
    proptest! {
        #![proptest_config(ProptestConfig { cases: cases(), ..ProptestConfig::default() })]
        #[test]
        fn mutated_specs_never_panic(pos in 0usize..200, junk in "[ -~]{0,12}") {
            let _ = isa_compiler::check_source(&mutated(pos, &junk));
        }

        #[test]
        fn mutated_specs_never_panic_further(pos in 200usize..400, junk in "[ -~]{0,12}") {
            let _ = isa_compiler::check_source(&mutated(pos, &junk));
        }

        #[test]
        fn mutated_specs_never_panic_furthest(pos in 400usize..600, junk in "[ -~]{0,12}") {
            let _ = isa_compiler::check_source(&mutated(pos, &junk));
        }
    }
}

#[test]
fn empty_range_in_an_in_clause() {
    insta::assert_snapshot!(diagnose(&spec(
        "format f {\n    op: u4 @ 31:28 is 1\n    x: u4 @ 3:0 in 1..=0\n    syntax asm { \"f \" {x} }\n}\n"
    )));
}

/// A field's `in` clause may be written with braces, as membership sets are in expressions:
/// `x: u4 @ 3:0 in {1..=3}` is `in 1..=3` (before, the braces made `0 in {1..=3}` the last
/// bit position: "bit positions must be constant numbers"). Its mistakes are the clause's.
#[test]
fn an_in_clause_in_braces_after_the_bits() {
    let field = |clause: &str| {
        let src = spec(&format!(
            "format f {{\n    op: u4 @ 31:28 is 1\n    x: u4 @ 3:0 {clause}\n    unused @ 27:4\n    syntax asm {{ \"f \" {{x}} }}\n}}\n"
        ));
        let t = isa_compiler::check_source(&src)
            .unwrap_or_else(|d| panic!("{}", isa_compiler::diag::render("t.isa", &src, &d)));
        let x = t.formats[0].fields.iter().find(|f| f.name == "x").expect("x").clone();
        (x.pieces.clone(), x.allowed.clone())
    };
    assert_eq!(field("in {1..=3}"), (field("in 1..=3").0, Some(vec![(1, 3)])));
    assert_eq!(field("in {1, 5..=6}").1, Some(vec![(1, 1), (5, 6)]));
    // In a `fields` run, with its brace-delimited items around it.
    let run = spec("format f {\n    op: u4 @ 31:28 is 1\n    fields @ 27:20 { a: u4 in {2..=3}, b: u4 }\n    unused @ 19:0\n    syntax asm { \"f \" {a} {b} }\n}\n");
    let t = isa_compiler::check_source(&run).unwrap_or_else(|d| panic!("{d:?}"));
    assert_eq!(t.formats[0].fields.iter().find(|f| f.name == "a").expect("a").allowed, Some(vec![(2, 3)]));
    insta::assert_snapshot!(diagnose(&spec(
        "format f {\n    op: u4 @ 31:28 is 1\n    x: u4 @ 3:0 in {1..=0}\n    syntax asm { \"f \" {x} }\n}\n"
    )));
}

#[test]
fn empty_range_in_a_syntax_arm() {
    insta::assert_snapshot!(diagnose(&spec(
        "format f {\n    x: u4 @ 3:0\n    syntax asm {\n        | x in {7..=5} => \"f \" {x}\n        | _ => \"g\"\n    }\n}\n"
    )));
}

/// Set numbers are written unsigned: a `u64` range empty as written says so in its own
/// numbers (before, 2^63 and up showed as negative `i64`s).
#[test]
fn empty_u64_range_in_a_syntax_arm() {
    insta::assert_snapshot!(diagnose(
        "target t {\n    word 128\n    dialect asm\n}\nformat f {\n    op: u4 @ 127:124 is 1\n    x: u64 @ 63:0\n    unused @ 123:64\n    syntax asm {\n        | x in {0x8000000000000001..=0x8000000000000000} => \"f \" {x}\n        | _ => \"g\"\n    }\n}\n"
    ));
}

/// A `u64` range across 2^63 holds values (before, it was "empty range: the first value is
/// above the last", 9223372036854775807..=-9223372036854775808): it is the two ranges of the
/// `i64`s a guard reads a 64-bit field's raw bits as.
#[test]
fn a_u64_range_across_2_63_is_two_guard_ranges() {
    let src = "target t {\n    word 128\n    dialect asm\n}\nformat f {\n    op: u4 @ 127:124 is 1\n    x: u64 @ 63:0\n    unused @ 123:64\n    syntax asm {\n        | x in {0x7ffffffffffffffe..=0x8000000000000001} => \"mid\"\n        | _ => \"f \" {x}\n    }\n}\n";
    let t = isa_compiler::check_source(src)
        .unwrap_or_else(|d| panic!("{}", isa_compiler::diag::render("t.isa", src, &d)));
    let Some(isa_compiler::ir::CondExpr::In(_, ranges)) = &t.formats[0].syntax[0].parts[0].arms[0].guard
    else {
        panic!("{:?}", t.formats[0].syntax[0].parts[0].arms[0].guard)
    };
    assert_eq!(ranges, &[(i64::MAX - 1, i64::MAX), (i64::MIN, i64::MIN + 1)]);
}

#[test]
fn empty_range_in_a_match_arm() {
    insta::assert_snapshot!(diagnose(&spec(
        "fn pick(a: u32) -> u32 {\n    match a {\n        9..=2 => 1,\n        _ => 0,\n    }\n}\n\
         format f {\n    x: u4 @ 3:0\n    syntax asm { \"f \" {x} }\n}\n"
    )));
}

#[test]
fn format_that_matches_no_word() {
    insta::assert_snapshot!(diagnose(&spec(
        "format f {\n    op: u2 @ 31:30 in 4..=7\n    x: u4 @ 3:0\n    syntax asm { \"f \" {x} }\n}\n"
    )));
}

/// 400 formats that all match every word: 79,800 ambiguous pairs. The first 50 errors are shown,
/// then the count of the rest; past the cap each format stops at its first ambiguity, so the
/// count is one per format (399 formats have a later partner; the first has 349 more pairs).
#[test]
fn errors_are_capped() {
    let mut body = String::new();
    for i in 0..400 {
        body.push_str(&format!(
            "format f{i} {{\n    x: u8 @ 7:0\n    syntax asm {{ \"f{i} \" {{x}} }}\n}}\n"
        ));
    }
    let text = diagnose(&spec(&body));
    assert_eq!(text.matches("\nerror: ").count() + usize::from(text.starts_with("error: ")), 50);
    assert!(text.starts_with("error: encodings `f0` and `f1` are ambiguous\n"), "{text}");
    assert!(
        text.ends_with("\n... and 399 more errors\n\nfound 449 errors\n"),
        "{}",
        &text[text.len() - 200..]
    );
}

/// Checking grows near-linearly with an enum's size: 65,536 values, each its own variant.
#[test]
fn large_enum_checks() {
    let mut body = String::from("enum Big : u16 {\n");
    for v in 0..65_536u32 {
        body.push_str(&format!("    v{v} = {v}\n"));
    }
    body.push_str("}\nformat f {\n    x: Big @ 15:0\n    syntax asm { \"f \" {x} }\n}\n");
    let t = isa_compiler::check_source(&spec(&body)).expect("the spec checks");
    assert_eq!(t.enums[0].variants.len(), 65_536);
    assert_eq!(t.enums[0].variants[65_535].values, isa_compiler::ir::Values::One(65_535));
    // A repeated value among them is still found, with the variant that has it.
    body.insert_str(body.find("}\nformat").unwrap_or(0), "    again = 40000\n");
    let text = diagnose(&spec(&body));
    assert!(text.starts_with("error: `again` reuses a value of `v40000`\n"), "{text}");
}

/// A file that starts with a UTF-8 byte order mark reads as if it had none (rustc skips it too):
/// it checks, and a mistake on its first line is at the column the editor shows.
#[test]
fn byte_order_mark_is_skipped() {
    let good = format!("\u{feff}{}", spec("format f {\n    x: u4 @ 3:0\n    syntax asm { \"f \" {x} }\n}\n"));
    let t = isa_compiler::check_source(&good).expect("a spec with a byte order mark checks");
    assert_eq!((t.name.as_str(), t.formats.len()), ("t", 1));
    insta::assert_snapshot!(diagnose("\u{feff}target t { word 33 }\n"));
}

/// Templates calling each other print without end: the generated disassembler would recurse
/// until the stack overflows. The cycle is an error showing both calls.
#[test]
fn templates_that_call_each_other() {
    insta::assert_snapshot!(diagnose(&spec(
        "format f {\n    x: u4 @ 3:0\n    syntax asm { \"f \" a }\n}\n\
         template a {\n    | x == 1 => \"(\" b \")\"\n    | _ => {x}\n}\n\
         template b {\n    | x == 1 => \"[\" a \"]\"\n    | _ => {x}\n}\n"
    )));
}

#[test]
fn template_that_calls_itself_through_two_others() {
    let text = diagnose(&spec(
        "format f {\n    x: u4 @ 3:0\n    syntax asm { \"f \" c }\n}\n\
         template c { [x == 1: d] {x} }\n\
         template d { [x == 2: e] }\n\
         template e { [x == 3: c] \".\" }\n\
         template g { [x == 4: g] }\n",
    ));
    assert!(text.starts_with("error: templates `c`, `d` and `e` call each other in a cycle\n"), "{text}");
    assert!(text.contains("\nerror: template `g` calls itself\n"), "{text}");
    assert!(text.ends_with("found 2 errors\n"), "{text}");
}

/// A cycle entered from a template on none is named from its first template by name, with
/// every call on it; the template calling into it is no error.
#[test]
fn template_cycle_entered_from_outside() {
    let text = diagnose(&spec(
        "format f {\n    x: u4 @ 3:0\n    syntax asm { \"f \" a }\n}\n\
         template a { [x == 1: c] {x} }\n\
         template c { [x == 2: b] }\n\
         template b { [x == 3: c] \".\" }\n",
    ));
    assert!(
        text.starts_with("error: templates `b` and `c` call each other\n   --> bad.isa:11:23\n"),
        "{text}"
    );
    assert!(text.contains("`b` calls `c` ...") && text.contains("... `c` calls `b`"), "{text}");
    assert!(text.ends_with("found 1 error\n"), "{text}");
}

#[test]
fn array_element_below_bit_zero() {
    // Element 4 of `7 - 2 * i +: 2` would start at bit -1.
    insta::assert_snapshot!(diagnose(&spec(
        "format f {\n    op: u8 @ 31:24 is 1\n    x[5]: u2 @ 7 - 2 * i +: 2\n    syntax asm { \"f \" {x[0]} }\n}\n"
    )));
}

#[test]
fn array_element_outside_word() {
    // Element 3 of `8 + 8 * i +: 8` is at bits 39:32 of a 32-bit word.
    insta::assert_snapshot!(diagnose(&spec(
        "format f {\n    op: u4 @ 3:0 is 1\n    x[4]: u8 @ 8 + 8 * i +: 8\n    syntax asm { \"f \" {x[0]} }\n}\n"
    )));
}

#[test]
fn array_bits_without_a_fixed_stride() {
    insta::assert_snapshot!(diagnose(&spec(
        "format f {\n    op: u4 @ 31:28 is 1\n    x[3]: bool @ i * i\n    syntax asm { \"f \" {x[0]} }\n}\n"
    )));
}

#[test]
fn format_field_wider_than_a_value() {
    // A format field's value is a `u64`: a 72-bit layout cannot be one.
    let source = "target t {\n    word 128\n    dialect asm\n}\nlayout Big : 72 {\n    a: u64 @ 63:0\n    b: u8 @ 71:64\n}\nformat f {\n    op: u8 @ 127:120 is 1\n    big: Big @ [71:64, 63:0]\n    syntax asm { \"f\" }\n}\n";
    insta::assert_snapshot!(diagnose(source));
}

/// `reserved` marks an encoding; a data layout's reserved bits are `unused`.
#[test]
fn reserved_is_for_encodings() {
    let out = diagnose(&spec("layout L : 32 {\n    reserved \"no\"\n    a: u32 @ 31:0\n}\n"));
    assert!(
        out.contains("error: `reserved` marks an encoding: a layout's reserved bits are `unused`"),
        "{out}"
    );
    assert!(out.contains("--> bad.isa:6:5"), "{out}");
}

/// A reserved format keeps its reason and its own syntax; dialects it gives none do not borrow
/// another's (they print the raw directive), unlike an ordinary format's.
#[test]
fn reserved_formats_are_shown_only_where_they_say() {
    let source = "target t {\n    word 32\n    dialect a\n    dialect b\n}\n\
                  format odd {\n    reserved \"opcode 3 is reserved\"\n    op: u2 @ 31:30 is 3\n    x: u30 @ 29:0\n    syntax b { \"odd \" {x} }\n}\n\
                  format even {\n    op: u2 @ 31:30 is 0\n    x: u30 @ 29:0\n    syntax b { \"even \" {x} }\n}\n";
    let t = isa_compiler::check_source(source)
        .unwrap_or_else(|d| panic!("{}", isa_compiler::diag::render("t.isa", source, &d)));
    let (odd, even) = (&t.formats[0], &t.formats[1]);
    assert_eq!(odd.reserved.as_deref(), Some("opcode 3 is reserved"));
    assert_eq!(even.reserved, None);
    // Dialect `a` (index 0): the reserved format has no syntax there, the other borrows `b`'s.
    assert!(odd.syntax[0].parts.is_empty());
    assert!(!odd.syntax[1].parts.is_empty());
    assert!(!even.syntax[0].parts.is_empty());
}

/// Found by the spec fuzzer (generated spec #2 of the integration slice, seed 0x15_0012_0014):
/// `unused @ 92:4` in a 128-bit format was "bit positions must be constant non-negative
/// numbers"; each wrong piece now says what is wrong with it.
#[test]
fn each_wrong_bit_piece_says_why() {
    let head = "target t {\n    word 128\n    dialect asm\n}\n";
    let one = |bits: &str| {
        diagnose(&format!("{head}format f {{\n    op: u4 @ 127:124 is 1\n    unused @ {bits}\n    syntax asm {{ \"f\" }}\n}}\n"))
    };
    let wide = one("92:4");
    assert!(wide.contains("error: a bit range of 89 bits: a piece is at most 64 bits wide"), "{wide}");
    assert!(wide.contains("bad.isa:7:14"), "{wide}");
    assert!(wide.contains("split it into pieces"), "{wide}");
    let below = one("3 - 5 +: 2");
    assert!(below.contains("error: bit -2 is below bit 0"), "{below}");
    let empty = one("4 +: 0");
    assert!(empty.contains("error: a bit range of no bits"), "{empty}");
    let far = one("1048576");
    assert!(far.contains("error: bit 1048576 is beyond the last bit a spec can name"), "{far}");
    let name = one("x");
    assert!(name.contains("error: bit positions must be constant numbers"), "{name}");
}

/// Found by the spec fuzzer's full run (seed 20261125, generated spec #187): `enum E1 : u1 {}`
/// was accepted, and a format with a field of that type compiled but never decoded a word.
#[test]
fn an_enum_without_values_is_an_error() {
    let d = diagnose(&spec(
        "enum E1 : u1 {\n}\n\nformat f {\n    op: u3 @ 31:29 is 0\n    x: E1 @ 28\n    unused @ 27:0\n    syntax asm { \"f \" {x} }\n}\n",
    ));
    assert!(d.contains("error: enum `E1` has no values"), "{d}");
    assert!(d.contains("bad.isa:5:6"), "{d}");
    assert!(d.contains("its format would never decode"), "{d}");
}

/// Per-element state in an execute block outside `each element` (an execute block runs once
/// per instruction), `element` there too, and `each element` in a machine without elements.
#[test]
fn per_element_state_outside_each_element() {
    insta::assert_snapshot!(diagnose(&spec(
        "machine {\n    elements 4\n    acc[2]: u32 per element\n    pc: u32\n}\n\
         format f {\n    op: u4 @ 31:28 is 1\n    syntax asm { \"f\" }\n    \
         execute {\n        acc[0] = 1;\n        pc = element;\n        each element { acc[1] = element; }\n        \
         pc = in_element(3, acc[1]) + (if any(acc[0] == 2) then 1 else 0);\n    }\n}\n"
)));
}

#[test]
fn bad_lengths() {
    // Lengths not ascending to the format's width; a length field past the shortest length; a
    // length field in a data layout.
    insta::assert_snapshot!(diagnose(&spec(
        "format a : 32 {\n    op: u7 @ 6:0 is 1\n    l: bool @ 7 length { 32, 16 }\n    x: u24 @ 31:8\n    syntax asm { \"a\" }\n}\n\
         format b : 32 {\n    op: u7 @ 6:0 is 2\n    l: bool @ 20 length { 16, 32 }\n    x: u24 @ [31:21, 19:7]\n    syntax asm { \"b\" }\n}\n\
         layout d : 8 {\n    l: bool @ 0 length { 8 }\n    unused @ 7:1\n}\n"
    )));
}

/// `for`: its bounds are u32 expressions, its variable a u32 local of its body alone, which
/// no assignment writes (assignments write machine state).
#[test]
fn for_loop_mistakes_are_located() {
    insta::assert_snapshot!(diagnose(&spec(
        "machine {\n    r[4]: u32\n    pc: u32\n}\n\
         format f {\n    op: u4 @ 31:28 is 1\n    n: u2 @ 1:0\n    syntax asm { \"f\" }\n    \
         execute {\n        for k in 0..(n == 1) { r[k] = k; }\n        for j in 0..=u32(n) { j = 1; }\n        pc = k;\n    }\n}\n"
    )));
}

/// Found by review: a loop bound of another integer type was converted unsaid (`0..acc`, a
/// u64, cut to 32 bits), and a number past 32 bits where a u32 is wanted was 0 (`0..4294967296`
/// ran nothing, `pc = 4294967296` wrote 0). Each is an error at it; such a number where no type
/// is wanted is a u64 (`let big = 4294967296; acc = big;` checks).
#[test]
fn for_loop_bounds_and_numbers_past_32_bits_are_located() {
    insta::assert_snapshot!(diagnose(&spec(
        "machine {\n    pc: u32\n    acc: u64\n}\n\
         format f {\n    op: u4 @ 31:28 is 1\n    syntax asm { \"f\" }\n    \
         execute {\n        for k in 0..4294967296 { pc = k; }\n        for k in 0..acc { pc = k; }\n        \
         for k in i32(pc)..=4294967295 { pc = k; }\n        pc = 4294967296;\n        \
         let big = 4294967296;\n        acc = big + 1;\n    }\n}\n"
    )));
}

/// `for k in lo..hi` runs its body for each k from lo up to hi (`..=`: hi included), in order;
/// the generated interpreter loops so.
#[test]
fn for_loops_lower_to_rust_loops() {
    let src = spec(
        "machine {\n    r[4]: u32\n    pc: u32\n}\n\
         format f {\n    op: u4 @ 31:28 is 1\n    n: u2 @ 1:0\n    syntax asm { \"f\" }\n    \
         execute {\n        for k in 1..4 { r[k] = k * 2; }\n        for j in 0..=u32(n) { pc = pc + j; }\n    }\n}\n",
    );
    let rust = match isa_compiler::compile("t.isa", &src) {
        Ok(out) => out.rust,
        Err(rendered) => panic!("{rendered}"),
    };
    assert!(rust.contains("for local_k in (1u32)..(4u32)"), "{rust}");
    assert!(rust.contains("..=("), "{rust}");
}

#[test]
fn each_element_without_elements() {
    insta::assert_snapshot!(diagnose(&spec(
        "machine {\n    acc: u32 per element\n    pc: u32\n}\n\
         format f {\n    op: u4 @ 31:28 is 1\n    syntax asm { \"f\" }\n    \
         execute {\n        each element { pc = 1; }\n        pc = u32(all(pc == 1));\n    }\n}\n"
    )));
}

#[test]
fn variable_length_needs_little_endian() {
    insta::assert_snapshot!(diagnose(
        "target t {\n    word 32\n    byte_order big\n    dialect asm\n}\n\
         format short : 16 {\n    op: u16 @ 15:0 is 1\n    syntax asm { \"s\" }\n}\n\
         format long {\n    op: u16 @ 15:0 is 2\n    x: u16 @ 31:16\n    syntax asm { \"l\" }\n}\n"
    ));
}

#[test]
fn ambiguity_across_lengths() {
    // A 2-byte and a 4-byte encoding that a stream's first bytes could both start: 0x88 is `a`,
    // and the first 4 bytes of `b` with x = 8.
    insta::assert_snapshot!(diagnose(
        "target t {\n    word 32\n    byte_order little\n    dialect asm\n}\n\
         format a : 16 {\n    op: u8 @ 7:0 is 0x88\n    unused @ 15:8\n    syntax asm { \"a\" }\n}\n\
         format b {\n    op: u4 @ 3:0 is 8\n    x: u28 @ 31:4\n    syntax asm { \"b \" {x} }\n}\n"
    ));
}

/// The spec fuzzer's `vc4.isa` mutant: a float constant of the semantics that f32 cannot hold
/// (the generator panicked on the infinite literal).
#[test]
fn a_float_constant_too_large_for_f32() {
    let d = diagnose(&spec(
        "machine {\n    pc: u32\n    f: f32\n}\n\
         format f {\n    op: u4 @ 31:28 is 1\n    syntax asm { \"f\" }\n    \
         execute {\n        f = 1000000000000000000000000000000000000000000.0;\n    }\n}\n",
    ));
    assert!(d.contains("1000000000000000000000000000000000000000000 does not fit a 32-bit float"), "{d}");
    assert!(d.contains("bad.isa:13:13"), "{d}");
}

/// Opcode bits past the shortest length are the instruction's own, read as zero in a short
/// form: `neg` (operation 0) and `abs` (2) in bits 35:34 are told apart at every length, but a
/// 6-byte-only `wide` whose operation is 0 there is a short `neg` followed by anything.
#[test]
fn fixed_bits_past_the_shortest_length() {
    let head = "target t {\n    word 48\n    byte_order little\n    dialect asm\n}\n";
    let unary = |name: &str, operation: u32, length: &str| {
        format!(
            "format {name} : 48 {{\n    op: u8 @ 7:0 is 0x0a\n    {length}\n    x: u7 @ 14:8\n    operation: u2 @ 35:34 is {operation}\n    unused @ [47:36, 33:16]\n    syntax asm {{ \"{name} \" {{x}} }}\n}}\n"
        )
    };
    let varlen = "l: bool @ 15 length { 32, 48 }";
    let ok = format!("{head}{}{}", unary("neg", 0, varlen), unary("abs", 2, varlen));
    assert!(isa_compiler::check_source(&ok).is_ok(), "{}", diagnose(&ok));
    let clash = format!("{head}{}{}", unary("neg", 0, varlen), unary("wide", 0, "l: bool @ 15 is false"));
    let text = diagnose(&clash);
    assert!(text.contains("encodings `neg` and `wide` are ambiguous"), "{text}");
}

/// An `alias` arm is never printed, so a syntax of aliases only could print nothing.
#[test]
fn a_syntax_of_alias_arms_only() {
    let d = diagnose(&spec(
        "format f {\n    op: u4 @ 31:28 is 1\n    x: u4 @ 3:0\n    \
         syntax asm {\n        | alias _ => \"g \" {x}\n    }\n}\n",
    ));
    assert!(
        d.contains(
            "only `alias` arms of this syntax apply to format `f`: the printer needs an arm it writes"
        ),
        "{d}"
    );
    assert!(d.contains("bad.isa:8:16"), "{d}");
    // A field called `alias` is still a guard.
    let ok = spec(
        "format f {\n    op: u3 @ 31:29 is 1\n    alias: bool @ 28\n    x: u4 @ 3:0\n    \
         syntax asm {\n        | alias => \"g.a \" {x}\n        | alias && x == 1 => \"h\"\n        | _ => \"g \" {x}\n    }\n}\n",
    );
    assert!(isa_compiler::check_source(&ok).is_ok(), "{ok}");
}

/// The spec fuzzer's finding (vc4.isa with `read_a`'s arms mutated to `0..=32` and `31`): an
/// arm whose values earlier arms already match passed `check`, and rustc rejected the generated
/// `match` (unreachable pattern). Each such value set, and a `_` after arms matching every value
/// of the scrutinee's type, is an error at the arm.
#[test]
fn unreachable_match_arm() {
    insta::assert_snapshot!(diagnose(&spec(
        "fn pick(a: u32) -> u32 {\n    match a {\n        0..=32 => 1,\n        31 => 2,\n        33, 40..=50, 45 => 3,\n        0..=4294967295 => 4,\n        _ => 0,\n    }\n}\n\
         format f {\n    x: u4 @ 3:0\n    syntax asm { \"f \" {x} }\n}\n"
    )));
}

/// A `match` or `in` set over a float or a bool passed `check`, and rustc rejected the
/// generated `match` (integer patterns on an `f32`); so did a pattern past the matched type
/// (`3000000000` on an `i32`: rustc's overflowing literal). Each is an error where it is written.
#[test]
fn matches_over_floats_bools_and_values_past_the_type_are_located() {
    let d = diagnose(&spec(
        "fn pick_f(a: f32) -> u32 {\n    match a {\n        0 => 1,\n        _ => 0,\n    }\n}\n\
         fn pick_g(a: bool) -> bool {\n    a in {1}\n}\n\
         fn pick_h(a: i32, b: u32) -> u32 {\n    match a {\n        0..=3000000000 => 1,\n        _ => u32(b in {7, 4294967296}),\n    }\n}\n\
         format f {\n    x: u4 @ 3:0\n    syntax asm { \"f \" {x} }\n}\n",
    ));
    for (at, message) in [
        ("bad.isa:6:11", "a value of type `f32` cannot be matched against numbers"),
        ("bad.isa:12:5", "a value of type `bool` cannot be matched against numbers"),
        ("bad.isa:16:9", "3000000000 is past the matched value's largest, 2147483647"),
        ("bad.isa:17:27", "4294967296 is past the matched value's largest, 4294967295"),
    ] {
        assert!(
            d.contains(&format!("error: {message}\n  --> {at}\n"))
                || d.contains(&format!("error: {message}\n   --> {at}\n")),
            "{message} at {at}:\n{d}"
        );
    }
    assert!(d.contains("match its bits: `bits(x)`") && d.contains("test it with `if`"), "{d}");
    assert!(d.ends_with("found 4 errors\n"), "{d}");
    // Matching the bits, and patterns within the type, check.
    let ok = spec(
        "fn pick_f(a: f32) -> u32 {\n    match bits(a) {\n        0 => 1,\n        _ => 0,\n    }\n}\n\
         fn pick_h(a: i32) -> u32 {\n    match a {\n        0..=2147483647 => 1,\n        _ => 0,\n    }\n}\n\
         format f {\n    x: u4 @ 3:0\n    syntax asm { \"f \" {x} }\n}\n",
    );
    assert!(isa_compiler::check_source(&ok).is_ok(), "{ok}");
}

/// The spec fuzzer's finding (a generated spec whose target was renamed `dialect`): the
/// target's type `Dialect` clashed with the generated `Dialect` enum and rustc failed (E0428).
#[test]
fn target_named_like_a_generated_type() {
    let text = diagnose(
        "target dialect {\n    word 32\n    dialect asm\n}\nformat f {\n    x: u4 @ 3:0\n    syntax asm { \"f \" {x} }\n}\n",
    );
    assert!(
        text.starts_with(
            "error: the target's Rust type `Dialect` has the name of a type every generated target has\n  --> bad.isa:1:8\n"
        ),
        "{text}"
    );
    assert!(text.ends_with("found 1 error\n"), "{text}");
}

/// Found by the spec fuzzer (a generated spec mutated): a format named `dialect` generated a
/// second type `Dialect` beside the target's dialect enum (rustc E0428); enums alike.
#[test]
fn format_or_enum_named_like_a_generated_type() {
    let text = diagnose(&spec(
        "format dialect {\n    x: u4 @ 3:0\n    syntax asm { \"f \" {x} }\n}\nenum instruction : u1 {\n    a = 0\n    b = 1\n}\n",
    ));
    assert!(
        text.contains(
            "error: the format's Rust type `Dialect` has the name of a type every generated target has\n  --> bad.isa:5:8\n"
        ),
        "{text}"
    );
    assert!(
        text.contains(
            "error: the enum's Rust type `Instruction` has the name of a type every generated target has\n  --> bad.isa:9:6\n"
        ),
        "{text}"
    );
    assert!(text.ends_with("found 2 errors\n"), "{text}");
}

/// Two names that differ only where CamelCase loses it (`f0` and `F0`) generate one Rust name
/// twice (rustc: E0428 for types, E0428/E0124-like duplicates for enum variants): the checker
/// says so at the second name, pointing at the first (found by the spec fuzzer's issue 14 note).
#[test]
fn names_that_are_one_rust_name_in_camel_case() {
    let text = diagnose(&spec(
        "enum Op : u2 {\n    f0 = 0\n    F0 = 1\n    a_b = 2\n    aB = 3\n}\n\
         format f0 {\n    op: u1 @ 31 is 0\n    x: u31 @ 30:0\n    syntax asm { \"a \" {x} }\n}\n\
         format F0 {\n    op: u1 @ 31 is 1\n    x: u31 @ 30:0\n    syntax asm { \"b \" {x} }\n}\n",
    ));
    assert!(
        text.contains(
            "error: enum values `f0` and `F0` of `Op` are both `F0` in the generated Rust\n  --> bad.isa:7:5\n"
        ),
        "{text}"
    );
    assert!(
        text.contains(
            "error: enum values `a_b` and `aB` of `Op` are both `AB` in the generated Rust\n  --> bad.isa:9:5\n"
        ),
        "{text}"
    );
    assert!(
        text.contains(
            "error: the format `f0` and the format `F0` are both the Rust type `F0`\n   --> bad.isa:16:8\n"
        ),
        "{text}"
    );
    assert!(text.ends_with("found 3 errors\n"), "{text}");
}

/// The same for snake_case, where acronyms are one word (`NOP` → `nop`): operations of one
/// enum, functions, hooks and operation enums whose generated methods would be one method
/// twice (rustc: E0201, E0428) are located errors at the second name.
#[test]
fn names_that_are_one_rust_name_in_snake_case() {
    let text = diagnose(&spec(
        "enum Op : u2 (a: u32) -> u32 {\n    NOP = 0\n    nop = 1 => a\n}\n\
         enum a_b_c : u1 (a: u32) -> u32 {\n    x = 0\n}\n\
         enum abc : u1 (a: u32) -> u32 {\n    y = 0\n}\n\
         machine {\n    r: u32\n}\n\
         fn readA() -> u32 {\n    r\n}\n\
         fn read_a() -> u32 {\n    r\n}\n\
         hook fetchX() -> u32\nhook fetch_x() -> u32\n\
         format f {\n    op: Op @ 31:30\n    x: u30 @ 29:0\n    syntax asm { \"f \" {x} }\n}\n",
    ));
    let expect = [
        "error: operations `NOP` and `nop` of `Op` are both the method `…_nop` in the generated Rust\n  --> bad.isa:7:5\n",
        "error: the enums `a_b_c` and `abc` are both the methods `apply_abc` in the generated Rust\n   --> bad.isa:12:6\n",
        "error: the functions `readA` and `read_a` are both the method `read_a` in the generated Rust\n   --> bad.isa:21:4\n",
        "error: the hooks `fetchX` and `fetch_x` are both the method `fetch_x` in the generated Rust\n   --> bad.isa:25:6\n",
    ];
    for e in expect {
        assert!(text.contains(e), "{e}\nnot in\n{text}");
    }
    assert!(text.ends_with("found 4 errors\n"), "{text}");
}

/// An `any_order`'s separator stands between the groups written: a blank one cannot tell them
/// apart (a blank reads any run of blanks or none), and a group that writes it too would
/// double it.
#[test]
fn a_misused_any_order_separator() {
    let format = |groups: &str| {
        spec(&format!(
            "format f {{\n    op: u4 @ 31:28 is 1\n    a: bool @ 0\n    b: bool @ 1\n    unused @ 27:2\n    \
             syntax asm {{ \"f \" any_order {groups} }}\n}}\n"
        ))
    };
    let d = diagnose(&format("separator \", \" { [a: \"a\"] [b: \", b\"] }"));
    assert!(d.contains("this group writes the separator `, ` itself"), "{d}");
    assert!(d.contains("bad.isa:10:59"), "{d}");
    let d = diagnose(&format("separator \", \" { [a: \"a, \"] [b: \"b\"] }"));
    assert!(d.contains("this group writes the separator `, ` itself"), "{d}");
    let d = diagnose(&format("separator \" \" { [a: \"a\"] [b: \"b\"] }"));
    assert!(d.contains("an `any_order` separator needs text other than blanks"), "{d}");
    assert!(d.contains("bad.isa:10:43"), "{d}");
    let ok = format("separator \", \" { [a: \"a\"] [b: \"b\"] }");
    assert!(isa_compiler::check_source(&ok).is_ok(), "{}", diagnose(&ok));
}

/// A mark's `only when { field values }` tests fields of every encoding it names: one the
/// named encodings lacks, a field given no numbers, and a condition without `formats` are
/// each located errors; the well-formed mark checks.
#[test]
fn mark_conditions_are_checked() {
    let target = |mark: &str| {
        format!(
            "target m {{\n    word 32\n    dialect asm\n    stream control {{\n        every 2; slot sched; pad 0x0\n        mark reuse {{ text \".reuse\"; operands ra }}\n        {mark}\n    }}\n}}\n\
             format sched : 16 {{\n    reuse[1]: bool @ 0\n    unused @ 15:1\n    syntax asm {{ \"[]\" }}\n}}\n\
             format nop {{\n    op: u8 @ 31:24 is 0\n    unused @ 23:0\n    syntax asm {{ \"nop\" }}\n}}\n\
             format add {{\n    op: u8 @ 31:24 is 1\n    unused @ 23:16\n    ra: u8 @ 15:8\n    rb: u8 @ 7:0\n    syntax asm {{ \"add r\" {{ra}} \", r\" {{rb}} }}\n}}\n"
        )
    };
    assert!(isa_compiler::check_source(&target("mark reuse { formats add; only when { ra 0, 1 } }")).is_ok());
    let out = diagnose(&target("mark reuse { formats add, nop; only when { ra 0 } }"));
    assert!(out.contains("format `nop` has no field `ra`") && out.contains("bad.isa:7:52"), "{out}");
    let out = diagnose(&target("mark reuse { formats add; only when { ra \"zero\" } }"));
    assert!(out.contains("`only when { field 1, 2 }` gives each field its values"), "{out}");
    let out = diagnose(&target("mark reuse { text \".r\"; operands ra; only when { ra 0 } }"));
    assert!(out.contains("`only when` needs the formats it chooses among"), "{out}");
}

/// A spec nested past `MAX_NESTING` levels (brackets, optional groups, operators) is an error
/// where it passes them; before, the checker's recursive walks overflowed the stack and
/// aborted the process (3,000 parentheses, 2,000 `!`, 8,000 `&&`, 2,000 optional groups).
/// Each case runs on a thread of 2 MiB of stack, as tests do, and must return.
#[test]
fn deep_nesting_is_an_error_not_a_stack_overflow() {
    let n = 3000;
    let cases = [
        format!("format f {{\n    op: u32 @ 31:0 is {}1{}\n    syntax asm {{ \"f\" }}\n}}\n", "(".repeat(n), ")".repeat(n)),
        format!("format f {{\n    op: u32 @ 31:0 is 1\n    syntax asm {{ | {}(op == 1) => \"f\" | _ => \"g\" }}\n}}\n", "!".repeat(n)),
        format!(
            "format f {{\n    op: u28 @ 31:4 is 1\n    x: u4 @ 3:0\n    syntax asm {{ | {} => \"f\" | _ => \"g\" {{x}} }}\n}}\n",
            vec!["x != 1"; 3 * n].join(" && ")
        ),
        format!(
            "format f {{\n    op: u28 @ 31:4 is 1\n    x: u4 @ 3:0\n    syntax asm {{ {}\"x\"{} }}\n}}\n",
            "[x != 0: ".repeat(n),
            "]".repeat(n)
        ),
    ];
    for body in cases {
        let src = spec(&body);
        let messages = std::thread::Builder::new()
            .stack_size(2 << 20)
            .spawn(move || match isa_compiler::check_source(&src) {
                Ok(_) => Vec::new(),
                Err(d) => d.iter().map(|d| d.message.clone()).collect::<Vec<_>>(),
            })
            .expect("thread")
            .join()
            .expect("no panic");
        assert_eq!(messages, ["nested too deeply"], "{}", &body[..60]);
    }
    // 100 levels of each are fine, on such a thread too.
    let src = spec(&format!(
        "format f {{\n    op: u28 @ 31:4 is {}1{}\n    x: u4 @ 3:0\n    syntax asm {{ | {} => \"f\" | _ => \"g\" {{x}} }}\n}}\n",
        "(".repeat(100),
        ")".repeat(100),
        vec!["x != 1"; 100].join(" && ")
    ));
    std::thread::Builder::new()
        .stack_size(2 << 20)
        .spawn(move || isa_compiler::check_source(&src).map(|_| ()).unwrap_or_else(|d| panic!("{d:?}")))
        .expect("thread")
        .join()
        .expect("no panic");
}

/// A let is written out where it is named: a chain of `let a = b + b` doubles at each step,
/// a chain of `let a = b + 1` is as deep as it is long, and nested calls of `let f(x) = x + x`
/// double too. Past `MAX_TERMS` terms (or `MAX_NESTING` levels) each is an error at the let
/// or the call; before, 25 doubling lets ran for minutes and took gigabytes, and a wrong
/// number of arguments in a call from a file-level template was silently read as 0.
#[test]
fn lets_written_out_too_large_are_errors() {
    let doubling: String = (0..25).map(|i| format!("let l{i} = l{} + l{}\n", i + 1, i + 1)).collect();
    let deep: String = (0..400).map(|i| format!("let d{i} = d{} + 1\n", i + 1)).collect();
    let nested = format!("{}1{}", "f(".repeat(30), ")".repeat(30));
    let src = spec(&format!(
        "{doubling}let l25 = 1\n{deep}let d400 = 1\nlet f(x) = x + x\n\
         format a {{\n    op: u32 @ 31:0 is l0\n    syntax asm {{ \"a\" }}\n}}\n\
         format b {{\n    op: u32 @ 31:0 is d0\n    syntax asm {{ \"b\" }}\n}}\n\
         format c {{\n    op: u32 @ 31:0 is {nested}\n    syntax asm {{ \"c\" }}\n}}\n\
         template t {{ | f(1, 2) == 0 => \"t\" | _ => \"u\" }}\n\
         format e {{\n    op: u32 @ 31:0 is 5\n    syntax asm {{ t }}\n}}\n"
    ));
    let d = isa_compiler::check_source(&src).expect_err("errors");
    let mut messages: Vec<&str> = d.iter().map(|d| d.message.as_str()).collect();
    messages.sort();
    messages.dedup();
    assert!(
        messages.iter().any(|m| m.starts_with("`let l") && m.ends_with("is too large written out")),
        "{messages:?}"
    );
    assert!(
        messages.iter().any(|m| m.starts_with("`let d") && m.ends_with("is too large written out")),
        "{messages:?}"
    );
    assert!(messages.iter().any(|m| m.starts_with("`f(...)` is too large written out")), "{messages:?}");
    assert!(messages.contains(&"`let f` takes 1 argument, 2 given"), "{messages:?}");
}

/// The integer builtins (`bfe`, `lut3`, `uadd_overflows`, ...) take `u32` or `u64` values; a
/// spec function named as a builtin is an error, since its calls would reach the builtin.
#[test]
fn integer_builtins_and_functions_named_as_builtins() {
    let machine = "machine {\n    pc: u32\n    r: u32\n    w: u64\n    c: bool\n}\n";
    let format = |body: &str| {
        format!("format f {{\n    op: u4 @ 31:28 is 1\n    syntax asm {{ \"f\" }}\n    execute {{\n{body}\n    }}\n}}\n")
    };
    let ok = spec(&format!(
        "{machine}{}",
        format(
            "        r = bfe(r, 4, 8, true) + bfi(r, 0, 4, 8) + sext(r, 8) + shl(r, 40) + shr(r, 1) + asr(r, 2)\n            \
             + lut3(r, r, r, 0x96) + prmt(r, r, 0x3210) + uadd_sat(r, 1) + sadd_sat(r, 1, c);\n        \
             w = bfe(w, 40, 8) + asr(w, 70) + sext(w, 32) + lut3(w, u64(1), w, 0x80);\n        \
             r = bfind(w) + bfind(r, true) + bfind(r, c, true);\n        \
             c = uadd_overflows(r, 1) || sadd_overflows(w, w, c);"
        )
    ));
    assert!(isa_compiler::check_source(&ok).is_ok(), "{}", diagnose(&ok));
    let named = spec(&format!("{machine}fn lut3(a: u32) -> u32 {{\n    a\n}}\n{}", format("        r = 1;")));
    let d = diagnose(&named);
    assert!(d.contains("`fn lut3` has the name of a builtin"), "{d}");
    let mistyped =
        spec(&format!("{machine}{}", format("        r = bfe(1.5, 0, 8);\n        c = uadd_overflows(r);")));
    let d = diagnose(&mistyped);
    assert!(d.contains("expected a value of type `u32`, found `f32`"), "{d}");
    assert!(d.contains("`uadd_overflows` takes 2 argument(s), 1 given"), "{d}");
}

/// Doubles: `f64` state and the float builtins of doubles check (a float constant takes the
/// double type where one is wanted); a float where a double is wanted, a conversion of a type it
/// does not take, and an arity mistake are errors at the argument or the call.
#[test]
fn double_builtins_and_their_type_errors_are_located() {
    let machine = "machine {\n    pc: u32\n    w: u64\n    f: f32\n    d: f64\n    c: bool\n}\n";
    let format = |body: &str| {
        format!("format f {{\n    op: u4 @ 31:28 is 1\n    syntax asm {{ \"f\" }}\n    execute {{\n{body}\n    }}\n}}\n")
    };
    let ok = spec(&format!(
        "{machine}{}",
        format(
            "        d = fma(d, f64(w), -1.5, 2) + fadd(0.5, d, 1) * fmul(d, d, 3) - round_int(d, 0);\n        \
             d = min(d, 0.0) + max(abs(d), clamp(d, -1.0, 1.0)) + ftz(d) + float64(f) + float64(w, 2, c);\n        \
             f = float(d, 3) + float(w, 1, true);\n        \
             w = bits(d) + int64(d) + uint64(f) + u64(uint(d));\n        \
             c = d < 0.0 && -d >= 1.0;"
        )
    ));
    assert!(isa_compiler::check_source(&ok).is_ok(), "{}", diagnose(&ok));
    let mistyped = spec(&format!(
        "{machine}{}",
        format(
            "        d = f + d;\n        f = float64(d);\n        d = float(f, 0);\n        d = fma(d, d);"
        )
    ));
    let d = diagnose(&mistyped);
    assert!(d.contains("expected a value of type `f32`, found `f64`"), "{d}");
    assert!(d.contains("`float64(x, ...)` converts a `u32`, `i32`, `u64` or `f32`, not `f64`"), "{d}");
    assert!(d.contains("`float(x, ...)` converts a `u32`, `i32`, `u64` or `f64`, not `f32`"), "{d}");
    assert!(d.contains("`fma` takes 3 argument(s), 2 given"), "{d}");
    // Located: the double added to a float is reported at its line (16), with the column.
    assert!(d.contains("bad.isa:16:"), "{d}");
}

/// A spec function that calls itself, directly or through others, would recurse without bound
/// in the generated interpreter (a stack overflow at run time): an error at the call closing
/// the cycle, once a cycle. Calls that do not cycle (a function called twice, a chain) are fine.
#[test]
fn recursive_functions_are_located() {
    let machine = "machine {\n    r: u32\n}\n";
    let format = "format f {\n    op: u4 @ 31:28 is 1\n    syntax asm { \"f\" }\n    execute {\n        r = a(r);\n    }\n}\n";
    let fns = |body_a: &str, body_b: &str| {
        spec(&format!(
            "{machine}fn a(x: u32) -> u32 {{\n    {body_a}\n}}\nfn b(x: u32) -> u32 {{\n    {body_b}\n}}\n{format}"
        ))
    };
    let chain = fns("b(x) + b(x + 1)", "x + 1");
    assert!(isa_compiler::check_source(&chain).is_ok(), "{}", diagnose(&chain));
    let direct = fns("a(x)", "x");
    let d = diagnose(&direct);
    assert!(d.contains("`a` calls itself"), "{d}");
    assert_eq!(d.matches("calls itself").count(), 1, "{d}");
    let through = fns("b(x) + 1", "a(x)");
    let d = diagnose(&through);
    assert!(d.contains("`a` calls itself through `b`"), "{d}");
    assert_eq!(d.matches("calls itself").count(), 1, "{d}");
}

/// Recursion through three functions is named from the first declared one at the call closing
/// the cycle; two separate cycles (one a self-call) are two errors.
#[test]
fn recursive_function_cycles_each_once() {
    let source = spec(
        "machine {\n    r: u32\n}\n\
         fn c(x: u32) -> u32 {\n    d(x)\n}\nfn d(x: u32) -> u32 {\n    e(x) + 1\n}\nfn e(x: u32) -> u32 {\n    c(x) + g(x)\n}\n\
         fn g(x: u32) -> u32 {\n    g(x)\n}\n\
         format f {\n    op: u4 @ 31:28 is 1\n    syntax asm { \"f\" }\n    execute {\n        r = c(r);\n    }\n}\n",
    );
    let d = diagnose(&source);
    // Lines: HEAD 4, machine 7, c's body 9, d's 12, e's 15, g's 18.
    let one = d
        .split("error: ")
        .find(|e| e.starts_with("`c` calls itself through `d` → `e`\n"))
        .unwrap_or_else(|| panic!("{d}"));
    assert!(one.contains("bad.isa:15:5"), "{one}");
    let one =
        d.split("error: ").find(|e| e.starts_with("`g` calls itself\n")).unwrap_or_else(|| panic!("{d}"));
    assert!(one.contains("bad.isa:18:5"), "{one}");
    assert!(d.ends_with("found 2 errors\n"), "{d}");
}

/// Found by the spec fuzzer (seed 0x15_0012_0014, generated and mutated #65): a scalar state
/// read with an index (`acc[4]`) was accepted and generated `.get()` on a `u32`, which did not
/// compile; it is an error at the index, as the same write was.
#[test]
fn indexing_scalar_state_is_located() {
    let with = |body: &str| {
        spec(&format!(
            "machine {{\n    r[8]: u32\n    acc: u32\n}}\nformat f {{\n    op: u4 @ 31:28 is 1\n    syntax asm {{ \"f\" }}\n    execute {{\n        {body}\n    }}\n}}\n"
        ))
    };
    let ok = with("acc = r[4] + acc;");
    assert!(isa_compiler::check_source(&ok).is_ok(), "{}", diagnose(&ok));
    for (body, at) in [("acc = acc[4] + 1;", "bad.isa:13:19"), ("acc[4] = 1;", "bad.isa:13:13")] {
        let d = diagnose(&with(body));
        assert!(d.contains("error: `acc` is not an array"), "{body}: {d}");
        assert!(d.contains(at), "{body}: {d}");
    }
}

/// A state array is kept inline in the generated machine: 1 to 65,536 values (times the
/// machine's elements when per element). A length past u32 was cut to its low bits before
/// (`r[4294967296]` became an array of none).
#[test]
fn state_arrays_of_no_or_too_many_values_are_located() {
    let format = "format f {\n    op: u4 @ 31:28 is 1\n    syntax asm { \"f\" }\n}\n";
    let with = |state: &str| spec(&format!("machine {{\n{state}\n}}\n{format}"));
    let ok = with("    elements 16\n    r[4096]: u32 per element\n    m[65536]: u64");
    assert!(isa_compiler::check_source(&ok).is_ok(), "{}", diagnose(&ok));
    for (state, entries) in [
        ("    r[4294967296]: u32", "4294967296"),
        ("    r[0]: u32", "0"),
        ("    r[65537]: u32", "65537"),
        ("    elements 16\n    r[4097]: u32 per element", "4097"),
    ] {
        let d = diagnose(&with(state));
        assert!(d.contains(&format!("state `r` of {entries} entries")), "{state}: {d}");
    }
}

/// Nothing changes silently: a dialect's flags (`ignore_case`, `float_bits`, `open_if_warns`)
/// take `true` or `false`. `false` turned a flag on as `true` did (so did any other value);
/// now `false` leaves it off and another value is an error at it.
#[test]
fn dialect_flags_take_true_or_false() {
    let t = isa_compiler::check_source(
        "target t {\n    word 32\n    dialect a { ignore_case false float_bits false open_if_warns false }\n    \
         dialect b { ignore_case true float_bits true open_if_warns true }\n}\n\
         format f {\n    x: u32 @ 31:0\n    syntax a { \"f \" {x} }\n    syntax b { \"f \" {x} }\n}\n",
    )
    .expect("accepted");
    let flags: Vec<_> = t.dialects.iter().map(|d| (d.ignore_case, d.float_bits, d.open_if_warns)).collect();
    assert_eq!(flags, [(false, false, false), (true, true, true)]);
    let out = diagnose(
        "target t {\n    word 32\n    dialect a { ignore_case 1 float_bits \"yes\" open_if_warns no }\n}\n\
         format f {\n    x: u32 @ 31:0\n    syntax a { \"f \" {x} }\n}\n",
    );
    for (column, name) in [(29, "ignore_case"), (42, "float_bits"), (62, "open_if_warns")] {
        let want = format!("error: `{name}` takes `true` or `false`\n  --> bad.isa:3:{column}\n");
        assert!(out.contains(&want), "{want}\n{out}");
    }
    assert!(out.ends_with("found 3 errors\n"), "{out}");
}
