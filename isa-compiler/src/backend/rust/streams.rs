//! Words that travel beside the instructions, as runtime statics: the target's one
//! `isa_runtime::bundle::Streams` (`Isa::streams`), a mirror of the IR's: its streams (an
//! interleaved stream's control words the `SCHEDULE` static, with its slot's typed struct and
//! typed whole-program decode and encode) and the bundle that fills them, if any.

use super::model::{hex, lit, tokens, Model};
use super::names::{camel, upper};
use super::{formats, tables};
use crate::ir;
use proc_macro2::TokenStream;
use quote::{format_ident, quote};

/// Rust items for the target's interleaved stream (nothing when it has none).
pub fn generate(m: &Model) -> TokenStream {
    let Some(s) = m.t.interleaved() else { return TokenStream::new() };
    let slot = format_ident!("{}", camel(&s.slot.name));
    let def = tokens(&formats::format_def(m, &slot.to_string(), &s.slot));
    let statics = tokens(&tables::format_statics(m, &s.slot));
    let format_id = format_ident!("{}_FORMAT", upper(&s.slot.name));
    let (slots, width) = (lit(s.every as u128), lit(s.slot.width as u128));
    let pad = hex(s.pad);
    let default_slot = hex(u128::from(crate::placement::default_slot(s)));
    let word_ty = &m.word_ty;
    let target = format_ident!("{}", camel(&m.t.name));
    // Slot bits are a `u64`; a narrower word type needs a cast.
    let raw = if word_ty.to_string() == "u64" { quote!(raw) } else { quote!(raw as #word_ty) };
    let doc = format!(
        " Programs are groups of one control word and {} instructions; slot i of the control word (bits {}i..{}i+{}) is a `{}` scheduling instruction i.",
        s.every, s.slot.width, s.slot.width, s.slot.width - 1, slot
    );
    let marks = s.marks.iter().map(|mk| {
        let flags = mk.flags.iter().map(|f| *f as u16);
        let (texts, operands, formats) = (&mk.texts, &mk.operands, &mk.formats);
        let mnemonic = mk.operands.is_empty();
        let when = mk.when.iter().map(|(f, vs)| quote!((#f, &[#(#vs),*])));
        quote!(isa_runtime::bundle::SlotMark {
            flags: &[#(#flags),*],
            texts: &[#(#texts),*],
            operands: &[#(#operands),*],
            mnemonic: #mnemonic,
            formats: &[#(#formats),*],
            when: &[#(#when),*],
        })
    });
    let pair = s.pair.iter().map(|(f, v)| {
        let (f, v) = (*f as u16, *v);
        quote!((#f, #v))
    });
    let raw_control = s.raw_control.as_deref().unwrap_or("");
    quote! {
        #def
        #statics

        #[doc = #doc]
        pub static SCHEDULE: isa_runtime::bundle::Schedule = isa_runtime::bundle::Schedule {
            slot: &#format_id,
            slots: #slots,
            slot_bits: #width,
            pad: #pad,
            default_slot: #default_slot,
            check: |raw| #slot::from_word(#raw).map(|_| ()),
            marks: &[#(#marks),*],
            pair: &[#(#pair),*],
            raw_control: #raw_control,
        };

        /// Decodes a whole program (control words and instructions): each instruction with its
        /// scheduling slot. Errors carry the index of the word.
        #[allow(clippy::unnecessary_cast)]
        pub fn decode_program(words: &[#word_ty]) -> Result<Vec<(#slot, Instruction)>, (usize, isa_runtime::DecodeError)> {
            let words: Vec<u128> = words.iter().map(|w| u128::from(*w)).collect();
            isa_runtime::bundle::decode_program::<#target>(&words)?
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
            let words = isa_runtime::bundle::encode_program::<#target>(&raw)?;
            Ok(words.into_iter().map(|w| w as #word_ty).collect())
        }
    }
}

/// The `Isa` method describing the target's streams, `fn streams()`, as the IR's `Streams`:
/// the streams (an interleaved one's control words its `Computed::Slots`, the `SCHEDULE`
/// static) and the bundle that fills them (nothing for a target without streams).
pub fn isa_methods(t: &ir::Target) -> TokenStream {
    let Some(st) = &t.streams else { return quote!() };
    let low_first = t.parts_low_first;
    let streams = st.streams.iter().map(|s| {
        let name = &s.name;
        let bits = s.bits;
        let formats = s.formats.iter().map(|f| f.0);
        let reset = lit(s.reset);
        let computed = match &s.computed {
            Some(ir::Computed::Counts { format, fields }) => {
                let format = format.0;
                let fields = fields.iter().map(|c| {
                    let (field, unit) = (&c.field, c.unit);
                    let measure = match c.measure {
                        isa_runtime_base::Measure::Count => quote!(Count),
                        isa_runtime_base::Measure::First => quote!(First),
                    };
                    quote!(isa_runtime::bundle::Count {
                        field: #field,
                        measure: isa_runtime::bundle::Measure::#measure,
                        unit: #unit,
                    })
                });
                quote!(Some(isa_runtime::bundle::Computed::Counts(#format, &[#(#fields),*])))
            }
            Some(ir::Computed::Slots(_)) => quote!(Some(isa_runtime::bundle::Computed::Slots(&SCHEDULE))),
            None => quote!(None),
        };
        quote!(isa_runtime::bundle::Stream {
            name: #name,
            bits: #bits,
            formats: &[#(#formats),*],
            reset: #reset,
            computed: #computed,
            low_first: #low_first,
        })
    });
    let n = st.streams.len();
    let stream_list = quote! {
        static STREAM_LIST: [isa_runtime::bundle::Stream; #n] = [#(#streams),*];
    };
    let Some(b) = &st.bundle else {
        return quote! {
            fn streams() -> Option<&'static isa_runtime::bundle::Streams> {
                #stream_list
                static STREAMS: isa_runtime::bundle::Streams =
                    isa_runtime::bundle::Streams { streams: &STREAM_LIST, bundle: None };
                Some(&STREAMS)
            }
        };
    };
    let units = b.units.iter().map(|u| {
        let label = &u.label;
        let stream = u.stream;
        let max = match u.max {
            Some(m) => quote!(Some(#m)),
            None => quote!(None),
        };
        let total = match u.total {
            Some(m) => quote!(Some(#m)),
            None => quote!(None),
        };
        let slots = &u.slots;
        let alternatives = u.alternatives.iter().map(|(slot, f)| {
            let f = f.0;
            quote!((#slot, #f))
        });
        quote!(isa_runtime::bundle::Unit {
            label: #label,
            stream: #stream,
            max: #max,
            total: #total,
            slots: &[#(#slots),*],
            alternatives: &[#(#alternatives),*],
        })
    });
    let keyword = &b.keyword;
    let header = b.header.iter().map(|(name, max)| {
        let max = match max {
            Some(m) => quote!(Some(#m)),
            None => quote!(None),
        };
        quote!(isa_runtime::bundle::Header { name: #name, max: #max })
    });
    let max = match b.max {
        Some(m) => quote!(Some(#m)),
        None => quote!(None),
    };
    quote! {
        fn streams() -> Option<&'static isa_runtime::bundle::Streams> {
            #stream_list
            static BUNDLES: isa_runtime::bundle::Bundles = isa_runtime::bundle::Bundles {
                keyword: #keyword,
                streams: &STREAM_LIST,
                units: &[#(#units),*],
                header: &[#(#header),*],
                max: #max,
            };
            static STREAMS: isa_runtime::bundle::Streams =
                isa_runtime::bundle::Streams { streams: &STREAM_LIST, bundle: Some(&BUNDLES) };
            Some(&STREAMS)
        }
    }
}
