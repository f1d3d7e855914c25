//! Evaluating conditions and values over field values: parameter bindings of template calls
//! (frames), the fields an expression reads, views made up of other fields, and evaluation
//! over known values with and without defaults. The printer and both readers evaluate alike.

use super::tree::{Arith, Cmp, Expr, Item, Slot};
use super::walk::MNEMONIC_DEPTH;
use alloc::vec::Vec;

/// The fields (not views) that share bits with view `slot`, in field order.
pub(super) fn view_parts(format: &crate::format::Format, slot: Slot) -> impl Iterator<Item = Slot> + '_ {
    let mut view = 0u128;
    crate::bits::set(&mut view, format.fields[slot as usize].pieces, u64::MAX);
    format.fields.iter().enumerate().filter_map(move |(i, f)| {
        let mut own = 0u128;
        crate::bits::set(&mut own, f.pieces, u64::MAX);
        (!f.view && own & view != 0).then_some(i as Slot)
    })
}

/// The values with each view that has none filled in from the fields that make it up, when all
/// of them are known (`defaults`: or have a default); `None` when no view gains a value. Views
/// with bits no field owns stay unknown.
pub(super) fn made_up_views(
    format: &crate::format::Format,
    vals: &[Option<u64>],
    defaults: bool,
) -> Option<Vec<Option<u64>>> {
    let mut out: Option<Vec<Option<u64>>> = None;
    for (i, f) in format.fields.iter().enumerate() {
        if !f.view || vals[i].is_some() || print_only(format, i as Slot) {
            continue;
        }
        let mut word = 0u128;
        let mut all = true;
        for part in view_parts(format, i as Slot) {
            let field = &format.fields[part as usize];
            match vals[part as usize].or(if defaults { field.default } else { None }) {
                Some(v) => crate::bits::set(&mut word, field.pieces, v),
                None => {
                    all = false;
                    break;
                }
            }
        }
        if all {
            out.get_or_insert_with(|| vals.to_vec())[i] = Some(crate::bits::get(word, f.pieces));
        }
    }
    out
}

/// Whether field `slot` is a view that cannot be read back: one with bits no field owns. A view
/// of whole fields reads back into them; a view of part of a field (Maxwell's half-precision
/// immediate in the low 16 bits of a 20-bit one) reads back into that part, the field's other
/// bits zero.
pub(super) fn print_only(format: &crate::format::Format, slot: Slot) -> bool {
    let field = &format.fields[slot as usize];
    if !field.view {
        return false;
    }
    let mut view = 0u128;
    crate::bits::set(&mut view, field.pieces, u64::MAX);
    let covered = view_parts(format, slot).fold(0u128, |m, s| {
        let mut own = m;
        crate::bits::set(&mut own, format.fields[s as usize].pieces, u64::MAX);
        own
    });
    covered & view != view
}

/// A parameter binding of a sub-syntax call (what generated readers pass as frames).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Bound {
    /// A field.
    Slot(Slot),
    /// A one-bit field, negated.
    NotSlot(Slot),
    /// A constant.
    Const(i64),
}

#[inline(always)]
pub(super) fn bind(e: &Expr, frame: &[Bound]) -> Bound {
    match e {
        Expr::Field(s) => Bound::Slot(*s),
        Expr::Param(n) => frame[*n as usize],
        Expr::Int(v) => Bound::Const(*v),
        _ => bind_other(e, frame),
    }
}

/// [`bind`] of a negation (or of what the compiler never passes).
fn bind_other(e: &Expr, frame: &[Bound]) -> Bound {
    match e {
        Expr::Not(x) => match bind(x, frame) {
            Bound::Slot(s) => Bound::NotSlot(s),
            Bound::NotSlot(s) => Bound::Slot(s),
            Bound::Const(v) => Bound::Const((v == 0) as i64),
        },
        // The compiler only passes fields, negated fields and constants.
        _ => Bound::Const(0),
    }
}

/// The fields `e` reads through `frame`, as a set of bits (field `s` is bit `s % 64`: a
/// superset when a format has more than 64 fields).
pub(super) fn slot_bits(e: &Expr, frame: &[Bound]) -> u64 {
    match e {
        Expr::Field(_) | Expr::Param(_) => match bind(e, frame) {
            Bound::Slot(s) | Bound::NotSlot(s) => 1 << (s % 64),
            Bound::Const(_) => 0,
        },
        Expr::Int(_) | Expr::Pc => 0,
        Expr::Not(x) | Expr::In(x, _) => slot_bits(x, frame),
        Expr::And(xs) | Expr::Or(xs) => xs.iter().fold(0, |m, x| m | slot_bits(x, frame)),
        Expr::Cmp(_, a, b) | Expr::Arith(_, a, b) => slot_bits(a, frame) | slot_bits(b, frame),
        Expr::If(c, a, b) => slot_bits(c, frame) | slot_bits(a, frame) | slot_bits(b, frame),
    }
}

