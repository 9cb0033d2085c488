//! The result document (see `schema/result.schema.json`). Everything except `run_info` is a pure
//! function of the scenario and seed, so two runs can be compared byte for byte.

use std::time::Duration;

use schemars::JsonSchema;
use serde::Serialize;

use crate::engine::control::detour::ActiveDetour;
use crate::engine::{Outcome, Status};
use crate::network::Network;
use crate::reachability::Reachability;
use crate::units::LinkId;
use crate::workload::memcache::{self, MemcacheEstimate};
use crate::workload::NONE;

/// Version of the result format.
pub const RESULT_SCHEMA_VERSION: u32 = 1;

/// Label of every flow-mode result.
pub const FLUID_NOTE: &str = "fluid estimate: tails, incast and latency bounds need packet mode";

/// The result of a run.
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct Report {
    /// Result format version.
    pub schema_version: u32,
    /// `fluid` in flow mode, `packet` in packet mode.
    pub model: String,
    /// Flow mode: "fluid estimate: tails, incast and latency bounds need packet mode"; packet
    /// mode: "packet-level simulation: TCP with drop-tail queues (see sim-engine/README.md)".
    pub note: String,
    /// The scenario's name.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// Routing scheme used.
    pub routing: String,
    /// Workload type.
    pub workload: String,
    /// Seed used.
    pub seed: u64,
    /// Completion time of the last flow of the job, seconds (null if some flow did not finish).
    pub job_completion_s: Option<f64>,
    /// Simulated time at the end of the run, seconds.
    pub simulated_time_s: f64,
    /// Events processed (arrivals, completions, failures, recoveries, controller ticks).
    pub events_processed: u64,
    /// Flow counts and completion-time statistics.
    pub flows: FlowSummary,
    /// Per-query (query/incast) or per-request (memcache) completion times, when the workload has groups.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub groups: Option<GroupSummary>,
    /// Per-link utilisation over time (directed links), for heat maps.
    pub links: LinkReport,
    /// Per-server throughput.
    pub servers: Vec<ServerReport>,
    /// What the routing scheme did.
    pub routing_stats: RoutingStats,
    /// How much re-solving the max-min rates took.
    pub solver: SolverStats,
    /// Memcache highest-rate search (a labelled queueing estimate), for the memcache workload.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub memcache: Option<MemcacheEstimate>,
    /// The collective workload's times and bandwidths (nccl-tests' algbw and busbw), for the
    /// collective workload.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub collective: Option<CollectiveReport>,
    /// The training step workload's step times and its bucket all-reduces' bandwidths.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub training: Option<TrainingReport>,
    /// One record per flow in flow-index order, when `engine.flow_records` is true.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub flow_records: Option<Vec<FlowRecord>>,
    /// Packet mode only: transport, losses and per-port queue occupancy.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub packet: Option<PacketReport>,
    /// Decomposed mode only: how the run was decomposed, where it is known to be weak for this
    /// scenario, and the error measured against full packet mode per flow-size bucket.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub decomposition: Option<DecompositionReport>,
    /// The failure timeline, what was down at the end and which server groups could not reach
    /// each other then; present when the scenario has failures or a flow did not finish.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reachability: Option<Reachability>,
    /// Wall time and memory of this run: not deterministic, omitted with `--no-run-info`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub run_info: Option<RunInfo>,
}

/// One flow of the run (`engine.flow_records`).
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct FlowRecord {
    /// Flow index (the workload's flow order; the same across seeds for deterministic workloads).
    pub index: u64,
    /// Sending server id.
    pub src: String,
    /// Receiving server id.
    pub dst: String,
    /// Flow size, bytes.
    pub bytes: u64,
    /// Start time, seconds (for a flow that never started: its arrival time).
    pub start_s: f64,
    /// Flow completion time, seconds, including latency terms (null if the flow did not finish).
    pub fct_s: Option<f64>,
    /// Completion time over the ideal (alone on its path), at least 1 (null if not finished).
    pub slowdown: Option<f64>,
}

/// A collective's times and bandwidths. Bandwidths are in Gb/s (10^9 bits per second);
/// nccl-tests prints GB/s (10^9 bytes per second), an eighth of these.
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct CollectiveReport {
    /// `all_reduce`, `all_gather`, `reduce_scatter` or `all_to_all`.
    pub op: String,
    /// `ring`, `direct` or `hierarchical`.
    pub algorithm: String,
    /// `steps` (a flow per ring step) or `pipelined` (a flow per ring edge and phase).
    pub model: String,
    /// Ranks (servers) taking part.
    pub ranks: u64,
    /// Message size per rank, bytes (nccl-tests' size).
    pub bytes: u64,
    /// Times the collective ran, back to back.
    pub iterations: u32,
    /// Steps of one iteration (ring all-reduce 2(n-1), all-gather and reduce-scatter n-1,
    /// all-to-all 1, hierarchical all-reduce 2(g-1) + 2(h-1) over h servers of g GPUs).
    pub steps: u64,
    /// From the collective's issue (time 0) to the last completion of every iteration, seconds
    /// (null if a flow did not finish).
    pub total_time_s: Option<f64>,
    /// Mean time of one iteration, seconds, as nccl-tests measures it: `total_time_s /
    /// iterations` (null if a flow did not finish).
    pub time_s: Option<f64>,
    /// Per iteration: from its flows' first start (or the previous iteration's last completion
    /// if earlier; the first iteration from 0) to their last completion, seconds (null for an
    /// iteration with a flow that did not finish). Iterations chain rank by rank, so the next may
    /// start before the last ends where ranks are uneven.
    pub iteration_time_s: Vec<Option<f64>>,
    /// Algorithm bandwidth `bytes x 8 / time_s` (nccl-tests' size over time), Gb/s (null if a flow
    /// did not finish).
    pub algbw_gbps: Option<f64>,
    /// Bus bandwidth `algbw x factor`, Gb/s: factor 2(n-1)/n for all-reduce, (n-1)/n for
    /// all-gather, reduce-scatter and all-to-all (nccl-tests' PERFORMANCE.md); a ring bound by
    /// one link of B Gb/s has a bus bandwidth of B (null if a flow did not finish).
    pub busbw_gbps: Option<f64>,
    /// nccl-tests' bus-bandwidth factor used.
    pub bus_factor: f64,
}

