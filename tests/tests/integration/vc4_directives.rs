//! The assembler's directive core in vc4asm's spelling (its doc/directives.html and
//! doc/expressions.html): symbols and expressions, labels with forward references,
//! conditionals, repetition, macros, includes, data and alignment.
//!
//! Expected words: each program below was also assembled by vc4asm 0.3 (built from
//! maazl/vc4asm) and gave these words, and they follow from the instruction layout of the
//! QPU (seed 004): a load immediate `ldi rN, imm` is `0xe00208XX_imm` with write address
//! 32 + N in bits 43:38 (`0xe0020827` for r0, `..67` r1, `..a7` r2, `..e7` r3) and condition
//! `always` in 51:49; `nop` is `0x100009e7_009e7000`; a branch `brr -, target` is
//! `0xf0f809e7` over its displacement `target - (pc + 32)`, `bra` `0xf0f009e7` over the address.

use isa_runtime::target::Target;
use isa_runtime::AsmError;
use isa_tests::MemoryFiles as Files;

fn vc4() -> &'static dyn Target {
    isa_generated::targets().iter().copied().find(|t| t.name() == "vc4").expect("vc4 target")
}

fn assemble_with(
    source: &str,
    files: &'static [(&'static str, &'static str)],
) -> Result<Vec<u128>, Vec<AsmError>> {
    let mut errors = Vec::new();
    let words =
        vc4().assemble_files("main.qasm", source, 0, &mut Files(files), &mut |e, _| errors.push(e.clone()));
    words.ok_or(errors)
}

fn words(source: &str) -> Vec<u128> {
    assemble_with(source, &[]).unwrap_or_else(|e| panic!("{e:#?}"))
}

const NOP: u128 = 0x100009e7_009e7000;

fn ldi(register: u32, imm: u32) -> u128 {
    let upper = 0xe0020827u128 | (u128::from(register) << 6);
    upper << 32 | u128::from(imm)
}

#[test]
fn symbols_and_vc4asm_operators_in_immediates() {
    let source = "\
.set a, 7
.set b, (a << 2) | 1
ldi r0, b * 2 - 1
ldi r1, -a
ldi r2, 10 % 3 + 0x10
ldi r3, !0 + ~0
ldi r0, (1 < 2) + (2 <= 2) * 2 + (3 == 3) * 4 + (3 != 3) * 8 + (1 && 0) * 16 + (1 || 0) * 32
ldi r0, 2 ** 10
ldi r0, -16 >> 2
ldi r0, 0x100 >>> 4
ldi r0, 1 ^ 3
ldi r0, 5 & 6
ldi r0, 1 ><< 4
ldi r0, 0x80000001 >>< 4
ldi r0, 1 << 31
ldi r0, 3 <=> 4
ldi r0, 1 !^ 3
ldi r0, 1 ^^ 1
ldi r0, 2 ** 3 ** 2
ldi r0, 7 - 2 - 1
";
    let expected = [
        ldi(0, 0x39),
        ldi(1, 0xffff_fff9),
        ldi(2, 0x11),
        ldi(3, 0),
        ldi(0, 0x27),
        ldi(0, 0x400),
        ldi(0, 0xffff_fffc),
        ldi(0, 0x10),
        ldi(0, 2),
        ldi(0, 4),
        ldi(0, 0x10),
        ldi(0, 0x1800_0000),
        ldi(0, 0x8000_0000),
        ldi(0, 0xffff_ffff),
        ldi(0, 0xffff_fffd),
        ldi(0, 0),
        ldi(0, 0x40),
        ldi(0, 4),
    ];
    assert_eq!(words(source), expected);
    assert_eq!(ldi(0, 0x39), 0xe0020827_00000039, "the helper spells vc4asm's word");
}

#[test]
fn const_equ_define_and_unset() {
    let w =
        words(".const N, 5\n.equ M, N + 1\n.define K, M * 2\nldi r0, K\n.unset K\n.set K, 1\nldi r1, K\n");
    assert_eq!(w, [ldi(0, 12), ldi(1, 1)]);
    let e = assemble_with(".const N, 5\n.set N, 6\n", &[]).unwrap_err();
    assert_eq!((e[0].line, e[0].column, e[0].length), (2, 6, 1));
    assert_eq!(e[0].message, "`N` is a constant: it cannot be set again");
    // A symbol holding a register name is put where it is used (vc4asm's `.set rx, ra0`).
    assert_eq!(words(".set dst, r3\nldi dst, 2\n"), [ldi(3, 2)]);
}

#[test]
fn labels_forward_and_backward_in_branches_and_differences() {
    let source = ":start\nnop\nbrr -, :start\nbrr -, r:start\nbrr -, :start + 8\nbra -, :start\nbra -, r:start\nldi r0, :end - :start\n:end\n";
    let branch_rel = |disp: i32| 0xf0f809e7u128 << 32 | u128::from(disp as u32);
    let branch_abs = |addr: u32| 0xf0f009e7u128 << 32 | u128::from(addr);
    // The branch at 8 to 0: 0 - (8 + 32) = -40; at 16: -48; at 24 to 8: 8 - 56 = -48.
    assert_eq!(
        words(source),
        [NOP, branch_rel(-40), branch_rel(-48), branch_rel(-48), branch_abs(0), branch_abs(0), ldi(0, 0x38)]
    );
    // `name:` defines a label too; a forward reference is resolved in the second pass.
    assert_eq!(words("start:\nnop\nbrr -, :start\n"), [NOP, branch_rel(-40)]);
    assert_eq!(words("brr -, :fwd\nnop\n:fwd\nnop\n"), [branch_rel(16 - 32), NOP, NOP]);
}

#[test]
fn a_colon_alone_before_an_instruction_names_no_label() {
    // GPU_FFT's `:       bra  -, ra_link` in `.rep`: vc4asm's Parser::parseLabel reads `:`
    // followed by a blank as a branch target without a name. The words are the instruction's
    // alone (the branch 0xf0f009e7_00000000 as above, absolute to 0), and `:1` after it is
    // still a label.
    let branch_abs = |addr: u32| 0xf0f009e7u128 << 32 | u128::from(addr);
    assert_eq!(
        words(":       bra -, 0\n:\tnop\n:1 nop\nbra -, r:1b\n"),
        [branch_abs(0), NOP, NOP, branch_abs(16)]
    );
}

