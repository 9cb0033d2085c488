//! Fuzzing the scenario parser and validator (what `loopline-sim run` does before simulating):
//! arbitrary text, arbitrary JSON values, and structure-aware mutations of the bundled examples.
//! The property: `Scenario::from_json` + `validate` never panic and either accept the document
//! or return a `ScenarioError` naming the field (a JSON path under a top-level key, or the
//! document itself for a root-level type/syntax error). Mutated examples that validate are then
//! simulated under tight run limits, which must not panic either.
//!
//! Case counts: a bounded run by default (part of `cargo test --release`); `LOOPLINE_FUZZ_CASES=N`
//! runs N cases per test (`make fuzz` uses 200,000).

mod rates;

use std::time::Duration;

use loopline_sim::scenario::{
    Scenario, ScenarioError, MAX_FLOWS, MAX_LINK_GBPS, MAX_TIME_S, MIN_LINK_GBPS,
};
use loopline_sim::{run, RunLimits, SimError};
use proptest::prelude::*;
use proptest::test_runner::Config;
use serde_json::{Map, Number, Value};

/// Cases per test: `LOOPLINE_FUZZ_CASES` if set, else the bounded default.
fn cases(default: u32) -> u32 {
    std::env::var("LOOPLINE_FUZZ_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn config(default: u32) -> Config {
    Config {
        cases: cases(default),
        max_shrink_iters: 4096,
        ..Config::default()
    }
}

/// Top-level fields of a scenario: every validation error path starts with one of them.
const TOP: &[&str] = &[
    "schema_version",
    "name",
    "network",
    "routing",
    "workload",
    "engine",
];

/// Every field and variant name of the scenario format (keys and strings for the generators).
const VOCAB: &[&str] = &[
    "schema_version",
    "name",
    "network",
    "routing",
    "workload",
    "engine",
    "nodes",
    "links",
    "id",
    "role",
    "layer",
    "cluster",
    "loop",
    "loop_position",
    "rack",
    "logical_rack",
    "a",
    "b",
    "gbps",
    "latency_ns",
    "type",
    "ecmp",
    "adaptive",
    "detour",
    "vlb",
    "grin",
    "t_rebind_s",
    "c",
    "ewma",
    "hot_threshold",
    "t_detect_s",
    "t_duration_s",
    "spare_fraction",
    "max_intermediate_servers",
    "direct_weight",
    "shuffle",
    "permutation",
    "random",
    "all_to_all",
    "many_to_many",
    "incast",
    "query",
    "poisson",
    "memcache",
    "servers",
    "bytes_per_pair",
    "start_s",
    "bytes",
    "flows",
    "rate_per_s",
    "senders",
    "receivers",
    "flows_per_pair",
    "receiver",
    "fan_in",
    "response_bytes",
    "queries",
    "cdf",
    "points",
    "load",
    "clients",
    "server_racks",
    "request_bytes",
    "requests",
    "latency_bound_us",
    "mode",
    "flow",
    "packet",
    "seed",
    "stop_time_s",
    "failures",
    "latency",
    "link_series",
    "at_s",
    "link",
    "node",
    "recover_at_s",
    "base_rtt",
    "slow_start",
    "mtu_bytes",
    "init_cwnd_bytes",
    "server",
    "tor",
    "agg",
    "spine",
    "core",
    "websearch",
    "datamining",
    "hadoop",
    "cachefollower",
    "webserver",
];

/// Numbers at the edges: zero, signs, integer widths, the largest and smallest doubles.
fn edge_number() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(Value::from(0)),
        Just(Value::from(-1)),
        Just(Value::from(1)),
        Just(Value::from(2)),
        Just(Value::from(255)),
        Just(Value::from(256)),
        Just(Value::from(u32::MAX)),
        Just(Value::from(u32::MAX as u64 + 1)),
        Just(Value::from(i64::MIN)),
        Just(Value::from(i64::MAX)),
        Just(Value::from(u64::MAX)),
        Just(Value::from(0.5)),
        Just(Value::from(-0.0)),
        Just(Value::from(1e-300)),
        Just(Value::from(5e-324)),
        Just(Value::from(1e308)),
        Just(Value::from(-1e308)),
        Just(Value::from(f64::MAX)),
        Just(Value::from(1e-13)),
        Just(Value::from(1e12)),
    ]
}

