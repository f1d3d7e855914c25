//! The fuzzer's slice on every change (issues 12 and 14): a few thousand random words through
//! every built-in target, mutated assembly lines, and mutated and generated specs through the
//! checker and rustc, all with nothing panicking, hanging or failing a round trip. The full
//! run is the `fuzz` binary (`cargo run --release -p isa-tests --bin fuzz`, see the README).
//! The machinery is tested too: a panic, a hang, a warning in generated Rust and a format that
//! cannot decode are each caught.

use isa_tests::fuzz::guard::{Guard, Outcome};
use isa_tests::fuzz::rustc::{Scratch, Unit, Verdict};
use isa_tests::fuzz::specs::{self, Checked, SpecPlan};
use isa_tests::fuzz::{lines, words, Findings};
use std::path::PathBuf;
use std::time::Duration;

/// The slice's fixed seed: every run checks the same inputs.
const SEED: u64 = 0x15_0012_0014;

fn out(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("fuzz").join(name)
}

#[test]
fn random_words_round_trip_in_every_target() {
    let mut findings = Findings::new(&out("words"));
    let mut guard = Guard::new(Duration::from_secs(60));
    for (k, t) in isa_generated::targets().iter().enumerate() {
        let c = words::fuzz_target(*t, 4096, 4096, SEED, k as u64, &mut guard, &mut findings, &mut |_| true);
        assert_eq!(
            (c.panics, c.hangs, c.round_trip_failures),
            (0, 0, 0),
            "{}: {c}; {:?}",
            t.name(),
            findings.written()
        );
        assert_eq!(c.words, 4096, "{}", t.name());
        // Half the words carry some encoding's opcode bits, so many decode.
        assert!(c.decoded > 1000, "{}: {c}", t.name());
        let raw_dialects = t.dialects().iter().filter(|d| d.raw.is_some()).count() as u64;
        if t.variable_length() && raw_dialects > 0 {
            // Random byte streams (every other word whole, random bytes after an instruction),
            // compared with their listings' bytes: at least 2 bytes a word.
            assert!(c.listed > 0 && c.stream_bytes >= 2 * c.words * raw_dialects, "{}: {c}", t.name());
        } else {
            assert_eq!(c.listed, c.words * raw_dialects, "{}: {c}", t.name());
        }
    }
    for (k, t) in isa_generated::data_targets().iter().enumerate() {
        let c = words::fuzz_data_target(*t, 512, SEED, 0x100 + k as u64, &mut guard, &mut findings);
        assert_eq!(
            (c.panics, c.hangs, c.round_trip_failures),
            (0, 0, 0),
            "{}: {c}; {:?}",
            t.name(),
            findings.written()
        );
        assert_eq!(c.headers, 512);
    }
}

#[test]
fn mutated_assembly_lines_are_errors_not_panics() {
    let mut findings = Findings::new(&out("lines"));
    let mut guard = Guard::new(Duration::from_secs(60));
    let c = lines::fuzz_lines(isa_generated::targets(), 3000, SEED, &mut guard, &mut findings, &mut |_| true);
    assert_eq!((c.panics, c.hangs), (0, 0), "{c}; {:?}", findings.written());
    assert_eq!(c.lines, 3000);
    assert!(c.rejected > 0 && c.assembled > 0, "{c}");
}

/// Mutations of the shipped specs and generated specs through the checker; the generated ones
/// and a few accepted mutations of the shipped ones through rustc and the decode check.
#[test]
fn mutated_and_generated_specs_check_and_compile() {
    let dir = out("specs");
    let mut findings = Findings::new(&dir.join("findings"));
    let mut guard = Guard::new(Duration::from_secs(60));
    let mut scratch = Scratch::new(&dir.join("scratch"), &out("scratch-target")).expect("scratch crate");
    let plan = SpecPlan {
        mutated: 80,
        generated: 12,
        max_mutations: 3,
        compile: true,
        compile_shipped_one_in: 0,
        first: 0,
        end: None,
    };
    let c = specs::fuzz_specs(&plan, SEED, &mut guard, &mut findings, Some(&mut scratch), &mut |_| true);
    assert_eq!(
        (c.unlocated, c.panics, c.hangs, c.compile_failures, c.undecodable),
        (0, 0, 0, 0, 0),
        "{c}; {:?}",
        findings.written()
    );
    assert_eq!((c.mutated, c.generated), (80, 12));
    assert!(c.accepted >= 12 && c.rejected > 0, "{c}");
    assert!(c.compiled >= 12, "{c}");
}

