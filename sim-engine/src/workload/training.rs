//! Data-parallel training steps (issue 31), as PyTorch DDP runs them: per rank and step, the
//! forward pass (`forward_s`), then the backward pass (`backward_s`), which makes the gradient
//! ready in `ceil(gradient_bytes / bucket_bytes)` buckets evenly over its time (bucket `b` at
//! `forward_s + (b + 1) x backward_s / buckets`). A bucket's all-reduce starts at a rank when the
//! bucket is ready there and the rank's previous bucket's all-reduce is done; the rank's step
//! ends when its last bucket's all-reduce is done, and its next forward pass starts then.
//!
//! Stated as dependencies ([`super::Deps`]): a rank's first flows of a bucket start after the
//! rank's previous bucket (delay 0) and after the end of its previous step plus the compute up
//! to the bucket (iteration 0: at that time). Flows are laid out step by step and, in a step,
//! bucket by bucket; `Workload::segments` marks each bucket's all-reduce.

use super::collective::{Build, Gate};
use super::Workload;
use crate::network::Network;
use crate::scenario::{CollectiveAlgorithm, TrainingStepSpec};
use crate::units::Time;

/// When bucket `b` of `buckets` is ready, counted from the start of its step: the forward pass
/// and `b + 1` shares of the backward pass.
pub fn bucket_ready(spec: &TrainingStepSpec, b: u64) -> Time {
    let share = spec.backward_s * (b + 1) as f64 / spec.buckets() as f64;
    Time::from_secs_f64(spec.forward_s + share)
}

/// Generate the flows of a validated training step.
pub fn generate(w: &mut Workload, spec: &TrainingStepSpec, net: &Network) {
    let ranks = crate::scenario::ranks_of(&spec.servers, net);
    let n = ranks.len();
    let buckets = spec.buckets();
    // (NCCL's latency is paid by GPU ranks alone, as in the collective workload)
    let gpus = ranks.iter().any(|&r| net.node(r).host.is_some());
    let mut b = Build {
        w,
        net,
        software_latency: gpus && spec.software_latency,
    };
    // when each rank's previous bucket, and its previous step, were done
    let mut bucket_done: Vec<Gate> = vec![Gate::default(); n];
    let mut step_done: Option<Vec<Gate>> = None;
    for _ in 0..spec.iterations {
        for k in 0..buckets {
            let ready = bucket_ready(spec, k);
            // the bucket is ready `ready` after the rank's step began (its previous step's end, or
            // 0), and waits for the rank's previous bucket
            let gates: Vec<Gate> = (0..n)
                .map(|r| {
                    let began = step_done
                        .as_ref()
                        .map_or_else(Gate::default, |s| s[r].clone());
                    let mut gate = began.delayed(ready);
                    if k > 0 {
                        gate.after.extend(bucket_done[r].after.iter().copied());
                    }
                    gate
                })
                .collect();
            b.w.segments.push(b.w.flows.len() as u32);
            let gates = b.begin(gates);
            let size = spec.bucket_size(k);
            bucket_done = match spec.algorithm {
                CollectiveAlgorithm::Hierarchical => {
                    b.hierarchical(&ranks, size, spec.model, gates)
                }
                _ => b.ring(&ranks, size, 0, 2 * (n as u64 - 1), spec.model, gates),
            };
        }
        step_done = Some(bucket_done.clone());
    }
    b.w.segments.push(b.w.flows.len() as u32);
}
