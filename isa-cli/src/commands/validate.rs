//! `isa validate`: decodes a program and runs the target's validators (per-instruction
//! constraints and whole-program rules), printing each violation.
//!
//! The program is read, decoded and checked as a stream: each rule reads only a few
//! instructions around the one it is checked for (its reach, which the checker computes), so
//! only the widest reach's instructions are held, as words, whatever the program's size; an
//! instruction is listed only when a violation names it (with its group where the target has
//! control words). A rule that may read anywhere in the program (`each j in 0..=i`,
//! `p[len - 1]`) holds it whole, and the command says so. The violations are printed as
//! whole-program validation orders them (constraints first, then rule by rule), so they are
//! kept until the end; only the instructions that break a rule are listed, and of each rule
//! the first few unless every one is asked for (`--all`), then one line each for the rest.

use super::{complain, read_program, say};
use crate::error::{Outcome, Result};
use crate::{files, words};
use isa_runtime::bundle::Streams;
use isa_runtime::program::Violation;
use isa_runtime::target::Target;
use isa_runtime::DecodeError;
use std::collections::{BTreeMap, VecDeque};
use std::path::Path;

/// Groups (or words, without control words) read per piece of a program.
const PIECE_GROUPS: usize = 4096;

/// Validates the program in `file` (binary, or hex text with `hex`), listing every violation
/// with `all`, else the first [`super::LISTED_PER_RULE`] of each rule.
pub fn run(target: &dyn Target, file: &Path, hex: bool, all: bool) -> Result<Outcome> {
    let name = files::name(file);
    let whole = target.validator().whole_program();
    if !whole.is_empty() {
        let rules: Vec<String> = whole.iter().map(|r| format!("`{r}`")).collect();
        complain(format_args!(
            "isa: {name}: note: the whole program is held: {} may read any of its instructions\n",
            rules.join(", ")
        ));
    }
    let step = words::word_bytes(target.word_bits()) as u64;
    let checked = match check(target, file, hex, PIECE_GROUPS)? {
        Ok(checked) => checked,
        Err((index, e)) => {
            // The index of the word (control words included), not of the instruction.
            complain(format_args!("{name}: word {index} (address {:#x}): error: {e}\n", index as u64 * step));
            return Ok(Outcome::Failure);
        }
    };
    let Checked { violations, named, count, .. } = checked;
    if violations.is_empty() {
        say(format_args!("{name}: ok: {} instructions, no rule broken", count))?;
        return Ok(Outcome::Success);
    }
    let per_rule = if all { None } else { Some(super::LISTED_PER_RULE) };
    super::report(&name, &violations, per_rule, |v| {
        let (pc, text) = match named.get(&v.index) {
            Some(shown) if v.index < count => shown.clone(),
            _ => (v.index as u64 * step, String::new()),
        };
        (format!("{name}: instruction {} (address {pc:#x}: {text}): ", v.index), String::new())
    })
}

/// What validating a program found.
struct Checked {
    /// Every violation, in whole-program validation's order.
    violations: Vec<Violation>,
    /// The address and listing text of each instruction a violation names.
    named: BTreeMap<usize, (u64, String)>,
    /// The instructions listed.
    count: usize,
    /// The most decoded instructions held at once (what the tests bound).
    #[cfg_attr(not(test), allow(dead_code))]
    most_held: usize,
    /// The most words held for listing at once (what the tests bound).
    #[cfg_attr(not(test), allow(dead_code))]
    most_lines: usize,
    /// The instructions listed (what the tests bound: only those a violation names).
    #[cfg_attr(not(test), allow(dead_code))]
    listed: usize,
}

/// The words of the instructions the validator still holds, listed only when a violation
/// names one of them: listing an instruction (with its check that the text assembles back)
/// costs far more than checking it, and most instructions break no rule. A target with
/// control words lists the whole group of the one named (its text depends on the group's
/// control word), as a whole listing would.
struct Held<'a> {
    target: &'a dyn Target,
    /// Words per group: the control word and its slots, or 1.
    group: usize,
    /// The words held, from word number `from` on (a group's first word).
    words: VecDeque<u128>,
    from: usize,
    /// The program's words, once its last piece is read.
    end: Option<usize>,
    /// Instructions listed so far.
    listed: usize,
}

