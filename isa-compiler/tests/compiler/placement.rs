//! The placement module against a plain reference model, over random specs.
//!
//! Each case writes a spec: a 128-bit format and layouts whose fields have 1 to 64 bits in one
//! to three pieces (in any order), ascending and descending arrays, layouts nested in layouts
//! (scalar, split over two pieces, arrays) and layout-typed format fields, with layout names
//! that sometimes clash with the target's or the format's type name. The generator keeps its
//! own record of where every bit goes; the reference model below reads only that record, bit
//! by bit, and never calls the compiler. The checked spec must then agree with it: setting a
//! field (a nested leaf) to all ones sets exactly the reference's bits, any value lands where
//! the reference puts it bit by bit, and extract after insert gives the value back.

use isa_compiler::ir::{self, Type};
use isa_compiler::{backend, check_source, placement};
use proptest::prelude::*;

/// One piece as the generator wrote it: element `i` has `width` bits from `lo + stride * i`.
#[derive(Debug, Clone, Copy)]
struct RefPiece {
    lo: i64,
    stride: i64,
    width: u32,
}

/// A field as the generator wrote it. `ty`: `None` for `uN`, `Some(k)` for inner layout `k`.
#[derive(Debug, Clone)]
struct RefField {
    name: String,
    /// Most significant first.
    pieces: Vec<RefPiece>,
    count: Option<u32>,
    ty: Option<usize>,
    fixed: Option<u64>,
    default: Option<u64>,
}

impl RefField {
    fn width(&self) -> u32 {
        self.pieces.iter().map(|p| p.width).sum()
    }
}

/// The reference model: the word bit that holds value bit `t` of element `i`, walking the
/// pieces from the least significant one up, one bit at a time.
fn ref_bit(pieces: &[RefPiece], i: u32, t: u32) -> Option<u32> {
    let mut seen = 0;
    for p in pieces.iter().rev() {
        for b in 0..p.width {
            if seen == t {
                return Some((p.lo + p.stride * i64::from(i) + i64::from(b)) as u32);
            }
            seen += 1;
        }
    }
    None
}

/// The reference word with value `v` written at element `i` of `pieces`.
fn ref_place(pieces: &[RefPiece], i: u32, v: u64) -> u128 {
    let width: u32 = pieces.iter().map(|p| p.width).sum();
    let mut word = 0u128;
    for t in 0..width {
        if (v >> t) & 1 == 1 {
            word |= 1u128 << ref_bit(pieces, i, t).expect("bit inside the field");
        }
    }
    word
}

fn ones(width: u32) -> u64 {
    if width >= 64 {
        u64::MAX
    } else {
        (1 << width) - 1
    }
}

/// Hands out disjoint bit ranges below `limit`, with small random gaps.
struct Alloc {
    next: u32,
    limit: u32,
}

impl Alloc {
    fn take(&mut self, bits: u32, gap: u32) -> Option<u32> {
        let lo = self.next + gap;
        (lo + bits <= self.limit).then(|| {
            self.next = lo + bits;
            lo
        })
    }
}

/// The raw choices of one field: piece widths, array shape, piece order, type, clauses.
#[derive(Debug, Clone)]
struct Choice {
    widths: Vec<u32>,
    count: u32,
    descending: Vec<bool>,
    extra_stride: Vec<u32>,
    gaps: Vec<u32>,
    rotate: usize,
    layout: Option<usize>,
    value: u64,
    clause: u8,
}

fn choice(max_width: u32) -> impl Strategy<Value = Choice> {
    (
        prop::collection::vec(1..=max_width, 1..=3),
        prop_oneof![Just(1u32), 2..=5u32],
        prop::collection::vec(any::<bool>(), 3),
        prop::collection::vec(0..=2u32, 3),
        prop::collection::vec(0..=3u32, 3),
        0..3usize,
        prop::option::weighted(0.4, 0..2usize),
        any::<u64>(),
        0..3u8,
    )
        .prop_map(|(widths, count, descending, extra_stride, gaps, rotate, layout, value, clause)| {
            Choice { widths, count, descending, extra_stride, gaps, rotate, layout, value, clause }
        })
}

