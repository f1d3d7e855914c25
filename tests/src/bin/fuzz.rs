//! The fuzzing command of issues 12 and 14 (see `isa_tests::fuzz` for what each stage checks):
//!
//! ```text
//! cargo run --release -p isa-tests --bin fuzz -- --words 10000000 --lines 100000 --specs 100000
//! ```
//!
//! prints its seed, its progress and the counts of every stage, writes each failing input to
//! the findings directory, and exits 1 if anything panicked, hung or failed a round trip.

use isa_tests::fuzz::guard::Guard;
use isa_tests::fuzz::specs::SpecPlan;
use isa_tests::fuzz::{lines, rustc, specs, words, Findings};
use std::path::PathBuf;
use std::time::{Duration, Instant};

const HELP: &str = "\
fuzz: random words, mutated assembly lines and mutated or generated specs through every target

Options (counts accept 1_000_000 and 1e6):
  --seed N            the run's seed (default: from the clock; printed either way)
  --words N           random words per instruction target (default 1e6)
  --listed N          of these, the words whose listings are assembled back, per target
                      (default: all; the rest are decoded, encoded and listed only)
  --headers N         random headers per data target (default 1e5)
  --lines N           mutated assembly lines, spread over the targets (default 1e5)
  --specs N           mutated specs: shipped specs and generated ones (default 1e4)
  --generated N       generated specs, unmutated (default 1e3)
  --compile-shipped-one-in K
                      one in K accepted mutations of shipped specs is compiled by rustc, chosen
                      by the seed and the case's number (default 100; 0: none)
  --spec-from N       the spec stage starts at case N (default 0): a stopped run goes on from
                      the `next case` its last progress line printed
  --spec-to N         and stops before case N (default: all). The cases are numbered
                      0..generated+specs, each depends on the seed and its number alone, so
                      shards (--spec-from 0 --spec-to 50000; --spec-from 50000) add up to a run
  --no-rustc          check specs, but do not compile the accepted ones
  --only STAGES       comma-separated: words, headers, lines, specs (default: all)
  --targets NAMES     comma-separated instruction targets of the words stage (default: all)
  --timeout SECS      per-case deadline of CPU time before a case counts as a hang (default 20;
                      a case blocked for 30 times it on the clock is a hang too)
  --minutes M         stop every stage after M minutes of the whole run (counts say how far it got)
  --out DIR           findings and the scratch crate (default $CARGO_TARGET_DIR/fuzz or target/fuzz)

The shipped specs, the golden corpora and the isa-runtime that rustc compiles generated modules
against come from the repository the binary was built in, or from $ISA_FUZZ_REPOSITORY (a long
run reads a checkout that does not change under it).
";

struct Args {
    seed: u64,
    words: u64,
    listed: Option<u64>,
    headers: u64,
    lines: u64,
    specs: u64,
    generated: u64,
    compile_shipped_one_in: u64,
    spec_from: u64,
    spec_to: Option<u64>,
    rustc: bool,
    only: Vec<String>,
    targets: Option<Vec<String>>,
    timeout: Duration,
    minutes: Option<u64>,
    out: PathBuf,
}

fn count(text: &str) -> Result<u64, String> {
    let t = text.replace('_', "");
    if let Some((m, e)) = t.split_once(['e', 'E']) {
        let (m, e): (u64, u32) = (
            m.parse().map_err(|_| format!("bad count {text}"))?,
            e.parse().map_err(|_| format!("bad count {text}"))?,
        );
        return 10u64.checked_pow(e).and_then(|p| p.checked_mul(m)).ok_or(format!("count {text} too large"));
    }
    t.parse().map_err(|_| format!("bad count {text}"))
}

fn parse() -> Result<Args, String> {
    let target_dir = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| isa_tests::fuzz::repository().join("target"));
    let clock = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos() as u64)
        .unwrap_or(1);
    let mut a = Args {
        seed: clock,
        words: 1_000_000,
        listed: None,
        headers: 100_000,
        lines: 100_000,
        specs: 10_000,
        generated: 1_000,
        compile_shipped_one_in: 100,
        spec_from: 0,
        spec_to: None,
        rustc: true,
        only: vec!["words".into(), "headers".into(), "lines".into(), "specs".into()],
        targets: None,
        timeout: Duration::from_secs(20),
        minutes: None,
        out: target_dir.join("fuzz"),
    };
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        let mut value = || it.next().ok_or(format!("{flag} needs a value"));
        match flag.as_str() {
            "--seed" => a.seed = count(&value()?)?,
            "--words" => a.words = count(&value()?)?,
            "--listed" => a.listed = Some(count(&value()?)?),
            "--headers" => a.headers = count(&value()?)?,
            "--lines" => a.lines = count(&value()?)?,
            "--specs" => a.specs = count(&value()?)?,
            "--generated" => a.generated = count(&value()?)?,
            "--compile-shipped-one-in" => a.compile_shipped_one_in = count(&value()?)?,
            "--spec-from" => a.spec_from = count(&value()?)?,
            "--spec-to" => a.spec_to = Some(count(&value()?)?),
            "--no-rustc" => a.rustc = false,
            "--only" => a.only = value()?.split(',').map(str::to_string).collect(),
            "--targets" => a.targets = Some(value()?.split(',').map(str::to_string).collect()),
            "--timeout" => a.timeout = Duration::from_secs(count(&value()?)?),
            "--minutes" => a.minutes = Some(count(&value()?)?),
            "--out" => a.out = PathBuf::from(value()?),
            "--help" | "-h" => {
                print!("{HELP}");
                std::process::exit(0);
            }
            other => return Err(format!("unknown option {other}\n\n{HELP}")),
        }
    }
    Ok(a)
}

