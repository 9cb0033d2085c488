//! Comparative tests that must hold by construction.

use super::*;
use loopline_sim::topology::*;

fn cluster(ports: usize) -> Cluster {
    Cluster {
        racks: 4,
        servers_per_rack: 4,
        ports,
        port_gbps: 10.0,
        spines: 2,
        uplink_gbps: 10.0,
    }
}

/// Same hardware (4 logical racks of 4 servers, 2 x 10G ports per server, 2 x 10G uplinks per ToR):
/// in Type 0 every cross-rack byte climbs to a spine through 20 Gb/s of uplinks per rack; in
/// Type 1 a third of the other servers are one switch away and each rack reaches two ToRs' uplinks.
#[test]
fn subways_type1_shuffle_beats_type0() {
    let t0 = run_ok(&shuffle_all(type0(&cluster(2)), 2_000_000))
        .job_completion_s
        .unwrap();
    let t1 = run_ok(&shuffle_all(subways_type1(&cluster(2)), 2_000_000))
        .job_completion_s
        .unwrap();
    assert!(t1 < t0, "type1 {t1} should beat type0 {t0}");
}

/// DESIGN section 4 "two hot racks": p = 2, logical racks 2 and 3 send flat out to racks 5, 6, 7
/// and 0 (ToRs 4..7 and 0), whose ToRs they do not share. ECMP loads ToR 2 (shared by both hot
/// racks) twice as much as ToRs 1 and 3; least-work balancing (which rebinds flows) must do no
/// worse.
#[test]
fn least_work_not_worse_than_ecmp_on_two_hot_racks() {
    let c = Cluster {
        racks: 8,
        servers_per_rack: 2,
        ports: 2,
        port_gbps: 10.0,
        spines: 1,
        uplink_gbps: 10.0,
    };
    let snd = ["L2.S0", "L2.S1", "L3.S0", "L3.S1"];
    let rcv = [
        "L5.S0", "L5.S1", "L6.S0", "L6.S1", "L7.S0", "L7.S1", "L0.S0", "L0.S1",
    ];
    let w = many_to_many(&snd, &rcv, 2, 10_000_000);
    let ecmp = run_ok(&scenario(subways_type1(&c), RoutingSpec::Ecmp, w.clone()));
    let ad = run_ok(&scenario(
        subways_type1(&c),
        RoutingSpec::LeastWork(AdaptiveParams::default()),
        w,
    ));
    let (te, ta) = (ecmp.job_completion_s.unwrap(), ad.job_completion_s.unwrap());
    assert!(ta <= te * 1.0001, "least_work {ta} vs ecmp {te}");
    assert!(ad.routing_stats.rebinds > 0);
    eprintln!("two hot racks: ecmp {te} s, least_work {ta} s");
}

/// VLB on a uniform workload: 4 leaves of 4 servers, 4 spines; all-to-all with 30 parallel flows
/// per pair (the per-flow random choice is then averaged over 5760 inter-leaf flows, one-sigma
/// spread 2.3% per spine). Bytes into each spine within 8% of each other.
#[test]
fn vlb_balances_intermediate_links() {
    let servers: Vec<String> = (0..4)
        .flat_map(|i| (0..4).map(move |j| format!("S{i}.{j}")))
        .collect();
    let s: Vec<&str> = servers.iter().map(|x| x.as_str()).collect();
    let sc = scenario(
        leaf_spine(4, 4, 4, 10.0, 10.0),
        RoutingSpec::Vlb,
        many_to_many(&s, &s, 30, 100_000),
    );
    let rep = run_ok(&sc);
    let per_spine: Vec<f64> = (0..4)
        .map(|k| {
            rep.links
                .rows()
                .filter(|l| l.to == format!("SP{k}"))
                .map(|l| l.bytes)
                .sum()
        })
        .collect();
    let (mx, mn) = per_spine
        .iter()
        .fold((0.0f64, f64::MAX), |a, &x| (a.0.max(x), a.1.min(x)));
    assert!(mx / mn < 1.08, "{per_spine:?}");
    eprintln!("vlb per-spine bytes {per_spine:?} max/min {}", mx / mn);
}

/// Two hot spots on one loop of 10 logical racks (p = 2, rack i on ToRs i and i-1): racks 2-3
/// make ToRs 1, 2, 3 hot (remote candidates 0 and 4), racks 6-7 make ToRs 5, 6, 7 hot (remote
/// candidates 4 and 8). ToR 4 is wanted by both: it must be used by at most one active detour at
/// a time in each direction; every detour has at most 2 intermediate servers.
#[test]
fn detours_never_share_a_remote_tor() {
    let c = Cluster {
        racks: 10,
        servers_per_rack: 2,
        ports: 2,
        port_gbps: 10.0,
        spines: 1,
        uplink_gbps: 10.0,
    };
    let snd: Vec<String> = [2, 3, 6, 7]
        .iter()
        .flat_map(|r| (0..2).map(move |j| format!("L{r}.S{j}")))
        .collect();
    let rcv: Vec<String> = [0, 4, 5, 8, 9]
        .iter()
        .flat_map(|r| (0..2).map(move |j| format!("L{r}.S{j}")))
        .collect();
    let s: Vec<&str> = snd.iter().map(|x| x.as_str()).collect();
    let r: Vec<&str> = rcv.iter().map(|x| x.as_str()).collect();
    let p = DetourParams {
        t_duration_s: 0.05,
        ..DetourParams::default()
    };
    let sc = scenario(
        subways_type1(&c),
        RoutingSpec::Detour(p),
        many_to_many(&s, &r, 1, 20_000_000),
    );
    let rep = run_ok(&sc);
    assert_eq!(rep.flows.finished, rep.flows.total);
    let d = &rep.routing_stats.detours;
    assert!(!d.is_empty(), "hot spots were detected");
    for (i, a) in d.iter().enumerate() {
        assert!(a.max_intermediate_servers <= 2);
        let mut seen = a.remote_tors.clone();
        seen.dedup();
        assert_eq!(
            seen.len(),
            a.remote_tors.len(),
            "a detour lists a remote twice"
        );
        for b in &d[i + 1..] {
            let overlap =
                a.start_s < b.end_s.unwrap_or(f64::MAX) && b.start_s < a.end_s.unwrap_or(f64::MAX);
            // (a send and a receive detour may share one: they use opposite directions of its
            // links and of the forwarding servers')
            if overlap && a.side == b.side {
                for t in &a.remote_tors {
                    assert!(
                        !b.remote_tors.contains(t),
                        "remote {t} shared by {} and {}",
                        a.rack,
                        b.rack
                    );
                }
            }
        }
    }
    eprintln!("detours: {}", serde_json::to_string(d).unwrap());
}
