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
///
/// What the index knows of a format from walking its whole syntax ([`Facts`]: the bytes its
/// texts hold, what follows its words, its commas) is found on the first statement that
/// reaches the format, and kept: a process that reads a few lines walks a few syntaxes.
pub struct FormatIndex {
    /// Each format's leads.
    leads: ByFirstByte,
    /// Formats whose syntax may start with anything, with a bit per format.
    any: Vec<u64>,
    /// Each format's required word, if it has one.
    words: ByFirstByte,
    /// The formats with a required word, a bit each.
    worded: Vec<u64>,
    /// Each format's syntax in the dialect, and its facts once found.
    formats: Vec<Lazy>,
    /// The bytes of numbers where they are plain and where they take expressions (with the
    /// dialect's label prefixes).
    numbers: [Numbers; 2],
    pub(super) ignore_case: bool,
}

/// A format of a [`FormatIndex`]: its syntax in the dialect, the texts of its leads and its
/// required word (what [`Facts::follows`] is of, in this order), and its [`Facts`] once found.
struct Lazy {
    syntax: Option<&'static syntax::Syntax>,
    named: Vec<&'static str>,
    facts: Slot<Facts>,
}

/// A value found on first use and kept: shared by the threads of a process with `std` (the
/// index is), a cell of one program without it.
#[cfg(feature = "std")]
type Slot<T> = std::sync::OnceLock<T>;
#[cfg(not(feature = "std"))]
type Slot<T> = core::cell::OnceCell<T>;

/// What the walks of a format's syntax tell the index (its facts): the bytes its texts may
/// hold ([`syntax::Syntax::text_bytes`], every byte for a format without a syntax in the
/// dialect), whether a number takes an expression, the bytes after a `,`
/// ([`syntax::Syntax::comma_follows`]); what may follow each of its named words wherever the
/// syntax has them ([`words_follow`]), and its [`Commas`] where numbers are plain and where
/// they take expressions; and where numbers are that take expressions ([`Numbered`]).
struct Facts {
    bytes: syntax::Bytes,
    expressions: bool,
    comma_follows: Option<syntax::Bytes>,
    follows: Vec<Option<syntax::Bytes>>,
    commas: [Option<Commas>; 2],
    numbered: Option<Numbered>,
}

/// Where a text of a syntax may hold a byte that none of its literals and spellings holds,
/// numbers taking expressions: only in a number, which starts right after a byte that may
/// come before one (blanks aside), or at the start. VideoCore IV's `mov r3, r0 >> 13` is no
/// reading of `alu`, whose numbers (`ra12`, `rb40`) follow `a` or `b`: its `>` would be an
/// expression's, and no number starts where one could hold it.
struct Numbered {
    /// The bytes that only an expression holds: in no literal or spelling ([`Walk::spelled`]),
    /// nor in a plain number (letters, digits, `_`, `.`, `-`, `+`: common bytes whose look-up
    /// would cost more than it saves).
    foreign: syntax::Bytes,
    /// The bytes that may come right before a number, and whether one may start the text.
    before: syntax::Bytes,
    starts: bool,
}

impl Numbered {
    /// Whether the bytes of `text` (whose bytes are `bytes`) that only an expression holds
    /// may be in a number: none comes before the first place a number may start, a byte that
    /// may start one (`first`) right after a byte that may come before a number (blanks
    /// aside), or at the start of the text where a number may start it. From there on any
    /// byte may be an expression's, as where this is not looked at.
    fn may_hold(&self, text: &[u8], bytes: &syntax::Bytes, first: &syntax::Bytes) -> bool {
        if bytes.iter().zip(&self.foreign).all(|(a, b)| a & b == 0) {
            return true;
        }
        let mut previous: Option<u8> = None;
        for &b in text {
            if b == b' ' || b == b'\t' {
                continue;
            }
            if syntax::has_byte(first, b)
                && previous.map_or(self.starts, |p| syntax::has_byte(&self.before, p))
            {
                return true;
            }
            if syntax::has_byte(&self.foreign, b) {
                return false;
            }
            previous = Some(b);
        }
        true
    }
}

impl Facts {
    fn of(
        syntax: Option<&'static syntax::Syntax>,
        named: &[&str],
        ignore_case: bool,
        numbers: &[Numbers; 2],
    ) -> Self {
        let Some(syntax) = syntax else {
            return Facts {
                bytes: [u64::MAX; 4],
                expressions: false,
                comma_follows: None,
                follows: alloc::vec![None; named.len()],
                commas: [None, None],
                numbered: None,
            };
        };
        let (bytes, expressions) = syntax.text_bytes(ignore_case);
        // What may follow each lead and the required word wherever the syntax has them: one
        // walk for them all, which also gives the commas of texts with expressions.
        let (with_expressions, follows, numbered) = words_follow(syntax, ignore_case, &numbers[1], named);
        Facts {
            bytes,
            expressions,
            comma_follows: syntax.comma_follows(ignore_case),
            follows,
            commas: [Commas::of(syntax, ignore_case, &numbers[0]), with_expressions],
            numbered,
        }
    }
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
    /// The formats of each entry, each with the number of the text among its named words
    /// ([`Lazy::named`]).
    formats: Vec<(u32, u32)>,
    /// For each entry of at most [`FEW`] formats, each with what may follow its text wherever
    /// the format's syntax has it, found when the entry is first met.
    follows: Vec<Slot<Vec<(syntax::Bytes, u32)>>>,
    /// Where each first byte's run of `entries` starts (and byte 255's ends).
    starts: Vec<u32>,
    /// The formats of each entry of more than [`FEW`] as a set, `words` bits of 64 each: a
    /// lead most formats have (Maxwell's guard `@`) is set in a few words, not a bit a format.
    masks: Vec<u64>,
    words: usize,
}

