//! Detour control, the loop scheduler of Subways detour routing (run after the adaptive part of
//! every controller period). Hotness is counted in both directions: a ToR is *send-hot* when its
//! carried uplink utilisation exceeds `hot_threshold` for a whole `t_detect_s`, *receive-hot*
//! when its downlinks' (fabric -> ToR) does. When every ToR of a logical rack is hot in one
//! direction, the first ToR on each side of the contiguous hot group that is not hot in that
//! direction becomes a remote ToR (never one another active detour uses, in either direction,
//! reachable through at most `max_intermediate_servers` forwarding servers), whose virtual link
//! for that side caps detoured traffic at `spare_fraction` of its spare capacity. The scheduler
//! keeps a matching share of the rack's backlog in that direction on the detours (send side: the
//! rack's outgoing flows leave through the remote ToR; receive side: flows for the rack enter at
//! the remote ToR) and ends them after at least `t_duration_s` once the rack cools down. The
//! paths are built by [`crate::routing::detour::Detour::route_leg`].
//!
//! Statistics: the bits that crossed a detour's budget links while it was up, and the time they
//! saved, estimated as those bits over the rack's own capacity in that direction (the time the
//! rack's hot links would have needed to carry them too: exact while they stay saturated).

use std::collections::BTreeMap;

use crate::engine::plant::Plant;
use crate::network::Network;
use crate::routing::detour::{budget_link, Detour, DetourLeg, Placing, Side};
use crate::routing::{Router, NONE_DETOUR};
use crate::scenario::DetourParams;
use crate::units::{NodeId, Time};

/// Servers forward a detour only while their NICs are used below this share of the hot
/// threshold: a ToR merely under the threshold is usually one of the same job about to be hot,
/// whose servers are busy with their own traffic and would forward the detour at its expense.
const COOL: f64 = 0.5;

/// Smallest detour budget worth setting up, as a share of the remote ToR's uplink capacity.
const MIN_BUDGET: f64 = 0.01;

/// One detour set up by the loop scheduler.
#[derive(Clone, Debug)]
pub struct ActiveDetour {
    pub rack: String,
    /// Which of the rack's traffic the detour carries.
    pub side: Side,
    pub servers: Vec<NodeId>,
    pub rack_tors: Vec<NodeId>,
    pub hot: Vec<NodeId>,
    /// Remote ToRs and the ToR chain leading to each (first element: a ToR of the rack).
    pub remotes: Vec<(NodeId, Vec<NodeId>)>,
    pub start: Time,
    pub end: Option<Time>,
    pub flows: u64,
    pub max_intermediate: u32,
    /// Share of the rack's backlog to keep on the detour.
    pub share: f64,
    /// The rack's own capacity in the detour's direction (sum over its ToRs), Gb/s.
    pub own_gbps: f64,
    /// Bits the budget links had carried when the detour started, and when it ended.
    pub base_bits: f64,
    pub end_bits: Option<f64>,
    next_side: usize,
}

impl ActiveDetour {
    /// The budget links of the detour's remote ToRs.
    pub fn budget_links(&self, net: &Network) -> Vec<crate::units::LinkId> {
        self.remotes
            .iter()
            .map(|r| budget_link(net, self.side, r.0))
            .collect()
    }
}

/// Detour scheduler state (Subways detour routing).
#[derive(Clone, Debug)]
pub struct DetourScheduler {
    p: DetourParams,
    /// Uplink capacity per node, Gb/s (the router's).
    cap_up: Vec<f64>,
    /// Distinct ToRs of every server (the router's).
    server_tors: Vec<Vec<NodeId>>,
    /// Consecutive hot periods per node: uplinks (`[0]`) and downlinks (`[1]`).
    hot_ticks: [Vec<u32>; 2],
    prev_bits: [Vec<f64>; 2],
    /// Bits each server's NIC had carried (sent plus received) at the last period.
    prev_nic_bits: Vec<f64>,
    detours: Vec<ActiveDetour>,
    /// (direction, remote ToR) -> index of the active detour using it: a send and a receive
    /// detour use opposite directions of its links and of the forwarding servers' (full duplex)
    owner: BTreeMap<(usize, NodeId), usize>,
    /// logical racks: (name, servers, ToRs in loop order)
    racks: Vec<(String, Vec<NodeId>, Vec<NodeId>)>,
    /// (loop index, position) of each loop ToR
    tor_pos: Vec<Option<(usize, usize)>>,
}

