//! Workloads: turn the scenario's workload into a list of flows with arrival times.
//! Every random choice uses the explicit seeded [`Rng`], so the list is a pure function of the
//! scenario and seed.

pub mod collective;
pub mod memcache;

use crate::network::Network;
use crate::rng::Rng;
use crate::scenario::{QuerySpec, WorkloadSpec};
use crate::units::{Bytes, NodeId, Time};

/// No group / no follow-up.
pub const NONE: u32 = u32::MAX;

/// One flow to simulate.
#[derive(Clone, Debug)]
pub struct FlowSpec {
    /// Arrival time (ignored for follow-up flows, which start when their parent finishes).
    pub arrival: Time,
    pub src: NodeId,
    pub dst: NodeId,
    pub bytes: Bytes,
    /// Query / request this flow belongs to, or [`NONE`].
    pub group: u32,
    /// Index of a flow started when this one finishes (memcache responses), or [`NONE`].
    pub follow_up: u32,
    /// True when started by a parent rather than by its arrival time.
    pub is_follow_up: bool,
}

/// The generated workload.
#[derive(Clone, Debug, Default)]
pub struct Workload {
    /// All flows; roots are sorted by arrival time (stable).
    pub flows: Vec<FlowSpec>,
    /// Indices of root flows in arrival order.
    pub roots: Vec<u32>,
    /// Number of groups (queries or memcache requests).
    pub groups: u32,
    /// What a group is called in the result (`query` or `request`).
    pub group_kind: &'static str,
}

fn resolve(net: &Network, ids: &Option<Vec<String>>) -> Vec<NodeId> {
    match ids {
        Some(ids) => ids.iter().filter_map(|s| net.node_id(s)).collect(),
        None => net.servers.clone(),
    }
}

fn flow(arrival: Time, src: NodeId, dst: NodeId, bytes: u64) -> FlowSpec {
    FlowSpec {
        arrival,
        src,
        dst,
        bytes: Bytes(bytes),
        group: NONE,
        follow_up: NONE,
        is_follow_up: false,
    }
}

/// Generate the flows of a (validated) scenario's workload.
pub fn generate(spec: &WorkloadSpec, net: &Network, seed: u64) -> Workload {
    let mut rng = Rng::new(seed, 0x574c);
    let mut w = Workload {
        group_kind: "query",
        ..Default::default()
    };
    match spec {
        WorkloadSpec::Shuffle(s) => {
            let servers = resolve(net, &s.servers);
            let t = Time::from_secs_f64(s.start_s);
            all_pairs(&mut w, &servers, &servers, 1, s.bytes_per_pair, t);
        }
        WorkloadSpec::AllToAll(s) => {
            let servers = resolve(net, &s.servers);
            all_pairs(&mut w, &servers, &servers, 1, s.bytes, Time::ZERO);
        }
        WorkloadSpec::ManyToMany(s) => {
            let snd = resolve(net, &Some(s.senders.clone()));
            let rcv = resolve(net, &Some(s.receivers.clone()));
            all_pairs(&mut w, &snd, &rcv, s.flows_per_pair, s.bytes, Time::ZERO);
        }
        WorkloadSpec::Permutation(s) => {
            let servers = resolve(net, &s.servers);
            // Random derangement: shuffle, then send i -> i+1 around the shuffled cycle.
            let mut order = servers.clone();
            rng.shuffle(&mut order);
            for i in 0..order.len() {
                w.flows.push(flow(
                    Time::ZERO,
                    order[i],
                    order[(i + 1) % order.len()],
                    s.bytes,
                ));
            }
        }
        WorkloadSpec::Random(s) => {
            let servers = resolve(net, &s.servers);
            let mut t = 0.0;
            for _ in 0..s.flows {
                if let Some(rate) = s.rate_per_s {
                    t += rng.exp(1.0 / rate);
                }
                let (a, b) = distinct_pair(&mut rng, &servers);
                w.flows.push(flow(Time::from_secs_f64(t), a, b, s.bytes));
            }
        }
        WorkloadSpec::Poisson(s) => {
            let servers = resolve(net, &s.servers);
            let cdf = s.cdf.to_cdf().expect("validated");
            let cap_bits: f64 = servers.iter().map(|&n| net.server_nic_gbps(n) * 1e9).sum();
            // load * capacity = rate * mean_bits  =>  rate = load * capacity / mean_bits
            let rate = s.load * cap_bits / (cdf.mean() * 8.0);
            let mut t = 0.0;
            for _ in 0..s.flows {
                t += rng.exp(1.0 / rate);
                let (a, b) = if s.inter_rack_only {
                    inter_rack_pair(&mut rng, &servers, net)
                } else {
                    distinct_pair(&mut rng, &servers)
                };
                let size = cdf.sample(&mut rng);
                w.flows.push(flow(Time::from_secs_f64(t), a, b, size));
            }
        }
        WorkloadSpec::Incast(q) | WorkloadSpec::Query(q) => {
            let n = spec.query_count().expect("a query workload has a count");
            queries(&mut w, q, net, &mut rng, n)
        }
        WorkloadSpec::Memcache(m) => memcache::generate(&mut w, m, net, &mut rng),
        WorkloadSpec::Collective(c) => collective::generate(&mut w, c, net),
    }
    finish(&mut w);
    w
}

