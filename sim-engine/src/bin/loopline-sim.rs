//! `loopline-sim`: thin CLI over the `loopline_sim` library.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use clap::{Parser, Subcommand};
use loopline_sim::{run_with_progress, RunLimits, Scenario, SimError};

#[derive(Parser)]
#[command(
    name = "loopline-sim",
    version,
    about = "Loopline datacenter network simulator (flow mode)"
)]
struct Cli {
    #[command(subcommand)]
    cmd: Cmd,
}

#[derive(Subcommand)]
enum Cmd {
    /// Check a scenario file (`-` or none: stdin); prints "ok" and a summary, or the offending
    /// field and exits 2.
    Validate {
        file: Option<PathBuf>,
        /// Print what the backend needs before a run as JSON (schema/validation.schema.json):
        /// flows, bytes and hops of the workload, the defaults applied, the links' names and the
        /// run-time estimate's inputs.
        #[arg(long)]
        json: bool,
    },
    /// Simulate a scenario; the result JSON goes to stdout or to -o FILE.
    Run {
        file: PathBuf,
        /// Write the result here instead of stdout.
        #[arg(short, long)]
        output: Option<PathBuf>,
        /// Progress lines on stderr (simulated time, flows done, events/s) about once a second.
        #[arg(long)]
        progress: bool,
        /// Omit the non-deterministic `run_info` object (wall time, peak memory).
        #[arg(long)]
        no_run_info: bool,
        /// Abort after this many seconds of wall time.
        #[arg(long)]
        max_wall_s: Option<f64>,
        /// Use one thread (by default a second one routes upcoming arrivals; same results).
        #[arg(long)]
        single_thread: bool,
        /// Run once per seed (comma-separated, or a range `1..5` inclusive), several at a time:
        /// one result per seed, the same bytes as separate runs. Results go to stdout one per
        /// line in seed order, or to -o FILE, which must contain `{seed}`.
        #[arg(long, conflicts_with = "progress")]
        seeds: Option<String>,
        /// Runs at a time with --seeds, or a decomposed run's link simulations at a time
        /// (default: the machine's cores).
        #[arg(long)]
        jobs: Option<usize>,
    },
    /// Decomposed mode in parts, for runs spread over machines: plan, simulate batches of
    /// links, combine the batches' parts into the result.
    Decompose {
        #[command(subcommand)]
        step: DecomposeStep,
    },
    /// Print a JSON Schema: `scenario`, `result` or `validation`.
    Schema { which: String },
    /// Print decomposed mode's measured error against packet mode: the largest per flow-size
    /// bucket (what every decomposed result carries) and the cases measured, as JSON.
    Calibration,
    /// Generate a scenario for a built-in topology (shuffle workload by default).
    Gen {
        #[command(subcommand)]
        topo: Gen,
        #[command(flatten)]
        opts: GenOpts,
    },
}

#[derive(Subcommand)]
enum DecomposeStep {
    /// What the run will do, as JSON: flows, links to simulate, clustered and idle, its cost.
    Plan { file: PathBuf },
    /// Simulate the links dealt to batch I of N (`--batch 2/8`) and write the part to -o FILE.
    Links {
        file: PathBuf,
        /// `I/N`: this batch, 1 to N, of N.
        #[arg(long)]
        batch: String,
        #[arg(short, long)]
        output: PathBuf,
        /// Progress lines on stderr (links done, events/s) about once a second.
        #[arg(long)]
        progress: bool,
        /// Link simulations at a time (default: the machine's cores).
        #[arg(long)]
        jobs: Option<usize>,
        /// Abort after this many seconds of wall time.
        #[arg(long)]
        max_wall_s: Option<f64>,
    },
    /// Combine the parts of batches 1..N into the result (stdout or -o FILE).
    Combine {
        file: PathBuf,
        parts: Vec<PathBuf>,
        #[arg(short, long)]
        output: Option<PathBuf>,
        /// Omit the non-deterministic `run_info` object.
        #[arg(long)]
        no_run_info: bool,
    },
}

/// A progress line: decomposed runs count links, the others flows.
fn progress_line(p: &loopline_sim::Progress) {
    match p.links {
        Some((done, total)) => eprintln!(
            "progress: links_done={done}/{total} events={} events_per_s={:.0}",
            p.events, p.events_per_s
        ),
        None => eprintln!(
            "progress: sim_time_s={:.6} flows_done={}/{} events={} events_per_s={:.0}",
            p.sim_time_s, p.flows_done, p.flows_total, p.events, p.events_per_s
        ),
    }
}

