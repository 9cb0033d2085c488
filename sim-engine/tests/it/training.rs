//! Training steps (issue 31): gradient buckets all-reduced as the backward pass makes them
//! ready, overlapped with the rest of it, step after step. Times derived by hand in the
//! comments; flow mode has no latency terms here (links of 0 ns).

use super::*;
use loopline_sim::topology::*;

fn training(
    gradient_bytes: u64,
    bucket_bytes: u64,
    forward_s: f64,
    backward_s: f64,
    iterations: u32,
    model: CollectiveModel,
) -> WorkloadSpec {
    WorkloadSpec::TrainingStep(TrainingStepSpec {
        servers: None,
        gradient_bytes,
        bucket_bytes,
        forward_s,
        backward_s,
        iterations,
        algorithm: CollectiveAlgorithm::Ring,
        model,
        software_latency: true,
    })
}

/// Communication much faster than compute: 4 servers at 100 Gb/s on one switch, a 100 MB
/// gradient in 4 buckets of 25 MB, forward 0.1 s, backward 0.4 s. Bucket b is ready at 0.1 +
/// 0.1 (b + 1) s; its ring all-reduce takes 2(n-1)/n x 25 MB / 100 Gb/s = 3 ms, done long before
/// the next bucket is ready; the step is F + B + the last bucket's all-reduce = 0.503 s, and 3
/// steps take 3 x 0.503 s, each 0.503 s. Exposed communication 3 ms; each bucket's algbw 2e8
/// bits / 3 ms = 66.67 Gb/s, busbw x 1.5 = 100 Gb/s. Both models.
#[test]
fn a_step_is_compute_plus_the_last_buckets_all_reduce_when_communication_is_fast() {
    for model in [CollectiveModel::Pipelined, CollectiveModel::Steps] {
        let w = training(100_000_000, 25_000_000, 0.1, 0.4, 3, model);
        let rep = run_ok(&scenario(star(4, 100.0), RoutingSpec::Ecmp, w));
        assert_eq!(rep.workload, "training_step");
        assert_eq!(rep.flows.finished, rep.flows.total);
        let per_bucket = if model == CollectiveModel::Pipelined {
            8
        } else {
            24
        };
        assert_eq!(rep.flows.total, 3 * 4 * per_bucket);
        let t = rep.training.expect("a training object");
        assert_eq!((t.iterations, t.buckets), (3, 4));
        assert_approx(t.step_time_s.unwrap(), 0.503, 1e-12);
        assert_eq!(t.step_times_s.len(), 3);
        for s in &t.step_times_s {
            assert_approx(s.unwrap(), 0.503, 1e-12);
        }
        assert_approx(t.compute_s, 0.5, 1e-15);
        assert_approx(t.exposed_communication_s.unwrap(), 0.003, 1e-9);
        assert_approx(t.algbw_gbps.unwrap(), 2e8 / 0.003 / 1e9, 1e-12);
        assert_approx(t.busbw_gbps.unwrap(), 100.0, 1e-12);
        assert_approx(rep.job_completion_s.unwrap(), 3.0 * 0.503, 1e-12);
    }
}

/// Compute ~0: the buckets' all-reduces run one after the other, and the step is their sum. A
/// 90 MB gradient in buckets of 25 MB: 25, 25, 25 and 15 MB, 3 + 3 + 3 + 1.8 ms = 10.8 ms over 4
/// servers at 100 Gb/s; 2 steps take 21.6 ms.
#[test]
fn with_no_compute_a_step_is_the_sum_of_the_bucket_all_reduces() {
    let w = training(
        90_000_000,
        25_000_000,
        0.0,
        0.0,
        2,
        CollectiveModel::Pipelined,
    );
    let rep = run_ok(&scenario(star(4, 100.0), RoutingSpec::Ecmp, w));
    let t = rep.training.unwrap();
    assert_eq!(t.buckets, 4);
    assert_approx(t.step_time_s.unwrap(), 0.0108, 1e-12);
    assert_approx(t.step_times_s[0].unwrap(), 0.0108, 1e-12);
    assert_approx(t.step_times_s[1].unwrap(), 0.0108, 1e-12);
    assert_approx(t.exposed_communication_s.unwrap(), 0.0108, 1e-12);
    assert_approx(rep.job_completion_s.unwrap(), 0.0216, 1e-12);
    // every bucket runs at the NICs' speed: busbw 100 Gb/s
    assert_approx(t.busbw_gbps.unwrap(), 100.0, 1e-12);
}

