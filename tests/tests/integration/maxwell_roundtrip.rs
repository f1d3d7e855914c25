//! Property tests of the Maxwell target over random words, per encoding (every format):
//!
//! - a random word is forced into the encoding's pattern (its `is` fields: opcode bits and the
//!   bits NVIDIA's tables require to be zero that nvdisasm does not ignore); its don't-care
//!   (`unused`) bits, which nvdisasm ignores, stay random, so
//! - `encode(decode(w))` is `w` with its don't-care bits clear, for every word that decodes, and
//!   a word that does not (a field holding a value its enum leaves undefined) is a typed
//!   [`DecodeError`], never a panic;
//! - `assemble(disassemble(w))` is the same word: the printed text reads back to it, or the word
//!   prints as `.quad`, which gives every bit back. Branch targets are printed and read at a
//!   random address.
//!
//! The exceptions are the bits nvdisasm's text does not show (nvdisasm 11.8; research §G.2):
//! DEPBAR's scoreboard and count without `.LE`, B2R's Pd with a barrier, BAR.SCAN's
//! reduction, the texture index of TLD.B and TXD.B, F2F's `.H1` but for an F16 source, and NaN payloads of float immediates
//! (`+QNAN`). Such a text reads back to a word that prints the same text.
//!
//! Half of the words are "tidy" (guard PT, registers RZ where defaults print nothing), so that
//! short forms are hit as often as the long ones. The words come from a fixed-seed xorshift
//! generator, so every run checks the same words.

use isa_generated::maxwell::{FloatType, Instruction, Maxwell, Reg};
use isa_runtime::target::{assemble_one, disassemble_word, Isa};
use isa_runtime::DecodeError;
use isa_tests::Rng;

/// Words per encoding: 500 in the test suite (its longest test at 1,000), or
/// `MAXWELL_ROUNDTRIP_WORDS` when set (the README's long run: 100,000).
fn words_per_format() -> usize {
    std::env::var("MAXWELL_ROUNDTRIP_WORDS").ok().and_then(|s| s.parse().ok()).unwrap_or(500)
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

/// The bits an encoding's fields own (the rest are its don't-care bits).
fn owned(format: &isa_runtime::format::Format) -> u64 {
    let mut mask = 0u128;
    for f in format.fields.iter().filter(|f| !f.view) {
        isa_runtime::bits::set(&mut mask, f.pieces, u64::MAX);
    }
    mask as u64
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
            let kept = w & owned(format);
            match insn.encode() {
                Ok(back) if back == kept => {}
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
                // `.quad` gives every bit back, but this typed instruction keeps no don't-care bit
                // (a program's `.quad` keeps them: `nvidia_listings_rebuild_byte_for_byte`).
                _ if text.starts_with(".quad") => kept,
                // With RZ nvdisasm reads ALD/AST's address from bits 29:20 only: the text
                // leaves bit 30 out.
                Instruction::Ast(x) if x.ra == Reg::Rz => kept & !(1 << 30),
                Instruction::Ald(x) if x.ra == Reg::Rz => kept & !(1 << 30),
                _ => kept,
            };
            // Bits the text does not show: the word read back prints the same text.
            let unshown = match insn {
                Instruction::Depbar(x) => !x.le,
                Instruction::B2r(_) | Instruction::BarRr(_) | Instruction::BarRi(_) => true,
                Instruction::BarIr(_) | Instruction::BarIi(_) => true,
                Instruction::Tld(x) => x.bindless,
                Instruction::Txd(x) => x.bindless,
                // F2F prints `.H1` for an F16 source only; a half immediate leaves out the bits
                // above its 16 (the conversions' half and double immediates read back).
                Instruction::F2fR(_) | Instruction::F2fC(_) | Instruction::F2fI(_) => true,
                Instruction::F2iI(x) => x.src_type == FloatType::F16 || text.contains("NAN "),
                // IPA.IDX leaves out the attribute address, VADD the negation of a zero
                // immediate (research §G.3).
                Instruction::Ipa(x) => x.idx,
                Instruction::VaddU(x) => x.neg_b && x.imm == 0,
                Instruction::VaddS(x) => x.neg_b && x.imm == 0,
                _ => text.contains("NAN "),
            };
            match assemble_one::<Maxwell>(&text, 0, pc, &|_| None, false).map(|i| i.encode()) {
                Ok(Ok(back)) if back == expected => {}
                Ok(Ok(back))
                    if unshown
                        && disassemble_word::<Maxwell>(back as u128, 0, pc).as_deref() == Ok(&text) => {}
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
            Ok(i) => {
                let format = Maxwell::formats().iter().find(|f| f.name == i.name()).expect("format");
                assert_eq!(i.encode(), Ok(w & owned(format)), "{w:#018x}");
            }
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
