//! The periodic controller of adaptive routing: every `T_rebind` it measures each ToR's offered
//! load, updates the routing EWMAs and lets every sender move flows towards its target split.

use super::{FlowEngine, Status};
use crate::network::Network;
use crate::routing::{Binding, Route, RouteCtx, Router};
use crate::scenario::RoutingSpec;
use crate::units::{NodeId, Time};

#[derive(Clone, Debug, Default)]
pub struct Controller {
    period: Option<Time>,
    /// A binding to impose on the next routing of flow `.0` (rebinding).
    force: Option<(u32, Binding)>,
    /// A detour (flow, detour index, side) to impose on the next routing of the flow.
    pub force_detour: Option<(u32, usize, usize)>,
    pub ticks: u64,
    pub detour: Option<DetourState>,
}

impl Controller {
    pub fn new(spec: &RoutingSpec, net: &Network, router: &mut Router) -> Controller {
        let period = match spec {
            RoutingSpec::Adaptive(p) => Some(p.t_rebind_s),
            RoutingSpec::Detour(p) => Some(p.t_rebind_s),
            _ => None,
        };
        let detour = match router {
            Router::Detour(d) => Some(DetourState::new(net, &d.ad.server_tors)),
            _ => None,
        };
        Controller {
            period: period.map(Time::from_secs_f64).filter(|t| t.0 > 0),
            detour,
            ..Default::default()
        }
    }

    pub fn period(&self) -> Option<Time> {
        self.period
    }

    /// Detours set up so far, for the report.
    pub fn detour_reports(&self, net: &Network) -> Vec<crate::report::DetourReport> {
        let Some(st) = &self.detour else {
            return Vec::new();
        };
        st.detours
            .iter()
            .map(|d| crate::report::DetourReport {
                rack: d.rack.clone(),
                hot_tors: d.hot.iter().map(|&t| net.name(t).to_string()).collect(),
                remote_tors: d
                    .remotes
                    .iter()
                    .map(|r| net.name(r.0).to_string())
                    .collect(),
                start_s: d.start.as_secs_f64(),
                end_s: d.end.map(|t| t.as_secs_f64()),
                flows: d.flows,
                max_intermediate_servers: d.max_intermediate,
            })
            .collect()
    }

    pub fn forced_binding(&self, f: u32) -> Option<Binding> {
        match self.force {
            Some((g, b)) if g == f => Some(b),
            _ => None,
        }
    }
}

/// Route a flow with an imposed source ToR.
pub fn route_bound(
    router: &mut Router,
    ctx: &RouteCtx,
    f: u32,
    src: NodeId,
    dst: NodeId,
    b: Binding,
) -> Route {
    let h = crate::routing::flow_hash(ctx.seed, f);
    match router.adaptive() {
        Some(ad) => {
            let r = ad.route(ctx, h, src, dst, Some(b.src_tor));
            if r.paths.is_empty() {
                router.route(ctx, f, src, dst)
            } else {
                r
            }
        }
        None => router.route(ctx, f, src, dst),
    }
}

