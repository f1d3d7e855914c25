//! Words that travel beside the instructions, in one of two kinds the target's `stream`
//! settings declare:
//!
//! - **Bundles** (VLIW packets, clauses): programs made of several word streams, each
//!   statement holding a variable set of units, each unit's word going to its own stream, and
//!   some streams holding words computed from what each bundle holds (schedule words: how many
//!   words of a unit the bundle has and where they start). NVIDIA Tegra's fragment pipeline is
//!   one such target; Hexagon packets, AMD R600 ALU clauses and Mali Bifrost clauses have the
//!   same shape. [`Bundles`], [`assemble`], [`disassemble`].
//! - **An interleaved stream**: the instructions grouped by a count, each group behind a
//!   control word computed from the slots its instructions give (NVIDIA Maxwell: one 64-bit
//!   word before every three instructions; its slot `i`, `slot_bits` wide at bit
//!   `slot_bits * i`, schedules the group's instruction `i`). [`Schedule`], [`split`],
//!   [`pack_program`]; targets without one are one instruction per word, and those functions
//!   work on them too.
//!
//! A target describes either kind with one [`Streams`] ([`Isa::streams`]), a mirror of the
//! IR's: its streams, each perhaps computed ([`Computed::Counts`] per bundle,
//! [`Computed::Slots`] among the instructions), and the [`Bundles`] that fill them, if any.
//!
//! This module is the one assembler and disassembler of both kinds for every target.

use crate::directives::{self, Includer, Kind, NoIncludes};
use crate::directives::{Handed, Source};
use crate::expr;
use crate::format::Format;
use crate::syntax::{self, Context};
use crate::target::{alone_in_line, blank_comments_open, piece_end, section_directive, Dialect, Isa};
use crate::{AsmError, DecodeError, EncodeError};
use alloc::string::String;
use alloc::vec::Vec;
use core::fmt::Write;

pub use isa_runtime_base::Measure;

/// How a computed stream's words come about.
#[derive(Debug)]
pub enum Computed {
    /// One word per bundle, of the format at this index (in [`Isa::formats`]), whose fields
    /// count what the bundle holds (the other fields keep their defaults).
    Counts(usize, &'static [Count]),
    /// One control word before every [`Schedule::slots`] instructions, in the instruction
    /// stream itself.
    Slots(&'static Schedule),
}

/// A field of a computed word and what it holds.
#[derive(Debug)]
pub struct Count {
    /// The field's name in the stream's word format.
    pub field: &'static str,
    /// What the field counts.
    pub measure: Measure,
    /// Index of the unit (in [`Bundles::units`]) it counts.
    pub unit: usize,
}

/// One word stream of a program.
#[derive(Debug)]
pub struct Stream {
    /// The stream's name (`alu_sched`).
    pub name: &'static str,
    /// Bits per word (a multiple of 32: words are listed as 32-bit parts).
    pub bits: u32,
    /// Indices (in [`Isa::formats`]) of the formats its words are read and printed with.
    pub formats: &'static [usize],
    /// The word an absent entry is (a unit the bundle leaves out, a slot left empty).
    pub reset: u128,
    /// How its words are computed, if they are.
    pub computed: Option<Computed>,
    /// Its wide words are uploaded least significant 32-bit part first (the target's
    /// `part_order low_first`).
    pub low_first: bool,
}

/// One unit a bundle may hold.
#[derive(Debug)]
pub struct Unit {
    /// The label that starts it in the text (`MFU:`).
    pub label: &'static str,
    /// Index of its stream.
    pub stream: usize,
    /// How many times a bundle may hold it; `None`: exactly once, its stream's reset word when
    /// the text leaves it out.
    pub max: Option<u32>,
    /// How many times a program may hold it, over all its bundles.
    pub total: Option<u32>,
    /// Labels of the words it is made of, each a word of its stream (the stream's reset word
    /// when left out); empty: the unit is one word, written after its label.
    pub slots: &'static [&'static str],
    /// (slot, format index): a slot that may hold a word of another format instead, read when
    /// the stream's formats do not read the text and printed when they do not print the word.
    pub alternatives: &'static [(usize, usize)],
}

/// How a target's programs are bundled.
#[derive(Debug)]
pub struct Bundles {
    /// The word that starts a bundle (`EXEC`).
    pub keyword: &'static str,
    /// The streams it fills: [`Streams::streams`] itself (the same static slice).
    pub streams: &'static [Stream],
    /// The units, in the order a bundle writes them.
    pub units: &'static [Unit],
    /// The header settings (`name = N` outside the bundles).
    pub header: &'static [Header],
    /// How many bundles a program may hold.
    pub max: Option<u32>,
}

/// A header setting: `name = N` outside the bundles.
#[derive(Debug)]
pub struct Header {
    /// Its name (`alu_buffer_size`).
    pub name: &'static str,
    /// Its largest value.
    pub max: Option<u64>,
}

/// The words that travel beside a target's instructions ([`Isa::streams`]): the one
/// description of both kinds, as the spec's `stream` settings declare them (the IR's
/// `Streams`): the streams, and how statements fill them when programs are written as
/// bundles. An interleaved target has one stream, the instructions', whose computed words are
/// its control words ([`Computed::Slots`]).
#[derive(Debug)]
pub struct Streams {
    /// The streams, in the order they are listed.
    pub streams: &'static [Stream],
    /// How statements fill the streams, when programs are written as bundles.
    pub bundle: Option<&'static Bundles>,
}

impl Streams {
    /// The bundles, when programs are written as bundles ([`Isa::bundles`]).
    pub fn bundles(&self) -> Option<&'static Bundles> {
        self.bundle
    }

    /// The control words, when a stream holds them among the instructions ([`Isa::schedule`]).
    pub fn schedule(&self) -> Option<&'static Schedule> {
        self.streams.iter().find_map(|s| match s.computed {
            Some(Computed::Slots(schedule)) => Some(schedule),
            _ => None,
        })
    }
}

/// An assembled program: each stream's words and the header settings given.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Program {
    /// Each stream's words, in [`Bundles::streams`] order.
    pub streams: Vec<Vec<u128>>,
    /// The header settings the text gives, in the order given.
    pub settings: Vec<(String, u64)>,
    /// What the program's data sections write into the target's tables
    /// ([`crate::table::fill`]).
    pub tables: crate::table::Filled,
}

