//! Collective workloads (issue 31): ring all-reduce, all-gather, reduce-scatter and direct
//! all-to-all, in flow and packet mode. Expected times are derived by hand in the comments; flow
//! mode has no latency terms here (links of 0 ns, `engine.latency` off).

use super::*;
use loopline_sim::topology::*;
use loopline_sim::workload::{self, NONE};
use proptest::prelude::*;

fn collective(
    op: CollectiveOp,
    servers: Option<&[&str]>,
    bytes: u64,
    iterations: u32,
) -> WorkloadSpec {
    WorkloadSpec::Collective(CollectiveSpec {
        op,
        algorithm: None,
        servers: servers.map(|s| s.iter().map(|x| x.to_string()).collect()),
        bytes,
        iterations,
        model: None,
        skew: None,
        software_latency: None,
    })
}

fn on_star(n: usize, gbps: f64, op: CollectiveOp, bytes: u64, iterations: u32) -> Scenario {
    scenario(
        star(n, gbps),
        RoutingSpec::Ecmp,
        collective(op, None, bytes, iterations),
    )
}

/// Ring all-reduce of S = 100 MB over 4 servers with one 100 Gb/s NIC each on one switch: 6
/// steps, each every rank sending a 25 MB chunk (2e8 bits) to the next at the full 100 Gb/s (each
/// NIC's uplink and downlink carry one flow): 2 ms a step, 12 ms = 2(n-1)/n x S/B. algbw =
/// 8e8 bits / 12 ms = 66.67 Gb/s; busbw = algbw x 2 x 3/4 = 100 Gb/s = B.
#[test]
fn ring_all_reduce_on_a_star_takes_two_n_minus_one_over_n_of_s_over_b() {
    let rep = run_ok(&on_star(4, 100.0, CollectiveOp::AllReduce, 100_000_000, 1));
    assert_eq!(rep.workload, "collective");
    assert_eq!((rep.flows.total, rep.flows.finished), (24, 24));
    let c = rep.collective.expect("a collective object");
    assert_eq!(
        (c.op.as_str(), c.algorithm.as_str()),
        ("all_reduce", "ring")
    );
    assert_eq!(
        (c.ranks, c.bytes, c.iterations, c.steps),
        (4, 100_000_000, 1, 6)
    );
    assert_approx(c.time_s.unwrap(), 0.012, 1e-12);
    assert_approx(c.total_time_s.unwrap(), 0.012, 1e-12);
    assert_eq!(c.iteration_time_s.len(), 1);
    assert_approx(c.iteration_time_s[0].unwrap(), 0.012, 1e-12);
    assert_approx(c.algbw_gbps.unwrap(), 8e8 / 0.012 / 1e9, 1e-12);
    assert_approx(c.busbw_gbps.unwrap(), 100.0, 1e-12);
    assert_approx(c.bus_factor, 1.5, 1e-15);
    assert_approx(rep.job_completion_s.unwrap(), 0.012, 1e-12);
    // every NIC carried 6 chunks of 25 MB each way
    for s in &rep.servers {
        assert_eq!((s.bytes_sent, s.bytes_received), (1.5e8, 1.5e8), "{}", s.id);
    }
}

/// All-gather and reduce-scatter: n - 1 steps of S/n, (n-1)/n x S/B. S = 50 MB over 5 servers
/// at 40 Gb/s: 10 MB chunks (8e7 bits) take 2 ms, 4 steps 8 ms; algbw = 4e8 bits / 8 ms = 50
/// Gb/s, busbw = 50 x 4/5 = 40 Gb/s = B.
#[test]
fn all_gather_and_reduce_scatter_take_n_minus_one_over_n_of_s_over_b() {
    for (op, name) in [
        (CollectiveOp::AllGather, "all_gather"),
        (CollectiveOp::ReduceScatter, "reduce_scatter"),
    ] {
        let rep = run_ok(&on_star(5, 40.0, op, 50_000_000, 1));
        let c = rep.collective.unwrap();
        assert_eq!((c.op.as_str(), c.steps, rep.flows.total), (name, 4, 20));
        assert_approx(c.time_s.unwrap(), 0.008, 1e-12);
        assert_approx(c.algbw_gbps.unwrap(), 50.0, 1e-12);
        assert_approx(c.busbw_gbps.unwrap(), 40.0, 1e-12);
        assert_approx(c.bus_factor, 0.8, 1e-15);
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]
    /// Whatever the rank count, NIC speed and chunk: on a non-blocking switch the ring time is
    /// steps x chunk / B exactly (chunk bits / B in whole picoseconds per step) and the bus
    /// bandwidth is B.
    #[test]
    fn ring_on_a_star_has_bus_bandwidth_b(
        n in 2usize..9,
        gbps in prop::sample::select(vec![10.0, 25.0, 100.0, 400.0]),
        chunk_kb in 1u64..2_000,
        op in prop::sample::select(vec![
            CollectiveOp::AllReduce, CollectiveOp::AllGather, CollectiveOp::ReduceScatter,
        ]),
    ) {
        // chunk bits / (gbps x 1e9) s: 8000 x chunk_kb / gbps ns, whole picoseconds for these B
        let chunk = chunk_kb * 1000;
        let bytes = chunk * n as u64;
        let steps = if op == CollectiveOp::AllReduce { 2 * (n - 1) } else { n - 1 };
        let step_s = chunk as f64 * 8.0 / (gbps * 1e9);
        let rep = run_ok(&on_star(n, gbps, op, bytes, 1));
        let c = rep.collective.unwrap();
        prop_assert_eq!(c.steps, steps as u64);
        prop_assert!(approx(c.time_s.unwrap(), steps as f64 * step_s, 1e-9),
            "{} != {}", c.time_s.unwrap(), steps as f64 * step_s);
        prop_assert!(approx(c.busbw_gbps.unwrap(), gbps, 1e-9), "busbw {}", c.busbw_gbps.unwrap());
    }
}

