//! The engines under their routing controllers (issue 26): random Subways loops with adaptive
//! (the design's counter-driven draw), least-work and detour routing, hot racks on either side,
//! random Poisson flows, a spine failing and recovering.
//!
//! * Flow mode: after every step, no link (real, or a detour's budget) carries more than its
//!   capacity, every link's load is the sum of its subflows' rates, and every rate is the one a
//!   from-scratch max-min solve gives (`props::full_solve`, written apart from the solver); at
//!   the end every flow finished and none is left at rate 0 (`stuck_flows`).
//! * Packet mode (the same controller through `Plant`; no failures, which packet mode does not
//!   simulate yet): ports within their buffers along the run, every flow finished, and no link
//!   carried more bits than its capacity over the time.
//!
//! Cases: a bounded run in `cargo test --release`; under `make fuzz`, `LOOPLINE_FUZZ_CASES / 100`
//! per test (each case runs an engine to its end: 2,000 cases at the 200,000 of `make fuzz`).

use loopline_sim::engine::{Engine, FlowEngine, Status};
use loopline_sim::packet::PacketEngine;
use loopline_sim::routing::detour::Side;
use loopline_sim::scenario::*;
use loopline_sim::topology::*;
use proptest::prelude::*;
use proptest::test_runner::Config;

/// Cases per test: a hundredth of `LOOPLINE_FUZZ_CASES` if set (an engine run costs ~100 parser
/// cases), else the bounded default.
fn engine_cases(default: u32) -> u32 {
    std::env::var("LOOPLINE_FUZZ_CASES")
        .ok()
        .and_then(|v| v.parse::<u32>().ok())
        .map_or(default, |n| (n / 100).max(1))
}

fn config(default: u32) -> Config {
    Config {
        cases: engine_cases(default),
        ..Config::default()
    }
}

/// The parts of a random run: loop shape, routing, workload, failure.
#[derive(Clone, Debug)]
struct Case {
    racks: usize,
    per_rack: usize,
    ports: usize,
    spines: usize,
    uplink_gbps: f64,
    type2: bool,
    detour: bool,
    /// without detours: the design's adaptive rule (true) or least-work balancing (false)
    design: bool,
    /// controller period, ms, and T_detect / T_duration in periods
    period_ms: f64,
    detect: u32,
    duration: u32,
    hot_threshold: f64,
    spare_fraction: f64,
    max_intermediate: u32,
    /// 0: the other racks send to rack `hot`; 1: rack `hot` sends to them; 2: random flows
    pattern: u8,
    hot: usize,
    flows_per_pair: u32,
    bytes: u64,
    fail: bool,
    seed: u64,
}

fn case() -> impl Strategy<Value = Case> {
    (
        (
            4usize..9,
            1usize..4,
            2usize..4,
            1usize..4,
            prop_oneof![Just(5.0), Just(10.0), Just(20.0)],
            any::<bool>(),
            any::<bool>(),
        ),
        (
            prop_oneof![Just(0.25), Just(0.5), Just(1.0)],
            1u32..3,
            1u32..6,
            0.1f64..0.8,
            0.1f64..1.0,
            1u32..3,
        ),
        (
            0u8..3,
            0usize..8,
            1u32..3,
            20_000u64..1_500_000,
            any::<bool>(),
            0u64..1000,
            any::<bool>(),
        ),
    )
        .prop_map(|(a, b, c)| Case {
            racks: a.0,
            per_rack: a.1,
            ports: a.2,
            spines: a.3,
            uplink_gbps: a.4,
            type2: a.5,
            detour: a.6,
            period_ms: b.0,
            detect: b.1,
            duration: b.2,
            hot_threshold: b.3,
            spare_fraction: b.4,
            max_intermediate: b.5,
            pattern: c.0,
            hot: c.1,
            flows_per_pair: c.2,
            bytes: c.3,
            fail: c.4,
            seed: c.5,
            design: c.6,
        })
}

fn servers(racks: impl Iterator<Item = usize>, per_rack: usize) -> Vec<String> {
    racks
        .flat_map(|r| (0..per_rack).map(move |j| format!("L{r}.S{j}")))
        .collect()
}

fn build(c: &Case) -> Scenario {
    let cl = Cluster {
        racks: c.racks,
        servers_per_rack: c.per_rack,
        ports: c.ports,
        port_gbps: 10.0,
        spines: c.spines,
        uplink_gbps: c.uplink_gbps,
    };
    let net = if c.type2 {
        subways_type2(&cl, 2, 2)
    } else {
        subways_type1(&cl)
    };
    let t = c.period_ms * 1e-3;
    let routing = if c.detour {
        RoutingSpec::Detour(DetourParams {
            t_rebind_s: t,
            t_detect_s: t * c.detect as f64,
            t_duration_s: t * c.duration as f64,
            hot_threshold: c.hot_threshold,
            spare_fraction: c.spare_fraction,
            max_intermediate_servers: c.max_intermediate,
            ..DetourParams::default()
        })
    } else {
        let p = AdaptiveParams {
            t_rebind_s: t,
            ..AdaptiveParams::default()
        };
        if c.design {
            RoutingSpec::Adaptive(p)
        } else {
            RoutingSpec::LeastWork(p)
        }
    };
    let hot = c.hot % c.racks;
    let inside = servers(std::iter::once(hot), c.per_rack);
    let outside = servers((0..c.racks).filter(|&r| r != hot), c.per_rack);
    let workload = match c.pattern {
        0 => WorkloadSpec::ManyToMany(ManyToManySpec {
            senders: outside,
            receivers: inside,
            flows_per_pair: c.flows_per_pair,
            bytes: c.bytes,
        }),
        1 => WorkloadSpec::ManyToMany(ManyToManySpec {
            senders: inside,
            receivers: outside,
            flows_per_pair: c.flows_per_pair,
            bytes: c.bytes,
        }),
        _ => WorkloadSpec::Random(RandomSpec {
            servers: None,
            flows: 20 * (c.racks * c.per_rack) as u64,
            bytes: c.bytes,
            rate_per_s: Some(20_000.0),
        }),
    };
    let mut sc = scenario(net, routing, workload);
    sc.engine.seed = c.seed;
    if c.fail {
        let node = if c.type2 { "C0.A0" } else { "SP0" };
        sc.engine.failures.push(FailureSpec {
            at_s: 0.0007,
            link: None,
            node: Some(node.into()),
            recover_at_s: Some(0.003),
        });
    }
    sc
}