#[test]
fn conditionals_repetition_macros_includes_data_and_alignment() {
    const CONSTS: &str = "# constants from an include\n.const STRIDE, 16\n.macro load_const, reg, value\n    ldi reg, value\n.endm\n";
    let source = "\
.include <consts.qinc>
.set STAGES, 3
.equ MASK, (1 << STAGES) - 1
.define DEBUG, 0
.if STAGES > 4
    ldi r0, 1
.elseif STAGES == 3
    ldi r0, 2
.else
    ldi r0, 3
.endif
.ifset DEBUG
    ldi r1, MASK
.endif
.ifset NOTSET
    ldi r1, 0xdead
.else
    ldi r1, STRIDE * 2
.endif
.unset DEBUG
.ifset DEBUG
    nop
.endif
.rep i, 3
    add r2, r2, i
.endr
load_const r3, MASK ^ 5
load_const ra1, :end - :loop
:loop
    sub.setf r0, r0, 1
    brr.allnz -, r:loop
    nop
    nop
    nop
.assert STAGES * 2 == 6
.set STAGES, STAGES + 1
    ldi r0, STAGES
.align 16
:end
.int :end - :loop, 7
.byte 1, 2, 3
.align 8
.short 0x1234, -1
.float 0.5
";
    let expected: [u128; 17] = [
        0xe0020827_00000002,
        0xe0020867_00000007,
        0xe0020867_00000020,
        0xd00208a7_0c9c05c0,
        0xd00208a7_0c9c15c0,
        0xd00208a7_0c9c25c0,
        0xe00208e7_00000002,
        0xe0020067_00000030,
        0xd0022827_0d9c11c0,
        0xf01809e7_ffffffd8,
        NOP,
        NOP,
        NOP,
        0xe0020827_00000004,
        // Data in little-endian bytes, words filled in order: .int 0x30, 7; .byte 1, 2, 3
        // padded by `.align 8`; .short 0x1234, 0xffff and the single 0.5.
        0x00000007_00000030,
        0x00000000_00030201,
        0x3f000000_ffff1234,
    ];
    let w = assemble_with(source, &[("consts.qinc", CONSTS)]).unwrap_or_else(|e| panic!("{e:#?}"));
    assert_eq!(w, expected);
}

#[test]
fn data_is_padded_to_the_next_instruction_and_aligned() {
    // vc4asm pads data before an instruction to its 64-bit word; `.align 16` at 16 is a no-op.
    let w = words(".byte 1,2,3\nnop\n.align 16\nnop\n.short 7\n.align 8\n.int 9\n");
    assert_eq!(w, [0x0003_0201, NOP, NOP, 7, 9]);
    // The raw directive keeps its word as written, and `.long` takes a list of values.
    assert_eq!(words(".long 0xf348d18fa02b3eec\n.long 1, 2\n"), [0xf348d18fa02b3eec, 1, 2]);
    assert_eq!(words(".float 1.0, 2.5\n"), [0x40200000_3f800000]);
    // Data after a label on its line (GPU_FFT's `:0_tw .int 4`): the label is its address.
    let w = words(":a .int 4\n:0_b .short 5\n:c .align 8\nldi r0, :0_b - :a\nldi r1, :c\n");
    // `:c` is defined before its line's `.align` moves on: at 6, after the 4 + 2 bytes.
    assert_eq!(w, [0x0005_0000_0004, ldi(0, 4), ldi(1, 6)]);
    // Functions in data (GPU_FFT's `.int vpm_setup(2, -16, h32(24+q))`, vc4.qinc's `.func`s),
    // beside a label further on: 0xa00 | 1, -1, then `:end` at 16.
    let source =
        ".func h(y)\n  .assert !(y & ~0x3f)\n  0xa00 | y\n.endf\n.int h(1), -1\n.int :end, h(2)\n:end\n";
    assert_eq!(words(source), [0xffff_ffff_0000_0a01, 0x0000_0a02_0000_0010]);
    let e = assemble_with(&source.replace("h(2)", "h(64)"), &[]).unwrap_err();
    assert_eq!((e.len(), e[0].line, e[0].column), (1, 6, 12));
    assert_eq!(e[0].message, "in function `h`: assertion failed: !(y & ~0x3f)");
}

#[test]
fn rep_nests_and_counts_from_zero() {
    let w = words(".rep i, 2\n.rep j, 2\nldi r0, i * 2 + j\n.endr\n.endr\n.rep 0\nnop\n.endr\n");
    assert_eq!(w, [ldi(0, 0), ldi(0, 1), ldi(0, 2), ldi(0, 3)]);
    // vc4asm's example spelling without the comma.
    assert_eq!(words(".rep k 2\nldi r1, k\n.endr\n"), [ldi(1, 0), ldi(1, 1)]);
}

fn errors(source: &str) -> Vec<AsmError> {
    assemble_with(source, &[("bad.qinc", ".set y, 3\n  add r0, r1, nosuch\n")]).expect_err("errors")
}

#[test]
fn a_macro_error_points_into_the_body_and_names_the_call() {
    let e = errors(".macro m, x\n  ldi r0, x\n  bogus r1\n.endm\nnop\nm 5\n");
    assert_eq!(e.len(), 1, "{e:#?}");
    assert_eq!((e[0].line, e[0].column, e[0].length), (3, 3, 5));
    assert_eq!(e[0].message, "unknown mnemonic `bogus`");
    assert_eq!(e[0].expansion.len(), 1);
    assert_eq!((e[0].expansion[0].line, e[0].expansion[0].what.as_str()), (6, "in macro `m` called from"));
    // An argument that does not fit is reported at the symbol in the body.
    let e = errors(".macro m, x\n  ldi r0, x\n.endm\nm 0x100000000\n");
    assert_eq!((e[0].line, e[0].column, e[0].length), (2, 11, 1), "{e:#?}");
    let e = errors(".macro m, x\n.endm\nm 1, 2\n");
    assert_eq!(e[0].message, "macro `m` takes 1 argument, found 2");
    assert_eq!((e[0].line, e[0].column), (3, 1));
}

#[test]
fn an_included_file_error_names_the_file_and_the_include() {
    let e = errors("nop\n.include \"bad.qinc\"\n");
    assert_eq!(e.len(), 1, "{e:#?}");
    assert_eq!(e[0].file.as_deref(), Some("bad.qinc"));
    assert_eq!((e[0].line, e[0].column, e[0].length), (2, 15, 6));
    assert_eq!(e[0].expansion[0].line, 2);
    assert_eq!(e[0].expansion[0].file, None);
    let e = errors(".include \"missing.qinc\"\n");
    assert_eq!((e[0].line, e[0].column, e[0].length), (1, 10, 14));
    assert_eq!(e[0].message, "cannot find `missing.qinc`");
    // A file including itself stops at the nesting limit instead of overflowing the stack.
    let mut e = Vec::new();
    vc4().assemble_files(
        "a",
        ".include \"self\"\n",
        0,
        &mut Files(&[("self", ".include \"self\"\n")]),
        &mut |x, _| e.push(x.clone()),
    );
    assert!(e.iter().any(|x| x.message.contains("nested deeper than 64")), "{e:#?}");
}

#[test]
fn directive_errors_are_located_at_their_token() {
    let e = errors("ldi r0, 1 + nothing\n");
    assert_eq!((e[0].line, e[0].column, e[0].length), (1, 13, 7), "{e:#?}");
    let e = errors(".assert 2 < 1\n");
    assert_eq!((e[0].column, e[0].length, e[0].message.as_str()), (9, 5, "assertion failed: 2 < 1"));
    let e = errors(".set x, 4 / (2 - 2)\n");
    assert_eq!((e[0].column, e[0].length, e[0].message.as_str()), (11, 1, "division by zero"));
    let e = errors("nop\n.endif\n");
    assert_eq!((e[0].line, e[0].column, e[0].length), (2, 1, 6));
    let e = errors(".if 1\n.else\n.else\n.endif\n");
    assert_eq!(e[0].message, "`.else` after the conditional's last branch");
    let e = errors(".rep i, -1\n.endr\n");
    assert_eq!((e[0].column, e[0].message.as_str()), (9, "the count must be an integer ≥ 0"));
    let e = errors(".rep i, 2\nnop\n");
    assert_eq!(e[0].message, "`.rep` without its end");
    let e = errors(".align 3\n");
    assert_eq!((e[0].column, e[0].message.as_str()), (8, "the alignment must be a power of two"));
    let e = errors(".byte 256\n");
    assert_eq!((e[0].column, e[0].length, e[0].message.as_str()), (7, 3, "256 does not fit in 8 bits"));
    let e = errors(":a\n:a\n");
    assert_eq!((e[0].line, e[0].column, e[0].message.as_str()), (2, 2, "label `a` defined twice"));
}

