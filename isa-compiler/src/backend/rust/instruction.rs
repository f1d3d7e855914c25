//! The `Instruction` enum and its decoder: a decision tree over the opcode fields, compiled
//! to nested `match`es (no table is interpreted at run time).

use super::model::{extract_text, hex, lit, str_lit, Model};
use crate::ir;
use crate::placement;
use proc_macro2::TokenStream;
use quote::quote;
use std::fmt::Write;

/// A constrained bit range of a format: (lo, width) and the allowed raw values.
#[derive(Clone)]
struct Constraint {
    lo: u32,
    width: u32,
    ranges: Vec<(u64, u64)>,
    /// Past the format's shortest length: checked on the instruction's own bits (a shorter
    /// one reads them as zero), never switched on, since the word there may be the next
    /// instruction.
    late: bool,
}

fn constraints(f: &ir::Format) -> Vec<Constraint> {
    let shortest = f.length.as_ref().and_then(|l| l.bits.first().copied()).unwrap_or(f.width);
    let mut out = Vec::new();
    for field in &f.fields {
        if field.view || field.array.is_some() || field.pieces.len() != 1 {
            continue;
        }
        let p = field.pieces[0];
        let late = p.lo + p.width > shortest;
        if let Some(v) = field.fixed {
            out.push(Constraint { lo: p.lo, width: p.width, ranges: vec![(v, v)], late });
        } else if let Some(r) = &field.allowed {
            out.push(Constraint { lo: p.lo, width: p.width, ranges: r.clone(), late });
        }
    }
    out
}

/// Inclusive ranges of raw values.
type Ranges = Vec<(u64, u64)>;

/// A format, its values at the range being switched on, and its other constraints.
type Candidate = (usize, Ranges, Vec<Constraint>);

enum Node {
    /// Candidates whose remaining constraints are checked in order.
    Leaf(Vec<(usize, Vec<Constraint>)>),
    /// `match` on bits lo..lo+width.
    Switch { lo: u32, width: u32, arms: Vec<(Vec<(u64, u64)>, Node)> },
}

/// The widest range the tree switches on with a constraint that covers only part of it, from
/// one end: the constraint's values repeat over the range's other bits (at most 256 values). Maxwell's
/// opcodes are 6 to 13 bits from the top; one switch on the top byte takes them all, where
/// switching on the 3 bits every opcode covers took five nested switches to reach MOV.
const PARTIAL_KEY_BITS: u32 = 8;

/// The same bound for the tree's first switch: up to 13 bits, listed value by value so that
/// the compiler makes it one jump table (8 K entries at most). Maxwell's opcodes are the top
/// 6 to 13 bits: one jump on bits 63:51 reaches most leaves, where a switch on the top byte
/// then one on bits 55:51 took two indirect jumps (callgrind 111 → 99 instructions a word,
/// 7.2 → 6.3 ns on the `maxwell/subset` words; the hand-written decoder: 97, 4.7 ns).
const ROOT_KEY_BITS: u32 = 13;

/// The most leaves a decoder inlines (VC4 has 7, Maxwell 297).
const INLINED_LEAVES: usize = 16;

/// The fewest direct arms of the first switch that share a layout leaf ([`split_root`]). It
/// pays when a layout's own leaves would be too many to stay in the instruction cache.
/// Maxwell's layouts are shared by 2 or 3 encodings each: sharing them (leaves handing the
/// fields back, then a pick per encoding) took its `maxwell/subset` words from 4.77 to 5.5 ns
/// (driver, one run); the synthetic spec's 1,000 encodings of one layout went from 14.5 to
/// 9.6 ns a word (100 encodings: 9.8 to 8.5).
const SHARED_LAYOUT_MIN: usize = 16;

/// The values a constraint allows at bits lo..lo+width, when it covers those bits (or the top
/// or bottom part of a range of at most `key_bits`) and allows few enough values to
/// list (fixed opcodes): `None` otherwise.
fn projection(c: &Constraint, lo: u32, width: u32, key_bits: u32) -> Option<Ranges> {
    if (c.lo, c.width) == (lo, width) {
        return Some(c.ranges.clone());
    }
    // A constraint anywhere inside a range of at most `key_bits` is one too (Maxwell's bit 55
    // of FFMA against DSET inside the first switch's 13 bits): it narrows a candidate's values
    // but does not count in choosing the range.
    let inside = c.lo >= lo && c.lo + c.width <= lo + width && width <= key_bits && listable(c);
    if !inside && !projects(c, lo, width, key_bits) {
        return None;
    }
    let (overlap_lo, overlap_hi) = (lo.max(c.lo), (lo + width).min(c.lo + c.width));
    let mask = (1u64 << (overlap_hi - overlap_lo)) - 1;
    let mut values: Vec<u64> =
        c.ranges.iter().flat_map(|(a, b)| *a..=*b).map(|v| (v >> (overlap_lo - c.lo)) & mask).collect();
    values.sort();
    values.dedup();
    if overlap_hi - overlap_lo < width {
        // Every value of the range whose overlapping bits hold one of them.
        let shift = overlap_lo - lo;
        values =
            (0..1u64 << width).filter(|k| values.binary_search(&((k >> shift) & mask)).is_ok()).collect();
    }
    let mut out: Ranges = Vec::new();
    for v in values {
        match out.last_mut() {
            Some(last) if last.1 + 1 == v => last.1 = v,
            _ => out.push((v, v)),
        }
    }
    Some(out)
}

