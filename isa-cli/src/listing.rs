//! NVIDIA's disassembler listings read back as assembly source (issue 15): cuobjdump's `-sass`
//! and nvdisasm's `-hex` output, where every instruction line is
//! `/*0008*/  MOV R1, c[0x0][0x20] ;  /* 0x4c98078000870001 */` and every control word stands
//! in a `/* 0x... */` comment of its own.
//!
//! The listing's text is what a user edits; its words are what the text came from. The
//! instructions are read from the text, so an edited line assembles to its new word, and each
//! instruction's scheduling slot is taken from the listed control word, so the listing rebuilds
//! byte for byte. What the listing derives from the control words is read off the text, as
//! the target declares it (its stream's `mark`s, its dialect's `listing` pair marks): the
//! `{ }` around a dual-issued pair, the `.reuse` flags on operands and the `.T`/`.P` after a
//! texture instruction's mnemonic; so are the listing's `(*"..."*)` annotations. A mark
//! edited into the text is then written into its control word ([`write_marks`]): the slot's
//! reuse flags, or the fields that open a dual-issued pair, as the target declares them; one
//! no slot gives is an error ([`check_marks`]), not dropped. A dual-issued pair's second
//! instruction has its word comment on the next line, so texts and words are collected apart
//! and matched by position.

use crate::words::parse_hex;
use isa_runtime::bundle::Schedule;
use isa_runtime::target::{slot_text, Target};

/// What a listing shows that the control words imply, as the target declares it.
#[derive(Default)]
pub struct Marks {
    /// A pair's opening and closing marks.
    pair: (String, String),
    /// Texts after operands (`.reuse`).
    operands: Vec<&'static str>,
    /// Texts after the mnemonic, each with the mnemonics (first words) of the encodings that
    /// show it.
    mnemonic: Vec<(&'static str, Vec<&'static str>)>,
    /// What starts a guard (`@`).
    guard: String,
    /// The dialect's byte directive, which lists the bytes that end a program inside a word
    /// (`isa disasm --listing` writes them after the listing).
    byte: Option<&'static str>,
    /// The dialect's `origin` directive, which the reader writes where a listing's addresses
    /// start again (each function of a listing of several starts at 0).
    origin: Option<&'static str>,
    /// The listing's labels and their addresses ([`label_addresses`]), which its operands
    /// name (`` `(.L_x_3) ``).
    pub labels: std::collections::BTreeMap<String, u64>,
}

impl Marks {
    /// The marks of `target` in dialect number `dialect`; nvdisasm's `{ }` where the dialect
    /// declares no listing layout.
    pub fn of(target: &dyn Target, dialect: usize) -> Self {
        let style = target.dialects().get(dialect).and_then(|d| d.listing);
        let spelling = |directive| {
            let d = target.dialects().get(dialect)?;
            d.directives.iter().find(|(_, k)| *k == directive).map(|(s, _)| *s)
        };
        let mut marks = Marks {
            pair: style.map_or(("{".into(), "}".into()), |s| (s.open.0.into(), s.close.0.into())),
            guard: style.map_or("@".into(), |s| s.guard.into()),
            byte: spelling(isa_runtime::directives::Directive::Byte),
            origin: spelling(isa_runtime::directives::Directive::Origin),
            ..Marks::default()
        };
        let Some(schedule) = target.schedule() else { return marks };
        for mark in schedule.marks {
            if !mark.mnemonic {
                for t in mark.texts.iter().filter(|t| !t.is_empty()) {
                    if !marks.operands.contains(t) {
                        marks.operands.push(t);
                    }
                }
                continue;
            }
            let mut leads = Vec::new();
            for f in target.formats().iter().filter(|f| mark.names(f.name)) {
                if let Some(syntax) = f.syntax.get(dialect) {
                    syntax.mnemonics(&mut leads);
                }
            }
            for t in mark.texts.iter().filter(|t| !t.is_empty()) {
                marks.mnemonic.push((t, leads.clone()));
            }
        }
        marks
    }
}

/// The instruction text after a line's `/*0008*/` address comment, or `None` when the line is
/// not an instruction line.
fn instruction_text(line: &str) -> Option<&str> {
    instruction_line(line).map(|(_, text)| text)
}

/// A line's `/*0008*/` address comment (hex digits) and the instruction text after it, or
/// `None` when the line is not an instruction line (a data line among them). A directive with
/// a word comment is an instruction word the listing wrote raw (it did not decode).
fn instruction_line(line: &str) -> Option<(&str, &str)> {
    addressed(line)
        .filter(|(_, text)| !text.trim_start().starts_with('.') || word_comments(line).next().is_some())
}

/// A line's `/*0008*/` address comment (hex digits) and the text after it, or `None`.
fn addressed(line: &str) -> Option<(&str, &str)> {
    let rest = line.trim_start().strip_prefix("/*")?;
    let (address, text) = rest.split_once("*/")?;
    (!address.is_empty() && address.chars().all(|c| c.is_ascii_hexdigit())).then_some((address, text))
}

/// Whether a line is data at an address, as nvdisasm lists a cubin's other sections
/// (`/*0000*/ .byte 0x04, 0x2f`, `/*0004*/ .word index@(sum_loop)`): a directive, never an
/// instruction's text.
fn data_line(line: &str) -> bool {
    addressed(line).is_some() && instruction_line(line).is_none()
}

/// The section a line of nvdisasm's listing of a cubin starts, in GNU as's spelling
/// (`.section .nv.info,"",@"SHT_CUDA_INFO"`, `.section .text.sum_loop,"ax",@progbits`): its
/// name, where the name starts in the line (bytes), and whether it is code (its flags hold
/// `x`, executable, as the ELF section's `SHF_EXECINSTR`).
fn section_line(line: &str) -> Option<(&str, usize, bool)> {
    let rest = line.trim_start().strip_prefix(".section")?;
    if !rest.starts_with(char::is_whitespace) {
        return None;
    }
    let name_at = line.len() - rest.trim_start().len();
    let (name, flags) = line[name_at..].split_once(',').unwrap_or((&line[name_at..], ""));
    let name = name.trim_end();
    let flags = flags.trim_start().strip_prefix('"').and_then(|f| f.split_once('"')).map_or("", |f| f.0);
    (!name.is_empty()).then_some((name, name_at, flags.contains('x')))
}

/// Whether a comment's contents are one hex word, `0x4c98078000870001`.
fn is_word(inner: &str) -> bool {
    inner.strip_prefix("0x").is_some_and(|d| !d.is_empty() && d.chars().all(|c| c.is_ascii_hexdigit()))
}

/// The contents of the `/* 0x... */` comments of a line, in order.
fn word_comments(line: &str) -> impl Iterator<Item = &str> {
    let comments = line.split("/*").skip(1).filter_map(|c| c.split_once("*/"));
    comments.map(|(inner, _)| inner.trim()).filter(|inner| is_word(inner))
}