#[test]
fn a_dialect_without_directives_reads_them_as_before() {
    // The mesa dialect declares none: `.set` is no mnemonic there.
    let mut errors = Vec::new();
    let r = vc4().assemble_files("m", ".set x, 1\n", 1, &mut Files(&[]), &mut |e, _| errors.push(e.clone()));
    assert_eq!(r, None);
    assert_eq!((errors[0].line, errors[0].column, errors[0].length), (1, 1, 4), "{errors:#?}");
    assert!(errors[0].message.ends_with("found `.set`"), "{errors:#?}");
}

/// Words of `mov rX, rY`-style moves as vc4asm 0.3 assembles them (an `or` of the add ALU,
/// write address in bits 43:38, `ws` in 44 for regfile B).
const MOV_RA4_R0: u128 = 0x10020127_159e7000;

#[test]
fn functions_in_a_line_and_in_lines() {
    // vc4asm 0.3: 0x2a, 0 + 10 + 3 = 0xd, (4 + 1)² = 0x19.
    let source = "\
.set twice(x) x * 2
.func clamp(x, lo, hi)
  .if x < lo
    lo
  .elseif x > hi
    hi
  .else
    x
  .endif
.endf
.func weight(x)
  .lset y, x + 1
  .assert y > 0
  y * y
.endf
ldi r0, twice(21)
ldi r1, clamp(-5, 0, 10) + clamp(50, 0, 10) + clamp(3, 0, 10)
ldi r2, weight(twice(2))
";
    assert_eq!(words(source), [ldi(0, 0x2a), ldi(1, 0xd), ldi(2, 0x19)]);
}

#[test]
fn local_symbols_end_with_their_context() {
    // `.lset` in a macro call and in `.local` shadows the global `n` until the context ends;
    // `.lunset` forgets the local one. vc4asm 0.3: 5, 1, 7, 1, 1.
    let source = "\
.set n, 1
.macro m
  .lset n, 5
  ldi r0, n
.endm
m
ldi r1, n
.local
  .lset n, 7
  ldi r2, n
  .lunset n
  ldi r3, n
.endloc
ldi r0, n
";
    assert_eq!(words(source), [ldi(0, 5), ldi(1, 1), ldi(2, 7), ldi(3, 1), ldi(0, 1)]);
}

#[test]
fn foreach_takes_registers_and_numbers() {
    // vc4asm 0.3: `mov ra0, 1` is a load immediate to file A address 0, `rb1` to file B 1.
    let source =
        ".foreach reg, ra0, rb1, r2\n  mov reg, 1\n.endfor\n.foreach v, 3, 2 * 5\n  ldi r0, v\n.endfor\n";
    assert_eq!(words(source), [0xe0020027_00000001, 0xe0021067_00000001, ldi(2, 1), ldi(0, 3), ldi(0, 10)]);
}

#[test]
fn register_arithmetic_and_comparison() {
    // `base + i` with base = ra4 is ra4, ra5, ra6 (write address 4..6); `rb10 - 2` is rb8;
    // registers compare by name. vc4asm 0.3 gives these words.
    let source = "\
.set base, ra4
.rep i, 3
  mov base + i, r0
.endr
mov rb10 - 2, r1
.set clr, nop
.if clr == nop
  mov r2, 1
.endif
.if rb3 != nop
  mov r3, 2
.endif
";
    assert_eq!(
        words(source),
        [MOV_RA4_R0, MOV_RA4_R0 | 1 << 38, MOV_RA4_R0 | 2 << 38, 0x10021227_159e7240, ldi(2, 1), ldi(3, 2)]
    );
    let e = errors(".set x, vpm + 1\nmov x, r0\n");
    assert!(e.iter().any(|e| e.line == 2), "{e:#?}");
}

#[test]
fn back_moves_a_branch_into_its_delay_slots() {
    // The branch goes before the three moves; `:loop` labels it, `:after` stays after the
    // moves: `brr` at 0 to 0 is -32, `:after - :loop` = 32 (vc4asm 0.3).
    let source = "\
:loop
  mov r0, 1
  mov r1, 2
  mov r2, 3
  .back 3
    brr -, r:loop
  .endb
:after
  ldi r3, :after - :loop
";
    assert_eq!(words(source), [0xf0f809e7_ffffffe0, ldi(0, 1), ldi(1, 2), ldi(2, 3), ldi(3, 0x20)]);
    let e = errors("nop\n.back 2\n  nop\n.endb\n");
    assert_eq!(e[0].message, "there are no 2 instructions right before to go back over");
    let e = errors(".back 6\n.endb\n");
    assert_eq!((e[0].line, e[0].message.as_str()), (1, "the count must be an integer 0 to 5"));
}

#[test]
fn a_long_program_moves_labels_and_branches_across_the_streamed_passes() {
    // `isa asm` expands a long program twice and writes it as it goes (issue 14): a branch
    // from the first line to a label 3,000 lines on, `.back` and label differences far
    // from the start, and an error's line there, as in a short program. Addresses: `:loop`
    // at 3000 * 8 = 24000, `:after` 32 further, `:far` at 24040; `brr` at 0 to it is
    // 24040 - 32 = 0x5dc8 (the branch counts from four instructions on, as the test above).
    let source = format!(
        "  brr -, r:far\n{}:loop\n  mov r0, 1\n  mov r1, 2\n  mov r2, 3\n  .back 3\n    brr -, r:loop\n  \
         .endb\n:after\n  ldi r3, :after - :loop\n:far\n",
        "  nop\n".repeat(2999)
    );
    let mut expected = alloc_words(0xf0f809e7_00005dc8, 2999);
    expected.extend([0xf0f809e7_ffffffe0, ldi(0, 1), ldi(1, 2), ldi(2, 3), ldi(3, 0x20)]);
    assert_eq!(words(&source), expected);
    let e = errors(&format!("{}  bogus r1\n.back 6\n.endb\n", "nop\n".repeat(3000)));
    // The expansion's error first, then the statement's, as in a short program.
    let found: Vec<_> = e.iter().map(|e| (e.line, e.message.as_str())).collect();
    assert_eq!(found, [(3002, "the count must be an integer 0 to 5"), (3001, "unknown mnemonic `bogus`")]);
}

/// `first`, then `nops` NOPs.
fn alloc_words(first: u128, nops: usize) -> Vec<u128> {
    let mut w = vec![first];
    w.extend(std::iter::repeat_n(NOP, nops));
    w
}

