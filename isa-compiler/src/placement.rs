//! Bit placement: where the bits of every field, array element and nested-layout member lie,
//! answered as data (pieces, signed strides, masks, raw words).
//!
//! This is the one place that does bit arithmetic on the IR's placements. It sits beside
//! [`crate::ir`] and below every backend: the Rust backend (format structs, layout views, the
//! derive macro's `impl`), the documentation tables and the checker all ask it, and each renders
//! the answer its own way. It knows nothing of tokens or text.
//!
//! Conventions: pieces are listed most significant first (as the spec writes them); a value's
//! least significant bits are in the last piece. An array field keeps the pieces of element 0
//! and one signed stride per piece ([`ir::Field::array`]): element `i` of piece `k` starts at
//! `pieces[k].lo + strides[k] * i`. The checker only accepts arrays whose every element lies at
//! non-negative bits, so on checked IR no position below 0 or above `u32::MAX` arises; on IR
//! built by hand such a position saturates rather than wraps.

use crate::ir::{self, Field, Format, LayoutId, Leaf, Piece, Target, Type};

/// One piece of a field as a function of the array index `i`: `width` bits from bit
/// `lo + stride * i` of the word or layout, holding bits `value_lo..value_lo + width` of the
/// field's value. `stride` is 0 for a field that is not an array.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Run {
    /// Lowest bit of element 0.
    pub lo: u32,
    /// How far the piece moves per element (negative: towards bit 0).
    pub stride: i64,
    /// Width in bits.
    pub width: u32,
    /// The lowest bit of the value this piece holds.
    pub value_lo: u32,
}

impl Run {
    /// The lowest bit of element `i`.
    pub fn lo_at(&self, i: u32) -> i64 {
        i64::from(self.lo).saturating_add(self.stride.saturating_mul(i64::from(i)))
    }
}

/// A field's pieces as functions of the element index, most significant first.
pub fn runs(f: &Field) -> Vec<Run> {
    let strides = f.array.as_ref().map(|(_, s)| s.as_slice()).unwrap_or_default();
    runs_with(&f.pieces, strides)
}

/// Pieces at fixed bits as runs (stride 0).
pub fn piece_runs(pieces: &[Piece]) -> Vec<Run> {
    runs_with(pieces, &[])
}

fn runs_with(pieces: &[Piece], strides: &[i64]) -> Vec<Run> {
    pieces
        .iter()
        .zip(value_offsets(pieces))
        .enumerate()
        .map(|(k, (p, value_lo))| Run {
            lo: p.lo,
            stride: strides.get(k).copied().unwrap_or(0),
            width: p.width,
            value_lo,
        })
        .collect()
}

/// The lowest value bit each piece holds: the last piece holds bit 0.
pub fn value_offsets(pieces: &[Piece]) -> Vec<u32> {
    let mut out = vec![0; pieces.len()];
    let mut offset = 0u32;
    for (k, p) in pieces.iter().enumerate().rev() {
        out[k] = offset;
        offset = offset.saturating_add(p.width);
    }
    out
}

/// The number of elements of a field (1 when it is not an array).
pub fn element_count(f: &Field) -> u32 {
    f.array.as_ref().map_or(1, |(n, _)| *n)
}

/// The absolute pieces of element `i` of a field (of the field itself when it is not an array).
pub fn element_pieces(f: &Field, i: u32) -> Vec<Piece> {
    runs(f)
        .iter()
        .map(|r| Piece { lo: u32::try_from(r.lo_at(i).max(0)).unwrap_or(u32::MAX), width: r.width })
        .collect()
}

/// Lowest and one past the highest bit any element of a field touches, over all elements
/// (positions move linearly, so the first and last element bound them).
pub fn span(f: &Field) -> (u64, u64) {
    let last = element_count(f).saturating_sub(1);
    let mut lo = u64::MAX;
    let mut end = 0u64;
    for i in [0, last] {
        for p in element_pieces(f, i) {
            lo = lo.min(u64::from(p.lo));
            end = end.max(u64::from(p.lo) + u64::from(p.width));
        }
    }
    (lo.min(end), end)
}

/// Lowest and one past the highest bit some pieces touch (`(0, 0)` for none).
pub fn pieces_span(pieces: &[Piece]) -> (u64, u64) {
    let lo = pieces.iter().map(|p| u64::from(p.lo)).min().unwrap_or(0);
    let end = pieces.iter().map(|p| u64::from(p.lo) + u64::from(p.width)).max().unwrap_or(0);
    (lo.min(end), end)
}

