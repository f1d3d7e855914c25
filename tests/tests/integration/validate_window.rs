//! Validation as a stream (`isa_runtime::program::Window`, `Target::validator`): it holds only
//! the instructions each rule reads (its reach, computed by the checker) and finds what
//! whole-program validation finds, at the same absolute instruction numbers and in the same
//! order, whatever the pieces the program comes in and near its end.
//!
//! The vc4 hazards are the snippets of `vc4_validate.rs`, each with the violations seed 004 and
//! Broadcom's restrictions (facts A.11) give it; the two small specs' expected violations are
//! worked from their rules by hand.

mod wb {
    isa_derive::target!("data/specs/window_bounded.isa");
}

mod wa {
    isa_derive::target!("data/specs/window_anywhere.isa");
}

use isa_generated::vc4;
use isa_runtime::program::{Violation, Window};
use isa_runtime::target::{Isa, Target};
use isa_tests::Rng;

/// `program` pushed one instruction at a time: every violation (in order), and the most
/// instructions held. Each violation is handed out while its instruction is still held.
fn windowed<T: Isa>(program: &[T::Instruction]) -> (Vec<Violation>, usize) {
    let mut w = Window::<T>::new();
    let mut handed = Vec::new();
    for insn in program {
        let held = w.first_held();
        w.push(insn.clone(), &mut |v| {
            assert!(v.index >= held, "{v} handed out after instruction {held} was dropped");
            handed.push(v.clone());
        });
    }
    let most = w.most_held();
    let held = w.first_held();
    let found = w.finish(&mut |v| {
        assert!(v.index >= held, "{v} handed out after instruction {held} was dropped");
        handed.push(v.clone());
    });
    let key = |v: &Violation| (v.rule, v.index, v.detail.clone());
    let (mut a, mut b): (Vec<_>, Vec<_>) =
        (found.iter().map(key).collect(), handed.iter().map(key).collect());
    a.sort();
    b.sort();
    assert_eq!(a, b, "every violation is handed out once");
    (found, most)
}

/// The words of `program` checked through the object-safe validator, in pieces of `piece`
/// words.
fn in_pieces(target: &dyn Target, words: &[u128], piece: usize) -> Vec<Violation> {
    let mut v = target.validator();
    for (k, chunk) in words.chunks(piece).enumerate() {
        v.push(chunk, k * piece, &mut |_| {})
            .unwrap_or_else(|e| panic!("word {} does not decode: {}", e.0, e.1));
    }
    v.finish(&mut |_| {})
}

fn rules(found: &[Violation]) -> Vec<(&'static str, usize, String)> {
    found.iter().map(|v| (v.rule, v.index, v.detail.clone())).collect()
}

fn assemble(source: &str) -> Vec<vc4::Instruction> {
    vc4::assemble(source, vc4::Dialect::Vc4asm)
        .unwrap_or_else(|e| panic!("does not assemble: {e:?}\n{source}"))
}

/// Hazards of `vc4_validate.rs` (each asserted there from the reference's rules): a source and
/// the (rule, instruction) it breaks, counted from its first line.
const HAZARDS: &[(&str, &[(&str, usize)])] = &[
    ("nop\nnop\nmov tlbc, r0\nnop;  thrend\nnop\nmov r1, unif", &[("thread_end_fifo", 5)]),
    ("nop;  thrend\nmov vpm, r0\nmov vw_setup, r0", &[("thread_end_fifo", 1), ("thread_end_fifo", 2)]),
    ("nop\nnop\nmov ra1, r0;  thrend\nnop\nnop", &[("thread_end_physical", 2)]),
    ("nop;  thrend\nnop\nmov r0, rb14", &[("thread_end_address_14", 2)]),
    ("mov ra1, r0\nmov r1, ra1", &[("read_after_write", 1)]),
    ("nop; mov rb2, r0\nmov r1, rb2", &[("read_after_write", 1)]),
    ("nop\nnop;  thrend\nnop\nmov tlbz, r0", &[("thread_end_tlbz", 3)]),
    ("mov recip, r0\nnop\nmov r1, r4", &[("sfu_r4", 2)]),
    ("mov unif_addr, r0\nnop\nmov r1, unif", &[("uniforms_address", 2)]),
    ("mov tmurs, r0\nnop\nnop\nmov t0s, r1", &[("tmu_noswap", 3)]),
    ("mov tmurs, r0\nmov t1s, r1", &[("tmu_noswap", 1)]),
    ("nop\nnop\nmov tlbc, r0;  mov recip, r1", &[("one_peripheral", 2)]),
];

/// vc4's `nop` (facts A.1, Mesa's `qpu_NOP`).
const NOP: u128 = 0x1000_09e7_009e_7000;

