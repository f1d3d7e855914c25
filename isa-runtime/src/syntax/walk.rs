//! The one descent of the static analyses: through arms, items, optional groups, groups read
//! in any order and calls of sub-syntaxes, with the depth limit and what follows each item,
//! written once. An analysis is a [`Visit`]: what it does at a literal, a name table or a
//! number, and how it treats a call it already walked or one too deep; the walk decides where
//! to go next. Kept apart from the analyses so that each says only what it collects.

use super::names::Table;
use super::tree::{Arm, Expr, Item, Num, Show, Syntax};

/// How deep calls and optional groups are followed (the checker rejects cycles; this only
/// bounds the walk).
pub(super) const MNEMONIC_DEPTH: u32 = 32;

/// What may come after an item list once it is read: the rest of an enclosing list (from an
/// index), then what comes after that. The end of the syntax and the place after a group read
/// in any order (where another group, or the text between them, may come) are no `After`:
/// anything may follow there.
pub(super) struct After<'a> {
    pub(super) items: &'static [Item],
    pub(super) i: usize,
    pub(super) outer: Option<&'a After<'a>>,
}

/// The item at hand: `items[i]`, what comes after `items` (`then`), and how deep the walk is.
pub(super) struct At<'a> {
    pub(super) items: &'static [Item],
    pub(super) i: usize,
    pub(super) then: Option<&'a After<'a>>,
    pub(super) depth: u32,
}

impl At<'_> {
    /// What comes after the item at hand.
    fn next(&self) -> After<'_> {
        After { items: self.items, i: self.i + 1, outer: self.then }
    }
}

/// An analysis walked by [`arms`] and [`items`]. Each method says whether what it looked at
/// may read no text (so that, for a walk of what a text starts with, the next item starts it
/// too); `None` ends the whole walk (the analysis gives up).
pub(super) trait Visit {
    /// Whether the walk looks at every item (what a text holds), not only those up to the first
    /// that cannot read empty text (what a text starts with).
    const EVERY_ITEM: bool;
    /// How deep calls and optional groups are followed.
    const DEPTH: u32 = MNEMONIC_DEPTH;

    /// Called at each item before it is looked at.
    fn item(&mut self, _at: &At) -> Option<()> {
        Some(())
    }
    /// A literal.
    fn text(&mut self, s: &'static str, at: &At) -> Option<bool>;
    /// A value shown through name table `t` (`e`: the value shown).
    fn table(&mut self, e: &Expr, t: &'static Table, at: &At) -> Option<bool>;
    /// A value shown as a number.
    fn number(&mut self, e: &Expr, n: &Num) -> Option<bool>;
    /// The text between the groups of a group read in any order.
    fn between(&mut self, _s: &'static str) -> Option<()> {
        Some(())
    }
    /// A call the analysis already knows the answer for (it is not walked again).
    fn known(&mut self, _sub: &'static Syntax, _depth: u32) -> Option<bool> {
        None
    }
    /// A call walked at `depth`, and its answer.
    fn walked(&mut self, _sub: &'static Syntax, _depth: u32, _empty: bool) {}
    /// A call deeper than [`Visit::DEPTH`].
    fn too_deep(&mut self) -> Option<bool>;
    /// Whether the item just looked at, which may read no text, is a prefix all the same (a
    /// `@P0 ` guard): what follows it in its list does not start the text, but what follows the
    /// list may.
    fn prefix(&mut self) -> bool {
        false
    }
}

/// Walks `arms`, each followed by `then`: whether one of them may read no text.
pub(super) fn arms<V: Visit>(
    v: &mut V,
    arms: &'static [Arm],
    then: Option<&After>,
    depth: u32,
) -> Option<bool> {
    let mut empty = false;
    for arm in arms {
        empty |= items(v, arm.items, then, depth)?;
    }
    Some(empty)
}

/// Walks `items`, followed by `then`: whether they may read no text. Unless the analysis looks
/// at [every item](Visit::EVERY_ITEM), the walk stops at the first item that cannot.
pub(super) fn items<V: Visit>(
    v: &mut V,
    items: &'static [Item],
    then: Option<&After>,
    depth: u32,
) -> Option<bool> {
    let mut empty = true;
    for i in 0..items.len() {
        if !item(v, &At { items, i, then, depth })? {
            if !V::EVERY_ITEM {
                return Some(false);
            }
            empty = false;
        } else if !V::EVERY_ITEM && v.prefix() {
            return Some(true);
        }
    }
    Some(empty)
}

fn item<V: Visit>(v: &mut V, at: &At) -> Option<bool> {
    v.item(at)?;
    Some(match &at.items[at.i] {
        Item::Lit(s) => v.text(s, at)?,
        Item::Show(e, Show::Num(n)) => v.number(e, n)?,
        Item::Show(e, Show::Table(t)) => v.table(e, t, at)?,
        Item::Show(e, Show::TableIf(_, a, b)) => v.table(e, a, at)? | v.table(e, b, at)?,
        Item::Call(..) if at.depth >= V::DEPTH => v.too_deep()?,
        Item::Call(sub, _) => match v.known(sub, at.depth) {
            Some(empty) => empty,
            None => {
                let empty = arms(v, sub.arms, Some(&at.next()), at.depth + 1)?;
                v.walked(sub, at.depth, empty);
                empty
            }
        },
        Item::Opt(_, body) => {
            items(v, body, Some(&at.next()), at.depth + 1)?;
            true
        }
        // Each group (an optional one) may come first, without the text between; after a group,
        // another (or the text between) may come: anything may follow.
        Item::AnyOrder(between, groups) => {
            v.between(between)?;
            for g in groups.iter() {
                items(v, core::slice::from_ref(g), None, at.depth + 1)?;
            }
            true
        }
    })
}
