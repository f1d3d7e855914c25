//! Random words through a built-in target: decode → encode gives the word back (but for its
//! encoding's don't-care bits), and in every dialect with a raw directive the listing of the
//! words assembles back to them byte for byte (the lossless-listing property of issue 12).
//! Half the words are uniform; the other half carry the opcode bits of a random encoding, so
//! every encoding is hit, not only the ones with short opcodes. On a target whose instructions
//! differ in length a program is a byte stream: every other random word is cut to the
//! instruction its first bytes begin, the others are whole (random bytes after an
//! instruction), and the listing of the stream's pieces assembles back to the same bytes.

use super::guard::{Guard, Outcome};
use super::{case_seed, Findings, Rand};
use isa_runtime::format::Format;
use isa_runtime::layout::DataTarget;
use isa_runtime::target::{Line, Target};
use std::fmt::Write as _;

/// Words per guarded case.
pub const CHUNK: usize = 2048;

/// What the words of one target did.
#[derive(Debug, Default, Clone)]
pub struct WordCounts {
    /// Words tried.
    pub words: u64,
    /// Words that decoded (and were encoded again).
    pub decoded: u64,
    /// Words listed and assembled back, summed over the dialects with a raw directive (where
    /// instructions differ in length: the pieces of the streams, [`stream_of`]).
    pub listed: u64,
    /// Where instructions differ in length: bytes of the streams whose listings assembled
    /// back to them, summed over the dialects with a raw directive.
    pub stream_bytes: u64,
    /// Cases that panicked.
    pub panics: u64,
    /// Cases that missed their deadline.
    pub hangs: u64,
    /// Words whose round trip (decode → encode, or listing → assembly) changed them.
    pub round_trip_failures: u64,
}

impl std::fmt::Display for WordCounts {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "words {}, decoded {}, listed and assembled back {}",
            self.words, self.decoded, self.listed
        )?;
        if self.stream_bytes > 0 {
            write!(f, " (streams of {} bytes)", self.stream_bytes)?;
        }
        write!(
            f,
            ", panics {}, hangs {}, round-trip failures {}",
            self.panics, self.hangs, self.round_trip_failures
        )
    }
}

/// The word with `format`'s fixed (opcode) bits set over `random`.
pub fn with_fixed_bits(format: &Format, random: u128) -> u128 {
    let mut word = random;
    for field in format.fields {
        if let Some(value) = field.fixed {
            isa_runtime::bits::set(&mut word, field.pieces, value);
        }
    }
    word
}

fn mask(bits: u32) -> u128 {
    if bits >= 128 {
        u128::MAX
    } else {
        (1u128 << bits) - 1
    }
}

/// The instruction that `random` starts, as a program holds it: the word's bits on a target
/// with one length; on a target whose instructions differ in length, the first instruction of
/// the stream whose bytes are `random`'s (its own length, as [`Target::split_stream`] walks it).
pub fn instruction_of(t: &dyn Target, random: u128) -> u128 {
    let word = random & mask(t.word_bits());
    if !t.variable_length() {
        return word;
    }
    let bytes = word.to_le_bytes();
    let stream = &bytes[..t.word_bits().div_ceil(8) as usize];
    t.split_stream(stream).first().copied().unwrap_or(word)
}

/// `n` words for `t` from `seed`.
pub fn random_words(t: &dyn Target, seed: u64, n: usize) -> Vec<u128> {
    let mut rng = Rand::new(seed);
    let formats = t.formats();
    let words: Vec<u128> = (0..n)
        .map(|_| {
            let random = rng.wide();
            match rng.pick(formats) {
                Some(f) if rng.one_in(2) => with_fixed_bits(f, random),
                _ => random,
            }
        })
        .collect();
    // A stream's words are cut where it is made ([`stream_of`]).
    let mask = mask(t.word_bits());
    let mut words: Vec<u128> = words.into_iter().map(|w| w & mask).collect();
    // A target with control words: whole groups whose control words hold only slots the spec
    // defines (an undefined slot becomes the default one), so every group can be listed.
    if let Some(s) = t.schedule() {
        let group = s.slots as usize + 1;
        words.truncate(words.len() / group * group);
        for chunk in words.chunks_mut(group) {
            let mut control = 0u128;
            for i in 0..s.slots {
                let slot = s.slot(chunk[0], i);
                let slot = if (s.check)(slot).is_ok() { slot } else { s.default_slot };
                control |= u128::from(slot) << (s.slot_bits * i);
            }
            chunk[0] = control;
        }
    }
    words
}

