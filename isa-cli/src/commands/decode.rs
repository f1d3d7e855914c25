//! `isa decode`: hex words from the arguments, or from standard input one per line, each
//! decoded to its encoding name and fields (plain text with the disassembly, or JSON lines).
//! A bad word gets an error line and the rest still decode.

use crate::error::{Error, Outcome, Result};
use crate::words;
use isa_runtime::target::Target;
use isa_runtime::value::{write_json_object, write_json_string};
use std::io::{self, BufRead, Write};

/// How each word is printed.
struct Printer<'a> {
    target: &'a dyn Target,
    dialect: usize,
    json: bool,
}

impl Printer<'_> {
    /// The output line for one word as written by the user, and whether it decoded.
    fn line(&self, text: &str) -> (String, bool) {
        let bits = self.target.word_bits();
        let word = match words::parse_hex(text, bits) {
            Ok(w) => w,
            Err(e) => return (self.error(text, text, &e), false),
        };
        let hex = words::to_hex(word, bits);
        let prefixed = format!("0x{hex}");
        let decoded = match self.target.decode(word) {
            Ok(d) => d,
            Err(e) => return (self.error(&hex, &prefixed, &e.to_string()), false),
        };
        if self.json {
            let mut s = String::from("{\"word\":");
            write_json_string(&mut s, &prefixed);
            s.push_str(",\"instruction\":");
            write_json_string(&mut s, decoded.name);
            s.push_str(",\"fields\":");
            write_json_object(&mut s, &decoded.fields);
            s.push('}');
            return (s, true);
        }
        match self.target.disassemble(word, self.dialect, 0) {
            Ok(asm) => (format!("{hex}: {}  {asm}", decoded.name), true),
            Err(e) => (self.error(&hex, &prefixed, &e.to_string()), false),
        }
    }

    /// An error line; the word is shown as `plain` in text mode and as `json` in JSON mode.
    fn error(&self, plain: &str, json: &str, message: &str) -> String {
        if self.json {
            let mut s = String::from("{\"word\":");
            write_json_string(&mut s, json);
            s.push_str(",\"error\":");
            write_json_string(&mut s, message);
            s.push('}');
            s
        } else {
            format!("{plain}: error: {message}")
        }
    }
}

/// Decodes `args`, or standard input if there are none.
pub fn run(target: &dyn Target, dialect: usize, json: bool, args: &[String]) -> Result<Outcome> {
    let printer = Printer { target, dialect, json };
    let mut out = super::stdout();
    let mut failed = 0usize;
    let mut emit = |text: &str, out: &mut dyn Write| -> Result<()> {
        let (line, ok) = printer.line(text);
        failed += usize::from(!ok);
        writeln!(out, "{line}").map_err(Error::output)
    };
    if args.is_empty() {
        for (n, line) in io::stdin().lock().lines().enumerate() {
            let line =
                line.map_err(|e| Error::Failed(format!("cannot read standard input (line {}): {e}", n + 1)))?;
            let code = words::strip_comment(&line);
            if code.is_empty() {
                continue;
            }
            emit(code, &mut out)?;
            // Answer each line as it comes when another program drives `isa decode`.
            out.flush().map_err(Error::output)?;
        }
    } else {
        for arg in args {
            emit(arg.trim(), &mut out)?;
        }
    }
    out.flush().map_err(Error::output)?;
    if failed > 0 {
        super::complain(format_args!("isa: {} could not be decoded\n", super::plural(failed, "word")));
    }
    Ok(Outcome::failed_if(failed > 0))
}
