//! AGX instructions (isa-specs/agx.isa) against applegpu (dougallj/applegpu): bytes and text as
//! its disassembler (`disassemble.py`, `applegpu.py`) prints them, short and long forms, a byte
//! stream of mixed lengths, and round trips over random words of every encoding.

use isa_generated::agx::Agx;
use isa_runtime::bits;
use isa_runtime::target::{
    assemble_program, disassemble_word, instruction_bytes, join_stream, split_stream, Isa, Target,
};
use isa_tests::Rng;

fn bytes(hex: &str) -> Vec<u8> {
    (0..hex.len()).step_by(2).map(|i| u8::from_str_radix(&hex[i..i + 2], 16).unwrap()).collect()
}

/// (bytes in memory order, applegpu's text with its trailing blanks left out). Each is the
/// shortest form of its instruction, so the text assembles back to the same bytes.
const FACTS: &[(&str, &str)] = &[
    ("8800", "stop"),
    ("0800", "trap"),
    ("3801", "wait             1"),
    ("1402", "ret              r1"),
    ("6800", "threadgroup_barrier"),
    // mov_imm, 16-bit: 4 bytes; 6 with the length bit (byte 1's top bit) for r32l and up.
    ("e2003412", "mov_imm          r0l.cache, 4660"),
    ("628034120010", "mov_imm          r32l, 4660"),
    // Facts B.4 (docs/research/facts-tegra-agx.md: applegpu's assembler and hwtest.py),
    // the second the long form because of the extension bits.
    ("62000500", "mov_imm          r0l, 5"),
    ("62a007000010", "mov_imm          r40l, 7"),
    ("620578563412", "mov_imm          r1, 305419896, 0b0"),
    ("72211004", "get_sr           r8, sr80 (thread_position_in_grid.x)"),
    // mov_imm, 32-bit: 6 bytes; 8 for `kill` (bit 62).
    ("e20178563412", "mov_imm          r0.cache, 305419896, 0b0"),
    ("e21d34129a00", "mov_imm          r7.cache, 10097204, 0b0"),
    ("62c1785634120040", "mov_imm          r16, 305419896, 0b1"),
    ("72020000", "get_sr           r0h, sr0 (threadgroup_position_in_grid.x)"),
    ("72010000", "get_sr           r0, sr0 (threadgroup_position_in_grid.x)"),
    ("72091400", "get_sr           r2, sr20 (core_index)"),
    // Float arithmetic: applegpu's assembler wrote these bytes for the text. Sources are
    // registers (halves, 32-bit, hints), uniforms (16- and 32-bit, from u128 with the ninth
    // index bit in the type field) and 8-bit float immediates, with `.abs`/`.neg`; the long
    // form whenever a bit past the short one is set (B's type bits, extension bits).
    ("2a054442", "fadd32           r1, r2, 0.0625"),
    ("160c4502", "fmul16           r3l, r2h.abs, 0.0"),
    ("667e12f5", "fadd16.sat       r31h, u9l.neg, 0.234375"),
    ("360444200000", "fmadd16          r1l, r2l, 0.03125, 0.0"),
    ("2a8946820400", "fadd32           r2, r3, r4l"),
    ("6a8083a01800", "fadd32.sat       r0l, r1h.cache, u5"),
    ("2aa1c6020210", "fadd32           r40, r3.discard, 0.5"),
    ("268644f01000", "fadd16           r1h, r2l, u7h"),
    ("1a8d18212400", "fmul32           r3, u12l, r1"),
    ("d68000100505", "fmul16.sat       r0l.cache, 2.0, r40h"),
    ("2a95c4812403", "fadd32           r5, u130, r100"),
    ("3a85446224480200", "fmadd32          r1, r2, r3, r4"),
    ("3a85d0a1283f4018", "fmadd32          r33, u200, r5.cache, 31.0"),
    ("3608472010c8", "fmadd16          r2l, r3h, u1l, r4l.discard"),
    // Integer arithmetic, always 8 bytes: 64-bit pairs, `.sx`, the shift, `isub`/`imsub`.
    ("0e01425200000000", "iadd             r0, r1, 5"),
    ("4e08878810000000", "isub.sat         r2l, r3h.cache, u4l"),
    ("0e134c0365001000", "iadd             r4_r5, r6_r7, r8.sx, lsl 2"),
    ("1e05446618c80300", "imadd            r1, r2.sx, u3, r4_r5.discard"),
    ("1e28427880000000", "imsub            r10l, r1l, 7, 0, lsl 1"),
    ("0e21d0e137190000", "iadd             r40, u200, r63_r64"),
    // Bit operations (6 bytes): the truth table's names, `not`/`mov` when B is 0, the rest as
    // `bitop` with its table; compare and select (8 bytes, 10 for extension bits); the float
    // unary operations, `ceil`/`trunc`/`rint` always long (their opcode has bit 32 set).
    ("7e014242a400", "and              r0, r1, r2"),
    ("7e0c8958c000", "or               r3l, r4h.cache, 5"),
    ("7e158ce96c00", "xor              r5, u6, r7.discard"),
    ("7e05446e6400", "nand             r1, r2, r3"),
    ("7e0544662400", "nor              r1, r2, r3"),
    ("7e054466a400", "xnor             r1, r2, r3"),
    ("7e2152064000", "not              r8, r9"),
    ("7e2807098000", "mov              r10l, u3h"),
    ("7e2144f24313", "bitop            0010, r40, r2, 255"),
    ("1201424224468024", "icmpsel          ult, r0, r1, r2, r3, r4"),
    ("1200427000094198", "icmpsel          seq, r0l, r1l, 7, 9, u2l"),
    ("02954c06028801a51000", "fcmpsel          gte, r5, r6.abs, 0.5, u4, r40"),
    ("028a03618408316dc000", "fcmpsel          ltn, r2h, u1h, r3l.neg, 200, r9h.discard"),
    ("0a014202", "floor            r0, r1"),
    ("4a8807050100", "ceil.sat         r2l, u3h.abs"),
    ("0a9120000200", "trunc            r4, 0.5"),
    ("0aa1420a0310", "rint             r40, r1.neg"),
    ("0a054482", "rcp              r1, r2"),
    ("0a054492", "rsqrt            r1, r2"),
    ("0a0d4812", "rsqrt_special    r3, r4"),
    ("4a0d4812", "rsqrt_special.sat r3, r4"),
    ("0a154ca2", "sin_pt_1         r5, r6"),
    ("0a154ce2", "sin_pt_2         r5, r6"),
    ("0a1d90c1", "log2             r7, u8"),
    ("0a0444d0", "exp2             r1l, r2l"),
    ("7e2144f2c313", "bitop_mov_a      0011, r40, r2, 255"),
    ("0a054442", "dfdx             r1, r2"),
    ("0a05c462", "dfdy             r1, r2.discard"),
    // The execution-mask stack (6 bytes): r0l implied, a 4-bit condition, the push count;
    // `if_fcmp` of 0.0 with 0.0 for equality is `update_exec` or `push_exec`.
    ("522842520000", "if_icmp          r0l, ult, r1, 5, 1"),
    ("d29344601800", "else_icmp        r0l.cache, nseq, r2l, u3, 2"),
    ("52a550320404", "while_icmp       r0l, sgte, r40, r1h, 0"),
    ("521600000000", "pop_exec         r0l, 2"),
    ("422842020200", "if_fcmp          r0l, lt, r1, 0.5, 1"),
    ("42fb44861000", "else_fcmp        r0l, ngtn, r2.abs, u4l, 3"),
    ("42ac43408400", "while_fcmp       r0l, gte, r1h, r2l.neg, 1"),
    ("420000000000", "update_exec      r0l"),
    ("420800000000", "push_exec        r0l, 1"),
    // applegpu's assembler wrote these bytes for the text. `intl` and `convert` (6 bytes,
    // opcode 0x3e, bit 15 apart); a mode or rounding without a name prints as its number.
    ("3e0142422400", "intl             r0, r1, r2"),
    ("3e0c49a01000", "intl             r3l, r4h, u5l"),
    // The integer unary operations: `intl`'s encoding with the operation in bits 27:26.
    ("3e0142060000", "bitrev           r0, r1"),
    ("3e0c09050000", "bitrev           r3l, u4h"),
    ("3e098a0a0000", "popcount         r2, r5.cache"),
    ("3e2009080010", "popcount         r40l, 9"),
    ("3e05440e0000", "ffs              r1, r2"),
    ("3e1ace0e0000", "ffs              r6h, r7.discard"),
    ("3e8100202400", "convert          u8_to_f, r0, r1, rtz"),
    ("3e8809740800", "convert          f_to_s32, r2l, r3h.cache, rte"),
    ("3ea10ba01810", "convert          s32_to_f, r40, u5, rtz"),
    ("3e9207740000", "convert          s16_to_f, r4h, 7, rte"),
    ("3e85024c2400", "convert          2, r1, r2, 3"),
    // Shifts and bit fields (8 bytes, opcode 0x2e; bit 15 and bits 27:26 pick the operation):
    // the width m (bits 63, 51:50, 39:38) as its mask in upper-case hex, none when m is 0.
    ("2e81424624000000", "asr              r0, r1, r2"),
    ("2e948d3400000000", "asr              r5l, r6h.cache, 3"),
    ("2e81420e01000000", "asrh             r0, r1, 16"),
    ("2ea1868d2c000010", "asrh             r40, u3, r4.discard"),
    ("2e01424224460a00", "bfi              r0, r1, r2, r3, mask 0xFF"),
    ("2e01424224080000", "bfi              r0, r1, r2, 8"),
    ("2e894682e4040c80", "bfeil            r2, r3, r4, 4, mask 0x7FFFFFFF"),
    ("2e05446624480200", "extr             r1, r2, r3, r4"),
    ("2e04447444050000", "extr             r1l, r2l, r3h, 5, mask 0x1"),
    ("2e154cea24080080", "shlhi            r5, r6, r7, 8, mask 0xFFFF"),
    ("2ea1524a180c0014", "shrhi            r40, r41, u2, 12"),
    // Facts B.4 (applegpu's README and hwtest.py), as its disassembler prints them today: the
    // mask past the short form's 6 bytes makes them long.
    ("0501040d00c43200", "device_load      0, i32, xy, r0_r1, u2_u3, 0, signed, lsl 1"),
    ("0501000e01c8f200", "device_load      0, i32, xyzw, r0_r1_r2_r3, u0_u1, r8, unsigned, lsl 2"),
    ("c508803d00803000", "uniform_store    2, i16, xy, 0, r1l_r1h, 8"),
    // Branches: applegpu prints the target from address 0 as Python's '0x%X' does.
    ("20c01a000000", "jmp_exec_none    0x1A"),
    ("20c0f6ffffff", "jmp_exec_none    0x-A"),
    ("10c008000000", "call             0x8"),
    ("0412", "call             r9"),
];

