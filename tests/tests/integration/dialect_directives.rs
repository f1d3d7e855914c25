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

/// A Tegra fragment program (bundles into eight streams) of `source` named `main.s`, whose
/// `.include`s are `files`, through the `Target` API; the errors if it does not assemble.
fn fragment(
    source: &str,
    files: &'static [(&'static str, &'static str)],
) -> Result<isa_runtime::bundle::Program, Vec<isa_runtime::AsmError>> {
    let mut errors = Vec::new();
    let p = target("tegra_fs").assemble_bundle_files(
        "main.s",
        &mut isa_runtime::directives::Text::new(source),
        0,
        &mut Files(files),
        &mut |e, _| errors.push(e.clone()),
    );
    p.ok_or(errors)
}

/// Stream `name` of fragment program `p` as grate uploads it (32-bit parts, high part first).
fn fragment_stream(p: &isa_runtime::bundle::Program, name: &str) -> Vec<u32> {
    let b = target("tegra_fs").bundles().expect("bundled");
    let i = b.streams.iter().position(|s| s.name == name).expect("stream");
    b.streams[i].parts(&p.streams[i])
}

/// The units of shade_fs.txt's second bundle, a macro of an included file (`fs_units.s`), with
/// the symbols main.s reads.
const FS_UNITS: &str = "\
// Symbols and a bundle for main.s.
.equ BUFFERS, 2; .set SFU_REG, 2; .set SAMPLER, 5;
.set RT, 1 + 2; .set HALF, 0.5; .set SRC, r2;
.set STENCIL_FIRST, 0;
.macro stencil, cond, reg;
EXEC
	MFU: NOP
	TEX: tex r0, r1, tex0, r0, r1, r2
	ALU:
		ALU3: MAD cr5, r0.h, u1.l, #1, reg.l (cond) (other)
	DW: store stencil
;
.endm;
/* A bundle with a mistake: `q1` is no source. */
.macro broken;
EXEC
	ALU:
		ALU0: MAD r0.lh, r0, u0, q1
;
.endm;
";

#[test]
fn tegra_fragment_program_in_gnu_as_spelling() {
    // tests/data/tegra/shade_fs.txt (every word worked by hand from fragment_asm.h/.y:
    // tegra_fs_programs::shade_fs_is_the_hand_worked_words) written with an include, constants
    // (header settings, register numbers, a sampler, a render target, an immediate), a
    // conditional and a macro taking a condition and a register: the same eight streams.
    let source = "\
/* shade_fs.txt through the directive core */
.include \"fs_units.s\";
alu_buffer_size = BUFFERS
pseq_to_dw_exec_nb = BUFFERS

.uniforms
	[0].l = \"scale\";

.constants
	[0] = 0.5;
	[1].l = 0.5;
	[1].h = -1.0;
	[2] = 0x12345;

.asm
.if STENCIL_FIRST;
stencil ge, rB;
.endif;
EXEC
	PSEQ: 0x00000081
	MFU: sfu: rsq r(SFU_REG)
	     mul1: r1, sfu, bar1
	     ipl: sat(t1.fx10), t2.fp20, NOP, t3.fx10
	MFU: mul0: bar, #1, r3
	TEX: txb r2, r3, tex(SAMPLER), r2, r3, r0, r1
	ALU:
		ALU0: MUL r1.lh, -r0, abs(u2.h)*2, #0 (sat) (x2)
		ALU1: MIN g3.l*, alu0-1, -abs(r4.l), #0
		ALU2: MAX u5.*h, posx, imm1, SRC, rB (gt)
		ALU3: imm0 = HALF * 2, imm1 = -2.5
	ALU:
		ALU1: CSEL kill, cr3, r1, r2, rC.h (/2) (this)
	ALU_COMPLEMENT: 0x5
	DW: store rt(RT), r2, r3
;
stencil ge, rB;
";
    let files: &[(&str, &str)] = &[("fs_units.s", FS_UNITS)];
    let got = fragment(source, files).unwrap_or_else(|e| panic!("{e:#?}"));
    let plain = fragment(&isa_tests::tegra_program("shade_fs.txt"), &[]).expect("shade_fs.txt");
    assert_eq!(got, plain);
    // The hand-worked words the symbols give: `rsq r2` (register 2 at bits 63:58), `txb ...
    // tex5` (0x1435), ALU3's immediates 1.0 and -2.5 (`003E0000 000FEC08`), `store rt3, r2, r3`
    // (0x2800d), and the macro's `MAD cr5, ..., rB.l (ge) (other)` (`20E16028 4241FA05`).
    assert_eq!(fragment_stream(&got, "mfu")[0] >> 26, 2);
    assert_eq!(fragment_stream(&got, "tex"), [0x1435, 0x400]);
    assert_eq!(fragment_stream(&got, "alu")[6..8], [0x003e0000, 0x000fec08]);
    assert_eq!(fragment_stream(&got, "alu")[22..24], [0x20e16028, 0x4241fa05]);
    assert_eq!(fragment_stream(&got, "dw"), [0x2800d, 0x20409]);
    assert_eq!(got.settings, [("alu_buffer_size".to_string(), 2), ("pseq_to_dw_exec_nb".to_string(), 2)]);
}

