//! Issue 26: rates that never exceed a link with detours, and an engine that refuses to report
//! success when flows are left unfinished with nothing to finish them.

use super::*;
use loopline_sim::engine::plant::Plant;
use loopline_sim::routing::detour::{DetourLeg, Side};
use loopline_sim::topology::*;

/// `loopline-sim gen type2 --racks 12 --servers-per-rack 10 --ports 2 --gbps 10 --spines 6
/// --uplink-gbps 10 --clusters 2 --cores 4` with detour routing: 120 servers, an all-to-all
/// shuffle of 15 MB per pair.
fn issue_26_cluster(servers_per_rack: usize) -> Scenario {
    let c = Cluster {
        racks: 12,
        servers_per_rack,
        ports: 2,
        port_gbps: 10.0,
        spines: 6,
        uplink_gbps: 10.0,
    };
    let mut sc = shuffle_all(subways_type2(&c, 2, 4), 15_000_000);
    sc.routing = RoutingSpec::Detour(DetourParams::default());
    sc
}

/// The issue's reproduction. Before the fix the solver froze, in the middle of a water-fill, a
/// subflow that had joined the region but was waiting for the next round to enter it: its weight
/// and rate were taken off its links without ever having been put on, the links' unfrozen weight
/// went to 0 with subflows still on them, and at t = 1.6886 s link C1.A4>L11.TOR carried
/// 21.3 Gb/s of its 10 (with 15 servers a rack: rates of 2e284 Gb/s at t = 4.075 s, then flows
/// at rate 0 and an empty event queue, reported as a success with 253 flows unfinished). Now: at
/// every step no link carries more than its capacity, every few thousand steps the rates are the
/// from-scratch max-min ones, and every flow finishes. Each server sends 119 x 15 MB = 14.28 Gbit
/// through its two 10G ports, so the job takes at least 0.714 s.
#[test]
fn issue_26_detour_reproduction_finishes_within_capacity() {
    let sc = issue_26_cluster(10);
    let net = sc.validate().unwrap();
    let mut e = FlowEngine::new(&sc, &net);
    let mut steps = 0u64;
    while e.step() {
        steps += 1;
        let fnet = e.flow_net();
        for l in 0..fnet.link_count() {
            let (load, cap) = (fnet.load(l), fnet.cap(l));
            assert!(
                load <= cap * (1.0 + 1e-6) + 1e-9,
                "t = {:?}: link {l} carries {load} Gb/s of {cap}",
                e.now()
            );
        }
        if steps % 4000 == 0 {
            let fresh = super::props::full_solve(fnet);
            for (s, sub) in fnet.subs.iter().enumerate() {
                if sub.live {
                    let (a, b) = (sub.rate, fresh.subs[s].rate);
                    assert!(
                        (a - b).abs() <= 1e-6 * a.max(b).max(1.0),
                        "t = {:?}: subflow {s} at {a} Gb/s, max-min {b}",
                        e.now()
                    );
                }
            }
        }
    }
    assert_eq!(e.stuck_flows(), None);
    assert_eq!((e.flows_done(), e.flows_total()), (14_280, 14_280));

    let rep = run_ok(&sc);
    assert_eq!(rep.flows.finished, 14_280);
    assert_eq!(rep.flows.unfinished, 0);
    let jct = rep.job_completion_s.expect("every flow finished");
    assert!(jct >= 0.714, "{jct}");
    // the run exercised what broke: detours on the receive side
    let d = &rep.routing_stats.detours;
    assert!(
        d.iter().any(|x| x.side == "receive" && x.flows > 0),
        "{}",
        serde_json::to_string(d).unwrap()
    );
    // and no link's utilisation went out of [0, 1]
    for l in rep.links.rows() {
        assert!(
            (0.0..=1.0 + 1e-9).contains(&l.peak_util),
            "{} peak {}",
            l.id,
            l.peak_util
        );
    }
}

/// An engine left with a flow at rate 0 and no event to change it is an error naming the state,
/// never a result. Forced through the controller's interface: on an 8-rack Type 1 loop with detour
/// routing (its controller's first period, 10 s, after the flow would end), one 1 MB flow from
/// L0.S0 to L4.S0 is moved onto a send-side detour through L1.TOR whose budget is 0 Gb/s. Its
/// rate is 0; the last event is its completion queued at the start (8 Mbit at 10 Gb/s: 0.8 ms),
/// now stale; nothing is left to happen, and `stuck_flows` names the time, the flow, its rate,
/// the bits left (8,000,000) and its path down to the budget link.
#[test]
fn flows_left_at_rate_0_with_no_event_are_an_engine_error() {
    let c = Cluster {
        racks: 8,
        servers_per_rack: 2,
        ports: 2,
        port_gbps: 10.0,
        spines: 2,
        uplink_gbps: 10.0,
    };
    let sc = scenario(
        subways_type1(&c),
        RoutingSpec::Detour(DetourParams {
            t_rebind_s: 10.0,
            ..DetourParams::default()
        }),
        many_to_many(&["L0.S0"], &["L4.S0"], 1, 1_000_000),
    );
    let net = sc.validate().unwrap();
    let mut e = FlowEngine::new(&sc, &net);
    assert!(e.step()); // the flow starts
    let (t0, t1) = (
        net.node_id("L0.TOR").unwrap(),
        net.node_id("L1.TOR").unwrap(),
    );
    e.set_detour_cap(t1, Side::Send, 0.0);
    let leg = DetourLeg {
        id: 0,
        side: Side::Send,
        remote: t1,
        chain: vec![t0, t1],
    };
    assert!(e.reroute_detour(0, &leg));
    while e.step() {}
    assert_eq!(e.flows_done(), 0);
    let m = e.stuck_flows().expect("a flow is stuck");
    for part in [
        "1 of 1 flows unfinished at rate 0 with no event left at t = 0.000800000 s (0 done, 0 stalled)",
        "flow 0 (L0.S0 -> L4.S0): rate 0 Gb/s, 8000000 of 8000000 bits left",
        "binding detour 0",
        "L0.S0>L0.TOR (10 Gb/s, load 0 Gb/s), L0.TOR>L1.S1 (10 Gb/s, load 0 Gb/s)",
        "detour budget send L1.TOR (0 Gb/s, load 0 Gb/s)]",
    ] {
        assert!(m.contains(part), "{part:?} not in {m:?}");
    }
}

