//! What the program commands read and write in pieces: programs streamed from files, output spooled.

use super::{is_stdin, name, BOM};
use crate::error::{Error, Result};
use std::fs;
use std::io::BufRead;
use std::io::{self, Read};
use std::path::Path;

/// A reader of `path` (standard input for `-`), for input read piece by piece.
pub fn open(path: &Path) -> Result<Box<dyn Read>> {
    if is_stdin(path) {
        return Ok(Box::new(io::stdin().lock()));
    }
    let file =
        fs::File::open(path).map_err(|e| Error::Failed(format!("cannot read `{}`: {e}", name(path))))?;
    Ok(Box::new(file))
}

/// Hands each line of the text in `path` (standard input for `-`) to `each` with its number
/// (from 1), without its line ending and the first line without a byte order mark; one line
/// is held at a time.
pub fn for_each_line(path: &Path, each: &mut dyn FnMut(usize, &str) -> Result<()>) -> Result<()> {
    let mut input = io::BufReader::new(open(path)?);
    let mut line = Vec::new();
    for number in 1.. {
        line.clear();
        let n = input
            .read_until(b'\n', &mut line)
            .map_err(|e| Error::Failed(format!("cannot read `{}`: {e}", name(path))))?;
        if n == 0 {
            break;
        }
        // As `str::lines` ends a line: at `\n` or `\r\n`.
        let end = line.strip_suffix(b"\n").map_or(&line[..], |l| l.strip_suffix(b"\r").unwrap_or(l));
        let text = std::str::from_utf8(end)
            .map_err(|e| Error::Failed(format!("`{}` is not UTF-8 text (line {number}): {e}", name(path))))?;
        each(number, if number == 1 { without_bom(text) } else { text })?;
    }
    Ok(())
}

/// The size of `path` in bytes, when it is a regular file (not standard input or a pipe).
pub fn size(path: &Path) -> Option<u64> {
    if is_stdin(path) {
        return None;
    }
    fs::metadata(path).ok().filter(|m| m.is_file()).map(|m| m.len())
}

/// Fills `buf` from `input` as far as it goes: the bytes read, fewer than `buf.len()` only at
/// the end of the input.
pub fn read_full(input: &mut dyn Read, buf: &mut [u8], path: &Path) -> Result<usize> {
    let mut filled = 0;
    while filled < buf.len() {
        match input.read(&mut buf[filled..]) {
            Ok(0) => break,
            Ok(n) => filled += n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(Error::Failed(format!("cannot read `{}`: {e}", name(path)))),
        }
    }
    Ok(filled)
}

/// `text` without a leading byte order mark.
pub fn without_bom(text: &str) -> &str {
    text.strip_prefix(BOM).unwrap_or(text)
}

/// Bytes of a source file read at a time by [`Pieces`] (then on to the end of the line).
pub const PIECE: usize = 1 << 20;

/// A source file read a piece at a time (`isa asm` on a large source): each piece whole lines,
/// about [`PIECE`] bytes, the byte order mark skipped; read again from its start for each pass.
/// A read error, or text that is not UTF-8, ends the text and is kept in [`Pieces::error`]
/// for the caller to report.
pub struct Pieces {
    path: std::path::PathBuf,
    /// The file's name in messages.
    shown: String,
    reader: Option<io::BufReader<fs::File>>,
    /// Lines read so far, for the line of an error.
    lines: usize,
    /// Why the text ended early, if it did.
    pub error: Option<String>,
}

impl Pieces {
    /// Opens `path` (a file, not standard input), named `shown` in messages.
    pub fn open(path: &Path, shown: &str) -> Result<Self> {
        let mut pieces = Pieces {
            path: path.to_path_buf(),
            shown: shown.to_string(),
            reader: None,
            lines: 0,
            error: None,
        };
        pieces.reader = Some(pieces.reopen()?);
        Ok(pieces)
    }

    fn reopen(&self) -> Result<io::BufReader<fs::File>> {
        let file = fs::File::open(&self.path)
            .map_err(|e| Error::Failed(format!("cannot read `{}`: {e}", self.shown)))?;
        Ok(io::BufReader::new(file))
    }
}

impl isa_runtime::directives::Source for Pieces {
    fn rewind(&mut self) {
        self.lines = 0;
        match self.reopen() {
            Ok(r) => self.reader = Some(r),
            Err(e) => {
                self.reader = None;
                self.error.get_or_insert(e.to_string());
            }
        }
    }

