// A spec that does not parse; and a path that is not a string.
mod bad {
    isa_derive::target!(concat!(env!("ISA_DERIVE_UI"), "/spec_syntax_error.isa"));
}

mod not_a_path {
    isa_derive::target!(42);
}

fn main() {}
