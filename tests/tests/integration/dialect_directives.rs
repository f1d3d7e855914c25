//! The directive core under the other dialects' spellings (issue 16): constants (`.set`,
//! `.equ`), labels in expressions, includes, conditionals, repetition, macros and data, each in
//! the spelling its dialect declares. The words are those of the same program written out by
//! hand, and facts of each target (AGX: applegpu's bytes; Tegra: grate's words).

use isa_runtime::target::Target;
use isa_tests::MemoryFiles as Files;

fn target(name: &str) -> &'static dyn Target {
    isa_generated::targets().iter().copied().find(|t| t.name() == name).expect("target")
}

fn assemble(t: &str, source: &str, files: &'static [(&'static str, &'static str)]) -> Vec<u128> {
    let mut errors = Vec::new();
    let words = target(t).assemble_files("main.s", source, 0, &mut Files(files), &mut |e, _| {
        errors.push(format!("{}:{}: {}", e.line, e.column, e.message))
    });
    assert!(errors.is_empty(), "{t}: {errors:#?}");
    words.expect("words")
}

#[test]
fn agx_in_gnu_as_spelling() {
    // applegpu: `wait 1` is the bytes 38 01, `mov_imm r0l, 5` 62 00 05 00, `stop` 88 00 (each
    // word below is one instruction's bytes read little-endian); then `.hword 0x1234` and a
    // `.byte 0x34` and a label difference (2): the data's bytes 34 12 34 02 are two 2-byte
    // words, since 34 begins no instruction of applegpu's (a piece of the shortest length, as
    // `disasm` steps over it). (The difference first would begin an 8-byte instruction with
    // 2 bytes left: an error, `agx_data_that_cannot_be_written_as_it_is_is_an_error_at_its_line`.)
    let source = "\
.include \"consts.s\"
.equ TWO, 2
.rep TWO
.if WAIT
wait 1
.endif
.endr
mov_imm r0l, FIVE
first:
.hword 0x1234
second:
.byte 0x34, second - first
stop
";
    let files: &[(&str, &str)] = &[("consts.s", ".set FIVE, 5\n.set WAIT, 1\n")];
    let plain = assemble("agx", "wait 1\nwait 1\nmov_imm r0l, 5\n.short 0x1234\n.byte 0x34, 2\nstop\n", &[]);
    let got = assemble("agx", source, files);
    assert_eq!(got, plain);
    assert_eq!(got, [0x0138, 0x0138, 0x0005_0062, 0x1234, 0x0234, 0x0088]);
    assert_eq!(target("agx").join_stream(&got), bytes("3801380162000500341234028800"));
}

fn bytes(hex: &str) -> Vec<u8> {
    (0..hex.len()).step_by(2).map(|i| u8::from_str_radix(&hex[i..i + 2], 16).expect("hex")).collect()
}

/// The bytes of `source` assembled for `t`, checked to come back from the listing of them.
fn program_bytes(t: &str, source: &str) -> Vec<u8> {
    let t = target(t);
    let exact = |source: &str| {
        let mut errors = Vec::new();
        t.assemble_exact("", source, 0, &mut Files(&[]), &mut |e, _| errors.push(e.clone()))
            .unwrap_or_else(|| panic!("{source}: {errors:?}"))
            .bytes(t)
    };
    let out = exact(source);
    let listing: String =
        t.disassemble_pieces(&t.split_pieces(&out), 0).iter().map(|l| l.text.clone() + "\n").collect();
    assert_eq!(exact(&listing), out, "{listing}");
    out
}

