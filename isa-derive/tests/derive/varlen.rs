//! Variable-length instructions (tests/specs/varlen.isa): the length follows from the
//! instruction's first bytes, a short form reads its missing tail as zero, the assembler picks
//! the short form exactly when the instruction fits it, and programs are byte streams.

use isa_runtime::target::{self, Isa, Target};
use isa_runtime::{DecodeError, EncodeError};

mod spec {
    isa_derive::target!("tests/specs/varlen.isa");
}

use spec::{Instruction, Movi, Varlen};

/// `movi r1, 0x1234` (4 bytes), `halt` (2), `movi r1, 0x12345` (6), worked by hand: opcode
/// 0x62 in byte 0, `dst` in bits 14:8, the length bit 15, the immediate from bit 16.
const PROGRAM: [u8; 12] = [0x62, 0x01, 0x34, 0x12, 0x88, 0x00, 0x62, 0x81, 0x45, 0x23, 0x01, 0x00];

#[test]
fn the_length_bit_picks_the_length() {
    assert_eq!(target::instruction_bytes::<Varlen>(0x1234_0162), 4);
    assert_eq!(target::instruction_bytes::<Varlen>(0x0001_2345_8162), 6);
    assert_eq!(target::instruction_bytes::<Varlen>(0x0088), 2);
    // Bytes no encoding matches step over the shortest length.
    assert_eq!(target::instruction_bytes::<Varlen>(0xffff), 2);
    assert!(Varlen.variable_length());
}

#[test]
fn a_short_form_reads_its_tail_as_zero() {
    // The bytes after a 4-byte `movi` (here 0xffff) belong to the next instruction.
    let short = Instruction::decode(0xffff_1234_0162).unwrap();
    assert_eq!(short, Instruction::Movi(Movi { dst: 1, l: false, imm: 0x1234 }));
    assert_eq!(spec::disassemble(0xffff_1234_0162, spec::Dialect::default()).unwrap(), "movi r1, 0x1234");
    let long = Instruction::decode(0x0001_2345_8162).unwrap();
    assert_eq!(long, Instruction::Movi(Movi { dst: 1, l: true, imm: 0x12345 }));
}

#[test]
fn the_assembler_picks_the_short_form_when_it_fits() {
    let words = target::assemble_program::<Varlen>("movi r1, 0x1234\nhalt\nmovi r1, 0x12345\n", 0).unwrap();
    assert_eq!(words, [0x1234_0162, 0x0088, 0x0001_2345_8162]);
    assert_eq!(target::join_stream::<Varlen>(&words), PROGRAM);
    // A long form whose tail is zero is kept by the typed encoder, never shortened silently...
    let long = Instruction::Movi(Movi { dst: 1, l: true, imm: 0x1234 });
    assert_eq!(long.encode(), Ok(0x1234_8162));
    // ...and a short form that cannot hold the immediate is an error.
    let short = Instruction::Movi(Movi { dst: 1, l: false, imm: 0x12345 });
    assert_eq!(short.encode(), Err(EncodeError::NotAllowed { format: "movi", field: "l", value: 0 }));
}

