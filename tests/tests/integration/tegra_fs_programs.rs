//! The Tegra fragment target (`isa-specs/tegra_fs.isa`) on programs in grate's syntax: each
//! assembles into its eight streams, the words grate's assembler makes (facts-tegra-agx.md
//! A.4-A.7, worked from `fragment_asm.h`/`fragment_asm.y` and `grate-asm.c`) come out stream by
//! stream, and the listing assembles back to the same streams.
//!
//! grate's 10 fragment programs (grate-driver/grate `tests/grate/asm/*_fs*.txt`, `fs_*.txt`)
//! are not in this repository: the tests on them are ignored and read them from
//! `ISA_GRATE_TESTS_DIR` (tests/data/tegra/README.md), keeping grate's words here.

use isa_generated::tegra_fs::TegraFs;
use isa_runtime::bundle::{self, Program};
use isa_runtime::target::Isa;
use isa_tests::grate_program as program;

/// grate's 10 fragment programs.
const PROGRAMS: &[&str] = &[
    "cube2_fs.txt",
    "cube2_grate_fs.txt",
    "filter_quad_fs.txt",
    "fs_mfu_tests.txt",
    "fs_uniform.txt",
    "fs_vs_tests.txt",
    "sky_fs.txt",
    "stencil_test_fs.txt",
    "stencil_test_fs2.txt",
    "texture_wrap_fs.txt",
];

fn assemble(name: &str) -> Program {
    bundle::assemble::<TegraFs>(&program(name), 0).unwrap_or_else(|e| panic!("{name}: {e:?}"))
}

/// Stream `name` of `p` as grate uploads it: 32-bit words, high part of 64-bit words first.
fn stream(p: &Program, name: &str) -> Vec<u32> {
    let b = TegraFs::bundles().expect("tegra_fs is bundled");
    let i = b.streams.iter().position(|s| s.name == name).unwrap_or_else(|| panic!("no stream {name}"));
    b.streams[i].parts(&p.streams[i])
}

/// Every program assembles, and its listing assembles back to the same streams.
#[test]
#[ignore = "grate's programs: ISA_GRATE_TESTS_DIR (tests/data/tegra/README.md)"]
fn every_fragment_program_assembles_and_lists_back() {
    for name in PROGRAMS {
        let p = assemble(name);
        let bundles = program(name).matches("EXEC").count();
        assert_eq!(stream(&p, "pseq").len(), bundles, "{name}");
        let listing = bundle::disassemble::<TegraFs>(&p, 0).unwrap_or_else(|e| panic!("{name}: {e}"));
        let back = bundle::assemble::<TegraFs>(&listing, 0).unwrap_or_else(|e| panic!("{e:?}"));
        assert_eq!((back.streams, back.settings), (p.streams, p.settings), "{name}:\n{listing}");
    }
}

/// `fs_vs_tests.txt`: grate's words (facts A.7, matching the blob trace in grate's
/// `host1x-gr3d.c`).
#[test]
#[ignore = "grate's programs: ISA_GRATE_TESTS_DIR (tests/data/tegra/README.md)"]
fn fs_vs_tests_is_grates_words() {
    let p = assemble("fs_vs_tests.txt");
    assert_eq!(stream(&p, "pseq"), [0]);
    assert_eq!(stream(&p, "mfu_sched"), [1]);
    assert_eq!(stream(&p, "mfu"), [0x104E51BA, 0x00408102]);
    assert_eq!(stream(&p, "tex"), [0]);
    assert_eq!(stream(&p, "alu_sched"), [1]);
    assert_eq!(
        stream(&p, "alu"),
        [0x0001C0C0, 0x3F41F200, 0x0001A080, 0x3F41F200, 0x00014000, 0x3F41F200, 0x00012040, 0x3F41F200]
    );
    assert_eq!(stream(&p, "alu_complement"), [0]);
    assert_eq!(stream(&p, "dw"), [0x00028005]);
    assert_eq!(p.settings, [("alu_buffer_size".to_string(), 1), ("pseq_to_dw_exec_nb".to_string(), 1)]);
}

