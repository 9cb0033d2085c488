//! Fidelity to the mechanisms of DESIGN.md section 4 (issue 17): GRIN h1 multipath, detours on
//! both sides, adaptive balancing against ECMP. Expected values are derived by hand.

use super::*;
use loopline_sim::topology::*;

fn grin(direct_weight: f64) -> RoutingSpec {
    RoutingSpec::Grin(GrinParams { direct_weight })
}

fn cable(a: &str, b: &str, gbps: f64) -> LinkSpec {
    LinkSpec {
        id: None,
        a: a.into(),
        b: b.into(),
        gbps,
        latency_ns: 0,
    }
}

/// The minimal case: one flow S0 -> S1 on a 1G star; S0's GRIN neighbours S2, S3, S4 and
/// S1's S5, S6, S7 are idle. S0 has 4 Gb/s out (its uplink and three cables), S1 4 Gb/s in, the
/// switch is non-blocking: the h1 path set's max-flow is 4 Gb/s. The 16 paths (x in {S0, S2..S4}
/// times y in {S1, S5..S7}) put the same weight on every link but the direct path's; progressive
/// filling saturates S0's uplink and S1's downlink first (direct .5 + 3 x 1/30 = .6 of the weight:
/// level 5/3), then the rest fills until every one of S0's out-links is full: 4 Gb/s.
#[test]
fn grin_alone_fills_its_path_sets_max_flow() {
    let mut spec = star(8, 1.0);
    for n in ["S2", "S3", "S4"] {
        spec.links.push(cable("S0", n, 1.0));
    }
    for n in ["S5", "S6", "S7"] {
        spec.links.push(cable("S1", n, 1.0));
    }
    for w in [0.5, 1.0 / 16.0, 0.9] {
        let sc = scenario(
            spec.clone(),
            grin(w),
            many_to_many(&["S0"], &["S1"], 1, 1_000_000),
        );
        let rates = first_rates(&sc);
        assert_approx(rates[0], 4.0, 1e-9);
        // 8e6 bits at 4 Gb/s
        assert_approx(run_ok(&sc).job_completion_s.unwrap(), 0.002, 1e-9);
    }
}

/// Where every path of a multipath flow meets single-path flows at one bottleneck it takes no more
/// than one of them: S1 has no GRIN neighbour, so all 4 paths of S0 -> S1 (S0 has 3 neighbours)
/// enter through S1's 1G downlink, shared with the single-path flows S8 -> S1 and S9 -> S1: each
/// flow gets 1/3 Gb/s (the multipath flow's weights sum to 1).
#[test]
fn grin_takes_one_fair_share_at_a_shared_bottleneck() {
    let mut spec = star(10, 1.0);
    for n in ["S2", "S3", "S4"] {
        spec.links.push(cable("S0", n, 1.0));
    }
    let sc = scenario(
        spec,
        grin(0.5),
        many_to_many(&["S0", "S8", "S9"], &["S1"], 1, 1_000_000),
    );
    let rates = first_rates(&sc);
    for r in &rates {
        assert_approx(*r, 1.0 / 3.0, 1e-9);
    }
}

/// A common neighbour gives a purely horizontal path, and a cable between the endpoints is the
/// direct path. S0 - S2 - S1 and S0 - S1 cables (1G each), 1G uplinks, no other neighbour:
/// out(S0) = uplink + cable to S1 + cable to S2 = 3 Gb/s = in(S1); the paths are the cable,
/// S0 -> SW -> S1, S0 -> S2 -> S1 (horizontal), S0 -> SW -> S2 -> S1 and S0 -> S2 -> SW -> S1.
#[test]
fn grin_uses_cables_and_common_neighbours() {
    let mut spec = star(3, 1.0);
    spec.links.push(cable("S0", "S1", 1.0));
    spec.links.push(cable("S0", "S2", 1.0));
    spec.links.push(cable("S2", "S1", 1.0));
    let sc = scenario(
        spec,
        grin(0.5),
        many_to_many(&["S0"], &["S1"], 1, 1_000_000),
    );
    let net = sc.validate().unwrap();
    let e = {
        let mut e = loopline_sim::engine::FlowEngine::new(&sc, &net);
        assert!(e.step());
        let paths: Vec<usize> = e
            .flow_net()
            .subs
            .iter()
            .filter(|s| s.live)
            .map(|s| s.flow as usize)
            .collect();
        assert_eq!(paths.len(), 5, "cable, fabric, horizontal, two mixed");
        e.outcome().flows[0].rate
    };
    assert_approx(e, 3.0, 1e-9);
}

