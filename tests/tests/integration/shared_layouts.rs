//! A decoder whose encodings share one layout leaf (`data/specs/shared_layouts.isa`: 20
//! operations whose fields read alike, two loads beside them): every word decodes to the
//! encoding its opcode names, with the fields at the bits the spec gives them, and encodes back
//! to itself; the loads keep their own leaves and their undefined value.

mod shared {
    isa_derive::target!("data/specs/shared_layouts.isa");
}

use isa_runtime::DecodeError;
use shared::{Instruction, Reg, RegR, Width};

/// SplitMix64, for reproducible random words.
fn next(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Register `n` of the spec's `r(0..=31)`.
fn r(n: u32) -> Reg {
    Reg::R(RegR::new(n as u8).unwrap_or_else(|| panic!("r{n} is a register")))
}

/// The fields the spec places: rd at 21:17, rs at 16:12, imm (signed) at 11:0.
fn operands(word: u32) -> (Reg, Reg, i16) {
    let imm = ((word & 0xfff) as i16) << 4 >> 4;
    (r((word >> 17) & 0x1f), r((word >> 12) & 0x1f), imm)
}

#[test]
fn every_operation_decodes_to_its_own_encoding_with_its_fields() {
    let mut state = 0x5EED_0011;
    for opcode in 0..20u32 {
        for _ in 0..200 {
            let word = (opcode << 22) | (next(&mut state) as u32 & 0x3f_ffff);
            let insn = Instruction::decode(word).unwrap_or_else(|e| panic!("{word:#010x}: {e}"));
            assert_eq!(insn.name(), format!("op{opcode}"), "{word:#010x}");
            assert_eq!(insn.format_index(), opcode as usize, "{word:#010x}");
            assert_eq!(insn.encode(), Ok(word), "{word:#010x}");
            let (rd, rs, imm) = operands(word);
            // Three of the variants by name: the shared leaf's fields reach each of them.
            match insn {
                Instruction::Op0(x) => assert_eq!((x.rd, x.rs, x.imm), (rd, rs, imm)),
                Instruction::Op7(x) => assert_eq!((x.rd, x.rs, x.imm), (rd, rs, imm)),
                Instruction::Op19(x) => assert_eq!((x.rd, x.rs, x.imm), (rd, rs, imm)),
                _ => {}
            }
        }
    }
    // op0 r3, r31, -2048; op19 r0, r1, 2047
    assert_eq!(
        Instruction::decode(0x0007_f800),
        Ok(Instruction::Op0(shared::Op0 { rd: r(3), rs: r(31), imm: -2048 }))
    );
    assert_eq!(
        Instruction::decode((19 << 22) | 0x0000_17ff),
        Ok(Instruction::Op19(shared::Op19 { rd: r(0), rs: r(1), imm: 2047 }))
    );
}

#[test]
fn loads_keep_their_leaves_and_their_undefined_width() {
    // ld.w r5, [r6 + 9]: opcode 512, rd 5, rs 6, width 2, offset 9.
    let word = (512 << 22) | (5 << 17) | (6 << 12) | (2 << 10) | 9;
    assert_eq!(
        Instruction::decode(word),
        Ok(Instruction::Ld(shared::Ld { rd: r(5), rs: r(6), width: Width::W, offset: 9 }))
    );
    // Width 3 is undefined.
    let bad = (513 << 22) | (3 << 10);
    assert_eq!(
        Instruction::decode(bad),
        Err(DecodeError::UndefinedValue { format: "ldu", field: "width", value: 3, word: u128::from(bad) })
    );
    // Opcodes between the operations and the loads are no encoding.
    assert_eq!(Instruction::decode(20 << 22), Err(DecodeError::NoMatch { word: 20 << 22 }));
}
