//! The result's `reachability`: the failure timeline, what was down at the end and which server
//! groups had no up-down path. Derived by hand on two ToRs of two servers, each ToR with its own
//! spine unless `joined` (T1 then also goes up to SP0):
//!
//! ```text
//!   SP0        SP1
//!    |  \ (U2)  |
//!   T0    \    T1
//!  /  \    `--/  \
//! a0   a1    b0   b1
//! ```

use super::*;
use serde_json::{json, Value};

fn fabric(joined: bool, failures: Value) -> Scenario {
    let mut links = vec![
        json!({"id": "U0", "a": "T0", "b": "SP0", "gbps": 100.0}),
        json!({"id": "U1", "a": "T1", "b": "SP1", "gbps": 100.0}),
        json!({"a": "a0", "b": "T0", "gbps": 25.0}),
        json!({"a": "a1", "b": "T0", "gbps": 25.0}),
        json!({"a": "b0", "b": "T1", "gbps": 25.0}),
        json!({"a": "b1", "b": "T1", "gbps": 25.0}),
    ];
    if joined {
        links.push(json!({"id": "U2", "a": "T1", "b": "SP0", "gbps": 100.0}));
    }
    let doc = json!({"schema_version": 1,
        "network": {"nodes": [
            {"id": "SP0", "role": "spine"}, {"id": "SP1", "role": "spine"},
            {"id": "T0", "role": "tor"}, {"id": "T1", "role": "tor"},
            {"id": "a0", "role": "server"}, {"id": "a1", "role": "server"},
            {"id": "b0", "role": "server"}, {"id": "b1", "role": "server"}],
            "links": links},
        "workload": {"type": "shuffle", "bytes_per_pair": 1_000_000},
        "engine": {"failures": failures}});
    Scenario::from_json(&doc.to_string()).unwrap()
}

fn reach(sc: &Scenario) -> (Report, Value) {
    let rep = run_ok(sc);
    let v = serde_json::to_value(&rep.reachability).unwrap();
    (rep, v)
}

#[test]
fn disjoint_spines_leave_the_cross_pairs_unreachable() {
    let (rep, r) = reach(&fabric(false, json!([])));
    // 12 ordered pairs; the 8 between the racks have no path: a's reach T0 and SP0, b's T1 and SP1
    assert_eq!((rep.flows.total, rep.flows.stalled), (12, 8));
    assert_eq!(r["unreachable_pairs"], json!(8));
    assert_eq!(
        r["unreachable_groups"],
        json!([{"server_pairs": 8,
            "servers_a": ["a0", "a1"], "servers_a_count": 2, "via_a": ["T0"], "reaches_a": ["SP0"],
            "servers_b": ["b0", "b1"], "servers_b_count": 2, "via_b": ["T1"], "reaches_b": ["SP1"]}])
    );
    assert_eq!(r["timeline"], json!([]));
    assert_eq!(r["servers_cut_off_count"], json!(0));
}

#[test]
fn a_joined_fabric_with_no_failure_reports_nothing() {
    let rep = run_ok(&fabric(true, json!([])));
    assert_eq!(rep.flows.finished, 12);
    assert!(rep.reachability.is_none());
}

#[test]
fn an_unnamed_link_down_for_good_is_named_as_the_engine_names_it() {
    // a0's cable is the third of the list: a0|T0#2; a0 is cut off, to and from its 3 peers
    let (rep, r) = reach(&fabric(true, json!([{"at_s": 0.0, "link": "a0|T0#2"}])));
    assert_eq!(rep.flows.stalled, 6);
    assert_eq!(r["down_links"], json!(["a0|T0#2"]));
    assert_eq!(r["servers_cut_off"], json!(["a0"]));
    assert_eq!(r["unreachable_pairs"], json!(6));
    let pairs: Vec<(Value, Value)> = r["unreachable_groups"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| (g["servers_b"].clone(), g["server_pairs"].clone()))
        .collect();
    // a0 (no way up) with a1 (2 pairs) and with b0, b1 (4 pairs)
    assert_eq!(
        pairs,
        [(json!(["a1"]), json!(2)), (json!(["b0", "b1"]), json!(4))]
    );
}

#[test]
fn a_failure_by_ends_a_recovery_and_a_node_are_on_the_timeline() {
    let sc = fabric(
        true,
        json!([
            {"at_s": 0.0, "link": {"a": "SP0", "b": "T1"}},
            {"at_s": 0.0, "link": "a1|T0#3", "recover_at_s": 1e-4},
            {"at_s": 0.0, "node": "SP1"},
        ]),
    );
    let (rep, r) = reach(&sc);
    // U2 and SP1 down: the racks are split again (8 pairs); a1's cable is back after 0.1 ms
    assert_eq!(rep.flows.stalled, 8);
    assert_eq!(
        r["timeline"],
        json!([
            {"at_s": 0.0, "recover_at_s": null, "link": "U2", "links_down": 1, "down_at_end": true},
            {"at_s": 0.0, "recover_at_s": 1e-4, "link": "a1|T0#3", "links_down": 1, "down_at_end": false},
            {"at_s": 0.0, "recover_at_s": null, "node": "SP1", "links_down": 1, "down_at_end": true},
        ])
    );
    assert_eq!(r["down_links"], json!(["U2"]));
    assert_eq!(r["down_nodes"], json!(["SP1"]));
    assert_eq!(r["unreachable_pairs"], json!(8));
    // b's only way up was SP1: they reach T1 alone
    assert_eq!(r["unreachable_groups"][0]["reaches_b"], json!(["T1"]));
}
