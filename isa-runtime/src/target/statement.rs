//! Reading one statement: trying the formats the index gives, the quick reader before the
//! search, the parser's memory kept between programs, and the explanation of a statement that
//! no format reads (unknown mnemonic with the nearest ones, or the operand that does not fit).

use super::assemble::{Statement, StatementError};
use super::format_index::{FormatIndex, Shape};
use super::isa::Isa;
use crate::format::Format;
use crate::syntax::{self, Context};
use alloc::string::{String, ToString};
use alloc::vec::Vec;

/// Assembles one instruction's text; on failure says where and why. A raw directive's word is
/// decoded into its typed instruction.
pub fn assemble_one<T: Isa>(
    text: &str,
    dialect: usize,
    pc: u64,
    labels: &dyn Fn(&str) -> Option<u64>,
    ignore_case: bool,
) -> Result<T::Instruction, StatementError> {
    match assemble_statement::<T>(text, dialect, pc, labels, ignore_case)? {
        Statement::Instruction(insn) => Ok(insn),
        Statement::Raw(word) => T::decode(word).map_err(|e| StatementError::at(0, e.to_string())),
    }
}

/// Reads a raw directive's operand: one hex word (`0x` prefix and `_` separators allowed)
/// that fits in the target's words; on failure the byte offset in `rest` and a message.
fn raw_word<T: Isa>(raw: &str, rest: &str) -> Result<u128, StatementError> {
    let operand = rest.trim();
    let at = rest.len() - rest.trim_start().len();
    let digits = operand.strip_prefix("0x").or_else(|| operand.strip_prefix("0X")).unwrap_or(operand);
    let error = |message: String| StatementError { pos: at, length: operand.len(), message };
    let expected = || error(alloc::format!("`{raw}` takes one hexadecimal word"));
    if at == 0 || !digits.chars().any(|c| c.is_ascii_hexdigit()) {
        return Err(expected());
    }
    let mut word = 0u128;
    for c in digits.chars().filter(|c| *c != '_') {
        let digit = c.to_digit(16).ok_or_else(expected)?;
        if word >> 124 != 0 || (T::WORD_BITS < 128 && ((word << 4) | u128::from(digit)) >> T::WORD_BITS != 0)
        {
            return Err(error(alloc::format!("`{operand}` does not fit in a {}-bit word", T::WORD_BITS)));
        }
        word = (word << 4) | u128::from(digit);
    }
    Ok(word)
}

/// Reads one statement's text: the raw directive's word as written, or an instruction; on
/// failure says where and why.
pub fn assemble_statement<T: Isa>(
    text: &str,
    dialect: usize,
    pc: u64,
    labels: &dyn Fn(&str) -> Option<u64>,
    ignore_case: bool,
) -> Result<Statement<T::Instruction>, StatementError> {
    let ctx = Context { pc, labels, ignore_case, expression: None };
    read_statement::<T>(text, dialect, &ctx, &mut Reading::default())
}

/// [`assemble_statement`] trying only the formats `index` (of the same target and dialect)
/// gives for the text: the same statement, found sooner. For reading many statements.
pub fn assemble_statement_with<T: Isa>(
    text: &str,
    dialect: usize,
    pc: u64,
    labels: &dyn Fn(&str) -> Option<u64>,
    index: &FormatIndex,
) -> Result<Statement<T::Instruction>, StatementError> {
    let ctx = Context { pc, labels, ignore_case: index.ignore_case, expression: None };
    read_statement::<T>(text, dialect, &ctx, &mut Reading::indexed(Some(index)))
}

/// The mnemonics of dialect number `dialect`: what its encodings' syntaxes can start with
/// ([`syntax::Syntax::mnemonics`]), in the order of the encodings.
pub fn mnemonics<T: Isa>(dialect: usize) -> Vec<&'static str> {
    let mut out = Vec::new();
    for syntax in T::formats().iter().filter_map(|f| f.syntax.get(dialect)) {
        syntax.mnemonics(&mut out);
    }
    out
}

