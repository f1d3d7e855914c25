//! The disassembler: a word's text in a dialect, raw directives for what the dialect cannot
//! show or does not read back, and programs listed line by line.

use super::assemble::{split_line, Statement, StatementError};
use super::dialect::Dialect;
use super::format_index::{format_index, worth_indexing};
use super::isa::Isa;
use super::statement::{read_statement, Reading};
use super::words::{instruction_bytes, own_bits, piece_of_another_length, word_to_bytes};
use crate::bundle::Schedule;
use crate::directives;
use crate::syntax::{self, Context};
use crate::{DecodeError, EncodeError};
use alloc::string::String;
use alloc::vec::Vec;

/// Sets the target's program-end bit on the last of `words`, if its encoding has one.
pub(super) fn finish_program<T: Isa>(words: &mut [u128]) {
    if let Some(last) = words.last_mut() {
        if let Some(mask) = T::match_format(*last).and_then(|i| T::program_end().get(i)) {
            *last |= mask;
        }
    }
}

/// How a word prints in a dialect.
enum Shown {
    /// The dialect's text for it.
    Text(String),
    /// The word decodes, but no arm of the dialect's syntax shows it.
    Hidden {
        /// The word's encoding.
        format: &'static str,
    },
}

/// Prints a word (at address `pc`) in dialect number `dialect`, from its raw bits so views and
/// values the typed instruction rejects (Mesa's `???`) still print where the dialect spells
/// them.
fn show<T: Isa>(word: u128, dialect: usize, pc: u64) -> Result<Shown, DecodeError> {
    let word = own_bits::<T>(word);
    let decoded = T::decode(word);
    // A word the typed instruction holds whole prints through the target's compiled printer.
    // The engine below prints the others from their raw bits: words the typed decoder
    // rejects, and words with don't-care bits set, which a view may show (Mesa's `load_imm`).
    if let Some(insn) = decoded.as_ref().ok().filter(|insn| T::encode(insn) == Ok(word)) {
        let mut out = String::new();
        return Ok(match T::write_text(insn, dialect, pc, &mut out) {
            Ok(()) => {
                let d = dialect_of::<T>(dialect);
                out.push_str(d.end.unwrap_or(""));
                out.push_str(d.separator.unwrap_or(""));
                Shown::Text(out)
            }
            Err(_) => Shown::Hidden { format: T::formats()[T::format_index(insn)].name },
        });
    }
    let Some(index) = T::match_format(word) else {
        return Err(decoded.err().unwrap_or(DecodeError::NoMatch { word }));
    };
    let format = T::formats()[index];
    let d = dialect_of::<T>(dialect);
    if let Some(syntax) = format.syntax.get(dialect) {
        let mut out = String::new();
        if syntax::print(syntax, &format.unpack(word), pc, &mut out) {
            out.push_str(d.end.unwrap_or(""));
            out.push_str(d.separator.unwrap_or(""));
            return Ok(Shown::Text(out));
        }
    }
    decoded?;
    Ok(Shown::Hidden { format: format.name })
}

/// `bytes` as dialect `d`'s byte data directive (`.byte 0x62, 0x00`), with `comment` after the
/// dialect's comment marker when given: how a listing shows bytes that are no whole word (a
/// binary that ends inside an instruction), so they assemble back as they are. `None` if the
/// dialect has no byte directive.
pub fn data_text(d: &Dialect, bytes: &[u8], comment: Option<&dyn core::fmt::Display>) -> Option<String> {
    let directive = d.directives.iter().find(|(_, k)| *k == directives::Directive::Byte)?.0;
    let values: Vec<String> = bytes.iter().map(|b| alloc::format!("0x{b:02x}")).collect();
    let mut out = alloc::format!("{directive} {}{}", values.join(", "), d.separator.unwrap_or(""));
    if let (Some(comment), Some(marker)) = (comment, d.comments.first()) {
        out.push_str(&alloc::format!(" {marker} {comment}"));
    }
    Some(out)
}

/// Dialect number `dialect` of `T` (the default one if there is no such dialect).
pub(super) fn dialect_of<T: Isa>(dialect: usize) -> &'static Dialect {
    T::dialects().get(dialect).unwrap_or(&T::dialects()[0])
}