pub(crate) fn finish(w: &mut Workload) {
    let mut roots: Vec<u32> = (0..w.flows.len() as u32)
        .filter(|&i| !w.flows[i as usize].is_follow_up)
        .collect();
    roots.sort_unstable_by_key(|&i| (w.flows[i as usize].arrival, i)); // keys are unique
    w.roots = roots;
}

fn all_pairs(w: &mut Workload, snd: &[NodeId], rcv: &[NodeId], k: u32, bytes: u64, t: Time) {
    for &a in snd {
        for &b in rcv {
            if a != b {
                for _ in 0..k {
                    w.flows.push(flow(t, a, b, bytes));
                }
            }
        }
    }
}

pub(crate) fn distinct_pair(rng: &mut Rng, servers: &[NodeId]) -> (NodeId, NodeId) {
    let n = servers.len() as u64;
    let a = rng.below(n);
    let mut b = rng.below(n - 1);
    if b >= a {
        b += 1;
    }
    (servers[a as usize], servers[b as usize])
}

/// A pair drawn uniformly among the ordered pairs of servers in different logical racks
/// (rejection of uniform distinct pairs; validation made sure there is one).
fn inter_rack_pair(rng: &mut Rng, servers: &[NodeId], net: &Network) -> (NodeId, NodeId) {
    loop {
        let (a, b) = distinct_pair(rng, servers);
        if net.node(a).logical_rack != net.node(b).logical_rack {
            return (a, b);
        }
    }
}

/// `n` fan-ins (the count with its default applied by [`WorkloadSpec::query_count`]).
fn queries(w: &mut Workload, q: &QuerySpec, net: &Network, rng: &mut Rng, n: u32) {
    let rate = q.rate_per_s();
    let fixed_rcv = q.receiver.as_ref().and_then(|r| net.node_id(r));
    let fixed_snd: Option<Vec<NodeId>> = q
        .senders
        .as_ref()
        .map(|s| s.iter().filter_map(|x| net.node_id(x)).collect());
    let fan_in = q.fan_in() as usize;
    let mut t = 0.0;
    for g in 0..n {
        if g > 0 {
            t += rng.exp(1.0 / rate);
        }
        let rcv =
            fixed_rcv.unwrap_or_else(|| net.servers[rng.below(net.servers.len() as u64) as usize]);
        let snd: Vec<NodeId> = match &fixed_snd {
            // (a receiver drawn at random may be one of the senders: it does not send to itself,
            // a flow with no link to cross that would never finish)
            Some(s) => s.iter().copied().filter(|&x| x != rcv).collect(),
            None => {
                let mut pool: Vec<NodeId> =
                    net.servers.iter().copied().filter(|&s| s != rcv).collect();
                rng.shuffle(&mut pool);
                pool.truncate(fan_in);
                pool.sort();
                pool
            }
        };
        for s in snd {
            let mut f = flow(Time::from_secs_f64(t), s, rcv, q.response_bytes);
            f.group = g;
            w.flows.push(f);
        }
    }
    w.groups = n;
    w.group_kind = "query";
}
