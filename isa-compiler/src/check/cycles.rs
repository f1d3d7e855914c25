//! Cycles in a graph of declarations (functions calling functions), for the checks that forbid
//! them. Nodes are indices in declaration order; an edge carries the span of the reference.
//! (Layouts in layouts.rs and templates in syntax.rs still search their own graphs: moving them
//! here is the next step.)

use crate::ast::Span;

/// Every elementary cycle's first node in declaration order, as the path from it and the span
/// of the edge that leads back to it: each cycle once, found from its lowest node.
pub fn cycles(edges: &[Vec<(usize, Span)>]) -> Vec<(Vec<usize>, Span)> {
    let mut found = Vec::new();
    // Depth-first from each node through the nodes after it.
    for root in 0..edges.len() {
        let mut seen = vec![false; edges.len()];
        let mut path = vec![root];
        let mut next = vec![0usize];
        while let (Some(&f), Some(i)) = (path.last(), next.last_mut()) {
            let Some(&(to, at)) = edges[f].get(*i) else {
                path.pop();
                next.pop();
                continue;
            };
            *i += 1;
            if to == root {
                found.push((path.clone(), at));
            } else if to > root && to < edges.len() && !seen[to] {
                seen[to] = true;
                path.push(to);
                next.push(0);
            }
        }
    }
    found
}
