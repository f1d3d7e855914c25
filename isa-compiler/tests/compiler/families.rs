//! Families (groups, forms, `let`, `zero`, `execute when`): what they expand to, and their
//! mistakes as located diagnostics naming every place involved. The behaviour of generated
//! code from a family spec is tested in `isa-derive/tests/derive/target.rs` (`fam`).

use isa_compiler::ir;

use crate::common::{diagnose, spec};

fn check(body: &str) -> ir::Target {
    isa_compiler::check_source(&spec(body)).unwrap_or_else(|d| {
        panic!("{}", isa_compiler::diag::render("ok.isa", &spec(body), &d));
    })
}

fn field<'a>(f: &'a ir::Format, name: &str) -> &'a ir::Field {
    f.fields.iter().find(|x| x.name == name).unwrap_or_else(|| panic!("no field `{name}` in `{}`", f.name))
}

/// A group's fields land where `use` stands; the own declarations replace the group's.
#[test]
fn a_group_is_inlined_where_it_is_used() {
    let t = check(
        "group guarded {\n    neg: bool @ 27\n    pred: u3 @ 26:24 default 7\n    property is_guarded = pred != 7\n    syntax asm { \"x\" }\n}\n\
         property is_guarded: bool = false\n\
         format f {\n    op: u4 @ 31:28 is 1\n    use guarded\n    rd: u8 @ 7:0\n    syntax asm { \"f \" {rd} }\n}\n",
    );
    let f = &t.formats[0];
    let names: Vec<&str> = f.fields.iter().map(|x| x.name.as_str()).collect();
    assert_eq!(names, ["op", "neg", "pred", "rd"]);
    assert_eq!(field(f, "pred").pieces, [ir::Piece { lo: 24, width: 3 }]);
    assert_eq!(field(f, "pred").default, Some(7));
    assert_eq!(f.properties.len(), 1);
    // The format's own syntax replaced the group's: it shows `rd`.
    assert!(format!("{:?}", f.syntax[0]).contains("Lit(\"f \")"));
}

/// `execute when` wraps the execute block in `if`; a format without one keeps its block as
/// written.
#[test]
fn execute_when_wraps_only_guarded_formats() {
    let t = check(
        "machine {\n    r[4]: u32\n    on: bool\n}\n\
         group guarded {\n    neg: bool @ 27\n    execute when on != neg\n}\n\
         format a {\n    op: u4 @ 31:28 is 1\n    use guarded\n    rd: u2 @ 1:0\n    syntax asm { \"a \" {rd} }\n    execute { r[rd] = 1; }\n}\n\
         format b {\n    op: u4 @ 31:28 is 2\n    rd: u2 @ 1:0\n    syntax asm { \"b \" {rd} }\n    execute { r[rd] = 2; }\n}\n",
    );
    let a = t.formats[0].execute.as_ref().expect("a keeps its execute");
    assert!(matches!(a.stmts.as_slice(), [ir::SemStmt::If(..)]), "{a:?}");
    let b = t.formats[1].execute.as_ref().expect("b keeps its execute");
    assert!(matches!(b.stmts.as_slice(), [ir::SemStmt::Assign(..)]), "{b:?}");
}

/// One format per form, named `format_form`, each with the form's fixed bits.
#[test]
fn forms_yield_one_format_each() {
    let t = check(
        "group src {\n    form r(op) {\n        opcode: u4 @ 31:28 is op\n        rb: u8 @ 15:8\n    }\n    form i(op) {\n        opcode: u4 @ 31:28 is op + 1\n        zero @ 27:24\n        imm: u8 @ 15:8\n    }\n}\n\
         format add {\n    use src { r(2), i(4) }\n    rd: u8 @ 7:0\n    syntax asm { \"add \" {rd} }\n}\n",
    );
    let names: Vec<&str> = t.formats.iter().map(|f| f.name.as_str()).collect();
    assert_eq!(names, ["add_r", "add_i"]);
    assert_eq!(field(&t.formats[0], "opcode").fixed, Some(2));
    assert_eq!(field(&t.formats[1], "opcode").fixed, Some(5));
    // `zero @ 27:24` is the fixed field `zero_27_24`.
    let z = field(&t.formats[1], "zero_27_24");
    assert_eq!((z.fixed, z.pieces.as_slice()), (Some(0), [ir::Piece { lo: 24, width: 4 }].as_slice()));
    assert!(t.formats[0].fields.iter().all(|x| x.name != "imm"));
}

/// A `let` is usable in guards, properties and constraints, and lets may use each other.
#[test]
fn lets_stand_for_their_values() {
    let t = check(
        "let idle = op == 0 && rd == 0\n\
         property quiet: bool = false\n\
         format f {\n    op: u4 @ 31:28 in 0..=3\n    rd: u8 @ 7:0\n    let busy = !idle\n    property quiet = idle\n    constraint c \"a busy f writes\": !busy || rd != 0\n\
         \x20   syntax asm {\n        | idle => \"nop\"\n        | _ => \"f \" {op} \", \" {rd}\n    }\n}\n",
    );
    let f = &t.formats[0];
    let guard = format!("{:?}", f.syntax[0].parts[0].arms[0].guard);
    assert!(guard.contains("Field(SlotId(0))") && guard.contains("Field(SlotId(1))"), "{guard}");
    assert_eq!(f.properties.len(), 1);
    // `!busy || rd != 0` is `!!(op == 0 && rd == 0) || rd != 0`: `op` is read first.
    assert_eq!(f.constraints[0].reads, ["op", "rd"]);
}

#[test]
fn unknown_group() {
    insta::assert_snapshot!(diagnose(&spec("format f {\n    use guarded\n    syntax asm { \"f\" }\n}\n")));
}

#[test]
fn group_that_includes_itself() {
    insta::assert_snapshot!(diagnose(&spec(
        "group a {\n    use b\n}\ngroup b {\n    x: u1 @ 0\n    use a\n}\nformat f {\n    use a\n    syntax asm { \"f\" }\n}\n"
    )));
}

#[test]
fn field_of_a_group_clashes_with_the_format() {
    insta::assert_snapshot!(diagnose(&spec(
        "group g {\n    rd: u4 @ 3:0\n}\nformat f {\n    use g\n    rd: u4 @ 7:4\n    syntax asm { \"f \" {rd} }\n}\n"
    )));
}

#[test]
fn mistakes_in_picking_forms() {
    insta::assert_snapshot!(diagnose(&spec(
        "group src {\n    form r(op) {\n        opcode: u4 @ 31:28 is op\n    }\n}\ngroup plain {\n    x: u1 @ 0\n}\n\
         format a {\n    use src { r(1), q(2) }\n    syntax asm { \"a\" }\n}\n\
         format b {\n    use src { r }\n    syntax asm { \"b\" }\n}\n\
         format c {\n    use src\n    syntax asm { \"c\" }\n}\n\
         format d {\n    op: u4 @ 31:28 is 8\n    use plain { r }\n    syntax asm { \"d\" }\n}\n\
         format e {\n    op: u4 @ 31:28 is 9\n    use plain(3)\n    syntax asm { \"e\" }\n}\n"
    )));
}