impl Held<'_> {
    /// Instructions per whole group.
    fn per_group(&self) -> usize {
        (self.group - 1).max(1)
    }

    /// Keeps the listing line of the instruction `v` names, if it is held.
    fn keep_line(&mut self, named: &mut BTreeMap<usize, (u64, String)>, v: &Violation) {
        if named.contains_key(&v.index) {
            return;
        }
        let (g, k) = (v.index / self.per_group(), v.index % self.per_group());
        let Some(at) = (g * self.group).checked_sub(self.from) else { return };
        if at >= self.words.len() {
            return;
        }
        let words: Vec<u128> = self.words.iter().skip(at).take(self.group).copied().collect();
        let last = self.end == Some(self.from + at + words.len());
        let mut lines = Vec::with_capacity(words.len());
        self.target.disassemble_from(&words, self.from + at, last, 0, true, &mut |line| lines.push(line));
        self.listed += lines.len();
        if let Some(line) = lines.into_iter().nth(k) {
            named.insert(v.index, (line.address, line.text));
        }
    }

    /// Lets go of the groups whose instructions all come before instruction `first`.
    fn drop_before(&mut self, first: usize) {
        while self.words.len() >= self.group && (self.from / self.group + 1) * self.per_group() <= first {
            self.words.drain(..self.group);
            self.from += self.group;
        }
    }
}

/// Reads the program in `file` in pieces of `groups` groups (words without control words),
/// checking each piece as it comes and keeping only the words of the instructions the
/// validator still holds, to list those a violation names; the first word that does not
/// decode ends the checks (the rest is still read, so that a mistake in the file's text is
/// reported first, as before).
fn check(
    target: &dyn Target,
    file: &Path,
    hex: bool,
    groups: usize,
) -> Result<std::result::Result<Checked, (usize, DecodeError)>> {
    let group = target.streams().and_then(Streams::schedule).map_or(1, |s| s.slots as usize + 1);
    let mut validator = target.validator();
    let mut held = Held { target, group, words: VecDeque::new(), from: 0, end: None, listed: 0 };
    // Instructions of different lengths are listed from their byte stream as before, whole.
    let mut lines: VecDeque<(u64, String)> = VecDeque::new();
    let whole = target.variable_length();
    let mut first = 0usize;
    let mut named: BTreeMap<usize, (u64, String)> = BTreeMap::new();
    let (mut count, mut words_read, mut most_lines) = (0usize, 0usize, 0usize);
    let mut failed = None;
    read_program(
        file,
        hex,
        target,
        group * groups,
        &mut |piece, _, at, last| {
            if failed.is_some() {
                return Ok(());
            }
            if whole {
                // `at` is the piece's byte address here, not its first instruction's number.
                target.disassemble_from(piece, at, last, 0, true, &mut |line| {
                    lines.push_back((line.address, line.text));
                    count += 1;
                });
                most_lines = most_lines.max(lines.len());
            } else {
                // One line a word, but for the control words: one for a control word with
                // no instruction after it, at the very end.
                count += piece.chunks(group).map(|c| (c.len() - 1).max(1)).sum::<usize>();
                held.words.extend(piece);
                if last {
                    held.end = Some(words_read + piece.len());
                }
                most_lines = most_lines.max(held.words.len());
            }
            let pushed = validator.push(piece, words_read, &mut |v| match whole {
                true => keep_line(&mut named, &lines, first, v),
                false => held.keep_line(&mut named, v),
            });
            if let Err(e) = pushed {
                failed = Some(e);
            }
            words_read += piece.len();
            while first < validator.first_held() && lines.pop_front().is_some() {
                first += 1;
            }
            held.drop_before(validator.first_held());
            Ok(())
        },
        None,
    )?;
    if let Some(e) = failed {
        return Ok(Err(e));
    }
    let most_held = validator.most_held();
    let violations = validator.finish(&mut |v| match whole {
        true => keep_line(&mut named, &lines, first, v),
        false => held.keep_line(&mut named, v),
    });
    let listed = if whole { count } else { held.listed };
    Ok(Ok(Checked { violations, named, count, most_held, most_lines, listed }))
}