/// The fields that the parameters in `params` (bit `n` for parameter `n`) stand for in `frame`,
/// as [`slot_bits`] gives them: what a shape memoised once per item list is worth in a call.
pub(super) fn bound_slot_bits(params: u64, frame: &[Bound]) -> u64 {
    let mut bits = 0;
    let mut p = params;
    while p != 0 {
        let n = p.trailing_zeros() as usize;
        p &= p - 1;
        if let Some(Bound::Slot(s) | Bound::NotSlot(s)) = frame.get(n) {
            bits |= 1 << (s % 64);
        }
    }
    bits
}

/// Whether an optional group's condition reads only fields the group itself shows
/// (`[vertex != rz: ", " {vertex}]`): written out, the group says the value outright, so the
/// assembler reads it as written even when it is the value that leaves the group out.
pub(super) fn self_describing(cond: &Expr, body: &[Item], frame: &[Bound]) -> bool {
    let mut any = false;
    let all = each_read(cond, frame, &mut |s| {
        any = true;
        shows(body, frame, s, 0)
    });
    any && all
}

/// Calls `f` on each field slot `e` reads through `frame` while it returns true; whether it
/// always did.
fn each_read(e: &Expr, frame: &[Bound], f: &mut dyn FnMut(Slot) -> bool) -> bool {
    match e {
        Expr::Field(_) | Expr::Param(_) => match bind(e, frame) {
            Bound::Slot(s) | Bound::NotSlot(s) => f(s),
            Bound::Const(_) => true,
        },
        Expr::Int(_) | Expr::Pc => true,
        Expr::Not(x) | Expr::In(x, _) => each_read(x, frame, f),
        Expr::And(xs) | Expr::Or(xs) => xs.iter().all(|x| each_read(x, frame, f)),
        Expr::Cmp(_, a, b) | Expr::Arith(_, a, b) => each_read(a, frame, f) && each_read(b, frame, f),
        Expr::If(c, a, b) => each_read(c, frame, f) && each_read(a, frame, f) && each_read(b, frame, f),
    }
}

/// Whether `items` show field `slot`: in holes, and through the templates they call, in holes
/// and in the guards that choose what is printed (`component(c)`'s `| c == x => "x"`).
fn shows(items: &[Item], frame: &[Bound], slot: Slot, depth: u32) -> bool {
    items.iter().any(|item| match item {
        Item::Show(e, _) => !each_read(e, frame, &mut |s| s != slot),
        Item::Call(sub, args) if depth < MNEMONIC_DEPTH => with_frame(args, frame, &mut |inner| {
            sub.arms.iter().any(|arm| {
                arm.guard.is_some_and(|g| !each_read(g, inner, &mut |s| s != slot))
                    || shows(arm.items, inner, slot, depth + 1)
            })
        }),
        _ => false,
    })
}

/// Calls `f` with the frame of a call with arguments `args` made in `frame` (on the stack when
/// it is short).
fn with_frame<R>(args: &[Expr], frame: &[Bound], f: &mut dyn FnMut(&[Bound]) -> R) -> R {
    let mut few = [Bound::Const(0); 8];
    if args.len() <= few.len() {
        for (b, a) in few.iter_mut().zip(args.iter()) {
            *b = bind(a, frame);
        }
        f(&few[..args.len()])
    } else {
        let many: Vec<Bound> = args.iter().map(|a| bind(a, frame)).collect();
        f(&many)
    }
}

pub(super) fn bound_value(b: Bound, vals: &[Option<u64>]) -> Option<i64> {
    bound_in(b, vals)
}

/// Field values an expression is evaluated over.
pub(super) trait Values {
    fn get(&self, slot: Slot) -> Option<u64>;
}

impl Values for [Option<u64>] {
    fn get(&self, slot: Slot) -> Option<u64> {
        self[slot as usize]
    }
}

/// The values known so far, with defaults for the fields not known yet (without copying them).
pub(super) struct Defaulted<'a> {
    pub(super) vals: &'a [Option<u64>],
    pub(super) fields: &'a [crate::format::FieldInfo],
}

impl Values for Defaulted<'_> {
    fn get(&self, slot: Slot) -> Option<u64> {
        self.vals[slot as usize].or(self.fields[slot as usize].default)
    }
}

