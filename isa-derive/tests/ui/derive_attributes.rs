// Attribute mistakes the derive reports itself.
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

fn main() {}