#[test]
fn tegra_fragment_bundles_repeated_and_chosen() {
    // `.rep i, 3` counts i from 0: three bundles storing to render targets 0, 1, 2 from r0, r1
    // (fragment_asm.y's DW_INSTRUCTION: enable bit 0, target << 2, 2 << 16: 0x20001, 0x20005,
    // 0x20009); the second also fetches (`tex r0, r1, tex0, r0, r1, r2`: enable, bit 10:
    // 0x400), chosen by `.if`/`.else`. Written out by hand, the same streams.
    let source = "\
.asm
.rep i, 3;
.if i == 1;
EXEC TEX: tex r0, r1, tex0, r0, r1, r2 DW: store rt(i), r0, r1;
.else;
EXEC DW: store rt(i), r0, r1;
.endif;
.endr;
";
    let plain = "\
.asm
EXEC DW: store rt0, r0, r1;
EXEC TEX: tex r0, r1, tex0, r0, r1, r2 DW: store rt1, r0, r1;
EXEC DW: store rt2, r0, r1;
";
    let got = fragment(source, &[]).unwrap_or_else(|e| panic!("{e:#?}"));
    assert_eq!(got, fragment(plain, &[]).expect("plain"));
    assert_eq!(fragment_stream(&got, "dw"), [0x20001, 0x20005, 0x20009]);
    assert_eq!(fragment_stream(&got, "tex"), [0, 0x400, 0]);
    assert_eq!(fragment_stream(&got, "pseq"), [0, 0, 0]);
}

#[test]
fn a_comment_marker_inside_quotes_starts_no_comment() {
    // `.include "a//b.s"` names `a//b.s`: `//` in the quotes is no comment (GNU as reads a
    // string as one token). Its `RT` = 2 stores to render target 2 (fragment_asm.y's
    // DW_INSTRUCTION: enable bit 0, target << 2, 2 << 16: 0x20009).
    let files: &[(&str, &str)] = &[("a//b.s", ".set RT, 2; // the target\n")];
    let got = fragment(".include \"a//b.s\"; // the symbols\nEXEC DW: store rt(RT), r0, r1;\n", files)
        .unwrap_or_else(|e| panic!("{e:#?}"));
    assert_eq!(fragment_stream(&got, "dw"), [0x20009]);
    // An unclosed quote opens no string: the comment after it is one.
    let e = fragment(".include \"a//b.s; \n", files).expect_err("unclosed");
    assert_eq!((e[0].line, e[0].column), (1, 10), "{e:#?}");
}