/// The words of a listing's `/* 0x... */` comments, in order (a control word before the
/// instructions it schedules, as in memory); `None` when one is not a word of the target.
fn listed_words(text: &str, word_bits: u32) -> Option<Vec<u128>> {
    text.lines().flat_map(word_comments).map(|w| parse_hex(w, word_bits).ok()).collect()
}

/// Unedited lines keep their listed words: returns how many did. nvdisasm prints some words
/// alike (an FCMP's NaN immediate is `-QNAN` whatever its payload: docs/research/
/// maxwell-sm5x-encodings.md §G.6), so such a line's text assembles to another word of the
/// same text. A line whose text is the target's own text of the word in its comment was not
/// edited, and that word is the one the listing holds; an edited line keeps the word its new
/// text assembles to. The text of the word is the one at the line's listed address: a listing
/// of several functions (cuobjdump's of a fatbin) starts each at 0, and a branch prints its
/// target from there.
pub fn keep_unedited(
    text: &str,
    words: &mut [u128],
    place: At,
    target: &dyn Target,
    dialect: usize,
    marks: &Marks,
) -> usize {
    let Some(listed) = listed_words(text, target.word_bits()) else { return 0 };
    // Each group of a scheduled target is its control word, then its slots.
    let slots = target.schedule().map(|s| s.slots as usize);
    let bytes = crate::words::word_bytes(target.word_bits()) as u64;
    let mut kept = 0;
    for (k, (address, line)) in text.lines().filter_map(instruction_line).enumerate() {
        let at = slots.map_or(k, |n| k / n * (n + 1) + 1 + k % n);
        let (Some(&theirs), Some(mine)) = (listed.get(at), words.get_mut(at)) else { break };
        if theirs == *mine {
            continue;
        }
        let pc = u64::from_str_radix(address, 16).unwrap_or((place.first + at) as u64 * bytes);
        let Ok(Some(shown)) = target.text_of_word(theirs, dialect, pc) else { continue };
        if clean(&shown, marks) == clean(line, marks) {
            *mine = theirs;
            kept += 1;
        }
    }
    kept
}

/// Where a piece of a listing ([`Groups`]) stands in its program: the number of its first
/// word, and whether it ends the program.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct At {
    /// The number of the piece's first word in the program.
    pub first: usize,
    /// The piece ends the program.
    pub last: bool,
}

/// An instruction's text without its word comment, the pair marks, the `(*...*)`
/// annotations, the marks of the control words, the closing `;` and the blank in
/// `c[0x0] [0x8]`.
fn clean(text: &str, marks: &Marks) -> String {
    let mut t = text.split("/*").next().unwrap_or("").to_string();
    while let Some(start) = t.find("(*") {
        let end = t[start..].find("*)").map_or(t.len(), |e| start + e + 2);
        t.replace_range(start..end, "");
    }
    let mut t = t.trim();
    // The pair marks stand apart: before the text and after it (`DEPBAR {0}` keeps its own).
    let (open, close) = (marks.pair.0.as_str(), marks.pair.1.as_str());
    if let Some(rest) =
        t.strip_prefix(open).filter(|r| !open.is_empty() && r.starts_with(char::is_whitespace))
    {
        t = rest.trim_start();
    }
    if let Some(rest) =
        t.strip_suffix(close).filter(|r| !close.is_empty() && r.ends_with(char::is_whitespace))
    {
        t = rest.trim_end();
    }
    let mut t = t.trim_end_matches(';').trim_end().to_string();
    for m in &marks.operands {
        t = t.replace(m, "");
    }
    // A mark after the mnemonic, where the mnemonic is one of its encodings'.
    let start = match t.split_once(' ') {
        Some((g, _)) if !marks.guard.is_empty() && g.starts_with(marks.guard.as_str()) => g.len() + 1,
        _ => 0,
    };
    let end = t[start..].find(' ').map_or(t.len(), |e| start + e);
    let word = &t[start..end];
    let base = word.split('.').next().unwrap_or("");
    if let Some((m, _)) = marks.mnemonic.iter().find(|(m, leads)| word.ends_with(m) && leads.contains(&base))
    {
        t.replace_range(end - m.len()..end, "");
    }
    // nvdisasm 11.8 writes some constant operands with a blank, `c[0x0] [0x8]`, and in a
    // cubin's listing a branch target as its label, `` `(.L_x_1) ``.
    let mut t = t.replace("] [", "][");
    let mut from = 0;
    while let Some(start) = t[from..].find("`(").map(|s| from + s) {
        let Some(end) = t[start..].find(')').map(|e| start + e) else { break };
        let Some(&address) = marks.labels.get(&t[start + 2..end]) else {
            from = end;
            continue;
        };
        let address = format!("{address:#x}");
        from = start + address.len();
        t.replace_range(start..=end, &address);
    }
    t.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// `text` as assembly source when it is such a listing ([`convert`]). `None` when `text` is
/// no listing: no instruction line, or not as many word comments as its instructions and
/// control words need ([`Count::is_listing`]).
#[cfg(test)]
pub fn source(
    text: &str,
    word_bits: u32,
    schedule: Option<&Schedule>,
    dialect: usize,
    marks: &Marks,
) -> Option<String> {
    let mut count = Count::default();
    for line in text.lines() {
        count.line(line, word_bits);
    }
    let mut origins = Origins::default();
    count.is_listing(schedule).then(|| convert(text, word_bits, schedule, dialect, marks, &mut origins))
}

/// A listing's text as assembly source: one line per line of the listing, an instruction line
/// becoming its slot (from the control word) and its text, a line of the dialect's byte
/// directive kept (the bytes a cut program ends in), every other line blank, so that errors
/// keep their line numbers. `text` is a whole listing or a piece of one that [`Groups`] cut
/// (its instructions and control words start together); `origins` carries what the pieces
/// before it set. Where an instruction's listed address is not where the instructions before
/// it lead (a listing of several functions starts each at 0, as cuobjdump's of a fatbin and
/// nvdisasm's of a cubin of several kernels do), the line before it, which would be blank, is
/// the dialect's `origin` with the listed address, so the instruction and the labels and
/// branch targets after it are at the addresses the listing shows.
pub fn convert(
    text: &str,
    word_bits: u32,
    schedule: Option<&Schedule>,
    dialect: usize,
    marks: &Marks,
    origins: &mut Origins,
) -> String {
    let words = listed_words(text, word_bits).unwrap_or_default();
    let group = schedule.map_or(1, |s| s.slots as usize);
    let bytes = crate::words::word_bytes(word_bits) as i128;
    let mut out = String::with_capacity(text.len());
    let mut k = 0usize;
    // Where the first blank line since the last instruction stands in `out` (before the
    // labels that name the next instruction).
    let mut blank = None;
    for line in text.lines() {
        // A data section (nvdisasm's listing of a cubin without `-c`) is no source: the
        // checker refuses it or, as `--code-only` asks, leaves it out ([`data_errors`]).
        if let Some((_, _, code)) = section_line(line) {
            origins.data = !code;
        }
        if origins.data {
            blank.get_or_insert(out.len());
            out.push('\n');
            continue;
        }
        if let Some((address, t)) = instruction_line(line) {
            let n = origins.instructions;
            let laid = schedule.map_or(n, |s| s.word_index(n)) as i128 * bytes;
            let listed = u64::from_str_radix(address, 16).ok();
            if let (Some(listed), Some(origin), Some(at)) = (listed, marks.origin, blank) {
                if i128::from(listed) != laid + origins.shift {
                    out.insert_str(at, &format!("{origin} {listed:#x}"));
                    origins.shift = i128::from(listed) - laid;
                }
            }
            blank = None;
            if let Some(s) = schedule {
                let control = words.get(k / group * (group + 1)).copied().unwrap_or(0);
                // A control word no slot reads is written as it is, its group without slots.
                if !s.raw_control.is_empty() && s.read_control(control, group).is_err() {
                    if k.is_multiple_of(group) {
                        out.push_str(&format!("{} {control:#x}\n", s.raw_control));
                    }
                } else {
                    out.push_str(&slot_text(s, s.slot(control, (k % group) as u32), dialect));
                    out.push_str("  ");
                }
            }
            out.push_str(&clean(t, marks));
            k += 1;
            origins.instructions += 1;
        } else {
            let data = marks.byte.and_then(|byte| line.trim_start().strip_prefix(byte));
            if data.is_some_and(|rest| rest.starts_with(char::is_whitespace)) {
                out.push_str(line);
            } else {
                blank.get_or_insert(out.len());
            }
        }
        out.push('\n');
    }
    out
}

/// The label a line of nvdisasm's listing of a cubin defines (`.L_x_3:`, `sum_loop:`,
/// `$kernel$func:`), or `None`.
fn label_line(line: &str) -> Option<&str> {
    let name = line.trim().strip_suffix(':')?;
    let first = name.chars().next()?;
    let ok = |c: char| c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '$');
    (!first.is_ascii_digit() && name.chars().all(ok)).then_some(name)
}