/// `texture_wrap_fs.txt` (facts A.7): two bundles, the first with the MFU and ALU0/1, the
/// second with the texture fetch and the store; units a bundle leaves out are their reset
/// words (0, and grate's ALU NOP `000FE7E8 3E41F200` for ALU2/3).
#[test]
#[ignore = "grate's programs: ISA_GRATE_TESTS_DIR (tests/data/tegra/README.md)"]
fn texture_wrap_fs_is_grates_words() {
    let p = assemble("texture_wrap_fs.txt");
    assert_eq!(stream(&p, "pseq"), [0, 0]);
    assert_eq!(stream(&p, "mfu_sched"), [1, 0]);
    assert_eq!(stream(&p, "mfu"), [0x104E51BA, 0x00000102]);
    assert_eq!(stream(&p, "tex"), [0, 0x420]);
    // One ALU instruction in the first bundle: count 1 at address 0; none in the second.
    assert_eq!(stream(&p, "alu_sched"), [1, 0]);
    assert_eq!(
        stream(&p, "alu"),
        [0x00006000, 0x40021000, 0x0000E040, 0x40021000, 0x000FE7E8, 0x3E41F200, 0x000FE7E8, 0x3E41F200]
    );
    assert_eq!(stream(&p, "alu_complement"), [0, 0]);
    assert_eq!(stream(&p, "dw"), [0, 0x00028005]);
}

/// `fs_mfu_tests.txt` (facts A.7): the MFU schedule words of bundles holding 1, 3 and 2 MFU
/// instructions are count | first << 2 = 0x01, 0x07 (3 at 1) and 0x12 (2 at 4), as
/// fragment_asm.y's `MFU_INSTRUCTIONS` computes them; `ALU3: imm0 = 0.5` puts fp20 0.5
/// (0x3C000) into bits 4..23 of the reset word and swaps its halves: `3E3C0000 000FE7E8`.
#[test]
#[ignore = "grate's programs: ISA_GRATE_TESTS_DIR (tests/data/tegra/README.md)"]
fn fs_mfu_tests_schedules_and_immediates() {
    let p = assemble("fs_mfu_tests.txt");
    assert_eq!(stream(&p, "mfu_sched"), [0x01, 0x07, 0x12]);
    assert_eq!(stream(&p, "mfu").len(), 12);
    // One ALU instruction in bundles 1 and 3: the second at address 1 (1 | 1 << 2).
    assert_eq!(stream(&p, "alu_sched"), [0x01, 0x00, 0x05]);
    assert_eq!(stream(&p, "alu")[6..8], [0x3E3C0000, 0x000FE7E8]);
    // `sfu: rcp r3` alone: opcode 1 at bits 54..57, register 3 at 58..63 of the high part.
    assert_eq!(stream(&p, "mfu")[2..4], [1 << 22 | 3 << 26, 0]);
}

/// `store stencil` (stencil_test_fs2.txt): enable, render target 2, stencil write and the 2
/// grate writes into bits 16..31 (fragment_asm.y `DW_INSTRUCTION`): 0x00020409.
#[test]
#[ignore = "grate's programs: ISA_GRATE_TESTS_DIR (tests/data/tegra/README.md)"]
fn store_stencil_is_grates_word() {
    let p = assemble("stencil_test_fs2.txt");
    assert_eq!(stream(&p, "dw"), [0, 1 | 2 << 2 | 1 << 10 | 2 << 16]);
    assert_eq!(stream(&p, "dw")[1], 0x00020409);
}