/// What reading the statements of a program keeps from one statement to the next.
#[derive(Default)]
pub(super) struct Reading<'a> {
    /// The dialect's formats by how their texts start (none: every format is tried).
    index: Option<&'a FormatIndex>,
    /// The formats that may read the statement at hand, a bit each.
    candidates: Vec<u64>,
    /// Working memory of the index.
    spare: Vec<u64>,
    /// The dialect's [`mnemonics`], once an error has needed them, for the next error.
    mnemonics: Option<Vec<&'static str>>,
    /// The parser's tables, for the next parse.
    pub(super) scratch: syntax::Scratch,
    /// For each format (by index), how many statements the quick reader left to the search,
    /// how many it read, and how many it was not asked since it last was: a format it mostly
    /// leaves (VideoCore IV's ALU syntax, read many ways) is seldom asked, so its walk is not
    /// paid on top of the search's.
    unsure: Vec<(u32, u32, u32)>,
}

/// How many more statements than it read the quick reader may leave a format to the search
/// before it is no longer asked for that format ([`Reading::unsure`]): its walk is paid on top
/// of the search's for every statement it leaves (VideoCore IV's golden program, criterion:
/// asking while it read a quarter as many was 25 % slower than before the walk followed the
/// search's order, when it was soon no longer asked). Once it is not asked, every
/// `UNSURE_LIMIT`-th statement of the format still asks it, so a program whose first statements
/// of a format happen to be unsure ones (VideoCore IV's `mov r0, 5`, which vc4asm reads as
/// `ldi`) does not leave all the rest to the search.
const UNSURE_LIMIT: u32 = 8;

impl<'a> Reading<'a> {
    /// For reading many statements through `index` (none: every format is tried).
    pub(super) fn indexed(index: Option<&'a FormatIndex>) -> Self {
        Reading { index, ..Reading::default() }
    }
}

/// The parser's working memory for a program: with the `std` feature one a program before
/// left ([`give_back_scratch`]), whose name-table indexes and static answers (what each item
/// list may spell out, what each condition reads) hold for every target, as they are keyed by
/// the static descriptions' addresses; else a new one.
pub(super) fn take_scratch() -> syntax::Scratch {
    #[cfg(feature = "std")]
    if let Some(scratch) = SCRATCH.lock().unwrap_or_else(std::sync::PoisonError::into_inner).pop() {
        return scratch;
    }
    syntax::Scratch::default()
}

/// Keeps `scratch` for the next program ([`take_scratch`]).
pub(super) fn give_back_scratch(scratch: syntax::Scratch) {
    #[cfg(feature = "std")]
    {
        let mut kept = SCRATCH.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        // One for each program read at once, up to a few threads' worth.
        if kept.len() < 8 {
            kept.push(scratch);
        }
    }
    #[cfg(not(feature = "std"))]
    drop(scratch);
}

/// Working memory kept from one program to the next ([`take_scratch`]).
#[cfg(feature = "std")]
static SCRATCH: std::sync::Mutex<Vec<syntax::Scratch>> = std::sync::Mutex::new(Vec::new());