#[test]
fn let_that_refers_to_itself() {
    insta::assert_snapshot!(diagnose(&spec(
        "format f {\n    op: u4 @ 31:28 is 1\n    let a = b + 1\n    let b = a\n    syntax asm { [a == 0: \"f\"] }\n}\n"
    )));
}

#[test]
fn let_with_the_name_of_a_field() {
    insta::assert_snapshot!(diagnose(&spec(
        "format f {\n    op: u4 @ 31:28 is 1\n    rd: u4 @ 3:0\n    let rd = op\n    syntax asm { \"f\" }\n}\n"
    )));
}

#[test]
fn two_groups_give_the_same_syntax() {
    insta::assert_snapshot!(diagnose(&spec(
        "group a {\n    x: u1 @ 0\n    syntax asm { \"a\" }\n}\ngroup b {\n    y: u1 @ 1\n    syntax asm { \"b\" }\n}\n\
         format f {\n    op: u4 @ 31:28 is 1\n    use a\n    use b\n}\n"
    )));
}

#[test]
fn a_layout_has_no_forms() {
    insta::assert_snapshot!(diagnose(&spec(
        "layout L : 8 {\n    form x {\n        a: u8 @ 7:0\n    }\n}\nformat f {\n    op: u4 @ 31:28 is 1\n    syntax asm { \"f\" }\n}\n"
    )));
}

/// A mistake inside a group that many formats use is reported once, at the group.
#[test]
fn a_mistake_in_a_shared_group_is_reported_once() {
    insta::assert_snapshot!(diagnose(&spec(
        "group g {\n    x: u1 @ 0\n    syntax asm { \"g \" {nope} }\n}\n\
         format a {\n    op: u4 @ 31:28 is 1\n    use g\n}\nformat b {\n    op: u4 @ 31:28 is 2\n    use g\n}\n"
    )));
}

/// A field whose name starts like a clause keyword (`inc`, `isr`, `defaults`) is a field, not
/// an `in`/`is`/`default` clause of the field before it.
#[test]
fn fields_named_like_clause_keywords_are_fields() {
    let t = check(
        "format f {\n    op: u4 @ 31:28 is 1\n    inc: bool @ 6\n    isr: u2 @ 5:4\n    mode: u2 @ 3:2 default 1\n    defaults: u2 @ 1:0\n    syntax asm { \"f\" }\n}\n",
    );
    let f = &t.formats[0];
    let names: Vec<&str> = f.fields.iter().map(|x| x.name.as_str()).collect();
    assert_eq!(names, ["op", "inc", "isr", "mode", "defaults"]);
    assert_eq!(field(f, "mode").default, Some(1));
}

/// `use g(args) as a`: one group describes several operands; its fields, views, lets and
/// templates are named `a_...` (and `b_...`), references inside the group follow, and the
/// including format calls the renamed templates.
#[test]
fn a_prefixed_use_names_each_operand() {
    let t = check(
        "group src(lo) {\n    n: u3 @ lo + 2:lo\n    neg: bool @ lo + 3\n    view raw: u4 @ lo + 3:lo\n    let plain = !neg\n\
         \x20   template show {\n        | plain => \"r\" {n}\n        | _ => \"-r\" {n}\n    }\n}\n\
         format f {\n    op: u4 @ 31:28 is 1\n    use src(0) as a\n    use src(4) as b\n    syntax asm { \"f \" a_show \", \" b_show }\n}\n",
    );
    let f = &t.formats[0];
    let names: Vec<&str> = f.fields.iter().map(|x| x.name.as_str()).collect();
    assert_eq!(names, ["op", "a_n", "a_neg", "a_raw", "b_n", "b_neg", "b_raw"]);
    assert_eq!(field(f, "b_n").pieces, [ir::Piece { lo: 4, width: 3 }]);
    assert_eq!(field(f, "b_raw").pieces, [ir::Piece { lo: 4, width: 4 }]);
    let parts: Vec<&str> = f.syntax[0].parts.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(parts, ["f", "a_show", "b_show"]);
    // b's `plain` is `!b_neg`: the guard reads field 5.
    let guard = format!("{:?}", f.syntax[0].parts[2].arms[0].guard);
    assert!(guard.contains("Not(Field(SlotId(5)))"), "{guard}");
}

/// A string argument is text: the parameter it binds prints it where the syntax names it (in a
/// group, a form, or a group the group uses). `format name = group(args)` is an encoding of its
/// own name, so formats that differ in opcode and mnemonic share one group and keep their names.
#[test]
fn string_arguments_print_as_text_and_formats_take_their_names() {
    let t = check(
        "group flow(op, m) {\n    opcode: u8 @ 31:24 is op\n    cc: u4 @ 3:0\n    syntax asm { m [cc != 0: \" \" {cc}] }\n}\n\
         group named(op, m) {\n    use flow(op, m)\n}\n\
         property stops: bool = false\n\
         format ret = flow(0x12, \"RET\")\n\
         format brk = named(0x13, \"BRK\") {\n    property stops = true\n}\n\
         group src {\n    form r(op, m) {\n        opcode: u8 @ 31:24 is op\n        template name { m }\n    }\n}\n\
         format mov {\n    use src { r(0x20, \"MOV.R\") }\n    syntax asm { name }\n}\n",
    );
    let names: Vec<&str> = t.formats.iter().map(|f| f.name.as_str()).collect();
    assert_eq!(names, ["ret", "brk", "mov_r"]);
    assert_eq!(field(&t.formats[0], "opcode").fixed, Some(0x12));
    assert_eq!(field(&t.formats[1], "opcode").fixed, Some(0x13));
    assert_eq!(t.formats[1].properties.len(), 1);
    for (f, text) in t.formats.iter().zip(["RET", "BRK", "MOV.R"]) {
        let syntax = format!("{:?}", f.syntax[0]);
        assert!(syntax.contains(&format!("Lit({text:?})")), "{}: {syntax}", f.name);
    }
}

/// A string argument where a value is wanted is an error at the argument.
#[test]
fn a_string_argument_is_no_value() {
    insta::assert_snapshot!(diagnose(&spec(
        "group g(op) {\n    opcode: u8 @ 31:24 is op\n    syntax asm { \"g\" }\n}\n\
         format f = g(\"RET\")\n"
    )));
}

