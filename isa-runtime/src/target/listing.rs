//! Vendor-style listings (`listing { ... }` in a dialect): addresses, word comments aligned at
//! one column, control words and dual-issued pairs, as nvdisasm prints them.

use super::dialect::ListingStyle;
use super::disasm::{dialect_of, listed, raw_text};
use super::format_index::{format_index, worth_indexing};
use super::isa::Isa;
use super::statement::Reading;
use super::words::own_bits;
use crate::bundle::Schedule;
use crate::syntax;
use crate::DecodeError;
use alloc::string::String;
use alloc::vec::Vec;

/// Lists a piece of a program in dialect number `dialect`'s listing style
/// ([`ListingStyle`]), as NVIDIA's `nvdisasm -hex` prints one: every line with its address
/// and word, control words in comments of their own, and what the control words imply shown
/// on the text: the schedule's marks ([`crate::bundle::SlotMark`], nvdisasm's `.reuse`) and
/// the dual-issued pairs. Each line goes to `out` with the error of a word that did not
/// decode. `words` start a group (word number `first`; `last`: they end the program);
/// `paired` says the piece's first instruction closes a pair the last piece opened, and is
/// left saying it for the next piece. A word that prints no text is the dialect's raw
/// directive, as in [`disassemble_program_from`](super::disassemble_program_from). Nothing is listed for a target without
/// control words or a dialect without a listing style.
pub fn listing_from<T: Isa>(
    words: &[u128],
    first: usize,
    last: bool,
    dialect: usize,
    paired: &mut bool,
    out: &mut dyn FnMut(ListingLine),
) {
    let (Some(s), Some(style)) = (T::schedule(), dialect_of::<T>(dialect).listing) else { return };
    let d = dialect_of::<T>(dialect);
    let bytes = u64::from(T::WORD_BITS.div_ceil(8));
    let alone = |word: u128| ListingLine {
        text: String::new(),
        word: Some(word),
        error: None,
        raw: false,
        guard: 0,
        note: String::new(),
    };
    let group = s.slots as usize + 1;
    let index = worth_indexing(words.len()).then(|| format_index::<T>(dialect));
    let mut reading = Reading::indexed(index.as_deref());
    let last_word = words.len().saturating_sub(1);
    for (g, chunk) in words.chunks(group).enumerate() {
        let at = |i: usize| first + g * group + i;
        let (control, instructions) = (chunk[0], &chunk[1..]);
        out(alone(control));
        let slots = match s.read_control(control, instructions.len()) {
            // A control word the spec writes as it is (`raw_control`) lists its slots' bits as
            // they are: nvdisasm 11.8 ignores bit 63 of a Maxwell control word.
            Err(_) if !s.raw_control.is_empty() => {
                Ok((0..instructions.len() as u32).map(|i| s.slot(control, i)).collect())
            }
            slots => slots,
        };
        if let Err(e) = &slots {
            let why = e.reason();
            for (i, word) in instructions.iter().enumerate() {
                let text = raw_text::<T>(d, *word, Some(&why)).unwrap_or_default();
                let (text, note) = apart(d, text);
                let (line, guard) = listing_line(style, at(i + 1) as u64 * bytes, "", &text, false, false);
                out(ListingLine { text: line, word: Some(*word), error: None, raw: true, guard, note });
            }
            *paired = false;
            continue;
        }
        let slots = slots.unwrap_or_default();
        for (i, (word, slot)) in instructions.iter().zip(slots).enumerate() {
            let pc = at(i + 1) as u64 * bytes;
            let end = last && g * group + i + 1 == last_word;
            // A word whose text is another's too shows that text here, as nvdisasm prints it:
            // the word comment holds its bits, and the listing reader keeps them for a line
            // left as it is (isa-cli `listing::keep_unedited`).
            let (text, error, shared) = listed::<T>(*word, dialect, pc, end, &mut reading);
            let close = core::mem::take(paired);
            let open = !close && s.pairs(slot);
            *paired = open;
            let shown =
                marked::<T>(*word, shared.as_deref().unwrap_or(&text), slot, s, dialect, pc, style.guard);
            let (body, decorated) = match &shown {
                Some(t) => (t.as_str(), true),
                None => (text.as_str(), false),
            };
            let close = close && decorated;
            let end_text = if decorated && !close {
                let end = match style.end {
                    Some((e, quiet)) if quiet == slot => e,
                    _ => d.end.unwrap_or(""),
                };
                alloc::format!("{end}{}", d.separator.unwrap_or(""))
            } else {
                String::new()
            };
            let (body, note) =
                if decorated { (String::from(body), String::new()) } else { apart(d, String::from(body)) };
            let (line, guard) = listing_line(style, pc, &end_text, &body, open, close);
            if close {
                out(ListingLine { text: line, word: None, error, raw: false, guard, note });
                out(alone(*word));
            } else {
                out(ListingLine { text: line, word: Some(*word), error, raw: !decorated, guard, note });
            }
        }
    }
}

