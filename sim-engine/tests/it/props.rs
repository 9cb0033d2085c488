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