/// Words with bits applegpu does not read (bit 9 of a 32-bit destination, bits 25:22 of
/// `get_sr`): the same text as the word without them.
const DONT_CARE: &[(&str, &str)] = &[
    ("72034000", "get_sr           r0, sr0 (threadgroup_position_in_grid.x)"),
    ("720b5400", "get_sr           r2, sr20 (core_index)"),
    ("f2025000", "get_sr           r0h.cache, sr16"),
];

#[test]
fn applegpu_bytes_and_text_both_ways() {
    for (hex, text) in FACTS {
        let code = bytes(hex);
        let words = split_stream::<Agx>(&code);
        assert_eq!(words.len(), 1, "{hex}");
        assert_eq!(instruction_bytes::<Agx>(words[0]), code.len(), "{hex}");
        assert_eq!(disassemble_word::<Agx>(words[0], 0, 0).as_deref(), Ok(*text), "{hex}");
        let back = assemble_program::<Agx>(text, 0).unwrap_or_else(|e| panic!("{text}: {e:?}"));
        assert_eq!(join_stream::<Agx>(&back), code, "{text}");
    }
}

#[test]
fn bits_applegpu_does_not_read_print_as_it_prints_them() {
    for (hex, text) in DONT_CARE {
        let words = split_stream::<Agx>(&bytes(hex));
        assert_eq!(disassemble_word::<Agx>(words[0], 0, 0).as_deref(), Ok(*text), "{hex}");
        // The listing keeps the bits: the raw directive, with the text as a comment.
        let lines = Agx.disassemble_words(&words, 0);
        assert!(lines[0].text.starts_with(".word 0x") && lines[0].text.contains(text), "{}", lines[0].text);
    }
}

