//! Integration tests of the flow engine. Expected values are derived by hand in the comments.

mod adaptive;
mod cli;
mod collectives;
mod compare;
mod decomposed;
mod detours;
mod exact;
mod fidelity;
mod files;
mod fuzz;
mod gpu;
mod packet;
mod preflight;
mod profiles;
mod props;
mod reachability;
mod routing;
mod training;

use loopline_sim::engine::{Engine, FlowEngine};
use loopline_sim::network::Network;
use loopline_sim::scenario::*;
use loopline_sim::{run, Report, RunLimits};

/// A node of a hand-built network: cluster 0, no layer, loop or rack given.
pub fn node(id: &str, role: Role) -> NodeSpec {
    NodeSpec {
        id: id.into(),
        role,
        layer: None,
        cluster: Some(0),
        loop_id: None,
        loop_position: None,
        rack: None,
        logical_rack: None,
        host: None,
        rail: None,
    }
}

/// An unnamed cable `a` - `b` of a hand-built network.
pub fn cable(a: &str, b: &str, gbps: f64, latency_ns: u64) -> LinkSpec {
    LinkSpec {
        id: None,
        a: a.into(),
        b: b.into(),
        gbps,
        latency_ns,
    }
}

/// Run a scenario to the end (no run_info).
pub fn run_ok(sc: &Scenario) -> Report {
    let mut r = run(sc, &RunLimits::default()).expect("scenario runs");
    r.run_info = None;
    r
}

pub fn approx(a: f64, b: f64, rel: f64) -> bool {
    (a - b).abs() <= rel * a.abs().max(b.abs()).max(1e-300)
}

#[track_caller]
pub fn assert_approx(a: f64, b: f64, rel: f64) {
    assert!(approx(a, b, rel), "{a} != {b} (rel tol {rel})");
}

pub fn many_to_many(senders: &[&str], receivers: &[&str], k: u32, bytes: u64) -> WorkloadSpec {
    WorkloadSpec::ManyToMany(ManyToManySpec {
        senders: senders.iter().map(|s| s.to_string()).collect(),
        receivers: receivers.iter().map(|s| s.to_string()).collect(),
        flows_per_pair: k,
        bytes,
    })
}

/// Validate and step an engine through its first timestamp; returns rates (Gb/s) per flow.
pub fn first_rates(sc: &Scenario) -> Vec<f64> {
    let net: Network = sc.validate().expect("valid");
    let mut e = FlowEngine::new(sc, &net);
    assert!(e.step());
    e.outcome().flows.iter().map(|f| f.rate).collect()
}