/// The values both range lists allow (each list disjoint), in order.
fn intersect(a: &[(u64, u64)], b: &[(u64, u64)]) -> Ranges {
    let (mut a, mut b) = (a.to_vec(), b.to_vec());
    a.sort_unstable();
    b.sort_unstable();
    let (mut i, mut j, mut out) = (0, 0, Vec::new());
    while i < a.len() && j < b.len() {
        let (lo, hi) = (a[i].0.max(b[j].0), a[i].1.min(b[j].1));
        if lo <= hi {
            out.push((lo, hi));
        }
        if a[i].1 < b[j].1 {
            i += 1;
        } else {
            j += 1;
        }
    }
    out
}

/// Whether [`projection`] gives values for the range, without listing them.
fn projects(c: &Constraint, lo: u32, width: u32, key_bits: u32) -> bool {
    if (c.lo, c.width) == (lo, width) {
        return true;
    }
    let contained = lo >= c.lo && lo + width <= c.lo + c.width;
    // Part of an opcode read from one end of the range: the constraint shares its top bit or
    // its bottom bit (opcodes are prefixes, from the top on Maxwell, from bit 0 on AGX).
    let overlaps = lo < c.lo + c.width && c.lo < lo + width;
    let aligned = lo + width == c.lo + c.width || lo == c.lo;
    (contained || (overlaps && aligned && width <= key_bits)) && listable(c)
}

/// Whether a constraint allows few enough values to list (fixed opcodes).
fn listable(c: &Constraint) -> bool {
    c.ranges.iter().fold(0u64, |n, (a, b)| n.saturating_add(b.saturating_sub(*a).saturating_add(1))) <= 64
}

fn build(cands: Vec<(usize, Vec<Constraint>)>, key_bits: u32) -> Node {
    if cands.len() <= 1 {
        return Node::Leaf(cands);
    }
    // The constrained range most candidates share.
    // Each distinct range is counted once: thousands of encodings share a few opcode ranges.
    let mut keys: Vec<(u32, u32)> =
        cands.iter().flat_map(|(_, cs)| cs.iter().filter(|c| !c.late).map(|c| (c.lo, c.width))).collect();
    keys.sort_unstable();
    keys.dedup();
    // Ties keep the first key met, as the scan over candidates did.
    let first_met = |key: &(u32, u32)| {
        cands.iter().flat_map(|(_, cs)| cs.iter()).position(|c| (c.lo, c.width) == *key).unwrap_or(usize::MAX)
    };
    keys.sort_by_key(first_met);
    let mut best: Option<((u32, u32), usize)> = None;
    for key in keys {
        let count = cands
            .iter()
            .filter(|(_, o)| o.iter().any(|x| !x.late && projects(x, key.0, key.1, key_bits)))
            .count();
        // Ties: the wider range (up to a byte: one jump table), then the higher bits.
        let rank = |(lo, width): (u32, u32), n: usize| (n, width.min(key_bits), lo);
        if best.is_none_or(|(k, n)| rank(key, count) > rank(k, n)) {
            best = Some((key, count));
        }
    }
    let Some(((lo, width), count)) = best else { return Node::Leaf(cands) };
    if count < 2 || width > 16 {
        return Node::Leaf(cands);
    }
    // Each candidate's values at the range (all values when it does not constrain it).
    let full = (1u64 << width) - 1;
    let per: Vec<Candidate> = cands
        .iter()
        .map(|(f, cs)| {
            // A candidate that fixes a wider range holding this one (a longer opcode), or the
            // top or bottom part of it (a shorter one), takes the projection of its values:
            // without it, it would be copied into every arm.
            // Every constraint that projects onto the range narrows the candidate's values
            // there: Maxwell's opcode byte (bits 63:56) and its `opcode_lo` (55:51) both lie in
            // the first switch's 13 bits, which then reach an encoding in one step, where the
            // byte alone left a second switch on 55:51 for each arm.
            let used: Vec<(usize, Ranges)> = cs
                .iter()
                .enumerate()
                .filter(|(_, c)| !c.late)
                .filter_map(|(i, c)| projection(c, lo, width, key_bits).map(|r| (i, r)))
                .collect();
            // The switch decides a constraint that lies within its range: it is not checked
            // again below.
            let decided = |i: usize| {
                let c = &cs[i];
                used.iter().any(|(u, _)| *u == i) && c.lo >= lo && c.lo + c.width <= lo + width
            };
            let ranges = used.iter().fold(vec![(0, full)], |acc, (_, r)| intersect(&acc, r));
            let rest = cs
                .iter()
                .enumerate()
                .filter(|(i, c)| c.late || ((c.lo, c.width) != (lo, width) && !decided(*i)))
                .map(|(_, c)| c.clone())
                .collect();
            (*f, ranges, rest)
        })
        .collect();
    // Sweep the value space into segments with the same candidate set.
    let mut points: Vec<u64> = vec![0];
    for (_, ranges, _) in &per {
        for (a, b) in ranges {
            points.push(*a);
            if *b < full {
                points.push(b + 1);
            }
        }
    }
    points.sort();
    points.dedup();
    // Each segment's candidates, in candidate order: a range starts and ends at points, so it
    // covers the segments from its start's to its end's (found by binary search, not by testing
    // every candidate at every point: thousands of opcodes make that quadratic).
    let mut sets: Vec<Vec<usize>> = vec![Vec::new(); points.len()];
    for (k, (_, ranges, _)) in per.iter().enumerate() {
        for (a, b) in ranges {
            let first = points.partition_point(|p| p < a);
            let last = points.partition_point(|p| p <= b);
            for set in &mut sets[first..last] {
                if set.last() != Some(&k) {
                    set.push(k);
                }
            }
        }
    }
    let mut arms: Vec<(Ranges, Vec<usize>)> = Vec::new();
    let mut arm_of: std::collections::HashMap<Vec<usize>, usize> = std::collections::HashMap::new();
    for (i, (start, set)) in points.iter().zip(sets).enumerate() {
        let end = points.get(i + 1).map_or(full, |n| n - 1);
        if set.is_empty() {
            continue;
        }
        match arm_of.get(&set) {
            Some(&arm) => {
                let ranges = &mut arms[arm].0;
                match ranges.last_mut() {
                    Some(last) if last.1 + 1 == *start => last.1 = end,
                    _ => ranges.push((*start, end)),
                }
            }
            None => {
                arm_of.insert(set.clone(), arms.len());
                arms.push((vec![(*start, end)], set));
            }
        }
    }
    let arms = arms
        .into_iter()
        .map(|(ranges, set)| {
            let sub = set.iter().map(|k| (per[*k].0, per[*k].2.clone())).collect();
            (ranges, build(sub, PARTIAL_KEY_BITS))
        })
        .collect();
    Node::Switch { lo, width, arms }
}