impl DetourScheduler {
    pub fn new(net: &Network, router: &Detour) -> DetourScheduler {
        let server_tors = &router.ad.server_tors;
        let n = net.nodes.len();
        let mut tor_pos = vec![None; n];
        for (li, lp) in net.loops.iter().enumerate() {
            for (p, t) in lp.tors.iter().enumerate() {
                tor_pos[t.idx()] = Some((li, p));
            }
        }
        let mut by_rack: BTreeMap<String, Vec<NodeId>> = Default::default();
        for &s in &net.servers {
            if let Some(r) = &net.node(s).logical_rack {
                by_rack.entry(r.clone()).or_default().push(s);
            }
        }
        let racks = by_rack
            .into_iter()
            .filter_map(|(name, servers)| {
                let mut tors: Vec<NodeId> = servers
                    .iter()
                    .flat_map(|s| server_tors[s.idx()].iter().copied())
                    .collect();
                tors.sort();
                tors.dedup();
                (!tors.is_empty() && tors.iter().all(|t| tor_pos[t.idx()].is_some()))
                    .then_some((name, servers, tors))
            })
            .collect();
        DetourScheduler {
            p: router.p.clone(),
            cap_up: router.ad.cap_up.clone(),
            server_tors: server_tors.clone(),
            hot_ticks: [vec![0; n], vec![0; n]],
            prev_bits: [vec![0.0; n], vec![0.0; n]],
            prev_nic_bits: vec![0.0; n],
            detours: Vec::new(),
            owner: BTreeMap::new(),
            racks,
            tor_pos,
        }
    }

    /// Detours set up so far (ended ones included).
    pub fn detours(&self) -> &[ActiveDetour] {
        &self.detours
    }