/// grate's limits and mistakes are errors with line and column, and nothing panics.
#[test]
fn limits_are_located_errors() {
    let four = "EXEC\n MFU: sfu: rcp r1\n MFU: sfu: rcp r1\n MFU: sfu: rcp r1\n MFU: sfu: rcp r1\n;\n";
    let e = bundle::assemble::<TegraFs>(four, 0).expect_err("four MFU");
    assert_eq!((e[0].line, e[0].column, e[0].message.as_str()), (5, 2, "at most 3 `MFU:` in a bundle"));
    let alu = " ALU: ALU0: MAD r0.lh, r0, u0, u1\n";
    let e = bundle::assemble::<TegraFs>(&format!("EXEC\n{};\n", alu.repeat(4)), 0).expect_err("four ALU");
    assert_eq!((e[0].line, e[0].column, e[0].message.as_str()), (5, 2, "at most 3 `ALU:` in a bundle"));
    let order = "EXEC\n DW: store rt1, r2, r3\n TEX: NOP\n;\n";
    let e = bundle::assemble::<TegraFs>(order, 0).expect_err("order");
    assert_eq!((e[0].line, e[0].column), (3, 2));
    let twice = "EXEC ALU: ALU0: MAD r0.lh, r0, u0, u1 ALU0: MAD r0.lh, r0, u0, u1 ;";
    let e = bundle::assemble::<TegraFs>(twice, 0).expect_err("twice");
    assert_eq!(e[0].message, "`ALU0:` twice in one `ALU:`");
    let bad = "EXEC\n ALU: ALU0: MAD r0.lh, r0, u0, q1\n;";
    let e = bundle::assemble::<TegraFs>(bad, 0).expect_err("bad operand");
    assert_eq!((e[0].line, e[0].column), (2, 32));
    let open = "EXEC TEX: NOP";
    let e = bundle::assemble::<TegraFs>(open, 0).expect_err("no separator");
    assert_eq!(e[0].message, "the statement does not end with `;`");
    for text in ["", "EXEC", ";", "EXEC ALU: ;", "EXEC MFU: ;", "alu_buffer_size = x", "EXEC ALU3: 0x1;"] {
        let _ = bundle::assemble::<TegraFs>(text, 0);
    }
}

/// fragment_asm.y's program limits: "Over 64 exec batches" (the 65th bundle); "Invalid ALU
/// buffer size" for a value above 4 (its test is `$3 != 0 && $3 > 4`, so 0 to 4 pass); "Over 64
/// MFU (ALU) instructions in total" (a schedule word's address + count above 64: the 65th
/// unit). Each is an error at its token; the program just inside each limit assembles.
#[test]
fn program_limits_are_located_errors() {
    let bundles = |n: usize| format!(".asm\n{}", "EXEC PSEQ: NOP;\n".repeat(n));
    bundle::assemble::<TegraFs>(&bundles(64), 0).expect("64 bundles");
    let e = bundle::assemble::<TegraFs>(&bundles(65), 0).expect_err("65 bundles");
    assert_eq!((e[0].line, e[0].column, e[0].length), (66, 1, 4));
    assert_eq!(e[0].message, "over 64 bundles in a program");
    for ok in 0..=4 {
        let text = format!("alu_buffer_size = {ok}\n.asm\nEXEC PSEQ: NOP;\n");
        let p = bundle::assemble::<TegraFs>(&text, 0).expect("0 to 4");
        assert_eq!(p.settings, [("alu_buffer_size".to_string(), ok)]);
    }
    let e = bundle::assemble::<TegraFs>("pseq_to_dw_exec_nb = 9\nalu_buffer_size = 5\n", 0).expect_err("5");
    assert_eq!((e[0].line, e[0].column, e[0].message.as_str()), (2, 19, "`alu_buffer_size` is at most 4"));
    // 21 bundles of three MFU and one of one: 64; a 65th is over.
    let mfu =
        |last: &str| format!("{}EXEC MFU: NOP {last};\n", "EXEC MFU: NOP MFU: NOP MFU: NOP;\n".repeat(21));
    bundle::assemble::<TegraFs>(&mfu(""), 0).expect("64 MFU");
    let e = bundle::assemble::<TegraFs>(&mfu("MFU: NOP"), 0).expect_err("65 MFU");
    assert_eq!((e[0].line, e[0].column, e[0].message.as_str()), (22, 15, "over 64 `MFU:` in a program"));
    let alu = "EXEC ALU: ALU0: MAD r0.lh, r0, u0, u1 ALU: ALU0: MAD r0.lh, r0, u0, u1 ALU: ALU0: MAD r0.lh, r0, u0, u1;\n";
    let text = format!("{}EXEC ALU: ALU0: MAD r0.lh, r0, u0, u1 ALU: ALU0: NOP;\n", alu.repeat(21));
    let e = bundle::assemble::<TegraFs>(&text, 0).expect_err("65 ALU");
    assert_eq!((e[0].line, e[0].message.as_str()), (22, "over 64 `ALU:` in a program"));
}