fn json_string() -> impl Strategy<Value = String> {
    prop_oneof![
        3 => proptest::sample::select(VOCAB).prop_map(String::from),
        1 => Just(String::new()),
        2 => any::<String>(),
        1 => Just("\u{0}\u{7f}\u{feff}é漢🦀\u{10ffff}".to_string()),
        1 => "[a-zA-Z0-9.|#]{0,12}".prop_map(String::from),
    ]
}

/// A JSON scalar: null, bool, any i64/u64/finite f64, an edge number, or a string.
fn json_leaf() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        any::<i64>().prop_map(Value::from),
        any::<u64>().prop_map(Value::from),
        any::<f64>()
            .prop_filter_map("JSON has no NaN/inf", Number::from_f64)
            .prop_map(Value::Number),
        edge_number(),
        json_string().prop_map(Value::String),
    ]
}

/// Arbitrary JSON values: nested arrays and objects (keys mostly from the format's vocabulary),
/// depth at most 6.
fn json_value() -> impl Strategy<Value = Value> {
    json_leaf().prop_recursive(6, 64, 8, |inner| {
        prop_oneof![
            proptest::collection::vec(inner.clone(), 0..8).prop_map(Value::Array),
            proptest::collection::vec((json_string(), inner), 0..8)
                .prop_map(|kv| Value::Object(kv.into_iter().collect::<Map<_, _>>())),
        ]
    })
}

/// A document shaped like a scenario at the top: some of the top-level keys with arbitrary values.
fn scenario_shaped() -> impl Strategy<Value = Value> {
    proptest::collection::vec((proptest::sample::select(TOP), json_value()), 0..7).prop_map(|kv| {
        Value::Object(
            kv.into_iter()
                .map(|(k, v)| (k.to_string(), v))
                .collect::<Map<_, _>>(),
        )
    })
}

/// The property on a parse/validate error: the path names a field under a top-level key, or
/// the path is empty and the error is about the document as a whole.
fn check_error(e: &ScenarioError) -> Result<(), TestCaseError> {
    let text = e.to_string();
    prop_assert!(!e.message.is_empty(), "empty message: {:?}", e);
    if e.path.is_empty() {
        let root = e.message.contains("expected struct Scenario")
            || e.message.contains("missing field")
            || e.message.contains("unknown field")
            || e.message.contains("duplicate field")
            || e.message.contains(" at line ")
            || e.message.starts_with("a scenario is a JSON object");
        prop_assert!(root, "no path and not a document-level error: {}", text);
    } else {
        // an unknown key is named by the path itself (`network.nodes[0].colour`): its parent
        // must be a scenario field or the document
        let mut path = e.path.as_str();
        if let Some(rest) = e.message.strip_prefix("unknown field `") {
            let end = rest
                .rfind("`, expected")
                .or_else(|| rest.rfind("`, there are no fields"))
                .unwrap_or(rest.len());
            let key = &rest[..end];
            prop_assert!(path.ends_with(key), "{}", text);
            path = path[..path.len() - key.len()].trim_end_matches('.');
        }
        let head = path.split(['.', '[']).next().unwrap_or("");
        // a syntax error inside an object key has no key to name yet (`?`); its position does
        let syntax = head == "?" && e.message.contains(" at line ");
        prop_assert!(
            path.is_empty() || TOP.contains(&head) || syntax,
            "path {:?} is not a scenario field: {}",
            e.path,
            text
        );
    }
    Ok(())
}

/// Parse and validate a document; the property holds; returns the scenario if it validates.
fn parse_and_validate(text: &str) -> Result<Option<(Scenario, u64)>, TestCaseError> {
    let sc = match Scenario::from_json(text) {
        Ok(sc) => sc,
        Err(e) => return check_error(&e).map(|_| None),
    };
    match sc.validate() {
        Ok(net) => {
            let (flows, _) = sc.workload_flows(&net);
            prop_assert!(flows <= MAX_FLOWS);
            Ok(Some((sc, flows)))
        }
        Err(e) => check_error(&e).map(|_| None),
    }
}