/// `word` as dialect `d`'s raw directive (`.long 0x...`), with `comment` after the dialect's
/// comment marker when given; `None` if the dialect has no raw directive.
pub(super) fn raw_text<T: Isa>(
    d: &Dialect,
    word: u128,
    comment: Option<&dyn core::fmt::Display>,
) -> Option<String> {
    let raw = d.raw?;
    let digits = if T::lengths().is_empty() {
        T::WORD_BITS.div_ceil(4) as usize
    } else {
        2 * instruction_bytes::<T>(word)
    };
    let mut out =
        alloc::format!("{raw} 0x{word:0digits$x}{}{}", d.end.unwrap_or(""), d.separator.unwrap_or(""));
    if let (Some(comment), Some(marker)) = (comment, d.comments.first()) {
        out.push_str(&alloc::format!(" {marker} {comment}"));
    }
    Some(out)
}

/// Prints a word (at address `pc`) in dialect number `dialect`, from its raw bits so views and
/// values the typed instruction rejects (Mesa's `???`) still print where the dialect spells
/// them. Words the dialect cannot show use its raw directive; words that do not decode and
/// cannot be shown are the decode error.
pub fn disassemble_word<T: Isa>(word: u128, dialect: usize, pc: u64) -> Result<String, DecodeError> {
    match show::<T>(word, dialect, pc)? {
        Shown::Text(text) => Ok(text),
        Shown::Hidden { .. } => Ok(raw_text::<T>(dialect_of::<T>(dialect), word, None).unwrap_or_default()),
    }
}

/// The text of a word (at address `pc`) in dialect number `dialect`, printed from its raw bits
/// as [`disassemble_word`] prints it; `None` when no arm of the dialect's syntax shows the word.
pub fn text_of_word<T: Isa>(word: u128, dialect: usize, pc: u64) -> Result<Option<String>, DecodeError> {
    Ok(match show::<T>(word, dialect, pc)? {
        Shown::Text(text) => Some(text),
        Shown::Hidden { .. } => None,
    })
}

/// A listing's line for one word: its text, which the assembler reads back to the same word
/// wherever the dialect has a raw directive, and why it did not decode. A word the dialect
/// cannot show, undecodable ones included, is the raw directive with the reason as a comment;
/// so is a word whose text assembles to another word (a dialect that does not print every
/// bit, such as Mesa's, or don't-care bits), with the text in the comment. A word that does
/// not decode is reported, and its raw line gives the reason, whether or not the dialect
/// prints it (Mesa's `???`, reserved encodings): every dialect counts the same words as
/// undecodable.
///
/// The program's `last` word is compared as the assembler makes it, with its program-end bit
/// set ([`Isa::program_end`]): a last word without it is listed raw.
///
/// The third value is the word's own text where the line is raw only because that text
/// assembles to another word (bits the dialect does not print): a listing whose comments
/// carry the words shows it, as the vendor's disassembler does, and keeps the word in its
/// comment ([`listing_from`]).
pub(super) fn listed<T: Isa>(
    word: u128,
    dialect: usize,
    pc: u64,
    last: bool,
    reading: &mut Reading,
) -> (String, Option<DecodeError>, Option<String>) {
    let d = dialect_of::<T>(dialect);
    match show::<T>(word, dialect, pc) {
        Ok(Shown::Text(text)) => {
            let error = T::decode(word).err();
            // Read back as the assembler reads a line: a text it would take for a label or cut
            // at a comment marker does not give the word back either.
            let back = match split_line(&text, d) {
                (None, code, _) => {
                    let ctx = Context { pc, labels: &|_| None, ignore_case: d.ignore_case, expression: None };
                    read_statement::<T>(code, dialect, &ctx, reading)
                }
                _ => Err(StatementError { pos: 0, length: 0, message: String::new() }),
            };
            let back = match back {
                Ok(Statement::Instruction(insn)) => T::encode(&insn).ok().map(|mut w| {
                    if last {
                        finish_program::<T>(core::slice::from_mut(&mut w));
                    }
                    w
                }),
                Ok(Statement::Raw(w)) => Some(w),
                Err(_) => None,
            };
            let (why, shared) = match (back, &error) {
                (Some(w), _) if w == word => return (text, error, None),
                // Why the word is no instruction says more than a text that is not it.
                (_, Some(e)) => (alloc::format!("{}", e.reason()), false),
                (Some(w), None) => (alloc::format!("{text} (assembles to {w:#x})"), true),
                (None, None) => (alloc::format!("{text} (does not assemble)"), false),
            };
            let raw = raw_text::<T>(d, word, Some(&why));
            let shared = (shared && raw.is_some()).then(|| text.clone());
            (raw.unwrap_or(text), error, shared)
        }
        Ok(Shown::Hidden { format }) => {
            let why = alloc::format!("{format}: no arm of the {} syntax shows this word", d.name);
            (raw_text::<T>(d, word, Some(&why)).unwrap_or_default(), None, None)
        }
        Err(e) => {
            let text =
                raw_text::<T>(d, word, Some(&e.reason())).unwrap_or_else(|| alloc::format!("<error: {e}>"));
            (text, Some(e), None)
        }
    }
}