/// Permutation among a quarter of the servers of a leaf-spine (4 leaves x 8 servers, 10G hosts,
/// 4 x 40G uplinks per leaf: the fabric is not the limit). Server `i` (in node order) is cabled to
/// `i ^ 10`, `i ^ 20`, `i ^ 30` for degrees 1, 2, 3; the active servers are positions 0 and 1 of
/// each leaf, whose neighbours (positions 2-7 of other leaves) are idle and private to them.
/// Each flow's max-flow is (d + 1) x 10 Gb/s, so the total grows strictly with the degree; with
/// the path set's symmetric weights every link fills: exactly 80 (d + 1) Gb/s.
#[test]
fn grin_degree_raises_permutation_throughput() {
    let active: Vec<String> = (0..4)
        .flat_map(|l| (0..2).map(move |j| format!("S{l}.{j}")))
        .collect();
    let mut totals = Vec::new();
    for d in 0..=3usize {
        let mut spec = leaf_spine(4, 8, 4, 10.0, 40.0);
        for k in 1..=d {
            add_grin_matching(&mut spec, 10 * k, 10.0);
        }
        let sc = scenario(
            spec,
            grin(0.5),
            WorkloadSpec::Permutation(PermutationSpec {
                servers: Some(active.clone()),
                bytes: 10_000_000,
            }),
        );
        let total: f64 = first_rates(&sc).iter().sum();
        totals.push(total);
    }
    for w in totals.windows(2) {
        assert!(w[1] > w[0] * 1.2, "totals {totals:?}");
    }
    for (d, t) in totals.iter().enumerate() {
        assert_approx(*t, 80.0 * (d + 1) as f64, 1e-9);
    }
}

fn loop_cluster(racks: usize, servers_per_rack: usize) -> Cluster {
    Cluster {
        racks,
        servers_per_rack,
        ports: 2,
        port_gbps: 10.0,
        spines: 2,
        uplink_gbps: 10.0,
    }
}

fn rack_servers(racks: &[usize], per_rack: usize) -> Vec<String> {
    racks
        .iter()
        .flat_map(|r| (0..per_rack).map(move |j| format!("L{r}.S{j}")))
        .collect()
}

