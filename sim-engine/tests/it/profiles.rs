//! Packet-mode profiles (`engine.packet.profile`): named defaults for the packet settings a
//! scenario leaves out (issue 26 item 6). The Linux profile's values, hand-derived on a star of
//! two servers S0, S1 on one switch SW, 1 Gb/s links of 100 us each way.
//!
//! Linux profile on the wire: a data packet is 1,538 bytes (1,448 payload + 52 TCP/IP with
//! timestamps + 38 Ethernet framing): 12.304 us per hop at 1 Gb/s; an ACK 90 bytes: 0.72 us;
//! the SYN 1 byte: 8 ns. Handshake: the SYN reaches S1 at 2 x (100 + 0.008) = 200.016 us, the
//! SYN-ACK is back at 200.016 + 2 x 100.72 = 401.456 us, when data starts.

use super::*;
use loopline_sim::topology::*;

const MSS: u64 = 1448;

fn star_100us() -> NetworkSpec {
    let mut net = star(2, 1.0);
    for l in &mut net.links {
        l.latency_ns = 100_000;
    }
    net
}

/// A packet-mode scenario whose `engine.packet` is the JSON `packet`, read as the CLI reads it.
fn with_packet(packet: serde_json::Value, bytes: u64) -> Result<Scenario, ScenarioError> {
    let sc = scenario(
        star_100us(),
        RoutingSpec::Ecmp,
        many_to_many(&["S0"], &["S1"], 1, bytes),
    );
    let mut doc = serde_json::to_value(&sc).unwrap();
    doc["engine"]["mode"] = "packet".into();
    doc["engine"]["packet"] = packet;
    Scenario::from_json(&doc.to_string())
}

fn linux(bytes: u64) -> Scenario {
    with_packet(serde_json::json!({"profile": "linux"}), bytes).unwrap()
}

/// The profile fills every field the scenario leaves out and keeps the ones it gives; `htsim`
/// gives the settings `sim-engine/compare` matches to htsim; a scenario read back from its own
/// JSON is the same; an unknown profile is refused naming the field.
#[test]
fn a_profile_fills_what_the_scenario_leaves_out() {
    let p = linux(1).engine.packet;
    assert_eq!(p.profile, PacketProfile::Linux);
    assert_eq!(
        (
            p.mtu_bytes,
            p.header_bytes,
            p.ack_bytes,
            p.initial_window_packets
        ),
        (1538, 90, 90, 10)
    );
    assert_eq!(
        (p.rto_min_ms, p.rto_initial_ms, p.rto_scan_ms),
        (200.0, Some(1000.0), None)
    );
    assert_eq!(p.initial_ssthresh_packets, None);
    // the planning defaults for what Linux has no say in
    assert_eq!((p.buffer_bytes, p.shared_buffer.is_none()), (150_000, true));
    let own = with_packet(
        serde_json::json!({"profile": "linux", "rto_min_ms": 5.0, "buffer_bytes": 9000}),
        1,
    )
    .unwrap()
    .engine
    .packet;
    assert_eq!(
        (own.rto_min_ms, own.buffer_bytes, own.mtu_bytes),
        (5.0, 9000, 1538)
    );
    let htsim = with_packet(serde_json::json!({"profile": "htsim"}), 1).unwrap();
    assert_eq!(
        serde_json::to_value(&htsim.engine.packet).unwrap(),
        serde_json::to_value(htsim_packet_settings()).unwrap()
    );
    // written out (every field explicit, the profile named) and read back: the same
    let sc = linux(1);
    let back = Scenario::from_json(&serde_json::to_string(&sc).unwrap()).unwrap();
    assert_eq!(
        serde_json::to_value(&back).unwrap(),
        serde_json::to_value(&sc).unwrap()
    );
    // however the key is written (here a JSON escape), the profile is applied
    let mut doc = serde_json::to_value(scenario(
        star_100us(),
        RoutingSpec::Ecmp,
        many_to_many(&["S0"], &["S1"], 1, 1),
    ))
    .unwrap();
    doc["engine"]["packet"] = serde_json::json!({"profile": "linux"});
    let text = doc.to_string().replace("\"profile\"", "\"\\u0070rofile\"");
    assert!(text.contains("u0070rofile") && !text.contains("rto_min_ms"));
    let escaped = Scenario::from_json(&text).unwrap();
    assert_eq!(escaped.engine.packet.rto_min_ms, 200.0);
    let e = with_packet(serde_json::json!({"profile": "bsd"}), 1).unwrap_err();
    assert_eq!(e.path, "engine.packet.profile", "{e}");
    assert!(e.to_string().contains("linux"), "{e}");
}

