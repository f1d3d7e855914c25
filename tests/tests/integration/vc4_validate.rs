//! The VideoCore IV program rules and per-instruction constraints of `vc4.isa`, each with a
//! program that keeps it and one that breaks it, asserting the rule's name and the index of
//! the instruction the violation is reported at.
//!
//! The rules come from seed 004 ("rules you need to follow": thread end and its delay slots,
//! early scoreboard waits, reads after writes) and from the other restrictions of Broadcom's
//! "Summary of Instruction Restrictions" as Mesa's `vc4_qpu_validate.c` and vc4asm's validator
//! quote them (facts A.11). Programs are vc4asm source assembled by the generated assembler.

use isa_generated::vc4::{self, Instruction, Mux};
use isa_runtime::program::Violation;

fn assemble(source: &str) -> Vec<Instruction> {
    vc4::assemble(source, vc4::Dialect::Vc4asm)
        .unwrap_or_else(|e| panic!("does not assemble: {e:?}\n{source}"))
}

/// Every violation as (rule, index), sorted.
fn check(program: &[Instruction]) -> Vec<(&'static str, usize)> {
    let violations: Vec<Violation> = vc4::check_program(program);
    for v in &violations {
        assert!(!v.message.is_empty(), "{v:?} carries the reference's text");
    }
    let mut out: Vec<_> = violations.iter().map(|v| (v.rule, v.index)).collect();
    out.sort();
    out
}

fn violations(source: &str) -> Vec<(&'static str, usize)> {
    check(&assemble(source))
}

const SEED_UNIFORM_PROGRAM: &str = isa_tests::VC4_UNIFORM_PROGRAM;

const SEED_VARYING_PROGRAM: &str = isa_tests::VC4_VARYING_PROGRAM;

#[test]
fn the_seed_programs_keep_every_rule() {
    assert_eq!(violations(SEED_UNIFORM_PROGRAM), []);
    assert_eq!(violations(SEED_VARYING_PROGRAM), []);
    assert_eq!(check(&[]), []);
}

// ---- Seed 004 rule 1: the last three instructions do no FIFO or VPM access ----------------

#[test]
fn thread_end_fifo() {
    // Uniforms, varyings and VPM are fine before the thread end.
    assert_eq!(
        violations("mov r0, unif\nmov r1, vary\nmov vpm, r0\nmov tlbc, r0\nnop;  thrend\nnop\nnop"),
        []
    );
    // A uniform read in the second delay slot.
    assert_eq!(
        violations("nop\nnop\nmov tlbc, r0\nnop;  thrend\nnop\nmov r1, unif"),
        [("thread_end_fifo", 5)]
    );
    // A varying read in the thread end instruction itself.
    assert_eq!(
        violations("nop\nnop\nmov tlbc, r0\nmov r1, vary;  thrend\nnop\nnop"),
        [("thread_end_fifo", 3)]
    );
    // A VPM write, a VDW setup write and a VDR wait read in the delay slots.
    assert_eq!(
        violations("nop;  thrend\nmov vpm, r0\nmov vw_setup, r0"),
        [("thread_end_fifo", 1), ("thread_end_fifo", 2)]
    );
    assert_eq!(violations("nop;  thrend\nmov r1, vr_wait\nnop"), [("thread_end_fifo", 1)]);
    // The small-immediate encoding reads uniforms through regfile A.
    assert_eq!(violations("nop;  thrend\nadd r0, unif, 1\nnop"), [("thread_end_fifo", 1)]);
    // The violation names the thread end it belongs to.
    let program = assemble("nop\nnop;  thrend\nnop\nmov r1, unif");
    let found = vc4::check_program(&program);
    assert_eq!(found.len(), 1);
    assert_eq!(found[0].detail, "with instruction 1");
    assert!(found[0].message.contains("thread end"), "{}", found[0].message);
}

// ---- Seed 004 rule 2: thread end writes no physical register -------------------------------

