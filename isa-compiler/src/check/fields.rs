//! Fields of formats and layouts: types, bit positions, overlaps, and the word patterns of
//! formats (fixed opcode bits and allowed-value restrictions).

use super::{types, Checker};
use crate::ast::{self, Span};
use crate::ir::{self, Piece, Type};
use crate::placement;

/// Mask of the low `w` bits.
pub fn mask(w: u32) -> u64 {
    if w >= 64 {
        u64::MAX
    } else {
        (1u64 << w) - 1
    }
}

/// Checks every layout and format; fills `t.layouts` and `t.formats` in declaration order.
/// Returns each format's declaration: later stages pair a format with its source through this.
pub fn layouts_and_formats<'a>(cx: &mut Checker, file: &'a ast::File, t: &mut ir::Target) -> Origins<'a> {
    let mut origins = Vec::new();
    // Layout widths first: fields may nest layouts declared later.
    let mut layout_names: Vec<(String, u32)> = Vec::new();
    for item in &file.items {
        if let ast::Item::Layout(l) = item {
            if l.kind == ast::LayoutKind::Data {
                let w = match &l.width {
                    Some(e) => match const_eval(e, None) {
                        Some(v) if v > 0 && v <= 1 << 16 => v as u32,
                        _ => {
                            cx.error(e.span, "a layout's width is a positive constant number of bits");
                            0
                        }
                    },
                    None => 0,
                };
                layout_names.push((l.name.name.clone(), w));
            }
        }
    }
    for item in &file.items {
        let ast::Item::Layout(l) = item else { continue };
        match l.kind {
            ast::LayoutKind::Data => {
                let width = layout_names.iter().find(|(n, _)| *n == l.name.name).map_or(0, |x| x.1);
                if let Some((_, span)) = &l.reserved {
                    cx.error(*span, "`reserved` marks an encoding: a layout's reserved bits are `unused`");
                }
                let (fields, unused) = fields_of(cx, t, &layout_names, l, width);
                for f in &l.fields {
                    if let Some((_, span)) = &f.lengths {
                        cx.error(*span, "only an instruction's field picks its length");
                    }
                }
                let reserved = l
                    .unused
                    .iter()
                    .filter_map(|u| {
                        Some(ir::Reserved {
                            name: u.name.as_ref().map(|n| n.name.clone()),
                            doc: u.doc.clone(),
                            pieces: pieces_at(cx, &u.bits, None, RESERVED_PIECE)?,
                            after: u.after,
                        })
                    })
                    .collect();
                let layout = ir::Layout {
                    name: l.name.name.clone(),
                    doc: l.doc.clone(),
                    width,
                    fields,
                    unused,
                    reserved,
                    union: None,
                    constraints: Vec::new(),
                    leaves: Vec::new(),
                };
                reserved_names(cx, l, &layout);
                t.layouts.push(layout);
            }
            ast::LayoutKind::Format => {
                let width = match &l.width {
                    Some(e) => match const_eval(e, None) {
                        // The word is the longest instruction: the generated decoder reads a
                        // word of the target's width, so a wider format could never be read.
                        Some(v) if v > i64::from(t.word_bits) && v <= 128 => {
                            cx.error(
                                e.span,
                                format!(
                                    "format `{}` is {v} bits, wider than the target's {}-bit word",
                                    l.name.name, t.word_bits
                                ),
                            )
                            .note("the target's `word` is its longest instruction; a format declares a width up to it");
                            t.word_bits
                        }
                        Some(v) if v > 0 && v <= 128 => v as u32,
                        _ => {
                            cx.error(e.span, "a format's width is 1 to 128 bits");
                            t.word_bits
                        }
                    },
                    None => t.word_bits,
                };
                let (mut fields, unused) = fields_of(cx, t, &layout_names, l, width);
                let length = length_field(cx, l, &mut fields, width);
                let pattern = by_length(pattern(cx, &fields), &fields, length.as_ref());
                if pattern.is_empty() {
                    cx.error(l.name.span, format!("format `{}` matches no word", l.name.name)).note(
                        "the values its fields allow (`is`, `in`) leave none: it could never be decoded",
                    );
                }
                origins.push((ir::FormatId(t.formats.len()), l));
                t.formats.push(ir::Format {
                    name: l.name.name.clone(),
                    doc: l.doc.clone(),
                    width,
                    fields,
                    unused,
                    pattern,
                    syntax: Vec::new(),
                    properties: Vec::new(),
                    constraints: Vec::new(),
                    execute: None,
                    reserved: l.reserved.as_ref().map(|r| r.0.clone()),
                    length,
                    span: l.name.span,
                });
            }
        }
    }
    // Nested layouts can now be given their real widths.
    let _ = layout_names;
    origins
}