#[test]
fn clone_copies_instructions_from_a_label_further_on() {
    // The branch skips the three cloned moves at :target; vc4asm 0.3 gives these words.
    let source = "\
  brr -, r:target + 3*8
  .clone :target, 3
  nop
:target
  mov r0, 1
  mov r1, 2
  mov r2, 3
  mov r3, 4
";
    let moves = [ldi(0, 1), ldi(1, 2), ldi(2, 3)];
    let mut want = vec![0xf0f809e7_00000020];
    want.extend(moves);
    want.push(NOP);
    want.extend(moves);
    want.push(ldi(3, 4));
    assert_eq!(words(source), want);
    let e = errors(".clone :nowhere, 1\n");
    assert_eq!(e[0].message, "undefined label `nowhere`");
}

#[test]
fn numeric_labels_are_defined_again_and_again() {
    // `r:1f` is the next `:1`, `r:1` the last one (vc4asm 0.3).
    let source = ":1\n  brr -, r:1f\n  nop\n:1\n  brr -, r:1\n  brr -, r:1\n  brr -, r:1f\n:1\n  nop\n";
    assert_eq!(
        words(source),
        [0xf0f809e7_fffffff0, NOP, 0xf0f809e7_ffffffe0, 0xf0f809e7_ffffffd8, 0xf0f809e7_ffffffe8, NOP]
    );
    // `b` says the last one as well.
    assert_eq!(words(":1\n  brr -, r:1b\n"), [0xf0f809e7_ffffffe0]);
}

#[test]
fn labels_starting_with_a_digit_are_names_beside_numeric_labels() {
    // vc4asm's GPU_FFT (test/gpu_fft_256_new.qasm) writes `:0_pass`, `:0_end`: names, no
    // numeric labels, which are digits alone (vc4asm's src/Parser.cpp). Instructions at 0,
    // 8, ... 72.
    let source = "\
brr -, r:0_pass
nop
:1
:0_pass nop
brr -, r:1b
brr -, r:0_pass
brr -, r:1f
nop
:1
nop
bra -, :0_pass
ldi r0, :0_end - :0_pass
:0_end
";
    let brr = |disp: i32| 0xf0f809e7u128 << 32 | u128::from(disp as u32);
    assert_eq!(
        words(source),
        [
            brr(16 - 32), // at 0, forward to `:0_pass` at 16
            NOP,
            NOP,          // `:0_pass`, the first `:1`
            brr(16 - 56), // at 24, back to the first `:1`
            brr(16 - 64), // at 32, back to `:0_pass`
            brr(56 - 72), // at 40, forward to the second `:1` at 56
            NOP,
            NOP,
            0xf0f009e7_00000010, // `bra` to the address 16
            ldi(0, 80 - 16),     // `:0_end` at 80
        ]
    );
    // Defined in each repetition like `:1` (vc4asm's `defineLabel`: a name starting with a
    // digit may be defined again): a reference means the last definition, or the next one
    // before the first (GPU_FFT's header before its `.rep` body's labels).
    let source = "\
.rep q, 2
  .if q == 0
    ldi r0, :0_end - :0_start
  .endif
:0_start
    nop
    brr -, r:0_start
:0_end
.endr
brr -, r:0_start
";
    // ldi at 0; `:0_start` at 8 then 24, `:0_end` at 24 then 40; branches at 16, 32, 40.
    assert_eq!(words(source), [ldi(0, 24 - 8), NOP, brr(8 - 48), NOP, brr(24 - 64), brr(24 - 72)]);
}

#[test]
fn sections_globals_and_built_in_functions() {
    // `.text`, `.rodata`, `.code` and `.global` emit nothing; abs(-3) + floor(2.5) + ceil(2.5)
    // = 8 (vc4asm 0.3).
    let source = ".text\n::start\n.global :start\n.global size, 16\n  mov r0, 1\n.rodata\n.code\n  mov r1, abs(-3) + floor(2.5) + ceil(2.5)\n";
    assert_eq!(words(source), [ldi(0, 1), ldi(1, 8)]);
}

#[test]
fn a_function_error_is_reported_at_the_call() {
    let source = ".func f(x)\n  .assert x < 4\n  x\n.endf\nldi r0, f(1)\nldi r1, f(9)\n";
    let e = errors(source);
    assert_eq!(e.len(), 1, "{e:#?}");
    assert_eq!((e[0].line, e[0].column, e[0].length), (6, 9, 4), "{e:#?}");
    assert_eq!(e[0].message, "in function `f`: assertion failed: x < 4");
    let e = errors(".set g(a, b) a + b\n.set y, g(1)\n");
    assert_eq!((e[0].line, e[0].message.as_str()), (2, "function `g` takes 2 arguments, found 1"));
    let e = errors(".func r(x)\n  r(x)\n.endf\n.set y, r(1)\n");
    assert_eq!(e[0].message, "in function `r`: function calls nested deeper than 64 levels");
    // Each error once: the instruction or placeholder it leaves says nothing more.
    assert_eq!(errors(".func f(x)\n  .assert x > 1\n  x\n.endf\nldi r1, f(1)\n").len(), 1);
    assert_eq!(errors(".clone :nowhere, 2\n").len(), 1);
}

#[test]
fn semaphores_read_as_registers_print_as_instructions() {
    // vc4asm reads `mov dst, sacqN` / `srelN` as the semaphore instruction (the spec's `alias`
    // arm). The semaphore is a load immediate of mode 4: 0xe8 in bits 63:56; `-` is address 39
    // on both ports (0x9e7, condition never), `ra1` 1 on the add port with condition always
    // (bit 49) and `.setf` bit 45; the low bits are acquire (bit 4) and the number. vc4asm 0.3
    // gives the same four words.
    let source = "\
.set sacq(n) sacq0 + n
.set srel(n) srel0 + n
mov -, sacq(9)
mov -, srel(3)
sacq -, 9
mov.setf ra1, sacq(2)
";
    let got = words(source);
    assert_eq!(got, [0xe80009e7_00000019, 0xe80009e7_00000003, 0xe80009e7_00000019, 0xe8022067_00000012]);
    // The alias is never printed: the listing says it the instruction's way.
    assert_eq!(vc4().disassemble(got[0], 0, 0).expect("decodes"), "sacq -, 9");
    assert_eq!(vc4().disassemble(got[1], 0, 0).expect("decodes"), "srel -, 3");
    assert_eq!(vc4().disassemble(got[3], 0, 0).expect("decodes"), "sacq.setf ra1, 2");
    // Only the semaphore registers: another name is not one.
    assert!(assemble_with("mov -, sacx9\n", &[]).is_err());
}

