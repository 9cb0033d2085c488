//! Proptest invariants: after every engine step the rates are the max-min allocation and never
//! exceed a capacity; every finished flow delivered exactly its size; the incremental re-solve
//! equals a from-scratch textbook progressive filling.

use super::*;
use loopline_sim::engine::Status;
use loopline_sim::topology::*;
use proptest::prelude::*;

proptest! {
    #![proptest_config(ProptestConfig { cases: 40, ..ProptestConfig::default() })]
    /// Through the engine (arrivals, completions, a spine failing and recovering; ECMP, VLB,
    /// GRIN paths), after every step: capacity respected, and every rate equal to what a
    /// from-scratch max-min solve gives.
    #[test]
    fn engine_steps_keep_max_min_rates_within_capacity(
        leaves in 2usize..5, per_leaf in 1usize..4, spines in 1usize..4,
        flows in 5u64..80, bytes in 1_000u64..2_000_000, rate in 1_000.0f64..200_000.0,
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
            let fresh = full_solve(e.flow_net());
            for (s, sub) in e.flow_net().subs.iter().enumerate() {
                if sub.live {
                    let (a, b) = (sub.rate, fresh.subs[s].rate);
                    prop_assert!((a - b).abs() <= 1e-6 * a.max(b).max(1.0), "t={:?} sub {}: {} vs {}", e.now(), s, a, b);
                }
            }
        }
        let o = e.outcome();
        for (i, f) in o.flows.iter().enumerate() {
            if f.status == Status::Done {
                let bits = o.workload.flows[i].bytes.0 as f64 * 8.0;
                // remaining bits at completion: 0 up to one picosecond of rounding at <= 25 Gb/s
                prop_assert!(f.rem_bits.abs() <= 1e-9 * bits + 0.05, "flow {} left {} of {} bits", i, f.rem_bits, bits);
            }
        }
        prop_assert_eq!(e.flows_done(), e.flows_total());
    }
}

/// Apply a solver's changes to the net (what the engine does).
fn apply(net: &mut loopline_sim::engine::solver::FlowNet, changed: &[(u32, f64)]) {
    for &(s, r) in changed {
        net.set_rate(s as usize, r, |_, _, _| {});
    }
}

/// Rates from a from-scratch solve of a copy of `net`: textbook weighted progressive filling,
/// written independently of the engine's solver (no regions, no queue, no resumption): raise
/// every unfrozen subflow's normalised rate together until a link fills, freeze the subflows
/// of the links that filled, repeat.
pub fn full_solve(
    net: &loopline_sim::engine::solver::FlowNet,
) -> loopline_sim::engine::solver::FlowNet {
    let mut fresh = net.clone();
    let n = fresh.subs.len();
    let mut rate = vec![0.0f64; n];
    let mut frozen: Vec<bool> = fresh.subs.iter().map(|s| !s.live).collect();
    loop {
        // the lowest level at which a link with unfrozen subflows fills
        let mut level = f64::INFINITY;
        for l in 0..fresh.link_count() {
            let (mut left, mut wsum) = (fresh.cap(l), 0.0);
            for &s in fresh.subs_on(l) {
                let s = s as usize;
                if frozen[s] {
                    left -= rate[s];
                } else {
                    wsum += fresh.subs[s].weight;
                }
            }
            if wsum > 0.0 {
                level = level.min(left.max(0.0) / wsum);
            }
        }
        if level == f64::INFINITY {
            break;
        }
        for s in 0..n {
            if !frozen[s] {
                rate[s] = fresh.subs[s].weight * level;
            }
        }
        // freeze the subflows of every link that is now full
        for l in 0..fresh.link_count() {
            let load: f64 = fresh.subs_on(l).iter().map(|&s| rate[s as usize]).sum();
            if load >= fresh.cap(l) * (1.0 - 1e-12) - 1e-12 {
                for &s in fresh.subs_on(l) {
                    frozen[s as usize] = true;
                }
            }
        }
    }
    let changes: Vec<(u32, f64)> = (0..n as u32)
        .filter(|&s| fresh.subs[s as usize].live)
        .map(|s| (s, rate[s as usize]))
        .collect();
    apply(&mut fresh, &changes);
    fresh
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]
    /// The incremental re-solve (growth by top-level subflows and by beaten bottlenecks, early
    /// widening to a global solve) gives the same rates as a from-scratch solve after each of
    /// several rounds of subflows leaving and arriving.
    #[test]
    fn incremental_resolve_matches_full_solve(
        caps in proptest::collection::vec(1.0f64..40.0, 3..12),
        paths in proptest::collection::vec((proptest::collection::vec(0usize..64, 1..5), 1usize..4), 2..60),
        steps in proptest::collection::vec(
            (proptest::collection::vec(0usize..64, 0..6),
             proptest::collection::vec((proptest::collection::vec(0usize..64, 1..5), 1usize..4), 0..5)),
            1..5),
        no_widening in proptest::bool::ANY,
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
        let mut live = Vec::new();
        for (i, (p, w)) in paths.iter().enumerate() {
            live.push(net.add_sub(i as u32, &mk(p), *w as f64 / 2.0));
        }
        let all: Vec<LinkId> = (0..nl as u32).map(LinkId).collect();
        let mut solver = Solver::new(nl);
        solver.no_widening = no_widening;
        solver.solve_with(&net, &all, &live);
        let ch = solver.changed.clone();
        apply(&mut net, &ch);
        for (step, (leave, join)) in steps.iter().enumerate() {
            // some subflows leave (seeds: their links), some arrive (seed subflows)
            let mut seeds = Vec::new();
            for &k in leave {
                if live.is_empty() { break; }
                let s = live.swap_remove(k % live.len());
                apply(&mut net, &[(s, 0.0)]);
                seeds.extend_from_slice(net.path_of(s as usize));
                net.remove_sub(s, |_, _, _| {});
            }
            let mut new_subs = Vec::new();
            for (j, (p, w)) in join.iter().enumerate() {
                let s = net.add_sub(1000 + (step * 10 + j) as u32, &mk(p), *w as f64 / 2.0);
                new_subs.push(s);
                live.push(s);
            }
            solver.solve_with(&net, &seeds, &new_subs);
            let ch = solver.changed.clone();
            apply(&mut net, &ch);
            let fresh = full_solve(&net);
            for &s in &live {
                let (a, b) = (net.subs[s as usize].rate, fresh.subs[s as usize].rate);
                prop_assert!((a - b).abs() <= 1e-6 * a.max(b).max(1.0), "step {}, sub {}: {} vs {}", step, s, a, b);
            }
        }
    }
}