/// A training step's times (see `sim-engine/README.md`, "Training steps"). Bandwidths in Gb/s.
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct TrainingReport {
    /// Steps simulated.
    pub iterations: u32,
    /// Gradient buckets per step.
    pub buckets: u64,
    /// Mean step time, seconds: the last rank's end of the last step over the steps (null if a
    /// flow did not finish).
    pub step_time_s: Option<f64>,
    /// Per step: its end (the last rank's last bucket all-reduce done) less the previous step's
    /// end, seconds (null for a step with a flow that did not finish).
    pub step_times_s: Vec<Option<f64>>,
    /// Compute per step, `forward_s + backward_s`.
    pub compute_s: f64,
    /// `step_time_s - compute_s`: the communication the backward pass did not hide (null if a
    /// flow did not finish).
    pub exposed_communication_s: Option<f64>,
    /// Mean over the bucket all-reduces of `bucket bytes x 8 / time` (first start to last
    /// completion of the bucket's flows), Gb/s (null if a flow did not finish).
    pub algbw_gbps: Option<f64>,
    /// `algbw_gbps x 2(n-1)/n`, nccl-tests' all-reduce bus bandwidth (null if a flow did not
    /// finish).
    pub busbw_gbps: Option<f64>,
}

/// Summary statistics of a sample.
#[derive(Clone, Debug, Default, Serialize, JsonSchema)]
pub struct Stats {
    /// Sample size.
    pub count: u64,
    /// Mean (null when empty).
    pub mean: Option<f64>,
    /// Median, nearest rank (null when empty).
    pub p50: Option<f64>,
    /// 99th percentile, nearest rank (null when empty).
    pub p99: Option<f64>,
    /// Maximum (null when empty).
    pub max: Option<f64>,
}

impl Stats {
    pub fn of(mut v: Vec<f64>) -> Stats {
        if v.is_empty() {
            return Stats::default();
        }
        let n = v.len();
        let mean = v.iter().sum::<f64>() / n as f64;
        let max = v.iter().copied().max_by(f64::total_cmp);
        // nearest ranks by selection, not a full sort (equal keys are identical values)
        let rank = |q: f64| ((q * n as f64).ceil() as usize).clamp(1, n) - 1;
        let (r50, r99) = (rank(0.5), rank(0.99));
        let p99 = *v.select_nth_unstable_by(r99, f64::total_cmp).1;
        let p50 = *v[..=r99].select_nth_unstable_by(r50, f64::total_cmp).1;
        Stats {
            count: n as u64,
            mean: Some(mean),
            p50: Some(p50),
            p99: Some(p99),
            max,
        }
    }
}

/// Flow counts and completion times.
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct FlowSummary {
    /// Flows in the workload.
    pub total: u64,
    /// Flows that delivered all their bytes.
    pub finished: u64,
    /// Flows started but not finished at the end (stop time reached).
    pub unfinished: u64,
    /// Flows without any path at the end (failed elements, no recovery).
    pub stalled: u64,
    /// Flows never started: their arrival is after the stop time, or they wait on flows that did
    /// not finish (a collective's later steps behind a stalled one, a memcache response).
    pub not_started: u64,
    /// Flows rerouted at least once (failure or rebinding).
    pub rerouted: u64,
    /// Flow completion times in seconds (arrival to last byte, plus latency terms if enabled).
    pub fct_s: Stats,
    /// Slowdown: completion time / ideal completion time on an empty network (>= 1).
    pub slowdown: Stats,
    /// The same, per flow-size bucket.
    pub by_size: Vec<SizeBucket>,
}

/// Completion times of flows in one size range.
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct SizeBucket {
    /// Label, e.g. `10KB-100KB`.
    pub bucket: String,
    /// Smallest size in the bucket, bytes (inclusive).
    pub min_bytes: u64,
    /// Largest size, bytes (exclusive; null = unbounded).
    pub max_bytes: Option<u64>,
    /// Completion times, seconds.
    pub fct_s: Stats,
    /// Slowdowns.
    pub slowdown: Stats,
}