/// Prints progress at most every ten seconds, and says when the run's time is up.
struct Ticker {
    last: Instant,
    end: Option<Instant>,
}

impl Ticker {
    /// Whether to go on.
    fn tick(&mut self, line: impl FnOnce() -> String) -> bool {
        let over = self.end.is_some_and(|end| Instant::now() > end);
        if over || self.last.elapsed() > Duration::from_secs(10) {
            eprintln!("  ... {}{}", line(), if over { " (time is up: stopped here)" } else { "" });
            self.last = Instant::now();
        }
        !over
    }
}

fn main() {
    let args = match parse() {
        Ok(a) => a,
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(2);
        }
    };
    let findings_dir = args.out.join("findings");
    println!(
        "fuzz: seed {} (rerun with --seed {}); findings in {}",
        args.seed,
        args.seed,
        findings_dir.display()
    );
    let mut findings = Findings::new(&findings_dir);
    let mut guard = Guard::new(args.timeout);
    let mut bad = 0u64;
    let stage = |s: &str| args.only.iter().any(|o| o == s);
    let end = args.minutes.map(|m| Instant::now() + Duration::from_secs(60 * m));
    let ticker = || Ticker { last: Instant::now(), end };

    if stage("words") {
        for (k, t) in isa_generated::targets().iter().enumerate() {
            if args.targets.as_ref().is_some_and(|names| !names.iter().any(|n| n == t.name())) {
                continue;
            }
            let start = Instant::now();
            let mut ticker = ticker();
            let c = words::fuzz_target(
                *t,
                args.words,
                args.listed.unwrap_or(args.words),
                args.seed,
                k as u64,
                &mut guard,
                &mut findings,
                &mut |c| ticker.tick(|| format!("{}: {c}", t.name())),
            );
            let secs = start.elapsed().as_secs_f64();
            println!("words {}: {c}; {:.0} words/s ({secs:.1} s)", t.name(), c.words as f64 / secs.max(1e-9));
            bad += c.panics + c.hangs + c.round_trip_failures;
        }
    }
    if stage("headers") {
        for (k, t) in isa_generated::data_targets().iter().enumerate() {
            let start = Instant::now();
            let c = words::fuzz_data_target(
                *t,
                args.headers,
                args.seed,
                0x100 + k as u64,
                &mut guard,
                &mut findings,
            );
            println!("headers {}: {c} ({:.1} s)", t.name(), start.elapsed().as_secs_f64());
            bad += c.panics + c.hangs + c.round_trip_failures;
        }
    }
    if stage("lines") {
        let start = Instant::now();
        let mut ticker = ticker();
        let c = lines::fuzz_lines(
            isa_generated::targets(),
            args.lines,
            args.seed,
            &mut guard,
            &mut findings,
            &mut |c| ticker.tick(|| format!("assembly lines: {c}")),
        );
        println!("assembly lines: {c} ({:.1} s)", start.elapsed().as_secs_f64());
        bad += c.panics + c.hangs;
    }
    if stage("specs") {
        let start = Instant::now();
        let plan = SpecPlan {
            mutated: args.specs,
            generated: args.generated,
            max_mutations: 4,
            compile: args.rustc,
            compile_shipped_one_in: args.compile_shipped_one_in,
            first: args.spec_from,
            end: args.spec_to,
        };
        let mut scratch =
            match rustc::Scratch::new(&args.out.join("scratch"), &args.out.join("scratch-target")) {
                Ok(s) => Some(s),
                Err(e) => {
                    eprintln!("cannot make the scratch crate: {e}");
                    bad += 1;
                    None
                }
            };
        let mut ticker = ticker();
        let c = specs::fuzz_specs(&plan, args.seed, &mut guard, &mut findings, scratch.as_mut(), &mut |c| {
            ticker.tick(|| format!("specs: {c}"))
        });
        println!("specs: {c} ({:.1} s; {})", start.elapsed().as_secs_f64(), specs::SpecTimes::now());
        bad += c.unlocated + c.panics + c.hangs + c.compile_failures + c.undecodable;
    }
    println!("fuzz: seed {}: {} findings, {} failing cases", args.seed, findings.written().len(), bad);
    std::process::exit(i32::from(bad > 0));
}
