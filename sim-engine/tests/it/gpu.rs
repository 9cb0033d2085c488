//! GPU clusters (issue 31): GPU ranks with their server's interconnect, validation of `host` and
//! `rail`, and the up-down routes through the interconnect and the rail leaves.

use super::*;
use loopline_sim::topology::*;

/// Two servers of 2 GPUs each, one SU, rail-only (no spine): 100 Gb/s NICs, 800 Gb/s
/// interconnect links.
pub fn two_by_two(spines: usize) -> NetworkSpec {
    gpu_cluster(&GpuCluster {
        servers: 2,
        rails: 2,
        su_size: 2,
        nic_gbps: 100.0,
        nvlink_gbps: 800.0,
        spines,
        spine_links: 1,
        spine_gbps: 200.0,
        latency_ns: 0,
    })
}

/// The directed links that carried bytes, as `from>to`, sorted.
pub fn busy_links(rep: &Report) -> Vec<String> {
    let mut v: Vec<String> = rep
        .links
        .rows()
        .filter(|l| l.bytes > 0.0)
        .map(|l| format!("{}>{}", l.from, l.to))
        .collect();
    v.sort();
    v
}

/// Up-down routing needs nothing new: inside a server GPU -> interconnect -> GPU (2 hops, not
/// through the rail leaves); between servers on one rail GPU -> rail leaf -> GPU (2 hops); and a
/// GPU's NIC rate (Poisson loads) counts its NIC, not its interconnect link.
#[test]
fn gpus_route_over_the_interconnect_inside_a_server_and_the_rail_leaf_between() {
    let one = |src: &str, dst: &str| {
        let sc = scenario(
            two_by_two(0),
            RoutingSpec::Ecmp,
            many_to_many(&[src], &[dst], 1, 1_000_000),
        );
        run_ok(&sc)
    };
    let rep = one("G0/gpu0", "G0/gpu1");
    assert_eq!(
        busy_links(&rep),
        ["G0/gpu0>G0/interconnect", "G0/interconnect>G0/gpu1"]
    );
    // 8e6 bits at the interconnect's 800 Gb/s
    assert_approx(rep.job_completion_s.unwrap(), 8e6 / 800e9, 1e-12);
    let rep = one("G0/gpu1", "G1/gpu1");
    assert_eq!(busy_links(&rep), ["G0/gpu1>SU0.L1", "SU0.L1>G1/gpu1"]);
    assert_approx(rep.job_completion_s.unwrap(), 8e6 / 100e9, 1e-12);

    let sc = scenario(
        two_by_two(0),
        RoutingSpec::Ecmp,
        many_to_many(&["G0/gpu0"], &["G1/gpu0"], 1, 1),
    );
    let net = sc.validate().unwrap();
    let g = net.node_id("G0/gpu1").unwrap();
    assert_eq!(net.server_nic_gbps(g), 100.0);
    let h = net.node_id("G0/interconnect").unwrap();
    assert_eq!(net.node(g).host, Some(h));
    assert_eq!(net.node(g).rail, Some(1));
    assert_eq!(net.gpu_on_rail(h, 0), net.node_id("G0/gpu0"));
    assert_eq!(net.gpu_on_rail(h, 2), None);
    // the relay of a cross-rail, cross-server transfer is the source server's GPU on the
    // destination's rail; none on the same server or the same rail
    let id = |s: &str| net.node_id(s).unwrap();
    assert_eq!(
        net.pxn_relay(id("G0/gpu0"), id("G1/gpu1")),
        Some(id("G0/gpu1"))
    );
    assert_eq!(net.pxn_relay(id("G0/gpu0"), id("G0/gpu1")), None);
    assert_eq!(net.pxn_relay(id("G0/gpu0"), id("G1/gpu0")), None);
}