#[test]
fn thread_end_physical() {
    assert_eq!(violations("nop\nnop\nmov r1, r0;  thrend\nnop\nnop"), []);
    // The add pipe writes ra1.
    assert_eq!(violations("nop\nnop\nmov ra1, r0;  thrend\nnop\nnop"), [("thread_end_physical", 2)]);
    // The mul pipe writes rb1.
    assert_eq!(violations("nop;  mov rb1, r0;  thrend\nnop\nnop"), [("thread_end_physical", 0)]);
    // A delay slot may write physical registers.
    assert_eq!(violations("nop;  thrend\nmov ra1, r0\nmov rb2, r0"), []);
}

// ---- Seed 004 rule 3: thread end and its delay slots leave address 14 alone ----------------

#[test]
fn thread_end_address_14() {
    // W arrives in ra15/rb15; address 14 may be used before the thread end.
    assert_eq!(violations("mov r0, ra14\nmov ra14, r0\nnop\nnop;  thrend\nnop\nnop"), []);
    assert_eq!(violations("nop;  thrend\nmov r0, ra14\nnop"), [("thread_end_address_14", 1)]);
    assert_eq!(violations("nop;  thrend\nnop\nmov r0, rb14"), [("thread_end_address_14", 2)]);
    assert_eq!(violations("nop;  thrend\nnop\nmov ra14, r0"), [("thread_end_address_14", 2)]);
    // Writing rb14 in the thread end breaks two rules at once.
    assert_eq!(
        violations("mov rb14, r0;  thrend\nnop\nnop"),
        [("thread_end_address_14", 0), ("thread_end_physical", 0)]
    );
    // Three instructions after the thread end, address 14 is free again.
    assert_eq!(violations("nop;  thrend\nnop\nnop\nmov r0, ra14"), []);
}

// ---- Seed 004 rule 4: no scoreboard wait in the first two instructions ---------------------

#[test]
fn early_scoreboard_wait() {
    assert_eq!(violations("nop\nnop\nnop;  sbwait\nmov tlbc, r0"), []);
    assert_eq!(violations("nop;  sbwait\nnop"), [("early_scoreboard_wait", 0)]);
    // Implicit waits: the first tile-buffer write or read.
    assert_eq!(violations("nop\nmov tlbc, r0"), [("early_scoreboard_wait", 1)]);
    assert_eq!(violations("nop\nmov tlbz, r0"), [("early_scoreboard_wait", 1)]);
    assert_eq!(violations("nop;  loadc\nnop"), [("early_scoreboard_wait", 0)]);
    assert_eq!(violations("ldi tlbc, 0xff00ff00\nnop"), [("early_scoreboard_wait", 0)]);
}

// ---- Seed 004 rule 5: no read of a physical register written by the previous instruction ---

#[test]
fn read_after_write() {
    // One instruction in between, or an accumulator, is fine.
    assert_eq!(violations("mov ra1, r0\nnop\nmov r1, ra1"), []);
    assert_eq!(violations("mov r1, r0\nmov r2, r1"), []);
    // Regfile A and B.
    assert_eq!(violations("mov ra1, r0\nmov r1, ra1"), [("read_after_write", 1)]);
    assert_eq!(violations("mov rb1, r0\nmov r1, rb1"), [("read_after_write", 1)]);
    // The same number in the other file is another register.
    assert_eq!(violations("mov ra1, r0\nmov r1, rb1"), []);
    // ws decides the file: with ws = 0 the mul pipe writes file B, with ws = 1 file A.
    assert_eq!(violations("nop; mov rb2, r0\nmov r1, ra2"), []);
    assert_eq!(violations("nop; mov rb2, r0\nmov r1, rb2"), [("read_after_write", 1)]);
    assert_eq!(violations("nop; mov ra2, r0\nmov r1, ra2"), [("read_after_write", 1)]);
    assert_eq!(violations("nop; mov ra2, r0\nmov r1, rb2"), []);
    // Load immediates write, small-immediate instructions read regfile A, branches read it.
    assert_eq!(violations("ldi ra1, 5\nmov r0, ra1"), [("read_after_write", 1)]);
    assert_eq!(violations("add ra3, r0, 1\nadd r0, ra3, 1"), [("read_after_write", 1)]);
    assert_eq!(violations("mov ra8, r0\nbra -, ra8\nnop\nnop\nnop"), [("read_after_write", 1)]);
    // A small immediate sits where raddr_b would: `1` is not a read of rb1.
    assert_eq!(violations("mov rb1, r0\nadd r0, r1, 1"), []);
    // A branch writes its link register.
    assert_eq!(violations("brr ra4, 16\nmov r0, ra4\nnop\nnop"), [("read_after_write", 1)]);
    // Reported at every offending instruction.
    assert_eq!(
        violations("mov ra1, r0\nmov ra2, ra1\nmov r0, ra2"),
        [("read_after_write", 1), ("read_after_write", 2)]
    );
}

