//! The assembler driver: every statement of a program through the directive language in two
//! passes, and the relaxation of labels where instructions differ in length.

use super::assemble::{read_slot, Statement, StatementError};
use super::disasm::dialect_of;
use super::format_index::{format_index, worth_indexing, FormatIndex};
use super::isa::Isa;
use super::pieces::split_statements;
use super::statement::{give_back_scratch, read_statement, take_scratch, Reading};
use super::words::{instruction_bytes, shortest_length, word_from_bytes, word_to_bytes};
use crate::bundle;
use crate::directives::{self, Handed, Includer, Kind, Source};
use crate::expr::{self, Names};
use crate::syntax::{self, Context};
use crate::AsmError;
use alloc::collections::BTreeMap;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

/// The expression reader of the final read and of relaxation: its names are labels only (at
/// `labels`), since expansion replaced every symbol; `expression` is `None` for a dialect
/// without directives. Binds `$names` and `$expression` in the caller.
macro_rules! label_expressions {
    ($labels:expr, $named:expr, $d:expr, $names:ident, $expression:ident) => {
        let label = |name: &str| $labels.get(name).map(|a| *a as i64);
        let $names = Names {
            symbol: &|_| None,
            label: &label,
            label_prefixes: $d.label_prefixes,
            call: None,
            bare_names: false,
        };
        // An operand starting with a name, in a program that defines none, is no symbol nor
        // label misspelt: it reads as text that is not a number at all, and errors list what
        // the operand takes (a name further in, `1 + x`, is still said to be undefined).
        let named = $named;
        let read_expression = |text: &str| {
            expr::evaluate(text, 0, &$names).map_err(|e| match e {
                e if e.undefined && !named && e.pos == 0 => {
                    expr::ExprError { undefined: false, end: None, ..e }
                }
                e => e,
            })
        };
        let $expression = (!$d.directives.is_empty()).then_some(&read_expression as &dyn Fn(&str) -> _);
    };
}

