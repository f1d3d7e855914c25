//! `isa asm`: assembles a source text in a dialect into words, written as binary (the
//! target's byte order) or as hex text. Errors are `FILE:LINE:COL: error: message` with the
//! source line and a caret under the column.

use super::{complain, stdout};
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

/// Assembles the source file.
pub fn run(target: &dyn Target, dialect: usize, opts: &Options<'_>) -> Result<Outcome> {
    let source = files::read_text(opts.file)?;
    let words = match target.assemble(&source, dialect) {
        Ok(words) => words,
        Err(errors) => {
            let name = files::name(opts.file);
            for e in &errors {
                complain(format_args!("{}", report(&name, &source, e)));
            }
            return Ok(Outcome::Failure);
        }
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

/// One error as `FILE:LINE:COL: error: message`, then the line with a caret under the column.
fn report(file: &str, source: &str, e: &AsmError) -> String {
    // Errors found after parsing (encoding) have no position.
    if e.line == 0 {
        return format!("{file}: error: {}\n", e.message);
    }
    let mut s = format!("{file}:{}:{}: error: {}\n", e.line, e.column, e.message);
    if let Some(line) = source.lines().nth(e.line - 1) {
        // One column per character, so tabs become single spaces to keep the caret in place.
        let shown: String = line.chars().map(|c| if c == '\t' { ' ' } else { c }).collect();
        let number = e.line.to_string();
        let pad = " ".repeat(number.len());
        let caret = " ".repeat(e.column.saturating_sub(1));
        s.push_str(&format!("{pad} |\n{number} | {shown}\n{pad} | {caret}^\n"));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn error_report() {
        let e = AsmError { line: 2, column: 5, message: "expected register".into() };
        assert_eq!(
            report("p.s", "nop\n\tadd x\n", &e),
            "p.s:2:5: error: expected register\n  |\n2 |  add x\n  |     ^\n"
        );
        let e = AsmError { line: 0, column: 0, message: "too big".into() };
        assert_eq!(report("p.s", "", &e), "p.s: error: too big\n");
    }
}