/// A run of the spec stage cut in shards (`--spec-from`, `--spec-to`) adds up to the whole
/// run: each case depends on the seed and its number alone, and so does the choice of the
/// accepted mutations of shipped specs that go to rustc.
#[test]
fn spec_shards_add_up_to_the_run() {
    let plan = |first: u64, end: Option<u64>| SpecPlan {
        mutated: 14,
        generated: 2,
        max_mutations: 2,
        compile: false,
        compile_shipped_one_in: 0,
        first,
        end,
    };
    let run = |plan: &SpecPlan| {
        let mut findings = Findings::new(&out("shards").join("findings"));
        let mut guard = Guard::new(Duration::from_secs(60));
        specs::fuzz_specs(plan, SEED, &mut guard, &mut findings, None, &mut |_| true)
    };
    let whole = run(&plan(0, None));
    let (a, b) = (run(&plan(0, Some(7))), run(&plan(7, None)));
    let key = |c: &specs::SpecCounts| (c.mutated, c.generated, c.accepted, c.rejected, c.panics, c.hangs);
    assert_eq!((whole.mutated, whole.generated, whole.next), (14, 2, 16));
    assert_eq!((a.next, b.next), (7, 16));
    let (ka, kb) = (key(&a), key(&b));
    assert_eq!(key(&whole), (ka.0 + kb.0, ka.1 + kb.1, ka.2 + kb.2, ka.3 + kb.3, ka.4 + kb.4, ka.5 + kb.5));
    // A shard past the end runs nothing.
    assert_eq!(run(&plan(40, None)).mutated, 0);
    // One in a hundred shipped mutations is chosen for rustc, by case number: the same in
    // every run of the seed.
    let choose = SpecPlan { compile_shipped_one_in: 100, ..plan(0, None) };
    let chosen: Vec<u64> = (0..10_000).filter(|&c| specs::compiles_shipped(&choose, SEED, c)).collect();
    assert!((50..=150).contains(&chosen.len()), "{}", chosen.len());
    assert!(chosen.iter().all(|&c| specs::compiles_shipped(&choose, SEED, c)));
    assert!(!(0..1000).any(|c| specs::compiles_shipped(&plan(0, None), SEED, c)));
}

/// Every generated spec of the first hundred is accepted: the generator makes valid specs, so
/// their mutations start close to the checker's edge. Among them are enums spelled by a pattern
/// and variants without a value (README §4), interleaved streams, bundles and ABI layouts
/// (README §2, §9).
#[test]
fn generated_specs_are_accepted() {
    let (mut patterns, mut valueless) = (0, 0);
    let (mut interleaved, mut bundled, mut abi) = (0, 0, 0);
    let mut narrow = [0, 0];
    for case in 0..100 {
        let plan = SpecPlan::generated_only(100);
        let (origin, source, _) = specs::spec_case(&plan, &[], SEED, case);
        patterns += usize::from(source.contains(" spelled \""));
        valueless += usize::from(source.lines().any(|l| l.starts_with("    , v")));
        interleaved += usize::from(source.contains("        every "));
        bundled += usize::from(source.contains("    bundle b {"));
        // A unit narrower than the word, little- or big-endian.
        if source.contains("    stream n {") {
            narrow[usize::from(source.contains("    byte_order big"))] += 1;
        }
        abi += usize::from(source.contains("layout A0("));
        match specs::check_spec(&source) {
            Checked::Accepted { unit, .. } => assert_eq!(unit.as_deref(), Some("G"), "{origin}"),
            Checked::Rejected { .. } => {
                let d = isa_compiler::check_source(&source).err().unwrap_or_default();
                panic!("{origin}:\n{}\n{source}", isa_compiler::diag::render("g.isa", &source, &d));
            }
        }
    }
    assert!(patterns >= 10 && valueless >= 10, "{patterns} patterns, {valueless} valueless variants");
    assert!(
        interleaved >= 8 && bundled >= 8 && abi >= 20,
        "{interleaved} interleaved streams, {bundled} bundled targets, {abi} with ABI layouts"
    );
    assert!(narrow[0] >= 1 && narrow[1] >= 1, "narrow units: {narrow:?} (little or default, big)");
}

