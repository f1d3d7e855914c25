//! Program summaries (`summary` in a spec): the largest value of a field over a program,
//! folded a word at a time.

use super::isa::Isa;
use alloc::vec::Vec;

/// `summary name { max field; plus n; least m }` (spec): the largest value of `field` over a
/// program's instructions plus `plus`, at least `least` (grate's `used_tram_rows`; a shader's
/// register count is the same kind of value).
#[derive(Debug)]
pub struct Summary {
    /// Its name.
    pub name: &'static str,
    /// The field whose largest value it takes.
    pub field: &'static str,
    /// Added to that value.
    pub plus: u64,
    /// The least value, also that of a program whose words lack the field.
    pub least: u64,
}

/// Each of the target's summaries over `words`, by name, in declaration order.
pub fn summarize<T: Isa>(words: &[u128]) -> Vec<(&'static str, u64)> {
    let mut highest = alloc::vec![None; T::summaries().len()];
    for w in words {
        fold_summaries::<T>(*w, &mut highest);
    }
    summaries_of(T::summaries(), &highest)
}

/// [`summarize`] a word at a time: `highest` (one entry per summary, `None` at first) takes
/// the largest value of each summary's field plus its `plus` over the words seen so far, so
/// a program's summaries are known as its words go by without keeping them.
pub fn fold_summaries<T: Isa>(word: u128, highest: &mut [Option<u64>]) {
    for (s, high) in T::summaries().iter().zip(highest.iter_mut()) {
        let value = T::match_format(word).and_then(|i| T::formats().get(i)).and_then(|format| {
            let field = format.fields.iter().find(|f| f.name == s.field)?;
            Some(crate::bits::get(word, field.pieces).saturating_add(s.plus))
        });
        if let Some(v) = value {
            *high = Some(high.map_or(v, |h| h.max(v)));
        }
    }
}

/// The summaries' values from what [`fold_summaries`] kept: the largest value, at least the
/// summary's `least` (also the value of a program whose words lack the field).
pub(super) fn summaries_of(
    summaries: &'static [Summary],
    highest: &[Option<u64>],
) -> Vec<(&'static str, u64)> {
    summaries.iter().zip(highest).map(|(s, h)| (s.name, h.unwrap_or(0).max(s.least))).collect()
}