/// Simulate a validated scenario under tight limits (at most this many flows; bigger ones are
/// valid, just too slow for a fuzz case).
fn run_briefly(sc: &Scenario, flows: u64, single_thread: bool) -> Result<(), TestCaseError> {
    if flows > 5_000 {
        return Ok(());
    }
    let limits = RunLimits {
        max_events: Some(5_000),
        max_wall: Some(Duration::from_millis(100)),
        progress_every: None,
        single_thread,
        jobs: None,
    };
    match run(sc, &limits) {
        Ok(rep) => {
            prop_assert!(rep.flows.total <= flows);
            // the result always serialises (the CLI expects it to)
            prop_assert!(serde_json::to_string(&rep).is_ok());
        }
        Err(SimError::Limit(_)) => {}
        Err(SimError::Scenario(e)) => {
            prop_assert!(false, "run refused what validate accepted: {}", e)
        }
        Err(SimError::Engine(m)) => prop_assert!(false, "engine error: {}", m),
    }
    Ok(())
}

// ---- structure-aware mutations of the bundled examples ----

fn examples() -> &'static [(String, Value)] {
    static EX: std::sync::OnceLock<Vec<(String, Value)>> = std::sync::OnceLock::new();
    EX.get_or_init(|| {
        let dir = format!("{}/examples", env!("CARGO_MANIFEST_DIR"));
        let mut v: Vec<_> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == "json"))
            .collect();
        v.sort();
        v.into_iter()
            .map(|p| {
                let name = p.file_name().unwrap().to_string_lossy().into_owned();
                (
                    name,
                    serde_json::from_str(&std::fs::read_to_string(&p).unwrap()).unwrap(),
                )
            })
            .collect()
    })
}

#[derive(Clone, Debug)]
enum Seg {
    Key(String),
    Index(usize),
}

/// Every path in `v` (the root included).
fn paths(v: &Value, here: &mut Vec<Seg>, out: &mut Vec<Vec<Seg>>) {
    out.push(here.clone());
    match v {
        Value::Object(o) => {
            for (k, x) in o {
                here.push(Seg::Key(k.clone()));
                paths(x, here, out);
                here.pop();
            }
        }
        Value::Array(a) => {
            for (i, x) in a.iter().enumerate() {
                here.push(Seg::Index(i));
                paths(x, here, out);
                here.pop();
            }
        }
        _ => {}
    }
}

fn get_mut<'v>(v: &'v mut Value, path: &[Seg]) -> Option<&'v mut Value> {
    let mut cur = v;
    for s in path {
        cur = match (s, cur) {
            (Seg::Key(k), Value::Object(o)) => o.get_mut(k)?,
            (Seg::Index(i), Value::Array(a)) => a.get_mut(*i)?,
            _ => return None,
        };
    }
    Some(cur)
}

/// Every string value in the document (node ids, link ids, rack names: references to reuse).
fn strings(v: &Value, out: &mut Vec<String>) {
    match v {
        Value::String(s) => out.push(s.clone()),
        Value::Array(a) => a.iter().for_each(|x| strings(x, out)),
        Value::Object(o) => o.values().for_each(|x| strings(x, out)),
        _ => {}
    }
}

/// One mutation, its target and its random material chosen by index/selector.
#[derive(Clone, Debug)]
enum Mutation {
    /// Remove the key or array element.
    Delete,
    /// Replace with an arbitrary JSON value (usually of another type).
    Replace(Value),
    /// Replace with an edge number (0, -1, 1e308, u64::MAX, ...).
    Number(Value),
    /// Replace with an empty array, object or string, or null.
    Empty(u8),
    /// Duplicate an array element (duplicate ids) or clear the array.
    Duplicate(prop::sample::Index),
    /// Replace with a string used elsewhere in the document (dangling / wrong-kind reference)
    /// or from the format's vocabulary.
    Reference(prop::sample::Index, String),
    /// Add a key of the format to an object (possibly where it does not belong).
    AddKey(String, Value),
    /// Give every occurrence of the picked key the value of the picked one (every server in
    /// one logical rack, every link from one node, every node with one role, ...).
    SameAll,
}

fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        1 => Just(Mutation::Delete),
        1 => json_value().prop_map(Mutation::Replace),
        6 => edge_number().prop_map(Mutation::Number),
        1 => (0u8..4).prop_map(Mutation::Empty),
        2 => any::<prop::sample::Index>().prop_map(Mutation::Duplicate),
        3 => (any::<prop::sample::Index>(), json_string()).prop_map(|(i, s)| Mutation::Reference(i, s)),
        2 => (proptest::sample::select(VOCAB), prop_oneof![edge_number(), json_value()])
            .prop_map(|(k, v)| Mutation::AddKey(k.to_string(), v)),
        1 => Just(Mutation::SameAll),
    ]
}

/// Apply `m` at the path picked by `at`: half of the picks go to paths outside
/// `network.nodes`/`network.links` (workload, routing, engine: few paths, many checks).
fn mutate(doc: &mut Value, at: prop::sample::Index, focus: bool, m: &Mutation) {
    let mut all = Vec::new();
    paths(doc, &mut Vec::new(), &mut all);
    // a mutation that keeps the type goes where that type is (numbers, strings, arrays,
    // objects), so that most mutated documents still parse and reach validation
    let fits = |v: &Value| match m {
        Mutation::Number(_) => v.is_number(),
        Mutation::Reference(..) => v.is_string(),
        Mutation::Duplicate(_) => v.is_array(),
        Mutation::AddKey(..) => v.is_object(),
        Mutation::SameAll => !v.is_object() && !v.is_array(),
        _ => true,
    };
    let pool: Vec<&Vec<Seg>> = all
        .iter()
        .filter(|p| {
            !focus || !matches!(p.first(), Some(Seg::Key(k)) if k == "network") || p.len() < 2
        })
        .filter(|p| get_mut(&mut doc.clone(), p).is_some_and(|v| fits(v)))
        .collect();
    if pool.is_empty() {
        return;
    }
    let path = at.get(&pool).to_vec();
    let mut refs = Vec::new();
    strings(doc, &mut refs);
    match m {
        Mutation::Delete => {
            let Some((last, parent)) = path.split_last() else {
                *doc = Value::Null;
                return;
            };
            match (last, get_mut(doc, parent)) {
                (Seg::Key(k), Some(Value::Object(o))) => {
                    o.remove(k);
                }
                (Seg::Index(i), Some(Value::Array(a))) => {
                    a.remove(*i);
                }
                _ => {}
            }
        }
        Mutation::Replace(v) | Mutation::Number(v) => {
            if let Some(x) = get_mut(doc, &path) {
                *x = v.clone();
            }
        }
        Mutation::Empty(k) => {
            if let Some(x) = get_mut(doc, &path) {
                *x = match k {
                    0 => Value::Array(Vec::new()),
                    1 => Value::Object(Map::new()),
                    2 => Value::String(String::new()),
                    _ => Value::Null,
                };
            }
        }
        Mutation::Duplicate(i) => {
            if let Some(Value::Array(a)) = get_mut(doc, &path) {
                if a.is_empty() || i.index(8) == 0 {
                    a.clear();
                } else {
                    let x = i.get(a).clone();
                    a.push(x);
                }
            }
        }
        Mutation::Reference(i, s) => {
            if let Some(x) = get_mut(doc, &path) {
                *x = Value::String(if refs.is_empty() || s.len() % 2 == 1 {
                    s.clone()
                } else {
                    i.get(&refs).clone()
                });
            }
        }
        Mutation::AddKey(k, v) => {
            if let Some(Value::Object(o)) = get_mut(doc, &path) {
                o.insert(k.clone(), v.clone());
            }
        }
        Mutation::SameAll => {
            let (Some(Seg::Key(key)), Some(v)) = (path.last(), get_mut(doc, &path).cloned()) else {
                return;
            };
            fn set_all(x: &mut Value, key: &str, v: &Value) {
                match x {
                    Value::Object(o) => {
                        for (k, y) in o.iter_mut() {
                            if k == key {
                                *y = v.clone();
                            } else {
                                set_all(y, key, v);
                            }
                        }
                    }
                    Value::Array(a) => a.iter_mut().for_each(|y| set_all(y, key, v)),
                    _ => {}
                }
            }
            set_all(doc, key, &v);
        }
    }
}