/// One line of a listing ([`listing_from`]): its text (empty on a word's own line) and the
/// word its comment holds, if any.
#[derive(Debug, Clone, PartialEq)]
pub struct ListingLine {
    /// The text before the word comment.
    pub text: String,
    /// The word in the line's comment.
    pub word: Option<u128>,
    /// Why the word did not decode.
    pub error: Option<DecodeError>,
    /// The text is the dialect's raw directive (with its reason), which the alignment of the
    /// word comments leaves out.
    pub raw: bool,
    /// Characters of the guard (and the blank after it) in the guard's field of `text`, which
    /// the alignment of the word comments counts once more ([`align_listing`]).
    pub guard: usize,
    /// A raw line's reason (the dialect's comment marker and the text), written after the word
    /// comment so that the comment marker does not hide it from the listing reader.
    pub note: String,
}

/// A raw directive's text and its reason (from the dialect's comment marker on), apart.
fn apart(d: &crate::target::Dialect, text: String) -> (String, String) {
    let at = d.comments.first().and_then(|marker| text.find(&alloc::format!(" {marker} ")));
    match at {
        Some(at) => (String::from(&text[..at]), String::from(&text[at..])),
        None => (text, String::new()),
    }
}

/// Writes listing lines with their word comments at one column, as nvdisasm aligns them:
/// `style.words.0` blanks after the longest text with a word, and not left of the end of the
/// longest text without one (raw directives, which the disassembler does not print, left
/// out); each comment is `style.words.1`, the word in `word_bits / 4` hex digits after
/// `0x`, and `style.words.2`. A text's length counts its guard twice: nvdisasm 11.8 measures
/// the columns before the text and then the whole instruction, guard included, though the
/// guard stands in those columns (`@!P0 ` puts every comment 5 columns further right when its
/// line is the longest; research §G.7).
///
/// With `style.widen` (`???`), a text holding it after a blank has that blank widened so that
/// it starts where the longest text ends: each text measured from its mnemonic, its guard
/// added, and such a text only up to that blank. Its comment stands one blank nearer, its guard
/// counted once. nvdisasm 11.8 so prints `DEPBAR.LE ???6, 0x3;` (a scoreboard above 5): it
/// measures `???6` and what follows as nothing, then pads it out to the widest (research §G.7).
pub fn align_listing(lines: &[ListingLine], style: &ListingStyle, word_bits: u32, out: &mut dyn FnMut(&str)) {
    let widened = widen_listing(lines, style);
    let lines: &[ListingLine] = widened.as_deref().unwrap_or(lines);
    let marked = |l: &ListingLine| widens(l, style);
    let width = |l: &ListingLine| l.text.chars().count() + if marked(l) { 0 } else { l.guard };
    let slack = |l: &ListingLine| (style.words.0 as usize).saturating_sub(usize::from(marked(l)));
    let with = lines
        .iter()
        .filter(|l| l.word.is_some() && !l.text.is_empty() && !l.raw)
        .map(|l| width(l) + slack(l))
        .max();
    let without = lines.iter().filter(|l| l.word.is_none() && !l.raw).map(width).max().unwrap_or(0);
    let column = with.unwrap_or(0).max(without);
    let digits = word_bits.div_ceil(4) as usize;
    let mut line = String::new();
    for l in lines {
        line.clear();
        line.push_str(&l.text);
        if let Some(word) = l.word {
            // A raw line, left out of the alignment, still keeps its comment apart.
            let least = if l.raw { slack(l) } else { 0 };
            let blanks = column.saturating_sub(l.text.chars().count()).max(least);
            line.push_str(&" ".repeat(blanks));
            line.push_str(&alloc::format!("{}0x{word:0digits$x}{}", style.words.1, style.words.2));
        }
        line.push_str(&l.note);
        out(&line);
    }
}

/// The lines with `style.widen`'s blanks widened ([`align_listing`]), or `None` when no line
/// holds it.
fn widen_listing(lines: &[ListingLine], style: &ListingStyle) -> Option<Vec<ListingLine>> {
    let marker = alloc::format!(" {}", style.widen);
    let marked = |l: &ListingLine| widens(l, style);
    if !lines.iter().any(marked) {
        return None;
    }
    // Where the mnemonic starts: after the address's closing text and the guard's field.
    let start = |l: &ListingLine| {
        let a1 = style.address.1;
        l.text.find(a1).map(|at| l.text[..at + a1.len()].chars().count() + style.column as usize)
    };
    let measured = |l: &ListingLine| {
        let end = if marked(l) { l.text.find(marker.as_str())? + 1 } else { l.text.len() };
        Some(l.text[..end].chars().count().checked_sub(start(l)?)? + l.guard)
    };
    let longest = lines.iter().filter(|l| l.word.is_some() && !l.raw).filter_map(measured).max().unwrap_or(0);
    let widened = lines
        .iter()
        .map(|l| {
            let (Some(from), Some(at)) = (start(l).filter(|_| marked(l)), l.text.find(marker.as_str()))
            else {
                return l.clone();
            };
            let before = l.text[..at].chars().count().saturating_sub(from);
            let blanks = longest.saturating_sub(before).max(1);
            let text = alloc::format!("{}{}{}", &l.text[..at], " ".repeat(blanks), &l.text[at + 1..]);
            ListingLine { text, ..l.clone() }
        })
        .collect();
    Some(widened)
}

