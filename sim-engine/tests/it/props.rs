//! Proptest invariants: link capacity is never exceeded by the sum of rates, and every finished
//! flow delivered exactly its size.

use super::*;
use loopline_sim::engine::Status;
use loopline_sim::topology::*;
use proptest::prelude::*;

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]
    #[test]
    fn capacity_respected_and_bytes_conserved(
        leaves in 2usize..5, per_leaf in 1usize..4, spines in 1usize..4,
        flows in 5u64..80, bytes in 1_000u64..2_000_000, rate in 1_000.0f64..100_000.0,
        seed in 0u64..1000, fail in proptest::bool::ANY, routing in 0usize..3,
    ) {
        let routing = match routing {
            0 => RoutingSpec::Ecmp,
            1 => RoutingSpec::Vlb,
            _ => RoutingSpec::Grin(GrinParams::default()),
        };
        let mut sc = scenario(
            leaf_spine(leaves, per_leaf, spines, 10.0, 25.0),
            routing,
            WorkloadSpec::Random(RandomSpec { servers: None, flows, bytes, rate_per_s: Some(rate) }),
        );
        sc.engine.seed = seed;
        if fail {
            sc.engine.failures.push(FailureSpec { at_s: 0.0005, link: None, node: Some("SP0".into()), recover_at_s: Some(0.002) });
        }
        if leaves * per_leaf < 2 { return Ok(()); }
        let net = sc.validate().unwrap();
        let mut e = FlowEngine::new(&sc, &net);
        while e.step() {
            let v = e.invariant_violations();
            prop_assert!(v.is_empty(), "{:?}", v);
        }
        for (i, f) in e.flows.iter().enumerate() {
            if f.status == Status::Done {
                let bits = e.wl.flows[i].bytes.0 as f64 * 8.0;
                // remaining bits at completion: 0 up to one picosecond of rounding at <= 25 Gb/s
                prop_assert!(f.rem_bits.abs() <= 1e-9 * bits + 0.05, "flow {} left {} of {} bits", i, f.rem_bits, bits);
            }
        }
        prop_assert_eq!(e.done as usize, e.flows.len());
    }
}

/// Apply a solver's changes to the net (what the engine does).
fn apply(net: &mut loopline_sim::engine::solver::FlowNet, changed: &[(u32, f64)]) {
    for &(s, r) in changed {
        let old = net.subs[s as usize].rate;
        for li in net.subs[s as usize].path.clone() {
            net.load[li.idx()] += r - old;
        }
        net.subs[s as usize].rate = r;
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]
    /// The incremental re-solve (region growth, early widening to a global solve) gives the same
    /// rates as a from-scratch solve after subflows leave and arrive.
    #[test]
    fn incremental_resolve_matches_full_solve(
        caps in proptest::collection::vec(1.0f64..40.0, 3..12),
        paths in proptest::collection::vec((proptest::collection::vec(0usize..64, 1..5), 1usize..4), 2..60),
        leave in proptest::collection::vec(0usize..64, 1..8),
        join in proptest::collection::vec(proptest::collection::vec(0usize..64, 1..5), 0..5),
    ) {
        use loopline_sim::engine::solver::{FlowNet, Solver};
        use loopline_sim::units::LinkId;
        let nl = caps.len();
        let mk = |p: &[usize]| {
            let mut v: Vec<LinkId> = p.iter().map(|&x| LinkId((x % nl) as u32)).collect();
            v.sort();
            v.dedup();
            v
        };
        let mut net = FlowNet::new(caps.clone());
        for (i, (p, w)) in paths.iter().enumerate() {
            net.add_sub(i as u32, mk(p), *w as f64 / 2.0);
        }
        let all: Vec<LinkId> = (0..nl as u32).map(LinkId).collect();
        let mut solver = Solver::new(nl);
        solver.solve(&net, &all);
        let ch = solver.changed.clone();
        apply(&mut net, &ch);
        // some subflows leave (seeds: their links), some arrive (seed subflows)
        let mut seeds = Vec::new();
        let mut gone = std::collections::BTreeSet::new();
        for &k in &leave {
            let s = (k % paths.len()) as u32;
            if !gone.insert(s) { continue; }
            apply(&mut net, &[(s, 0.0)]);
            seeds.extend(net.remove_sub(s));
        }
        let mut new_subs = Vec::new();
        for (j, p) in join.iter().enumerate() {
            new_subs.push(net.add_sub(1000 + j as u32, mk(p), 1.0));
        }
        solver.solve_with(&net, &seeds, &new_subs);
        let ch = solver.changed.clone();
        apply(&mut net, &ch);
        // from scratch on a copy with every rate reset
        let mut fresh = net.clone();
        for s in 0..fresh.subs.len() {
            if fresh.subs[s].live {
                apply(&mut fresh, &[(s as u32, 0.0)]);
            }
        }
        fresh.load.iter_mut().for_each(|x| *x = 0.0);
        let mut full = Solver::new(nl);
        full.solve(&fresh, &all);
        let ch = full.changed.clone();
        apply(&mut fresh, &ch);
        for s in 0..net.subs.len() {
            if net.subs[s].live {
                let (a, b) = (net.subs[s].rate, fresh.subs[s].rate);
                prop_assert!((a - b).abs() <= 1e-6 * a.max(b).max(1.0), "sub {}: {} vs {}", s, a, b);
            }
        }
    }
}