/// All-to-all through a spine oversubscribed 2:1: two leaves of 4 servers at 100 Gb/s (400 Gb/s
/// of servers each) and one spine link of 200 Gb/s per leaf. S = 8 MB per rank, 1 MB (8e6 bits)
/// to each of the 7 others. Each direction of the spine carries the 4 x 4 = 16 cross flows, 1.28e8
/// bits: 12.5 Gb/s each (the lowest fair share: a NIC's 7 flows would get 14.3), and it stays
/// their bottleneck after the local flows (50/3 Gb/s each on the NICs' remaining 50) finish, so
/// the time is the spine's: 1.28e8 / 200e9 = 0.64 ms. With a non-blocking spine (400 Gb/s) the
/// NICs bind: 7 x 8e6 / 100e9 = 0.56 ms, algbw 6.4e7 / 0.56 ms = 114.3 Gb/s, busbw x 7/8 = 100 Gb/s = B; the
/// oversubscribed spine gives algbw 8e6 x 8 / 0.64 ms = 100 Gb/s, busbw 87.5 Gb/s.
#[test]
fn all_to_all_through_a_two_to_one_spine_is_bound_by_the_spine() {
    let run = |spine_gbps: f64| {
        let sc = scenario(
            leaf_spine(2, 4, 1, 100.0, spine_gbps),
            RoutingSpec::Ecmp,
            collective(CollectiveOp::AllToAll, None, 8_000_000, 1),
        );
        run_ok(&sc)
    };
    let rep = run(200.0);
    assert_eq!(rep.flows.total, 56);
    let c = rep.collective.unwrap();
    assert_eq!((c.algorithm.as_str(), c.steps, c.ranks), ("direct", 1, 8));
    assert_approx(c.time_s.unwrap(), 0.64e-3, 1e-12);
    assert_approx(c.algbw_gbps.unwrap(), 100.0, 1e-12);
    assert_approx(c.busbw_gbps.unwrap(), 87.5, 1e-12);
    // the spine links were busy the whole time, both ways
    for l in rep.links.rows().filter(|l| l.gbps == 200.0) {
        assert_approx(l.mean_util, 1.0, 1e-6);
    }
    let full = run(400.0).collective.unwrap();
    assert_approx(full.time_s.unwrap(), 0.56e-3, 1e-12);
    assert_approx(full.busbw_gbps.unwrap(), 100.0, 1e-12);
}

/// Iterations run back to back: 3 iterations of the 12 ms all-reduce above take 36 ms, each 12
/// ms, and the mean time (and so the bandwidths) is one iteration's. The all-to-all chains each
/// pair on its own previous send: 3 x 0.64 ms through the 2:1 spine.
#[test]
fn iterations_multiply_the_time() {
    let rep = run_ok(&on_star(4, 100.0, CollectiveOp::AllReduce, 100_000_000, 3));
    assert_eq!(rep.flows.total, 72);
    let c = rep.collective.unwrap();
    assert_approx(c.total_time_s.unwrap(), 0.036, 1e-12);
    assert_approx(c.time_s.unwrap(), 0.012, 1e-12);
    assert_eq!(c.iteration_time_s.len(), 3);
    for t in &c.iteration_time_s {
        assert_approx(t.unwrap(), 0.012, 1e-12);
    }
    assert_approx(c.busbw_gbps.unwrap(), 100.0, 1e-12);
    assert_approx(rep.job_completion_s.unwrap(), 0.036, 1e-12);

    let sc = scenario(
        leaf_spine(2, 4, 1, 100.0, 200.0),
        RoutingSpec::Ecmp,
        collective(CollectiveOp::AllToAll, None, 8_000_000, 3),
    );
    let c = run_ok(&sc).collective.unwrap();
    assert_approx(c.total_time_s.unwrap(), 3.0 * 0.64e-3, 1e-12);
    assert_approx(c.busbw_gbps.unwrap(), 87.5, 1e-12);
}

/// Ring order follows `servers`: the flows of step 0 go S2 -> S0 -> S1 -> S2 for servers
/// [S2, S0, S1], every flow's follow-up is sent by the rank it delivered to, and chunks of
/// bytes not divisible by the ranks differ by one byte.
#[test]
fn ring_flows_follow_the_servers_order() {
    let sc = scenario(
        star(4, 10.0),
        RoutingSpec::Ecmp,
        collective(CollectiveOp::AllGather, Some(&["S2", "S0", "S1"]), 10, 2),
    );
    let net = sc.validate().unwrap();
    let w = workload::generate(&sc.workload, &net, 1);
    let name = |f: &workload::FlowSpec| (net.name(f.src).to_string(), net.name(f.dst).to_string());
    // 2 iterations x 2 steps x 3 ranks
    assert_eq!(w.flows.len(), 12);
    let step0: Vec<_> = w.flows[..3].iter().map(name).collect();
    assert_eq!(
        step0,
        [("S2", "S0"), ("S0", "S1"), ("S1", "S2")].map(|(a, b)| (a.to_string(), b.to_string()))
    );
    // roots: the first step of the first iteration only
    assert_eq!(w.roots, vec![0, 1, 2]);
    // 10 bytes in 3 chunks: 4, 3, 3; step k rank i sends chunk (i - k) mod 3
    let sizes: Vec<u64> = w.flows[..6].iter().map(|f| f.bytes.0).collect();
    assert_eq!(sizes, vec![4, 3, 3, 3, 4, 3]);
    // flow (k, i) -> flow (k + 1, i + 1); the last step chains on the next iteration's first
    let follow: Vec<u32> = w.flows.iter().map(|f| f.follow_up).collect();
    assert_eq!(follow, vec![4, 5, 3, 7, 8, 6, 10, 11, 9, NONE, NONE, NONE]);
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]
    /// Whatever the op, ranks, size and iterations: the flow count is the validator's; every
    /// flow but the first step's is started by exactly one other, sent by the rank that flow
    /// delivered to (the chunk has arrived where the next send starts); each step of a ring
    /// moves exactly `bytes` (one chunk per rank), an all-to-all iteration `bytes x (n - 1)`.
    #[test]
    fn collective_chains_are_well_formed(
        n in 2usize..12,
        extra_servers in 0usize..3,
        bytes in 1u64..100_000,
        iterations in 1u32..4,
        op in prop::sample::select(vec![
            CollectiveOp::AllReduce, CollectiveOp::AllGather, CollectiveOp::ReduceScatter,
            CollectiveOp::AllToAll,
        ]),
    ) {
        let bytes = bytes.max(n as u64);
        let names: Vec<String> = (0..n).rev().map(|i| format!("S{i}")).collect();
        let refs: Vec<&str> = names.iter().map(|s| s.as_str()).collect();
        let sc = scenario(
            star(n + extra_servers, 10.0),
            RoutingSpec::Ecmp,
            collective(op, Some(&refs), bytes, iterations),
        );
        let net = sc.validate().unwrap();
        let w = workload::generate(&sc.workload, &net, 1);
        prop_assert_eq!(w.flows.len() as u64, sc.workload_flows(&net).0);
        let mut parents = vec![0u32; w.flows.len()];
        for f in &w.flows {
            prop_assert!(f.src != f.dst);
            if f.follow_up != NONE {
                let next = &w.flows[f.follow_up as usize];
                prop_assert!(next.is_follow_up);
                if op == CollectiveOp::AllToAll {
                    prop_assert_eq!((next.src, next.dst), (f.src, f.dst));
                } else {
                    prop_assert_eq!(next.src, f.dst);
                }
                parents[f.follow_up as usize] += 1;
            }
        }
        for (i, f) in w.flows.iter().enumerate() {
            prop_assert_eq!(parents[i], u32::from(f.is_follow_up), "flow {}", i);
        }
        let n64 = n as u64;
        let per_group = if op == CollectiveOp::AllToAll { n * (n - 1) } else { n };
        let group_bytes = if op == CollectiveOp::AllToAll { bytes * (n64 - 1) } else { bytes };
        for g in w.flows.chunks(per_group) {
            prop_assert_eq!(g.iter().map(|f| f.bytes.0).sum::<u64>(), group_bytes);
        }
    }
}

