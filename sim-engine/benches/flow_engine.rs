//! Flow-engine benchmark (`cargo bench`). Each case runs in a child process (so that its peak
//! memory, VmHWM, is its own) several times; the median wall time is reported.
//!
//! (a) 1,024-server 3-tier FatTree (k = 16, 10G links), web-search Poisson traffic at 40% load,
//!     100,000 flows. Target: >= 100,000 flows/s, < 1 GB.
//! (b) all-to-all shuffle of 180 servers in one Subways Type 1 cluster (9 logical racks of 20
//!     servers, p = 2 x 25G, 4 spines, 100G uplinks): 32,220 flows of 15 MB. Target: < 1 s.
//!
//! (c) fixed cost of a large network: FatTree k = 32 (8,192 servers, 10G links), 10 web-search
//!     flows, no link series. Target: < 0.1 s and < 40 MB.
//! (d) FatTree k = 32, web-search Poisson at 40% load, 1,000,000 flows (not run by default: pass
//!     LOOPLINE_BENCH_CASES=d). Target: < 15 s and < 1 GB.
//!
//! (i) FatTree k = 64 (65,536 servers), web search at 40%, 1,000,000 flows. Target: < 30 s, < 1 GB.
//! (j) FatTree k = 96 (221,184 servers), the same 1,000,000 flows. Target: < 60 s, < 2 GB.
//! (k) fixed cost at k = 96: 10 flows. Target: < 1 s, < 500 MB.
//! Not run by default: LOOPLINE_BENCH_CASES=ijk (issue 32; (i) and (j) take minutes for 5 runs).
//!
//! (x) FatTree of any k and flow count (LOOPLINE_BENCH_K, LOOPLINE_BENCH_FLOWS), for profiling;
//! LOOPLINE_BENCH_PHASES=1 with LOOPLINE_BENCH_CASE=<case> times each phase of one run in this
//! process (validate, engine set-up, steps, report) and prints the peak memory after it.
//! Packet mode beside flow mode on the issue-18 scenarios, with the settings sim-engine/compare
//! matches to htsim (10G links with 1 us per hop, 150 kB switch ports, unbounded fair NICs,
//! 1,500-byte packets all payload and all full, 40-byte ACKs, a first flight of 11 and ssthresh
//! 100, RTO min 250 ms (3 s before the first sample) checked every 10 ms, handshake, same-time
//! events in scheduling order): the same work as htsim's in the comparison.
//! (e) flow mode and (f) packet mode on (i): FatTree k = 16 (1,024 servers), permutation of
//!     2 MB flows, per-flow ECMP. Target (packet): 2x htsim's wall time, memory no higher.
//! (g) flow mode and (h) packet mode on (ii): FatTree k = 8 (128 servers), web-search Poisson
//!     at 40% load, 2,000 flows.
//! Not run by default: LOOPLINE_BENCH_CASES=efgh.
//!
//! Environment: LOOPLINE_BENCH_RUNS (default 5), LOOPLINE_BENCH_CASE (a, b or c: run one case in
//! this process), LOOPLINE_BENCH_CASES (cases to run, default "abc").

use std::process::Command;
use std::time::Instant;

use loopline_sim::report::peak_memory_bytes;
use loopline_sim::scenario::{Mode, PermutationSpec, WorkloadSpec};
use loopline_sim::topology::{
    fat_tree_websearch, gpu_training_step, htsim_packet_settings, shuffle_all, subways_type1,
    Cluster,
};
use loopline_sim::{run, RunLimits, Scenario};

/// The issue-18 scenarios with htsim's settings; `packet` selects the mode.
fn issue18(i: bool, packet: bool) -> Scenario {
    let mut sc = if i {
        let mut sc = fat_tree_websearch(16, 10.0, 0.4, 10);
        sc.workload = WorkloadSpec::Permutation(PermutationSpec {
            servers: None,
            bytes: 2_000_000,
        });
        sc
    } else {
        fat_tree_websearch(8, 10.0, 0.4, 2_000)
    };
    for l in &mut sc.network.links {
        l.latency_ns = 1000;
    }
    if packet {
        sc.engine.mode = Mode::Packet;
        sc.engine.packet = htsim_packet_settings();
    }
    sc
}