/// The declaration each format of the target was made from.
pub type Origins<'a> = Vec<(ir::FormatId, &'a ast::Layout)>;

/// Evaluates a constant integer expression; `i` is the array index when given.
pub fn const_eval(e: &ast::Expr, i: Option<i64>) -> Option<i64> {
    use ast::{BinOp::*, ExprKind};
    Some(match &e.kind {
        ExprKind::Int(v) => i64::try_from(*v).ok()?,
        ExprKind::Name(n) if n == "i" => i?,
        ExprKind::Unary(ast::UnOp::Neg, x) => -const_eval(x, i)?,
        ExprKind::Binary(op, a, b) => {
            let (a, b) = (const_eval(a, i)?, const_eval(b, i)?);
            match op {
                Add => a.checked_add(b)?,
                Sub => a.checked_sub(b)?,
                Mul => a.checked_mul(b)?,
                Div => a.checked_div(b)?,
                Rem => a.checked_rem(b)?,
                Shl => a.checked_shl(u32::try_from(b).ok()?)?,
                Shr => a.checked_shr(u32::try_from(b).ok()?)?,
                BitAnd => a & b,
                BitOr => a | b,
                BitXor => a ^ b,
                _ => return None,
            }
        }
        _ => return None,
    })
}

/// The field of format `l` that picks its length (`length { 32, 48 }`), checked: one per
/// format, a plain field inside the shortest length, lengths whole bytes ascending to the
/// format's width, one per value at most. Values past the last length match no word.
fn length_field(
    cx: &mut Checker,
    l: &ast::Layout,
    fields: &mut [ir::Field],
    width: u32,
) -> Option<ir::LengthField> {
    let mut found: Option<ir::LengthField> = None;
    for f in &l.fields {
        let Some((lengths, span)) = &f.lengths else { continue };
        let Some(id) = fields.iter().position(|x| x.name == f.name.name && x.span == f.name.span) else {
            continue;
        };
        if found.is_some() {
            cx.error(*span, format!("`{}` has two fields that pick its length", l.name.name));
            continue;
        }
        let field = &mut fields[id];
        let plain =
            field.array.is_none() && field.pieces.len() == 1 && f.fixed.is_none() && f.allowed.is_none();
        if !plain {
            cx.error(
                f.name.span,
                "the field that picks the length is one bit range, not an array, without `is` or `in`",
            )
            .note("its value is the length's place in the list: the assembler sets it");
            continue;
        }
        let w = field.width();
        let bytes_ascending = lengths.iter().all(|b| *b > 0 && b % 8 == 0)
            && lengths.windows(2).all(|p| p[0] < p[1])
            && lengths.last() == Some(&u64::from(width));
        if !bytes_ascending {
            cx.error(*span, format!("lengths are whole bytes, ascending, and the longest is the format's width ({width} bits)"))
                .note("`format name : 48 { l: bool @ 15 length { 32, 48 } ... }`");
            continue;
        }
        if w < 64 && lengths.len() as u64 > 1u64 << w {
            cx.error(
                *span,
                format!(
                    "{} lengths, but the {w}-bit field `{}` has {} values",
                    lengths.len(),
                    f.name.name,
                    1u64 << w
                ),
            );
            continue;
        }
        let shortest = lengths[0] as u32;
        // The decoder must see the length before it knows how much to read. Fixed bits past
        // the shortest length are compared with the instruction's own bits (zero in a shorter
        // one): AGX's `ceil` is `floor`'s opcode with bit 32 set, so it is never short.
        if field.pieces.iter().any(|p| p.lo + p.width > shortest) {
            cx.error(field.span, format!("`{}` lies past the shortest length ({shortest} bits)", field.name))
                .note("the length field and the fixed (opcode) bits are read before the length is known");
            continue;
        }
        let field = &mut fields[id];
        if (lengths.len() as u64) < 1u64 << w.min(63) {
            field.allowed = Some(vec![(0, lengths.len() as u64 - 1)]);
        }
        found = Some(ir::LengthField {
            field: ir::FieldId(id),
            bits: lengths.iter().map(|b| *b as u32).collect(),
        });
    }
    found
}