/// Mask of the low `width` bits of a `u128` (all of them from 128 on).
fn low_mask(width: u32) -> u128 {
    if width >= 128 {
        u128::MAX
    } else {
        (1u128 << width) - 1
    }
}

/// The bits of a word `pieces` occupy.
pub fn mask(pieces: &[Piece]) -> u128 {
    pieces.iter().filter(|p| p.lo < 128).fold(0, |m, p| m | (low_mask(p.width) << p.lo))
}

/// `value` placed at `pieces` of an otherwise zero word; bits above the pieces' total width
/// and pieces beyond bit 127 are dropped.
pub fn place(pieces: &[Piece], value: u64) -> u128 {
    let mut word = 0u128;
    for (p, value_lo) in pieces.iter().zip(value_offsets(pieces)) {
        if p.lo >= 128 || value_lo >= 64 {
            continue;
        }
        word |= ((u128::from(value) >> value_lo) & low_mask(p.width)) << p.lo;
    }
    word
}

/// The value at `pieces` of `word` (the inverse of [`place`] for values that fit).
pub fn extract(pieces: &[Piece], word: u128) -> u64 {
    let mut value = 0u128;
    for (p, value_lo) in pieces.iter().zip(value_offsets(pieces)) {
        if p.lo >= 128 || value_lo >= 64 {
            continue;
        }
        value |= ((word >> p.lo) & low_mask(p.width)) << value_lo;
    }
    value as u64
}

/// The bits every word of a format has: its fixed (`is`) fields, each at its pieces.
pub fn fixed_bits(fields: &[Field]) -> u128 {
    fields.iter().filter_map(|f| Some(place(&f.pieces, f.fixed?))).fold(0, |w, x| w | x)
}

/// A format's raw word when every stored field holds its fixed value or default (0 without
/// one), every array element included; views own no bits.
pub fn default_word(format: &Format) -> u128 {
    let mut word = 0u128;
    for f in format.fields.iter().filter(|f| !f.view) {
        for i in 0..element_count(f) {
            let v = f.fixed.or(f.element_defaults.get(i as usize).copied()).or(f.default).unwrap_or(0);
            word |= place(&element_pieces(f, i), v);
        }
    }
    word
}

/// Where bits `pieces` of a value laid out at `outer` (both most significant first) lie in the
/// enclosing words: maps positions inside a nested layout to positions in the outer one.
pub fn sub_pieces(outer: &[Piece], pieces: &[Piece]) -> Vec<Piece> {
    let mut out = Vec::new();
    for p in pieces {
        let (lo, hi) = (p.lo, p.lo.saturating_add(p.width));
        let mut mapped = Vec::new();
        let mut offset = 0u32;
        for o in outer.iter().rev() {
            let (a, b) = (lo.max(offset), hi.min(offset.saturating_add(o.width)));
            if a < b {
                mapped.push(Piece { lo: o.lo.saturating_add(a - offset), width: b - a });
            }
            offset = offset.saturating_add(o.width);
        }
        out.extend(mapped.into_iter().rev());
    }
    // Adjacent pieces that continue each other are one piece.
    let mut merged: Vec<Piece> = Vec::new();
    for p in out {
        match merged.last_mut() {
            Some(last) if p.lo.checked_add(p.width) == Some(last.lo) => {
                last.lo = p.lo;
                last.width += p.width;
            }
            _ => merged.push(p),
        }
    }
    merged
}

/// Every leaf of layout `id`: nested layouts and arrays expanded, switches and views left out;
/// for a union, the leaves every arm has at the same bits with the same type.
pub fn leaves(t: &Target, id: LayoutId) -> Vec<Leaf> {
    let mut out = Vec::new();
    let Some(l) = t.layouts.get(id.0) else { return out };
    collect_leaves(t, id, &[Piece { lo: 0, width: l.width }], "", 0, &mut out);
    out
}

