//! Property tests of the VideoCore IV QPU target over random words, per encoding:
//!
//! - `encode(decode(w)) == w` for every decodable word, except the bits the spec declares
//!   don't-care (`unused`: semaphore bits 31:5, branch bits 59:56);
//! - words that do not decode are a typed [`DecodeError`], never a panic;
//! - `assemble(disassemble(w)) == encode(decode(w))` in the default dialect, `vc4asm`: the
//!   disassembler either prints text the assembler reads back to the same word or falls back
//!   to `.long`, which is also read back exactly.
//!
//! The words come from a fixed-seed xorshift generator, so every run checks the same words.

use isa_generated::vc4::{self, Instruction};
use isa_runtime::DecodeError;
use isa_tests::Rng;

/// Words per encoding: 10,000 in the test suite, or `VC4_ROUNDTRIP_WORDS` when set (the README's
/// long run uses 1,000,000).
fn words_per_class() -> usize {
    std::env::var("VC4_ROUNDTRIP_WORDS").ok().and_then(|s| s.parse().ok()).unwrap_or(10_000)
}

/// One encoding: how to force a random word into it, and its don't-care bits.
struct Class {
    name: &'static str,
    /// Bits forced by the class's opcode fields.
    opcode_mask: u64,
    /// Their values.
    opcode: u64,
    /// Bits the spec declares don't-care (`unused`).
    dont_care: u64,
}

const SIG: u64 = 0xf << 60;
const MODE: u64 = 0x7 << 57;

fn classes() -> Vec<Class> {
    vec![
        // sig 0..=12: the opcode is the signal, drawn at random below.
        Class { name: "alu", opcode_mask: 0, opcode: 0, dont_care: 0 },
        Class { name: "alu_small_imm", opcode_mask: SIG, opcode: 13 << 60, dont_care: 0 },
        Class { name: "load_imm", opcode_mask: SIG | MODE, opcode: 14 << 60, dont_care: 0 },
        Class {
            name: "load_imm_per_elem_signed",
            opcode_mask: SIG | MODE,
            opcode: 14 << 60 | 1 << 57,
            dont_care: 0,
        },
        Class {
            name: "load_imm_per_elem_unsigned",
            opcode_mask: SIG | MODE,
            opcode: 14 << 60 | 3 << 57,
            dont_care: 0,
        },
        Class {
            name: "semaphore",
            opcode_mask: SIG | MODE,
            opcode: 14 << 60 | 4 << 57,
            dont_care: 0xffff_ffe0,
        },
        Class { name: "branch", opcode_mask: SIG, opcode: 15 << 60, dont_care: 0xf << 56 },
    ]
}

/// A random word of class `c`. ALU words take a random signal 0..=12; half of the words of
/// every class are "tidy" (some fields set as compilers set them: idle pipes, no packs, equal
/// inputs), so the templates' common arms are hit often and not only the `.long` fallback.
fn word(rng: &mut Rng, c: &Class) -> u64 {
    let mut w = rng.next();
    if c.name == "alu" {
        w = (w & !SIG) | ((rng.next() % 13) << 60);
    } else {
        w = (w & !c.opcode_mask) | c.opcode;
    }
    if rng.next() & 1 == 0 {
        w = tidy(rng, w);
    }
    w
}

/// Clears or fixes some commonly-zero fields, at random, keeping the opcode bits.
fn tidy(rng: &mut Rng, mut w: u64) -> u64 {
    let r = rng.next();
    let sig = w >> 60;
    let is_alu = sig <= 13;
    if r & 0x3000 != 0 {
        // pm, pack: off (three times in four).
        w &= !(0x1f << 52);
    }
    if r & 0xc000 != 0 && is_alu {
        // unpack: off (three times in four).
        w &= !(0x7 << 57);
    }
    if r & 0x10000 != 0 && is_alu {
        // read addresses: registers (I/O reads take no unpack in vc4asm).
        w &= !(0x20 << 18);
    }
    if r & 4 != 0 {
        // sf off.
        w &= !(1 << 45);
    }
    if r & 8 != 0 {
        // add pipe idle: cond never, waddr nop.
        w = (w & !(0x7 << 49) & !(0x3f << 38)) | (39 << 38);
        if is_alu {
            // op nop, muxes r0.
            w &= !(0x1f << 24) & !(0x3f << 6);
        }
    }
    if r & 16 != 0 {
        // mul pipe idle.
        w = (w & !(0x7 << 46) & !(0x3f << 32)) | (39 << 32);
        if is_alu {
            w &= !(0x7 << 29) & !0x3f;
        }
    }
    if r & 32 != 0 && is_alu {
        // both add inputs equal (unary ops, `mov`).
        let a = (w >> 9) & 7;
        w = (w & !(7 << 6)) | (a << 6);
    }
    if r & 64 != 0 && is_alu {
        // both mul inputs equal.
        let a = (w >> 3) & 7;
        w = (w & !7) | a;
    }
    if r & 128 != 0 {
        // write swap off.
        w &= !(1 << 44);
    }
    if r & 256 != 0 && sig == 15 {
        // branch: reg off, raddr 0, always.
        w = (w & !(0x3f << 45) & !(1 << 50)) | (15 << 52);
    }
    if r & 512 != 0 && is_alu {
        // conds always.
        w = (w & !(0x3f << 46)) | (1 << 49) | (1 << 46);
    }
    w
}

#[derive(Default)]
struct Counts {
    words: usize,
    decodable: usize,
    undecodable: usize,
    encode_ok: usize,
    roundtrip_ok: usize,
    raw: usize,
}