fn case(name: &str) -> Scenario {
    match name {
        "a" => fat_tree_websearch(16, 10.0, 0.4, 100_000),
        "c" => fat_tree_websearch(32, 10.0, 0.4, 10),
        "d" => fat_tree_websearch(32, 10.0, 0.4, 1_000_000),
        "i" => fat_tree_websearch(64, 10.0, 0.4, 1_000_000),
        "j" => fat_tree_websearch(96, 10.0, 0.4, 1_000_000),
        "k" => fat_tree_websearch(96, 10.0, 0.4, 10),
        // any size, for profiling: LOOPLINE_BENCH_K (default 32), LOOPLINE_BENCH_FLOWS (100,000)
        "x" => {
            let env = |k: &str, d: u64| {
                std::env::var(k)
                    .ok()
                    .and_then(|v| v.parse().ok())
                    .unwrap_or(d)
            };
            fat_tree_websearch(
                env("LOOPLINE_BENCH_K", 32) as usize,
                10.0,
                0.4,
                env("LOOPLINE_BENCH_FLOWS", 100_000),
            )
        }
        // issue 31: one training step, 1 GB gradient on 4,096 GPUs in 25 MB buckets; 4 GB on
        // 32,768 in 100 MB buckets (in 25 MB ones it is 21 million flows, beyond MAX_FLOWS)
        "l" => gpu_training_step(512, 8, 32, 1_000_000_000, 25_000_000),
        "m" => gpu_training_step(4096, 8, 32, 4_000_000_000, 100_000_000),
        "e" => issue18(true, false),
        "f" => issue18(true, true),
        "g" => issue18(false, false),
        "h" => issue18(false, true),
        "b" => {
            let c = Cluster {
                racks: 9,
                servers_per_rack: 20,
                ports: 2,
                port_gbps: 25.0,
                spines: 4,
                uplink_gbps: 100.0,
            };
            let mut sc = shuffle_all(subways_type1(&c), 15_000_000);
            sc.engine.link_series = false;
            sc
        }
        _ => panic!("unknown case {name}"),
    }
}

/// Wall time of each phase of one run (`LOOPLINE_BENCH_PHASES=1`): where a fixed cost goes.
fn phases(sc: &Scenario) {
    use loopline_sim::engine::{Engine, FlowEngine};
    // peak memory (MB) once the scenario exists and after each phase: what a fixed cost is made of
    let peak_mb = || peak_memory_bytes().unwrap_or(0) as f64 / 1e6;
    let scenario_mb = peak_mb();
    let t = Instant::now();
    let net = sc.validate().expect("valid");
    let validate = t.elapsed().as_secs_f64();
    let validate_mb = peak_mb();
    std::thread::scope(|scope| {
        let t = Instant::now();
        let mut eng = FlowEngine::new(sc, &net);
        let new = t.elapsed().as_secs_f64();
        let new_mb = peak_mb();
        let t = Instant::now();
        eng.route_ahead(scope);
        let ahead = t.elapsed().as_secs_f64();
        let t = Instant::now();
        while eng.step() {}
        eng.close();
        let steps = t.elapsed().as_secs_f64();
        let steps_mb = peak_mb();
        let t = Instant::now();
        let rep = loopline_sim::report::build(&eng.outcome());
        let report = t.elapsed().as_secs_f64();
        println!(
            "PHASES validate={validate:.4} engine_new={new:.4} route_ahead_start={ahead:.4} \
             steps={steps:.4} report={report:.4} flows={} peak_bytes={}\n\
             PEAK_MB scenario={scenario_mb:.0} validate={validate_mb:.0} engine_new={new_mb:.0} \
             steps={steps_mb:.0} report={:.0}",
            rep.flows.total,
            peak_memory_bytes().unwrap_or(0),
            peak_mb()
        );
    });
}

fn child(name: &str) {
    let sc = case(name);
    if std::env::var("LOOPLINE_BENCH_PHASES").is_ok() {
        phases(&sc);
        return;
    }
    let (t0, cpu0) = (Instant::now(), thread_cpu_s());
    let rep = run(&sc, &RunLimits::default()).expect("runs");
    let wall = t0.elapsed().as_secs_f64();
    let main_cpu = thread_cpu_s() - cpu0;
    let pk = rep.packet.as_ref();
    // the solver's work is machine-independent: compare it across changes, not only wall time
    println!(
        "RESULT {name} wall_s={wall:.4} main_cpu_s={main_cpu:.4} flows={} finished={} events={} events_per_s={:.0} jct_s={:?} \
         fct_mean_s={:?} fct_p99_s={:?} peak_bytes={} rounds={} subflows_resolved={} \
         rate_changes={} drops={} timeouts={}",
        rep.flows.total,
        rep.flows.finished,
        rep.events_processed,
        rep.events_processed as f64 / wall,
        rep.job_completion_s,
        rep.flows.fct_s.mean,
        rep.flows.fct_s.p99,
        peak_memory_bytes().unwrap_or(0),
        rep.solver.rounds,
        rep.solver.subflows_resolved,
        rep.solver.rate_changes,
        pk.map_or(0, |p| p.drops),
        pk.map_or(0, |p| p.timeouts),
    );
}