impl Stream {
    /// The stream's words as 32-bit parts in upload order.
    pub fn parts(&self, words: &[u128]) -> Vec<u32> {
        crate::target::word_parts(words, self.bits, self.low_first)
    }

    /// Words from 32-bit parts in upload order; `None` when the parts do not make whole words.
    pub fn words(&self, parts: &[u32]) -> Option<Vec<u128>> {
        crate::target::words_of_parts(parts, self.bits, self.low_first)
    }
}

/// Where a piece of the source is: byte offset and length.
type Span = (usize, usize);

fn same(a: &str, b: &str, ignore_case: bool) -> bool {
    if ignore_case {
        a.eq_ignore_ascii_case(b)
    } else {
        a == b
    }
}

fn is_word(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_'
}

/// Whether `text` starts with the word `word` (not followed by a letter, digit or `_`).
fn starts_with_word(text: &str, word: &str, ignore_case: bool) -> bool {
    text.get(..word.len()).is_some_and(|h| same(h, word, ignore_case))
        && text.as_bytes().get(word.len()).is_none_or(|c| !is_word(*c))
}

/// Assembles `source` in dialect number `dialect` of a bundled target: header settings,
/// sections, the directive core ([`crate::directives`]: symbols, conditionals, repetitions,
/// macros; an `.include` is an error here, see [`assemble_files`]) and one bundle per
/// statement. Every error is returned, each with its line and column.
pub fn assemble<T: Isa>(source: &str, dialect: usize) -> Result<Program, Vec<AsmError>> {
    let mut errors = Vec::new();
    let mut text = directives::Text::new(source);
    let program =
        assemble_files::<T>("", &mut text, dialect, &mut NoIncludes, &mut |e, _| errors.push(e.clone()));
    program.ok_or(errors)
}

/// The statements of a bundled program's file ([`directives::Spelling::statements`]): each
/// header setting (`name = N`, which no separator ends), then every statement of the code up to
/// its separator (bundles and directives alike; the separator is not in it), the sections of
/// data left out (their tables are read by [`crate::table::read`]). The text they are read
/// from has its comments blanked and its line ends made blanks, byte for byte. `in_data`: the
/// text starts in a data section. Where `more` of the file follows (the source read in
/// pieces), only the statements certainly whole are split, as a flat target's are
/// ([`crate::target::split_statements`]): up to the start of the last line before which no
/// block comment is open and the last statement ended with the separator, or with lines that
/// are a section directive or a header setting alone; the rest is split with what follows. A dialect without a separator has no such line: its text is split whole.
fn statements(source: &str, b: &Bundles, d: &Dialect, in_data: bool, more: bool) -> directives::Split {
    let (mut blanked, open) = blank_comments_open(source, d);
    let end = match (more, d.separator) {
        (false, _) => source.len(),
        (true, Some(_)) => {
            // A line that is a section directive or a header setting (its value on the line)
            // is a statement of its own.
            let alone = |line: &str| {
                alone_in_line(line, d)
                    || line.ends_with(|c: char| c.is_ascii_alphanumeric())
                        && header_setting(line, b, d).is_some_and(|(n, _)| n == line.len())
            };
            piece_end(&blanked, open, d, &alone)
        }
        (true, None) => 0,
    };
    blanked.truncate(end);
    let text: String = blanked.replace(['\n', '\r', '\t'], " ");
    let separator = d.separator.unwrap_or(";");
    let mut ranges = Vec::new();
    let mut in_data = in_data;
    let sections: Vec<&str> = d.code_section.iter().chain(d.data_sections.iter()).copied().collect();
    let mut pos = 0;
    while pos < text.len() {
        let rest = &text[pos..];
        let trimmed = rest.trim_start();
        pos += rest.len() - trimmed.len();
        if trimmed.is_empty() {
            break;
        }
        if let Some((data, len)) = section_directive(trimmed, d) {
            // A statement of its own, which the expansion reads.
            ranges.push((pos, pos + len));
            in_data = data;
            pos += len;
            continue;
        }
        if let Some((consumed, _)) = header_setting(trimmed, b, d).filter(|_| !in_data) {
            ranges.push((pos, pos + consumed));
            pos += consumed;
            continue;
        }
        let end = trimmed.find(separator).map_or(text.len(), |e| pos + e);
        // A data section's entry ends where the next section starts, if no separator comes first.
        if in_data {
            if let Some(cut) = crate::table::next_directive(&text[pos..end], &sections, d.ignore_case) {
                if cut > 0 {
                    ranges.push((pos, pos + text[pos..pos + cut].trim_end().len()));
                    pos += cut;
                    continue;
                }
            }
        }
        ranges.push((pos, end));
        pos = end + separator.len();
    }
    directives::Split { code: text, ranges, end, in_data }
}