/// The address of each label of a listing (nvdisasm's of a cubin: `.L_x_3:` on a line of
/// its own, used as `` `(.L_x_3) ``), read through once before it is assembled: the address
/// of the word after the instruction line before the label, which where a group starts is its
/// control word's (nvdisasm's `BRA` to a loop's head counts from there). It is worked out from
/// the next instruction line's listed address, which an origin may have moved; a label with no
/// instruction line after it in its section is the section's end (the word after its last).
pub fn label_addresses<S: isa_runtime::directives::Source>(
    groups: &mut Groups<S>,
    target: &dyn Target,
) -> std::collections::BTreeMap<String, u64> {
    let slots = target.schedule().map(|s| s.slots as usize);
    let bytes = crate::words::word_bytes(target.word_bits()) as u64;
    let mut labels = std::collections::BTreeMap::new();
    let (mut pending, mut n, mut last) = (Vec::new(), 0usize, None::<u64>);
    // Labels of data sections (`.L_1:`) label no instruction.
    let mut data = false;
    while let Some(piece) = groups.next_piece() {
        for line in piece.text.lines() {
            if let Some((_, _, code)) = section_line(line) {
                // A label that ends a section (`.L_x_6:`, which `.size pick_twice,(.L_x_6 -
                // pick_twice)` reads) is that section's end, not the next one's first word.
                for name in pending.drain(..) {
                    labels.insert(name, last.map_or(0, |a| a.wrapping_add(bytes)));
                }
                last = None;
                data = !code;
            } else if data {
                continue;
            }
            if let Some((address, _)) = instruction_line(line) {
                if let Ok(a) = u64::from_str_radix(address, 16) {
                    // The first instruction of a group follows its control word.
                    let control = slots.is_some_and(|s| n % s.max(1) == 0);
                    let at = a.wrapping_sub(if control { bytes } else { 0 });
                    for name in pending.drain(..) {
                        labels.insert(name, at);
                    }
                    last = Some(a);
                }
                n += 1;
            } else if let Some(name) = label_line(line) {
                pending.push(name.to_string());
            }
        }
    }
    for name in pending {
        labels.insert(name, last.map_or(0, |a| a.wrapping_add(bytes)));
    }
    groups.rewind();
    labels
}

/// What the pieces of a listing read so far leave to the next ([`convert`]): how many
/// instructions they held, what the last origin written adds to an address laid out, and
/// whether they end in a data section.
#[derive(Debug, Default, Clone, Copy)]
pub struct Origins {
    instructions: usize,
    shift: i128,
    data: bool,
}

/// What lines of a listing hold, counted as they go by: instruction lines and `/* 0x... */`
/// word comments (control words among them).
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Count {
    /// Instruction lines (`/*0008*/ ...`).
    pub instructions: usize,
    /// Word comments.
    pub words: usize,
    /// A word comment holds no word of the target.
    pub bad: bool,
}

impl Count {
    /// Counts one line.
    pub fn line(&mut self, line: &str, word_bits: u32) {
        if instruction_text(line).is_some() {
            self.instructions += 1;
        }
        for w in word_comments(line) {
            match parse_hex(w, word_bits) {
                Ok(_) => self.words += 1,
                Err(_) => self.bad = true,
            }
        }
    }

    /// As many words as the instructions and, on a target with control words, the control
    /// words of their groups need.
    fn whole(&self, schedule: Option<&Schedule>) -> bool {
        let controls = schedule.map_or(0, |s| self.instructions.div_ceil((s.slots as usize).max(1)));
        self.words == self.instructions + controls
    }

    /// The lines counted are a listing that [`source`] reads: instruction lines, each word
    /// comment a word, as many as they need.
    pub fn is_listing(&self, schedule: Option<&Schedule>) -> bool {
        self.instructions > 0 && !self.bad && self.whole(schedule)
    }

    /// The lines counted end whole groups: a piece of a listing may end after them
    /// ([`Groups`]). A group is the instructions one control word schedules and that word
    /// (one instruction and its word without control words).
    fn ends_groups(&self, schedule: Option<&Schedule>) -> bool {
        let slots = schedule.map_or(1, |s| (s.slots as usize).max(1));
        self.instructions > 0 && self.instructions.is_multiple_of(slots) && self.whole(schedule)
    }
}