/// Turns choices into fields that fit below `limit`; `layouts` holds the inner layouts'
/// widths (a field of layout type takes its width in one or two pieces). Arrays are made
/// of non-array-like pieces with their own stride; fixed and default values go on scalars.
fn make_fields(
    choices: &[Choice],
    limit: u32,
    layouts: &[u32],
    clauses: bool,
    prefix: &str,
) -> Vec<RefField> {
    let mut alloc = Alloc { next: 0, limit };
    let mut out = Vec::new();
    for (n, c) in choices.iter().enumerate() {
        let ty = c.layout.filter(|k| *k < layouts.len());
        let mut widths: Vec<u32> = match ty {
            Some(k) if c.widths.len() > 1 && layouts[k] > 1 => {
                let first = (c.widths[0] % (layouts[k] - 1)) + 1;
                vec![first, layouts[k] - first]
            }
            Some(k) => vec![layouts[k]],
            None => c.widths.clone(),
        };
        // A format field holds at most 64 bits.
        while widths.iter().sum::<u32>() > 64 {
            widths.pop();
        }
        let count = if c.count > 1 { Some(c.count) } else { None };
        let mut pieces = Vec::new();
        let mut ok = true;
        for (k, &w) in widths.iter().enumerate() {
            let elements = count.unwrap_or(1);
            let stride = w + c.extra_stride[k];
            let span = stride * (elements - 1) + w;
            let Some(base) = alloc.take(span, c.gaps[k]) else {
                ok = false;
                break;
            };
            let (lo, stride) = match (count, c.descending[k]) {
                (None, _) => (i64::from(base), 0),
                (Some(n), true) => (i64::from(base + stride * (n - 1)), -i64::from(stride)),
                (Some(_), false) => (i64::from(base), i64::from(stride)),
            };
            pieces.push(RefPiece { lo, stride, width: w });
        }
        // A field that does not fit is left out; a later, smaller one may.
        if !ok || pieces.is_empty() {
            continue;
        }
        // The most significant piece need not be the highest one.
        let len = pieces.len();
        pieces.rotate_left(c.rotate % len);
        let width: u32 = pieces.iter().map(|p| p.width).sum();
        let value = c.value & ones(width);
        let (fixed, default) = match (clauses && count.is_none() && ty.is_none(), c.clause) {
            (true, 1) => (Some(value), None),
            (true, 2) => (None, Some(value)),
            _ => (None, None),
        };
        out.push(RefField { name: format!("{prefix}{n}"), pieces, count, ty, fixed, default });
    }
    out
}

fn piece_text(p: &RefPiece) -> String {
    match p.stride {
        0 => format!("{} +: {}", p.lo, p.width),
        s if s < 0 => format!("{} - {} * i +: {}", p.lo, -s, p.width),
        s => format!("{} + {s} * i +: {}", p.lo, p.width),
    }
}

fn field_text(f: &RefField, layout_names: &[String]) -> String {
    let ty = match f.ty {
        Some(k) => layout_names[k].clone(),
        None => format!("u{}", f.width()),
    };
    let count = f.count.map_or(String::new(), |n| format!("[{n}]"));
    let bits = if f.pieces.len() == 1 {
        piece_text(&f.pieces[0])
    } else {
        format!("[{}]", f.pieces.iter().map(piece_text).collect::<Vec<_>>().join(", "))
    };
    let mut text = format!("    {}{count}: {ty} @ {bits}", f.name);
    if let Some(v) = f.fixed {
        text.push_str(&format!(" is {v}"));
    }
    if let Some(v) = f.default {
        text.push_str(&format!(" default {v}"));
    }
    text + ",\n"
}

