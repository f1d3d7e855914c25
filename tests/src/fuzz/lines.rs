//! Mutated assembly lines through every assembler: lines of the golden corpora (`tests/data/<target>/`,
//! every column of every row: the texts real tools print and the ones they reject), their bytes
//! and tokens mutated, assembled in every dialect of the target. The assembler answers with
//! words or errors; it never panics or hangs.

use super::guard::{Guard, Outcome};
use super::{case_seed, Findings, Rand};
use isa_runtime::target::Target;

/// Lines per guarded case.
pub const PER_CASE: usize = 128;

/// What the mutated lines did.
#[derive(Debug, Default, Clone)]
pub struct LineCounts {
    /// Mutated lines tried (each in every dialect of its target).
    pub lines: u64,
    /// Assemblies that gave words.
    pub assembled: u64,
    /// Assemblies that gave errors.
    pub rejected: u64,
    /// Cases that panicked.
    pub panics: u64,
    /// Cases that missed their deadline.
    pub hangs: u64,
}

impl std::fmt::Display for LineCounts {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "lines {}, assembled {}, rejected {}, panics {}, hangs {}",
            self.lines, self.assembled, self.rejected, self.panics, self.hangs
        )
    }
}

/// The texts of a target's corpora: every tab-separated column of every line.
pub fn corpus(t: &dyn Target) -> Vec<String> {
    let dir = super::repository().join("tests/data").join(t.name());
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .map(|d| d.filter_map(|e| e.ok().map(|e| e.path())).collect())
        .unwrap_or_default();
    files.sort();
    let mut out = Vec::new();
    for f in files {
        let text = std::fs::read_to_string(&f).unwrap_or_default();
        for line in text.lines().filter(|l| !l.starts_with('#')) {
            out.extend(line.split('\t').filter(|c| !c.is_empty()).map(str::to_string));
        }
    }
    out.sort();
    out.dedup();
    out
}

/// Characters that mean something to some assembler, and some that mean nothing.
const ODD: &[char] = &[
    ' ', '\t', ',', ';', ':', '.', '[', ']', '{', '}', '(', ')', '-', '+', '|', '!', '@', '#', '/', '*', '"',
    '\\', '0', '9', 'x', 'X', '_', '~', '\'', '=', '<', '>', '\u{0}', '\u{feff}', 'é', 'ß', '💥', '\r', '\n',
];

/// Numbers at the edges of every field width and of the parser.
pub const NUMBERS: &[&str] = &[
    "0",
    "1",
    "-1",
    "7",
    "8",
    "15",
    "16",
    "31",
    "32",
    "63",
    "64",
    "127",
    "128",
    "255",
    "256",
    "65535",
    "65536",
    "0x7fffffff",
    "0x80000000",
    "0xffffffff",
    "4294967296",
    "-2147483648",
    "-2147483649",
    "0xffffffffffffffff",
    "18446744073709551616",
    "-9223372036854775809",
    "0x1_0000_0000_0000_0000",
    "340282366920938463463374607431768211456",
    "0b102",
    "0x",
    "-",
    "1.5",
    "-0.0",
    "1e400",
    "nan",
    "inf",
];

/// Splits text into tokens: runs of letters, digits and `_`/`.` or single other characters.
fn tokens(text: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut word = false;
    for c in text.chars() {
        let w = c.is_alphanumeric() || c == '_' || c == '.';
        match out.last_mut() {
            Some(last) if w && word => last.push(c),
            _ => out.push(c.to_string()),
        }
        word = w;
    }
    out
}

/// One random mutation of `text`; `donor` lends tokens from another corpus line.
pub fn mutate(text: &str, donor: &str, rng: &mut Rand) -> String {
    let mut chars: Vec<char> = text.chars().collect();
    let mut toks = tokens(text);
    match rng.below(10) {
        0 if !chars.is_empty() => {
            chars.remove(rng.below(chars.len()));
        }
        1 => {
            let at = rng.below(chars.len() + 1);
            chars.insert(at, *rng.pick(ODD).unwrap_or(&' '));
        }
        2 if !chars.is_empty() => {
            let at = rng.below(chars.len());
            chars[at] = *rng.pick(ODD).unwrap_or(&' ');
        }
        3 if !chars.is_empty() => {
            let (a, b) = (rng.below(chars.len()), rng.below(chars.len()));
            let (a, b) = (a.min(b), a.max(b) + 1);
            let piece: Vec<char> = chars[a..b].to_vec();
            let at = rng.below(chars.len() + 1);
            chars.splice(at..at, piece);
        }
        4 => chars.truncate(rng.below(chars.len() + 1)),
        5 if !toks.is_empty() => {
            toks.remove(rng.below(toks.len()));
            return toks.concat();
        }
        6 if !toks.is_empty() => {
            let (a, b) = (rng.below(toks.len()), rng.below(toks.len()));
            toks.swap(a, b);
            return toks.concat();
        }
        7 if !toks.is_empty() => {
            let at = rng.below(toks.len());
            let t = toks[at].clone();
            toks.insert(at, t);
            return toks.concat();
        }
        8 => {
            // A number at the edge of some width, where a number was (or anywhere).
            let numbers: Vec<usize> =
                (0..toks.len()).filter(|&i| toks[i].starts_with(|c: char| c.is_ascii_digit())).collect();
            let n = (*rng.pick(NUMBERS).unwrap_or(&"0")).to_string();
            match rng.pick(&numbers) {
                Some(&i) => toks[i] = n,
                None => toks.insert(rng.below(toks.len() + 1), n),
            }
            return toks.concat();
        }
        _ => {
            // A token of another line: another mnemonic, register or modifier.
            let lent = tokens(donor);
            if let (Some(t), false) = (rng.pick(&lent).cloned(), toks.is_empty()) {
                let at = rng.below(toks.len());
                toks[at] = t;
            }
            return toks.concat();
        }
    }
    chars.into_iter().collect()
}