#[test]
fn a_byte_stream_splits_into_instructions_and_lists_with_their_addresses() {
    let words = target::split_stream::<Varlen>(&PROGRAM);
    assert_eq!(words, [0x1234_0162, 0x0088, 0x0001_2345_8162]);
    let lines = Varlen.disassemble_words(&words, 0);
    let listed: Vec<(u64, &str)> = lines.iter().map(|l| (l.address, l.text.as_str())).collect();
    assert_eq!(listed, [(0, "movi r1, 0x1234"), (4, "halt"), (6, "movi r1, 0x12345")]);
    // Undecodable bytes are a 2-byte raw piece, and the listing goes on after them.
    let words = target::split_stream::<Varlen>(&[0xff, 0xff, 0x88, 0x00]);
    assert_eq!(words, [0xffff, 0x0088]);
    let lines = Varlen.disassemble_words(&words, 0);
    assert_eq!(lines[0].text, ".word 0xffff ; no encoding matches");
    assert_eq!(lines[1].address, 2);
    // The listing reads back to the same bytes.
    let source: String = lines.iter().map(|l| format!("{}\n", l.text)).collect();
    let back = target::assemble_program::<Varlen>(&source, 0).unwrap();
    assert_eq!(target::join_stream::<Varlen>(&back), [0xff, 0xff, 0x88, 0x00]);
    // A program cut inside an instruction keeps the bytes there are.
    assert_eq!(target::split_stream::<Varlen>(&PROGRAM[..3]), [0x34_0162]);
    assert_eq!(<Varlen as Isa>::decode(0xffff), Err(DecodeError::NoMatch { word: 0xffff }));
}

/// Opcode bits past the short form (`neg` and `abs` differ only in bits 35:34) are compared
/// with the instruction's own bits: a short `neg` followed by an instruction whose first byte
/// (0x0a, bits 35:34 = 2 in the window) would make it `abs` stays `neg`.
#[test]
fn opcode_bits_past_the_short_form_are_the_instructions_own() {
    // neg r1, r2: 0a 01 02 00; abs r1, r2: 0a 81 02 00 08 00 (operation 2 in bits 35:34).
    assert_eq!(spec::disassemble(0x0002_010a, spec::Dialect::default()).unwrap(), "neg r1, r2");
    assert_eq!(spec::disassemble(0x0008_0002_810a, spec::Dialect::default()).unwrap(), "abs r1, r2");
    let stream = [0x0a, 0x01, 0x02, 0x00, 0x0a, 0x03, 0x04, 0x00, 0x0a, 0x81, 0x02, 0x00, 0x08, 0x00];
    let words = target::split_stream::<Varlen>(&stream);
    assert_eq!(words, [0x0002_010a, 0x0004_030a, 0x0008_0002_810a]);
    let lines = Varlen.disassemble_words(&words, 0);
    let listed: Vec<(u64, &str)> = lines.iter().map(|l| (l.address, l.text.as_str())).collect();
    assert_eq!(listed, [(0, "neg r1, r2"), (4, "neg r3, r4"), (8, "abs r1, r2")]);
    // The window of the first: its next bytes set bits 35:34, which it reads as zero.
    assert_eq!(target::instruction_bytes::<Varlen>(0x030a_0002_010a), 4);
    assert_eq!(spec::disassemble(0x030a_0002_010a, spec::Dialect::default()).unwrap(), "neg r1, r2");
    // The assembler writes `neg` short and `abs` long (its opcode does not fit 4 bytes).
    let back = target::assemble_program::<Varlen>("neg r1, r2\nneg r3, r4\nabs r1, r2\n", 0).unwrap();
    assert_eq!(target::join_stream::<Varlen>(&back), stream);
}

/// Relaxation (isa_runtime::target, `relax`): expansion lays every instruction out as a whole
/// 6-byte word, then the real lengths move the labels. `movi` is 4 bytes when its immediate
/// fits in 16 bits, so an immediate computed from a label can decide its own length.
mod relaxation {
    use super::*;

    fn errors(source: &str) -> Vec<(usize, String)> {
        match target::assemble_program::<Varlen>(source, 0) {
            Ok(words) => panic!("assembled {words:x?}"),
            Err(errors) => errors.into_iter().map(|e| (e.line, e.message)).collect(),
        }
    }

    /// `movi r1, 0x10005 - (end - start)`: 4 bytes would make the immediate 0x10001, which
    /// needs 6; 6 bytes make it 0xffff, which fits in 4. No layout is right.
    #[test]
    fn lengths_that_do_not_settle_are_an_error_at_the_instruction() {
        let e = errors("halt\nstart:\nmovi r1, 0x10005 - (end - start)\nend:\nhalt\n");
        assert_eq!(e.len(), 1, "{e:?}");
        assert_eq!(e[0].0, 3);
        assert!(e[0].1.contains("lengths do not settle"), "{}", e[0].1);
    }

