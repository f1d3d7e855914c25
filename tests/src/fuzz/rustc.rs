//! Accepted specs through rustc: one scratch crate with a path dependency on `isa-runtime`
//! holds a batch of generated modules (`#![deny(warnings)]`, `#![forbid(unsafe_code)]`); a
//! batch that does not compile is halved until the failing specs are found. Its binary then
//! checks that every format of every spec decodes at least one word, built from the format's
//! fixed bits, defaults and random values of the other fields.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// One accepted spec on its way to rustc.
#[derive(Debug, Clone)]
pub struct Unit {
    /// Where it came from (for the findings).
    pub origin: String,
    /// The spec.
    pub source: String,
    /// Its generated Rust module.
    pub rust: String,
    /// Its instruction type, if it has instructions.
    pub unit: Option<String>,
}

/// What rustc and the decode check said of one spec.
#[derive(Debug, Clone, PartialEq)]
pub enum Verdict {
    /// Compiled without warnings; every format decodes a word.
    Fine,
    /// Compiled, but these formats decode no word that was tried.
    Undecodable(Vec<String>),
    /// rustc's errors (warnings are errors).
    CompileError(String),
}

/// The names of the encodings `source` declares `reserved` (none if it is not a valid spec).
fn reserved_formats(source: &str) -> Vec<String> {
    isa_compiler::check_source(source).map_or_else(
        |_| Vec::new(),
        |t| t.formats.iter().filter(|f| f.reserved.is_some()).map(|f| f.name.clone()).collect(),
    )
}

/// The scratch crate.
pub struct Scratch {
    dir: PathBuf,
    target_dir: PathBuf,
}

/// The decode check, compiled into the scratch binary: for each format, words from its fixed
/// bits with every other field 0, its default, all ones or random, until one decodes as it. A
/// field whose `in` clause restricts it takes the ends of its ranges or a value inside one.
const CHECK: &str = r#"
fn undecodable<T: isa_runtime::target::Isa>() -> Vec<&'static str> {
    let mut state = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let mut out = Vec::new();
    'formats: for (i, format) in T::formats().iter().enumerate() {
        for attempt in 0..4096 {
            let mut word = 0u128;
            for field in format.fields.iter().filter(|f| !f.view) {
                let value = match (field.fixed, attempt, next() % 4) {
                    (Some(v), _, _) => v,
                    (None, _, pick) if !field.allowed.is_empty() => {
                        let (lo, hi) = field.allowed[(next() % field.allowed.len() as u64) as usize];
                        match pick {
                            0 => lo,
                            1 => hi,
                            _ => lo + next() % (hi - lo).saturating_add(1).max(1),
                        }
                    }
                    (None, 0, _) => 0,
                    (None, 1, _) | (None, _, 0) => field.default.unwrap_or(0),
                    (None, _, 1) => 0,
                    (None, _, 2) => u64::MAX,
                    _ => next(),
                };
                isa_runtime::bits::set(&mut word, field.pieces, value);
            }
            if decodes_as::<T>(word, i) {
                continue 'formats;
            }
        }
        out.push(format.name);
    }
    out
}

/// Whether `word` reads as format `i`: through the target's decoder, or for a bundled target
/// (whose words are read per stream) as the first of its stream's formats whose fixed bits the
/// word holds and whose fields give the word back.
fn decodes_as<T: isa_runtime::target::Isa>(word: u128, i: usize) -> bool {
    let Some(bundles) = T::bundles() else {
        return T::decode(word).is_ok_and(|insn| T::format_index(&insn) == i);
    };
    let reads = |f: usize| {
        let format = T::formats()[f];
        let values = format.unpack(word);
        format.fields.iter().zip(&values).all(|(x, v)| x.fixed.is_none_or(|fixed| fixed == *v))
            && format.pack(&values) == word
    };
    match bundles.streams.iter().find(|s| s.formats.contains(&i)) {
        Some(stream) => stream.formats.iter().copied().find(|&f| reads(f)) == Some(i),
        // A unit's alternative format, tried where the stream's own formats give no text.
        None => reads(i),
    }
}
"#;

impl Scratch {
    /// The scratch crate in `dir`, built in `target_dir`.
    pub fn new(dir: &Path, target_dir: &Path) -> std::io::Result<Self> {
        std::fs::create_dir_all(dir.join("src"))?;
        let runtime = super::repository().join("isa-runtime");
        let manifest = format!(
            "[package]\nname = \"isa-fuzz-scratch\"\nversion = \"0.0.0\"\nedition = \"2021\"\npublish = false\n\n\
             [dependencies]\nisa-runtime = {{ path = {:?} }}\n\n\
             [profile.dev]\ndebug = false\nincremental = false\n\n[workspace]\n",
            runtime.display().to_string()
        );
        std::fs::write(dir.join("Cargo.toml"), manifest)?;
        Ok(Scratch { dir: dir.to_path_buf(), target_dir: target_dir.to_path_buf() })
    }