/// [`assemble_statement`] with what the statements before it left in `reading`.
pub(super) fn read_statement<T: Isa>(
    text: &str,
    dialect: usize,
    ctx: &Context,
    reading: &mut Reading,
) -> Result<Statement<T::Instruction>, StatementError> {
    let ignore_case = ctx.ignore_case;
    // The dialect's statement terminator (nvdisasm's ` ;`) may end the text.
    let end = T::dialects().get(dialect).and_then(|d| d.end).map(str::trim).filter(|e| !e.is_empty());
    let text = end.and_then(|e| text.trim_end().strip_suffix(e)).map_or(text, str::trim_end);
    // A printed line ends with the dialect's separator (the assembler's statements do not).
    let separator = T::dialects().get(dialect).and_then(|d| d.separator);
    let text = separator.and_then(|e| text.strip_suffix(e)).map_or(text, str::trim_end);
    if let Some(raw) = T::dialects().get(dialect).and_then(|d| d.raw) {
        if let Some(rest) = text.strip_prefix(raw) {
            return raw_word::<T>(raw, rest)
                .map(Statement::Raw)
                .map_err(|e| StatementError { pos: raw.len() + e.pos, ..e });
        }
    }
    // `at`: the format's index, where its packing is kept.
    let decode = |format: &Format, at: Option<usize>, values: Vec<u64>, scratch: &mut syntax::Scratch| {
        let mut word = match at {
            Some(i) => {
                let (of, packings) = &mut scratch.packings;
                let formats = T::formats().as_ptr() as usize;
                if *of != formats {
                    *of = formats;
                    packings.clear();
                }
                if packings.len() <= i {
                    packings.resize(T::formats().len().max(i + 1), None);
                }
                packings[i].get_or_insert_with(|| format.packing()).pack(format, &values)
            }
            None => format.pack(&values),
        };
        syntax::give_back(scratch, values);
        // The assembler picks the shortest length that holds the instruction (the search for
        // the format's length only where lengths differ).
        let lengths = T::lengths();
        if let Some(length) = (!lengths.is_empty())
            .then(|| T::formats().iter().position(|f| core::ptr::eq(*f, format)))
            .flatten()
            .and_then(|i| lengths.get(i))
        {
            word = length.shortest(word);
        }
        T::decode(word).map(Statement::Instruction).map_err(|e| StatementError::at(0, e.to_string()))
    };
    let syntaxes = || T::formats().iter().filter_map(|f| Some((*f, f.syntax.get(dialect)?)));
    // Formats whose syntax cannot start the text, or whose literals it lacks, cannot match:
    // only the others are parsed...
    let indexed = reading.index.is_some();
    let scratch = &mut reading.scratch;
    let unsure = &mut reading.unsure;
    unsure.resize(T::formats().len(), (0, 0, 0));
    let mut first = |i: usize, format: &'static Format| {
        let syntax = format.syntax.get(dialect)?;
        // A generated reader reads the plainest lines; the quick reader decides the common
        // line; the search the rest.
        if let Some(reader) = T::reader(i, dialect) {
            if let syntax::Quick::Read(values, _) = syntax::fast_in(scratch, format, reader, text, ctx) {
                return Some(values);
            }
        }
        let (left, read, passed) = unsure[i];
        let asked = left < UNSURE_LIMIT + read || passed % UNSURE_LIMIT == UNSURE_LIMIT - 1;
        unsure[i].2 = if asked { 0 } else { passed + 1 };
        if asked {
            match syntax::quick_in(scratch, format, syntax, text, ctx, false) {
                syntax::Quick::Read(values, _) => {
                    unsure[i].1 += 1;
                    return Some(values);
                }
                syntax::Quick::Never => return None,
                syntax::Quick::Unsure => unsure[i].0 += 1,
            }
        }
        // Without the index, a format whose literals the text lacks is not searched; with
        // it the search's recognition rules such a text out at its first step.
        (indexed || syntax.may_match(text, ignore_case))
            .then(|| syntax::parses_in(scratch, format, syntax, text, ctx))?
    };
    match reading.index {
        Some(index) => {
            index.candidates(text, &mut reading.candidates, &mut reading.spare);
            // A format that cannot hold some byte of the text, or have it after a `,`, is not
            // asked (Maxwell's `FFMA` with a register operand, `ffma_r`, on `c[0x0][0x10]`
            // or on `0.25`).
            let shape = Shape::of(text);
            let expressions = ctx.expression.is_some();
            for (w, &bits) in reading.candidates.iter().enumerate() {
                let mut bits = bits;
                while bits != 0 {
                    let i = w * 64 + bits.trailing_zeros() as usize;
                    let format = T::formats()[i];
                    bits &= bits - 1;
                    if !index.may_read_shape(i, &shape, expressions) {
                        continue;
                    }
                    if let Some(values) = first(i, format) {
                        return decode(format, Some(i), values, &mut reading.scratch);
                    }
                }
            }
        }
        None => {
            for (i, format) in T::formats().iter().enumerate() {
                if let Some(values) = first(i, format) {
                    return decode(format, Some(i), values, &mut reading.scratch);
                }
            }
        }
    }
    // ... and when none reads the line, every one is, so the error names what each expected
    // (a format the first pass skipped may still read it).
    let mut best: Option<syntax::Failure> = None;
    for (format, syntax) in syntaxes() {
        let f = match syntax::parse(format, syntax, text, ctx) {
            Ok(values) => return decode(format, None, values, &mut reading.scratch),
            Err(f) => f,
        };
        if best.as_ref().is_none_or(|b| f.pos > b.pos) {
            best = Some(f);
        } else if let Some(b) = best.as_mut().filter(|b| b.pos == f.pos) {
            b.expected.extend(f.expected);
        }
    }
    let f = best.unwrap_or(syntax::Failure { pos: 0, expected: Vec::new() });
    let mnemonics = reading.mnemonics.get_or_insert_with(|| self::mnemonics::<T>(dialect));
    Err(explain(text, &f, mnemonics, ignore_case))
}