/// Keeps the listing line of the instruction `v` names (`lines` holds those from instruction
/// number `first` on).
fn keep_line(
    named: &mut BTreeMap<usize, (u64, String)>,
    lines: &VecDeque<(u64, String)>,
    first: usize,
    v: &Violation,
) {
    if let Some(line) = v.index.checked_sub(first).and_then(|k| lines.get(k)) {
        named.entry(v.index).or_insert_with(|| line.clone());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// vc4's `nop` (docs/research/facts-vc4-maxwell-sph.md, facts A.1: Mesa's `qpu_NOP`).
    const NOP: u64 = 0x1000_09e7_009e_7000;

    #[test]
    fn the_window_held_stays_bounded_whatever_the_program_s_size() {
        let target = crate::builtin::find_target("vc4").expect("vc4 is built in");
        let dir = std::env::temp_dir().join(format!("isa-validate-window-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("scratch directory");
        let path = dir.join("nops.bin");
        for words in [10usize, 30_000] {
            let bytes: Vec<u8> = (0..words).flat_map(|_| NOP.to_le_bytes()).collect();
            std::fs::write(&path, bytes).expect("write program");
            let checked = check(target, &path, false, 1000).expect("read").expect("decodes");
            assert_eq!(checked.count, words);
            assert!(checked.violations.is_empty(), "{:?}", checked.violations.first());
            // vc4's widest rule reads three instructions ahead (`tmu_noswap`, reach (0, 3)),
            // one reads one back (`read_after_write`, (1, 0)): four held at most, since no
            // rule reads both ways.
            assert_eq!(checked.most_held, words.min(4));
            // A piece's lines and the three before it.
            assert!(checked.most_lines <= 1000 + 3, "{}", checked.most_lines);
        }
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// Only the instructions a violation names are listed (each listing checks that its text
    /// assembles back: most of validation's time when every instruction was listed), with the
    /// text and address the whole program's listing gives them. vc4: instruction 1 reads ra1,
    /// which instruction 0 wrote (seed 004's read-after-write rule); Maxwell: a misaligned
    /// `.32` attribute store (`aligned_32`), listed with its group's control word.
    #[test]
    fn only_the_instructions_a_violation_names_are_listed() {
        let dir = std::env::temp_dir().join(format!("isa-validate-named-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("scratch directory");
        let path = dir.join("program.bin");
        for (name, source, bad, nops) in [
            ("vc4", "add ra1, r0, r1\nadd r2, ra1, r0\n", 1usize, 3000usize),
            ("maxwell", "AST a[0x7a], R0\n", 0, 299),
        ] {
            let target = crate::builtin::find_target(name).expect("built in");
            let mut text = String::from(source);
            text.push_str(&if name == "vc4" { "nop\n" } else { "NOP\n" }.repeat(nops));
            text.push_str(if name == "vc4" { "nop; thrend\nnop\nnop\n" } else { "EXIT\n" });
            let words = target.assemble(&text, 0).expect("assembles");
            assert!(target.word_bits() == 64 && target.little_endian(), "{name}");
            let bytes: Vec<u8> = words.iter().flat_map(|w| (*w as u64).to_le_bytes()).collect();
            std::fs::write(&path, bytes).expect("write program");
            let checked = check(target, &path, false, 100).expect("read").expect("decodes");
            let index = checked.violations.first().expect("a violation").index;
            assert_eq!(index, bad, "{name}");
            assert!(checked.violations.iter().all(|v| v.index == bad), "{name}: {:?}", checked.violations);
            let group = target.streams().and_then(Streams::schedule).map_or(1, |s| s.slots as usize);
            assert_eq!(checked.listed, group, "{name}: the named instruction's group, no more");
            let whole = target.disassemble_program(&words, 0);
            assert_eq!(checked.count, whole.len(), "{name}");
            assert_eq!(checked.named[&bad], (whole[bad].address, whole[bad].text.clone()), "{name}");
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
}
