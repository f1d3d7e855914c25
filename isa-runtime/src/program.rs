//! Results of validators: per-instruction constraints and whole-program rules.

use crate::target::Isa;
use alloc::collections::VecDeque;
use alloc::string::String;
use alloc::vec;
use alloc::vec::Vec;

/// One broken rule: which rule, at which instruction, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Violation {
    /// The rule's or constraint's name in the spec.
    pub rule: &'static str,
    /// The rule's text, as the reference document states it.
    pub message: &'static str,
    /// Index of the instruction the violation is reported at (0 for a data layout).
    pub index: usize,
    /// The data layout the violation is reported in (empty for instructions).
    pub layout: &'static str,
    /// The fields the rule reads (dotted paths in data layouts).
    pub fields: &'static [&'static str],
    /// Whether the spec calls it a `warning` (the hardware tolerates it) rather than an error.
    pub warning: bool,
    /// Extra detail (for example the related instruction), possibly empty.
    pub detail: String,
}

impl core::fmt::Display for Violation {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        let kind = if self.warning { "warning: " } else { "" };
        if self.layout.is_empty() {
            write!(f, "instruction {}: {kind}{} ({})", self.index, self.message, self.rule)?;
        } else {
            write!(f, "{}: {kind}{} ({}; {})", self.layout, self.message, self.rule, self.fields.join(", "))?;
        }
        if !self.detail.is_empty() {
            write!(f, ": {}", self.detail)?;
        }
        Ok(())
    }
}

impl core::error::Error for Violation {}

/// A program rule as the generated validators check it: its name and how far it looks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rule {
    /// The rule's name in the spec.
    pub name: &'static str,
    /// How many instructions before and after its outermost variable's the rule reads (the
    /// checker's `ir::Rule::reach`): a [`Window`] that holds them checks the rule there before
    /// the program's end is known. `None`: it may read any instruction, so a [`Window`] holds
    /// the whole program for it.
    pub reach: Option<(u32, u32)>,
}

/// The instructions a rule may read: those numbered from `base` on, held in two slices (a
/// ring buffer's halves; the whole program is `front` with `base` 0).
#[derive(Debug)]
pub struct Held<'a, I> {
    /// The number of the first instruction held.
    pub base: usize,
    /// The first instructions held.
    pub front: &'a [I],
    /// The instructions after them.
    pub back: &'a [I],
}

impl<'a, I> Held<'a, I> {
    /// A whole program.
    pub fn whole(program: &'a [I]) -> Self {
        Held { base: 0, front: program, back: &[] }
    }

    /// Instruction number `i`, if it is held (`None` before the program, past its end, or
    /// no longer held).
    pub fn at(&self, i: i64) -> Option<&'a I> {
        let k = usize::try_from(i).ok()?.checked_sub(self.base)?;
        match k.checked_sub(self.front.len()) {
            None => self.front.get(k),
            Some(k) => self.back.get(k),
        }
    }
}

/// Runs a target's per-instruction constraints and program rules over a whole program: each
/// instruction's constraints in order, then each rule in the spec's order, each over its
/// outermost variable's values in order ([`Isa::check_rule`]).
pub fn check_program<T: Isa>(program: &[T::Instruction]) -> Vec<Violation> {
    let mut out = Vec::new();
    for (index, insn) in program.iter().enumerate() {
        T::check_instruction(insn, index, &mut out);
    }
    let held = Held::whole(program);
    let len = i64::try_from(program.len()).unwrap_or(i64::MAX);
    for rule in 0..T::rules().len() {
        T::check_rule(rule, &held, len, i64::MIN, i64::MAX, &mut out);
    }
    out
}

/// A program's validation as its instructions come, holding only as many as its rules read
/// ([`Rule::reach`]): each rule is checked for an instruction once the last instruction it
/// may read has come, and the instructions no rule will read again are dropped. A rule that
/// may read anywhere keeps the whole program, checked when it ends ([`Window::whole_program`]
/// names such rules). The violations are those of [`check_program`] on the whole program, in
/// the same order (constraints first, then rule by rule); each is also handed out as soon as
/// it is found, while its instruction is still held.
#[derive(Debug)]
pub struct Window<T: Isa> {
    held: VecDeque<T::Instruction>,
    /// The number of `held[0]`.
    base: usize,
    /// Instructions pushed.
    seen: usize,
    /// Per rule, the first value of its outermost variable not yet checked.
    next: Vec<i64>,
    /// Per rule, where it may read before and after (`None`: anywhere).
    reach: Vec<Option<(i64, i64)>>,
    /// Constraints' violations, then each rule's.
    found: Vec<Vec<Violation>>,
    most: usize,
}