/// A validated decomposed scenario, or the exit status of its refusal.
fn read_decomposed(file: &PathBuf) -> Result<(Scenario, loopline_sim::network::Network), ExitCode> {
    let sc = read(file).map_err(|m| {
        eprintln!("error: {m}");
        ExitCode::from(2)
    })?;
    if sc.engine.mode != loopline_sim::scenario::Mode::Decomposed {
        eprintln!("error: invalid scenario: engine.mode: decompose needs \"decomposed\"");
        return Err(ExitCode::from(2));
    }
    let net = sc.validate().map_err(|e| {
        eprintln!("error: invalid scenario: {e}");
        ExitCode::from(2)
    })?;
    Ok((sc, net))
}

fn decompose(step: DecomposeStep) -> ExitCode {
    use loopline_sim::decomposed;
    match step {
        DecomposeStep::Plan { file } => {
            let (sc, net) = match read_decomposed(&file) {
                Ok(x) => x,
                Err(c) => return c,
            };
            let summary = decomposed::summarize(&sc, &net);
            println!(
                "{}",
                serde_json::to_string(&summary).expect("a plan serialises")
            );
            ExitCode::SUCCESS
        }
        DecomposeStep::Links {
            file,
            batch,
            output,
            progress,
            jobs,
            max_wall_s,
        } => {
            let parsed = batch
                .split_once('/')
                .and_then(|(i, n)| {
                    Some((
                        i.trim().parse::<usize>().ok()?,
                        n.trim().parse::<usize>().ok()?,
                    ))
                })
                .filter(|&(i, n)| (1..=n).contains(&i) && n <= 100_000);
            let Some((i, n)) = parsed else {
                eprintln!("error: --batch: expected I/N with 1 <= I <= N, got {batch:?}");
                return ExitCode::from(2);
            };
            let (sc, net) = match read_decomposed(&file) {
                Ok(x) => x,
                Err(c) => return c,
            };
            let limits = RunLimits {
                max_wall: max_wall_s.map(Duration::from_secs_f64),
                progress_every: progress.then_some(Duration::from_secs(1)),
                jobs,
                ..RunLimits::default()
            };
            let part = match decomposed::run_batch(&sc, &net, i, n, &limits, &mut progress_line) {
                Ok(p) => p,
                Err(e) => {
                    eprintln!("error: {e}");
                    return ExitCode::from(exit_code(&e));
                }
            };
            if progress {
                // the batch's last line, however short it was: every link done
                let events: u64 = part.links.iter().map(|l| l.events).sum();
                let k = part.links.len();
                eprintln!("progress: links_done={k}/{k} events={events}");
            }
            let written = std::fs::File::create(&output)
                .map_err(|e| e.to_string())
                .and_then(|f| {
                    let mut w = std::io::BufWriter::new(f);
                    serde_json::to_writer(&mut w, &part).map_err(|e| e.to_string())?;
                    w.flush().map_err(|e| e.to_string())
                });
            match written {
                Ok(()) => ExitCode::SUCCESS,
                Err(m) => {
                    eprintln!("error: cannot write {}: {m}", output.display());
                    ExitCode::from(1)
                }
            }
        }
        DecomposeStep::Combine {
            file,
            parts,
            output,
            no_run_info,
        } => {
            let t0 = std::time::Instant::now();
            let (sc, net) = match read_decomposed(&file) {
                Ok(x) => x,
                Err(c) => return c,
            };
            let mut read_parts = Vec::with_capacity(parts.len());
            for p in &parts {
                let part = std::fs::File::open(p)
                    .map_err(|e| format!("cannot read {}: {e}", p.display()))
                    .and_then(|f| {
                        serde_json::from_reader(std::io::BufReader::new(f))
                            .map_err(|e| format!("{}: not a part: {e}", p.display()))
                    });
                match part {
                    Ok(part) => read_parts.push(part),
                    Err(m) => {
                        eprintln!("error: {m}");
                        return ExitCode::from(2);
                    }
                }
            }
            let mut rep = match decomposed::combine_parts(&sc, &net, read_parts) {
                Ok(r) => r,
                Err(m) => {
                    eprintln!("error: parts: {m}");
                    return ExitCode::from(2);
                }
            };
            if !no_run_info {
                rep.run_info = Some(loopline_sim::report::RunInfo::measure(
                    t0.elapsed(),
                    rep.flows.total,
                ));
            }
            match write_report(&rep, output.as_ref()) {
                Ok(()) => ExitCode::SUCCESS,
                Err(m) => {
                    eprintln!("error: {m}");
                    ExitCode::from(1)
                }
            }
        }
    }
}