#[test]
fn the_guard_reports_panics_and_hangs() {
    let mut guard = Guard::new(Duration::from_millis(200));
    match guard.run(|| -> u32 { panic!("planted") }) {
        Outcome::Panicked(message) => assert!(message.contains("planted"), "{message}"),
        other => panic!("{other:?}"),
    }
    // A case computing past its 200 ms of CPU time is a hang (it spins for 5 s of the clock, so
    // the abandoned thread ends soon after).
    let spin = || {
        let start = std::time::Instant::now();
        while start.elapsed() < Duration::from_secs(5) {
            std::hint::black_box(0u64);
        }
    };
    assert!(matches!(guard.run(spin), Outcome::Hung));
    // The deadline is CPU time: a case that waits 1 s on the clock but computes nothing is not a
    // hang (a loaded machine makes cases wait); one that waits past 30 times the deadline is.
    #[cfg(target_os = "linux")]
    assert!(matches!(guard.run(|| std::thread::sleep(Duration::from_secs(1))), Outcome::Done(())));
    assert!(matches!(guard.run(|| std::thread::sleep(Duration::from_secs(8))), Outcome::Hung));
    // A fresh worker takes the next case.
    assert!(matches!(guard.run(|| 6 * 7), Outcome::Done(42)));
}

/// The rustc stage fails where it must: a module with a warning does not compile (and the
/// batch is halved to find it), and a format whose `in` clause no word meets decodes nothing.
#[test]
fn rustc_stage_finds_warnings_and_undecodable_formats() {
    let dir = out("planted");
    let mut scratch = Scratch::new(&dir.join("scratch"), &out("scratch-target")).expect("scratch crate");
    let fine = "target p {\n    word 16\n    dialect a { comment \"#\" }\n}\n\nformat f {\n    op: u4 @ 15:12 is 1\n    x: u12 @ 11:0\n    syntax a { \"f \" {x} }\n}\n";
    let unit = |source: &str| match specs::check_spec(source) {
        Checked::Accepted { rust, unit } => {
            Unit { origin: "planted".into(), source: source.into(), rust, unit }
        }
        Checked::Rejected { .. } => panic!("rejected:\n{source}"),
    };
    let good = unit(fine);
    let mut warns = good.clone();
    warns.rust.push_str("\nfn never_called() {}\n");
    // A decoder that takes only the word 0xffff, which has the wrong opcode: nothing decodes.
    let mut undecodable = good.clone();
    let head = "pub fn decode(word: u16) -> Result<Instruction, isa_runtime::DecodeError> {";
    assert!(good.rust.contains(head), "{}", good.rust);
    undecodable.rust = good.rust.replace(
        head,
        &format!("{head}\n if word != u16::MAX {{ return Err(isa_runtime::DecodeError::NoMatch {{ word: word.into() }}); }}"),
    );
    let verdicts = scratch.compile(&[good.clone(), warns, undecodable]);
    assert_eq!(verdicts.len(), 3);
    assert_eq!(verdicts[0], Verdict::Fine);
    assert!(matches!(&verdicts[1], Verdict::CompileError(m) if m.contains("never_called")), "{verdicts:?}");
    assert_eq!(verdicts[2], Verdict::Undecodable(vec!["f".to_string()]));
}