#[test]
fn doubles_halves_bits_and_elementary_functions() {
    // Each 64-bit word holds its data bytes in little-endian order. 1.5 as a double is
    // 0x3ff8000000000000; as halves 1.0 = 0x3c00, -2.0 = 0xc000, 65504 (the largest) = 0x7bff
    // and 0.1 rounds to 0x2e66; the bits 1,0,1,1 then 0,0,0,0 fill byte 0x0d, 1,1 then
    // 0,0,0,0,0,0 byte 0x03, then the short and the int. cos(0) = 1.0 is 0x3f800000 and
    // sin(0.5) = 0.4794255 rounds to 0x3ef57744 as a single; 2^10 = 1024.0 is 0x44800000 and
    // log10(1000) + 4·atan(1) = 3 + π rounds to 0x40c487ed (vc4asm 0.3 gives both `ldi` words).
    let source = "\
.double 1.5
.half 1.0, -2.0, 65504.0, 0.1
.bit 1, 0, 1, 1
.bit 0, 0, 0, 0, 1, 1
.bit 0, 0, 0, 0, 0, 0
.short 0x1234
.int 0x55667788
.float cos(0), sin(0.5)
ldi r0, exp2(10)
ldi r1, log10(1000) + atan(1) * 4
";
    assert_eq!(
        words(source),
        [
            0x3ff80000_00000000,
            0x2e667bff_c0003c00,
            0x55667788_1234030d,
            0x3ef57744_3f800000,
            ldi(0, 0x4480_0000),
            ldi(1, 0x40c4_87ed)
        ]
    );
    // A bit is 0 or 1; a function takes one number.
    let e = errors(".bit 2\n");
    assert_eq!(e[0].message, "2 is not a bit (0 or 1)");
    let e = errors(".set x, sin(1, 2)\n");
    assert_eq!(e[0].message, "`sin` takes one argument");
}

#[test]
fn local_constants_are_final_in_their_context_only() {
    // `.lconst` shadows the global constant `n` in the macro call, and `k` ends with its
    // `.local` block: vc4asm 0.3 gives 5, 1, 2 and nothing for the `.ifset k` after the block.
    let source = "\
.const n, 1
.macro m
  .lconst n, 5
  ldi r0, n
.endm
m
ldi r1, n
.local
  .lconst k, 2
  ldi r2, k
.endloc
.ifset k
  ldi r3, 9
.endif
";
    assert_eq!(words(source), [ldi(0, 5), ldi(1, 1), ldi(2, 2)]);
    // vc4asm's doc/directives.html: "The assignment of .const and .lconst is final, i.e. a
    // second assignment to the same identifier is an error" (vc4asm 0.3 itself lets it pass).
    let e = errors(".local\n  .lconst k, 2\n  .lset k, 3\n.endloc\n");
    assert_eq!((e[0].line, e[0].column, e[0].length), (3, 9, 1), "{e:#?}");
    assert_eq!(e[0].message, "`k` is a constant: it cannot be set again");
}

/// Macros calling macros from an included file: an error in the innermost body names every
/// call and the include, innermost first, each at its file and line.
#[test]
fn a_macro_heavy_error_names_the_whole_expansion_stack() {
    const MACROS: &str = "\
.macro inner, x
  ldi r0, x
  bogus x
.endm
.macro outer, y
  .rep i, 1
    inner y + i
  .endr
.endm
";
    const PROGRAM: &str = "nop\nouter 3\n";
    let files: &'static [(&str, &str)] = &[("macros.qinc", MACROS), ("program.qinc", PROGRAM)];
    let e = assemble_with(".include \"macros.qinc\"\nnop\n.include \"program.qinc\"\n", files)
        .expect_err("errors");
    assert_eq!(e.len(), 1, "{e:#?}");
    // `bogus` at line 3, column 3 of macros.qinc.
    assert_eq!(e[0].file.as_deref(), Some("macros.qinc"));
    assert_eq!((e[0].line, e[0].column, e[0].length), (3, 3, 5), "{e:#?}");
    assert_eq!(e[0].message, "unknown mnemonic `bogus`");
    let stack: Vec<(Option<&str>, usize, &str)> =
        e[0].expansion.iter().map(|x| (x.file.as_deref(), x.line, x.what.as_str())).collect();
    assert_eq!(
        stack,
        [
            (Some("macros.qinc"), 7, "in macro `inner` called from"),
            (Some("macros.qinc"), 6, "in repetition 0 of the block at"),
            (Some("program.qinc"), 2, "in macro `outer` called from"),
            (None, 3, "in the file included from"),
        ]
    );
    // An argument that does not fit points at the symbol in the body, with the same stack.
    let files: &'static [(&str, &str)] = &[("macros.qinc", MACROS), ("program.qinc", "outer 0x100000000\n")];
    let e =
        assemble_with(".include \"macros.qinc\"\n.include \"program.qinc\"\n", files).expect_err("errors");
    let first = &e[0];
    assert_eq!((first.file.as_deref(), first.line, first.column), (Some("macros.qinc"), 2, 11), "{e:#?}");
    assert_eq!(first.expansion.len(), 4, "{e:#?}");
}

/// An ALU word from its fields (seed 004's layout: sig 63:60, unpack 59:57, pm 56, pack 55:52,
/// cond_add 51:49, cond_mul 48:46, sf 45, ws 44, waddr_add 43:38, waddr_mul 37:32, op_mul
/// 31:29, op_add 28:24, raddr_a 23:18, raddr_b / small immediate 17:12, then the muxes add_a,
/// add_b, mul_a, mul_b in three bits each from 11:9; mux 6 is file A, 7 file B).
#[allow(clippy::too_many_arguments)]
fn alu(
    sig: u128,
    unpack: u128,
    conds: (u128, u128),
    waddr: (u128, u128),
    ops: (u128, u128),
    raddr: (u128, u128),
    muxes: [u128; 4],
) -> u128 {
    sig << 60
        | unpack << 57
        | conds.0 << 49
        | conds.1 << 46
        | waddr.0 << 38
        | waddr.1 << 32
        | ops.1 << 29
        | ops.0 << 24
        | raddr.0 << 18
        | raddr.1 << 12
        | muxes[0] << 9
        | muxes[1] << 6
        | muxes[2] << 3
        | muxes[3]
}

// Conditions (never 0, always 1, zc 3), signals (none 1, thrend 3, small immediate 13), write
// addresses (r0..r3 32..35, `-` 39), add ops (add 12, asr 15, shl 17, xor 22), mul ops (fmul 1,
// mul24 2, v8subs 7) from Mesa's vc4_qpu_defines.h (facts A.5, A.6, A.7, A.10); rotation by n is small
// immediate 48 + n (facts A.9).
const A: u128 = 6;
const B: u128 = 7;

#[test]
fn vector_rotation_is_read_on_any_mul_source() {
    // rpi_shader's `mul24.ifnz r2, ra0 << 8, r1 << 8`: file A rotates within each quad, the
    // rotation is the mul pipe's (one small immediate, 56); vc4asm also reads it on one
    // accumulator only (`fmul r0, r0 << 8, r1` rotates r1 as well).
    assert_eq!(
        words("mul24.ifnz r2, ra0 << 8, r1 << 8\nfmul r0, r0 << 8, r1\nfmul r0, r0, r1 << 8\n"),
        [
            alu(13, 0, (0, 3), (39, 34), (0, 2), (0, 56), [0, 0, A, 1]),
            alu(13, 0, (0, 1), (39, 32), (0, 1), (39, 56), [0, 0, 0, 1]),
            alu(13, 0, (0, 1), (39, 32), (0, 1), (39, 56), [0, 0, 0, 1]),
        ]
    );
    // Two different rotations are two small immediates: no word has them.
    assert!(assemble_with("fmul r0, r0 << 8, r1 << 4\n", &[]).is_err());
}

