//! Shortest valley-free (up-down) paths. For a destination `d`, `down[n]` is the length of the
//! shortest strictly-descending path from `n` to `d`, and `vf[n]` the length of the shortest path
//! that first climbs then descends. Tables are built lazily per destination in O(links) (a
//! single-homed server shares its ToR's) and dropped whenever a link changes state. They hold
//! switches only: a path never passes through a server (layer 0: no valley), so a server's
//! distances follow from its switches' ([`Tables::at`]), and a destination's table costs its
//! switches, not its hosts (at k = 96, 11,520 entries instead of 232,704, times 4,608
//! destination ToRs). A path is
//! walked hop by hop, choosing among the equal-cost next links with a per-flow hash (per-hop
//! ECMP, as switches do).

use crate::network::Network;
use crate::rng::splitmix64;
use crate::units::{LinkId, NodeId};

pub const INF: u8 = u8::MAX;

/// Next-hop candidates a path walk keeps on the stack.
const STACK_HOPS: usize = 32;

/// Distances from one node towards a destination, kept together and small: a walk reads both,
/// and a destination's table is read cold (one byte each; a valley-free path is at most twice
/// the number of layers long, and anything from 255 hops on counts as unreachable).
#[derive(Clone, Copy, Debug)]
pub struct Dist {
    /// Shortest strictly-descending path.
    pub down: u8,
    /// Shortest path that first climbs then descends.
    pub vf: u8,
}

/// Distances towards one destination: every switch's, by its slot ([`Adjacency::slot`]).
#[derive(Clone, Debug)]
pub struct Tables {
    dst: NodeId,
    switches: Vec<Dist>,
}

const UNREACHABLE: Dist = Dist { down: INF, vf: INF };

impl Tables {
    /// The distances of node `n` towards the destination.
    #[inline]
    fn at(&self, adj: &Adjacency, up: &[bool], n: NodeId) -> Dist {
        match adj.slot[n.idx()] {
            NO_SLOT => self.server(adj, up, n),
            s => self.switches[s as usize],
        }
    }

    /// A server's distances: none down (unless it is the destination), and one hop more than the
    /// nearest of its switches up.
    fn server(&self, adj: &Adjacency, up: &[bool], n: NodeId) -> Dist {
        if n == self.dst {
            return Dist { down: 0, vf: 0 };
        }
        let vf = adj
            .out(n)
            .iter()
            .filter(|h| h.to_layer > 0 && up[h.link.idx()])
            .map(|h| self.switches[adj.slot[h.to.idx()] as usize].vf)
            .filter(|&v| v != INF)
            .map(|v| v + 1)
            .min()
            .unwrap_or(INF);
        Dist { down: INF, vf }
    }
}

/// The slot of a server: none (its distances are derived).
const NO_SLOT: u32 = u32::MAX;

#[derive(Clone, Debug, Default)]
pub struct UpDown {
    tables: Vec<Option<Tables>>,
    adj: Adjacency,
}

/// One outgoing directed link with what a path walk reads of its far end.
#[derive(Clone, Copy, Debug)]
struct Hop {
    link: LinkId,
    to: NodeId,
    to_layer: u8,
}

/// Where the distances towards a destination come from.
enum Towards {
    /// Its own table.
    Own,
    /// Its parent's table, then the one link down from the parent.
    ViaParent(NodeId, LinkId),
    /// Nowhere: its only link is down.
    Cut,
}

