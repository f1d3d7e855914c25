// A spec that cannot be read: the error names the path.
mod missing {
    isa_derive::target!(concat!(env!("ISA_DERIVE_UI"), "/no_such_spec.isa"));
}

fn main() {}
