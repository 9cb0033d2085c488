//! Decomposed mode: a link's simulation, the combination along paths, the parts of a run spread
//! over batches, and what it refuses. Expected values are derived by hand in the comments.

use super::*;
use loopline_sim::decomposed::{self, Part};
use loopline_sim::topology::{scenario, star};

fn decomposed(mut sc: Scenario) -> Scenario {
    sc.engine.mode = Mode::Decomposed;
    sc
}

fn with_mode(sc: &Scenario, mode: Mode) -> Scenario {
    let mut s = sc.clone();
    s.engine.mode = mode;
    s
}

/// Two servers joined by one 10G cable: GRIN routing takes the cable (the only path).
fn one_cable() -> NetworkSpec {
    NetworkSpec {
        nodes: vec![node("A", Role::Server), node("B", Role::Server)],
        links: vec![cable("A", "B", 10.0, 1_000)],
    }
}

fn records(r: &Report) -> Vec<String> {
    r.flow_records
        .as_ref()
        .expect("records")
        .iter()
        .map(|x| serde_json::to_string(x).unwrap())
        .collect()
}

/// One link, Poisson arrivals (300 queries of one 60 kB response from A to B at 10,000 a second:
/// about half the cable's capacity, so flows queue behind each other): every flow crosses only
/// that link, so there is nothing to combine and decomposed mode gives packet mode's completion
/// times exactly, flow by flow.
#[test]
fn one_link_gives_packet_modes_flows_exactly() {
    let mut sc = scenario(
        one_cable(),
        RoutingSpec::Grin(GrinParams::default()),
        WorkloadSpec::Query(QuerySpec {
            receiver: Some("B".into()),
            senders: Some(vec!["A".into()]),
            fan_in: None,
            response_bytes: 60_000,
            queries: Some(300),
            rate_per_s: Some(10_000.0),
        }),
    );
    sc.engine.flow_records = true;
    let packet = run_ok(&with_mode(&sc, Mode::Packet));
    let dec = run_ok(&decomposed(sc));
    assert_eq!(dec.model, "decomposed");
    assert_eq!(packet.flows.finished, 300);
    // flows queued behind each other: not every flow completed in its ideal time
    assert!(packet.flows.slowdown.max.unwrap() > 1.5);
    assert_eq!(records(&dec), records(&packet));
    assert_eq!(
        serde_json::to_string(&dec.groups).unwrap(),
        serde_json::to_string(&packet.groups).unwrap()
    );
    let d = dec.decomposition.as_ref().expect("decomposition");
    // A -> B carries the flows, B -> A only their ACKs
    assert_eq!((d.links_total, d.links_simulated, d.links_idle), (2, 1, 1));
}

/// A two-hop chain: S1 and S2 each send one UDP response of 10 datagrams of 1,500 B (T = 1.2 us
/// each at 10G) through the switch to S0, both at time 0.
/// * S1 -> SW and S2 -> SW carry one flow each: their simulations add nothing (0 ps).
/// * SW -> S0 takes both: their datagrams reach the switch together every T from T on, and the
///   port sends the 20 back to back from T, so one flow's last datagram arrives at 20T = 24 us,
///   the other's at 21T = 25.2 us; alone, each arrives at its ideal 11T (10 datagrams through two
///   hops: 9T behind the first, which crosses both), so the link adds 9T and 10T.
/// * Combined: 11T + 0 + 9T = 20T and 11T + 0 + 10T = 21T, packet mode's times (here the whole
///   network is what the link saw).
#[test]
fn a_two_hop_chain_adds_each_links_delay_to_the_ideal() {
    let t = 1.2e-6;
    let mut sc = scenario(
        star(3, 10.0),
        RoutingSpec::Ecmp,
        WorkloadSpec::Incast(QuerySpec {
            receiver: Some("S0".into()),
            senders: Some(vec!["S1".into(), "S2".into()]),
            fan_in: None,
            response_bytes: 15_000,
            queries: Some(1),
            rate_per_s: None,
        }),
    );
    sc.engine.packet.udp_requests = true;
    sc.engine.flow_records = true;
    let sorted_fcts = |r: &Report| {
        let mut v: Vec<f64> = r
            .flow_records
            .as_ref()
            .unwrap()
            .iter()
            .map(|r| r.fct_s.unwrap())
            .collect();
        v.sort_by(f64::total_cmp);
        v
    };
    let dec = run_ok(&decomposed(sc.clone()));
    let fct = sorted_fcts(&dec);
    assert_approx(fct[0], 20.0 * t, 1e-12);
    assert_approx(fct[1], 21.0 * t, 1e-12);
    assert_eq!(fct, sorted_fcts(&run_ok(&with_mode(&sc, Mode::Packet))));
    let d = dec.decomposition.as_ref().unwrap();
    // three links carry data; the ACK-less reverse directions and nothing else are idle
    assert_eq!(
        (d.links_simulated + d.links_clustered, d.links_total),
        (3, 6)
    );
    // the incast is named where decomposition is weak
    assert!(d.warnings.iter().any(|w| w.starts_with("incast")));
}

