//! The scenario: the JSON document the backend hands to the engine (see `schema/scenario.schema.json`,
//! generated from these types by `loopline-sim schema scenario`). Parsing is serde; semantic checks
//! live in [`validate`], which produces the dense [`crate::network::Network`].

mod validate;

pub use crate::model::Role;
pub use validate::{ScenarioError, MAX_FLOWS, MAX_LINK_GBPS, MAX_SKEW, MAX_TIME_S, MIN_LINK_GBPS};

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::model::cdf::Cdf;
use crate::network::Network;
use crate::units::NodeId;

/// Version of the scenario format this build reads.
pub const SCENARIO_SCHEMA_VERSION: u32 = 1;

/// A complete simulation scenario (schema version 1).
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Scenario {
    /// Format version; this build reads version 1.
    pub schema_version: u32,
    /// Free-text name, copied into the result.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// The network: servers, switches and full-duplex links, as exported by the wiring generator.
    pub network: NetworkSpec,
    /// How flows are routed (default `ecmp`).
    #[serde(default)]
    pub routing: RoutingSpec,
    /// The traffic to simulate.
    pub workload: WorkloadSpec,
    /// Engine settings: mode, seed, stop time, failures, latency model, reporting.
    #[serde(default)]
    pub engine: EngineSpec,
}

impl Scenario {
    /// Parse a scenario from JSON text; errors name the JSON path of the offending field.
    pub fn from_json(text: &str) -> Result<Scenario, ScenarioError> {
        // serde would also read a struct from an array of its fields in order (`[1, {...}]`),
        // with errors at paths like `[0]` that name no field: the document is an object.
        if text
            .trim_start_matches([' ', '\t', '\n', '\r'])
            .starts_with('[')
        {
            return Err(ScenarioError::new(
                "",
                "a scenario is a JSON object ({\"schema_version\": 1, ...}), got an array",
            ));
        }
        let error = |e: serde_path_to_error::Error<serde_json::Error>| {
            let path = e.path().to_string();
            let msg = e.into_inner().to_string();
            // Internally tagged enums hide the inner path: find it by parsing the variant alone.
            if path == "workload" || path == "routing" {
                if let Some(inner) = tagged_error(text, &path) {
                    return inner;
                }
            }
            ScenarioError::new(if path == "." { String::new() } else { path }, msg)
        };
        let de = &mut serde_json::Deserializer::from_str(text);
        let sc: Scenario = serde_path_to_error::deserialize(de).map_err(error)?;
        if sc.engine.packet.profile == PacketProfile::Planning {
            return Ok(sc);
        }
        // a profile's values fill the packet settings the document leaves out (read again as a
        // `Value`, which costs memory on large networks: only when a profile is named)
        match with_packet_profile(text) {
            Some(doc) => serde_path_to_error::deserialize(doc).map_err(error),
            None => Ok(sc),
        }
    }
}

/// The document with `engine.packet` completed from the profile it names (`None`: no profile
/// other than `planning` is named, or the document is not one a profile applies to; it is then
/// read, and refused where it must be, as it stands). Keys the document gives are kept: a profile
/// only supplies defaults.
fn with_packet_profile(text: &str) -> Option<serde_json::Value> {
    let mut doc: serde_json::Value = serde_json::from_str(text).ok()?;
    let packet = doc.get_mut("engine")?.get_mut("packet")?.as_object_mut()?;
    let profile: PacketProfile = serde_json::from_value(packet.get("profile")?.clone()).ok()?;
    if profile == PacketProfile::Planning {
        return None;
    }
    let serde_json::Value::Object(defaults) =
        serde_json::to_value(PacketSpec::for_profile(profile)).ok()?
    else {
        return None;
    };
    for (k, v) in defaults {
        packet.entry(k).or_insert(v);
    }
    Some(doc)
}

fn variant_error<T: serde::de::DeserializeOwned>(
    v: serde_json::Value,
    prefix: &str,
) -> Option<ScenarioError> {
    match serde_path_to_error::deserialize::<_, T>(v) {
        Ok(_) => None,
        Err(e) => {
            let p = e.path().to_string();
            let path = if p == "." {
                prefix.to_string()
            } else {
                format!("{prefix}.{p}")
            };
            Some(ScenarioError::new(path, e.into_inner().to_string()))
        }
    }
}

fn tagged_error(text: &str, field: &str) -> Option<ScenarioError> {
    let v: serde_json::Value = serde_json::from_str(text).ok()?;
    let mut obj = v.get(field)?.as_object()?.clone();
    let ty = obj.remove("type")?.as_str()?.to_string();
    let inner = serde_json::Value::Object(obj);
    match (field, ty.as_str()) {
        ("workload", "shuffle") => variant_error::<ShuffleSpec>(inner, field),
        ("workload", "permutation") => variant_error::<PermutationSpec>(inner, field),
        ("workload", "random") => variant_error::<RandomSpec>(inner, field),
        ("workload", "all_to_all") => variant_error::<AllToAllSpec>(inner, field),
        ("workload", "many_to_many") => variant_error::<ManyToManySpec>(inner, field),
        ("workload", "incast" | "query") => variant_error::<QuerySpec>(inner, field),
        ("workload", "poisson") => variant_error::<PoissonSpec>(inner, field),
        ("workload", "memcache") => variant_error::<MemcacheSpec>(inner, field),
        ("workload", "collective") => variant_error::<CollectiveSpec>(inner, field),
        ("workload", "training_step") => variant_error::<TrainingStepSpec>(inner, field),
        ("routing", "adaptive" | "least_work") => variant_error::<AdaptiveParams>(inner, field),
        ("routing", "detour") => variant_error::<DetourParams>(inner, field),
        ("routing", "grin") => variant_error::<GrinParams>(inner, field),
        _ => None,
    }
}

/// Nodes and links.
#[derive(Clone, Debug, Default, Serialize, Deserialize, JsonSchema)]
pub struct NetworkSpec {
    /// Servers and switches. Ids must be unique.
    pub nodes: Vec<NodeSpec>,
    /// Full-duplex links between nodes.
    pub links: Vec<LinkSpec>,
}

/// A server or switch.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
pub struct NodeSpec {
    /// Unique node id (e.g. `H1.R01.K01.L1.S01`).
    pub id: String,
    /// `server`, `tor`, `agg`, `spine` or `core`.
    pub role: Role,
    /// Layer used for up-down (valley-free) routing: server 0, tor 1, agg/spine 2, core 3. Defaults from `role`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub layer: Option<u8>,
    /// Cluster (pod) index, or null. Servers: the cluster of their home ToR.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cluster: Option<i64>,
    /// Subways loop id of a ToR (null when the ToR is not in a loop).
    #[serde(default, rename = "loop", skip_serializing_if = "Option::is_none")]
    pub loop_id: Option<i64>,
    /// Index of a ToR in its loop's cyclic order (null when not in a loop).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub loop_position: Option<u32>,
    /// Physical rack name (informative).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rack: Option<String>,
    /// Logical rack name: servers and the ToR they call their own share it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub logical_rack: Option<String>,
    /// A GPU rank: id of its server's interconnect node (role `interconnect`). Servers only;
    /// given with `rail`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub host: Option<String>,
    /// A GPU rank: its index in its server, 0-based (GPU i, whose compute NIC is cabled to rail
    /// leaf i). Servers only, given with `host`; once per host.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rail: Option<u32>,
}