/// Raw words: a unit grate writes in hex (`PSEQ: 0x...`, `ALU_COMPLEMENT:`, `MFU: hi, lo`)
/// stays exactly as written, and lists back in hex.
#[test]
fn hex_units_round_trip() {
    let text = "EXEC PSEQ: 0x12345678 MFU: 0x00000001, 0xffffffff ALU_COMPLEMENT: 0xabc DW: 0x00000002 ;";
    let p = bundle::assemble::<TegraFs>(text, 0).expect("hex units");
    assert_eq!(stream(&p, "pseq"), [0x12345678]);
    assert_eq!(stream(&p, "mfu"), [0x00000001, 0xffffffff]);
    assert_eq!(stream(&p, "alu_complement"), [0xabc]);
    assert_eq!(stream(&p, "dw"), [2]);
    let listing = bundle::disassemble::<TegraFs>(&p, 0).expect("lists");
    assert!(listing.contains("PSEQ: 0x12345678"), "{listing}");
    let back = bundle::assemble::<TegraFs>(&listing, 0).unwrap_or_else(|e| panic!("{e:?}"));
    assert_eq!((back.streams, back.settings), (p.streams, p.settings));
}

// ---- Our own program (tests/data/tegra), words worked by hand --------------------------------

/// `shade_fs.txt`, every word put together field by field from fragment_asm.h's layouts
/// (facts A.4) with the values fragment_asm.y gives them; the same construction gives grate's
/// words for `fs_vs_tests.txt` above (MFU `104E51BA 00408102`, ALU0 `0001C0C0 3F41F200`).
///
/// - MFU schedules: 2 instructions at 0 (`2`), then `MFU: NOP`, one instruction at 2
///   (`1 | 2 << 2`). MFU 0: `ipl:` var k at bit 7k as {saturate, opcode (fp20 1, fx10 2) << 1,
///   TRAM row << 3}: 0x0d, 0x12, 0, 0x1c; mul1 (dst r1 = 5 at 53:51, src sfu 10 at 46:43, bar1
///   12 at 50:47); sfu RSQ 2 at 57:54, r2 at 63:58. MFU 1: mul0 dst bar 1 at 42:40, #1 13 at
///   35:32, r3 at 39:36. Each high part first.
/// - TEX `txb r2, r3, tex5, r2, r3, r0, r1`: sampler 5, source and result selects (bits 4, 5),
///   enable (10), bias (12): 0x1435; `tex r0, r1, tex0, ...`: enable alone, 0x400.
/// - ALU sources are 13 bits (scale_by_two, negate, abs, fixed10, minus_one, high, then the
///   7-bit register: r n, g 16+n, alu 24+n, imm 28+n, #0/#1 31 fx10 low/high, u 32+n, cr
///   64+n/2, posx 72, kill 76) with rC at bit 6, rB at 19, rA at 32; the destination's halves
///   at 45/46, register at 53:47, condition 55:54, saturate 56, scale 58:57, MUL's addition
///   disable 59, accumulate this/other 60/61, opcode 63:62; a fourth operand enables rD
///   (bit 2) reading rB (bit 5 clear) or rC, as fx10 (bit 0) half (bit 4). Left-out slots
///   are grate's reset word `000FE7E8 3E41F200`. ALU3's immediates fp20 1.0 (0x3E000) and
///   -2.5 (0xC0800) go into bits 4..23 and 24..43 of the reset word, whose halves grate swaps:
///   `003E0000 000FEC08`.
/// - DW `store rt3, r2, r3`: enable, target 3 << 2, select bit 15, 2 << 16: 0x2800D;
///   `store stencil` 0x20409.
#[test]
fn shade_fs_is_the_hand_worked_words() {
    let text = isa_tests::tegra_program("shade_fs.txt");
    let p = bundle::assemble::<TegraFs>(&text, 0).unwrap_or_else(|e| panic!("{e:?}"));
    assert_eq!(stream(&p, "pseq"), [0x81, 0]);
    assert_eq!(stream(&p, "mfu_sched"), [2, 1 | 2 << 2]);
    assert_eq!(stream(&p, "mfu"), [0x08ae5000, 0x0380090d, 0x0000013d, 0, 0, 0]);
    assert_eq!(stream(&p, "tex"), [0x1435, 0x400]);
    assert_eq!(stream(&p, "alu_sched"), [2, 1 | 2 << 2]);
    let reset = [0x000fe7e8, 0x3e41f200];
    let mut alu =
        vec![0x0b00e002, 0x4569f200, 0x4009a610, 0x0871f200, 0x8092d200, 0x3a002004, 0x003e0000, 0x000fec08];
    alu.extend(reset);
    alu.extend([0xd6267068, 0x02002035]);
    alu.extend(reset.repeat(5));
    alu.extend([0x20e16028, 0x4241fa05]);
    assert_eq!(stream(&p, "alu"), alu);
    assert_eq!(stream(&p, "alu_complement"), [5, 0]);
    assert_eq!(stream(&p, "dw"), [0x2800d, 0x20409]);
    assert_eq!(p.settings, [("alu_buffer_size".to_string(), 2), ("pseq_to_dw_exec_nb".to_string(), 2)]);
    let listing = bundle::disassemble::<TegraFs>(&p, 0).unwrap_or_else(|e| panic!("{e}"));
    // The listing holds the streams and settings (its tables are listed apart: `table::listing`).
    let back = bundle::assemble::<TegraFs>(&listing, 0).unwrap_or_else(|e| panic!("{e:?}"));
    assert_eq!((back.streams, back.settings), (p.streams, p.settings), "{listing}");
}

