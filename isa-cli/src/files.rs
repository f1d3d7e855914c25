//! Reading input files (`-` is standard input) and writing output files, with errors that name
//! the file instead of panicking.

use crate::error::{Error, Result};
use std::fs;
use std::io::{self, BufRead, Read};
use std::path::Path;

/// Whether `path` means standard input.
fn is_stdin(path: &Path) -> bool {
    path.as_os_str() == "-"
}

/// How `path` is named in messages: `<stdin>` for `-`.
pub fn name(path: &Path) -> String {
    if is_stdin(path) {
        "<stdin>".to_string()
    } else {
        path.display().to_string()
    }
}

/// The whole content of `path` (or of standard input for `-`).
pub fn read_bytes(path: &Path) -> Result<Vec<u8>> {
    let mut data = Vec::new();
    let result = if is_stdin(path) {
        io::stdin().lock().read_to_end(&mut data).map(|_| ())
    } else {
        fs::read(path).map(|d| data = d)
    };
    result.map_err(|e| Error::Failed(format!("cannot read `{}`: {e}", name(path))))?;
    Ok(data)
}

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

/// The content of `path` as UTF-8 text, without a leading byte order mark.
pub fn read_text(path: &Path) -> Result<String> {
    let text = String::from_utf8(read_bytes(path)?)
        .map_err(|e| Error::Failed(format!("`{}` is not UTF-8 text: {e}", name(path))))?;
    let mut text = text;
    if text.starts_with(BOM) {
        // In place: a large source is not copied for it.
        text.drain(..BOM.len_utf8());
    }
    Ok(text)
}

/// Editors on Windows start UTF-8 files with a byte order mark; it is not text (rustc skips it too).
pub const BOM: char = '\u{feff}';

/// `text` without a leading byte order mark.
pub fn without_bom(text: &str) -> &str {
    text.strip_prefix(BOM).unwrap_or(text)
}

/// Writes `data` to `path`.
pub fn write(path: &Path, data: &[u8]) -> Result<()> {
    fs::write(path, data).map_err(|e| Error::Failed(format!("cannot write `{}`: {e}", path.display())))
}

/// Creates directory `dir` (and its parents) if it does not exist.
pub fn create_dir(dir: &Path) -> Result<()> {
    fs::create_dir_all(dir)
        .map_err(|e| Error::Failed(format!("cannot create directory `{}`: {e}", dir.display())))
}