/// Outgoing links of every node in scenario order, flattened (`first[n]..first[n + 1]`), so a
/// walk reads one contiguous run per hop instead of chasing links and nodes.
#[derive(Clone, Debug, Default)]
struct Adjacency {
    first: Vec<u32>,
    hops: Vec<Hop>,
    layer: Vec<u8>,
    /// For a node whose only link goes up (a single-homed server): the node above and the link
    /// down to it. Every path to such a node is a path to its parent plus that link, so walks
    /// towards it use the parent's table instead of building one of its own.
    parent: Vec<Option<(NodeId, LinkId)>>,
    /// Each switch's index in a table (switches in decreasing layer, the order tables are built
    /// in); [`NO_SLOT`] for servers.
    slot: Vec<u32>,
    /// The switches, by slot.
    switches: Vec<NodeId>,
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
        let parent = (0..net.nodes.len())
            .map(|n| match &hops[first[n] as usize..first[n + 1] as usize] {
                [h] if h.to_layer > net.nodes[n].layer => Some((h.to, h.link.reverse())),
                _ => None,
            })
            .collect();
        let switches: Vec<NodeId> = net
            .by_layer_desc
            .iter()
            .copied()
            .filter(|n| net.nodes[n.idx()].layer > 0)
            .collect();
        let mut slot = vec![NO_SLOT; net.nodes.len()];
        for (i, n) in switches.iter().enumerate() {
            slot[n.idx()] = i as u32;
        }
        Adjacency {
            first,
            hops,
            layer: net.nodes.iter().map(|n| n.layer).collect(),
            parent,
            slot,
            switches,
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

    /// Distance tables towards `dst`.
    fn tables(&mut self, up: &[bool], dst: NodeId) -> &Tables {
        let slot = &mut self.tables[dst.idx()];
        if slot.is_none() {
            *slot = Some(build(&self.adj, up, dst));
        }
        slot.as_ref().expect("just built")
    }

    fn walk_from(
        &mut self,
        up: &[bool],
        src: NodeId,
        dst: NodeId,
        hash: u64,
        may_climb: bool,
    ) -> Option<Vec<LinkId>> {
        match self.towards(up, src, dst) {
            Towards::Own => {}
            Towards::Cut => return None,
            Towards::ViaParent(p, last) => {
                // the hop from the parent is the only candidate there: the same path, hop for hop
                let mut path = if src == p {
                    Vec::with_capacity(1)
                } else {
                    self.walk_from(up, src, p, hash, may_climb)?
                };
                path.push(last);
                return Some(path);
            }
        }
        self.tables(up, dst);
        let dist = self.tables[dst.idx()].as_ref().expect("built above");
        walk_tables(&self.adj, up, dist, src, dst, hash, may_climb)
    }

    /// Whether paths from `src` to `dst` come from `dst`'s own table or from its parent's.
    fn towards(&self, up: &[bool], src: NodeId, dst: NodeId) -> Towards {
        match self.adj.parent[dst.idx()] {
            Some((p, last)) if src != dst => {
                if up[last.idx()] {
                    Towards::ViaParent(p, last)
                } else {
                    Towards::Cut
                }
            }
            _ => Towards::Own,
        }
    }

    /// One of the distances (`pick`) from `src` to `dst` (INF if none).
    fn distance(&mut self, up: &[bool], src: NodeId, dst: NodeId, pick: fn(Dist) -> u8) -> u8 {
        match self.towards(up, src, dst) {
            Towards::Own => {
                self.tables(up, dst);
                let t = self.tables[dst.idx()].as_ref().expect("built above");
                pick(t.at(&self.adj, up, src))
            }
            Towards::Cut => INF,
            Towards::ViaParent(p, _) => {
                let d = if src == p {
                    0
                } else {
                    self.distance(up, src, p, pick)
                };
                if d >= INF - 1 {
                    INF
                } else {
                    d + 1
                }
            }
        }
    }

    /// Length of the shortest valley-free path from `src` to `dst` (INF if none).
    pub fn dist(&mut self, up: &[bool], src: NodeId, dst: NodeId) -> u8 {
        self.distance(up, src, dst, |d| d.vf)
    }

    /// Length of the shortest strictly descending path from `src` to `dst` (INF if none).
    pub fn down_dist(&mut self, up: &[bool], src: NodeId, dst: NodeId) -> u8 {
        self.distance(up, src, dst, |d| d.down)
    }

    /// Walk one shortest valley-free path from `src` to `dst`, choosing by `hash` at each hop.
    pub fn walk(
        &mut self,
        up: &[bool],
        src: NodeId,
        dst: NodeId,
        hash: u64,
    ) -> Option<Vec<LinkId>> {
        self.walk_from(up, src, dst, hash, true)
    }

    /// Walk a strictly descending path from `src` down to `dst`.
    pub fn walk_down(
        &mut self,
        up: &[bool],
        src: NodeId,
        dst: NodeId,
        hash: u64,
    ) -> Option<Vec<LinkId>> {
        self.walk_from(up, src, dst, hash, false)
    }

    /// A strictly ascending path from `src` up to `top` (the reverse of a descending path).
    pub fn walk_up(
        &mut self,
        up: &[bool],
        src: NodeId,
        top: NodeId,
        hash: u64,
    ) -> Option<Vec<LinkId>> {
        let p = self.walk_down(up, top, src, hash)?;
        Some(p.iter().rev().map(|l| l.reverse()).collect())
    }
}

/// Distance tables towards `dst`, over the flat adjacency (a k = 32 fat-tree's 9,472 nodes and
/// 49,152 directed links: reading links and node records instead cost three times as much).
fn build(adj: &Adjacency, up: &[bool], dst: NodeId) -> Tables {
    let m = adj.switches.len();
    let mut down = vec![u16::MAX; m];
    if adj.slot[dst.idx()] != NO_SLOT {
        down[adj.slot[dst.idx()] as usize] = 0;
    }
    // BFS upwards from dst: y gets down[x]+1 when y is above x and the link y->x is up (every
    // node above another is a switch)
    let mut frontier = vec![dst];
    let mut next = Vec::new();
    let mut d = 0u16;
    while !frontier.is_empty() {
        d += 1;
        for &x in &frontier {
            let lx = adj.layer[x.idx()];
            for h in adj.out(x) {
                // the hop used is y -> x, i.e. the reverse link
                if h.to_layer > lx && up[h.link.reverse().idx()] {
                    let y = adj.slot[h.to.idx()] as usize;
                    if down[y] == u16::MAX {
                        down[y] = d;
                        next.push(h.to);
                    }
                }
            }
        }
        std::mem::swap(&mut frontier, &mut next);
        next.clear();
    }
    // vf[x] = min(down[x], 1 + min over up-links x->y of vf[y]); slots run from the highest
    // layer down, so every y is final before x reads it
    let mut vf = down;
    let mut switches = vec![UNREACHABLE; m];
    for (sx, &x) in adj.switches.iter().enumerate() {
        let lx = adj.layer[x.idx()];
        let own = vf[sx];
        let mut best = own;
        for h in adj.out(x) {
            if h.to_layer > lx && up[h.link.idx()] {
                let y = vf[adj.slot[h.to.idx()] as usize];
                if y != u16::MAX {
                    best = best.min(y + 1);
                }
            }
        }
        vf[sx] = best;
        // `own` is still down[x]: the descent never changes in this pass
        switches[sx] = Dist {
            down: own.min(INF as u16) as u8,
            vf: best.min(INF as u16) as u8,
        };
    }
    Tables { dst, switches }
}

fn walk_tables(
    adj: &Adjacency,
    up: &[bool],
    dist: &Tables,
    src: NodeId,
    dst: NodeId,
    hash: u64,
    may_climb: bool,
) -> Option<Vec<LinkId>> {
    let mut climbing = may_climb;
    let d = dist.at(adj, up, src);
    let start = if climbing { d.vf } else { d.down };
    if start == INF {
        return None;
    }
    let mut path = Vec::with_capacity(start as usize);
    let mut x = src;
    let mut hop = 0u64;
    while x != dst {
        let dx = dist.at(adj, up, x);
        let rem = if climbing { dx.vf } else { dx.down };
        let lx = adj.layer[x.idx()];
        // a descending next hop exists only where the shortest descent is as short as the rest
        // (which skips, say, a ToR's servers on the way up without reading their distances)
        let may_descend = dx.down == rem;
        // Some(still climbing) for an equal-cost next hop
        let ok = |h: &Hop| -> Option<bool> {
            let hop_up = h.to_layer > lx;
            if (hop_up && !climbing) || (h.to_layer < lx && !may_descend) || !up[h.link.idx()] {
                return None;
            }
            if h.to_layer == 0 {
                // a server ends the path or is not on it (a path through it would be a valley)
                return (h.to == dst && rem == 1 && lx > 0).then_some(false);
            }
            let dy = dist.switches[adj.slot[h.to.idx()] as usize];
            if hop_up && dy.vf != INF && dy.vf + 1 == rem {
                return Some(true);
            }
            if h.to_layer < lx && dy.down != INF && dy.down + 1 == rem {
                return Some(false);
            }
            None
        };
        // the equal-cost next hops in link order, gathered in one pass on the stack (a second
        // pass only for a switch with more of them than the buffer holds)
        let outs = adj.out(x);
        let mut next = [0u16; STACK_HOPS];
        let mut count = 0;
        for (i, h) in outs.iter().enumerate() {
            if let Some(u) = ok(h) {
                if count < STACK_HOPS {
                    next[count] = (i as u16) << 1 | u16::from(u);
                }
                count += 1;
            }
        }
        if count == 0 {
            return None; // cannot happen with consistent tables
        }
        let pick = (splitmix64(hash ^ hop.wrapping_mul(0x9e37_79b9)) % count as u64) as usize;
        let (h, still_up) = if pick < STACK_HOPS && outs.len() <= u16::MAX as usize >> 1 {
            (&outs[(next[pick] >> 1) as usize], next[pick] & 1 == 1)
        } else {
            outs.iter()
                .filter_map(|h| ok(h).map(|u| (h, u)))
                .nth(pick)
                .expect("counted above")
        };
        path.push(h.link);
        climbing = climbing && still_up;
        x = h.to;
        hop += 1;
    }
    Some(path)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::{RandomSpec, RoutingSpec, WorkloadSpec};
    use crate::testkit::topology::{fat_tree, scenario, subways_type1, Cluster};

    /// Every node's distances towards `dst` straight from the definitions, over all nodes (the
    /// tables keep switches only and derive servers').
    fn reference(net: &Network, up: &[bool], dst: NodeId) -> Vec<Dist> {
        let n = net.nodes.len();
        let layer = |x: NodeId| net.nodes[x.idx()].layer;
        let mut down = vec![u16::MAX; n];
        down[dst.idx()] = 0;
        let mut changed = true;
        while changed {
            changed = false;
            for (i, l) in net.links.iter().enumerate() {
                // l.from above l.to, link up: a descent from `from` is one longer than `to`'s
                if layer(l.from) > layer(l.to) && up[i] && down[l.to.idx()] != u16::MAX {
                    let d = down[l.to.idx()] + 1;
                    if d < down[l.from.idx()] {
                        down[l.from.idx()] = d;
                        changed = true;
                    }
                }
            }
        }
        let mut vf = down.clone();
        changed = true;
        while changed {
            changed = false;
            for (i, l) in net.links.iter().enumerate() {
                if layer(l.to) > layer(l.from) && up[i] && vf[l.to.idx()] != u16::MAX {
                    let d = vf[l.to.idx()] + 1;
                    if d < vf[l.from.idx()] {
                        vf[l.from.idx()] = d;
                        changed = true;
                    }
                }
            }
        }
        (0..n)
            .map(|x| Dist {
                down: down[x].min(INF as u16) as u8,
                vf: vf[x].min(INF as u16) as u8,
            })
            .collect()
    }

    /// The switch-only tables give every node, servers included, the distances the definitions
    /// give: on a fat-tree (single-homed) and a Subways loop (servers on two ToRs), towards
    /// servers and switches, with links up and with some down.
    #[test]
    fn switch_tables_give_every_nodes_distances() {
        let random = WorkloadSpec::Random(RandomSpec {
            servers: None,
            flows: 1,
            bytes: 1,
            rate_per_s: None,
        });
        let loop_ = Cluster {
            racks: 5,
            servers_per_rack: 2,
            ports: 2,
            port_gbps: 10.0,
            spines: 2,
            uplink_gbps: 10.0,
        };
        for spec in [fat_tree(4, 10.0), subways_type1(&loop_)] {
            let net = scenario(spec, RoutingSpec::Ecmp, random.clone())
                .validate()
                .expect("valid");
            let mut up = vec![true; net.links.len()];
            for pass in 0..3 {
                if pass > 0 {
                    // a few links down, both directions (every 7th, then every 5th too)
                    for d in (0..net.links.len() / 2).filter(|d| d % [7, 5][pass - 1] == 3) {
                        up[2 * d] = false;
                        up[2 * d + 1] = false;
                    }
                }
                let adj = Adjacency::new(&net);
                for dst in (0..net.nodes.len() as u32).map(NodeId) {
                    let want = reference(&net, &up, dst);
                    let got = build(&adj, &up, dst);
                    for n in (0..net.nodes.len() as u32).map(NodeId) {
                        let (g, w) = (got.at(&adj, &up, n), want[n.idx()]);
                        assert_eq!(
                            (g.down, g.vf),
                            (w.down, w.vf),
                            "{n:?} -> {dst:?} pass {pass}"
                        );
                    }
                }
            }
        }
    }

    /// Walks to a single-homed server go through its parent's table; they must be exactly the
    /// walks its own table gives, hop for hop, with every link up and with an uplink down.
    #[test]
    fn walks_to_single_homed_servers_match_their_own_tables() {
        let sc = scenario(
            fat_tree(4, 10.0),
            RoutingSpec::Ecmp,
            WorkloadSpec::Random(RandomSpec {
                servers: None,
                flows: 1,
                bytes: 1,
                rate_per_s: None,
            }),
        );
        let net = sc.validate().expect("valid");
        let mut up = vec![true; net.links.len()];
        for pass in 0..2 {
            if pass == 1 {
                // one edge switch loses an uplink (both directions)
                let edge = net.servers[0];
                let l = net.out[edge.idx()][0];
                let tor = net.links[l.idx()].to;
                let uplink = net.out[tor.idx()]
                    .iter()
                    .copied()
                    .find(|&u| {
                        net.nodes[net.links[u.idx()].to.idx()].layer > net.nodes[tor.idx()].layer
                    })
                    .expect("a ToR has uplinks");
                up[uplink.idx()] = false;
                up[uplink.reverse().idx()] = false;
            }
            let mut ud = UpDown::new(&net);
            let mut via_parent = 0;
            for &dst in &net.servers {
                via_parent += usize::from(ud.adj.parent[dst.idx()].is_some());
                let own = build(&ud.adj, &up, dst);
                for n in (0..net.nodes.len() as u32).map(NodeId) {
                    // descents from every switch, as VLB reads them
                    assert_eq!(ud.down_dist(&up, n, dst), own.at(&ud.adj, &up, n).down);
                }
                for &src in &net.servers {
                    assert_eq!(ud.dist(&up, src, dst), own.at(&ud.adj, &up, src).vf);
                    for hash in [1u64, 7, 12345, u64::MAX] {
                        let expected = walk_tables(&ud.adj, &up, &own, src, dst, hash, true);
                        assert_eq!(ud.walk(&up, src, dst, hash), expected);
                    }
                }
            }
            assert_eq!(
                via_parent,
                net.servers.len(),
                "every fat-tree server is single-homed"
            );
        }
    }
}
