//! `#[derive(Bitfield)]`: encode and decode of a struct with bit-range attributes, held to the
//! spec it is equivalent to (vc4.isa's `alu_small_imm`, as `isa-generated` compiles it).

use isa_derive::Bitfield;
use isa_generated::vc4;
use isa_runtime::target::Isa;
use isa_runtime::{DecodeError, EncodeError};

/// The QPU's ALU instruction with a small immediate (vc4.isa's `alu_small_imm`), with plain
/// integer fields instead of the spec's enums. Some fields are wider than their bits.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Bitfield)]
#[bits(width = 64)]
struct AluSmallImm {
    #[bits(63:60, is = 13)]
    sig: u8,
    #[bits(59:57)]
    unpack: u8,
    #[bits(56)]
    pm: bool,
    #[bits(55:52)]
    pack: u8,
    #[bits(51:49, default = 0)]
    cond_add: u8,
    #[bits(48:46, default = 0)]
    cond_mul: u8,
    #[bits(45)]
    sf: bool,
    #[bits(44)]
    ws: bool,
    #[bits(43:38, default = 39)]
    waddr_add: u32,
    #[bits(37:32, default = 39)]
    waddr_mul: u8,
    #[bits(31:29)]
    op_mul: u8,
    #[bits(28:24)]
    op_add: u16,
    #[bits(23:18, default = 39)]
    raddr_a: u64,
    #[bits(17:12)]
    small_imm: u8,
    #[bits(11:9)]
    add_a: u8,
    #[bits(8:6)]
    add_b: u8,
    #[bits(5:3)]
    mul_a: u8,
    #[bits(2:0)]
    mul_b: u8,
}

/// The seed's worked word (seed 004): `fmul r1?`... an ALU instruction with small immediate 1.0.
const SEED_WORD: u64 = 0xd140_59e5_2082_0df7;

#[test]
fn decodes_the_seed_word() {
    let insn = AluSmallImm::from_word(SEED_WORD).unwrap();
    assert_eq!(
        insn,
        AluSmallImm {
            sig: 13,
            unpack: 0,
            pm: true,
            pack: 4,
            cond_add: 0,
            cond_mul: 1,
            sf: false,
            ws: true,
            waddr_add: 39,
            waddr_mul: 37,
            op_mul: 1,
            op_add: 0,
            raddr_a: 32,
            small_imm: 32,
            add_a: 6,
            add_b: 7,
            mul_a: 6,
            mul_b: 7,
        }
    );
    assert_eq!(insn.to_word(), Ok(SEED_WORD));
}

/// The spec's description of `alu_small_imm` (field names, pieces), from isa-generated.
fn spec_format() -> &'static isa_runtime::format::Format {
    <vc4::Vc4 as Isa>::formats().iter().find(|f| f.name == "alu_small_imm").expect("vc4 has alu_small_imm")
}

/// Our fields as (spec name, raw value).
fn raw_fields(x: &AluSmallImm) -> Vec<(&'static str, u64)> {
    vec![
        ("sig", x.sig.into()),
        ("unpack", x.unpack.into()),
        ("pm", x.pm.into()),
        ("pack", x.pack.into()),
        ("cond_add", x.cond_add.into()),
        ("cond_mul", x.cond_mul.into()),
        ("sf", x.sf.into()),
        ("ws", x.ws.into()),
        ("waddr_add", x.waddr_add.into()),
        ("waddr_mul", x.waddr_mul.into()),
        ("op_mul", x.op_mul.into()),
        ("op_add", x.op_add.into()),
        ("raddr_a", x.raddr_a),
        ("small_imm", x.small_imm.into()),
        ("add_a", x.add_a.into()),
        ("add_b", x.add_b.into()),
        ("mul_a", x.mul_a.into()),
        ("mul_b", x.mul_b.into()),
    ]
}

/// SplitMix64: reproducible random words without a dependency.
fn words(n: usize) -> impl Iterator<Item = u64> {
    let mut state = 0x1234_5678_9abc_def0u64;
    (0..n).map(move |_| {
        state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    })
}

#[test]
fn same_fields_as_the_spec() {
    let format = spec_format();
    for w in [SEED_WORD].into_iter().chain(words(20_000).map(|w| (w & !(0xf << 60)) | (13 << 60))) {
        let ours = AluSmallImm::from_word(w).unwrap();
        let theirs = format.unpack(w.into());
        for (name, value) in raw_fields(&ours) {
            let i = format.field(name).unwrap_or_else(|| panic!("vc4 alu_small_imm has no `{name}`"));
            assert_eq!(value, theirs[i], "{w:#018x}: field `{name}`");
        }
        // Every bit is some field's: encoding gives the word back, as the spec's packing does.
        assert_eq!(ours.to_word(), Ok(w));
        assert_eq!(format.pack(&theirs), u128::from(w));
    }
}

#[test]
fn same_encode_and_decode_as_the_generated_target() {
    let mut compared = 0;
    for w in words(50_000) {
        let ours = AluSmallImm::from_word(w);
        match vc4::Vc4::decode(w.into()) {
            Ok(vc4::Instruction::AluSmallImm(theirs)) => {
                let ours = ours.unwrap();
                assert_eq!(
                    ours.to_word().map(u128::from),
                    vc4::Vc4::encode(&vc4::Instruction::AluSmallImm(theirs))
                );
                assert_eq!(u64::from(ours.waddr_add), u64::from(theirs.waddr_add));
                assert_eq!(ours.op_add, theirs.op_add.bits() as u16);
                assert_eq!(ours.small_imm as u64, theirs.small_imm.bits());
                compared += 1;
            }
            // The spec's enums leave some values undefined; the plain integers decode them.
            Err(DecodeError::UndefinedValue { format: "alu_small_imm", .. }) => assert!(ours.is_ok()),
            _ => assert_eq!(ours, Err(DecodeError::NoMatch { word: w.into() }), "{w:#018x}"),
        }
    }
    assert!(compared > 1000, "only {compared} words compared");
}