/// Options of every generator (after the topology's name).
#[derive(clap::Args)]
struct GenOpts {
    /// Routing scheme (default: the generator's own: ECMP, VLB for vl2, GRIN for grin), with
    /// its default parameters.
    #[arg(long, global = true, value_enum)]
    routing: Option<RoutingArg>,
    /// Job size: the workload runs among the servers of the first N logical racks.
    #[arg(long, global = true)]
    job_racks: Option<usize>,
    /// Keep this fraction of the job's servers active (a seeded draw), the rest idle.
    #[arg(long, global = true)]
    active_fraction: Option<f64>,
    /// The scenario's seed (engine.seed, and the draw of --active-fraction).
    #[arg(long, global = true, default_value_t = 1)]
    seed: u64,
    /// Packet mode with this profile's transport defaults (engine.packet.profile): planning,
    /// htsim or linux.
    #[arg(long, global = true, value_enum)]
    packet: Option<ProfileArg>,
}

#[derive(Clone, Copy, clap::ValueEnum)]
enum ProfileArg {
    Planning,
    Htsim,
    Linux,
}

impl ProfileArg {
    fn profile(self) -> loopline_sim::scenario::PacketProfile {
        use loopline_sim::scenario::PacketProfile as P;
        match self {
            ProfileArg::Planning => P::Planning,
            ProfileArg::Htsim => P::Htsim,
            ProfileArg::Linux => P::Linux,
        }
    }
}

#[derive(Clone, Copy, clap::ValueEnum)]
enum RoutingArg {
    Ecmp,
    Adaptive,
    /// size-aware placement on the path with the least queued work (reads flow sizes)
    // the scenario's name (clap would write `least-work`)
    #[value(name = "least_work")]
    LeastWork,
    Detour,
    Vlb,
    Grin,
}

impl RoutingArg {
    fn spec(self) -> loopline_sim::scenario::RoutingSpec {
        use loopline_sim::scenario::RoutingSpec as R;
        match self {
            RoutingArg::Ecmp => R::Ecmp,
            RoutingArg::Adaptive => R::Adaptive(Default::default()),
            RoutingArg::LeastWork => R::LeastWork(Default::default()),
            RoutingArg::Detour => R::Detour(Default::default()),
            RoutingArg::Vlb => R::Vlb,
            RoutingArg::Grin => R::Grin(Default::default()),
        }
    }
}

/// Apply the options every generator takes to its scenario.
fn apply_gen_opts(sc: &mut Scenario, o: &GenOpts) -> Result<(), String> {
    use loopline_sim::topology as topo;
    if let Some(r) = o.routing {
        sc.routing = r.spec();
    }
    sc.engine.seed = o.seed;
    if let Some(p) = o.packet {
        sc.engine.mode = loopline_sim::scenario::Mode::Packet;
        sc.engine.packet = loopline_sim::scenario::PacketSpec::for_profile(p.profile());
    }
    if let Some(n) = o.job_racks {
        topo::restrict_to_racks(sc, n)?;
    }
    if let Some(f) = o.active_fraction {
        topo::keep_active_fraction(sc, f, o.seed)?;
    }
    Ok(())
}