/// An immediate fp20 does not hold is read as grate's `float_to_fp20` reads it: 0.1 as the
/// single 0x3dcccccd, its 23-bit mantissa cut to 13 bits, exponent 123 - 127 + 31 = 27:
/// 0x37333 (facts A.5, grate's own output). In ALU3's reset word with its halves swapped, as
/// `imm0 = 0.5` above: `3E373330 000FE7E8`; -0.3 (single 0xbe99999a: exponent 125 - 127 + 31
/// = 29, mantissa 0x19999a >> 10 = 0x666) is 0xBA666 in imm2 (bits 44..63 of the slot: the
/// high part's top 20 bits). The listing shows what the word holds, as the shortest decimal
/// that reads back to it, and reads back to it.
#[test]
fn inexact_immediates_are_truncated_as_grate_does() {
    let p = bundle::assemble::<TegraFs>("EXEC ALU: ALU3: imm0 = 0.1, imm2 = -0.3 ;", 0).expect("assembles");
    assert_eq!(stream(&p, "alu")[6..8], [0x3E373330, 0xBA666 << 12 | 0x7E8]);
    let listing = bundle::disassemble::<TegraFs>(&p, 0).expect("lists");
    assert!(listing.contains("imm0 = 0.099998474, imm2 = -0.2999878"), "{listing}");
    let back = bundle::assemble::<TegraFs>(&listing, 0).unwrap_or_else(|e| panic!("{e:?}"));
    assert_eq!((back.streams, back.settings), (p.streams, p.settings), "{listing}");
}