proptest! {
    #![proptest_config(config(3_000))]

    /// Any text at all: invalid UTF-8 is out of reach (`&str`), everything else is an error
    /// with a position or a field, never a panic.
    #[test]
    fn fuzz_arbitrary_text(text in prop_oneof![any::<String>(), "[\\[\\]{}\":,0-9a-z.eE+ -]{0,64}"]) {
        parse_and_validate(&text)?;
    }

    /// Arbitrary JSON values (nested, unicode, edge numbers) as the whole document.
    #[test]
    fn fuzz_arbitrary_json(v in json_value()) {
        parse_and_validate(&v.to_string())?;
    }

    /// Documents with the scenario's top-level keys holding arbitrary JSON.
    #[test]
    fn fuzz_scenario_shaped_json(v in scenario_shaped()) {
        parse_and_validate(&v.to_string())?;
    }
}

proptest! {
    #![proptest_config(config(1_000))]

    /// Structure-aware mutations of the bundled examples: 1 to 4 mutations (delete a key,
    /// another type, edge numbers, empty containers, duplicate ids, dangling references, huge
    /// counts, misplaced keys), then parse, validate, and simulate briefly what validates.
    #[test]
    fn fuzz_mutated_examples(
        ex in any::<prop::sample::Index>(),
        muts in proptest::collection::vec(
            (any::<prop::sample::Index>(), any::<bool>(), mutation()), 1..4),
        single_thread in any::<bool>(),
    ) {
        let mut doc = ex.get(examples()).1.clone();
        for (at, focus, m) in &muts {
            mutate(&mut doc, *at, *focus, m);
        }
        if let Some((sc, flows)) = parse_and_validate(&doc.to_string())? {
            run_briefly(&sc, flows, single_thread)?;
        }
    }
}

/// The examples themselves pass through the same property (and run).
#[test]
fn fuzz_harness_accepts_the_examples() {
    for (name, doc) in examples() {
        let got = parse_and_validate(&doc.to_string()).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(got.is_some(), "{name} does not validate");
    }
}

// ---- regressions: the minimal inputs of what the fuzz found, with the exact error ----

/// A small valid scenario: one ToR, two servers (logical rack `R`), one spine; `workload` and
/// `engine` spliced in as JSON text.
fn tiny(workload: &str, engine: &str) -> String {
    format!(
        r#"{{"schema_version": 1,
            "network": {{"nodes": [
                {{"id": "T", "role": "tor", "logical_rack": "R"}},
                {{"id": "SP", "role": "spine"}},
                {{"id": "S1", "role": "server", "logical_rack": "R"}},
                {{"id": "S2", "role": "server", "logical_rack": "R"}}],
              "links": [{{"a": "S1", "b": "T", "gbps": 10}}, {{"a": "S2", "b": "T", "gbps": 10}},
                        {{"a": "T", "b": "SP", "gbps": 40}}]}},
            "workload": {workload}, "engine": {engine}}}"#
    )
}

#[track_caller]
fn refused(text: &str, path: &str, message: &str) {
    let sc = Scenario::from_json(text).expect("parses");
    let e = sc.validate().expect_err("must be refused");
    assert_eq!((e.path.as_str(), e.message.as_str()), (path, message));
    // and `run` refuses it the same way, before simulating anything
    match run(&sc, &RunLimits::default()) {
        Err(SimError::Scenario(r)) => assert_eq!(r, e),
        other => panic!("run did not refuse: {:?}", other.map(|_| ())),
    }
}