#[inline]
fn bound_in<V: Values + ?Sized>(b: Bound, vals: &V) -> Option<i64> {
    match b {
        Bound::Slot(s) => vals.get(s).map(|v| v as i64),
        Bound::NotSlot(s) => vals.get(s).map(|v| (v == 0) as i64),
        Bound::Const(v) => Some(v),
    }
}

#[inline]
pub(super) fn eval(e: &Expr, frame: &[Bound], vals: &[Option<u64>], pc: u64) -> Option<i64> {
    leaf_in(e, frame, vals).unwrap_or_else(|()| eval_in(e, frame, vals, pc))
}

/// The value of an operand that needs no walk (a constant, a field, a parameter); `Err` for
/// any other expression.
#[inline(always)]
fn operand<V: Values + ?Sized>(e: &Expr, frame: &[Bound], vals: &V) -> Result<Option<i64>, ()> {
    match e {
        Expr::Int(v) => Ok(Some(*v)),
        Expr::Field(s) => Ok(vals.get(*s).map(|v| v as i64)),
        Expr::Param(n) => Ok(bound_in(frame[*n as usize], vals)),
        _ => Err(()),
    }
}

/// [`eval_in`] of the common leaves of a condition (an operand, its negation, a comparison or
/// a range test of operands) without a call; `Err` for any other expression.
#[inline(always)]
pub(super) fn leaf_in<V: Values + ?Sized>(e: &Expr, frame: &[Bound], vals: &V) -> Result<Option<i64>, ()> {
    match e {
        Expr::Cmp(op, a, b) => {
            let (a, b) = (operand(a, frame, vals)?, operand(b, frame, vals)?);
            Ok(match (a, b) {
                (Some(a), Some(b)) => Some(compare(*op, a, b) as i64),
                _ => None,
            })
        }
        Expr::Not(x) => Ok(operand(x, frame, vals)?.map(|v| (v == 0) as i64)),
        Expr::In(x, ranges) => Ok(operand(x, frame, vals)?.map(|v| in_ranges(ranges, v) as i64)),
        _ => operand(e, frame, vals),
    }
}

/// [`eval_in`], a leaf ([`leaf_in`]) without a call.
#[inline]
pub(super) fn value_in<V: Values + ?Sized>(e: &Expr, frame: &[Bound], vals: &V, pc: u64) -> Option<i64> {
    leaf_in(e, frame, vals).unwrap_or_else(|()| eval_in(e, frame, vals, pc))
}

pub(super) fn eval_in<V: Values + ?Sized>(e: &Expr, frame: &[Bound], vals: &V, pc: u64) -> Option<i64> {
    match e {
        Expr::Int(v) => Some(*v),
        Expr::Field(s) => vals.get(*s).map(|v| v as i64),
        Expr::Param(n) => bound_in(frame[*n as usize], vals),
        Expr::Pc => Some(pc as i64),
        Expr::Not(x) => eval_in(x, frame, vals, pc).map(|v| (v == 0) as i64),
        Expr::And(xs) => {
            let mut all = Some(1);
            for x in xs.iter() {
                match leaf_in(x, frame, vals).unwrap_or_else(|()| eval_in(x, frame, vals, pc)) {
                    Some(0) => return Some(0),
                    Some(_) => {}
                    None => all = None,
                }
            }
            all
        }
        Expr::Or(xs) => {
            let mut any = Some(0);
            for x in xs.iter() {
                match leaf_in(x, frame, vals).unwrap_or_else(|()| eval_in(x, frame, vals, pc)) {
                    Some(0) => {}
                    Some(_) => return Some(1),
                    None => any = None,
                }
            }
            any
        }
        Expr::Cmp(op, a, b) => {
            // The common leaf `field == constant`, without a call per side.
            let a = match a {
                Expr::Field(s) => vals.get(*s).map(|v| v as i64),
                Expr::Param(n) => bound_in(frame[*n as usize], vals),
                _ => eval_in(a, frame, vals, pc),
            }?;
            let b = match b {
                Expr::Int(v) => *v,
                _ => eval_in(b, frame, vals, pc)?,
            };
            Some(compare(*op, a, b) as i64)
        }
        Expr::Arith(op, a, b) => {
            let (a, b) = (eval_in(a, frame, vals, pc)?, eval_in(b, frame, vals, pc)?);
            Some(match op {
                Arith::Add => a.wrapping_add(b),
                Arith::Sub => a.wrapping_sub(b),
                Arith::Mul => a.wrapping_mul(b),
                Arith::Div => a.checked_div(b).unwrap_or(0),
                Arith::Rem => a.checked_rem(b).unwrap_or(0),
                Arith::And => a & b,
                Arith::Or => a | b,
                Arith::Xor => a ^ b,
                Arith::Shl => a.wrapping_shl(b as u32),
                Arith::Shr => a.wrapping_shr(b as u32),
            })
        }
        Expr::If(c, a, b) => match eval_in(c, frame, vals, pc)? {
            0 => eval_in(b, frame, vals, pc),
            _ => eval_in(a, frame, vals, pc),
        },
        Expr::In(x, ranges) => {
            let v = eval_in(x, frame, vals, pc)?;
            Some(in_ranges(ranges, v) as i64)
        }
    }
}