/// Found by the full run (seed 20261125, generated specs #3 and #206): a format of fixed fields
/// only (`op ... is 0` and `zero @ 5:0`) generated `let mut word` that nothing changed, so the
/// module did not compile with `-D warnings`. Compiled here with a usual format beside it.
#[test]
fn a_format_of_fixed_fields_only_compiles_without_warnings() {
    let source = "target g {\n    word 8\n    dialect a { comment \"#\" }\n}\n\n\
                  format f0 {\n    op: u2 @ 7:6 is 0\n    zero @ 5:0\n    syntax a { \"m0\" }\n}\n\n\
                  format f1 {\n    op: u2 @ 7:6 is 1\n    x: u6 @ 5:0\n    syntax a { \"m1 \" {x} }\n}\n";
    let (rust, unit) = match specs::check_spec(source) {
        Checked::Accepted { rust, unit } => (rust, unit),
        Checked::Rejected { .. } => panic!("rejected:\n{source}"),
    };
    assert!(rust.contains("let word: u8 = Self::FIXED_BITS;"), "{rust}");
    let dir = out("fixed-only");
    let mut scratch = Scratch::new(&dir.join("scratch"), &out("scratch-target")).expect("scratch crate");
    let verdicts =
        scratch.compile(&[Unit { origin: "fixed only".into(), source: source.into(), rust, unit }]);
    assert_eq!(verdicts, vec![Verdict::Fine]);
}

/// Found by the generator's streams and ABI layouts (seed 20261128, generated #20 and #32): an
/// array of one element (stride 0) decoded and encoded in loops whose index `i` nothing read,
/// and an ABI layout of reserved members only left its view's `layout_name` unused; either is
/// an error under `-D warnings`. Both compiled here in one batch.
#[test]
fn one_element_arrays_and_reserved_only_layouts_compile_without_warnings() {
    let array = "target g {\n    word 8\n    dialect a { comment \"#\" }\n}\n\n\
                 format f0 {\n    op: u2 @ 7:6 is 0\n    x[1]: u2 @ 2 * i +: 2\n    unused @ 5:2\n    syntax a { \"m0 \" {x[0]} }\n}\n";
    let reserved = "target g {\n    word 8\n    dialect a { comment \"#\" }\n}\n\n\
                    format f0 {\n    x: u8 @ 7:0\n    syntax a { \"m0 \" {x} }\n}\n\n\
                    layout A(n: u4 in 0..=1) : 8 {\n    unused gap @ 0 +: 8\n}\n";
    let units: Vec<Unit> = [("one-element array", array), ("reserved-only layout", reserved)]
        .into_iter()
        .map(|(origin, source)| match specs::check_spec(source) {
            Checked::Accepted { rust, unit } => {
                Unit { origin: origin.into(), source: source.into(), rust, unit }
            }
            Checked::Rejected { .. } => panic!("rejected:\n{source}"),
        })
        .collect();
    assert!(units[0].rust.contains("for (_, slot) in out.iter_mut().enumerate()"), "{}", units[0].rust);
    let dir = out("stride-zero");
    let mut scratch = Scratch::new(&dir.join("scratch"), &out("scratch-target")).expect("scratch crate");
    assert_eq!(scratch.compile(&units), vec![Verdict::Fine, Verdict::Fine]);
}

