//! The CLI: version, validation messages naming the field, packet mode, output formats.

use std::process::Command;

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_loopline-sim"))
}

static N: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);

fn write(name: &str, text: &str) -> std::path::PathBuf {
    let n = N.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
    let name = format!("{n}-{name}");
    let dir = std::env::temp_dir().join(format!("loopline-sim-it-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p
}

const GOOD: &str = r#"{"schema_version": 1,
 "network": {"nodes": [{"id": "A", "role": "server"}, {"id": "B", "role": "server"}, {"id": "T", "role": "tor"}],
             "links": [{"a": "A", "b": "T", "gbps": 10}, {"a": "B", "b": "T", "gbps": 10}]},
 "workload": {"type": "shuffle", "bytes_per_pair": 1250000}}"#;

#[test]
fn version_flag() {
    let out = bin().arg("--version").output().unwrap();
    assert!(out.status.success());
    assert_eq!(
        String::from_utf8(out.stdout).unwrap().trim(),
        format!("loopline-sim {}", loopline_sim::VERSION)
    );
}

#[test]
fn validate_and_run_good_scenario() {
    let p = write("good.json", GOOD);
    assert!(bin().arg("validate").arg(&p).status().unwrap().success());
    let out = bin()
        .args(["run", "--no-run-info"])
        .arg(&p)
        .output()
        .unwrap();
    assert!(out.status.success());
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["model"], "fluid");
    assert_eq!(
        v["note"],
        "fluid estimate: tails, incast and latency bounds need packet mode"
    );
    // 1e7 bits at 10 Gb/s
    assert_eq!(v["job_completion_s"], 0.001);
    assert!(v.get("run_info").is_none());
    let out = bin().arg("run").arg(&p).output().unwrap();
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(v["run_info"]["wall_time_s"].is_number());
    let one = bin()
        .args(["run", "--no-run-info", "--single-thread"])
        .arg(&p)
        .output()
        .unwrap();
    assert!(one.status.success());
    let v1: serde_json::Value = serde_json::from_slice(&one.stdout).unwrap();
    assert_eq!(v1["job_completion_s"], 0.001);
}

fn fails_with(text: &str, needle: &str) {
    let p = write("bad.json", text);
    for cmd in ["validate", "run"] {
        let out = bin().arg(cmd).arg(&p).output().unwrap();
        assert!(!out.status.success());
        let err = String::from_utf8(out.stderr).unwrap();
        assert!(
            err.contains(needle),
            "{cmd}: {err:?} should contain {needle:?}"
        );
    }
}

#[test]
fn bad_scenarios_name_the_field() {
    fails_with(
        &GOOD.replace(
            r#""b": "T", "gbps": 10}, {"a": "B""#,
            r#""b": "X", "gbps": 10}, {"a": "B""#,
        ),
        r#"network.links[0].b: unknown node "X""#,
    );
    fails_with(
        &GOOD.replace(r#""gbps": 10}]"#, r#""gbps": 0}]"#),
        "network.links[1].gbps",
    );
    fails_with(
        &GOOD.replace(r#""bytes_per_pair": 1250000"#, r#""bytes_per_pair": "x""#),
        "workload.bytes_per_pair",
    );
    fails_with(
        &GOOD.replace(
            r#""id": "B", "role": "server""#,
            r#""id": "A", "role": "server""#,
        ),
        r#"network.nodes[1].id: duplicate node id "A""#,
    );
    // a link id equal to another link's default name ("A|T#0") is a duplicate too
    fails_with(
        &GOOD.replace(
            r#"{"a": "B", "b": "T", "gbps": 10}"#,
            r#"{"a": "B", "b": "T", "gbps": 10, "id": "A|T#0"}"#,
        ),
        r#"network.links[1].id: duplicate link id "A|T#0""#,
    );
    fails_with(
        &GOOD.replace(
            r#""bytes_per_pair": 1250000}"#,
            r#""bytes_per_pair": 1, "servers": ["A", "T"]}"#,
        ),
        r#"workload.servers[1]: node "T" is not a server"#,
    );
    fails_with(
        &GOOD.replace(
            r#""workload""#,
            r#""engine": {"failures": [{"at_s": 1, "node": "Q"}]}, "workload""#,
        ),
        r#"engine.failures[0].node: unknown node "Q""#,
    );
}

/// Packet mode runs through the CLI with the same result document (`model` "packet", a
/// `packet` object, progress lines); bad settings are refused naming the field.
#[test]
fn packet_mode_runs_and_bad_settings_name_the_field() {
    let text = GOOD.replace(
        r#""workload""#,
        r#""engine": {"mode": "packet"}, "workload""#,
    );
    let p = write("packet.json", &text);
    let out = bin()
        .args(["run", "--no-run-info", "--progress"])
        .arg(&p)
        .output()
        .unwrap();
    assert!(out.status.success());
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["model"], "packet");
    assert_eq!(
        v["note"],
        "packet-level simulation: TCP with drop-tail queues (see sim-engine/README.md)"
    );
    assert_eq!(v["flows"]["finished"], 2);
    assert_eq!(v["packet"]["transport"], "newreno");
    assert_eq!(v["packet"]["mtu_bytes"], 1500);
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("done: sim_time_s="), "{err}");
    // failures are simulated in packet mode (tests/it/packet.rs); a bad one names its field
    fails_with(
        &text.replace(
            r#""mode": "packet""#,
            r#""mode": "packet", "failures": [{"at_s": 1, "node": "T", "link": "x"}]"#,
        ),
        "engine.failures[0]: give exactly one of \"link\" and \"node\"",
    );
    fails_with(
        &text.replace(
            r#""mode": "packet""#,
            r#""mode": "packet", "packet": {"header_bytes": 1500}"#,
        ),
        "engine.packet.header_bytes: must be less than mtu_bytes (1500), got 1500",
    );
    fails_with(
        &text.replace(
            r#""mode": "packet""#,
            r#""mode": "packet", "packet": {"transport": "quic"}"#,
        ),
        "engine.packet.transport: unknown variant `quic`",
    );
}