/// Whether `l` holds `style.widen` after a blank.
fn widens(l: &ListingLine, style: &ListingStyle) -> bool {
    !style.widen.is_empty() && !l.raw && l.text.contains(alloc::format!(" {}", style.widen).as_str())
}

/// One instruction line of a listing: indent, address, the field holding the pair's opening
/// mark and the guard, the text and its end (or the pair's closing mark); with the characters
/// of the guard and its blank (0 without a guard).
fn listing_line(
    style: &ListingStyle,
    pc: u64,
    end: &str,
    text: &str,
    open: bool,
    close: bool,
) -> (String, usize) {
    let (a0, a1, digits) = style.address;
    let mut field: Vec<char> = alloc::vec![' '; style.column as usize];
    let (guard, rest) = match text.split_once(' ') {
        Some((g, rest)) if !style.guard.is_empty() && g.starts_with(style.guard) => (g, rest),
        _ => ("", text),
    };
    if open {
        for (k, c) in style.open.0.chars().enumerate() {
            if let Some(x) = field.get_mut(style.open.1 as usize + k) {
                *x = c;
            }
        }
    }
    if !guard.is_empty() {
        let g: Vec<char> = alloc::format!("{guard} ").chars().collect();
        let from = field.len().saturating_sub(g.len());
        field.truncate(from);
        field.extend(g);
    }
    let field: String = field.into_iter().collect();
    let tail = if close {
        alloc::format!("{}{}", " ".repeat(style.close.1 as usize), style.close.0)
    } else {
        end.into()
    };
    let line = alloc::format!(
        "{}{a0}{pc:0w$x}{a1}{field}{rest}{tail}",
        " ".repeat(style.indent as usize),
        w = digits as usize
    );
    (line, if guard.is_empty() { 0 } else { guard.chars().count() + 1 })
}

/// The text of instruction `word` with the marks its slot implies ([`crate::bundle::SlotMark`]),
/// without the dialect's end; `None` when `listed` is not the word's printed text (a raw
/// directive) or the word's syntax cannot say where its operands are.
fn marked<T: Isa>(
    word: u128,
    listed: &str,
    slot: u64,
    s: &Schedule,
    dialect: usize,
    pc: u64,
    guard: &str,
) -> Option<String> {
    let d = dialect_of::<T>(dialect);
    let word = own_bits::<T>(word);
    let format = T::formats()[T::match_format(word)?];
    let syntax = format.syntax.get(dialect)?;
    let mut text = String::new();
    let values = format.unpack(word);
    let (complete, shown) = syntax::print_showing(syntax, &values, pc, &mut text);
    let ending = alloc::format!("{}{}", d.end.unwrap_or(""), d.separator.unwrap_or(""));
    if !complete || listed.strip_suffix(ending.as_str()) != Some(text.as_str()) {
        return None;
    }
    let Some(mark) = s.mark_for(format, &values) else { return Some(text) };
    let flags = s.slot.unpack(u128::from(slot));
    let set = |k: usize| mark.flags.get(k).and_then(|f| flags.get(usize::from(*f))).is_some_and(|v| *v != 0);
    let mut inserts: Vec<(usize, &str)> = Vec::new();
    if mark.mnemonic {
        // The text numbered by the first flags' value, after the mnemonic (the first word
        // after the guard).
        let bits = mark.texts.len().trailing_zeros() as usize;
        let value = (0..bits).filter(|k| set(*k)).map(|k| 1usize << k).sum::<usize>();
        let start = match text.split_once(' ') {
            Some((g, _)) if !guard.is_empty() && g.starts_with(guard) => g.len() + 1,
            _ => 0,
        };
        let end = text[start..].find(' ').map_or(text.len(), |e| start + e);
        if let Some(t) = mark.texts.get(value).filter(|t| !t.is_empty()) {
            inserts.push((end, t));
        }
    } else {
        for k in (0..mark.flags.len()).filter(|k| set(*k)) {
            let Some(mark_text) = mark.texts.get(k).or(mark.texts.last()) else { continue };
            let field = mark.operands.get(k).and_then(|o| format.field(o));
            let Some(at) = field.and_then(|f| shown.get(f).copied().flatten()) else { continue };
            inserts.push((operand_end(&text, at), mark_text));
        }
    }
    inserts.sort_by_key(|i| core::cmp::Reverse(i.0));
    for (at, t) in inserts {
        text.insert_str(at, t);
    }
    Some(text)
}

/// Where the operand holding offset `at` of `text` ends: at the next `,` outside brackets
/// (or the text's end), blanks before it left out.
fn operand_end(text: &str, at: usize) -> usize {
    let mut depth = 0i32;
    let mut end = text.len();
    for (i, c) in text[at..].char_indices() {
        match c {
            '[' | '(' | '{' => depth += 1,
            ']' | ')' | '}' => depth -= 1,
            ',' if depth <= 0 => {
                end = at + i;
                break;
            }
            _ => {}
        }
    }
    at + text[at..end].trim_end().len()
}