fn fat_tree(k: usize, flows: u64) -> Scenario {
    let mut sc = loopline_sim::topology::fat_tree_websearch(k, 10.0, 0.4, flows);
    sc.engine.mode = Mode::Decomposed;
    sc.engine.packet.transport = Transport::Dctcp;
    sc
}

fn parts(sc: &Scenario, batches: usize) -> Vec<Part> {
    let net = sc.validate().unwrap();
    (1..=batches)
        .map(|b| {
            decomposed::run_batch(sc, &net, b, batches, &RunLimits::default(), &mut |_| {}).unwrap()
        })
        .collect()
}

/// A run spread over batches, combined from its parts in any order, gives the bytes of a run in
/// one process; an incomplete, doubled or foreign set of parts is refused, naming the batch.
#[test]
fn batches_combine_to_the_same_result_as_one_run() {
    let sc = fat_tree(4, 300);
    let net = sc.validate().unwrap();
    let whole = serde_json::to_string(&run_ok(&sc)).unwrap();
    for batches in [1, 3] {
        let mut ps = parts(&sc, batches);
        ps.reverse();
        let rep = decomposed::combine_parts(&sc, &net, ps).unwrap();
        assert_eq!(
            serde_json::to_string(&rep).unwrap(),
            whole,
            "{batches} batches"
        );
    }
    let mut ps = parts(&sc, 3);
    let second = ps.remove(1);
    assert_eq!(
        decomposed::combine_parts(&sc, &net, ps.clone()).unwrap_err(),
        "batch 2/3 is missing"
    );
    ps.push(ps[0].clone());
    assert_eq!(
        decomposed::combine_parts(&sc, &net, ps).unwrap_err(),
        "batch 1: given twice"
    );
    let mut other = sc.clone();
    other.engine.seed = 2;
    assert_eq!(
        decomposed::combine_parts(&other, &other.validate().unwrap(), vec![second]).unwrap_err(),
        "batch 2: a part of another scenario"
    );
}

/// Threads do not change the result: one at a time and four at a time give the same bytes.
#[test]
fn link_simulations_on_any_number_of_threads_give_one_result() {
    let sc = fat_tree(4, 300);
    let one = RunLimits {
        jobs: Some(1),
        ..RunLimits::default()
    };
    let four = RunLimits {
        jobs: Some(4),
        ..RunLimits::default()
    };
    let mut a = loopline_sim::run(&sc, &one).unwrap();
    let mut b = loopline_sim::run(&sc, &four).unwrap();
    a.run_info = None;
    b.run_info = None;
    assert_eq!(
        serde_json::to_string(&a).unwrap(),
        serde_json::to_string(&b).unwrap()
    );
    let d = a.decomposition.unwrap();
    assert_eq!(
        d.links_simulated + d.links_clustered + d.links_idle,
        d.links_total
    );
    assert!(a.packet.is_some() && a.flows.finished == 300);
}

