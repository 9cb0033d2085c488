//! Collectives (issue 31): all-reduce, all-gather, reduce-scatter and all-to-all among ranks, as
//! NCCL runs them, built from follow-up chains so flow and packet mode both simulate them.
//!
//! * Ring (all-reduce, all-gather, reduce-scatter): ranks in the `servers` order; in step `k`
//!   rank `i` sends chunk `(i - k) mod n` to rank `i + 1`. Rank `i`'s step-`k` send starts when
//!   it has received step `k - 1`'s chunk: flow `(k, i)` is the follow-up of flow `(k - 1, i - 1)`.
//!   All-reduce is reduce-scatter then all-gather, `2(n - 1)` steps; the others `n - 1`.
//! * Direct (all-to-all): every rank sends chunk `j` to every rank `j` at once, one step.
//! * Iterations run back to back: iteration `t + 1`'s first step chains on iteration `t`'s last
//!   exactly as one step on the one before (all-to-all: each pair's next send follows its own
//!   previous one; no barrier across ranks).
//!
//! GPU ranks (issue 31, servers with `host` and `rail`) go through [`Build`], which states a
//! step's start as dependencies ([`super::Deps`]) and adds:
//!
//! * PXN: a transfer between GPUs on different servers and rails is two flows at once, over the
//!   source server's interconnect to its GPU on the destination's rail, and over that rail (the
//!   proxy forwards chunk by chunk, so the legs overlap: [`Build::transfer`]);
//! * the `hierarchical` all-reduce: reduce-scatter ring inside each server, ring all-reduce per
//!   rail across the servers, all-gather ring inside each server;
//! * the `pipelined` model: one flow per ring edge and phase carrying the phase's bytes and
//!   paying the latency terms of each of the phase's steps (`FlowSpec::extra_steps`);
//! * `skew` (all-to-all): Zipf destination popularity over a seeded permutation of the ranks.
//!
//! A rank's step starts when the chunk it forwards has arrived and its own previous send is
//! done (its kernel sends one step after the other). Flows are laid out iteration by iteration;
//! `Workload::segments` marks where each iteration starts, so the report tells a flow's
//! iteration from its index.

use super::{flow, After, Workload, NONE};
use crate::network::Network;
use crate::rng::Rng;
use crate::scenario::{
    CollectiveAlgorithm, CollectiveModel, CollectiveOp, CollectiveSpec, NcclLatency,
};
use crate::units::{NodeId, Time};

/// The ranks, in ring order.
pub fn ranks(spec: &CollectiveSpec, net: &Network) -> Vec<NodeId> {
    crate::scenario::ranks_of(&spec.servers, net)
}

// (the counts are the scenario's: validation compares them with `MAX_FLOWS`)
pub use crate::scenario::collective_steps as steps;

/// Bytes of chunk `c` of `bytes` cut into `n`: `bytes / n`, the first `bytes mod n` one more.
pub fn chunk_bytes(bytes: u64, n: u64, c: u64) -> u64 {
    bytes / n + u64::from(c < bytes % n)
}

/// nccl-tests' bus-bandwidth factor (its `PERFORMANCE.md`): `busbw = algbw x factor`, which makes
/// the bus bandwidth of a ring bound by one link that link's speed whatever the rank count.
pub fn bus_factor(op: CollectiveOp, n: u64) -> f64 {
    let n = n as f64;
    match op {
        CollectiveOp::AllReduce => 2.0 * (n - 1.0) / n,
        CollectiveOp::AllGather | CollectiveOp::ReduceScatter | CollectiveOp::AllToAll => {
            (n - 1.0) / n
        }
    }
}

/// Generate the flows of a validated collective.
pub fn generate(w: &mut Workload, spec: &CollectiveSpec, net: &Network, rng: &mut Rng) {
    let r = ranks(spec, net);
    let gpus = r.iter().any(|&x| net.node(x).host.is_some());
    let classic = !gpus
        && spec.model() == CollectiveModel::Steps
        && spec.skew() == 0.0
        && spec.algorithm() != CollectiveAlgorithm::Hierarchical;
    if classic {
        generate_classic(w, spec, &r);
        return;
    }
    let mut b = Build {
        w,
        net,
        software_latency: gpus && spec.software_latency(),
    };
    let n = r.len();
    match spec.algorithm() {
        CollectiveAlgorithm::Direct => {
            let popularity = (spec.skew() > 0.0).then(|| zipf_weights(n, spec.skew(), rng));
            b.direct(&r, spec.bytes, spec.iterations, popularity.as_deref());
        }
        alg => {
            let mut gates = vec![Gate::default(); n];
            for _ in 0..spec.iterations {
                b.w.segments.push(b.w.flows.len() as u32);
                gates = b.begin(gates);
                gates = if alg == CollectiveAlgorithm::Hierarchical {
                    b.hierarchical(&r, spec.bytes, spec.model(), gates)
                } else {
                    let (k0, k1) = ring_span(spec.op, n as u64);
                    b.ring(&r, spec.bytes, k0, k1, spec.model(), gates)
                };
            }
        }
    }
    b.w.segments.push(b.w.flows.len() as u32);
}

