//! The [`FormatIndex`]: a dialect's formats by the texts their syntaxes can start with, so a
//! statement is parsed only by formats that can read it; built once per process with `std`.

use super::disasm::dialect_of;
use super::isa::Isa;
use crate::syntax;
use alloc::collections::BTreeMap;
use alloc::sync::Arc;
use alloc::vec::Vec;

/// The encodings of one dialect by the texts their syntaxes can start with
/// ([`syntax::Syntax::leads`]), built once per program (once per process with the `std`
/// feature, [`format_index`]): a line is parsed only by the formats
/// whose syntax can start it, in the order of [`Isa::formats`]. Where many formats share a
/// lead (a guard such as `@P0 ` before any instruction), they are narrowed by a word each of
/// them needs somewhere in the text ([`syntax::Syntax::required_word`]).
pub struct FormatIndex {
    /// Each format's leads.
    leads: ByFirstByte,
    /// Formats whose syntax may start with anything, with a bit per format.
    any: Vec<u64>,
    /// Each format's required word, if it has one.
    words: ByFirstByte,
    /// The formats with a required word, a bit each.
    worded: Vec<u64>,
    /// Each format's [`syntax::Syntax::text_bytes`] (every byte for a format without a syntax
    /// in the dialect) and [`syntax::Syntax::comma_follows`].
    bytes: Vec<(syntax::Bytes, bool, Option<syntax::Bytes>)>,
    pub(super) ignore_case: bool,
}

/// How many formats may share a lead before their required words are looked for too.
const SHARED_LEAD: u32 = 4;

/// Texts with the formats each belongs to, by first byte. Formats that share a text (and what
/// may follow it) share an entry: many formats of a target start alike (a guard such as `@P0`
/// before any instruction, one mnemonic for the register, constant and immediate forms), and
/// the text is compared once for all of them.
struct ByFirstByte {
    /// The entries, by first byte.
    entries: Vec<LeadEntry>,
    /// The formats of each entry.
    formats: Vec<u32>,
    /// Where each first byte's run of `entries` starts (and byte 255's ends).
    starts: Vec<u32>,
    /// The formats of each entry of more than [`FEW`] as a set, `words` bits of 64 each: a
    /// lead most formats have (Maxwell's guard `@`) is set in a few words, not a bit a format.
    masks: Vec<u64>,
    words: usize,
}

/// The formats an entry of [`ByFirstByte`] may have for its bits to be set one by one.
const FEW: u32 = 4;

