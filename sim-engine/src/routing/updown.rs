//! Shortest valley-free (up-down) paths. For a destination `d`, `down[n]` is the length of the
//! shortest strictly-descending path from `n` to `d`, and `vf[n]` the length of the shortest path
//! that first climbs then descends. Tables are built lazily per destination in O(links) and
//! dropped whenever a link changes state. A path is walked hop by hop, choosing among the
//! equal-cost next links with a per-flow hash (per-hop ECMP, as switches do).

use crate::network::Network;
use crate::rng::splitmix64;
use crate::units::{LinkId, NodeId};

pub const INF: u16 = u16::MAX;

/// Next-hop candidates a path walk keeps on the stack.
const STACK_HOPS: usize = 64;

/// `(down, vf)` distance tables towards one destination.
pub type Tables = (Vec<u16>, Vec<u16>);

#[derive(Clone, Debug, Default)]
pub struct UpDown {
    tables: Vec<Option<Box<Tables>>>,
    adj: Adjacency,
}

/// One outgoing directed link with what a path walk reads of its far end.
#[derive(Clone, Copy, Debug)]
struct Hop {
    link: LinkId,
    to: NodeId,
    to_layer: u8,
}

/// Outgoing links of every node in scenario order, flattened (`first[n]..first[n + 1]`), so a
/// walk reads one contiguous run per hop instead of chasing links and nodes.
#[derive(Clone, Debug, Default)]
struct Adjacency {
    first: Vec<u32>,
    hops: Vec<Hop>,
    layer: Vec<u8>,
}

impl Adjacency {
    fn new(net: &Network) -> Adjacency {
        let mut first = Vec::with_capacity(net.nodes.len() + 1);
        let mut hops = Vec::with_capacity(net.links.len());
        for out in &net.out {
            first.push(hops.len() as u32);
            hops.extend(out.iter().map(|&l| {
                let to = net.links[l.idx()].to;
                Hop {
                    link: l,
                    to,
                    to_layer: net.nodes[to.idx()].layer,
                }
            }));
        }
        first.push(hops.len() as u32);
        Adjacency {
            first,
            hops,
            layer: net.nodes.iter().map(|n| n.layer).collect(),
        }
    }

    fn out(&self, n: NodeId) -> &[Hop] {
        &self.hops[self.first[n.idx()] as usize..self.first[n.idx() + 1] as usize]
    }
}

impl UpDown {
    pub fn new(net: &Network) -> UpDown {
        UpDown {
            tables: vec![None; net.nodes.len()],
            adj: Adjacency::new(net),
        }
    }

    /// Forget every table (after a failure or recovery).
    pub fn invalidate(&mut self) {
        for t in &mut self.tables {
            *t = None;
        }
    }

    /// `(down, vf)` tables towards `dst`.
    pub fn tables(&mut self, net: &Network, up: &[bool], dst: NodeId) -> &(Vec<u16>, Vec<u16>) {
        let slot = &mut self.tables[dst.idx()];
        if slot.is_none() {
            *slot = Some(Box::new(build(net, up, dst)));
        }
        slot.as_deref().expect("just built")
    }

    fn walk_from(
        &mut self,
        net: &Network,
        up: &[bool],
        src: NodeId,
        dst: NodeId,
        hash: u64,
        may_climb: bool,
    ) -> Option<Vec<LinkId>> {
        self.tables(net, up, dst);
        let (down, vf) = self.tables[dst.idx()].as_deref().expect("built above");
        walk_tables(&self.adj, up, down, vf, src, dst, hash, may_climb)
    }

    /// Length of the shortest valley-free path from `src` to `dst` (INF if none).
    pub fn dist(&mut self, net: &Network, up: &[bool], src: NodeId, dst: NodeId) -> u16 {
        self.tables(net, up, dst).1[src.idx()]
    }

    /// Walk one shortest valley-free path from `src` to `dst`, choosing by `hash` at each hop.
    pub fn walk(
        &mut self,
        net: &Network,
        up: &[bool],
        src: NodeId,
        dst: NodeId,
        hash: u64,
    ) -> Option<Vec<LinkId>> {
        self.walk_from(net, up, src, dst, hash, true)
    }

    /// Walk a strictly descending path from `src` down to `dst`.
    pub fn walk_down(
        &mut self,
        net: &Network,
        up: &[bool],
        src: NodeId,
        dst: NodeId,
        hash: u64,
    ) -> Option<Vec<LinkId>> {
        self.walk_from(net, up, src, dst, hash, false)
    }

