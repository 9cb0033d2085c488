//! Hand-derived exact answers.

use super::*;
use loopline_sim::engine::solver::{FlowNet, Solver};
use loopline_sim::topology::*;
use loopline_sim::units::LinkId;

/// N flows into one receiver on a 10 Gb/s star: the receiver's link is the only bottleneck, so
/// each flow gets 10/N Gb/s. With N = 4 and 1.25 MB (1e7 bits) per flow, each runs at 2.5 Gb/s
/// and all finish at 1e7 / 2.5e9 = 4 ms.
#[test]
fn one_bottleneck_shared_by_n_flows() {
    let sc = scenario(
        star(5, 10.0),
        RoutingSpec::Ecmp,
        many_to_many(&["S1", "S2", "S3", "S4"], &["S0"], 1, 1_250_000),
    );
    for r in first_rates(&sc) {
        assert_approx(r, 2.5, 1e-12);
    }
    let rep = run_ok(&sc);
    assert_eq!(rep.flows.finished, 4);
    assert_approx(rep.job_completion_s.unwrap(), 0.004, 1e-9);
    // every flow's slowdown is 4 (ideal: 1e7 bits at 10 Gb/s = 1 ms)
    assert_approx(rep.flows.slowdown.max.unwrap(), 4.0, 1e-9);
    // the receiver's downlink is fully used for the whole 4 ms
    let down = rep
        .links
        .rows()
        .find(|l| l.from == "SW" && l.to == "S0")
        .unwrap();
    assert_approx(down.mean_util, 1.0, 1e-6);
}

/// The link rows are kept as columns and written one at a time: the JSON is still one object per
/// directed link, keys in the documented order, the series only where kept. Star of 2 servers,
/// one 1.25 MB flow S1 -> S0 at 10 Gb/s: 1 ms, each link on its path full for all of it.
#[test]
fn link_rows_serialise_as_one_object_per_directed_link() {
    let mut sc = scenario(
        star(2, 10.0),
        RoutingSpec::Ecmp,
        many_to_many(&["S1"], &["S0"], 1, 1_250_000),
    );
    sc.engine.link_series = false;
    let text = serde_json::to_string(&run_ok(&sc)).unwrap();
    let json: serde_json::Value = serde_json::from_str(&text).unwrap();
    let links = json["links"]["links"].as_array().unwrap();
    assert_eq!(links.len(), 4);
    let names: Vec<(&str, &str)> = links
        .iter()
        .map(|l| (l["from"].as_str().unwrap(), l["to"].as_str().unwrap()))
        .collect();
    assert_eq!(
        names,
        [("S0", "SW"), ("SW", "S0"), ("S1", "SW"), ("SW", "S1")]
    );
    // as written, keys in order (the parsed value above sorts them)
    assert!(
        text.contains(
            r#"{"id":"S0|SW#0","from":"SW","to":"S0","gbps":10.0,"bytes":1250000.0,"mean_util":1.0,"peak_util":1.0}"#
        ),
        "{text}"
    );
    assert_eq!(links[0]["id"], links[1]["id"], "one id per cable");
    // with series kept: `util` per row (its own length), no queue series in flow mode
    sc.engine.link_series = true;
    let json = serde_json::to_value(run_ok(&sc)).unwrap();
    let down = &json["links"]["links"][1];
    assert!(down["util"].as_array().is_some_and(|u| !u.is_empty()));
    assert!(down.get("queue_max_bytes").is_none());
}