/// Buckets queue behind each other when the all-reduce is slower than the backward pass makes
/// them: 4 servers at 10 Gb/s, a 4 MB gradient in 1 MB buckets, forward 1 ms, backward 2 ms
/// (ready at 1.5, 2, 2.5, 3 ms). A 1 MB all-reduce takes 1.5 x 8e6 / 10e9 = 1.2 ms: done at
/// 2.7, then 3.9, 5.1, 6.3 ms. The step is 6.3 ms, 3 ms of compute and 3.3 ms exposed.
#[test]
fn buckets_wait_for_the_previous_all_reduce() {
    let w = training(
        4_000_000,
        1_000_000,
        1e-3,
        2e-3,
        1,
        CollectiveModel::Pipelined,
    );
    let rep = run_ok(&scenario(star(4, 10.0), RoutingSpec::Ecmp, w));
    let t = rep.training.unwrap();
    assert_approx(t.step_time_s.unwrap(), 6.3e-3, 1e-12);
    assert_approx(t.exposed_communication_s.unwrap(), 3.3e-3, 1e-9);
}

/// Packet mode agrees with flow mode within 10 % on the step time of a small GPU cluster: 2
/// servers of 4 GPUs, rail-only, 25 Gb/s NICs, 200 Gb/s interconnect links, 1 us cables, an 8 MB
/// gradient in 2 MB buckets, forward 1 ms, backward 2 ms, hierarchical pipelined all-reduce
/// (planning packet profile). Flow mode (no latency terms): a bucket's all-reduce is the
/// reduce-scatter inside each server (3/4 x 2 MB at 200 Gb/s: 60 us), the rail all-reduce of
/// each GPU's 0.5 MB shard over 2 servers (two 0.25 MB phases at 25 Gb/s: 160 us) and the
/// all-gather inside (60 us): 280 us, less than the 500 us between buckets, so the step is
/// F + B + 280 us = 3.28 ms, plus NCCL's software latency (48 us, below). Measured before that
/// latency was modelled: flow 3.28 ms, packet 3.3326 ms (+1.6 %: each flow's handshake, slow
/// start and 1 us hops).
#[test]
fn packet_mode_agrees_with_flow_mode_on_a_small_clusters_step_time() {
    let mut net = gpu_cluster(&GpuCluster {
        servers: 2,
        rails: 4,
        su_size: 2,
        nic_gbps: 25.0,
        nvlink_gbps: 200.0,
        spines: 0,
        spine_links: 1,
        spine_gbps: 25.0,
        latency_ns: 0,
    });
    for l in &mut net.links {
        l.latency_ns = 1000;
    }
    let mut w = training(
        8_000_000,
        2_000_000,
        1e-3,
        2e-3,
        1,
        CollectiveModel::Pipelined,
    );
    if let WorkloadSpec::TrainingStep(t) = &mut w {
        t.algorithm = CollectiveAlgorithm::Hierarchical;
    }
    let sc = scenario(net, RoutingSpec::Ecmp, w);
    let f = run_ok(&sc).training.unwrap().step_time_s.unwrap();
    // and NCCL's software latency of the last bucket's all-reduce: 8.4 us once, 3 + 3 steps
    // inside the servers at 3.4 us, 2 across at 9.6 us: 48 us
    assert_approx(f, 3.328e-3, 1e-9);
    let mut psc = sc.clone();
    psc.engine.mode = Mode::Packet;
    let rep = run_ok(&psc);
    assert_eq!(rep.flows.finished, rep.flows.total);
    let p = rep.training.unwrap().step_time_s.unwrap();
    eprintln!("training step, 2 x 4 GPUs: flow {f} s, packet {p} s");
    assert!(p >= f && p <= 1.1 * f, "packet {p} s against flow {f} s");
}

/// Bad fields are refused naming them; decomposed mode refuses the workload.
#[test]
fn training_fields_are_validated_naming_the_field() {
    let check = |w: WorkloadSpec, path: &str, words: &str| {
        let e = scenario(star(4, 10.0), RoutingSpec::Ecmp, w)
            .validate()
            .unwrap_err();
        assert_eq!(e.path, path, "{e}");
        assert!(e.message.contains(words), "{e}");
    };
    let m = CollectiveModel::Pipelined;
    check(
        training(0, 10, 0.0, 0.0, 1, m),
        "workload.gradient_bytes",
        "> 0",
    );
    check(
        training(100, 0, 0.0, 0.0, 1, m),
        "workload.bucket_bytes",
        "> 0",
    );
    check(
        training(100, 3, 0.0, 0.0, 1, m),
        "workload.bucket_bytes",
        "at least a byte per rank (4)",
    );
    check(
        training(101, 10, 0.0, 0.0, 1, m),
        "workload.gradient_bytes",
        "the smallest of 11 buckets has 1 bytes",
    );
    check(
        training(100, 10, -1.0, 0.0, 1, m),
        "workload.forward_s",
        ">= 0",
    );
    check(
        training(100, 10, 0.0, f64::NAN, 1, m),
        "workload.backward_s",
        ">= 0",
    );
    check(
        training(100, 10, 0.0, 0.0, 0, m),
        "workload.iterations",
        "at least 1",
    );
    check(
        training(100, 10, 1e5, 1e5, 10, m),
        "workload.iterations",
        "exceed",
    );
    let mut w = training(100, 10, 0.0, 0.0, 1, m);
    if let WorkloadSpec::TrainingStep(t) = &mut w {
        t.algorithm = CollectiveAlgorithm::Hierarchical;
    }
    check(w, "workload.servers", "needs GPU ranks");
    let mut sc = scenario(
        star(4, 10.0),
        RoutingSpec::Ecmp,
        training(100, 10, 0.0, 0.0, 1, m),
    );
    sc.engine.mode = Mode::Decomposed;
    let e = sc.validate().unwrap_err();
    assert_eq!(e.path, "workload.type", "{e}");
    assert!(e.message.contains("training step"), "{e}");
}