/// The formats an entry of [`ByFirstByte`] may have for each to be looked at one by one, with
/// what may follow its text wherever its syntax has it ([`Facts::follows`], found on the
/// first statement the entry's text starts); an entry of more (Maxwell's guard `@`, which
/// every format starts with alike) sets them all.
const FEW: u32 = 16;

/// An entry of [`ByFirstByte`]: (first byte, lowercased when case is ignored; text; the bytes
/// that may come right after it where a format's syntax starts with it
/// ([`syntax::Syntax::lead_follows`]), if not any; its formats as a range of
/// [`ByFirstByte::formats`]).
type LeadEntry = (u8, &'static str, Option<syntax::Bytes>, (u32, u32));

impl ByFirstByte {
    /// Each given: (first byte, text, format, its number among the format's named words,
    /// what may follow it).
    fn new(mut given: Vec<(u8, &'static str, u32, u32, Option<syntax::Bytes>)>) -> Self {
        given.sort_by(|a, b| (a.0, a.1, a.4).cmp(&(b.0, b.1, b.4)).then(a.2.cmp(&b.2)));
        let mut entries: Vec<LeadEntry> = Vec::new();
        let mut formats = Vec::with_capacity(given.len());
        for (b, t, i, j, follows) in given {
            let k = formats.len() as u32;
            match entries.last_mut() {
                Some(e) if e.0 == b && e.1 == t && e.2 == follows => e.3 .1 = k + 1,
                _ => entries.push((b, t, follows, (k, k + 1))),
            }
            formats.push((i, j));
        }
        let mut starts = Vec::with_capacity(257);
        let mut k = 0;
        for b in 0..=256usize {
            while k < entries.len() && usize::from(entries[k].0) < b {
                k += 1;
            }
            starts.push(k as u32);
        }
        let words = formats.iter().map(|f| f.0).max().map_or(0, |i| i as usize / 64 + 1);
        let mut masks = alloc::vec![0u64; entries.len() * words];
        for (e, mask) in entries.iter().zip(masks.chunks_mut(words.max(1))) {
            for &(i, _) in &formats[e.3 .0 as usize..e.3 .1 as usize] {
                mask[i as usize / 64] |= 1 << (i % 64);
            }
        }
        let follows = entries.iter().map(|_| Slot::new()).collect();
        ByFirstByte { entries, formats, follows, starts, masks, words }
    }

    /// Sets in `out` the bit of each format with a text that `text` starts with, followed by
    /// a byte that may follow it there and (for an entry of at most [`FEW`] formats) in the
    /// format's syntax wherever it has the text (`follows`: of a format and the number of the
    /// text among its named words).
    fn mark(
        &self,
        text: &[u8],
        ignore_case: bool,
        out: &mut [u64],
        follows: &impl Fn(u32, u32) -> syntax::Bytes,
    ) {
        let Some(&b) = text.first() else { return };
        let b = usize::from(if ignore_case { b.to_ascii_lowercase() } else { b });
        let first = self.starts[b] as usize;
        let run = &self.entries[first..self.starts[b + 1] as usize];
        for (k, (_, t, after, (from, to))) in run.iter().enumerate() {
            // Byte for byte (the texts are short: a call to `memcmp` cost more than the compare).
            // The run is in byte order: where case matters, a text past the statement's bytes
            // (greater at the first byte that differs, or longer than the statement and
            // starting with all of it) is followed by none that it starts with.
            let mut starts = true;
            for (j, &a) in t.as_bytes().iter().enumerate() {
                match text.get(j) {
                    Some(&b) if a == b || (ignore_case && a.eq_ignore_ascii_case(&b)) => {}
                    Some(&b) if ignore_case || a < b => {
                        starts = false;
                        break;
                    }
                    _ if ignore_case => {
                        starts = false;
                        break;
                    }
                    _ => return,
                }
            }
            if !starts {
                continue;
            }
            let next = text.get(t.len()).copied();
            if let (Some(set), Some(b)) = (after, next) {
                if !syntax::has_byte(set, b) {
                    continue;
                }
            }
            // A blank may follow any word ([`words_follow`]): only another byte is looked up
            // (and the facts of the entry's formats found for it).
            let blank = next.is_none_or(|b| b == b' ' || b == b'\t');
            if to - from <= FEW && !blank {
                let sets = self.follows[first + k].get_or_init(|| {
                    let formats = &self.formats[*from as usize..*to as usize];
                    formats.iter().map(|&(i, j)| (follows(i, j), i)).collect()
                });
                for (set, i) in sets {
                    if next.is_none_or(|b| syntax::has_byte(set, b)) {
                        out[*i as usize / 64] |= 1 << (i % 64);
                    }
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
        let mut lazy = Vec::with_capacity(formats.len());
        let first =
            |t: &str| if ignore_case { t.as_bytes()[0].to_ascii_lowercase() } else { t.as_bytes()[0] };
        for (i, f) in formats.iter().enumerate() {
            let syntax = f.syntax.get(dialect).copied();
            let mut named = Vec::new();
            if let Some(syntax) = syntax {
                match syntax.leads() {
                    Some(texts) => {
                        // What may follow each lead, at every place the syntax starts with it.
                        let mut follows: BTreeMap<&str, syntax::Bytes> = BTreeMap::new();
                        for (lead, f) in syntax.lead_follows(ignore_case).into_iter().flatten() {
                            let set = follows.entry(lead).or_insert([0; 4]);
                            set.iter_mut().zip(f).for_each(|(a, b)| *a |= b);
                        }
                        let follow = |t: &str| follows.get(t).copied().filter(|s| *s != [u64::MAX; 4]);
                        for (j, t) in texts.iter().enumerate() {
                            leads.push((first(t), *t, i as u32, j as u32, follow(t)));
                        }
                        named = texts;
                    }
                    None => any[i / 64] |= 1 << (i % 64),
                }
                if let Some(word) = syntax.required_word() {
                    words.push((first(word), word, i as u32, named.len() as u32, None));
                    named.push(word);
                    worded[i / 64] |= 1 << (i % 64);
                }
            }
            lazy.push(Lazy { syntax, named, facts: Slot::new() });
        }
        FormatIndex {
            leads: ByFirstByte::new(leads),
            any,
            words: ByFirstByte::new(words),
            worded,
            formats: lazy,
            numbers: [Numbers::of(None), Numbers::of(Some(dialect_of::<T>(dialect).label_prefixes))],
            ignore_case,
        }
    }

    /// The [`Facts`] of format `i`, found on the first call.
    fn facts(&self, i: usize) -> &Facts {
        let f = &self.formats[i];
        f.facts.get_or_init(|| Facts::of(f.syntax, &f.named, self.ignore_case, &self.numbers))
    }

    /// What may follow named word `j` of format `i` ([`Facts::follows`]; any byte if not
    /// known).
    fn follows(&self, i: u32, j: u32) -> syntax::Bytes {
        self.facts(i as usize).follows.get(j as usize).copied().flatten().unwrap_or([u64::MAX; 4])
    }

    /// Whether format `i` may read the whole of `statement` (its text without the dialect's
    /// end mark and separator, as [`assemble_statement`](super::assemble_statement) reads it): false when it holds a byte
    /// that no reading of the format's syntax holds ([`syntax::Syntax::text_bytes`]; with
    /// `expressions`, where the context reads expressions for numbers, a format with a number
    /// that takes one may hold any byte from the first place such a number may start, and
    /// before it only bytes of its literals, spellings and plain numbers: [`Numbered`]), or a
    /// `,` outside parentheses followed by a byte that
    /// comes after no `,` of a reading ([`syntax::Syntax::comma_follows`]), or whose `,`s
    /// outside parentheses are more than a reading has or followed by bytes that no reading
    /// has after the same `,` ([`Commas`]). `expressions`: numbers may be read as the
    /// assembler's expressions ([`crate::expr`], with the dialect's label prefixes).
    pub fn may_read(&self, i: usize, statement: &str, expressions: bool) -> bool {
        self.may_read_shape(i, &Shape::of(statement), expressions)
    }

    /// [`FormatIndex::may_read`] of a statement of shape `text`.
    pub(super) fn may_read_shape(&self, i: usize, text: &Shape, expressions: bool) -> bool {
        if i >= self.formats.len() {
            return true;
        }
        let facts = self.facts(i);
        let within = |a: &syntax::Bytes, b: &syntax::Bytes| a.iter().zip(b).all(|(a, b)| a & !b == 0);
        let numbers = &self.numbers[1];
        let bytes = match expressions && facts.expressions {
            true => {
                facts.numbered.as_ref().is_none_or(|n| n.may_hold(text.text, &text.bytes, &numbers.first))
            }
            false => within(&text.bytes, &facts.bytes),
        };
        bytes
            && facts.comma_follows.as_ref().is_none_or(|c| within(&text.after_commas, c))
            && facts.commas[usize::from(expressions)].as_ref().is_none_or(|c| c.may_read(text))
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
        let follows = |i, j| self.follows(i, j);
        self.leads.mark(text, self.ignore_case, out, &follows);
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
                self.words.mark(&text[p..], self.ignore_case, spare, &follows);
            }
        }
        out.iter_mut().zip(spare.iter()).for_each(|(o, s)| *o &= s);
    }
}

/// What [`FormatIndex::may_read`] looks at in a statement: its bytes, and the first byte
/// after each `,` outside parentheses (blanks skipped), a bit each; how many such `,`s it has
/// and, for the first [`COMMAS`], the two bytes other than blanks after each (0: none).
pub(super) struct Shape<'t> {
    text: &'t [u8],
    bytes: syntax::Bytes,
    after_commas: syntax::Bytes,
    commas: u8,
    after: [(u8, u8); COMMAS],
}

impl<'t> Shape<'t> {
    pub(super) fn of(text: &'t str) -> Self {
        let add = |set: &mut syntax::Bytes, b: u8| set[usize::from(b / 64)] |= 1 << (b % 64);
        let (mut bytes, mut after_commas) = ([0u64; 4], [0u64; 4]);
        let (mut depth, mut comma) = (0u32, false);
        let (mut commas, mut after) = (0u8, [(0u8, 0u8); COMMAS]);
        // The comma whose bytes are being taken, and how many of them are.
        let mut pending: Option<(usize, u8)> = None;
        for &b in text.as_bytes() {
            add(&mut bytes, b);
            // Most bytes are none of these and follow no `,` being looked at: only their bit.
            if !comma && pending.is_none() && !matches!(b, b'(' | b')' | b',') {
                continue;
            }
            if b != b' ' && b != b'\t' {
                if comma {
                    add(&mut after_commas, b);
                    comma = false;
                }
                pending = match pending {
                    Some((k, 0)) => {
                        after[k].0 = b;
                        Some((k, 1))
                    }
                    Some((k, _)) => {
                        after[k].1 = b;
                        None
                    }
                    None => None,
                };
            }
            match b {
                b'(' => depth += 1,
                b')' => depth = depth.saturating_sub(1),
                b',' if depth == 0 => {
                    comma = true;
                    pending = (usize::from(commas) < COMMAS).then_some((usize::from(commas), 0));
                    commas = commas.saturating_add(1);
                }
                _ => {}
            }
        }
        Shape { text: text.as_bytes(), bytes, after_commas, commas, after }
    }
}

/// How many of a statement's `,`s outside parentheses [`Commas`] tells apart.
const COMMAS: usize = 8;

/// A set of pairs of bytes, as [`Walk`] finds it: for each first byte, in byte order, the
/// second bytes that may follow it.
type Pairs = Vec<(u8, syntax::Bytes)>;

/// [`Pairs`] as [`Commas`] looks them up: for each first byte, the number of its second bytes
/// in `seconds` (`u8::MAX`: none; a set of more first bytes than that holds every pair).
#[derive(Clone)]
struct PairSet {
    at: [u8; 256],
    seconds: Vec<syntax::Bytes>,
}

impl PairSet {
    fn of(pairs: &Pairs) -> Self {
        let mut set = PairSet { at: [u8::MAX; 256], seconds: Vec::with_capacity(pairs.len()) };
        if pairs.len() >= usize::from(u8::MAX) {
            set.at = [0; 256];
            set.seconds.push([u64::MAX; 4]);
            return set;
        }
        for (a, seconds) in pairs {
            set.at[usize::from(*a)] = set.seconds.len() as u8;
            set.seconds.push(*seconds);
        }
        set
    }

    fn has(&self, a: u8, b: u8) -> bool {
        let i = self.at[usize::from(a)];
        i != u8::MAX && syntax::has_byte(&self.seconds[usize::from(i)], b)
    }
}

/// Adds to `set` each pair of a byte of `firsts` and one of `seconds`.
fn add_pairs(set: &mut Pairs, firsts: &syntax::Bytes, seconds: &syntax::Bytes) {
    for a in syntax::bytes_of(firsts) {
        match set.binary_search_by_key(&a, |e| e.0) {
            Ok(i) => set[i].1.iter_mut().zip(seconds).for_each(|(x, y)| *x |= y),
            Err(i) => set.insert(i, (a, *seconds)),
        }
    }
}

/// What the texts a syntax reads whole may have after each `,` outside parentheses, by the
/// comma's number (the first [`COMMAS`]): the first byte other than a blank, and that byte
/// with the next one; and how many such `,`s they hold at most. A walk of the syntax's items in
/// order ([`Walk`]). A statement with a `,` followed by bytes no reading has there is no
/// reading of the syntax: Maxwell's `MOV R10, 0x1` for `mov_r`, whose second operand is a
/// register; `FFMA R9, R3, -0.5, R2` for `ffma_c` (`-c[` there) and `ffma_r` (`-R`).
struct Commas {
    /// For each `,` (up to [`COMMAS`]), the first bytes after it, the second ones, and the
    /// first two.
    after: Vec<(syntax::Bytes, syntax::Bytes, PairSet)>,
    /// The most `,`s a text holds; `u8::MAX`: any number.
    most: u8,
}

impl Commas {
    /// The commas of `syntax`'s texts, numbers read as the syntax's own (those with
    /// expressions come from [`words_follow`]'s walk); `None` where the walk gives up.
    fn of(syntax: &'static syntax::Syntax, ignore_case: bool, numbers: &Numbers) -> Option<Self> {
        Walk::of(syntax, ignore_case, numbers, &[]).as_ref().map(Commas::from_walk)
    }

    fn from_walk(walk: &Walk) -> Self {
        let most = if walk.most > COMMAS { u8::MAX } else { walk.most as u8 };
        let after = walk.after[..walk.most.min(COMMAS)].iter().map(|(f, s, p)| (*f, *s, PairSet::of(p)));
        Commas { after: after.collect(), most }
    }

    /// Whether a reading may have the commas of `text`.
    fn may_read(&self, text: &Shape) -> bool {
        if text.commas > self.most {
            return false;
        }
        let n = usize::from(text.commas).min(self.after.len());
        text.after[..n].iter().zip(&self.after).all(|(&(a, b), (first, second, pairs))| {
            (a == 0 || syntax::has_byte(first, a))
                && (b == 0 || syntax::has_byte(second, b) && pairs.has(a, b))
        })
    }
}

/// For each of `words`, the bytes that may come right after it where a text `syntax` reads
/// holds it in one of its literals or spellings (blanks always); `None` where the walk gives
/// up. One walk follows them all (a format's leads and required word). Where the
/// syntax needs the word (a lead it starts with, a word it requires), a text that holds it
/// nowhere followed by one of them is no reading of it: Maxwell's `MOV32I` for `mov_i`, whose
/// `MOV` is followed by a register.
fn words_follow(
    syntax: &'static syntax::Syntax,
    ignore_case: bool,
    numbers: &Numbers,
    words: &[&str],
) -> (Option<Commas>, Vec<Option<syntax::Bytes>>, Option<Numbered>) {
    let mut out = Vec::with_capacity(words.len());
    let (mut commas, mut numbered) = (None, None);
    // A walk follows up to 64 words at once (a bit of [`Reach::words`] each); the first walk,
    // made even without words, gives the commas.
    let chunks: Vec<&[&str]> = if words.is_empty() { alloc::vec![words] } else { words.chunks(64).collect() };
    for (n, chunk) in chunks.into_iter().enumerate() {
        let bytes: Vec<&[u8]> = chunk.iter().map(|w| w.as_bytes()).collect();
        let walk = Walk::of(syntax, ignore_case, numbers, &bytes);
        if n == 0 {
            commas = walk.as_ref().map(Commas::from_walk);
            // Blanks may be anywhere.
            let mut plain = Numbers::of(None).rest;
            syntax::add_byte(&mut plain, b' ', false);
            syntax::add_byte(&mut plain, b'\t', false);
            numbered = walk.as_ref().map(|w| Numbered {
                foreign: core::array::from_fn(|k| !(w.spelled[k] | plain[k])),
                before: w.before_numbers,
                starts: w.number_starts,
            });
        }
        match walk {
            Some(walk) => out.extend(walk.follows.into_iter().map(|mut follows| {
                syntax::add_byte(&mut follows, b' ', false);
                syntax::add_byte(&mut follows, b'\t', false);
                Some(follows)
            })),
            None => out.extend(chunk.iter().map(|_| None)),
        }
    }
    (commas, out, numbered)
}

/// The bytes a number's text may start with and hold, blanks aside: a number, a label or an
/// echoed value's (letters, digits, `_`, `.`, `-`, `+`); with the dialect's label prefixes
/// (`Some`), an expression's ([`crate::expr`]) too.
#[derive(Clone, Copy)]
struct Numbers {
    first: syntax::Bytes,
    rest: syntax::Bytes,
}

impl Numbers {
    fn of(prefixes: Option<&[&str]>) -> Self {
        let mut first: syntax::Bytes = [0; 4];
        let mut rest: syntax::Bytes = [0; 4];
        for b in 0..=255u8 {
            if b.is_ascii_alphanumeric() || b"_.-+".contains(&b) {
                syntax::add_byte(&mut first, b, false);
                syntax::add_byte(&mut rest, b, false);
            }
            if prefixes.is_some() {
                if crate::expr::may_start(b) {
                    syntax::add_byte(&mut first, b, false);
                }
                if crate::expr::may_hold(b) {
                    syntax::add_byte(&mut rest, b, false);
                }
            }
        }
        for b in prefixes.into_iter().flatten().flat_map(|p| p.bytes()) {
            syntax::add_byte(&mut first, b, false);
            syntax::add_byte(&mut rest, b, false);
        }
        // A number holds no `,` outside parentheses (an expression's are a call's arguments),
        // and an expression none among its first two bytes.
        for set in [&mut first, &mut rest] {
            set[0] &= !(1 << b',');
        }
        Numbers { first, rest }
    }
}

/// How many items [`Walk`] visits before it gives up.
const WALK_ITEMS: u32 = 20_000;

/// How deep [`Walk`] follows calls and optional groups.
const WALK_DEPTH: u32 = 32;

/// Where the readings of a syntax may be after the text so far: a bit for each place
/// ([`place`]); the bytes right after a `,` that readings taking the byte after them have
/// read; which of the words looked for ([`words_follow`]) one has just read.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Default)]
struct Reach {
    places: u32,
    /// The places of readings inside parentheses (one level), where a `,` is no comma of the
    /// text's ([`Shape`]) but its bytes are taken after one as any other.
    inside: u32,
    firsts: [syntax::Bytes; COMMAS],
    /// The words looked for ([`words_follow`]) just read, a bit each.
    words: u64,
    /// The bytes a reading may have read last (blanks aside), and whether it may have read
    /// nothing yet: what may come before a number ([`Walk::before_numbers`]).
    last: syntax::Bytes,
    start: bool,
}

impl Reach {
    fn union(&mut self, other: &Reach) {
        self.places |= other.places;
        self.inside |= other.inside;
        self.words |= other.words;
        self.start |= other.start;
        self.last.iter_mut().zip(&other.last).for_each(|(a, b)| *a |= b);
        for (a, b) in self.firsts.iter_mut().zip(&other.firsts) {
            a.iter_mut().zip(b).for_each(|(a, b)| *a |= b);
        }
    }
}

/// The places past the bytes after a `,` that [`Commas`] looks at (phase 0), a bit each.
const PAST_COMMA: u32 = {
    let mut bits = 0;
    let mut k = 0;
    while k <= COMMAS + 1 {
        bits |= place(k, 0);
        k += 1;
    }
    bits
};

/// The place of a reading that has read `k` `,`s (`COMMAS + 1`: more than [`COMMAS`]) and
/// takes next the byte number `phase` after the last one (1: the first, 2: the second; 0:
/// neither).
const fn place(k: usize, phase: usize) -> u32 {
    1 << (k * 3 + phase)
}

/// A walk of a syntax's items in order, guards and conditions ignored (so a superset of its
/// readings): each literal's and spelling's bytes one by one (a blank may match none, so
/// blanks are passed over on both sides: the statement's are skipped), a number as a run of
/// its bytes (those of [`syntax::Syntax::text_bytes`], or an expression's), where each reading
/// may be ([`Reach`]); a literal's or spelling's `(` takes its readings inside parentheses, where
/// a `,` is no comma of the text's, until a `)`. It gives up (`None`) at a `(` inside
/// parentheses, a group read in any order, a walk too long or too deep.
struct Walk<'w> {
    fold: bool,
    after: [(syntax::Bytes, syntax::Bytes, Pairs); COMMAS],
    /// The most `,`s read so far (past [`COMMAS`]: more).
    most: usize,
    budget: u32,
    number_first: syntax::Bytes,
    number_rest: syntax::Bytes,
    words: &'w [&'w [u8]],
    /// The numbers of `words` by their last byte (lowercased where case is folded): a word
    /// ends at no other byte of a spelling; the empty ones (a bit each) end at every byte.
    word_ends: Vec<(u8, usize)>,
    empty_words: u64,
    follows: Vec<syntax::Bytes>,
    /// A table's reading from a place, by the table's address: read once a walk, since a
    /// second reading from the same place would only add what the first added. The place's
    /// last bytes are not part of the key (a table reads the same from any of them), and
    /// whether the table may read nothing.
    tables: BTreeMap<(usize, Reach), Option<(Reach, bool)>>,
    /// The bytes of literals and spellings (a number's are not among them, but a range's
    /// digits are).
    spelled: syntax::Bytes,
    /// The bytes that may come right before a number (blanks aside), and whether a number
    /// may start the text.
    before_numbers: syntax::Bytes,
    number_starts: bool,
}