    /// The detour part of a controller period (after the adaptive update), at time `now`.
    pub fn tick(&mut self, plant: &mut impl Plant, net: &Network, period: Time, now: Time) {
        let st = self;
        let p = &st.p;
        let cap_up = &st.cap_up;
        let period = period.as_secs_f64();
        // 1. carried utilisation of every loop ToR over the last period, up and down
        let mut util = [vec![0.0f64; net.nodes.len()], vec![0.0f64; net.nodes.len()]];
        for lp in &net.loops {
            for &t in &lp.tors {
                for (d, util_d) in util.iter_mut().enumerate() {
                    let mut bits = 0.0;
                    for l in net.uplinks(t) {
                        bits += plant.carried_bits(if d == 0 { l } else { l.reverse() });
                    }
                    let carried = bits - st.prev_bits[d][t.idx()];
                    st.prev_bits[d][t.idx()] = bits;
                    // a utilisation, so within [0, 1] (the carried bits of a period are never
                    // negative and never above what the links can carry; clamped so that no
                    // rounding or upstream fault turns into a capacity below 0 or above the ToR's)
                    let u = if cap_up[t.idx()] > 0.0 {
                        (carried / (cap_up[t.idx()] * 1e9 * period)).clamp(0.0, 1.0)
                    } else {
                        0.0
                    };
                    util_d[t.idx()] = u;
                    if u > p.hot_threshold {
                        st.hot_ticks[d][t.idx()] += 1;
                    } else {
                        st.hot_ticks[d][t.idx()] = 0;
                    }
                }
            }
        }
        // each server's NIC utilisation over the last period, the busier direction (a detour's
        // forwarding servers must have room for it: a busy server forwards at its own expense)
        let mut nic_util = vec![0.0f64; net.nodes.len()];
        for &sv in &net.servers {
            let (mut bits, mut cap) = (0.0, 0.0);
            for &l in &net.out[sv.idx()] {
                bits += plant.carried_bits(l) + plant.carried_bits(l.reverse());
                cap += net.link(l).gbps.0;
            }
            let carried = bits - st.prev_nic_bits[sv.idx()];
            st.prev_nic_bits[sv.idx()] = bits;
            if cap > 0.0 {
                // (sent plus received over twice one direction's capacity: a lower bound of the
                // busier direction, exact when the two are alike, as in a shuffle)
                nic_util[sv.idx()] = (carried / (2.0 * cap * 1e9 * period)).clamp(0.0, 1.0);
            }
        }
        let need = (p.t_detect_s / period).ceil().max(1.0) as u32;
        let dir = |side: Side| (side == Side::Receive) as usize;
        let hot = |t: NodeId, side: Side, hot_ticks: &[Vec<u32>; 2]| {
            hot_ticks[dir(side)][t.idx()] >= need
        };
        // 2. end detours whose rack cooled down (in their direction) after T_duration
        for i in 0..st.detours.len() {
            let dd = &st.detours[i];
            if dd.end.is_none()
                && (now.0 - dd.start.0) as f64 / 1e12 >= p.t_duration_s
                && !dd.rack_tors.iter().all(|&t| hot(t, dd.side, &st.hot_ticks))
            {
                let bits: f64 = dd
                    .budget_links(net)
                    .iter()
                    .map(|&l| plant.carried_bits(l))
                    .sum();
                st.detours[i].end = Some(now);
                st.detours[i].end_bits = Some(bits);
                let side = dir(st.detours[i].side);
                let remotes: Vec<NodeId> = st.detours[i].remotes.iter().map(|r| r.0).collect();
                for r in remotes {
                    st.owner.remove(&(side, r));
                }
                // its flows go back to the fabric: left on it, they would keep crossing a budget
                // set for a hot spot that is over (or share the next detour's)
                let stay: Vec<u32> = plant
                    .active_flows()
                    .filter(|f| f.binding.is_some_and(|b| b.detour == i as u32))
                    .map(|f| f.id)
                    .collect();
                for f in stay {
                    plant.reroute(f, None);
                }
            }
        }
        // 3. new hot spots: every ToR of a rack hot in one direction
        for side in [Side::Send, Side::Receive] {
            for ri in 0..st.racks.len() {
                let (name, servers, tors) = st.racks[ri].clone();
                if !tors.iter().all(|&t| hot(t, side, &st.hot_ticks)) {
                    continue;
                }
                if st
                    .detours
                    .iter()
                    .any(|dd| dd.end.is_none() && dd.rack == name && dd.side == side)
                {
                    continue;
                }
                let (li, p0) = st.tor_pos[tors[0].idx()].expect("loop tor");
                let ring = &net.loops[li].tors;
                let n = ring.len();
                let (mut lo, mut hi) = (0usize, 0usize); // offsets left/right of p0 still hot
                while lo + 1 < n && hot(ring[(p0 + n - lo - 1) % n], side, &st.hot_ticks) {
                    lo += 1;
                }
                while hi + 1 < n && hot(ring[(p0 + hi + 1) % n], side, &st.hot_ticks) {
                    hi += 1;
                }
                if lo + hi + 1 >= n {
                    continue; // the whole loop is hot: nowhere to go
                }
                let group: Vec<NodeId> =
                    (0..=lo + hi).map(|k| ring[(p0 + n - lo + k) % n]).collect();
                let left = ring[(p0 + n - lo - 1) % n];
                let right = ring[(p0 + hi + 1) % n];
                let mut remotes = Vec::new();
                // the detour budget of a remote ToR: its share of the spare capacity, within
                // [0, the ToR's capacity]; one under `MIN_BUDGET` of the ToR's capacity gives no
                // detour (flows moved onto a budget of 0, or of a rounding residue, would never
                // finish)
                let budget = |r: NodeId| {
                    let cap = cap_up[r.idx()];
                    let b =
                        p.spare_fraction * (cap * (1.0 - util[dir(side)][r.idx()])).clamp(0.0, cap);
                    if b >= MIN_BUDGET * cap {
                        b
                    } else {
                        0.0
                    }
                };
                for r in [left, right] {
                    if remotes.iter().any(|(x, _): &(NodeId, Vec<NodeId>)| *x == r)
                        || st.owner.contains_key(&(dir(side), r))
                        || hot(r, side, &st.hot_ticks)
                        || tors.contains(&r)
                        || budget(r) <= 0.0
                    {
                        continue;
                    }
                    let Some(chain) = tor_chain(
                        net,
                        &st.server_tors,
                        &tors,
                        r,
                        p.max_intermediate_servers as usize,
                    ) else {
                        continue;
                    };
                    if !forwarders_idle(
                        net,
                        &st.server_tors,
                        &chain,
                        &nic_util,
                        COOL * p.hot_threshold,
                    ) {
                        continue;
                    }
                    // the design's rule: the rack of the hot group nearest the remote ToR
                    // detours to it (the left-most rack left, the right-most right), through
                    // idle neighbours' servers rather than a busy neighbour's
                    let nearer = st.racks.iter().enumerate().any(|(rj, (_, _, other))| {
                        rj != ri
                            && other.iter().all(|&t| group.contains(&t))
                            && tor_chain(net, &st.server_tors, other, r, chain.len() - 2)
                                .is_some_and(|c| c.len() < chain.len())
                    });
                    if !nearer {
                        remotes.push((r, chain));
                    }
                }
                if remotes.is_empty() {
                    continue;
                }
                let idx = st.detours.len();
                let mut vcap = 0.0;
                let mut base_bits = 0.0;
                for (r, _) in &remotes {
                    st.owner.insert((dir(side), *r), idx);
                    let c = budget(*r);
                    plant.set_detour_cap(*r, side, c);
                    base_bits += plant.carried_bits(budget_link(net, side, *r));
                    vcap += c;
                }
                let own: f64 = tors.iter().map(|t| cap_up[t.idx()]).sum();
                let max_i = remotes
                    .iter()
                    .map(|(_, c)| c.len() as u32 - 1)
                    .max()
                    .unwrap_or(0);
                st.detours.push(ActiveDetour {
                    rack: name,
                    side,
                    servers,
                    rack_tors: tors,
                    hot: group,
                    remotes,
                    start: now,
                    end: None,
                    flows: 0,
                    max_intermediate: max_i,
                    share: vcap / (vcap + own).max(1e-12),
                    own_gbps: own,
                    base_bits,
                    end_bits: None,
                    next_side: 0,
                });
            }
        }
        // 4. keep each active detour's share of its rack's backlog (in its direction) on it
        let mut moves: Vec<(u32, usize)> = Vec::new();
        for (di, dd) in st.detours.iter().enumerate() {
            if dd.end.is_some() {
                continue;
            }
            let mut on = 0.0;
            let mut cand: Vec<(u32, f64)> = Vec::new();
            for fl in plant.active_flows() {
                // flows through the rack's ToRs and the fabric in the detour's direction
                let Some(path) = fl.path else { continue };
                if path.len() <= 2 {
                    continue;
                }
                let tor = match dd.side {
                    Side::Send => net.link(path[0]).to,
                    Side::Receive => net.link(path[path.len() - 1]).from,
                };
                let endpoint = if dd.side == Side::Send {
                    fl.src
                } else {
                    fl.dst
                };
                let rem = fl.remaining_bits;
                match fl.binding {
                    Some(b) if b.detour == di as u32 => on += rem,
                    Some(b)
                        if b.detour == NONE_DETOUR
                            && dd.servers.contains(&endpoint)
                            && dd.rack_tors.contains(&tor) =>
                    {
                        cand.push((fl.id, rem))
                    }
                    _ => {}
                }
            }
            let total = on + cand.iter().map(|c| c.1).sum::<f64>();
            let mut want = dd.share * total - on;
            for (f, rem) in cand {
                if want <= 0.0 {
                    break;
                }
                moves.push((f, di));
                want -= rem;
            }
        }
        // 5. new flows of each active detour's rack are placed on it by the router, at the
        // detour's share; count the ones placed since the last period
        if let Router::Detour(d) = plant.router() {
            for pl in &d.placing {
                if let Some(leg) = pl.legs.first() {
                    st.detours[leg.id as usize].flows += pl.placed;
                }
            }
            d.placing = st
                .detours
                .iter()
                .enumerate()
                .filter(|(_, dd)| dd.end.is_none())
                .map(|(di, dd)| Placing {
                    side: dd.side,
                    servers: dd.servers.clone(),
                    rack_tors: dd.rack_tors.clone(),
                    legs: dd
                        .remotes
                        .iter()
                        .map(|(remote, chain)| DetourLeg {
                            id: di as u32,
                            side: dd.side,
                            remote: *remote,
                            chain: chain.clone(),
                        })
                        .collect(),
                    share: dd.share,
                    placed: 0,
                })
                .collect();
        }
        // each moved flow goes to the next remote ToR of its detour (alternating sides of the
        // hot group), or the other one when that gives it no path; else it stays
        for (f, di) in moves {
            let dd = &mut st.detours[di];
            let k = dd.remotes.len();
            for t in 0..k {
                let (remote, chain) = &dd.remotes[(dd.next_side + t) % k];
                let leg = DetourLeg {
                    id: di as u32,
                    side: dd.side,
                    remote: *remote,
                    chain: chain.clone(),
                };
                if plant.reroute_detour(f, &leg) {
                    dd.next_side += 1;
                    dd.flows += 1;
                    break;
                }
            }
        }
    }
}

