//! The committed schema files match the types, and every bundled example runs.

use super::*;

#[test]
fn committed_schemas_are_current() {
    for which in ["scenario", "result", "validation"] {
        let path = format!("{}/schema/{which}.schema.json", env!("CARGO_MANIFEST_DIR"));
        let committed = std::fs::read_to_string(&path).unwrap();
        let generated = loopline_sim::schema_json(which).unwrap();
        assert_eq!(
            committed.trim(),
            generated.trim(),
            "regenerate with: loopline-sim schema {which} > {path}"
        );
    }
}

/// Each workload default is written once, as the engine's constant, and the committed scenario
/// schema carries it as its field's `"default"` (what the backend and the editor read).
#[test]
fn schema_defaults_are_the_engines_constants() {
    let path = format!("{}/schema/scenario.schema.json", env!("CARGO_MANIFEST_DIR"));
    let schema: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let variants = schema["definitions"]["WorkloadSpec"]["oneOf"]
        .as_array()
        .unwrap();
    let default_of = |kind: &str, field: &str| -> serde_json::Value {
        let v = variants
            .iter()
            .find(|v| v["properties"]["type"]["enum"][0] == kind)
            .unwrap_or_else(|| panic!("no variant {kind}"));
        v["properties"][field]["default"].clone()
    };
    use serde_json::json;
    assert_eq!(default_of("incast", "fan_in"), json!(DEFAULT_FAN_IN));
    assert_eq!(default_of("query", "fan_in"), json!(8));
    assert_eq!(
        default_of("incast", "queries"),
        json!(DEFAULT_INCAST_QUERIES)
    );
    assert_eq!(default_of("incast", "queries"), json!(1));
    assert_eq!(default_of("query", "queries"), json!(DEFAULT_QUERY_QUERIES));
    assert_eq!(default_of("query", "queries"), json!(100));
    assert_eq!(default_of("query", "rate_per_s"), json!(1000.0));
    assert_eq!(
        default_of("incast", "rate_per_s"),
        json!(DEFAULT_QUERY_RATE_PER_S)
    );
    assert_eq!(default_of("many_to_many", "flows_per_pair"), json!(1));
    assert_eq!(default_of("memcache", "request_bytes"), json!(100));
    assert_eq!(default_of("memcache", "response_bytes"), json!(100_000));
    assert_eq!(default_of("memcache", "rate_per_s"), json!(10_000.0));
    assert_eq!(default_of("memcache", "requests"), json!(1000));
    assert_eq!(default_of("memcache", "latency_bound_us"), json!(1000.0));
    // the defaults stay out of a scenario read without them: it writes back as it came
    let q: WorkloadSpec =
        serde_json::from_value(json!({"type": "incast", "response_bytes": 10})).unwrap();
    assert_eq!(
        serde_json::to_value(&q).unwrap(),
        json!({"type": "incast", "response_bytes": 10})
    );
    assert_eq!(q.query_count(), Some(1));
}

#[test]
fn every_example_validates_and_runs() {
    let dir = format!("{}/examples", env!("CARGO_MANIFEST_DIR"));
    let mut names: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    names.sort();
    let mut workloads = std::collections::BTreeSet::new();
    for p in names
        .iter()
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
    {
        let sc = Scenario::from_json(&std::fs::read_to_string(p).unwrap())
            .unwrap_or_else(|e| panic!("{p:?}: {e}"));
        workloads.insert(sc.workload.name());
        let rep = run_ok(&sc);
        assert_eq!(rep.flows.finished, rep.flows.total, "{p:?}");
        assert_eq!(rep.model, "fluid");
    }
    for w in [
        "shuffle",
        "permutation",
        "random",
        "all_to_all",
        "many_to_many",
        "incast",
        "query",
        "poisson",
        "memcache",
        "collective",
        "training_step",
    ] {
        assert!(workloads.contains(w), "no example for {w}");
    }
}

/// Memcache: the rate search is labelled as a queueing estimate and sits below saturation.
#[test]
fn memcache_estimate_is_labelled() {
    let text = std::fs::read_to_string(format!(
        "{}/examples/memcache.json",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap();
    let rep = run_ok(&Scenario::from_json(&text).unwrap());
    let m = rep.memcache.unwrap();
    assert!(m.model.contains("queueing estimate"));
    assert!(m.max_rate_per_s > 0.0 && m.max_rate_per_s < m.saturation_rate_per_s);
    assert!(m.mean_latency_us_at_max <= m.latency_bound_us * 1.000001);
    assert_eq!(rep.groups.unwrap().kind, "request");
}

/// Poisson: the generated load matches the target. Web search mean = 1,711,250 bytes (data file
/// header); 16 servers x 10 Gb/s at 50% load = 80 Gb/s = 5844 flows/s, so 4000 flows span ~0.684 s.
#[test]
fn poisson_arrivals_match_target_load() {
    use loopline_sim::topology::*;
    let sc = scenario(
        star(16, 10.0),
        RoutingSpec::Ecmp,
        WorkloadSpec::Poisson(PoissonSpec {
            cdf: CdfSpec::Named("websearch".into()),
            load: 0.5,
            flows: 4000,
            servers: None,
            inter_rack_only: false,
        }),
    );
    let net = sc.validate().unwrap();
    let wl = loopline_sim::workload::generate(&sc.workload, &net, 1);
    let last = wl
        .flows
        .iter()
        .map(|f| f.arrival)
        .max()
        .unwrap()
        .as_secs_f64();
    let bytes: u64 = wl.flows.iter().map(|f| f.bytes.0).sum();
    let load = bytes as f64 * 8.0 / last / 160e9;
    assert!((load - 0.5).abs() < 0.1, "offered load {load}");
    let cdf = CdfSpec::Named("websearch".into()).to_cdf().unwrap();
    assert_approx(cdf.mean(), 1_711_250.0, 1e-9);
}