/// A full-duplex link; `gbps` is the capacity of each direction.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
pub struct LinkSpec {
    /// Optional stable cable id; used in results and to name a link in `engine.failures`. Defaults to `"<a>|<b>#<index>"`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    /// Id of one end node.
    pub a: String,
    /// Id of the other end node.
    pub b: String,
    /// Capacity in Gb/s in each direction, from 0.001 to 10^6.
    pub gbps: f64,
    /// One-way propagation + forwarding latency of the hop in nanoseconds (default 0).
    #[serde(default)]
    pub latency_ns: u64,
}

/// Routing scheme (DESIGN.md section 4).
#[derive(Clone, Debug, Default, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum RoutingSpec {
    /// Per-flow hash over the shortest valley-free (up-down) paths; Subways short paths through a
    /// shared ToR are shortest and therefore preferred.
    #[default]
    Ecmp,
    /// Subways adaptive load balancing as DESIGN.md describes it: each new flow's source ToR is
    /// drawn at random in proportion to the ToRs' spare uplink capacity `B (1 - U)`, its
    /// destination ToR likewise from spare downlink capacity, `U` the EWMA of the utilisation the
    /// ToRs' counters show, read every `t_rebind_s` (decisions in between use the last reading).
    Adaptive(AdaptiveParams),
    /// The stronger, size-aware balancer: each flow takes the path whose busiest link has the
    /// least queued work per unit of capacity (it reads every flow's remaining size, which hosts
    /// do not have), and a controller rebinds flows every `t_rebind_s`.
    LeastWork(AdaptiveParams),
    /// Least-work balancing plus detours through neighbouring servers to ToRs beside a hot group.
    Detour(DetourParams),
    /// VL2 Valiant load balancing: each flow bounces off a random top-layer switch.
    Vlb,
    /// GRIN h1 multipath: direct path preferred plus paths through a GRIN neighbour at either end.
    Grin(GrinParams),
}

impl RoutingSpec {
    pub fn name(&self) -> &'static str {
        match self {
            RoutingSpec::Ecmp => "ecmp",
            RoutingSpec::Adaptive(_) => "adaptive",
            RoutingSpec::LeastWork(_) => "least_work",
            RoutingSpec::Detour(_) => "detour",
            RoutingSpec::Vlb => "vlb",
            RoutingSpec::Grin(_) => "grin",
        }
    }
}

/// Parameters of adaptive and least-work balancing.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct AdaptiveParams {
    /// Controller period `T_rebind` in seconds (default 0.01): `adaptive` reads the ToRs'
    /// counters at its boundaries (the detection period), `least_work` rebinds flows.
    #[serde(default = "d_t_rebind")]
    pub t_rebind_s: f64,
    /// Damping `c` of least-work's target split `t_i = c*u_i*U_target/U_i + (1-c)*u_i`
    /// (default 0.5; `adaptive` does not use it).
    #[serde(default = "d_half")]
    pub c: f64,
    /// EWMA weight of the newest sample of a ToR's load (default 0.5).
    #[serde(default = "d_half")]
    pub ewma: f64,
}

impl Default for AdaptiveParams {
    fn default() -> Self {
        AdaptiveParams {
            t_rebind_s: d_t_rebind(),
            c: 0.5,
            ewma: 0.5,
        }
    }
}

/// Parameters of Subways detour routing (adaptive parameters plus the detour limits).
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DetourParams {
    /// Controller period `T_rebind` in seconds (default 0.01).
    #[serde(default = "d_t_rebind")]
    pub t_rebind_s: f64,
    /// Damping `c` of the adaptive target split (default 0.5).
    #[serde(default = "d_half")]
    pub c: f64,
    /// EWMA weight of the newest load sample (default 0.5).
    #[serde(default = "d_half")]
    pub ewma: f64,
    /// A ToR is hot when its uplink load exceeds this fraction over a whole `t_detect_s` (default 0.6).
    #[serde(default = "d_hot")]
    pub hot_threshold: f64,
    /// Detection window `T_detect` in seconds (default 0.01).
    #[serde(default = "d_t_rebind")]
    pub t_detect_s: f64,
    /// Minimum time a detour stays in place, `T_duration`, in seconds (default 0.1).
    #[serde(default = "d_t_duration")]
    pub t_duration_s: f64,
    /// Fraction of a remote ToR's spare uplink capacity a detour may use (default 0.6).
    #[serde(default = "d_hot")]
    pub spare_fraction: f64,
    /// Maximum number of intermediate (forwarding) servers on a detour (default 2).
    #[serde(default = "d_two")]
    pub max_intermediate_servers: u32,
}

impl Default for DetourParams {
    fn default() -> Self {
        DetourParams {
            t_rebind_s: d_t_rebind(),
            c: 0.5,
            ewma: 0.5,
            hot_threshold: 0.6,
            t_detect_s: d_t_rebind(),
            t_duration_s: d_t_duration(),
            spare_fraction: 0.6,
            max_intermediate_servers: 2,
        }
    }
}

impl DetourParams {
    pub fn adaptive(&self) -> AdaptiveParams {
        AdaptiveParams {
            t_rebind_s: self.t_rebind_s,
            c: self.c,
            ewma: self.ewma,
        }
    }
}

/// Parameters of GRIN h1 multipath.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct GrinParams {
    /// Share of a flow's weight on its direct path; the rest is split equally over the h1 paths (default 0.5).
    #[serde(default = "d_half")]
    pub direct_weight: f64,
}

impl Default for GrinParams {
    fn default() -> Self {
        GrinParams { direct_weight: 0.5 }
    }
}

fn d_t_rebind() -> f64 {
    0.01
}
fn d_t_duration() -> f64 {
    0.1
}
fn d_half() -> f64 {
    0.5
}
fn d_hot() -> f64 {
    0.6
}
fn d_two() -> u32 {
    2
}
fn d_flows_per_pair() -> u32 {
    DEFAULT_FLOWS_PER_PAIR
}
fn d_true() -> bool {
    true
}