fn bits_expr(word_ty: &TokenStream, lo: u32, width: u32) -> TokenStream {
    let mask = hex((1u128 << width) - 1);
    let masked = if lo == 0 {
        quote!((word & #mask))
    } else {
        let lo = lit(lo as u128);
        quote!(((word >> #lo) & #mask))
    };
    super::model::word_u64(word_ty, masked)
}

fn pattern(ranges: &[(u64, u64)], listed: bool) -> TokenStream {
    if listed {
        let pats = ranges.iter().flat_map(|(a, b)| *a..=*b).map(|v| lit(v as u128));
        return quote!(#(#pats)|*);
    }
    let pats = ranges.iter().map(|(a, b)| {
        if a == b {
            let a = lit(*a as u128);
            quote!(#a)
        } else {
            let (a, b) = (lit(*a as u128), lit(*b as u128));
            quote!(#a..=#b)
        }
    });
    quote!(#(#pats)|*)
}

/// Calls `f` with each encoding [`render`] writes a hit of, in its order.
fn visit_leaves(node: &Node, f: &mut dyn FnMut(usize)) {
    match node {
        Node::Leaf(cands) => {
            for (i, rest) in cands {
                f(*i);
                // Later candidates are unreachable.
                if rest.is_empty() {
                    break;
                }
            }
        }
        Node::Switch { arms, .. } => arms.iter().for_each(|(_, sub)| visit_leaves(sub, f)),
    }
}

/// Renders the tree; `hit(format index)` is the expression for a match.
fn render(
    word_ty: &TokenStream,
    node: &Node,
    hit: &dyn Fn(usize) -> TokenStream,
    miss: &TokenStream,
) -> TokenStream {
    match node {
        Node::Leaf(cands) => {
            let mut out = TokenStream::new();
            for (f, rest) in cands {
                let h = hit(*f);
                if rest.is_empty() {
                    out.extend(quote!(return #h;));
                    // Later candidates are unreachable.
                    return quote!({ #out });
                }
                let checks = rest.iter().map(|c| {
                    let b = bits_expr(word_ty, c.lo, c.width);
                    let p = pattern(&c.ranges, false);
                    if c.late {
                        let i = lit(*f as u128);
                        quote!({ let word = LENGTHS[#i].truncate(word as u128) as #word_ty; matches!(#b, #p) })
                    } else {
                        quote!(matches!(#b, #p))
                    }
                });
                out.extend(quote!(if #(#checks)&&* { return #h; }));
            }
            quote!({ #out #miss })
        }
        Node::Switch { lo, width, arms } => {
            let b = bits_expr(word_ty, *lo, *width);
            let arms_ts = arms.iter().map(|(ranges, sub)| {
                // A range pattern is a comparison: wider than a byte, only listed values make
                // one jump table.
                let p = pattern(ranges, *width > PARTIAL_KEY_BITS);
                let body = render(word_ty, sub, hit, miss);
                quote!(#p => #body)
            });
            // The masked value cannot exceed the arms, but the compiler cannot see that.
            quote!(match #b { #(#arms_ts,)* _ => { #miss } })
        }
    }
}

/// The attributes of the functions a large decoder's `decode` calls (each encoding's leaf and
/// the functions of the first switch's arms): out of line, and called directly. `decode` is
/// inlined into its caller, in the caller's crate; a function of an upstream crate is called
/// there through the GOT (`call *GOTPCREL(%rip)`: rustc's relocation for it, which the linker
/// does not relax to a direct call), where `#[inline]` makes the caller's crate compile its
/// own copy and call it directly. `#[cold]` keeps LLVM from inlining the ~300 leaves of
/// Maxwell or AGX into every caller (which made each word save registers: callgrind 111 → 125
/// instructions a word). Criterion `maxwell/subset`, fastest samples, five alternated runs,
/// load 10–13: `#[inline(never)]` 3.30–3.32 µs against the hand-written 3.09–3.12
/// (1.06–1.07×); these attributes 2.87–2.90 against 3.10–3.13 (0.92–0.94×).
fn out_of_line() -> TokenStream {
    quote!(#[inline] #[cold])
}

/// The decoder's first switch, each arm a call of a function out of line: the encoding's leaf
/// where the arm is one encoding with nothing left to check, else a function of the arm's
/// subtree. Encodings of such arms whose fields read alike and cannot be undefined
/// ([`super::formats::total_reads`]) share one leaf reading the fields and picking the variant
/// by the opcode bits: their arms are one arm that calls it, and an encoding costs the decoder
/// no code of its own (10,000 encodings of one layout: one leaf, where 10,000 leaves did not
/// fit the instruction cache). Returns those functions and the `match` that `decode` is.
fn split_root(
    m: &Model,
    lo: u32,
    width: u32,
    arms: &[(Ranges, Node)],
    hit: &dyn Fn(usize) -> TokenStream,
    miss: &TokenStream,
) -> (TokenStream, TokenStream, std::collections::BTreeSet<usize>) {
    let word_ty = &m.word_ty;
    let out_of_line = out_of_line();
    let mut bodies = Vec::new();
    // Once, not per arm: the question walks every format.
    let variable_length = m.t.variable_length();
    // Per arm: the encoding it reaches directly, if any.
    let direct: Vec<Option<usize>> = arms
        .iter()
        .map(|(_, sub)| match sub {
            Node::Leaf(c) => match c.first() {
                Some((f, rest))
                    if rest.is_empty() && m.t.formats[*f].reserved.is_none() && !variable_length =>
                {
                    let _ = hit(*f);
                    Some(*f)
                }
                _ => None,
            },
            Node::Switch { .. } => None,
        })
        .collect();
    // Per direct arm: its encoding's field reads, when none can fail.
    let arm_reads: Vec<_> =
        direct.iter().map(|f| f.and_then(|f| super::formats::total_reads(m, &m.t.formats[f]))).collect();
    // The direct arms by the way their encoding's fields read (types and reads, not names), in
    // the order first met.
    let mut layouts: Vec<Vec<usize>> = Vec::new();
    let mut layout_of: std::collections::HashMap<String, usize> = std::collections::HashMap::new();
    for (k, reads) in arm_reads.iter().enumerate() {
        let Some(reads) = reads else { continue };
        let key: String = reads.iter().map(|(_, ty, read)| format!("{ty}:{read};")).collect();
        match layout_of.get(&key) {
            Some(&l) => layouts[l].push(k),
            None => {
                layout_of.insert(key, layouts.len());
                layouts.push(vec![k]);
            }
        }
    }
    let key_expr = bits_expr(word_ty, lo, width);
    // The arm each shared layout's `match` arm stands at (its first direct arm).
    let mut shared_at: std::collections::HashMap<usize, usize> = std::collections::HashMap::new();
    let mut in_shared = vec![false; arms.len()];
    for (l, members) in layouts.iter().enumerate() {
        if members.len() >= SHARED_LAYOUT_MIN {
            shared_at.insert(members[0], l);
            for &k in members {
                in_shared[k] = true;
            }
        }
    }
    let mut calls = Vec::new();
    let mut layout_count = 0usize;
    for (k, (ranges, sub)) in arms.iter().enumerate() {
        if let Some(&l) = shared_at.get(&k) {
            let members = &layouts[l];
            let reads = arm_reads[k].as_deref().unwrap_or_default();
            layout_count += 1;
            let name = quote::format_ident!("decode_layout_{}", layout_count);
            // Lexed for the layout's first encoding only: the others' reads are the same text.
            let values = reads.iter().map(|(_, _, read)| super::model::tokens(read));
            let vars: Vec<_> = (0..reads.len()).map(|i| quote::format_ident!("v{}", i)).collect();
            // The layout's values as ranges, adjacent ones merged: one arm of 10,000 listed
            // values made rustc allocate 3.2 GB at once (a matrix of the alternatives, quadratic),
            // where the ranges are a comparison or two.
            let mut all = members.iter().flat_map(|&k| arms[k].0.iter().copied()).collect::<Vec<_>>();
            all.sort_unstable();
            let mut merged: Ranges = Vec::new();
            for (a, b) in all {
                match merged.last_mut() {
                    Some(last) if last.1 + 1 >= a => last.1 = last.1.max(b),
                    _ => merged.push((a, b)),
                }
            }
            let p = pattern(&merged, false);
            let variant = |k: usize| {
                let n = m.format_ident(direct[k].unwrap_or_default());
                // The encoding's own member names: encodings whose fields read alike may name
                // them differently.
                let own = arm_reads[k].as_deref().unwrap_or_default();
                let members = own.iter().zip(&vars).map(|((id, _, _), v)| quote!(#id: #v));
                quote!(Instruction::#n(#n { #(#members),* }))
            };
            let picks = members.iter().map(|&k| {
                let p = pattern(&arms[k].0, true);
                let v = variant(k);
                quote!(#p => #v)
            });
            // The caller's arm holds the layout's values only: the last arm is never taken, and
            // stands for the case the compiler cannot rule out.
            let fallback = variant(members[0]);
            // One function reads the fields and picks the variant, returning the `Instruction`
            // alone (no `Result`): LLVM then makes the pick one computation of the discriminant
            // from the opcode bits (a subtraction, or a table of discriminants), where a pick
            // that built the `Result` kept a store and a jump per encoding behind a jump table
            // (10,000 encodings: 130 KB of picks and a 40 KB table, read at random).
            // Encodings without stored fields read nothing.
            let read = if reads.is_empty() { quote!() } else { quote!(let (#(#vars,)*) = (#(#values,)*);) };
            // `#[inline]`: one small function per shared layout, which the caller's crate
            // compiles and may inline (no call through the GOT, no register spilled around a
            // cold call). Synthetic specs, criterion `decode_scaling` minima, same load: 2,000
            // and 10,000 encodings 2.44 → 1.89 ns a word against `out_of_line`, 100 encodings
            // 1.89 → 1.15 ns.
            bodies.push(quote! {
                #[allow(clippy::unnecessary_cast, clippy::manual_range_patterns, unused_parens)]
                #[inline]
                fn #name(word: #word_ty) -> Instruction {
                    #read
                    match #key_expr {
                        #(#picks,)*
                        _ => #fallback,
                    }
                }
            });
            calls.push(quote!(#p => Ok(#name(word))));
            continue;
        }
        if in_shared[k] {
            continue;
        }
        let call = match direct[k] {
            Some(f) => {
                let n = m.format_ident(f);
                quote!(#n::decode_leaf(word))
            }
            None => {
                let name = quote::format_ident!("decode_arm_{}", k + 1);
                let body = render(word_ty, sub, hit, miss);
                bodies.push(quote! {
                    #[allow(clippy::unnecessary_cast, clippy::needless_return, clippy::manual_range_patterns, unused_parens)]
                    #out_of_line
                    fn #name(word: #word_ty) -> Result<Instruction, isa_runtime::DecodeError> {
                        #body
                    }
                });
                quote!(#name(word))
            }
        };
        let p = pattern(ranges, true);
        calls.push(quote!(#p => #call));
    }
    let word = super::model::word_field(word_ty);
    let call = quote! {
        match #key_expr {
            #(#calls,)*
            _ => Err(isa_runtime::DecodeError::NoMatch { #word }),
        }
    };
    let shared = (0..arms.len()).filter(|&k| in_shared[k]).filter_map(|k| direct[k]).collect();
    (quote!(#(#bodies)*), call, shared)
}

/// The decoder of a target: the tree, the functions `decode` calls (leaves, functions of the
/// first switch's arms) and `decode` itself.
struct Decoder {
    tree: Node,
    /// The leaves and the functions of the first switch's arms.
    items: TokenStream,
    /// `decode` is inlined into its caller (a split decoder: one switch of calls).
    inlined: bool,
    body: TokenStream,
}

fn decoder(m: &Model) -> Decoder {
    let t = m.t;
    let word_ty = &m.word_ty;
    let cands = t.formats.iter().enumerate().map(|(i, f)| (i, constraints(f))).collect();
    let tree = build(cands, ROOT_KEY_BITS);
    let names: Vec<_> = (0..t.formats.len()).map(|i| m.format_ident(i)).collect();
    // The encodings the tree reaches (a bundled target's slot formats are read per stream).
    let reached = std::cell::RefCell::new(std::collections::BTreeSet::new());
    // Once, not per leaf: the question walks every format.
    let variable_length = t.variable_length();
    let decode_hit = |i: usize| {
        let n = &names[i];
        // A reserved encoding's words are no instruction to the typed decoder; the
        // printers still find them through `match_format`.
        if t.formats[i].reserved.is_some() {
            return quote!(Err(isa_runtime::DecodeError::NoMatch { word: word as u128 }));
        }
        reached.borrow_mut().insert(i);
        if variable_length {
            // What follows a shorter instruction is the next one: it reads as zero.
            let i = lit(i as u128);
            quote!(#n::decode_leaf(LENGTHS[#i].truncate(word as u128) as #word_ty))
        } else {
            quote!(#n::decode_leaf(word))
        }
    };
    let decode_miss = {
        let word = super::model::word_field(word_ty);
        quote!(return Err(isa_runtime::DecodeError::NoMatch { #word });)
    };
    // The encodings the tree reaches, as rendering it finds them (`decode_hit`): the tree is
    // rendered only when `decode` is not split (at 10,000 encodings, rendering it to throw it
    // away was a tenth of generating the decoder).
    visit_leaves(&tree, &mut |i| {
        if t.formats[i].reserved.is_none() {
            reached.borrow_mut().insert(i);
        }
    });
    let reached_count = reached.borrow().len();
    // A large decoder whose first switch is wide: `decode` is that switch, each arm a call
    // (of the leaf, or of a function of the arm's subtree), inlined into its caller, so that a
    // word costs one jump through the switch's table and one call of the leaf, which returns
    // to the caller. As one function out of line, every word paid for a second call and ret
    // and a saved register; through a table of function pointers, for the call's target
    // known later (Maxwell `maxwell/subset` words, driver, in one run: 6.4 ns a word out of
    // line, 5.7 through function pointers, 5.1 inlined; hand-written 4.7 ns).
    let split = match &tree {
        Node::Switch { lo, width, arms } if reached_count > INLINED_LEAVES && *width > PARTIAL_KEY_BITS => {
            Some(split_root(m, *lo, *width, arms, &decode_hit, &decode_miss))
        }
        Node::Switch { .. } | Node::Leaf(_) => None,
    };
    let inlined = split.is_some();
    // Encodings read by a shared layout leaf need no leaf of their own.
    let (decode_body, shared, tables) = match split {
        Some((arms, call, shared)) => (call, shared, Some(arms)),
        None => (render(word_ty, &tree, &decode_hit, &decode_miss), Default::default(), None),
    };
    // The decoder's leaves: each encoding's fields written straight into the `Instruction`
    // the decoder returns. A large decoder does not inline `from_word`; called from it, the
    // struct was stored byte by byte into a temporary and copied into the `Instruction` with
    // wide loads that wait on those stores (Maxwell's decoder spent most of its time there).
    // Here `from_word` is inlined into a small function whose result is the decoder's own.
    // A decoder of a few encodings inlines its leaves and is one function; in a larger one
    // the leaves stay out of line, so the decoder needs no registers of its own: where LLVM
    // inlined some of Maxwell's 297 leaves, every word paid for saving six registers
    // (callgrind 125 → 111 instructions a word with every leaf out of line).
    let mut reached = reached.into_inner();
    let inline = if reached.len() <= INLINED_LEAVES { quote!(#[inline]) } else { out_of_line() };
    reached.retain(|i| !shared.contains(i));
    let leaves = reached.into_iter().map(|i| {
        let n = &names[i];
        quote! {
            impl #n {
                /// The instruction of a word the decoder's tree gave to this encoding.
                #inline
                fn decode_leaf(word: #word_ty) -> Result<Instruction, isa_runtime::DecodeError> {
                    Self::from_word(word).map(Instruction::#n)
                }
            }
        }
    });
    Decoder { tree, items: quote!(#(#leaves)* #tables), inlined, body: decode_body }
}

/// The size and alignment in bytes of a struct member of type `ty`, when the backend knows them:
/// integers, booleans, and enums of at most 8 bits whose values are named, or one range beside
/// at most one named value (one byte: the range's `NonZero` payload leaves the named value its
/// niche). `None` for the others (layout views, switches, wider enums).
fn member_size(m: &Model, ty: &ir::Type) -> Option<(usize, usize)> {
    let int = |bits: u32| {
        let n = match bits {
            0..=8 => 1,
            9..=16 => 2,
            17..=32 => 4,
            33..=64 => 8,
            _ => 16,
        };
        Some((n, n))
    };
    match ty {
        ir::Type::Bool => Some((1, 1)),
        ir::Type::UInt(w) | ir::Type::SInt(w) => int(*w),
        ir::Type::Number(n) => int(m.t.numbers[n.0].kind.width()),
        ir::Type::Enum(e) => {
            let e = &m.t.enums[e.0];
            let one = e.variants.iter().filter(|v| matches!(v.values, ir::Values::One(_))).count();
            let range = e.variants.iter().filter(|v| matches!(v.values, ir::Values::Range(..))).count();
            let byte = one + range == e.variants.len() && (range == 0 || (range == 1 && one <= 1));
            (e.width <= 8 && byte).then_some((1, 1))
        }
        ir::Type::Layout(_) | ir::Type::Switch { .. } => None,
    }
}

/// The alignment `Instruction` is given (`#[repr(align(n))]`), if any: when the backend knows
/// the enum's size (every encoding's members known to [`member_size`]) and it is at most 8
/// bytes, that size rounded up to a power of two, so that the enum is one integer, which the
/// decoder writes with one store. A synthetic spec of 2,000 encodings of three one-byte fields
/// (`Instruction` 6 bytes: past 256 variants the discriminant is two bytes) was written as a
/// 4-byte and a 2-byte store after a select for the fallback pick; aligned to 8, one 8-byte
/// store, no select (criterion `decode_scaling`, fastest samples beside main's binary: 10,000
/// encodings 123.8 → 83.4 µs for 65,536 words, 1.65× → 1.11× the 100's time). Larger enums
/// (Maxwell's, VideoCore IV's) are written field by field either way and are not changed.
fn instruction_align(m: &Model) -> Option<usize> {
    let tag: usize = if m.t.formats.len() > 256 { 2 } else { 1 };
    let mut size = tag;
    let mut align = tag;
    for f in &m.t.formats {
        // The struct: its members in any order, padded to its alignment.
        let (mut bytes, mut a) = (0usize, 1usize);
        for field in &f.fields {
            if field.view || field.fixed.is_some() || field.is_tag {
                continue;
            }
            let (n, fa) = member_size(m, &field.ty)?;
            let count = match &field.array {
                Some((k, _)) => *k as usize,
                None => 1,
            };
            bytes += n * count;
            a = a.max(fa);
        }
        let bytes = bytes.next_multiple_of(a);
        // The variant: the struct after the discriminant, at its alignment.
        size = size.max(tag.next_multiple_of(a) + bytes);
        align = align.max(a);
    }
    let size = size.next_multiple_of(align);
    (size > 1 && size <= 8).then(|| size.next_power_of_two())
}

/// Writes `Instruction`'s variants, one per encoding, documented from the spec when `docs`,
/// with the derives `derive` (the enum's opening), then the decoder's items and the opening of
/// `impl Instruction` with `decode`, up to the end of `decode`'s body (its closing brace left to
/// the caller). One writer for [`generate`] and [`generate_decoder`]: the decoder-only module's
/// decoder is the full module's, spelled alike.
fn write_decoder(m: &Model, docs: bool, derive: &str, out: &mut String) -> Node {
    let Decoder { tree, items, inlined, body } = decoder(m);
    let decode_inline = if inlined { "#[inline(always)]\n" } else { "" };
    if docs {
        out.push_str("#[doc = r\" An instruction of any encoding.\"]\n");
    }
    let _ = writeln!(out, "#[derive({derive})]");
    if let Some(n) = instruction_align(m) {
        let _ = writeln!(out, "#[repr(align({n}))]");
    }
    out.push_str("pub enum Instruction {\n");
    for (i, f) in m.t.formats.iter().enumerate() {
        let n = m.format_ident(i);
        if docs {
            out.push_str("#[doc = ");
            str_lit(&format!(" `{}`: {}", f.name, f.doc.lines().next().unwrap_or("")), out);
            out.push_str("] ");
        }
        let _ = writeln!(out, "{n}({n}),");
    }
    out.push_str("}\n");
    if !items.is_empty() {
        super::write_compact(items, 0, true, out);
        out.push('\n');
    }
    let word = m.word;
    let _ = write!(
        out,
        r####"#[allow(unused_parens)]
impl Instruction {{
#[doc = r" Decodes a word: a decision tree over the opcode fields, then the encoding's"]
#[doc = r" typed fields. Words that match nothing, or hold undefined values, are errors."]
#[allow(clippy::unnecessary_cast, clippy::needless_return, clippy::manual_range_patterns)]
{decode_inline}pub fn decode(word: {word}) -> Result<Instruction, isa_runtime::DecodeError> {{
"####
    );
    super::write_compact(body, 1, true, out);
    tree
}

/// The `Instruction` enum, its decoder and its methods, as Rust source text.
pub fn generate(m: &Model) -> String {
    let t = m.t;
    let word_ty = &m.word_ty;
    // The enum and the methods with an arm per encoding are written as text (see
    // [`super::formats::format_def`]); the decoder's tokens are written into it.
    let names: Vec<String> = (0..t.formats.len()).map(|i| m.format_ident(i).to_string()).collect();
    let mut out = String::with_capacity(256 * names.len() + 4096);
    let tree = write_decoder(m, true, "Debug, Clone, Copy, PartialEq, Eq, Hash", &mut out);
    let match_tree = render(
        word_ty,
        &tree,
        &|i| {
            let i = lit(i as u128);
            quote!(Some(#i))
        },
        &quote!(return None;),
    );
    let word = m.word;
    let _ = write!(
        out,
        r####"
}}
#[doc = r" Decodes a word as [`Instruction::decode`] does, except that a word of an encoding"]
#[doc = r#" the hardware reserves (`reserved "why"`) is [`isa_runtime::DecodeError::Reserved`],"#]
#[doc = r" naming the encoding and why, where `decode` reports only that nothing matches."]
#[allow(clippy::unnecessary_cast)]
pub fn decode_strict(word: {word}) -> Result<Instruction, isa_runtime::DecodeError> {{
const RESERVED: &[(&str, Option<&str>)] = &["####
    );
    for (k, f) in t.formats.iter().enumerate() {
        if k > 0 {
            out.push_str(", ");
        }
        out.push('(');
        str_lit(&f.name, &mut out);
        match &f.reserved {
            Some(why) => {
                out.push_str(", Some(");
                str_lit(why, &mut out);
                out.push_str("))");
            }
            None => out.push_str(", None)"),
        }
    }
    let _ = write!(
        out,
        r####"];
Instruction::decode(word).map_err(|e| match (&e, Instruction::match_format(word)) {{
(isa_runtime::DecodeError::NoMatch {{ .. }}, Some(i)) => match RESERVED.get(i) {{
Some(&(format, Some(why))) => {{
isa_runtime::DecodeError::Reserved {{ format, why, word: word as u128 }}
}}
_ => e,
}},
_ => e,
}})
}}
#[doc = r" The index of the encoding whose opcode bits match the word, fields unchecked."]
#[allow(clippy::unnecessary_cast, clippy::needless_return, clippy::manual_range_patterns)]
#[allow(unused_variables)]
pub fn match_format(word: {word}) -> Option<usize> {{
"####
    );
    super::write_compact(match_tree, 1, true, &mut out);
    // The length checks widen the word, which may already be a `u128`.
    let encode_allow = if t.formats.iter().any(|f| f.length.is_some()) {
        "#[allow(clippy::unnecessary_cast)]\n"
    } else {
        ""
    };
    let _ = write!(
        out,
        r####"
}}
#[doc = r" Encodes the instruction; values that do not fit their fields are errors."]
{encode_allow}pub fn encode(&self) -> Result<{word}, isa_runtime::EncodeError> {{
match self {{
"####
    );
    let extract_word = if word == "u64" { "u64" } else { "" };
    for (i, (n, f)) in names.iter().zip(&t.formats).enumerate() {
        match &f.length {
            // A length that cannot hold the instruction's other bits is not allowed.
            Some(l) => {
                let lf = f.field(l.field);
                let value = extract_text(extract_word, &placement::piece_runs(&lf.pieces));
                let _ = write!(
                    out,
                    "Instruction::{n}(x) => x.to_word().and_then(|word| {{\nif LENGTHS[{i}].fits(word as u128) {{\nOk(word)\n}} else {{\nErr(isa_runtime::EncodeError::NotAllowed {{ format: {n}::NAME, field: "
                );
                str_lit(&lf.name, &mut out);
                let _ = writeln!(out, ", value: {value} }})\n}}\n}}),");
            }
            None => {
                let _ = writeln!(out, "Instruction::{n}(x) => x.to_word(),");
            }
        }
    }
    out.push_str(
        "}\n}\n#[doc = r\" Index of the instruction's encoding in [`FORMATS`].\"]\npub fn format_index(&self) -> usize {\nmatch self {\n",
    );
    for (i, n) in names.iter().enumerate() {
        let _ = writeln!(out, "Instruction::{n}(_) => {i},");
    }
    out.push_str("}\n}\n#[doc = r\" The encoding's spec name.\"]\npub fn name(&self) -> &'static str {\nmatch self {\n");
    for n in &names {
        let _ = writeln!(out, "Instruction::{n}(_) => {n}::NAME,");
    }
    out.push_str(
        "}\n}\n#[doc = r\" Every field by its spec name.\"]\npub fn fields(&self) -> Vec<(&'static str, isa_runtime::value::Value)> {\nmatch self {\n",
    );
    for n in &names {
        let _ = writeln!(out, "Instruction::{n}(x) => x.fields(),");
    }
    out.push_str("}\n}\n}\n");
    out
}

/// The `Instruction` enum of the decoder-only module ([`super::generate_decoder_compact_from`])
/// and its decoder, as Rust source text: the variants (`Clone` and `Copy` only, no
/// documentation) and `decode`, written by [`generate`]'s writer. Without the derives and the
/// per-variant `match`es of [`generate`] (`encode`, `format_index`, `name`, `fields`,
/// `match_format`), a module of 10,000 encodings builds in minutes, where rustc's front end
/// passed 19 GB.
pub fn generate_decoder(m: &Model) -> String {
    let mut out = String::with_capacity(32 * m.t.formats.len() + 4096);
    write_decoder(m, false, "Clone, Copy", &mut out);
    out.push_str("\n}\n}\n");
    out
}