    /// Writes `units` as the crate's modules and its decode-check binary.
    fn write(&self, units: &[&Unit]) -> std::io::Result<()> {
        let src = self.dir.join("src");
        for entry in std::fs::read_dir(&src)?.flatten() {
            std::fs::remove_file(entry.path())?;
        }
        let mut lib =
            String::from("//! Generated specs of the fuzzer.\n#![deny(warnings)]\n#![forbid(unsafe_code)]\n");
        let mut main = String::from("#![deny(warnings)]\n");
        main.push_str(CHECK);
        main.push_str("\nfn main() {\n");
        for (i, u) in units.iter().enumerate() {
            let _ = writeln!(lib, "pub mod s{i};");
            std::fs::write(src.join(format!("s{i}.rs")), &u.rust)?;
            if let Some(unit) = &u.unit {
                let _ = writeln!(
                    main,
                    "    for f in undecodable::<isa_fuzz_scratch::s{i}::{unit}>() {{ println!(\"{i}\\t{{f}}\"); }}"
                );
            }
        }
        main.push_str("}\n");
        std::fs::write(src.join("lib.rs"), lib)?;
        std::fs::write(src.join("main.rs"), main)
    }

    fn cargo(&self) -> Command {
        let mut c = Command::new(std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into()));
        c.current_dir(&self.dir).env("CARGO_TARGET_DIR", &self.target_dir).env_remove("RUSTFLAGS");
        c
    }

    /// Builds the crate as written: `Err` holds rustc's messages.
    fn build(&self) -> Result<(), String> {
        let out = self
            .cargo()
            .args(["build", "--offline", "--quiet", "--message-format", "short"])
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .output()
            .map_err(|e| format!("cannot run cargo: {e}"))?;
        if out.status.success() {
            Ok(())
        } else {
            Err(String::from_utf8_lossy(&out.stderr).into_owned())
        }
    }

    /// Runs the decode check: the formats of each module (by number) that decode nothing.
    fn run_check(&self, modules: usize) -> Result<Vec<Vec<String>>, String> {
        let exe =
            self.target_dir.join("debug").join(format!("isa-fuzz-scratch{}", std::env::consts::EXE_SUFFIX));
        let mut child = Command::new(&exe)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| format!("cannot run {}: {e}", exe.display()))?;
        let start = Instant::now();
        loop {
            match child.try_wait() {
                Ok(Some(_)) => break,
                Ok(None) if start.elapsed() > Duration::from_secs(120) => {
                    let _ = child.kill();
                    return Err("the decode check did not end in 120 s".into());
                }
                Ok(None) => std::thread::sleep(Duration::from_millis(20)),
                Err(e) => return Err(e.to_string()),
            }
        }
        let out = child.wait_with_output().map_err(|e| e.to_string())?;
        if !out.status.success() {
            return Err(format!("the decode check failed: {}", String::from_utf8_lossy(&out.stderr)));
        }
        let mut bad = vec![Vec::new(); modules];
        for line in String::from_utf8_lossy(&out.stdout).lines() {
            if let Some((i, name)) = line.split_once('\t') {
                if let Some(list) = i.parse::<usize>().ok().and_then(|i| bad.get_mut(i)) {
                    list.push(name.to_string());
                }
            }
        }
        Ok(bad)
    }

    /// Compiles `units` together, halving a batch that fails until each failure is one spec.
    pub fn compile(&mut self, units: &[Unit]) -> Vec<Verdict> {
        let refs: Vec<&Unit> = units.iter().collect();
        self.compile_refs(&refs)
    }

    fn compile_refs(&mut self, units: &[&Unit]) -> Vec<Verdict> {
        if units.is_empty() {
            return Vec::new();
        }
        if let Err(e) = self.write(units) {
            return vec![Verdict::CompileError(format!("cannot write the scratch crate: {e}")); units.len()];
        }
        match self.build() {
            Ok(()) => match self.run_check(units.len()) {
                Ok(bad) => bad
                    .into_iter()
                    .zip(units)
                    .map(|(formats, unit)| {
                        // A `reserved "why"` encoding never decodes: the spec says why.
                        let reserved = reserved_formats(&unit.source);
                        let formats: Vec<String> =
                            formats.into_iter().filter(|f| !reserved.contains(f)).collect();
                        if formats.is_empty() {
                            Verdict::Fine
                        } else {
                            Verdict::Undecodable(formats)
                        }
                    })
                    .collect(),
                Err(e) if units.len() == 1 => vec![Verdict::CompileError(e)],
                Err(_) => self.halves(units),
            },
            Err(e) if units.len() == 1 => vec![Verdict::CompileError(e)],
            Err(_) => self.halves(units),
        }
    }

    fn halves(&mut self, units: &[&Unit]) -> Vec<Verdict> {
        let (a, b) = units.split_at(units.len() / 2);
        let mut out = self.compile_refs(a);
        out.extend(self.compile_refs(b));
        out
    }
}
