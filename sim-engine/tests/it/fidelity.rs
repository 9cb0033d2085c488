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
    let sc = scenario(spec, grin(0.5), many_to_many(&["S0"], &["S1"], 1, 1_000_000));
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