/// Assembles every statement of `source` (one per line, or per separator where the dialect has
/// one: [`pieces`]) into its scheduling slot and what `convert` makes of it (data becomes raw
/// words); `convert`'s errors are reported at the statement. Each error goes to `report` as it
/// is found, with its line's text; the program is returned when there was none. Two passes:
/// [`directives::expand`] lays the program out (labels get their addresses), then every
/// statement is read; both are linear in the expanded source. Where instructions differ in
/// length, [`relax`] moves the labels to the instructions' byte offsets in between. Data that
/// ends the program is written as it is: its last piece may be shorter than a word, and its
/// length is returned with the statements ([`Assembled::lengths`]); so is that of data whose
/// bytes begin an instruction of another length, where instructions differ in length.
/// Where the spec names a directive writing a control word as it is
/// ([`bundle::Schedule::raw_control`]), its word goes to `control` before the first word of
/// the group it stands before; what `control` refuses is an error at the directive.
#[allow(clippy::too_many_arguments)]
pub(super) fn assemble_lines<T: Isa, X>(
    name: &str,
    source: &mut dyn Source,
    dialect: usize,
    includer: &mut dyn Includer,
    convert: &dyn Fn(Statement<T::Instruction>) -> Result<X, String>,
    report: &mut dyn FnMut(&AsmError, &str),
    emit: &mut dyn FnMut(u64, X, Option<usize>),
    control: &mut dyn FnMut(u128) -> Result<(), String>,
) -> Option<crate::table::Filled> {
    let d = dialect_of::<T>(dialect);
    // The target's control words, unless every statement is an instruction word.
    let schedule = T::schedule().filter(|_| includer.scheduled());
    // Statements spanning lines, block comments and sections: the dialect's own statements,
    // each where it is in the source.
    let split = |text: &str, in_data: bool, more: bool| split_statements(text, d, in_data, more);
    let own_statements = d.separator.is_some()
        || !d.block_comments.is_empty()
        || d.code_section.is_some()
        || !d.data_sections.is_empty();
    let mut spelling =
        directives::Spelling::of(d, true, own_statements.then_some(&split as directives::Statements));
    spelling.control = schedule.map(|s| s.raw_control).filter(|c| !c.is_empty());
    let word_bytes = u64::from(T::WORD_BITS.div_ceil(8));
    // Instructions that differ in length: labels at the instructions' real byte offsets, data
    // padded only to the shortest instruction.
    let variable = !T::lengths().is_empty() && T::schedule().is_none();
    let code_align = if variable { u64::from(shortest_length::<T>().div_ceil(8)) } else { word_bytes };
    let scheduled = |k: usize| bundle::address::<T>(k);
    let layout = directives::Layout {
        word_bytes,
        code_align,
        scheduled: schedule.is_some().then_some(&scheduled as &dyn Fn(usize) -> u64),
    };
    // The `-i` files, read once for both passes.
    let preludes = includer.preludes();
    let validates = includer.validates();
    let mut given = Given { inner: includer, preludes };
    let mut failed = false;
    // Pass 1: expansion and label addresses. Where the layout is final when expansion ends
    // (every instruction a word), its lines are counted as they come and kept up to
    // [`KEPT_LINES`]; past them they are dropped, and pass 2 expands the source again and
    // writes each line as it comes: the memory is that of the symbols, labels and sources,
    // not of the program. Where instructions differ in length
    // (relaxation lays the program out again and again) or a `.clone` copies lines from
    // anywhere, the expanded lines are kept.
    let code_lines =
        |lines: &[directives::Expanded]| lines.iter().filter(|e| matches!(e.kind, Kind::Code(_))).count();
    let mut statements = 0usize;
    // The expansion's errors and warnings, placed as they are found (with their line's text,
    // while it is held), reported once the pass is over.
    let (mut errors, mut warnings) = (Vec::new(), Vec::new());
    // The first pass's lines, kept for the second while there are at most [`KEPT_LINES`] of
    // them: a program of that size is read once (the expansion is half the time of a line of
    // Maxwell's, callgrind); a longer one is expanded again, its memory that of its sources.
    let mut kept: Option<Vec<Vec<directives::Expanded>>> = Some(Vec::new());
    let mut kept_lines = 0usize;
    let streamed = if variable {
        None
    } else {
        directives::expand_streaming(name, source, &spelling, &layout, &mut given, &mut |p, handed| {
            let keep = |list: &mut Vec<(AsmError, String)>, l: &directives::Located| {
                let e = p.located(l);
                let line = p.source_line(&e).to_string();
                list.push((e, line));
            };
            match handed {
                Handed::Lines(lines) => {
                    statements += code_lines(&lines);
                    kept_lines += lines.len();
                    match kept.as_mut() {
                        Some(chunks) if kept_lines <= KEPT_LINES => chunks.push(lines),
                        _ => kept = None,
                    }
                }
                Handed::Error(e) => keep(&mut errors, &e),
                Handed::Warning(w) => keep(&mut warnings, &w),
            }
        })
    };
    let streaming = streamed.is_some();
    // Kept only where every line's source text is still held, for the errors found in them.
    let kept = kept.filter(|_| streamed.as_ref().is_some_and(directives::Program::holds_sources));
    let mut program = match streamed {
        Some(p) => p,
        None => {
            // Held whole: the first pass's findings are found again.
            let text = directives::read_all(source);
            let (p, e) = directives::expand(name, &text, &spelling, &layout, &mut given);
            statements = code_lines(&p.lines);
            let placed = |l: &directives::Located| {
                let e = p.located(l);
                let line = p.source_line(&e).to_string();
                (e, line)
            };
            errors = e.iter().map(placed).collect();
            warnings = p.warnings.iter().map(placed).collect();
            p
        }
    };
    for (e, line) in errors {
        failed = true;
        report(&e, &line);
    }
    for (w, line) in warnings {
        given.inner.warning(&w, &line);
    }
    // Each error with the text of the source line it is at (a statement may span lines), or
    // the text kept with it where the line may have been let go.
    let mut fail = |program: &directives::Program, e: AsmError, line: Option<&str>| {
        failed = true;
        report(&e, line.unwrap_or_else(|| program.source_line(&e)));
    };
    // One index of the dialect's formats for relaxation and the final read, where there are
    // enough statements to pay for it.
    let index = worth_indexing(statements).then(|| format_index::<T>(dialect));
    let relaxed = if variable {
        match relax::<T>(&program, dialect, word_bytes, index.as_deref()) {
            Ok(r) => Some(r),
            Err(e) => {
                fail(&program, e, None);
                None
            }
        }
    } else {
        None
    };
    let defines_names = program.defines_names();
    let labels = core::mem::take(&mut program.labels);
    let labels_at = relaxed.as_ref().map_or(&labels, |r| &r.labels);
    // Pass 2: statements and data, every label known.
    let lookup = |name: &str| labels_at.get(name).copied();
    label_expressions!(labels_at, defines_names, d, names, expression);
    let mut reading = Reading::indexed(index.as_deref());
    reading.scratch = take_scratch();
    // The slots read before were another program's.
    syntax::forget_prefixes(&mut reading.scratch);
    // Instructions so far, failed ones included, so later addresses stay right; bytes of data
    // not yet in a word.
    let mut index = 0usize;
    let mut bytes = 0u64;
    // What the last `origin` adds to the addresses laid out.
    let mut origin = 0u64;
    let mut data: Vec<u8> = Vec::new();
    // Where each data line's bytes start in `data`, to locate an error in them, with the
    // line's text (its piece of the source may be let go before the word is made).
    let mut data_lines: Vec<(usize, directives::Expanded, String)> = Vec::new();
    // The most bytes a word takes: data is made into words as soon as more bytes than that
    // follow it (the same words as at the next instruction: a piece's length is read off
    // that many bytes), so a long run of data is not held until its end.
    let longest = T::WORD_BITS.div_ceil(8) as usize;
    // Data as words: whole words, or where instructions differ in length, pieces as long as
    // the instruction each piece's bytes begin where they can be ([`data_piece`]), so that
    // every byte is written as it is. A piece written at another length than its word's own
    // goes with its length: at the end of the program (`end`) the last piece, as long as the
    // bytes left; where instructions differ in length, any piece. `all`: every byte (an
    // instruction or the end follows), else only the words more bytes follow.
    let words_of = |program: &directives::Program,
                    data: &mut Vec<u8>,
                    lines: &mut Vec<(usize, directives::Expanded, String)>,
                    emit: &mut dyn FnMut(u64, X, Option<usize>),
                    end: bool,
                    all: bool|
     -> Option<(AsmError, String)> {
        let line_at = |offset: usize| lines.iter().rev().find(|(s, ..)| *s <= offset).or(lines.first());
        let mut error = None;
        let mut at = 0;
        while at < data.len() && (all || data.len() - at > longest) {
            let start = at;
            let length = if variable {
                data_piece::<T>(&data[at..])
            } else {
                data.len().min(at + word_bytes as usize) - at
            };
            // A fixed-length word's bytes from its first one in memory order, zeros after a
            // short last piece (which its length then cuts off again).
            let mut piece = data[at..at + length].to_vec();
            if !variable {
                piece.resize(word_bytes as usize, 0);
            }
            let word = word_from_bytes(&piece, T::LITTLE_ENDIAN);
            at += length;
            let written = if variable { instruction_bytes::<T>(word) } else { word_bytes as usize };
            let cut = (written != length && (variable || end && at == data.len())).then_some(length);
            match convert(Statement::Raw(word)) {
                // A data word takes the slot a raw word without one does.
                Ok(x) => emit(schedule.map_or(0, |s| s.default_slot), x, cut),
                Err(message) => {
                    if let Some((_, e, text)) = line_at(start) {
                        error = Some((program.locate(e, 0, 0, message), text.clone()));
                    }
                }
            }
        }
        // The lines from the one holding the first byte left.
        let first = if all { lines.len() } else { lines.iter().rposition(|(s, ..)| *s <= at).unwrap_or(0) };
        lines.drain(..first);
        for line in lines.iter_mut() {
            line.0 = line.0.saturating_sub(at);
        }
        data.drain(..at);
        error
    };
    let mut last_data = false;
    // The last control word directive ([`bundle::Schedule::raw_control`]): the word number
    // its group starts at, and an error at it, for a program that ends before that group.
    let mut written_control: Option<(usize, AsmError, String)> = None;
    // The slot the last instruction's line read ([`read_slot`]).
    let mut last_slot = None;
    // The instructions, each located at its line (with the line's text, which streaming lets
    // go), to check the program's rules at the end when asked (`-V`: the rules relate
    // instructions anywhere in the program, so these are held).
    let mut checked: Vec<(T::Instruction, AsmError, String)> = Vec::new();
    let shared = core::cell::RefCell::new(given);
    // The tables the data sections' entries fill, line by line.
    let mut filler = crate::table::Filler::new(d.data_sections, T::tables(), d.ignore_case);
    let mut step = |program: &directives::Program, n_line: usize, e: directives::Expanded| {
        if last_data {
            // The data so far made into the words more bytes follow.
            if let Some((err, line)) = words_of(program, &mut data, &mut data_lines, &mut *emit, false, false)
            {
                fail(program, err, Some(&line));
            }
        }
        match &e.kind {
            Kind::Zeros(_) | Kind::Pad { .. } => {
                // Padding as the real layout needs it, where relaxation laid the program out.
                let n = match (&e.kind, &relaxed) {
                    (Kind::Pad { .. }, Some(r)) => r.addresses[n_line + 1] - r.addresses[n_line],
                    (Kind::Zeros(n) | Kind::Pad { bytes: n, .. }, _) => *n,
                    _ => 0,
                };
                data.extend(core::iter::repeat_n(0, n as usize));
                bytes += n;
                last_data = true;
                let line = data_line(program, &e);
                data_lines.push((data.len() - n as usize, e, line));
            }
            Kind::Data { width, float, values, text } => {
                let first = data.len();
                for &(s, end) in values {
                    let value = &text[s..end];
                    let bad = |message: String| program.locate(&e, s, end - s, message);
                    let v = match expr::evaluate(value, 0, &names) {
                        Ok((v, len)) if len == value.len() => v,
                        Ok((_, len)) => {
                            let message = alloc::format!("unexpected `{}` after the value", &value[len..]);
                            fail(program, program.locate(&e, s + len, value.len() - len, message), None);
                            continue;
                        }
                        Err(x) => {
                            fail(program, program.locate(&e, s + x.pos, x.length, x.message), None);
                            continue;
                        }
                    };
                    let bits = u32::from(*width) * 8;
                    let raw = match (float, v) {
                        (true, v) => {
                            let f = match v {
                                expr::Value::Float(f) => f,
                                other => other.int().unwrap_or(0) as f64,
                            };
                            match crate::number::float_literal(f, *width) {
                                Ok(raw) => raw,
                                Err(why) => {
                                    fail(program, bad(why.message(value, bits)), None);
                                    continue;
                                }
                            }
                        }
                        (false, expr::Value::Float(f)) if d.float_bits => {
                            f.to_bits() & crate::bits::mask(bits)
                        }
                        (false, expr::Value::Float(_)) => {
                            fail(program, bad("an integer directive takes integers".into()), None);
                            continue;
                        }
                        (false, v) => {
                            let x = i128::from(v.int().unwrap_or(0));
                            if bits < 64 && (x < -(1i128 << (bits - 1)) || x >= 1i128 << bits) {
                                fail(
                                    program,
                                    bad(alloc::format!("{value} does not fit in {bits} bits")),
                                    None,
                                );
                                continue;
                            }
                            x as u64
                        }
                    };
                    let mut le = Vec::new();
                    word_to_bytes(u128::from(raw), *width as usize, T::LITTLE_ENDIAN, &mut le);
                    data.extend(le);
                }
                bytes += u64::from(*width) * values.len() as u64;
                last_data = true;
                let line = data_line(program, &e);
                data_lines.push((first, e, line));
            }
            Kind::Bits { first, bytes: added, values, text } => {
                let start = data.len();
                let mut bit = *first;
                for &(s, end) in values {
                    let value = &text[s..end];
                    let v = match expr::evaluate(value, 0, &names) {
                        Ok((expr::Value::Int(v @ 0..=1), len)) if len == value.len() => v as u8,
                        Ok(_) => {
                            let message = alloc::format!("{value} is not a bit (0 or 1)");
                            fail(program, program.locate(&e, s, end - s, message), None);
                            0
                        }
                        Err(x) => {
                            fail(program, program.locate(&e, s + x.pos, x.length, x.message), None);
                            0
                        }
                    };
                    // A line that starts a byte, or goes past the one left open, opens one.
                    if bit == 0 || data.is_empty() {
                        data.push(0);
                    }
                    if let Some(last) = data.last_mut() {
                        *last |= v << bit;
                    }
                    bit = (bit + 1) % 8;
                }
                bytes += added;
                last_data = true;
                let line = data_line(program, &e);
                data_lines.push((start, e, line));
            }
            Kind::Origin(shift) => origin = *shift,
            Kind::Control(text) => {
                let Some(s) = schedule else { return };
                // Data before it is in words of the group before.
                if core::mem::take(&mut last_data) {
                    if let Some((err, line)) =
                        words_of(program, &mut data, &mut data_lines, &mut *emit, false, true)
                    {
                        fail(program, err, Some(&line));
                    }
                }
                let head = text.find([' ', '\t']).unwrap_or(text.len());
                let value = text[head..].trim();
                let at = text.len() - text[head..].trim_start().len();
                let word = (bytes / word_bytes) as usize;
                let group = s.slots as usize;
                let open = written_control.as_ref().is_some_and(|(start, ..)| word < start + group);
                if open && word.is_multiple_of(group) {
                    let message = alloc::format!("a second `{}` for the same group", &text[..head]);
                    fail(program, program.locate(&e, 0, head, message), None);
                    return;
                }
                if !bytes.is_multiple_of(word_bytes) || !word.is_multiple_of(group) {
                    let message = alloc::format!(
                        "`{}` writes the control word of the group that follows: it stands before a \
                         group's first instruction, not before instruction {} of {group}",
                        &text[..head],
                        word % group + 1
                    );
                    fail(program, program.locate(&e, 0, head, message), None);
                    return;
                }
                let hex = value.strip_prefix("0x").or_else(|| value.strip_prefix("0X"));
                let parsed = hex.and_then(|h| u128::from_str_radix(h, 16).ok());
                let Some(v) = parsed.filter(|v| T::WORD_BITS >= 128 || v >> T::WORD_BITS == 0) else {
                    let message = alloc::format!(
                        "expected the control word: a hex number of at most {} bits",
                        T::WORD_BITS
                    );
                    fail(program, program.locate(&e, at, value.len(), message), None);
                    return;
                };
                let message = alloc::format!("`{}` with no group after it", &text[..head]);
                let err = program.locate(&e, 0, head, message);
                let line = program.source_line(&err).to_string();
                written_control = Some((word, err, line));
                if let Err(message) = control(v) {
                    fail(program, program.locate(&e, 0, head, message), None);
                }
            }
            Kind::Entry { .. } => {
                if let Some(err) = filler.line(program, &e) {
                    fail(program, err, None);
                }
            }
            Kind::Code(text) => {
                if core::mem::take(&mut last_data) {
                    if let Some((err, line)) =
                        words_of(program, &mut data, &mut data_lines, &mut *emit, false, true)
                    {
                        fail(program, err, Some(&line));
                    }
                }
                let pc = match &relaxed {
                    Some(r) => r.pcs[n_line],
                    // Data before fills whole slots (raw words): the slot is the word count.
                    None if schedule.is_some() => {
                        bundle::address::<T>((bytes / word_bytes) as usize).wrapping_add(origin)
                    }
                    None => bytes.wrapping_add(origin),
                };
                let code = text.as_str();
                // The first instruction past the target's limit is the error (once).
                if T::max_instructions() == Some(index) {
                    let skip = code.len() - code.trim_start().len();
                    let message = alloc::format!("a program holds at most {index} instructions");
                    fail(program, program.locate(&e, skip, code.trim().len(), message), None);
                }
                index += 1;
                bytes += word_bytes;
                let mut error = |err: StatementError, skip: usize| {
                    fail(program, program.locate(&e, skip + err.pos, err.length, err.message), None);
                };
                let ctx = Context { pc, labels: &lookup, ignore_case: d.ignore_case, expression };
                let slot = match schedule {
                    Some(_) => read_slot::<T>(code, dialect, &ctx, &mut reading.scratch, &mut last_slot),
                    None => Ok((0, 0)),
                };
                let (slot, skip) = match slot {
                    Ok(s) => s,
                    Err(err) => {
                        error(err, 0);
                        return;
                    }
                };
                // A group whose control word is written as it is: its instructions carry none.
                let word = (bytes / word_bytes) as usize - 1;
                let controlled = written_control
                    .as_ref()
                    .filter(|(start, ..)| word < start + schedule.map_or(0, |s| s.slots as usize));
                if let (Some(_), true) = (controlled, skip > 0) {
                    let message = alloc::format!(
                        "this group's control word is written as it is (`{}`): its instructions carry no slot",
                        schedule.map_or("", |s| s.raw_control)
                    );
                    error(StatementError { pos: 0, length: code[..skip].trim_end().len(), message }, 0);
                    return;
                }
                let skip = skip + (code.len() - skip - code[skip..].trim_start().len());
                let text = code[skip..].trim_start();
                match read_statement::<T>(text, dialect, &ctx, &mut reading) {
                    Ok(statement) => {
                        if let Statement::Instruction(insn) = &statement {
                            for message in T::warnings(insn) {
                                let w = program.locate(&e, skip, text.trim_end().len(), message.into());
                                shared.borrow_mut().inner.warning(&w, program.source_line(&w));
                            }
                            if validates {
                                let at = program.locate(&e, skip, text.trim_end().len(), String::new());
                                let line = program.source_line(&at).to_string();
                                checked.push((insn.clone(), at, line));
                            }
                        }
                        match convert(statement) {
                            Ok(x) => emit(slot, x, None),
                            Err(message) => error(StatementError::at(0, message), skip),
                        }
                    }
                    Err(err) => error(err, skip),
                }
            }
        }
    };
    let program = if let Some(chunks) = kept {
        for (n_line, e) in chunks.into_iter().flatten().enumerate() {
            step(&program, n_line, e);
        }
        program
    } else if streaming {
        // The first pass's sources go before the second reads them again.
        drop(program);
        let mut n_line = 0usize;
        let again = directives::expand_streaming(
            name,
            source,
            &spelling,
            &layout,
            &mut Shared(&shared),
            &mut |p, handed| {
                // Its errors and warnings are the first pass's again, reported already.
                if let Handed::Lines(lines) = handed {
                    for e in lines {
                        step(p, n_line, e);
                        n_line += 1;
                    }
                }
            },
        );
        again?
    } else {
        let lines = core::mem::take(&mut program.lines);
        for (n_line, e) in lines.into_iter().enumerate() {
            step(&program, n_line, e);
        }
        program
    };
    give_back_scratch(core::mem::take(&mut reading.scratch));
    let words = (bytes.div_ceil(word_bytes)) as usize;
    if let Some((_, err, line)) = written_control.take().filter(|(start, ..)| words <= *start) {
        fail(&program, err, Some(&line));
    }
    if last_data {
        // Data that ends the program: no instruction follows, so nothing pads it and it is
        // written as it is, its last piece as long as the bytes left.
        if let Some((err, line)) = words_of(&program, &mut data, &mut data_lines, emit, true, true) {
            fail(&program, err, Some(&line));
        }
    }
    // The spec's constraints and rules over the instructions in program order, each broken
    // one at the line of the instruction it is reported at; the spec's per-instruction
    // `warning`s were reported above already.
    if validates && !failed {
        let insns: Vec<T::Instruction> = checked.iter().map(|(i, ..)| i.clone()).collect();
        for v in T::check_program(&insns) {
            let Some((_, at, line)) = checked.get(v.index) else { continue };
            if v.warning && v.layout.is_empty() && T::warnings(&insns[v.index]).contains(&v.message) {
                continue;
            }
            let mut message = alloc::format!("{} (`{}`)", v.message, v.rule);
            if let Some(other) = v.detail.strip_prefix("with instruction ") {
                // The other instruction of a rule over two, by its line.
                let at = other.parse::<usize>().ok().and_then(|k| checked.get(k));
                if let Some((_, o, _)) = at {
                    message = alloc::format!("{message}, with the instruction at line {}", o.line);
                }
            } else if !v.detail.is_empty() {
                message = alloc::format!("{message}: {}", v.detail);
            }
            let w = AsmError { message, ..at.clone() };
            shared.borrow_mut().inner.warning(&w, line);
        }
    }
    (!failed).then_some(filler.filled)
}

