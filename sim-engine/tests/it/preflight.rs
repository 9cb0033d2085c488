//! `loopline-sim validate --json` (`preflight`): what the backend reads before a run. Expected
//! values are derived by hand on a two-ToR network:
//!
//! ```text
//!          SP
//!        /    \
//!     T0        T1          every cable 10 Gb/s, no id
//!    /  \      /  \
//!  s0    s1  s2    s3       s0, s1 in logical rack r0; s2, s3 in r1
//! ```
//!
//! Server pairs under one ToR cross 2 links (s-T-s), the others 4 (s-T-SP-T-s).

use super::*;
use loopline_sim::preflight::{summarize, Validation};
use proptest::prelude::*;
use serde_json::{json, Value};

fn network() -> Value {
    let server = |id: &str, rack: &str| json!({"id": id, "role": "server", "logical_rack": rack});
    json!({
        "nodes": [
            {"id": "SP", "role": "spine"}, {"id": "T0", "role": "tor"}, {"id": "T1", "role": "tor"},
            server("s0", "r0"), server("s1", "r0"), server("s2", "r1"), server("s3", "r1"),
        ],
        "links": [
            {"a": "T0", "b": "SP", "gbps": 10.0}, {"a": "T1", "b": "SP", "gbps": 10.0},
            {"a": "s0", "b": "T0", "gbps": 10.0}, {"a": "s1", "b": "T0", "gbps": 10.0},
            {"id": "cable-s2", "a": "s2", "b": "T1", "gbps": 10.0}, {"a": "s3", "b": "T1", "gbps": 10.0},
        ],
    })
}

fn validation(workload: Value, engine: Value) -> Validation {
    let doc =
        json!({"schema_version": 1, "network": network(), "workload": workload, "engine": engine});
    let sc = Scenario::from_json(&doc.to_string()).unwrap();
    let net = sc.validate().unwrap();
    summarize(&sc, &net, Some(&doc["workload"]))
}

fn defaults(v: &Validation) -> Vec<(String, Value)> {
    v.workload
        .defaults_applied
        .iter()
        .map(|d| (d.field.clone(), d.value.clone()))
        .collect()
}

#[test]
fn a_shuffle_is_counted_with_its_hops_packets_and_link_names() {
    let v = validation(
        json!({"type": "shuffle", "bytes_per_pair": 3000}),
        json!({}),
    );
    // 4 servers: 4 x 3 = 12 ordered pairs; from each server 1 pair under its ToR (2 links) and
    // 2 across (4 links): 10/3 links on average
    assert_eq!((v.nodes, v.servers, v.links), (7, 4, 6));
    assert_eq!(v.workload.flows, 12);
    assert_eq!(v.workload.bytes, 36_000.0);
    assert_eq!(v.workload.mean_hops, Some(10.0 / 3.0));
    assert_eq!(defaults(&v), vec![("workload.start_s".into(), json!(0.0))]);
    // unnamed links are `a|b#i`, i counted over the whole list (s2's cable has its id)
    assert_eq!(
        v.link_ids,
        ["T0|SP#0", "T1|SP#1", "s0|T0#2", "s1|T0#3", "cable-s2", "s3|T1#5"]
    );
    let e = v.estimate.unwrap();
    // 3,000 bytes in 1,500-byte packets: 2 a flow, 24 in all, crossing 10/3 links on average
    assert_eq!((e.flows, e.packets), (12, 24.0));
    assert!((e.packet_hops - 80.0).abs() < 1e-9, "{}", e.packet_hops);
    // 6 cables, 12 ports of 150,000 bytes = 100 packets each: the pool is all 24 packets
    assert_eq!((e.directed_links, e.pool_packets), (12, 24.0));
}

#[test]
fn a_query_workload_reports_the_defaults_it_took() {
    let v = validation(
        json!({"type": "query", "fan_in": 2, "response_bytes": 1500}),
        json!({}),
    );
    // 100 queries (the default) x 2 responders
    assert_eq!(v.workload.flows, 200);
    assert_eq!(
        defaults(&v),
        vec![
            ("workload.queries".into(), json!(100)),
            ("workload.rate_per_s".into(), json!(1000.0)),
        ]
    );
    // an incast takes one fan-in, and fan_in 8 only when it reads it (no named senders); 8
    // responders need 9 servers, so here it names them
    let v = validation(
        json!({"type": "incast", "senders": ["s0", "s1", "s2"], "receiver": "s3", "response_bytes": 1500}),
        json!({}),
    );
    assert_eq!(v.workload.flows, 3);
    assert_eq!(
        defaults(&v),
        vec![
            ("workload.queries".into(), json!(1)),
            ("workload.rate_per_s".into(), json!(1000.0)),
        ]
    );
    // s0 and s1 to s3 cross 4 links, s2 to s3 2: 10/3
    assert_eq!(v.workload.mean_hops, Some(10.0 / 3.0));
}