/// Step a flow-mode run to its end, checking every step (see the module doc); returns the
/// sides of the detours set up.
fn check_flow_steps(sc: &Scenario) -> Result<Vec<Side>, TestCaseError> {
    let net = sc
        .validate()
        .map_err(|e| TestCaseError::fail(e.to_string()))?;
    let mut e = FlowEngine::new(sc, &net);
    while e.step() {
        let v = e.invariant_violations();
        prop_assert!(v.is_empty(), "t = {:?}: {:?}", e.now(), v);
        let fresh = super::super::props::full_solve(e.flow_net());
        for (s, sub) in e.flow_net().subs.iter().enumerate() {
            if sub.live {
                let (a, b) = (sub.rate, fresh.subs[s].rate);
                prop_assert!(
                    (a - b).abs() <= 1e-6 * a.max(b).max(1.0),
                    "t = {:?}: subflow {} at {} Gb/s, max-min {}",
                    e.now(),
                    s,
                    a,
                    b
                );
            }
        }
    }
    prop_assert_eq!(e.stuck_flows(), None);
    let o = e.outcome();
    let stalled = o
        .flows
        .iter()
        .filter(|f| f.status == Status::Stalled)
        .count();
    prop_assert_eq!(stalled, 0);
    prop_assert_eq!(e.flows_done(), e.flows_total());
    for (i, f) in o.flows.iter().enumerate() {
        let bits = o.workload.flows[i].bytes.0 as f64 * 8.0;
        prop_assert!(
            f.rem_bits.abs() <= 1e-9 * bits + 0.05,
            "flow {} left {} of {} bits",
            i,
            f.rem_bits,
            bits
        );
    }
    Ok(o.detours.iter().map(|d| d.side).collect())
}

/// Run a packet-mode copy of `sc` to its end, checking ports along the way and each link's
/// carried bits at the end (see the module doc).
fn check_packet_run(sc: &Scenario) -> Result<u64, TestCaseError> {
    let mut sc = sc.clone();
    sc.engine.mode = Mode::Packet;
    let net = sc
        .validate()
        .map_err(|e| TestCaseError::fail(e.to_string()))?;
    let mut e = PacketEngine::new(&sc, &net);
    let mut steps = 0u64;
    while e.step() {
        steps += 1;
        if steps % 997 == 0 {
            let v = e.invariant_violations();
            prop_assert!(v.is_empty(), "t = {:?}: {:?}", e.now(), v);
        }
    }
    prop_assert_eq!(e.flows_done(), e.flows_total());
    e.close();
    let o = e.outcome();
    let secs = o.now.as_secs_f64();
    for (l, link) in net.links.iter().enumerate() {
        let bits = o.util.total_bits(l);
        prop_assert!(
            bits <= link.gbps.0 * 1e9 * secs * (1.0 + 1e-9) + 1.0,
            "link {} carried {} bits in {} s at {} Gb/s",
            net.link_names[l / 2],
            bits,
            secs,
            link.gbps.0
        );
    }
    Ok(o.controller_ticks)
}

proptest! {
    #![proptest_config(config(300))]
    /// Flow mode, adaptive, least-work and detour routing: every step against a from-scratch
    /// max-min solve.
    #[test]
    fn controller_steps_keep_max_min_rates_within_capacity(c in case()) {
        check_flow_steps(&build(&c))?;
    }
}

proptest! {
    #![proptest_config(config(40))]
    /// Packet mode under the same controller: buffers kept, every flow finished, links within
    /// their capacity.
    #[test]
    fn packet_controller_runs_finish_within_capacity(c in case()) {
        let mut c = c;
        c.bytes = c.bytes.min(300_000); // packets: keep a case short
        c.fail = false; // (packet mode simulates no failures yet)
        check_packet_run(&build(&c))?;
    }
}

/// The generators reach what the properties are about: with a hot rack on a 12-rack loop
/// (short controller periods) detours are set up on the receive side and on the send side, and
/// the flow-mode checks hold at every step of both; the packet-mode run ticks its controller.
#[test]
fn hot_racks_set_up_detours_under_the_step_checks() {
    for (pattern, side) in [(0u8, Side::Receive), (1, Side::Send)] {
        let c = Case {
            racks: 12,
            per_rack: 4,
            ports: 2,
            spines: 2,
            uplink_gbps: 10.0,
            type2: false,
            detour: true,
            design: false,
            period_ms: 0.5,
            detect: 1,
            duration: 4,
            hot_threshold: 0.6,
            spare_fraction: 0.6,
            max_intermediate: 2,
            pattern,
            hot: 6,
            flows_per_pair: 1,
            bytes: 1_500_000,
            fail: false,
            seed: 1,
        };
        let sides = check_flow_steps(&build(&c)).unwrap();
        assert!(sides.contains(&side), "{side:?} not in {sides:?}");
        let mut small = c.clone();
        small.bytes = 300_000;
        assert!(check_packet_run(&build(&small)).unwrap() > 0);
    }
}