/// Pieces at most 64 bits wide: a field's value is a `u64`.
const FIELD_PIECE: i64 = 64;
/// Reserved bits of a data layout are only a range: any width.
const RESERVED_PIECE: i64 = 1 << 16;

fn pieces_at(cx: &mut Checker, bits: &[ast::BitPiece], i: Option<i64>, max_width: i64) -> Option<Vec<Piece>> {
    let mut out = Vec::new();
    for b in bits {
        let (lo, width, sp) = match b {
            ast::BitPiece::Bit(e, sp) => (const_eval(e, i), Some(1), *sp),
            ast::BitPiece::Range(hi, lo, sp) => {
                let (h, l) = (const_eval(hi, i), const_eval(lo, i));
                match (h, l) {
                    (Some(h), Some(l)) if h < l => {
                        cx.error(*sp, format!("bit range {h}:{l} is written low to high"))
                            .label(format!("write it `{l}:{h}`, most significant bit first"));
                        return None;
                    }
                    (Some(h), Some(l)) => (Some(l), Some(h - l + 1), *sp),
                    _ => (None, None, *sp),
                }
            }
            ast::BitPiece::Width(lo, w, sp) => (const_eval(lo, i), const_eval(w, i), *sp),
        };
        // Each way a piece can be wrong has its own message: a wide `unused` range read as
        // "not a constant" sends the reader looking for the wrong mistake.
        let problem = match (lo, width) {
            (Some(lo), Some(w)) if lo >= 0 && w > 0 && lo < 1 << 20 && w <= max_width => {
                out.push(Piece { lo: lo as u32, width: w as u32 });
                continue;
            }
            (Some(lo), _) if lo < 0 => format!("bit {lo} is below bit 0"),
            (Some(lo), _) if lo >= 1 << 20 => {
                format!("bit {lo} is beyond the last bit a spec can name (2^20 - 1)")
            }
            (Some(_), Some(w)) if w <= 0 => "a bit range of no bits".to_string(),
            (Some(_), Some(w)) => {
                cx.error(sp, format!("a bit range of {w} bits: a piece is at most {max_width} bits wide"))
                    .note("split it into pieces (`unused @ 127:64, 63:0`)");
                return None;
            }
            _ => "bit positions must be constant numbers (and `i` in arrays)".to_string(),
        };
        cx.error(sp, problem);
        return None;
    }
    Some(out)
}

/// The lowest bit and the width of each piece of `bits` at array index `i`, unchecked.
fn raw_pieces(bits: &[ast::BitPiece], i: i64) -> Option<Vec<(i64, i64)>> {
    bits.iter()
        .map(|b| match b {
            ast::BitPiece::Bit(e, _) => Some((const_eval(e, Some(i))?, 1)),
            ast::BitPiece::Range(hi, lo, _) => {
                let (h, l) = (const_eval(hi, Some(i))?, const_eval(lo, Some(i))?);
                Some((l, h.checked_sub(l)?.checked_add(1)?))
            }
            ast::BitPiece::Width(lo, w, _) => Some((const_eval(lo, Some(i))?, const_eval(w, Some(i))?)),
        })
        .collect()
}