/// The traffic to simulate.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum WorkloadSpec {
    /// All-to-all among the given servers, `bytes_per_pair` per ordered pair, all starting at `start_s`.
    Shuffle(ShuffleSpec),
    /// Each server sends `bytes` to one other server, a random derangement.
    Permutation(PermutationSpec),
    /// `flows` flows between uniformly random distinct servers.
    Random(RandomSpec),
    /// All-to-all among all (or the given) servers, `bytes` per ordered pair.
    AllToAll(AllToAllSpec),
    /// `flows_per_pair` parallel flows of `bytes` from every sender to every receiver.
    ManyToMany(ManyToManySpec),
    /// One fan-in (by default): `fan_in` senders each send `response_bytes` to one receiver at once.
    Incast(#[schemars(schema_with = "incast_schema")] QuerySpec),
    /// Repeated fan-ins (partition-aggregate queries) at `rate_per_s`.
    Query(QuerySpec),
    /// Flow sizes from an empirical CDF, Poisson arrivals at a target load of the server links.
    Poisson(PoissonSpec),
    /// Clients send small requests to server racks, large responses return.
    Memcache(MemcacheSpec),
    /// A collective operation (all-reduce, all-gather, reduce-scatter, all-to-all) among ranks,
    /// as NCCL runs it: ring steps chained on the chunk each rank receives.
    Collective(CollectiveSpec),
    /// Data-parallel training steps: forward, then backward producing gradient buckets whose
    /// all-reduces overlap the rest of the backward pass (PyTorch DDP), for `iterations` steps.
    TrainingStep(TrainingStepSpec),
}

impl WorkloadSpec {
    pub fn name(&self) -> &'static str {
        match self {
            WorkloadSpec::Shuffle(_) => "shuffle",
            WorkloadSpec::Permutation(_) => "permutation",
            WorkloadSpec::Random(_) => "random",
            WorkloadSpec::AllToAll(_) => "all_to_all",
            WorkloadSpec::ManyToMany(_) => "many_to_many",
            WorkloadSpec::Incast(_) => "incast",
            WorkloadSpec::Query(_) => "query",
            WorkloadSpec::Poisson(_) => "poisson",
            WorkloadSpec::Memcache(_) => "memcache",
            WorkloadSpec::Collective(_) => "collective",
            WorkloadSpec::TrainingStep(_) => "training_step",
        }
    }

    /// The fan-ins of an `incast` or `query` workload, its default filled in (None for others).
    pub fn query_count(&self) -> Option<u32> {
        match self {
            WorkloadSpec::Incast(q) => Some(q.queries.unwrap_or(DEFAULT_INCAST_QUERIES)),
            WorkloadSpec::Query(q) => Some(q.queries.unwrap_or(DEFAULT_QUERY_QUERIES)),
            _ => None,
        }
    }
}

/// Shuffle parameters.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ShuffleSpec {
    /// Server ids taking part (default: every server).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub servers: Option<Vec<String>>,
    /// Bytes sent from each server to each other server.
    pub bytes_per_pair: u64,
    /// Start time in seconds (default 0).
    #[serde(default)]
    pub start_s: f64,
}

/// Permutation parameters.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PermutationSpec {
    /// Server ids taking part (default: every server).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub servers: Option<Vec<String>>,
    /// Bytes per flow.
    pub bytes: u64,
}

/// Random-pairs parameters.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RandomSpec {
    /// Server ids taking part (default: every server).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub servers: Option<Vec<String>>,
    /// Number of flows.
    pub flows: u64,
    /// Bytes per flow.
    pub bytes: u64,
    /// Poisson arrival rate in flows per second; absent: all flows start at time 0.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rate_per_s: Option<f64>,
}

/// All-to-all parameters.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct AllToAllSpec {
    /// Server ids taking part (default: every server).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub servers: Option<Vec<String>>,
    /// Bytes per ordered pair.
    pub bytes: u64,
}

/// Many-to-many parameters.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ManyToManySpec {
    /// Sending server ids.
    pub senders: Vec<String>,
    /// Receiving server ids (a sender that is also a receiver does not send to itself).
    pub receivers: Vec<String>,
    /// Parallel flows per (sender, receiver) pair (default 1).
    #[serde(default = "d_flows_per_pair")]
    pub flows_per_pair: u32,
    /// Bytes per flow.
    pub bytes: u64,
}

// The workload defaults: the engine is their one owner. The scenario schema carries each as its
// field's `"default"` (the backend and the editor read them there, or from `loopline-sim validate
// --json`'s `defaults_applied`), and scripts/check_rule_owners.py fails on a copy elsewhere.

/// Responders per query or incast when `senders` is absent.
pub const DEFAULT_FAN_IN: u32 = 8;
/// Fan-ins of an `incast` workload when `queries` is absent.
pub const DEFAULT_INCAST_QUERIES: u32 = 1;
/// Fan-ins of a `query` workload when `queries` is absent.
pub const DEFAULT_QUERY_QUERIES: u32 = 100;
/// Query (and incast) arrival rate per second when `rate_per_s` is absent.
pub const DEFAULT_QUERY_RATE_PER_S: f64 = 1000.0;
/// Parallel flows per (sender, receiver) pair of `many_to_many`.
pub const DEFAULT_FLOWS_PER_PAIR: u32 = 1;
/// Memcache request size in bytes.
pub const DEFAULT_MEMCACHE_REQUEST_BYTES: u64 = 100;
/// Memcache response size in bytes.
pub const DEFAULT_MEMCACHE_RESPONSE_BYTES: u64 = 100_000;
/// Memcache request rate per second over all clients.
pub const DEFAULT_MEMCACHE_RATE_PER_S: f64 = 10_000.0;
/// Memcache requests simulated as flows.
pub const DEFAULT_MEMCACHE_REQUESTS: u32 = 1000;
/// Memcache mean-latency bound in microseconds.
pub const DEFAULT_MEMCACHE_LATENCY_BOUND_US: f64 = 1000.0;

/// Incast / query (partition-aggregate) parameters.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct QuerySpec {
    /// Aggregator server id; absent: a random server per query.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub receiver: Option<String>,
    /// Responding server ids; absent: `fan_in` random servers per query.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub senders: Option<Vec<String>>,
    /// Number of responders per query when `senders` is absent (default 8).
    // (`schemars` only: the field stays `None` when absent, so a scenario reads and writes as before)
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(default = "d_fan_in")]
    pub fan_in: Option<u32>,
    /// Bytes of each response.
    pub response_bytes: u64,
    /// Number of queries (default 1 for incast, 100 for query).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(default = "d_query_queries")]
    pub queries: Option<u32>,
    /// Query rate per second, Poisson arrivals (default: 1000 per second).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(default = "d_query_rate")]
    pub rate_per_s: Option<f64>,
}

impl QuerySpec {
    /// Responders per query when `senders` is absent.
    pub fn fan_in(&self) -> u32 {
        self.fan_in.unwrap_or(DEFAULT_FAN_IN)
    }

    /// Query arrivals per second.
    pub fn rate_per_s(&self) -> f64 {
        self.rate_per_s.unwrap_or(DEFAULT_QUERY_RATE_PER_S)
    }
}

fn d_fan_in() -> Option<u32> {
    Some(DEFAULT_FAN_IN)
}
fn d_query_queries() -> Option<u32> {
    Some(DEFAULT_QUERY_QUERIES)
}
fn d_query_rate() -> Option<f64> {
    Some(DEFAULT_QUERY_RATE_PER_S)
}

/// `incast` reads the same fields as `query` with its own default count (one fan-in): the
/// schema says so on the variant.
fn incast_schema(gen: &mut schemars::gen::SchemaGenerator) -> schemars::schema::Schema {
    let mut schema = QuerySpec::json_schema(gen);
    if let schemars::schema::Schema::Object(o) = &mut schema {
        if let Some(schemars::schema::Schema::Object(q)) = o.object().properties.get_mut("queries")
        {
            q.metadata().default = Some(DEFAULT_INCAST_QUERIES.into());
        }
    }
    schema
}