/// [`assemble`] of a source named `name` (for diagnostics) whose `.include`s `includer`
/// reads, handing each error to `report` as it is found, with the text of its line; `None`
/// when there was one. Two passes, as [`crate::target::assemble_files`] makes them: the
/// directive core expands the program's statements ([`statements`]), then each expanded
/// statement is a header setting or a bundle, its errors located through the expansion (the
/// line of a macro's body, with the call and the include it was expanded in). Bundles have no
/// addresses for labels to name: a statement starts with no label, and operands' expressions
/// name symbols only.
pub fn assemble_files<T: Isa>(
    name: &str,
    source: &mut dyn Source,
    dialect: usize,
    includer: &mut dyn Includer,
    report: &mut dyn FnMut(&AsmError, &str),
) -> Option<Program> {
    let Some(b) = T::bundles() else {
        let message = alloc::format!("{} programs are not bundles", T::NAME);
        report(&AsmError { line: 1, column: 1, message, length: 0, file: None, expansion: Vec::new() }, "");
        return None;
    };
    let d = T::dialects().get(dialect).unwrap_or(&T::dialects()[0]);
    let separator = d.separator.unwrap_or(";");
    // Read a piece at a time ([`directives::expand_streaming`]), each piece split up to where
    // its statements are certainly whole ([`statements`]); each statement is read as it comes.
    let split = |text: &str, in_data: bool, more: bool| statements(text, b, d, in_data, more);
    let spelling = directives::Spelling::of(d, false, Some(&split));
    let layout = directives::Layout { word_bytes: 1, code_align: 1, scheduled: None };
    // Each error as it is found, with its line's text (while the text is held).
    let failed = core::cell::Cell::new(false);
    let report = core::cell::RefCell::new(report);
    let fail = |expanded: &directives::Program, e: AsmError| {
        failed.set(true);
        (report.borrow_mut())(&e, expanded.source_line(&e));
    };
    // Warnings, with their lines' texts, reported once the expansion gives the includer back.
    let mut warnings: Vec<(AsmError, String)> = Vec::new();
    // Where a number goes, an expression (symbols are replaced by now; there are no labels).
    // A name there, in a program that sets no symbol, is no symbol misspelt: it is read as
    // text that is not a number at all, and the error lists what the operand takes.
    let no_label = |_: &str| None;
    let names = expr::Names {
        symbol: &|_| None,
        label: &no_label,
        label_prefixes: &[],
        call: None,
        bare_names: false,
    };
    let mut program = Program {
        streams: b.streams.iter().map(|_| Vec::new()).collect(),
        settings: Vec::new(),
        tables: Vec::new(),
    };
    // Per unit, the entries earlier bundles hold.
    let mut totals = alloc::vec![0u64; b.units.len()];
    let mut bundles = 0u64;
    // The tables the data sections' entries fill, line by line.
    let mut filler = crate::table::Filler::new(d.data_sections, T::tables(), d.ignore_case);
    // Each expanded statement as it comes: a header setting, a bundle or a table's entry.
    let mut statement = |expanded: &directives::Program, e: &directives::Expanded| {
        let fail = |error: AsmError| fail(expanded, error);
        if let Some(error) = filler.line(expanded, e) {
            fail(error);
        }
        if let Kind::Entry { .. } = e.kind {
            return;
        }
        if let Kind::Origin(_) = e.kind {
            let message = "a bundled program has no addresses (its statements name no labels and \
                           a bundle's words go to several streams): an origin has nothing to address";
            return fail(expanded.locate(e, 0, 0, message.into()));
        }
        let Kind::Code(text) = &e.kind else {
            let message = String::from("data has no place among a bundled program's streams");
            return fail(expanded.locate(e, 0, 0, message));
        };
        if let Some((consumed, setting)) = header_setting(text, b, d) {
            match setting {
                Ok(s) => program.settings.push(s),
                Err((at, message)) => fail(expanded.locate(e, at.0, at.1, message)),
            }
            let rest = text[consumed..].trim();
            if !rest.is_empty() {
                let at = text.len() - text[consumed..].trim_start().len();
                fail(expanded.locate(
                    e,
                    at,
                    rest.len(),
                    alloc::format!("unexpected `{rest}` after the setting"),
                ));
            }
            return;
        }
        if !expanded.after(&e.line).starts_with(separator) {
            let message = alloc::format!("the statement does not end with `{separator}`");
            fail(expanded.locate(e, 0, 0, message));
        }
        bundles += 1;
        if let Some(max) = b.max.filter(|m| bundles > u64::from(*m)) {
            let message = alloc::format!("over {max} bundles in a program");
            fail(expanded.locate(e, 0, syntax::token_at(text, 0).1, message));
        }
        let named = expanded.defines_names();
        let read = |text: &str| {
            expr::evaluate(text, 0, &names).map_err(|e| match e {
                e if e.undefined && !named && e.pos == 0 => {
                    expr::ExprError { undefined: false, end: None, ..e }
                }
                e => e,
            })
        };
        let expression = (!d.directives.is_empty()).then_some(&read as &dyn Fn(&str) -> expr::Reading);
        match bundle::<T>(b, d, dialect, text, expression, &mut totals) {
            Ok(words) => {
                for (stream, w) in words.into_iter().enumerate() {
                    program.streams[stream].extend(w);
                }
            }
            Err(list) => {
                for ((pos, len), message) in list {
                    fail(expanded.locate(e, pos, len, message));
                }
            }
        }
    };
    // A `.clone` copies lines from anywhere in the program (the expansion keeps them all):
    // a dialect that has it is expanded whole, its statements read after.
    let clones = d.directives.iter().any(|(_, k)| *k == directives::Directive::Clone);
    if clones {
        let text = directives::read_all(source);
        let (expanded, errors) = directives::expand(name, &text, &spelling, &layout, includer);
        for w in &expanded.warnings {
            let w = expanded.located(w);
            includer.warning(&w, expanded.source_line(&w));
        }
        for e in &errors {
            fail(&expanded, expanded.located(e));
        }
        for e in &expanded.lines {
            statement(&expanded, e);
        }
    } else {
        directives::expand_streaming(name, source, &spelling, &layout, includer, &mut |expanded, handed| {
            match handed {
                Handed::Lines(lines) => {
                    for e in &lines {
                        statement(expanded, e);
                    }
                }
                Handed::Error(l) => fail(expanded, expanded.located(&l)),
                Handed::Warning(l) => {
                    let w = expanded.located(&l);
                    let line = String::from(expanded.source_line(&w));
                    warnings.push((w, line));
                }
            }
        });
        for (w, line) in &warnings {
            includer.warning(w, line);
        }
    }
    program.tables = filler.filled;
    (!failed.get()).then_some(program)
}

/// A header setting read (name, value), or where and why its value is wrong.
type HeaderSetting = Result<(String, u64), (Span, String)>;

/// `name = N` at the start of `text` for a header setting `name`: the bytes it takes and the
/// setting, or where and why its value is wrong.
fn header_setting(text: &str, b: &Bundles, d: &Dialect) -> Option<(usize, HeaderSetting)> {
    let header = b.header.iter().find(|h| starts_with_word(text, h.name, d.ignore_case))?;
    let name = header.name;
    let after = &text[name.len()..];
    let eq = after.trim_start().strip_prefix('=')?;
    let value_at = text.len() - eq.trim_start().len();
    let digits = eq.trim_start();
    let len = digits.bytes().take_while(|c| is_word(*c)).count();
    let token = &digits[..len];
    let value = match token.strip_prefix("0x").or_else(|| token.strip_prefix("0X")) {
        Some(hex) => u64::from_str_radix(hex, 16).ok(),
        None => token.parse().ok(),
    };
    let consumed = value_at + len;
    Some(match value {
        Some(v) => match header.max.filter(|m| v > *m) {
            Some(m) => (consumed, Err(((value_at, len), alloc::format!("`{name}` is at most {m}")))),
            None => (consumed, Ok((String::from(name), v))),
        },
        None => (consumed, Err(((value_at, len), alloc::format!("`{name}` takes a number")))),
    })
}