#[derive(Subcommand)]
enum Gen {
    /// A rail-optimized GPU cluster (1:1 spines) running one training step, hierarchical
    /// pipelined all-reduce in 25 MB buckets (issue 31's scale benchmark).
    Gpu {
        #[arg(long, default_value_t = 512)]
        servers: usize,
        #[arg(long, default_value_t = 8)]
        rails: usize,
        #[arg(long, default_value_t = 32)]
        su_size: usize,
        #[arg(long, default_value_t = 1_000_000_000)]
        gradient_bytes: u64,
        /// Bucket size (PyTorch DDP's bucket_cap_mb; default 25 MB).
        #[arg(long, default_value_t = loopline_sim::scenario::DEFAULT_BUCKET_BYTES)]
        bucket_bytes: u64,
    },
    /// k-ary 3-tier FatTree with a web-search Poisson workload.
    Fattree {
        #[arg(long, default_value_t = 4)]
        k: usize,
        #[arg(long, default_value_t = 10.0)]
        gbps: f64,
        #[arg(long, default_value_t = 0.4)]
        load: f64,
        #[arg(long, default_value_t = 1000)]
        flows: u64,
    },
    /// Subways Type 1 cluster (one loop) with an all-to-all shuffle.
    Subways {
        #[arg(long, default_value_t = 8)]
        racks: usize,
        #[arg(long, default_value_t = 4)]
        servers_per_rack: usize,
        #[arg(long, default_value_t = 2)]
        ports: usize,
        #[arg(long, default_value_t = 10.0)]
        gbps: f64,
        #[arg(long, default_value_t = 4)]
        spines: usize,
        #[arg(long, default_value_t = 40.0)]
        uplink_gbps: f64,
        #[arg(long, default_value_t = 15_000_000)]
        bytes_per_pair: u64,
    },
    /// Type 0 (single-homed: every port of a server to its own ToR, a LAG) with the hardware of
    /// `subways`, all-to-all shuffle.
    Type0 {
        #[command(flatten)]
        c: ClusterArgs,
    },
    /// Subways Type 2: the Type 1 loop with ToR i in cluster i mod --clusters, each cluster with
    /// --spines aggregation switches, joined by --cores cores; all-to-all shuffle.
    Type2 {
        #[command(flatten)]
        c: ClusterArgs,
        #[arg(long, default_value_t = 2)]
        clusters: usize,
        #[arg(long, default_value_t = 4)]
        cores: usize,
    },
    /// Leaf-spine (every leaf to every spine), all-to-all shuffle.
    LeafSpine {
        #[command(flatten)]
        t: TreeArgs,
        #[arg(long, default_value_t = 4)]
        spines: usize,
    },
    /// VL2: two uplinks per ToR to aggregation switches, each to every intermediate switch.
    Vl2 {
        #[command(flatten)]
        t: TreeArgs,
        #[arg(long, default_value_t = 4)]
        aggs: usize,
        #[arg(long, default_value_t = 4)]
        intermediates: usize,
    },
    /// Conventional 3-tier tree: pods of ToRs and aggregation switches under cores.
    Tree {
        #[command(flatten)]
        t: TreeArgs,
        #[arg(long, default_value_t = 2)]
        pods: usize,
        #[arg(long, default_value_t = 2)]
        aggs_per_pod: usize,
        #[arg(long, default_value_t = 2)]
        cores: usize,
    },
    /// GRIN on a leaf-spine: each server cabled to --degree servers of its own rack (leaf),
    /// GRIN routing, permutation of --bytes-per-pair per flow (with --active-fraction: among
    /// that share of the servers).
    Grin {
        #[command(flatten)]
        t: TreeArgs,
        #[arg(long, default_value_t = 4)]
        spines: usize,
        #[arg(long, default_value_t = 1)]
        degree: usize,
    },
}

/// Racks and speeds of a Subways-style cluster (`subways`, `type0`, `type2`).
#[derive(clap::Args)]
struct ClusterArgs {
    #[arg(long, default_value_t = 8)]
    racks: usize,
    #[arg(long, default_value_t = 4)]
    servers_per_rack: usize,
    #[arg(long, default_value_t = 2)]
    ports: usize,
    #[arg(long, default_value_t = 10.0)]
    gbps: f64,
    #[arg(long, default_value_t = 4)]
    spines: usize,
    #[arg(long, default_value_t = 40.0)]
    uplink_gbps: f64,
    #[arg(long, default_value_t = 15_000_000)]
    bytes_per_pair: u64,
}

impl ClusterArgs {
    fn cluster(&self) -> loopline_sim::topology::Cluster {
        loopline_sim::topology::Cluster {
            racks: self.racks,
            servers_per_rack: self.servers_per_rack,
            ports: self.ports,
            port_gbps: self.gbps,
            spines: self.spines,
            uplink_gbps: self.uplink_gbps,
        }
    }
}

