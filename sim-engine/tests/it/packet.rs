//! Packet mode: hand-derived exact cases and bounds (issue 18).

use super::*;
use loopline_sim::packet::PacketEngine;
use loopline_sim::topology::*;
use loopline_sim::units::Time;

/// Put a scenario in packet mode.
fn packet(mut sc: Scenario) -> Scenario {
    sc.engine.mode = Mode::Packet;
    sc
}

fn chain(hops: &[(f64, u64)]) -> NetworkSpec {
    // A - T1 - SP - T2 - B: servers, two ToRs and a spine, one (gbps, latency_ns) per cable
    let ids = ["A", "T1", "SP", "T2", "B"];
    let roles = [
        Role::Server,
        Role::Tor,
        Role::Spine,
        Role::Tor,
        Role::Server,
    ];
    NetworkSpec {
        nodes: ids.iter().zip(roles).map(|(i, r)| node(i, r)).collect(),
        links: hops
            .iter()
            .enumerate()
            .map(|(k, &(gbps, latency_ns))| cable(ids[k], ids[k + 1], gbps, latency_ns))
            .collect(),
    }
}

/// One packet's end-to-end latency is exactly its serialisation at every hop plus every
/// propagation delay plus the switching latency of the three switches it enters. A 1,000-byte
/// flow (defaults: no header, 40-byte ACKs, a handshake) on A -T1 -SP -T2 - B with hops of
/// 10, 40, 25, 10 Gb/s, 100, 250, 500, 1,000 ns and 300 ns per switch: each crossing has
/// 1,850 + 3 x 300 = 2,750 ns of delay; the SYN (8 bits) adds 0.8 + 0.2 + 0.32 + 0.8 =
/// 2.12 ns, the SYN-ACK and the ACK (320 bits) 32 + 8 + 12.8 + 32 = 84.8 ns each, the data
/// (8,000 bits) 800 + 200 + 320 + 800 = 2,120 ns. Completion (the sender has the last ACK):
/// 2,752.12 + 2,834.8 + 4,870 + 2,834.8 = 13,291.72 ns. (The same arithmetic gives htsim's
/// 21.0592 us and 42.3888 us on its k = 4 calibration cases, see sim-engine/compare.)
#[test]
fn one_packet_latency_is_serialisation_plus_propagation_per_hop() {
    let mut sc = packet(scenario(
        chain(&[(10.0, 100), (40.0, 250), (25.0, 500), (10.0, 1000)]),
        RoutingSpec::Ecmp,
        many_to_many(&["A"], &["B"], 1, 1000),
    ));
    sc.engine.packet.switch_latency_ns = 300;
    let rep = run_ok(&sc);
    assert_eq!(rep.flows.finished, 1);
    let want = 13_291_720e-12;
    assert_approx(rep.job_completion_s.unwrap(), want, 1e-12);
    assert_approx(rep.flows.fct_s.max.unwrap(), want, 1e-12);
    // the ideal is the same path alone: slowdown exactly 1
    assert_approx(rep.flows.slowdown.max.unwrap(), 1.0, 1e-12);
    let pk = rep.packet.unwrap();
    // SYN, SYN-ACK, data, ACK
    assert_eq!((pk.packets_sent, pk.drops, pk.retransmissions), (4, 0, 0));
    // without the handshake: 4,870 + 2,834.8 ns
    sc.engine.packet.handshake = false;
    let rep = run_ok(&sc);
    assert_approx(rep.job_completion_s.unwrap(), 7_704_800e-12, 1e-12);
}

/// One TCP flow (64-byte headers and ACKs) on a 10G star with a NIC buffer larger than the flow:
/// the sender's NIC never idles
/// (10 packets are queued at once and every ACK adds to the queue in slow start; nothing is
/// lost), so the last byte leaves the NIC after all the flow's wire bytes, and the switch sends
/// it after the full packet before it. 10 MB = 6,964 packets of 1,436 payload bytes, the last
/// one 1,132 bytes: 6,963 x 1,500 + 1,196 = 10,445,696 wire bytes at 800 ps per byte =
/// 8,356,556.8 ns, then the switch finishes the full packet before the last one 1,200 ns after
/// the NIC did, and the last one (1,196 x 0.8 = 956.8 ns) arrived before that: 8,357,756.8 ns.
/// The last ACK (64 bytes, no handshake here) takes 2 x 51.2 ns back: 8,357,859.2 ns.
/// Goodput: 10 Gb/s x 1,436/1,500 = 9.5733 Gb/s less 0.012% (the switch's one packet).
#[test]
fn one_flow_reaches_line_rate_less_header_overhead() {
    let bytes = 10_000_000u64;
    let mut sc = packet(scenario(
        star(2, 10.0),
        RoutingSpec::Ecmp,
        many_to_many(&["S0"], &["S1"], 1, bytes),
    ));
    sc.engine.packet.header_bytes = 64;
    sc.engine.packet.ack_bytes = 64;
    sc.engine.packet.handshake = false;
    sc.engine.packet.host_buffer_bytes = Some(2 * bytes);
    let rep = run_ok(&sc);
    // the ideal is this very schedule: slowdown 1
    assert_approx(rep.flows.slowdown.max.unwrap(), 1.0, 1e-12);
    let want = 8_357_859_200.0 * 1e-12;
    assert_approx(rep.job_completion_s.unwrap(), want, 1e-12);
    let goodput = bytes as f64 * 8.0 / want / 1e9;
    assert!((goodput / (10.0 * 1436.0 / 1500.0) - 1.0).abs() < 2e-4);
    let pk = rep.packet.as_ref().unwrap();
    assert_eq!((pk.drops, pk.retransmissions, pk.timeouts), (0, 0, 0));
    // 6,964 data packets and as many ACKs
    assert_eq!(pk.packets_sent, 2 * 6_964);
    // with a 150 kB NIC buffer slow start overflows the NIC's queue: losses, fast
    // retransmits, and still within 1% of the same goodput
    sc.engine.packet.host_buffer_bytes = Some(150_000);
    let rep = run_ok(&sc);
    let pk = rep.packet.as_ref().unwrap();
    assert!(pk.drops > 0 && pk.retransmissions >= pk.drops);
    let goodput = bytes as f64 * 8.0 / rep.job_completion_s.unwrap() / 1e9;
    assert!(
        goodput > 0.99 * 10.0 * 1436.0 / 1500.0,
        "goodput {goodput} Gb/s"
    );
}