/// Detours on both sides. 12-rack Type 1 loop (p = 2 x 10G, ToR uplinks 2 x 10G). Receive side:
/// the 16 servers of racks 0, 1, 10, 11 send 20 MB to each of the 4 servers of rack 6, whose ports
/// go to ToRs 6 and 5. The senders' 5 ToRs have 100 Gb/s of uplinks, the receivers' NICs 80 Gb/s,
/// but all of it enters through the 40 Gb/s of downlinks of ToRs 5 and 6: the destination side is
/// the bottleneck, at least 10.24 Gbit / 40 Gb/s = 0.256 s without detours. Those downlinks are
/// receive-hot; the first ToRs on either side (4 and 7) are idle, so the receive-side detour lets
/// traffic for rack 6 enter there (60% of their 20 Gb/s spare each) and reach ToR 5 or 6 through
/// one server of rack 5 or 7. Send side: the same with the directions swapped (rack 6 sends).
/// Adaptive alone meets the bound (0.256 s); with detours the job finishes measurably earlier
/// (0.195 s receiving, 0.178 s sending), and the detour statistics' time saved (detoured bytes /
/// 40 Gb/s) accounts for the difference from above: it assumes the rack's own links stay busy to
/// the end, while here they idle for the last part as the detoured flows finish, so it is an
/// upper bound, here within 50% (0.086 s against 0.062 s, 0.096 s against 0.078 s).
#[test]
fn detours_relieve_a_hot_rack_on_either_side() {
    let far = rack_servers(&[0, 1, 10, 11], 4);
    let hot = rack_servers(&[6], 4);
    let far: Vec<&str> = far.iter().map(|x| x.as_str()).collect();
    let hot: Vec<&str> = hot.iter().map(|x| x.as_str()).collect();
    for (side, wl) in [
        ("receive", many_to_many(&far, &hot, 1, 20_000_000)),
        ("send", many_to_many(&hot, &far, 1, 20_000_000)),
    ] {
        let net = subways_type1(&loop_cluster(12, 4));
        // detours run on least-work balancing: the same without detours is the baseline
        let adaptive = run_ok(&scenario(
            net.clone(),
            RoutingSpec::LeastWork(AdaptiveParams::default()),
            wl.clone(),
        ));
        let detour = run_ok(&scenario(
            net,
            RoutingSpec::Detour(DetourParams::default()),
            wl,
        ));
        let (ta, td) = (
            adaptive.job_completion_s.unwrap(),
            detour.job_completion_s.unwrap(),
        );
        let d = &detour.routing_stats.detours;
        let summary = serde_json::to_string(d).unwrap();
        // no routing beats the hot rack's 40 Gb/s without detours
        assert!(ta >= 0.256 * (1.0 - 1e-9), "adaptive {ta}");
        assert!(
            td < 0.85 * ta,
            "{side}: detour {td} vs adaptive {ta}: {summary}"
        );
        // the rack's detour (set up again when it ended as its ToRs cooled and its flows,
        // back on them, heated them again), one at a time
        let on: Vec<_> = d.iter().filter(|x| x.rack == "L6").collect();
        assert!(!on.is_empty(), "{summary}");
        for (k, x) in on.iter().enumerate() {
            assert_eq!(x.side, side, "{summary}");
            assert_eq!(x.remote_tors, ["L4.TOR", "L7.TOR"], "{summary}");
            assert_eq!(x.max_intermediate_servers, 1);
            if let Some(next) = on.get(k + 1) {
                assert!(x.end_s.is_some_and(|e| e <= next.start_s), "{summary}");
            }
        }
        assert!(on.iter().map(|x| x.flows).sum::<u64>() > 0);
        let saved: f64 = d.iter().map(|x| x.time_saved_s).sum();
        assert!(
            saved >= ta - td && saved <= 1.5 * (ta - td),
            "saved {saved} vs {ta} - {td}"
        );
    }
}

/// Least-work balancing never loses to ECMP on a symmetric job: shuffles of the servers of racks
/// 0..n (n = 1..12) of a 12-rack Type 1 cluster (4 servers per rack, p = 2 x 10G, 2 x 10G uplinks
/// per ToR), seeds 1..5. It may be at most 2% slower than ECMP on any of them and must be
/// faster on at least half. (The job time is the busiest link's work over its capacity here;
/// with least-work placement over ToRs and fabric paths it is faster on 59 of the 60; the
/// design's rule, drawing ToRs at random, is up to 22% slower: see the README's table.)
#[test]
fn least_work_never_loses_to_ecmp_on_symmetric_shuffles() {
    let mut faster = 0;
    let mut worst: f64 = 0.0;
    let mut lines = Vec::new();
    for n in 1..=12usize {
        let racks: Vec<usize> = (0..n).collect();
        for seed in 1..=5u64 {
            let wl = WorkloadSpec::Shuffle(ShuffleSpec {
                servers: Some(rack_servers(&racks, 4)),
                bytes_per_pair: 2_000_000,
                start_s: 0.0,
            });
            let mut sc = scenario(subways_type1(&loop_cluster(12, 4)), RoutingSpec::Ecmp, wl);
            sc.engine.seed = seed;
            sc.engine.link_series = false;
            let te = run_ok(&sc).job_completion_s.unwrap();
            sc.routing = RoutingSpec::LeastWork(AdaptiveParams::default());
            let ta = run_ok(&sc).job_completion_s.unwrap();
            worst = worst.max(ta / te);
            if ta < te {
                faster += 1;
            }
            lines.push(format!(
                "racks {n} seed {seed}: ecmp {te:.4} least_work {ta:.4}"
            ));
        }
    }
    let all = lines.join("\n");
    assert!(worst <= 1.02, "least_work up to {worst} x ECMP:\n{all}");
    assert!(faster >= 30, "least_work faster on {faster} of 60:\n{all}");
}