/// The heads of `text`: in each part between `;`s, the first word (letters, digits, `_`) that
/// starts the part or follows a blank (`@P0 FADD`: `FADD`), as byte ranges. Where a dialect's
/// mnemonic is, if the text has one.
fn heads(text: &str) -> Vec<(usize, usize)> {
    let b = text.as_bytes();
    let word = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
    let mut out = Vec::new();
    let mut part_has_head = false;
    let mut i = 0;
    while i < b.len() {
        if b[i] == b';' {
            part_has_head = false;
        } else if word(b[i]) {
            let start = i;
            while i < b.len() && word(b[i]) {
                i += 1;
            }
            let after_blank = start == 0 || matches!(b[start - 1], b' ' | b'\t' | b';');
            if after_blank && !part_has_head {
                out.push((start, i));
                part_has_head = true;
            }
            continue;
        }
        i += 1;
    }
    out
}

/// Edit distance between `a` and `b`, ASCII case ignored.
fn distance(a: &str, b: &str) -> usize {
    let b: Vec<u8> = b.bytes().map(|c| c.to_ascii_lowercase()).collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.bytes().map(|c| c.to_ascii_lowercase()).enumerate() {
        let mut prev = row[0];
        row[0] = i + 1;
        for j in 0..b.len() {
            let next = (prev + usize::from(ca != b[j])).min(row[j] + 1).min(row[j + 1] + 1);
            prev = row[j + 1];
            row[j + 1] = next;
        }
    }
    row[b.len()]
}