/// Jain's fairness index of a sample: (sum x)^2 / (n sum x^2), 1 when all are equal.
fn jain(x: &[f64]) -> f64 {
    let s: f64 = x.iter().sum();
    let q: f64 = x.iter().map(|v| v * v).sum();
    s * s / (x.len() as f64 * q)
}

/// N = 4 long TCP flows into one 10G receiver share its link: over 50 ms they deliver within a
/// Jain index of 0.95 of each other and together at least 95% of the line rate (no headers by
/// default)
/// (the bottleneck queue never drains: 100 packets of buffer against an RTT of a few packets).
#[test]
fn n_flows_share_one_bottleneck_fairly() {
    let mut sc = packet(scenario(
        star(5, 10.0),
        RoutingSpec::Ecmp,
        many_to_many(&["S1", "S2", "S3", "S4"], &["S0"], 1, 1_000_000_000),
    ));
    sc.engine.stop_time_s = Some(0.05);
    let rep = run_ok(&sc);
    let sent: Vec<f64> = rep.servers[1..].iter().map(|s| s.bytes_sent).collect();
    let j = jain(&sent);
    assert!(j >= 0.95, "Jain index {j}: {sent:?}");
    let total: f64 = sent.iter().sum::<f64>() * 8.0 / 0.05 / 1e9;
    assert!(total >= 0.95 * 10.0, "{total} Gb/s");
    assert!(total <= 10.0);
    let pk = rep.packet.unwrap();
    assert!(pk.drops > 0);
    // the only queue that overflows is the receiver's port
    let q: Vec<_> = pk.queues.iter().filter(|q| q.drops > 0).collect();
    assert!(q.iter().all(|q| q.to == "S0"), "{q:?}");
    assert!(pk.queues.iter().all(|q| q.max_bytes <= 150_000));
}

/// Incast beyond the buffer: 32 senders answer one receiver at once with 20 kB each through a
/// port buffer of 20 packets (30 kB). The synchronised burst overflows the port, some senders
/// lose whole windows and wait for a retransmission timeout: the job takes at least `rto_min`
/// (10 ms) although its bytes need only 32 x 20 kB x 1,500/1,436 x 8 / 10 Gb/s = 0.53 ms.
#[test]
fn incast_beyond_the_buffer_drops_and_waits_for_timeouts() {
    let senders: Vec<String> = (1..=32).map(|i| format!("S{i}")).collect();
    let s: Vec<&str> = senders.iter().map(|x| x.as_str()).collect();
    let mut sc = packet(scenario(
        star(33, 10.0),
        RoutingSpec::Ecmp,
        many_to_many(&s, &["S0"], 1, 20_000),
    ));
    sc.engine.packet.buffer_bytes = 30_000;
    sc.engine.packet.rto_min_ms = 10.0;
    let rep = run_ok(&sc);
    assert_eq!(rep.flows.finished, 32);
    let pk = rep.packet.as_ref().unwrap();
    assert!(pk.drops > 0 && pk.timeouts > 0, "{pk:?}");
    assert!(rep.job_completion_s.unwrap() >= 0.010);
    assert!(rep.flows.fct_s.max.unwrap() >= 0.010);
    // without the losses (a buffer for everyone) no flow waits for a timer
    sc.engine.packet.buffer_bytes = 1_000_000;
    let rep = run_ok(&sc);
    let pk = rep.packet.as_ref().unwrap();
    assert_eq!((pk.drops, pk.timeouts), (0, 0));
    assert!(rep.job_completion_s.unwrap() < 0.001);
}

/// The SYN's long initial RTO (htsim's 3 s; here 1 s) must not hold back the data's: after the
/// SYN-ACK's RTT sample the timer is `rto_min` (10 ms), so in the incast above every lost window
/// is resent after 10, 20, 40 ... ms and the job ends long before 1 s (it took over 1 s when a
/// timer event queued for the SYN's deadline was kept after the deadline moved earlier).
#[test]
fn a_data_timeout_does_not_wait_for_the_syns_initial_rto() {
    let senders: Vec<String> = (1..=32).map(|i| format!("S{i}")).collect();
    let s: Vec<&str> = senders.iter().map(|x| x.as_str()).collect();
    let mut sc = packet(scenario(
        star(33, 10.0),
        RoutingSpec::Ecmp,
        many_to_many(&s, &["S0"], 1, 20_000),
    ));
    sc.engine.packet.buffer_bytes = 30_000;
    sc.engine.packet.rto_min_ms = 10.0;
    sc.engine.packet.rto_initial_ms = Some(1000.0);
    let rep = run_ok(&sc);
    assert_eq!(rep.flows.finished, 32);
    let pk = rep.packet.as_ref().unwrap();
    assert!(pk.timeouts > 0, "{pk:?}");
    assert!(rep.flows.fct_s.max.unwrap() < 0.5, "{:?}", rep.flows.fct_s);
}

