// A type that cannot hold its bits, and a bool on two bits.
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

fn main() {}