/// An empirical flow-size CDF: a bundled name or explicit points.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum CdfSpec {
    /// Bundled CDF: `websearch`, `datamining`, `hadoop`, `cachefollower` or `webserver`.
    Named(String),
    /// Explicit points.
    Points {
        /// `[bytes, cumulative percent]` points, increasing in both, ending at 100; sizes are
        /// interpolated linearly between points.
        points: Vec<(f64, f64)>,
    },
}

impl CdfSpec {
    /// The CDF this names or lists (the validated model), or why it is not one.
    pub fn to_cdf(&self) -> Result<Cdf, String> {
        match self {
            CdfSpec::Named(name) => Cdf::bundled(name),
            CdfSpec::Points { points } => Cdf::from_percent_points(points.clone()),
        }
    }
}

/// Poisson-arrival parameters.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PoissonSpec {
    /// Flow-size distribution.
    pub cdf: CdfSpec,
    /// Target load as a fraction (0, 1] of the total server link capacity.
    pub load: f64,
    /// Number of flows to generate.
    pub flows: u64,
    /// Server ids taking part (default: every server).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub servers: Option<Vec<String>>,
    /// Only flows between servers of different logical racks (default false): each flow's pair is
    /// drawn uniformly among the ordered pairs of servers in different racks.
    #[serde(default, skip_serializing_if = "is_false")]
    pub inter_rack_only: bool,
}

fn is_false(x: &bool) -> bool {
    !*x
}

/// Memcache parameters.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct MemcacheSpec {
    /// Client server ids (default: every server not in a server rack).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub clients: Option<Vec<String>>,
    /// Logical rack names (the servers' `logical_rack`) holding the cache servers.
    pub server_racks: Vec<String>,
    /// Request size in bytes (default 100).
    #[serde(default = "d_req")]
    pub request_bytes: u64,
    /// Response size in bytes (default 100000).
    #[serde(default = "d_resp")]
    pub response_bytes: u64,
    /// Total request rate per second over all clients, used for the simulated flows (default 10000).
    #[serde(default = "d_rate")]
    pub rate_per_s: f64,
    /// Number of requests to simulate as flows (default 1000).
    #[serde(default = "d_requests")]
    pub requests: u32,
    /// Mean-latency bound in microseconds for the highest-sustainable-rate search (default 1000).
    #[serde(default = "d_bound")]
    pub latency_bound_us: f64,
}

fn d_req() -> u64 {
    DEFAULT_MEMCACHE_REQUEST_BYTES
}
fn d_resp() -> u64 {
    DEFAULT_MEMCACHE_RESPONSE_BYTES
}
fn d_rate() -> f64 {
    DEFAULT_MEMCACHE_RATE_PER_S
}
fn d_requests() -> u32 {
    DEFAULT_MEMCACHE_REQUESTS
}
fn d_bound() -> f64 {
    DEFAULT_MEMCACHE_LATENCY_BOUND_US
}

/// Times a collective is repeated back to back.
pub const DEFAULT_COLLECTIVE_ITERATIONS: u32 = 1;

/// Steps of one iteration of `op` by `algorithm` over `ranks` (hierarchical: inside the
/// servers and across them, see [`hierarchical_steps`]).
pub fn collective_steps(
    op: CollectiveOp,
    algorithm: CollectiveAlgorithm,
    ranks: &[NodeId],
    net: &Network,
) -> u64 {
    let n = ranks.len() as u64;
    match (op, algorithm) {
        (_, CollectiveAlgorithm::Direct) => 1,
        (_, CollectiveAlgorithm::Hierarchical) => {
            let hosts = hierarchy(ranks, net).unwrap_or_default();
            let rails = hosts.first().map_or(0, |g| g.len()) as u64;
            hierarchical_steps(hosts.len() as u64, rails)
        }
        (CollectiveOp::AllReduce, CollectiveAlgorithm::Ring) => 2 * n.saturating_sub(1),
        (_, CollectiveAlgorithm::Ring) => n.saturating_sub(1),
    }
}

/// The ranks of a collective or training step: `servers` (validated ids) or every server.
pub fn ranks_of(servers: &Option<Vec<String>>, net: &Network) -> Vec<NodeId> {
    match servers {
        Some(ids) => ids.iter().filter_map(|s| net.node_id(s)).collect(),
        None => net.servers.clone(),
    }
}

/// GPU ranks grouped by server for the hierarchical algorithm: the servers (interconnects) in
/// the order their first rank appears, each server's ranks by rail. `None` if a rank has no
/// host.
pub fn hierarchy(ranks: &[NodeId], net: &Network) -> Option<Vec<Vec<NodeId>>> {
    let mut hosts: Vec<NodeId> = Vec::new();
    let mut groups: Vec<Vec<NodeId>> = Vec::new();
    let mut at = std::collections::HashMap::new();
    for &r in ranks {
        let h = net.node(r).host?;
        let g = *at.entry(h).or_insert_with(|| {
            hosts.push(h);
            groups.push(Vec::new());
            groups.len() - 1
        });
        groups[g].push(r);
    }
    for g in &mut groups {
        g.sort_by_key(|&r| net.node(r).rail);
    }
    Some(groups)
}

/// Ring edges `ranks[i] -> ranks[i + 1]` whose transfer takes a PXN relay (two flows).
fn relayed_ring_edges(ranks: &[NodeId], net: &Network) -> u64 {
    let n = ranks.len();
    (0..n)
        .filter(|&i| net.pxn_relay(ranks[i], ranks[(i + 1) % n]).is_some())
        .count() as u64
}

/// Ordered pairs of `ranks` whose transfer takes a PXN relay (two flows), counted by rail.
fn relayed_pairs(ranks: &[NodeId], net: &Network) -> u64 {
    use std::collections::HashMap;
    let mut by_rail: HashMap<u32, u64> = HashMap::new();
    let mut by_host_rail: HashMap<(NodeId, u32), u64> = HashMap::new();
    for &r in ranks {
        if let (Some(h), Some(k)) = (net.node(r).host, net.node(r).rail) {
            *by_rail.entry(k).or_default() += 1;
            *by_host_rail.entry((h, k)).or_default() += 1;
        }
    }
    let mut total = 0u64;
    for &a in ranks {
        let (Some(h), Some(ra)) = (net.node(a).host, net.node(a).rail) else {
            continue;
        };
        for (&k, &on_rail) in &by_rail {
            if k != ra && net.gpu_on_rail(h, k).is_some() {
                let same_host = by_host_rail.get(&(h, k)).copied().unwrap_or(0);
                total = total.saturating_add(on_rail - same_host);
            }
        }
    }
    total
}