/// Whether the servers that can forward along `chain` (those on two consecutive ToRs of it) are,
/// on average for each hop, used below `limit`.
fn forwarders_idle(
    net: &Network,
    server_tors: &[Vec<NodeId>],
    chain: &[NodeId],
    nic_util: &[f64],
    limit: f64,
) -> bool {
    chain.windows(2).all(|hop| {
        let (mut sum, mut n) = (0.0, 0usize);
        for &l in &net.out[hop[0].idx()] {
            let sv = net.link(l).to;
            if net.is_server(sv) && server_tors[sv.idx()].contains(&hop[1]) {
                sum += nic_util[sv.idx()];
                n += 1;
            }
        }
        n > 0 && sum / (n as f64) < limit
    })
}

/// Shortest chain of loop ToRs from one of `from` to `to`, consecutive ToRs sharing a server;
/// `None` if it needs more than `max_servers` intermediate servers.
fn tor_chain(
    net: &Network,
    server_tors: &[Vec<NodeId>],
    from: &[NodeId],
    to: NodeId,
    max_servers: usize,
) -> Option<Vec<NodeId>> {
    let mut prev: BTreeMap<NodeId, Option<NodeId>> = from.iter().map(|&t| (t, None)).collect();
    let mut frontier: Vec<NodeId> = from.to_vec();
    for _ in 0..max_servers {
        let mut next = Vec::new();
        for &t in &frontier {
            for &l in &net.out[t.idx()] {
                let s = net.link(l).to;
                if !net.is_server(s) {
                    continue;
                }
                for &u in &server_tors[s.idx()] {
                    if let std::collections::btree_map::Entry::Vacant(v) = prev.entry(u) {
                        v.insert(Some(t));
                        next.push(u);
                    }
                }
            }
        }
        if prev.contains_key(&to) {
            let mut chain = vec![to];
            let mut x = to;
            while let Some(Some(p)) = prev.get(&x) {
                chain.push(*p);
                x = *p;
            }
            chain.reverse();
            return Some(chain);
        }
        frontier = next;
    }
    None
}
