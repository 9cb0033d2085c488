//! Decomposed mode: tail-accurate estimates at scale by link-level decomposition (after
//! Parsimon, NSDI'23). Every flow is routed once ([`plan`]); each busy link is simulated on its
//! own at packet level with the flows that cross it ([`link_sim`]), or takes the delays of a
//! similar link's simulation ([`cluster`]); each flow's completion time is its ideal plus what
//! every link on its path added ([`combine`]).
//!
//! The link simulations are independent: a run deals them into batches that may run anywhere
//! (`loopline-sim decompose links --batch I/N`, one Celery task each) and combines their parts
//! ([`Part`], `decompose combine`); `run` does the same in one process on several threads. The
//! plan is a pure function of the scenario, so both give the same bytes.

pub mod calibration;
pub mod cluster;
pub mod combine;
pub mod link_sim;
pub mod plan;

use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::network::Network;
use crate::report::Report;
use crate::scenario::{Mode, RoutingSpec, Scenario, WorkloadSpec};
use crate::{Progress, RunLimits, SimError};
use link_sim::LinkOutcome;
use plan::{LinkRole, Plan};

/// What a decomposed run will do, without simulating (`loopline-sim decompose plan`).
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct PlanSummary {
    /// Flows in the workload.
    pub flows: u64,
    /// Directed links in the network.
    pub links_total: u64,
    /// Links at least one flow crosses.
    pub links_with_flows: u64,
    /// Links to simulate (one per cluster).
    pub links_simulated: u64,
    /// Busy links that take a representative's delays.
    pub links_clustered: u64,
    /// Links no flow crosses.
    pub links_idle: u64,
    /// The clustering threshold.
    pub cluster_threshold: f64,
    /// Data packets times hops over all link simulations: the run's cost.
    pub packets_total: u64,
    /// The same for the costliest link simulation: the least time any number of workers needs.
    pub largest_link_packets: u64,
}

/// One batch's link simulations (`loopline-sim decompose links`): opaque to its carriers.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Part {
    /// `loopline-decomposed-part`.
    pub format: String,
    pub version: u32,
    /// The scenario the part belongs to ([`digest`]).
    pub scenario: String,
    pub batch: usize,
    pub batches: usize,
    /// The batch's simulated links, in the order it ran them.
    pub links: Vec<LinkOutcome>,
}

const PART_FORMAT: &str = "loopline-decomposed-part";

/// A fingerprint of the scenario as the engine read it (FNV-1a over its JSON), so that parts of
/// another scenario are refused.
pub fn digest(sc: &Scenario) -> String {
    let text = serde_json::to_vec(sc).expect("a scenario serialises");
    let h = text.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    });
    format!("{h:016x}")
}

/// The scenario every link simulation runs under: the scenario's packet settings and seed,
/// packet mode, no failures, fixed paths (the network and workload are the link's own).
fn link_scenario(sc: &Scenario) -> Scenario {
    let mut engine = sc.engine.clone();
    engine.mode = Mode::Packet;
    engine.failures.clear();
    engine.flow_records = false;
    engine.decomposed = None;
    Scenario {
        schema_version: sc.schema_version,
        name: None,
        network: Default::default(),
        routing: RoutingSpec::Ecmp,
        workload: sc.workload.clone(),
        engine,
    }
}

/// Where decomposition is known to be weak for this scenario, in words for the planner.
pub(crate) fn warnings(sc: &Scenario, plan: &Plan) -> Vec<String> {
    let mut w = Vec::new();
    if matches!(
        sc.workload,
        WorkloadSpec::Incast(_) | WorkloadSpec::Query(_)
    ) {
        w.push(
            "incast: synchronized fan-ins couple the hops of their paths (the receiver's queue \
             paces every sender); links are simulated as if independent, so tails may be off by \
             more than the calibration shows"
                .into(),
        );
    }
    if matches!(
        sc.routing,
        RoutingSpec::Adaptive(_) | RoutingSpec::LeastWork(_)
    ) {
        w.push(
            "adaptive routing: each flow keeps the path it is given on the idle network; \
             decomposition cannot move flows away from the queues it finds"
                .into(),
        );
    }
    if matches!(sc.routing, RoutingSpec::Grin(_) | RoutingSpec::Vlb) {
        w.push(format!(
            "{} routing: each flow takes one path (its heaviest), not its whole path set",
            sc.routing.name()
        ));
    }
    let p = &sc.engine.packet;
    if p.transport == crate::scenario::Transport::Newreno && p.ecn_threshold_bytes.is_none() {
        w.push(
            "loss-based TCP (newreno without ECN): in its own simulation every link's flows fill \
             its buffer, where in the network only their bottleneck's fills; delays are \
             overestimated (several times on a loaded fat-tree): with DCTCP or an ECN threshold \
             queues stay short and decomposition stays close (see the calibration)"
                .into(),
        );
    }
    let span = plan
        .wl
        .roots
        .last()
        .map_or(0.0, |&f| plan.wl.flows[f as usize].arrival.as_secs_f64());
    let hot = plan
        .features
        .iter()
        .flatten()
        .filter(|f| span > 0.0 && f.load_s / span > 0.8)
        .count();
    if hot > 0 {
        w.push(format!(
            "{hot} links offered more than 80 % load: queues there feed back on the hops around \
             them, which link-by-link simulation does not see"
        ));
    }
    w
}

