//! The VideoCore IV QPU target against the real tools' output.
//!
//! - `mesa_golden.tsv`: word → the exact text Mesa's `vc4_qpu_disasm` prints (built and run
//!   from Mesa's sources). Our `mesa` dialect must print the same text.
//! - `vc4asm_asm_golden.tsv`: source line → the word the real vc4asm assembler produced. Our
//!   `vc4asm` dialect must assemble the lines it supports to the same word.
//! - `vc4asm_asm_rejected.tsv`: lines vc4asm rejects. Our assembler must reject them too, with
//!   a line and a column, and never panic.

use isa_generated::vc4::{self, Instruction};
use isa_runtime::DecodeError;

fn data(name: &str) -> String {
    let path = format!("{}/data/vc4/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// The lines of a two-column TSV file.
fn rows(text: &str) -> Vec<(&str, &str)> {
    text.lines()
        .filter(|l| !l.is_empty())
        .map(|l| l.split_once('\t').unwrap_or_else(|| panic!("not two columns: {l:?}")))
        .collect()
}

// ---- Mesa ------------------------------------------------------------------------------------

/// Every word of the Mesa corpus prints exactly Mesa's text.
///
/// The `mesa` dialect prints from the raw word, so words the typed decoder rejects still print
/// Mesa's spellings: undefined add opcodes and mul packs as `???`, and load immediates in the
/// reserved modes 2, 5, 6 and 7 (sig 14, bits 59:57), which Mesa prints like any `load_imm`
/// (the `reserved` encoding `load_imm_reserved`: printed, while the decoder reports no
/// encoding). Views (`imm`) show the bits of `unused` ranges too.
#[test]
fn mesa_disassembly_matches_mesa() {
    let text = data("mesa_golden.tsv");
    let (mut matched, mut reserved, mut undecodable) = (0, 0, 0);
    let mut failures = Vec::new();
    for (word, golden) in rows(&text) {
        let w = u64::from_str_radix(word, 16).expect("hex word");
        let Some(format) = Instruction::match_format(w) else {
            failures.push(format!("{word}: no encoding matches"));
            continue;
        };
        if vc4::FORMATS[format].name == "load_imm_reserved" {
            let mode = (w >> 57) & 7;
            assert!(w >> 60 == 14 && matches!(mode, 2 | 5 | 6 | 7), "{word}: reserved but mode {mode}");
            assert_eq!(Instruction::decode(w), Err(DecodeError::NoMatch { word: w as u128 }), "{word}");
            reserved += 1;
        } else if Instruction::decode(w).is_err() {
            undecodable += 1;
        }
        match vc4::disassemble(w, vc4::Dialect::Mesa) {
            Ok(t) if t == golden => matched += 1,
            Ok(t) => failures.push(format!("{word}\n   mesa: {golden}\n    ours: {t}")),
            Err(e) => failures.push(format!("{word}\n   mesa: {golden}\n    ours: error {e}")),
        }
    }
    eprintln!(
        "mesa: {matched} words print Mesa's text ({undecodable} of them match an encoding but do \
         not decode, {reserved} are load immediates in a reserved mode)"
    );
    assert!(
        failures.is_empty(),
        "{} of {} words print differently; first ones:\n{}",
        failures.len(),
        failures.len() + matched,
        failures.iter().take(20).cloned().collect::<Vec<_>>().join("\n")
    );
    // The corpus's reserved-mode words (bits 59:56 = 4 or 5: mode 2; a, b: 5; c, d: 6; e, f: 7).
    assert_eq!(reserved, 69 + 11 + 83 + 6 + 78 + 21 + 88 + 9);
}

/// Load immediates in the reserved modes print as Mesa prints them, and decode to no encoding.
#[test]
fn mesa_prints_reserved_load_immediate_modes() {
    for (word, golden) in [
        // Mode 2.
        (
            0xe50e_339c_7b26_09f7,
            "load_imm rb14.cc, ra28.never, 0x7b2609f7 (862123389559355274661263521267843072.000000)",
        ),
        // Mode 5.
        (0xeb73_2769_c5df_cdcb, "load_imm ra29, quad_y.8d.ns, 0xc5dfcdcb (-7161.724121)"),
        // Mode 6.
        (
            0xed03_b92d_71e7_6b96,
            "load_imm tmu_noswap, tlb_color_ms.cs, 0x71e76b96 (2291875221964861012604801253376.000000)",
        ),
        // Mode 7.
        (0xeffa_222e_b728_707d, "load_imm ra8.nc, tlb_color_all???.never, 0xb728707d (-0.000010)"),
    ] {
        assert_eq!(vc4::disassemble(word, vc4::Dialect::Mesa).as_deref(), Ok(golden), "{word:#x}");
        assert_eq!(Instruction::decode(word), Err(DecodeError::NoMatch { word: word as u128 }));
        // vc4asm has no text for them.
        assert_eq!(
            vc4::disassemble(word, vc4::Dialect::Vc4asm),
            Err(DecodeError::NoMatch { word: word as u128 })
        );
    }
}

// ---- vc4asm ----------------------------------------------------------------------------------

/// Lines of `vc4asm_asm_golden.tsv` our `vc4asm` dialect does not read as vc4asm does, by
/// reason. Every other line must assemble to exactly vc4asm's word (bits the spec declares
/// don't-care excepted: semaphore bits 31:5, branch bits 59:56).
const VC4ASM_EXCLUDED: &[(&str, &[&str])] = &[
    (
        "vc4asm takes the parts of a line in any order and places operations on either pipe \
         itself; our grammar has one order (add; mul; read; signal, the add part left out when \
         idle) and `v8adds`/`v8subs`/`mov` on the pipe that text implies",
        &[
            "thrend; nop",
            "ldtmu1; fmul r0, r4, r1",
            "fmul rb6, r0, r1; fadd ra6, r2, r3",
            "fmul r2, r2, r3; add r0, r0, r1",
            "fmul r0, r1, r2; add r1, r2, r3",
            "v8adds r0, r1, r2; v8adds r3, r1, r2",
            "v8subs r0, r1, r2; add r3, r1, r2",
            "mnop; add r0, r1, r2",
            "fmul r1, r2, r3; mov r0, 5",
            "mov r0, 4; fadd r1, r2, r3",
            "mov r3, r0 >> 1; add r1, r1, -15",
            "read 8; add r0, r1, r2",
            "read vpm; mov r0, ra1",
            "mmov r0, r1",
            "nop; nop r3",
        ],
    ),
    (
        "vc4asm rewrites these into other operations or encodings (clean-up passes, constant \
         synthesis from small immediates, `add x, y, 16` as `sub x, y, -16`, shift counts modulo \
         32, `mov` with a float unpack as `fmin`, `mov d1, d2, reg` as a nop plus a mul `mov`); \
         our assembler encodes what the text says",
        &[
            "sub r0, ra1, ra1",
            "xor rb0, r0, r0",
            "mov r0, 0; mov r1, 0",
            "mov r0, 64; mov r1, r2",
            "mov r0, 1.0; mov r1, 2.0",
            "add r0, r1, 16",
            "sub r0, r1, 16",
            "shl r0, r1, 24",
            "shr r0, r1, 31",
            "asr r0, r1, 17",
            "ror r0, r1, 20",
            "shl.setf -, elem_num, 30;  mov r0, r0<<2",
            "mov r0, ra3.16af",
            "mov r0, r1, r2",
            "mov ra0, rb0, ra1",
        ],
    ),
    (
        "vc4asm writes a mul pack (pm = 1, its 11 for `.8abcds`) on an add destination that \
         writes nothing; the syntax gives the add pipe no mul pack (the mul pipe's packs 11-15 \
         are read as vc4asm writes them, with the spec's `undefined_mul_pack` warning)",
        &["v8adds.never nop.8abcds, r5, ra23"],
    ),
    (
        "operation extensions `.packN`, `.unpackN` and `.rot N`, rotations written on the \
         destination or on only one source, and rotations by multiples of 16: the syntax writes \
         packs and unpacks on their operands and a rotation on every accumulator source it \
         applies to",
        &[
            "add.pack16a ra5, r1, r2",
            "fadd.pack16af ra5, r1, r2",
            "add.pack8888 ra5, r1, r2",
            "add.pack8a ra5, r1, r2",
            "add.pack32s ra5, r1, r2",
            "nop; fmul.pack8asf r1, r1, r2",
            "nop; fmul.pack8888sf r1, r1, r2",
            "nop; v8adds.pack8abcds -, r5, ra23",
            "fadd.unpack16a r0, ra3, r1",
            "fadd.unpack16af r0, ra3, r1",
            "add.unpack8ai r0, ra3, r1",
            "add.unpack8dr r0, ra3, r1",
            "fmul.rot 1, r3, r0, r1",
            "v8min.rot 1, r3, r0, r0",
            "fmul.rot -1, r3, r0, r1",
            "fmul r3 << 1, r0, r1",
            "fmul r3 >> 1, r0, r1",
            "mov r3 >> 2, r0",
            "fmul r3, r0 >> 2, r1",
            "fmul r3, r0, r1 >> 2",
            "mov r3, r0 >> 16",
            "mov r3, r0 >> 0",
            "mov r3, ra0 >> 1",
        ],
    ),
    (
        "an operation vc4dis prints as `mov` (`or`/`v8min` of one input with itself) is read \
         only as `mov`",
        &["nop; v8min r1.8bsf, r1, r1", "v8min r3, r2 >> 3, r2 >> 3"],
    ),
    (
        "expressions (`2*3+1`, `1<<20`, `(3+1)`, `ra0 + 5`, `1./256` outside a small immediate): \
         the syntax reads numbers, not expressions",
        &[
            "ldi r0, 2*3+1",
            "ldi r0, 1<<20",
            "add r0, r1, 2*2",
            "add r0, r1, (3+1)",
            "add r0, r1, -(3)",
            "mov r0, ra0 + 5",
            "mov r0, rb31 - 1",
            "mov r0, r0 + 1",
            "mov r0, 0x10 | 0x01",
            "mov r0, 1 << 3",
            "mov r0, 1./256",
            "mov -, sacq0 + 3",
        ],
    ),
    (
        "vc4asm's number-literal bugs: `0b` and `0d` read as decimal with hex digits, a signed \
         exponent ends the number (`1.6000000e+01` is 2.6); and its `0o` octal prefix, which the \
         syntax does not read",
        &[
            "ldi r0, 0b1010",
            "mov r0, 0b101",
            "ldi r0, 0d10",
            "ldi r0, 0o10",
            "ldi r0, 1.6000000e+01",
            "ldi r0, 1.5e-3",
        ],
    ),
    (
        "semaphore operands beyond the semaphore number (the spec's fields are the number, bits \
         3:0, and acquire, bit 4; vc4asm takes a 32-bit value and ORs bit 4 in for `sacq`), and \
         the `mov dst, sacqN` form",
        &[
            "sacq -, 25",
            "sacq -, 16",
            "sacq -, 31",
            "sacq r0, 19",
            "sacq -, 0x12340007",
            "srel -, 0x12340007",
            "srel r0, 0x3f800000",
            "mov -, sacq7",
            "mov -, srel7",
            "mov r0, srel15",
        ],
    ),
    (
        "branch forms vc4asm accepts with a warning or as placeholders: an odd register without \
         `.setf` (the syntax writes `.setf` for bit 45), `-` as an absent register",
        &["bra -, ra7", "bra -, ra7, 256", "bra -, ra8, -", "brr -, -, 64"],
    ),
    (
        "program-level syntax: `.int` data, `:label` and `::label` definitions (the assembler \
         reads `label:`), and a `.long` word that does not decode (the assembler returns typed \
         instructions)",
        &[".int 0x11223344, 0x55667788", ":label nop", "::glob nop", ".long 0x0123456789abcdef"],
    ),
];

/// The word as our encoder writes it: bits the spec declares don't-care are zero.
fn normalized(word: u64) -> Option<u64> {
    Instruction::decode(word).ok()?.encode().ok()
}

#[test]
fn vc4asm_assembly_matches_vc4asm() {
    let text = data("vc4asm_asm_golden.tsv");
    let lines = rows(&text);
    for (reason, excluded) in VC4ASM_EXCLUDED {
        for line in *excluded {
            assert!(
                lines.iter().any(|(l, _)| l == line),
                "excluded line not in the corpus: {line:?} ({reason})"
            );
        }
    }
    let is_excluded = |l: &str| VC4ASM_EXCLUDED.iter().any(|(_, ls)| ls.contains(&l));
    let (mut matched, mut excluded) = (0, 0);
    let mut failures = Vec::new();
    for (line, word) in &lines {
        let golden = u64::from_str_radix(word, 16).expect("hex word");
        let ours = vc4::assemble(line, vc4::Dialect::Vc4asm);
        if is_excluded(line) {
            excluded += 1;
            continue;
        }
        let want = normalized(golden).unwrap_or(golden);
        match ours {
            Ok(p) if p.len() == 1 && p[0].encode().ok() == Some(want) => matched += 1,
            Ok(p) => {
                let got: Vec<String> =
                    p.iter().map(|i| i.encode().map(|w| format!("{w:016x}")).unwrap_or_default()).collect();
                failures.push(format!("{line:?}: vc4asm {word}, ours {got:?}"))
            }
            Err(e) => failures.push(format!("{line:?}: vc4asm {word}, ours rejected: {}", e[0])),
        }
    }
    eprintln!("vc4asm: {matched} of {} lines assemble to vc4asm's word; {excluded} excluded", lines.len());
    assert!(failures.is_empty(), "{} lines differ:\n{}", failures.len(), failures.join("\n"));
}

/// Every line vc4asm rejects is rejected, with a line and a column, and nothing panics.
#[test]
fn vc4asm_rejected_lines_are_rejected() {
    let text = data("vc4asm_asm_rejected.tsv");
    let mut accepted = Vec::new();
    let mut n = 0;
    for (line, why) in rows(&text) {
        n += 1;
        match vc4::assemble(line, vc4::Dialect::Vc4asm) {
            Ok(p) => accepted.push(format!(
                "{line:?} (vc4asm: {why}) assembles to {:?}",
                p.iter()
                    .map(|i| i.encode().map(|w| format!("{w:016x}")).unwrap_or_default())
                    .collect::<Vec<_>>()
            )),
            Err(errors) => {
                assert!(!errors.is_empty(), "{line:?}: an error list without errors");
                for e in &errors {
                    assert!(
                        e.line == 1 && e.column >= 1 && e.column <= line.chars().count() + 1,
                        "{line:?}: {e:?}"
                    );
                }
            }
        }
    }
    eprintln!("vc4asm: {n} rejected lines, {} accepted", accepted.len());
    assert!(accepted.is_empty(), "accepted:\n{}", accepted.join("\n"));
}

// ---- Mesa listings ---------------------------------------------------------------------------

/// Words whose Mesa text determines them list as that text and assemble back to them: a load
/// immediate's float in parentheses is an echo that must agree with its hex (`nan`, `inf`
/// included), and a `branch` text is relative (what Mesa's compiler emits and the kernel's
/// validator requires).
#[test]
fn mesa_texts_assemble_back() {
    for (word, text) in [
        (0xe002_0827_0000_0100u64, "load_imm r0, nop, 0x00000100 (0.000000)"),
        (0xe002_5c81_7fec_9955, "load_imm vw_addr, ra1, 0x7fec9955 (nan)"),
        (0xe002_5e5b_c4ab_267e, "load_imm tmu0_t, ra27, 0xc4ab267e (-1369.202881)"),
        (
            0xe018_474d_fd88_1714,
            "load_imm ra29.16a.ns, rb13, 0xfd881714 (-22611854487835866597972805069840580608.000000)",
        ),
        (0xf008_09e7_0000_03f8, "branch.all_zs 1016"),
    ] {
        assert_eq!(vc4::disassemble(word, vc4::Dialect::Mesa).as_deref(), Ok(text), "{word:#x}");
        let back = vc4::assemble(text, vc4::Dialect::Mesa).unwrap_or_else(|e| panic!("{text}: {}", e[0]));
        assert_eq!(back.len(), 1);
        assert_eq!(back[0].encode(), Ok(word), "{text}");
    }
    // The echo must agree with the value it follows.
    for text in [
        "load_imm tmu0_t, ra27, 0xc4ab267e (1.000000)",
        "load_imm tmu0_t, ra27, 0xc4ab267e (-1369.5)",
        "load_imm r0, nop, 0x7f800000 (nan)",
        "load_imm r0, nop, 0x7fc00000 (inf)",
    ] {
        assert!(vc4::assemble(text, vc4::Dialect::Mesa).is_err(), "{text} assembles");
    }
    // A float that is the same single agrees too, as a number where the value belongs would.
    assert!(vc4::assemble("load_imm tmu0_t, ra27, 0xc4ab267e (-1369.20288)", vc4::Dialect::Mesa).is_ok());
    // The echo alone is no value: a float where the hex belongs is not read.
    assert!(vc4::assemble("load_imm r0, nop, (0.000000)", vc4::Dialect::Mesa).is_err());
}

/// The Mesa corpus listed in the `mesa` dialect: every line that is text is Mesa's text byte
/// for byte, every raw line of a word that decodes carries Mesa's text in its comment (one that
/// does not, why), and the listing assembles back to the corpus. Raw lines remain where Mesa's text does not determine the word (a load
/// immediate's mode, conditions of `nop`, read addresses no input uses, `???`): 5,543 of
/// 6,563 (5,719 before load immediates and branches read back; 5,547 before the mul packs 11
/// to 15 that vc4asm writes decoded: 4 words whose Mesa text `???` now reads back).
#[test]
fn mesa_listing_of_the_corpus() {
    let text = data("mesa_golden.tsv");
    let rows = rows(&text);
    let words: Vec<u128> = rows.iter().map(|(w, _)| u128::from_str_radix(w, 16).expect("hex word")).collect();
    let t = isa_generated::target("vc4").expect("built in");
    let mesa = t.dialects().iter().position(|d| d.name == "mesa").expect("mesa dialect");
    let lines = t.disassemble_program(&words, mesa);
    assert_eq!(lines.len(), rows.len());
    let mut raw = 0;
    for (line, (word, golden)) in lines.iter().zip(&rows) {
        if line.text.starts_with(".long ") {
            raw += 1;
            let comment = match &line.error {
                Some(e) => format!(".long 0x{word} # {}", e.reason()),
                None => format!(".long 0x{word} # {golden} ("),
            };
            assert!(line.text.starts_with(&comment), "{word}: {}", line.text);
        } else {
            assert_eq!(line.text, *golden, "{word}");
        }
    }
    let listing: String = lines.iter().map(|l| format!("{l}\n")).collect();
    assert_eq!(t.assemble(&listing, mesa).expect("assembles"), words);
    assert_eq!(raw, 5543);
    // Undecodable words are counted in every dialect alike: `???` values and reserved modes
    // (1,904 before the mul packs 11 to 15 vc4asm writes decoded: 342 of the corpus's random
    // words have them).
    let undecodable = lines.iter().filter(|l| l.error.is_some()).count();
    let vc4asm = t.disassemble_program(&words, 0);
    assert_eq!(undecodable, vc4asm.iter().filter(|l| l.error.is_some()).count());
    assert_eq!(undecodable, 1562);
}

/// Where the caller asks for strict decoding, a load immediate in a reserved mode is an error
/// that names the reserved encoding and why; other words decode as `decode` decodes them.
#[test]
fn strict_decoding_names_the_reserved_load_immediate_modes() {
    for word in
        [0xe50e_339c_7b26_09f7u64, 0xeb73_2769_c5df_cdcb, 0xed03_b92d_71e7_6b96, 0xeffa_222e_b728_707d]
    {
        let err = Instruction::decode_strict(word).unwrap_err();
        assert_eq!(
            err,
            DecodeError::Reserved {
                format: "load_imm_reserved",
                why: "load-immediate modes 2, 5, 6 and 7 are reserved",
                word: word.into()
            }
        );
        assert_eq!(
            err.to_string(),
            format!(
                "word {word:#x} is a reserved encoding (load_imm_reserved): load-immediate modes 2, 5, 6 and 7 are reserved"
            )
        );
    }
    // Mode 0 (the seed's worked word) and mode 1 decode either way.
    for word in [0xd140_59e5_2082_0df7u64, 0xe200_0000_0000_0000] {
        assert!(Instruction::decode(word).is_ok(), "{word:#x}");
        assert_eq!(Instruction::decode_strict(word), Instruction::decode(word));
    }
}