/// The steps `k0..k1` of a ring over `n` ranks that `op` runs (all-reduce: reduce-scatter's
/// `0..n-1` then all-gather's `n-1..2(n-1)`).
fn ring_span(op: CollectiveOp, n: u64) -> (u64, u64) {
    let m = n.saturating_sub(1);
    match op {
        CollectiveOp::AllReduce => (0, 2 * m),
        CollectiveOp::ReduceScatter => (0, m),
        _ => (m, 2 * m),
    }
}

/// A transfer's flows: `first` leaves the source, `last` reaches the destination (the same flow
/// unless it goes over a PXN relay).
#[derive(Clone, Copy, Debug)]
pub struct Sent {
    pub first: u32,
    pub last: u32,
}

impl Sent {
    /// Its flows' ends: the transfer has arrived once every leg has.
    fn arrived(self) -> impl Iterator<Item = After> {
        let relayed = (self.last != self.first).then_some(After::end_of(self.last));
        std::iter::once(After::end_of(self.first)).chain(relayed)
    }
}

/// When a rank may start: not before `at`, and after each of `after`.
#[derive(Clone, Debug, Default)]
pub struct Gate {
    pub at: Time,
    pub after: Vec<After>,
}

impl Gate {
    /// The same gate, `d` later.
    pub fn delayed(&self, d: Time) -> Gate {
        Gate {
            at: self.at.saturating_add(d),
            after: self
                .after
                .iter()
                .map(|a| After {
                    delay: a.delay.saturating_add(d),
                    ..*a
                })
                .collect(),
        }
    }
}

/// Builds GPU collectives as flows with dependencies.
pub struct Build<'a> {
    pub w: &'a mut Workload,
    pub net: &'a Network,
    /// NCCL's software latency paid ([`NcclLatency`]): its step latency by every leg, its base
    /// latency by every collective (`begin`).
    pub software_latency: bool,
}