/// Packet mode agrees with flow mode on a small ring all-reduce: 4 servers on one switch, 10
/// Gb/s NICs with 1 us cables, S = 4 MB (1 MB chunks), planning profile (NewReno, 1,500-byte
/// packets, no header bytes, handshake). Flow mode: 6 steps x 0.8 ms = 4.8 ms exactly; packet
/// mode adds each step's handshake, slow start and store-and-forward, and stays within 10 %
/// (measured: 4.9733 ms, +3.6 %, busbw 9.65 Gb/s against flow mode's 10).
#[test]
fn packet_mode_agrees_with_flow_mode_on_a_small_ring() {
    let mut net = star(4, 10.0);
    for l in &mut net.links {
        l.latency_ns = 1000;
    }
    let sc = scenario(
        net,
        RoutingSpec::Ecmp,
        collective(CollectiveOp::AllReduce, None, 4_000_000, 1),
    );
    let fluid = run_ok(&sc).collective.unwrap();
    assert_approx(fluid.time_s.unwrap(), 4.8e-3, 1e-12);
    let mut psc = sc.clone();
    psc.engine.mode = Mode::Packet;
    let rep = run_ok(&psc);
    assert_eq!(rep.model, "packet");
    assert_eq!(rep.flows.finished, 24);
    let pkt = rep.collective.unwrap();
    let (f, p) = (fluid.time_s.unwrap(), pkt.time_s.unwrap());
    eprintln!(
        "ring all-reduce 4 x 10G, 4 MB: flow {f} s busbw {} Gb/s, packet {p} s busbw {} Gb/s",
        fluid.busbw_gbps.unwrap(),
        pkt.busbw_gbps.unwrap()
    );
    // packet mode can only be slower (headers are 0 bytes, so the payload runs at line rate)
    assert!(p >= f && p <= 1.1 * f, "packet {p} s against flow {f} s");
}

/// Bad fields are refused naming them.
#[test]
fn validation_names_the_bad_field() {
    let check = |w: WorkloadSpec, path: &str, words: &str| {
        let sc = scenario(star(4, 10.0), RoutingSpec::Ecmp, w);
        let e = sc.validate().unwrap_err();
        assert_eq!(e.path, path, "{e}");
        assert!(e.message.contains(words), "{e}");
    };
    check(
        collective(CollectiveOp::AllReduce, Some(&["S0"]), 100, 1),
        "workload.servers",
        "at least 2 servers",
    );
    check(
        collective(CollectiveOp::AllReduce, None, 0, 1),
        "workload.bytes",
        "> 0",
    );
    check(
        collective(CollectiveOp::AllReduce, None, 3, 1),
        "workload.bytes",
        "at least the number of ranks (4)",
    );
    check(
        collective(CollectiveOp::AllGather, Some(&["S0", "X9"]), 100, 1),
        "workload.servers[1]",
        "unknown node \"X9\"",
    );
    check(
        collective(CollectiveOp::AllGather, Some(&["S0", "SW"]), 100, 1),
        "workload.servers[1]",
        "not a server",
    );
    check(
        collective(CollectiveOp::AllGather, Some(&["S0", "S1", "S0"]), 100, 1),
        "workload.servers[2]",
        "listed twice",
    );
    check(
        collective(CollectiveOp::AllReduce, None, 100, 0),
        "workload.iterations",
        "at least 1",
    );
    let mut w = CollectiveSpec {
        op: CollectiveOp::AllToAll,
        algorithm: Some(CollectiveAlgorithm::Ring),
        servers: None,
        bytes: 100,
        iterations: 1,
        model: None,
        skew: None,
        software_latency: None,
    };
    check(
        WorkloadSpec::Collective(w.clone()),
        "workload.algorithm",
        "all_to_all runs with \"direct\"",
    );
    w.op = CollectiveOp::AllReduce;
    w.algorithm = Some(CollectiveAlgorithm::Direct);
    check(
        WorkloadSpec::Collective(w),
        "workload.algorithm",
        "all_reduce runs with \"ring\"",
    );
    // more flows than the engine takes: 2 x 3 x 4 = 24 a iteration
    check(
        collective(CollectiveOp::AllReduce, None, 100, 500_000),
        "workload.iterations",
        "12000000 flows",
    );
    // decomposed mode refuses chained steps
    let mut sc = on_star(4, 10.0, CollectiveOp::AllReduce, 100, 1);
    sc.engine.mode = Mode::Decomposed;
    let e = sc.validate().unwrap_err();
    assert_eq!(e.path, "workload.type", "{e}");
    assert!(e.message.contains("collective"), "{e}");
}