/// A template's string argument is text too, joined with the literals beside it; a group's
/// string parameter passes on to a template as its argument.
#[test]
fn templates_take_string_arguments() {
    let t = check(
        "template op(m) { m \" \" {rd} }\n\
         group g(code, m) {\n    opcode: u8 @ 31:24 is code\n    rd: u8 @ 7:0\n    syntax asm { op(m) }\n}\n\
         format neg = g(1, \"NEG\")\n\
         format f {\n    opcode: u8 @ 31:24 is 2\n    rd: u8 @ 7:0\n    syntax asm { \"<\" op(\"ABS\") }\n}\n",
    );
    let parts: Vec<String> = t.formats.iter().map(|f| format!("{:?}", f.syntax[0].parts)).collect();
    assert!(parts[0].contains("Lit(\"NEG \")"), "{}", parts[0]);
    assert!(parts[1].contains("Lit(\"ABS \")"), "{}", parts[1]);
}

/// A template's string parameter where a value is wanted is an error at the use.
#[test]
fn a_template_s_text_is_no_value() {
    insta::assert_snapshot!(diagnose(&spec(
        "template op(m) { m \" \" {m} }\n\
         format f {\n    opcode: u8 @ 31:24 is 2\n    syntax asm { op(\"ABS\") }\n}\n"
    )));
}

/// A parameter may stand as a type: a field's, a switch arm's or a hole's table (`{x as T}`);
/// each use of the group gives its own, passed on through groups that use it.
#[test]
fn a_parameter_is_a_type_where_it_stands_as_one() {
    let t = check(
        "enum Size : u2 { b8 = 0 \".8\", b16 = 1 \".16\" }\n\
         enum LdSize : u2 { b8 = 0 \".U8\", b16 = 1 \".U16\", b128 = 3 \".U.128\" }\n\
         group mem(op, T) {\n    opcode: u8 @ 31:24 is op\n    size: T @ 1:0\n    syntax asm { \"m\" {size} \" \" {size as T} }\n}\n\
         group load(op, T) {\n    use mem(op, T)\n}\n\
         format st = mem(1, Size)\n\
         format ld = load(2, LdSize)\n",
    );
    let names: Vec<&str> = t.formats.iter().map(|f| f.name.as_str()).collect();
    assert_eq!(names, ["st", "ld"]);
    for (f, want) in t.formats.iter().zip(["Size", "LdSize"]) {
        let ir::Type::Enum(id) = field(f, "size").ty else { panic!("{}: {:?}", f.name, field(f, "size").ty) };
        assert_eq!(t.enums[id.0].name, want, "{}", f.name);
        assert!(
            format!("{:?}", f.syntax[0]).contains(&format!("Table({id:?})")),
            "{}: the table is {want}",
            f.name
        );
    }
}

/// An argument that is no type name, where its parameter stands as a type, is an error at the
/// argument, with the place it stands; an unknown type name is reported at the argument. Each is
/// one error: the field stays, as a number, so its uses (the syntax, a name table, a default)
/// report nothing more.
#[test]
fn a_type_argument_must_name_a_type() {
    insta::assert_snapshot!(diagnose(&spec(
        "group mem(op, T) {\n    opcode: u8 @ 31:24 is op\n    size: T @ 1:0 default b32\n    kind: u2 @ 3:2\n    syntax asm { \"m\" {size} {kind as T} }\n}\n\
         format a = mem(1, 3)\n\
         format b = mem(2, Sise)\n"
    )));
}

/// `use Other` in an enum takes `Other`'s values, spellings and semantics; the enum's own
/// values replace those of their name or value, in their place, and a range is replaced by
/// values that cover it.
#[test]
fn an_enum_takes_another_s_values_and_replaces_some() {
    let t = check(
        "enum Size : u3 { u8 = 0 \".U8\", b32 = 4 \"\", b64 = 5 \".64\", invalid7 = 7 \".INVALIDSIZE7\" }\n\
         enum LdSize : u3 { use Size, u128 = 7 \".U.128\", b64 = 5 \".W64\", s8 = 1 \".S8\" }\n\
         enum Op : u4 (a: u32, b: u32) -> u32 { add = 0 \".ADD\" => a + b, safe = 10 \".SAFE\", invalid(11..=15) \".INVALIDOP{v}\" }\n\
         enum SOp : u4 (a: u32, b: u32) -> u32 { use Op, invalid(9..=15) \".INVALIDSOP{v}\" }\n\
         enum Twice : u3 { use LdSize }\n",
    );
    let summary = |name: &str| -> Vec<String> {
        let e = t.enums.iter().find(|e| e.name == name).unwrap_or_else(|| panic!("no enum {name}"));
        e.variants.iter().map(|v| format!("{} {:?} {}", v.name, v.values, v.spellings[0][0].text)).collect()
    };
    let ld = summary("LdSize");
    assert_eq!(ld.len(), 5, "{ld:?}");
    assert!(ld[0].starts_with("u8 ") && ld[0].ends_with(" .U8"), "{ld:?}");
    assert!(ld[2].starts_with("b64 ") && ld[2].ends_with(" .W64"), "{ld:?}");
    assert!(ld[3].starts_with("u128 ") && ld[3].ends_with(" .U.128"), "{ld:?}");
    assert!(ld[4].starts_with("s8 "), "{ld:?}");
    assert_eq!(summary("Twice"), ld, "an included enum's own includes come along");
    let sop = summary("SOp");
    assert_eq!(sop.len(), 2, "{sop:?}");
    assert!(sop[1].starts_with("invalid ") && sop[1].ends_with(".INVALIDSOP{v}"), "{sop:?}");
    let e = t.enums.iter().find(|e| e.name == "SOp").expect("SOp");
    assert!(e.signature.is_some() && e.variants[0].semantics.is_some(), "the semantics come along");
}

/// An unknown enum, an enum that includes itself, an operation enum in one of another
/// signature and a range replaced in part are errors at the `use` or the value.
#[test]
fn enum_use_mistakes_are_located() {
    insta::assert_snapshot!(diagnose(&spec(
        "enum A : u2 { use B, x = 0 }\n\
         enum B : u2 { use A, y = 1 }\n\
         enum C : u2 { use Nope, z = 2 }\n\
         enum Op : u2 (a: u32) -> u32 { id = 0 => a }\n\
         enum D : u2 { use Op }\n\
         enum R : u3 { r(0..=5) \"R{v}\" }\n\
         enum E : u3 { use R, five = 5 }\n"
    )));
}

/// A `let` with parameters is written out where it is called, its parameters bound to the
/// arguments: in expressions of every kind (lets, guards, semantics), from a group, a form or
/// the top of the file, and calling other lets.
#[test]
fn a_let_with_parameters_is_written_out_at_its_calls() {
    let t = check(
        "machine {\n    r[16]: u32\n}\n\
         let lane(v, i) = (v >> (i * 16)) & 0xffff\n\
         group src {\n    rb: u4 @ 11:8\n    let b_lane(i) = lane(r[rb], i)\n}\n\
         format f {\n    op: u4 @ 31:28 is 1\n    use src\n    rd: u4 @ 3:0\n    let lo = b_lane(0)\n\
         \x20   syntax asm { \"f \" {rd} \", \" {rb} }\n    execute { r[rd] = lo + b_lane(1); }\n}\n",
    );
    let e = format!("{:?}", t.formats[0].execute);
    // Nothing is called: both lanes are the expressions themselves, with 0 and 1 for `i`.
    assert!(!e.contains("Call"), "{e}");
    assert!(e.contains("Int(16)"), "{e}");
}