/// A piece of a listing that [`Groups`] cut: whole lines that end whole groups (the last
/// piece: the rest of the listing).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Piece {
    /// The lines, with their line ends.
    pub text: String,
    /// The number of its first line in the listing (from 1).
    pub line: usize,
    /// Its word comments.
    pub words: usize,
}

/// A listing read a piece at a time, each piece cut after a group's words: after a line where
/// the instruction lines and the word comments read since the last cut make whole groups
/// ([`Count::ends_groups`]: the listing's format as the target's stream declares it, its
/// control word and slots), at the last such line of what `source` handed over. So a piece's
/// instructions pair with its words by position as the whole listing's do, and what is worked
/// out from its words alone (its source, its marks, its unedited lines) is what the whole
/// listing gives for them. Lines that never end whole groups are held until they do (to the
/// end of the listing at worst).
pub struct Groups<S> {
    /// The text, a piece of whole lines at a time.
    pub source: S,
    schedule: Option<&'static Schedule>,
    word_bits: u32,
    /// Lines read and not yet cut off.
    rest: String,
    /// The line number of the first of them.
    line: usize,
    /// The most bytes of text held at once (what was read and not yet handed on).
    pub most_held: usize,
}

impl<S: isa_runtime::directives::Source> Groups<S> {
    /// The listing of `source` for `target`.
    pub fn new(source: S, target: &dyn Target) -> Self {
        Groups {
            source,
            schedule: target.schedule(),
            word_bits: target.word_bits(),
            rest: String::new(),
            line: 1,
            most_held: 0,
        }
    }

    /// Starts again from the beginning.
    pub fn rewind(&mut self) {
        self.source.rewind();
        self.rest.clear();
        self.line = 1;
    }

    /// The next piece; `None` at the end.
    pub fn next_piece(&mut self) -> Option<Piece> {
        loop {
            let more = self.source.piece();
            if let Some(text) = &more {
                self.rest.push_str(text);
            }
            self.most_held = self.most_held.max(self.rest.len());
            if self.rest.is_empty() {
                return None;
            }
            // The end of the last line after which the lines make whole groups.
            let (mut count, mut cut, mut at) = (Count::default(), None, 0);
            for line in self.rest.split_inclusive('\n') {
                at += line.len();
                count.line(line.trim_end_matches(['\n', '\r']), self.word_bits);
                if count.ends_groups(self.schedule) {
                    cut = Some((at, count));
                }
            }
            let (end, words) = match (cut, more) {
                (Some((end, c)), Some(_)) => (end, c.words),
                (_, None) => (self.rest.len(), count.words),
                (None, Some(_)) => continue,
            };
            let rest = self.rest.split_off(end);
            let text = core::mem::replace(&mut self.rest, rest);
            let line = self.line;
            self.line += text.matches('\n').count();
            return Some(Piece { text, line, words });
        }
    }
}

/// A listing as assembly source ([`convert`]), a piece ([`Groups`]) at a time.
pub struct Converted<S> {
    /// The listing's pieces.
    pub groups: Groups<S>,
    schedule: Option<&'static Schedule>,
    word_bits: u32,
    dialect: usize,
    marks: Marks,
    origins: Origins,
}

impl<S: isa_runtime::directives::Source> Converted<S> {
    /// The listing of `source` for `target` in dialect number `dialect`.
    pub fn new(source: S, target: &dyn Target, dialect: usize) -> Self {
        let mut groups = Groups::new(source, target);
        let mut marks = Marks::of(target, dialect);
        marks.labels = label_addresses(&mut groups, target);
        Converted {
            groups,
            schedule: target.schedule(),
            word_bits: target.word_bits(),
            dialect,
            marks,
            origins: Origins::default(),
        }
    }
}

impl<S: isa_runtime::directives::Source> isa_runtime::directives::Source for Converted<S> {
    fn rewind(&mut self) {
        self.groups.rewind();
        self.origins = Origins::default();
    }

    fn piece(&mut self) -> Option<String> {
        let piece = self.groups.next_piece()?;
        let (o, d, m) = (&mut self.origins, self.dialect, &self.marks);
        Some(convert(&piece.text, self.word_bits, self.schedule, d, m, o))
    }
}

/// An error in a listing's marks ([`check_marks`]): line (from 1) and column (from 1) in the
/// listing, length, message, and the line's text.
pub type Wrong = (usize, usize, usize, String, String);

/// A listing's assembled words checked and kept against its text as they come, a piece
/// ([`Groups`]) at a time: once a piece's words are all there, the marks edited into its text
/// are written into its control words ([`write_marks`]), the marks no control word gives are
/// errors ([`check_marks`]), and its unedited lines keep their listed words
/// ([`keep_unedited`]); then its words go on. The text is read a second time, beside the
/// assembler's reading, so only the piece being checked, the one after it (which says whether
/// the first is the last) and the words not yet checked are held.
pub struct Checker<'t, S> {
    groups: Groups<S>,
    target: &'t dyn Target,
    dialect: usize,
    marks: Marks,
    /// The piece whose words are being gathered, and the one after it.
    piece: Option<Piece>,
    next: Option<Piece>,
    /// Words assembled and not yet checked, each with its length where not its own.
    words: std::collections::VecDeque<(u128, Option<usize>)>,
    /// The number of the first of them.
    first: usize,
    /// Whether the next piece's first instruction closes a pair its words open, as listed
    /// before the marks are written ([`write_marks`]) and after ([`check_marks`]).
    paired: (bool, bool),
    /// The most words held at once.
    pub most_held: usize,
    /// The data sections of the listing read so far ([`data_errors`]).
    pub sections: DataSections,
}

impl<'t, S: isa_runtime::directives::Source> Checker<'t, S> {
    /// The listing of `source`, assembled for `target` in dialect number `dialect`; its data
    /// sections are errors, or left out where `code_only` ([`data_errors`]).
    pub fn new(source: S, target: &'t dyn Target, dialect: usize, code_only: bool) -> Self {
        let mut groups = Groups::new(source, target);
        let mut marks = Marks::of(target, dialect);
        marks.labels = label_addresses(&mut groups, target);
        let piece = groups.next_piece();
        let next = groups.next_piece();
        Checker {
            groups,
            target,
            dialect,
            marks,
            piece,
            next,
            words: std::collections::VecDeque::new(),
            first: 0,
            paired: (false, false),
            most_held: 0,
            sections: DataSections { code_only, ..DataSections::default() },
        }
    }

    /// The listing's text as far as it was read: its reader (and its error, if any).
    pub fn source(&self) -> &S {
        &self.groups.source
    }

    /// The most bytes of the listing's text held at once.
    #[cfg(test)]
    pub fn most_text_held(&self) -> usize {
        self.groups.most_held
    }