/// One label found in a bundle's text: where, how long, and which unit (and slot) it opens.
struct Label {
    at: usize,
    len: usize,
    unit: usize,
    slot: Option<usize>,
}

/// The labels of the bundle's units and slots in `text`, in order.
fn labels(b: &Bundles, text: &str, ignore_case: bool) -> Vec<Label> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < text.len() {
        if !text.is_char_boundary(i) || (i > 0 && is_word(bytes[i - 1])) {
            i += 1;
            continue;
        }
        let mut best: Option<Label> = None;
        for (u, unit) in b.units.iter().enumerate() {
            let names = core::iter::once((None, unit.label))
                .chain(unit.slots.iter().enumerate().map(|(s, l)| (Some(s), *l)));
            for (slot, label) in names {
                let fits = text.get(i..i + label.len()).is_some_and(|h| same(h, label, ignore_case));
                if fits && best.as_ref().is_none_or(|x| x.len < label.len()) {
                    best = Some(Label { at: i, len: label.len(), unit: u, slot });
                }
            }
        }
        match best {
            Some(l) => {
                i += l.len;
                out.push(l);
            }
            None => i += 1,
        }
    }
    out
}

/// Reads an expression where a number goes, in a dialect with directives ([`Context`]).
type Expression<'a> = Option<&'a dyn Fn(&str) -> expr::Reading>;

/// A bundle's words per stream, or the errors (span in `text`, message).
fn bundle<T: Isa>(
    b: &Bundles,
    d: &Dialect,
    dialect: usize,
    text: &str,
    expression: Expression,
    totals: &mut [u64],
) -> Result<Vec<Vec<u128>>, Vec<(Span, String)>> {
    let mut errors = Vec::new();
    let lead = text.len() - text.trim_start().len();
    if !starts_with_word(&text[lead..], b.keyword, d.ignore_case) {
        let (at, len) = syntax::token_at(text, lead);
        return Err(alloc::vec![((at, len), alloc::format!("expected `{}` to start a bundle", b.keyword))]);
    }
    let body = lead + b.keyword.len();
    let labels = labels(b, text, d.ignore_case);
    let labels: Vec<Label> = labels.into_iter().filter(|l| l.at >= body).collect();
    let first = labels.first().map_or(text.len(), |l| l.at);
    if !text[body..first].trim().is_empty() {
        let at = body + (text[body..].len() - text[body..].trim_start().len());
        let names: Vec<String> = b.units.iter().map(|u| alloc::format!("`{}`", u.label)).collect();
        let message = alloc::format!("expected a unit ({})", names.join(", "));
        errors.push(((at, syntax::token_at(text, at).1), message));
    }
    let mut words: Vec<Vec<u128>> = b.streams.iter().map(|_| Vec::new()).collect();
    let mut counts = alloc::vec![0u64; b.units.len()];
    // The unit being read: its index and the slot words it has so far.
    let mut open: Option<(usize, Vec<u128>, Vec<bool>)> = None;
    let mut last_unit: Option<usize> = None;
    let close = |open: &mut Option<(usize, Vec<u128>, Vec<bool>)>, words: &mut Vec<Vec<u128>>| {
        if let Some((u, slots, _)) = open.take() {
            words[b.units[u].stream].extend(slots);
        }
    };
    for (k, l) in labels.iter().enumerate() {
        let end = labels.get(k + 1).map_or(text.len(), |n| n.at);
        let unit = &b.units[l.unit];
        let stream = &b.streams[unit.stream];
        let content = (l.at + l.len, end);
        let label_span = (l.at, l.len);
        match l.slot {
            None => {
                close(&mut open, &mut words);
                if last_unit.is_some_and(|p| p > l.unit) {
                    let order: Vec<String> =
                        b.units.iter().map(|u| alloc::format!("`{}`", u.label)).collect();
                    let message =
                        alloc::format!("a bundle writes its units in the order {}", order.join(", "));
                    errors.push((label_span, message));
                }
                counts[l.unit] += 1;
                let max = unit.max.map_or(1, u64::from);
                if counts[l.unit] > max {
                    let message = alloc::format!("at most {max} `{}` in a bundle", unit.label);
                    errors.push((label_span, message));
                }
                if let Some(total) = unit.total.filter(|t| totals[l.unit] + counts[l.unit] > u64::from(*t)) {
                    let message = alloc::format!("over {total} `{}` in a program", unit.label);
                    errors.push((label_span, message));
                }
                last_unit = Some(l.unit);
                if unit.slots.is_empty() {
                    match word::<T>(stream, &[], d, dialect, text, content, expression) {
                        Ok(w) => words[unit.stream].push(w),
                        Err(e) => errors.push(e),
                    }
                } else {
                    if !text[content.0..content.1].trim().is_empty() {
                        let at = content.0 + (text[content.0..].len() - text[content.0..].trim_start().len());
                        let names: Vec<String> = unit.slots.iter().map(|s| alloc::format!("`{s}`")).collect();
                        errors.push((
                            (at, syntax::token_at(text, at).1),
                            alloc::format!("expected {}", names.join(", ")),
                        ));
                    }
                    open = Some((
                        l.unit,
                        alloc::vec![stream.reset; unit.slots.len()],
                        alloc::vec![false; unit.slots.len()],
                    ));
                }
            }
            Some(s) => match open.as_mut().filter(|(u, _, _)| *u == l.unit) {
                Some((_, slots, seen)) => {
                    if core::mem::replace(&mut seen[s], true) {
                        errors.push((
                            label_span,
                            alloc::format!("`{}` twice in one `{}`", unit.slots[s], unit.label),
                        ));
                    }
                    let alternatives: Vec<usize> =
                        unit.alternatives.iter().filter(|(slot, _)| *slot == s).map(|(_, f)| *f).collect();
                    match word::<T>(stream, &alternatives, d, dialect, text, content, expression) {
                        Ok(w) => slots[s] = w,
                        Err(e) => errors.push(e),
                    }
                }
                None => errors
                    .push((label_span, alloc::format!("`{}` outside a `{}`", unit.slots[s], unit.label))),
            },
        }
    }
    close(&mut open, &mut words);
    // Units that are there once per bundle: their reset word when left out.
    for (u, unit) in b.units.iter().enumerate() {
        if unit.max.is_none() && counts[u] == 0 {
            let stream = &b.streams[unit.stream];
            words[unit.stream].extend(core::iter::repeat_n(stream.reset, unit.slots.len().max(1)));
        }
    }
    // Computed words from what the bundle holds.
    for (i, stream) in b.streams.iter().enumerate() {
        let Some(Computed::Counts(format, fields)) = stream.computed else { continue };
        let format = T::formats()[format];
        let mut values: Vec<u64> = format.fields.iter().map(|f| f.fixed.or(f.default).unwrap_or(0)).collect();
        for c in fields {
            let Some(index) = format.field(c.field) else { continue };
            let value = match c.measure {
                Measure::Count => counts[c.unit],
                Measure::First if counts[c.unit] == 0 => 0,
                Measure::First => totals[c.unit],
            };
            let field = &format.fields[index];
            let width: u32 = field.pieces.iter().map(|p| p.width).sum();
            if width < 64 && value >> width != 0 {
                let unit = b.units[c.unit].label;
                let message = alloc::format!(
                    "`{}` of stream `{}` is {value}, more than its {width} bits hold (too many `{unit}`)",
                    field.name,
                    stream.name
                );
                errors.push(((lead, b.keyword.len()), message));
            }
            values[index] = value;
        }
        words[i].push(format.pack(&values));
    }
    for (total, count) in totals.iter_mut().zip(&counts) {
        *total += count;
    }
    if errors.is_empty() {
        Ok(words)
    } else {
        Err(errors)
    }
}