/// After every event, every port holds at most its buffer, and its backlog is the sum of its
/// packets (an incast and a shuffle; per-port buffers and a shared buffer with a dynamic
/// threshold).
#[test]
fn a_queue_never_holds_more_than_its_buffer() {
    let senders: Vec<String> = (1..=16).map(|i| format!("S{i}")).collect();
    let s: Vec<&str> = senders.iter().map(|x| x.as_str()).collect();
    let cases = [
        packet(scenario(
            star(17, 10.0),
            RoutingSpec::Ecmp,
            many_to_many(&s, &["S0"], 1, 50_000),
        )),
        packet(shuffle_all(leaf_spine(4, 4, 2, 10.0, 10.0), 200_000)),
    ];
    for (k, base) in cases.into_iter().enumerate() {
        for shared in [false, true] {
            let mut sc = base.clone();
            sc.engine.packet.buffer_bytes = 20_000;
            sc.engine.packet.host_buffer_bytes = Some(20_000);
            if shared {
                sc.engine.packet.shared_buffer = Some(SharedBufferSpec {
                    bytes: 60_000,
                    alpha: 1.0,
                });
            }
            let net = sc.validate().unwrap();
            let mut e = PacketEngine::new(&sc, &net);
            let mut steps = 0u64;
            let mut peak = 0u64;
            while e.step() {
                steps += 1;
                let v = e.invariant_violations();
                assert!(v.is_empty(), "case {k} shared {shared} step {steps}: {v:?}");
                peak = peak.max(e.backlogs().max().unwrap());
            }
            assert_eq!(e.flows_done(), e.flows_total());
            // the buffer was reached: the check above was not vacuous
            assert!(peak > 10_000, "case {k}: peak backlog {peak}");
            assert!(peak <= if shared { 60_000 } else { 20_000 });
        }
    }
}

/// Per-flow ECMP gives a flow the same path in both modes: on a k = 4 FatTree permutation every
/// link flow mode loads carries the packet run's data, and every link the packet run loads is
/// one of those or the reverse of one (the ACKs).
#[test]
fn ecmp_paths_are_the_flow_modes() {
    let net = fat_tree(4, 10.0);
    let sc = scenario(
        net,
        RoutingSpec::Ecmp,
        WorkloadSpec::Permutation(PermutationSpec {
            servers: None,
            bytes: 100_000,
        }),
    );
    let fluid = run_ok(&sc);
    let pk = run_ok(&packet(sc));
    let used = |r: &Report| -> Vec<(String, String)> {
        r.links
            .rows()
            .filter(|l| l.bytes > 0.0)
            .map(|l| (l.from.to_string(), l.to.to_string()))
            .collect()
    };
    let f = used(&fluid);
    let p = used(&pk);
    for l in &f {
        assert!(p.contains(l), "{l:?} carried fluid data only");
    }
    for (a, b) in &p {
        assert!(
            f.contains(&(a.clone(), b.clone())) || f.contains(&(b.clone(), a.clone())),
            "{a}->{b} carried packets off the flow mode's paths"
        );
    }
    assert!(p.len() > f.len());
}

/// Same scenario and seed, same bytes; another seed, another permutation.
#[test]
fn same_seed_same_bytes() {
    let mut sc = packet(fat_tree_websearch(4, 10.0, 0.4, 300));
    sc.engine.packet.buffer_bytes = 30_000;
    let a = serde_json::to_vec(&run_ok(&sc)).unwrap();
    let b = serde_json::to_vec(&run_ok(&sc)).unwrap();
    assert_eq!(a, b);
    sc.engine.seed = 2;
    let c = serde_json::to_vec(&run_ok(&sc)).unwrap();
    assert_ne!(a, c);
}

/// DCTCP keeps the bottleneck queue at its marking threshold instead of the buffer: 4 long flows
/// into one 10G port with K = 30 kB lose nothing, keep 99% of the arrivals' backlog within K plus
/// three packets (the 4 senders each react a window late; the histogram's bins are 1,500 bytes) (NewReno fills the 150 kB buffer and loses packets), and still fill the link
/// (>= 99% of the line rate) with a Jain index of at least 0.99.
#[test]
fn dctcp_holds_the_queue_at_the_marking_threshold() {
    let base = packet(scenario(
        star(5, 10.0),
        RoutingSpec::Ecmp,
        many_to_many(&["S1", "S2", "S3", "S4"], &["S0"], 1, 1_000_000_000),
    ));
    let mut sc = base.clone();
    sc.engine.stop_time_s = Some(0.05);
    sc.engine.packet.transport = Transport::Dctcp;
    sc.engine.packet.ecn_threshold_bytes = Some(30_000);
    let rep = run_ok(&sc);
    let pk = rep.packet.as_ref().unwrap();
    assert_eq!((pk.drops, pk.timeouts), (0, 0));
    assert!(pk.ecn_marks > 0);
    let port = pk.queues.iter().find(|q| q.to == "S0").unwrap();
    assert!(port.p99_bytes <= 34_500, "{port:?}");
    let sent: Vec<f64> = rep.servers[1..].iter().map(|s| s.bytes_sent).collect();
    assert!(jain(&sent) >= 0.99, "{sent:?}");
    let total = sent.iter().sum::<f64>() * 8.0 / 0.05 / 1e9;
    assert!(total >= 0.99 * 10.0, "{total} Gb/s");
    let mut reno = base;
    reno.engine.stop_time_s = Some(0.05);
    let rep = run_ok(&reno);
    let pk = rep.packet.as_ref().unwrap();
    let port = pk.queues.iter().find(|q| q.to == "S0").unwrap();
    assert!(pk.drops > 0 && port.p99_bytes >= 140_000, "{port:?}");
}

fn grin_star(n: usize, src_nb: &[&str], dst_nb: &[&str]) -> NetworkSpec {
    let mut spec = star(n, 1.0);
    for (a, nb) in [("S0", src_nb), ("S1", dst_nb)] {
        for b in nb {
            spec.links.push(LinkSpec {
                id: None,
                a: a.into(),
                b: (*b).into(),
                gbps: 1.0,
                latency_ns: 0,
            });
        }
    }
    spec
}