    /// Takes the next word of the program (with its length where not its own); hands the
    /// words of each piece checked to `out`, and each error to `wrong`.
    pub fn word(
        &mut self,
        word: u128,
        length: Option<usize>,
        out: &mut dyn FnMut(u128, Option<usize>),
        wrong: &mut dyn FnMut(Wrong),
    ) {
        self.words.push_back((word, length));
        self.most_held = self.most_held.max(self.words.len());
        // The last piece takes every word left, known only at the end.
        while let Some(n) = self.piece.as_ref().filter(|_| self.next.is_some()).map(|p| p.words) {
            if self.words.len() < n {
                break;
            }
            self.check(n, false, out, wrong);
        }
    }

    /// The program's end: the last piece checked with the words left.
    pub fn finish(&mut self, out: &mut dyn FnMut(u128, Option<usize>), wrong: &mut dyn FnMut(Wrong)) {
        while self.next.is_some() {
            let n = self.piece.as_ref().map_or(0, |p| p.words).min(self.words.len());
            self.check(n, false, out, wrong);
        }
        self.check(self.words.len(), true, out, wrong);
    }

    /// Checks the current piece with its `n` words and moves on to the next.
    fn check(
        &mut self,
        n: usize,
        last: bool,
        out: &mut dyn FnMut(u128, Option<usize>),
        wrong: &mut dyn FnMut(Wrong),
    ) {
        let piece = core::mem::replace(&mut self.piece, self.next.take());
        self.next = self.groups.next_piece();
        let taken: Vec<(u128, Option<usize>)> = self.words.drain(..n).collect();
        let mut words: Vec<u128> = taken.iter().map(|(w, _)| *w).collect();
        let place = At { first: self.first, last };
        self.first += n;
        if let Some(piece) = piece {
            let (t, d, m) = (self.target, self.dialect, &self.marks);
            write_marks(&piece.text, &mut words, place, &mut self.paired.0, t, d, m);
            let mut errors = data_errors(&piece.text, &mut self.sections);
            errors.extend(check_marks(&piece.text, &words, place, &mut self.paired.1, t, d, m));
            errors.sort_by_key(|e| (e.0, e.1));
            if !errors.is_empty() {
                let lines: Vec<&str> = piece.text.lines().collect();
                for (line, column, length, message) in errors {
                    let text = lines.get(line - 1).copied().unwrap_or("").to_string();
                    wrong((piece.line + line - 1, column, length, message, text));
                }
            }
            // Lines as the disassembler printed them rebuild their own words, even where
            // its text is the text of several.
            keep_unedited(&piece.text, &mut words, place, t, d, m);
        }
        for (w, (_, length)) in words.into_iter().zip(taken) {
            out(w, length);
        }
    }
}

/// The data sections of a listing (nvdisasm's of a cubin without `-c`: `.nv.info`,
/// `.nv.constant0.<kernel>`, ...), read a piece at a time ([`data_errors`]).
#[derive(Debug, Default)]
pub struct DataSections {
    /// Leave them out (`isa asm --code-only`) rather than refuse them.
    pub code_only: bool,
    /// The names of those left out, in order.
    pub left_out: Vec<String>,
    /// Whether the lines read so far end in one.
    inside: bool,
}

/// The errors of a piece of a listing's data (line from 1 in `text`, column from 1, length,
/// message): each data section, at its name in its `.section` line, unless `sections.code_only`
/// leaves it out; and data at an address (`/*0000*/ .byte 0x04`) where instructions are. A
/// listing's data is not rebuilt from its text: nvdisasm writes symbols' numbers in the ELF's
/// symbol table (`.word index@(sum_loop)`) and lengths between its labels, and `isa asm` writes
/// instructions, not an ELF; so the data is refused at its line, never dropped unsaid.
fn data_errors(text: &str, sections: &mut DataSections) -> Vec<(usize, usize, usize, String)> {
    let mut errors = Vec::new();
    for (k, line) in text.lines().enumerate() {
        if let Some((name, at, code)) = section_line(line) {
            sections.inside = !code;
            if code {
                continue;
            }
            if sections.code_only {
                sections.left_out.push(name.to_string());
            } else {
                let message = format!(
                    "`{name}` is a data section, not code: `isa asm` rebuilds a listing's instructions, \
                     not an ELF's other sections; `--code-only` leaves them out (or list the cubin \
                     with `nvdisasm -c`)"
                );
                errors.push((k + 1, at + 1, name.len(), message));
            }
        } else if !sections.inside && data_line(line) {
            let at = line.find("*/").map_or(0, |e| e + 2);
            let at = at + line[at..].len() - line[at..].trim_start().len();
            let length = line[at..].split_whitespace().next().map_or(0, str::len);
            let message = "data at an address among a listing's instructions is not read: \
                           only instruction lines are (nvdisasm lists data in sections of its own)";
            errors.push((k + 1, at + 1, length, message.to_string()));
        }
    }
    errors
}