/// A failed statement in the syntax's words: an unknown mnemonic with the nearest ones of the
/// dialect, or the operand of a known mnemonic that does not fit and what fits there.
fn explain(text: &str, f: &syntax::Failure, mnemonics: &[&'static str], ignore_case: bool) -> StatementError {
    let known =
        |w: &str| mnemonics.iter().any(|m| if ignore_case { m.eq_ignore_ascii_case(w) } else { *m == w });
    let (start, length) = syntax::token_at(text, f.pos);
    let heads = heads(text);
    if let Some(&(s, e)) = heads.iter().find(|(s, e)| *s <= start && !known(&text[*s..*e])) {
        let word = &text[s..e];
        let mut message = alloc::format!("unknown mnemonic `{word}`");
        let mut near: Vec<(usize, usize, &str)> = Vec::new();
        for (i, m) in mnemonics.iter().enumerate() {
            let d = distance(word, m);
            if d <= (word.len() / 3).max(1) && !near.iter().any(|(_, _, n)| n.eq_ignore_ascii_case(m)) {
                near.push((d, i, m));
            }
        }
        near.sort();
        if !near.is_empty() {
            let names: Vec<String> = near.iter().take(3).map(|(_, _, m)| alloc::format!("`{m}`")).collect();
            message.push_str(&alloc::format!("; did you mean {}?", names.join(", ")));
        }
        return StatementError { pos: s, length: e - s, message };
    }
    let detail = f.message(text);
    // The mnemonic the failing operand belongs to: the last head before it.
    let message = match heads.iter().rev().find(|(_, e)| *e <= start) {
        Some(&(s, e)) => {
            let between = &text[e..start];
            if between.contains([' ', '\t', ',']) {
                let operand = 1 + between.matches(',').count();
                alloc::format!("operand {operand} of `{}`: {detail}", &text[s..e])
            } else {
                alloc::format!("after `{}`: {detail}", &text[s..start])
            }
        }
        None => detail,
    };
    StatementError { pos: start, length, message }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::syntax::{Expected, Failure};
    use crate::target::assemble::StatementError;
    use alloc::vec;

    #[test]
    fn edit_distance_ignores_case() {
        assert_eq!(distance("fad", "fadd"), 1);
        assert_eq!(distance("fad", "add"), 2);
        assert_eq!(distance("FADD", "fadd"), 0);
        assert_eq!(distance("", "mov"), 3);
        assert_eq!(distance("kitten", "sitting"), 3);
    }

    #[test]
    fn heads_are_the_first_words_of_each_part() {
        let text = "@P0 FADD R0, R1; fmul r2, r3";
        let words: Vec<&str> = heads(text).iter().map(|&(s, e)| &text[s..e]).collect();
        assert_eq!(words, ["FADD", "fmul"]);
    }

    const MNEMONICS: &[&str] = &["fadd", "add", "fmul", "mov"];

    #[test]
    fn an_unknown_mnemonic_is_named_with_the_nearest_ones() {
        let f = Failure { pos: 0, expected: vec![Expected::Name("`fadd`".into())] };
        let e = explain("nonsense_op r0, r1", &f, MNEMONICS, true);
        assert_eq!(
            e,
            StatementError { pos: 0, length: 11, message: "unknown mnemonic `nonsense_op`".into() }
        );
        let e = explain("fadx r0, r1", &f, MNEMONICS, true);
        assert_eq!((e.pos, e.length), (0, 4));
        assert_eq!(e.message, "unknown mnemonic `fadx`; did you mean `fadd`?");
        let e = explain("ad r0", &f, MNEMONICS, true);
        assert_eq!(e.message, "unknown mnemonic `ad`; did you mean `add`?");
        // Case matters where the dialect says so; the suggestion shows the right case.
        let e = explain("FMUL r0", &f, MNEMONICS, false);
        assert_eq!(e.message, "unknown mnemonic `FMUL`; did you mean `fmul`?");
        // The second part of a line has its own mnemonic.
        let f = Failure { pos: 17, expected: vec![] };
        let e = explain("fadd r0, r1, r2; fmull r3", &f, MNEMONICS, true);
        assert_eq!((e.pos, e.length), (17, 5));
        assert_eq!(e.message, "unknown mnemonic `fmull`; did you mean `fmul`?");
    }

    #[test]
    fn an_undefined_name_is_said_to_be_one_whatever_else_was_expected() {
        let expected = vec![Expected::Range("`r0`..`r5`".into()), Expected::Undefined];
        let f = Failure { pos: 13, expected };
        let e = explain("fadd r0, r1, r:nowhere + 4", &f, MNEMONICS, true);
        assert_eq!(e.message, "operand 3 of `fadd`: undefined symbol or label `r:nowhere`");
        assert_eq!((e.pos, e.length), (13, 9));
    }

    #[test]
    fn a_bad_operand_is_named_by_its_position() {
        let f = Failure { pos: 13, expected: vec![Expected::Range("`r0`..`r5`".into())] };
        let e = explain("fadd r0, r1, bogus_operand", &f, MNEMONICS, true);
        assert_eq!(e.message, "operand 3 of `fadd`: expected `r0`..`r5`, found `bogus_operand`");
        assert_eq!((e.pos, e.length), (13, 13));
        let f = Failure { pos: 4, expected: vec![Expected::Name("`.sf`".into())] };
        let e = explain("fadd.bogus r0", &f, MNEMONICS, true);
        assert_eq!(e.message, "after `fadd`: expected `.sf`, found `.bogus`");
        assert_eq!((e.pos, e.length), (4, 6));
        let f = Failure { pos: 7, expected: vec![Expected::Kind("`,`".into())] };
        let e = explain("mov r0", &f, MNEMONICS, true);
        assert_eq!(e.message, "operand 1 of `mov`: expected `,`, found end of line");
        assert_eq!((e.pos, e.length), (6, 0));
    }
}