/// A call with the wrong number of arguments, or a let that calls itself, is an error at the call.
#[test]
fn let_with_parameters_mistakes_are_located() {
    insta::assert_snapshot!(diagnose(&spec(
        "machine {\n    r[16]: u32\n}\n\
         format f {\n    op: u4 @ 31:28 is 1\n    rd: u4 @ 3:0\n    let half(v, i) = v >> (i * 16)\n    let again(v) = again(v) + 1\n\
         \x20   syntax asm { \"f \" {rd} }\n    execute { r[rd] = half(r[rd]) + again(2); }\n}\n"
    )));
}

/// `fields @ hi:lo { ... }` places its items side by side from `hi` down, each as wide as its
/// type: a name alone is a `bool`, `_` an unused bit, `_: uN` N of them; enums and number
/// formats by their declared widths, a group's type parameter by its argument, clauses kept;
/// `use g` where the group's own bits lie.
/// It is exactly the fields written one by one (Maxwell's FADD: sat 50, abs_b 49, ..., rnd 40:39).
#[test]
fn a_run_of_fields_is_placed_by_the_widths() {
    let t = check(
        "enum Round : u2 { rn = 0, rm = 1, rp = 2, rz = 3 }\n\
         number h4 = float(sign: 1, exponent: 2, mantissa: 1, bias: 1)\n\
         group src(at, T) {\n    fields @ at:at - 6 { x: T, _, h: h4 }\n}\n\
         format f {\n    fields @ 31:22 { op: u3 is 5, sat, neg_a, _: u2, rnd: Round default rp, cc }\n\
         \x20   fields @ 21:0 { use src(21, Round), _: u7, rd: u8 }\n    syntax asm { \"f \" {rd} }\n}\n",
    );
    let f = &t.formats[0];
    let at = |n: &str| field(f, n).pieces.clone();
    let p = |lo, width| vec![ir::Piece { lo, width }];
    assert_eq!(at("op"), p(29, 3));
    assert_eq!(field(f, "op").fixed, Some(5));
    assert_eq!((at("sat"), at("neg_a")), (p(28, 1), p(27, 1)));
    assert_eq!(at("rnd"), p(23, 2));
    assert_eq!(field(f, "rnd").default, Some(2));
    assert_eq!(at("cc"), p(22, 1));
    assert_eq!((at("x"), at("h")), (p(20, 2), p(15, 4)));
    assert_eq!(at("rd"), p(0, 8));
    let names: Vec<&str> = f.fields.iter().map(|x| x.name.as_str()).collect();
    assert_eq!(names, ["op", "sat", "neg_a", "rnd", "cc", "x", "h", "rd"]);
}

/// A run whose widths do not fill its range, that runs upwards, whose bits are not numbers,
/// holds a type of no known width or a group's `use` where its bits are not is an error at the
/// run or the item, and its other items are still placed (no follow-on error about them).
#[test]
fn run_of_fields_mistakes_are_located() {
    insta::assert_snapshot!(diagnose(&spec(
        "enum Round : u2 { rn = 0, rm = 1, rp = 2, rz = 3 }\n\
         layout Pair : 4 {\n    a: u2 @ 3:2\n    b: u2 @ 1:0\n}\n\
         format f {\n    fields @ 31:23 { op: u3 is 5, sat, _: u2, rnd: Round }\n    fields @ 16:22 { a: u3, b: u4 }\n\
         \x20   fields @ 15:8 { p: switch op { 5 => Pair }, c: u4 }\n    fields @ 7:n { rd: u8 }\n    syntax asm { \"f \" {rd} {a} {b} {c} {sat} }\n}\n\
         group low {\n    fields @ 3:0 { x: u2, y: u2 }\n}\n\
         format g {\n    fields @ 31:0 { op: u4 is 6, _: u20, use low, _: u4 }\n    syntax asm { \"g\" }\n}\n"
    )));
}

/// A group whose forms lie at different bits cannot stand in a run: the error is at its `use`.
#[test]
fn a_run_holds_no_group_whose_forms_move() {
    insta::assert_snapshot!(diagnose(&spec(
        "group two {\n    form a {\n        k: u2 @ 5:4 is 0\n        x: u4 @ 3:0\n    }\n    form b {\n        k: u2 @ 5:4 is 1\n        x: u2 @ 3:2\n    }\n}\n\
         format h {\n    fields @ 31:0 { op: u4 is 7, _: u22, use two }\n    syntax asm { \"h\" }\n}\n"
    )));
}

/// A template parameter whose argument is a constant may index an array field in a guard
/// (`wait[b]`), and shown (`{b}`) it is that number as literal text: Maxwell's six
/// wait-barrier marks are one template (`wait_mark(0)` .. `wait_mark(5)`).
#[test]
fn a_template_parameter_indexes_an_array() {
    let t = check(
        "format f {\n    op: u4 @ 31:28 is 1\n    wait[6]: bool @ 0 + i\n    syntax asm { \"f \" mark(0) mark(5) }\n}\n\
         template mark(b) { | wait[b] => {b} | _ => \"-\" }\n",
    );
    let f = &t.formats[0];
    let slots = f.slots();
    let parts = &f.syntax[0].parts;
    let marks: Vec<&ir::SyntaxPart> = parts.iter().filter(|p| p.name == "mark").collect();
    assert_eq!(marks.len(), 2, "one instance per argument: {parts:?}");
    for (part, k) in marks.iter().zip([0u32, 5]) {
        let Some(ir::CondExpr::Field(slot)) = &part.arms[0].guard else {
            panic!("the guard reads one element: {:?}", part.arms[0].guard);
        };
        let s = &slots[slot.0];
        assert_eq!((f.field(s.field).name.as_str(), s.element), ("wait", Some(k)));
        assert!(
            matches!(part.arms[0].items.as_slice(), [ir::SyntaxItem::Lit(text)] if *text == k.to_string()),
            "{:?}",
            part.arms[0].items
        );
    }
}

/// An index that is a parameter bound to a field, or a constant outside the array, is an
/// error at the index.
#[test]
fn an_array_index_must_be_a_constant_inside_the_array() {
    insta::assert_snapshot!(diagnose(&spec(
        "format f {\n    x: u3 @ 10:8\n    wait[6]: bool @ 0 + i\n    syntax asm { \"f \" mark(x) mark(7) }\n}\n\
         template mark(b) { | wait[b] => \"1\" | _ => \"-\" }\n"
    )));
}