/// An entry of [`ByFirstByte`]: (first byte, lowercased when case is ignored; text; the bytes
/// that may come right after it in the text a format reads, if not any; its formats as a range
/// of [`ByFirstByte::formats`]).
type LeadEntry = (u8, &'static str, Option<syntax::Bytes>, (u32, u32));

impl ByFirstByte {
    fn new(mut given: Vec<(u8, &'static str, u32, Option<syntax::Bytes>)>) -> Self {
        given.sort_by(|a, b| (a.0, a.1, a.3).cmp(&(b.0, b.1, b.3)).then(a.2.cmp(&b.2)));
        let mut entries: Vec<LeadEntry> = Vec::new();
        let mut formats = Vec::with_capacity(given.len());
        for (b, t, i, follows) in given {
            let k = formats.len() as u32;
            match entries.last_mut() {
                Some(e) if e.0 == b && e.1 == t && e.2 == follows => e.3 .1 = k + 1,
                _ => entries.push((b, t, follows, (k, k + 1))),
            }
            formats.push(i);
        }
        let mut starts = Vec::with_capacity(257);
        let mut k = 0;
        for b in 0..=256usize {
            while k < entries.len() && usize::from(entries[k].0) < b {
                k += 1;
            }
            starts.push(k as u32);
        }
        let words = formats.iter().max().map_or(0, |&i| i as usize / 64 + 1);
        let mut masks = alloc::vec![0u64; entries.len() * words];
        for (e, mask) in entries.iter().zip(masks.chunks_mut(words.max(1))) {
            for &i in &formats[e.3 .0 as usize..e.3 .1 as usize] {
                mask[i as usize / 64] |= 1 << (i % 64);
            }
        }
        ByFirstByte { entries, formats, starts, masks, words }
    }

    /// Sets in `out` the bit of each format with a text that `text` starts with.
    fn mark(&self, text: &[u8], ignore_case: bool, out: &mut [u64]) {
        let Some(&b) = text.first() else { return };
        let b = usize::from(if ignore_case { b.to_ascii_lowercase() } else { b });
        let first = self.starts[b] as usize;
        let run = &self.entries[first..self.starts[b + 1] as usize];
        for (k, (_, t, follows, (from, to))) in run.iter().enumerate() {
            let t = t.as_bytes();
            // Byte for byte (the texts are short: a call to `memcmp` cost more than the compare).
            let starts = text.len() >= t.len()
                && t.iter().zip(text).all(|(a, b)| a == b || (ignore_case && a.eq_ignore_ascii_case(b)));
            let follows = || match (follows, text.get(t.len())) {
                (Some(set), Some(&b)) => syntax::has_byte(set, b),
                _ => true,
            };
            if !(starts && follows()) {
                continue;
            }
            if to - from <= FEW {
                for &i in &self.formats[*from as usize..*to as usize] {
                    out[i as usize / 64] |= 1 << (i % 64);
                }
            } else {
                let at = (first + k) * self.words;
                out.iter_mut().zip(&self.masks[at..at + self.words]).for_each(|(o, m)| *o |= m);
            }
        }
    }
}

impl FormatIndex {
    /// The index of dialect number `dialect` of `T`.
    pub fn new<T: Isa>(dialect: usize) -> Self {
        let ignore_case = dialect_of::<T>(dialect).ignore_case;
        let formats = T::formats();
        let bits = alloc::vec![0u64; formats.len().div_ceil(64)];
        let (mut any, mut worded) = (bits.clone(), bits);
        let (mut leads, mut words) = (Vec::new(), Vec::new());
        let mut bytes = alloc::vec![([u64::MAX; 4], false, None); formats.len()];
        let first =
            |t: &str| if ignore_case { t.as_bytes()[0].to_ascii_lowercase() } else { t.as_bytes()[0] };
        for (i, f) in formats.iter().enumerate() {
            let Some(syntax) = f.syntax.get(dialect) else { continue };
            let (set, expressions) = syntax.text_bytes(ignore_case);
            bytes[i] = (set, expressions, syntax.comma_follows(ignore_case));
            match syntax.leads() {
                Some(texts) => {
                    // What may follow each lead, at every place the syntax has it.
                    let mut follows: BTreeMap<&str, syntax::Bytes> = BTreeMap::new();
                    for (lead, f) in syntax.lead_follows(ignore_case).into_iter().flatten() {
                        let set = follows.entry(lead).or_insert([0; 4]);
                        set.iter_mut().zip(f).for_each(|(a, b)| *a |= b);
                    }
                    let follow = |t: &str| follows.get(t).copied();
                    leads.extend(texts.into_iter().map(|t| (first(t), t, i as u32, follow(t))))
                }
                None => any[i / 64] |= 1 << (i % 64),
            }
            if let Some(word) = syntax.required_word() {
                words.push((first(word), word, i as u32, None));
                worded[i / 64] |= 1 << (i % 64);
            }
        }
        FormatIndex {
            leads: ByFirstByte::new(leads),
            any,
            words: ByFirstByte::new(words),
            worded,
            bytes,
            ignore_case,
        }
    }

    /// Whether format `i` may read the whole of `statement` (its text without the dialect's
    /// end mark and separator, as [`assemble_statement`](super::assemble_statement) reads it): false when it holds a byte
    /// that no reading of the format's syntax holds ([`syntax::Syntax::text_bytes`]; with
    /// `expressions`, where the context reads expressions for numbers, a format with a number
    /// that takes one may hold any byte), or a `,` outside parentheses followed by a byte that
    /// comes after no `,` of a reading ([`syntax::Syntax::comma_follows`]).
    pub fn may_read(&self, i: usize, statement: &str, expressions: bool) -> bool {
        self.may_read_shape(i, &Shape::of(statement), expressions)
    }

    /// [`FormatIndex::may_read`] of a statement of shape `text`.
    pub(super) fn may_read_shape(&self, i: usize, text: &Shape, expressions: bool) -> bool {
        let Some((set, takes_expressions, commas)) = self.bytes.get(i) else { return true };
        let within = |a: &syntax::Bytes, b: &syntax::Bytes| a.iter().zip(b).all(|(a, b)| a & !b == 0);
        (expressions && *takes_expressions || within(&text.bytes, set))
            && commas.as_ref().is_none_or(|c| within(&text.after_commas, c))
    }

    /// The formats (indices in [`Isa::formats`]) that may read `text`, in order: every other
    /// one fails on it.
    pub fn formats(&self, text: &str) -> Vec<usize> {
        let (mut bits, mut spare) = (Vec::new(), Vec::new());
        self.candidates(text, &mut bits, &mut spare);
        (0..bits.len() * 64).filter(|i| bits[i / 64] >> (i % 64) & 1 == 1).collect()
    }

    /// Sets in `out` a bit for each format that may read `text`, the others cleared (`spare`
    /// is working memory).
    pub(super) fn candidates(&self, text: &str, out: &mut Vec<u64>, spare: &mut Vec<u64>) {
        out.clone_from(&self.any);
        let text = text.trim_start_matches([' ', '\t']).as_bytes();
        self.leads.mark(text, self.ignore_case, out);
        let shared = out.iter().zip(&self.any).map(|(o, a)| (o & !a).count_ones()).sum::<u32>();
        if shared <= SHARED_LEAD {
            return;
        }
        // The formats whose required word the text has (anywhere), and those without one.
        spare.clear();
        spare.extend(self.worded.iter().map(|w| !w));
        for p in 0..text.len() {
            // Only where a required word starts with the byte there.
            let b = usize::from(if self.ignore_case { text[p].to_ascii_lowercase() } else { text[p] });
            if self.words.starts[b] != self.words.starts[b + 1] {
                self.words.mark(&text[p..], self.ignore_case, spare);
            }
        }
        out.iter_mut().zip(spare.iter()).for_each(|(o, s)| *o &= s);
    }
}

/// What [`FormatIndex::may_read`] looks at in a statement: its bytes, and the first byte
/// after each `,` outside parentheses (blanks skipped), a bit each.
pub(super) struct Shape {
    bytes: syntax::Bytes,
    after_commas: syntax::Bytes,
}

impl Shape {
    pub(super) fn of(text: &str) -> Self {
        let add = |set: &mut syntax::Bytes, b: u8| set[usize::from(b / 64)] |= 1 << (b % 64);
        let (mut bytes, mut after_commas) = ([0u64; 4], [0u64; 4]);
        let (mut depth, mut comma) = (0u32, false);
        for b in text.bytes() {
            add(&mut bytes, b);
            if comma && b != b' ' && b != b'\t' {
                add(&mut after_commas, b);
                comma = false;
            }
            match b {
                b'(' => depth += 1,
                b')' => depth = depth.saturating_sub(1),
                b',' => comma = depth == 0,
                _ => {}
            }
        }
        Shape { bytes, after_commas }
    }
}

/// The [`FormatIndex`] of dialect number `dialect` of `T`. With the `std` feature it is built
/// once per target and dialect in a process and shared by every program read after (the
/// index is a fact of the static tables); without it, built for each call.
pub(super) fn format_index<T: Isa>(dialect: usize) -> Arc<FormatIndex> {
    #[cfg(feature = "std")]
    {
        type Built = Vec<(core::any::TypeId, usize, Arc<FormatIndex>)>;
        static BUILT: std::sync::Mutex<Built> = std::sync::Mutex::new(Vec::new());
        let key = core::any::TypeId::of::<T>();
        let mut built = BUILT.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Some((.., index)) = built.iter().find(|(t, d, _)| *t == key && *d == dialect) {
            return index.clone();
        }
        let index = Arc::new(FormatIndex::new::<T>(dialect));
        built.push((key, dialect, index.clone()));
        index
    }
    #[cfg(not(feature = "std"))]
    Arc::new(FormatIndex::new::<T>(dialect))
}

/// Whether reading `statements` statements is worth building a [`FormatIndex`], which gives
/// the same statements (it only leaves out formats that cannot read them) but costs more to
/// build than trying every format on one statement. Measured with callgrind: VideoCore IV's
/// index about 4.1 million instructions (its syntax starts with every operation's name),
/// Maxwell's about 2.7 million, against about 3,000 per format checked without it
/// ([`syntax::Syntax::may_match`]; 297 formats). Without the `std` feature (the index built
/// for each program) one-line programs (`vc4::assemble("nop")`) and single listed words go
/// without; with it the index is built once a process, and every program uses it.
pub(super) fn worth_indexing(statements: usize) -> bool {
    // Built once a process with `std` ([`format_index`]): worth it for any program.
    cfg!(feature = "std") || statements > 1
}