#[test]
fn a_long_form_applegpu_would_not_write_still_decodes() {
    // mov_imm32 with the length bit set and a zero tail: applegpu prints it like the short
    // form; the listing keeps its bytes with the raw directive, the assembler writes 6 bytes.
    let code = bytes("6281341200000000");
    let words = split_stream::<Agx>(&code);
    assert_eq!(instruction_bytes::<Agx>(words[0]), 8);
    assert_eq!(disassemble_word::<Agx>(words[0], 0, 0).as_deref(), Ok("mov_imm          r0, 4660, 0b0"));
    let lines = Agx.disassemble_words(&words, 0);
    assert!(lines[0].text.starts_with(".word 0x0000000012348162 # "), "{}", lines[0].text);
    let back = assemble_program::<Agx>("mov_imm r0, 4660, 0b0", 0).unwrap();
    assert_eq!(join_stream::<Agx>(&back), bytes("620134120000"));
    // Bytes past a short instruction are the next instruction's: they read as zero.
    let short = 0xffff_1234_0062_u128;
    assert_eq!(disassemble_word::<Agx>(short, 0, 0).as_deref(), Ok("mov_imm          r0l, 4660"));
}

#[test]
fn a_stream_of_mixed_lengths_lists_as_applegpu_walks_it() {
    // applegpu's disassemble.py over the same bytes: addresses 0, 4, a, e, 16, 18, 1a.
    let code = bytes("e20034126280341200107209140062c1785634120040380114028800");
    let words = Agx.split_stream(&code);
    let lines = Agx.disassemble_words(&words, 0);
    let listed: Vec<(u64, &str)> = lines.iter().map(|l| (l.address, l.text.as_str())).collect();
    assert_eq!(
        listed,
        [
            (0x0, "mov_imm          r0l.cache, 4660"),
            (0x4, "mov_imm          r32l, 4660"),
            (0xa, "get_sr           r2, sr20 (core_index)"),
            (0xe, "mov_imm          r16, 305419896, 0b1"),
            (0x16, "wait             1"),
            (0x18, "ret              r1"),
            (0x1a, "stop"),
        ]
    );
    assert_eq!(Agx.join_stream(&words), code);
    // Bytes no encoding matches are a 2-byte raw piece; the walk goes on after them.
    let words = Agx.split_stream(&bytes("ffff8800"));
    let lines = Agx.disassemble_words(&words, 0);
    assert_eq!(lines[0].text, ".word 0xffff # no encoding matches");
    assert_eq!((lines[1].address, lines[1].text.as_str()), (2, "stop"));
}