impl Build<'_> {
    /// One transfer `src -> dst` of `bytes` starting at `gate`: a flow, or two over a PXN relay.
    /// The relay's legs run at once, as NCCL's proxy forwards each small chunk as it lands
    /// (`NCCL_P2P_NET_CHUNKSIZE`, 128 KB, against steps of megabytes): the transfer takes the
    /// slower leg's time, not both legs' in turn.
    /// `extra_steps`: steps the transfer stands for beyond its own (a pipelined phase).
    pub fn transfer(
        &mut self,
        src: NodeId,
        dst: NodeId,
        bytes: u64,
        gate: &Gate,
        extra_steps: u32,
    ) -> Sent {
        let relay = self.net.pxn_relay(src, dst);
        let first = self.leg(src, relay.unwrap_or(dst), bytes, gate, extra_steps);
        let last = match relay {
            None => first,
            Some(r) => self.leg(r, dst, bytes, gate, extra_steps),
        };
        Sent { first, last }
    }

    fn leg(&mut self, src: NodeId, dst: NodeId, bytes: u64, gate: &Gate, extra_steps: u32) -> u32 {
        let gate = &gate.delayed(self.step_latency(src, dst, extra_steps));
        let i = self.w.flows.len() as u32;
        let mut f = flow(gate.at, src, dst, bytes);
        f.extra_steps = extra_steps;
        self.w.flows.push(f);
        for &a in &gate.after {
            self.w.deps.add(i, a);
        }
        i
    }

    /// NCCL's step latency of a leg standing for `1 + extra_steps` steps, paid before it starts.
    fn step_latency(&self, src: NodeId, dst: NodeId, extra_steps: u32) -> Time {
        if !self.software_latency {
            return Time::ZERO;
        }
        let (a, b) = (self.net.node(src).host, self.net.node(dst).host);
        let us = if a.is_some() && a == b {
            NcclLatency::INTERCONNECT_STEP_US
        } else {
            NcclLatency::NETWORK_STEP_US
        };
        Time::from_secs_f64(us * 1e-6 * f64::from(extra_steps + 1))
    }

    /// The gates of a collective's start: NCCL's base latency later.
    pub fn begin(&self, gates: Vec<Gate>) -> Vec<Gate> {
        if !self.software_latency {
            return gates;
        }
        let base = Time::from_secs_f64(NcclLatency::BASE_US * 1e-6);
        gates.iter().map(|g| g.delayed(base)).collect()
    }

    /// Steps `k0..k1` of a ring over `ranks` (ring order) of a message of `bytes` per rank, in
    /// `n - 1`-step phases: in step `k` rank `i` sends chunk `(i - k) mod n` to rank `i + 1`.
    /// `gates[i]`: when rank `i` may start. Returns when each rank is done (its last chunk in,
    /// its last send out).
    pub fn ring(
        &mut self,
        ranks: &[NodeId],
        bytes: u64,
        k0: u64,
        k1: u64,
        model: CollectiveModel,
        gates: Vec<Gate>,
    ) -> Vec<Gate> {
        let n = ranks.len() as u64;
        if n < 2 || k0 >= k1 {
            return gates;
        }
        let m = n - 1;
        let chunk = |i: u64, k: u64| chunk_bytes(bytes, n, (i + n * (k1 + 1) - k) % n);
        let mut gates = gates;
        let mut k = k0;
        while k < k1 {
            // one phase (or what of it lies in k0..k1): a flow per step, or one for all
            let end = ((k / m + 1) * m).min(k1);
            let flows_per_rank: Vec<(u64, u64)> = match model {
                CollectiveModel::Steps => (k..end).map(|s| (s, s + 1)).collect(),
                CollectiveModel::Pipelined => vec![(k, end)],
            };
            for (a, b) in flows_per_rank {
                let extra = (b - a - 1) as u32;
                let sent: Vec<Sent> = (0..n)
                    .map(|i| {
                        // a whole phase's n - 1 steps send every chunk but the one step b
                        // would (O(1): a rail ring across 4,096 servers has 4,095 steps)
                        let size: u64 = if b - a == m {
                            bytes - chunk(i, b)
                        } else {
                            (a..b).map(|s| chunk(i, s)).sum()
                        };
                        let to = ranks[((i + 1) % n) as usize];
                        self.transfer(ranks[i as usize], to, size, &gates[i as usize], extra)
                    })
                    .collect();
                // rank i goes on once the chunk from rank i - 1 is in and its own send is out
                let n = n as usize;
                gates = (0..n)
                    .map(|i| Gate {
                        at: Time::ZERO,
                        after: sent[(i + n - 1) % n]
                            .arrived()
                            .chain([After::end_of(sent[i].first)])
                            .collect(),
                    })
                    .collect();
            }
            k = end;
        }
        gates
    }

    /// The hierarchical all-reduce of `bytes` per rank (see [`CollectiveAlgorithm::Hierarchical`]);
    /// `gates` and the result are in `ranks` order.
    pub fn hierarchical(
        &mut self,
        ranks: &[NodeId],
        bytes: u64,
        model: CollectiveModel,
        gates: Vec<Gate>,
    ) -> Vec<Gate> {
        let hosts = crate::scenario::hierarchy(ranks, self.net).expect("validated GPU ranks");
        let g = hosts.first().map_or(0, |h| h.len()) as u64;
        let at: std::collections::HashMap<NodeId, usize> =
            ranks.iter().enumerate().map(|(i, &r)| (r, i)).collect();
        let mut by_rank = gates;
        let mut run = |b: &mut Self, ring: &[NodeId], size: u64, k0: u64, k1: u64| {
            let gs = ring
                .iter()
                .map(|r| std::mem::take(&mut by_rank[at[r]]))
                .collect();
            for (r, gate) in ring.iter().zip(b.ring(ring, size, k0, k1, model, gs)) {
                by_rank[at[r]] = gate;
            }
        };
        let m = g.saturating_sub(1);
        // reduce-scatter inside each server: the GPU at position j then holds chunk (j + 1) mod g
        for h in &hosts {
            run(self, h, bytes, 0, m);
        }
        // an all-reduce of that shard per rail, across the servers
        let nh = hosts.len() as u64;
        for j in 0..g as usize {
            let rail: Vec<NodeId> = hosts.iter().map(|h| h[j]).collect();
            let shard = chunk_bytes(bytes, g, (j as u64 + 1) % g);
            run(self, &rail, shard, 0, 2 * nh.saturating_sub(1));
        }
        // all-gather inside each server
        for h in &hosts {
            run(self, h, bytes, m, 2 * m);
        }
        by_rank
    }

    /// All-to-all: every rank sends to every other at once; a pair's next iteration follows its
    /// own previous send. `popularity[j]`: rank j's weight as a destination (uniform chunks
    /// when absent).
    fn direct(
        &mut self,
        ranks: &[NodeId],
        bytes: u64,
        iterations: u32,
        popularity: Option<&[f64]>,
    ) {
        let n = ranks.len() as u64;
        let sizes: Vec<Vec<u64>> = (0..n)
            .map(|a| match popularity {
                None => (0..n).map(|b| chunk_bytes(bytes, n, b)).collect(),
                Some(p) => skewed_sizes(bytes, n, a, p),
            })
            .collect();
        let mut previous: Vec<Sent> = Vec::new();
        for _ in 0..iterations {
            self.w.segments.push(self.w.flows.len() as u32);
            let mut pair = 0;
            let mut now = Vec::with_capacity(previous.len());
            for a in 0..n {
                for b in (0..n).filter(|&b| b != a) {
                    let gate = Gate {
                        at: Time::ZERO,
                        after: previous
                            .get(pair)
                            .into_iter()
                            .flat_map(|s| s.arrived())
                            .collect(),
                    };
                    let gate = self.begin(vec![gate]).remove(0);
                    let size = sizes[a as usize][b as usize];
                    now.push(self.transfer(ranks[a as usize], ranks[b as usize], size, &gate, 0));
                    pair += 1;
                }
            }
            previous = now;
        }
    }
}