/// What decomposed mode cannot simulate is refused, naming the field.
#[test]
fn decomposed_mode_refuses_what_it_does_not_model() {
    let base = fat_tree(4, 10);
    let refused = |f: &dyn Fn(&mut Scenario)| {
        let mut sc = base.clone();
        f(&mut sc);
        sc.validate().unwrap_err().path
    };
    assert_eq!(
        refused(&|s| s.engine.failures = vec![FailureSpec {
            at_s: 0.0,
            link: None,
            node: Some("C0".into()),
            recover_at_s: None,
        }]),
        "engine.failures"
    );
    assert_eq!(
        refused(&|s| s.routing = RoutingSpec::Detour(DetourParams::default())),
        "routing.type"
    );
    assert_eq!(
        refused(&|s| s.engine.packet.transport = Transport::Mptcp),
        "engine.packet.transport"
    );
    assert_eq!(
        refused(&|s| s.engine.packet.spraying = true),
        "engine.packet.spraying"
    );
    assert_eq!(
        refused(&|s| s.engine.decomposed = Some(DecomposedSpec {
            cluster_threshold: 1.5,
            ..DecomposedSpec::default()
        })),
        "engine.decomposed.cluster_threshold"
    );
    assert_eq!(
        refused(&|s| s.engine.decomposed = Some(DecomposedSpec {
            bottleneck_margin: f64::NAN,
            ..DecomposedSpec::default()
        })),
        "engine.decomposed.bottleneck_margin"
    );
}

/// Progress counts links: every sample's links done never decrease and never pass the links to
/// simulate.
#[test]
fn progress_counts_the_links_simulated() {
    let sc = fat_tree(4, 800);
    let limits = RunLimits {
        progress_every: Some(std::time::Duration::ZERO),
        jobs: Some(1),
        ..RunLimits::default()
    };
    let mut samples = Vec::new();
    let rep = loopline_sim::run_with_progress(&sc, &limits, |p| samples.push(p.links)).unwrap();
    let simulated = rep.decomposition.unwrap().links_simulated;
    assert!(!samples.is_empty());
    let mut last = 0;
    for s in samples {
        let (done, total) = s.expect("decomposed progress counts links");
        assert_eq!(total, simulated);
        assert!(done >= last && done <= total);
        last = done;
    }
}

/// The other hops' pace: S1 and S2 each send 10 MB to S0 through one switch. In the fluid run
/// both share SW -> S0 at 5 Gb/s each and finish together at 16 ms: SW -> S0 is their busiest
/// link (utilisation 1), their own uplinks half as busy (0.5, more than the default 25 % below):
/// each reaches its uplink's simulation paced at 5 Gb/s, and SW -> S0's at line rate.
#[test]
fn a_flow_reaches_the_links_before_its_bottleneck_at_its_fluid_rate() {
    let sc = decomposed(scenario(
        star(3, 10.0),
        RoutingSpec::Ecmp,
        many_to_many(&["S1", "S2"], &["S0"], 1, 10_000_000),
    ));
    let net = sc.validate().unwrap();
    let plan = decomposed::plan::Plan::build(&sc, &net);
    let link = |a: &str, b: &str| {
        let (a, b) = (net.node_id(a).unwrap(), net.node_id(b).unwrap());
        (0..net.links.len())
            .find(|&l| net.links[l].from == a && net.links[l].to == b)
            .unwrap()
    };
    for (f, sender) in ["S1", "S2"].iter().enumerate() {
        let pace = plan
            .pace(f, link(sender, "SW"))
            .expect("paced before its bottleneck");
        assert_approx(pace, 5.0, 1e-9);
        assert_eq!(plan.pace(f, link("SW", "S0")), None);
    }
}

/// A link of fewer than 32 flows is simulated on its own: its few flows could not stand for
/// another link's sizes (a 5 kB flow would take a 10 MB flow's delay). 300 flows on a k = 4
/// fat-tree's 96 links leave every link below 32: nothing clustered; 3,000 cluster some.
#[test]
fn links_of_few_flows_are_never_clustered() {
    let summary = |flows| {
        let sc = fat_tree(4, flows);
        decomposed::summarize(&sc, &sc.validate().unwrap())
    };
    let few = summary(300);
    assert_eq!((few.links_clustered, few.links_simulated), (0, 96));
    assert!(summary(3_000).links_clustered > 0);
}