/// `{v/N}` spells every N-th value of a range from its first by the value divided by N: each
/// is a value of its own, named by that number (TXQ's even-valued queries; Tegra's 16-bit
/// register halves `r{v/2}l` and `r{v/2}h`).
#[test]
fn a_range_spelled_by_its_value_divided() {
    let t = check(
        "enum Query : u6 { dim = 1 \"DIM\", q(6..=10) \"{v/2}\", filter = 16 \"FILTER\", q(24..=28) \"{v/2}\" }\n\
         enum Half : u3 { l(0..=6) \"r{v/2}l\", h(1..=7) \"r{v/2}h\" }\n",
    );
    let summary = |name: &str| -> Vec<String> {
        let e = t.enums.iter().find(|e| e.name == name).unwrap_or_else(|| panic!("no enum {name}"));
        e.variants.iter().map(|v| format!("{} {:?} {}", v.name, v.values, v.spellings[0][0].text)).collect()
    };
    assert_eq!(
        summary("Query"),
        [
            "dim One(1) DIM",
            "q3 One(6) 3",
            "q4 One(8) 4",
            "q5 One(10) 5",
            "filter One(16) FILTER",
            "q12 One(24) 12",
            "q13 One(26) 13",
            "q14 One(28) 14"
        ]
    );
    assert_eq!(
        summary("Half"),
        [
            "l0 One(0) r0l",
            "l1 One(2) r1l",
            "l2 One(4) r2l",
            "l3 One(6) r3l",
            "h0 One(1) r0h",
            "h1 One(3) r1h",
            "h2 One(5) r2h",
            "h3 One(7) r3h"
        ]
    );
}

/// `{v/N}` without a positive N, on one value, or two spellings of a range dividing by two
/// numbers are errors at the spelling.
#[test]
fn a_divided_range_spelling_mistakes_are_located() {
    insta::assert_snapshot!(diagnose(&spec(
        "enum A : u4 { z(0..=3) \"{v/0}\", x(4..=7) \"{v/x}\", one = 8 \"{v/2}\" }\n\
         enum B : u4 { b(0..=7) \"{v/2}\" asm \"b{v/4}\" }\n"
    )));
}

/// A `{v/N}` range is a variant per N values: past 65,536 of them it is an error at the spelling
/// and the range stays one (`r(0..=18446744073709551615) "{v/1}"` hung the checker, making
/// 2^64 variants, and its count overflowed); 65,536 are fine.
#[test]
fn a_divided_range_of_too_many_values_is_an_error_not_a_hang() {
    let d = diagnose(&spec("enum A : u32 { r(0..=4294967295) \"{v/1}\" }\n"));
    assert!(d.contains("`{v/1}` spells 4294967296 values of `r` one by one"), "{d}");
    assert!(d.contains("found 1 error"), "{d}");
    let d = diagnose(&spec("enum A : u64 { r(0..=18446744073709551615) \"{v/1}\" }\n"));
    assert!(d.contains("`{v/1}` spells 18446744073709551616 values of `r` one by one"), "{d}");
    let t = check("enum B : u17 { r(0..=131071) \"{v/2}\" }\n");
    assert_eq!(t.enums[0].variants.len(), 65536);
}

/// `spelled ".{NAME}"` spells a one-value variant without spellings by its name; the pattern's
/// mistakes are errors at the pattern or the variant.
#[test]
fn a_spelling_pattern_spells_variants_by_their_names() {
    let t = check(
        "enum Round : u2 spelled \".{NAME}\" { rn = 0 \"\", rm = 1, rp = 2, is_ = 3 }\n\
         enum Op : u2 spelled \"{name}v\" { NOP = 0, MOV = 1 asm \"mov\", ADD = 2 \"plus\" }\n\
         enum Round2 : u3 { use Round, rx = 4 \".RX\" }\n",
    );
    let texts = |name: &str| -> Vec<String> {
        let e = t.enums.iter().find(|e| e.name == name).expect("enum");
        e.variants.iter().map(|v| v.spellings[0][0].text.clone()).collect()
    };
    assert_eq!(texts("Round"), ["", ".RM", ".RP", ".IS"]);
    assert_eq!(texts("Op"), ["NOPv", "mov", "plus"]);
    assert_eq!(texts("Round2"), ["", ".RM", ".RP", ".IS", ".RX"]);
}

/// An enum with a pattern of its own spells by it the values it includes that another pattern
/// spelled (nvdisasm's CC tests: `CC.LT` after BRA, `.LT` after CSET), and keeps the ones
/// written out and those the other enum replaced.
#[test]
fn an_including_enum_s_pattern_spells_what_a_pattern_spelled() {
    let t = check(
        "enum Cc : u5 spelled \"CC.{NAME}\" { f = 0, lt, eq, t = 15 \"\", is_ = 16, x = 17 \".X!\" }\n\
         enum Cond : u5 spelled \".{NAME}\" { use Cc, eq = 2 \"=\" }\n\
         enum Cond2 : u5 { use Cond, z = 18 }\n",
    );
    let texts = |name: &str| -> Vec<String> {
        let e = t.enums.iter().find(|e| e.name == name).expect("enum");
        e.variants.iter().map(|v| v.spellings[0][0].text.clone()).collect()
    };
    assert_eq!(texts("Cc"), ["CC.F", "CC.LT", "CC.EQ", "", "CC.IS", ".X!"]);
    assert_eq!(texts("Cond"), [".F", ".LT", "=", "", ".IS", ".X!"]);
    assert_eq!(texts("Cond2"), [".F", ".LT", "=", "", ".IS", ".X!", "z"]);
}

/// A pattern that no value takes, when every value it includes was spelled by hand, is an error
/// at the pattern; an unknown enum it includes, and a pattern without a name, are the one error
/// of their enums.
#[test]
fn an_including_enum_s_pattern_that_spells_nothing_is_located() {
    insta::assert_snapshot!(diagnose(&spec(
        "enum A : u2 { a = 0 \".A\", b = 1 \".B\" }\n\
         enum B : u2 spelled \".{NAME}\" { use A }\n\
         enum C : u2 spelled \".{NAME}\" { use Nowhere }\n\
         enum P : u2 spelled \".{NAME}\" { p = 0, q }\n\
         enum D : u2 spelled \".X\" { use P }\n"
    )));
}

/// A variant without a value holds the one after the previous variant's last.
#[test]
fn a_variant_without_a_value_follows_the_previous_one() {
    let t = check(
        "enum Cc : u4 spelled \"CC.{NAME}\" { f = 0, lt, eq, r(3..=5) \"R{v}\", t, x = 9, y asm \"why\" }\n\
         enum Cc2 : u4 { use Cc, z = 12, w }\n",
    );
    let values = |name: &str| -> Vec<(String, u64)> {
        let e = t.enums.iter().find(|e| e.name == name).expect("enum");
        e.variants
            .iter()
            .filter_map(|v| match v.values {
                ir::Values::One(n) => Some((v.spellings[0][0].text.clone(), n)),
                _ => None,
            })
            .collect()
    };
    let cc = [("CC.F", 0), ("CC.LT", 1), ("CC.EQ", 2), ("CC.T", 6), ("CC.X", 9), ("why", 10)];
    assert_eq!(values("Cc"), cc.map(|(s, n)| (s.to_string(), n)));
    assert_eq!(values("Cc2").last(), Some(&("w".to_string(), 13)));
}