fn assemble_one(text: &str) -> Result<u64, String> {
    match vc4::assemble(text, vc4::Dialect::Vc4asm) {
        Ok(p) if p.len() == 1 => p[0].encode().map_err(|e| e.to_string()),
        Ok(p) => Err(format!("{} instructions", p.len())),
        Err(es) => Err(es.iter().map(|e| e.to_string()).collect::<Vec<_>>().join("; ")),
    }
}

fn check_class(c: &Class, seed: u64) -> (Counts, Vec<String>) {
    let mut rng = Rng(seed);
    let mut n = Counts::default();
    let mut failures = Vec::new();
    for _ in 0..words_per_class() {
        let w = word(&mut rng, c);
        n.words += 1;
        let insn = match Instruction::decode(w) {
            Ok(i) => i,
            Err(e) => {
                assert!(
                    matches!(e, DecodeError::UndefinedValue { .. } | DecodeError::NoMatch { .. }),
                    "{w:016x}: {e:?}"
                );
                n.undecodable += 1;
                // The default dialect reports the error too (Mesa's prints its `???`).
                if let Ok(t) = vc4::disassemble(w, vc4::Dialect::Vc4asm) {
                    failures.push(format!("{w:016x} does not decode ({e}) but prints `{t}`"));
                }
                let _ = vc4::disassemble(w, vc4::Dialect::Mesa);
                continue;
            }
        };
        n.decodable += 1;
        let expected = w & !c.dont_care;
        match insn.encode() {
            Ok(e) if e == expected => n.encode_ok += 1,
            Ok(e) => {
                failures.push(format!("{w:016x}: encode(decode(w)) = {e:016x}"));
                continue;
            }
            Err(e) => {
                failures.push(format!("{w:016x}: encode(decode(w)) failed: {e}"));
                continue;
            }
        }
        let text = match vc4::disassemble(w, vc4::Dialect::Vc4asm) {
            Ok(t) => t,
            Err(e) => {
                failures.push(format!("{w:016x}: decodable but not printable: {e}"));
                continue;
            }
        };
        if text.starts_with(".long") {
            n.raw += 1;
        }
        match assemble_one(&text) {
            Ok(back) if back == expected => n.roundtrip_ok += 1,
            Ok(back) => failures.push(format!("{w:016x} `{text}` assembles to {back:016x}")),
            Err(e) => failures.push(format!("{w:016x} `{text}` is rejected: {e}")),
        }
    }
    (n, failures)
}

fn run(name: &str, seed: u64) {
    let c = classes().into_iter().find(|c| c.name == name).expect("class");
    let (n, failures) = check_class(&c, seed);
    eprintln!(
        "{name}: {} words, {} decodable ({} undecodable), encode ok {}, round trip ok {} ({} as `.long`)",
        n.words, n.decodable, n.undecodable, n.encode_ok, n.roundtrip_ok, n.raw
    );
    assert!(n.decodable > 0, "{name}: no decodable word");
    if !failures.is_empty() {
        let shown: Vec<&String> = failures.iter().take(20).collect();
        panic!(
            "{name}: {} failures; first ones:\n{}",
            failures.len(),
            shown.iter().map(|s| s.as_str()).collect::<Vec<_>>().join("\n")
        );
    }
}

#[test]
fn alu_round_trip() {
    run("alu", 0x0123_4567_89ab_cdef);
}

#[test]
fn alu_small_imm_round_trip() {
    run("alu_small_imm", 0x1d1d_1d1d_2e2e_2e2e);
}

#[test]
fn load_imm_round_trip() {
    run("load_imm", 0x3c3c_4b4b_5a5a_6969);
}

#[test]
fn load_imm_per_elem_signed_round_trip() {
    run("load_imm_per_elem_signed", 0x7777_8888_9999_aaaa);
}

#[test]
fn load_imm_per_elem_unsigned_round_trip() {
    run("load_imm_per_elem_unsigned", 0xbbbb_cccc_dddd_eeee);
}

#[test]
fn semaphore_round_trip() {
    run("semaphore", 0x5e5a_0000_f00d_beef);
}

#[test]
fn branch_round_trip() {
    run("branch", 0xb4a2_c0ff_ee00_1234);
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig {
        cases: 4096,
        failure_persistence: None,
        ..proptest::prelude::ProptestConfig::default()
    })]

    /// Decoding, disassembling (both dialects) and re-assembling never panic on any word.
    #[test]
    fn any_word_never_panics(w in proptest::prelude::any::<u64>()) {
        let decoded = Instruction::decode(w);
        for &dialect in vc4::Dialect::ALL {
            match vc4::disassemble(w, dialect) {
                Ok(text) => {
                    let _ = vc4::assemble(&text, dialect);
                }
                Err(e) => proptest::prop_assert!(decoded.is_err() || Instruction::match_format(w).is_none(), "{e}"),
            }
        }
        if let Ok(insn) = decoded {
            proptest::prop_assert!(insn.encode().is_ok());
        }
    }

    /// The assembler never panics on arbitrary text, and its errors have a line and a column.
    #[test]
    fn any_text_never_panics(text in "[a-z0-9 ,;.+<>#:_\\[\\]-]{0,48}") {
        for &dialect in vc4::Dialect::ALL {
            if let Err(errors) = vc4::assemble(&text, dialect) {
                for e in errors {
                    proptest::prop_assert!(e.line >= 1 && e.column >= 1, "{e:?}");
                }
            }
        }
    }
}