/// ALU3's immediates as fx10 halves (fragment_asm.y `ALU_IMMEDIATE`: `imm0.l = ...` writes
/// `fx10_low`, bits 9:0 of the 20-bit immediate, `.h` `fx10_high`, bits 19:10; fx10 is
/// `f * 256` in 10 bits, tools/fx10.c), the rest of the slot keeping the reset word
/// `000FE7E8 3E41F200` whose halves grate swaps. Worked by hand:
/// - `imm0.l = 0.5, imm0.h = -1.0` (facts A.5's `[3].l = 0.5; [3].h = -1.0`): 0x080 and
///   0x300, imm0 = 0xC0080 in bits 4..23 of the low half: 0x3E41F200 becomes 0x3EC00800;
///   swapped, `3EC00800 000FE7E8`.
/// - `imm1 = 0.5` alone (fp20 0x3C000): its low 8 bits (0) in bits 31:24 of the low half,
///   its high 12 (0x3C0) in bits 11:0 of the high half: `0041F200 000FE3C0`.
/// - `imm2.h = 1.5` (0x180) in bits 31:22 of the high half: `3E41F200 600FE7E8`.
/// - `imm0 = -0.0` is 0, as grate's `float_to_fp20` returns for any zero: `3E000000 000FE7E8`.
///
/// ALU3's two words in the ALU stream for the immediates `imm`, and the ALU3 line of the
/// listing, which must assemble back to the same program.
fn alu3(imm: &str) -> (Vec<u32>, String) {
    let p = bundle::assemble::<TegraFs>(&format!("EXEC ALU: ALU3: {imm} ;"), 0)
        .unwrap_or_else(|e| panic!("{imm}: {e:?}"));
    let listing = bundle::disassemble::<TegraFs>(&p, 0).expect("lists");
    assert_eq!(bundle::assemble::<TegraFs>(&listing, 0), Ok(p.clone()), "{listing}");
    let line = listing.lines().find(|l| l.contains("ALU3:")).map(|l| l.trim().to_string());
    (stream(&p, "alu")[6..8].to_vec(), line.unwrap_or_default())
}

/// grate's own parser, run locally (docs/research/tegra-grate-oracle.md), gives the same words.
/// The listing prints an immediate as an fp20 when grate's `float_to_fp20` can write its bits,
/// else as its halves (`imm0.l = 0.5, imm0.h = 0.0`: exponent 0), always with a decimal point,
/// which grate's lexer requires (`imm0 = 1` is a syntax error there).
#[test]
fn alu3_immediates_take_fx10_halves() {
    let (words, line) = alu3("imm0.l = 0.5, imm0.h = -1.0");
    assert_eq!(words, [0x3EC00800, 0x000FE7E8]);
    // The same 20 bits 0xC0080 are an fp20: sign 1, exponent 0x20 (2^1), mantissa 0x80
    // (1 + 0x80 / 8192): -2.03125, printed so.
    assert_eq!(line, "ALU3: imm0 = -2.03125");
    assert_eq!(alu3("imm0 = -2.03125").0, [0x3EC00800, 0x000FE7E8]);
    assert_eq!(alu3("imm1 = 0.5"), (vec![0x0041F200, 0x000FE3C0], "ALU3: imm1 = 0.5".to_string()));
    assert_eq!(alu3("imm2.h = 1.5").0, [0x3E41F200, 0x600FE7E8]);
    assert_eq!(alu3("imm0 = -0.0"), (vec![0x3E000000, 0x000FE7E8], "ALU3: imm0 = 0.0".to_string()));
    let (words, line) = alu3("imm0.l = 0.5, imm0.h = 0.0");
    assert_eq!(words, [0x3E000800, 0x000FE7E8]);
    assert_eq!(line, "ALU3: imm0.l = 0.5, imm0.h = 0.0");
    let (words, line) = alu3("imm0 = 1.0, imm1 = -0.5, imm2 = 0.1");
    assert_eq!(words, [0x003E0000, 0x37333BC0]);
    assert_eq!(line, "ALU3: imm0 = 1.0, imm1 = -0.5, imm2 = 0.099998474");
    // fx10 holds -2.0..1.99609375: 2.0 is an error at its column (grate wraps it to -2.0).
    let e = bundle::assemble::<TegraFs>("EXEC ALU: ALU3: imm0.l = 2.0 ;", 0).expect_err("out of range");
    assert_eq!((e[0].line, e[0].column), (1, 26), "{e:?}");
}