/// The byte stream of random words on a target whose instructions differ in length: every
/// other word cut to the instruction its first bytes begin (whole instructions, every encoding
/// among them), the others whole (random bytes after an instruction, as data holds them).
pub fn stream_of(t: &dyn Target, words: &[u128]) -> Vec<u8> {
    let size = t.word_bits().div_ceil(8) as usize;
    let mut out = Vec::with_capacity(words.len() * size);
    for (i, w) in words.iter().enumerate() {
        let length = if i % 2 == 0 { t.instruction_bytes(*w).min(size) } else { size };
        isa_runtime::target::word_to_bytes(*w, length, true, &mut out);
    }
    out
}

/// The instruction words of a program (control words left out).
fn instruction_words(t: &dyn Target, words: &[u128]) -> Vec<(usize, u128)> {
    match t.schedule() {
        None => words.iter().copied().enumerate().collect(),
        Some(s) => {
            let group = s.slots as usize + 1;
            words.iter().copied().enumerate().filter(|(i, _)| i % group != 0).collect()
        }
    }
}

/// Checks one chunk of words; returns the counts and a description of each failure. With
/// `assemble` false the chunk is decoded, encoded and listed in every dialect, but its
/// listings are not assembled (the assembler is far slower than the rest: a full run can
/// decode many more words than it can assemble).
pub fn check_words(t: &dyn Target, words: &[u128], assemble: bool) -> (WordCounts, Vec<String>) {
    let mut counts = WordCounts { words: words.len() as u64, ..WordCounts::default() };
    let mut failures = Vec::new();
    let formats = t.formats();
    // A byte stream: its pieces as the splitter reads them, each with its length.
    let stream = t.variable_length().then(|| stream_of(t, words));
    let pieces = stream.as_ref().map(|bytes| t.split_pieces(bytes));
    let checked = match &pieces {
        Some(pieces) => pieces.iter().map(|(w, _)| *w).enumerate().collect(),
        None => instruction_words(t, words),
    };
    for (_, w) in checked {
        match t.reencode(w) {
            Ok((i, encoded)) => {
                counts.decoded += 1;
                let format = formats[i];
                // The encoder writes what the fields hold: the word without its don't-care bits.
                let expected = format.pack(&format.unpack(w));
                match encoded {
                    Ok(e) if e == expected => {}
                    other => failures.push(format!(
                        "{}: {w:#x} decodes as `{}` and encodes to {other:x?}, expected {expected:#x}",
                        t.name(),
                        format.name
                    )),
                }
                if t.decode(w).is_err() {
                    failures.push(format!("{}: {w:#x} decodes once but not twice", t.name()));
                }
            }
            Err(_) => {
                // A word that does not decode is a typed error; the listing below shows it raw.
            }
        }
        for d in 0..t.dialects().len() {
            let _ = t.disassemble(w, d, 0);
        }
    }
    if let (Some(bytes), Some(pieces)) = (&stream, &pieces) {
        check_stream(t, bytes, pieces, assemble, &mut counts, &mut failures);
        counts.round_trip_failures = failures.len() as u64;
        return (counts, failures);
    }
    // A target that limits its programs' instructions lists its words as programs within it.
    let programs = words.chunks(t.max_instructions().unwrap_or(words.len()).max(1));
    for (words, (d, dialect)) in programs.flat_map(|p| t.dialects().iter().enumerate().map(move |d| (p, d))) {
        let lines = t.disassemble_program(words, d);
        if dialect.raw.is_none() || !assemble {
            continue;
        }
        let text = listing(&lines);
        match t.assemble(&text, d) {
            Ok(back) if back == words => counts.listed += words.len() as u64,
            Ok(back) => {
                let at =
                    back.iter().zip(words).position(|(a, b)| a != b).unwrap_or(back.len().min(words.len()));
                // Instructions of different lengths are addressed by their first byte.
                let address = if t.variable_length() {
                    t.join_stream(&words[..at.min(words.len())]).len() as u64
                } else {
                    at as u64 * u64::from(t.word_bits().div_ceil(8))
                };
                let line = lines.iter().find(|l| l.address >= address);
                failures.push(format!(
                    "{} {}: the listing assembles to other words: word {at} is {:x?}, listed as {:?}, assembles to {:x?}",
                    t.name(),
                    dialect.name,
                    words.get(at),
                    line.map(|l| l.to_string()),
                    back.get(at)
                ));
            }
            Err(errors) => {
                let first = errors.first().map(|e| format!("{e:?}")).unwrap_or_default();
                failures.push(format!(
                    "{} {}: the listing does not assemble: {first}",
                    t.name(),
                    dialect.name
                ));
            }
        }
    }
    counts.round_trip_failures = failures.len() as u64;
    (counts, failures)
}