/// Issue 26 item 2, memcache: new flows of a hot rack take its detour. Cache rack L5 of a 12-rack
/// Type 1 loop (4 servers a rack, p = 2 x 10G, 2 x 10G uplinks per ToR) answers 4,000 requests
/// of 100 kB at 60,000 requests/s from every other rack: its ToRs' uplinks run hot and a
/// send-side detour is set up. Each response is a new flow, started after the detour is: before
/// this build only the flows alive at a controller tick were moved (111 of them, and the
/// sustainable-rate estimate stayed within 1 % of least-work balancing alone, 55,980 against
/// 55,370 requests/s); now new responses are placed on the detour at its share, and the load
/// each request puts on L5's ToRs' uplinks falls: measured 78,358 against 55,371 (+41 %).
/// Asserted: at least 20 % more, and most of the rack's responses on the detour's count.
#[test]
fn a_hot_racks_new_flows_take_its_detour() {
    let net = subways_type1(&Cluster {
        racks: 12,
        servers_per_rack: 4,
        ports: 2,
        port_gbps: 10.0,
        spines: 2,
        uplink_gbps: 10.0,
    });
    let wl = WorkloadSpec::Memcache(MemcacheSpec {
        clients: None,
        server_racks: vec!["L5".into()],
        request_bytes: 100,
        response_bytes: 100_000,
        rate_per_s: 60_000.0,
        requests: 4000,
        latency_bound_us: 1000.0,
    });
    let run_with = |routing: RoutingSpec| {
        let mut sc = scenario(net.clone(), routing, wl.clone());
        sc.engine.link_series = false;
        run_ok(&sc)
    };
    let alone = run_with(RoutingSpec::LeastWork(AdaptiveParams::default()));
    let detour = run_with(RoutingSpec::Detour(DetourParams::default()));
    let (a, d) = (
        alone.memcache.as_ref().unwrap().max_rate_per_s,
        detour.memcache.as_ref().unwrap().max_rate_per_s,
    );
    assert!(d >= 1.2 * a, "detour {d} against least-work alone {a}");
    let on: Vec<_> = detour
        .routing_stats
        .detours
        .iter()
        .filter(|x| x.rack == "L5" && x.side == "send")
        .collect();
    assert_eq!(on.len(), 1, "{:?}", detour.routing_stats.detours);
    // the 4,000 responses, less those sent before the detour and those left to the rack's ToRs
    assert!(on[0].flows > 500, "{}", on[0].flows);
    assert_eq!(detour.flows.finished, detour.flows.total);
}

/// Issue 26 item 2: detours help where the design says they do. The issue's 12-rack Type 1 loop
/// (`gen subways --racks 12 --servers-per-rack 15 --ports 2 --gbps 10 --spines 6 --uplink-gbps
/// 10 --job-racks N`), a shuffle of 15 MB per pair among the first N racks, seed 1: with detours
/// the 4-rack job is at least 5 % faster than least-work balancing alone (what detours run on),
/// and the 3- and 5-rack jobs no more than 2 % slower. (The README's table has every size from
/// 1 to 12 and seeds 1..5.) Before: +3.4 %, +3.7 %, -3.3 %: the middle rack of a hot group
/// detoured through a busy neighbour's servers, a send detour kept the receive side from the
/// same remote ToR, and flows stayed on a detour after it ended.
#[test]
fn detours_speed_up_the_issues_shuffles() {
    let c = Cluster {
        racks: 12,
        servers_per_rack: 15,
        ports: 2,
        port_gbps: 10.0,
        spines: 6,
        uplink_gbps: 10.0,
    };
    for (job_racks, most) in [(3, 1.02), (4, 0.95), (5, 1.02)] {
        let mut sc = shuffle_all(subways_type1(&c), 15_000_000);
        restrict_to_racks(&mut sc, job_racks).unwrap();
        sc.routing = RoutingSpec::LeastWork(AdaptiveParams::default());
        let alone = run_ok(&sc).job_completion_s.unwrap();
        sc.routing = RoutingSpec::Detour(DetourParams::default());
        let rep = run_ok(&sc);
        let with = rep.job_completion_s.unwrap();
        assert!(
            with <= most * alone,
            "{job_racks} racks: detour {with} s vs least-work {alone} s: {}",
            serde_json::to_string(&rep.routing_stats.detours).unwrap()
        );
    }
}
