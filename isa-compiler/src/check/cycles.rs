//! Cycles in a graph of declarations, for the checks that forbid them: spec functions calling
//! functions (semantics.rs), layouts nesting layouts (layouts.rs), templates calling templates
//! (syntax.rs). Nodes are indices in an order the caller chooses (declaration order, or names in
//! order); an edge carries the span of the reference (the call, the field).
//!
//! One rule for every kind: a cycle is found from its first node in that order and reported as
//! the path from it, each edge with its span; the last edge leads back to the first node. A
//! self-reference is a cycle of one. Every cycle of the graph passes through some node of the
//! reported ones, so refusing to follow references into those nodes breaks every cycle.
//!
//! Both searches are iterative (a spec's chain of thousands of declarations does not deepen the
//! checker's stack), and only strongly connected parts with a cycle are searched per node, so an
//! acyclic graph costs one pass over its edges.

use crate::ast::Span;

/// A cycle: `nodes[i]` refers to `nodes[i + 1]` (the last to the first) at `at[i]`.
pub struct Cycle {
    pub nodes: Vec<usize>,
    pub at: Vec<Span>,
}

/// The cycles of `edges` (node → its references in order; references to nodes past the end
/// are ignored): from each node in order, a depth-first search through the later nodes of its
/// strongly connected part reports each edge back to it with the path taken. Each node is
/// entered once a search, so not every elementary cycle is listed, but every node on a cycle
/// first in order opens at least one report.
pub fn cycles(edges: &[Vec<(usize, Span)>]) -> Vec<Cycle> {
    let part = components(edges);
    let n = edges.len();
    let mut found = Vec::new();
    // seen[v] == root + 1 when the search from `root` entered `v` (no clearing between roots).
    let mut seen = vec![0usize; n];
    for root in 0..n {
        let inside = |to: usize| to < n && part[to] == part[root];
        if !edges[root].iter().any(|&(to, _)| inside(to)) {
            continue;
        }
        seen[root] = root + 1;
        let mut path = vec![root];
        let mut taken: Vec<Span> = Vec::new();
        let mut next = vec![0usize];
        while let (Some(&f), Some(i)) = (path.last(), next.last_mut()) {
            let Some(&(to, at)) = edges[f].get(*i) else {
                path.pop();
                next.pop();
                taken.pop();
                continue;
            };
            *i += 1;
            if to == root {
                let mut at_all = taken.clone();
                at_all.push(at);
                found.push(Cycle { nodes: path.clone(), at: at_all });
            } else if to > root && inside(to) && seen[to] != root + 1 {
                seen[to] = root + 1;
                path.push(to);
                next.push(0);
                taken.push(at);
            }
        }
    }
    found
}

/// Each node's strongly connected part (Tarjan's algorithm, iterative): nodes that reach each
/// other share a number.
fn components(edges: &[Vec<(usize, Span)>]) -> Vec<usize> {
    const NONE: usize = usize::MAX;
    let n = edges.len();
    let mut index = vec![NONE; n];
    let mut low = vec![0usize; n];
    let mut on_stack = vec![false; n];
    let mut stack = Vec::new();
    let mut part = vec![NONE; n];
    let (mut counter, mut parts) = (0usize, 0usize);
    for start in 0..n {
        if index[start] != NONE {
            continue;
        }
        let mut calls = vec![(start, 0usize)];
        index[start] = counter;
        low[start] = counter;
        counter += 1;
        stack.push(start);
        on_stack[start] = true;
        while let Some((v, i)) = calls.last_mut() {
            let v = *v;
            if let Some(&(w, _)) = edges[v].get(*i) {
                *i += 1;
                if w >= n {
                    continue;
                }
                if index[w] == NONE {
                    index[w] = counter;
                    low[w] = counter;
                    counter += 1;
                    stack.push(w);
                    on_stack[w] = true;
                    calls.push((w, 0));
                } else if on_stack[w] {
                    low[v] = low[v].min(index[w]);
                }
                continue;
            }
            calls.pop();
            if let Some(&(u, _)) = calls.last() {
                low[u] = low[u].min(low[v]);
            }
            if low[v] == index[v] {
                while let Some(w) = stack.pop() {
                    on_stack[w] = false;
                    part[w] = parts;
                    if w == v {
                        break;
                    }
                }
                parts += 1;
            }
        }
    }
    part
}
