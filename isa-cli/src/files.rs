//! Reading input files (`-` is standard input) and writing output files, with errors that name
//! the file instead of panicking.

use crate::error::{Error, Result};
use std::fs;
use std::io::{self, Read};
use std::path::Path;

// The program commands' reading and writing in pieces, with the built-in targets.
#[cfg(feature = "targets")]
mod streamed;
#[cfg(feature = "targets")]
pub use streamed::*;

/// Whether `path` means standard input.
pub fn is_stdin(path: &Path) -> bool {
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

/// Writes `data` to `path`.
pub fn write(path: &Path, data: &[u8]) -> Result<()> {
    fs::write(path, data).map_err(|e| Error::Failed(format!("cannot write `{}`: {e}", path.display())))
}

/// Creates directory `dir` (and its parents) if it does not exist.
pub fn create_dir(dir: &Path) -> Result<()> {
    fs::create_dir_all(dir)
        .map_err(|e| Error::Failed(format!("cannot create directory `{}`: {e}", dir.display())))
}