#[test]
fn agx_data_between_instructions_is_written_byte_for_byte() {
    // Issues 12/14: data in a program of instructions of 2 to 12 bytes was cut to the length
    // of the instruction its first byte begins: `.byte 1, 0, 0, 0, 0` came out as 01 00. Every
    // byte is written, padded with zeros to the 2 bytes of the shortest instruction; applegpu's
    // `stop` is 88 00.
    assert_eq!(
        program_bytes("agx", "stop\n.byte 1, 0, 0, 0, 0\nstop\n"),
        bytes("8800010000000000_8800".replace('_', "").as_str())
    );
    assert_eq!(program_bytes("agx", "stop\n.byte 1\nstop\n"), bytes("880001008800"));
    // Fourteen bytes, more than the 12-byte word: seven pieces 34 12.
    let source = "stop\n.hword 0x1234, 0x1234, 0x1234, 0x1234, 0x1234, 0x1234, 0x1234\nstop\n";
    assert_eq!(program_bytes("agx", source), bytes("880034123412341234123412341234128800"));
    // Data at the end: written as it is, not padded (`Assembled::bytes`; the words alone,
    // each at its own length, padded it to 2 bytes).
    assert_eq!(program_bytes("agx", "stop\n.int 0x12341234\n.byte 0x34\n"), bytes("88003412341234"));
}

#[test]
fn agx_label_after_data_is_the_instruction() {
    // `jmp_exec_none` is 20 c0 and the 32-bit offset from its own address (applegpu; the
    // branch test in agx_instructions). The data's 3 bytes end at 9, one zero pads to 10, and
    // `fwd` is the `stop` at 10, not the zero at 9 (as GNU as pulls a label to aligned code),
    // on the instruction's line or on a line of its own.
    let expected = bytes("20c00a000000010203008800");
    assert_eq!(program_bytes("agx", "jmp_exec_none fwd\n.byte 1, 2, 3\nfwd: stop\n"), expected);
    assert_eq!(program_bytes("agx", "jmp_exec_none fwd\n.byte 1, 2, 3\nfwd:\nstop\n"), expected);
}

#[test]
fn agx_data_that_begins_a_longer_instruction_is_written_as_it_is() {
    // 62 00 begins applegpu's 4-byte `mov_imm`: two bytes of it before `stop` are written as
    // they are, as GNU as writes data (they were an error while a program was words whose
    // lengths their bits alone said; `Assembled::lengths` now says the piece's).
    assert_eq!(program_bytes("agx", "stop\n.byte 0x62, 0\nstop\n"), bytes("880062008800"));
    let t = target("agx");
    let mut errors = Vec::new();
    let exact = t.assemble_exact("", "stop\n.byte 0x62, 0\nstop\n", 0, &mut Files(&[]), &mut |e, _| {
        errors.push(e.clone())
    });
    assert_eq!(exact.map(|a| a.lengths), Some(vec![(1, 2)]), "{errors:?}");
}

#[test]
fn vc4_label_after_data_keeps_vc4asm_address() {
    // vc4asm (run locally, docs/research/vc4asm-label-after-data.md): `.int 1`, then `:l nop`
    // and `bra -, :l`: the data fills the first 8-byte word, `l` is 4 (vc4asm warns P240 that
    // padding aligned the instruction) and the branch's immediate is 4. Words: the nop
    // 0x100009e7_009e7000 (facts A.1, Mesa's qpu_NOP), the branch 0xf0f009e7_00000004.
    let source = ".int 1\n:l nop\nbra -, :l\nnop\nnop\nnop\n";
    let nop = 0x1000_09e7_009e_7000;
    assert_eq!(assemble("vc4", source, &[]), [1, nop, 0xf0f0_09e7_0000_0004, nop, nop, nop]);
}

#[test]
fn tegra_vertex_program_in_gnu_as_spelling() {
    // vs_mov (facts A.3): grate's words for its two instructions, written through a macro,
    // constants for the attribute and the export index, and an included file. grate's
    // statements end with `;`, directives too.
    let source = "\
.include \"regs.s\";
.macro move, dst, src;
EXEC(export[EXPORT]=vector) MOVv dst.xyzw, src.xyzw NOPs;
.endm;
.asm
move r0, a[ATTR];
EXEC_END NOPv NOPs;
";
    let files: &[(&str, &str)] = &[("regs.s", ".equ ATTR, 0; .set EXPORT, 0;\n")];
    assert_eq!(
        assemble("tegra_vs", source, files),
        [0x4000006c_0040000d_8106c003_6001ff80, 0x001f806c_0000000d_8006c003_60001ffd]
    );
}