/// [`eval`] over the known values and over the known values with defaults
/// ([`Defaulted`]) in one walk: `(known, defaulted)`.
pub(super) fn eval_both(
    e: &Expr,
    frame: &[Bound],
    vals: &[Option<u64>],
    fields: &[crate::format::FieldInfo],
    pc: u64,
) -> (Option<i64>, Option<i64>) {
    let field = |s: Slot| {
        let v = vals[s as usize];
        (v.map(|v| v as i64), v.or(fields[s as usize].default).map(|v| v as i64))
    };
    let both = |x: Option<i64>| (x, x);
    // The common leaves (`field == constant`, a flag) without a call per part.
    let leaf = |x: &Expr| match x {
        Expr::Field(s) => Some(field(*s)),
        Expr::Cmp(op, a, b) => match (&**a, &**b) {
            (Expr::Field(s), Expr::Int(v)) => {
                let (k, d) = field(*s);
                let cmp = |x: Option<i64>| x.map(|x| compare(*op, x, *v) as i64);
                Some((cmp(k), cmp(d)))
            }
            _ => None,
        },
        _ => None,
    };
    if let Some(r) = leaf(e) {
        return r;
    }
    match e {
        Expr::Int(v) => both(Some(*v)),
        Expr::Field(s) => field(*s),
        Expr::Param(n) => match frame[*n as usize] {
            Bound::Slot(s) => field(s),
            Bound::NotSlot(s) => {
                let (k, d) = field(s);
                (k.map(|v| (v == 0) as i64), d.map(|v| (v == 0) as i64))
            }
            Bound::Const(v) => both(Some(v)),
        },
        Expr::Pc => both(Some(pc as i64)),
        Expr::Not(x) => {
            let (k, d) = eval_both(x, frame, vals, fields, pc);
            (k.map(|v| (v == 0) as i64), d.map(|v| (v == 0) as i64))
        }
        Expr::And(xs) | Expr::Or(xs) => {
            // `And` stops at a false part, `Or` at a true one; each side on its own.
            let or = matches!(e, Expr::Or(_));
            let (stop, go) = (or as i64, (!or) as i64);
            let (mut k, mut d) = (Some(go), Some(go));
            let (mut k_done, mut d_done) = (false, false);
            for x in xs.iter() {
                let (xk, xd) = leaf(x).unwrap_or_else(|| eval_both(x, frame, vals, fields, pc));
                if !k_done {
                    match xk {
                        Some(v) if (v != 0) as i64 == stop => {
                            k = Some(stop);
                            k_done = true;
                        }
                        Some(_) => {}
                        None => k = None,
                    }
                }
                if !d_done {
                    match xd {
                        Some(v) if (v != 0) as i64 == stop => {
                            d = Some(stop);
                            d_done = true;
                        }
                        Some(_) => {}
                        None => d = None,
                    }
                }
                if k_done && d_done {
                    break;
                }
            }
            (k, d)
        }
        Expr::Cmp(op, a, b) => {
            let (ak, ad) = eval_both(a, frame, vals, fields, pc);
            let (bk, bd) = eval_both(b, frame, vals, fields, pc);
            let cmp = |a: Option<i64>, b: Option<i64>| Some(compare(*op, a?, b?) as i64);
            (cmp(ak, bk), cmp(ad, bd))
        }
        _ => (eval_in(e, frame, vals, pc), eval_in(e, frame, &Defaulted { vals, fields }, pc)),
    }
}

/// Whether `v` is in one of the inclusive `ranges` of an `in {..}` condition.
#[inline]
pub(super) fn in_ranges(ranges: &[(i64, i64)], v: i64) -> bool {
    ranges.iter().any(|&(lo, hi)| (lo..=hi).contains(&v))
}

pub(super) fn compare(op: Cmp, a: i64, b: i64) -> bool {
    match op {
        Cmp::Eq => a == b,
        Cmp::Ne => a != b,
        Cmp::Lt => a < b,
        Cmp::Le => a <= b,
        Cmp::Gt => a > b,
        Cmp::Ge => a >= b,
    }
}