/// MPTCP alone on idle paths uses all of them: S0 -> S1 on a 1G star where each end has three
/// idle GRIN neighbours; the 16 paths' max-flow is 4 Gb/s (flow mode's answer, fidelity.rs),
/// all of it goodput (no headers by default). The flow's 16 LIA subflows deliver 10 MB at more
/// than three single paths' rate, over every one of S0's four out-links.
#[test]
fn mptcp_alone_uses_all_its_paths() {
    let mut sc = packet(scenario(
        grin_star(8, &["S2", "S3", "S4"], &["S5", "S6", "S7"]),
        RoutingSpec::Grin(GrinParams { direct_weight: 0.5 }),
        many_to_many(&["S0"], &["S1"], 1, 10_000_000),
    ));
    sc.engine.packet.transport = Transport::Mptcp;
    // above the worst queueing delay of a 1G port (150 kB = 1.2 ms): no spurious timeouts
    sc.engine.packet.rto_min_ms = 10.0;
    let rep = run_ok(&sc);
    let gbps = 10_000_000.0 * 8.0 / rep.job_completion_s.unwrap() / 1e9;
    assert!(gbps > 3.0, "{gbps} Gb/s");
    for l in rep.links.rows().filter(|l| l.from == "S0") {
        assert!(l.bytes > 1_000_000.0, "{} -> {}: {}", l.from, l.to, l.bytes);
    }
    // NewReno on the same route takes the heaviest (direct) path only: one link's worth
    sc.engine.packet.transport = Transport::Newreno;
    let one = run_ok(&sc);
    let gbps1 = 10_000_000.0 * 8.0 / one.job_completion_s.unwrap() / 1e9;
    assert!(gbps1 <= 1.0, "{gbps1}");
}

/// S0 -> S1 over MPTCP (S0 has three GRIN neighbours, S1 none) beside TCP flows S8 -> S1 and
/// S9 -> S1, for 0.5 s: every path ends at S1's 1G port.
fn mptcp_beside_two_tcp_flows() -> Scenario {
    let mut sc = packet(scenario(
        grin_star(10, &["S2", "S3", "S4"], &[]),
        RoutingSpec::Grin(GrinParams { direct_weight: 0.5 }),
        many_to_many(&["S0", "S8", "S9"], &["S1"], 1, 1_000_000_000),
    ));
    sc.engine.packet.transport = Transport::Mptcp;
    sc.engine.packet.rto_min_ms = 10.0;
    sc.engine.stop_time_s = Some(0.5);
    sc
}

/// MPTCP takes no more than one TCP's share at a shared bottleneck: S1 has no GRIN neighbour, so
/// all 4 paths of S0 -> S1 enter through S1's 1G port, shared with single-path TCP flows
/// S8 -> S1 and S9 -> S1 (flow mode gives each 1/3). Over 0.5 s the multipath flow delivers at
/// most 1.25 times the larger TCP flow's bytes (uncoupled, its 4 subflows would take 4/6).
#[test]
fn mptcp_takes_one_share_at_a_shared_bottleneck() {
    let sc = mptcp_beside_two_tcp_flows();
    let rep = run_ok(&sc);
    let sent = |id: &str| rep.servers.iter().find(|s| s.id == id).unwrap().bytes_sent;
    let (mp, t8, t9) = (sent("S0"), sent("S8"), sent("S9"));
    assert!(mp <= 1.25 * t8.max(t9), "mptcp {mp}, tcp {t8} {t9}");
    assert!(mp >= 0.5 * t8.min(t9), "mptcp {mp}, tcp {t8} {t9}");
    // together they keep the port busy
    let total = (mp + t8 + t9) * 8.0 / 0.5 / 1e9;
    assert!(total > 0.8, "{total} Gb/s");
}

/// An MPTCP subflow sends whole segments, as TCP does. At a bottleneck shared with two TCP
/// flows (the test above), its coupled windows spend most of 0.5 s in congestion avoidance,
/// where they grow by fractions of a segment: every server's data then goes out in full
/// segments, so the packets sent are the segments delivered (at most one short one per
/// connection), the retransmitted ones and their ACKs, plus a SYN and SYN-ACK per connection.
/// Sending whatever fraction of a segment the window had free sent several times as many
/// packets (and lost GRIN its gain at load).
#[test]
fn mptcp_subflows_send_whole_segments() {
    let sc = mptcp_beside_two_tcp_flows();
    let rep = run_ok(&sc);
    let pk = rep.packet.as_ref().unwrap();
    let mss = (sc.engine.packet.mtu_bytes - sc.engine.packet.header_bytes) as f64;
    let bytes: f64 = rep.servers.iter().map(|s| s.bytes_sent).sum();
    let connections = 4 + 2;
    let segments = (bytes / mss).ceil() + (connections + pk.retransmissions) as f64;
    let most = 2.0 * segments + 2.0 * connections as f64;
    assert!(
        (pk.packets_sent as f64) <= most,
        "{} packets for {bytes} bytes and {} retransmissions (at most {most})",
        pk.packets_sent,
        pk.retransmissions
    );
}

/// Spraying: one 10 MB flow between two pods of a k = 4 FatTree has 4 shortest paths (2
/// aggregation switches x 2 cores). With per-flow ECMP it takes one of them; sprayed, its
/// packets take the 4 in turn: each core link carries a quarter of its bytes (within 5%), and
/// the flow still completes (its receiver reorders).
#[test]
fn spraying_spreads_one_flow_over_its_equal_cost_paths() {
    let mut sc = packet(scenario(
        fat_tree(4, 10.0),
        RoutingSpec::Ecmp,
        many_to_many(&["P0.E0.S0"], &["P1.E0.S0"], 1, 10_000_000),
    ));
    let cores = |r: &Report| -> Vec<f64> {
        r.links
            .rows()
            .filter(|l| l.from.starts_with("P0.A") && l.to.starts_with('C'))
            .map(|l| l.bytes)
            .collect()
    };
    let one = run_ok(&sc);
    assert_eq!(cores(&one).iter().filter(|&&b| b > 1e6).count(), 1);
    sc.engine.packet.spraying = true;
    let rep = run_ok(&sc);
    assert_eq!(rep.flows.finished, 1);
    let c = cores(&rep);
    let wire: f64 = c.iter().sum();
    assert_eq!(c.len(), 4);
    for b in &c {
        assert!((b / wire - 0.25).abs() < 0.05 * 0.25, "{c:?}");
    }
}