/// The memcache estimate uses the load the routing scheme puts on each link. A 1G star: cache
/// server S (logical rack CACHE) with one GRIN neighbour N, clients C1..C4. Every response
/// (100 kB = 800 kbit) leaves S: with ECMP all of it crosses S's uplink, which saturates at
/// 1e9 / 8e5 = 1,250 requests/s. GRIN splits each response over S -> SW (weight 1/2) and
/// S -> N -> SW (1/2): S's uplink, the S -> N cable and N's uplink carry 400 kbit per request, the
/// clients' downlinks 200 kbit: saturation at 2,500 requests/s, on a link of the S side.
#[test]
fn memcache_estimate_follows_the_routing() {
    let mut spec = star(6, 1.0);
    let names = ["S", "N", "C1", "C2", "C3", "C4"];
    for (i, n) in names.iter().enumerate() {
        let node = &mut spec.nodes[i + 1];
        let old = node.id.clone();
        node.id = n.to_string();
        if *n == "S" {
            node.logical_rack = Some("CACHE".into());
        }
        for l in &mut spec.links {
            if l.a == old {
                l.a = n.to_string();
            }
        }
    }
    spec.links.push(cable("S", "N", 1.0));
    let wl = WorkloadSpec::Memcache(MemcacheSpec {
        clients: Some(["C1", "C2", "C3", "C4"].map(String::from).to_vec()),
        server_racks: vec!["CACHE".into()],
        request_bytes: 100,
        response_bytes: 100_000,
        rate_per_s: 1000.0,
        requests: 200,
        latency_bound_us: 10_000.0,
    });
    let ecmp = run_ok(&scenario(spec.clone(), RoutingSpec::Ecmp, wl.clone()))
        .memcache
        .unwrap();
    let grin = run_ok(&scenario(spec, grin(0.5), wl)).memcache.unwrap();
    assert_approx(ecmp.saturation_rate_per_s, 1250.0, 1e-9);
    assert_approx(grin.saturation_rate_per_s, 2500.0, 1e-9);
    assert!(ecmp.bottleneck_link.as_ref().unwrap().contains("(S>SW)"));
    // under a 10 ms mean-latency bound: more requests with the responses split
    assert!(ecmp.max_rate_per_s > 0.0);
    assert!(
        grin.max_rate_per_s > 1.2 * ecmp.max_rate_per_s,
        "{grin:?} {ecmp:?}"
    );
    assert!(grin.model.contains("as the routing scheme placed"));
}

/// Poisson with `inter_rack_only`: 4 leaves of 4 servers; every one of 2,000 flows crosses racks
/// (without the option about 3/15 = 20% stay in their rack); one rack only is refused.
#[test]
fn poisson_inter_rack_only() {
    let mk = |inter: bool, servers: Option<Vec<String>>| {
        scenario(
            leaf_spine(4, 4, 2, 10.0, 40.0),
            RoutingSpec::Ecmp,
            WorkloadSpec::Poisson(PoissonSpec {
                cdf: CdfSpec::Named("websearch".into()),
                load: 0.3,
                flows: 2000,
                servers,
                inter_rack_only: inter,
            }),
        )
    };
    let intra = |sc: &Scenario| {
        let net = sc.validate().unwrap();
        let wl = loopline_sim::workload::generate(&sc.workload, &net, 1);
        assert_eq!(wl.flows.len(), 2000);
        wl.flows
            .iter()
            .filter(|f| net.node(f.src).logical_rack == net.node(f.dst).logical_rack)
            .count()
    };
    assert_eq!(intra(&mk(true, None)), 0);
    let n = intra(&mk(false, None));
    assert!((300..=500).contains(&n), "{n} intra-rack flows of 2000");
    let one_rack = Some((0..4).map(|j| format!("S0.{j}")).collect());
    let e = mk(true, one_rack).validate().unwrap_err();
    assert_eq!(e.path, "workload.inter_rack_only");
}