    fn piece(&mut self) -> Option<String> {
        let reader = self.reader.as_mut()?;
        let mut piece = Vec::with_capacity(PIECE + 256);
        while piece.len() < PIECE {
            match reader.read_until(b'\n', &mut piece) {
                Ok(0) => break,
                Ok(_) => {}
                Err(e) => {
                    self.error.get_or_insert(format!("cannot read `{}`: {e}", self.shown));
                    self.reader = None;
                    return None;
                }
            }
        }
        if piece.is_empty() {
            self.reader = None;
            return None;
        }
        let first = self.lines == 0;
        match String::from_utf8(piece) {
            Ok(mut text) => {
                self.lines += text.matches('\n').count();
                if first && text.starts_with(BOM) {
                    text.drain(..BOM.len_utf8());
                }
                Some(text)
            }
            Err(e) => {
                let valid = e.utf8_error().valid_up_to();
                let line = self.lines + e.as_bytes()[..valid].iter().filter(|&&b| b == b'\n').count() + 1;
                self.error.get_or_insert(format!(
                    "`{}` is not UTF-8 text (line {line}): {}",
                    self.shown,
                    e.utf8_error()
                ));
                self.reader = None;
                None
            }
        }
    }
}

/// Standard input copied to a file of its own in the temporary directory, for input that is
/// read more than once (`isa asm` reads its source once a pass); the file goes when this does.
pub struct Spool(std::path::PathBuf);

impl Spool {
    /// Copies standard input to the file.
    pub fn stdin() -> Result<Self> {
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.subsec_nanos());
        let path = std::env::temp_dir().join(format!("isa-stdin-{}-{nanos}", std::process::id()));
        let failed =
            |e: io::Error| Error::Failed(format!("cannot copy <stdin> to `{}`: {e}", path.display()));
        let mut file = fs::OpenOptions::new().write(true).create_new(true).open(&path).map_err(failed)?;
        let spool = Spool(path.clone());
        io::copy(&mut io::stdin().lock(), &mut file).map_err(failed)?;
        Ok(spool)
    }

    /// The file.
    pub fn path(&self) -> &Path {
        &self.0
    }
}

impl Drop for Spool {
    fn drop(&mut self) {
        let _ = fs::remove_file(&self.0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use isa_runtime::directives::Source;

    /// A file of this test's own in the temporary directory.
    fn temp(name: &str, data: &[u8]) -> std::path::PathBuf {
        let path = std::env::temp_dir().join(format!("isa-files-{}-{name}", std::process::id()));
        fs::write(&path, data).unwrap();
        path
    }

    #[test]
    fn pieces_are_whole_lines_and_read_again_from_the_start() {
        // 2.5 pieces of numbered lines after a byte order mark: each piece ends at a line end
        // at most a line past PIECE bytes, together they are the text without the mark, and a
        // rewind reads the same pieces again.
        let mut text = String::new();
        let mut k = 0;
        while text.len() < PIECE * 5 / 2 {
            text.push_str(&format!("line {k}\n"));
            k += 1;
        }
        text.push_str("last line without its end");
        let path = temp("pieces", format!("{BOM}{text}").as_bytes());
        let mut pieces = Pieces::open(&path, "t.s").unwrap();
        let mut read = Vec::new();
        while let Some(p) = pieces.piece() {
            read.push(p);
        }
        assert_eq!(read.len(), 3);
        // (The first piece without the mark's 3 bytes.)
        let sizes = |p: &String| p.ends_with('\n') && p.len() + 3 >= PIECE && p.len() < PIECE + 16;
        assert!(read[..2].iter().all(sizes));
        assert_eq!(read.concat(), text);
        pieces.rewind();
        assert_eq!(pieces.piece().as_deref(), Some(read[0].as_str()));
        assert!(pieces.error.is_none());
        fs::remove_file(&path).unwrap();
    }

    #[test]
    fn pieces_end_at_text_that_is_not_utf8_with_its_line() {
        let mut data = "a\n".repeat(PIECE / 2 + 3).into_bytes();
        data.extend_from_slice(b"b\xff\n");
        let path = temp("not-utf8", &data);
        let mut pieces = Pieces::open(&path, "t.s").unwrap();
        let first = pieces.piece().unwrap();
        assert_eq!(first.len(), PIECE);
        assert_eq!(pieces.piece(), None);
        let line = PIECE / 2 + 4;
        let error = pieces.error.clone().unwrap();
        assert!(error.contains(&format!("is not UTF-8 text (line {line})")), "{error}");
        fs::remove_file(&path).unwrap();
    }
}