/// Parsing: an unknown op or a misspelt field is named by its path; defaults are ring (direct
/// for all-to-all), every server and 1 iteration.
#[test]
fn parsing_names_the_field_and_fills_defaults() {
    let doc = |w: &str| {
        format!(
            r#"{{"schema_version": 1,
                "network": {{"nodes": [{{"id": "SW", "role": "tor"}},
                    {{"id": "A", "role": "server"}}, {{"id": "B", "role": "server"}}],
                  "links": [{{"a": "A", "b": "SW", "gbps": 10}}, {{"a": "B", "b": "SW", "gbps": 10}}]}},
                "workload": {w}}}"#
        )
    };
    let e = Scenario::from_json(&doc(
        r#"{"type": "collective", "op": "broadcast", "bytes": 10}"#,
    ))
    .unwrap_err();
    assert_eq!(e.path, "workload.op", "{e}");
    let e = Scenario::from_json(&doc(
        r#"{"type": "collective", "op": "all_reduce", "size": 10}"#,
    ))
    .unwrap_err();
    assert!(e.path.starts_with("workload"), "{e}");
    assert!(e.message.contains("size"), "{e}");
    let sc = Scenario::from_json(&doc(
        r#"{"type": "collective", "op": "all_to_all", "bytes": 10}"#,
    ))
    .unwrap();
    let WorkloadSpec::Collective(c) = &sc.workload else {
        panic!("not a collective")
    };
    assert_eq!(
        (c.algorithm(), c.iterations, c.servers.is_none()),
        (CollectiveAlgorithm::Direct, 1, true)
    );
    let rep = run_ok(&sc);
    // 2 ranks at 10 Gb/s, 5 bytes each way: 4 ns
    assert_approx(rep.collective.unwrap().time_s.unwrap(), 4e-9, 1e-12);
}

/// `validate --json` counts a collective's flows, bytes and hops exactly. Two ToRs under a spine,
/// s0 s1 on T0, s2 s3 on T1: a ring all-reduce of 4,000 bytes, twice, is 2 x 6 steps x 4 ranks =
/// 48 flows of 1,000 bytes; the ring's pairs s0>s1, s1>s2, s2>s3, s3>s0 cross 2, 4, 2, 4 links
/// (mean 3). The all-to-all is 12 flows over all pairs: from each server 1 under its ToR (2 links)
/// and 2 across (4): 10/3. The algorithm left out is reported with the op's default.
#[test]
fn validate_json_counts_collective_flows_and_hops() {
    use loopline_sim::preflight::summarize;
    use serde_json::json;
    let server = |id: &str, rack: &str| json!({"id": id, "role": "server", "logical_rack": rack});
    let network = json!({
        "nodes": [
            {"id": "SP", "role": "spine"}, {"id": "T0", "role": "tor"}, {"id": "T1", "role": "tor"},
            server("s0", "r0"), server("s1", "r0"), server("s2", "r1"), server("s3", "r1"),
        ],
        "links": [
            {"a": "T0", "b": "SP", "gbps": 10.0}, {"a": "T1", "b": "SP", "gbps": 10.0},
            {"a": "s0", "b": "T0", "gbps": 10.0}, {"a": "s1", "b": "T0", "gbps": 10.0},
            {"a": "s2", "b": "T1", "gbps": 10.0}, {"a": "s3", "b": "T1", "gbps": 10.0},
        ],
    });
    let summary = |workload: serde_json::Value| {
        let doc = json!({"schema_version": 1, "network": network, "workload": workload});
        let sc = Scenario::from_json(&doc.to_string()).unwrap();
        let net = sc.validate().unwrap();
        let w = workload::generate(&sc.workload, &net, 1);
        (
            summarize(&sc, &net, Some(&doc["workload"])),
            w.flows.len() as u64,
        )
    };
    let (v, generated) =
        summary(json!({"type": "collective", "op": "all_reduce", "bytes": 4000, "iterations": 2}));
    assert_eq!((v.workload.flows, generated), (48, 48));
    assert!(v.workload.flows_exact);
    assert_eq!(v.workload.bytes, 48_000.0);
    assert_eq!(v.workload.classes.len(), 1);
    assert_eq!(v.workload.classes[0].bytes_per_flow, 1000.0);
    assert_approx(v.workload.classes[0].hops.unwrap(), 3.0, 1e-12);
    let defaults: Vec<(String, serde_json::Value)> = v
        .workload
        .defaults_applied
        .iter()
        .map(|d| (d.field.clone(), d.value.clone()))
        .collect();
    assert_eq!(
        defaults,
        vec![
            ("workload.model".to_string(), json!("steps")),
            ("workload.software_latency".to_string(), json!(true)),
            ("workload.algorithm".to_string(), json!("ring")),
        ]
    );

    let (v, generated) = summary(json!({"type": "collective", "op": "all_to_all", "bytes": 4000}));
    assert_eq!((v.workload.flows, generated), (12, 12));
    assert_eq!(v.workload.bytes, 12_000.0);
    assert_approx(v.workload.classes[0].hops.unwrap(), 10.0 / 3.0, 1e-12);
    let mut fields: Vec<String> = v
        .workload
        .defaults_applied
        .iter()
        .map(|d| d.field.clone())
        .collect();
    fields.sort();
    assert_eq!(
        fields,
        [
            "workload.algorithm",
            "workload.iterations",
            "workload.model",
            "workload.skew",
            "workload.software_latency"
        ]
    );
    assert_eq!(
        v.workload
            .defaults_applied
            .iter()
            .find(|d| d.field == "workload.algorithm")
            .unwrap()
            .value,
        json!("direct")
    );
}

// ---- GPU ranks (issue 31): the pipelined model, PXN, hierarchical all-reduce ----