/// Prints scheduling slot `slot` in dialect number `dialect` (its fields as numbers when the
/// dialect gives the slot no syntax).
pub fn slot_text(s: &Schedule, slot: u64, dialect: usize) -> String {
    let values = s.slot.unpack(u128::from(slot));
    let mut out = String::new();
    if let Some(syntax) = s.slot.syntax.get(dialect) {
        if syntax::print(syntax, &values, 0, &mut out) {
            return out;
        }
    }
    alloc::format!("{{slot {slot:#x}}}")
}

/// One line of a disassembled program.
#[derive(Debug, Clone, PartialEq)]
pub struct Line {
    /// Byte address of the word.
    pub address: u64,
    /// Its scheduling slot, printed (instructions of targets with control words).
    pub slot: Option<String>,
    /// The instruction; a word the dialect cannot show is its raw directive with the reason
    /// as a comment (`<error: ...>` in a dialect without a raw directive).
    pub text: String,
    /// Why the word did not decode (a control word: why it could not be read as one).
    pub error: Option<DecodeError>,
}

impl core::fmt::Display for Line {
    /// The slot, two spaces and the instruction.
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        if let Some(slot) = &self.slot {
            write!(f, "{slot}  ")?;
        }
        f.write_str(&self.text)
    }
}

/// Prints a whole program in dialect number `dialect`: one line per instruction, with its
/// scheduling slot where the target has control words. A control word that cannot be read is
/// written with the spec's `raw_control` directive before its group's instructions (where the
/// spec has none, listed with its group as raw words), the reason as a comment, and the listing
/// goes on.
pub fn disassemble_program<T: Isa>(words: &[u128], dialect: usize) -> Vec<Line> {
    collect_lines(words.len(), |out| disassemble_program_from::<T>(words, 0, true, dialect, out))
}

/// The lines a streaming lister hands on, gathered.
fn collect_lines(capacity: usize, list: impl FnOnce(&mut dyn FnMut(Line))) -> Vec<Line> {
    let mut lines = Vec::with_capacity(capacity);
    list(&mut |line| lines.push(line));
    lines
}

/// [`disassemble_program`] of a piece of a program, handing each line to `out` as it is made,
/// so a program of any size is listed piece by piece: `words` are the program's words from
/// word number `first` on, which starts a group of a target with control words (a multiple of
/// the group's size) when `words` is not the last piece; `last` says it is.
pub fn disassemble_program_from<T: Isa>(
    words: &[u128],
    first: usize,
    last: bool,
    dialect: usize,
    out: &mut dyn FnMut(Line),
) {
    let Some(s) = T::schedule() else {
        return disassemble_words_from::<T>(words, &[], first, last, dialect, out);
    };
    let bytes = u64::from(T::WORD_BITS.div_ceil(8));
    let d = dialect_of::<T>(dialect);
    let group = s.slots as usize + 1;
    let index = worth_indexing(words.len()).then(|| format_index::<T>(dialect));
    let mut reading = Reading::indexed(index.as_deref());
    for (g, chunk) in words.chunks(group).enumerate() {
        let address = |i: usize| (first + g * group + i) as u64 * bytes;
        let (control, instructions) = (chunk[0], &chunk[1..]);
        let raw = |word: u128, why: &dyn core::fmt::Display| {
            raw_text::<T>(d, word, Some(why)).unwrap_or_else(|| alloc::format!("<error: {why}>"))
        };
        match s.read_control(control, instructions.len()) {
            Ok(slots) if !instructions.is_empty() => {
                for (i, (word, slot)) in instructions.iter().zip(slots).enumerate() {
                    let (text, error, _) = listed::<T>(*word, dialect, address(i + 1), false, &mut reading);
                    let slot = Some(slot_text(s, slot, dialect));
                    out(Line { address: address(i + 1), slot, text, error });
                }
            }
            // A control word at the very end has no instruction to carry its slots.
            Ok(_) => {
                let text = raw(control, &"a control word with no instruction after it");
                out(Line { address: address(0), slot: None, text, error: None });
            }
            // Where the spec has a directive writing the control word as it is, the group is
            // that directive (the reason in its comment) and its instructions without slots.
            Err(e) if !s.raw_control.is_empty() && !instructions.is_empty() => {
                let digits = T::WORD_BITS.div_ceil(4) as usize;
                let mut text = alloc::format!("{} 0x{control:0digits$x}", s.raw_control);
                if let Some(marker) = d.comments.first() {
                    text.push_str(&alloc::format!(" {marker} {}", e.reason()));
                }
                out(Line { address: address(0), slot: None, text, error: Some(e) });
                for (i, word) in instructions.iter().enumerate() {
                    let (text, error, _) = listed::<T>(*word, dialect, address(i + 1), false, &mut reading);
                    out(Line { address: address(i + 1), slot: None, text, error });
                }
            }
            Err(e) => {
                out(Line {
                    address: address(0),
                    slot: None,
                    text: raw(control, &e.reason()),
                    error: Some(e),
                });
                for (i, word) in instructions.iter().enumerate() {
                    let text = raw(*word, &"in the group of a control word that cannot be read");
                    out(Line { address: address(i + 1), slot: None, text, error: None });
                }
            }
        }
    }
}