#[test]
fn separators_take_blanks_and_end_a_line() {
    // `nop ; mul24 ...` as `nop; mul24 ...`; a line may end in `;` (smitest's style).
    let mul24 = alu(1, 0, (0, 1), (39, 33), (0, 2), (39, 14), [0, 0, 1, B]);
    let shl = alu(13, 0, (1, 0), (32, 39), (17, 0), (38, 3), [A, B, 0, 0]);
    assert_eq!(
        words("nop ; mul24 r1, r1, rb14\nnop;mul24 r1, r1, rb14\nshl r0, elem_num, 3;\nshl r0, elem_num, 3 ;\nnop ; nop ; thrend\n"),
        [mul24, mul24, shl, shl, alu(3, 0, (0, 0), (39, 39), (0, 0), (39, 39), [0; 4])]
    );
    // A load immediate takes an idle mul half too: write address 38 is `interrupt`.
    assert_eq!(words("mov interrupt, 1; nop\nmov interrupt, 1;\n"), [0xe00209a7_00000001; 2]);
}

#[test]
fn a_branch_to_an_odd_register_implies_setf() {
    // Bit 45 is both raddr_a's low bit and `.setf`: `bra -, ra31` is `bra.setf -, ra31` (sig
    // 15, cond always 15 in 55:52, absolute, reg in 50, raddr_a 31 in 49:45, no links).
    let word = 15u128 << 60 | 15 << 52 | 1 << 50 | 31 << 45 | 39 << 38 | 39 << 32;
    assert_eq!(words("bra -, ra31\nbra.setf -, ra31\n"), [word, word]);
}

#[test]
fn mov_of_zero_beside_another_operation_needs_no_immediate() {
    // vc4asm writes 0 as a value minus (or xor) itself through mux B, whatever file B reads,
    // so the other half keeps its small immediate; alone, `mov r3, 0` stays `ldi r3, 0`.
    assert_eq!(
        words("asr r0, r0, r3; mov r3, 0\nmov r3, 0; fmul r0, r1, 2\nmov r3, 0\n"),
        [
            alu(1, 0, (1, 1), (32, 35), (15, 7), (39, 39), [0, 3, B, B]),
            alu(13, 0, (1, 1), (35, 32), (22, 1), (39, 2), [B, B, 1, B]),
            ldi(3, 0),
        ]
    );
}

#[test]
fn a_shift_count_of_16_to_31_is_the_small_immediate_with_its_low_five_bits() {
    // vc4asm's AssembleInst.cpp sign-extends the count of asr/shl/shr/ror from 5 bits (the
    // bits a shift reads): 24 is small immediate -8 (raw 24), 28 is -4, 31 is -1, 16 is -16.
    // shr is add op 14, asr 15, ror 16, shl 17 (Mesa's vc4_qpu_defines.h). vc4asm 0.3 gives
    // the same words for every line here (run locally).
    let shl = alu(13, 0, (1, 0), (32, 39), (17, 0), (1, 24), [A, B, 0, 0]);
    assert_eq!(shl, 0xd0020827_11058dc0);
    assert_eq!(words("shl r0, ra1, 24\nshl r0, ra1, -8\n"), [shl, shl]);
    let shr_setf = alu(13, 0, (1, 0), (39, 39), (14, 0), (1, 28), [A, B, 0, 0]) | 1 << 45;
    let asr = alu(13, 0, (1, 0), (33, 39), (15, 0), (39, 31), [2, B, 0, 0]);
    let ror = alu(13, 0, (1, 0), (33, 39), (16, 0), (39, 16), [2, B, 0, 0]);
    assert_eq!(words("shr.setf -, ra1, 28\nasr r1, r2, 31\nror r1, r2, 16\n"), [shr_setf, asr, ror]);
    // Beside a mul-pipe rotation the count is the rotation's immediate, 48 + n read as n - 16
    // (GPU_FFT 256_new): rotation 8 is 56, -8, a shift by 24. `mov` on the mul pipe is v8min
    // (4) of r0 with itself; r5rep is write address 37, cc condition 7, setf bit 45.
    let rotated = |cond_mul, waddr_mul| {
        alu(13, 0, (1, cond_mul), (39, waddr_mul), (17, 4), (1, 56), [A, B, 0, 0]) | 1 << 45
    };
    assert_eq!(rotated(1, 37), 0xd00269e5_91078dc0);
    assert_eq!(
        words("shl.setf -, ra1, 24; mov r5rep, r0<<8\nshl.setf -, ra1, 24; mov.ifcc r3, r0<<8\n"),
        [rotated(1, 37), rotated(7, 35)]
    );
    // Not on an operation that reads the whole value: `add r0, ra1, 24` has no small immediate.
    assert!(assemble_with("add r0, ra1, 24\n", &[]).is_err());
}

#[test]
fn add_or_sub_of_16_is_the_other_of_minus_16() {
    // No small immediate holds 16; vc4asm's AssembleInst.cpp swaps add (12) and sub (13) and
    // negates it: `add r0, ra1, 16` is `sub r0, ra1, -16` (small immediate 16), and back.
    // vc4asm 0.3 gives the same words (run locally).
    let add = alu(13, 0, (1, 0), (32, 39), (13, 0), (1, 16), [A, B, 0, 0]);
    assert_eq!(add, 0xd0020827_0d050dc0);
    let sub = alu(13, 0, (1, 0), (33, 39), (12, 0), (39, 16), [2, B, 0, 0]) | 1 << 45;
    assert_eq!(words("add r0, ra1, 16\nsub r0, ra1, -16\nsub.setf r1, r2, 16\n"), [add, add, sub]);
}

#[test]
fn unpack_is_also_spelled_unpack() {
    // vc4asm's `.unpack8b` is `.8b`: unpack 5 of the file-A source (pm 0).
    let word = alu(1, 5, (1, 0), (32, 39), (12, 0), (1, 39), [4, A, 0, 0]);
    assert_eq!(words("add r0, r4, ra1.unpack8b\nadd r0, r4, ra1.8b\n"), [word, word]);
}

/// Files in memory that keep the warnings: the words (or the errors) and the warnings.
struct Warned(Vec<AsmError>);

impl isa_runtime::directives::Includer for Warned {
    fn load(&mut self, name: &str, _: bool, _: Option<&str>) -> Result<(String, String), String> {
        match name {
            "open.qinc" => Ok((name.into(), "  .if 0\n  ldi r1, 1\n".into())),
            _ => Err(format!("cannot find `{name}`")),
        }
    }
    fn warning(&mut self, warning: &AsmError, _: &str) {
        self.0.push(warning.clone());
    }
}

fn warned(source: &str) -> (Result<Vec<u128>, Vec<AsmError>>, Vec<AsmError>) {
    let (mut files, mut errors) = (Warned(Vec::new()), Vec::new());
    let words = vc4().assemble_files("main.qasm", source, 0, &mut files, &mut |e, _| errors.push(e.clone()));
    (words.ok_or(errors), files.0)
}