use super::gpu::{busy_links, link_bytes};

fn gpu_collective(
    op: CollectiveOp,
    algorithm: Option<CollectiveAlgorithm>,
    model: CollectiveModel,
    servers: Option<Vec<String>>,
    bytes: u64,
) -> WorkloadSpec {
    WorkloadSpec::Collective(CollectiveSpec {
        op,
        algorithm,
        servers,
        bytes,
        iterations: 1,
        model: Some(model),
        skew: None,
        // the network's latency alone: the times below are derived from it
        software_latency: Some(false),
    })
}

/// Ring all-reduce of S = 100 MB over n = 4 servers with one B = 100 Gb/s NIC each on one
/// switch, with latency terms (`base_rtt`; 1 us cables): a step's latency term is the path's
/// two hops of 1,000 ns plus one 1,500-byte MTU serialised per hop (12,000 bits / 100 Gb/s =
/// 120 ns), a = 2,240 ns. Steps: 2(n-1) = 6 steps of a 25 MB chunk (2 ms) plus a: 12 ms + 6a =
/// 12.01344 ms = 2(n-1)/n x S/B + 2(n-1) a. Pipelined: one flow per ring edge and phase, each of
/// 3 chunks (6 ms) paying 3 a: 2 x (6 ms + 3 a), the same. Without latency terms both take
/// 12 ms and the bus bandwidth is B.
#[test]
fn ring_all_reduce_takes_the_same_time_in_both_models_with_latency_terms() {
    for (model, flows) in [
        (CollectiveModel::Steps, 24),
        (CollectiveModel::Pipelined, 8),
    ] {
        let mut net = star(4, 100.0);
        for l in &mut net.links {
            l.latency_ns = 1000;
        }
        let w = gpu_collective(CollectiveOp::AllReduce, None, model, None, 100_000_000);
        let mut sc = scenario(net, RoutingSpec::Ecmp, w);
        let plain = run_ok(&sc);
        sc.engine.latency.base_rtt = true;
        let rep = run_ok(&sc);
        assert_eq!(rep.flows.total, flows, "{model:?}");
        let c = rep.collective.unwrap();
        assert_eq!(c.model, model.name());
        assert_approx(c.time_s.unwrap(), 0.012 + 6.0 * 2.24e-6, 1e-12);
        let c = plain.collective.unwrap();
        assert_approx(c.time_s.unwrap(), 0.012, 1e-12);
        assert_approx(c.busbw_gbps.unwrap(), 100.0, 1e-12);
    }
}

/// All-gather and reduce-scatter in both models: (n-1)/n x S/B. S = 50 MB over 5 servers at
/// 40 Gb/s: 4 steps of 10 MB (2 ms each) or one flow of 40 MB per edge (8 ms): 8 ms, busbw 40.
#[test]
fn all_gather_and_reduce_scatter_pipelined_take_n_minus_one_over_n_of_s_over_b() {
    for op in [CollectiveOp::AllGather, CollectiveOp::ReduceScatter] {
        for (model, flows) in [
            (CollectiveModel::Steps, 20),
            (CollectiveModel::Pipelined, 5),
        ] {
            let w = gpu_collective(op, None, model, None, 50_000_000);
            let rep = run_ok(&scenario(star(5, 40.0), RoutingSpec::Ecmp, w));
            assert_eq!(rep.flows.total, flows);
            let c = rep.collective.unwrap();
            assert_approx(c.time_s.unwrap(), 0.008, 1e-12);
            assert_approx(c.busbw_gbps.unwrap(), 40.0, 1e-12);
        }
    }
}

/// Rail-only (two servers of two GPUs, rail leaves and no spine): an all-to-all of S = 4 MB
/// (1 MB to each other rank). G0/gpu0 -> G1/gpu1 crosses rails and servers: no up-down path
/// exists, so PXN sends it over G0's interconnect to G0/gpu1, then over rail 1. 12 pairs + 4
/// relayed = 16 flows, and every one finishes. Per link: G0/gpu0 > interconnect carries its 1
/// MB to G0/gpu1 and the first leg of its 1 MB to G1/gpu1 (2 MB); G0/gpu1's NIC carries its own
/// 1 MB to G1/gpu1 and the relayed one (2 MB). Time: each NIC's 2 MB (1.6e7 bits) at 100 Gb/s,
/// busy from 0 on (the relayed leg joins when its 20 us interconnect leg ends: 2 x 8e6 bits at
/// 400 Gb/s each): 160 us.
#[test]
fn rail_only_all_to_all_relays_cross_rail_bytes_over_the_interconnect() {
    let w = gpu_collective(
        CollectiveOp::AllToAll,
        None,
        CollectiveModel::Steps,
        None,
        4_000_000,
    );
    let rep = run_ok(&scenario(super::gpu::two_by_two(0), RoutingSpec::Ecmp, w));
    assert_eq!((rep.flows.total, rep.flows.finished), (16, 16));
    for s in 0..2 {
        for i in 0..2 {
            let g = format!("G{s}/gpu{i}");
            let ic = format!("G{s}/interconnect");
            let leaf = format!("SU0.L{i}");
            assert_eq!(link_bytes(&rep, &g, &ic), 2e6, "{g}");
            assert_eq!(link_bytes(&rep, &ic, &g), 2e6, "{g}");
            assert_eq!(link_bytes(&rep, &g, &leaf), 2e6, "{g}");
            assert_eq!(link_bytes(&rep, &leaf, &g), 2e6, "{g}");
        }
    }
    let c = rep.collective.unwrap();
    assert_approx(c.time_s.unwrap(), 160e-6, 1e-12);
    // packet mode runs the relays too: the second leg starts when the first has delivered
    let mut psc = scenario(
        super::gpu::two_by_two(0),
        RoutingSpec::Ecmp,
        gpu_collective(
            CollectiveOp::AllToAll,
            None,
            CollectiveModel::Steps,
            None,
            4_000_000,
        ),
    );
    psc.engine.mode = Mode::Packet;
    let prep = run_ok(&psc);
    assert_eq!((prep.flows.total, prep.flows.finished), (16, 16));
    let p = prep.collective.unwrap().time_s.unwrap();
    assert!((160e-6..1.1 * 160e-6).contains(&p), "packet {p} s");
    // without PXN the pair would have no path: the relay's first leg goes to G0/gpu1
    let net = scenario(
        super::gpu::two_by_two(0),
        RoutingSpec::Ecmp,
        many_to_many(&["G0/gpu0"], &["G1/gpu1"], 1, 1),
    )
    .validate()
    .unwrap();
    let id = |s: &str| net.node_id(s).unwrap();
    assert_eq!(
        net.pxn_relay(id("G0/gpu0"), id("G1/gpu1")),
        Some(id("G0/gpu1"))
    );
}