    /// A strictly ascending path from `src` up to `top` (the reverse of a descending path).
    pub fn walk_up(
        &mut self,
        net: &Network,
        up: &[bool],
        src: NodeId,
        top: NodeId,
        hash: u64,
    ) -> Option<Vec<LinkId>> {
        let p = self.walk_down(net, up, top, src, hash)?;
        Some(p.iter().rev().map(|l| l.reverse()).collect())
    }
}

fn build(net: &Network, up: &[bool], dst: NodeId) -> (Vec<u16>, Vec<u16>) {
    let n = net.nodes.len();
    let mut down = vec![INF; n];
    down[dst.idx()] = 0;
    // BFS upwards from dst: y gets down[x]+1 when y is above x and the link y->x is up.
    let mut frontier = vec![dst];
    let mut next = Vec::new();
    let mut d = 0u16;
    while !frontier.is_empty() {
        d += 1;
        for &x in &frontier {
            let lx = net.nodes[x.idx()].layer;
            for &l in &net.out[x.idx()] {
                let y = net.links[l.idx()].to;
                // the hop used is y -> x, i.e. the reverse link
                if net.nodes[y.idx()].layer > lx && up[l.reverse().idx()] && down[y.idx()] == INF {
                    down[y.idx()] = d;
                    next.push(y);
                }
            }
        }
        std::mem::swap(&mut frontier, &mut next);
        next.clear();
    }
    // vf[x] = min(down[x], 1 + min over up-links x->y of vf[y]); process higher layers first.
    let mut vf = down.clone();
    for &x in &net.by_layer_desc {
        let lx = net.nodes[x.idx()].layer;
        let mut best = vf[x.idx()];
        for &l in &net.out[x.idx()] {
            let y = net.links[l.idx()].to;
            if net.nodes[y.idx()].layer > lx && up[l.idx()] && vf[y.idx()] != INF {
                best = best.min(vf[y.idx()] + 1);
            }
        }
        vf[x.idx()] = best;
    }
    (down, vf)
}

#[allow(clippy::too_many_arguments)]
fn walk_tables(
    adj: &Adjacency,
    up: &[bool],
    down: &[u16],
    vf: &[u16],
    src: NodeId,
    dst: NodeId,
    hash: u64,
    may_climb: bool,
) -> Option<Vec<LinkId>> {
    let mut climbing = may_climb;
    let start = if climbing {
        vf[src.idx()]
    } else {
        down[src.idx()]
    };
    if start == INF {
        return None;
    }
    let mut path = Vec::with_capacity(start as usize);
    let mut x = src;
    let mut hop = 0u64;
    while x != dst {
        let rem = if climbing { vf[x.idx()] } else { down[x.idx()] };
        let lx = adj.layer[x.idx()];
        let ok = |h: &Hop| -> Option<bool> {
            if !up[h.link.idx()] {
                return None;
            }
            let (y, ly) = (h.to, h.to_layer);
            if climbing && ly > lx && vf[y.idx()] != INF && vf[y.idx()] + 1 == rem {
                return Some(true);
            }
            if ly < lx && down[y.idx()] != INF && down[y.idx()] + 1 == rem {
                return Some(false);
            }
            None
        };
        // the equal-cost next hops in link order, gathered in one pass on the stack (a second
        // pass only for a switch with more of them than the buffer holds)
        let outs = adj.out(x);
        let mut next = [(LinkId(0), NodeId(0), false); STACK_HOPS];
        let mut count = 0;
        for h in outs {
            if let Some(u) = ok(h) {
                if count < STACK_HOPS {
                    next[count] = (h.link, h.to, u);
                }
                count += 1;
            }
        }
        if count == 0 {
            return None; // cannot happen with consistent tables
        }
        let pick = (splitmix64(hash ^ hop.wrapping_mul(0x9e37_79b9)) % count as u64) as usize;
        let (l, to, still_up) = if pick < STACK_HOPS {
            next[pick]
        } else {
            outs.iter()
                .filter_map(|h| ok(h).map(|u| (h.link, h.to, u)))
                .nth(pick)
                .expect("counted above")
        };
        path.push(l);
        climbing = climbing && still_up;
        x = to;
        hop += 1;
    }
    Some(path)
}