#[test]
fn a_variant_without_a_value_s_mistakes_are_located() {
    insta::assert_snapshot!(diagnose(&spec(
        "enum A : u2 { a = 0, rest(_), b }\n\
         enum B : u2 { use A, c }\n\
         enum C : u2 { c = 3, d }\n\
         enum D : u2 { x = 0 \".X\"\n    y \".Y\" }\n"
    )));
}

/// A dialect's spelling is written on its variant's line or on a line that continues it,
/// indented past the variant's name: a dialect's name starting a later line at or left of the
/// variant's name, after a spelling (or after a value), may as well be a variant without a
/// value, so it is an error at that name, in a variant and after `else` alike (it was read as
/// the spelling, and the variant named like the dialect silently disappeared). A tab reaches
/// the next multiple of 8 columns. A spelling without a dialect may go on any line.
#[test]
fn a_dialect_s_spelling_on_a_later_line_is_refused() {
    insta::assert_snapshot!(diagnose(&spec(
        "enum A : u2 {\n    x = 0 \".X\"\n    asm \".Y\"\n}\n\
         enum B : u2 { x = 0\n    asm \".X\" }\n\
         enum C : u2 { x = 0, else \"?\"\n    asm \".Y\" }\n\
         enum D : u2 {\n        x = 0 \".X\"\n\tasm \".Y\"\n}\n"
    )));
    let t = check(
        "enum A : u2 {\n    x = 0 \".X\" asm \".XA\"\n        asm \".XB\"\n    \".XX\", asm \".Y\"\n}\n\
         enum B : u2 {\n\tx = 0\n\t    asm \".X\"\n}\n",
    );
    let e = |name: &str| t.enums.iter().find(|e| e.name == name).expect("enum");
    let names: Vec<&str> = e("A").variants.iter().map(|v| v.name.as_str()).collect();
    assert_eq!(names, ["x", "asm"]);
    let texts: Vec<&str> = e("A").variants[0].spellings[0].iter().map(|s| s.text.as_str()).collect();
    assert_eq!(texts, [".XA", ".XB"]);
    assert_eq!(e("B").variants.len(), 1);
    assert_eq!(e("B").variants[0].spellings[0][0].text, ".X");
}

/// Two values of one enum that a dialect's assembler reads from one text are an error at the
/// later value, naming both: one spelling written twice, a respelling by `use` or by the enum's
/// pattern, a name a range spells too, two ranges that print a number alike, texts that differ
/// only in blanks or (in an `ignore_case` dialect) in case. `.A` assembled to one of them and the
/// other did not print back to itself; the checker said nothing.
#[test]
fn values_spelled_alike_are_located() {
    let source = "target t {\n    word 32\n    dialect asm\n    dialect nv { ignore_case true }\n}\n\
        enum A : u2 { a = 1 \".A\", b = 2 \".A\" }\n\
        enum Cc : u5 spelled \"CC.{NAME}\" { f = 0, lt }\n\
        enum Cs : u5 spelled \".{NAME}\" { use Cc, foo = 20 \".LT\" }\n\
        enum P : u2 spelled \".{NAME}\" { x = 0, y = 1 \".X\" }\n\
        enum R : u4 { r(0..=7) \"r{v}\", nine = 9 \"r5\" }\n\
        enum S : u6 { count(16..=31) \"{v}\", rotation(48..=63) \"{v-32}\" }\n\
        enum Z : u5 { a(0..=9) \"r{v}\", b(10..=19) \"r{v-10}0\" }\n\
        enum B : u2 { a = 0 \". A\", b = 1 asm \".A\" nv \".a\", c = 2 nv \".A\" }\n\
        enum N : u2 shares spellings { a = 0 \".A\", b = 1 \".B\" }\n";
    insta::assert_snapshot!(diagnose(source));
}

/// `shares spellings` lets values share a text (the syntax around the field tells them apart:
/// Maxwell's TEXS prints one field as two enums); one value spelled alike in two dialects, a
/// name inside a range's own values, ranges that print apart and a catch-all are no sharing.
#[test]
fn values_may_share_a_spelling_when_the_enum_says_so() {
    let t = check(
        "enum Lod : u2 shares spellings { d1_lz = 0 \".LZ\", d2 \"\", d2_lz \".LZ\" }\n\
         enum Dim : u2 shares spellings { d1_lz = 0 \"1D\", d2 \"2D\", d2_lz \"2D\" }\n\
         enum Reg : u8 { r(0..=254) \"R{v}\", rz = 255 \"RZ\" }\n",
    );
    assert_eq!(t.enums[0].variants[2].spellings[0][0].text, ".LZ");
    check(
        "enum Reg : u8 { r(0..=254) \"R{v}\", rz = 255 \"RZ\" asm \"RZ\" }\n\
         enum Acc : u6 { ra(0..=31) \"ra{v}\", acc(32..=35) \"r{v-32}\", ra_33(36..=37) \"ra{v}\", nop = 39 \"r39\" }\n\
         enum O : u4 { a = 1 \".A\", b = 2 \".a\", r5 = 5 \"x5\", x(_) \"x{v}\", else \"?\" }\n",
    );
}

/// `else` starting a line after a variant's spelling, or indented past its name, reads as that
/// variant's spelling in a dialect called `else`: each is one error at `else` that says to put a
/// comma before it (it said "`x`'s spelling in dialect `else`?" and "unknown dialect `else`").
#[test]
fn else_after_a_spelling_without_a_comma_is_located() {
    insta::assert_snapshot!(diagnose(&spec(
        "enum A : u2 {\n    x = 0 \".X\"\n    else \"?\"\n}\n\
         enum B : u2 {\n    x = 0 \".X\"\n        else \"?\"\n}\n"
    )));
    // With the comma it is the spelling of the values no variant has.
    let t = check("enum A : u2 {\n    x = 0 \".X\",\n    else \"?\"\n}\n");
    assert_eq!(t.enums[0].else_spellings, [Some("?".to_string())]);
}

/// A range spelled for every dialect by name needs no pattern: it is no mistake to leave it to
/// one (the fuzzer's generated specs found it an error).
#[test]
fn a_range_spelled_for_every_dialect_needs_no_pattern() {
    let t = check("enum R : u3 spelled \".{NAME}\" { x = 0, r(1..=7) asm \"r{v}\" }\n");
    let e = t.enums.iter().find(|e| e.name == "R").expect("enum");
    let texts: Vec<&str> = e.variants.iter().map(|v| v.spellings[0][0].text.as_str()).collect();
    assert_eq!(texts, [".X", "r{v}"]);
}

