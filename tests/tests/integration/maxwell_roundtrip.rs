//! Property tests of the Maxwell target over random words, per encoding (every format):
//!
//! - a random word is forced into the encoding's pattern (its `is` fields: opcode bits and the
//!   bits NVIDIA's tables require to be zero); the spec declares no don't-care bits, so
//! - `encode(decode(w)) == w` for every word that decodes, and a word that does not (a field
//!   holding a value its enum leaves undefined, such as MUFU function 9) is a typed
//!   [`DecodeError`], never a panic;
//! - `assemble(disassemble(w)) == w`: the printed text reads back to the same word, or the word
//!   prints as `.quad`, which also reads back. Branch targets are printed and read at a random
//!   address.
//!
//! Two principled exceptions, the same ambiguity of nvdisasm's text. FADD32I's −B bit (53) prints as a minus sign before the
//! immediate, like the immediate's own sign (NV FORMAT; research D.2), so `-0.5` is either. The
//! assembler reads the sign into the immediate, as NVIDIA's compiler and Mesa encode a negative
//! immediate (CG `emitFADD` flips bit 51). A word with bit 53 set and a non-negative immediate
//! and without |B| (which brackets the immediate, `-|0.5|`) therefore reassembles to the same
//! sum with the sign moved: bit 53 cleared, bit 51 set. ISCADD's immediate form likewise
//! prints −B (bit 48, without −A: both is `.PO`) as a minus before the signed immediate
//! (`ISCADD R0, R1, -0x10, 0x2`); the assembler reads `-0x10` as the immediate, so such a word
//! reassembles to bit 48 cleared and the immediate negated: the same value.
//!
//! Half of the words are "tidy" (guard PT, registers RZ where defaults print nothing), so that
//! short forms are hit as often as the long ones. The words come from a fixed-seed xorshift
//! generator, so every run checks the same words.

use isa_generated::maxwell::{Instruction, Maxwell, Reg};
use isa_runtime::target::{assemble_one, disassemble_word, Isa};
use isa_runtime::DecodeError;
use isa_tests::Rng;

/// Words per encoding: 3,000, or `MAXWELL_ROUNDTRIP_WORDS` when set.
fn words_per_format() -> usize {
    std::env::var("MAXWELL_ROUNDTRIP_WORDS").ok().and_then(|s| s.parse().ok()).unwrap_or(3_000)
}

/// The bits an encoding fixes, and their values.
fn pattern(format: &isa_runtime::format::Format) -> (u64, u64) {
    let (mut mask, mut value) = (0u128, 0u128);
    for f in format.fields.iter().filter(|f| !f.view) {
        if let Some(v) = f.fixed {
            isa_runtime::bits::set(&mut mask, f.pieces, u64::MAX);
            isa_runtime::bits::set(&mut value, f.pieces, v);
        }
    }
    (mask as u64, value as u64)
}

/// Sets the fields that print nothing at their default (guard PT, vertex/Rb/Rc RZ, ...) to it,
/// at random, keeping the pattern.
fn tidy(rng: &mut Rng, format: &isa_runtime::format::Format, mut w: u64) -> u64 {
    for f in format.fields.iter().filter(|f| !f.view && f.fixed.is_none()) {
        if let Some(d) = f.default {
            if rng.next() & 1 == 0 {
                let mut word = w as u128;
                isa_runtime::bits::set(&mut word, f.pieces, d);
                w = word as u64;
            }
        }
    }
    if rng.next() & 1 == 0 {
        // Guard PT.
        w = (w & !(0xf << 16)) | (7 << 16);
    }
    w
}

#[test]
fn every_encoding_round_trips_through_its_fields_and_its_text() {
    let mut rng = Rng(0x5eed_0003_4a81_0197);
    let mut failures = Vec::new();
    let (mut decoded, mut printed) = (0usize, 0usize);
    for format in Maxwell::formats() {
        let (mask, value) = pattern(format);
        for _ in 0..words_per_format() {
            let mut w = (rng.next() & !mask) | value;
            if rng.next() & 1 == 0 {
                w = (tidy(&mut rng, format, w) & !mask) | value;
            }
            let insn = match Instruction::decode(w) {
                Ok(i) => i,
                Err(DecodeError::UndefinedValue { .. }) => continue,
                Err(e) => {
                    failures.push(format!("{}: {w:#018x} does not decode: {e}", format.name));
                    continue;
                }
            };
            decoded += 1;
            assert_eq!(insn.name(), format.name, "{w:#018x} decodes as another encoding");
            match insn.encode() {
                Ok(back) if back == w => {}
                other => failures.push(format!("{}: {w:#018x} encodes to {other:?}", format.name)),
            }
            let pc = (rng.next() & 0xf_fff8) + 8;
            let text = match disassemble_word::<Maxwell>(w as u128, 0, pc) {
                Ok(t) => t,
                Err(e) => {
                    failures.push(format!("{}: {w:#018x} does not print: {e}", format.name));
                    continue;
                }
            };
            if !text.starts_with(".quad") {
                printed += 1;
            }
            let expected = match insn {
                // `.quad` gives every bit back.
                _ if text.starts_with(".quad") => w,
                Instruction::Fadd32i(x) if x.neg_b && !x.abs_b && (w >> 51) & 1 == 0 => {
                    w ^ (1 << 53) ^ (1 << 51)
                }
                Instruction::IscaddI(x) if x.neg_b && !x.neg_a && x.imm >= 0 => {
                    let imm = (x.imm.wrapping_neg() as u64) & 0xf_ffff;
                    (w & !(1 << 48) & !(1 << 56) & !(0x7_ffff << 20))
                        | ((imm >> 19) << 56)
                        | ((imm & 0x7_ffff) << 20)
                }
                // With RZ nvdisasm reads ALD/AST's address from bits 29:20 only: the text
                // leaves bit 30 out.
                Instruction::Ast(x) if x.ra == Reg::Rz => w & !(1 << 30),
                Instruction::Ald(x) if x.ra == Reg::Rz => w & !(1 << 30),
                _ => w,
            };
            match assemble_one::<Maxwell>(&text, 0, pc, &|_| None, false).map(|i| i.encode()) {
                Ok(Ok(back)) if back == expected => {}
                other => failures.push(format!("{}: {w:#018x} {text:?} assembles to {other:?}", format.name)),
            }
            if failures.iter().filter(|f| f.starts_with(&format!("{}:", format.name))).count() >= 3 {
                break;
            }
        }
    }
    assert!(failures.is_empty(), "{} failures:\n{}", failures.len(), failures.join("\n"));
    // Most decodable words have a text (the rest are encodings nvdisasm has no syntax for).
    assert!(printed * 10 > decoded * 7, "{printed} of {decoded} decoded words print as text");
}

/// Words of no encoding are typed errors; decoding never panics.
#[test]
fn random_words_never_panic() {
    let mut rng = Rng(0x0bad_5eed);
    let mut no_match = 0;
    for _ in 0..200_000 {
        let w = rng.next();
        match Instruction::decode(w) {
            Ok(i) => assert_eq!(i.encode(), Ok(w), "{w:#018x}"),
            Err(DecodeError::NoMatch { word }) => {
                assert_eq!(word, w as u128);
                no_match += 1;
            }
            Err(_) => {}
        }
        let _ = disassemble_word::<Maxwell>(w as u128, 0, 0);
    }
    assert!(no_match > 0);
}