/// A relay's two legs overlap (NCCL's proxy forwards each chunk as it lands): an all-to-all of
/// S = 2 MB between G0/gpu0 and G1/gpu1 (rail-only: each 1 MB goes over its server's 400 Gb/s
/// interconnect to the GPU on the other rail, and over that rail's 100 Gb/s NIC) takes the NIC
/// leg's 8e6 bits / 100 Gb/s = 80 us, not the 20 us interconnect leg first and then 80 us.
#[test]
fn a_relayed_transfer_takes_its_slower_leg_not_both() {
    for mode in [Mode::Flow, Mode::Packet] {
        let ranks = Some(vec!["G0/gpu0".to_string(), "G1/gpu1".to_string()]);
        let w = gpu_collective(
            CollectiveOp::AllToAll,
            None,
            CollectiveModel::Steps,
            ranks,
            2_000_000,
        );
        let mut sc = scenario(super::gpu::two_by_two(0), RoutingSpec::Ecmp, w);
        sc.engine.mode = mode;
        let rep = run_ok(&sc);
        assert_eq!((rep.flows.total, rep.flows.finished), (4, 4));
        let t = rep.collective.unwrap().time_s.unwrap();
        match mode {
            Mode::Flow => assert_approx(t, 80e-6, 1e-12),
            // packets add headers, ACK clocking and the start of the window: within 10 %
            _ => assert!((80e-6..1.1 * 80e-6).contains(&t), "packet {t} s"),
        }
    }
}

/// Hierarchical all-reduce of S = 8 MB over 2 servers (H) of 4 GPUs (G), rail-only, 100 Gb/s
/// NICs and 800 Gb/s interconnect links. Reduce-scatter inside each server: G - 1 = 3 steps of
/// S/G = 2 MB (1.6e7 bits at 800 Gb/s: 20 us), 60 us, each GPU's interconnect link carrying
/// (G-1)/G x S = 6 MB; then a ring all-reduce of each GPU's 2 MB shard per rail across the H
/// servers: 2(H-1) = 2 steps of 1 MB (80 us at 100 Gb/s), 160 us, each NIC carrying 2(H-1)/H x
/// S/G = 2 MB; then the all-gather inside: 60 us and 6 MB more. 280 us; algbw 6.4e7 bits /
/// 280 us = 228.57 Gb/s, busbw x 2 x 7/8 = 400 Gb/s. Steps 2(G-1) + 2(H-1) = 8. The pipelined
/// model takes the same time (no latency terms) in 32 flows instead of 64.
#[test]
fn hierarchical_all_reduce_moves_its_bytes_over_the_interconnect_then_the_rails() {
    let net = gpu_cluster(&GpuCluster {
        servers: 2,
        rails: 4,
        su_size: 2,
        nic_gbps: 100.0,
        nvlink_gbps: 800.0,
        spines: 0,
        spine_links: 1,
        spine_gbps: 100.0,
        latency_ns: 0,
    });
    for (model, flows) in [
        (CollectiveModel::Steps, 64),
        (CollectiveModel::Pipelined, 32),
    ] {
        let w = gpu_collective(
            CollectiveOp::AllReduce,
            Some(CollectiveAlgorithm::Hierarchical),
            model,
            None,
            8_000_000,
        );
        let rep = run_ok(&scenario(net.clone(), RoutingSpec::Ecmp, w));
        assert_eq!((rep.flows.total, rep.flows.finished), (flows, flows));
        for s in 0..2 {
            for i in 0..4 {
                let (g, ic, leaf) = (
                    gpu_id(s, i),
                    format!("G{s}/interconnect"),
                    format!("SU0.L{i}"),
                );
                assert_eq!(link_bytes(&rep, &g, &ic), 12e6, "{g}");
                assert_eq!(link_bytes(&rep, &ic, &g), 12e6, "{g}");
                assert_eq!(link_bytes(&rep, &g, &leaf), 2e6, "{g}");
                assert_eq!(link_bytes(&rep, &leaf, &g), 2e6, "{g}");
            }
        }
        let c = rep.collective.unwrap();
        assert_eq!(
            (c.algorithm.as_str(), c.steps, c.ranks),
            ("hierarchical", 8, 8)
        );
        assert_approx(c.time_s.unwrap(), 280e-6, 1e-12);
        assert_approx(c.busbw_gbps.unwrap(), 400.0, 1e-12);
    }
}

/// NCCL's software latency (on by default) on the hierarchical all-reduce above: its 280 us of
/// network time, plus 8.4 us once, 3 + 3 steps inside the servers at 3.4 us and 2 across at
/// 9.6 us: 328 us, in both models (a pipelined phase's flow pays each of its steps'); the
/// classic ring over servers (no GPU ranks) pays none.
#[test]
fn nccl_software_latency_adds_its_base_and_step_terms() {
    let net = gpu_cluster(&GpuCluster {
        servers: 2,
        rails: 4,
        su_size: 2,
        nic_gbps: 100.0,
        nvlink_gbps: 800.0,
        spines: 0,
        spine_links: 1,
        spine_gbps: 100.0,
        latency_ns: 0,
    });
    for model in [CollectiveModel::Steps, CollectiveModel::Pipelined] {
        let mut w = gpu_collective(
            CollectiveOp::AllReduce,
            Some(CollectiveAlgorithm::Hierarchical),
            model,
            None,
            8_000_000,
        );
        if let WorkloadSpec::Collective(c) = &mut w {
            c.software_latency = None;
        }
        let rep = run_ok(&scenario(net.clone(), RoutingSpec::Ecmp, w));
        assert_approx(rep.collective.unwrap().time_s.unwrap(), 328e-6, 1e-12);
    }
    let rep = run_ok(&on_star(4, 100.0, CollectiveOp::AllReduce, 100_000_000, 1));
    assert_approx(rep.collective.unwrap().time_s.unwrap(), 0.012, 1e-12);
}