    /// The same immediate one byte further from 0x10000 settles on the short form:
    /// `0x10003 - 4` = 0xffff (worked by hand: movi 62 01, immediate ff ff; halt 88 00).
    #[test]
    fn lengths_that_depend_on_a_label_settle_when_they_can() {
        let words =
            target::assemble_program::<Varlen>("start:\nmovi r1, 0x10003 - (end - start)\nend:\nhalt\n", 0);
        assert_eq!(target::join_stream::<Varlen>(&words.unwrap()), [0x62, 0x01, 0xff, 0xff, 0x88, 0x00]);
    }

    /// `.set` reads the labels while the program is expanded (b first: 12 with whole words);
    /// the real lengths put b at 4, so the value would be stale: an error at the `.set`.
    #[test]
    fn a_value_expansion_computed_from_a_moved_label_is_an_error_at_its_line() {
        let e = errors("halt\na:\nhalt\nb:\n.set n, b - a\nmovi r1, n\n");
        assert_eq!(e.len(), 1, "{e:?}");
        assert_eq!(e[0].0, 5);
        assert!(
            e[0].1.contains("reads label `b`") && e[0].1.contains("at 0xc") && e[0].1.contains("at 0x4"),
            "{}",
            e[0].1
        );
        // `.if` alike.
        let e = errors("halt\na:\n.if a == 6\nhalt\n.endif\n");
        assert_eq!(e[0].0, 3, "{e:?}");
        // The same difference read as an operand sees the real addresses: b - a = 2.
        let words = target::assemble_program::<Varlen>("halt\na:\nhalt\nb:\nmovi r1, b - a\n", 0).unwrap();
        assert_eq!(words, [0x0088, 0x0088, 0x0002_0162]);
    }

    /// A label that does not move may be read while expanding: `a` is 0 in every layout.
    #[test]
    fn a_label_that_does_not_move_may_be_read_while_expanding() {
        let words = target::assemble_program::<Varlen>("a:\nhalt\n.set n, a + 7\nmovi r1, n\n", 0).unwrap();
        assert_eq!(words, [0x0088, 0x0007_0162]);
    }

    /// Padding follows the real layout: an instruction after data starts at the next multiple
    /// of the shortest instruction's 2 bytes, and `.align` pads from the real address. Worked
    /// by hand: halt at 0, the byte at 2 and one zero, halt at 4, so `end` is 6; with
    /// `.align 8` six zeros after the first halt, the byte at 8 and one zero, halt at 10, `end`
    /// 12. (The data once went to the word's 6 bytes, then was cut to 2 when written: `end`
    /// was 8 while the bytes put it at 6.) Every byte is written, and the bytes list back.
    #[test]
    fn padding_is_laid_out_from_the_real_addresses() {
        let words =
            target::assemble_program::<Varlen>("halt\n.byte 1\nhalt\nend:\nmovi r1, end\n", 0).unwrap();
        assert_eq!(words.last(), Some(&0x0006_0162));
        assert_eq!(target::join_stream::<Varlen>(&words), [0x88, 0, 1, 0, 0x88, 0, 0x62, 1, 6, 0]);
        let source = "halt\n.align 8\n.byte 1\nhalt\nend:\nmovi r1, end\n";
        let words = target::assemble_program::<Varlen>(source, 0).unwrap();
        assert_eq!(words.last(), Some(&0x000c_0162));
        let bytes = target::join_stream::<Varlen>(&words);
        assert_eq!(bytes, [0x88, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0x88, 0, 0x62, 1, 12, 0]);
        assert_eq!(target::split_stream::<Varlen>(&bytes), words);
    }
}