fn collect_leaves(t: &Target, id: LayoutId, at: &[Piece], prefix: &str, depth: u32, out: &mut Vec<Leaf>) {
    let Some(l) = t.layouts.get(id.0) else { return };
    // The checker rejects layouts that contain themselves; this bounds hand-made IR.
    if depth > 16 {
        return;
    }
    if let Some(u) = &l.union {
        let mut common: Option<Vec<Leaf>> = None;
        for (_, arm) in &u.arms {
            let mut leaves = Vec::new();
            collect_leaves(t, *arm, at, prefix, depth + 1, &mut leaves);
            common = Some(match common {
                None => leaves,
                Some(c) => c.into_iter().filter(|x| leaves.contains(x)).collect(),
            });
        }
        out.extend(common.unwrap_or_default());
        return;
    }
    for f in l.fields.iter().filter(|f| !f.view) {
        let is_array = f.array.is_some();
        for i in 0..element_count(f) {
            let path =
                if is_array { format!("{prefix}{}[{i}]", f.name) } else { format!("{prefix}{}", f.name) };
            let pieces = sub_pieces(at, &element_pieces(f, i));
            match &f.ty {
                Type::Layout(n) => collect_leaves(t, *n, &pieces, &format!("{path}."), depth + 1, out),
                Type::Switch { .. } => {}
                ty => out.push(Leaf { path, pieces, ty: ty.clone() }),
            }
        }
    }
}

/// Bits of a data layout that no field names, as one member of the layout's value: decoding
/// keeps them and encoding writes them back, so no bit a user read is lost.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReservedMember {
    /// Its name in the layout's value: the document's (`unused imap_reserved @ 399:392`), or
    /// `reserved_HI_LO` (`reserved_B` for one bit) for bits the spec leaves unnamed or
    /// undeclared. A named range cut into several members names each by its bits too.
    pub name: String,
    /// The bits, relative to the layout; at most 64.
    pub piece: Piece,
}

/// The widest reserved member: one `u64` of the value.
const RESERVED_MEMBER_BITS: u32 = 64;

/// Every reserved member of layout `l`, lowest bits first: its `unused` ranges, then every bit
/// neither a field nor an `unused` declaration covers, in runs of at most 64 bits. A union has
/// none (its arms have theirs).
pub fn reserved_members(l: &ir::Layout) -> Vec<ReservedMember> {
    if l.union.is_some() {
        return Vec::new();
    }
    let width = l.width as usize;
    let mut taken = vec![false; width];
    let take = |p: &Piece, taken: &mut Vec<bool>| {
        let (lo, end) = (p.lo as usize, (p.lo as usize).saturating_add(p.width as usize).min(width));
        for bit in taken.iter_mut().take(end).skip(lo) {
            *bit = true;
        }
    };
    for f in l.fields.iter().filter(|f| !f.view) {
        for i in 0..element_count(f) {
            for p in element_pieces(f, i) {
                take(&p, &mut taken);
            }
        }
    }
    let named = |base: &str, p: &Piece| {
        if p.width == 1 {
            format!("{base}_{}", p.lo)
        } else {
            format!("{base}_{}_{}", p.lo + p.width - 1, p.lo)
        }
    };
    let mut out = Vec::new();
    for r in &l.reserved {
        let mut runs = Vec::new();
        for p in &r.pieces {
            runs.extend(free_runs(&taken, p.lo as usize, (p.lo as usize).saturating_add(p.width as usize)));
        }
        for p in &runs {
            take(p, &mut taken);
        }
        let base = r.name.as_deref().unwrap_or("reserved");
        for p in &runs {
            let name = match &r.name {
                Some(n) if runs.len() == 1 => n.clone(),
                _ => named(base, p),
            };
            out.push(ReservedMember { name, piece: *p });
        }
    }
    for p in free_runs(&taken, 0, width) {
        out.push(ReservedMember { name: named("reserved", &p), piece: p });
    }
    out.sort_by_key(|m| m.piece.lo);
    out
}

/// The runs of bits in `lo..end` that `taken` does not mark, each cut into pieces of at most
/// [`RESERVED_MEMBER_BITS`], lowest first.
fn free_runs(taken: &[bool], lo: usize, end: usize) -> Vec<Piece> {
    let mut out = Vec::new();
    let mut bit = lo;
    let end = end.min(taken.len());
    while bit < end {
        if taken[bit] {
            bit += 1;
            continue;
        }
        let start = bit;
        while bit < end && !taken[bit] && bit - start < RESERVED_MEMBER_BITS as usize {
            bit += 1;
        }
        out.push(Piece { lo: start as u32, width: (bit - start) as u32 });
    }
    out
}