/// One controller period.
pub fn tick(e: &mut FlowEngine) {
    e.ctl.ticks += 1;
    let Some(period) = e.ctl.period else { return };
    let n = e.net.nodes.len();
    let now = e.now;
    // 1. offered load per ToR: bytes still to send through its uplinks / what they carry per period
    let mut back_up = vec![0.0f64; n];
    let mut back_down = vec![0.0f64; n];
    let mut bound: Vec<(NodeId, u32, f64)> = Vec::new();
    for (f, fl) in e.flows.iter().enumerate() {
        let Some(first) = fl.subs.first() else {
            continue;
        };
        if fl.status != Status::Active {
            continue;
        }
        let rem = (fl.rem_bits - fl.rate * 1e-3 * (now.0 - fl.last.0) as f64).max(0.0);
        let path = e.fnet.path_of(first as usize);
        if path.len() > 2 {
            let st = e.net.link(path[0]).to;
            let dt = e.net.link(path[path.len() - 1]).from;
            back_up[st.idx()] += rem;
            back_down[dt.idx()] += rem;
        }
        if let Some(b) = fl.binding {
            if b.detour == crate::routing::NONE_DETOUR {
                bound.push((e.wl.flows[f].src, f as u32, rem));
            }
        }
    }
    let Some(ad) = e.router.adaptive() else {
        return;
    };
    let secs = period.as_secs_f64();
    for i in 0..n {
        let cap_bits = ad.cap_up[i] * 1e9 * secs;
        if cap_bits > 0.0 {
            back_up[i] /= cap_bits;
            back_down[i] /= cap_bits;
        } else {
            back_up[i] = 0.0;
            back_down[i] = 0.0;
        }
    }
    ad.update(&back_up, &back_down);
    // 2. rebinding, sender by sender (flows in index order)
    bound.sort_by_key(|x| (x.0, x.1));
    let mut moves: Vec<(u32, Binding)> = Vec::new();
    let mut i = 0;
    while i < bound.len() {
        let s = bound[i].0;
        let mut j = i;
        while j < bound.len() && bound[j].0 == s {
            j += 1;
        }
        let tors = ad.server_tors[s.idx()].clone();
        if tors.len() >= 2 {
            let mut per: Vec<Vec<(u32, f64)>> = vec![Vec::new(); tors.len()];
            let mut total = 0.0;
            for &(_, f, rem) in &bound[i..j] {
                let b = e.flows[f as usize].binding.expect("bound");
                if let Some(k) = tors.iter().position(|&t| t == b.src_tor) {
                    per[k].push((f, rem));
                    total += rem;
                }
            }
            if total > 0.0 {
                let u: Vec<f64> = per
                    .iter()
                    .map(|v| v.iter().map(|x| x.1).sum::<f64>() / total)
                    .collect();
                let t = ad.target_split(&tors, &u);
                let mut deficit: Vec<f64> =
                    (0..tors.len()).map(|k| (t[k] - u[k]) * total).collect();
                for k in 0..tors.len() {
                    let mut excess = -deficit[k];
                    for &(f, rem) in &per[k] {
                        if excess <= 0.0 {
                            break;
                        }
                        // move a flow only if it brings us closer to the target
                        if rem > 2.0 * excess {
                            continue;
                        }
                        let (best, _) = deficit.iter().enumerate().filter(|(m, _)| *m != k).fold(
                            (usize::MAX, 0.0),
                            |acc, (m, &d)| if d > acc.1 { (m, d) } else { acc },
                        );
                        if best == usize::MAX || deficit[best] < rem * 0.5 {
                            break;
                        }
                        let mut b = e.flows[f as usize].binding.expect("bound");
                        b.src_tor = tors[best];
                        deficit[best] -= rem;
                        deficit[k] += rem;
                        excess -= rem;
                        moves.push((f, b));
                    }
                }
            }
        }
        i = j;
    }
    ad.rebinds += moves.len() as u64;
    for (f, b) in moves {
        e.ctl.force = Some((f, b));
        e.reroute(f);
        e.ctl.force = None;
    }
    detour_tick(e);
}

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
#[derive(Clone, Debug, Default)]
pub struct DetourState {
    hot_ticks: Vec<u32>,
    prev_bits: Vec<f64>,
    pub detours: Vec<ActiveDetour>,
    /// remote ToR -> index of the active detour using it
    owner: std::collections::BTreeMap<NodeId, usize>,
    /// logical racks: (name, servers, ToRs in loop order)
    racks: Vec<(String, Vec<NodeId>, Vec<NodeId>)>,
    /// (loop index, position) of each loop ToR
    tor_pos: Vec<Option<(usize, usize)>>,
}

impl DetourState {
    pub fn new(net: &Network, server_tors: &[Vec<NodeId>]) -> DetourState {
        let n = net.nodes.len();
        let mut tor_pos = vec![None; n];
        for (li, lp) in net.loops.iter().enumerate() {
            for (p, t) in lp.tors.iter().enumerate() {
                tor_pos[t.idx()] = Some((li, p));
            }
        }
        let mut by_rack: std::collections::BTreeMap<String, Vec<NodeId>> = Default::default();
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
        DetourState {
            hot_ticks: vec![0; n],
            prev_bits: vec![0.0; n],
            tor_pos,
            racks,
            ..Default::default()
        }
    }
}

