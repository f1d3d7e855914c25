//! Scheduling control words: the slot's typed struct and description, the `SCHEDULE` the
//! runtime groups programs with, and typed whole-program decode and encode.

use super::model::{hex, lit, Model};
use super::names::{camel, upper};
use super::{formats, tables};
use proc_macro2::TokenStream;
use quote::{format_ident, quote};

/// Rust for the target's schedule (nothing when it has none).
pub fn generate(m: &Model) -> TokenStream {
    let Some(s) = &m.t.schedule else { return TokenStream::new() };
    let slot = format_ident!("{}", camel(&s.slot.name));
    let def = formats::format_def(m, slot.clone(), &s.slot);
    let statics = tables::format_statics(m, &s.slot);
    let format_id = format_ident!("{}_FORMAT", upper(&s.slot.name));
    let (slots, width) = (lit(s.slots as u128), lit(s.slot.width as u128));
    let pad = hex(s.pad);
    let default_slot = hex(u128::from(crate::placement::default_slot(s)));
    let word_ty = &m.word_ty;
    let target = format_ident!("{}", camel(&m.t.name));
    // Slot bits are a `u64`; a narrower word type needs a cast.
    let raw = if word_ty.to_string() == "u64" { quote!(raw) } else { quote!(raw as #word_ty) };
    let doc = format!(
        " Programs are groups of one control word and {} instructions; slot i of the control word (bits {}i..{}i+{}) is a `{}` scheduling instruction i.",
        s.slots, s.slot.width, s.slot.width, s.slot.width - 1, slot
    );
    quote! {
        #def
        #statics

        #[doc = #doc]
        pub static SCHEDULE: isa_runtime::schedule::Schedule = isa_runtime::schedule::Schedule {
            slot: &#format_id,
            slots: #slots,
            slot_bits: #width,
            pad: #pad,
            default_slot: #default_slot,
            check: |raw| #slot::from_word(#raw).map(|_| ()),
        };

        /// Decodes a whole program (control words and instructions): each instruction with its
        /// scheduling slot. Errors carry the index of the word.
        #[allow(clippy::unnecessary_cast)]
        pub fn decode_program(words: &[#word_ty]) -> Result<Vec<(#slot, Instruction)>, (usize, isa_runtime::DecodeError)> {
            let words: Vec<u128> = words.iter().map(|w| u128::from(*w)).collect();
            isa_runtime::schedule::decode_program::<#target>(&words)?
                .into_iter()
                .map(|s| #slot::from_word(s.slot as #word_ty).map(|slot| (slot, s.insn)).map_err(|e| (s.word, e)))
                .collect()
        }

        /// Encodes a whole program: a control word before every group, the last group padded.
        #[allow(clippy::unnecessary_cast, clippy::clone_on_copy)]
        pub fn encode_program(program: &[(#slot, Instruction)]) -> Result<Vec<#word_ty>, isa_runtime::EncodeError> {
            let mut raw = Vec::with_capacity(program.len());
            for (slot, insn) in program {
                raw.push((slot.to_word()? as u64, insn.clone()));
            }
            let words = isa_runtime::schedule::encode_program::<#target>(&raw)?;
            Ok(words.into_iter().map(|w| w as #word_ty).collect())
        }
    }
}