/// `host` and `rail` are refused naming the field: on a switch, one without the other, a host
/// that is unknown or not an interconnect, a rail twice on one host.
#[test]
fn gpu_fields_are_validated_naming_the_field() {
    let check = |edit: &dyn Fn(&mut NetworkSpec), path: &str, words: &str| {
        let mut net = two_by_two(0);
        edit(&mut net);
        let sc = scenario(
            net,
            RoutingSpec::Ecmp,
            many_to_many(&["G0/gpu0"], &["G1/gpu0"], 1, 1),
        );
        let e = sc.validate().unwrap_err();
        assert_eq!(e.path, path, "{e}");
        assert!(e.message.contains(words), "{e}");
    };
    let at = |net: &NetworkSpec, id: &str| net.nodes.iter().position(|n| n.id == id).unwrap();
    let i = at(&two_by_two(0), "SU0.L0");
    check(
        &|n| n.nodes[i].host = Some("G0/interconnect".into()),
        &format!("network.nodes[{i}].host"),
        "only a server (a GPU rank) has a host; \"SU0.L0\" has role \"tor\"",
    );
    let j = at(&two_by_two(0), "G0/interconnect");
    check(
        &|n| n.nodes[j].rail = Some(0),
        &format!("network.nodes[{j}].rail"),
        "has role \"interconnect\"",
    );
    let g = at(&two_by_two(0), "G1/gpu0");
    check(
        &|n| n.nodes[g].host = None,
        &format!("network.nodes[{g}].host"),
        "has a rail but no host",
    );
    check(
        &|n| n.nodes[g].rail = None,
        &format!("network.nodes[{g}].rail"),
        "has a host but no rail",
    );
    check(
        &|n| n.nodes[g].host = Some("nowhere".into()),
        &format!("network.nodes[{g}].host"),
        "unknown node \"nowhere\"",
    );
    check(
        &|n| n.nodes[g].host = Some("SU0.L1".into()),
        &format!("network.nodes[{g}].host"),
        "\"SU0.L1\" has role \"tor\": a host is an interconnect node",
    );
    let g1 = at(&two_by_two(0), "G1/gpu1");
    check(
        &|n| n.nodes[g1].rail = Some(0),
        &format!("network.nodes[{g1}].rail"),
        "rail 0 of host \"G1/interconnect\" is already GPU \"G1/gpu0\"",
    );
    // an interconnect is no flow end
    let sc = scenario(
        two_by_two(0),
        RoutingSpec::Ecmp,
        many_to_many(&["G0/gpu0"], &["G0/interconnect"], 1, 1),
    );
    let e = sc.validate().unwrap_err();
    assert_eq!(e.path, "workload.receivers[0]", "{e}");
    assert!(e.message.contains("not a server"), "{e}");
}

/// The JSON form: role `interconnect`, `host` and `rail` read and written back.
#[test]
fn gpu_nodes_parse_from_json() {
    let doc = r#"{"schema_version": 1,
        "network": {"nodes": [{"id": "H/interconnect", "role": "interconnect"},
            {"id": "H/gpu0", "role": "server", "host": "H/interconnect", "rail": 0},
            {"id": "H/gpu1", "role": "server", "host": "H/interconnect", "rail": 1}],
          "links": [{"a": "H/gpu0", "b": "H/interconnect", "gbps": 800},
                    {"a": "H/gpu1", "b": "H/interconnect", "gbps": 800}]},
        "workload": {"type": "all_to_all", "bytes": 1000}}"#;
    let sc = Scenario::from_json(doc).unwrap();
    let net = sc.validate().unwrap();
    let ic = net.node_id("H/interconnect").unwrap();
    assert_eq!(net.node(ic).layer, 1);
    assert_eq!(net.servers.len(), 2);
    // 2 x 8000 bits each way over 800 Gb/s links
    assert_approx(run_ok(&sc).job_completion_s.unwrap(), 8000.0 / 800e9, 1e-12);
    let back = serde_json::to_value(&sc).unwrap();
    assert_eq!(back["network"]["nodes"][1]["host"], "H/interconnect");
    assert_eq!(back["network"]["nodes"][2]["rail"], 1);
}