/// `run --seeds`: one result per seed, several at a time, each byte for byte the result of a run
/// of its own with that seed; with -o the name's `{seed}` is replaced.
#[test]
fn seeds_run_in_parallel_give_the_sequential_bytes() {
    let mut sc = loopline_sim::topology::fat_tree_websearch(4, 10.0, 0.5, 400);
    let p = write("seeds.json", &serde_json::to_string(&sc).unwrap());
    let out = bin()
        .args(["run", "--no-run-info", "--seeds", "1..3", "--jobs", "2"])
        .arg(&p)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 3);
    let dir = p.parent().unwrap().to_path_buf();
    let template = dir.join("seed-{seed}.json");
    let status = bin()
        .args(["run", "--no-run-info", "--seeds", "3,1,2", "-o"])
        .arg(&template)
        .arg(&p)
        .status()
        .unwrap();
    assert!(status.success());
    for (k, seed) in [1u64, 2, 3].iter().enumerate() {
        sc.engine.seed = *seed;
        let one = write("one-seed.json", &serde_json::to_string(&sc).unwrap());
        let alone = bin()
            .args(["run", "--no-run-info"])
            .arg(&one)
            .output()
            .unwrap();
        let alone = String::from_utf8(alone.stdout).unwrap();
        assert_eq!(lines[k], alone.trim_end(), "seed {seed}");
        let file = std::fs::read_to_string(dir.join(format!("seed-{seed}.json"))).unwrap();
        assert_eq!(file, alone, "seed {seed}");
    }
    // runs with different seeds differ (the test would pass vacuously otherwise)
    assert_ne!(lines[0], lines[1]);
    let bad = bin()
        .args(["run", "--seeds", "1,x"])
        .arg(&p)
        .output()
        .unwrap();
    assert_eq!(bad.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("--seeds"));
}