/// Per-group (query or request) completion times.
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct GroupSummary {
    /// `query` or `request`.
    pub kind: String,
    /// Groups with every flow finished.
    pub finished: u64,
    /// Groups in the workload.
    pub total: u64,
    /// Completion time of a group: first arrival to last flow's completion, seconds.
    pub completion_s: Stats,
}

/// Link utilisation: one row per directed link, in scenario order (a->b then b->a).
///
/// Kept as columns and written one row at a time ([`LinkReport::rows`]): a k = 96 fat-tree has
/// 1.3 million directed links, and a row of owned strings each made the report the largest thing
/// a run held (about 290 MB for 10 flows). The JSON is the same as a `Vec<LinkUtilReport>`'s.
#[derive(Clone, Debug)]
pub struct LinkReport {
    /// Width of one time bucket in seconds; bucket `k` covers `[k*interval_s, (k+1)*interval_s)`.
    pub interval_s: f64,
    names: NameTable,
    /// Node names (indices into `names`) at each end of every directed link.
    ends: Vec<(u32, u32)>,
    /// Per directed link: capacity (Gb/s), bytes, mean and peak utilisation.
    gbps: Vec<f64>,
    bytes: Vec<f64>,
    mean_util: Vec<f64>,
    peak_util: Vec<f64>,
    /// Per directed link when `engine.link_series` is on.
    util: Option<Vec<Vec<f64>>>,
    /// Per directed link, packet mode with `engine.link_series` (see [`LinkReport::set_queue_series`]).
    queue_max_bytes: Option<Vec<Option<Vec<f64>>>>,
}

/// Every name a link row prints, in one buffer: node names first, then one per duplex link.
#[derive(Clone, Debug, Default)]
struct NameTable {
    text: String,
    /// `text[starts[i]..starts[i + 1]]` is name `i`.
    starts: Vec<u32>,
    nodes: usize,
}

impl NameTable {
    fn of(net: &Network) -> NameTable {
        let names = || {
            net.nodes
                .iter()
                .map(|n| n.name.as_str())
                .chain(net.link_names.iter().map(String::as_str))
        };
        let mut t = NameTable {
            text: String::with_capacity(names().map(str::len).sum()),
            starts: Vec::with_capacity(net.nodes.len() + net.link_names.len() + 1),
            nodes: net.nodes.len(),
        };
        for name in names() {
            t.starts.push(t.text.len() as u32);
            t.text.push_str(name);
        }
        t.starts.push(t.text.len() as u32);
        t
    }
    fn get(&self, i: usize) -> &str {
        &self.text[self.starts[i] as usize..self.starts[i + 1] as usize]
    }
    fn node(&self, n: u32) -> &str {
        self.get(n as usize)
    }
    fn link(&self, duplex: usize) -> &str {
        self.get(self.nodes + duplex)
    }
}

/// One row of [`LinkReport`], borrowed from its columns.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct LinkRow<'r> {
    pub id: &'r str,
    pub from: &'r str,
    pub to: &'r str,
    pub gbps: f64,
    pub bytes: f64,
    pub mean_util: f64,
    pub peak_util: f64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub util: Option<&'r [f64]>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub queue_max_bytes: Option<&'r [f64]>,
}

impl LinkReport {
    /// Number of directed links.
    pub fn len(&self) -> usize {
        self.ends.len()
    }
    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }
    /// Row `l` (directed link `l`).
    pub fn row(&self, l: usize) -> LinkRow<'_> {
        let (from, to) = self.ends[l];
        LinkRow {
            id: self.names.link(l / 2),
            from: self.names.node(from),
            to: self.names.node(to),
            gbps: self.gbps[l],
            bytes: self.bytes[l],
            mean_util: self.mean_util[l],
            peak_util: self.peak_util[l],
            util: self.util.as_ref().map(|u| u[l].as_slice()),
            queue_max_bytes: self.queue_max_bytes.as_ref().and_then(|q| q[l].as_deref()),
        }
    }
    /// Every row, in order.
    pub fn rows(&self) -> impl ExactSizeIterator<Item = LinkRow<'_>> + '_ {
        (0..self.len()).map(|l| self.row(l))
    }
    /// Packet mode: each port's largest backlog per bucket of its `util` series, given the
    /// directed link and the series' length (`None` where the port keeps none).
    pub fn set_queue_series(&mut self, mut series: impl FnMut(usize, usize) -> Option<Vec<f64>>) {
        let q: Vec<Option<Vec<f64>>> = (0..self.len())
            .map(|l| series(l, self.util.as_ref().map_or(0, |u| u[l].len())))
            .collect();
        self.queue_max_bytes = q.iter().any(Option::is_some).then_some(q);
    }
}

impl Serialize for LinkReport {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let mut st = s.serialize_struct("LinkReport", 2)?;
        st.serialize_field("interval_s", &self.interval_s)?;
        st.serialize_field("links", &Rows(self))?;
        st.end()
    }
}

/// The rows as a JSON array, made one at a time.
struct Rows<'r>(&'r LinkReport);

impl Serialize for Rows<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.0.rows())
    }
}