/// UDP requests/responses: an incast of 8 responses of 15 kB (10 datagrams each) into one 10G
/// port. With room for all 80 datagrams, the senders' first datagrams reach the switch after
/// 1.2 us and the receiver's port then sends the 80 back to back: the query completes at
/// 1.2 + 80 x 1.2 = 97.2 us exactly, with 80 packets and no ACK. With a 20-packet buffer the
/// burst loses datagrams: nothing is retransmitted, the flows that lost one never complete.
#[test]
fn udp_responses_are_not_acknowledged_nor_retransmitted() {
    let senders: Vec<String> = (1..=8).map(|i| format!("S{i}")).collect();
    let mut sc = packet(scenario(
        star(9, 10.0),
        RoutingSpec::Ecmp,
        WorkloadSpec::Incast(QuerySpec {
            receiver: Some("S0".into()),
            senders: Some(senders),
            fan_in: None,
            response_bytes: 15_000,
            queries: Some(1),
            rate_per_s: None,
        }),
    ));
    sc.engine.packet.udp_requests = true;
    sc.engine.packet.buffer_bytes = 200_000;
    let rep = run_ok(&sc);
    let g = rep.groups.as_ref().unwrap();
    assert_eq!(g.finished, 1);
    assert_approx(g.completion_s.max.unwrap(), 97.2e-6, 1e-12);
    let pk = rep.packet.as_ref().unwrap();
    assert_eq!((pk.packets_sent, pk.drops), (80, 0));
    sc.engine.packet.buffer_bytes = 30_000;
    let rep = run_ok(&sc);
    let pk = rep.packet.as_ref().unwrap();
    assert!(pk.drops > 0);
    assert_eq!(
        (pk.packets_sent, pk.retransmissions, pk.timeouts),
        (80, 0, 0)
    );
    assert!(rep.flows.finished < 8 && rep.flows.unfinished > 0);
    assert_eq!(rep.groups.as_ref().unwrap().finished, 0);
    assert!(rep.job_completion_s.is_none());
}

/// Least-work routing rebinds a flow only at a flowlet gap: on a leaf-spine shuffle, with a gap
/// longer than the run no flow moves; with 50 us, flows that paused move to the router's
/// current choice (counted as rebinds and reroutes), and every flow still delivers its bytes.
#[test]
fn least_work_flows_move_only_at_flowlet_gaps() {
    let mut sc = packet(shuffle_all(leaf_spine(4, 4, 2, 10.0, 10.0), 1_000_000));
    sc.routing = RoutingSpec::LeastWork(AdaptiveParams::default());
    sc.engine.packet.flowlet_gap_us = 1e9;
    let still = run_ok(&sc);
    assert_eq!(still.routing_stats.rebinds, 0);
    assert_eq!(still.flows.rerouted, 0);
    sc.engine.packet.flowlet_gap_us = 50.0;
    let moved = run_ok(&sc);
    assert!(moved.routing_stats.rebinds > 0);
    assert_eq!(moved.routing_stats.reroutes, moved.routing_stats.rebinds);
    assert!(moved.flows.rerouted > 0);
    assert_eq!(moved.flows.finished, moved.flows.total);
    let sent: f64 = moved.servers.iter().map(|s| s.bytes_sent).sum();
    assert_eq!(sent, 240.0 * 1_000_000.0);
}

/// Packet mode honours the run limits and reports progress as flow mode does (the worker
/// relies on both): a run over its event budget stops with `SimError::Limit`, and a progress
/// sample comes with the counts of the run so far.
#[test]
fn run_limits_and_progress_apply_in_packet_mode() {
    let sc = packet(shuffle_all(leaf_spine(4, 4, 2, 10.0, 10.0), 10_000_000));
    let limits = RunLimits {
        max_events: Some(100_000),
        ..Default::default()
    };
    match loopline_sim::run(&sc, &limits) {
        Err(loopline_sim::SimError::Limit(m)) => assert!(m.contains("100000 events"), "{m}"),
        other => panic!(
            "expected a limit, got {:?}",
            other.map(|r| r.events_processed)
        ),
    }
    let limits = RunLimits {
        progress_every: Some(std::time::Duration::ZERO),
        ..Default::default()
    };
    let mut samples = Vec::new();
    let rep = loopline_sim::run_with_progress(&sc, &limits, |p| {
        samples.push((p.events, p.flows_done, p.flows_total))
    })
    .unwrap();
    assert!(!samples.is_empty());
    assert!(samples
        .windows(2)
        .all(|w| w[0].0 < w[1].0 && w[0].1 <= w[1].1));
    assert!(samples
        .iter()
        .all(|s| s.2 == 240 && s.0 <= rep.events_processed));
}

/// A server's NIC takes its connections in turn (`host_queue: "fair"`, htsim's host queue):
/// S0 sends 10 packets (15 kB, no handshake, a window of 10) to S1 and to S2 on a star of
/// 10G links without delay; 1,500 bytes take S = 1.2 us to send and a 40-byte ACK 32 ns. The
/// first flow's first packet is on the wire when the second flow's arrive; after it the turn
/// goes round: 0, 0, 1, 0, 1, ..., so flow 0's last packet leaves S0 at the end of slot 18 and
/// it completes at 18 S + S + 2 x 32 ns = 22.864 us; flow 1's last leaves in slot 20:
/// 25.264 us. In arrival order (`fifo`) flow 0's ten go first: 10 S + S + 64 ns = 13.264 us,
/// and flow 1 still 25.264 us.
#[test]
fn a_fair_nic_takes_its_connections_in_turn() {
    let mut sc = packet(scenario(
        star(3, 10.0),
        RoutingSpec::Ecmp,
        many_to_many(&["S0"], &["S1", "S2"], 1, 15_000),
    ));
    sc.engine.packet.handshake = false;
    sc.engine.flow_records = true;
    let fcts = |sc: &Scenario| -> Vec<f64> {
        let rep = run_ok(sc);
        let recs = rep.flow_records.expect("records");
        recs.iter().map(|r| r.fct_s.unwrap()).collect()
    };
    let fair = fcts(&sc);
    assert_approx(fair[0], 22.864e-6, 1e-12);
    assert_approx(fair[1], 25.264e-6, 1e-12);
    sc.engine.packet.host_queue = HostQueue::Fifo;
    let fifo = fcts(&sc);
    assert_approx(fifo[0], 13.264e-6, 1e-12);
    assert_approx(fifo[1], 25.264e-6, 1e-12);
}