/// The signed stride of each piece of an `n`-element array whose element 0 is at `first`
/// (already checked). Every element must lie at non-negative bits and move by the stride the
/// first two elements show; the last element tells both, since positions are linear.
fn array_strides(
    cx: &mut Checker,
    field: &ast::Ident,
    bits: &[ast::BitPiece],
    first: &[Piece],
    n: u32,
) -> Option<Vec<i64>> {
    let name = &field.name;
    if n == 1 {
        return Some(vec![0; first.len()]);
    }
    let last = i64::from(n - 1);
    let (Some(second), Some(end)) = (raw_pieces(bits, 1), raw_pieces(bits, last)) else {
        cx.error(field.span, format!("the bits of `{name}[1]` or `{name}[{last}]` are not constant numbers"));
        return None;
    };
    let mut strides = Vec::new();
    for ((p, &(lo1, w1)), &(lo_end, w_end)) in first.iter().zip(&second).zip(&end) {
        let stride = lo1 - i64::from(p.lo);
        let expected = i64::from(p.lo) + stride * last;
        if w1 != i64::from(p.width) || w_end != i64::from(p.width) || lo_end != expected {
            cx.error(field.span, format!("the bits of array `{name}` do not move by a fixed stride"))
                .label(format!(
                    "element 0 starts at bit {}, element 1 at bit {lo1}, element {last} at bit {lo_end}",
                    p.lo
                ))
                .note("array bits are linear in `i`, with a constant width: `192 + 4 * i +: 4`");
            return None;
        }
        if !(0..1 << 20).contains(&lo_end) {
            cx.error(field.span, format!("element {last} of array `{name}` would start at bit {lo_end}"))
                .label(format!("element 0 starts at bit {}, and each element moves by {stride}", p.lo))
                .note("every element of an array lies at bits from 0 up (and below bit 2^20)");
            return None;
        }
        strides.push(stride);
    }
    Some(strides)
}