/// `gen` covers leaf-spine, VL2, conventional trees, GRIN, Type 0 and Type 2 besides fat-tree and
/// Subways: every generated scenario validates and runs, with the shape asked for.
#[test]
fn gen_covers_every_topology_family() {
    let cases: [(&[&str], usize, usize); 6] = [
        // (args, servers, links)
        (
            &[
                "leaf-spine",
                "--tors",
                "3",
                "--servers-per-tor",
                "2",
                "--spines",
                "2",
            ],
            6,
            6 + 6,
        ),
        (
            &[
                "vl2",
                "--tors",
                "4",
                "--servers-per-tor",
                "2",
                "--aggs",
                "2",
                "--intermediates",
                "2",
            ],
            8,
            8 + 8 + 4,
        ),
        (
            &[
                "tree",
                "--pods",
                "2",
                "--tors",
                "2",
                "--servers-per-tor",
                "2",
                "--aggs-per-pod",
                "2",
                "--cores",
                "1",
            ],
            8,
            8 + 8 + 4,
        ),
        (
            &[
                "grin",
                "--tors",
                "2",
                "--servers-per-tor",
                "2",
                "--spines",
                "1",
                "--degree",
                "1",
            ],
            4,
            4 + 2 + 2,
        ),
        (
            &[
                "type0",
                "--racks",
                "3",
                "--servers-per-rack",
                "2",
                "--spines",
                "2",
            ],
            6,
            12 + 6,
        ),
        (
            &[
                "type2",
                "--racks",
                "4",
                "--servers-per-rack",
                "2",
                "--spines",
                "1",
                "--clusters",
                "2",
                "--cores",
                "2",
            ],
            8,
            16 + 4 + 4,
        ),
    ];
    for (args, servers, links) in cases {
        let out = bin()
            .arg("gen")
            .args(args)
            .args(["--bytes-per-pair", "10000"])
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        let nodes = v["network"]["nodes"].as_array().unwrap();
        let n_servers = nodes.iter().filter(|n| n["role"] == "server").count();
        assert_eq!(n_servers, servers, "{args:?}");
        assert_eq!(
            v["network"]["links"].as_array().unwrap().len(),
            links,
            "{args:?}"
        );
        match args[0] {
            "vl2" => assert_eq!(v["routing"]["type"], "vlb"),
            "grin" => assert_eq!(v["routing"]["type"], "grin"),
            "type2" => {
                // loop positions 0..3 alternate between the two clusters
                let tors: Vec<_> = nodes.iter().filter(|n| n["role"] == "tor").collect();
                assert!(tors.iter().all(|t| t["loop"] == 0));
                let clusters: Vec<i64> = tors
                    .iter()
                    .map(|t| t["cluster"].as_i64().unwrap())
                    .collect();
                assert_eq!(clusters, [0, 1, 0, 1]);
            }
            "type0" => assert!(nodes.iter().all(|n| n.get("loop").is_none())),
            _ => {}
        }
        let p = write("gen.json", &String::from_utf8(out.stdout).unwrap());
        let run = bin()
            .args(["run", "--no-run-info"])
            .arg(&p)
            .output()
            .unwrap();
        assert!(
            run.status.success(),
            "{args:?}: {}",
            String::from_utf8_lossy(&run.stderr)
        );
        let r: serde_json::Value = serde_json::from_slice(&run.stdout).unwrap();
        assert_eq!(r["flows"]["unfinished"], 0, "{args:?}");
    }
}

/// `gen` output as JSON, or the failure's exit code and stderr.
fn gen(args: &[&str]) -> Result<serde_json::Value, (i32, String)> {
    let out = bin().arg("gen").args(args).output().unwrap();
    if out.status.success() {
        Ok(serde_json::from_slice(&out.stdout).unwrap())
    } else {
        Err((
            out.status.code().unwrap_or(-1),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        ))
    }
}

fn grin_cables(v: &serde_json::Value) -> Vec<(String, String)> {
    v["network"]["links"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|l| l["id"].as_str().is_some_and(|i| i.starts_with("GRIN.")))
        .map(|l| {
            (
                l["a"].as_str().unwrap().into(),
                l["b"].as_str().unwrap().into(),
            )
        })
        .collect()
}