/// Reads one word of `stream` from `text[span]`: its 32-bit parts in hex (`0x..., 0x...`),
/// or the text of one of its formats (then of the `alternatives`).
fn word<T: Isa>(
    stream: &Stream,
    alternatives: &[usize],
    d: &Dialect,
    dialect: usize,
    text: &str,
    span: Span,
    expression: Expression,
) -> Result<u128, (Span, String)> {
    let raw = &text[span.0..span.1];
    let code = raw.trim();
    let at = span.0 + (raw.len() - raw.trim_start().len());
    if code.is_empty() {
        return Err(((at, 0), String::from("expected the unit's word")));
    }
    if let Some(w) = hex_parts(stream, code) {
        return w.map_err(|m| ((at, code.len()), m));
    }
    let none = |_: &str| None;
    let ctx = Context { pc: 0, labels: &none, ignore_case: d.ignore_case, expression };
    let mut best: Option<syntax::Failure> = None;
    for &f in stream.formats.iter().chain(alternatives) {
        let format: &Format = T::formats()[f];
        let Some(syntax) = format.syntax.get(dialect) else { continue };
        match syntax::parse(format, syntax, code, &ctx) {
            Ok(values) => return Ok(format.pack(&values)),
            Err(failure) => {
                if best.as_ref().is_none_or(|b| failure.pos > b.pos) {
                    best = Some(failure);
                } else if let Some(b) = best.as_mut().filter(|b| b.pos == failure.pos) {
                    b.expected.extend(failure.expected);
                }
            }
        }
    }
    let parts = (stream.bits / 32) as usize;
    let hex =
        if parts == 1 { String::from("`0x...`") } else { alloc::format!("{parts} hex parts `0x..., 0x...`") };
    match best {
        Some(f) => {
            let (start, len) = syntax::token_at(code, f.pos);
            Err(((at + start, len), f.message(code)))
        }
        None => Err(((at, code.len()), alloc::format!("expected {hex}"))),
    }
}

/// `0x..., 0x...` with one 32-bit part per 32 bits of the stream's word, most significant
/// first; `None` when the text is not hex.
fn hex_parts(stream: &Stream, code: &str) -> Option<Result<u128, String>> {
    let first = code.get(..2)?;
    if !first.eq_ignore_ascii_case("0x") {
        return None;
    }
    let parts: Vec<&str> = code.split(',').map(str::trim).collect();
    let n = (stream.bits / 32).max(1) as usize;
    let mut word = 0u128;
    for p in &parts {
        let digits = p.get(2..).filter(|_| p.len() > 2 && p[..2].eq_ignore_ascii_case("0x"))?;
        let v = u64::from_str_radix(digits, 16).ok().filter(|v| *v >> 32 == 0);
        let Some(v) = v else {
            return Some(Err(alloc::format!("`{p}` is not a 32-bit hexadecimal part")));
        };
        word = (word << 32) | u128::from(v);
    }
    if parts.len() != n {
        return Some(Err(alloc::format!(
            "a word of stream `{}` is {n} hex parts, most significant first",
            stream.name
        )));
    }
    Some(Ok(word))
}

/// Why a program's streams cannot be written as bundles.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StreamError(pub String);

impl core::fmt::Display for StreamError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(&self.0)
    }
}

impl core::error::Error for StreamError {}