#[test]
fn an_open_conditional_and_a_missing_numeric_label_are_said_as_written() {
    // An `.if` still open at the end of a file: vc4asm 0.3 reads the file as if it closed
    // there and warns (P145.20, its test/parser.macro.qasm: "unterminated .if"); the dialect
    // says so (`open_if_warns`), and the warning is at the directive. The lines after it
    // count or not as the condition says.
    let (w, warnings) = warned("nop\n  .if 1\n  ldi r0, 5\n");
    assert_eq!(w.expect("assembles"), [NOP, ldi(0, 5)]);
    assert_eq!(warnings.len(), 1, "{warnings:#?}");
    assert_eq!(
        (warnings[0].line, warnings[0].column, warnings[0].length, warnings[0].message.as_str()),
        (2, 3, 3, "`.if` without its end: closed at the end of the file")
    );
    let (w, warnings) = warned("nop\n.ifset x\nnop\n.if 1\nnop\n");
    assert_eq!(w.expect("assembles"), [NOP]);
    let at: Vec<_> = warnings.iter().map(|w| (w.line, w.message.as_str())).collect();
    assert_eq!(
        at,
        [
            (4, "`.if` without its end: closed at the end of the file"),
            (2, "`.ifset` without its end: closed at the end of the file")
        ]
    );
    // An included file's own open `.if` closes at its end: the lines after the include count.
    let (w, warnings) = warned(".include \"open.qinc\"\nldi r0, 5\n");
    assert_eq!(w.expect("assembles"), [ldi(0, 5)]);
    assert_eq!((warnings[0].line, warnings[0].expansion.len()), (1, 1), "{warnings:#?}");
    // Inside a block (a repetition's body) it is an error still, as an open `.rep` is.
    let (w, _) = warned(".rep i, 2\n  .if 1\n  nop\n.endr\n");
    let e = w.expect_err("open .if in a block");
    assert_eq!((e[0].line, e[0].column, e[0].message.as_str()), (2, 3, "`.if` without its end"));
    // A numeric label nothing defines is quoted as the source writes it.
    let e = errors("brr -, r:1f\nnop\n");
    assert_eq!((e[0].line, e[0].column, e[0].length), (1, 8, 4), "{e:#?}");
    assert!(e[0].message.ends_with("found `r:1f`"), "{e:#?}");
    assert!(!e[0].message.contains("_1_0"), "{e:#?}");
}

#[test]
fn a_branch_takes_its_two_targets_in_either_order() {
    // vc4asm's instructions.html: a register (or `-`) and an offset, either first, after one
    // or two link destinations. Fields (facts A.4): sig 15, cond always 15 in 55:52, rel in
    // 51, reg in 50, raddr_a 49:45, ws 44, waddr_add 43:38, waddr_mul 37:32, then the offset
    // from pc + 32: `:l` right after the branch is 8 - 32 = -24.
    let brr = |reg: u128, raddr_a: u128, waddr: (u128, u128)| {
        15u128 << 60
            | 15 << 52
            | 1 << 51
            | reg << 50
            | raddr_a << 45
            | waddr.0 << 38
            | waddr.1 << 32
            | 0xffff_ffe8
    };
    for (source, word) in [
        ("brr ra1, r:l, ra2\n:l\n", brr(1, 2, (1, 39))),
        ("brr ra1, ra2, r:l\n:l\n", brr(1, 2, (1, 39))),
        ("brr ra0, -, r:l\n:l\n", brr(0, 0, (0, 39))),
        ("brr -, r:l, -\n:l\n", brr(0, 0, (39, 39))),
        ("brr ra1, rb3, r:l, ra2\n:l\n", brr(1, 2, (1, 3))),
        ("brr ra1, rb3, ra2, r:l\n:l\n", brr(1, 2, (1, 3))),
    ] {
        assert_eq!(words(source), [word], "{source}");
    }
    // A parenthesised file-A source takes the rotation inside and the unpack outside
    // (GPU_FFT's `(ra_m1f_x400 >> 2).16b`): unpack 16b = 2, rotation by 2 = 50, cond_mul ns 4.
    assert_eq!(
        words("fmul.ifn rb5, r2 >> 2, (ra6 >> 2).16b\n"),
        [alu(13, 2, (0, 4), (39, 5), (0, 1), (6, 50), [0, 0, 2, A])]
    );
}

#[test]
fn an_integer_directive_stores_a_float_as_its_double_bits() {
    // vc4asm (its dialect's `float_bits`): the IEEE double's bits cut to the width. 0.1 is
    // 0x3fb999999999999a, 0.0 and 1.5 (0x3ff8000000000000) have no low bits; the data is
    // padded to the next instruction word.
    assert_eq!(words(".int 0.1\n.short 0.1\nnop\n"), [0x0000_999a_9999_999a, NOP]);
    assert_eq!(words(":dir .int 0.\n.int 1.5\nnop\n"), [0, NOP]);
}

// vc4asm's instruction selection (AssembleInst.cpp, AssembleInst.tables.cpp's smiMap): the
// words below are worked from the instruction layout (seed 004; `alu` above) and are the words
// vc4asm 0.3 gives for the same lines (run locally; nothing of it committed). Add op numbers
// are Mesa's vc4_qpu_defines.h: add 12, sub 13, ftoi 7, not 23, or 21, av8adds 30, av8subs 31;
// mul ops: fmul 1, v8min 4, v8adds 6, v8subs 7. ws is bit 44, pm 56, the pack 55:52.
const WS: u128 = 1 << 44;

#[test]
fn the_mul_half_may_come_first() {
    // GPU_FFT 256_new: a `mov` written first moves to the mul pipe when an add operation follows
    // (tryALUSwap), `add …, 16` being `sub …, -16`; vw_setup is write address 49 of file B.
    let swapped = alu(13, 0, (1, 7), (49, 35), (13, 4), (4, 16), [A, B, 1, 1]) | WS;
    assert_eq!(swapped, 0xd003dc63_8d110dc9);
    // `v8subs` goes to the mul pipe, the second one to the add pipe (vr_setup: 49 of file A).
    let v8subs = alu(13, 0, (1, 1), (49, 33), (31, 7), (3, 8), [A, B, A, B]);
    assert_eq!(v8subs, 0xd0024c61_ff0c8df7);
    // Any mul operation first, then any add operation.
    let fmul_add = alu(1, 0, (1, 1), (34, 32), (12, 1), (39, 39), [1, 3, 1, 2]);
    assert_eq!(
        words("mov.ifcc r3, r1; add vw_setup, ra4, 16\nv8subs r1, ra3, 8; v8subs vr_setup, ra3, 8\nfmul r0, r1, r2; add r2, r1, r3\n"),
        [swapped, v8subs, fmul_add]
    );
    // Written the canonical way, the same words.
    assert_eq!(
        words("sub vw_setup, ra4, -16;  mov.ifcc r3, r1\nav8subs vr_setup, ra3, 8;  v8subs r1, ra3, 8\n"),
        [swapped, v8subs]
    );
}