#[test]
fn memcache_has_requests_and_responses_between_clients_and_caches() {
    let v = validation(
        json!({"type": "memcache", "server_racks": ["r0"]}),
        json!({}),
    );
    // clients s2, s3 (not in r0), caches s0, s1: every pair crosses 4 links; 1,000 requests of
    // 100 bytes and 1,000 responses of 100,000 bytes (the defaults)
    assert_eq!(v.workload.flows, 2000);
    assert_eq!(v.workload.bytes, 100_100_000.0);
    let c = &v.workload.classes;
    assert_eq!(
        (c[0].name, c[0].flows, c[0].bytes_per_flow),
        ("requests", 1000, 100.0)
    );
    assert_eq!(
        (c[1].name, c[1].flows, c[1].bytes_per_flow),
        ("responses", 1000, 100_000.0)
    );
    assert_eq!(v.workload.mean_hops, Some(4.0));
    let fields: Vec<String> = defaults(&v).into_iter().map(|d| d.0).collect();
    assert_eq!(
        fields,
        [
            "workload.latency_bound_us",
            "workload.rate_per_s",
            "workload.request_bytes",
            "workload.requests",
            "workload.response_bytes"
        ]
    );
    // packets: 1 a request, ceil(100,000 / 1,500) = 67 a response: 68,000
    assert_eq!(v.estimate.unwrap().packets, 68_000.0);
}

#[test]
fn a_profile_and_a_stop_time_change_the_packets() {
    // linux profile: 1,538-byte packets of 90 header bytes: 1,448 payload, so 3,000 bytes are
    // 3 packets (the planning defaults give 2)
    let v = validation(
        json!({"type": "permutation", "bytes": 3000}),
        json!({"mode": "packet", "packet": {"profile": "linux"}}),
    );
    assert_eq!(v.estimate.unwrap().packets, 4.0 * 3.0);
    // 1 us at the servers' 4 x 10 Gb/s = 5,000 bytes = 3.33 packets of 1,500 bytes: the
    // packet-hops of the 8 packets (4 flows of 2) are cut to 3.33 / 8 of themselves
    let v = validation(
        json!({"type": "permutation", "bytes": 3000}),
        json!({"stop_time_s": 1e-6}),
    );
    let e = v.estimate.unwrap();
    assert_eq!(e.packets, 8.0);
    let hops = v.workload.mean_hops.unwrap();
    let most = 1e-6 * 40e9 / 8.0 / 1500.0;
    assert!((e.packet_hops - 8.0 * hops * most / 8.0).abs() < 1e-9);
}

#[test]
fn fan_ins_with_named_senders_and_a_random_receiver_are_counted_as_generated() {
    // the receiver is drawn among the 4 servers each query, and a sender drawn as receiver does
    // not send to itself: fewer than 10 x 3 flows (all 10 receivers s3: 1 in 4^10)
    let doc = json!({"schema_version": 1, "network": network(),
        "workload": {"type": "query", "senders": ["s0", "s1", "s2"], "queries": 10, "response_bytes": 100}});
    let sc = Scenario::from_json(&doc.to_string()).unwrap();
    let net = sc.validate().unwrap();
    let v = summarize(&sc, &net, Some(&doc["workload"]));
    let generated = loopline_sim::workload::generate(&sc.workload, &net, sc.engine.seed);
    assert_eq!(v.workload.flows, generated.flows.len() as u64);
    assert!(v.workload.flows < 30, "{}", v.workload.flows);
    assert!(v.workload.flows_exact);
    assert_eq!(v.estimate.unwrap().flows, v.workload.flows);
    // beyond a million flows they are not generated: the bound, 400,001 queries x 3, said inexact
    let doc = json!({"schema_version": 1, "network": network(),
        "workload": {"type": "query", "senders": ["s0", "s1", "s2"], "queries": 400_001,
            "rate_per_s": 1e6, "response_bytes": 100}});
    let sc = Scenario::from_json(&doc.to_string()).unwrap();
    let net = sc.validate().unwrap();
    let v = summarize(&sc, &net, Some(&doc["workload"]));
    assert_eq!(
        (v.workload.flows, v.workload.flows_exact),
        (1_200_003, false)
    );
}

