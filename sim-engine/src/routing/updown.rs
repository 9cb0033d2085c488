//! Shortest valley-free (up-down) paths. For a destination `d`, `down[n]` is the length of the
//! shortest strictly-descending path from `n` to `d`, and `vf[n]` the length of the shortest path
//! that first climbs then descends. Tables are built lazily per destination in O(links) and
//! dropped whenever a link changes state. A path is walked hop by hop, choosing among the
//! equal-cost next links with a per-flow hash (per-hop ECMP, as switches do).

use crate::network::Network;
use crate::rng::splitmix64;
use crate::units::{LinkId, NodeId};

pub const INF: u16 = u16::MAX;

/// `(down, vf)` distance tables towards one destination.
pub type Tables = (Vec<u16>, Vec<u16>);

#[derive(Clone, Debug, Default)]
pub struct UpDown {
    tables: Vec<Option<Box<Tables>>>,
}

impl UpDown {
    pub fn new(net: &Network) -> UpDown {
        UpDown {
            tables: vec![None; net.nodes.len()],
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
        let (down, vf) = self.tables(net, up, dst);
        walk_tables(net, up, down, vf, src, dst, hash, true)
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
        let (down, vf) = self.tables(net, up, dst);
        walk_tables(net, up, down, vf, src, dst, hash, false)
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
    net: &Network,
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
        let lx = net.nodes[x.idx()].layer;
        let ok = |l: LinkId| -> Option<bool> {
            if !up[l.idx()] {
                return None;
            }
            let y = net.links[l.idx()].to;
            let ly = net.nodes[y.idx()].layer;
            if climbing && ly > lx && vf[y.idx()] != INF && vf[y.idx()] + 1 == rem {
                return Some(true);
            }
            if ly < lx && down[y.idx()] != INF && down[y.idx()] + 1 == rem {
                return Some(false);
            }
            None
        };
        let outs = &net.out[x.idx()];
        let count = outs.iter().filter(|&&l| ok(l).is_some()).count();
        if count == 0 {
            return None; // cannot happen with consistent tables
        }
        let pick = (splitmix64(hash ^ hop.wrapping_mul(0x9e37_79b9)) % count as u64) as usize;
        let (l, still_up) = outs
            .iter()
            .filter_map(|&l| ok(l).map(|u| (l, u)))
            .nth(pick)
            .expect("counted above");
        path.push(l);
        climbing = climbing && still_up;
        x = net.links[l.idx()].to;
        hop += 1;
    }
    Some(path)
}
