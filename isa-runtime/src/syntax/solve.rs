//! Conditions in the search: guards and optional groups' conditions solved into assignments,
//! deferred choices made once the text is read, and the final checks with defaults.

use super::eval::{bind, bound_value, eval, eval_both, eval_in, made_up_views, view_parts, Bound, Defaulted};
use super::failure::Want;
use super::memo::leaf_bits;
use super::names::{prints_text, Table};
use super::scan::skip_blanks;
use super::search::{Frame, Parser, State, K};
use super::tree::{Cmp, Expr};
use alloc::vec::Vec;

/// Records how a table spelled field `b`'s value `v` (`len` bytes). An empty spelling of a value
/// the table prints as text is an alias meaning "written elsewhere in the line" (vc4asm takes a
/// condition on the opcode or on the destination): the value must then be spelled out at
/// another place, or the line is not read this way. This keeps a value from going unwritten
/// altogether when it has empty aliases at two places.
pub(super) fn note_spelling(b: Bound, t: &Table, len: usize, v: u64, st: &mut State) {
    let slot = match b {
        Bound::Slot(s) | Bound::NotSlot(s) => s,
        Bound::Const(_) => return,
    };
    if len > 0 {
        if !st.shown.contains(&slot) {
            st.shown.push(slot);
        }
        st.owed.retain(|x| *x != slot);
    } else if !st.shown.contains(&slot) && !st.owed.contains(&slot) && prints_text(t, v) {
        st.owed.push(slot);
    }
}

/// Whether requiring `e` can assign a field, rather than only check it at the end: a field or
/// parameter, a comparison of one with a constant, or a combination with such a part.
fn solvable(e: &Expr) -> bool {
    let named = |x: &Expr| matches!(x, Expr::Field(_) | Expr::Param(_));
    match e {
        Expr::Field(_) | Expr::Param(_) => true,
        Expr::Not(x) => solvable(x),
        Expr::Cmp(Cmp::Eq | Cmp::Ne, a, b) => {
            (named(a) && matches!(**b, Expr::Int(_))) || (named(b) && matches!(**a, Expr::Int(_)))
        }
        Expr::And(xs) | Expr::Or(xs) => xs.iter().any(solvable),
        Expr::In(x, _) => named(x),
        _ => false,
    }
}

/// Whether field `f` can hold the raw value `v`: its bits within the field's width, and one of
/// the values its encoding allows (its `in` clause; an enum's defined values).
pub(super) fn holds(f: &crate::format::FieldInfo, v: u64) -> bool {
    let width = crate::bits::width(f.pieces);
    (width == 0 || width >= 64 || v >> width == 0)
        && (f.allowed.is_empty() || f.allowed.iter().any(|(lo, hi)| (*lo..=*hi).contains(&v)))
}

/// The most values [`Parser::require`] tries for a field an `in` guard names: a set larger
/// than this (`imm in {0..=0xffff}`) is checked at the end, as other conditions are.
const IN_CHOICES: u64 = 256;

/// The raw values of a field `width` bits wide that `x in ranges` makes true (`want`) or
/// false, in order, when there are at most [`IN_CHOICES`] of them.
fn in_choices(ranges: &[(i64, i64)], want: bool, width: u32) -> Option<Vec<u64>> {
    let top = if width >= 64 { u64::MAX } else { (1u64 << width) - 1 };
    let inside = |v: u64| ranges.iter().any(|(lo, hi)| (*lo..=*hi).contains(&(v as i64)));
    let mut out = Vec::new();
    if want {
        for &(lo, hi) in ranges {
            // Guards compare a field's raw value read as an `i64` ([`eval`]): below 64 bits a
            // range below zero holds none of them, a 64-bit field's top half reads negative
            // (`x in {0xfffffffffffffff0..=0xffffffffffffffff}` is -16..=-1).
            let (lo, hi) = if width >= 64 { (lo, hi) } else { (lo.max(0), hi.min(top as i64)) };
            if hi < lo {
                continue;
            }
            if (i128::from(hi) - i128::from(lo)) + out.len() as i128 >= i128::from(IN_CHOICES) {
                return None;
            }
            for v in (lo..=hi).map(|v| v as u64) {
                if !out.contains(&v) {
                    out.push(v);
                }
            }
        }
    } else {
        if top >= IN_CHOICES {
            return None;
        }
        out.extend((0..=top).filter(|v| !inside(*v)));
    }
    Some(out)
}