fn sorted(mut v: Vec<(&'static str, usize)>) -> Vec<(&'static str, usize)> {
    v.sort();
    v
}

#[test]
fn vc4_rules_reach_one_back_and_three_ahead() {
    let reach: Vec<_> = vc4::RULES.iter().map(|r| (r.name, r.reach)).collect();
    assert!(reach.contains(&("tmu_noswap", Some((0, 3)))), "{reach:?}");
    assert!(reach.contains(&("read_after_write", Some((1, 0)))), "{reach:?}");
    assert!(reach.iter().all(|(_, r)| r.is_some_and(|(b, a)| b <= 1 && a <= 3)), "{reach:?}");
    assert!(Window::<vc4::Vc4>::new().whole_program().is_empty());
}

/// Thousands of instructions: each hazard many times between runs of nops, then the same
/// with random decodable words between them. The planted hazards are found at their absolute
/// numbers; the whole program's violations come out alike from the window, in every piece
/// size, with four instructions held at most.
#[test]
fn a_long_vc4_program_is_checked_as_whole_program_validation_checks_it() {
    let mut program = Vec::new();
    let mut expected = Vec::new();
    for round in 0..60 {
        for (source, found) in HAZARDS {
            program.extend((0..3 + round % 3).map(|_| <vc4::Vc4 as Isa>::decode(NOP).expect("nop")));
            let at = program.len();
            program.extend(assemble(source));
            expected.extend(found.iter().map(|&(rule, k)| (rule, at + k)));
        }
    }
    assert!(program.len() > 3000, "{}", program.len());
    let whole = vc4::check_program(&program);
    let (found, most) = windowed::<vc4::Vc4>(&program);
    assert_eq!(sorted(found.iter().map(|v| (v.rule, v.index)).collect()), sorted(expected));
    assert_eq!(found, whole);
    assert_eq!(most, 4);

    // Random decodable words around the hazards: whatever they break, the window finds it.
    let mut rng = Rng(0x1234_5678_9abc_def1);
    let (mut program, mut words) = (Vec::new(), Vec::new());
    while program.len() < 20_000 {
        let w = u128::from(rng.next());
        if let Ok(insn) = <vc4::Vc4 as Isa>::decode(w) {
            program.push(insn);
            words.push(w);
        }
        if rng.next() & 15 == 0 {
            let (source, _) = HAZARDS[(rng.next() % HAZARDS.len() as u64) as usize];
            for insn in assemble(source) {
                words.push(<vc4::Vc4 as Isa>::encode(&insn).expect("encodes"));
                program.push(insn);
            }
        }
    }
    let whole = vc4::check_program(&program);
    assert!(whole.len() > 1000, "{} violations", whole.len());
    let (found, most) = windowed::<vc4::Vc4>(&program);
    assert_eq!(found, whole);
    assert_eq!(most, 4);
    for piece in [1, 2, 3, 4, 5, 7, 4096, words.len()] {
        assert_eq!(in_pieces(&vc4::Vc4, &words, piece), whole, "pieces of {piece}");
    }
}

/// Every hazard cut at every length at the program's end, after nops and after random words:
/// rules that read up to three instructions ahead see the end where whole-program validation
/// does.
#[test]
fn vc4_hazards_at_the_program_s_end() {
    let mut rng = Rng(42);
    for (source, found) in HAZARDS {
        let hazard = assemble(source);
        for cut in 0..=hazard.len() {
            for lead in 0..6 {
                let mut program: Vec<_> =
                    (0..lead).map(|_| <vc4::Vc4 as Isa>::decode(NOP).expect("nop")).collect();
                program.extend_from_slice(&hazard[..cut]);
                let whole = vc4::check_program(&program);
                assert_eq!(windowed::<vc4::Vc4>(&program).0, whole, "{source:?} cut at {cut} after {lead}");
                if cut == hazard.len() && lead >= 2 {
                    // Whole, after two nops: exactly the reference's violations.
                    let at: Vec<_> = found.iter().map(|&(r, k)| (r, lead + k)).collect();
                    assert_eq!(
                        sorted(whole.iter().map(|v| (v.rule, v.index)).collect()),
                        sorted(at),
                        "{source:?}"
                    );
                }
                // After random words.
                let mut program: Vec<_> = Vec::new();
                while program.len() < lead * 3 {
                    if let Ok(insn) = <vc4::Vc4 as Isa>::decode(u128::from(rng.next())) {
                        program.push(insn);
                    }
                }
                program.extend_from_slice(&hazard[..cut]);
                assert_eq!(windowed::<vc4::Vc4>(&program).0, vc4::check_program(&program), "{source:?}");
            }
        }
    }
}

/// `nop`, `br N` and `end` of window_bounded.isa / window_anywhere.isa.
fn word(text: &str) -> u128 {
    match text.split_once(' ') {
        Some(("br", n)) => 0x9000 | (n.parse::<u128>().expect("offset") & 0xfff),
        _ if text == "end" => 0xf000,
        _ => 0,
    }
}

fn program<T: Isa>(text: &str) -> Vec<T::Instruction> {
    text.split(';').map(|s| T::decode(word(s.trim())).expect("decodes")).collect()
}

#[test]
fn rules_of_every_reach_near_the_start_and_the_end() {
    let reach: Vec<_> = wb::RULES.iter().map(|r| r.reach).collect();
    assert_eq!(reach, [Some((0, 2)), Some((2, 0)), Some((0, 4)), Some((0, 0))]);
    let with = |i: usize| format!("with instruction {i}");
    // Worked from the rules: the branch at 1 has the branch at 3 in its delay slots; the end
    // at 5 has that branch two before it; it comes before the last four of ten; a branch is
    // among the first two.
    let p = program::<wb::Wb>("nop; br 1; nop; br 2; nop; end; nop; nop; nop; nop");
    let expected = vec![
        ("branch_in_delay_slot", 3, with(1)),
        ("branch_before_end", 3, with(5)),
        ("early_end", 5, String::new()),
        ("starts_without_branch", 1, String::new()),
    ];
    assert_eq!(rules(&wb::check_program(&p)), expected);
    let (found, most) = windowed::<wb::Wb>(&p);
    assert_eq!(rules(&found), expected);
    // Reach (2, 0) and (0, 4) are never needed at once: at most five held.
    assert_eq!(most, 5);
    // One instruction fewer: the end is among the last four (`0..=len - 5` ends at 4), known
    // only once the program has ended.
    let expected = vec![
        ("branch_in_delay_slot", 3, with(1)),
        ("branch_before_end", 3, with(5)),
        ("starts_without_branch", 1, String::new()),
    ];
    assert_eq!(rules(&windowed::<wb::Wb>(&p[..9]).0), expected);
    assert_eq!(rules(&wb::check_program(&p[..9])), expected);
    // Delay slots past the end read nothing; an end at 1 has only one instruction before it.
    let p = program::<wb::Wb>("nop; nop; br 1; br 2");
    assert_eq!(rules(&windowed::<wb::Wb>(&p).0), [("branch_in_delay_slot", 3, with(2))]);
    let p = program::<wb::Wb>("br 1; end");
    let expected = [("branch_before_end", 0, with(1)), ("starts_without_branch", 0, String::new())];
    assert_eq!(rules(&windowed::<wb::Wb>(&p).0), expected);
    assert_eq!(rules(&windowed::<wb::Wb>(&[]).0), []);
    // Random programs of every length up to 40, in pieces of every size up to 6.
    let mut rng = Rng(7);
    for len in 0..=40 {
        for _ in 0..20 {
            let text: Vec<&str> =
                (0..len).map(|_| ["nop", "br 1", "end", "nop"][(rng.next() % 4) as usize]).collect();
            let p: Vec<wb::Instruction> =
                text.iter().map(|t| <wb::Wb as Isa>::decode(word(t)).expect("decodes")).collect();
            let whole = wb::check_program(&p);
            assert_eq!(windowed::<wb::Wb>(&p).0, whole, "{text:?}");
            let words: Vec<u128> = text.iter().map(|t| word(t)).collect();
            for piece in 1..=6 {
                assert_eq!(in_pieces(&wb::Wb, &words, piece), whole, "{text:?} in pieces of {piece}");
            }
        }
    }
}

#[test]
fn a_rule_that_reads_anywhere_holds_the_whole_program_and_says_so() {
    let reach: Vec<_> = wa::RULES.iter().map(|r| (r.name, r.reach)).collect();
    assert_eq!(reach, [("branch_in_delay_slot", Some((0, 2))), ("end_is_last", None), ("one_end", None)]);
    assert_eq!(Window::<wa::Wa>::new().whole_program(), ["end_is_last", "one_end"]);
    assert_eq!(wa::Wa.validator().whole_program(), ["end_is_last", "one_end"]);
    let with = |i: usize| format!("with instruction {i}");
    // Ends at 1 and 4 of 7: neither is last; the first comes before the second.
    let p = program::<wa::Wa>("nop; end; br 1; br 2; end; nop; nop");
    let expected = vec![
        ("branch_in_delay_slot", 3, with(2)),
        ("end_is_last", 1, String::new()),
        ("end_is_last", 4, String::new()),
        ("one_end", 1, with(4)),
    ];
    assert_eq!(rules(&wa::check_program(&p)), expected);
    let (found, most) = windowed::<wa::Wa>(&p);
    assert_eq!(rules(&found), expected);
    assert_eq!(most, p.len(), "the whole program is held");
    let mut rng = Rng(9);
    for len in 0..=30 {
        let text: Vec<&str> =
            (0..len).map(|_| ["nop", "br 1", "end", "nop"][(rng.next() % 4) as usize]).collect();
        let p: Vec<wa::Instruction> =
            text.iter().map(|t| <wa::Wa as Isa>::decode(word(t)).expect("decodes")).collect();
        assert_eq!(windowed::<wa::Wa>(&p).0, wa::check_program(&p), "{text:?}");
    }
}