/// CPU time of the calling thread (the event loop's), s: beside the wall time, it shows the
/// event loop's own work apart from waiting for a core on a busy machine (Linux schedstat; 0
/// where it cannot be read).
fn thread_cpu_s() -> f64 {
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|s| s.split_whitespace().next()?.parse::<u64>().ok())
        .map_or(0.0, |ns| ns as f64 * 1e-9)
}

fn main() {
    if let Ok(c) = std::env::var("LOOPLINE_BENCH_CASE") {
        child(&c);
        return;
    }
    let runs: usize = std::env::var("LOOPLINE_BENCH_RUNS")
        .ok()
        .and_then(|x| x.parse().ok())
        .unwrap_or(5);
    let exe = std::env::current_exe().expect("own path");
    let cases = std::env::var("LOOPLINE_BENCH_CASES").unwrap_or_else(|_| "abc".into());
    if std::env::var("LOOPLINE_BENCH_PHASES").is_ok() {
        eprintln!(
            "LOOPLINE_BENCH_PHASES needs LOOPLINE_BENCH_CASE=<case>: one run, in this process"
        );
        std::process::exit(2);
    }
    for name in [
        "a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l", "m", "x",
    ] {
        if !cases.contains(name) {
            continue;
        }
        let mut walls = Vec::new();
        let mut peak = 0u64;
        let mut flows = 0f64;
        let mut line = String::new();
        for _ in 0..runs {
            let out = Command::new(&exe)
                .env("LOOPLINE_BENCH_CASE", name)
                .output()
                .expect("child runs");
            let text = String::from_utf8_lossy(&out.stdout).to_string();
            let l = text
                .lines()
                .find(|l| l.starts_with("RESULT"))
                .expect("child prints a result")
                .to_string();
            let get = |k: &str| -> f64 {
                l.split_whitespace()
                    .find_map(|t| t.strip_prefix(&format!("{k}=")))
                    .unwrap()
                    .parse()
                    .unwrap()
            };
            walls.push(get("wall_s"));
            peak = peak.max(get("peak_bytes") as u64);
            flows = get("flows");
            line = l;
        }
        walls.sort_by(|a, b| a.total_cmp(b));
        let med = walls[walls.len() / 2];
        println!("case ({name}): {line}");
        println!(
            "case ({name}): median wall {med:.3} s over {runs} runs ({:.0} flows/s), peak memory {:.1} MB, walls {walls:?}; {}",
            flows / med,
            peak as f64 / 1e6,
            machine()
        );
    }
}

/// The machine beside each figure, so two readers can tell a machine from a regression: CPU
/// model, cores, cache sizes (Linux sysfs) and the load average when the case finished.
fn machine() -> String {
    let read = |p: &str| std::fs::read_to_string(p).unwrap_or_default();
    let cpuinfo = read("/proc/cpuinfo");
    let model = cpuinfo
        .lines()
        .find_map(|l| l.strip_prefix("model name"))
        .map(|m| m.trim_start_matches([' ', '\t', ':']).to_string())
        .unwrap_or_else(|| "unknown CPU".into());
    let cores = std::thread::available_parallelism().map_or(0, |n| n.get());
    let mut caches = Vec::new();
    for i in 0..8 {
        let dir = format!("/sys/devices/system/cpu/cpu0/cache/index{i}");
        let (level, kind, size) = (
            read(&format!("{dir}/level")),
            read(&format!("{dir}/type")),
            read(&format!("{dir}/size")),
        );
        if size.is_empty() {
            break;
        }
        let kind = match kind.trim() {
            "Data" => "d",
            "Instruction" => "i",
            _ => "",
        };
        caches.push(format!("L{}{kind} {}", level.trim(), size.trim()));
    }
    let load = read("/proc/loadavg");
    let load = load.split_whitespace().next().unwrap_or("?");
    format!(
        "{model}, {cores} cores, {}, load {load}",
        if caches.is_empty() {
            "caches unknown".into()
        } else {
            caches.join(" ")
        }
    )
}