/// What an instruction line shows of its control word: whether it opens or closes a
/// dual-issued pair, the operands (by position, from 0) each operand mark follows, and the
/// mnemonic mark; with where in the line each is (byte offsets), for errors.
#[derive(Debug, Default)]
struct Shown {
    open: Option<usize>,
    close: Option<usize>,
    /// (operand, mark, offset of the mark).
    after: Vec<(usize, &'static str, usize)>,
    /// The end of each operand (where a mark after it would stand).
    ends: Vec<usize>,
    mnemonic: Option<(&'static str, usize)>,
    /// Where the mnemonic ends.
    mnemonic_end: usize,
}

impl Shown {
    /// The same marks of the flags: after the same operands and the mnemonic.
    fn same_flags(&self, other: &Shown) -> bool {
        let after = |s: &Shown| s.after.iter().map(|(k, m, _)| (*k, *m)).collect::<Vec<_>>();
        after(self) == after(other) && self.mnemonic.map(|m| m.0) == other.mnemonic.map(|m| m.0)
    }

    fn same(&self, other: &Shown) -> bool {
        self.open.is_some() == other.open.is_some()
            && self.close.is_some() == other.close.is_some()
            && self.same_flags(other)
    }

    /// In words: `{`, `.reuse` after operands 1 and 3, `.T` after the mnemonic, `}`.
    fn describe(&self, marks: &Marks) -> String {
        let mut parts = Vec::new();
        if self.open.is_some() {
            parts.push(format!("`{}` (a dual-issued pair opens)", marks.pair.0));
        }
        if let Some((m, _)) = self.mnemonic {
            parts.push(format!("`{m}` after the mnemonic"));
        }
        let mut texts: Vec<&str> = self.after.iter().map(|(_, m, _)| *m).collect();
        texts.dedup();
        for m in texts {
            let ks: Vec<String> =
                self.after.iter().filter(|(_, t, _)| *t == m).map(|(k, _, _)| (k + 1).to_string()).collect();
            let s = if ks.len() == 1 { "" } else { "s" };
            parts.push(format!("`{m}` after operand{s} {}", ks.join(", ")));
        }
        if self.close.is_some() {
            parts.push(format!("`{}` (a dual-issued pair closes)", marks.pair.1));
        }
        if parts.is_empty() {
            "no marks".into()
        } else {
            parts.join(", ")
        }
    }
}

/// Reads what `text` (an instruction line's text after its address) shows of its control
/// word, as [`clean`] finds the marks it drops.
fn shown(text: &str, marks: &Marks) -> Shown {
    let mut out = Shown::default();
    // The word comment ends the text; annotations become blanks, keeping the offsets.
    let end = text.find("/*").unwrap_or(text.len());
    let mut t: Vec<u8> = text.as_bytes()[..end].to_vec();
    let mut i = 0;
    while let Some(start) = find(&t[i..], b"(*").map(|s| s + i) {
        let stop = find(&t[start..], b"*)").map_or(t.len(), |e| start + e + 2);
        t[start..stop].fill(b' ');
        i = stop;
    }
    let t = String::from_utf8(t).unwrap_or_default();
    let (open, close) = (marks.pair.0.as_str(), marks.pair.1.as_str());
    let mut body_start = t.len() - t.trim_start().len();
    if !open.is_empty() && t[body_start..].starts_with(open) {
        let after = &t[body_start + open.len()..];
        if after.starts_with(char::is_whitespace) {
            out.open = Some(body_start);
            body_start += open.len() + (after.len() - after.trim_start().len());
        }
    }
    let mut body_end = t.trim_end().len();
    if !close.is_empty() && t[..body_end].ends_with(close) {
        let before = &t[..body_end - close.len()];
        if before.ends_with(char::is_whitespace) && body_end - close.len() > body_start {
            out.close = Some(body_end - close.len());
            body_end = before.trim_end().len();
        }
    }
    let body = t[..body_end].trim_end_matches(';').trim_end();
    let body_end = body.len().max(body_start);
    // The guard, then the mnemonic.
    let mut at = body_start;
    let word_end = |from: usize| body[from..].find(' ').map_or(body_end, |e| from + e);
    if !marks.guard.is_empty() && body[at..].starts_with(marks.guard.as_str()) {
        at = word_end(at);
        at += body[at..].len() - body[at..].trim_start().len();
    }
    let mnemonic_end = word_end(at.min(body_end));
    out.mnemonic_end = mnemonic_end;
    let word = &body[at.min(mnemonic_end)..mnemonic_end];
    let base = word.split('.').next().unwrap_or("");
    if let Some((m, _)) = marks.mnemonic.iter().find(|(m, leads)| word.ends_with(m) && leads.contains(&base))
    {
        out.mnemonic = Some((m, mnemonic_end - m.len()));
    }
    // Operands: split at commas outside brackets and braces.
    let bytes = body.as_bytes();
    let (mut depth, mut operand) = (0i32, 0usize);
    let mut k = mnemonic_end;
    while k < body_end {
        match bytes[k] {
            b'[' | b'{' | b'(' => depth += 1,
            b']' | b'}' | b')' => depth -= 1,
            b',' if depth == 0 => {
                out.ends.push(body[..k].trim_end().len());
                operand += 1;
            }
            _ => {}
        }
        for m in &marks.operands {
            let follows = bytes.get(k + m.len()).is_none_or(|c| !(c.is_ascii_alphanumeric() || *c == b'_'));
            if body[k..].starts_with(m) && follows {
                out.after.push((operand, m, k));
            }
        }
        k += 1;
    }
    out.ends.push(body_end);
    out
}

fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).position(|w| w == needle)
}

/// The marks a user edited into a listing's text written into its control words: where a
/// line's operand and mnemonic marks (`.reuse`, `.T`) are not what its control word gives, the
/// slot fields the target's marks are declared on (its stream's `mark`s: maxwell.isa's reuse
/// flags, slot bits 19:17) take the values that give the line's marks, the fewest flags
/// changed; so do the fields of the stream's `pair when` where a line opens a pair its control
/// word does not. `listed` are the listing lines as the assembler read them, `words` the
/// assembled program (control words included). Marks no values give (`.reuse` on a
/// destination, a pair's opening mark taken away, which says no stall count) are left for
/// [`check_marks`] to report. Returns how many slots changed.
#[allow(clippy::too_many_arguments)]
pub fn write_marks(
    text: &str,
    words: &mut [u128],
    place: At,
    paired: &mut bool,
    target: &dyn Target,
    dialect: usize,
    marks: &Marks,
) -> usize {
    let Some(schedule) = target.schedule() else { return 0 };
    let mut fields: Vec<u16> = Vec::new();
    for f in schedule.marks.iter().flat_map(|m| m.flags.iter()) {
        if !fields.contains(f) {
            fields.push(*f);
        }
    }
    // Each choice of the flags is tried; more than 8 flags would be too many to try.
    if fields.is_empty() || fields.len() > 8 {
        return 0;
    }
    let slots = schedule.slots as usize;
    let group = slots + 1;
    let ours = listed_lines_from(words, place.first, place.last, paired, target, dialect);
    let lines: Vec<&str> = text.lines().filter_map(instruction_text).collect();
    let mut changed = 0;
    for (k, (theirs, (our_line, raw))) in lines.iter().zip(&ours).enumerate() {
        let Some(our_text) = instruction_text(our_line).filter(|_| !*raw) else { continue };
        let (want, mine) = (shown(theirs, marks), shown(our_text, marks));
        let opens = want.open.is_some() && mine.open.is_none() && !schedule.pair.is_empty();
        if want.same_flags(&mine) && !opens {
            continue;
        }
        let (g, i) = (k / slots, k % slots);
        let at = g * group;
        let Some(chunk) = words.get(at..(at + group).min(words.len())) else { continue };
        let control = chunk[0];
        let mut slot = u128::from(schedule.slot(control, i as u32));
        if opens {
            for &(f, v) in schedule.pair {
                if let Some(field) = schedule.slot.fields.get(usize::from(f)) {
                    isa_runtime::bits::set(&mut slot, field.pieces, v);
                }
            }
        }
        let flag = |slot: u128, f: u16| {
            schedule
                .slot
                .fields
                .get(usize::from(f))
                .is_some_and(|x| isa_runtime::bits::get(slot, x.pieces) != 0)
        };
        let mut best: Option<(u32, u128)> = None;
        for choice in 0u32..1 << fields.len() {
            let mut candidate = slot;
            let mut moved = 0;
            for (b, &f) in fields.iter().enumerate() {
                let on = choice >> b & 1 == 1;
                moved += u32::from(on != flag(slot, f));
                if let Some(field) = schedule.slot.fields.get(usize::from(f)) {
                    isa_runtime::bits::set(&mut candidate, field.pieces, u64::from(on));
                }
            }
            if best.is_some_and(|(m, _)| m <= moved) {
                continue;
            }
            let mut group_words = chunk.to_vec();
            group_words[0] = with_slot(control, i, candidate, schedule.slot_bits);
            let end = place.last && at + group >= words.len();
            let listed = listed_lines_from(&group_words, place.first + at, end, &mut false, target, dialect);
            let fits = listed
                .get(i)
                .and_then(|(l, raw)| instruction_text(l).filter(|_| !*raw))
                .is_some_and(|t| shown(t, marks).same_flags(&want));
            if fits {
                best = Some((moved, candidate));
            }
        }
        let Some((_, candidate)) = best else { continue };
        let control = with_slot(control, i, candidate, schedule.slot_bits);
        if control != words[at] {
            words[at] = control;
            changed += 1;
        }
    }
    changed
}