/// Found by the runs of session 5 (seeds 20261125505 and 20261125616, tegra_fs.isa mutants
/// #304, #349, #403, #412): a bundled target reads its words per stream, so the whole-target
/// decoder's answer said nothing about its formats; the shipped tegra_fs.isa compiles clean,
/// and so do generated bundled targets whose narrow unit's formats are narrower than the word.
#[test]
fn a_bundled_target_decodes_per_stream() {
    let tegra_fs = include_str!("../../../isa-specs/tegra_fs.isa");
    let (rust, unit) = match specs::check_spec(tegra_fs) {
        Checked::Accepted { rust, unit } => (rust, unit),
        Checked::Rejected { .. } => panic!("tegra_fs.isa rejected"),
    };
    let mut units = vec![Unit { origin: "tegra_fs".into(), source: tegra_fs.into(), rust, unit }];
    // And the first generated bundled targets with a unit narrower than the word, little- and
    // big-endian: each format decodes a word of its own stream's width.
    for big in [false, true] {
        let plan = SpecPlan::generated_only(100);
        let narrow = (0..100).map(|case| specs::spec_case(&plan, &[], SEED, case)).find(|(_, source, _)| {
            source.contains("    stream n {") && source.contains("    byte_order big") == big
        });
        let (origin, source, _) = narrow.expect("a narrow unit");
        let Checked::Accepted { rust, unit } = specs::check_spec(&source) else {
            panic!("{origin} rejected")
        };
        units.push(Unit { origin, source, rust, unit });
    }
    let dir = out("bundled");
    let mut scratch = Scratch::new(&dir.join("scratch"), &out("scratch-target")).expect("scratch crate");
    let verdicts = scratch.compile(&units);
    assert_eq!(verdicts, vec![Verdict::Fine; 3]);
}

/// Found by the run of session 5 (seed 20261125505, generated spec #5897): a target of one
/// encoding without opcode bits, whose `match_format` never reads its word (`unused variable:
/// word` under `-D warnings`).
#[test]
fn one_encoding_without_opcode_bits_compiles_without_warnings() {
    let source = "target g {\n    word 8\n    dialect a { comment \"#\" raw \".word\" }\n}\n\n\
                  format f0 {\n    x0: bool @ 6\n    x1: u3 @ 5:3\n    x2: u3 @ 2:0 default 2\n    \
                  syntax a { \"m0\" [x0: \".x0\"] \" \" {x1} \", \" {x2} }\n}\n";
    let (rust, unit) = match specs::check_spec(source) {
        Checked::Accepted { rust, unit } => (rust, unit),
        Checked::Rejected { .. } => panic!("rejected:\n{source}"),
    };
    let dir = out("one-encoding");
    let mut scratch = Scratch::new(&dir.join("scratch"), &out("scratch-target")).expect("scratch crate");
    let verdicts =
        scratch.compile(&[Unit { origin: "one encoding".into(), source: source.into(), rust, unit }]);
    assert_eq!(verdicts, vec![Verdict::Fine]);
}

/// Found by the full run of this session (seed 20261125014, vc4.isa mutated #411 and three
/// more): every compiled mutation of vc4.isa reported `load_imm_reserved` as decoding nothing.
/// It is a `reserved "why"` encoding, which never decodes by the spec's word (it only prints):
/// not a finding. The shipped vc4.isa and a small spec with a reserved encoding compile clean.
#[test]
fn a_reserved_encoding_is_not_undecodable() {
    let small = "target g {\n    word 16\n    dialect a { comment \"#\" }\n}\n\n\
                 format f {\n    op: u4 @ 15:12 is 1\n    x: u12 @ 11:0\n    syntax a { \"f \" {x} }\n}\n\n\
                 format r {\n    op: u4 @ 15:12 is 2\n    x: u12 @ 11:0\n    reserved \"mode 2 is reserved\"\n    syntax a { \"r \" {x} }\n}\n";
    let vc4 = include_str!("../../../isa-specs/vc4.isa");
    assert!(vc4.contains("format load_imm_reserved"), "the encoding the run found");
    let unit = |origin: &str, source: &str| match specs::check_spec(source) {
        Checked::Accepted { rust, unit } => Unit { origin: origin.into(), source: source.into(), rust, unit },
        Checked::Rejected { .. } => panic!("rejected:\n{source}"),
    };
    let dir = out("reserved");
    let mut scratch = Scratch::new(&dir.join("scratch"), &out("scratch-target")).expect("scratch crate");
    let verdicts = scratch.compile(&[unit("small", small), unit("vc4", vc4)]);
    assert_eq!(verdicts, vec![Verdict::Fine, Verdict::Fine]);
}