impl Parser<'_> {
    /// The known values, with defaults for the fields not known yet.
    pub(super) fn defaulted<'s>(&'s self, st: &'s State) -> Defaulted<'s> {
        Defaulted { vals: &st.vals, fields: self.format.fields }
    }

    pub(super) fn finish(&mut self, pos: usize, st: &mut State) -> bool {
        let pos = skip_blanks(self.text, pos);
        if pos != self.text.len() && !self.prefix {
            return self.fail(pos, "end of line");
        }
        self.end = pos;
        // A value owed fails the reading in `complete` whatever the choices: when only success
        // matters, they are not made.
        if self.prune && !st.owed.is_empty() {
            return false;
        }
        // Equalities between a field the text gave and one it did not (`mov`'s two equal
        // inputs) carry the value over before defaults apply.
        let mut changed = true;
        while changed {
            changed = false;
            // Assigning adds no deferred condition: the list can be walked by index.
            for i in 0..st.deferred.len() {
                let (e, want, frame) = &st.deferred[i];
                let (a, b) = match (e, want) {
                    (Expr::Cmp(Cmp::Eq, a, b), true) | (Expr::Cmp(Cmp::Ne, a, b), false) => (a, b),
                    _ => continue,
                };
                if !matches!(a, Expr::Field(_) | Expr::Param(_))
                    || !matches!(b, Expr::Field(_) | Expr::Param(_))
                {
                    continue;
                }
                let (x, y) = (bind(a, frame), bind(b, frame));
                match (bound_value(x, &st.vals), bound_value(y, &st.vals)) {
                    (Some(v), None) => changed |= self.assign(y, v as u64, st),
                    (None, Some(v)) => changed |= self.assign(x, v as u64, st),
                    _ => {}
                }
            }
        }
        self.resolve(pos, st)
    }

    /// Settles the deferred conditions once the text is read. Choices (`a || b`, `!(a && b)`)
    /// are not made while reading, so a line that fails in its text fails once rather than
    /// once per combination of choices; here each condition the defaults do not already
    /// satisfy is solved in turn, trying its parts in order.
    fn resolve(&mut self, pos: usize, st: &mut State) -> bool {
        // A view the text did not spell (AGX's texture index `v`, read as its register and
        // half) has the value its fields make up once they are known, as the printer sees it.
        let views = made_up_views(self.format, &st.vals, false);
        let vals = views.as_deref().unwrap_or(&st.vals);
        let with_defaults = made_up_views(self.format, &st.vals, true);
        let defaulted =
            Defaulted { vals: with_defaults.as_deref().unwrap_or(&st.vals), fields: self.format.fields };
        let mut open = Vec::new();
        for (i, (e, want, frame)) in st.deferred.iter().enumerate() {
            match eval(e, frame, vals, self.ctx.pc) {
                Some(v) if (v != 0) == *want => continue,
                Some(_) => return self.fail(pos, "operands consistent with each other"),
                None => {}
            }
            if eval_in(e, frame, &defaulted, self.ctx.pc).is_some_and(|v| (v != 0) == *want) {
                continue;
            }
            if solvable(e) {
                open.push(i);
            }
        }
        if open.is_empty() {
            return self.complete(pos, st);
        }
        // Solve one open condition, then the rest. One that can only be deferred again (a
        // `!=` whose field another condition assigns) is left for later: try each first.
        for i in open {
            let mut trial = st.clone();
            let (e, want, frame) = trial.deferred.remove(i);
            trial.reads.remove(i);
            let known = trial.vals.iter().filter(|v| v.is_some()).count();
            let left = trial.deferred.len();
            let lazy = core::mem::replace(&mut self.lazy, false);
            let ok = self.require(e, want, &frame, pos, &mut trial, &mut |p, pos, st| {
                let progress =
                    st.vals.iter().filter(|v| v.is_some()).count() > known || st.deferred.len() <= left;
                progress && p.resolve(pos, st)
            });
            self.lazy = lazy;
            if ok {
                *st = trial;
                return true;
            }
        }
        // No way to satisfy the conditions left: said at the end of the line, not left to an
        // earlier reading's expectation (which named an operand the text spells correctly).
        self.fail(pos, "operands consistent with each other")
    }

    /// Fills in the defaults and checks every deferred condition.
    fn complete(&mut self, pos: usize, st: &mut State) -> bool {
        if let Some(&slot) = st.owed.first() {
            let name = self.format.fields[slot as usize].name;
            return self.fail_with(pos, Want::WrittenOut(name));
        }
        let mut vals = Vec::with_capacity(st.vals.len());
        let mut word = 0u128;
        for (i, v) in st.vals.iter().enumerate() {
            let field = &self.format.fields[i];
            if field.view {
                vals.push(0);
                continue;
            }
            match v.or(field.default) {
                Some(v) => {
                    crate::bits::set(&mut word, field.pieces, v);
                    vals.push(v)
                }
                None => return self.fail_with(pos, Want::OperandFor(field.name)),
            }
        }
        // Deferred conditions see views as the fields make them up, as the printer does.
        let known: Vec<Option<u64>> = self
            .format
            .fields
            .iter()
            .zip(&vals)
            .map(|(f, v)| Some(if f.view { crate::bits::get(word, f.pieces) } else { *v }))
            .collect();
        for (e, want, frame) in &st.deferred {
            if (eval(e, frame, &known, self.ctx.pc).unwrap_or(0) != 0) != *want {
                return self.fail(pos, "operands consistent with each other");
            }
        }
        self.result = Some(vals);
        true
    }

    /// Gives the field bound to `b` the raw value `v`. Fails when it already has another
    /// value, or when a deferred condition that the new value decides comes out wrong: such a
    /// path could only fail at the end of the line, after trying every way to read the rest.
    pub(super) fn assign(&mut self, b: Bound, v: u64, st: &mut State) -> bool {
        let slot = match b {
            Bound::Const(c) => return c as u64 == v,
            Bound::Slot(s) => s,
            Bound::NotSlot(s) => s,
        };
        let v = match b {
            Bound::NotSlot(_) if v > 1 => return false,
            Bound::NotSlot(_) => 1 - v,
            _ => v,
        };
        // Guards compare raw bits, as the printer reads them (the checker has already written
        // a signed field's `x == -1` as its bits, 0xf on four bits): a value the field cannot
        // hold is no reading; and an `in` guard's choice is a value the field can hold (an
        // enum's, not a hole between them).
        if !holds(&self.format.fields[slot as usize], v) {
            return false;
        }
        match st.vals[slot as usize] {
            Some(old) => return old == v,
            None => {
                st.vals[slot as usize] = Some(v);
                st.assigned.push(slot);
            }
        }
        // A view reads back into the fields that make it up (AGX's uniform number is the
        // high type bit above the register bits): each gets its bits of the value, and a field
        // the view covers only in part gets zero in its other bits.
        if self.format.fields[slot as usize].view {
            let view = self.format.fields[slot as usize].pieces;
            let mut word = 0u128;
            crate::bits::set(&mut word, view, v);
            for part in view_parts(self.format, slot) {
                let bits = crate::bits::get(word, self.format.fields[part as usize].pieces);
                if !self.assign(Bound::Slot(part), bits, st) {
                    return false;
                }
            }
        }
        // Unless one was already false, every deferred condition was undecided or true before:
        // only those reading this field can have changed.
        let bit = 1u64 << (slot % 64);
        let mut holds = !st.violated;
        // The fields known (bit `s` for field `s`), when each has a bit of its own.
        let mut known = None;
        for k in 0..st.deferred.len() {
            if !holds {
                break;
            }
            if st.reads[k] & bit == 0 {
                continue;
            }
            let (e, want, ref frame) = st.deferred[k];
            // Every field it reads known: looked at whole (assigning a view assigns the fields
            // that make it up first), which finds whatever looking at the parts reading this
            // field would. Not contradicted, it holds, and since fields keep their values no
            // later assignment can change that, so none checks it again.
            if self.format.fields.len() <= 64 {
                let known = *known.get_or_insert_with(|| {
                    st.vals.iter().enumerate().fold(0u64, |m, (i, v)| m | (u64::from(v.is_some()) << i))
                });
                if st.reads[k] & !known == 0 {
                    if self.contradicts(e, want, frame, &st.vals, bit, false) {
                        holds = false;
                        continue;
                    }
                    st.settled.push((k, st.reads[k]));
                    st.reads[k] = 0;
                    continue;
                }
            }
            if self.contradicts(e, want, frame, &st.vals, bit, true) {
                holds = false;
            }
        }
        st.violated = !holds;
        holds
    }

    /// Whether `e`, a condition that must come out `want`, now comes out otherwise (evaluates
    /// to the other truth value; undecided is not a contradiction): as evaluating it whole,
    /// but looking into `&&`, `||` and `!`. With `changed_only`, `e` was not contradicted
    /// before the field of `bit` was given its value, so of the parts any one of which
    /// contradicts it (`a && b` that must hold, `a || b` that must not), only those reading
    /// that field can now: the others are skipped unevaluated.
    fn contradicts(
        &mut self,
        e: &'static Expr,
        want: bool,
        frame: &[Bound],
        vals: &[Option<u64>],
        bit: u64,
        changed_only: bool,
    ) -> bool {
        match e {
            Expr::Not(x) => self.contradicts(x, !want, frame, vals, bit, changed_only),
            // Evaluated whole, `a && b` is false as soon as one part is, `a || b` true.
            Expr::And(xs) | Expr::Or(xs) if matches!(e, Expr::And(_)) == want => xs.iter().any(|x| {
                (!changed_only || leaf_bits(x, frame).unwrap_or_else(|| self.reads.bits(x, frame)) & bit != 0)
                    && self.contradicts(x, want, frame, vals, bit, changed_only)
            }),
            // `a && b` that must not hold is contradicted when every part holds (`a || b` that
            // must hold when none does); a part may have held before, so each is looked at.
            Expr::And(xs) | Expr::Or(xs) => {
                xs.iter().all(|x| self.contradicts(x, want, frame, vals, bit, false))
            }
            _ => eval(e, frame, vals, self.ctx.pc).is_some_and(|v| (v != 0) != want),
        }
    }

    /// Makes `e` evaluate to `want`, calling `k` on every way found until one succeeds.
    pub(super) fn require(
        &mut self,
        e: &'static Expr,
        want: bool,
        frame: &[Bound],
        pos: usize,
        st: &mut State,
        k: K,
    ) -> bool {
        let (known, defaulted) = eval_both(e, frame, &st.vals, self.format.fields, self.ctx.pc);
        if let Some(v) = known {
            return (v != 0) == want && k(self, pos, st);
        }
        // When the defaults of the unknown fields already give `want`, check it once every
        // field is known rather than guessing values now: text that does not mention a field
        // leaves it at its default, and no choice is made that could multiply backtracking.
        if defaulted.is_some_and(|v| (v != 0) == want) {
            return self.defer(e, want, frame, pos, st, k);
        }
        match e {
            Expr::Field(_) | Expr::Param(_) => {
                let b = bind(e, frame);
                let one_bit = match b {
                    Bound::Slot(s) | Bound::NotSlot(s) => {
                        crate::bits::width(self.format.fields[s as usize].pieces) == 1
                    }
                    Bound::Const(_) => true,
                };
                if one_bit {
                    self.assign(b, want as u64, st) && k(self, pos, st)
                } else {
                    self.defer(e, want, frame, pos, st, k)
                }
            }
            Expr::Not(x) => self.require(x, !want, frame, pos, st, k),
            Expr::And(xs) if want => self.require_all(xs, true, frame, pos, st, k),
            Expr::Or(xs) if !want => self.require_all(xs, false, frame, pos, st, k),
            Expr::And(xs) | Expr::Or(xs) => {
                // A choice: try each part that can be solved (one that names a field value,
                // directly or inside a nested `&&`/`||`). Parts that cannot be solved are checked
                // at the end, as a last alternative, once every field is known.
                // A set (`op in {1..=7}`) is no choice here: the text usually gives its field,
                // and branching on each one cost VideoCore IV's 48 set guards 13 % of its
                // assembly; the end settles a field still unknown.
                let choice = |x: &&Expr| solvable(x) && !matches!(x, Expr::In(..));
                let parts = xs.iter().filter(choice).count();
                if parts == 0 || self.lazy {
                    return self.defer(e, want, frame, pos, st, k);
                }
                for x in xs.iter().filter(choice) {
                    let mark = st.mark();
                    if self.require(x, want, frame, pos, st, k) {
                        return true;
                    }
                    st.undo(&mark);
                }
                if parts < xs.len() {
                    return self.defer(e, want, frame, pos, st, k);
                }
                false
            }
            Expr::Cmp(op, a, b) if (*op == Cmp::Eq && want) || (*op == Cmp::Ne && !want) => {
                let (va, vb) = (eval(a, frame, &st.vals, self.ctx.pc), eval(b, frame, &st.vals, self.ctx.pc));
                let target = match (va, vb) {
                    (None, Some(v)) if matches!(a, Expr::Field(_) | Expr::Param(_)) => {
                        Some((bind(a, frame), v))
                    }
                    (Some(v), None) if matches!(b, Expr::Field(_) | Expr::Param(_)) => {
                        Some((bind(b, frame), v))
                    }
                    _ => None,
                };
                match target {
                    Some((bound, v)) => self.assign(bound, v as u64, st) && k(self, pos, st),
                    None => self.defer(e, want, frame, pos, st, k),
                }
            }
            // A field in a set of values (`sel in {0..=3}`): a choice among them, made after
            // the text as other choices are, so the text settles the field where it shows it.
            Expr::In(x, ranges) if !self.lazy && matches!(**x, Expr::Field(_) | Expr::Param(_)) => {
                let b = bind(x, frame);
                let width = match b {
                    Bound::Slot(s) | Bound::NotSlot(s) => {
                        crate::bits::width(self.format.fields[s as usize].pieces)
                    }
                    Bound::Const(_) => return self.defer(e, want, frame, pos, st, k),
                };
                let width = if matches!(b, Bound::NotSlot(_)) { 1 } else { width };
                let Some(values) = in_choices(ranges, want, width) else {
                    return self.defer(e, want, frame, pos, st, k);
                };
                for v in values {
                    let mark = st.mark();
                    if self.assign(b, v, st) && k(self, pos, st) {
                        return true;
                    }
                    st.undo(&mark);
                }
                false
            }
            _ => self.defer(e, want, frame, pos, st, k),
        }
    }

    fn require_all(
        &mut self,
        xs: &'static [Expr],
        want: bool,
        frame: &[Bound],
        pos: usize,
        st: &mut State,
        k: K,
    ) -> bool {
        match xs.split_first() {
            None => k(self, pos, st),
            Some((x, rest)) => self.require(x, want, frame, pos, st, &mut |p, pos, st| {
                p.require_all(rest, want, frame, pos, st, &mut *k)
            }),
        }
    }

    fn defer(
        &mut self,
        e: &'static Expr,
        want: bool,
        frame: &[Bound],
        pos: usize,
        st: &mut State,
        k: K,
    ) -> bool {
        // A template called at several places defers the same condition again: once is
        // enough, and every assignment checks fewer.
        let again = st.deferred.iter().any(|(x, w, f)| core::ptr::eq(*x, e) && *w == want && f[..] == *frame);
        if !again {
            st.deferred.push((e, want, Frame::new(frame)));
            let bits = self.reads.bits(e, frame);
            st.reads.push(bits);
        }
        k(self, pos, st)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec;

    /// The values an `in` guard offers a 3-bit field: raw values, so a range below zero
    /// offers none and one across zero only its non-negative part.
    #[test]
    fn in_guard_choices_are_raw_values() {
        assert_eq!(in_choices(&[(4, 5), (0, 1)], true, 3), Some(vec![4, 5, 0, 1]));
        assert_eq!(in_choices(&[(-5, -1)], true, 3), Some(vec![]));
        assert_eq!(in_choices(&[(-2, 1), (6, 20)], true, 3), Some(vec![0, 1, 6, 7]));
        assert_eq!(in_choices(&[(0, 3)], false, 3), Some(vec![4, 5, 6, 7]));
        assert_eq!(in_choices(&[(0, 300)], true, 16), None);
        // A 64-bit field's raw values from 2^63 up read negative: 0xfffffffffffffffe and up.
        assert_eq!(in_choices(&[(-2, -1)], true, 64), Some(vec![u64::MAX - 1, u64::MAX]));
        assert_eq!(
            in_choices(&[(i64::MAX - 1, i64::MAX)], true, 64),
            Some(vec![(1 << 63) - 2, (1 << 63) - 1])
        );
        assert_eq!(in_choices(&[(i64::MIN, i64::MAX)], true, 64), None);
    }
}