/// Each mistake of the two shorthands is one error where it is: a catch-all left to a pattern,
/// a valueless variant after a `use` (also after a variant that follows it), and an enum whose
/// only values come by `use` say no more than that (no "each has a spelling of its own").
#[test]
fn shorthand_mistakes_are_one_error_each() {
    insta::assert_snapshot!(diagnose(&spec(
        "enum A : u2 spelled \".{NAME}\" { x(_) }\n\
         enum B : u4 spelled \"{name}!\" { use A, z }\n\
         enum C : u4 spelled \"{name}!\" { use A }\n\
         enum D : u4 { a = 5, use A, b }\n"
    )));
}

#[test]
fn a_spelling_pattern_s_mistakes_are_located() {
    insta::assert_snapshot!(diagnose(&spec(
        "enum A : u2 spelled \".X\" { a = 0 }\n\
         enum B : u2 spelled \".{NAME}{v}\" { b = 0 }\n\
         enum C : u2 spelled \"{name}\" { c = 0 }\n\
         enum D : u3 spelled \".{NAME}\" { d(0..=3), e = 4 }\n\
         enum E : u2 spelled \".{NAME}\" { e = 0 \".E\" }\n"
    )));
}

/// A group parameter bound to `fields { ... }` stands for those items in the group's runs, and
/// one bound to `syntax { ... }` for those items in its syntax: a family of encodings is one
/// table, a row each (name, opcode, the fields and text that differ). A run's `0: u2` is
/// `zero @`: a fixed field named after its bits.
#[test]
fn a_row_of_fields_and_a_piece_of_syntax_are_arguments() {
    let t = check(
        "enum Round : u2 { rn = 0 \"\", rm = 1 \".RM\", rp = 2 \".RP\", rz = 3 \".RZ\" }\n\
         group alu(op, mods, text) {\n    fields @ 31:16 { opcode: u6 is op, 0: u2, mods, 0 }\n    fields @ 15:0 { ra: u8, rd: u8 }\n\
         \x20   syntax asm { text \" \" {rd} \", \" {ra} }\n}\n\
         format dadd = alu(0x0e, fields { _, neg, /// Rounding.\n    rnd: Round, _: u3 }, syntax { \"DADD\" {rnd} })\n\
         format dmul = alu(0x10, fields { sat, _: u5, cc }, syntax { \"DMUL\" [sat: \".SAT\"] [cc: \".CC\"] })\n",
    );
    let (dadd, dmul) = (&t.formats[0], &t.formats[1]);
    let names: Vec<&str> = dadd.fields.iter().map(|x| x.name.as_str()).collect();
    assert_eq!(names, ["opcode", "zero_25_24", "neg", "rnd", "zero_16", "ra", "rd"]);
    assert_eq!(field(dadd, "rnd").pieces, [ir::Piece { lo: 20, width: 2 }]);
    assert_eq!(field(dadd, "rnd").doc, "Rounding.");
    assert_eq!(field(dadd, "zero_25_24").fixed, Some(0));
    assert_eq!(field(dmul, "cc").pieces, [ir::Piece { lo: 17, width: 1 }]);
    let lits = |f: &ir::Format| -> Vec<String> {
        f.syntax[0].parts[0].arms[0]
            .items
            .iter()
            .filter_map(|i| if let ir::SyntaxItem::Lit(s) = i { Some(s.clone()) } else { None })
            .collect()
    };
    assert_eq!(lits(dadd)[0], "DADD");
    assert_eq!(lits(dmul)[0], "DMUL");
}

/// A row or a piece of syntax where the other (or a value) is wanted, a row that does not fill
/// its run, and either passed to a template are errors at the place, naming the row.
#[test]
fn row_and_syntax_argument_mistakes_are_located() {
    insta::assert_snapshot!(diagnose(&spec(
        "group alu(op, mods, text) {\n    fields @ 31:16 { opcode: u6 is op, mods, _: u2 }\n    rd: u8 @ 7:0\n\
         \x20   syntax asm { text \" \" {rd} }\n}\n\
         format short = alu(1, fields { sat }, syntax { \"S\" })\n\
         format swapped = alu(2, syntax { \"W\" }, fields { _: u8 })\n\
         format valued = alu(fields { _: u8 }, fields { _: u8 }, syntax { \"V\" })\n\
         template t(x) { \"t\" }\n\
         group called(text) {\n    op: u8 @ 31:24 is 0xff\n    syntax asm { t(text) }\n}\n\
         format tcall = called(syntax { \"C\" })\n"
    )));
}

/// `x & 0` folds to 0 in a guard (a mask a template's parameter made empty): the generated Rust
/// has no "&-masking with zero", which clippy refuses.
#[test]
fn masking_with_zero_folds_away() {
    let src = spec(
        "format f {\n    op: u4 @ 31:28 is 1\n    sbs: u6 @ 5:0\n    syntax asm { \"f\" mark(0) mark(2) }\n}\n\
         template mark(k) { | sbs & ((1 << k) - 1) != 0 => \",\" {k} | _ => {k} }\n",
    );
    let t = isa_compiler::check_source(&src)
        .unwrap_or_else(|d| panic!("{}", isa_compiler::diag::render("ok.isa", &src, &d)));
    let parts = &t.formats[0].syntax[0].parts;
    let guards: Vec<String> =
        parts.iter().filter(|p| p.name == "mark").map(|p| format!("{:?}", p.arms[0].guard)).collect();
    assert!(!guards[0].contains("BitAnd"), "mark(0) masks with 0: {guards:?}");
    assert!(guards[1].contains("BitAnd"), "mark(2) masks with 3: {guards:?}");
    let code = isa_compiler::backend::rust::generate_compact_from(&t, "x.isa");
    assert!(!code.contains("& 0)") && !code.contains("& 0 "), "no masking with zero in:\n{code}");
}

/// One declaration placed twice with other bits, type or value is an error at it, not the
/// first place kept: a row named in two runs, a row passed to two groups, a group used twice
/// with other bits or another type. (The second field was dropped, its bits left to nothing.)
#[test]
fn a_declaration_placed_twice_is_located() {
    insta::assert_snapshot!(diagnose(&spec(
        "group twice(r) {\n    fields @ 31:24 { r }\n    fields @ 23:16 { r }\n    op: u4 @ 3:0 is 4\n    syntax asm { \"a\" }\n}\n\
         format rows = twice(fields { a: u8 })\n\
         group hi(r) {\n    fields @ 31:24 { r }\n}\n\
         group lo(r) {\n    fields @ 23:16 { r }\n}\n\
         group both(r) {\n    use hi(r)\n    use lo(r)\n    op: u4 @ 3:0 is 1\n    syntax asm { \"b\" }\n}\n\
         format passed = both(fields { x: u8 })\n\
         group nib(at, T) {\n    y: T @ at:at - 3\n}\n\
         format groups {\n    op: u4 @ 3:0 is 2\n    use nib(31, u4)\n    use nib(27, u4)\n    use nib(23, u4) as lo\n    syntax asm { \"g\" }\n}\n\
         format types {\n    op: u4 @ 3:0 is 3\n    use nib(31, u4)\n    use nib(31, s4)\n    syntax asm { \"t\" }\n}\n"
    )));
}

