//! Memcache: clients send small requests to cache servers in the given racks; each response is a
//! follow-up flow started when its request has arrived. The rate search is a clearly labelled
//! *queueing estimate*, not a simulation: see [`estimate`].

use schemars::JsonSchema;
use serde::Serialize;

use super::{flow, Workload, NONE};
use crate::network::Network;
use crate::rng::{splitmix64, Rng};
use crate::routing::UpDown;
use crate::scenario::MemcacheSpec;
use crate::units::{NodeId, Time};

fn members(spec: &MemcacheSpec, net: &Network) -> (Vec<NodeId>, Vec<NodeId>) {
    let mut servers: Vec<NodeId> = spec
        .server_racks
        .iter()
        .flat_map(|r| net.servers_of_logical_rack(r))
        .collect();
    servers.sort();
    servers.dedup();
    let clients: Vec<NodeId> = match &spec.clients {
        Some(c) => c.iter().filter_map(|x| net.node_id(x)).collect(),
        None => net
            .servers
            .iter()
            .copied()
            .filter(|s| servers.binary_search(s).is_err())
            .collect(),
    };
    (clients, servers)
}

pub fn generate(w: &mut Workload, spec: &MemcacheSpec, net: &Network, rng: &mut Rng) {
    let (clients, servers) = members(spec, net);
    let mut t = 0.0;
    for r in 0..spec.requests {
        t += rng.exp(1.0 / spec.rate_per_s);
        let c = clients[rng.below(clients.len() as u64) as usize];
        let mut s = servers[rng.below(servers.len() as u64) as usize];
        if s == c {
            // a client that is also a cache server asks another one when it can
            if let Some(&o) = servers.iter().find(|&&x| x != c) {
                s = o;
            } else {
                continue;
            }
        }
        let req_idx = w.flows.len() as u32;
        let mut req = flow(Time::from_secs_f64(t), c, s, spec.request_bytes);
        req.group = r;
        req.follow_up = req_idx + 1;
        let mut resp = flow(Time::ZERO, s, c, spec.response_bytes);
        resp.group = r;
        resp.is_follow_up = true;
        resp.follow_up = NONE;
        w.flows.push(req);
        w.flows.push(resp);
    }
    w.groups = spec.requests;
    w.group_kind = "request";
}

/// Result of the memcache rate search (a queueing estimate, not a simulation).
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct MemcacheEstimate {
    /// What this is: always a queueing estimate, never simulated.
    pub model: String,
    /// Highest total request rate per second whose estimated mean latency stays under the bound.
    pub max_rate_per_s: f64,
    /// The bound, microseconds.
    pub latency_bound_us: f64,
    /// Estimated mean request latency at `max_rate_per_s`, microseconds.
    pub mean_latency_us_at_max: f64,
    /// Estimated mean latency with no load, microseconds.
    pub zero_load_latency_us: f64,
    /// Request rate at which the busiest link saturates.
    pub saturation_rate_per_s: f64,
    /// The busiest link (its cable id) and direction `from>to`.
    pub bottleneck_link: Option<String>,
}

/// Mean latency of a request + response over M/M/1 links: every directed link `l` is a queue whose
/// utilisation is `rho_l = lambda * B_l / C_l`, with `B_l` the bits per request crossing `l`; the
/// messages of a request spend `B_l / C_l / (1 - rho_l)` on it in all, plus the propagation
/// latency of their links. `routed`, when given, is `B_l` as the run's routing scheme placed the
/// simulated requests and responses (multipath splits, adaptive placement, detours included);
/// without it (nothing delivered), uniform client/server pairs on their ECMP paths. Propagation
/// is over the ECMP paths either way. The rate is found by bisection.
pub fn estimate(spec: &MemcacheSpec, net: &Network, routed: Option<&[f64]>) -> MemcacheEstimate {
    let (clients, servers) = members(spec, net);
    let up = vec![true; net.links.len()];
    let mut ud = UpDown::new(net);
    let req_bits = spec.request_bytes as f64 * 8.0;
    let resp_bits = spec.response_bytes as f64 * 8.0;
    // per-request expected bits on each link, and the list of (path_req, path_resp)
    let mut per_req = vec![0.0f64; net.links.len()];
    let mut pairs = Vec::new();
    for &c in &clients {
        for &s in &servers {
            if c == s {
                continue;
            }
            let h = splitmix64(((c.0 as u64) << 32) | s.0 as u64);
            if let (Some(a), Some(b)) = (ud.walk(&up, c, s, h), ud.walk(&up, s, c, h)) {
                pairs.push((a, b));
            }
        }
    }
    let np = pairs.len().max(1) as f64;
    let mut hops = vec![0.0f64; net.links.len()]; // message crossings per request (propagation)
    for (a, b) in &pairs {
        for l in a {
            per_req[l.idx()] += req_bits / np;
            hops[l.idx()] += 1.0 / np;
        }
        for l in b {
            per_req[l.idx()] += resp_bits / np;
            hops[l.idx()] += 1.0 / np;
        }
    }
    if let Some(r) = routed {
        per_req.copy_from_slice(&r[..net.links.len()]);
    }
    let cap_bps = |l: usize| net.links[l].gbps.0 * 1e9;
    let mut sat = f64::INFINITY;
    let mut bott = None;
    for (l, &b) in per_req.iter().enumerate() {
        if b > 0.0 {
            let r = cap_bps(l) / b;
            if r < sat {
                sat = r;
                bott = Some(l);
            }
        }
    }
    let latency_s = |lambda: f64| -> f64 {
        let mut total = 0.0;
        for l in 0..net.links.len() {
            if per_req[l] > 0.0 {
                let rho = lambda * per_req[l] / cap_bps(l);
                if rho >= 1.0 {
                    return f64::INFINITY;
                }
                total += per_req[l] / cap_bps(l) / (1.0 - rho);
            }
            total += hops[l] * net.links[l].latency.as_secs_f64();
        }
        total
    };
    let bound = spec.latency_bound_us * 1e-6;
    let zero = latency_s(0.0);
    let (mut lo, mut hi) = (0.0, if sat.is_finite() { sat } else { 1e12 });
    if zero > bound {
        hi = 0.0;
    }
    for _ in 0..100 {
        let mid = 0.5 * (lo + hi);
        if latency_s(mid) <= bound {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    MemcacheEstimate {
        model: if routed.is_some() {
            "queueing estimate (M/M/1 per directed link, Poisson requests; link loads per request as \
             the routing scheme placed the simulated requests and responses, propagation over ECMP \
             paths); not a simulation result"
        } else {
            "queueing estimate (M/M/1 per directed link, Poisson requests, uniform client/server \
             pairs on their ECMP paths); not a simulation result"
        }
        .into(),
        max_rate_per_s: lo,
        latency_bound_us: spec.latency_bound_us,
        mean_latency_us_at_max: latency_s(lo) * 1e6,
        zero_load_latency_us: zero * 1e6,
        saturation_rate_per_s: if sat.is_finite() { sat } else { 0.0 },
        bottleneck_link: bott.map(|l| {
            let link = &net.links[l];
            format!("{} ({}>{})", net.link_names[l / 2], net.name(link.from), net.name(link.to))
        }),
    }
}