/// The plan of a (validated, decomposed) scenario's run.
pub fn summarize(sc: &Scenario, net: &Network) -> PlanSummary {
    let plan = Plan::build(sc, net);
    let busy = plan.busy_links() as u64;
    PlanSummary {
        flows: plan.wl.flows.len() as u64,
        links_total: net.links.len() as u64,
        links_with_flows: busy,
        links_simulated: plan.reps.len() as u64,
        links_clustered: busy - plan.reps.len() as u64,
        links_idle: net.links.len() as u64 - busy,
        cluster_threshold: plan.threshold,
        packets_total: plan.cost.iter().sum(),
        largest_link_packets: plan.cost.iter().copied().max().unwrap_or(0),
    }
}

/// Simulate the representatives `reps` of `plan` on up to `jobs` threads (the costliest first),
/// reporting progress from the calling thread; outcomes in the order of `reps`.
fn simulate(
    sc: &Scenario,
    net: &Network,
    plan: &Plan,
    reps: &[usize],
    limits: &RunLimits,
    progress: &mut dyn FnMut(&Progress),
) -> Result<Vec<LinkOutcome>, SimError> {
    let t0 = Instant::now();
    let mini = link_scenario(sc);
    let mut order: Vec<usize> = (0..reps.len()).collect();
    order.sort_by(|&a, &b| plan.cost[reps[b]].cmp(&plan.cost[reps[a]]).then(a.cmp(&b)));
    let next = AtomicUsize::new(0);
    let finished = AtomicUsize::new(0);
    let events = AtomicU64::new(0);
    let stop = AtomicBool::new(false);
    let failure: Mutex<Option<SimError>> = Mutex::new(None);
    let slots: Vec<Mutex<Option<LinkOutcome>>> = reps.iter().map(|_| Mutex::new(None)).collect();
    let jobs = limits
        .jobs
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
        .clamp(1, reps.len().max(1));
    let look = |n: u64| -> Result<(), SimError> {
        let total = events.fetch_add(n, Ordering::Relaxed) + n;
        if stop.load(Ordering::Relaxed) {
            return Err(SimError::Limit("stopped".into()));
        }
        if let Some(m) = limits.max_events {
            if total > m {
                return Err(SimError::Limit(format!("more than {m} events")));
            }
        }
        if let Some(w) = limits.max_wall {
            if t0.elapsed() > w {
                return Err(SimError::Limit(format!(
                    "more than {:.1} s of wall time",
                    w.as_secs_f64()
                )));
            }
        }
        Ok(())
    };
    std::thread::scope(|scope| {
        for _ in 0..jobs {
            scope.spawn(|| loop {
                if stop.load(Ordering::Relaxed) {
                    break;
                }
                let k = next.fetch_add(1, Ordering::Relaxed);
                let Some(&i) = order.get(k) else { break };
                match link_sim::simulate(&mini, net, plan, plan.reps[reps[i]], &look) {
                    Ok(o) => *slots[i].lock().expect("no thread panicked") = Some(o),
                    Err(e) => {
                        let mut f = failure.lock().expect("no thread panicked");
                        if f.is_none() && !stop.swap(true, Ordering::Relaxed) {
                            *f = Some(e);
                        }
                        break;
                    }
                }
                finished.fetch_add(1, Ordering::Relaxed);
            });
        }
        // progress from this thread, while the others simulate
        let every = limits.progress_every;
        let mut last = (Instant::now(), 0u64);
        while finished.load(Ordering::Relaxed) < reps.len() && !stop.load(Ordering::Relaxed) {
            std::thread::sleep(
                every
                    .unwrap_or(Duration::from_millis(50))
                    .min(Duration::from_millis(50)),
            );
            if let Some(every) = every {
                if last.0.elapsed() >= every {
                    let e = events.load(Ordering::Relaxed);
                    progress(&Progress {
                        sim_time_s: 0.0,
                        flows_done: 0,
                        flows_total: plan.wl.flows.len() as u64,
                        events: e,
                        events_per_s: (e - last.1) as f64 / last.0.elapsed().as_secs_f64(),
                        links: Some((finished.load(Ordering::Relaxed) as u64, reps.len() as u64)),
                    });
                    last = (Instant::now(), e);
                }
            }
        }
    });
    if let Some(e) = failure.into_inner().expect("no thread panicked") {
        return Err(e);
    }
    Ok(slots
        .into_iter()
        .map(|s| {
            s.into_inner()
                .expect("no thread panicked")
                .expect("every link ran")
        })
        .collect())
}