#[test]
fn maxwell_in_cuassembler_spelling() {
    // nvdisasm: `FADD R5, R0, 0.5` is 0x3858003f00070005. A constant and a macro from an
    // included file, a repetition, then data in CuAssembler's spelling (`.dword` 8 bytes,
    // `.word` 4, `.short` 2, `.byte` 1), which fills whole instruction slots as `.quad` does,
    // and a label difference. Slots are at 8, 16, 24 (a control word at 0), then 40, 48, 56
    // (one at 32): `start` is 8, `end` the `NOP` at 72, so `end - start` is 0x40.
    let source = "\
.include \"ops.s\"
start:
.rep N
add_half R5, R0
.endr
.dword end - start, 0x1234
.word 7
.short 1, 2
.byte 3, 4, 5, 6, 7, 8, 9, 10
end:
NOP ;
";
    let files: &[(&str, &str)] = &[("ops.s", ".equ N, 2\n.macro add_half, d, s\nFADD d, s, 0.5 ;\n.endm\n")];
    let plain = "FADD R5, R0, 0.5 ;\nFADD R5, R0, 0.5 ;\n.quad 0x40\n.quad 0x1234\n\
                 .quad 0x0002000100000007\n.quad 0x0a09080706050403\nNOP ;\n";
    let got = assemble("maxwell", source, files);
    assert_eq!(got, assemble("maxwell", plain, &[]));
    assert_eq!(got.iter().filter(|w| **w == 0x3858003f00070005).count(), 2, "{got:x?}");
    // A control word before each three slots: the data at 3 and 5..8.
    assert_eq!(got[3], 0x40);
    assert_eq!(&got[5..8], [0x1234, 0x0002000100000007, 0x0a09080706050403]);
}

#[test]
fn maxwell_data_after_the_last_instruction_and_a_label_on_it() {
    // A `BRA` to a label after data. nvdisasm_golden.tsv (CuAssembler's sm_61 records):
    // `@!P0 BRA 0x130` at 0x110 is 0xe24000000188000f, the offset from the next instruction
    // (0x18) at bit 20 and the predicate at 19:16 (PT is 7). Here `BRA` is at 8, two slots of
    // data at 16 and 24, a control word at 32, and `l` the `NOP` at 0x28: offset 0x18 again.
    let source = "BRA l ;\n.dword 1, 2\nl:\nNOP ;\n";
    let plain = "BRA 0x28 ;\n.quad 1\n.quad 2\nNOP ;\n";
    let got = assemble("maxwell", source, &[]);
    assert_eq!(got, assemble("maxwell", plain, &[]));
    assert_eq!(&got[1..4], [0xe24000000187000f, 1, 2]);
}

#[test]
fn tegra_linker_in_gnu_as_spelling() {
    // Facts A.7: `LINK fp20, fp20, fp20, fp20, tram0.yxzw, export1` is latter 0x0000fecd,
    // first 0x00000008. The TRAM row from a constant, the line from an included macro, twice;
    // then a `.int` pair of the bytes of the links (a label difference, 16) and 0.
    let source = "\
.include \"link.s\"
.equ ROW, tram0
first:
.rep 2
link_all ROW
.endr
last:
.int last - first, 0
";
    let files: &[(&str, &str)] =
        &[("link.s", ".macro link_all, row\nLINK fp20, fp20, fp20, fp20, row.yxzw, export1\n.endm\n")];
    assert_eq!(assemble("tegra_linker", source, files), [0x0000fecd_00000008, 0x0000fecd_00000008, 16]);
}