/// A ring over GPU ranks of two servers (rail-only) in the order G0/gpu0, G0/gpu1, G1/gpu0,
/// G1/gpu1: the edges G0/gpu1 -> G1/gpu0 and G1/gpu1 -> G0/gpu0 cross rails and servers and go
/// through PXN relays (two flows each), the others are one flow: 6 steps x (4 + 2) = 36 flows.
#[test]
fn ring_edges_across_rails_and_servers_take_a_relay() {
    let order: Vec<String> = ["G0/gpu0", "G0/gpu1", "G1/gpu0", "G1/gpu1"]
        .map(String::from)
        .to_vec();
    let w = gpu_collective(
        CollectiveOp::AllReduce,
        None,
        CollectiveModel::Steps,
        Some(order),
        4_000_000,
    );
    let sc = scenario(super::gpu::two_by_two(0), RoutingSpec::Ecmp, w);
    let net = sc.validate().unwrap();
    assert_eq!(sc.workload_flows(&net).0, 36);
    let rep = run_ok(&sc);
    assert_eq!((rep.flows.total, rep.flows.finished), (36, 36));
    // the relay of G0/gpu1 -> G1/gpu0 is G0/gpu0 (G0's GPU on rail 0), of G1/gpu1 -> G0/gpu0
    // G1/gpu0: rail 0 carries both relayed legs, 6 chunks of 1 MB each, and rail 1 nothing
    assert_eq!(link_bytes(&rep, "G0/gpu0", "SU0.L0"), 6e6);
    assert_eq!(link_bytes(&rep, "G1/gpu0", "SU0.L0"), 6e6);
    assert_eq!(link_bytes(&rep, "G0/gpu1", "SU0.L1"), 0.0);
    assert_eq!(link_bytes(&rep, "G1/gpu1", "SU0.L1"), 0.0);
    assert!(busy_links(&rep).contains(&"G1/gpu1>G1/interconnect".to_string()));
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]
    /// On GPU clusters (1-3 servers of 1-4 GPUs, SUs of 2 under a spine or one rail-only SU), whatever the op,
    /// algorithm and model: the validator's flow count is the generator's, every flow runs
    /// between distinct nodes, every dependency points backwards, the pipelined model moves the
    /// steps model's bytes between every pair, and every flow finishes.
    #[test]
    fn gpu_collectives_count_and_finish(
        servers in 1usize..4,
        rails in 1usize..5,
        spine in any::<bool>(),
        op in prop::sample::select(vec![
            CollectiveOp::AllReduce, CollectiveOp::AllGather, CollectiveOp::ReduceScatter,
            CollectiveOp::AllToAll,
        ]),
        hierarchical in any::<bool>(),
        pipelined in any::<bool>(),
        bytes in 100u64..10_000,
    ) {
        prop_assume!(servers * rails >= 2);
        let net = gpu_cluster(&GpuCluster {
            // (rail-only: one SU, whose leaves are the only way between servers)
            servers, rails, su_size: if spine { 2 } else { servers }, nic_gbps: 100.0, nvlink_gbps: 800.0,
            spines: usize::from(spine), spine_links: 1, spine_gbps: 100.0, latency_ns: 100,
        });
        let algorithm = if op == CollectiveOp::AllReduce && hierarchical {
            Some(CollectiveAlgorithm::Hierarchical)
        } else {
            None
        };
        let model = if pipelined { CollectiveModel::Pipelined } else { CollectiveModel::Steps };
        let sc = scenario(net, RoutingSpec::Ecmp, gpu_collective(op, algorithm, model, None, bytes));
        let net = sc.validate().unwrap();
        let w = workload::generate(&sc.workload, &net, 1);
        prop_assert_eq!(w.flows.len() as u64, sc.workload_flows(&net).0);
        for (i, f) in w.flows.iter().enumerate() {
            prop_assert!(f.src != f.dst);
            for &(s, _) in w.deps.successors(i as u32) {
                prop_assert!(s as usize > i);
            }
        }
        // the pipelined model moves exactly the steps model's bytes between every pair
        let per_pair = |m: CollectiveModel| {
            let w = gpu_collective(op, algorithm, m, None, bytes);
            let sc = scenario(sc.network.clone(), RoutingSpec::Ecmp, w);
            let mut by = std::collections::BTreeMap::new();
            for f in workload::generate(&sc.workload, &net, 1).flows {
                *by.entry((f.src, f.dst)).or_insert(0u64) += f.bytes.0;
            }
            by
        };
        prop_assert_eq!(per_pair(CollectiveModel::Steps), per_pair(CollectiveModel::Pipelined));
        let rep = run_ok(&sc);
        prop_assert_eq!(rep.flows.finished, rep.flows.total);
        prop_assert!(rep.collective.unwrap().time_s.is_some());
    }
}