/// The detour part of a controller period (after the adaptive update).
pub fn detour_tick(e: &mut FlowEngine) {
    let Some(mut st) = e.ctl.detour.take() else {
        return;
    };
    let crate::routing::Router::Detour(d) = &e.router else {
        e.ctl.detour = Some(st);
        return;
    };
    let p = d.p.clone();
    let cap_up = d.ad.cap_up.clone();
    let server_tors = d.ad.server_tors.clone();
    let period = e.ctl.period.expect("detour has a period").as_secs_f64();
    let now = e.now;
    let net = e.net;
    // 1. carried uplink utilisation of every loop ToR over the last period
    let mut util = vec![0.0f64; net.nodes.len()];
    for lp in &net.loops {
        for &t in &lp.tors {
            let mut bits = 0.0;
            for l in net.uplinks(t) {
                bits += e.util.total_bits(l.idx());
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
    let hot = |t: NodeId, st: &DetourState| st.hot_ticks[t.idx()] >= need;
    // 2. end detours whose rack cooled down after T_duration
    for i in 0..st.detours.len() {
        let dd = &st.detours[i];
        if dd.end.is_none()
            && (now.0 - dd.start.0) as f64 / 1e12 >= p.t_duration_s
            && !dd.rack_tors.iter().all(|&t| hot(t, &st))
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
        if !tors.iter().all(|&t| hot(t, &st)) {
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
        while lo + 1 < n && hot(ring[(p0 + n - lo - 1) % n], &st) {
            lo += 1;
        }
        while hi + 1 < n && hot(ring[(p0 + hi + 1) % n], &st) {
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
                || hot(r, &st)
            {
                continue;
            }
            if let Some(chain) = tor_chain(
                net,
                &server_tors,
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
            e.fnet.set_cap(e.net.links.len() + r.idx(), c);
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
    let mut moves: Vec<(u32, usize, usize)> = Vec::new();
    for (di, dd) in st.detours.iter_mut().enumerate() {
        if dd.end.is_some() {
            continue;
        }
        let mut on = 0.0;
        let mut cand: Vec<(u32, f64)> = Vec::new();
        for (f, fl) in e.flows.iter().enumerate() {
            if fl.status != Status::Active || !dd.servers.contains(&e.wl.flows[f].src) {
                continue;
            }
            let rem = (fl.rem_bits - fl.rate * 1e-3 * (now.0 - fl.last.0) as f64).max(0.0);
            match fl.binding {
                Some(b) if b.detour == di as u32 => on += rem,
                Some(b) if b.detour == crate::routing::NONE_DETOUR => cand.push((f as u32, rem)),
                _ => {}
            }
        }
        let total = on + cand.iter().map(|c| c.1).sum::<f64>();
        let mut want = dd.share * total - on;
        for (f, rem) in cand {
            if want <= 0.0 {
                break;
            }
            moves.push((f, di, dd.next_side % dd.remotes.len()));
            dd.next_side += 1;
            dd.flows += 1;
            want -= rem;
        }
    }
    e.ctl.detour = Some(st);
    for (f, di, side) in moves {
        e.ctl.force_detour = Some((f, di, side));
        e.reroute(f);
        e.ctl.force_detour = None;
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
    let mut prev: std::collections::BTreeMap<NodeId, Option<NodeId>> =
        from.iter().map(|&t| (t, None)).collect();
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

/// The detour path of flow `f`: `src -> a -> n1 -> b -> ... -> remote -> (up-down) -> dst`, plus
/// the remote ToR's virtual link that caps detour traffic at its share of spare uplink capacity.
pub fn detour_route(e: &mut FlowEngine, f: u32, di: usize, side: usize) -> Option<Route> {
    let st = e.ctl.detour.as_ref()?;
    let dd = st.detours.get(di)?;
    let (remote, chain) = dd.remotes.get(side)?.clone();
    let spec = &e.wl.flows[f as usize];
    let (src, dst) = (spec.src, spec.dst);
    let net = e.net;
    let h = crate::routing::flow_hash(e.sc.engine.seed, f);
    let up = &e.up;
    let crate::routing::Router::Detour(d) = &mut e.router else {
        return None;
    };
    // the chain must start at a ToR of the source server
    let start = chain
        .iter()
        .position(|t| d.ad.server_tors[src.idx()].contains(t))?;
    let chain = &chain[start..];
    let first = net.out[src.idx()]
        .iter()
        .copied()
        .find(|&l| up[l.idx()] && net.link(l).to == chain[0])?;
    let mut path = vec![first];
    for (k, w) in chain.windows(2).enumerate() {
        let cands: Vec<NodeId> = net.out[w[0].idx()]
            .iter()
            .map(|&l| net.link(l).to)
            .filter(|&s| {
                net.is_server(s)
                    && s != src
                    && s != dst
                    && d.ad.server_tors[s.idx()].contains(&w[1])
            })
            .collect();
        if cands.is_empty() {
            return None;
        }
        let n = cands[(crate::rng::splitmix64(h ^ k as u64) % cands.len() as u64) as usize];
        let down = net.out[w[0].idx()]
            .iter()
            .copied()
            .find(|&l| up[l.idx()] && net.link(l).to == n)?;
        let upl = net.out[n.idx()]
            .iter()
            .copied()
            .find(|&l| up[l.idx()] && net.link(l).to == w[1])?;
        path.push(down);
        path.push(upl);
    }
    let rest = d.ad.ud.walk(net, up, remote, dst, h)?;
    path.extend(rest);
    path.push(crate::units::LinkId(
        (net.links.len() + remote.idx()) as u32,
    ));
    let j = net.link(path[path.len() - 2]).from;
    Some(Route {
        paths: vec![(path, 1.0)],
        binding: Some(Binding {
            src_tor: chain[0],
            dst_tor: j,
            detour: di as u32,
        }),
    })
}