impl<'w> Walk<'w> {
    fn of(
        syntax: &'static syntax::Syntax,
        fold: bool,
        numbers: &Numbers,
        words: &'w [&'w [u8]],
    ) -> Option<Self> {
        let last = |b: u8| if fold { b.to_ascii_lowercase() } else { b };
        let mut word_ends: Vec<(u8, usize)> =
            words.iter().enumerate().filter_map(|(k, w)| Some((last(*w.last()?), k))).collect();
        word_ends.sort_unstable();
        let empty_words =
            words.iter().enumerate().filter(|(_, w)| w.is_empty()).fold(0, |m, (k, _)| m | 1 << k);
        let mut walk = Walk {
            word_ends,
            empty_words,
            fold,
            after: core::array::from_fn(|_| ([0; 4], [0; 4], Vec::new())),
            most: 0,
            budget: WALK_ITEMS,
            number_first: numbers.first,
            number_rest: numbers.rest,
            words,
            follows: alloc::vec![[0; 4]; words.len()],
            tables: BTreeMap::new(),
            spelled: [0; 4],
            before_numbers: [0; 4],
            number_starts: false,
        };
        let start = Reach { places: place(0, 0), start: true, ..Reach::default() };
        walk.arms(syntax.arms, &start, 0)?;
        Some(walk)
    }

    /// Where a byte of `set` read at `at` leads (a `,` counted as one outside parentheses),
    /// noting it after the commas and the word it follows.
    fn byte(&mut self, at: &Reach, set: &syntax::Bytes) -> Reach {
        let comma = syntax::has_byte(set, b',');
        let mut others = *set;
        others[0] &= !(1 << b',');
        let plain = others != [0; 4];
        let mut out = Reach { last: *set, ..Reach::default() };
        let mut just_read = at.words;
        while just_read != 0 {
            let j = just_read.trailing_zeros() as usize;
            just_read &= just_read - 1;
            self.follows[j].iter_mut().zip(set).for_each(|(a, b)| *a |= b);
        }
        // Only the places a reading may be at (a few of the 3 × (COMMAS + 2)); inside
        // parentheses every byte is a plain one.
        let mut places = at.places;
        let mut inside = at.inside;
        while places | inside != 0 {
            let is_inside = places == 0;
            let bit = if is_inside { inside.trailing_zeros() } else { places.trailing_zeros() } as usize;
            if is_inside {
                inside &= inside - 1;
            } else {
                places &= places - 1;
            }
            let (k, phase) = (bit / 3, bit % 3);
            if is_inside {
                self.after_byte(k, phase, at, set);
                let next = [0, 2, 0][phase];
                out.inside |= place(k, next);
                if next == 2 && (1..=COMMAS).contains(&k) {
                    out.firsts[k - 1].iter_mut().zip(set).for_each(|(a, b)| *a |= b);
                }
                continue;
            }
            {
                self.after_byte(k, phase, at, set);
                if plain {
                    let next = [0, 2, 0][phase];
                    out.places |= place(k, next);
                    if next == 2 && (1..=COMMAS).contains(&k) {
                        out.firsts[k - 1].iter_mut().zip(&others).for_each(|(a, b)| *a |= b);
                    }
                }
                if comma {
                    self.most = self.most.max(k + 1);
                    out.places |= place((k + 1).min(COMMAS + 1), 1);
                }
            }
        }
        out
    }

    /// Notes the bytes of `set` read at place (`k`, `phase`) of `at`, the first or second
    /// after the `k`th `,`.
    fn after_byte(&mut self, k: usize, phase: usize, at: &Reach, set: &syntax::Bytes) {
        if !(1..=COMMAS).contains(&k) {
            return;
        }
        let after = &mut self.after[k - 1];
        match phase {
            1 => after.0.iter_mut().zip(set).for_each(|(a, b)| *a |= b),
            2 => {
                after.1.iter_mut().zip(set).for_each(|(a, b)| *a |= b);
                add_pairs(&mut after.2, &at.firsts[k - 1], set);
            }
            _ => {}
        }
    }

    /// A run of bytes: one of `first`, then any of `rest` (none of them a `,`).
    fn run(&mut self, at: &Reach, first: &syntax::Bytes, rest: &syntax::Bytes) -> Reach {
        let mut all = self.byte(at, first);
        let mut last = all;
        loop {
            let next = self.byte(&last, rest);
            let mut grown = all;
            grown.union(&next);
            if grown == all {
                return all;
            }
            all = grown;
            last = next;
        }
    }

    /// A literal or a spelling; `None` at a `(` inside parentheses.
    fn text(&mut self, at: &Reach, s: &str) -> Option<Reach> {
        let mut at = *at;
        let bytes = s.as_bytes();
        for (j, &b) in bytes.iter().enumerate().filter(|(_, b)| **b != b' ' && **b != b'\t') {
            if b == b'(' && at.inside != 0 {
                return None;
            }
            let mut set = [0; 4];
            syntax::add_byte(&mut set, b, self.fold);
            syntax::add_byte(&mut self.spelled, b, self.fold);
            if (at.places | at.inside) & !PAST_COMMA == 0 && at.words == 0 && !matches!(b, b',' | b'(' | b')')
            {
                // Past the bytes a `,` is followed by, with no word just read, a plain byte
                // leaves every reading where it is ([`Walk::byte`], short).
                at.last = set;
                at.start = false;
                at.firsts = [[0; 4]; COMMAS];
            } else {
                at = self.byte(&at, &set);
            }
            // A `(` takes the readings inside parentheses, a `)` out of them (one outside
            // stays there, as the text's commas are counted).
            match b {
                b'(' => at.inside = core::mem::take(&mut at.places),
                b')' => at.places |= core::mem::take(&mut at.inside),
                _ => {}
            }
            // The words that end at this byte of the spelling.
            let fold = self.fold;
            let last = if fold { b.to_ascii_lowercase() } else { b };
            let from = self.word_ends.partition_point(|e| e.0 < last);
            let end = j + 1;
            at.words |= self.empty_words;
            for &(_, k) in self.word_ends[from..].iter().take_while(|e| e.0 == last) {
                let w = self.words[k];
                let ends = end >= w.len()
                    && bytes[end - w.len()..end]
                        .iter()
                        .zip(w)
                        .all(|(a, b)| a == b || fold && a.eq_ignore_ascii_case(b));
                if ends {
                    at.words |= 1 << k;
                }
            }
        }
        Some(at)
    }

    fn table(&mut self, at: &Reach, t: &'static syntax::Table) -> Option<Reach> {
        // From the place without its last bytes: a spelling read replaces them, and an empty
        // one keeps them (added below).
        let from = Reach { last: [0; 4], start: false, ..*at };
        let key = (core::ptr::from_ref(t) as usize, from);
        let (mut reached, empty) = match self.tables.get(&key) {
            Some(known) => (*known)?,
            None => {
                let reached = self.table_entries(&from, t);
                self.tables.insert(key, reached);
                reached?
            }
        };
        if empty {
            reached.last.iter_mut().zip(&at.last).for_each(|(a, b)| *a |= b);
            reached.start |= at.start;
        }
        Some(reached)
    }

    /// What reading one of `t`'s spellings from `at` reaches, and whether a spelling is empty
    /// (blanks aside).
    fn table_entries(&mut self, at: &Reach, t: &'static syntax::Table) -> Option<(Reach, bool)> {
        const SIGNED: syntax::Bytes = digits(true);
        const DIGITS: syntax::Bytes = digits(false);
        let mut out = Reach::default();
        let mut empty = false;
        for e in t.entries {
            let reached = match *e {
                syntax::Entry::Name(s, _) => {
                    empty |= s.bytes().all(|b| b == b' ' || b == b'\t');
                    self.text(at, s)?
                }
                syntax::Entry::Range { prefix, suffix, .. } => {
                    let at = self.text(at, prefix)?;
                    self.spelled.iter_mut().zip(&SIGNED).for_each(|(a, b)| *a |= b);
                    let at = self.run(&at, &SIGNED, &DIGITS);
                    self.text(&at, suffix)?
                }
                // Printed, never read.
                syntax::Entry::Many(..) | syntax::Entry::Else(_) => continue,
            };
            out.union(&reached);
        }
        // An empty spelling's reach is `at`'s, whose last bytes (none here) the caller adds.
        Some((out, empty))
    }

    fn arms(&mut self, arms: &'static [syntax::Arm], at: &Reach, depth: u32) -> Option<Reach> {
        let mut out = Reach::default();
        for arm in arms {
            out.union(&self.items(arm.items, at, depth)?);
        }
        Some(out)
    }

    fn items(&mut self, items: &'static [syntax::Item], at: &Reach, depth: u32) -> Option<Reach> {
        use syntax::{Item, Show};
        let mut at = *at;
        for item in items {
            self.budget = self.budget.checked_sub(1)?;
            at = match item {
                Item::Lit(s) => self.text(&at, s)?,
                Item::Show(_, Show::Num(_)) => {
                    self.before_numbers.iter_mut().zip(&at.last).for_each(|(a, b)| *a |= b);
                    self.number_starts |= at.start;
                    let (first, rest) = (self.number_first, self.number_rest);
                    self.run(&at, &first, &rest)
                }
                Item::Show(_, Show::Table(t)) => self.table(&at, t)?,
                Item::Show(_, Show::TableIf(_, a, b)) => {
                    let mut out = self.table(&at, a)?;
                    out.union(&self.table(&at, b)?);
                    out
                }
                Item::Call(..) | Item::Opt(..) if depth >= WALK_DEPTH => return None,
                Item::Call(sub, _) => self.arms(sub.arms, &at, depth + 1)?,
                Item::Opt(_, body) => {
                    let mut out = self.items(body, &at, depth + 1)?;
                    out.union(&at);
                    out
                }
                Item::AnyOrder(..) => return None,
            };
        }
        Some(at)
    }
}

/// The digits of a range's number, with its sign if `signed`.
const fn digits(signed: bool) -> syntax::Bytes {
    let mut set = [0u64; 4];
    let mut b = b'0';
    while b <= b'9' {
        set[0] |= 1 << b;
        b += 1;
    }
    if signed {
        set[0] |= (1 << b'+') | (1 << b'-');
    }
    set
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
/// build than trying every format on one statement. Measured with callgrind (2026-11-28):
/// VideoCore IV's and Maxwell's indexes together about 10 million instructions, a format's
/// follow facts then found on the first statement that reaches it, against about 3,000 per
/// format checked without it ([`syntax::Syntax::may_match`]; 315 Maxwell formats). Without the `std` feature (the index built
/// for each program) one-line programs (`vc4::assemble("nop")`) and single listed words go
/// without; with it the index is built once a process, and every program uses it.
pub(super) fn worth_indexing(statements: usize) -> bool {
    // Built once a process with `std` ([`format_index`]): worth it for any program.
    cfg!(feature = "std") || statements > 1
}