impl JsonSchema for LinkReport {
    fn schema_name() -> String {
        "LinkReport".into()
    }
    fn json_schema(g: &mut schemars::gen::SchemaGenerator) -> schemars::schema::Schema {
        LinkReportShape::json_schema(g)
    }
}

/// Link utilisation.
#[derive(JsonSchema)]
#[allow(dead_code)] // the schema of [`LinkReport`]'s JSON
struct LinkReportShape {
    /// Width of one time bucket in seconds; bucket `k` covers `[k*interval_s, (k+1)*interval_s)`.
    interval_s: f64,
    /// Every directed link, in scenario order (a->b then b->a).
    links: Vec<LinkUtilReport>,
}

// the schema of a [`LinkRow`]
/// Utilisation of one direction of one link.
#[derive(JsonSchema)]
#[allow(dead_code)]
struct LinkUtilReport {
    /// The cable id (or default id).
    pub id: String,
    /// Sending end node id.
    pub from: String,
    /// Receiving end node id.
    pub to: String,
    /// Capacity, Gb/s.
    pub gbps: f64,
    /// Bytes carried over the run.
    pub bytes: f64,
    /// Mean utilisation over the simulated time (0..1).
    pub mean_util: f64,
    /// Highest utilisation of any time bucket (0..1); with `engine.link_series` false (no buckets
    /// kept), the highest instantaneous utilisation.
    pub peak_util: f64,
    /// Utilisation per time bucket (omitted when `engine.link_series` is false).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub util: Option<Vec<f64>>,
    /// Packet mode with `engine.link_series`: the largest backlog of this port's queue in each
    /// bucket of `util`, bytes.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub queue_max_bytes: Option<Vec<f64>>,
}

/// Label of every decomposed-mode result.
pub const DECOMPOSED_NOTE: &str = "link-level decomposition: every busy link simulated at packet \
     level with the flows that cross it, per-hop delays summed along each flow's path (see \
     sim-engine/README.md)";

/// How a decomposed run was done and how far to trust it.
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct DecompositionReport {
    /// Directed links in the network.
    pub links_total: u64,
    /// Links simulated (one per cluster of similar links).
    pub links_simulated: u64,
    /// Busy links that took a similar link's delays instead of a simulation of their own.
    pub links_clustered: u64,
    /// Links no flow crosses (nothing to simulate).
    pub links_idle: u64,
    /// The clustering threshold used (`engine.decomposed.cluster_threshold`).
    pub cluster_threshold: f64,
    /// Packet events of all link simulations together.
    pub link_events: u64,
    /// Where decomposition is known to be weak for this scenario (empty: none of the known
    /// cases applies).
    pub warnings: Vec<String>,
    /// The error measured against full packet mode (absent until a calibration was run).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub accuracy: Option<Accuracy>,
}

/// The largest error of decomposed mode measured against full packet mode, per flow-size bucket.
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct Accuracy {
    /// The calibration cases measured.
    pub measured_on: Vec<String>,
    /// Per flow-size bucket (named as in `flows.by_size`).
    pub by_size: Vec<BucketAccuracy>,
    /// Where the calibration table is.
    pub source: String,
}

/// The error measured in one flow-size bucket.
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct BucketAccuracy {
    /// Flow-size bucket, e.g. `10KB-100KB`.
    pub bucket: String,
    /// Largest relative error of the mean slowdown over the cases measured (0.07: 7 %).
    pub mean_slowdown_error: f64,
    /// Largest relative error of the p99 slowdown over the cases measured.
    pub p99_slowdown_error: f64,
}

/// Label of every packet-mode result.
pub const PACKET_NOTE: &str =
    "packet-level simulation: TCP with drop-tail queues (see sim-engine/README.md)";

/// What packet mode saw: transport, losses and per-port queues.
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct PacketReport {
    /// `newreno`, `dctcp` or `mptcp`.
    pub transport: String,
    /// Largest packet on the wire, bytes.
    pub mtu_bytes: u64,
    /// Data and ACK packets sent by the servers (retransmissions included).
    pub packets_sent: u64,
    /// Packets dropped at full queues.
    pub drops: u64,
    /// Data packets sent again (fast retransmits, partial ACKs and after timeouts).
    pub retransmissions: u64,
    /// Retransmission timeouts.
    pub timeouts: u64,
    /// Packets marked CE (ECN) at a queue.
    pub ecn_marks: u64,
    /// Every output port that ever held a packet waiting behind another, sorted by link.
    pub queues: Vec<QueueReport>,
}

/// Occupancy of one output port (one direction of a link).
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct QueueReport {
    /// The cable id (or default id).
    pub link: String,
    /// Sending end node id (the port's switch or server).
    pub from: String,
    /// Receiving end node id.
    pub to: String,
    /// Largest backlog, bytes (the packet being sent included).
    pub max_bytes: u64,
    /// 99th percentile of the backlog arriving packets found (nearest rank), bytes, rounded up
    /// to a multiple of `mtu_bytes` (of 1/4096 of the buffer when that is larger).
    pub p99_bytes: u64,
    /// Packets dropped at this port.
    pub drops: u64,
}

