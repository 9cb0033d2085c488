//! Loopline simulation engine (`loopline-sim`): fluid, weighted max-min fair flow simulation of
//! datacenter networks (servers, ToRs, aggregation, spine, core), with ECMP, Subways adaptive
//! (the design's spare-capacity draw), least-work and detour routing, VL2 VLB and GRIN multipath, link and switch failures, and a set of workloads.
//!
//! Entry point: [`run`]. See `README.md` and `schema/` for the formats.

pub mod decomposed;
pub mod engine;
pub mod model;
pub mod network;
pub mod packet;
pub mod preflight;
pub mod reachability;
pub mod report;
pub mod rng;
pub mod routing;
pub mod scenario;
#[cfg(any(test, feature = "testkit"))]
#[path = "../testkit/mod.rs"]
pub mod testkit;
pub mod units;
pub mod workload;

use std::fmt;
use std::time::{Duration, Instant};

pub use report::Report;
pub use scenario::{Scenario, ScenarioError};
/// The scenario builders of [`testkit`] under the path the CLI's `gen` and the tests use.
#[cfg(any(test, feature = "testkit"))]
pub use testkit::topology;

use engine::{Engine, FlowEngine};

/// Version string printed by `loopline-sim --version`.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");

/// Limits of one run (the worker also enforces its own time and memory limits).
#[derive(Clone, Debug, Default)]
pub struct RunLimits {
    /// Abort after this many events.
    pub max_events: Option<u64>,
    /// Abort after this much wall time.
    pub max_wall: Option<Duration>,
    /// Call the progress callback at most this often (default: never).
    pub progress_every: Option<Duration>,
    /// Do all the work on the calling thread (by default a helper thread routes upcoming
    /// arrivals ahead; results are the same either way).
    pub single_thread: bool,
    /// Decomposed mode: link simulations at a time (default: the machine's cores; results are
    /// the same whatever the number).
    pub jobs: Option<usize>,
}

/// A progress sample (for the CLI's stderr lines).
#[derive(Clone, Debug)]
pub struct Progress {
    pub sim_time_s: f64,
    pub flows_done: u64,
    pub flows_total: u64,
    pub events: u64,
    pub events_per_s: f64,
    /// Decomposed mode: link simulations finished and to run.
    pub links: Option<(u64, u64)>,
}

/// Why a run failed.
#[derive(Debug)]
pub enum SimError {
    /// The scenario is invalid.
    Scenario(ScenarioError),
    /// A run limit was hit.
    Limit(String),
    /// The engine reached a state it must not report as a result (flows left unfinished with
    /// no event to finish them); the message names the state.
    Engine(String),
}

impl fmt::Display for SimError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SimError::Scenario(e) => write!(f, "invalid scenario: {e}"),
            SimError::Limit(m) => write!(f, "run limit reached: {m}"),
            SimError::Engine(m) => write!(f, "engine error: {m}"),
        }
    }
}

impl std::error::Error for SimError {}

impl From<ScenarioError> for SimError {
    fn from(e: ScenarioError) -> Self {
        SimError::Scenario(e)
    }
}

/// Validate and simulate a scenario.
pub fn run(scenario: &Scenario, limits: &RunLimits) -> Result<Report, SimError> {
    run_with_progress(scenario, limits, |_| {})
}

/// [`run`] with a progress callback, called at most every `limits.progress_every`.
pub fn run_with_progress(
    scenario: &Scenario,
    limits: &RunLimits,
    mut progress: impl FnMut(&Progress),
) -> Result<Report, SimError> {
    let t0 = Instant::now();
    let net = scenario.validate()?;
    if scenario.engine.mode == scenario::Mode::Decomposed {
        let mut rep = decomposed::run(scenario, &net, limits, &mut progress)?;
        rep.run_info = Some(report::RunInfo::measure(t0.elapsed(), rep.flows.total));
        return Ok(rep);
    }
    let mut watch = Watch::new(limits, t0, &mut progress);
    let mut rep = if scenario.engine.mode == scenario::Mode::Packet {
        let mut eng = packet::PacketEngine::new(scenario, &net);
        drive(&mut eng, &mut watch)?;
        eng.report()
    } else {
        std::thread::scope(|scope| {
            let mut eng = FlowEngine::new(scenario, &net);
            if !limits.single_thread {
                eng.route_ahead(scope);
            }
            drive(&mut eng, &mut watch)?;
            Ok::<_, SimError>(report::build(&eng.outcome()))
        })?
    };
    rep.run_info = Some(report::RunInfo::measure(t0.elapsed(), rep.flows.total));
    Ok(rep)
}

/// The run loop of either engine: step to the end, looking at the limits and the progress clock
/// every [`Engine::LOOK_EVERY`] steps; then refuse a state that must not be reported, or close
/// the engine for its report.
fn drive<E: Engine, P: FnMut(&Progress)>(
    eng: &mut E,
    watch: &mut Watch<'_, P>,
) -> Result<(), SimError> {
    let mut steps = 0u64;
    while eng.step() {
        steps += 1;
        if steps % E::LOOK_EVERY == 0 {
            watch.look(eng.now(), eng.events(), eng.flows_done(), eng.flows_total())?;
        }
    }
    if let Some(m) = eng.stuck_flows() {
        return Err(SimError::Engine(m));
    }
    eng.close();
    Ok(())
}