/// With htsim's settings and its order of same-time events (`tie_order: "scheduled"`), packet
/// mode steps through the same events as htsim: on a k = 4 FatTree (10G, 1 us per link) a
/// permutation of 1.5 MB flows (seed 1, per-flow ECMP; 360 drops, 3 retransmission timeouts)
/// and a three-to-one incast give every flow's completion to the picosecond as htsim
/// (Broadcom/csg-htsim 841d9e7 through sim-engine/compare, on the engine's ECMP paths) but
/// one: htsim's flow 7 finishes one packet time (1.2 us) later, because htsim's senders of
/// finished flows still answer duplicate ACKs with packets past their end (a difference kept
/// on purpose, see sim-engine/README.md).
#[test]
fn with_htsims_event_order_packet_mode_reproduces_htsim() {
    let mut net = fat_tree(4, 10.0);
    for l in &mut net.links {
        l.latency_ns = 1000;
    }
    let htsim_like = |workload: WorkloadSpec| {
        let mut sc = packet(scenario(net.clone(), RoutingSpec::Ecmp, workload));
        sc.engine.packet = htsim_packet_settings();
        sc.engine.flow_records = true;
        let rep = run_ok(&sc);
        let fcts: Vec<u64> = rep
            .flow_records
            .unwrap()
            .iter()
            .map(|r| (r.fct_s.unwrap() * 1e12).round() as u64)
            .collect();
        (fcts, rep.packet.unwrap())
    };
    let (fcts, pk) = htsim_like(WorkloadSpec::Permutation(PermutationSpec {
        servers: None,
        bytes: 1_500_000,
    }));
    let htsim: [u64; 16] = [
        2_538_707_200,
        260_265_581_696,
        2_044_068_800,
        2_277_220_800,
        2_000_724_800,
        1_967_172_800,
        1_893_331_200,
        262_171_181_696,
        1_639_108_800,
        2_484_212_800,
        2_281_540_800,
        1_878_163_200,
        1_445_396_800,
        260_173_079_464,
        3_229_860_800,
        2_522_340_800,
    ];
    for (i, (&e, &h)) in fcts.iter().zip(&htsim).enumerate() {
        let want = if i == 7 { h - 1_200_000 } else { h };
        assert_eq!(e, want, "flow {i}");
    }
    assert_eq!((pk.drops, pk.timeouts), (360, 3));
    let (fcts, _) = htsim_like(many_to_many(
        &["P0.E0.S0", "P3.E1.S1", "P2.E1.S1"],
        &["P1.E0.S0"],
        1,
        1_500_000,
    ));
    assert_eq!(fcts, [2_540_788_800, 261_160_599_944, 2_549_188_800]);
}

/// Packet mode runs the flow mode's routing controller (adaptive EWMAs and moves, the detour
/// scheduler) every `t_rebind_s`, its moves taken at flowlet gaps. The receive-side case of
/// `detours_relieve_a_hot_rack_on_either_side` (fidelity.rs) with 4 MB flows: 16 servers of
/// racks 0, 1, 10 and 11 of a 12-rack Type 1 loop send to the 4 servers of rack 6, whose 40 Gb/s
/// of ToR downlinks are the bottleneck (64 flows x 32 Mbit / 40 Gb/s = 51.2 ms at least). With
/// detours, traffic for rack 6 also enters at ToRs 4 and 7 and reaches it through servers of
/// racks 5 and 7: the detour is set up on the receive side and the job finishes measurably
/// earlier than with adaptive routing alone (measured: 34.6 ms against 51.7 ms; 35 of the 64
/// flows detoured, 88 MB: 17.6 ms at 40 Gb/s against 17.1 ms saved).
#[test]
fn packet_mode_runs_the_detour_controller() {
    let racks = |rs: &[usize]| -> Vec<String> {
        rs.iter()
            .flat_map(|r| (0..4).map(move |j| format!("L{r}.S{j}")))
            .collect()
    };
    let (far, hot) = (racks(&[0, 1, 10, 11]), racks(&[6]));
    let far: Vec<&str> = far.iter().map(|x| x.as_str()).collect();
    let hot: Vec<&str> = hot.iter().map(|x| x.as_str()).collect();
    let net = subways_type1(&Cluster {
        racks: 12,
        servers_per_rack: 4,
        ports: 2,
        port_gbps: 10.0,
        spines: 2,
        uplink_gbps: 10.0,
    });
    let wl = many_to_many(&far, &hot, 1, 4_000_000);
    let run_with =
        |routing: RoutingSpec| run_ok(&packet(scenario(net.clone(), routing, wl.clone())));
    let adaptive = run_with(RoutingSpec::LeastWork(AdaptiveParams::default()));
    let detour = run_with(RoutingSpec::Detour(DetourParams::default()));
    let (ta, td) = (
        adaptive.job_completion_s.unwrap(),
        detour.job_completion_s.unwrap(),
    );
    assert!(ta >= 0.0512, "adaptive {ta}");
    assert!(adaptive.routing_stats.controller_ticks > 0);
    let d = &detour.routing_stats.detours;
    let on: Vec<_> = d.iter().filter(|x| x.rack == "L6").collect();
    assert_eq!(on.len(), 1, "{d:?}");
    assert_eq!(on[0].side, "receive");
    assert!(on[0].flows > 0);
    assert!(td < 0.9 * ta, "detour {td} vs adaptive {ta}");
    assert_eq!(detour.flows.finished, 64);
    // the detoured bytes over the rack's own 40 Gb/s account for the time saved (an upper
    // bound, as in flow mode: the rack's own links idle at the end)
    let saved: f64 = d.iter().map(|x| x.time_saved_s).sum();
    assert!(
        saved >= ta - td && saved <= 1.5 * (ta - td),
        "saved {saved} vs {ta} - {td}"
    );
}