/// Throughput of one server.
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct ServerReport {
    /// Server id.
    pub id: String,
    /// Bytes sent (finished flows in full, others in part).
    pub bytes_sent: f64,
    /// Bytes received.
    pub bytes_received: f64,
    /// Mean send rate over the simulated time, Gb/s.
    pub tx_gbps: f64,
    /// Mean receive rate over the simulated time, Gb/s.
    pub rx_gbps: f64,
}

/// What the routing scheme did.
#[derive(Clone, Debug, Default, Serialize, JsonSchema)]
pub struct RoutingStats {
    /// Reroutes of flows (failures and controller rebinding).
    pub reroutes: u64,
    /// Flows moved to another source ToR by the least-work controller (`least_work`, `detour`).
    pub rebinds: u64,
    /// Controller periods run.
    pub controller_ticks: u64,
    /// Detours set up (detour routing).
    pub detours: Vec<DetourReport>,
}

/// Work of the incremental max-min solver (deterministic: a function of the scenario and seed).
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct SolverStats {
    /// Rounds of water-filling (a re-solve takes one per growth of its region).
    pub rounds: u64,
    /// Subflows water-filled, summed over rounds.
    pub subflows_resolved: u64,
    /// Subflow rate changes the re-solves produced.
    pub rate_changes: u64,
}

/// One detour: a hot group of ToRs relieved through remote ToRs.
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct DetourReport {
    /// Logical rack whose ToRs were all hot.
    pub rack: String,
    /// `send`: the rack's ToRs' uplinks were hot and its outgoing traffic left through the remote
    /// ToRs; `receive`: their downlinks were hot and traffic for the rack entered at the remote
    /// ToRs.
    pub side: String,
    /// The contiguous hot ToRs around it.
    pub hot_tors: Vec<String>,
    /// Remote ToRs used (never shared between two hot spots).
    pub remote_tors: Vec<String>,
    /// Start, seconds.
    pub start_s: f64,
    /// End, seconds (null: still active at the end).
    pub end_s: Option<f64>,
    /// Flows on the detour: moved onto it by the scheduler, or placed on it as they started.
    pub flows: u64,
    /// Largest number of intermediate servers on a detour path.
    pub max_intermediate_servers: u32,
    /// Bytes that crossed the detour (its remote ToRs' detour budgets) while it was up.
    pub bytes: u64,
    /// Time the detour saved, seconds: `bytes` over the rack's own capacity in the detour's
    /// direction, i.e. how much longer the rack's hot links would have been busy carrying those
    /// bytes too (exact while they stay saturated; an upper bound otherwise).
    pub time_saved_s: f64,
}

/// Non-deterministic facts about the run.
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct RunInfo {
    /// Engine version.
    pub engine: String,
    /// Wall time of validation + simulation, seconds.
    pub wall_time_s: f64,
    /// Peak resident memory of the process (VmHWM), bytes; null if unknown.
    pub peak_memory_bytes: Option<u64>,
    /// Flows per second of wall time.
    pub flows_per_s: f64,
}

impl RunInfo {
    pub fn measure(wall: Duration, flows: u64) -> RunInfo {
        let w = wall.as_secs_f64();
        RunInfo {
            engine: format!("loopline-sim {}", crate::VERSION),
            wall_time_s: w,
            peak_memory_bytes: peak_memory_bytes(),
            flows_per_s: if w > 0.0 { flows as f64 / w } else { 0.0 },
        }
    }
}

/// VmHWM of this process from /proc/self/status (Linux), in bytes.
pub fn peak_memory_bytes() -> Option<u64> {
    let s = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = s.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}

fn r6(x: f64) -> f64 {
    if x == 0.0 || !x.is_finite() {
        return if x.is_finite() { x } else { 0.0 };
    }
    let mag = 10f64.powi(6 - x.abs().log10().ceil() as i32);
    (x * mag).round() / mag
}

const BUCKETS: &[(u64, Option<u64>, &str)] = &[
    (0, Some(10_000), "<10KB"),
    (10_000, Some(100_000), "10KB-100KB"),
    (100_000, Some(1_000_000), "100KB-1MB"),
    (1_000_000, Some(10_000_000), "1MB-10MB"),
    (10_000_000, None, ">=10MB"),
];