/// Bytes a directed link `from>to` carried.
pub fn link_bytes(rep: &Report, from: &str, to: &str) -> f64 {
    rep.links
        .rows()
        .find(|l| l.from == from && l.to == to)
        .unwrap_or_else(|| panic!("no link {from}>{to}"))
        .bytes
}

/// A training step on a rail-optimized cluster (4 servers of 2 GPUs, SUs of 2, 2 spines at 1:1)
/// whose collectives lose an element at time 0.
fn training_on(spines: usize, failures: Vec<FailureSpec>) -> Report {
    let net = gpu_cluster(&GpuCluster {
        servers: 4,
        rails: 2,
        su_size: 2,
        nic_gbps: 100.0,
        nvlink_gbps: 800.0,
        spines,
        spine_links: 1,
        spine_gbps: 100.0,
        latency_ns: 0,
    });
    let mut sc = scenario(
        net,
        RoutingSpec::Ecmp,
        WorkloadSpec::TrainingStep(TrainingStepSpec {
            servers: None,
            gradient_bytes: 8_000_000,
            bucket_bytes: 4_000_000,
            forward_s: 1e-3,
            backward_s: 2e-3,
            iterations: 1,
            algorithm: CollectiveAlgorithm::Hierarchical,
            model: CollectiveModel::Pipelined,
            software_latency: true,
        }),
    );
    sc.engine.failures = failures;
    run(&sc, &RunLimits::default()).expect("runs")
}

fn down_at_zero(node: &str) -> FailureSpec {
    FailureSpec {
        at_s: 0.0,
        link: None,
        node: Some(node.into()),
        recover_at_s: None,
    }
}

/// A failed rail leaf at time 0: GPU 1 of servers G0 and G1 (SU 0) lose their only NIC, and
/// up-down routing has no way round (a path through another GPU's NIC would descend to a
/// server and climb again). The rail-1 all-reduce's flows from and to them stall: the run ends
/// (no engine error) with them counted in `flows.stalled`, the step time null, and the result's
/// `reachability` naming the failed leaf and the pairs the two GPUs cannot reach (each gets
/// out only to its interconnect). A failed spine of two is routed
/// around: the step finishes, as fast here (the other spine's 100 Gb/s per leaf carries each
/// rail ring's one cross-SU flow each way).
#[test]
fn a_failed_rail_leaf_stalls_its_gpus_and_a_failed_spine_is_routed_around() {
    let rep = training_on(2, vec![down_at_zero("SU0.L1")]);
    assert!(rep.flows.stalled > 0, "{:?}", rep.flows.stalled);
    assert!(rep.flows.finished < rep.flows.total);
    let t = rep.training.unwrap();
    assert_eq!(t.step_time_s, None);
    assert_eq!(t.step_times_s, vec![None]);
    let r = rep.reachability.expect("a reachability object");
    assert_eq!(r.down_nodes, vec!["SU0.L1".to_string()]);
    // each of the two GPUs reaches only its own server's other GPU (over the interconnect): 6
    // others unreachable each way, the pair of them counted once: 2 x 2 x 6 - 2 = 22
    assert_eq!(r.unreachable_pairs, Some(22));
    for g in &r.unreachable_groups {
        let cut = |v: &[String]| v == ["G0/gpu1"] || v == ["G1/gpu1"];
        assert!(cut(&g.servers_a) || cut(&g.servers_b), "{g:?}");
    }
    let g0 = r
        .unreachable_groups
        .iter()
        .find(|g| g.servers_a == ["G0/gpu1"])
        .unwrap();
    assert_eq!(g0.via_a, ["G0/interconnect"]);

    let healthy = training_on(2, vec![]).training.unwrap();
    let spine_down = training_on(2, vec![down_at_zero("SP1")]);
    assert_eq!(spine_down.flows.finished, spine_down.flows.total);
    let t = spine_down.training.unwrap();
    assert_approx(t.step_time_s.unwrap(), healthy.step_time_s.unwrap(), 1e-12);
}