/// Bytes no class matches (applegpu's descriptors match none of `ff fe`: `matches()` of each,
/// run locally) are a typed error that shows them in memory order, through the typed decoder
/// of bytes and the target-independent face the CLI uses.
#[test]
fn bytes_no_class_matches_are_a_typed_error_showing_them() {
    let e = isa_runtime::target::decode_bytes::<Agx>(&bytes("fffe8800")).expect_err("no class");
    assert_eq!(e, isa_runtime::DecodeError::NoMatchBytes { bytes: 0xfeff, length: 2 });
    assert_eq!(e.to_string(), "no encoding matches bytes ff fe");
    assert_eq!(e.reason().to_string(), "no encoding matches");
    let e = Target::decode(&Agx, 0xfeff).expect_err("no class");
    assert_eq!(e.to_string(), "no encoding matches bytes ff fe");
}

/// Round trips per encoding: 200 in the test suite (out of at most 2,000 random words), or
/// `AGX_ROUNDTRIP_WORDS` when set (the README's long run; 2,000 checks every decodable one).
fn words_per_format() -> usize {
    std::env::var("AGX_ROUNDTRIP_WORDS").ok().and_then(|s| s.parse().ok()).unwrap_or(200)
}

/// Every encoding, on random bits forced into its pattern: the instruction's own bytes decode,
/// encode back to themselves but for don't-care bits, and print as text that assembles to an
/// instruction printing the same text, no longer than the original.
#[test]
fn random_words_of_every_encoding_round_trip() {
    let mut rng = Rng(0xa6c5_0000_0000_0013);
    let wanted = words_per_format();
    for (index, format) in <Agx as Isa>::formats().iter().enumerate() {
        let covered = format.fields.iter().fold(0u128, |m, f| {
            let mut x = m;
            bits::set(&mut x, f.pieces, u64::MAX);
            x
        });
        let mut checked = 0;
        for _ in 0..2_000 {
            if checked == wanted {
                break;
            }
            let mut w = (u128::from(rng.next()) << 64 | u128::from(rng.next())) & ((1u128 << 96) - 1);
            for f in format.fields.iter().filter(|f| f.fixed.is_some()) {
                bits::set(&mut w, f.pieces, f.fixed.unwrap_or(0));
            }
            if <Agx as Isa>::match_format(w) != Some(index) {
                continue;
            }
            let n = instruction_bytes::<Agx>(w);
            let own = w & ((1u128 << (8 * n)) - 1);
            let Ok(insn) = <Agx as Isa>::decode(own) else { continue };
            assert_eq!(<Agx as Isa>::encode(&insn), Ok(own & covered), "{}: {own:#x}", format.name);
            let text = disassemble_word::<Agx>(own, 0, 0).unwrap();
            let back = assemble_program::<Agx>(&text, 0).unwrap_or_else(|e| panic!("{text}: {e:?}"));
            assert_eq!(disassemble_word::<Agx>(back[0], 0, 0).as_deref(), Ok(text.as_str()));
            assert!(instruction_bytes::<Agx>(back[0]) <= n, "{text}");
            checked += 1;
        }
        assert!(checked > 100, "{}: only {checked} words decoded", format.name);
    }
}

