//! Workloads: turn the scenario's workload into a list of flows with arrival times.
//! Every random choice uses the explicit seeded [`Rng`], so the list is a pure function of the
//! scenario and seed.

pub mod collective;
pub mod memcache;
pub mod training;

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
    /// Steps this flow stands for beyond its own, each paying the flow's latency terms again
    /// (a pipelined ring phase's flow carries `n - 1` steps' bytes: `n - 2` here); 0 for others.
    pub extra_steps: u32,
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
    /// Start conditions beyond `follow_up`: flows that start when several others are done,
    /// some after a delay (GPU collectives, training steps).
    pub deps: Deps,
    /// Collectives and training steps: the first flow of each segment (an iteration of a
    /// collective; an iteration's bucket all-reduce of a training step), then the flow count.
    pub segments: Vec<u32>,
}

/// A flow's start condition on another flow: start no earlier than `flow`'s end plus `delay`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct After {
    pub flow: u32,
    pub delay: Time,
}

impl After {
    /// Right at `flow`'s end.
    pub fn end_of(flow: u32) -> After {
        After {
            flow,
            delay: Time::ZERO,
        }
    }
}

/// Dependencies between flows (the general form of `follow_up`): a flow with predecessors
/// starts at `max(arrival, max over them of end + delay)`.
/// Built as a list of edges, then laid out by predecessor ([`finish`]).
#[derive(Clone, Debug, Default)]
pub struct Deps {
    edges: Vec<(u32, u32, Time)>,
    /// Per flow, where its successors start in `succ` (one more entry than flows; empty when
    /// there are no edges).
    first: Vec<u32>,
    /// (successor, delay), grouped by predecessor in edge order.
    succ: Vec<(u32, Time)>,
    /// Per flow, its number of predecessors.
    preds: Vec<u32>,
}

impl Deps {
    /// `succ` starts after `a`.
    pub fn add(&mut self, succ: u32, a: After) {
        self.edges.push((a.flow, succ, a.delay));
    }
    pub fn is_empty(&self) -> bool {
        self.first.is_empty() && self.edges.is_empty()
    }
    /// Flow `f`'s predecessors (0 when it has none here).
    pub fn preds(&self, f: u32) -> u32 {
        self.preds.get(f as usize).copied().unwrap_or(0)
    }
    /// Flow `f`'s successors: (flow, delay).
    pub fn successors(&self, f: u32) -> &[(u32, Time)] {
        match self.first.get(f as usize) {
            Some(&a) => &self.succ[a as usize..self.first[f as usize + 1] as usize],
            None => &[],
        }
    }
    fn build(&mut self, flows: usize) {
        if self.edges.is_empty() {
            return;
        }
        let mut first = vec![0u32; flows + 1];
        let mut preds = vec![0u32; flows];
        for &(p, s, _) in &self.edges {
            first[p as usize + 1] += 1;
            preds[s as usize] += 1;
        }
        for i in 0..flows {
            first[i + 1] += first[i];
        }
        let mut at = first.clone();
        let mut succ = vec![(0u32, Time::ZERO); self.edges.len()];
        for &(p, s, d) in &self.edges {
            succ[at[p as usize] as usize] = (s, d);
            at[p as usize] += 1;
        }
        self.edges = Vec::new();
        self.first = first;
        self.succ = succ;
        self.preds = preds;
    }
}

/// What starts flows at other flows' ends, during a run: one for flow and packet mode alike.
/// Holds, per flow, the predecessors still running and the earliest start seen so far.
#[derive(Clone, Debug, Default)]
pub struct Release {
    left: Vec<u32>,
    ready: Vec<Time>,
}

impl Release {
    pub fn new(wl: &Workload) -> Release {
        if wl.deps.is_empty() {
            return Release::default();
        }
        Release {
            left: wl.deps.preds.clone(),
            ready: wl.flows.iter().map(|f| f.arrival).collect(),
        }
    }

    /// Flow `f` ended at `end`: push each flow that this starts, with its start time, onto `out`.
    pub fn done(&mut self, wl: &Workload, f: u32, end: Time, out: &mut Vec<(Time, u32)>) {
        let next = wl.flows[f as usize].follow_up;
        if next != NONE {
            out.push((end, next));
        }
        if self.left.is_empty() {
            return;
        }
        for &(s, delay) in wl.deps.successors(f) {
            let t = end.saturating_add(delay);
            let i = s as usize;
            self.ready[i] = self.ready[i].max(t);
            self.left[i] -= 1;
            if self.left[i] == 0 {
                out.push((self.ready[i], s));
            }
        }
    }
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
        extra_steps: 0,
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
        WorkloadSpec::Collective(c) => collective::generate(&mut w, c, net, &mut rng),
        WorkloadSpec::TrainingStep(t) => training::generate(&mut w, t, net),
    }
    finish(&mut w);
    w
}

pub(crate) fn finish(w: &mut Workload) {
    w.deps.build(w.flows.len());
    for (i, f) in w.flows.iter_mut().enumerate() {
        f.is_follow_up |= w.deps.preds(i as u32) > 0;
    }
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
