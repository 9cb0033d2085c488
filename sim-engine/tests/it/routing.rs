//! Routing properties.

use super::*;
use loopline_sim::routing::{RouteCtx, Router};
use loopline_sim::topology::*;

/// ECMP spreads flows evenly: 4000 runs (seeds) of one flow between two leaves over 4 spines.
/// Each spine should get 1000; the standard deviation of a count is sqrt(4000 * 1/4 * 3/4) = 27,
/// so every count lies within 1000 +- 100 (3.7 sigma).
#[test]
fn ecmp_spreads_evenly_over_many_runs() {
    let sc = shuffle_all(leaf_spine(2, 1, 4, 10.0, 10.0), 1);
    let net = sc.validate().unwrap();
    let up = vec![true; net.links.len()];
    let mut router = Router::new(&RoutingSpec::Ecmp, &net);
    let (s, d) = (net.node_id("S0.0").unwrap(), net.node_id("S1.0").unwrap());
    let mut count = [0u32; 4];
    for seed in 0..4000u64 {
        let ctx = RouteCtx {
            net: &net,
            up: &up,
            seed,
        };
        let r = router.route(&ctx, 0, s, d);
        let p = &r.paths[0].0;
        assert_eq!(p.len(), 4);
        let spine = net.name(net.link(p[1]).to);
        count[spine[2..].parse::<usize>().unwrap()] += 1;
    }
    for c in count {
        assert!((900..=1100).contains(&c), "{count:?}");
    }
}

/// Subways Type 1 with p = 2: a server of logical rack i is wired to ToR i and ToR i-1, so servers
/// of neighbouring racks i and i+1 share ToR i (rack i+1 is wired to ToR i+1 and ToR i): ECMP
/// gives them a one-switch path through it.
/// Racks two apart share nothing and go through a spine (4 hops).
#[test]
fn subways_type1_neighbours_get_one_switch_path() {
    let c = Cluster {
        racks: 6,
        servers_per_rack: 2,
        ports: 2,
        port_gbps: 10.0,
        spines: 2,
        uplink_gbps: 40.0,
    };
    let sc = shuffle_all(subways_type1(&c), 1);
    let net = sc.validate().unwrap();
    let up = vec![true; net.links.len()];
    let mut router = Router::new(&RoutingSpec::Ecmp, &net);
    let ctx = RouteCtx {
        net: &net,
        up: &up,
        seed: 7,
    };
    for i in 0..6 {
        let j = (i + 1) % 6;
        for f in 0..4u32 {
            let s = net.node_id(&format!("L{i}.S{}", f % 2)).unwrap();
            let d = net.node_id(&format!("L{j}.S{}", f / 2)).unwrap();
            for (a, b) in [(s, d), (d, s)] {
                let p = router.route(&ctx, f, a, b).paths[0].0.clone();
                assert_eq!(p.len(), 2, "one switch between L{i} and L{j}");
                assert_eq!(net.name(net.link(p[0]).to), format!("L{i}.TOR"));
            }
        }
        let far = net.node_id(&format!("L{}.S0", (i + 3) % 6)).unwrap();
        let s = net.node_id(&format!("L{i}.S0")).unwrap();
        assert_eq!(router.route(&ctx, 0, s, far).paths[0].0.len(), 4);
    }
}

/// GRIN: weights sum to 1, the direct path has the largest weight, and the h1 path set is
/// {S0.0, S0.1} x {S1.0, S1.1}.
#[test]
fn grin_multipath_weights() {
    let mut spec = leaf_spine(2, 2, 2, 10.0, 100.0);
    spec.links.push(LinkSpec {
        id: None,
        a: "S0.0".into(),
        b: "S0.1".into(),
        gbps: 10.0,
        latency_ns: 0,
    });
    spec.links.push(LinkSpec {
        id: None,
        a: "S1.0".into(),
        b: "S1.1".into(),
        gbps: 10.0,
        latency_ns: 0,
    });
    let sc = scenario(
        spec,
        RoutingSpec::Grin(GrinParams::default()),
        many_to_many(&["S0.0"], &["S1.0"], 1, 1_000_000),
    );
    let net = sc.validate().unwrap();
    let up = vec![true; net.links.len()];
    let mut router = Router::new(&sc.routing, &net);
    let ctx = RouteCtx {
        net: &net,
        up: &up,
        seed: 1,
    };
    let r = router.route(
        &ctx,
        0,
        net.node_id("S0.0").unwrap(),
        net.node_id("S1.0").unwrap(),
    );
    assert_eq!(
        r.paths.len(),
        4,
        "direct, via S0.1, via S1.1, via S0.1 and S1.1"
    );
    assert_approx(r.paths.iter().map(|p| p.1).sum::<f64>(), 1.0, 1e-12);
    assert_eq!(r.paths[0].1, 0.5);
    // Alone (fabric 100G): direct (w .5) and via-S1.1 (w 1/6) share S0.0's 10G uplink, direct
    // and via-S0.1 (w 1/6) share S1.0's 10G downlink; both fill at level 10/(2/3) = 15: direct
    // 7.5, the two one-sided paths 2.5 each. The two-sided path (S0.0 -> S0.1 -> fabric -> S1.1
    // -> S1.0) then fills the 7.5 left on the cables and the neighbours' links: 20 Gb/s in all,
    // S0.0's two 10G out-links full; 8e6 bits take 0.4 ms.
    let rates = first_rates(&sc);
    assert_approx(rates[0], 20.0, 1e-12);
    let rep = run_ok(&sc);
    assert_approx(rep.job_completion_s.unwrap(), 0.0004, 1e-9);
}