fn fields_of(
    cx: &mut Checker,
    t: &ir::Target,
    layouts: &[(String, u32)],
    l: &ast::Layout,
    width: u32,
) -> (Vec<ir::Field>, Vec<Piece>) {
    let mut fields: Vec<ir::Field> = Vec::new();
    let mut untyped: Vec<Span> = Vec::new();
    for f in &l.fields {
        if let Some(old) = fields.iter().find(|x| x.name == f.name.name) {
            if old.span == f.name.span {
                // One declaration reached twice with other bits, type or value.
                cx.error(f.name.span, format!("field `{}` is placed twice in `{}`", f.name.name, l.name.name)).note(
                    "this declaration stands twice with other bits, type or value: a row of fields named in two \
                     runs or passed to two groups, or a group used twice with other arguments; \
                     give each place fields of its own (`use g(3) as lo`, two rows)",
                );
                continue;
            }
            cx.error(f.name.span, format!("field `{}` is defined twice in `{}`", f.name.name, l.name.name))
                .with(old.span, "first defined here");
            continue;
        }
        let count = match &f.count {
            None => None,
            Some(e) => match const_eval(e, None) {
                Some(n) if n > 0 && n <= 4096 => Some(n as u32),
                _ => {
                    cx.error(e.span, "an array length is a positive constant");
                    None
                }
            },
        };
        let ty = match &f.ty {
            ast::TypeExpr::Named(id) => types::resolve(cx, t, layouts, id),
            ast::TypeExpr::Switch { .. } => Some(Type::Switch { tag: usize::MAX, arms: Vec::new() }),
        };
        let Some(pieces) = pieces_at(cx, &f.bits, count.map(|_| 0), FIELD_PIECE) else {
            continue;
        };
        let array = match count {
            None => None,
            Some(n) => {
                let Some(strides) = array_strides(cx, &f.name, &f.bits, &pieces, n) else {
                    continue;
                };
                Some((n, strides))
            }
        };
        // A type that did not resolve has had its error: the field stays, as the number its
        // bits hold, so that its uses report nothing more (its `is` and `default` are skipped).
        if ty.is_none() {
            untyped.push(f.name.span);
        }
        let ty = ty.unwrap_or_else(|| Type::UInt(pieces.iter().map(|p| p.width).sum()));
        fields.push(ir::Field {
            array,
            view: f.view,
            ..ir::Field::plain(f.name.name.clone(), f.doc.clone(), ty, pieces, f.name.span)
        });
    }
    // Switch types (need the tag field) and widths.
    for f in &l.fields {
        let Some(idx) = fields.iter().position(|x| x.name == f.name.name && x.span == f.name.span) else {
            continue;
        };
        if let ast::TypeExpr::Switch { tag, arms, span } = &f.ty {
            let tag_name = tag.iter().map(|x| x.name.as_str()).collect::<Vec<_>>().join(".");
            let Some(tag_idx) = fields.iter().position(|x| x.name == tag_name) else {
                cx.error(*span, format!("unknown tag field `{tag_name}`"))
                    .label("a switch is chosen by a field of the same layout");
                continue;
            };
            let tag_ty = fields[tag_idx].ty.clone();
            let mut out = Vec::new();
            for (value, ty_id) in arms {
                let (Some(v), Some(ty)) =
                    (types::constant(cx, t, &tag_ty, value), types::resolve(cx, t, layouts, ty_id))
                else {
                    continue;
                };
                out.push((v, ty));
            }
            fields[tag_idx].is_tag = true;
            fields[idx].ty = Type::Switch { tag: tag_idx, arms: out };
        }
    }
    for f in &l.fields {
        let Some(field) = fields.iter_mut().find(|x| x.name == f.name.name && x.span == f.name.span) else {
            continue;
        };
        let have: u32 = field.width();
        let want = types::width(t, layouts, &field.ty);
        if have != want && !matches!(field.ty, Type::Switch { .. }) {
            cx.error(
                f.name.span,
                format!(
                    "field `{}` has {have} bits but its type `{}` is {want} bits",
                    f.name.name,
                    type_name(t, layouts, &field.ty)
                ),
            )
            .label(format!("{have} bits"));
        }
        // An instruction field's value is a `u64`; a data layout's fields have no such bound.
        if l.kind == ast::LayoutKind::Format && have > 64 {
            cx.error(
                f.name.span,
                format!("field `{}` has {have} bits; a format's fields are at most 64", f.name.name),
            )
            .label(format!("{have} bits"));
        }
        if let Type::Switch { arms, .. } = &field.ty {
            for (_, ty) in arms {
                let w = types::width(t, layouts, ty);
                if w != have {
                    cx.error(
                        f.name.span,
                        format!(
                            "switch arm type `{}` is {w} bits but field `{}` has {have}",
                            type_name(t, layouts, ty),
                            f.name.name
                        ),
                    );
                }
            }
        }
        let ty = field.ty.clone();
        // A field whose type did not resolve takes only plain numbers, silently.
        let constant = |cx: &mut Checker, e: &ast::Expr| match untyped.contains(&f.name.span) {
            true => const_eval(e, None).map(|v| v as u64),
            false => types::constant(cx, t, &ty, e),
        };
        if let Some(e) = &f.fixed {
            if let Some(v) = constant(cx, e) {
                check_fits(cx, e.span, v, have);
                field.fixed = Some(v & mask(have));
            }
        }
        if let Some(e) = &f.default {
            if let Some(v) = constant(cx, e) {
                check_fits(cx, e.span, v, have);
                field.default = Some(v & mask(have));
            }
        }
        if let Some(first) = f.element_defaults.first() {
            let count = field.array.as_ref().map(|a| a.0 as usize);
            if count != Some(f.element_defaults.len()) {
                let want = match count {
                    Some(n) => format!("{n} defaults, one per element"),
                    None => "one `default` value: the field is not an array".into(),
                };
                cx.error(first.span, format!("`{}` needs {want}", f.name.name))
                    .label(format!("{} given", f.element_defaults.len()));
            }
            for e in &f.element_defaults {
                if let Some(v) = types::constant(cx, t, &ty, e) {
                    check_fits(cx, e.span, v, have);
                    field.element_defaults.push(v & mask(have));
                }
            }
        }
        if let Some(set) = &f.allowed {
            let mut ranges = Vec::new();
            // A signed field's members are its values (`-4..=-1`), kept as their bits.
            let signed = (matches!(ty, Type::SInt(_)) && have > 0).then(|| 1i128 << (have - 1));
            for elem in set {
                let (a, b, span) = types::set_bounds(elem);
                let (Some(lo), Some(hi)) = (atom(cx, t, &ty, a, have), atom(cx, t, &ty, b, have)) else {
                    continue;
                };
                if !types::nonempty(cx, span, lo, hi) {
                    continue;
                }
                let (min, max) = signed.map_or((0, i128::from(mask(have))), |m| (-m, m - 1));
                // A bound past its end of the field's values (both of `4..=7` are past 3:
                // the last is named).
                for (v, at, past) in [(lo, a, lo < min), (hi, b, hi > max)] {
                    if past {
                        let kind = if signed.is_some() { "signed" } else { "unsigned" };
                        cx.error(
                            types::atom_span(at),
                            format!("{v} does not fit the {kind} {have}-bit field"),
                        )
                        .label(format!("its values are {min}..={max}"));
                    }
                }
                // Only the values the field can hold are allowed: the pattern stays in the field.
                let (lo, hi) = (lo.max(min), hi.min(max));
                if lo > hi {
                    continue;
                }
                let bits = |v: i128| (if v < 0 { v + (1i128 << have) } else { v }) as u64;
                if lo < 0 {
                    ranges.push((bits(lo), bits(hi.min(-1))));
                }
                if hi >= 0 {
                    ranges.push((bits(lo.max(0)), bits(hi)));
                }
            }
            // An enum field decodes only the values its enum defines: a set that holds none of
            // them leaves the format no word to decode and the assembler nothing to choose.
            let defined = match &ty {
                Type::Enum(id) => t.enums.get(id.0).and_then(ir::Enum::defined),
                _ => None,
            };
            if let (Some(d), Some(first)) = (defined, set.first()) {
                let meets = ranges.iter().any(|&(lo, hi)| d.iter().any(|&(l, h)| lo.max(l) <= hi.min(h)));
                if !ranges.is_empty() && !meets {
                    let (_, _, span) = types::set_bounds(first);
                    cx.error(span, format!("no value of `{}`'s set is one its enum defines", f.name.name))
                        .note("the field decodes only the enum's values, so no word has it");
                }
            }
            field.allowed = Some(ranges);
        }
    }
    // Unused bits.
    let mut unused = Vec::new();
    let mut owners = Vec::new();
    for u in &l.unused {
        let max = if l.kind == ast::LayoutKind::Data { RESERVED_PIECE } else { FIELD_PIECE };
        if let Some(p) = pieces_at(cx, &u.bits, None, max) {
            owners.extend(p.iter().map(|_| u));
            unused.extend(p);
        }
        if let (Some(name), ast::LayoutKind::Format) = (&u.name, l.kind) {
            cx.error(name.span, "only the reserved bits of a data layout have names")
                .note("a format's don't-care bits are written `unused @ bits`");
        }
    }
    overlaps(cx, l, &fields, &unused, &owners, width);
    (fields, unused)
}