/// A byte stream's listing in every dialect assembles back to the same bytes (compared with
/// the bytes themselves, lengths included, not with another split of them).
fn check_stream(
    t: &dyn Target,
    bytes: &[u8],
    pieces: &[(u128, usize)],
    assemble: bool,
    counts: &mut WordCounts,
    failures: &mut Vec<String>,
) {
    for (d, dialect) in t.dialects().iter().enumerate() {
        let lines = t.disassemble_pieces(pieces, d);
        if dialect.raw.is_none() || !assemble {
            continue;
        }
        let text = listing(&lines);
        let mut errors = Vec::new();
        let mut includes = isa_runtime::directives::NoIncludes;
        match t.assemble_exact("", &text, d, &mut includes, &mut |e, _| errors.push(format!("{e:?}"))) {
            Some(back) => {
                let back = back.bytes(t);
                if back == bytes {
                    counts.listed += pieces.len() as u64;
                    counts.stream_bytes += bytes.len() as u64;
                    continue;
                }
                let at =
                    back.iter().zip(bytes).position(|(a, b)| a != b).unwrap_or(back.len().min(bytes.len()));
                let line = lines.iter().take_while(|l| l.address <= at as u64).last();
                failures.push(format!(
                    "{} {}: the listing assembles to other bytes from byte {at}: the line there is {:?}; {} bytes back, {} in the stream",
                    t.name(),
                    dialect.name,
                    line.map(|l| l.to_string()),
                    back.len(),
                    bytes.len()
                ));
            }
            None => failures.push(format!(
                "{} {}: the listing does not assemble: {}",
                t.name(),
                dialect.name,
                errors.first().cloned().unwrap_or_default()
            )),
        }
    }
}

fn listing(lines: &[Line]) -> String {
    let mut out = String::new();
    for l in lines {
        let _ = writeln!(out, "{l}");
    }
    out
}

fn hex_words(words: &[u128]) -> String {
    let mut out = String::new();
    for w in words {
        let _ = writeln!(out, "{w:#x}");
    }
    out
}