/// Prints words that are all instructions (no control words, whatever the target) in dialect
/// number `dialect`, one line per word.
pub fn disassemble_words<T: Isa>(words: &[u128], dialect: usize) -> Vec<Line> {
    collect_lines(words.len(), |out| disassemble_words_from::<T>(words, &[], 0, true, dialect, out))
}

/// Prints a byte stream of instructions that differ in length, split into its pieces as
/// [`split_pieces`](super::split_pieces) reads them, in dialect number `dialect`: [`disassemble_words_from`] with
/// each piece's length.
pub fn disassemble_pieces<T: Isa>(pieces: &[(u128, usize)], dialect: usize) -> Vec<Line> {
    let (words, lengths): (Vec<u128>, Vec<usize>) = pieces.iter().copied().unzip();
    collect_lines(words.len(), |out| disassemble_words_from::<T>(&words, &lengths, 0, true, dialect, out))
}

/// [`disassemble_words`] of the words from word number `first` on, handing each line to `out`;
/// `last`: the words end the program. Where instructions differ in length, `first` is the
/// byte address of the first word and `lengths` the words' lengths in bytes as the stream
/// held them ([`split_pieces`](super::split_pieces); a word without one is as long as its instruction): a piece
/// whose word says another length — its instruction's length rule reads bits past the
/// piece — would assemble to other bytes, text and raw directive alike, so it lists as the
/// dialect's byte directive with the reason, which the assembler writes as it is.
pub fn disassemble_words_from<T: Isa>(
    words: &[u128],
    lengths: &[usize],
    first: usize,
    last: bool,
    dialect: usize,
    out: &mut dyn FnMut(Line),
) {
    let bytes = u64::from(T::WORD_BITS.div_ceil(8));
    // Instructions of different lengths: `first` is the piece's byte address.
    let variable = !T::lengths().is_empty();
    let mut address = if variable { first as u64 } else { first as u64 * bytes };
    let index = worth_indexing(words.len()).then(|| format_index::<T>(dialect));
    let mut reading = Reading::indexed(index.as_deref());
    for (i, word) in words.iter().enumerate() {
        let own = instruction_bytes::<T>(*word);
        let length = if variable { lengths.get(i).copied().unwrap_or(own) } else { bytes as usize };
        let data = (variable && length != own).then(|| {
            let mut piece = Vec::with_capacity(length);
            word_to_bytes(*word, length, true, &mut piece);
            let why = piece_of_another_length(length, own);
            let error = DecodeError::NoMatchBytes { bytes: *word, length: length as u8 };
            (data_text(dialect_of::<T>(dialect), &piece, Some(&why)), error)
        });
        let (text, error) = match data {
            Some((Some(text), error)) => (text, Some(error)),
            // The program's last word reads back with the program-end bit the assembler sets
            // there. (A dialect without a byte directive shows a piece of another length as
            // its word: the best it can.)
            _ => {
                let (text, error, _) =
                    listed::<T>(*word, dialect, address, last && i + 1 == words.len(), &mut reading);
                (text, error)
            }
        };
        out(Line { address, slot: None, text, error });
        address += if variable { length as u64 } else { bytes };
    }
}

/// Prints `insn` (at address `pc`) in dialect number `dialect`. Its word is the dialect's raw
/// directive where no syntax shows it, and bare hex (`0x...`) in a dialect without one: text,
/// never an error message standing in for an instruction.
pub fn disassemble<T: Isa>(insn: &T::Instruction, dialect: usize, pc: u64) -> Result<String, EncodeError> {
    let word = T::encode(insn)?;
    Ok(match disassemble_word::<T>(word, dialect, pc) {
        Ok(text) if !text.is_empty() => text,
        _ => {
            raw_text::<T>(dialect_of::<T>(dialect), word, None).unwrap_or_else(|| alloc::format!("{word:#x}"))
        }
    })
}