#[test]
fn branch_targets_are_absolute_in_upper_case_hex() {
    // `jmp_exec_none` 0x20 bytes back, at address 0x30: target 0x10; at 0x10: 0x-10.
    let w = split_stream::<Agx>(&bytes("20c0e0ffffff"))[0];
    assert_eq!(disassemble_word::<Agx>(w, 0, 0x30).as_deref(), Ok("jmp_exec_none    0x10"));
    assert_eq!(disassemble_word::<Agx>(w, 0, 0x10).as_deref(), Ok("jmp_exec_none    0x-10"));
    // Both spellings of a negative target read back.
    for text in ["jmp_exec_none 0x-A", "jmp_exec_none -0xa", "jmp_exec_none -10"] {
        let back = assemble_program::<Agx>(text, 0).unwrap_or_else(|e| panic!("{text}: {e:?}"));
        assert_eq!(join_stream::<Agx>(&back), bytes("20c0f6ffffff"), "{text}");
    }
}

/// Labels are the instructions' byte offsets in a program of mixed lengths: applegpu's
/// branches (`BranchOffsetDesc`: op 0xc020 / 0xc010 in bits 15:0, a signed byte offset from
/// the branch itself in bits 47:16) over 4-, 2-, 8- and 6-byte instructions whose bytes are
/// facts above. `fwd` is at 4 + 2 + 6 + 8 + 6 = 0x1a: from the `jmp_exec_none` at 6, +0x14;
/// `back` is at 0: from the `call` at 0x14, -0x14.
#[test]
fn labels_are_byte_offsets_in_a_program_of_mixed_lengths() {
    let source = "back:\n\
                  mov_imm r0l.cache, 4660\n\
                  wait 1\n\
                  jmp_exec_none fwd\n\
                  mov_imm r16, 305419896, 0b1\n\
                  call back\n\
                  fwd: stop\n";
    let words = assemble_program::<Agx>(source, 0).unwrap_or_else(|e| panic!("{e:?}"));
    let expected = bytes("e2003412380120c01400000062c178563412004010c0ecffffff8800");
    assert_eq!(join_stream::<Agx>(&words), expected);
    // The listing prints the branches as text at their byte addresses, and that text
    // assembles back to the same bytes.
    let lines = Agx.disassemble_words(&words, 0);
    let listed: Vec<(u64, &str)> = lines.iter().map(|l| (l.address, l.text.as_str())).collect();
    assert_eq!(listed[2], (0x6, "jmp_exec_none    0x1A"));
    assert_eq!(listed[4], (0x14, "call             0x0"));
    let text: String = lines.iter().map(|l| format!("{}\n", l.text)).collect();
    let back = assemble_program::<Agx>(&text, 0).unwrap_or_else(|e| panic!("{text}: {e:?}"));
    assert_eq!(join_stream::<Agx>(&back), expected);
}