impl<T: Isa> Default for Window<T> {
    fn default() -> Self {
        Self::new()
    }
}

impl<T: Isa> Window<T> {
    /// A validation before the program's first instruction.
    pub fn new() -> Self {
        let rules = T::rules();
        Window {
            held: VecDeque::new(),
            base: 0,
            seen: 0,
            next: vec![i64::MIN; rules.len()],
            reach: rules.iter().map(|r| r.reach.map(|(b, a)| (i64::from(b), i64::from(a)))).collect(),
            found: vec![Vec::new(); rules.len() + 1],
            most: 0,
        }
    }

    /// The rules that may read any instruction of the program (their reach is `None`): while
    /// the target has one, the whole program is held.
    pub fn whole_program(&self) -> Vec<&'static str> {
        T::rules().iter().filter(|r| r.reach.is_none()).map(|r| r.name).collect()
    }

    /// The number of the first instruction still held: no violation found later names an
    /// instruction before it.
    pub fn first_held(&self) -> usize {
        self.base
    }

    /// The most instructions held at once so far: at most the widest reach's before plus
    /// after plus one, unless a rule may read anywhere.
    pub fn most_held(&self) -> usize {
        self.most
    }

    /// The instructions pushed so far.
    pub fn len(&self) -> usize {
        self.seen
    }

    /// Whether no instruction was pushed.
    pub fn is_empty(&self) -> bool {
        self.seen == 0
    }

    /// The program's next instruction: checks its constraints and every rule for which the
    /// instructions it may read have all come, handing each violation to `found`.
    pub fn push(&mut self, insn: T::Instruction, found: &mut dyn FnMut(&Violation)) {
        let from = self.found[0].len();
        T::check_instruction(&insn, self.seen, &mut self.found[0]);
        self.found[0][from..].iter().for_each(&mut *found);
        self.held.push_back(insn);
        self.seen += 1;
        self.most = self.most.max(self.held.len());
        // Until the end, `len` is what has come: the checker's reach makes every value the
        // rule reads for an outermost variable below `to` the same as with the program's own.
        let len = i64::try_from(self.seen).unwrap_or(i64::MAX);
        for rule in 0..self.reach.len() {
            let Some((_, after)) = self.reach[rule] else { continue };
            let to = len.saturating_sub(after);
            if to > self.next[rule] {
                self.check(rule, len, to, found);
            }
        }
        if self.reach.iter().any(Option::is_none) {
            return;
        }
        let keep = (self.next.iter().zip(&self.reach))
            .filter_map(|(n, r)| r.map(|(before, _)| n.saturating_sub(before)))
            .min()
            .unwrap_or(len);
        while i64::try_from(self.base).is_ok_and(|b| b < keep) && self.held.pop_front().is_some() {
            self.base += 1;
        }
    }

    /// The program has ended: checks every rule for the values left, handing each violation
    /// to `found`, and returns them all in [`check_program`]'s order.
    pub fn finish(mut self, found: &mut dyn FnMut(&Violation)) -> Vec<Violation> {
        let len = i64::try_from(self.seen).unwrap_or(i64::MAX);
        for rule in 0..self.reach.len() {
            self.check(rule, len, i64::MAX, found);
        }
        self.found.concat()
    }

    /// Checks `rule` for the values of its outermost variable from the first not checked up
    /// to `to` (not included).
    fn check(&mut self, rule: usize, len: i64, to: i64, found: &mut dyn FnMut(&Violation)) {
        let (front, back) = self.held.as_slices();
        let held = Held { base: self.base, front, back };
        let out = &mut self.found[rule + 1];
        let from = out.len();
        T::check_rule(rule, &held, len, self.next[rule], to, out);
        out[from..].iter().for_each(&mut *found);
        self.next[rule] = to;
    }
}