/// The JSON form with its defaults: bucket 25,000,000 bytes, 1 iteration, ring, pipelined.
#[test]
fn training_parses_with_its_defaults() {
    let doc = r#"{"schema_version": 1,
        "network": {"nodes": [{"id": "SW", "role": "tor"},
            {"id": "A", "role": "server"}, {"id": "B", "role": "server"}],
          "links": [{"a": "A", "b": "SW", "gbps": 100}, {"a": "B", "b": "SW", "gbps": 100}]},
        "workload": {"type": "training_step", "gradient_bytes": 50000000,
                     "forward_s": 0.01, "backward_s": 0.02}}"#;
    let sc = Scenario::from_json(doc).unwrap();
    let WorkloadSpec::TrainingStep(t) = &sc.workload else {
        panic!("not a training step")
    };
    assert_eq!(
        (t.bucket_bytes, t.iterations, t.algorithm, t.model),
        (
            25_000_000,
            1,
            CollectiveAlgorithm::Ring,
            CollectiveModel::Pipelined
        )
    );
    // 2 buckets ready at 20 and 30 ms; each all-reduce of 25 MB over 2 ranks at 100 Gb/s is
    // 2 x 1/2 x 2e8 bits / 100e9 = 2 ms: the step is 32 ms
    let t = run_ok(&sc).training.unwrap();
    assert_approx(t.step_time_s.unwrap(), 0.032, 1e-12);
}

/// `validate --json` counts a training step's flows exactly and their bytes: the example (2
/// servers x 2 GPUs, hierarchical pipelined, 100 MB in 4 buckets of 25 MB, 2 steps). Per bucket:
/// a reduce-scatter and an all-gather flow per GPU inside each server (2 x 4), a rail
/// all-reduce of 2 phases over 2 servers per rail (2 x 2 x 2): 16 flows, 128 in all. Bytes per
/// bucket: inside, every GPU sends 12.5 MB per phase (8 x 12.5 MB); across, every GPU sends
/// 6.25 MB per phase (8 x 6.25 MB): 150 MB, 1.2 GB in all. The defaults left out are listed.
#[test]
fn validate_json_counts_training_flows_and_bytes() {
    let text = std::fs::read_to_string(format!(
        "{}/examples/training_step.json",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap();
    let doc: serde_json::Value = serde_json::from_str(&text).unwrap();
    let sc = Scenario::from_json(&text).unwrap();
    let net = sc.validate().unwrap();
    let v = loopline_sim::preflight::summarize(&sc, &net, Some(&doc["workload"]));
    assert_eq!(v.workload.flows, 128);
    assert!(v.workload.flows_exact);
    assert_eq!(v.workload.bytes, 1.2e9);
    assert!(v.workload.defaults_applied.is_empty());
    let mut w = doc["workload"].clone();
    let o = w.as_object_mut().unwrap();
    for k in [
        "bucket_bytes",
        "iterations",
        "algorithm",
        "model",
        "software_latency",
    ] {
        o.remove(k);
    }
    let mut d2 = doc.clone();
    d2["workload"] = w.clone();
    let sc = Scenario::from_json(&d2.to_string()).unwrap();
    let v = loopline_sim::preflight::summarize(&sc, &net, Some(&w));
    let mut fields: Vec<(String, serde_json::Value)> = v
        .workload
        .defaults_applied
        .iter()
        .map(|d| (d.field.clone(), d.value.clone()))
        .collect();
    fields.sort_by(|a, b| a.0.cmp(&b.0));
    assert_eq!(
        fields,
        vec![
            ("workload.algorithm".to_string(), serde_json::json!("ring")),
            (
                "workload.bucket_bytes".to_string(),
                serde_json::json!(25_000_000)
            ),
            ("workload.iterations".to_string(), serde_json::json!(1)),
            ("workload.model".to_string(), serde_json::json!("pipelined")),
            (
                "workload.software_latency".to_string(),
                serde_json::json!(true)
            ),
        ]
    );
}