/// A group two included groups use is one field, not two (the same declaration, bits and type).
#[test]
fn a_group_reached_twice_is_one_field() {
    let t = check(
        "group reg {\n    rd: u8 @ 7:0\n}\n\
         group a {\n    use reg\n}\n\
         group b {\n    use reg\n}\n\
         format f {\n    op: u4 @ 31:28 is 1\n    use a\n    use b\n    syntax asm { \"f \" {rd} }\n}\n",
    );
    let names: Vec<&str> = t.formats[0].fields.iter().map(|x| x.name.as_str()).collect();
    assert_eq!(names, ["op", "rd"]);
}

/// A doc comment may stand before a run's `0` item too (README §6: "before any item of a
/// run"), in a run and in a row: it is the zero field's doc. It was a syntax error.
#[test]
fn a_zero_item_keeps_its_doc_comment() {
    let t = check(
        "group g(r) {\n    fields @ 31:24 { op: u4 is 1, r }\n    syntax asm { \"g\" }\n}\n\
         format f = g(fields { /// Reserved by the row.\n    0: u4 })\n\
         format h {\n    fields @ 31:24 { op: u4 is 2, /// Reserved.\n    0: u3, 0 }\n    syntax asm { \"h\" }\n}\n",
    );
    assert_eq!(field(&t.formats[0], "zero_27_24").doc, "Reserved by the row.");
    assert_eq!(field(&t.formats[1], "zero_27_25").doc, "Reserved.");
    assert_eq!(field(&t.formats[1], "zero_24").doc, "");
    assert_eq!(field(&t.formats[1], "zero_27_25").fixed, Some(0));
}

/// A row or piece of syntax that nothing names is an error at the argument, with the
/// parameter: a group's, a form's and a template's (before, it was dropped unsaid).
#[test]
fn an_unused_row_or_piece_is_located() {
    insta::assert_snapshot!(diagnose(&spec(
        "group g(op, mods, text) {\n    opcode: u8 @ 31:24 is op\n    syntax asm { \"g\" }\n}\n\
         format f = g(1, fields { sat }, syntax { \"F\" })\n\
         group h {\n    form a(op, more) {\n        opcode: u8 @ 31:24 is op\n    }\n    syntax asm { \"h\" }\n}\n\
         format k {\n    use h { a(2, syntax { \"K\" }) }\n}\n\
         template t(x) { \"t\" }\n\
         format c {\n    op: u8 @ 31:24 is 3\n    syntax asm { t(syntax { \"C\" }) }\n}\n"
    )));
}

/// A piece of syntax given to a template stands where the template names it as an item; named
/// where a value is wanted, or called with arguments, it is an error at the place.
#[test]
fn a_piece_given_to_a_template_is_shown_or_located() {
    let t = check(
        "template op(m, srcs) { m \" \" {rd} srcs }\n\
         format f {\n    op: u4 @ 31:28 is 1\n    rd: u8 @ 7:0\n    ra: u8 @ 15:8\n    sat: bool @ 16\n\
         \x20   syntax asm { op(syntax { \"F\" [sat: \".S\"] }, syntax { \", \" {ra} }) }\n}\n",
    );
    let syntax = format!("{:?}", t.formats[0].syntax[0]);
    assert!(
        syntax.contains("Lit(\"F\")") && syntax.contains("Lit(\".S\")") && syntax.contains("Lit(\", \")"),
        "{syntax}"
    );
    // A template of one sequence is written out where it is called: no part of its own.
    assert!(t.formats[0].syntax[0].parts.iter().all(|p| p.name != "op"), "{syntax}");
    // One with arms is a part, named as the template.
    let t = check(
        "template op(m) { | rd == 0 => m | _ => m \" \" {rd} }\n\
         format f {\n    op: u4 @ 31:28 is 1\n    rd: u8 @ 7:0\n    syntax asm { op(syntax { \"F\" }) }\n}\n",
    );
    let parts = &t.formats[0].syntax[0].parts;
    assert!(parts.iter().any(|p| p.name == "op"), "{parts:?}");
    insta::assert_snapshot!(diagnose(&spec(
        "template v(x) { | x == 1 => \"one\" | _ => x(1) }\n\
         format f {\n    op: u4 @ 31:28 is 1\n    syntax asm { v(syntax { \"V\" }) }\n}\n"
    )));
}

/// A format's `let` is visible in the file's templates its syntax calls (directly or through
/// other templates), as its fields are.
#[test]
fn a_formats_let_is_visible_in_file_templates() {
    let t = check(
        "template mark { inner }\n\
         template inner { | same => \"=\" | _ => \"!\" }\n\
         format f {\n    op: u4 @ 31:28 is 1\n    ra: u8 @ 15:8\n    rb: u8 @ 7:0\n    let same = ra == rb\n\
         \x20   syntax asm { \"f \" {ra} mark }\n}\n\
         format g {\n    op: u4 @ 31:28 is 2\n    ra: u8 @ 15:8\n    let same = ra == 0\n    syntax asm { \"g \" {ra} mark }\n}\n",
    );
    for f in &t.formats {
        let syntax = format!("{:?}", f.syntax[0]);
        assert!(syntax.contains("Lit(\"=\")") && syntax.contains("Cmp(Eq"), "{}: {syntax}", f.name);
    }
}

/// What a constant parameter decides is decided before names are read: the branch not taken
/// of an `if` (statement or expression) and of `&&`/`||` may name fields the format lacks.
#[test]
fn a_constant_parameter_decides_before_names_are_read() {
    let t = check(
        "machine {\n    r[16]: u32\n}\n\
         group mov(op, wide) {\n    opcode: u4 @ 31:28 is op\n    rd: u4 @ 3:0\n\
         \x20   let v = if wide then hi else 0\n\
         \x20   syntax asm { | wide && hi == 0 => \"zero \" {rd} | _ => \"mov \" {rd} }\n\
         \x20   property big = wide && hi > 10\n\
         \x20   execute { if wide { r[rd] = v; } else { r[rd] = 1; } }\n}\n\
         property big: bool = false\n\
         format movw = mov(1, true) {\n    hi: u8 @ 15:8\n}\n\
         format movn = mov(2, false)\n",
    );
    let movn = &t.formats[1];
    assert_eq!(movn.name, "movn");
    // `movn` has no `hi`: its block is the else branch alone, `movw`'s the then branch.
    let block = |k: usize| format!("{:?}", t.formats[k].execute);
    assert!(!block(1).contains("If") && block(1).contains("Int(1)"), "{}", block(1));
    assert!(!block(0).contains("If") && !block(0).contains("Int(1)"), "{}", block(0));
}
