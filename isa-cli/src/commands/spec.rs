//! `isa check`, `isa gen` and `isa docs`: the spec compiler's front half and its backends on one
//! `.isa` file. Diagnostics go to standard error, rendered like rustc's.

use super::{complain, say};
use crate::error::{Error, Outcome, Result};
use crate::files;
use isa_compiler::{backend, diag, ir};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// Reads and checks a spec; on errors prints the diagnostics and returns `None`.
fn load(path: &Path) -> Result<Option<ir::Target>> {
    let source = files::read_text(path)?;
    match isa_compiler::check_source(&source) {
        Ok(target) => Ok(Some(target)),
        Err(diags) => {
            complain(format_args!("{}", diag::render(&files::name(path), &source, &diags)));
            Ok(None)
        }
    }
}

/// `isa check FILE`: diagnostics, or a one-line summary of the target.
pub fn check(path: &Path) -> Result<Outcome> {
    let Some(t) = load(path)? else {
        return Ok(Outcome::Failure);
    };
    say(format_args!(
        "{}: ok: target {} ({}), {}-bit words, {} formats",
        files::name(path),
        t.name,
        t.title,
        t.word_bits,
        t.formats.len()
    ))?;
    Ok(Outcome::Success)
}

/// Writes `outputs` (file name, content) into `dir`, reporting each file written.
fn write_all(dir: &Path, outputs: &[(String, String)]) -> Result<()> {
    files::create_dir(dir)?;
    for (name, content) in outputs {
        let path = dir.join(name);
        files::write(&path, content.as_bytes())?;
        say(format_args!("wrote {}", path.display()))?;
    }
    Ok(())
}

/// A target name usable as a file name (the checker already requires an identifier).
fn file_stem(t: &ir::Target) -> Result<&str> {
    let ok = !t.name.is_empty() && t.name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
    if ok {
        Ok(&t.name)
    } else {
        Err(Error::Failed(format!("target name `{}` cannot be used as a file name", t.name)))
    }
}

/// `isa gen FILE -o DIR`: writes `DIR/<target>.rs`.
pub fn gen(path: &Path, dir: &Path) -> Result<Outcome> {
    let Some(t) = load(path)? else {
        return Ok(Outcome::Failure);
    };
    write_rust(path, &t, dir)?;
    Ok(Outcome::Success)
}

/// Writes a checked spec's Rust module, `DIR/<target>.rs`.
fn write_rust(path: &Path, t: &ir::Target, dir: &Path) -> Result<()> {
    write_all(dir, &[rust_of(path, t)?])
}

/// A checked spec's Rust module: its file name and text.
fn rust_of(path: &Path, t: &ir::Target) -> Result<(String, String)> {
    let stem = file_stem(t)?;
    // The header names the spec as given, so `isa gen isa-specs/x.isa` run from the workspace
    // root writes what the `isa-generated` build script writes, formatted (the build script
    // writes the same tokens unformatted: only rustc reads them).
    Ok((format!("{stem}.rs"), backend::rust::generate_from(t, &files::name(path))))
}

/// `isa docs FILE -o DIR`: writes `DIR/<target>.md` and `DIR/<target>.html`.
pub fn docs(path: &Path, dir: &Path) -> Result<Outcome> {
    let Some(t) = load(path)? else {
        return Ok(Outcome::Failure);
    };
    write_docs(&t, dir)?;
    Ok(Outcome::Success)
}

/// Writes a checked spec's documentation, `DIR/<target>.md` and `DIR/<target>.html`.
fn write_docs(t: &ir::Target, dir: &Path) -> Result<()> {
    write_all(dir, &docs_of(t)?)
}

/// A checked spec's documentation: file names and texts.
fn docs_of(t: &ir::Target) -> Result<[(String, String); 2]> {
    let stem = file_stem(t)?;
    Ok([(format!("{stem}.md"), backend::docs::markdown(t)), (format!("{stem}.html"), backend::docs::html(t))])
}

/// `isa build SPECS -o DIR`: every spec in `SPECS`, checked, with its Rust in `DIR/rust` and its
/// documentation in `DIR/docs`. Every spec is checked (its diagnostics printed once); the outcome
/// fails if any fails. Two specs of one target would write the same files: that is an error
/// naming both, before anything is written.
pub fn build(specs: &Path, dir: &Path) -> Result<Outcome> {
    let mut paths: Vec<PathBuf> = std::fs::read_dir(specs)
        .map_err(|e| Error::Failed(format!("cannot read {}: {e}", specs.display())))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "isa"))
        .collect();
    paths.sort();
    if paths.is_empty() {
        return Err(Error::Failed(format!("no .isa files in {}", specs.display())));
    }
    let mut outcome = Outcome::Success;
    let mut checked: Vec<(&Path, ir::Target)> = Vec::new();
    for path in &paths {
        match load(path)? {
            Some(t) => checked.push((path, t)),
            None => outcome = Outcome::Failure,
        }
    }
    let mut first_of: BTreeMap<&str, &Path> = BTreeMap::new();
    for (path, t) in &checked {
        if let Some(first) = first_of.insert(&t.name, path) {
            return Err(Error::Failed(format!(
                "{} and {} both describe target `{}`: both would be written to {}",
                files::name(first),
                files::name(path),
                t.name,
                dir.join("rust").join(format!("{}.rs", t.name)).display()
            )));
        }
    }
    for (rust, docs) in generate_all(&checked) {
        write_all(&dir.join("rust"), &[rust?])?;
        write_all(&dir.join("docs"), &docs?)?;
    }
    Ok(outcome)
}

/// Each checked spec's Rust and documentation, in the specs' order. Generating is most of a
/// build's time and each target's is its own, so the targets are shared out over the machine's
/// cores, each thread taking the next target not yet taken.
#[allow(clippy::type_complexity)]
fn generate_all(
    checked: &[(&Path, ir::Target)],
) -> Vec<(Result<(String, String)>, Result<[(String, String); 2]>)> {
    let next = std::sync::atomic::AtomicUsize::new(0);
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get()).min(checked.len());
    let mut done: Vec<(usize, _)> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads)
            .map(|_| {
                scope.spawn(|| {
                    let mut mine = Vec::new();
                    loop {
                        let k = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        let Some((path, t)) = checked.get(k) else { break mine };
                        mine.push((k, (rust_of(path, t), docs_of(t))));
                    }
                })
            })
            .collect();
        workers
            .into_iter()
            .flat_map(|w| w.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic)))
            .collect()
    });
    done.sort_by_key(|(k, _)| *k);
    done.into_iter().map(|(_, out)| out).collect()
}
