//! Memoised recognition for the search, guards ignored: where an item list may end from a
//! position, whether the rest of a reading can reach the end of the text, and whether an item
//! list can start at a position. It prunes the search; it never decides a reading.

use super::eval::print_only;
use super::failure::Want;
use super::names::Table;
use super::scan::{label_len, number_start, scan_integer, scan_number, skip_blanks, takes_expression};
use super::search::Parser;
use super::tree::{Expr, Item, Num, Show, Syntax};

/// Whether a text can start at a place ([`Parser::starts`]).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Start {
    /// Nothing it reads matches there.
    Never = 0,
    /// Its first token may match there.
    Maybe = 1,
    /// It reads nothing there (what follows it decides).
    Empty = 2,
}

impl Start {
    fn from(n: usize) -> Self {
        match n {
            0 => Start::Never,
            2 => Start::Empty,
            _ => Start::Maybe,
        }
    }

    /// Of two alternatives: the one that says more may match.
    fn or(self, other: Start) -> Start {
        match (self, other) {
            (Start::Maybe, _) | (_, Start::Maybe) => Start::Maybe,
            (Start::Empty, _) | (_, Start::Empty) => Start::Empty,
            _ => Start::Never,
        }
    }
}

impl Parser<'_> {
    /// Whether `syntax` can match the whole text from `pos` when guards, conditions and value
    /// ranges are ignored: a context-free superset of what the parser accepts, decided in
    /// polynomial time by memoising the end positions of every item sequence.
    pub(super) fn recognizes(&mut self, syntax: &'static Syntax, pos: usize) -> bool {
        let base = self.mids.len();
        for arm in syntax.arms {
            let ends = self.ends(arm.items, 0, pos);
            for k in ends {
                let e = self.memo.items[k];
                self.mids.push(e);
            }
        }
        let text = self.text;
        let mut ok = false;
        for k in base..self.mids.len() {
            let e = skip_blanks(text, self.mids[k]);
            if e == text.len() || self.prefix {
                ok = true;
            } else {
                self.fail(e, "end of line");
            }
        }
        self.mids.truncate(base);
        ok
    }

    /// The positions where `items[i..]` can end when it starts at `pos` (guards ignored), as
    /// indices into the memo's list of ends. Nothing is allocated per call: positions being
    /// collected sit on the two stacks `mids` and `collecting`, each call above its caller's.
    pub(super) fn ends(&mut self, items: &'static [Item], i: usize, pos: usize) -> core::ops::Range<usize> {
        let key = (items.as_ptr() as usize, i as u32, pos as u32);
        // A re-entry at the same place (no text consumed) adds nothing.
        let filed = match self.memo.get_or_file(key, 0..0) {
            Ok(r) => return r,
            Err(filed) => filed,
        };
        let out = self.collecting.len();
        let mids = self.mids.len();
        match items.get(i) {
            None => self.collecting.push(pos),
            Some(Item::Lit(s)) => match self.literal(s, pos) {
                Some(end) => self.mids.push(end),
                None => {
                    self.fail_with(skip_blanks(self.text, pos), Want::Lit(s));
                }
            },
            Some(Item::Show(e, show)) => {
                let view = matches!(e, Expr::Field(s) if print_only(self.format, *s));
                if !view {
                    self.show_ends(show, pos);
                }
                if self.mids.len() == mids {
                    match show {
                        Show::Table(t) => self.fail_table(pos, &[t]),
                        Show::TableIf(_, a, b) => self.fail_table(pos, &[a, b]),
                        Show::Num(_) if view => self.fail(pos, "text this dialect only prints"),
                        Show::Num(_) => self.fail(pos, "a number"),
                    };
                }
            }
            Some(Item::Call(sub, _)) => {
                for arm in sub.arms {
                    for k in self.ends(arm.items, 0, pos) {
                        let e = self.memo.items[k];
                        self.mids.push(e);
                    }
                }
            }
            Some(Item::Opt(_, body)) => {
                self.mids.push(pos);
                for k in self.ends(body, 0, pos) {
                    let e = self.memo.items[k];
                    self.mids.push(e);
                }
            }
            // Any sequence of the groups (a superset: repeats allowed), the separator before
            // each but the first.
            Some(Item::AnyOrder(sep, groups)) => {
                self.mids.push(pos);
                let mut k = mids;
                while k < self.mids.len() {
                    let at = match self.mids[k] {
                        at if at == pos || sep.is_empty() => at,
                        at => match self.literal(sep, at) {
                            Some(after) => after,
                            None => {
                                k += 1;
                                continue;
                            }
                        },
                    };
                    for g in groups.iter() {
                        if let Item::Opt(_, body) = g {
                            for j in self.ends(body, 0, at) {
                                let e = self.memo.items[j];
                                if !self.mids[mids..].contains(&e) {
                                    self.mids.push(e);
                                }
                            }
                        }
                    }
                    k += 1;
                }
            }
        }
        // The rest of the list from each place this item can end.
        if items.get(i).is_some() {
            for m in mids..self.mids.len() {
                let at = self.mids[m];
                for k in self.ends(items, i + 1, at) {
                    let e = self.memo.items[k];
                    if !self.collecting[out..].contains(&e) {
                        self.collecting.push(e);
                    }
                }
            }
        }
        self.mids.truncate(mids);
        let first = self.memo.items.len();
        self.memo.items.extend_from_slice(&self.collecting[out..]);
        self.collecting.truncate(out);
        let r = first..self.memo.items.len();
        self.memo.answer(filed, key, r.clone());
        r
    }

    /// Pushes onto `mids` where a value shown with `show` can end when it starts at `pos`.
    fn show_ends(&mut self, show: &Show, pos: usize) {
        let text = self.text;
        match show {
            Show::Table(t) => self.push_spelling_ends(t, pos),
            Show::TableIf(_, a, b) => {
                self.push_spelling_ends(a, pos);
                self.push_spelling_ends(b, pos);
            }
            Show::Num(n) => {
                let out = &mut self.mids;
                let start = number_start(text, pos);
                let rest = &text[start..];
                match n {
                    Num::Label { .. } | Num::Target { .. } => {
                        let len = scan_integer(rest).map(|x| x.1).or_else(|| {
                            let len = label_len(rest);
                            (len > 0 && (self.ctx.labels)(&rest[..len]).is_some()).then_some(len)
                        });
                        out.extend(len.map(|l| start + l));
                    }
                    // The field's width decides whether a float literal is read: allow both.
                    _ => {
                        for width in [0, 32] {
                            out.extend(scan_number(*n, width, rest).map(|x| start + x.1));
                        }
                    }
                }
                if let Some(read) = self.ctx.expression.filter(|_| takes_expression(n)) {
                    // An undefined name ends where it would if it were defined: the parser then
                    // says so at the name.
                    out.extend(read(rest).map_or_else(|e| e.end, |x| Some(x.1)).map(|end| start + end));
                }
            }
        }
    }

    /// Pushes onto `mids` where each spelling of `t` at `pos` ends, in table order.
    fn push_spelling_ends(&mut self, t: &'static Table, pos: usize) {
        let (in_order, _) = self.spellings(t, pos);
        for k in in_order {
            let len = self.spellings.items[k].0;
            self.mids.push(pos + len);
        }
    }

    /// Whether `items[i..]` read from `pos`, then what [`Parser::follow`] says comes after,
    /// can read the line when guards, conditions and value ranges are ignored, judged by the
    /// first token ([`Parser::starts`]). A superset of what the search reads: where it is
    /// false, the search would fail whatever its guards made of the fields, so it is not tried.
    pub(super) fn viable(&mut self, items: &'static [Item], i: usize, pos: usize) -> bool {
        match self.starts(items, i, pos) {
            Start::Never => false,
            Start::Maybe => true,
            Start::Empty => self.completes(self.follow.len(), pos),
        }
    }

    /// Whether `items[i..]` read from `pos`, then what [`Parser::follow`] says comes after, can
    /// read the rest of the line when guards, conditions and value ranges are ignored, as
    /// [`Parser::recognizes`] judges the whole line (from the memoised end positions of each
    /// item list). A superset of what the search reads, as [`Parser::viable`], but judged on
    /// the whole rest of the line rather than its first token: a reading that cannot get to
    /// the end of the line is not tried, whatever its guards.
    pub(super) fn reaches_end(&mut self, items: &'static [Item], i: usize, pos: usize) -> bool {
        let depth = self.follow.len();
        self.ends_reach(items, i, pos, depth)
    }

    /// [`Parser::reaches_end`] with the first `depth` entries of [`Parser::follow`] after.
    fn ends_reach(&mut self, items: &'static [Item], i: usize, pos: usize, depth: usize) -> bool {
        let ends = self.ends(items, i, pos);
        ends.into_iter().any(|k| {
            let end = self.memo.items[k];
            self.follow_reaches(depth, end)
        })
    }

    /// Whether the first `depth` entries of [`Parser::follow`] can read the rest of the line
    /// from `pos` ([`Parser::reaches_end`]); the end of the line below them. An entry that is
    /// not known (inside a group read in any order) can.
    ///
    /// Answers are kept by the top entry's number and the position: the entries below an entry
    /// stay as they are while it is on the stack (one taken off for a while is put back on the
    /// same ones), so an answer holds as long as that entry is there.
    pub(super) fn follow_reaches(&mut self, depth: usize, pos: usize) -> bool {
        match depth.checked_sub(1).map(|d| self.follow[d]) {
            None => self.prefix || skip_blanks(self.text, pos) == self.text.len(),
            Some((None, _)) => true,
            Some((Some((items, i)), id)) => {
                let key = (id as usize, 0, pos as u32);
                // A re-entry at the same place (no text consumed) says it may.
                let filed = match self.reach.get_or_file(key, 1..1) {
                    Ok(r) => return r.start == 1,
                    Err(filed) => filed,
                };
                let answer = self.ends_reach(items, i, pos, depth - 1);
                self.reach.answer(filed, key, usize::from(answer)..usize::from(answer));
                answer
            }
        }
    }

    /// Whether the first `depth` entries of [`Parser::follow`] (the innermost last) can read
    /// the line from `pos`, as [`Parser::viable`]; the end of the line below them.
    pub(super) fn completes(&mut self, depth: usize, pos: usize) -> bool {
        let mut d = depth;
        loop {
            let Some((next, _)) = d.checked_sub(1).map(|d| self.follow[d]) else {
                return self.prefix || skip_blanks(self.text, pos) == self.text.len();
            };
            let Some((items, i)) = next else { return true };
            match self.starts(items, i, pos) {
                Start::Never => return false,
                Start::Maybe => return true,
                Start::Empty => d -= 1,
            }
        }
    }

    /// Whether the text read by `items[i..]` can start at `pos`, guards ignored, judged by
    /// the first item that reads text there: a literal or a name of a table that matches, a
    /// number (not looked at), a call one of whose arms can start there.
    fn starts(&mut self, items: &'static [Item], i: usize, pos: usize) -> Start {
        let key = (items.as_ptr() as usize, i as u32, pos as u32);
        // A re-entry at the same place (a template calling itself first) decides nothing.
        let filed = match self.starts.get_or_file(key, Start::Maybe as usize..Start::Maybe as usize) {
            Ok(r) => return Start::from(r.start),
            Err(filed) => filed,
        };
        let mut answer = Start::Empty;
        for item in items.iter().skip(i) {
            let first = match item {
                Item::Lit(s) => match self.literal(s, pos) {
                    Some(end) if end > pos => Start::Maybe,
                    Some(_) => Start::Empty,
                    None => Start::Never,
                },
                Item::Show(Expr::Arith(..) | Expr::If(..), _) | Item::Show(_, Show::Num(_)) => Start::Maybe,
                Item::Show(_, Show::Table(t)) => self.table_starts(t, pos),
                Item::Show(_, Show::TableIf(_, a, b)) => {
                    self.table_starts(a, pos).or(self.table_starts(b, pos))
                }
                Item::Call(sub, _) => {
                    let mut any = Start::Never;
                    for arm in sub.arms {
                        any = any.or(self.starts(arm.items, 0, pos));
                        if any == Start::Maybe {
                            break;
                        }
                    }
                    any
                }
                Item::Opt(_, body) => match self.starts(body, 0, pos) {
                    Start::Maybe => Start::Maybe,
                    Start::Never | Start::Empty => Start::Empty,
                },
                Item::AnyOrder(..) => Start::Maybe,
            };
            if first != Start::Empty {
                answer = first;
                break;
            }
        }
        self.starts.answer(filed, key, answer as usize..answer as usize);
        answer
    }

    /// [`Parser::starts`] for a name of `t`: one at `pos` that reads text, only empty ones, or
    /// none.
    fn table_starts(&mut self, t: &'static Table, pos: usize) -> Start {
        let (in_order, _) = self.spellings(t, pos);
        let mut answer = Start::Never;
        for k in in_order {
            match self.spellings.items[k].0 {
                0 => answer = Start::Empty,
                _ => return Start::Maybe,
            }
        }
        answer
    }

    /// The spellings of `t` at `pos` as (length, value), as indices into `self.spellings`:
    /// in table order, and longest first (the order the search tries them).
    pub(super) fn spellings(
        &mut self,
        t: &'static Table,
        pos: usize,
    ) -> (core::ops::Range<usize>, core::ops::Range<usize>) {
        let key = (t as *const Table as usize, 0, pos as u32);
        let r = match self.spellings.get(key) {
            Some(r) => r,
            None => {
                let items = &mut self.spellings.items;
                let first = items.len();
                let index = self.tables.get(t);
                t.candidates_indexed(index, self.text, pos, self.ctx.ignore_case, &mut |len, v| {
                    items.push((len, v))
                });
                let n = items.len() - first;
                items.extend_from_within(first..first + n);
                items[first + n..].sort_by_key(|c| core::cmp::Reverse(c.0));
                let r = first..items.len();
                self.spellings.insert(key, r.clone());
                r
            }
        };
        let mid = r.start + r.len() / 2;
        (r.start..mid, mid..r.end)
    }
}