/// The most lines of a program the first pass keeps for the second (a line's record is about
/// 100 bytes and its text): past them the second pass expands the source again.
const KEPT_LINES: usize = 1 << 15;

/// The text of the source line data line `e` starts at.
fn data_line(program: &directives::Program, e: &directives::Expanded) -> String {
    program.source_line(&program.locate(e, 0, 0, String::new())).to_string()
}

/// The includer of both passes of [`assemble_lines`]: the `-i` files read once, given to each.
struct Given<'a> {
    inner: &'a mut dyn Includer,
    preludes: Vec<(String, String)>,
}

impl Includer for Given<'_> {
    fn load(&mut self, name: &str, system: bool, from: Option<&str>) -> Result<(String, String), String> {
        self.inner.load(name, system, from)
    }
    fn preludes(&mut self) -> Vec<(String, String)> {
        self.preludes.clone()
    }
    fn warning(&mut self, warning: &AsmError, line: &str) {
        self.inner.warning(warning, line);
    }
    fn validates(&self) -> bool {
        self.inner.validates()
    }
    fn scheduled(&self) -> bool {
        self.inner.scheduled()
    }
}

/// [`Given`] shared by the second pass's expansion (which reads the includes again) and the
/// statements read as it hands them over (whose warnings go to the same includer).
struct Shared<'r, 'a>(&'r core::cell::RefCell<Given<'a>>);