/// Flows of a ring over `ranks` in `phases` phases of `n - 1` steps each (saturating).
fn ring_flows(ranks: &[NodeId], phases: u64, model: CollectiveModel, net: &Network) -> u64 {
    let n = ranks.len() as u64;
    if n < 2 {
        return 0;
    }
    let per_step = n + relayed_ring_edges(ranks, net);
    let steps = match model {
        CollectiveModel::Steps => phases * (n - 1),
        CollectiveModel::Pipelined => phases,
    };
    steps.saturating_mul(per_step)
}

/// Flows of one iteration of a collective over `ranks` (exact: PXN relays are two flows each;
/// saturating, compared with `MAX_FLOWS`). The generator lays them out in this count.
pub fn collective_iteration_flows(
    op: CollectiveOp,
    algorithm: CollectiveAlgorithm,
    model: CollectiveModel,
    ranks: &[NodeId],
    net: &Network,
) -> u64 {
    let n = ranks.len() as u64;
    let phases = if op == CollectiveOp::AllReduce { 2 } else { 1 };
    match algorithm {
        CollectiveAlgorithm::Direct => n
            .saturating_mul(n.saturating_sub(1))
            .saturating_add(relayed_pairs(ranks, net)),
        CollectiveAlgorithm::Ring => ring_flows(ranks, phases, model, net),
        CollectiveAlgorithm::Hierarchical => {
            let Some(hosts) = hierarchy(ranks, net) else {
                return 0;
            };
            // inside each server: reduce-scatter and all-gather; across: a ring per rail
            let inside: u64 = hosts
                .iter()
                .map(|g| ring_flows(g, 2, model, net))
                .fold(0, u64::saturating_add);
            let rails = hosts.first().map_or(0, |g| g.len());
            let across: u64 = (0..rails)
                .map(|j| {
                    let ring: Vec<NodeId> = hosts.iter().map(|g| g[j]).collect();
                    ring_flows(&ring, 2, model, net)
                })
                .fold(0, u64::saturating_add);
            inside.saturating_add(across)
        }
    }
}

/// Steps of one hierarchical all-reduce over `hosts` servers of `rails` GPUs: reduce-scatter
/// and all-gather inside (`rails - 1` each), a ring all-reduce across (`2 (hosts - 1)`).
pub fn hierarchical_steps(hosts: u64, rails: u64) -> u64 {
    2 * rails.saturating_sub(1) + 2 * hosts.saturating_sub(1)
}

/// A collective operation, named as NCCL names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum CollectiveOp {
    /// Every rank ends with the sum of every rank's `bytes`: reduce-scatter then all-gather.
    AllReduce,
    /// Every rank ends with every rank's `bytes / ranks` chunk (`bytes` is the gathered size).
    AllGather,
    /// Every rank ends with its `bytes / ranks` chunk of the sum of every rank's `bytes`.
    ReduceScatter,
    /// Every rank sends a distinct `bytes / ranks` chunk to every other rank.
    AllToAll,
}

impl CollectiveOp {
    pub fn name(self) -> &'static str {
        match self {
            CollectiveOp::AllReduce => "all_reduce",
            CollectiveOp::AllGather => "all_gather",
            CollectiveOp::ReduceScatter => "reduce_scatter",
            CollectiveOp::AllToAll => "all_to_all",
        }
    }

    /// The algorithm used when the scenario names none: `ring`, or `direct` for all-to-all.
    pub fn default_algorithm(self) -> CollectiveAlgorithm {
        match self {
            CollectiveOp::AllToAll => CollectiveAlgorithm::Direct,
            _ => CollectiveAlgorithm::Ring,
        }
    }
}

/// How a collective's data moves between ranks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum CollectiveAlgorithm {
    /// Ranks in a ring (the `servers` order): each step every rank sends one `bytes / ranks`
    /// chunk to the next rank, once it has received the previous step's chunk
    /// (all-reduce, all-gather, reduce-scatter).
    Ring,
    /// Every rank sends to every other rank at once (all-to-all).
    Direct,
    /// All-reduce over GPU ranks (every rank with `host` and `rail`, every host with the same
    /// rails): a reduce-scatter ring inside each server over its interconnect, then a ring
    /// all-reduce per rail across the servers, then an all-gather ring inside each server.
    Hierarchical,
}

impl CollectiveAlgorithm {
    pub fn name(self) -> &'static str {
        match self {
            CollectiveAlgorithm::Ring => "ring",
            CollectiveAlgorithm::Direct => "direct",
            CollectiveAlgorithm::Hierarchical => "hierarchical",
        }
    }
}

/// How a ring's steps become flows.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum CollectiveModel {
    /// Every ring step is one flow of a chunk, started when the chunk it forwards has arrived.
    #[default]
    Steps,
    /// One flow per ring edge per phase (reduce-scatter, all-gather) carrying all of that
    /// phase's bytes, plus the latency terms of the phase's other steps: NCCL's pipelining,
    /// and a flow count that scales to thousands of GPUs.
    Pipelined,
}

impl CollectiveModel {
    pub fn name(self) -> &'static str {
        match self {
            CollectiveModel::Steps => "steps",
            CollectiveModel::Pipelined => "pipelined",
        }
    }
}

/// Collective parameters.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CollectiveSpec {
    /// The operation.
    pub op: CollectiveOp,
    /// `ring` (all-reduce, all-gather, reduce-scatter) or `direct` (all-to-all); absent: `ring`,
    /// or `direct` for all-to-all.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub algorithm: Option<CollectiveAlgorithm>,
    /// Server ids of the ranks, in ring order (default: every server, in the network's order).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub servers: Option<Vec<String>>,
    /// Message size per rank in bytes, as nccl-tests' `size` (all-gather: the gathered buffer;
    /// every flow carries a `bytes / ranks` chunk, the first `bytes mod ranks` chunks one byte more).
    pub bytes: u64,
    /// Times the collective runs, back to back: an iteration's first step starts when the
    /// previous iteration's last step has delivered the chunk it waits for (default 1).
    #[serde(default = "d_iterations")]
    pub iterations: u32,
    /// `steps` (default: a flow per ring step) or `pipelined` (a flow per ring edge and phase).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(default = "d_model_steps")]
    pub model: Option<CollectiveModel>,
    /// All-to-all only: mixture-of-experts imbalance, the Zipf exponent of the destinations'
    /// popularity over a seeded permutation of the ranks (default 0: uniform). Each rank sends
    /// what it sends uniformly, split over the others in proportion to their popularity.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(default = "d_skew")]
    pub skew: Option<f64>,
    /// GPU ranks: NCCL's software latency on top of the network's (default true; see
    /// [`NcclLatency`]); false: the network's latency alone.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(default = "d_software_latency")]
    pub software_latency: Option<bool>,
}

/// What a collective over GPU ranks pays besides the network's latency: NCCL's own latency
/// model, its tuning model's figures for the Ring algorithm and the Simple protocol (NVIDIA/nccl
/// `src/graph/tuning.cc`, `baseLat` and `hwLat`), which make small messages latency-bound as
/// nccl-tests measures them.
pub struct NcclLatency;