/// Prints a program's streams as bundles in dialect number `dialect`: the header settings,
/// the code section's directive, then one statement per bundle. The text assembles back to the
/// same streams; streams the bundles cannot give (computed words that disagree with the units,
/// lengths that do not fit) are an error.
pub fn disassemble<T: Isa>(program: &Program, dialect: usize) -> Result<String, StreamError> {
    let b =
        T::bundles().ok_or_else(|| StreamError(alloc::format!("{} programs are not bundles", T::NAME)))?;
    let d = T::dialects().get(dialect).unwrap_or(&T::dialects()[0]);
    let fail = |m: String| Err(StreamError(m));
    if program.streams.len() != b.streams.len() {
        return fail(alloc::format!("{} streams, {} given", b.streams.len(), program.streams.len()));
    }
    // Bundles: as many as the words of a stream that has one per bundle.
    let per_bundle = b.streams.iter().enumerate().filter_map(|(i, s)| {
        let once = b.units.iter().any(|u| u.stream == i && u.max.is_none() && u.slots.is_empty());
        (once || s.computed.is_some()).then_some(i)
    });
    let mut n: Option<usize> = None;
    for i in per_bundle {
        let len = program.streams[i].len();
        match n {
            Some(m) if m != len => {
                return fail(alloc::format!(
                    "stream `{}` has {len} words, but the program has {m} bundles",
                    b.streams[i].name
                ))
            }
            _ => n = Some(len),
        }
    }
    let n = n.unwrap_or(0);
    if let Some(max) = b.max.filter(|m| n as u64 > u64::from(*m)) {
        return fail(alloc::format!("{n} bundles, more than the {max} a program holds"));
    }
    // Per bundle and unit: how many times it is there.
    let mut counts = alloc::vec![alloc::vec![1u64; b.units.len()]; n];
    for (u, unit) in b.units.iter().enumerate() {
        if unit.max.is_none() {
            continue;
        }
        let counter = b.streams.iter().enumerate().find_map(|(i, s)| {
            let Some(Computed::Counts(format, fields)) = s.computed else { return None };
            let c = fields.iter().find(|c| c.unit == u && c.measure == Measure::Count)?;
            Some((i, format, T::formats()[format].field(c.field)?))
        });
        let Some((i, format, field)) = counter else {
            return fail(alloc::format!("no computed word counts `{}`", unit.label));
        };
        for (k, c) in counts.iter_mut().enumerate() {
            c[u] = T::formats()[format].unpack(program.streams[i][k])[field];
        }
        let held: u64 = counts.iter().map(|c| c[u]).sum();
        if let Some(total) = unit.total.filter(|t| held > u64::from(*t)) {
            return fail(alloc::format!("{held} `{}`, more than the {total} a program holds", unit.label));
        }
    }
    // The words each unit's stream must hold.
    for (i, stream) in b.streams.iter().enumerate() {
        if stream.computed.is_some() {
            continue;
        }
        let expected: u64 = b
            .units
            .iter()
            .enumerate()
            .filter(|(_, u)| u.stream == i)
            .map(|(u, unit)| counts.iter().map(|c| c[u]).sum::<u64>() * unit.slots.len().max(1) as u64)
            .sum();
        if expected != program.streams[i].len() as u64 {
            return fail(alloc::format!(
                "stream `{}` has {} words, but the schedule words give {expected}",
                stream.name,
                program.streams[i].len()
            ));
        }
    }
    let mut out = String::new();
    for (name, value) in &program.settings {
        let _ = writeln!(out, "{name} = {value}");
    }
    if let Some(code) = d.code_section {
        let _ = writeln!(out, "{code}");
    }
    let separator = d.separator.unwrap_or(";");
    let mut next = alloc::vec![0usize; b.streams.len()];
    for count in &counts {
        let _ = writeln!(out, "{}", b.keyword);
        for (u, unit) in b.units.iter().enumerate() {
            let stream = &b.streams[unit.stream];
            for _ in 0..count[u] {
                if unit.slots.is_empty() {
                    let w = program.streams[unit.stream][next[unit.stream]];
                    next[unit.stream] += 1;
                    if unit.max.is_none() && w == stream.reset {
                        continue;
                    }
                    let _ = writeln!(out, "\t{} {}", unit.label, show::<T>(stream, &[], d, dialect, w));
                    continue;
                }
                let _ = writeln!(out, "\t{}", unit.label);
                for (s, slot) in unit.slots.iter().enumerate() {
                    let w = program.streams[unit.stream][next[unit.stream]];
                    next[unit.stream] += 1;
                    if w == stream.reset {
                        continue;
                    }
                    let alternatives: Vec<usize> =
                        unit.alternatives.iter().filter(|(x, _)| *x == s).map(|(_, f)| *f).collect();
                    let _ = writeln!(out, "\t\t{slot} {}", show::<T>(stream, &alternatives, d, dialect, w));
                }
            }
        }
        let _ = writeln!(out, "{separator}");
    }
    // The computed words must be what the units give, or the text would not give them back.
    let again = assemble::<T>(&out, dialect)
        .map_err(|e| StreamError(alloc::format!("the printed program does not assemble: {}", e[0])))?;
    for (i, stream) in b.streams.iter().enumerate() {
        if let Some(k) =
            (0..program.streams[i].len()).find(|&k| again.streams[i].get(k) != Some(&program.streams[i][k]))
        {
            let given = program.streams[i][k];
            let made = again.streams[i].get(k).copied().unwrap_or(0);
            return fail(alloc::format!(
                "word {k} of stream `{}` is {given:#x}, but the bundles give {made:#x}",
                stream.name
            ));
        }
    }
    Ok(out)
}

/// A word of `stream` as text: the first format (stream's, then `alternatives`) whose text
/// reads back to the word, else its hex parts.
fn show<T: Isa>(stream: &Stream, alternatives: &[usize], d: &Dialect, dialect: usize, word: u128) -> String {
    let none = |_: &str| None;
    let ctx = Context { pc: 0, labels: &none, ignore_case: d.ignore_case, expression: None };
    for &f in stream.formats.iter().chain(alternatives) {
        let format: &Format = T::formats()[f];
        let Some(syntax) = format.syntax.get(dialect) else { continue };
        let values = format.unpack(word);
        let fixed = format.fields.iter().zip(&values).all(|(x, v)| x.fixed.is_none_or(|fixed| fixed == *v));
        let mut text = String::new();
        if fixed
            && format.pack(&values) == word
            && syntax::print(syntax, &values, 0, &mut text)
            && syntax::parse(format, syntax, text.trim(), &ctx).is_ok_and(|v| format.pack(&v) == word)
        {
            return String::from(text.trim());
        }
    }
    let parts: Vec<String> = stream.parts(&[word]).iter().map(|p| alloc::format!("{p:#010x}")).collect();
    parts.join(", ")
}

impl Program {
    /// The program as one JSON object: `streams` maps each stream's name to its words as
    /// 32-bit hex strings in upload order (most significant part of a wider word first);
    /// `settings` maps each header setting given to its value.
    pub fn to_json(&self, bundles: &Bundles) -> String {
        let mut out = String::from("{\"streams\": {");
        for (i, (stream, words)) in bundles.streams.iter().zip(&self.streams).enumerate() {
            if i > 0 {
                out.push_str(", ");
            }
            crate::value::write_json_string(&mut out, stream.name);
            out.push_str(": [");
            for (k, part) in stream.parts(words).iter().enumerate() {
                let _ = write!(out, "{}\"{part:08x}\"", if k > 0 { ", " } else { "" });
            }
            out.push(']');
        }
        out.push_str("}, \"settings\": {");
        for (i, (name, value)) in self.settings.iter().enumerate() {
            if i > 0 {
                out.push_str(", ");
            }
            crate::value::write_json_string(&mut out, name);
            let _ = write!(out, ": {value}");
        }
        out.push_str("}}");
        out
    }