/// Control word `control` with slot `i` (of `bits` bits) replaced by `slot`.
fn with_slot(control: u128, i: usize, slot: u128, bits: u32) -> u128 {
    let shift = bits * i as u32;
    let mask = ((1u128 << bits) - 1) << shift;
    (control & !mask) | ((slot << shift) & mask)
}

/// The instruction lines the target lists for the groups of a program from word `first` on
/// (`last`: they end the program; `paired`: their first instruction closes a pair, left
/// saying whether the next piece's does), each with whether it is a raw directive (which
/// shows no marks).
fn listed_lines_from(
    words: &[u128],
    first: usize,
    last: bool,
    paired: &mut bool,
    target: &dyn Target,
    dialect: usize,
) -> Vec<(String, bool)> {
    let mut out = Vec::new();
    target.listing_from(words, first, last, dialect, paired, &mut |l| {
        if !l.text.is_empty() {
            out.push((l.text, l.raw));
        }
    });
    out
}

/// A listing's marks checked against the control words it was assembled with: `listed` are
/// the listing lines the assembler read (`source` said it was a listing), `ours` the lines
/// the target lists for the assembled words ([`Target::listing_from`]). The marks are derived
/// from the control words, so one that the control words do not give after [`write_marks`]
/// (a `.reuse` on an operand no flag marks, a pair's opening mark taken away) is an error at
/// the line and column where they part: (line from 1, column from 1, length, message).
pub fn check_marks(
    text: &str,
    words: &[u128],
    place: At,
    paired: &mut bool,
    target: &dyn Target,
    dialect: usize,
    marks: &Marks,
) -> Vec<(usize, usize, usize, String)> {
    let Some(schedule) = target.schedule() else { return Vec::new() };
    let group = schedule.slots as usize + 1;
    let ours = listed_lines_from(words, place.first, place.last, paired, target, dialect);
    let mut errors = Vec::new();
    let listed = text.lines().enumerate().filter_map(|(n, l)| instruction_text(l).map(|t| (n, l, t)));
    for (k, ((n, line, t), (our_line, raw))) in listed.zip(&ours).enumerate() {
        // A word the target lists raw shows none of its marks.
        let Some(our_text) = instruction_text(our_line).filter(|_| !raw) else { continue };
        let (theirs, mine) = (shown(t, marks), shown(our_text, marks));
        if theirs.same(&mine) {
            continue;
        }
        let base = line.len() - t.len();
        // Where they part: the first mark of one that the other lacks.
        let at = if theirs.open.is_some() != mine.open.is_some() {
            theirs.open.unwrap_or(0)
        } else if theirs.mnemonic.map(|m| m.0) != mine.mnemonic.map(|m| m.0) {
            theirs.mnemonic.map_or(theirs.mnemonic_end, |m| m.1)
        } else if let Some(&(_, _, at)) =
            theirs.after.iter().find(|(k, m, _)| !mine.after.iter().any(|(j, n, _)| j == k && n == m))
        {
            at
        } else if let Some(&(k, _, _)) =
            mine.after.iter().find(|(k, m, _)| !theirs.after.iter().any(|(j, n, _)| j == k && n == m))
        {
            theirs.ends.get(k).copied().unwrap_or(t.len())
        } else {
            theirs.close.unwrap_or(t.trim_end().len())
        };
        let control = words.get(k / (group - 1) * group).copied().unwrap_or(0);
        let message = format!(
            "this line shows {}, but its control word 0x{} gives {}: no value of the fields its marks are read from gives that; edit the `/* 0x... */` comment to change them",
            theirs.describe(marks),
            crate::words::to_hex(control, target.word_bits()),
            mine.describe(marks)
        );
        errors.push((n + 1, base + at + 1, 1, message));
    }
    errors
}

#[cfg(test)]
mod tests {
    use super::*;

    /// nvdisasm's marks, as maxwell.isa declares them.
    fn nvdisasm() -> Marks {
        Marks {
            pair: ("{".into(), "}".into()),
            operands: vec![".reuse"],
            mnemonic: vec![(".T", vec!["TLDS"]), (".P", vec!["TXQ"])],
            guard: "@".into(),
            byte: Some(".byte"),
            origin: Some(".origin"),
            labels: Default::default(),
        }
    }

    #[test]
    fn instruction_lines_and_their_text() {
        let clean = |t: &str| clean(t, &nvdisasm());
        assert_eq!(
            instruction_text("        /*0008*/   MOV R1 ;  /* 0x4c98 */"),
            Some("   MOV R1 ;  /* 0x4c98 */")
        );
        assert_eq!(instruction_text("   /* 0x001c4400fe0007f6 */"), None);
        assert_eq!(instruction_text("\t.headerflags @\"EF_CUDA_SM52\""), None);
        assert_eq!(
            clean(
                "         {         ISETP.LT.AND P0, PT, RZ, c[0x0][0x148], PT ;   /* 0x4b6303800527ff07 */"
            ),
            "ISETP.LT.AND P0, PT, RZ, c[0x0][0x148], PT"
        );
        assert_eq!(clean("                   S2R R24, SR_TID.X         }"), "S2R R24, SR_TID.X");
        assert_eq!(clean("  XMAD R6, R4.reuse, R5.reuse, c[0x2] [0x0] ;"), "XMAD R6, R4, R5, c[0x2][0x0]");
        assert_eq!(clean("  @!P0 SYNC      (*\"BRANCH_TARGETS .L_x_1\"*);   /* 0xf0f8 */"), "@!P0 SYNC");
        // The pair marks stand apart; an operand's own braces stay.
        assert_eq!(clean("         {         DEPBAR {0} ;   /* 0xf0f0 */"), "DEPBAR {0}");
        assert_eq!(clean("  DEPBAR.LE SB0, 0x0, {1,0}         }"), "DEPBAR.LE SB0, 0x0, {1,0}");
        // A mnemonic mark only on its encodings' mnemonics: FCMP.T is a comparison.
        assert_eq!(
            clean("  @P1 TLDS.LZ.T RZ, R30, R26, 0x58, 1D, RG ;"),
            "@P1 TLDS.LZ RZ, R30, R26, 0x58, 1D, RG"
        );
        assert_eq!(clean("  FCMP.T R1, R2, R3, R4 ;"), "FCMP.T R1, R2, R3, R4");
        assert_eq!(
            word_comments("/*0010*/ NOP ; /* 0x50b0000000070f00 */").collect::<Vec<_>>(),
            ["0x50b0000000070f00"]
        );
    }