impl NcclLatency {
    /// Once per collective (`baseLat`, Ring / Simple), microseconds.
    pub const BASE_US: f64 = 8.4;
    /// Each step between GPUs of one server (`hwLat`, NVLink, Ring / Simple), microseconds.
    pub const INTERCONNECT_STEP_US: f64 = 3.4;
    /// Each step over the network (`hwLat`, NET, Ring / Simple), microseconds.
    pub const NETWORK_STEP_US: f64 = 9.6;
}

fn d_software_latency() -> Option<bool> {
    Some(true)
}

impl CollectiveSpec {
    /// The algorithm, its default filled in.
    pub fn algorithm(&self) -> CollectiveAlgorithm {
        self.algorithm.unwrap_or(self.op.default_algorithm())
    }
    /// The model, its default (`steps`) filled in.
    pub fn model(&self) -> CollectiveModel {
        self.model.unwrap_or_default()
    }
    /// The skew, its default (0) filled in.
    pub fn skew(&self) -> f64 {
        self.skew.unwrap_or(0.0)
    }
    /// Whether NCCL's software latency is paid, its default (true) filled in.
    pub fn software_latency(&self) -> bool {
        self.software_latency.unwrap_or(true)
    }
}

fn d_model_steps() -> Option<CollectiveModel> {
    Some(CollectiveModel::Steps)
}
fn d_model_pipelined() -> CollectiveModel {
    CollectiveModel::Pipelined
}
fn d_skew() -> Option<f64> {
    Some(0.0)
}

/// PyTorch DDP's default bucket size (`bucket_cap_mb` = 25), bytes.
pub const DEFAULT_BUCKET_BYTES: u64 = 25_000_000;
/// Training steps simulated.
pub const DEFAULT_TRAINING_ITERATIONS: u32 = 1;

fn d_bucket_bytes() -> u64 {
    DEFAULT_BUCKET_BYTES
}
fn d_training_iterations() -> u32 {
    DEFAULT_TRAINING_ITERATIONS
}
fn d_ring() -> CollectiveAlgorithm {
    CollectiveAlgorithm::Ring
}

/// Data-parallel training step parameters.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TrainingStepSpec {
    /// Rank ids, in ring order (default: every server, in the network's order).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub servers: Option<Vec<String>>,
    /// Gradient bytes per rank, all-reduced every step.
    pub gradient_bytes: u64,
    /// Gradient bucket size, bytes (default 25,000,000: PyTorch DDP's `bucket_cap_mb`): the
    /// gradient is all-reduced in `ceil(gradient_bytes / bucket_bytes)` buckets, the last one
    /// smaller.
    #[serde(default = "d_bucket_bytes")]
    pub bucket_bytes: u64,
    /// Forward pass compute time per step, seconds.
    pub forward_s: f64,
    /// Backward pass compute time per step, seconds; the buckets become ready evenly over it.
    pub backward_s: f64,
    /// Training steps, back to back per rank (default 1).
    #[serde(default = "d_training_iterations")]
    pub iterations: u32,
    /// The buckets' all-reduce: `ring` (default) or `hierarchical`.
    #[serde(default = "d_ring")]
    pub algorithm: CollectiveAlgorithm,
    /// `pipelined` (default) or `steps` (see the collective workload).
    #[serde(default = "d_model_pipelined")]
    pub model: CollectiveModel,
    /// NCCL's software latency on top of the network's (default true; see the collective
    /// workload); false: the network's latency alone.
    #[serde(default = "d_true")]
    pub software_latency: bool,
}

impl TrainingStepSpec {
    /// Buckets of a step: `ceil(gradient_bytes / bucket_bytes)`.
    pub fn buckets(&self) -> u64 {
        self.gradient_bytes.div_ceil(self.bucket_bytes.max(1))
    }
    /// Bytes of bucket `b`: `bucket_bytes`, the last one what is left.
    pub fn bucket_size(&self, b: u64) -> u64 {
        let full = self.bucket_bytes.max(1);
        if b + 1 < self.buckets() {
            full
        } else {
            self.gradient_bytes - full * (self.buckets() - 1)
        }
    }
}

fn d_iterations() -> u32 {
    DEFAULT_COLLECTIVE_ITERATIONS
}

/// Engine mode.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Mode {
    /// Fluid weighted max-min fair rates (this build).
    #[default]
    Flow,
    /// Packet-level simulation: links, drop-tail queues and TCP (settings in `engine.packet`).
    Packet,
    /// Link-level decomposition: every busy link simulated on its own at packet level (with
    /// `engine.packet`'s settings) with the flows that cross it, the per-hop delays summed along
    /// each flow's path (settings in `engine.decomposed`; see sim-engine/README.md).
    Decomposed,
}

/// Settings of decomposed mode (`engine.decomposed`).
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DecomposedSpec {
    /// Links of one capacity and shape are simulated once for all when their offered load, mean
    /// flow size and distinct senders each differ by at most this fraction (of the larger value)
    /// and the coefficients of variation of their flows' inter-arrival times by at most this much;
    /// the others take the representative's delays (default 0.1; 0: every busy link simulated).
    #[serde(default = "d_cluster_threshold")]
    pub cluster_threshold: f64,
    /// A flow whose busiest link (in a fluid run of the whole scenario) is elsewhere reaches a
    /// link's simulation at its fluid rate, as it does in the network, paced by that bottleneck;
    /// links within this fraction of its busiest link's utilisation count as its bottleneck too,
    /// where it comes at line rate (default 0.25; 1: no flow paced).
    #[serde(default = "d_bottleneck_margin")]
    pub bottleneck_margin: f64,
}

/// The default `engine.decomposed.cluster_threshold`.
pub const DEFAULT_CLUSTER_THRESHOLD: f64 = 0.1;

fn d_cluster_threshold() -> f64 {
    DEFAULT_CLUSTER_THRESHOLD
}

/// The default `engine.decomposed.bottleneck_margin`.
pub const DEFAULT_BOTTLENECK_MARGIN: f64 = 0.25;

fn d_bottleneck_margin() -> f64 {
    DEFAULT_BOTTLENECK_MARGIN
}

impl Default for DecomposedSpec {
    fn default() -> Self {
        DecomposedSpec {
            cluster_threshold: DEFAULT_CLUSTER_THRESHOLD,
            bottleneck_margin: DEFAULT_BOTTLENECK_MARGIN,
        }
    }
}