/// The reserved members of a data layout's value ([`placement::reserved_members`]) are named
/// like fields: a field or another member of the same name is an error.
fn reserved_names(cx: &mut Checker, l: &ast::Layout, layout: &ir::Layout) {
    if l.union.is_some() {
        return;
    }
    let members = placement::reserved_members(layout);
    for (k, r) in members.iter().enumerate() {
        let bits = if r.piece.width == 1 {
            format!("bit {}", r.piece.lo)
        } else {
            format!("bits {}:{}", r.piece.lo + r.piece.width - 1, r.piece.lo)
        };
        let note = "bits no field names are members of the layout's value (decode shows them, \
                    encode reads them back), named `reserved_HI_LO` or by their `unused` name";
        if let Some(f) = layout.fields.iter().find(|f| f.name == r.name) {
            cx.error(f.span, format!("field `{}` has the name of the layout's reserved {bits}", r.name))
                .label("rename this field")
                .note(note);
        } else if members[..k].iter().any(|x| x.name == r.name) {
            cx.error(
                l.name.span,
                format!("two reserved ranges of `{}` are both named `{}`", l.name.name, r.name),
            )
            .note(note);
        }
    }
}

/// A member of a field's `in` set as a number (a negative one a signed field's value).
fn atom(cx: &mut Checker, t: &ir::Target, ty: &Type, a: &ast::Atom, have: u32) -> Option<i128> {
    match a {
        ast::Atom::Int(v, _) => Some(i128::from(*v)),
        ast::Atom::Neg(v, sp) => {
            if !matches!(ty, Type::SInt(_)) {
                cx.error(*sp, format!("-{v} does not fit the unsigned {have}-bit field"))
                    .label("a negative member is a value of a signed field");
                return None;
            }
            Some(-i128::from(*v))
        }
        ast::Atom::Name(id) => {
            let e = ast::Expr { kind: ast::ExprKind::Name(id.name.clone()), span: id.span };
            types::constant(cx, t, ty, &e).map(i128::from)
        }
    }
}