#[test]
fn fixed_bits() {
    assert_eq!(AluSmallImm::BITS, 64);
    assert_eq!(AluSmallImm::FIXED_BITS, 0xd000_0000_0000_0000);
    // Another signal is no match.
    assert_eq!(AluSmallImm::from_word(0x1000_0000_0000_0000), Err(DecodeError::NoMatch { word: 1 << 60 }));
    // A fixed field holding another value is an error.
    let insn = AluSmallImm { sig: 14, ..AluSmallImm::DEFAULT };
    assert_eq!(
        insn.to_word(),
        Err(EncodeError::NotAllowed { format: "AluSmallImm", field: "sig", value: 14 })
    );
}

#[test]
fn defaults() {
    let d = AluSmallImm::DEFAULT;
    assert_eq!((d.sig, d.waddr_add, d.waddr_mul, d.raddr_a, d.small_imm, d.pm), (13, 39, 39, 39, 0, false));
    assert_eq!(d.to_word(), Ok(0xd000_09e7_009c_0000));
}

#[test]
fn out_of_range_is_an_error_not_a_truncation() {
    let insn = AluSmallImm { waddr_add: 64, ..AluSmallImm::DEFAULT };
    assert_eq!(
        insn.to_word(),
        Err(EncodeError::OutOfRange {
            format: "AluSmallImm",
            field: "waddr_add",
            value: 64,
            bits: 6,
            signed: false
        })
    );
    let insn = AluSmallImm { raddr_a: u64::MAX, ..AluSmallImm::DEFAULT };
    assert!(matches!(insn.to_word(), Err(EncodeError::OutOfRange { field: "raddr_a", .. })));
    let insn = AluSmallImm { mul_b: 8, ..AluSmallImm::DEFAULT };
    assert!(matches!(insn.to_word(), Err(EncodeError::OutOfRange { field: "mul_b", bits: 3, .. })));
    let insn = AluSmallImm { waddr_add: 63, mul_b: 7, ..AluSmallImm::DEFAULT };
    assert_eq!(insn.to_word(), Ok(0xd000_0fe7_009c_0007));
}

/// Signed fields, concatenations, `+:`, bits nobody owns, a word narrower than its type, and
/// field names the spec language reserves.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Bitfield)]
#[bits(width = 24)]
struct Odd {
    /// 12-bit two's complement in an i16.
    #[bits(23:12)]
    imm: i16,
    /// Exactly the width of its type.
    #[bits(11 +: 1, default = true)]
    flag: bool,
    /// Bits 10:9 then 3:1: five bits, most significant piece first.
    #[bits(10:9, 3:1)]
    split: u8,
    /// A spec keyword as a field name.
    #[bits(8:5, default = -3)]
    default: i8,
    /// And a Rust one.
    #[bits(0)]
    r#type: bool,
}

#[test]
fn signed_split_and_renamed_fields() {
    assert_eq!(Odd::BITS, 24);
    let x = Odd::from_word(0xfff_000).unwrap();
    assert_eq!(x, Odd { imm: -1, flag: false, split: 0, default: 0, r#type: false });
    let x = Odd { imm: -2048, flag: true, split: 0b10_111, default: -8, r#type: true };
    let w: u32 = x.to_word().unwrap();
    assert_eq!(w, 0x800_000 | 1 << 11 | 0b10 << 9 | 0b111 << 1 | 0b1000 << 5 | 1);
    assert_eq!(Odd::from_word(w), Ok(x));
    // Bits 4 and above 23 belong to no field: ignored.
    assert_eq!(Odd::from_word(w | 1 << 4 | 0xff00_0000), Ok(x));
    assert_eq!(Odd::DEFAULT, Odd { imm: 0, flag: true, split: 0, default: -3, r#type: false });
    for imm in [2048, -2049, i16::MAX, i16::MIN] {
        let e = Odd { imm, ..Odd::DEFAULT }.to_word().unwrap_err();
        assert_eq!(
            e,
            EncodeError::OutOfRange {
                format: "Odd",
                field: "imm",
                value: imm.into(),
                bits: 12,
                signed: true
            }
        );
    }
    let e = Odd { default: 8, ..Odd::DEFAULT }.to_word().unwrap_err();
    assert!(matches!(e, EncodeError::OutOfRange { field: "default", bits: 4, signed: true, .. }));
    let e = Odd { split: 32, ..Odd::DEFAULT }.to_word().unwrap_err();
    assert!(matches!(e, EncodeError::OutOfRange { field: "split", bits: 5, signed: false, .. }));
    // Every 24-bit word with bit 4 clear round-trips.
    for w in (0..1u32 << 24).step_by(97).map(|w| w & !(1 << 4)) {
        assert_eq!(Odd::from_word(w).unwrap().to_word(), Ok(w));
    }
}

/// A type exactly as wide as its bits needs no range check, and wraps nothing.
#[derive(Debug, PartialEq, Eq, Bitfield)]
#[bits(width = 16)]
struct Exact {
    #[bits(15:8)]
    hi: i8,
    #[bits(7:0)]
    lo: u8,
}

#[test]
fn exact_widths() {
    assert_eq!(Exact::from_word(0x80ff), Ok(Exact { hi: -128, lo: 255 }));
    assert_eq!(Exact { hi: -1, lo: 0 }.to_word(), Ok(0xff00));
    assert_eq!(Exact::FIXED_BITS, 0u16);
}