/// Build the report from a finished run's outcome ([`crate::engine::FlowEngine::outcome`]).
pub fn build(o: &Outcome) -> Report {
    let sc = o.scenario;
    let net = o.net;
    let end = o.now;
    let dur = end.as_secs_f64();
    let mut fct = Vec::new();
    let mut slow = Vec::new();
    let mut by: Vec<(Vec<f64>, Vec<f64>)> = vec![(Vec::new(), Vec::new()); BUCKETS.len()];
    let (mut finished, mut unfinished, mut stalled, mut not_started, mut rerouted) =
        (0, 0, 0, 0, 0);
    let mut last_end: Option<f64> = Some(0.0);
    let mut sent = vec![0.0f64; net.nodes.len()];
    let mut recv = vec![0.0f64; net.nodes.len()];
    let ng = o.workload.groups as usize;
    let mut g_first = vec![f64::INFINITY; ng];
    let mut g_last = vec![0.0f64; ng];
    let mut g_done = vec![true; ng];
    let mut records = sc
        .engine
        .flow_records
        .then(|| Vec::with_capacity(o.flows.len()));
    for (i, fl) in o.flows.iter().enumerate() {
        let spec = &o.workload.flows[i];
        if fl.reroutes > 0 || fl.stalled_once {
            rerouted += 1;
        }
        let delivered = match fl.status {
            Status::Done => spec.bytes.0 as f64,
            Status::Waiting => 0.0,
            _ => {
                let rem = (fl.rem_bits - fl.rate * 1e-3 * (end.0.saturating_sub(fl.last.0)) as f64)
                    .max(0.0);
                (spec.bytes.bits() - rem) / 8.0
            }
        };
        sent[spec.src.idx()] += delivered;
        recv[spec.dst.idx()] += delivered;
        let g = spec.group as usize;
        if spec.group != NONE && fl.status != Status::Waiting {
            g_first[g] = g_first[g].min(fl.start.as_secs_f64());
        }
        let done = (fl.status == Status::Done).then(|| {
            let t = (fl.fct_end.0 - fl.start.0) as f64 / 1e12;
            let sd = if fl.ideal_s > 0.0 {
                (t / fl.ideal_s).max(1.0)
            } else {
                1.0
            };
            (t, sd)
        });
        if let Some(r) = records.as_mut() {
            let start = if fl.status == Status::Waiting {
                spec.arrival
            } else {
                fl.start
            };
            r.push(FlowRecord {
                index: i as u64,
                src: net.name(spec.src).to_string(),
                dst: net.name(spec.dst).to_string(),
                bytes: spec.bytes.0,
                start_s: start.as_secs_f64(),
                fct_s: done.map(|d| d.0),
                slowdown: done.map(|d| d.1),
            });
        }
        match done {
            Some((t, sd)) => {
                finished += 1;
                fct.push(t);
                slow.push(sd);
                let b = BUCKETS.iter().position(|(lo, hi, _)| {
                    spec.bytes.0 >= *lo && hi.is_none_or(|h| spec.bytes.0 < h)
                });
                let b = b.unwrap_or(BUCKETS.len() - 1);
                by[b].0.push(t);
                by[b].1.push(sd);
                let fe = fl.fct_end.as_secs_f64();
                last_end = last_end.map(|x| x.max(fe));
                if spec.group != NONE {
                    g_last[g] = g_last[g].max(fe);
                }
            }
            None => {
                match fl.status {
                    Status::Active => unfinished += 1,
                    Status::Stalled => stalled += 1,
                    _ => not_started += 1,
                }
                last_end = None;
                if spec.group != NONE {
                    g_done[g] = false;
                }
            }
        }
    }
    // follow-up flows that never started belong to unfinished groups already
    let groups = (ng > 0).then(|| {
        let v: Vec<f64> = (0..ng)
            .filter(|&g| g_done[g] && g_first[g].is_finite())
            .map(|g| g_last[g] - g_first[g])
            .collect();
        GroupSummary {
            kind: o.workload.group_kind.to_string(),
            finished: v.len() as u64,
            total: ng as u64,
            completion_s: Stats::of(v),
        }
    });
    let width_s = o.util.width as f64 / 1e12;
    let n = net.links.len();
    let mut links = LinkReport {
        interval_s: width_s,
        names: NameTable::of(net),
        ends: net.links.iter().map(|k| (k.from.0, k.to.0)).collect(),
        gbps: Vec::with_capacity(n),
        bytes: Vec::with_capacity(n),
        mean_util: Vec::with_capacity(n),
        peak_util: Vec::with_capacity(n),
        util: sc.engine.link_series.then(|| Vec::with_capacity(n)),
        queue_max_bytes: None,
    };
    for (l, link) in net.links.iter().enumerate() {
        let cap_bits_s = link.gbps.0 * 1e9;
        let ratios = || {
            o.util.series(l).enumerate().map(|(k, bits)| {
                let start = k as f64 * width_s;
                let w = (dur - start).min(width_s);
                if w > 0.0 {
                    (bits / (cap_bits_s * w)).min(1.0)
                } else {
                    0.0
                }
            })
        };
        // (rounding keeps the order of values: the peak of the rounded series is the rounded
        // peak, so a series that is not reported is not rounded)
        if let Some(u) = links.util.as_mut() {
            u.push(ratios().map(r6).collect());
        }
        let peak = match o.util.peak_gbps(l) {
            // no series kept: the peak instantaneous utilisation
            Some(g) => r6((g / link.gbps.0).min(1.0)),
            None => r6(ratios().fold(0.0, f64::max)),
        };
        let total = o.util.total_bits(l);
        links.gbps.push(link.gbps.0);
        links.bytes.push(r6(total / 8.0));
        links.mean_util.push(if dur > 0.0 {
            r6((total / (cap_bits_s * dur)).min(1.0))
        } else {
            0.0
        });
        links.peak_util.push(peak);
    }
    let servers = net
        .servers
        .iter()
        .map(|&s| ServerReport {
            id: net.name(s).to_string(),
            bytes_sent: r6(sent[s.idx()]),
            bytes_received: r6(recv[s.idx()]),
            tx_gbps: if dur > 0.0 {
                r6(sent[s.idx()] * 8.0 / dur / 1e9)
            } else {
                0.0
            },
            rx_gbps: if dur > 0.0 {
                r6(recv[s.idx()] * 8.0 / dur / 1e9)
            } else {
                0.0
            },
        })
        .collect();
    let by_size = BUCKETS
        .iter()
        .zip(by)
        .filter(|(_, v)| !v.0.is_empty())
        .map(|((lo, hi, name), (f, s))| SizeBucket {
            bucket: name.to_string(),
            min_bytes: *lo,
            max_bytes: *hi,
            fct_s: Stats::of(f),
            slowdown: Stats::of(s),
        })
        .collect();
    let mut rs = RoutingStats {
        reroutes: o.flows.iter().map(|f| f.reroutes as u64).sum(),
        controller_ticks: o.controller_ticks,
        ..Default::default()
    };
    rs.rebinds = o.rebinds;
    rs.detours = o
        .detours
        .iter()
        .map(|d| {
            let carried = |l: LinkId| match o.budget_bits {
                Some(b) => b[l.idx() - net.links.len()],
                None => o.util.total_bits(l.idx()),
            };
            detour_report(d, net, &carried)
        })
        .collect();
    let memcache = match &sc.workload {
        crate::scenario::WorkloadSpec::Memcache(m) => {
            Some(memcache::estimate(m, net, routed_per_request(o).as_deref()))
        }
        _ => None,
    };
    let collective = match &sc.workload {
        crate::scenario::WorkloadSpec::Collective(c) => Some(collective_report(o, c)),
        _ => None,
    };
    let training = match &sc.workload {
        crate::scenario::WorkloadSpec::TrainingStep(t) => Some(training_report(o, t)),
        _ => None,
    };
    Report {
        schema_version: RESULT_SCHEMA_VERSION,
        model: "fluid".into(),
        note: FLUID_NOTE.into(),
        name: sc.name.clone(),
        routing: sc.routing.name().into(),
        workload: sc.workload.name().into(),
        seed: sc.engine.seed,
        job_completion_s: last_end,
        simulated_time_s: dur,
        events_processed: o.events,
        flows: FlowSummary {
            total: o.flows.len() as u64,
            finished,
            unfinished,
            stalled,
            not_started,
            rerouted,
            fct_s: Stats::of(fct),
            slowdown: Stats::of(slow),
            by_size,
        },
        groups,
        links,
        servers,
        routing_stats: rs,
        solver: SolverStats {
            rounds: o.solver_rounds,
            subflows_resolved: o.solver_subflows,
            rate_changes: o.solver_rate_changes,
        },
        memcache,
        collective,
        training,
        flow_records: records,
        packet: None,
        decomposition: None,
        reachability: crate::reachability::at_end(sc, net, end, finished < o.flows.len() as u64),
        run_info: None,
    }
}