/// Two paths between two ToRs: S0 - T0 - {SP0, SP1} - T1 - S1, every cable 10 Gb/s and
/// 1,000 ns (a full 1,500-byte packet takes 1,200 ns to send on any hop).
fn two_spines() -> NetworkSpec {
    let link = |a: &str, b: &str| cable(a, b, 10.0, 1000);
    NetworkSpec {
        nodes: vec![
            node("S0", Role::Server),
            node("T0", Role::Tor),
            node("SP0", Role::Spine),
            node("SP1", Role::Spine),
            node("T1", Role::Tor),
            node("S1", Role::Server),
        ],
        links: vec![
            link("S0", "T0"),
            link("T0", "SP0"),
            link("T0", "SP1"),
            link("SP0", "T1"),
            link("SP1", "T1"),
            link("T1", "S1"),
        ],
    }
}

/// One S0 -> S1 flow of `packets` full packets, no handshake, in packet mode.
fn two_spines_flow(packets: u64) -> Scenario {
    let mut sc = packet(scenario(
        two_spines(),
        RoutingSpec::Ecmp,
        many_to_many(&["S0"], &["S1"], 1, packets * 1500),
    ));
    sc.engine.packet.handshake = false;
    sc
}

fn bytes_on(rep: &Report, from: &str, to: &str) -> f64 {
    rep.links
        .rows()
        .find(|l| l.from == from && l.to == to)
        .map(|l| l.bytes)
        .expect("link in the report")
}

/// The spine ECMP puts the S0 -> S1 flow on (the one its packets crossed), and the other.
fn spines_used(sc: &Scenario) -> (&'static str, &'static str) {
    let rep = run_ok(sc);
    match (
        bytes_on(&rep, "T0", "SP0") > 0.0,
        bytes_on(&rep, "T0", "SP1") > 0.0,
    ) {
        (true, false) => ("SP0", "SP1"),
        (false, true) => ("SP1", "SP0"),
        other => panic!("the flow crossed both spines or neither: {other:?}"),
    }
}

fn fail_node(node: &str, at_s: f64, recover_at_s: Option<f64>) -> FailureSpec {
    FailureSpec {
        at_s,
        link: None,
        node: Some(node.into()),
        recover_at_s,
    }
}

/// A spine fails mid-flow. The flow's 10 packets (its whole first window; no handshake) leave
/// S0 back to back: packet k is sent by S0's NIC in [1.2k, 1.2(k+1)] us, is on the S0-T0
/// wire until 1.2(k+1) + 1, sent by T0 in [1.2(k+1) + 1, 1.2(k+2) + 1], on the T0-SP wire
/// until 1.2(k+2) + 2, sent by the spine in [1.2(k+2) + 2, 1.2(k+3) + 2]. At 5 us the spine
/// fails: packet 2 is being sent by T0 ([4.6, 5.8]), packet 1 is on the T0-SP wire (4.6 to
/// 5.6), packet 0 is being sent by the spine ([4.4, 5.6]): exactly 3 packets are lost at that
/// instant. The flow moves to the other spine at once, but packets 3 to 9 were sent on the old
/// path (each carries its path) and are lost where they meet the failed link at T0: 10 lost in
/// all, nothing acknowledged, so the retransmission timer (rto_min, 1 ms) sends them again,
/// over the other spine (each once: 15,000 bytes). Before the failure T0 was sending to the
/// failed spine for 5 - 2.2 = 2.8 us (3,500 bytes at 10 Gb/s), the spine to T1 for
/// 5 - 4.4 = 0.6 us (750 bytes); nothing after.
#[test]
fn a_spine_failing_mid_flow_drops_what_is_on_it_and_the_flow_finishes_over_the_other() {
    let sc = two_spines_flow(10);
    let (used, other) = spines_used(&sc);
    let mut sc = sc;
    sc.engine.failures = vec![fail_node(used, 5e-6, None)];
    let net = sc.validate().expect("failures are valid in packet mode");
    let mut e = PacketEngine::new(&sc, &net);
    while e.now() < Time(5_000_000) {
        assert!(e.step(), "the run goes on past the failure");
    }
    assert_eq!(e.now(), Time(5_000_000));
    assert_eq!(
        e.failure_drops(),
        3,
        "queued and in flight on the failed spine's links"
    );
    assert!(e.invariant_violations().is_empty());
    while e.step() {}
    assert_eq!(e.failure_drops(), 10);
    assert!(e.invariant_violations().is_empty());

    let rep = run_ok(&sc);
    assert_eq!(rep.flows.finished, 1);
    assert_eq!(rep.flows.rerouted, 1);
    let pk = rep.packet.as_ref().unwrap();
    assert_eq!(pk.drops, 10);
    assert_eq!(pk.timeouts, 1);
    assert_eq!(bytes_on(&rep, "T0", used), 3_500.0);
    assert_eq!(bytes_on(&rep, used, "T1"), 750.0);
    assert_eq!(bytes_on(&rep, "T0", other), 15_000.0);
    assert_eq!(bytes_on(&rep, other, "T1"), 15_000.0);
    assert!(rep.job_completion_s.unwrap() > 1e-3);
}