/// A random spec and the generator's record of it.
#[derive(Debug, Clone)]
struct Case {
    source: String,
    /// Inner layouts (name, width, fields), then the outer layout, in declaration order.
    layouts: Vec<(String, u32, Vec<RefField>)>,
    format: Vec<RefField>,
}

fn case() -> impl Strategy<Value = Case> {
    case_with(true)
}

/// Random specs; `clauses`: whether scalar format fields may get `is` and `default`.
fn case_with(clauses: bool) -> impl Strategy<Value = Case> {
    (
        prop::collection::vec((4..=32u32, prop::collection::vec(choice(8), 1..4)), 2),
        prop::collection::vec(choice(64), 1..6),
        prop::collection::vec(choice(24), 1..6),
        0..3u8,
        48..=128u32,
    )
        .prop_map(move |(inner, format_choices, outer_choices, clash, outer_width)| {
            // Layout names: sometimes the target's type name (`T`) or the format's (`F`).
            let names: Vec<String> = vec![
                match clash {
                    1 => "T".into(),
                    2 => "F".into(),
                    _ => "In0".into(),
                },
                "In1".into(),
            ];
            let mut layouts = Vec::new();
            for (k, (width, choices)) in inner.iter().enumerate() {
                let fields = make_fields(choices, *width, &[], false, "g");
                layouts.push((names[k].clone(), *width, fields));
            }
            let widths: Vec<u32> = layouts.iter().map(|l| l.1).collect();
            let outer = make_fields(&outer_choices, outer_width, &widths, false, "o");
            layouts.push(("Outer".into(), outer_width, outer));
            let format = make_fields(&format_choices, 120, &widths, clauses, "x");
            let mut source =
                String::from("target t {\n    word 128\n    dialect asm { comment \"#\" }\n}\n\n");
            for (name, width, fields) in &layouts {
                source.push_str(&format!("layout {name} : {width} {{\n"));
                for f in fields {
                    source.push_str(&field_text(f, &names));
                }
                source.push_str("}\n\n");
            }
            source.push_str("format f {\n    op: u8 @ 127:120 is 1,\n");
            for f in &format {
                source.push_str(&field_text(f, &names));
            }
            source.push_str("    syntax asm { \"f\" }\n}\n");
            Case { source, layouts, format }
        })
}

fn checked(case: &Case) -> ir::Target {
    match check_source(&case.source) {
        Ok(t) => t,
        Err(d) => panic!("the checker rejects\n{}\n{d:#?}", case.source),
    }
}