#[test]
fn the_cli_prints_it_and_reads_stdin() {
    let bin = env!("CARGO_BIN_EXE_loopline-sim");
    let doc = json!({"schema_version": 1, "network": network(),
        "workload": {"type": "shuffle", "bytes_per_pair": 3000}});
    let mut child = std::process::Command::new(bin)
        .args(["validate", "--json", "-"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    use std::io::Write as _;
    child
        .stdin
        .take()
        .unwrap()
        .write_all(doc.to_string().as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success());
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["workload"]["flows"], json!(12));
    assert_eq!(v["link_ids"][0], json!("T0|SP#0"));
    assert_eq!(v["schema_version"], json!(1));
}

fn workload_strategy() -> impl Strategy<Value = Value> {
    let some = |ids: Vec<bool>| -> Value {
        let names: Vec<String> = ids
            .iter()
            .enumerate()
            .filter(|(_, &b)| b)
            .map(|(i, _)| format!("s{i}"))
            .collect();
        json!(names)
    };
    prop_oneof![
        (1u64..5000).prop_map(|b| json!({"type": "shuffle", "bytes_per_pair": b})),
        (1u64..5000).prop_map(|b| json!({"type": "all_to_all", "bytes": b})),
        (1u64..5000).prop_map(|b| json!({"type": "permutation", "bytes": b})),
        (1u64..50, 1u64..5000).prop_map(|(f, b)| json!({"type": "random", "flows": f, "bytes": b})),
        (
            proptest::collection::vec(any::<bool>(), 4),
            proptest::collection::vec(any::<bool>(), 4),
            1u32..4
        )
            .prop_filter("senders and receivers", |(a, b, _)| {
                a.iter().any(|&x| x) && b.iter().any(|&x| x)
            })
            .prop_map(move |(a, b, k)| json!({"type": "many_to_many", "senders": some(a),
                "receivers": some(b), "flows_per_pair": k, "bytes": 1000})),
        (1u32..4, 1u32..20, any::<bool>(), 0usize..4).prop_map(|(fan_in, q, incast, r)| {
            let mut w = json!({"type": if incast { "incast" } else { "query" },
                "fan_in": fan_in, "queries": q, "response_bytes": 1000});
            if r > 0 {
                w["receiver"] = json!(format!("s{r}"));
            }
            w
        }),
        (1u32..20, any::<bool>()).prop_map(|(q, fixed)| {
            let mut w = json!({"type": "query", "senders": ["s0", "s1"], "queries": q, "response_bytes": 10});
            if fixed {
                w["receiver"] = json!("s3");
            }
            w
        }),
        (1u64..50, any::<bool>()).prop_map(|(f, inter)| json!({"type": "poisson",
            "cdf": "websearch", "load": 0.3, "flows": f, "inter_rack_only": inter})),
        (1u32..30).prop_map(|n| json!({"type": "memcache", "server_racks": ["r1"], "requests": n})),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]
    /// The count `validate --json` reports is the number of flows the engine generates, for
    /// every workload type on random parameters and seeds.
    #[test]
    fn the_validation_counts_the_flows_the_engine_generates(
        workload in workload_strategy(), seed in 0u64..1000,
    ) {
        let doc = json!({"schema_version": 1, "network": network(), "workload": workload,
            "engine": {"seed": seed}});
        let sc = Scenario::from_json(&doc.to_string()).unwrap();
        let Ok(net) = sc.validate() else { return Ok(()) };
        let v = summarize(&sc, &net, Some(&doc["workload"]));
        let generated = loopline_sim::workload::generate(&sc.workload, &net, seed);
        prop_assert_eq!(v.workload.flows, generated.flows.len() as u64);
        prop_assert!(v.workload.flows_exact);
        let sum: u64 = v.workload.classes.iter().map(|c| c.flows).sum();
        prop_assert_eq!(sum, v.workload.flows);
        if !v.workload.classes.iter().any(|c| c.sizes_drawn) {
            let bytes: u64 = generated.flows.iter().map(|f| f.bytes.0).sum();
            prop_assert_eq!(v.workload.bytes, bytes as f64);
        }
    }
}