/// Issue 26 item 5: the generators can express the experiments. `--routing` and `--job-racks`
/// on any topology (a 4-rack shuffle with detours on a 12-rack Type 2 loop: the 8 servers of
/// L0..L3, 8 x 7 = 56 flows, all finish); `gen vl2` has the servers asked for (10 ToRs x 20);
/// `gen grin` cables servers inside their rack, every server with its neighbours (5 a rack at
/// degree 1: (0,2), (1,3) and, the odd one out, (2,4); 4 a rack at degree 2: the ring; at degree
/// 3 the ring and both diagonals, K4), and `--active-fraction` keeps round(0.5 x 8) = 4 of the
/// 8 servers in the permutation; impossible requests exit 2 naming the flag.
#[test]
fn gen_options_set_routing_job_size_active_servers_and_grin_within_racks() {
    let v = gen(&[
        "type2",
        "--racks",
        "12",
        "--servers-per-rack",
        "2",
        "--spines",
        "2",
        "--routing",
        "detour",
        "--job-racks",
        "4",
        "--bytes-per-pair",
        "100000",
    ])
    .unwrap();
    assert_eq!(v["routing"]["type"], "detour");
    let job: Vec<String> = (0..4)
        .flat_map(|r| (0..2).map(move |j| format!("L{r}.S{j}")))
        .collect();
    assert_eq!(v["workload"]["servers"], serde_json::json!(job));
    let p = write("job.json", &v.to_string());
    let run = bin()
        .args(["run", "--no-run-info"])
        .arg(&p)
        .output()
        .unwrap();
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let r: serde_json::Value = serde_json::from_slice(&run.stdout).unwrap();
    assert_eq!(
        (
            r["flows"]["total"].as_u64(),
            r["flows"]["finished"].as_u64()
        ),
        (Some(56), Some(56))
    );

    let v = gen(&[
        "vl2",
        "--tors",
        "10",
        "--servers-per-tor",
        "20",
        "--routing",
        "ecmp",
    ])
    .unwrap();
    let servers = v["network"]["nodes"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|n| n["role"] == "server")
        .count();
    assert_eq!(servers, 200);
    assert_eq!(v["routing"]["type"], "ecmp");

    let pairs = |v: &[(&str, &str)]| -> Vec<(String, String)> {
        v.iter()
            .map(|(a, b)| (a.to_string(), b.to_string()))
            .collect()
    };
    let v = gen(&[
        "grin",
        "--tors",
        "2",
        "--servers-per-tor",
        "5",
        "--spines",
        "1",
        "--degree",
        "1",
    ])
    .unwrap();
    assert_eq!(
        grin_cables(&v),
        pairs(&[
            ("S0.0", "S0.2"),
            ("S0.1", "S0.3"),
            ("S0.2", "S0.4"),
            ("S1.0", "S1.2"),
            ("S1.1", "S1.3"),
            ("S1.2", "S1.4")
        ])
    );
    let v = gen(&[
        "grin",
        "--tors",
        "1",
        "--servers-per-tor",
        "4",
        "--spines",
        "1",
        "--degree",
        "2",
    ])
    .unwrap();
    assert_eq!(
        grin_cables(&v),
        pairs(&[
            ("S0.0", "S0.1"),
            ("S0.1", "S0.2"),
            ("S0.2", "S0.3"),
            ("S0.0", "S0.3")
        ])
    );
    let v = gen(&[
        "grin",
        "--tors",
        "1",
        "--servers-per-tor",
        "4",
        "--spines",
        "1",
        "--degree",
        "3",
    ])
    .unwrap();
    assert_eq!(
        grin_cables(&v),
        pairs(&[
            ("S0.0", "S0.1"),
            ("S0.1", "S0.2"),
            ("S0.2", "S0.3"),
            ("S0.0", "S0.3"),
            ("S0.0", "S0.2"),
            ("S0.1", "S0.3")
        ])
    );

    let v = gen(&[
        "grin",
        "--tors",
        "2",
        "--servers-per-tor",
        "4",
        "--spines",
        "1",
        "--active-fraction",
        "0.5",
        "--seed",
        "7",
    ])
    .unwrap();
    assert_eq!(v["engine"]["seed"], 7);
    let active: Vec<&str> = v["workload"]["servers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s.as_str().unwrap())
        .collect();
    assert_eq!(active.len(), 4);
    let order: Vec<String> = (0..2)
        .flat_map(|t| (0..4).map(move |j| format!("S{t}.{j}")))
        .collect();
    let pos: Vec<usize> = active
        .iter()
        .map(|a| order.iter().position(|o| o == a).unwrap())
        .collect();
    assert!(pos.windows(2).all(|w| w[0] < w[1]), "{active:?}");

    for (args, needle) in [
        (&["type2", "--racks", "12", "--job-racks", "13"][..], "--job-racks 13: the network has 12 logical racks (give 1 to 12)"),
        (&["grin", "--servers-per-tor", "3", "--degree", "3"][..], "--degree 3: rack \"R0\" has 3 servers, so a server has at most 2 GRIN neighbours in it"),
        (&["grin", "--active-fraction", "0"][..], "--active-fraction: must be > 0 and at most 1, got 0"),
        (&["incast-free", "x"][..], "unrecognized subcommand"),
    ] {
        let (code, err) = gen(args).unwrap_err();
        assert_eq!(code, 2, "{args:?}");
        assert!(err.contains(needle), "{args:?}: {err}");
    }
}

/// `gen ... --packet linux` writes a packet-mode scenario whose settings are the Linux profile's
/// (every field explicit, the profile named), so the testbed case of the README is one command.
#[test]
fn gen_packet_sets_packet_mode_with_a_profile() {
    let v = gen(&[
        "type0",
        "--gbps",
        "0.5",
        "--uplink-gbps",
        "0.5",
        "--packet",
        "linux",
    ])
    .unwrap();
    assert_eq!(v["engine"]["mode"], "packet");
    let p = &v["engine"]["packet"];
    assert_eq!(p["profile"], "linux");
    assert_eq!(p["rto_min_ms"], 200.0);
    assert_eq!(p["initial_window_packets"], 10);
    assert_eq!(p["mtu_bytes"], 1538);
    let v = gen(&["type0", "--packet", "planning"]).unwrap();
    assert_eq!(v["engine"]["mode"], "packet");
    assert_eq!(v["engine"]["packet"]["rto_min_ms"], 1.0);
    assert!(v["engine"]["packet"].get("profile").is_none());
    assert_eq!(gen(&["type0", "--packet", "bsd"]).unwrap_err().0, 2);
}

/// `decompose`: the plan as JSON, batches of links into part files, their combination the bytes
/// of `run`, with progress lines that count links; a missing batch is refused naming it.
#[test]
fn decompose_plan_links_and_combine() {
    let gen = bin()
        .args(["gen", "fattree", "--k", "4", "--flows", "200"])
        .output()
        .unwrap();
    let mut sc: serde_json::Value = serde_json::from_slice(&gen.stdout).unwrap();
    sc["engine"]["mode"] = "decomposed".into();
    let p = write("decomposed.json", &sc.to_string());
    let plan = bin().args(["decompose", "plan"]).arg(&p).output().unwrap();
    assert!(plan.status.success());
    let plan: serde_json::Value = serde_json::from_slice(&plan.stdout).unwrap();
    // a k = 4 fat-tree: 16 hosts, 48 cables, 96 directed links
    assert_eq!(plan["flows"], 200);
    assert_eq!(plan["links_total"], 96);
    assert_eq!(
        plan["links_simulated"].as_u64().unwrap()
            + plan["links_clustered"].as_u64().unwrap()
            + plan["links_idle"].as_u64().unwrap(),
        96
    );
    let part = |b: &str| {
        let out = p.with_extension(format!("part{}", b.replace('/', "of")));
        let run = bin()
            .args(["decompose", "links", "--progress", "--batch", b])
            .arg(&p)
            .arg("-o")
            .arg(&out)
            .output()
            .unwrap();
        assert!(
            run.status.success(),
            "{}",
            String::from_utf8_lossy(&run.stderr)
        );
        // however short the batch, its last line counts every one of its links done
        let stderr = String::from_utf8(run.stderr).unwrap();
        let counts = stderr
            .lines()
            .last()
            .and_then(|l| l.strip_prefix("progress: links_done="))
            .and_then(|x| x.split_once(' '))
            .and_then(|(counts, _)| counts.split_once('/'))
            .map(|(d, t)| (d.to_string(), t.to_string()));
        let (done, total) = counts.expect("a last progress line");
        assert_eq!(done, total, "{stderr}");
        out
    };
    let (one, two) = (part("1/2"), part("2/2"));
    let combined = bin()
        .args(["decompose", "combine", "--no-run-info"])
        .arg(&p)
        .args([&two, &one])
        .output()
        .unwrap();
    assert!(combined.status.success());
    let run = bin()
        .args(["run", "--no-run-info", "--progress"])
        .arg(&p)
        .output()
        .unwrap();
    assert_eq!(combined.stdout, run.stdout);
    // progress lines count links (none if the run took less than a second), then the end
    let stderr = String::from_utf8(run.stderr).unwrap();
    let lines: Vec<&str> = stderr.lines().collect();
    let (last, before) = lines.split_last().unwrap();
    assert!(
        last.starts_with("done: ") && last.contains("flows_done=200/200"),
        "{stderr}"
    );
    assert!(
        before
            .iter()
            .all(|l| l.starts_with("progress: links_done=")),
        "{stderr}"
    );
    let missing = bin()
        .args(["decompose", "combine"])
        .arg(&p)
        .arg(&one)
        .output()
        .unwrap();
    assert_eq!(missing.status.code(), Some(2));
    assert_eq!(
        String::from_utf8(missing.stderr).unwrap().trim(),
        "error: parts: batch 2/2 is missing"
    );
}
