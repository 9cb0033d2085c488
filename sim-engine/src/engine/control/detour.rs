//! Detour control, the loop scheduler of Subways detour routing (run after the adaptive part of
//! every controller period): a ToR is hot when its carried uplink utilisation exceeds
//! `hot_threshold` for a whole `t_detect_s`; when every ToR of a logical rack is hot, the first
//! non-hot ToR on each side of the contiguous hot group becomes a remote ToR (never one another
//! active detour uses, reachable through at most `max_intermediate_servers` forwarding servers),
//! whose virtual link caps detoured traffic at `spare_fraction` of its spare uplink capacity.
//! The scheduler keeps a matching share of the rack's backlog on the detours and ends them after
//! at least `t_duration_s` once the rack cools down. The detour paths themselves are built by
//! [`crate::routing::detour::Detour::route_via`].

use std::collections::BTreeMap;

use crate::engine::plant::Plant;
use crate::network::Network;
use crate::routing::detour::Detour;
use crate::routing::NONE_DETOUR;
use crate::scenario::DetourParams;
use crate::units::{NodeId, Time};

/// One detour set up by the loop scheduler.
#[derive(Clone, Debug)]
pub struct ActiveDetour {
    pub rack: String,
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
    next_side: usize,
}

/// Detour scheduler state (Subways detour routing).
#[derive(Clone, Debug)]
pub struct DetourScheduler {
    p: DetourParams,
    /// Uplink capacity per node, Gb/s (the router's).
    cap_up: Vec<f64>,
    /// Distinct ToRs of every server (the router's).
    server_tors: Vec<Vec<NodeId>>,
    hot_ticks: Vec<u32>,
    prev_bits: Vec<f64>,
    detours: Vec<ActiveDetour>,
    /// remote ToR -> index of the active detour using it
    owner: BTreeMap<NodeId, usize>,
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
            hot_ticks: vec![0; n],
            prev_bits: vec![0.0; n],
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

    /// The detour part of a controller period (after the adaptive update).
    pub fn tick(&mut self, plant: &mut impl Plant, net: &Network, period: Time) {
        let st = self;
        let p = &st.p;
        let cap_up = &st.cap_up;
        let period = period.as_secs_f64();
        let now = plant.now();
        // 1. carried uplink utilisation of every loop ToR over the last period
        let mut util = vec![0.0f64; net.nodes.len()];
        for lp in &net.loops {
            for &t in &lp.tors {
                let mut bits = 0.0;
                for l in net.uplinks(t) {
                    bits += plant.carried_bits(l);
                }
                let carried = bits - st.prev_bits[t.idx()];
                st.prev_bits[t.idx()] = bits;
                util[t.idx()] = if cap_up[t.idx()] > 0.0 {
                    carried / (cap_up[t.idx()] * 1e9 * period)
                } else {
                    0.0
                };
                if util[t.idx()] > p.hot_threshold {
                    st.hot_ticks[t.idx()] += 1;
                } else {
                    st.hot_ticks[t.idx()] = 0;
                }
            }
        }
        let need = (p.t_detect_s / period).ceil().max(1.0) as u32;
        let hot = |t: NodeId, hot_ticks: &[u32]| hot_ticks[t.idx()] >= need;
        // 2. end detours whose rack cooled down after T_duration
        for i in 0..st.detours.len() {
            let dd = &st.detours[i];
            if dd.end.is_none()
                && (now.0 - dd.start.0) as f64 / 1e12 >= p.t_duration_s
                && !dd.rack_tors.iter().all(|&t| hot(t, &st.hot_ticks))
            {
                st.detours[i].end = Some(now);
                let remotes: Vec<NodeId> = st.detours[i].remotes.iter().map(|r| r.0).collect();
                for r in remotes {
                    st.owner.remove(&r);
                }
            }
        }
        // 3. new hot spots: every ToR of a rack hot
        for ri in 0..st.racks.len() {
            let (name, servers, tors) = st.racks[ri].clone();
            if !tors.iter().all(|&t| hot(t, &st.hot_ticks)) {
                continue;
            }
            if st
                .detours
                .iter()
                .any(|dd| dd.end.is_none() && dd.rack == name)
            {
                continue;
            }
            let (li, p0) = st.tor_pos[tors[0].idx()].expect("loop tor");
            let ring = &net.loops[li].tors;
            let n = ring.len();
            let (mut lo, mut hi) = (0usize, 0usize); // offsets left/right of p0 still hot
            while lo + 1 < n && hot(ring[(p0 + n - lo - 1) % n], &st.hot_ticks) {
                lo += 1;
            }
            while hi + 1 < n && hot(ring[(p0 + hi + 1) % n], &st.hot_ticks) {
                hi += 1;
            }
            if lo + hi + 1 >= n {
                continue; // the whole loop is hot: nowhere to go
            }
            let group: Vec<NodeId> = (0..=lo + hi).map(|k| ring[(p0 + n - lo + k) % n]).collect();
            let left = ring[(p0 + n - lo - 1) % n];
            let right = ring[(p0 + hi + 1) % n];
            let mut remotes = Vec::new();
            for r in [left, right] {
                if remotes.iter().any(|(x, _): &(NodeId, Vec<NodeId>)| *x == r)
                    || st.owner.contains_key(&r)
                    || hot(r, &st.hot_ticks)
                {
                    continue;
                }
                if let Some(chain) = tor_chain(
                    net,
                    &st.server_tors,
                    &tors,
                    r,
                    p.max_intermediate_servers as usize,
                ) {
                    remotes.push((r, chain));
                }
            }
            if remotes.is_empty() {
                continue;
            }
            let idx = st.detours.len();
            let mut vcap = 0.0;
            for (r, _) in &remotes {
                st.owner.insert(*r, idx);
                let spare = (cap_up[r.idx()] * (1.0 - util[r.idx()])).max(0.0);
                let c = p.spare_fraction * spare;
                plant.set_detour_cap(*r, c);
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
                servers,
                rack_tors: tors,
                hot: group,
                remotes,
                start: now,
                end: None,
                flows: 0,
                max_intermediate: max_i,
                share: vcap / (vcap + own).max(1e-12),
                next_side: 0,
            });
        }
        // 4. keep each active detour's share of its rack's backlog on the detour
        let mut moves: Vec<u32> = Vec::new();
        for (di, dd) in st.detours.iter_mut().enumerate() {
            if dd.end.is_some() {
                continue;
            }
            let mut on = 0.0;
            let mut cand: Vec<(u32, f64)> = Vec::new();
            for fl in plant.active_flows() {
                if !dd.servers.contains(&fl.src) {
                    continue;
                }
                let rem = fl.remaining_bits;
                match fl.binding {
                    Some(b) if b.detour == di as u32 => on += rem,
                    Some(b) if b.detour == NONE_DETOUR => cand.push((fl.id, rem)),
                    _ => {}
                }
            }
            let total = on + cand.iter().map(|c| c.1).sum::<f64>();
            let mut want = dd.share * total - on;
            for (f, rem) in cand {
                if want <= 0.0 {
                    break;
                }
                moves.push(f);
                dd.next_side += 1;
                dd.flows += 1;
                want -= rem;
            }
        }
        // The flows are re-routed by the router as any other flow: the detour path of their
        // side (`Detour::route_via`) is not imposed on them (as before this module was split
        // out; see the README's "detour" entry).
        for f in moves {
            plant.reroute(f, None);
        }
    }
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