/// A reserved member of a layout or of a layout nested in it, seen from the outer layout.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReservedLeaf {
    /// Dotted path of the member in the outer layout's value (`common_word0.reserved_25_21`).
    pub path: String,
    /// Its bits in the outer layout, most significant piece first.
    pub pieces: Vec<Piece>,
    /// The switch tags that choose the layout holding it: (tag's bits, value) pairs that must
    /// all hold (empty outside switches).
    pub when: Vec<(Vec<Piece>, u64)>,
}

/// Every reserved member of layout `id` and of the layouts nested in it (arrays expanded,
/// switch arms under their tag values), with bits relative to `id`. A union has none.
pub fn reserved_leaves(t: &Target, id: LayoutId) -> Vec<ReservedLeaf> {
    let mut out = Vec::new();
    let Some(l) = t.layouts.get(id.0) else { return out };
    collect_reserved(t, id, &[Piece { lo: 0, width: l.width }], "", &[], 0, &mut out);
    out
}

fn collect_reserved(
    t: &Target,
    id: LayoutId,
    at: &[Piece],
    prefix: &str,
    when: &[(Vec<Piece>, u64)],
    depth: u32,
    out: &mut Vec<ReservedLeaf>,
) {
    let Some(l) = t.layouts.get(id.0) else { return };
    // The checker rejects layouts that contain themselves; this bounds hand-made IR.
    if depth > 16 {
        return;
    }
    for m in reserved_members(l) {
        out.push(ReservedLeaf {
            path: format!("{prefix}{}", m.name),
            pieces: sub_pieces(at, &[m.piece]),
            when: when.to_vec(),
        });
    }
    for f in l.fields.iter().filter(|f| !f.view) {
        let is_array = f.array.is_some();
        for i in 0..element_count(f) {
            let path =
                if is_array { format!("{prefix}{}[{i}].", f.name) } else { format!("{prefix}{}.", f.name) };
            let pieces = sub_pieces(at, &element_pieces(f, i));
            match &f.ty {
                Type::Layout(n) => collect_reserved(t, *n, &pieces, &path, when, depth + 1, out),
                Type::Switch { tag, arms } => {
                    let Some(tag_field) = l.fields.get(*tag) else { continue };
                    let tag_at = sub_pieces(at, &tag_field.pieces);
                    for (value, ty) in arms {
                        let Type::Layout(n) = ty else { continue };
                        let mut when = when.to_vec();
                        when.push((tag_at.clone(), *value));
                        collect_reserved(t, *n, &pieces, &path, &when, depth + 1, out);
                    }
                }
                Type::Bool | Type::UInt(_) | Type::SInt(_) | Type::Enum(_) | Type::Number(_) => {}
            }
        }
    }
}

/// The raw bits of a scheduling slot when every field has its default (0 without one).
pub fn default_slot(s: &ir::Slots) -> u64 {
    default_word(&s.slot) as u64
}

/// One member of a data layout at fixed bits, as `isa layout` lists it: a leaf, or reserved
/// bits ([`reserved_leaves`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FixedPlace {
    /// Dotted path (`common_word0.sph_type`); a leaf in several pieces names each piece by its
    /// bits (`x@9:8`).
    pub path: String,
    /// The bits, relative to the layout.
    pub piece: Piece,
    /// Reserved bits rather than a value.
    pub reserved: bool,
}

/// Every leaf and every reserved member of layout `id` (not a union: see [`Union::arms`]),
/// nested layouts flattened and arrays expanded, lowest bit first. Reserved bits inside a
/// switch arm depend on the tag and are left out, as [`leaves`] leaves switches out.
///
/// [`Union::arms`]: ir::Union::arms
pub fn fixed_places(t: &Target, id: LayoutId) -> Vec<FixedPlace> {
    let mut out = Vec::new();
    for leaf in leaves(t, id) {
        let split = leaf.pieces.len() > 1;
        for p in &leaf.pieces {
            let path = if split {
                format!("{}@{}:{}", leaf.path, p.lo + p.width - 1, p.lo)
            } else {
                leaf.path.clone()
            };
            out.push(FixedPlace { path, piece: *p, reserved: false });
        }
    }
    for r in reserved_leaves(t, id).into_iter().filter(|r| r.when.is_empty()) {
        let split = r.pieces.len() > 1;
        for p in &r.pieces {
            let path =
                if split { format!("{}@{}:{}", r.path, p.lo + p.width - 1, p.lo) } else { r.path.clone() };
            out.push(FixedPlace { path, piece: *p, reserved: true });
        }
    }
    out.sort_by_key(|p| p.piece.lo);
    out
}