/// ToRs, servers and speeds of a tree-like fabric (`leaf-spine`, `vl2`, `tree`, `grin`).
#[derive(clap::Args)]
struct TreeArgs {
    /// ToRs (per pod for `tree`).
    #[arg(long, default_value_t = 4)]
    tors: usize,
    #[arg(long, default_value_t = 8)]
    servers_per_tor: usize,
    #[arg(long, default_value_t = 10.0)]
    host_gbps: f64,
    #[arg(long, default_value_t = 40.0)]
    fabric_gbps: f64,
    #[arg(long, default_value_t = 15_000_000)]
    bytes_per_pair: u64,
}

/// Exit status of a failed run: 2 invalid scenario, 3 run limit reached, 4 engine error (a state
/// the engine refuses to report as a result).
fn exit_code(e: &SimError) -> u8 {
    match e {
        SimError::Scenario(_) => 2,
        SimError::Limit(_) => 3,
        SimError::Engine(_) => 4,
    }
}

fn read(file: &PathBuf) -> Result<Scenario, String> {
    let text = std::fs::read_to_string(file)
        .map_err(|e| format!("cannot read {}: {e}", file.display()))?;
    Scenario::from_json(&text).map_err(|e| format!("invalid scenario: {e}"))
}

/// The scenario's text from `file`, or from stdin for none or `-`.
fn read_text(file: Option<&PathBuf>) -> Result<String, String> {
    match file {
        Some(f) if f.as_os_str() != "-" => {
            std::fs::read_to_string(f).map_err(|e| format!("cannot read {}: {e}", f.display()))
        }
        _ => {
            let mut text = String::new();
            std::io::Read::read_to_string(&mut std::io::stdin(), &mut text)
                .map_err(|e| format!("cannot read stdin: {e}"))?;
            Ok(text)
        }
    }
}

/// `validate`: the one-line summary, or with `--json` the preflight document.
fn validate(file: Option<&PathBuf>, json: bool) -> ExitCode {
    let parsed = read_text(file).and_then(|text| {
        let sc = Scenario::from_json(&text).map_err(|e| format!("invalid scenario: {e}"))?;
        Ok((text, sc))
    });
    let (text, sc) = match parsed {
        Ok(p) => p,
        Err(m) => {
            eprintln!("error: {m}");
            return ExitCode::from(2);
        }
    };
    let net = match sc.validate() {
        Ok(net) => net,
        Err(e) => {
            eprintln!("error: invalid scenario: {e}");
            return ExitCode::from(2);
        }
    };
    if !json {
        println!(
            "ok: {} nodes ({} servers), {} links, routing {}, workload {}",
            net.nodes.len(),
            net.servers.len(),
            net.links.len() / 2,
            sc.routing.name(),
            sc.workload.name()
        );
        return ExitCode::SUCCESS;
    }
    // the workload object as given (the network is skipped, not kept): which defaults applied
    #[derive(serde::Deserialize)]
    struct Given {
        workload: Option<serde_json::Value>,
    }
    let given: Option<Given> = serde_json::from_str(&text).ok();
    drop(text);
    let summary = loopline_sim::preflight::summarize(
        &sc,
        &net,
        given.as_ref().and_then(|g| g.workload.as_ref()),
    );
    let out = serde_json::to_string(&summary).expect("validation serialises");
    match writeln!(std::io::stdout().lock(), "{out}") {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: cannot write stdout: {e}");
            ExitCode::from(1)
        }
    }
}

/// `1,2,7` or `1..5` (inclusive).
fn parse_seeds(list: &str) -> Result<Vec<u64>, String> {
    let bad = || format!("--seeds: expected seeds like 1,2,3 or 1..5, got {list:?}");
    if let Some((a, b)) = list.split_once("..") {
        let (a, b): (u64, u64) = (
            a.trim().parse().map_err(|_| bad())?,
            b.trim().parse().map_err(|_| bad())?,
        );
        if a > b || b - a >= 10_000 {
            return Err(format!("--seeds: {a}..{b} is empty or longer than 10,000"));
        }
        return Ok((a..=b).collect());
    }
    list.split(',')
        .map(|x| x.trim().parse().map_err(|_| bad()))
        .collect()
}