    /// Reads the JSON object [`Program::to_json`] writes; a stream left out is empty, and an
    /// unknown stream or setting, a part that is not 32-bit hex or parts that do not make
    /// whole words are errors.
    pub fn from_json(bundles: &Bundles, text: &str) -> Result<Program, StreamError> {
        let fail = |m: String| StreamError(m);
        let value = crate::value::parse_json(text).map_err(|e| fail(alloc::format!("{e}")))?;
        let mut program = Program {
            streams: bundles.streams.iter().map(|_| Vec::new()).collect(),
            settings: Vec::new(),
            tables: Vec::new(),
        };
        let entries = |key: &str| -> Result<Vec<(String, crate::value::Value)>, StreamError> {
            match value.get(key) {
                None => Ok(Vec::new()),
                Some(v) => v
                    .entries()
                    .map(|e| e.into_iter().map(|(k, v)| (String::from(k), v.clone())).collect())
                    .ok_or_else(|| fail(alloc::format!("`{key}` is an object"))),
            }
        };
        for (name, words) in entries("streams")? {
            let Some(i) = bundles.streams.iter().position(|s| s.name == name) else {
                return Err(fail(alloc::format!("no stream `{name}`")));
            };
            let items = words.items().ok_or_else(|| fail(alloc::format!("stream `{name}` is a list")))?;
            let mut parts = Vec::with_capacity(items.len());
            for item in items {
                let text = item.as_name().unwrap_or("");
                let digits = text.strip_prefix("0x").unwrap_or(text);
                match u32::from_str_radix(digits, 16) {
                    Ok(p) if !digits.is_empty() => parts.push(p),
                    _ => return Err(fail(alloc::format!("stream `{name}`: {item:?} is no 32-bit hex word"))),
                }
            }
            let stream = &bundles.streams[i];
            program.streams[i] = stream.words(&parts).ok_or_else(|| {
                fail(alloc::format!(
                    "stream `{name}`: {} parts do not make {}-bit words",
                    parts.len(),
                    stream.bits
                ))
            })?;
        }
        for (name, v) in entries("settings")? {
            let Some(header) = bundles.header.iter().find(|h| h.name == name) else {
                return Err(fail(alloc::format!("no header setting `{name}`")));
            };
            let v = v.as_u64().ok_or_else(|| fail(alloc::format!("setting `{name}` is a number")))?;
            if let Some(m) = header.max.filter(|m| v > *m) {
                return Err(fail(alloc::format!("`{name}` is at most {m}")));
            }
            program.settings.push((name, v));
        }
        Ok(program)
    }

    /// The stream called `name`'s words, if there is such a stream.
    pub fn stream<'p>(&'p self, bundles: &Bundles, name: &str) -> Option<&'p [u128]> {
        let i = bundles.streams.iter().position(|s| s.name == name)?;
        self.streams.get(i).map(Vec::as_slice)
    }
}

// ---- An interleaved stream: control words before groups of instructions --------------------

/// How a target's control words are laid out: the interleaved stream's words, each computed
/// from the slots of the instructions behind it.
#[derive(Debug)]
pub struct Schedule {
    /// The slot's fields and its syntax per dialect (printed before each instruction).
    pub slot: &'static Format,
    /// Instructions (slots) per control word.
    pub slots: u32,
    /// Bits per slot.
    pub slot_bits: u32,
    /// The instruction word that fills the last group.
    pub pad: u128,
    /// The slot of an instruction whose text gives none (its fields' defaults).
    pub default_slot: u64,
    /// Checks a slot's raw bits: a field holding a value the spec does not define is an error.
    pub check: fn(u64) -> Result<(), DecodeError>,
    /// What a listing shows of the slot on its instruction's text (nvdisasm's `.reuse`).
    pub marks: &'static [SlotMark],
    /// The slot field values (slot field index, value) that issue the instruction together
    /// with the next: a listing shows the two as a pair (nvdisasm's `{ }`). Empty: none.
    pub pair: &'static [(u16, u64)],
    /// The directive that writes the next group's control word as it is (`.control 0x...`),
    /// so a listing gives back a control word no slot reads; its group's instructions carry
    /// no slots. Empty: none (such a group is listed as raw words).
    pub raw_control: &'static str,
}

/// Flags of a slot shown on the instruction's text in a listing: flag `i` set puts `texts[i]`
/// (or the last text) after the whole text of operand `operands[i]` (a field name; `_` or a
/// field the encoding lacks: none; nvdisasm's `R4.reuse`, `|R4|.reuse`); with `mnemonic`,
/// the text numbered by the value of the first flags (flag `i` is bit `i`, as many flags as
/// the texts need) follows the mnemonic (nvdisasm's `TLDS.LZ.T`). Without texts, the formats
/// named show none.
#[derive(Debug)]
pub struct SlotMark {
    /// The slot fields (indices in the slot format) of the flags, in order.
    pub flags: &'static [u16],
    /// The texts, one per flag.
    pub texts: &'static [&'static str],
    /// The operand fields the flags mark, one per flag (empty with `mnemonic`).
    pub operands: &'static [&'static str],
    /// The marks follow the mnemonic rather than operands.
    pub mnemonic: bool,
    /// The encodings (or families: their forms are `name_form`) the mark is for (empty:
    /// those no other mark names).
    pub formats: &'static [&'static str],
    /// Where among those encodings it applies: each (field, values), the field's value is one
    /// of the values (`only when { a_sel 6, 7 }`); empty: always.
    pub when: &'static [(&'static str, &'static [u64])],
}

impl SlotMark {
    /// Whether the mark names encoding `format` or its family.
    pub fn names(&self, format: &str) -> bool {
        self.formats
            .iter()
            .any(|f| format == *f || format.strip_prefix(f).is_some_and(|rest| rest.starts_with('_')))
    }
}

impl Schedule {
    /// Whether the instruction with slot `slot` is issued together with the next one.
    pub fn pairs(&self, slot: u64) -> bool {
        let values = self.slot.unpack(u128::from(slot));
        !self.pair.is_empty()
            && self.pair.iter().all(|&(f, v)| values.get(usize::from(f)).is_some_and(|x| *x == v))
    }