#[test]
fn tegra_fragment_errors_name_the_macro_and_the_include() {
    // `q1` in the body of macro `broken` (line 18 of fs_units.s, column 28, after two tabs), called at line 3
    // of main.s.
    let e =
        fragment(".include \"fs_units.s\";\n.asm\nbroken;\n", &[("fs_units.s", FS_UNITS)]).expect_err("q1");
    assert_eq!(e.len(), 1, "{e:#?}");
    assert_eq!(e[0].file.as_deref(), Some("fs_units.s"));
    assert_eq!((e[0].line, e[0].column, e[0].length), (18, 28, 2), "{e:#?}");
    let calls: Vec<_> = e[0].expansion.iter().map(|x| (x.file.as_deref(), x.line, x.what.as_str())).collect();
    assert_eq!(calls, [(None, 3, "in macro `broken` called from")]);
    // A bundle in an included file: at its line there, the include named.
    let files: &[(&str, &str)] = &[("bad.s", "EXEC\n  DW: store rt1, r0, r1\n  TEX: NOP\n;\n")];
    let e = fragment("EXEC PSEQ: NOP;\n.include \"bad.s\";\n", files).expect_err("order");
    assert_eq!((e[0].file.as_deref(), e[0].line, e[0].column, e[0].length), (Some("bad.s"), 3, 3, 4));
    assert_eq!((e[0].expansion[0].file.as_deref(), e[0].expansion[0].line), (None, 2));
    // A symbol's value that does not fit is an error at the expression holding it.
    let e = fragment(".set RT, 99;\nEXEC DW: store rt(RT), r0, r1;\n", &[]).expect_err("rt99");
    assert_eq!((e[0].line, e[0].column, e[0].length), (2, 18, 4), "{e:#?}");
    assert_eq!(e[0].message, "expected a value that fits 4 bits, found `(RT)` (`RT` = 99)");
    // Its value shorter than its name: the underline is still the source's (`(TARGET)`, 8
    // columns), and the message says both (render targets are 0..15: 4 bits, fragment_asm.y).
    let e = fragment(".set TARGET, 16;\nEXEC DW: store rt(TARGET), r0, r1;\n", &[]).expect_err("rt16");
    assert_eq!((e[0].line, e[0].column, e[0].length), (2, 18, 8), "{e:#?}");
    assert_eq!(e[0].message, "expected a value that fits 4 bits, found `(TARGET)` (`TARGET` = 16)");
    // Directives go on working as everywhere: an unknown macro argument count, an open `.if`.
    let e = fragment(".macro m, a;\n.endm;\nm 1, 2;\n", &[]).expect_err("arguments");
    assert_eq!(
        (e[0].line, e[0].column, e[0].message.as_str()),
        (3, 1, "macro `m` takes 1 argument, found 2")
    );
    let e = fragment(".if 1;\nEXEC PSEQ: NOP;\n", &[]).expect_err("open if");
    assert_eq!((e[0].line, e[0].column, e[0].message.as_str()), (1, 1, "`.if` without its end"));
    // The last statement of an included file without its `;`: there.
    let files: &[(&str, &str)] = &[("last.s", "EXEC PSEQ: NOP\n")];
    let e = fragment(".include \"last.s\";\nEXEC PSEQ: NOP;\n", files).expect_err("separator");
    assert_eq!(e.len(), 1, "{e:#?}");
    assert_eq!((e[0].file.as_deref(), e[0].line, e[0].column), (Some("last.s"), 1, 1));
    assert_eq!(e[0].message, "the statement does not end with `;`");
}

/// The words table `name` of `tables` holds: (word index, word).
fn table_words(tables: &isa_runtime::table::Filled, name: &str) -> Vec<(u32, u32)> {
    let (_, entries) = tables.iter().find(|(n, _)| *n == name).expect("table");
    entries.words().expect("words").iter().map(|(k, v)| (*k, *v)).collect()
}

#[test]
fn tegra_fragment_tables_from_includes_macros_and_symbols() {
    // The constants of tegra_constants::fragment_constants_are_fp20_fx10_halves_or_hex (Facts
    // A.5, fragment_asm.y): `[3].l = 0.5; [3].h = -1.0` is 0x000C0080, `[0] = 0.5` fp20
    // 0x3C000, `[4] = 0x12345` the word; and a uniform named (a quoted name as written, though
    // a symbol has its name). Written with an included file,
    // a macro, a conditional, a repetition and symbols, the same tables as written out.
    let files: &[(&str, &str)] = &[(
        "tables.s",
        ".set HALF, 0.5; .set scale, 2;\n.macro pair, n, lo, hi;\n[n].l = lo; [n].h = hi;\n.endm;\n.constants\n[4] = 0x12345;\n",
    )];
    let source = "\
.include \"tables.s\";
.uniforms
.if HALF > 0; [0].l = \"scale\"; .endif;
.constants
.rep 2; [0] = HALF; .endr;
pair 3, HALF, -2 * HALF;
.asm
EXEC DW: store rt1, r0, r1;
";
    let plain = "\
.uniforms [0].l = \"scale\";
.constants [0] = 0.5; [3].l = 0.5; [3].h = -1.0; [4] = 0x12345;
.asm
EXEC DW: store rt1, r0, r1;
";
    let got = fragment(source, files).unwrap_or_else(|e| panic!("{e:#?}"));
    let written = fragment(plain, &[]).expect("plain");
    assert_eq!(got, written);
    assert_eq!(table_words(&got.tables, "constants"), [(0, 0x3c000), (3, 0x000c0080), (4, 0x12345)]);
    let json = isa_runtime::table::add_to_json("{}", &got.tables);
    assert!(json.contains("\"uniforms\": {\"0.l\": \"scale\"}"), "{json}");
}