fn check_fits(cx: &mut Checker, span: Span, v: u64, w: u32) {
    if v > mask(w) {
        cx.error(span, format!("value {v} does not fit the {w}-bit field"));
    }
}

/// A type's name as written in the spec.
pub fn type_name(t: &ir::Target, layouts: &[(String, u32)], ty: &Type) -> String {
    match ty {
        Type::Bool => "bool".into(),
        Type::UInt(w) => format!("u{w}"),
        Type::SInt(w) => format!("s{w}"),
        Type::Enum(e) => t.enums[e.0].name.clone(),
        Type::Number(n) => t.numbers[n.0].name.clone(),
        Type::Layout(l) => layouts.get(l.0).map_or_else(|| t.layouts[l.0].name.clone(), |x| x.0.clone()),
        Type::Switch { .. } => "switch".into(),
    }
}

/// Reports fields overlapping each other or lying outside the word.
/// `owners[i]` is the `unused` clause of `unused[i]` (one clause may give many ranges).
fn overlaps(
    cx: &mut Checker,
    l: &ast::Layout,
    fields: &[ir::Field],
    unused: &[Piece],
    owners: &[&ast::Unused],
    width: u32,
) {
    let mut all: Vec<(String, Piece, Span)> = Vec::new();
    for f in fields.iter().filter(|f| !f.view) {
        let n = f.array.as_ref().map_or(1, |a| a.0);
        for i in 0..n {
            let name = if f.array.is_some() { format!("{}[{i}]", f.name) } else { f.name.clone() };
            for p in placement::element_pieces(f, i) {
                all.push((name.clone(), p, f.span));
            }
        }
    }
    for (p, u) in unused.iter().zip(owners) {
        all.push((u.name.as_ref().map_or("unused".into(), |n| n.name.clone()), *p, u.span));
    }
    let mut reported_outside = std::collections::BTreeSet::new();
    for (name, p, sp) in &all {
        if width > 0 && p.lo + p.width > width && reported_outside.insert(name.clone()) {
            cx.error(
                *sp,
                format!(
                    "`{name}` lies outside the {width}-bit {}",
                    if l.kind == ast::LayoutKind::Format { "word" } else { "layout" }
                ),
            )
            .label(format!("bits {}..={}", p.lo, p.lo + p.width - 1));
        }
    }
    let mut reported = std::collections::BTreeSet::new();
    for (i, (na, pa, sa)) in all.iter().enumerate() {
        for (nb, pb, sb) in &all[i + 1..] {
            if na == nb {
                continue;
            }
            let lo = pa.lo.max(pb.lo);
            let hi = (pa.lo + pa.width).min(pb.lo + pb.width);
            if lo < hi && reported.insert((na.clone(), nb.clone())) {
                cx.error(*sb, format!("fields `{na}` and `{nb}` overlap at bit {lo}"))
                    .label(format!("`{nb}` uses bits {}..={}", pb.lo, pb.lo + pb.width - 1))
                    .with(*sa, format!("`{na}` uses bits {}..={}", pa.lo, pa.lo + pa.width - 1))
                    .note("every bit belongs to one field; declare alternatives as separate formats or a `switch`");
            }
        }
    }
}

