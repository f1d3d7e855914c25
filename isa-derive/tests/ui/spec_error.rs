// Every diagnostic of the spec is a compile error reading `file:line:col: message`.
mod broken {
    isa_derive::target!(concat!(env!("ISA_DERIVE_UI"), "/spec_error.isa"));
}

fn main() {}