    /// A text handed over `n` lines at a time.
    struct Lines {
        lines: Vec<String>,
        n: usize,
        at: usize,
    }

    impl Lines {
        fn new(text: &str, n: usize) -> Self {
            Lines { lines: text.split_inclusive('\n').map(String::from).collect(), n, at: 0 }
        }
    }

    impl isa_runtime::directives::Source for Lines {
        fn rewind(&mut self) {
            self.at = 0;
        }
        fn piece(&mut self) -> Option<String> {
            let end = self.at.saturating_add(self.n).min(self.lines.len());
            let piece = self.lines[self.at..end].concat();
            self.at = end;
            (!piece.is_empty()).then_some(piece)
        }
    }

    /// What assembling a listing given `n` lines at a time gives: its words (with their
    /// lengths), its mark errors, and the most words and bytes of text the checker held.
    struct Run {
        words: Vec<(u128, Option<usize>)>,
        wrong: Vec<Wrong>,
        ok: bool,
        words_held: usize,
        text_held: usize,
    }

    fn assemble(text: &str, n: usize) -> Run {
        let target = crate::builtin::find_target("maxwell").unwrap();
        let mut converted = Converted::new(Lines::new(text, n), target, 0);
        let mut checker = Checker::new(Lines::new(text, n), target, 0, false);
        let (mut words, mut wrong) = (Vec::new(), Vec::new());
        let mut errors = Vec::new();
        let tables = target.assemble_stream(
            "t",
            &mut converted,
            0,
            &mut isa_runtime::directives::NoIncludes,
            &mut |e, _| errors.push(e.message.clone()),
            &mut |w, l| checker.word(w, l, &mut |w, l| words.push((w, l)), &mut |e| wrong.push(e)),
        );
        checker.finish(&mut |w, l| words.push((w, l)), &mut |e| wrong.push(e));
        assert!(errors.is_empty(), "{errors:?}");
        Run {
            words,
            wrong,
            ok: tables.is_some(),
            words_held: checker.most_held,
            text_held: checker.most_text_held().max(converted.groups.most_held),
        }
    }

    fn data(file: &str) -> String {
        std::fs::read_to_string(format!("{}/../tests/data/maxwell/{file}", env!("CARGO_MANIFEST_DIR")))
            .unwrap()
    }

    /// A listing read in pieces (cut after groups' words, `Groups`) gives what it gives read
    /// whole, word for word and error for error: cuobjdump's listing of our sum kernel with
    /// marks edited in (`.reuse` set and cleared, a pair opened in the last slot of a group and
    /// closed in the first of the next, a `.reuse` on a destination and a pair's `{` taken
    /// away, which no control word gives), and nvdisasm's listings as they are, given 1 to 50
    /// lines at a time and whole.
    #[test]
    fn a_listing_in_pieces_is_the_listing_whole() {
        let sum = data("cuobjdump_sum_sm52.sass");
        let edits = [
            ("ISETP.NE.U32.AND P0, PT, R5.reuse, RZ, PT ;", "ISETP.NE.U32.AND P0, PT, R5, RZ, PT ;"),
            ("SHL R5, R5, 0x2 ;", "SHL R5, R5.reuse, 0x2 ;"),
            ("/*0078*/               @P1 SYNC ;", "/*0078*/         {     @P1 SYNC ;"),
            ("SHR.U32 R3, R0.reuse, 0x1e ;", "SHR.U32 R3.reuse, R0, 0x1e         }"),
            ("{         FFMA R4, R2, R2, R4 ;", "          FFMA R4, R2, R2, R4 ;"),
        ];
        let mut edited = sum.clone();
        for (from, to) in edits {
            assert_eq!(edited.matches(from).count(), 1, "{from}");
            edited = edited.replace(from, to);
        }
        let texts = [
            edited,
            sum,
            data("nvdisasm_sum_sm52.txt"),
            data("nvdisasm_shared_sm53.txt"),
            data("nvdisasm_depbar_sm53.txt"),
            data("nvdisasm_fcmp_nan_sm50.txt"),
        ];
        for (t, text) in texts.iter().enumerate() {
            let whole = assemble(text, usize::MAX);
            assert!(whole.ok);
            // The edited listing: the two marks no control word gives are errors, the rest not.
            assert_eq!(whole.wrong.len(), if t == 0 { 2 } else { 0 }, "{:?}", whole.wrong);
            for n in [1, 2, 3, 7, 50] {
                let pieces = assemble(text, n);
                assert_eq!(pieces.words, whole.words, "text {t}, {n} lines a piece");
                assert_eq!(pieces.wrong, whole.wrong, "text {t}, {n} lines a piece");
                assert!(pieces.text_held < text.len() || text.lines().count() <= 50, "text {t}, {n}");
            }
        }
    }

    /// Issue 14: what the checker holds does not grow with the listing: nvdisasm's listing of
    /// shared texts (23 groups) 1, 4 and 16 times, given 8 lines at a time, holds the same most
    /// words and bytes of text, fewer than one copy's; the words are the listing's.
    #[test]
    fn a_listing_is_held_a_piece_at_a_time() {
        let shared = data("nvdisasm_shared_sm53.txt");
        let mut held = Vec::new();
        for copies in [1, 4, 16] {
            let text = shared.repeat(copies);
            let run = assemble(&text, 8);
            let want = listed_words(&text, 64).unwrap();
            assert_eq!(run.words.iter().map(|(w, _)| *w).collect::<Vec<_>>(), want);
            assert!(run.words_held < 92 && run.text_held < shared.len(), "{copies}: {held:?}");
            held.push((run.words_held, run.text_held));
        }
        assert!(held.windows(2).all(|w| w[0] == w[1]), "{held:?}");
    }

    #[test]
    fn not_a_listing() {
        let m = nvdisasm();
        assert_eq!(source("MOV R1, R2\n", 64, None, 0, &m), None);
        // An instruction line but a missing word comment.
        assert_eq!(source("/*0000*/ NOP ;\n", 64, None, 0, &m), None);
        // Without a schedule each instruction has its word.
        assert_eq!(source("x\n/*0000*/ NOP ; /* 0x1 */\n", 64, None, 0, &m), Some("\nNOP\n".into()));
    }
}