impl Includer for Shared<'_, '_> {
    fn load(&mut self, name: &str, system: bool, from: Option<&str>) -> Result<(String, String), String> {
        self.0.borrow_mut().load(name, system, from)
    }
    fn preludes(&mut self) -> Vec<(String, String)> {
        self.0.borrow_mut().preludes()
    }
    fn warning(&mut self, warning: &AsmError, line: &str) {
        self.0.borrow_mut().warning(warning, line);
    }
    fn validates(&self) -> bool {
        self.0.borrow().validates()
    }
    fn scheduled(&self) -> bool {
        self.0.borrow().scheduled()
    }
}

/// The length of the piece of data that `bytes` start with, where instructions differ in
/// length: as many bytes as the instruction they begin (by the target's `length` rule, as
/// [`split_pieces`] reads them back), or the bytes left where fewer. A piece whose word alone
/// says another length (its length rule reads bits past the piece, or the bytes end first) is
/// written at this length all the same ([`Assembled::lengths`]): data is written as it is.
fn data_piece<T: Isa>(bytes: &[u8]) -> usize {
    let max = T::WORD_BITS.div_ceil(8) as usize;
    let head = &bytes[..bytes.len().min(max)];
    // Bytes that begin no instruction are a piece of the shortest length.
    let word = word_from_bytes(head, T::LITTLE_ENDIAN);
    let length = match T::match_format(word) {
        Some(_) => instruction_bytes::<T>(word),
        None => shortest_length::<T>().div_ceil(8) as usize,
    };
    bytes.len().min(length).max(1)
}