/// An `alias` arm is read, never printed: the compiled printer has no method for a template
/// only an alias calls and no spelling function for a table only an alias shows, so nothing is
/// left unused under `-D warnings`.
#[test]
fn an_alias_arm_compiles_without_warnings() {
    let source = "target g {\n    word 8\n    dialect a { comment \"#\" }\n}\n\n\
                  enum Reg : u4 {\n    r(0..=15) \"r{v}\"\n}\n\n\
                  enum Alt : u4 {\n    s(0..=15) \"s{v}\"\n}\n\n\
                  format f {\n    op: u4 @ 7:4 is 1\n    x: Reg @ 3:0\n    \
                  syntax a {\n        | _ => \"m \" {x}\n        | alias _ => \"mov \" alt\n    }\n}\n\n\
                  template alt {\n    {x as Alt}\n}\n";
    let (rust, unit) = match specs::check_spec(source) {
        Checked::Accepted { rust, unit } => (rust, unit),
        Checked::Rejected { .. } => panic!("rejected:\n{source}"),
    };
    assert!(!rust.contains("spell_alt"), "no printer spells Alt:\n{rust}");
    let dir = out("alias");
    let mut scratch = Scratch::new(&dir.join("scratch"), &out("scratch-target")).expect("scratch crate");
    let verdicts = scratch.compile(&[Unit { origin: "alias".into(), source: source.into(), rust, unit }]);
    assert_eq!(verdicts, vec![Verdict::Fine]);
}

/// Found by the run of session 5 (seed 20261125505, a generated spec): a field `in` one value
/// that 0, the default, all ones and random values never hit, so the format looked as if it
/// decoded nothing. The runtime's field info now carries the ranges an `in` allows and the
/// check tries them.
#[test]
fn a_field_in_one_value_decodes() {
    let source = "target g {\n    word 32\n    dialect a { comment \"#\" }\n}\n\n\
                  format f {\n    op: u4 @ 31:28 is 1\n    x: u16 @ 15:0 in 0x1234\n    \
                  y: u12 @ 27:16 in 3..=5, 0x700\n    syntax a { \"f \" {x} \", \" {y} }\n}\n";
    let (rust, unit) = match specs::check_spec(source) {
        Checked::Accepted { rust, unit } => (rust, unit),
        Checked::Rejected { .. } => panic!("rejected:\n{source}"),
    };
    assert!(rust.contains(".allowed(&[(4660, 4660)])"), "{rust}");
    assert!(rust.contains(".allowed(&[(3, 5), (1792, 1792)])"), "{rust}");
    let dir = out("in-one-value");
    let mut scratch = Scratch::new(&dir.join("scratch"), &out("scratch-target")).expect("scratch crate");
    let verdicts =
        scratch.compile(&[Unit { origin: "in one value".into(), source: source.into(), rust, unit }]);
    assert_eq!(verdicts, vec![Verdict::Fine]);
}