/// `n` mutated lines of target `t`'s corpus from case seed `seed`: each line one to four
/// mutations away from a corpus text; sometimes several lines, a label or a comment.
pub fn mutated_lines(corpus: &[String], seed: u64, n: usize) -> Vec<String> {
    let mut rng = Rand::new(seed);
    (0..n)
        .map(|_| {
            let mut text = rng.pick(corpus).cloned().unwrap_or_default();
            for _ in 0..1 + rng.below(4) {
                let donor = rng.pick(corpus).cloned().unwrap_or_default();
                text = mutate(&text, &donor, &mut rng);
            }
            match rng.below(16) {
                0 => format!("l{}: {text}", rng.below(4)),
                1 => format!("{text}\n{}", rng.pick(corpus).cloned().unwrap_or_default()),
                _ => text,
            }
        })
        .collect()
}

/// Assembles `n` mutated lines per target in every dialect of the target, in guarded cases.
pub fn fuzz_lines(
    targets: &[&'static dyn Target],
    n: u64,
    seed: u64,
    guard: &mut Guard,
    findings: &mut Findings,
    progress: &mut dyn FnMut(&LineCounts) -> bool,
) -> LineCounts {
    let mut total = LineCounts::default();
    // Only targets with golden lines to mutate take turns (a target may have none yet).
    let corpora: Vec<(&'static dyn Target, Vec<String>)> =
        targets.iter().map(|t| (*t, corpus(*t))).filter(|(_, c)| !c.is_empty()).collect();
    if corpora.is_empty() {
        return total;
    }
    let cases = n.div_ceil(PER_CASE as u64);
    for c in 0..cases {
        let (t, corpus) = &corpora[c as usize % corpora.len()];
        let t = *t;
        let size = (n - c * PER_CASE as u64).min(PER_CASE as u64) as usize;
        let lines = mutated_lines(corpus, case_seed(seed, 0x11, c), size);
        let input = lines.clone();
        findings.in_flight("s", &lines.join("\n"));
        let outcome = guard.run(move || {
            let (mut ok, mut rejected) = (0u64, 0u64);
            for line in &input {
                for d in 0..t.dialects().len() {
                    match t.assemble(line, d) {
                        Ok(_) => ok += 1,
                        Err(_) => rejected += 1,
                    }
                }
            }
            (ok, rejected)
        });
        total.lines += size as u64;
        match outcome {
            Outcome::Done((ok, rejected)) => {
                total.assembled += ok;
                total.rejected += rejected;
            }
            Outcome::Panicked(message) => {
                total.panics += 1;
                // Find the line: one guarded assembly per line of the case.
                let culprit = first_failing(t, &lines, guard).unwrap_or_else(|| lines.join("\n"));
                findings.record(&format!("asm-{}", t.name()), "s", &format!("panic: {message}"), &culprit);
            }
            Outcome::Hung => {
                total.hangs += 1;
                findings.record(&format!("asm-{}", t.name()), "s", "hang", &lines.join("\n"));
            }
        }
        if !progress(&total) {
            break;
        }
    }
    findings.clear_in_flight("s");
    total
}

/// The first line of `lines` whose assembly panics in some dialect of `t`.
fn first_failing(t: &'static dyn Target, lines: &[String], guard: &mut Guard) -> Option<String> {
    lines.iter().find_map(|line| {
        let input = line.clone();
        let outcome = guard.run(move || {
            for d in 0..t.dialects().len() {
                let _ = t.assemble(&input, d);
            }
        });
        (!matches!(outcome, Outcome::Done(()))).then(|| line.clone())
    })
}
