//! The fuzzer of issues 12 and 14: random words through every built-in target, mutated
//! assembly lines through every assembler, mutated and generated specs through the checker and
//! every accepted spec through the Rust backend and rustc.
//!
//! It is a library module with two front ends, because the two runs differ only in size: the
//! `fuzz` binary of this crate (`cargo run --release -p isa-tests --bin fuzz -- --help`) makes
//! the full run in release mode with counts on the command line, and the `fuzz` module of the
//! integration tests runs a slice of the same code on every `cargo test`. A binary rather than
//! `#[ignore]`d tests, because a full run wants release code, arguments and a report, not a
//! test harness.
//!
//! Every case is reproducible: the run's seed is printed and settable (`--seed`), each case's
//! input is derived from the seed and the case's number alone, and every failing input is
//! written to the findings directory with what went wrong. Cases run under a [`guard::Guard`]:
//! a panic is caught and reported with its input, a case that misses its deadline is a hang.

pub mod guard;
pub mod lines;
pub mod rustc;
pub mod specs;
pub mod words;

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// splitmix64: turns (seed, stage, case number) into independent case seeds.
pub fn case_seed(seed: u64, stage: u64, case: u64) -> u64 {
    let mut z = seed ^ stage.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ case.wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    // xorshift never leaves 0.
    (z ^ (z >> 31)) | 1
}

/// A deterministic random source for one case.
pub struct Rand(crate::Rng);

impl Rand {
    /// The generator for `seed` (any value; see [`case_seed`]).
    pub fn new(seed: u64) -> Self {
        Rand(crate::Rng(seed | 1))
    }
    /// 64 random bits.
    pub fn bits(&mut self) -> u64 {
        self.0.next()
    }
    /// 128 random bits.
    pub fn wide(&mut self) -> u128 {
        u128::from(self.bits()) << 64 | u128::from(self.bits())
    }
    /// A number in `0..n` (0 when `n` is 0).
    pub fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            (self.bits() % n as u64) as usize
        }
    }
    /// True with probability 1/`n`.
    pub fn one_in(&mut self, n: usize) -> bool {
        self.below(n) == 0
    }
    /// A random element of `items`.
    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> Option<&'a T> {
        items.get(self.below(items.len()))
    }
}

/// Where failing inputs go: one file per finding, named by its kind and number.
pub struct Findings {
    dir: PathBuf,
    written: Vec<PathBuf>,
}

impl Findings {
    /// Findings written under `dir` (created on the first finding).
    pub fn new(dir: &Path) -> Self {
        Findings { dir: dir.to_path_buf(), written: Vec::new() }
    }

    /// The directory findings are written to.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Records a finding: `what` went wrong on `input`; returns the file it was written to.
    pub fn record(&mut self, kind: &str, extension: &str, what: &str, input: &str) -> PathBuf {
        let path = self.dir.join(format!("{kind}-{:04}.{extension}", self.written.len()));
        let mut text = String::new();
        for line in what.lines() {
            let _ = writeln!(text, "// {line}");
        }
        text.push_str(input);
        let _ = std::fs::create_dir_all(&self.dir);
        if let Err(e) = std::fs::write(&path, text) {
            eprintln!("cannot write {}: {e}", path.display());
        }
        eprintln!("finding: {kind}: {} ({})", what.lines().next().unwrap_or(""), path.display());
        self.written.push(path.clone());
        path
    }

    /// Every file written so far.
    pub fn written(&self) -> &[PathBuf] {
        &self.written
    }

    /// Writes the input of the case about to run, so a case that aborts the process (a stack
    /// overflow cannot be caught) leaves its input behind.
    pub fn in_flight(&self, extension: &str, input: &str) {
        let _ = std::fs::create_dir_all(&self.dir);
        let _ = std::fs::write(self.dir.join(format!("in-flight.{extension}")), input);
    }

    /// Removes the in-flight input once the run is over.
    pub fn clear_in_flight(&self, extension: &str) {
        let _ = std::fs::remove_file(self.dir.join(format!("in-flight.{extension}")));
    }
}

/// The repository's root (this crate is `tests/` in it), or `$ISA_FUZZ_REPOSITORY`: the shipped
/// specs, the golden corpora and the `isa-runtime` that rustc compiles generated modules
/// against are read from it, so a long run can read a checkout that does not change under it.
pub fn repository() -> PathBuf {
    match std::env::var_os("ISA_FUZZ_REPOSITORY") {
        Some(dir) => PathBuf::from(dir),
        None => Path::new(env!("CARGO_MANIFEST_DIR")).join(".."),
    }
}

/// Numbers a mutated spec puts where a number was: the edges of widths and bit positions.
pub const NUMBERS_SPEC: &[&str] = &[
    "0",
    "1",
    "2",
    "3",
    "4",
    "7",
    "8",
    "15",
    "16",
    "31",
    "32",
    "33",
    "63",
    "64",
    "65",
    "127",
    "128",
    "129",
    "255",
    "256",
    "65535",
    "65536",
    "0xffffffff",
    "0xffffffffffffffff",
    "18446744073709551616",
    "340282366920938463463374607431768211455",
    "99999999999999999999999999999999999999999",
    "0x",
    "0b2",
    "1_0",
];
