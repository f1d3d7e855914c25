//! The bidirectional syntax engine.
//!
//! A dialect's syntax for an encoding is a [`Syntax`]: ordered arms, each an optional guard and
//! a sequence of [`Item`]s (literals, field values shown through name tables or number formats,
//! calls of named sub-syntaxes, optional groups). The same static description is
//!
//! - **printed** ([`print`]): the first arm whose guard holds is written out; and
//! - **parsed** ([`parse`]): a backtracking matcher reads text into field values. Guards and the
//!   conditions of optional groups are *solved*: `field == value` assigns the field, `!flag`
//!   clears it, disjunctions become choices, and what cannot be solved yet is checked once every
//!   field is known (after defaults).
//!
//! Parsing in more detail:
//!
//! - A text that no reading of the syntax matches when guards are ignored (a context-free
//!   superset, decided by memoised recognition) fails at once, with the furthest position any
//!   reading reached.
//! - Where only success matters (the assembler trying formats), an arm, an optional group
//!   (present or absent) or a name is not tried when the text after it could not be read,
//!   guards ignored, judged by its next token: the search keeps a stack of what follows the
//!   item at hand, and a memoised first-token check of each item list at each position rules
//!   out most arms before their guards are solved. Name tables are indexed by the character a
//!   spelling starts with.
//! - Choices (`a || b`, `!(a && b)`) are deferred while the text is read and made after it, so
//!   a line fails in its text once rather than once per combination of choices; a deferred
//!   condition that an assignment decides wrongly ends that reading at once.
//! - Names are matched like literals (a blank matches any run of blanks); a table's first
//!   spelling of a value is printed, all are accepted. An empty spelling of a value the table
//!   prints as text means "written at another place of the line" and must be matched by a
//!   non-empty spelling of the same field elsewhere. Where only success matters, such a
//!   reading ends at once when nothing after it can spell the field out: no name table that
//!   shows the field follows in the syntax, or none of their names for the value occurs in the
//!   rest of the text (the quick reader judges the text alike).
//! - Numbers skip blanks before them (unless they follow a letter or digit); a signed field
//!   takes its signed range, an unsigned one also the negative numbers of its width; a 32-bit
//!   hole reads a literal with a fraction or an exponent as an IEEE single.
//! - A number shown for a field the line has already given is an echo (Mesa's `0x3f800000
//!   (1.000000)`): it must be the printer's text for that value, which it then agrees with.
//!
//! - Before the search, the assembler asks the quick reader ([`quick_in`]), which reads the
//!   common line without backtracking machinery: it walks the readings the items allow,
//!   makes the assignments that guards state outright, and checks the other conditions once
//!   on the values with defaults. It walks them in the search's order: where the first
//!   reading it finds settles (its checks hold on the defaults), that is the search's reading;
//!   where it finds none, the search finds none; a reading whose checks fail on the defaults
//!   is settled as the search settles it (choices made), and walked past where that fails, as
//!   the search goes on to its next reading; anything else is left to the search. What
//!   its checks force on fields not known yet (`field == value`, `field != value`, fields made
//!   equal) is kept as facts: a reading whose facts contradict each other, or a value given,
//!   is left where they do, as the search would fail it after the text.
//!
//! - Before the quick reader, the assembler asks a format's generated reader, if the compiler
//!   wrote one ([`fast_in`]): a Rust function for a syntax whose every choice the text decides
//!   by what it starts with, which reads the one reading there is and answers "unsure" where
//!   anything is left open, so the engine stays the reference.
//!
//! Because both directions walk one description, `parse(print(x)) == x` holds whenever the
//! printed text determines every field, which the generated targets' property tests check on
//! random words.

mod analysis;
mod eval;
mod facts;
mod failure;
mod fast;
#[cfg(test)]
mod fixtures;
mod memo;
mod names;
mod printer;
mod quick;
mod reading;
mod recognize;
mod scan;
mod search;
mod solve;
mod tree;
mod walk;

pub use analysis::{add_byte, bytes_of, has_byte, Bytes};
pub use eval::Bound;
pub use failure::{token_at, Expected, Failure};
pub use fast::{fast_in, in_set, ByteSet, Fast, Names, Reader, Spell};
pub use memo::Scratch;
pub use names::{Entry, Table};
pub use printer::{print, print_showing, write_hex_upper, write_hex_value, write_number};
pub use quick::{forget_prefixes, give_back, quick_in, quick_prefix_in, Quick};
pub use search::{parse, parse_prefix, parse_prefix_in, parses, parses_in, Context};
pub use tree::{Arith, Arm, Cmp, Expr, Item, Num, Show, Slot, Syntax};