#[test]
fn tegra_vertex_tables_from_includes_macros_and_symbols() {
    // tegra_constants::vertex_constants_are_ieee_singles (vertex_asm.y): `[77].x = -1.5` is
    // 0xBFC00000 at word 308, `[1].z = 0x12345678` word 6.
    let files: &[(&str, &str)] = &[("k.s", ".constants\n[1].z = 0x12345678;\n.asm\n")];
    let source = "\
.set K, 77; .set X, -1.5;
.macro konst, n, v; .constants; [n].x = v; .asm; .endm;
.include \"k.s\";
konst K, X;
EXEC_END NOPv NOPs;
";
    let mut errors = Vec::new();
    let got = target("tegra_vs")
        .assemble_exact("main.s", source, 0, &mut Files(files), &mut |e, _| errors.push(e.clone()))
        .unwrap_or_else(|| panic!("{errors:#?}"));
    assert_eq!(table_words(&got.tables, "constants"), [(6, 0x1234_5678), (308, 0xbfc0_0000)]);
}

#[test]
fn tegra_table_errors_are_located_through_the_expansion() {
    // An entry index out of range (`.constants` has 32 entries, fragment_asm.y) in a macro's
    // body in an included file: at its line there, with the call and the include.
    let files: &[(&str, &str)] = &[("k.s", ".macro konst, n;\n.constants\n  [n] = 1;\n.asm\n.endm;\n")];
    let e = fragment(".include \"k.s\";\nkonst 99;\n", files).expect_err("index");
    assert_eq!(e.len(), 1, "{e:#?}");
    assert_eq!((e[0].file.as_deref(), e[0].line, e[0].column), (Some("k.s"), 3, 4), "{e:#?}");
    assert!(e[0].message.starts_with("entry index 99 is out of range"), "{}", e[0].message);
    let calls: Vec<_> = e[0].expansion.iter().map(|x| (x.file.as_deref(), x.line, x.what.as_str())).collect();
    assert_eq!(calls, [(None, 2, "in macro `konst` called from")]);
}

#[test]
fn tegra_table_entry_indices_are_expressions() {
    // tegra_constants::fragment_constants_are_fp20_fx10_halves_or_hex (fragment_asm.y):
    // `[3].l = 0.5; [3].h = -1.0` is 0x000C0080, `[4] = 0x12345` the word. The indices written
    // as expressions of a symbol and of a macro's parameter give the same table.
    let source = "\
.set K, 2;
.macro konst, n, v;
[n * 2] = v;
.endm;
.constants
[K + 1].l = 0.5; [(K + 1)].h = -1.0;
konst K, 0x12345;
.asm
EXEC DW: store rt1, r0, r1;
";
    let got = fragment(source, &[]).unwrap_or_else(|e| panic!("{e:#?}"));
    assert_eq!(table_words(&got.tables, "constants"), [(3, 0x000c0080), (4, 0x12345)]);
    // An index that is no whole number from 0 is said as written.
    let e = fragment(".set K, 2;\n.constants\n[K - 3] = 1;\n.asm\nEXEC DW: store rt1, r0, r1;\n", &[])
        .expect_err("negative index");
    assert_eq!((e[0].line, e[0].column), (3, 2), "{e:#?}");
    assert!(e[0].message.ends_with("is not an entry index"), "{}", e[0].message);
}
