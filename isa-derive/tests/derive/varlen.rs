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