/// Destination weights of a skewed all-to-all: a seeded permutation gives each rank its
/// popularity rank `k` (1 = most popular), its weight `1 / k^skew` (Zipf).
pub fn zipf_weights(n: usize, skew: f64, rng: &mut Rng) -> Vec<f64> {
    let mut order: Vec<usize> = (0..n).collect();
    rng.shuffle(&mut order);
    let mut w = vec![0.0; n];
    for (k, &rank) in order.iter().enumerate() {
        w[rank] = 1.0 / ((k + 1) as f64).powf(skew);
    }
    w
}

/// What rank `a` sends each rank under a skew: the bytes it sends uniformly (`bytes` less its
/// own chunk), split over the others in proportion to their weights, whole bytes by largest
/// remainder (ties to the lower rank) so the total is exact.
pub fn skewed_sizes(bytes: u64, n: u64, a: u64, weights: &[f64]) -> Vec<u64> {
    let total = bytes - chunk_bytes(bytes, n, a);
    let sum: f64 = (0..n)
        .filter(|&b| b != a)
        .map(|b| weights[b as usize])
        .sum();
    let mut sizes = vec![0u64; n as usize];
    let mut rest: Vec<(f64, u64)> = Vec::new();
    let mut given = 0u64;
    for b in (0..n).filter(|&b| b != a) {
        let exact = total as f64 * weights[b as usize] / sum;
        let whole = (exact.floor() as u64).min(total);
        sizes[b as usize] = whole;
        given += whole;
        rest.push((exact - whole as f64, b));
    }
    rest.sort_by(|x, y| y.0.total_cmp(&x.0).then(x.1.cmp(&y.1)));
    for &(_, b) in rest.iter().take(total.saturating_sub(given) as usize) {
        sizes[b as usize] += 1;
    }
    sizes
}

/// Today's collectives (no GPU ranks, steps, no skew): one follow-up chain per rank.
fn generate_classic(w: &mut Workload, spec: &CollectiveSpec, r: &[NodeId]) {
    let n = r.len() as u64;
    let alg = spec.algorithm();
    let per_iter = match alg {
        CollectiveAlgorithm::Direct => n * (n - 1),
        _ => {
            let (k0, k1) = ring_span(spec.op, n);
            (k1 - k0) * n
        }
    };
    let iters = spec.iterations as u64;
    for t in 0..=iters {
        w.segments.push((t * per_iter) as u32);
    }
    w.flows.reserve((per_iter * iters) as usize);
    match alg {
        CollectiveAlgorithm::Ring | CollectiveAlgorithm::Hierarchical => {
            let steps = per_iter / n;
            let index = |t: u64, k: u64, i: u64| (t * per_iter + k * n + i) as u32;
            for t in 0..iters {
                for k in 0..steps {
                    for i in 0..n {
                        let chunk = (i + n * steps - k) % n;
                        let mut f = flow(
                            Time::ZERO,
                            r[i as usize],
                            r[((i + 1) % n) as usize],
                            chunk_bytes(spec.bytes, n, chunk),
                        );
                        f.is_follow_up = t > 0 || k > 0;
                        // the chunk arrives at rank i + 1, which sends the next step's
                        let next = (i + 1) % n;
                        f.follow_up = if k + 1 < steps {
                            index(t, k + 1, next)
                        } else if t + 1 < iters {
                            index(t + 1, 0, next)
                        } else {
                            NONE
                        };
                        w.flows.push(f);
                    }
                }
            }
        }
        CollectiveAlgorithm::Direct => {
            for t in 0..iters {
                for a in 0..n {
                    for b in (0..n).filter(|&b| b != a) {
                        let mut f = flow(
                            Time::ZERO,
                            r[a as usize],
                            r[b as usize],
                            chunk_bytes(spec.bytes, n, b),
                        );
                        f.is_follow_up = t > 0;
                        // the same pair's send of the next iteration
                        let here = w.flows.len() as u64;
                        f.follow_up = if t + 1 < iters {
                            (here + per_iter) as u32
                        } else {
                            NONE
                        };
                        w.flows.push(f);
                    }
                }
            }
        }
    }
}