/// asm(disasm(b)) == b over random byte streams of applegpu's instructions (FACTS) and
/// branches (`jmp_exec_any`, `jmp_exec_none`, `call`: op 0xc000/0xc020/0xc010) with random
/// offsets, at every length: each branch lists as text at its byte address, and the listing
/// assembles back to the same bytes.
#[test]
fn random_streams_with_branches_list_as_text_and_assemble_back() {
    let mut rng = Rng(0xa6c5_0000_0000_0b1c);
    let branch = |t: &str| t.starts_with("jmp_exec_") || (t.starts_with("call ") && t.contains(" 0x"));
    for _ in 0..200 {
        let mut code = Vec::new();
        let mut branches = 0;
        for _ in 0..1 + rng.next() % 24 {
            let r = rng.next();
            if r.is_multiple_of(3) {
                let op: u16 = [0xc000, 0xc020, 0xc010][(r >> 8) as usize % 3];
                code.extend(op.to_le_bytes());
                code.extend(((r >> 32) as u32).to_le_bytes());
                branches += 1;
            } else {
                let (hex, text) = FACTS[(r >> 8) as usize % FACTS.len()];
                code.extend(bytes(hex));
                branches += usize::from(branch(text));
            }
        }
        let words = split_stream::<Agx>(&code);
        let lines = Agx.disassemble_words(&words, 0);
        // Every line is text (a raw line starts with the directive), the branches included.
        assert!(lines.iter().all(|l| !l.text.starts_with('.')), "{lines:?}");
        assert_eq!(lines.iter().filter(|l| branch(&l.text)).count(), branches, "{lines:?}");
        let text: String = lines.iter().map(|l| format!("{}\n", l.text)).collect();
        let back = assemble_program::<Agx>(&text, 0).unwrap_or_else(|e| panic!("{text}: {e:?}"));
        assert_eq!(join_stream::<Agx>(&back), code, "{text}");
    }
}
