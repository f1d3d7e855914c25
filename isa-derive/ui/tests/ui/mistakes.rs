// Every mistake the two macros report, in one crate: trybuild checks it with one rustc (a
// crate per case cost a rustc each, most of trybuild's time). Each module is one concern;
// `mistakes.stderr` holds the errors in the order rustc reports them.

// Attribute mistakes the derive reports itself.
mod attributes {
    #[derive(isa_derive::Bitfield)]
    struct NoWidth {
        #[bits(3:0)]
        a: u8,
    }

    #[derive(isa_derive::Bitfield)]
    #[bits(width = 8)]
    struct MissingBits {
        #[bits(7:4)]
        a: u8,
        b: u8,
    }

    #[derive(isa_derive::Bitfield)]
    #[bits(width = 8)]
    struct BadType {
        #[bits(7:0)]
        a: char,
    }

    #[derive(isa_derive::Bitfield)]
    #[bits(width = 8)]
    struct BadSetting {
        #[bits(7:0, in = 3)]
        a: u8,
    }

    #[derive(isa_derive::Bitfield)]
    #[bits(width = 8)]
    struct Tuple(u8);
}

// Bits beyond the declared width, a fixed value that does not fit, a range written low to high.
mod outside {
    #[derive(isa_derive::Bitfield)]
    #[bits(width = 16)]
    struct Insn {
        #[bits(17:12)]
        opcode: u8,
        #[bits(11:9, is = 9)]
        class: u8,
        #[bits(0:8)]
        imm: u16,
    }
}

// Two fields on bit 5: the error is on the second field's attribute.
mod overlap {
    #[derive(isa_derive::Bitfield)]
    #[bits(width = 16)]
    struct Insn {
        #[bits(15:12, is = 3)]
        opcode: u8,
        #[bits(7:4)]
        rd: u8,
        #[bits(5:0)]
        imm: u8,
    }
}

// A type that cannot hold its bits, and a bool on two bits.
mod too_narrow {
    #[derive(isa_derive::Bitfield)]
    #[bits(width = 32)]
    struct Insn {
        #[bits(31:20)]
        imm: u8,
        #[bits(19:17)]
        neg: i16,
        #[bits(16:15)]
        flag: bool,
    }
}

// Every diagnostic of the spec is a compile error reading `file:line:col: message`.
mod broken {
    isa_derive::target!(concat!(env!("ISA_DERIVE_UI"), "/spec_error.isa"));
}

// A spec that cannot be read: the error names the path.
mod missing {
    isa_derive::target!(concat!(env!("ISA_DERIVE_UI"), "/no_such_spec.isa"));
}

// A spec that does not parse; and a path that is not a string.
mod bad {
    isa_derive::target!(concat!(env!("ISA_DERIVE_UI"), "/spec_syntax_error.isa"));
}

mod not_a_path {
    isa_derive::target!(42);
}

// A register enum's range variant holds a checked value, not a number: `Reg::R(255)` does not
// compile (RZ is 255 in Maxwell; the toy's R registers are 0 to 7), `RegR::new(n)` checks.
mod registers {
    isa_derive::target!(concat!(env!("ISA_DERIVE_UI"), "/../../../tests/specs/toy.isa"));

    pub fn r255() -> Reg {
        Reg::R(255)
    }
}

fn main() {}