#[test]
fn a_mov_value_is_built_from_the_small_immediate_the_line_shares() {
    // `mov r0, -1` beside small immediate -16: v8adds of -16 with itself (bytes 0xf0 + 0xf0
    // saturate to 0xff); on the add pipe beside rotation 8 (56, read as -8) `av8adds`.
    let minus_one_mul = alu(13, 0, (1, 1), (49, 32), (13, 6), (4, 16), [A, B, B, B]) | WS;
    assert_eq!(minus_one_mul, 0xd0025c60_cd110dff);
    let minus_one_add = alu(13, 5, (1, 4), (6, 35), (30, 6), (6, 56), [B, B, 3, A]) | WS;
    assert_eq!(minus_one_add, 0xda0311a3_de1b8fde);
    // smitest: 64 is no small immediate; beside a mov, `ftoi` of 64.0 (small immediate 38).
    let ftoi = alu(13, 0, (1, 1), (34, 33), (7, 4), (3, 38), [B, B, A, A]);
    assert_eq!(ftoi, 0xd00248a1_870e6ff6);
    // asm.misc: 12 is `not` of -13 (small immediate 19), and 0xf3f3f3f3 is -13 through the
    // regfile-A pack .8abcd (3) of a mov; vc4asm's order of the line decides the pipes.
    let not_first = alu(13, 0, (1, 1), (0, 0), (23, 4), (39, 19), [B, B, B, B]) | 3 << 52 | WS;
    assert_eq!(not_first, 0xd0325000_979d3fff);
    let not_second = alu(13, 0, (1, 1), (0, 0), (23, 4), (39, 12), [B, B, B, B]) | 3 << 52;
    assert_eq!(not_second, 0xd0324000_979ccfff);
    assert_eq!(
        words(
            "add vw_setup, ra4, 16; mov r0, -1\nv8adds.ifn r3, r3>>8, ra6.8b; mov rb6, -1\n\
             mov r2, 16*4; mov r1, ra3\nmov ra0, 0xf3f3f3f3; mov rb0, 12\nmov rb0, 12;  mov ra0.8abcdi, -13\n"
        ),
        [minus_one_mul, minus_one_add, ftoi, not_first, not_second]
    );
    // smiMap's order: 16 is `add` of 8 with itself before `ftoi` of 16.0, -18 `add` of -9
    // (small immediate 23); 32 and 128 are `ftoi` of 32.0 (37) and 128.0 (39).
    let built = |op_add, small_imm| alu(13, 0, (1, 1), (32, 33), (op_add, 4), (3, small_imm), [B, B, A, A]);
    assert_eq!(built(12, 8), 0xd0024821_8c0c8ff6);
    assert_eq!(built(12, 23), 0xd0024821_8c0d7ff6);
    assert_eq!(built(7, 39), 0xd0024821_870e7ff6);
    assert_eq!(
        words("mov r0, 16; mov r1, ra3\nmov r0, 30; mov r1, ra3\nmov r0, -18; mov r1, ra3\nmov r0, 32; mov r1, ra3\nmov r0, 128; mov r1, ra3\n"),
        [built(12, 8), built(12, 15), built(12, 23), built(7, 37), built(7, 39)]
    );
    // A value a small immediate holds is that immediate (-1 is 31).
    assert_eq!(words("mov r0, -1; mov r1, ra3\n")[0] >> 12 & 63, 31);
}

#[test]
fn rotations_on_the_destination_and_on_file_a_modulo_4() {
    // parser.rot: rotating the result right by n is rotating the sources left by n (`r2>>8`:
    // 56, `r2>>1`: 63); file A rotates within quads, so `ra0<<3` agrees with `r0<<7` (57: 9 and
    // 13 are both 1 modulo 4).
    let fmul = |waddr_mul, small_imm, mul_a| {
        alu(13, 0, (0, 1), (39, waddr_mul), (0, 1), (0, small_imm), [0, 0, mul_a, A])
    };
    assert_eq!(fmul(32, 57, 0), 0xd00049e0_20039006);
    assert_eq!(fmul(34, 56, 2), 0xd00049e2_20038016);
    assert_eq!(fmul(34, 63, 4), 0xd00049e2_2003f026);
    assert_eq!(
        words("fmul r0, r0<<7, ra0<<3\nfmul r2>>8, r2, ra0\nfmul r2>>8, r4, ra0\nfmul r2>>1, r4, ra0\n"),
        [fmul(32, 57, 0), fmul(34, 56, 2), fmul(34, 56, 4), fmul(34, 63, 4)]
    );
    // File A rotation 2 is not 1 modulo 4: no word.
    assert!(assemble_with("fmul r0, r0<<7, ra0<<2\n", &[]).is_err());
}

#[test]
fn an_unpack_on_the_operation_and_a_packed_zero() {
    // asm.misc: `.unpack8af` on the opcode applies to r4 (pm 1, unpack 4); `mov ra10.8bsi, 0`
    // alone is `ldi ra10.8bsi, 0` (pack 13, vc4asm's optimize keeps the pack of a zero).
    let unpack = alu(1, 4, (1, 0), (32, 39), (12, 0), (1, 39), [4, A, 0, 0]) | 1 << 56;
    assert_eq!(unpack, 0x19020827_0c067980);
    let ldi = 0xe0020000_00000000u128 | 13 << 52 | 10 << 38 | 39 << 32;
    assert_eq!(ldi, 0xe0d202a7_00000000);
    assert_eq!(
        words("add.unpack8af r0, r4, ra1\nadd r0, r4.8af, ra1\nmov ra10.8bsi, 0\n"),
        [unpack, unpack, ldi]
    );
}

#[test]
fn mul_packs_vc4asm_writes_beyond_the_reference_assemble_with_a_warning() {
    // Seed 004 defines the mul pack (pm = 1, bit 56) 4 as "32->8a" (its worked uniform
    // example); Mesa's vc4_qpu_defines.h 3 as 8888 and 4..7 as 8a..8d. vc4asm 0.3 writes
    // `.8abcd`/`.8888` as 3, but `.8abcds` (its doc/extensions.html `8888sf`, "MUL ALU")
    // as 11 and `.8a`..`.8d` on a mul destination as 12..15, values no reference defines
    // (smitest.qasm's `fmul vpm.8abcds`): assembled as vc4asm writes them, with a warning.
    // `fmul d, r0, r1`: sig 1, cond_mul always (1), op_mul fmul (1), muxes r0 and r1, the
    // add pipe nop writing 39 under never; vpm is 48 in file B (ws 0), r1 is 33.
    let fmul = |waddr_mul: u128, pack: u128| {
        alu(1, 0, (0, 1), (39, waddr_mul), (0, 1), (39, 39), [0, 0, 0, 1]) | 1 << 56 | pack << 52
    };
    let undefined = "mul pack (pm = 1) 1, 2 and 8 to 15 are not defined by the Broadcom reference: \
                     the hardware's result is unknown";
    let (w, warnings) = warned(
        "fmul vpm.8abcd, r0, r1\nfmul vpm.8abcds, r0, r1\nfmul vpm.8888sf, r0, r1\nfmul r1.8as, r0, r1\n\
         fmul r1.8a, r0, r1\nfmul r1.8d, r0, r1\n",
    );
    assert_eq!(
        w.expect("assembles"),
        [fmul(48, 3), fmul(48, 11), fmul(48, 11), fmul(33, 4), fmul(33, 12), fmul(33, 15)]
    );
    let at: Vec<_> = warnings.iter().map(|w| (w.line, w.message.as_str())).collect();
    assert_eq!(at, [(2, undefined), (3, undefined), (5, undefined), (6, undefined)]);
}