/// Write a result to `to` (stdout when `None`) as it is serialised: a k = 96 fat-tree's result
/// is 180 MB of JSON, which a string first would hold in memory a second time.
fn write_report(rep: &loopline_sim::Report, to: Option<&PathBuf>) -> Result<(), String> {
    match to {
        Some(p) => std::fs::File::create(p)
            .and_then(|f| write_json(rep, &mut std::io::BufWriter::new(f)))
            .map_err(|e| format!("cannot write {}: {e}", p.display())),
        None => write_json(rep, &mut std::io::stdout().lock())
            .map_err(|e| format!("cannot write stdout: {e}")),
    }
}

/// `rep` as one line of JSON on `w`, buffered, flushed.
fn write_json(rep: &loopline_sim::Report, w: &mut impl Write) -> std::io::Result<()> {
    let mut w = std::io::BufWriter::with_capacity(1 << 16, w);
    serde_json::to_writer(&mut w, rep)?;
    w.write_all(b"\n")?;
    w.flush()
}

/// `run --seeds`: one result per seed, several runs at a time.
fn run_many(
    sc: &Scenario,
    list: &str,
    jobs: Option<usize>,
    limits: &RunLimits,
    output: Option<PathBuf>,
    no_run_info: bool,
) -> ExitCode {
    let seeds = match parse_seeds(list) {
        Ok(s) => s,
        Err(m) => {
            eprintln!("error: {m}");
            return ExitCode::from(2);
        }
    };
    if let Some(p) = &output {
        if !p.to_string_lossy().contains("{seed}") {
            eprintln!("error: -o: with --seeds the file name must contain {{seed}}");
            return ExitCode::from(2);
        }
    }
    let jobs = jobs.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let mut code = ExitCode::SUCCESS;
    let mut out = std::io::stdout().lock();
    for (seed, res) in seeds
        .iter()
        .zip(loopline_sim::run_seeds(sc, &seeds, limits, jobs))
    {
        let mut rep = match res {
            Ok(r) => r,
            Err(e) => {
                eprintln!("error: seed {seed}: {e}");
                code = ExitCode::from(exit_code(&e));
                continue;
            }
        };
        if no_run_info {
            rep.run_info = None;
        }
        let written = match &output {
            Some(p) => write_report(
                &rep,
                Some(&PathBuf::from(
                    p.to_string_lossy().replace("{seed}", &seed.to_string()),
                )),
            ),
            None => write_json(&rep, &mut out).map_err(|e| format!("cannot write stdout: {e}")),
        };
        if let Err(m) = written {
            eprintln!("error: {m}");
            return ExitCode::from(1);
        }
    }
    code
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.cmd {
        Cmd::Validate { file, json } => validate(file.as_ref(), json),
        Cmd::Run {
            file,
            output,
            progress,
            no_run_info,
            max_wall_s,
            single_thread,
            seeds,
            jobs,
        } => {
            let sc = match read(&file) {
                Ok(s) => s,
                Err(m) => {
                    eprintln!("error: {m}");
                    return ExitCode::from(2);
                }
            };
            let mut limits = RunLimits {
                max_events: None,
                max_wall: max_wall_s.map(Duration::from_secs_f64),
                progress_every: progress.then_some(Duration::from_secs(1)),
                single_thread,
                jobs: None,
            };
            if let Some(list) = seeds {
                return run_many(&sc, &list, jobs, &limits, output, no_run_info);
            }
            limits.jobs = jobs;
            let res = run_with_progress(&sc, &limits, progress_line);
            let mut rep = match res {
                Ok(r) => r,
                Err(e) => {
                    eprintln!("error: {e}");
                    return ExitCode::from(exit_code(&e));
                }
            };
            if no_run_info {
                rep.run_info = None;
            }
            if progress {
                eprintln!(
                    "done: sim_time_s={:.6} flows_done={}/{} events={}",
                    rep.simulated_time_s, rep.flows.finished, rep.flows.total, rep.events_processed
                );
            }
            match write_report(&rep, output.as_ref()) {
                Ok(()) => ExitCode::SUCCESS,
                Err(m) => {
                    eprintln!("error: {m}");
                    ExitCode::from(1)
                }
            }
        }
        Cmd::Decompose { step } => decompose(step),
        Cmd::Calibration => {
            println!("{}", loopline_sim::decomposed::calibration::document());
            ExitCode::SUCCESS
        }
        Cmd::Schema { which } => match loopline_sim::schema_json(&which) {
            Some(s) => {
                println!("{s}");
                ExitCode::SUCCESS
            }
            None => {
                eprintln!("error: unknown schema \"{which}\" (scenario, result or validation)");
                ExitCode::from(2)
            }
        },
        Cmd::Gen { topo: which, opts } => {
            use loopline_sim::topology as topo;
            let sc = match which {
                Gen::Gpu {
                    servers,
                    rails,
                    su_size,
                    gradient_bytes,
                    bucket_bytes,
                } => {
                    if servers == 0 || rails == 0 || su_size == 0 {
                        eprintln!("error: --servers, --rails and --su-size must be at least 1");
                        return ExitCode::from(2);
                    }
                    topo::gpu_training_step(servers, rails, su_size, gradient_bytes, bucket_bytes)
                }
                Gen::Fattree {
                    k,
                    gbps,
                    load,
                    flows,
                } => loopline_sim::topology::fat_tree_websearch(k, gbps, load, flows),
                Gen::Subways {
                    racks,
                    servers_per_rack,
                    ports,
                    gbps,
                    spines,
                    uplink_gbps,
                    bytes_per_pair,
                } => {
                    let c = loopline_sim::topology::Cluster {
                        racks,
                        servers_per_rack,
                        ports,
                        port_gbps: gbps,
                        spines,
                        uplink_gbps,
                    };
                    loopline_sim::topology::shuffle_all(
                        loopline_sim::topology::subways_type1(&c),
                        bytes_per_pair,
                    )
                }
                Gen::Type0 { c } => topo::shuffle_all(topo::type0(&c.cluster()), c.bytes_per_pair),
                Gen::Type2 { c, clusters, cores } => topo::shuffle_all(
                    topo::subways_type2(&c.cluster(), clusters, cores),
                    c.bytes_per_pair,
                ),
                Gen::LeafSpine { t, spines } => topo::shuffle_all(
                    topo::leaf_spine(
                        t.tors,
                        t.servers_per_tor,
                        spines,
                        t.host_gbps,
                        t.fabric_gbps,
                    ),
                    t.bytes_per_pair,
                ),
                Gen::Vl2 {
                    t,
                    aggs,
                    intermediates,
                } => {
                    let mut sc = topo::shuffle_all(
                        topo::vl2(
                            t.tors,
                            t.servers_per_tor,
                            aggs,
                            intermediates,
                            t.host_gbps,
                            t.fabric_gbps,
                        ),
                        t.bytes_per_pair,
                    );
                    sc.routing = loopline_sim::scenario::RoutingSpec::Vlb;
                    sc
                }
                Gen::Tree {
                    t,
                    pods,
                    aggs_per_pod,
                    cores,
                } => topo::shuffle_all(
                    topo::tree(
                        pods,
                        t.tors,
                        t.servers_per_tor,
                        aggs_per_pod,
                        cores,
                        t.host_gbps,
                        t.fabric_gbps,
                    ),
                    t.bytes_per_pair,
                ),
                Gen::Grin { t, spines, degree } => {
                    let mut net = topo::leaf_spine(
                        t.tors,
                        t.servers_per_tor,
                        spines,
                        t.host_gbps,
                        t.fabric_gbps,
                    );
                    if let Err(m) = topo::add_grin_within_racks(&mut net, degree, t.host_gbps) {
                        eprintln!("error: {m}");
                        return ExitCode::from(2);
                    }
                    let mut sc = topo::shuffle_all(net, t.bytes_per_pair);
                    sc.routing = loopline_sim::scenario::RoutingSpec::Grin(Default::default());
                    sc.workload = loopline_sim::scenario::WorkloadSpec::Permutation(
                        loopline_sim::scenario::PermutationSpec {
                            servers: None,
                            bytes: t.bytes_per_pair,
                        },
                    );
                    sc
                }
            };
            let mut sc = sc;
            if let Err(m) = apply_gen_opts(&mut sc, &opts) {
                eprintln!("error: {m}");
                return ExitCode::from(2);
            }
            println!(
                "{}",
                serde_json::to_string_pretty(&sc).expect("scenario serialises")
            );
            ExitCode::SUCCESS
        }
    }
}