/// The placement module's answer for element `i` of `field` agrees with the reference for
/// all ones and for `v`, and extract inverts place.
fn agrees(field: &ir::Field, reference: &[RefPiece], i: u32, v: u64) -> Result<(), TestCaseError> {
    let pieces = placement::element_pieces(field, i);
    let width: u32 = reference.iter().map(|p| p.width).sum();
    let all = ones(width);
    prop_assert_eq!(
        placement::place(&pieces, all),
        ref_place(reference, i, all),
        "{}[{}] all ones",
        field.name,
        i
    );
    prop_assert_eq!(placement::mask(&pieces), ref_place(reference, i, all), "{}[{}] mask", field.name, i);
    let v = v & all;
    let word = placement::place(&pieces, v);
    prop_assert_eq!(word, ref_place(reference, i, v), "{}[{}] = {:#x}", field.name, i, v);
    prop_assert_eq!(placement::extract(&pieces, word), v);
    // Other bits of the word do not leak into the value.
    prop_assert_eq!(placement::extract(&pieces, word | !placement::mask(&pieces)), v);
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn format_fields_sit_where_the_reference_says(case in case(), v in any::<u64>()) {
        let t = checked(&case);
        let f = &t.formats[0];
        prop_assert_eq!(f.fields.len(), case.format.len() + 1);
        let mut fixed = 1u128 << 120;
        let mut default = 1u128 << 120;
        for (field, reference) in f.fields[1..].iter().zip(&case.format) {
            prop_assert_eq!(&field.name, &reference.name);
            prop_assert_eq!(placement::element_count(field), reference.count.unwrap_or(1));
            for i in 0..reference.count.unwrap_or(1) {
                agrees(field, &reference.pieces, i, v.rotate_left(i))?;
                default |= ref_place(&reference.pieces, i, reference.fixed.or(reference.default).unwrap_or(0));
            }
            if let Some(x) = reference.fixed {
                fixed |= ref_place(&reference.pieces, 0, x);
            }
        }
        prop_assert_eq!(placement::fixed_bits(&f.fields), fixed);
        prop_assert_eq!(placement::default_word(f), default);
    }

    #[test]
    fn nested_layout_leaves_sit_where_the_reference_says(case in case(), v in any::<u64>()) {
        let t = checked(&case);
        let outer = t.layouts.len() - 1;
        let expected = leaf_bits(&case, &case.layouts[outer].2);
        let leaves = placement::leaves(&t, ir::LayoutId(outer));
        let paths: Vec<&str> = leaves.iter().map(|l| l.path.as_str()).collect();
        let want: Vec<&str> = expected.iter().map(|e| e.0.as_str()).collect();
        prop_assert_eq!(paths, want);
        for (leaf, (path, bits)) in leaves.iter().zip(&expected) {
            let all = ones(bits.len() as u32);
            prop_assert_eq!(bits.len() as u32, leaf.pieces.iter().map(|p| p.width).sum::<u32>());
            let reference_all = bits.iter().fold(0u128, |w, b| w | 1 << b);
            let reference_v =
                bits.iter().enumerate().filter(|(t, _)| (v >> t) & 1 == 1).fold(0u128, |w, (_, b)| w | 1 << b);
            prop_assert_eq!(placement::place(&leaf.pieces, all), reference_all, "{} all ones", path);
            prop_assert_eq!(placement::place(&leaf.pieces, v & all), reference_v, "{} = {:#x}", path, v & all);
            prop_assert_eq!(placement::extract(&leaf.pieces, reference_v), v & all);
        }
        // Layout fields themselves (arrays included) agree too.
        for (k, (_, _, fields)) in case.layouts.iter().enumerate() {
            for (field, reference) in t.layouts[k].fields.iter().zip(fields) {
                for i in 0..reference.count.unwrap_or(1) {
                    agrees(field, &reference.pieces, i, v.rotate_right(i))?;
                }
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    /// The generated Rust of random specs parses, and every layout-typed member of the format
    /// struct names a layout view (a struct of `words`), whatever the layout's name clashes with.
    #[test]
    fn generated_rust_names_layout_views_consistently(case in case()) {
        let t = checked(&case);
        let text = backend::rust::generate(&t);
        let file = syn::parse_file(&text).map_err(|e| TestCaseError::fail(format!("{e}\n{text}")))?;
        let structs: Vec<&syn::ItemStruct> = file
            .items
            .iter()
            .filter_map(|i| match i {
                syn::Item::Struct(s) => Some(s),
                _ => None,
            })
            .collect();
        let is_view = |name: &str| {
            structs.iter().any(|s| {
                s.ident == name && s.fields.iter().any(|f| f.ident.as_ref().is_some_and(|x| x == "words"))
            })
        };
        let format = structs.iter().find(|s| s.ident == "F" && !is_view("F"));
        let format = format.ok_or_else(|| TestCaseError::fail("no format struct `F`"))?;
        // Fixed fields are no members: match members by name.
        for reference in case.format.iter().filter(|f| f.ty.is_some()) {
            let member = format.fields.iter().find(|m| m.ident.as_ref().is_some_and(|x| *x == reference.name));
            let member = member.ok_or_else(|| TestCaseError::fail(format!("no member `{}`", reference.name)))?;
            let ty = match &member.ty {
                syn::Type::Array(a) => &*a.elem,
                ty => ty,
            };
            let name = quote::quote!(#ty).to_string();
            prop_assert!(is_view(&name), "`{}: {}` is not a layout view", reference.name, name);
        }
        prop_assert!(!text.contains("from_raw") && !text.contains("to_raw"));
        let kinds: Vec<bool> = t.formats[0].fields.iter().map(|f| matches!(f.ty, Type::Layout(_))).collect();
        prop_assert_eq!(kinds.iter().filter(|k| **k).count(), case.format.iter().filter(|f| f.ty.is_some()).count());
    }
}

/// The reference leaves of `fields` (layouts of `case` expanded, arrays element by element):
/// each path with the bit that holds value bit 0, 1, ... of the leaf.
fn leaf_bits(case: &Case, fields: &[RefField]) -> Vec<(String, Vec<u32>)> {
    let mut out = Vec::new();
    for f in fields {
        for i in 0..f.count.unwrap_or(1) {
            let path = match f.count {
                Some(_) => format!("{}[{i}]", f.name),
                None => f.name.clone(),
            };
            match f.ty {
                None => out.push((path, (0..f.width()).filter_map(|b| ref_bit(&f.pieces, i, b)).collect())),
                Some(k) => {
                    for g in &case.layouts[k].2 {
                        for j in 0..g.count.unwrap_or(1) {
                            let leaf = match g.count {
                                Some(_) => format!("{path}.{}[{j}]", g.name),
                                None => format!("{path}.{}", g.name),
                            };
                            // Leaf bit -> bit of the inner layout -> bit of the outer one.
                            let bits = (0..g.width())
                                .filter_map(|b| ref_bit(&f.pieces, i, ref_bit(&g.pieces, j, b)?))
                                .collect();
                            out.push((leaf, bits));
                        }
                    }
                }
            }
        }
    }
    out
}

/// The bits some pieces cover, as the docs' Word cells read them: lowest bit and one past the
/// highest, whatever the order of the pieces.
#[test]
fn pieces_span_bounds_scattered_pieces() {
    let p = |lo, width| ir::Piece { lo, width };
    assert_eq!(placement::pieces_span(&[p(56, 8), p(0, 8)]), (0, 64));
    assert_eq!(placement::pieces_span(&[p(16, 16), p(40, 2)]), (16, 42));
    assert_eq!(placement::pieces_span(&[p(3, 1)]), (3, 4));
    assert_eq!(placement::pieces_span(&[]), (0, 0));
}

/// Writes `isa-derive/tests/specs/random_{0,1,2}.isa`, random specs (fixed seed, no `is` or
/// `default` on fields) headed by the reference bits of every format leaf as `// ref` lines,
/// which `isa-derive/tests/derive/random_specs.rs` compiles and checks. Run with `--ignored` to
/// regenerate them after changing the generator.
#[test]
#[ignore]
fn write_compiled_samples() {
    use proptest::strategy::ValueTree;
    let mut runner = proptest::test_runner::TestRunner::deterministic();
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../isa-derive/tests/specs");
    for k in 0..3 {
        let case = case_with(false).new_tree(&mut runner).expect("a case").current();
        checked(&case);
        let mut text = String::from(
            "// Generated by isa-compiler/tests/compiler/placement.rs (write_compiled_samples): the\n",
        );
        text.push_str("// reference bits of each format leaf, least significant value bit first.\n");
        for (path, bits) in leaf_bits(&case, &case.format) {
            let bits: Vec<String> = bits.iter().map(|b| b.to_string()).collect();
            text.push_str(&format!("// ref {path} {}\n", bits.join(" ")));
        }
        text.push('\n');
        text.push_str(&case.source);
        std::fs::write(dir.join(format!("random_{k}.isa")), text).expect("the specs directory is writable");
    }
}