#[test]
fn tiny_scenario_is_valid() {
    let sc = Scenario::from_json(&tiny(r#"{"type": "permutation", "bytes": 1000}"#, "{}")).unwrap();
    assert_eq!(sc.validate().unwrap().servers.len(), 2);
}

/// Found: memcache whose server racks hold every server and no `clients` list panicked in the
/// workload generator (`index out of bounds: the len is 0` picking a client).
#[test]
fn memcache_without_clients_is_refused() {
    refused(
        &tiny(r#"{"type": "memcache", "server_racks": ["R"]}"#, "{}"),
        "workload.server_racks",
        "every server is in a server rack, so no client is left (give \"clients\" or fewer racks)",
    );
}

/// Found: a Poisson arrival rate so low that arrivals land at the end of the engine's clock
/// overflowed the utilisation buckets (`attempt to multiply with overflow` in
/// `engine/util.rs`, wrapped silently in release builds).
#[test]
fn arrivals_beyond_the_horizon_are_refused() {
    refused(
        &tiny(
            r#"{"type": "random", "flows": 2, "bytes": 1000, "rate_per_s": 1e-300}"#,
            "{}",
        ),
        "workload.rate_per_s",
        "2 arrivals at 1e-300 per second span about 2.000e300 s, beyond the 1000000 s the engine simulates",
    );
    refused(
        &tiny(
            r#"{"type": "query", "fan_in": 1, "response_bytes": 10, "queries": 3, "rate_per_s": 1e-300}"#,
            "{}",
        ),
        "workload.rate_per_s",
        "3 arrivals at 1e-300 per second span about 3.000e300 s, beyond the 1000000 s the engine simulates",
    );
    refused(
        &tiny(
            r#"{"type": "memcache", "server_racks": ["R"], "clients": ["S1"], "requests": 1, "rate_per_s": 1e-300}"#,
            "{}",
        ),
        "workload.rate_per_s",
        "1 arrivals at 1e-300 per second span about 1.000e300 s, beyond the 1000000 s the engine simulates",
    );
    refused(
        &tiny(
            r#"{"type": "poisson", "cdf": "websearch", "load": 1e-300, "flows": 1}"#,
            "{}",
        ),
        "workload.load",
        "1 arrivals at 1.4609203798392988e-297 per second span about 6.845e296 s, \
         beyond the 1000000 s the engine simulates",
    );
}

/// Found: a failure recovering at `1e308` s put an event at the end of the clock (same
/// overflow); every time in a scenario is now at most `MAX_TIME_S`.
#[test]
fn times_beyond_the_horizon_are_refused() {
    let perm = r#"{"type": "permutation", "bytes": 1000}"#;
    refused(
        &tiny(perm, r#"{"failures": [{"at_s": 0.001, "node": "SP", "recover_at_s": 1e308}]}"#),
        "engine.failures[0].recover_at_s",
        "must be at most 1000000 s (the longest simulated time), got 100000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000",
    );
    refused(
        &tiny(perm, r#"{"stop_time_s": 2e6}"#),
        "engine.stop_time_s",
        "must be at most 1000000 s (the longest simulated time), got 2000000",
    );
    refused(
        &tiny(
            r#"{"type": "shuffle", "bytes_per_pair": 1, "start_s": 1e7}"#,
            "{}",
        ),
        "workload.start_s",
        "must be at most 1000000 s (the longest simulated time), got 10000000",
    );
    assert_eq!(MAX_TIME_S, 1e6);
}

/// A flow count beyond `MAX_FLOWS` is refused up front instead of being allocated (a
/// `"flows": 18446744073709551615` would have grown the flow list until the process aborted).
#[test]
fn absurd_flow_counts_are_refused() {
    refused(
        &tiny(
            r#"{"type": "random", "flows": 18446744073709551615, "bytes": 1000}"#,
            "{}",
        ),
        "workload.flows",
        "the workload would generate 18446744073709551615 flows, more than the limit of 10000000",
    );
    refused(
        &tiny(
            r#"{"type": "many_to_many", "senders": ["S1"], "receivers": ["S2"], "flows_per_pair": 4294967295, "bytes": 1}"#,
            "{}",
        ),
        "workload.flows_per_pair",
        "the workload would generate 4294967295 flows, more than the limit of 10000000",
    );
    refused(
        &tiny(
            r#"{"type": "query", "fan_in": 1, "response_bytes": 10, "queries": 4294967295}"#,
            "{}",
        ),
        "workload.queries",
        "the workload would generate 4294967295 flows, more than the limit of 10000000",
    );
    refused(
        &tiny(
            r#"{"type": "memcache", "server_racks": ["R"], "clients": ["S1"], "requests": 4294967295}"#,
            "{}",
        ),
        "workload.requests",
        "the workload would generate 8589934590 flows, more than the limit of 10000000",
    );
    assert_eq!(MAX_FLOWS, 10_000_000);
}

/// A document that is an array would be read as the struct's fields in order, with errors at
/// paths like `[0]` naming no field.
#[test]
fn array_documents_are_refused() {
    let e = Scenario::from_json(r#"[1, {"nodes": [], "links": []}]"#).unwrap_err();
    assert_eq!(e.path, "");
    assert_eq!(
        e.message,
        "a scenario is a JSON object ({\"schema_version\": 1, ...}), got an array"
    );
}

/// Deep nesting stops at serde_json's recursion limit with an error, not a stack overflow.
#[test]
fn deep_nesting_is_an_error() {
    let deep = format!(
        r#"{{"schema_version": 1, "name": {}{}}}"#,
        "[".repeat(100_000),
        "]".repeat(100_000)
    );
    let e = Scenario::from_json(&deep).unwrap_err();
    assert_eq!(e.path, "name");
    let deep = format!("{}{}", "{\"a\": ".repeat(100_000), "}".repeat(100_000));
    assert!(Scenario::from_json(&deep).is_err());
}

/// Found (issue 26's engine error): a link of 1e-300 Gb/s passed validation and left flows at
/// rate 0 (the solver's tolerances are partly absolute). Capacities are refused outside 0.001 to
/// 10^6 Gb/s, the goodput factor (which scales every capacity) below 0.01; the bounds themselves
/// are accepted.
#[test]
fn link_capacities_the_solver_cannot_resolve_are_refused() {
    let wl = r#"{"type": "permutation", "bytes": 1000}"#;
    for (gbps, shown) in [
        ("1e-300", "1e-300"),
        ("0.0009", "0.0009"),
        ("1.5e6", "1500000.0"),
    ] {
        refused(
            &tiny(wl, "{}").replace(r#""gbps": 40"#, &format!(r#""gbps": {gbps}"#)),
            "network.links[2].gbps",
            &format!("capacity must be from 0.001 to 1000000 Gb/s, got {shown}"),
        );
    }
    refused(
        &tiny(wl, r#"{"goodput_factor": 0.009}"#),
        "engine.goodput_factor",
        "must be from 0.01 to 1, got 0.009",
    );
    for (gbps, g) in [("0.001", "0.01"), ("1e6", "1")] {
        let text = tiny(wl, &format!(r#"{{"goodput_factor": {g}}}"#))
            .replace(r#""gbps": 40"#, &format!(r#""gbps": {gbps}"#));
        let sc = Scenario::from_json(&text).unwrap();
        assert!(sc.validate().is_ok(), "{gbps} Gb/s, goodput {g}");
    }
    assert_eq!((MIN_LINK_GBPS, MAX_LINK_GBPS), (1e-3, 1e6));
}

/// Found (issue 26's engine error): an incast with fixed senders and no receiver draws the
/// receiver among every server, so it could be a sender, which then "sent" to itself: a flow
/// with no link to cross, left at rate 0 for ever. A receiver does not send to itself: with
/// senders S1 and S2, each of the 10 queries has one flow, from the other one.
#[test]
fn an_incast_receiver_drawn_among_the_senders_does_not_send_to_itself() {
    let sc = Scenario::from_json(&tiny(
        r#"{"type": "incast", "senders": ["S1", "S2"], "response_bytes": 1000, "queries": 10}"#,
        "{}",
    ))
    .unwrap();
    let rep = run(&sc, &RunLimits::default()).expect("runs");
    assert_eq!((rep.flows.total, rep.flows.finished), (10, 10));
}