/// Parking lot with hops of 10, 30 and 12 Gb/s; a long flow crosses all three hops, hop 0 has one
/// short flow, hop 1 three, hop 2 one.
/// Water-filling: fair shares are 10/2 = 5, 30/4 = 7.5, 12/2 = 6, so hop 0 saturates first: long = 5,
/// short0 = 5. Then hop 2 has 12 - 5 = 7 for one flow (7) and hop 1 has 30 - 5 = 25 for three
/// (8.33): hop 2 saturates next, short2 = 7; finally the shorts of hop 1 get 25/3 each.
/// After the long flow leaves (incremental re-solve): short0 = 10, short1 = 10 each, short2 = 12.
#[test]
fn parking_lot_max_min() {
    let mut net = FlowNet::new(vec![10.0, 30.0, 12.0]);
    let l = |i: u32| LinkId(i);
    let long = net.add_sub(0, &[l(0), l(1), l(2)], 1.0);
    let s0 = net.add_sub(1, &[l(0)], 1.0);
    let s1: Vec<u32> = (0..3).map(|i| net.add_sub(2 + i, &[l(1)], 1.0)).collect();
    let s2 = net.add_sub(5, &[l(2)], 1.0);
    let mut solver = Solver::new(3);
    let apply = |net: &mut FlowNet, solver: &Solver| {
        for &(s, r) in &solver.changed {
            net.set_rate(s as usize, r, |_, _, _| {});
        }
    };
    solver.solve(&net, &[l(0), l(1), l(2)]);
    apply(&mut net, &solver);
    let rate = |net: &FlowNet, s: u32| net.subs[s as usize].rate;
    assert_approx(rate(&net, long), 5.0, 1e-12);
    assert_approx(rate(&net, s0), 5.0, 1e-12);
    for &s in &s1 {
        assert_approx(rate(&net, s), 25.0 / 3.0, 1e-12);
    }
    assert_approx(rate(&net, s2), 7.0, 1e-12);
    // the long flow leaves: only its links are seeds
    net.set_rate(long as usize, 0.0, |_, _, _| {});
    net.remove_sub(long, |_, _, _| {});
    solver.solve(&net, &[l(0), l(1), l(2)]);
    apply(&mut net, &solver);
    assert_approx(rate(&net, s0), 10.0, 1e-12);
    for &s in &s1 {
        assert_approx(rate(&net, s), 10.0, 1e-12);
    }
    assert_approx(rate(&net, s2), 12.0, 1e-12);
}

/// The same parking lot end to end through the engine and the topology builder: the long flow
/// LS -> LD gets 5 Gb/s. (Senders LS, A0 and A2; receivers LD, B0, B2; the cross pairs that also
/// exist in a many-to-many all start at the same time, so only the long flow's rate is checked
/// against a separate hand derivation.) Long-flow-only check: alone on the chain it gets
/// min(10, 30, 12) = 10 Gb/s.
#[test]
fn parking_lot_long_flow_alone_end_to_end() {
    let sc = scenario(
        parking_lot(&[10.0, 30.0, 12.0], 100.0),
        RoutingSpec::Ecmp,
        many_to_many(&["LS"], &["LD"], 1, 1_250_000),
    );
    assert_approx(first_rates(&sc)[0], 10.0, 1e-12);
    // 1e7 bits at 10 Gb/s = 1 ms
    assert_approx(run_ok(&sc).job_completion_s.unwrap(), 0.001, 1e-9);
}

/// Shuffle on one non-blocking 10 Gb/s switch with 8 servers and 1 MB per pair: each server sends
/// 7 MB and receives 7 MB; every up- and downlink carries 7 flows, so each flow runs at 10/7 Gb/s
/// and the job ends at bytes per server / NIC rate = 7 * 8e6 / 1e10 = 5.6 ms.
#[test]
fn shuffle_on_non_blocking_switch() {
    let sc = shuffle_all(star(8, 10.0), 1_000_000);
    let rep = run_ok(&sc);
    assert_eq!(rep.flows.finished, 56);
    assert_approx(rep.job_completion_s.unwrap(), 0.0056, 1e-9);
    for s in &rep.servers {
        assert_approx(s.tx_gbps, 10.0, 1e-6);
    }
}

/// A flow through a failed link is rerouted. Leaf-spine, 2 leaves, 2 spines, all links 10 Gb/s;
/// 8 parallel flows of 1.25 MB from S0.0 to S1.0 (total 8e7 bits through the 10 Gb/s host link:
/// 8 ms). At 2 ms spine SP0 fails: the flows through it move to SP1, which alone still carries
/// 10 Gb/s, so the job still ends at 8 ms. If both spines fail at 2 ms and SP1 recovers at 5 ms,
/// the flows stall for 3 ms: the job ends at 11 ms.
#[test]
fn failed_link_is_rerouted() {
    let mut sc = scenario(
        leaf_spine(2, 1, 2, 10.0, 10.0),
        RoutingSpec::Ecmp,
        many_to_many(&["S0.0"], &["S1.0"], 8, 1_250_000),
    );
    sc.engine.failures = vec![FailureSpec {
        at_s: 0.002,
        link: None,
        node: Some("SP0".into()),
        recover_at_s: None,
    }];
    let rep = run_ok(&sc);
    assert!(rep.routing_stats.reroutes > 0, "some flows were on SP0");
    assert_eq!(rep.flows.finished, 8);
    assert_approx(rep.job_completion_s.unwrap(), 0.008, 1e-9);
    // nothing crosses SP0 after the failure: its links carry exactly what passed before 2 ms
    let via_sp0: f64 = rep
        .links
        .rows()
        .filter(|l| l.to == "SP0")
        .map(|l| l.bytes)
        .sum();
    assert!(via_sp0 <= 0.002 * 10e9 / 8.0 * 1.000001);

    // a link failure by end points, then both spines down with one recovery
    sc.engine.failures = vec![
        FailureSpec {
            at_s: 0.002,
            link: None,
            node: Some("SP0".into()),
            recover_at_s: None,
        },
        FailureSpec {
            at_s: 0.002,
            link: Some(LinkRef::Ends {
                a: "T0".into(),
                b: "SP1".into(),
            }),
            node: None,
            recover_at_s: Some(0.005),
        },
    ];
    let rep = run_ok(&sc);
    assert_eq!(rep.flows.finished, 8);
    assert_approx(rep.job_completion_s.unwrap(), 0.011, 1e-9);

    // without recovery, the flows are reported stalled
    sc.engine.failures[1].recover_at_s = None;
    let rep = run_ok(&sc);
    assert_eq!(rep.flows.stalled, 8);
    assert_eq!(rep.job_completion_s, None);
}

