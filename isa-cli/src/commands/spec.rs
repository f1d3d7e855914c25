//! `isa check`, `isa gen` and `isa docs`: the spec compiler's front half and its backends on one
//! `.isa` file. Diagnostics go to standard error, rendered like rustc's.

use super::{complain, say};
use crate::error::{Error, Outcome, Result};
use crate::files;
use isa_compiler::{backend, diag, ir};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::{Condvar, Mutex, OnceLock};

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
/// documentation in `DIR/docs`. Every spec is checked (its diagnostics printed once, in the
/// specs' order); the outcome fails if any fails. Two specs of one target would write the same
/// files: that is an error naming both, before anything is written.
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
    let made = make_all(&paths);
    let mut outcome = Outcome::Success;
    let mut checked = Vec::new();
    for ((path, check), outputs) in paths.iter().zip(made.checks).zip(made.outputs) {
        match check.into_inner().expect("every spec is checked")? {
            Ok(t) => checked.push((path.as_path(), t, outputs)),
            Err(diagnostics) => {
                complain(format_args!("{diagnostics}"));
                outcome = Outcome::Failure;
            }
        }
    }
    let mut first_of: BTreeMap<&str, &Path> = BTreeMap::new();
    for (path, t, _) in &checked {
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
    for (path, t, outputs) in &checked {
        let stem = file_stem(t)?;
        let parts: Option<Vec<String>> =
            outputs.rust.iter().map(|part| part.get().cloned().flatten()).collect();
        let source = files::name(path);
        let rust = match parts {
            Some(parts) => backend::rust::assemble(&source, &parts),
            // A part syn could not parse: the module unformatted, with the error.
            None => backend::rust::generate_from(t, &source),
        };
        write_all(&dir.join("rust"), &[(format!("{stem}.rs"), rust)])?;
        let [markdown, html] =
            [&outputs.markdown, &outputs.html].map(|d| d.get().cloned().unwrap_or_default());
        write_all(&dir.join("docs"), &[(format!("{stem}.md"), markdown), (format!("{stem}.html"), html)])?;
    }
    Ok(outcome)
}

/// A spec read and checked: its target, or its diagnostics rendered.
type Checked = Result<std::result::Result<ir::Target, String>>;

/// Reads and checks a spec, keeping its diagnostics to print in the specs' order.
fn check_quietly(path: &Path) -> Checked {
    let source = files::read_text(path)?;
    Ok(isa_compiler::check_source(&source).map_err(|diags| diag::render(&files::name(path), &source, &diags)))
}

/// What `isa build` makes of the specs, each in its slot: every check, and for each spec that
/// passed, its Rust module's parts (see [`backend::rust::generate_part`]) and its documentation.
struct Made {
    checks: Vec<OnceLock<Checked>>,
    outputs: Vec<Outputs>,
}

/// One spec's outputs (see [`Made`]).
struct Outputs {
    rust: Vec<OnceLock<Option<String>>>,
    markdown: OnceLock<String>,
    html: OnceLock<String>,
}

/// A piece of `isa build`'s work, for one thread.
#[derive(Clone, Copy)]
enum Task {
    /// Read and check spec `k`; if it passes, its other tasks follow.
    Check(usize),
    /// Part `.1` of spec `k`'s Rust module.
    Rust(usize, usize),
    Markdown(usize),
    Html(usize),
}

/// Checks every spec and makes the outputs of those that pass. Parsing and formatting the
/// Rust is most of a build's time, and the two largest specs are most of that, so the work is
/// cut finer than a spec: each check, each part of a module and each document is a task, and
/// the machine's cores take the next task from one stack until none is left or running (a
/// check adds its spec's tasks). What each task makes goes to its own slot: the outputs and
/// their order do not depend on the threads.
fn make_all(paths: &[PathBuf]) -> Made {
    let made = Made {
        checks: paths.iter().map(|_| OnceLock::new()).collect(),
        outputs: paths
            .iter()
            .map(|_| Outputs {
                rust: (0..backend::rust::PARTS).map(|_| OnceLock::new()).collect(),
                markdown: OnceLock::new(),
                html: OnceLock::new(),
            })
            .collect(),
    };
    let run = |task: Task| -> Vec<Task> {
        let target = |k: usize| match made.checks[k].get() {
            Some(Ok(Ok(t))) => t,
            _ => unreachable!("a spec's outputs are made once it passed its check"),
        };
        match task {
            Task::Check(k) => {
                let passed = matches!(made.checks[k].get_or_init(|| check_quietly(&paths[k])), Ok(Ok(_)));
                if !passed {
                    return Vec::new();
                }
                let rust = (0..backend::rust::PARTS).map(|part| Task::Rust(k, part));
                rust.chain([Task::Markdown(k), Task::Html(k)]).collect()
            }
            Task::Rust(k, part) => {
                made.outputs[k].rust[part].get_or_init(|| backend::rust::generate_part(target(k), part));
                Vec::new()
            }
            Task::Markdown(k) => {
                made.outputs[k].markdown.get_or_init(|| backend::docs::markdown(target(k)));
                Vec::new()
            }
            Task::Html(k) => {
                made.outputs[k].html.get_or_init(|| backend::docs::html(target(k)));
                Vec::new()
            }
        }
    };
    // The tasks to take (the next on top) and how many are running.
    let state = Mutex::new(((0..paths.len()).rev().map(Task::Check).collect::<Vec<_>>(), 0usize));
    let changed = Condvar::new();
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| loop {
                let task = {
                    let mut guard = state.lock().unwrap_or_else(|e| e.into_inner());
                    loop {
                        let (tasks, running) = &mut *guard;
                        if let Some(task) = tasks.pop() {
                            *running += 1;
                            break task;
                        }
                        if *running == 0 {
                            return;
                        }
                        guard = changed.wait(guard).unwrap_or_else(|e| e.into_inner());
                    }
                };
                // Counts the task done even if it panics, so that no thread waits for it; the
                // panic then ends the scope.
                let mut done = Done { state: &state, changed: &changed, more: Vec::new() };
                done.more = run(task);
            });
        }
    });
    made
}

/// Marks a task done when dropped: its follow-up tasks added, the running count lowered and
/// the waiting threads woken.
struct Done<'a> {
    state: &'a Mutex<(Vec<Task>, usize)>,
    changed: &'a Condvar,
    more: Vec<Task>,
}

impl Drop for Done<'_> {
    fn drop(&mut self) {
        let mut guard = self.state.lock().unwrap_or_else(|e| e.into_inner());
        let (tasks, running) = &mut *guard;
        // The first follow-up on top, taken next.
        tasks.extend(self.more.drain(..).rev());
        *running -= 1;
        self.changed.notify_all();
    }
}