/// Bits per request each directed link carried in the run (for the memcache estimate): carried
/// bits over delivered bits, times a request's and its response's bits. `None` when nothing was
/// delivered.
fn routed_per_request(o: &Outcome) -> Option<Vec<f64>> {
    let crate::scenario::WorkloadSpec::Memcache(m) = &o.scenario.workload else {
        return None;
    };
    let delivered: f64 = o
        .flows
        .iter()
        .zip(&o.workload.flows)
        .map(|(f, spec)| match f.status {
            Status::Done => spec.bytes.bits(),
            Status::Waiting => 0.0,
            _ => (spec.bytes.bits() - f.rem_bits).max(0.0),
        })
        .sum();
    if delivered <= 0.0 {
        return None;
    }
    let per_request = (m.request_bytes + m.response_bytes) as f64 * 8.0;
    Some(
        (0..o.net.links.len())
            .map(|l| o.util.total_bits(l) / delivered * per_request)
            .collect(),
    )
}

/// First start and last completion (ps) of flows `a..b`, or None if one did not finish.
fn span(o: &Outcome, a: usize, b: usize) -> Option<(u64, u64)> {
    let mut first = u64::MAX;
    let mut last = 0u64;
    for f in &o.flows[a..b] {
        if f.status != Status::Done {
            return None;
        }
        first = first.min(f.start.0);
        last = last.max(f.fct_end.0);
    }
    Some((first, last))
}

/// The collective's times from its flows (laid out iteration by iteration, the workload's
/// `segments` marking each, see [`crate::workload::collective`]).
fn collective_report(o: &Outcome, c: &crate::scenario::CollectiveSpec) -> CollectiveReport {
    use crate::workload::collective;
    let ranks = collective::ranks(c, o.net);
    let n = ranks.len() as u64;
    let alg = c.algorithm();
    let seg = &o.workload.segments;
    // From the collective's issue at 0 (NCCL's latency before its first flow counts), an
    // iteration from its first start or the previous one's end if that is earlier.
    let mut previous_end = 0u64;
    let iteration_time_s: Vec<Option<f64>> = seg
        .windows(2)
        .map(|w| {
            span(o, w[0] as usize, w[1] as usize).map(|(first, last)| {
                let from = first.min(previous_end);
                previous_end = last;
                last.saturating_sub(from) as f64 / 1e12
            })
        })
        .collect();
    let all_done = o.flows.iter().all(|f| f.status == Status::Done);
    let total_time_s = all_done.then(|| {
        let last = o.flows.iter().map(|f| f.fct_end.0).max().unwrap_or(0);
        last as f64 / 1e12
    });
    let time_s = total_time_s.map(|t| t / c.iterations as f64);
    let factor = collective::bus_factor(c.op, n);
    let algbw = time_s
        .filter(|&t| t > 0.0)
        .map(|t| c.bytes as f64 * 8.0 / t / 1e9);
    CollectiveReport {
        op: c.op.name().into(),
        algorithm: alg.name().into(),
        model: c.model().name().into(),
        ranks: n,
        bytes: c.bytes,
        iterations: c.iterations,
        steps: collective::steps(c.op, alg, &ranks, o.net),
        total_time_s,
        time_s,
        iteration_time_s,
        algbw_gbps: algbw,
        busbw_gbps: algbw.map(|a| a * factor),
        bus_factor: factor,
    }
}

