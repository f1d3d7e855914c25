//! Issue 8's two placement bugs, compiled: the generated code of each reproducer is built here
//! through `target!` and its encodings are checked bit by bit.

use isa_runtime::{DecodeError, EncodeError};

/// A descending array in a format and in a layout (tests/specs/descending.isa).
mod neg {
    isa_derive::target!("tests/specs/descending.isa");
}

/// A layout-typed format field whose layout is named like the target (tests/specs/clash.isa).
mod clash {
    isa_derive::target!("tests/specs/clash.isa");
}

/// Layout-typed format fields without a clash: one piece, two pieces, an array.
mod layout_field {
    isa_derive::target!("tests/specs/layout_field.isa");
}

#[test]
fn a_descending_array_puts_element_i_at_bits_8_minus_2i_to_7_minus_2i() {
    use neg::F;
    // op = 1 at 31:24; element i at bits (8 - 2i):(7 - 2i).
    assert_eq!(F { x: [3, 0, 0, 0] }.to_word(), Ok(0x0100_0180));
    assert_eq!(F { x: [0, 3, 0, 0] }.to_word(), Ok(0x0100_0060));
    assert_eq!(F { x: [0, 0, 3, 0] }.to_word(), Ok(0x0100_0018));
    assert_eq!(F { x: [0, 0, 0, 3] }.to_word(), Ok(0x0100_0006));
    assert_eq!(F { x: [1, 2, 3, 0] }.to_word(), Ok(0x0100_00d8));
    assert_eq!(F::from_word(0x0100_00d8), Ok(F { x: [1, 2, 3, 0] }));
    // Bit 0 and bits 23:9 belong to no field.
    assert_eq!(F::from_word(0x01ff_fed9), Ok(F { x: [1, 2, 3, 0] }));
    assert!(matches!(F { x: [0, 4, 0, 0] }.to_word(), Err(EncodeError::OutOfRange { field: "x", .. })));
}

#[test]
fn a_descending_array_decodes_prints_and_assembles() {
    assert_eq!(neg::Instruction::decode(0x0100_0186), Ok(neg::Instruction::F(neg::F { x: [3, 0, 0, 3] })));
    assert_eq!(neg::disassemble(0x0100_0180, neg::Dialect::default()).as_deref(), Ok("f 3"));
    let program = neg::assemble("f 2", neg::Dialect::default()).unwrap();
    assert_eq!(program[0].encode(), Ok(0x0100_0100));
}

#[test]
fn a_descending_array_of_layouts_reads_and_writes_each_element() {
    use neg::{Desc, Pair};
    // p[0] at 15:12 = 0xa, p[1] at 11:8 = 0x5, p[2] at 7:4 = 0xc; bits 3:0 reserved.
    let mut d = Desc::from_words([0xa5c0]).unwrap();
    let pairs: Vec<(u8, u8)> = (0..3).map(|i| d.p(i).map(|p| (p.hi(), p.lo())).unwrap()).collect();
    assert_eq!(pairs, [(2, 2), (1, 1), (3, 0)]);
    assert_eq!(d.p(3), None);
    d.set_p(2, Pair::from_words([0x9]).unwrap()).unwrap();
    assert_eq!(d.to_words(), [0xa590]);
    d.set_p(0, Pair::from_words([0x3]).unwrap()).unwrap();
    assert_eq!(d.to_words(), [0x3590]);
}

#[test]
fn a_layout_named_like_the_target_is_renamed_everywhere() {
    use clash::{FooLayout, Instruction, F};
    // `Foo` is the target's unit struct; the layout's view is `FooLayout` in the format too.
    assert_eq!(<clash::Foo as isa_runtime::target::Isa>::NAME, "foo");
    let f = F { body: FooLayout::from_words([0x5a]).unwrap() };
    assert_eq!(f.to_word(), Ok(0x0100_005a));
    let back = F::from_word(0x0100_00a5).unwrap();
    assert_eq!(back.body.a(), 0xa5);
    assert_eq!(Instruction::decode(0x0100_00a5), Ok(Instruction::F(back)));
    assert_eq!(clash::disassemble(0x0100_00a5, clash::Dialect::default()).as_deref(), Ok("f"));
}

#[test]
fn layout_typed_format_fields_encode_and_decode_at_their_bits() {
    use layout_field::{Bar, Mode, Nib, F};
    let nib = |mode: Mode, n: u8| {
        let mut x = Nib::default();
        x.set_mode(mode).unwrap();
        x.set_n(n).unwrap();
        x
    };
    let f = F {
        body: Bar::from_words([0x5a]).unwrap(),
        // mode at 27:26, n at 11:8.
        split: nib(Mode::On, 7),
        // nibs[0] at 23:18, nibs[1] at 17:12.
        nibs: [nib(Mode::Auto, 3), nib(Mode::Off, 0xf)],
    };
    assert_eq!(f.to_word(), Ok(0x148c_f75a));
    assert_eq!(F::from_word(0x148c_f75a), Ok(f));
    assert_eq!(f.split.mode(), Mode::On);
    assert_eq!(f.nibs[1].n(), 0xf);
    // Mode 3 is no mode: in `split` (bits 27:26) and in `nibs[1]` (bits 17:16).
    assert!(matches!(F::from_word(0x1c00_0000), Err(DecodeError::UndefinedValue { .. })));
    assert!(matches!(F::from_word(0x1003_0000), Err(DecodeError::UndefinedValue { .. })));
    assert_eq!(
        F::from_word(0x1000_0000),
        Ok(F { body: Bar::default(), split: Nib::default(), nibs: [Nib::default(); 2] })
    );
}