/// The GPU fields are refused naming them: hierarchical on ranks without a host or on servers
/// holding different rails, a skew on another op than all-to-all or out of range, hierarchical
/// for another op.
#[test]
fn gpu_collective_fields_are_validated_naming_the_field() {
    let check = |net: NetworkSpec, w: WorkloadSpec, path: &str, words: &str| {
        let e = scenario(net, RoutingSpec::Ecmp, w).validate().unwrap_err();
        assert_eq!(e.path, path, "{e}");
        assert!(e.message.contains(words), "{e}");
    };
    let hier = |servers: Option<Vec<String>>| {
        gpu_collective(
            CollectiveOp::AllReduce,
            Some(CollectiveAlgorithm::Hierarchical),
            CollectiveModel::Steps,
            servers,
            1000,
        )
    };
    check(
        star(4, 10.0),
        hier(Some(vec!["S0".into(), "S1".into()])),
        "workload.servers[0]",
        "the hierarchical algorithm needs GPU ranks: \"S0\" has no host",
    );
    check(
        super::gpu::two_by_two(0),
        hier(Some(
            ["G0/gpu0", "G0/gpu1", "G1/gpu0"].map(String::from).to_vec(),
        )),
        "workload.servers",
        "every server to hold the same rails: \"G0/interconnect\" has rails [0, 1], \"G1/interconnect\" [0]",
    );
    check(
        super::gpu::two_by_two(0),
        gpu_collective(
            CollectiveOp::AllGather,
            Some(CollectiveAlgorithm::Hierarchical),
            CollectiveModel::Steps,
            None,
            1000,
        ),
        "workload.algorithm",
        "all_gather runs with \"ring\", not \"hierarchical\"",
    );
    let skewed = |op, skew| {
        WorkloadSpec::Collective(CollectiveSpec {
            op,
            algorithm: None,
            servers: None,
            bytes: 1000,
            iterations: 1,
            model: None,
            skew: Some(skew),
            software_latency: None,
        })
    };
    check(
        star(4, 10.0),
        skewed(CollectiveOp::AllReduce, 1.0),
        "workload.skew",
        "only all_to_all has a skew",
    );
    // the uniform default is accepted on any op
    assert!(scenario(
        star(4, 10.0),
        RoutingSpec::Ecmp,
        skewed(CollectiveOp::AllReduce, 0.0)
    )
    .validate()
    .is_ok());
    check(
        star(4, 10.0),
        skewed(CollectiveOp::AllToAll, -1.0),
        "workload.skew",
        "must be from 0 to 10",
    );
    check(
        star(4, 10.0),
        skewed(CollectiveOp::AllToAll, f64::NAN),
        "workload.skew",
        "must be from 0 to 10",
    );
}

fn skewed_all_to_all(bytes: u64, skew: Option<f64>) -> Scenario {
    let mut sc = scenario(
        star(4, 100.0),
        RoutingSpec::Ecmp,
        WorkloadSpec::Collective(CollectiveSpec {
            op: CollectiveOp::AllToAll,
            algorithm: None,
            servers: None,
            bytes,
            iterations: 1,
            model: None,
            skew,
            software_latency: None,
        }),
    );
    sc.engine.flow_records = true;
    sc
}

/// MoE skew 1 over 4 ranks, S = 4 MB (each rank sends 3 MB, what it sends uniformly). Seed 1's
/// permutation makes S0 the most popular (weight 1), then S3 (1/2), S2 (1/3), S1 (1/4). S0
/// splits its 3 MB over S1, S2, S3 in 1/4 : 1/3 : 1/2 = 3 : 4 : 6 (of 13): 692,307.7, 923,076.9,
/// 1,384,615.4, whole bytes by largest remainder: 692,308, 923,077, 1,384,615. S1 over S0, S2,
/// S3 in 6 : 2 : 3 (of 11): 1,636,364, 545,454, 818,182; S2 over S0, S1, S3 in 4 : 1 : 2 (of 7):
/// 1,714,286, 428,571, 857,143; S3 over S0, S1, S2 in 12 : 3 : 4 (of 19): 1,894,737, 473,684,
/// 631,579. S0 receives 5,245,390 bytes, S1 1,594,560.
#[test]
fn skewed_all_to_all_sends_by_zipf_popularity() {
    let rep = run_ok(&skewed_all_to_all(4_000_000, Some(1.0)));
    let got: Vec<(String, String, u64)> = rep
        .flow_records
        .unwrap()
        .iter()
        .map(|f| (f.src.clone(), f.dst.clone(), f.bytes))
        .collect();
    let want = [
        ("S0", "S1", 692_308),
        ("S0", "S2", 923_077),
        ("S0", "S3", 1_384_615),
        ("S1", "S0", 1_636_364),
        ("S1", "S2", 545_454),
        ("S1", "S3", 818_182),
        ("S2", "S0", 1_714_286),
        ("S2", "S1", 428_571),
        ("S2", "S3", 857_143),
        ("S3", "S0", 1_894_737),
        ("S3", "S1", 473_684),
        ("S3", "S2", 631_579),
    ]
    .map(|(a, b, n)| (a.to_string(), b.to_string(), n))
    .to_vec();
    assert_eq!(got, want);
    let received: Vec<f64> = rep.servers.iter().map(|s| s.bytes_received).collect();
    assert_eq!(
        received,
        [5_245_390.0, 1_594_560.0, 2_100_110.0, 3_059_940.0]
    );
    // the hot destination's downlink binds: 5,245,390 x 8 bits at 100 Gb/s (within the fluid
    // solver's rounding over its many rate changes: measured 0.24 ns early)
    assert_approx(
        rep.collective.unwrap().time_s.unwrap(),
        5_245_390.0 * 8.0 / 100e9,
        1e-6,
    );
}

/// Skew 0 is today's all-to-all byte for byte (an uneven size too: chunks of 1,000,001 and
/// 1,000,000 bytes), and the result is the same document.
#[test]
fn skew_zero_is_the_uniform_all_to_all() {
    for bytes in [4_000_000, 4_000_002] {
        let plain = serde_json::to_string(&run_ok(&skewed_all_to_all(bytes, None))).unwrap();
        let zero = serde_json::to_string(&run_ok(&skewed_all_to_all(bytes, Some(0.0)))).unwrap();
        assert_eq!(plain, zero);
    }
    let rep = run_ok(&skewed_all_to_all(4_000_002, Some(0.0)));
    let sizes: Vec<u64> = rep.flow_records.unwrap().iter().map(|f| f.bytes).collect();
    // destination j gets chunk j: 1,000,001 for S0 and S1, 1,000,000 for S2 and S3
    assert_eq!(
        sizes,
        [
            1_000_001, 1_000_000, 1_000_000, 1_000_001, 1_000_000, 1_000_000, 1_000_001, 1_000_001,
            1_000_000, 1_000_001, 1_000_001, 1_000_000
        ]
    );
}