    /// The mark that applies to an instruction of encoding `format` with field values
    /// `values`, if any: the first that names the encoding and whose `only when` holds, or else
    /// the one that names none.
    pub fn mark_for(&self, format: &crate::format::Format, values: &[u64]) -> Option<&'static SlotMark> {
        let holds = |m: &SlotMark| {
            m.when.iter().all(|(field, vs)| {
                format.field(field).and_then(|i| values.get(i)).is_some_and(|v| vs.contains(v))
            })
        };
        let own = self.marks.iter().find(|m| m.names(format.name) && holds(m));
        own.or_else(|| self.marks.iter().find(|m| m.formats.is_empty()))
    }

    /// Index in the program's words of instruction `k`.
    pub fn word_index(&self, k: usize) -> usize {
        let n = self.slots as usize;
        k / n * (n + 1) + 1 + k % n
    }

    /// Slot `i` of control word `control`.
    pub fn slot(&self, control: u128, i: u32) -> u64 {
        ((control >> (self.slot_bits * i)) & ((1u128 << self.slot_bits.min(64)) - 1)) as u64
    }

    /// Whether `word` can be a control word (no bit outside the slots set).
    pub fn is_control(&self, word: u128) -> bool {
        let used = self.slot_bits * self.slots;
        used >= 128 || word >> used == 0
    }

    /// The first `count` slots of control word `control`; an error when a bit outside the
    /// slots is set or a slot's field holds a value the spec does not define.
    pub fn read_control(&self, control: u128, count: usize) -> Result<Vec<u64>, DecodeError> {
        if !self.is_control(control) {
            return Err(DecodeError::NotControl { word: control, slot_bits: self.slot_bits * self.slots });
        }
        let slots: Vec<u64> = (0..count as u32).map(|i| self.slot(control, i)).collect();
        for (i, slot) in slots.iter().enumerate() {
            if let Err(e) = (self.check)(*slot) {
                let (field, value) = match e {
                    DecodeError::UndefinedValue { field, value, .. } => (field, value),
                    _ => ("", *slot),
                };
                return Err(DecodeError::BadSlot { word: control, slot: i as u32, field, value });
            }
        }
        Ok(slots)
    }
}

/// An instruction with its scheduling slot (0 for targets without a schedule).
#[derive(Debug, Clone, PartialEq)]
pub struct Scheduled<I> {
    /// The raw slot bits.
    pub slot: u64,
    /// The instruction.
    pub insn: I,
    /// Index of the instruction's word in the program.
    pub word: usize,
}

/// Byte address of instruction `k` of a program of target `T`.
pub fn address<T: Isa>(k: usize) -> u64 {
    let index = T::schedule().map_or(k, |s| s.word_index(k));
    index as u64 * u64::from(T::WORD_BITS.div_ceil(8))
}

/// An instruction's word in a program: (index of the word, its slot's raw bits, the word).
pub type Entry = (usize, u64, u128);

/// Index of the instruction at byte address `pc` of a program of target `T`; a control word's
/// address means the instruction after it (where execution goes on).
pub fn index<T: Isa>(pc: u64) -> usize {
    let bytes = u64::from(T::WORD_BITS.div_ceil(8)).max(1);
    let word = (pc / bytes) as usize;
    match T::schedule() {
        None => word,
        Some(s) => {
            let group = s.slots as usize + 1;
            word / group * s.slots as usize + (word % group).max(1) - 1
        }
    }
}

/// Splits a program's words into its instructions' words with their slots. A control word
/// with bits outside its slots, or a slot field holding an undefined value, is an error at the
/// control word's index.
pub fn split<T: Isa>(words: &[u128]) -> Result<Vec<Entry>, (usize, DecodeError)> {
    match split_until_error::<T>(words) {
        (entries, None) => Ok(entries),
        (_, Some(e)) => Err(e),
    }
}

/// [`split`], keeping the entries before the first bad control word.
pub fn split_until_error<T: Isa>(words: &[u128]) -> (Vec<Entry>, Option<(usize, DecodeError)>) {
    let Some(s) = T::schedule() else {
        return (words.iter().enumerate().map(|(i, w)| (i, 0, *w)).collect(), None);
    };
    let group = s.slots as usize + 1;
    let mut out = Vec::with_capacity(words.len());
    for (g, chunk) in words.chunks(group).enumerate() {
        let slots = match s.read_control(chunk[0], chunk.len() - 1) {
            Ok(slots) => slots,
            Err(e) => return (out, Some((g * group, e))),
        };
        for (i, (w, slot)) in chunk[1..].iter().zip(slots).enumerate() {
            out.push((g * group + 1 + i, slot, *w));
        }
    }
    (out, None)
}

/// Decodes a whole program: every instruction with its slot.
pub fn decode_program<T: Isa>(
    words: &[u128],
) -> Result<Vec<Scheduled<T::Instruction>>, (usize, DecodeError)> {
    split::<T>(words)?
        .into_iter()
        .map(|(word, slot, w)| T::decode(w).map(|insn| Scheduled { slot, insn, word }).map_err(|e| (word, e)))
        .collect()
}

/// Encodes a whole program: control words in front of each group, the last group padded
/// with the schedule's pad instruction and default slot.
pub fn encode_program<T: Isa>(program: &[(u64, T::Instruction)]) -> Result<Vec<u128>, EncodeError> {
    let words =
        program.iter().map(|(slot, insn)| Ok((*slot, T::encode(insn)?))).collect::<Result<Vec<_>, _>>()?;
    Ok(pack_program::<T>(&words))
}

/// Lays out a program of instruction words with their slots: control words in front of each
/// group, the last group padded with the schedule's pad instruction and default slot.
pub fn pack_program<T: Isa>(program: &[(u64, u128)]) -> Vec<u128> {
    let Some(s) = T::schedule() else {
        return program.iter().map(|(_, word)| *word).collect();
    };
    let n = s.slots as usize;
    let mut out = Vec::with_capacity(program.len() / n * (n + 1) + n + 1);
    for group in program.chunks(n) {
        pack_group(s, group, &mut |w| out.push(w));
    }
    out
}

/// One group of [`pack_program`] (at most `s.slots` instructions with their slots): its
/// control word, then its words, the missing slots padded, each handed to `write`.
pub fn pack_group(s: &Schedule, group: &[(u64, u128)], write: &mut dyn FnMut(u128)) {
    let n = s.slots as usize;
    let mut control = 0u128;
    for i in 0..n {
        let slot = group.get(i).map_or(s.default_slot, |g| g.0);
        control |= u128::from(slot & crate::bits::mask(s.slot_bits)) << (s.slot_bits * i as u32);
    }
    write(control);
    for i in 0..n {
        write(group.get(i).map_or(s.pad, |g| g.1));
    }
}