/// How many times [`relax`] lays a program out before giving up.
const MAX_LAYOUTS: usize = 16;

/// A program of instructions that differ in length laid out at their real byte offsets.
struct Relaxed {
    /// Every label's byte address.
    labels: BTreeMap<String, u64>,
    /// The byte address of every line of the program, then of its end.
    addresses: Vec<u64>,
    /// The address of every line as the program addresses it: `addresses` moved by the
    /// origins before it (each says where what follows is, whatever the lengths before).
    pcs: Vec<u64>,
}

/// Places the labels of a program whose instructions differ in length at the instructions'
/// real byte offsets. [`directives::expand`] counts every instruction as a whole word; an
/// instruction's length may depend on its operands, and so on a label's address. As GNU as
/// relaxes its frags: assemble every instruction with the current addresses, take each one's
/// length, lay the program out again and repeat until no address changes. Each label stays
/// with the line it was before. A program whose layout does not settle in [`MAX_LAYOUTS`]
/// passes is an error at the first instruction that still changes length. An instruction that
/// does not assemble keeps a whole word (pass 2 reports it).
fn relax<T: Isa>(
    program: &directives::Program,
    dialect: usize,
    word_bytes: u64,
    index: Option<&FormatIndex>,
) -> Result<Relaxed, AsmError> {
    let d = dialect_of::<T>(dialect);
    // Each line's length as expansion laid it out, and where the lines start.
    let expanded: Vec<u64> = program
        .lines
        .iter()
        .map(|e| match &e.kind {
            Kind::Zeros(n) | Kind::Pad { bytes: n, .. } => *n,
            Kind::Data { width, values, .. } => u64::from(*width) * values.len() as u64,
            Kind::Bits { bytes, .. } => *bytes,
            Kind::Code(_) => word_bytes,
            Kind::Entry { .. } | Kind::Origin(_) | Kind::Control(_) => 0,
        })
        .collect();
    let starts = |lengths: &[u64]| {
        let mut at = 0u64;
        let mut out = Vec::with_capacity(lengths.len() + 1);
        for l in lengths {
            out.push(at);
            at += l;
        }
        out.push(at);
        out
    };
    let mut addresses = starts(&expanded);
    // An origin's address stays what expansion made it; what follows it is addressed from
    // there, however long the lines before it are.
    let origins = program.origin_lines();
    let set: Vec<u64> = origins
        .iter()
        .map(|&k| match program.lines[k].kind {
            Kind::Origin(shift) => addresses[k].wrapping_add(shift),
            _ => addresses[k],
        })
        .collect();
    // Line `k`'s address after `segment` origins (its own: the origins before it; the end of
    // the lines before an origin: one fewer).
    let pc_in = |segment: usize, k: usize, addresses: &[u64]| match segment.checked_sub(1) {
        Some(o) => set[o].wrapping_add(addresses[k].wrapping_sub(addresses[origins[o]])),
        None => addresses[k],
    };
    let pcs_of = |addresses: &[u64]| {
        let mut segment = 0;
        let mut pcs = Vec::with_capacity(addresses.len());
        for k in 0..addresses.len() {
            if origins.get(segment) == Some(&k) {
                segment += 1;
            }
            pcs.push(pc_in(segment, k, addresses));
        }
        pcs
    };
    let mut pcs = pcs_of(&addresses);
    // Each label's line (the first one starting at or after it, after the label's origin) and
    // its offset from it.
    let last = program.lines.len();
    let anchors: Vec<(&String, usize, usize, u64)> = program
        .labels
        .iter()
        .map(|(name, &a)| {
            let segment = program.label_origins.get(name).copied().unwrap_or(0) as usize;
            let mut k = program.label_line(name, a, &pcs, &origins).min(last);
            if pc_in(segment, k, &addresses) > a && k > 0 && !origins.contains(&(k - 1)) {
                k -= 1;
            }
            // A label where data ends and an instruction's padding starts labels the
            // instruction, as GNU as pulls a label to the code it aligns (tc-mips.c,
            // `mips_align`): a branch to it lands on the instruction, not on the zeros.
            let padding = matches!(program.lines.get(k), Some(l) if matches!(l.kind, Kind::Pad { before_code: true, .. }));
            if padding && a == pc_in(segment, k, &addresses) {
                k += 1;
            }
            (name, segment, k, a.saturating_sub(pc_in(segment, k, &addresses)))
        })
        .collect();
    let mut labels = program.labels.clone();
    let mut lengths = expanded;
    let mut reading = Reading::indexed(index);
    let mut unsettled = 0;
    for _ in 0..MAX_LAYOUTS {
        let lookup = |name: &str| labels.get(name).copied();
        label_expressions!(labels, program.defines_names(), d, _names, expression);
        let mut changed = None;
        for (k, e) in program.lines.iter().enumerate() {
            let length = match &e.kind {
                Kind::Code(code) => {
                    let ctx = Context { pc: pcs[k], labels: &lookup, ignore_case: d.ignore_case, expression };
                    let word = match read_statement::<T>(code.trim_start(), dialect, &ctx, &mut reading) {
                        Ok(Statement::Instruction(insn)) => T::encode(&insn).ok(),
                        Ok(Statement::Raw(word)) => Some(word),
                        Err(_) => None,
                    };
                    word.map_or(word_bytes, |w| instruction_bytes::<T>(w) as u64)
                }
                // Alignment from the line's address in this layout.
                Kind::Pad { align, .. } => (align - addresses[k] % align) % align,
                _ => continue,
            };
            if length != lengths[k] {
                lengths[k] = length;
                changed = changed.or(Some(k));
            }
        }
        let Some(first) = changed else {
            return stale_reads(program, &labels).map(|()| Relaxed { labels, addresses, pcs });
        };
        unsettled = first;
        addresses = starts(&lengths);
        pcs = pcs_of(&addresses);
        for (name, segment, k, offset) in &anchors {
            if let Some(a) = labels.get_mut(*name) {
                *a = pc_in(*segment, *k, &addresses).wrapping_add(*offset);
            }
        }
    }
    // The last layout changed a length: the first instruction it changed is the error.
    let mut error = program.locate(&program.lines[unsettled], 0, 0, String::new());
    error.message = alloc::format!(
        "the instructions' lengths do not settle in {MAX_LAYOUTS} layouts (an instruction's length \
         depends on a label's address, which depends on its length)"
    );
    Err(error)
}

/// A value expansion computed from a label that the real layout moved is stale (`.set n, b - a`,
/// `.if`, `.rep`, a symbol standing for a label): the first such read is an error at its line.
fn stale_reads(program: &directives::Program, labels: &BTreeMap<String, u64>) -> Result<(), AsmError> {
    for (name, at) in &program.labels_read {
        let (Some(expanded), Some(real)) = (program.labels.get(name), labels.get(name)) else { continue };
        if expanded != real {
            let mut error = program.located(at);
            error.message = alloc::format!(
                "this line reads label `{name}` while the program is expanded, when it is at \
                 {expanded:#x} (every instruction counted a whole word); the instructions' lengths \
                 put it at {real:#x}: use the label where the instructions are read (an operand, \
                 data), or addresses that do not depend on the lengths"
            );
            return Err(error);
        }
    }
    Ok(())
}
