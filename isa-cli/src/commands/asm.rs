//! `isa asm`: assembles a source text in a dialect into words, written as binary (the
//! target's byte order) or as hex text. Errors are `FILE:LINE:COL: error: message` with the
//! source line and a caret under the column.

use super::{complain, plural, stdout};
use crate::error::{Error, Outcome, Result};
use crate::{files, words};
use isa_runtime::target::Target;
use isa_runtime::AsmError;
use std::io::{IsTerminal, Write};
use std::path::Path;

/// What `isa asm` was asked to do.
pub struct Options<'a> {
    /// The source file (`-` for standard input).
    pub file: &'a Path,
    /// Where to write the words; standard output if `None`.
    pub out: Option<&'a Path>,
    /// Write hex text (one word per line) instead of binary.
    pub hex: bool,
}

/// How many errors are printed in full; the rest are only counted (as the spec checker does).
pub const SHOWN: usize = 100;

/// Assembles the source file.
pub fn run(target: &dyn Target, dialect: usize, opts: &Options<'_>) -> Result<Outcome> {
    let source = files::read_text(opts.file)?;
    let name = files::name(opts.file);
    // Each error is printed as it is found, so a long source shows its first ones at once.
    let mut errors = 0usize;
    let assembled = target.assemble_reporting(&source, dialect, &mut |e, line| {
        errors += 1;
        if errors <= SHOWN {
            complain(format_args!("{}", report(&name, line, e)));
        }
    });
    let Some(words) = assembled else {
        if errors > SHOWN {
            let more = errors - SHOWN;
            complain(format_args!("... and {more} more error{}\n", if more == 1 { "" } else { "s" }));
        }
        complain(format_args!("isa: {name}: found {}\n", plural(errors, "error")));
        return Ok(Outcome::Failure);
    };
    let data = if opts.hex {
        let mut text = String::new();
        for w in &words {
            text.push_str(&words::to_hex(*w, target.word_bits()));
            text.push('\n');
        }
        text.into_bytes()
    } else {
        words::to_binary(&words, target)
    };
    match opts.out {
        Some(path) => files::write(path, &data)?,
        None => {
            let mut out = stdout();
            if !opts.hex && out.get_ref().is_terminal() {
                return Err(Error::Usage(
                    "not writing binary words to a terminal; use -o FILE or --hex".into(),
                ));
            }
            out.write_all(&data).map_err(Error::output)?;
            out.flush().map_err(Error::output)?;
        }
    }
    Ok(Outcome::Success)
}

/// One error as `FILE:LINE:COL: error: message`, then its line with carets under the token it
/// is about (one at its column when it is about no token).
fn report(file: &str, line: &str, e: &AsmError) -> String {
    // Errors found after parsing (encoding) have no position.
    if e.line == 0 {
        return format!("{file}: error: {}\n", e.message);
    }
    let mut s = format!("{file}:{}:{}: error: {}\n", e.line, e.column, e.message);
    // One column per character, so tabs become single spaces to keep the carets in place.
    let shown: String = line.chars().map(|c| if c == '\t' { ' ' } else { c }).collect();
    let number = e.line.to_string();
    let pad = " ".repeat(number.len());
    let caret = format!("{}{}", " ".repeat(e.column.saturating_sub(1)), "^".repeat(e.length.max(1)));
    s.push_str(&format!("{pad} |\n{number} | {shown}\n{pad} | {caret}\n"));
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn error_report() {
        let e = AsmError { line: 2, column: 5, length: 0, message: "expected register".into() };
        assert_eq!(
            report("p.s", "\tadd x", &e),
            "p.s:2:5: error: expected register\n  |\n2 |  add x\n  |     ^\n"
        );
        // The whole token is underlined.
        let e = AsmError { line: 7, column: 2, length: 5, message: "unknown mnemonic `bogus`".into() };
        assert_eq!(
            report("p.s", " bogus r0", &e),
            "p.s:7:2: error: unknown mnemonic `bogus`\n  |\n7 |  bogus r0\n  |  ^^^^^\n"
        );
        let e = AsmError { line: 0, column: 0, length: 0, message: "too big".into() };
        assert_eq!(report("p.s", "", &e), "p.s: error: too big\n");
    }
}