/// Linux's initial window: 10 packets go in the first round trip. A flow of exactly 10 full
/// segments (14,480 bytes) is one flight: packet k leaves S0 at 401.456 + 12.304 k us, the
/// switch forwards it as it arrives, the 10th reaches S1 at 401.456 + 123.04 + 100 + 12.304 +
/// 100 = 736.8 us and its ACK is at S0 at 736.8 + 2 x 100.72 = 938.24 us. An 11th segment waits
/// for the first ACK (packet 1 reaches S1 at 626.064 us, its ACK S0 at 827.504 us), then takes
/// a round trip of its own: 827.504 + 2 x 112.304 + 2 x 100.72 = 1,253.552 us. S0's link
/// carries the SYN and 10 data packets: 1 + 10 x 1,538 bytes.
#[test]
fn linux_sends_ten_packets_in_the_first_round_trip() {
    let ten = run_ok(&linux(10 * MSS));
    assert_approx(ten.job_completion_s.unwrap(), 938.24e-6, 1e-12);
    let pk = ten.packet.as_ref().unwrap();
    // SYN, SYN-ACK, 10 data packets, 10 ACKs
    assert_eq!((pk.packets_sent, pk.drops, pk.timeouts), (22, 0, 0));
    let sent: f64 = ten
        .links
        .rows()
        .filter(|l| l.from == "S0")
        .map(|l| l.bytes)
        .sum();
    assert_eq!(sent, 1.0 + 10.0 * 1538.0);
    let eleven = run_ok(&linux(11 * MSS));
    assert_approx(eleven.job_completion_s.unwrap(), 1_253.552e-6, 1e-12);
}

/// A lost packet with no duplicate ACK behind it waits for the retransmission timeout, at least
/// Linux's 200 ms. A one-segment flow: its packet leaves S0 at 401.456 us and is on the wire
/// (413.76-513.76 us) when S0's cable fails at 450 us (back at 1 ms). The RTT sampled on the
/// handshake, 401.456 us, gives srtt + 4 rttvar = 1.2 ms, below the minimum: the timer runs
/// 200 ms from the send. The resent packet leaves at 200.401456 ms, reaches S1 224.608 us
/// later and its ACK is back 201.44 us after that: 200.827504 ms. With the planning minimum
/// (1 ms) the same loss costs 1.2 ms of waiting instead.
#[test]
fn a_loss_with_no_duplicate_acks_waits_the_200_ms_minimum() {
    let fail = |sc: &mut Scenario| {
        sc.engine.failures.push(FailureSpec {
            at_s: 450e-6,
            link: Some(LinkRef::Ends {
                a: "S0".into(),
                b: "SW".into(),
            }),
            node: None,
            recover_at_s: Some(1e-3),
        });
    };
    let mut sc = linux(MSS);
    fail(&mut sc);
    let rep = run_ok(&sc);
    let pk = rep.packet.as_ref().unwrap();
    assert_eq!((pk.timeouts, pk.retransmissions), (1, 1), "{pk:?}");
    let fct = rep.job_completion_s.unwrap();
    assert!(fct >= 0.2, "{fct}");
    assert_approx(fct, 200.827504e-3, 1e-12);
    let mut planning = with_packet(serde_json::json!({}), MSS).unwrap();
    fail(&mut planning);
    let fct = run_ok(&planning).job_completion_s.unwrap();
    assert!(fct < 3e-3, "{fct}");
}