// ---- Facts A.11: the other restrictions ----------------------------------------------------

#[test]
fn thread_end_tlbz() {
    // A TLB Z write is fine in the thread end and the first delay slot...
    assert_eq!(violations("nop\nnop\nmov tlbz, r0;  thrend\nmov tlbz, r0\nnop"), []);
    // ... but not in the second delay slot, the last instruction.
    assert_eq!(violations("nop\nnop;  thrend\nnop\nmov tlbz, r0"), [("thread_end_tlbz", 3)]);
}

#[test]
fn sfu_r4() {
    // The SFU result is read from r4 two instructions later.
    assert_eq!(violations("mov recip, r0\nnop\nnop\nmov r1, r4"), []);
    assert_eq!(violations("mov recip, r0\nnop\nmov r1, r4"), [("sfu_r4", 2)]);
    assert_eq!(violations("mov recip, r0\nmov r1, r4"), [("sfu_r4", 1)]);
    // No other r4 writer in the two instructions after an SFU write.
    assert_eq!(violations("mov recip, r0\nmov exp, r1"), [("sfu_r4", 1)]);
    assert_eq!(violations("mov recip, r0\nnop\nnop;  ldtmu0"), [("sfu_r4", 2)]);
    assert_eq!(violations("mov log, r0\nnop\nnop\nnop;  ldtmu0"), []);
}

#[test]
fn uniforms_address() {
    assert_eq!(violations("mov unif_addr, r0\nnop\nnop\nmov r1, unif"), []);
    assert_eq!(violations("mov unif_addr, r0\nnop\nmov r1, unif"), [("uniforms_address", 2)]);
    assert_eq!(violations("mov unif_addr, r0\nmov r1, unif"), [("uniforms_address", 1)]);
}

#[test]
fn tmu_noswap() {
    assert_eq!(violations("mov tmurs, r0\nnop\nnop\nnop\nmov t0s, r1"), []);
    assert_eq!(violations("mov tmurs, r0\nnop\nnop\nmov t0s, r1"), [("tmu_noswap", 3)]);
    assert_eq!(violations("mov tmurs, r0\nmov t1s, r1"), [("tmu_noswap", 1)]);
}

#[test]
fn rotate_after_write() {
    let rotate = "nop;  fmul r3, r0>>1, r1>>1";
    // A write to an accumulator the rotation does not read.
    assert_eq!(violations(&format!("mov r2, r1\n{rotate}")), []);
    // A write to one it rotates.
    assert_eq!(violations(&format!("mov r0, r1\n{rotate}")), [("rotate_after_write", 1)]);
    assert_eq!(violations(&format!("nop; mov r1, r2\n{rotate}")), [("rotate_after_write", 1)]);
    // A rotation by r5 after an r5 write; one instruction later it is fine.
    let by_r5 = "nop;  fmul r3, r0<<r5, r1<<r5";
    assert_eq!(violations(&format!("mov r5quad, r2\n{by_r5}")), [("rotate_after_write", 1)]);
    assert_eq!(violations(&format!("mov r5quad, r2\nnop\n{by_r5}")), []);
    // A fixed rotation does not read r5.
    assert_eq!(violations(&format!("mov r5quad, r2\n{rotate}")), []);
}