/// Engine settings.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct EngineSpec {
    /// `flow` (default: fluid max-min rates, fast estimate), `packet` (packet-level: queues,
    /// TCP, exact tails; slower) or `decomposed` (each busy link at packet level on its own,
    /// delays combined along paths: tails at scale).
    #[serde(default)]
    pub mode: Mode,
    /// Seed of every random choice (default 1). Same scenario and seed give byte-identical results.
    #[serde(default = "d_seed")]
    pub seed: u64,
    /// Stop the simulation at this simulated time in seconds (default: run until every flow finishes).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stop_time_s: Option<f64>,
    /// Links and switches that fail (and optionally recover) at given times, in flow and in packet mode.
    #[serde(default)]
    pub failures: Vec<FailureSpec>,
    /// Optional latency terms added to flow completion times.
    #[serde(default)]
    pub latency: LatencySpec,
    /// Include per-link utilisation time series in the result (default true).
    #[serde(default = "d_true")]
    pub link_series: bool,
    /// Goodput factor in [0.01, 1] (default 1): every link carries at most this share of its
    /// capacity as payload (protocol overhead: headers, ACKs), so fluid completion times can be
    /// set against measured goodput. Utilisations stay relative to the full capacity.
    #[serde(default = "d_one_f64", skip_serializing_if = "is_one")]
    pub goodput_factor: f64,
    /// Include one record per flow in the result's `flow_records` (default false): index, end
    /// points, size, start, completion time and slowdown, for exact completion-time CDFs and
    /// per-flow tables. About 150 bytes of JSON per flow.
    #[serde(default, skip_serializing_if = "is_false")]
    pub flow_records: bool,
    /// Packet-mode settings (read when `mode` is `packet` or `decomposed`; every field optional).
    #[serde(default)]
    pub packet: PacketSpec,
    /// Decomposed-mode settings (read only when `mode` is `decomposed`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub decomposed: Option<DecomposedSpec>,
}

fn d_one_f64() -> f64 {
    1.0
}

fn is_one(x: &f64) -> bool {
    *x == 1.0
}

fn d_seed() -> u64 {
    1
}

impl Default for EngineSpec {
    fn default() -> Self {
        EngineSpec {
            mode: Mode::Flow,
            seed: 1,
            stop_time_s: None,
            failures: Vec::new(),
            latency: LatencySpec::default(),
            link_series: true,
            goodput_factor: 1.0,
            flow_records: false,
            packet: PacketSpec::default(),
            decomposed: None,
        }
    }
}

/// Transport protocol of packet mode.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Transport {
    /// TCP NewReno: slow start, congestion avoidance, fast retransmit and recovery, RTO.
    #[default]
    Newreno,
    /// DCTCP: NewReno's loss recovery; the window is cut by `alpha/2` once per window of data
    /// when ECN marks come back (`alpha`: EWMA of the marked fraction, gain 1/16).
    Dctcp,
    /// MPTCP with LIA coupled congestion control over every path the routing gives a flow
    /// (GRIN path sets, a Subways server's several ToRs); single-path flows are plain NewReno.
    Mptcp,
}

/// Order of packet-mode events that fall on the same picosecond.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum TieOrder {
    /// A draw from the seeded generator: no sender wins every tie at a full queue (with equal
    /// links and packets, a fixed order locks some flows out of a queue: phase effects).
    #[default]
    Random,
    /// The order the events were scheduled in, as htsim's event list: the engine then steps
    /// through the same events in the same order as htsim (the comparison with htsim uses it).
    Scheduled,
}

/// How a server's NIC orders the packets it has to send.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum HostQueue {
    /// ACKs first, then one data packet from each connection in turn (htsim's host queue,
    /// Linux's `fq` queueing discipline).
    #[default]
    Fair,
    /// ACKs first, then data packets in the order the connections handed them over.
    Fifo,
}

/// A switch buffer shared by all its output ports, with the dynamic threshold of Choudhury and
/// Hahne: a port may queue a packet while its backlog stays under `alpha` times the free buffer.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SharedBufferSpec {
    /// Buffer of each switch, shared by its output ports, in bytes.
    pub bytes: u64,
    /// Dynamic-threshold factor (default 1).
    #[serde(default = "d_one_f64")]
    pub alpha: f64,
}

/// A named set of packet-mode defaults (`engine.packet.profile`): every packet setting the
/// scenario leaves out takes the profile's value; the ones it gives are kept.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum PacketProfile {
    /// The engine's planning defaults (each field's default below).
    #[default]
    Planning,
    /// htsim's TCP as `sim-engine/compare` runs it beside the engine (the Subways and GRIN
    /// papers' simulator): a first flight of 11 packets (window 10 opened by the SYN-ACK),
    /// ssthresh 100 packets, minimum RTO 250 ms (3 s before the first sample) checked every
    /// 10 ms, same-time events in scheduling order, only full packets.
    Htsim,
    /// A Linux host's TCP defaults: initial window 10 (RFC 6928, `TCP_INIT_CWND`), minimum RTO
    /// 200 ms (`TCP_RTO_MIN`), 1 s before the first sample (`TCP_TIMEOUT_INIT`, RFC 6298), no
    /// initial ssthresh; MSS 1,448 bytes (1,500-byte IP MTU less 20 IP, 20 TCP and 12 timestamp
    /// option bytes: `net.ipv4.tcp_timestamps` is on by default, RFC 7323), counted on the wire
    /// with Ethernet's 38 bytes per frame (14 header, 4 FCS, 8 preamble, 12 inter-frame gap:
    /// IEEE 802.3): 1,538-byte packets of 90 header bytes and 90-byte ACKs. Not modelled:
    /// delayed ACKs (the receiver ACKs every packet), Linux's RTO of srtt + max(4 rttvar,
    /// 200 ms) (the engine's is max(200 ms, srtt + 4 rttvar): at most one RTT less). The switch
    /// buffer is not set by the profile: no sourced figure for a testbed switch is at hand (see
    /// sim-engine/README.md); give `shared_buffer` from the switch's datasheet.
    Linux,
}