/// A training step's times from its flows: segments are the bucket all-reduces, step by step.
fn training_report(o: &Outcome, t: &crate::scenario::TrainingStepSpec) -> TrainingReport {
    use crate::scenario::CollectiveOp;
    let n = crate::scenario::ranks_of(&t.servers, o.net).len() as u64;
    let buckets = t.buckets();
    let seg = &o.workload.segments;
    let mut step_times_s = Vec::new();
    let mut previous_end = Some(0u64);
    let mut algbw = Vec::new();
    for it in 0..t.iterations as usize {
        let a = seg[it * buckets as usize] as usize;
        let b = seg[(it + 1) * buckets as usize] as usize;
        let end = span(o, a, b).map(|(_, last)| last);
        step_times_s.push(match (end, previous_end) {
            (Some(e), Some(p)) => Some(e.saturating_sub(p) as f64 / 1e12),
            _ => None,
        });
        previous_end = end;
        for k in 0..buckets as usize {
            let i = it * buckets as usize + k;
            if let Some((first, last)) = span(o, seg[i] as usize, seg[i + 1] as usize) {
                let secs = last.saturating_sub(first) as f64 / 1e12;
                if secs > 0.0 {
                    algbw.push(t.bucket_size(k as u64) as f64 * 8.0 / secs / 1e9);
                }
            }
        }
    }
    let all_done = o.flows.iter().all(|f| f.status == Status::Done);
    let step_time_s = all_done
        .then(|| o.flows.iter().map(|f| f.fct_end.0).max().unwrap_or(0) as f64 / 1e12)
        .map(|end| end / t.iterations as f64);
    let compute_s = t.forward_s + t.backward_s;
    let mean_algbw =
        (all_done && !algbw.is_empty()).then(|| algbw.iter().sum::<f64>() / algbw.len() as f64);
    let factor = crate::workload::collective::bus_factor(CollectiveOp::AllReduce, n);
    TrainingReport {
        iterations: t.iterations,
        buckets,
        step_time_s,
        step_times_s,
        compute_s,
        exposed_communication_s: step_time_s.map(|s| s - compute_s),
        algbw_gbps: mean_algbw,
        busbw_gbps: mean_algbw.map(|a| a * factor),
    }
}

fn detour_report(d: &ActiveDetour, net: &Network, carried: &dyn Fn(LinkId) -> f64) -> DetourReport {
    let now: f64 = d.budget_links(net).iter().map(|&l| carried(l)).sum();
    let bits = (d.end_bits.unwrap_or(now) - d.base_bits).max(0.0);
    DetourReport {
        rack: d.rack.clone(),
        side: d.side.name().into(),
        hot_tors: d.hot.iter().map(|&t| net.name(t).to_string()).collect(),
        remote_tors: d
            .remotes
            .iter()
            .map(|r| net.name(r.0).to_string())
            .collect(),
        start_s: d.start.as_secs_f64(),
        end_s: d.end.map(|t| t.as_secs_f64()),
        flows: d.flows,
        max_intermediate_servers: d.max_intermediate,
        bytes: (bits / 8.0).round() as u64,
        time_saved_s: if d.own_gbps > 0.0 {
            bits / (d.own_gbps * 1e9)
        } else {
            0.0
        },
    }
}

#[cfg(test)]
mod tests {
    use super::Stats;

    /// Nearest ranks: p50 of n values is the ceil(n/2)-th smallest, p99 the ceil(0.99 n)-th.
    #[test]
    fn stats_take_nearest_ranks_whatever_the_order() {
        let s = Stats::of(vec![5.0, 1.0, 4.0, 2.0, 3.0]);
        assert_eq!(
            (s.count, s.mean, s.p50, s.p99, s.max),
            (5, Some(3.0), Some(3.0), Some(5.0), Some(5.0))
        );
        // 1..=200 in a scrambled order: p50 = 100th smallest, p99 = 198th
        let v: Vec<f64> = (0..200).map(|i| ((i * 77) % 200 + 1) as f64).collect();
        let s = Stats::of(v);
        assert_eq!(
            (s.p50, s.p99, s.max),
            (Some(100.0), Some(198.0), Some(200.0))
        );
        assert_eq!(s.mean, Some(100.5));
        assert!(Stats::of(Vec::new()).p50.is_none());
    }
}