/// Found by review of `for` (this session): a spec function whose loop variable or `let` is
/// never read generated an unused Rust variable (an error under `-D warnings`: execute blocks
/// allowed it, functions did not), and a loop over a constant empty range (`5..1`, `1..=0`)
/// was written as a Rust loop clippy rejects (`reversed_empty_ranges`): it runs nothing, so it
/// is left out. Loops inside `if`, nested loops of one name and `..=` to u32::MAX compile.
#[test]
fn for_loops_and_unread_locals_compile_without_warnings() {
    let source = "target g {\n    word 32\n    dialect a { comment \"#\" }\n}\n\n\
                  machine {\n    r[4]: u32\n    pc: u32\n}\n\n\
                  fn count(n: u32) -> u32 {\n    let unread = 1;\n    for k in 0..n { pc = pc + 1; }\n    \
                  for k in 0..2 { for k in 0..3 { r[k] = k; } }\n    \
                  for e in 0..=4294967295 { if e == 3 { pc = 1; } }\n    \
                  for a in 5..1 { pc = 2; }\n    for b in 1..=0 { pc = 3; }\n    n\n}\n\n\
                  format f {\n    op: u4 @ 31:28 is 1\n    n: u2 @ 1:0\n    syntax a { \"f \" {n} }\n    \
                  execute {\n        if n == 1 { for z in 3..3 { pc = z; } } else { for z in 0..u32(n) { } }\n        \
                  if n == 2 { pc = 1; } else { for z in 4..2 { pc = z; } }\n        if n == 3 { pc = 2; } else { }\n        \
                  pc = count(u32(n));\n    }\n}\n";
    let (rust, unit) = match specs::check_spec(source) {
        Checked::Accepted { rust, unit } => (rust, unit),
        Checked::Rejected { .. } => panic!("rejected:\n{source}"),
    };
    for empty in ["(5u32)..(1u32)", "(1u32)..=(0u32)", "(3u32)..(3u32)"] {
        assert!(!rust.contains(empty), "{empty} is no loop:\n{rust}");
    }
    assert!(rust.contains("(0u32)..=(4294967295u32)"), "{rust}");
    // Nor is an `else` that does nothing (clippy's `needless_else`).
    assert!(!rust.contains("else {}"), "{rust}");
    let dir = out("for-loops");
    let mut scratch = Scratch::new(&dir.join("scratch"), &out("scratch-target")).expect("scratch crate");
    let verdicts = scratch.compile(&[Unit { origin: "for loops".into(), source: source.into(), rust, unit }]);
    assert_eq!(verdicts, vec![Verdict::Fine]);
}

/// Found by the spec generator's semantics (this session, seed 7, generated #0 and #14): a
/// state assigned to itself (`acc = acc;`, `flag = flag;`) generated a field assigned to itself,
/// which rustc warns of (an error under `-D warnings`), and a state array indexed by a call of
/// the machine (`acc = r[mix(acc, 1) & 3];`) borrowed the state and then the machine mutably
/// (E0502). The assignment does nothing and is left out; the index is computed first. And
/// (generated #107) `!(r[3] >= 0)` of a `u32` is a comparison rustc finds useless: allowed;
/// (generated #230) a function whose statements write nothing (a loop over `0..0`) returned
/// its value in braces rustc finds unnecessary.
#[test]
fn a_state_assigned_to_itself_and_an_index_that_calls_compile() {
    let source = "target g {\n    word 32\n    dialect a { comment \"#\" }\n}\n\n\
                  machine {\n    r[4]: u32\n    acc: u32\n    flag: bool\n}\n\n\
                  hook load(address: u32) -> u32\n\n\
                  fn mix(a: u32, b: u32) -> u32 {\n    acc = acc;\n    a ^ b\n}\n\n\
                  fn mux(a: u32) -> u32 {\n    for k in 0..0 { acc = k; }\n    a\n}\n\n\
                  format f {\n    op: u4 @ 31:28 is 1\n    n: u2 @ 1:0\n    syntax a { \"f \" {n} }\n    \
                  execute {\n        flag = flag;\n        acc = r[mix(acc, 1) & 3];\n        \
                  r[load(acc) & 3] = r[r[mix(n, acc) & 3] & 3];\n        flag = !(r[3] >= 0);\n        acc = mux(acc);\n    }\n}\n";
    let (rust, unit) = match specs::check_spec(source) {
        Checked::Accepted { rust, unit } => (rust, unit),
        Checked::Rejected { .. } => panic!("rejected:\n{source}"),
    };
    let dir = out("self-assignment");
    let mut scratch = Scratch::new(&dir.join("scratch"), &out("scratch-target")).expect("scratch crate");
    let verdicts =
        scratch.compile(&[Unit { origin: "self assignment".into(), source: source.into(), rust, unit }]);
    assert_eq!(verdicts, vec![Verdict::Fine]);
}