/// Packet mode through the flow engine's `Engine` trait, the interface `run`'s loop drives:
/// `step_until(5 us)` on the case above stops with every event up to the spine's failure done
/// (its 3 drops counted, the clock at 5 us exactly) and the next event after it; stepping on to
/// the end and closing gives `run`'s report byte for byte, with the accessors the loop reads.
#[test]
fn packet_mode_steps_through_the_engine_trait_as_run_drives_it() {
    let sc = two_spines_flow(10);
    let (used, _) = spines_used(&sc);
    let mut sc = sc;
    sc.engine.failures = vec![fail_node(used, 5e-6, None)];
    let net = sc.validate().expect("valid");
    let mut e = PacketEngine::new(&sc, &net);
    assert!(e.step_until(Time(5_000_000)), "the run goes on past 5 us");
    assert_eq!(e.now(), Time(5_000_000));
    assert!(e.next_time().expect("events after the failure") > Time(5_000_000));
    assert_eq!(e.failure_drops(), 3);
    assert_eq!((e.flows_done(), e.flows_total()), (0, 1));
    let events = e.events();
    assert!(!e.step_until(Time::MAX), "the run ends");
    assert!(e.events() > events);
    assert_eq!((e.flows_done(), e.next_time()), (1, None));
    e.close();
    assert_eq!(
        serde_json::to_string(&e.report()).unwrap(),
        serde_json::to_string(&run_ok(&sc)).unwrap()
    );
}

/// A flow of one packet: sent at 0, it crosses the four hops in 4 x (1,200 + 1,000) =
/// 8,800 ns and its 40-byte ACK comes back in 4 x (32 + 1,000) = 4,128 ns. At 5 us, while the
/// spine sends it ([4.4, 5.6] us), T1-S1 fails: no path is left (S1 has one cable), the flow
/// stalls; the packet is lost at T1 (6.6 us) where it meets the failed cable. Its timer runs
/// out at 1 ms while it is stalled: nothing is sent. T1-S1 recovers at 2 ms: the flow is
/// routed again (the same path) and, its timer past, retransmits at once: it finishes at
/// 2 ms + 12,928 ns. Without the recovery it is reported stalled, as flow mode reports it.
/// A spine failing at 5 us instead (the other one is left) moves it at once; the packet on
/// the failed spine is lost, and the retransmission at 1 ms goes over the other spine:
/// 1 ms + 12,928 ns.
#[test]
fn a_flow_with_no_path_left_stalls_until_the_recovery_and_then_finishes() {
    let sc = two_spines_flow(1);
    let base = run_ok(&sc);
    assert_approx(base.job_completion_s.unwrap(), 12_928e-9, 1e-12);
    let (used, _) = spines_used(&sc);

    let mut sc1 = sc.clone();
    sc1.engine.failures = vec![fail_node(used, 5e-6, None)];
    let rep = run_ok(&sc1);
    assert_eq!(rep.flows.finished, 1);
    assert_approx(rep.job_completion_s.unwrap(), 1e-3 + 12_928e-9, 1e-12);
    assert_eq!(rep.packet.as_ref().unwrap().drops, 1);

    let cable = FailureSpec {
        at_s: 5e-6,
        link: Some(LinkRef::Ends {
            a: "T1".into(),
            b: "S1".into(),
        }),
        node: None,
        recover_at_s: Some(2e-3),
    };
    let mut sc2 = sc.clone();
    sc2.engine.failures = vec![cable.clone()];
    let rep = run_ok(&sc2);
    assert_eq!((rep.flows.finished, rep.flows.stalled), (1, 0));
    assert_eq!(rep.flows.rerouted, 1);
    assert_approx(rep.job_completion_s.unwrap(), 2e-3 + 12_928e-9, 1e-12);
    let pk = rep.packet.as_ref().unwrap();
    assert_eq!((pk.drops, pk.timeouts), (1, 1));

    sc2.engine.failures = vec![FailureSpec {
        recover_at_s: None,
        ..cable
    }];
    let rep = run_ok(&sc2);
    assert_eq!((rep.flows.finished, rep.flows.stalled), (0, 1));
    assert_eq!(rep.job_completion_s, None);
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig { cases: 24, ..Default::default() })]
    /// Failures in any order, overlapping or not, on spines and fabric cables, each recovering,
    /// under any transport and with or without spraying: after every step every queue holds
    /// exactly its packets within its buffer, and at the end every flow has finished (no path
    /// stays down, so TCP recovers every loss; nothing is left stalled).
    #[test]
    fn failures_that_recover_leave_every_flow_finished(
        fails in proptest::collection::vec((0usize..8, 0u64..150, 1u64..2_000), 1..4),
        transport in 0usize..3,
        spraying in proptest::bool::ANY,
        seed in 0u64..1_000,
    ) {
        // 3 ToRs of 2 servers, 2 spines; cables 0..6 are ToR-spine, the element k >= 6 a spine
        let mut sc = packet(shuffle_all(leaf_spine(3, 2, 2, 10.0, 10.0), 30_000));
        sc.engine.seed = seed;
        sc.engine.packet.transport = [Transport::Newreno, Transport::Dctcp, Transport::Mptcp][transport];
        sc.engine.packet.spraying = spraying && transport != 2;
        let net0 = sc.validate().expect("valid");
        let fabric: Vec<String> = (0..net0.link_names.len())
            .filter(|&d| {
                let l = &net0.links[2 * d];
                !net0.is_server(l.from) && !net0.is_server(l.to)
            })
            .map(|d| net0.link_names[d].clone())
            .collect();
        sc.engine.failures = fails
            .iter()
            .map(|&(k, at_us, for_us)| FailureSpec {
                at_s: at_us as f64 * 1e-6,
                link: (k < 6).then(|| LinkRef::Id(fabric[k].clone())),
                node: (k >= 6).then(|| format!("SP{}", k - 6)),
                recover_at_s: Some((at_us + for_us) as f64 * 1e-6),
            })
            .collect();
        let net = sc.validate().expect("failures valid in packet mode");
        let mut e = PacketEngine::new(&sc, &net);
        while e.step() {
            let v = e.invariant_violations();
            proptest::prop_assert!(v.is_empty(), "{v:?}");
        }
        let rep = run_ok(&sc);
        proptest::prop_assert_eq!(rep.flows.stalled, 0);
        proptest::prop_assert_eq!(rep.flows.finished, rep.flows.total);
    }
}
