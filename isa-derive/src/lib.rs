//! Proc macros of isa: the two front doors of a downstream crate.
//!
//! Both end in the same pipeline as the `isa` command and the `isa-generated` crate: the text is
//! parsed and checked by `isa-compiler` into its IR, and Rust is rendered by its Rust backend.
//!
//! - [`target!`]: a whole target (types, decoder, encoder, assembler, disassembler, validators,
//!   interpreter) from a `.isa` file of the invoking crate;
//! - [`Bitfield`]: encode and decode for a struct of the invoking crate, from bit-range
//!   attributes on its fields.
//!
//! The code both produce names `isa_runtime::...`, so the invoking crate depends on
//! `isa-runtime` (under that name) as well as on `isa-derive`:
//!
//! ```toml
//! [dependencies]
//! isa-derive = { path = "../isa-derive" }
//! isa-runtime = { path = "../isa-runtime" }
//! ```

use proc_macro::TokenStream;

mod bitfield;
mod target;

/// Generates a target from a spec file, in place: one invocation per module.
///
/// ```
/// /// The 16-bit toy machine of this crate's tests.
/// pub mod toy {
///     isa_derive::target!("tests/specs/toy.isa");
/// }
///
/// let insn = toy::Instruction::decode(0x41fe).unwrap();
/// let r1 = toy::Reg::R(toy::RegR::new(1).unwrap());
/// assert_eq!(insn, toy::Instruction::Li(toy::Li { rd: r1, imm: -2 }));
/// assert_eq!(toy::disassemble(0x41fe, toy::Dialect::default()).unwrap(), "li r1, -2");
/// assert_eq!(toy::assemble("sub r3, r4", toy::Dialect::default()).unwrap()[0].encode(), Ok(0x0b80));
/// ```
///
/// - **The path** is a string literal, relative to the directory of the invoking crate's
///   `Cargo.toml` (`CARGO_MANIFEST_DIR`), or absolute. `concat!` of string literals and
///   `env!("VAR")` also works, for specs written by a build script:
///   `target!(concat!(env!("OUT_DIR"), "/gen.isa"))`.
/// - **The expansion** is what `isa-generated`'s build script writes for a spec (`use`
///   declarations, the enums, one struct per format, the `Instruction` enum, the unit struct
///   implementing `isa_runtime::target::Isa`, ...), as items of the enclosing module. Give each
///   target a module of its own: two in one module clash. The items are exempt from unused and
///   style lints (`#[allow(unused, missing_docs, ..., clippy::all)]`).
/// - **Rebuilds**: the expansion includes the spec with `include_bytes!`, so cargo rebuilds the
///   crate when the spec changes.
/// - **Errors**: every diagnostic of the spec becomes a `compile_error!` at the path, reading
///   `path:line:col: message (label)`, with `path` as written in the invocation. A spec that
///   cannot be read is one error naming the path and the reason.
#[proc_macro]
pub fn target(input: TokenStream) -> TokenStream {
    target::expand(input.into()).into()
}

/// Encode and decode for a struct with bit-range attributes.
///
/// ```
/// #[derive(Debug, Clone, Copy, PartialEq, Eq, isa_derive::Bitfield)]
/// #[bits(width = 32)]
/// pub struct Addi {
///     #[bits(31:26, is = 0x08)]
///     pub opcode: u8,
///     #[bits(25:21)]
///     pub rs: u8,
///     #[bits(20:16, default = 0)]
///     pub rt: u32,
///     #[bits(15:0)]
///     pub imm: i16,
/// }
///
/// let insn = Addi::from_word(0x2003_fffe).unwrap();
/// assert_eq!(insn, Addi { opcode: 8, rs: 0, rt: 3, imm: -2 });
/// assert_eq!(insn.to_word(), Ok(0x2003_fffe));
/// assert!(Addi { rt: 32, ..insn }.to_word().is_err());
/// ```
///
/// **Attributes.** The struct says its width, `#[bits(width = N)]` (1 to 128); words are the
/// smallest unsigned integer holding it (`u32` for 32, `u16` for 12). Every field says where its
/// bits are, as a spec does after `@`:
///
/// | attribute | bits |
/// |---|---|
/// | `#[bits(63:60)]` | 63 down to 60 |
/// | `#[bits(14)]` | one bit |
/// | `#[bits(32 +: 8)]` | 8 bits from bit 32 |
/// | `#[bits(45:44, 14:10)]` | a concatenation, most significant piece first |
///
/// then optionally `is = V` (fixed bits: an opcode) and `default = V` (the value of `DEFAULT`).
/// Field types are `bool` (one bit), `u8`..`u64` and `i8`..`i64` (two's complement, sign-extended
/// when decoding). A type may be wider than its bits (`waddr: u32` on six bits): encoding then
/// checks the range.
///
/// **Generated**, in `impl Struct`:
///
/// - `const BITS: u32`, `const FIXED_BITS: Word` (the `is` bits), `const DEFAULT: Self`;
/// - `fn from_word(word: Word) -> Result<Self, isa_runtime::DecodeError>`: a word whose fixed bits
///   differ is `DecodeError::NoMatch`; bits no field owns are ignored;
/// - `fn to_word(&self) -> Result<Word, isa_runtime::EncodeError>`: a value that does not fit its
///   bits is `EncodeError::OutOfRange`, never truncated; an `is` field holding another value is
///   `EncodeError::NotAllowed`; bits no field owns are 0.
///
/// **How.** The attributes are written out as the equivalent spec, a target with one format:
///
/// ```text
/// format Addi : 32 {
///     opcode: u6 @ 31:26 is 8,
///     rs: u5 @ 25:21,
///     rt: u5 @ 20:16 default 0,
///     imm: s16 @ 15:0,
///     ...
/// }
/// ```
///
/// which the spec compiler parses and checks, and whose checked format the Rust backend renders
/// for this struct (`isa_compiler::backend::rust::derive`). So encode and decode are those of the
/// spec, and the checker's diagnostics (overlapping fields, bits outside the width, a value
/// that does not fit, a range written low to high, ...) are compile errors on the attribute they
/// are about. A type too narrow for its bits (`u8` on 12 bits), a field without `#[bits]` and an
/// unsupported type are reported by the derive itself.
#[proc_macro_derive(Bitfield, attributes(bits))]
pub fn bitfield(input: TokenStream) -> TokenStream {
    match syn::parse::<syn::DeriveInput>(input) {
        Ok(input) => bitfield::expand(input).into(),
        Err(e) => e.to_compile_error().into(),
    }
}