/// Pushes `n` random words through `t` in guarded chunks; `stage` keeps targets' seeds apart.
/// The listings of the first `listed` words (rounded up to a chunk) are assembled back; the
/// rest are decoded, encoded and listed only.
#[allow(clippy::too_many_arguments)]
pub fn fuzz_target(
    t: &'static dyn Target,
    n: u64,
    listed: u64,
    seed: u64,
    stage: u64,
    guard: &mut Guard,
    findings: &mut Findings,
    progress: &mut dyn FnMut(&WordCounts) -> bool,
) -> WordCounts {
    let mut total = WordCounts::default();
    let chunks = n.div_ceil(CHUNK as u64);
    for c in 0..chunks {
        let size = (n - c * CHUNK as u64).min(CHUNK as u64) as usize;
        let words = random_words(t, case_seed(seed, stage, c), size);
        let input = words.clone();
        let assemble = c * (CHUNK as u64) < listed;
        match guard.run(move || check_words(t, &input, assemble)) {
            Outcome::Done((counts, failures)) => {
                total.words += counts.words;
                total.decoded += counts.decoded;
                total.listed += counts.listed;
                total.stream_bytes += counts.stream_bytes;
                total.round_trip_failures += counts.round_trip_failures;
                for f in failures.iter().take(3) {
                    findings.record(&format!("words-{}", t.name()), "hex", f, &hex_words(&words));
                }
            }
            Outcome::Panicked(message) => {
                total.words += words.len() as u64;
                total.panics += 1;
                findings.record(
                    &format!("words-{}", t.name()),
                    "hex",
                    &format!("panic: {message}"),
                    &hex_words(&words),
                );
            }
            Outcome::Hung => {
                total.words += words.len() as u64;
                total.hangs += 1;
                findings.record(&format!("words-{}", t.name()), "hex", "hang", &hex_words(&words));
            }
        }
        if !progress(&total) {
            break;
        }
    }
    total
}

/// What the random headers of one data target did.
#[derive(Debug, Default, Clone)]
pub struct HeaderCounts {
    /// Headers tried.
    pub headers: u64,
    /// Headers that decoded.
    pub decoded: u64,
    /// Cases that panicked.
    pub panics: u64,
    /// Cases that missed their deadline.
    pub hangs: u64,
    /// Headers that encode to other bytes than they were decoded from (the value keeps the
    /// reserved bits, issue 14), or whose encoding decodes to another value.
    pub round_trip_failures: u64,
}

impl std::fmt::Display for HeaderCounts {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "headers {}, decoded {}, panics {}, hangs {}, round-trip failures {}",
            self.headers, self.decoded, self.panics, self.hangs, self.round_trip_failures
        )
    }
}

/// Random bytes through a data target: what decodes encodes to the same bytes, reserved bits
/// included, and to a value that decodes again the same.
pub fn fuzz_data_target(
    t: &'static dyn DataTarget,
    n: u64,
    seed: u64,
    stage: u64,
    guard: &mut Guard,
    findings: &mut Findings,
) -> HeaderCounts {
    let mut total = HeaderCounts::default();
    const PER_CASE: u64 = 256;
    for c in 0..n.div_ceil(PER_CASE) {
        let count = (n - c * PER_CASE).min(PER_CASE);
        let mut rng = Rand::new(case_seed(seed, stage, c));
        let headers: Vec<Vec<u8>> =
            (0..count).map(|_| (0..t.bytes()).map(|_| rng.bits() as u8).collect()).collect();
        let input = headers.clone();
        let outcome = guard.run(move || {
            let mut decoded = 0u64;
            let mut bad = Vec::new();
            for bytes in &input {
                let Ok(value) = t.decode(bytes) else { continue };
                decoded += 1;
                let again = t.encode(&value).map(|back| (t.decode(&back), back));
                match again {
                    Ok((Ok(v2), back)) if v2 == value && back == *bytes => {}
                    other => bad.push((bytes.clone(), format!("decodes, then encodes to {other:x?}"))),
                }
            }
            (decoded, bad)
        });
        total.headers += count;
        let hex = |b: &[u8]| b.iter().map(|x| format!("{x:02x}")).collect::<String>() + "\n";
        match outcome {
            Outcome::Done((decoded, bad)) => {
                total.decoded += decoded;
                total.round_trip_failures += bad.len() as u64;
                for (bytes, why) in bad.iter().take(3) {
                    findings.record(&format!("header-{}", t.name()), "hex", why, &hex(bytes));
                }
            }
            Outcome::Panicked(message) => {
                total.panics += 1;
                let all: String = headers.iter().map(|b| hex(b)).collect();
                findings.record(&format!("header-{}", t.name()), "hex", &format!("panic: {message}"), &all);
            }
            Outcome::Hung => {
                total.hangs += 1;
                let all: String = headers.iter().map(|b| hex(b)).collect();
                findings.record(&format!("header-{}", t.name()), "hex", "hang", &all);
            }
        }
    }
    total
}