/// Same scenario and seed: byte-identical JSON; another seed: a different result.
#[test]
fn determinism() {
    let sc = fat_tree_websearch(4, 10.0, 0.5, 3000);
    let a = serde_json::to_string(&run_ok(&sc)).unwrap();
    let b = serde_json::to_string(&run_ok(&sc)).unwrap();
    assert_eq!(a, b);
    let mut sc2 = sc.clone();
    sc2.engine.seed = 2;
    assert_ne!(a, serde_json::to_string(&run_ok(&sc2)).unwrap());
}

/// Routes worked out ahead on a helper thread are the ones the event loop would work out: the
/// same result with and without the thread, for every router without a controller, also when a
/// failure ends the feed half-way through.
#[test]
fn routes_worked_out_ahead_change_nothing() {
    let mut cases = Vec::new();
    for routing in [
        RoutingSpec::Ecmp,
        RoutingSpec::Vlb,
        RoutingSpec::Grin(GrinParams::default()),
    ] {
        let mut sc = fat_tree_websearch(4, 10.0, 0.5, 3000);
        sc.routing = routing;
        sc.engine.latency.base_rtt = true;
        sc.engine.latency.slow_start = true;
        cases.push((sc.clone(), 3000));
        sc.engine.failures = vec![FailureSpec {
            at_s: 0.001,
            link: None,
            node: Some("C1".into()),
            recover_at_s: Some(0.002),
        }];
        cases.push((sc, 0));
    }
    for (sc, all_ahead) in cases {
        let single = RunLimits {
            single_thread: true,
            ..RunLimits::default()
        };
        let mut one = run(&sc, &single).expect("runs");
        one.run_info = None;
        let net = sc.validate().expect("valid");
        let two = std::thread::scope(|scope| {
            let mut e = FlowEngine::new(&sc, &net);
            e.route_ahead(scope);
            while e.step() {}
            e.close();
            if all_ahead > 0 {
                assert_eq!(e.routed_ahead(), all_ahead, "{}", sc.routing.name());
            } else {
                // the failure at 1 ms ends the feed: some flows before it, none after
                let before = e
                    .outcome()
                    .flows
                    .iter()
                    .filter(|f| f.start.as_secs_f64() < 0.001)
                    .count();
                assert!(e.routed_ahead() > 0, "{}", sc.routing.name());
                assert_eq!(e.routed_ahead(), before as u64, "{}", sc.routing.name());
            }
            loopline_sim::report::build(&e.outcome())
        });
        assert_eq!(
            serde_json::to_string(&one).unwrap(),
            serde_json::to_string(&two).unwrap(),
            "{}",
            sc.routing.name()
        );
    }
}

/// A link's peak utilisation is the highest value of its series when the series are kept; without
/// them (no buckets allocated) it is the peak instantaneous utilisation, which no bucket's mean
/// exceeds; bytes and mean utilisation are the same either way.
#[test]
fn peak_utilisation_with_and_without_the_series() {
    let mut sc = fat_tree_websearch(4, 10.0, 0.5, 2000);
    sc.engine.link_series = true;
    let with = run_ok(&sc);
    sc.engine.link_series = false;
    let without = run_ok(&sc);
    let mut busy = 0;
    for (a, b) in with.links.rows().zip(without.links.rows()) {
        let series = a.util.as_ref().expect("series reported");
        let max = series.iter().copied().fold(0.0, f64::max);
        assert_eq!(a.peak_util, max, "{}", a.id);
        assert!(b.peak_util >= max - 1e-6, "{}", b.id);
        assert!(b.peak_util <= 1.0);
        assert!(approx(a.bytes, b.bytes, 1e-5), "{}", a.id);
        assert!((a.mean_util - b.mean_util).abs() <= 2e-6, "{}", a.id);
        assert!(b.util.is_none());
        busy += usize::from(max > 0.5);
    }
    assert!(busy > 0, "some link ran over half full in some bucket");
}