/// The run limits and progress samples of an engine's loop, looked at every so many steps.
struct Watch<'a, P: FnMut(&Progress)> {
    limits: &'a RunLimits,
    t0: Instant,
    last: Instant,
    last_events: u64,
    progress: P,
}

impl<'a, P: FnMut(&Progress)> Watch<'a, P> {
    fn new(limits: &'a RunLimits, t0: Instant, progress: P) -> Self {
        Watch {
            limits,
            t0,
            last: Instant::now(),
            last_events: 0,
            progress,
        }
    }

    /// A limit passed is the run's error; a progress sample is due every `progress_every`.
    fn look(
        &mut self,
        now: units::Time,
        events: u64,
        flows_done: u64,
        flows_total: u64,
    ) -> Result<(), SimError> {
        if let Some(m) = self.limits.max_events {
            if events > m {
                return Err(SimError::Limit(format!("more than {m} events")));
            }
        }
        if let Some(w) = self.limits.max_wall {
            if self.t0.elapsed() > w {
                return Err(SimError::Limit(format!(
                    "more than {:.1} s of wall time",
                    w.as_secs_f64()
                )));
            }
        }
        if let Some(every) = self.limits.progress_every {
            let el = self.last.elapsed();
            if el >= every {
                (self.progress)(&Progress {
                    sim_time_s: now.as_secs_f64(),
                    flows_done,
                    flows_total,
                    events,
                    events_per_s: (events - self.last_events) as f64 / el.as_secs_f64(),
                    links: None,
                });
                self.last = Instant::now();
                self.last_events = events;
            }
        }
        Ok(())
    }
}

/// Run `scenario` once for each of `seeds` (its `engine.seed` replaced), on up to `jobs` threads
/// at a time. The results come in the order of `seeds`, each the same as a run of its own (a run
/// depends only on its scenario and seed; `run_info` aside).
pub fn run_seeds(
    scenario: &Scenario,
    seeds: &[u64],
    limits: &RunLimits,
    jobs: usize,
) -> Vec<Result<Report, SimError>> {
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::Mutex;
    let next = AtomicUsize::new(0);
    let slots: Vec<Mutex<Option<Result<Report, SimError>>>> =
        seeds.iter().map(|_| Mutex::new(None)).collect();
    std::thread::scope(|scope| {
        for _ in 0..jobs.clamp(1, seeds.len().max(1)) {
            scope.spawn(|| loop {
                let k = next.fetch_add(1, Ordering::Relaxed);
                let Some(&seed) = seeds.get(k) else { break };
                let mut sc = scenario.clone();
                sc.engine.seed = seed;
                let r = run(&sc, limits);
                *slots[k].lock().expect("no run panicked") = Some(r);
            });
        }
    });
    slots
        .into_iter()
        .map(|m| {
            m.into_inner()
                .expect("no run panicked")
                .expect("every seed ran")
        })
        .collect()
}

/// The JSON Schema of the scenario (`scenario`) or result (`result`) format, pretty-printed.
pub fn schema_json(which: &str) -> Option<String> {
    let schema = match which {
        "scenario" => schemars::schema_for!(Scenario),
        "result" => schemars::schema_for!(Report),
        "validation" => schemars::schema_for!(preflight::Validation),
        _ => return None,
    };
    let mut v = serde_json::to_value(&schema).expect("schema serialises");
    describe_tags(&mut v);
    if let Some(o) = v.as_object_mut() {
        o.insert(
            "$id".into(),
            format!("https://loopline.invalid/sim-engine/schema/{which}.schema.json#v1").into(),
        );
        o.insert(
            "description".into(),
            match which {
                "scenario" => {
                    "Loopline simulation scenario, schema version 1 (backend -> loopline-sim)."
                }
                "validation" => {
                    "What the engine reads in a valid scenario before running it, version 1 \
                     (loopline-sim validate --json -> backend)."
                }
                _ => "Loopline simulation result, schema version 1 (loopline-sim -> backend).",
            }
            .into(),
        );
    }
    Some(serde_json::to_string_pretty(&v).expect("schema serialises"))
}

/// Give the `type` tag of every tagged-enum variant a description.
fn describe_tags(v: &mut serde_json::Value) {
    match v {
        serde_json::Value::Object(o) => {
            if let Some(serde_json::Value::Object(props)) = o.get_mut("properties") {
                if let Some(serde_json::Value::Object(t)) = props.get_mut("type") {
                    if !t.contains_key("description") {
                        t.insert(
                            "description".into(),
                            "Variant tag: selects which kind this object is.".into(),
                        );
                    }
                }
            }
            for x in o.values_mut() {
                describe_tags(x);
            }
        }
        serde_json::Value::Array(a) => a.iter_mut().for_each(describe_tags),
        _ => {}
    }
}
