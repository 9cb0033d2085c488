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
//! Flows are laid out iteration by iteration ([`flows_per_iteration`] each), so the report tells
//! a flow's iteration from its index.

use super::{flow, Workload, NONE};
use crate::network::Network;
use crate::scenario::{CollectiveAlgorithm, CollectiveOp, CollectiveSpec};
use crate::units::{NodeId, Time};

/// The ranks, in ring order.
pub fn ranks(spec: &CollectiveSpec, net: &Network) -> Vec<NodeId> {
    match &spec.servers {
        Some(ids) => ids.iter().filter_map(|s| net.node_id(s)).collect(),
        None => net.servers.clone(),
    }
}

// (the counts are the scenario's: validation compares them with `MAX_FLOWS`)
pub use crate::scenario::{
    collective_flows_per_iteration as flows_per_iteration, collective_steps as steps,
};

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
pub fn generate(w: &mut Workload, spec: &CollectiveSpec, net: &Network) {
    let r = ranks(spec, net);
    let n = r.len() as u64;
    let alg = spec.algorithm();
    let per_iter = flows_per_iteration(spec.op, alg, n);
    let iters = spec.iterations as u64;
    w.flows.reserve((per_iter * iters) as usize);
    match alg {
        CollectiveAlgorithm::Ring => {
            let steps = steps(spec.op, alg, n);
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