#[test]
fn tlbz_ms_flags() {
    assert_eq!(violations("nop\nnop\nmov tlbz, r0\nnop\nnop\nmov r1, ms_mask"), []);
    assert_eq!(violations("nop\nnop\nmov tlbz, r0\nnop\nmov r1, ms_mask"), [("tlbz_ms_flags", 4)]);
    // A colour write may follow the Z write at once.
    assert_eq!(violations("nop\nnop\nmov tlbz, r0\nmov tlbc, r1"), []);
}

// ---- Per-instruction constraints ---------------------------------------------------------

#[test]
fn one_peripheral() {
    // One access per instruction; a colour write combined with a colour load is one access.
    assert_eq!(violations("nop\nnop\nmov tlbc, r0\nmov t0s, r1\nmov r0, mutex\nmov tlbc, r0;  loadc"), []);
    // TLB and SFU writes in one instruction.
    assert_eq!(violations("nop\nnop\nmov tlbc, r0;  mov recip, r1"), [("one_peripheral", 2)]);
    // Two TLB colour writes.
    assert_eq!(violations("nop\nnop\nmov tlbc, r0;  mov tlbm, r1"), [("one_peripheral", 2)]);
    // A mutex read with a TMU write.
    assert_eq!(violations("mov t0s, mutex"), [("one_peripheral", 0)]);
    // A TMU read (ldtmu0) with an SFU write.
    assert_eq!(violations("mov recip, r0;  ldtmu0"), [("one_peripheral", 0)]);
    // The small-immediate encoding.
    assert_eq!(violations("nop\nnop\nadd tlbc, r0, 1;  fmul recip, r1, 1"), [("one_peripheral", 2)]);
    // A semaphore access is one; writing the TLB as well is two.
    assert_eq!(violations("sacq -, 1"), []);
    assert_eq!(violations("nop\nnop\nsacq tlbc, 1"), [("one_peripheral", 2)]);
}

#[test]
fn same_accumulator() {
    // Both pipes into r0.
    assert_eq!(violations("mov r0, r1;  mov r0, r2"), [("same_accumulator", 0)]);
    // r5 through either file is the same accumulator.
    assert_eq!(violations("mov r5quad, r1;  mov r5rep, r2"), [("same_accumulator", 0)]);
    // Complementary conditions write each element once.
    assert_eq!(violations("mov.ifz r0, r1;  mov.ifnz r0, r2"), []);
    // The same physical number in the two files is two registers.
    assert_eq!(violations("mov ra1, r1;  mov rb1, r2"), []);
    // A load immediate writes both ports.
    assert_eq!(violations("ldi r0, r0, 5"), [("same_accumulator", 0)]);
}

#[test]
fn rotate_accumulators() {
    // Both mul inputs in r0-r3.
    let ok = assemble("nop;  fmul r3, r0>>1, r1>>1");
    assert_eq!(check(&ok), []);
    // The same word with a mul input from regfile A or r4.
    let Instruction::AluSmallImm(x) = ok[0] else { panic!("small immediate") };
    let from_a = Instruction::AluSmallImm(vc4::AluSmallImm { mul_a: Mux::A, raddr_a: 1, ..x });
    assert_eq!(check(&[from_a]), [("rotate_accumulators", 0)]);
    let from_r4 = Instruction::AluSmallImm(vc4::AluSmallImm { mul_b: Mux::R4, ..x });
    assert_eq!(check(&[ok[0], from_r4]), [("rotate_accumulators", 1)]);
    // Small immediates below 48 are values, not rotations.
    assert_eq!(violations("nop; fmul r3, ra1, 2.0"), []);
}

#[test]
fn violations_are_independent() {
    // One program breaking several rules reports each once, at its own instruction.
    let source = "
        nop;  sbwait
        mov ra1, r0
        mov r1, ra1
        mov r0, r1;  mov r0, r2
        mov ra1, r0;  thrend
        mov r1, unif
        mov tlbz, r0
    ";
    assert_eq!(
        violations(source),
        [
            ("early_scoreboard_wait", 0),
            ("read_after_write", 2),
            ("same_accumulator", 3),
            ("thread_end_fifo", 5),
            ("thread_end_physical", 4),
            ("thread_end_tlbz", 6),
        ]
    );
}