/// The words a format matches, as a union of (mask, value) cubes over the word.
fn pattern(cx: &mut Checker, fields: &[ir::Field]) -> Vec<(u128, u128)> {
    let mut cubes: Vec<(u128, u128)> = vec![(0, 0)];
    for f in fields {
        if f.array.is_some() || f.view {
            continue;
        }
        if let Some(v) = f.fixed {
            let (m, val) = (placement::mask(&f.pieces), placement::place(&f.pieces, v));
            for c in &mut cubes {
                c.0 |= m;
                c.1 |= val;
            }
        }
        if let Some(ranges) = &f.allowed {
            if f.pieces.len() != 1 {
                cx.error(f.span, "`in` restrictions need a field with one contiguous bit range");
                continue;
            }
            let p = f.pieces[0];
            let mut field_cubes = Vec::new();
            for &(lo, hi) in ranges {
                for (m, v) in range_cubes(lo, hi, p.width) {
                    field_cubes.push((placement::place(&f.pieces, m), placement::place(&f.pieces, v)));
                }
            }
            let mut next = Vec::new();
            for c in &cubes {
                for fc in &field_cubes {
                    next.push((c.0 | fc.0, c.1 | fc.1));
                }
            }
            cubes = next;
        }
    }
    cubes
}

/// The words a variable-length format matches as they stand in a stream: for each length, the
/// length field says it, and the bits past it belong to the next instruction (free), while the
/// instruction reads them as zero (a fixed one there rules that length out).
fn by_length(
    cubes: Vec<(u128, u128)>,
    fields: &[ir::Field],
    length: Option<&ir::LengthField>,
) -> Vec<(u128, u128)> {
    let Some(length) = length else { return cubes };
    let pieces = &fields[length.field.0].pieces;
    let field_mask = placement::mask(pieces);
    let mut out = Vec::new();
    for (k, &bits) in length.bits.iter().enumerate() {
        let (says, own) = (placement::place(pieces, k as u64), low_bits(bits));
        for &(m, v) in &cubes {
            let tail_set = v & m & !own != 0;
            if tail_set || (v ^ says) & m & field_mask != 0 {
                continue;
            }
            out.push(((m & own) | field_mask, (v & own & !field_mask) | says));
        }
    }
    out
}

fn low_bits(n: u32) -> u128 {
    if n >= 128 {
        u128::MAX
    } else {
        (1u128 << n) - 1
    }
}

/// Splits `lo..=hi` (values of a `w`-bit field) into aligned (mask, value) blocks.
fn range_cubes(lo: u64, hi: u64, w: u32) -> Vec<(u64, u64)> {
    let mut out = Vec::new();
    let mut x = lo;
    let full = mask(w);
    while x <= hi {
        let mut size = 1u64;
        while x & (size * 2 - 1) == 0 && x + size * 2 - 1 <= hi && size * 2 <= full.saturating_add(1).max(1) {
            size *= 2;
            if size == 0 {
                break;
            }
        }
        out.push((full & !(size - 1), x));
        match x.checked_add(size) {
            Some(n) => x = n,
            None => break,
        }
    }
    out
}