/// Packet-mode settings (`engine.packet`). The defaults match htsim's (the packet simulator of
/// the Subways and GRIN papers) where it has one: see sim-engine/README.md.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PacketSpec {
    /// Named defaults for the fields left out: `planning` (default), `htsim` or `linux` (see
    /// sim-engine/README.md, "Packet mode"). Fields given explicitly override the profile's.
    #[serde(default, skip_serializing_if = "PacketProfile::is_planning")]
    pub profile: PacketProfile,
    /// Largest packet on the wire in bytes, headers included (default 1500).
    #[serde(default = "d_mtu")]
    pub mtu_bytes: u64,
    /// Bytes of every data packet that are not payload (default 0, as htsim, which counts all
    /// 1,500 bytes of a packet as the flow's): a full packet carries `mtu_bytes - header_bytes`.
    #[serde(default)]
    pub header_bytes: u64,
    /// Size of a pure ACK (and of a SYN-ACK) on the wire in bytes (default 40, htsim's TCP ACK).
    #[serde(default = "d_ack")]
    pub ack_bytes: u64,
    /// Drop-tail buffer of every switch output port in bytes, the packet being sent included
    /// (default 150000: 100 packets of 1500 bytes, htsim's usual queue).
    #[serde(default = "d_buffer")]
    pub buffer_bytes: u64,
    /// Drop-tail buffer of a server's NIC in bytes (null, default: unbounded, as htsim's host
    /// queue; the NIC sends ACKs before data).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub host_buffer_bytes: Option<u64>,
    /// Forwarding latency of a switch, added to every hop that enters a switch, ns (default 0).
    #[serde(default)]
    pub switch_latency_ns: u64,
    /// TCP initial congestion window in full packets (default 10).
    #[serde(default = "d_iw")]
    pub initial_window_packets: u32,
    /// TCP initial slow-start threshold in full packets (null, default: unlimited; htsim's
    /// TCP starts at 100).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub initial_ssthresh_packets: Option<u32>,
    /// Open every TCP connection with a handshake (default true, as htsim): a SYN of 1 byte on
    /// the wire and a SYN-ACK of `ack_bytes`, so data starts one round trip after the flow.
    #[serde(default = "d_true")]
    pub handshake: bool,
    /// Minimum (and initial) TCP retransmission timeout in ms (default 1).
    #[serde(default = "d_rto_min")]
    pub rto_min_ms: f64,
    /// Retransmission timeout before the first RTT sample (the SYN's), ms (null, default:
    /// `rto_min_ms`; htsim's TCP: 3000).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rto_initial_ms: Option<f64>,
    /// Check retransmission timers only every this many ms, as htsim's timer scanner (10 ms):
    /// a timer then fires at the first check after its deadline (null, default: exactly at it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rto_scan_ms: Option<f64>,
    /// Send the flows of the request/response workloads (memcache requests and responses,
    /// query and incast responses) as UDP datagrams instead of TCP (default false): all of a
    /// flow's packets go to the NIC at once, with no ACK, handshake or retransmission; a flow
    /// is done when its last byte arrives, and a flow that lost a packet never is.
    #[serde(default)]
    pub udp_requests: bool,
    /// `newreno` (default), `dctcp` or `mptcp`.
    #[serde(default)]
    pub transport: Transport,
    /// Mark ECN (CE) on a packet that finds this many bytes or more queued at its output port
    /// (null: no marking; with `dctcp`, null means 20 full packets, 20 x `mtu_bytes`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ecn_threshold_bytes: Option<u64>,
    /// A switch buffer shared by its ports with a dynamic threshold (null, default: every port
    /// has its own `buffer_bytes`). Servers' NICs keep `buffer_bytes`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shared_buffer: Option<SharedBufferSpec>,
    /// Packet spraying: each packet of a flow takes one of the flow's equal-cost paths in turn
    /// (up to 8 per flow), instead of the flow's one path (default false).
    #[serde(default)]
    pub spraying: bool,
    /// Adaptive and detour routing: a flow may move to the path its router gives now only after
    /// it paused this long (a flowlet gap), in microseconds (default 50).
    #[serde(default = "d_flowlet")]
    pub flowlet_gap_us: f64,
    /// Order of events on the same picosecond: `random` (default) or `scheduled` (htsim's).
    #[serde(default)]
    pub tie_order: TieOrder,
    /// A server NIC's queue: `fair` (default: ACKs first, then connections in turn) or `fifo`.
    #[serde(default)]
    pub host_queue: HostQueue,
    /// Send only full packets: a TCP or UDP flow's last packet is padded to a full one, as in
    /// htsim, whose packets are all full (default false: the last packet carries what is left).
    #[serde(default)]
    pub whole_packets: bool,
}

fn d_ack() -> u64 {
    40
}
fn d_buffer() -> u64 {
    150_000
}
fn d_iw() -> u32 {
    10
}
fn d_rto_min() -> f64 {
    1.0
}
fn d_flowlet() -> f64 {
    50.0
}

impl PacketProfile {
    fn is_planning(&self) -> bool {
        *self == PacketProfile::Planning
    }
}

impl PacketSpec {
    /// The settings a profile gives every field (the scenario's own values override them).
    pub fn for_profile(profile: PacketProfile) -> PacketSpec {
        let base = PacketSpec {
            profile,
            ..PacketSpec::default()
        };
        match profile {
            PacketProfile::Planning => base,
            PacketProfile::Htsim => PacketSpec {
                initial_window_packets: 11,
                initial_ssthresh_packets: Some(100),
                rto_min_ms: 250.0,
                rto_initial_ms: Some(3000.0),
                rto_scan_ms: Some(10.0),
                tie_order: TieOrder::Scheduled,
                whole_packets: true,
                ..base
            },
            PacketProfile::Linux => PacketSpec {
                mtu_bytes: 1538,
                header_bytes: 90,
                ack_bytes: 90,
                initial_window_packets: 10,
                initial_ssthresh_packets: None,
                rto_min_ms: 200.0,
                rto_initial_ms: Some(1000.0),
                rto_scan_ms: None,
                ..base
            },
        }
    }
}

impl Default for PacketSpec {
    fn default() -> Self {
        PacketSpec {
            profile: PacketProfile::Planning,
            mtu_bytes: d_mtu(),
            header_bytes: 0,
            ack_bytes: d_ack(),
            buffer_bytes: d_buffer(),
            host_buffer_bytes: None,
            switch_latency_ns: 0,
            initial_window_packets: d_iw(),
            initial_ssthresh_packets: None,
            handshake: true,
            rto_scan_ms: None,
            rto_initial_ms: None,
            udp_requests: false,
            rto_min_ms: d_rto_min(),
            transport: Transport::Newreno,
            ecn_threshold_bytes: None,
            shared_buffer: None,
            spraying: false,
            flowlet_gap_us: d_flowlet(),
            tie_order: TieOrder::Random,
            host_queue: HostQueue::Fair,
            whole_packets: false,
        }
    }
}

/// Latency terms so that small flows get realistic completion times. The fluid transfer itself is
/// unchanged; the terms are added to each flow's completion time (and to its ideal).
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct LatencySpec {
    /// Add the path's base delay: one-way latency of every hop plus store-and-forward serialisation of one MTU per hop (default false).
    #[serde(default)]
    pub base_rtt: bool,
    /// Add TCP slow-start rounds: extra round trips before the window covers the flow or the bandwidth-delay product (default false).
    #[serde(default)]
    pub slow_start: bool,
    /// MTU in bytes for serialisation (default 1500).
    #[serde(default = "d_mtu")]
    pub mtu_bytes: u64,
    /// Initial congestion window in bytes (default 14600, i.e. 10 segments).
    #[serde(default = "d_cwnd")]
    pub init_cwnd_bytes: u64,
}

fn d_mtu() -> u64 {
    1500
}
fn d_cwnd() -> u64 {
    14600
}

impl Default for LatencySpec {
    fn default() -> Self {
        LatencySpec {
            base_rtt: false,
            slow_start: false,
            mtu_bytes: 1500,
            init_cwnd_bytes: 14600,
        }
    }
}

/// A link given by its id or by its two end nodes.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum LinkRef {
    /// The link's `id` (or its default id `"<a>|<b>#<index>"`).
    Id(String),
    /// The first link joining nodes `a` and `b` (either order).
    Ends {
        /// One end node id.
        a: String,
        /// The other end node id.
        b: String,
    },
}

/// A failure of one link (both directions) or one node (all its links).
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FailureSpec {
    /// Time of the failure in seconds.
    pub at_s: f64,
    /// The failing link (exactly one of `link` and `node`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub link: Option<LinkRef>,
    /// The failing node, usually a switch (exactly one of `link` and `node`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub node: Option<String>,
    /// Recovery time in seconds (absent: stays down).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub recover_at_s: Option<f64>,
}