/// grate reads ALU3's immediates in any order (fragment_asm.y `ALU3_IMMEDIATES`: one to six
/// `ALU_IMMEDIATE`s separated by `,`, each writing its own bits of the slot), so the words are
/// those worked by hand above whatever the order; the listing writes them imm0, imm1, imm2.
/// - `imm0.h = -1.0, imm0.l = 0.5`: `3EC00800 000FE7E8`, listed `imm0 = -2.03125`.
/// - with `imm1 = 0.5` (low half's bits 31:24 zero, high half's 11:0 0x3C0): `00C00800 000FE3C0`.
/// - with `imm2.h = 1.5` (0x180 in the high half's bits 31:22): `3EC00800 600FE7E8`.
/// - `imm0.h = 0.0, imm0.l = 0.5`: `3E000800 000FE7E8`, listed as halves, `.l` first.
///
/// Without the `,` between two items the line is an error, as in grate's grammar.
#[test]
fn alu3_immediates_in_any_order() {
    let imm0 = (vec![0x3EC00800, 0x000FE7E8], "ALU3: imm0 = -2.03125".to_string());
    assert_eq!(alu3("imm0.h = -1.0, imm0.l = 0.5"), imm0);
    assert_eq!(alu3("imm0.h=-1.0 ,imm0.l=0.5"), imm0);
    let with_imm1 = (vec![0x00C00800, 0x000FE3C0], "ALU3: imm0 = -2.03125, imm1 = 0.5".to_string());
    for text in [
        "imm0.l = 0.5, imm0.h = -1.0, imm1 = 0.5",
        "imm1 = 0.5, imm0.h = -1.0, imm0.l = 0.5",
        "imm0.h = -1.0, imm1 = 0.5, imm0.l = 0.5",
        "imm1 = 0.5, imm0 = -2.03125",
    ] {
        assert_eq!(alu3(text), with_imm1, "{text}");
    }
    for text in ["imm2.h = 1.5, imm0.l = 0.5, imm0.h = -1.0", "imm0.h = -1.0, imm2.h = 1.5, imm0.l = 0.5"] {
        assert_eq!(alu3(text).0, [0x3EC00800, 0x600FE7E8], "{text}");
    }
    assert_eq!(alu3("imm2 = 0.1, imm1 = -0.5, imm0 = 1.0").0, [0x003E0000, 0x37333BC0]);
    let (words, line) = alu3("imm0.h = 0.0, imm0.l = 0.5");
    assert_eq!(words, [0x3E000800, 0x000FE7E8]);
    assert_eq!(line, "ALU3: imm0.l = 0.5, imm0.h = 0.0");
    assert!(bundle::assemble::<TegraFs>("EXEC ALU: ALU3: imm1 = 0.5 imm0 = 1.0 ;", 0).is_err());
    assert!(bundle::assemble::<TegraFs>("EXEC ALU: ALU3: imm1 = 0.5, , imm0 = 1.0 ;", 0).is_err());
}