/// Goodput factor: 4 flows into one 10G server on a non-blocking switch share 10 x 0.9 = 9 Gb/s
/// of payload: 2.25 Gb/s each, 9e6 bits take 4 ms; the receiver's link is 90% utilised. A factor
/// outside (0, 1] is refused naming the field.
#[test]
fn goodput_factor_scales_the_payload_capacity() {
    let mut sc = loopline_sim::topology::scenario(
        loopline_sim::topology::star(5, 10.0),
        RoutingSpec::Ecmp,
        many_to_many(&["S1", "S2", "S3", "S4"], &["S0"], 1, 1_125_000),
    );
    sc.engine.goodput_factor = 0.9;
    for r in first_rates(&sc) {
        assert_approx(r, 2.25, 1e-12);
    }
    let rep = run_ok(&sc);
    assert_approx(rep.job_completion_s.unwrap(), 0.004, 1e-9);
    let down = rep.links.rows().find(|l| l.to == "S0").unwrap();
    assert_approx(down.mean_util, 0.9, 1e-6);
    for bad in [0.0, 1.5, f64::NAN] {
        sc.engine.goodput_factor = bad;
        let e = sc.validate().unwrap_err();
        assert_eq!(e.path, "engine.goodput_factor", "{bad}");
    }
}

/// Per-flow records (`engine.flow_records`): S1 -> S0 and S2 -> S0 on a star whose S2 link is
/// 2 Gb/s (the others 10), 1.25 MB = 1e7 bits each. Max-min: S2's flow is held to 2 Gb/s by its
/// own link, S1's gets the rest of S0's 10 Gb/s downlink, 8 Gb/s: it finishes at
/// 1e7 / 8e9 = 1.25 ms (alone it would take 1 ms: slowdown 1.25); S2's flow keeps 2 Gb/s and
/// finishes at 1e7 / 2e9 = 5 ms, its ideal (slowdown 1). Stopped at 3 ms, the second has no
/// completion time. Off by default: no records.
#[test]
fn flow_records_give_each_flows_exact_completion() {
    let mut net = loopline_sim::topology::star(3, 10.0);
    net.links.iter_mut().find(|l| l.a == "S2").unwrap().gbps = 2.0;
    let mut sc = loopline_sim::topology::scenario(
        net,
        RoutingSpec::Ecmp,
        many_to_many(&["S1", "S2"], &["S0"], 1, 1_250_000),
    );
    assert!(run_ok(&sc).flow_records.is_none());
    sc.engine.flow_records = true;
    let rep = run_ok(&sc);
    let recs = rep.flow_records.as_ref().expect("records asked for");
    assert_eq!(recs.len(), 2);
    let ends: Vec<(u64, &str, &str, u64, f64)> = recs
        .iter()
        .map(|r| (r.index, r.src.as_str(), r.dst.as_str(), r.bytes, r.start_s))
        .collect();
    assert_eq!(
        ends,
        vec![
            (0, "S1", "S0", 1_250_000, 0.0),
            (1, "S2", "S0", 1_250_000, 0.0)
        ]
    );
    assert_approx(recs[0].fct_s.unwrap(), 0.00125, 1e-9);
    assert_approx(recs[0].slowdown.unwrap(), 1.25, 1e-9);
    assert_approx(recs[1].fct_s.unwrap(), 0.005, 1e-9);
    assert_approx(recs[1].slowdown.unwrap(), 1.0, 1e-9);
    // the records agree with the summary
    assert_eq!(rep.flows.fct_s.max, recs[1].fct_s);
    // the JSON keys are exactly the documented ones
    let v = serde_json::to_value(&recs[0]).unwrap();
    let mut keys: Vec<&str> = v.as_object().unwrap().keys().map(|k| k.as_str()).collect();
    keys.sort();
    assert_eq!(
        keys,
        ["bytes", "dst", "fct_s", "index", "slowdown", "src", "start_s"]
    );
    sc.engine.stop_time_s = Some(0.003);
    let rep = run_ok(&sc);
    let recs = rep.flow_records.unwrap();
    assert_approx(recs[0].fct_s.unwrap(), 0.00125, 1e-9);
    assert_eq!((recs[1].fct_s, recs[1].slowdown), (None, None));
    let v = serde_json::to_value(&recs[1]).unwrap();
    assert!(v["fct_s"].is_null() && v["slowdown"].is_null());
}