/// A whole decomposed run in this process (`run`): every representative, then the combination.
pub fn run(
    sc: &Scenario,
    net: &Network,
    limits: &RunLimits,
    progress: &mut dyn FnMut(&Progress),
) -> Result<Report, SimError> {
    let plan = Plan::build(sc, net);
    let all: Vec<usize> = (0..plan.reps.len()).collect();
    let outcomes = simulate(sc, net, &plan, &all, limits, progress)?;
    Ok(combine::combine(sc, net, &plan, &outcomes))
}

/// Batch `batch` (1-based) of `batches`: its links simulated, as a part to combine later.
pub fn run_batch(
    sc: &Scenario,
    net: &Network,
    batch: usize,
    batches: usize,
    limits: &RunLimits,
    progress: &mut dyn FnMut(&Progress),
) -> Result<Part, SimError> {
    let plan = Plan::build(sc, net);
    let mine = plan.batch(batch, batches);
    let links = simulate(sc, net, &plan, &mine, limits, progress)?;
    Ok(Part {
        format: PART_FORMAT.into(),
        version: 1,
        scenario: digest(sc),
        batch,
        batches,
        links,
    })
}

/// The result from the parts of every batch (any order); an incomplete or foreign set is
/// refused, naming what is wrong.
pub fn combine_parts(sc: &Scenario, net: &Network, parts: Vec<Part>) -> Result<Report, String> {
    let plan = Plan::build(sc, net);
    let me = digest(sc);
    let Some(batches) = parts.first().map(|p| p.batches) else {
        return Err("no parts given".into());
    };
    let mut seen = vec![false; batches];
    let mut outcomes: Vec<Option<LinkOutcome>> = vec![None; plan.reps.len()];
    for p in parts {
        if p.format != PART_FORMAT || p.version != 1 {
            return Err(format!("batch {}: not a part of this format", p.batch));
        }
        if p.scenario != me {
            return Err(format!("batch {}: a part of another scenario", p.batch));
        }
        if p.batches != batches || !(1..=batches).contains(&p.batch) {
            return Err(format!(
                "batch {}/{}: the parts are of {batches} batches",
                p.batch, p.batches
            ));
        }
        if std::mem::replace(&mut seen[p.batch - 1], true) {
            return Err(format!("batch {}: given twice", p.batch));
        }
        for o in p.links {
            let LinkRole::Simulated(r) = plan.role[o.link] else {
                return Err(format!(
                    "batch {}: link {} is not simulated",
                    p.batch, o.link
                ));
            };
            if o.delays_ps.len() != plan.flows_on(o.link).len() {
                return Err(format!(
                    "batch {}: link {} has the wrong flows",
                    p.batch, o.link
                ));
            }
            outcomes[r as usize] = Some(o);
        }
    }
    if let Some(b) = seen.iter().position(|s| !s) {
        return Err(format!("batch {}/{batches} is missing", b + 1));
    }
    let outcomes: Vec<LinkOutcome> = outcomes
        .into_iter()
        .enumerate()
        .map(|(r, o)| o.ok_or_else(|| format!("link {} was simulated by no batch", plan.reps[r])))
        .collect::<Result<_, _>>()?;
    Ok(combine::combine(sc, net, &plan, &outcomes))
}
