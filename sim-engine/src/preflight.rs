//! What the backend needs to know about a scenario before it runs it (`loopline-sim validate
//! --json`, `schema/validation.schema.json`): how many flows the workload makes, their bytes and
//! the links they cross, the workload defaults the engine applied, the engine's names of the
//! links, and the inputs of the run-time estimate (`backend/loopline/domain/sim_estimate.py`
//! keeps only its timing constants and multiplies them with these).
//!
//! The figures are counted from the validated scenario as the generator reads it: flow counts
//! are exact (the one count that depends on random draws, fan-ins with named senders and a
//! random receiver, is counted by generating the workload). Links crossed are those of the
//! shortest server-to-server path over switches, which is a Clos's up-down path (routings that
//! take longer paths, VLB or detours, cross more); random pairings use the mean over the pairs
//! they draw from, taken from at most [`MAX_SOURCE_GROUPS`] source groups.

use std::collections::{HashMap, HashSet, VecDeque};

use schemars::JsonSchema;
use serde::Serialize;

use crate::network::Network;
use crate::scenario::{Mode, Scenario, WorkloadSpec};
use crate::units::NodeId;

/// Version of the validation document.
pub const VALIDATION_SCHEMA_VERSION: u32 = 1;

/// Fan-ins with named senders and a random receiver are counted by generating them up to this many
/// flows (their bound: queries x senders; 40 MB of flow specs); beyond, the bound is reported and
/// `flows_exact` is false (a request's validation must not allocate what a run would).
pub const EXACT_COUNT_MAX: u64 = 1_000_000;

/// Mean hop counts are taken from at most this many evenly spaced source groups (servers on the
/// same switches in the same logical rack): exact for any plan with up to 64 ToRs, a sample beyond.
pub const MAX_SOURCE_GROUPS: usize = 64;

/// `loopline-sim validate --json`: a valid scenario as the engine reads it.
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct Validation {
    /// Version of this document (1).
    pub schema_version: u32,
    /// Nodes of the network.
    pub nodes: usize,
    /// Servers of the network.
    pub servers: usize,
    /// Full-duplex links of the network.
    pub links: usize,
    /// Routing scheme (`ecmp`, `adaptive`, ...).
    pub routing: &'static str,
    /// Engine mode the scenario asks for.
    pub mode: Mode,
    /// The workload as the engine generates it.
    pub workload: WorkloadSummary,
    /// The engine's name of every link, in scenario order: its `id`, or `a|b#i` for the `i`-th
    /// link of the list when it has none (what results and failures call it).
    pub link_ids: Vec<String>,
    /// Inputs of the run-time estimate; null when a flow's servers have no path over switches
    /// (`unestimable` says which).
    pub estimate: Option<EstimateInputs>,
    /// Why there is no estimate (null when there is one).
    pub unestimable: Option<String>,
}

/// The flows a workload makes.
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct WorkloadSummary {
    /// Workload type (`shuffle`, `incast`, ...).
    #[serde(rename = "type")]
    pub kind: &'static str,
    /// Flows the engine generates (exact unless `flows_exact` is false).
    pub flows: u64,
    /// False only for fan-ins with named senders and a random receiver of more than 1,000,000
    /// flows: `flows` is then their bound, queries x senders (a receiver drawn among the senders
    /// does not send to itself, so the engine generates somewhat fewer).
    pub flows_exact: bool,
    /// Bytes of all flows (for sizes drawn from a CDF: flows x the CDF's mean).
    pub bytes: f64,
    /// Links a flow crosses, on average over the workload's bytes (null: no estimate).
    pub mean_hops: Option<f64>,
    /// The flows by kind: most workloads have one class, memcache two (requests, responses).
    pub classes: Vec<FlowClass>,
    /// The workload fields the scenario left out and the engine filled with its default, in
    /// schema order (`workload.fan_in` only when `senders` is absent, as it is read only then).
    pub defaults_applied: Vec<AppliedDefault>,
}

/// Flows of one size crossing, on average, the same number of links.
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct FlowClass {
    /// `flows`, or memcache's `requests` and `responses`.
    pub name: &'static str,
    /// Number of flows.
    pub flows: u64,
    /// Bytes of each flow (for sizes drawn from a CDF: its mean).
    pub bytes_per_flow: f64,
    /// Sizes drawn from a distribution (half a packet more per flow on average).
    pub sizes_drawn: bool,
    /// Mean links crossed (null: no estimate).
    pub hops: Option<f64>,
}

/// A workload field the engine filled with its default.
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct AppliedDefault {
    /// JSON path of the field (e.g. `workload.fan_in`).
    pub field: String,
    /// The value used.
    pub value: serde_json::Value,
}

/// What the run-time estimate multiplies its timing constants with.
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct EstimateInputs {
    /// Flows (flow mode's cost).
    pub flows: u64,
    /// Bytes of all flows.
    pub bytes: f64,
    /// Links a flow crosses, on average over the bytes.
    pub mean_hops: f64,
    /// Packets in packet mode (`engine.packet`'s MTU less its header per packet, the profile's
    /// values where the scenario names one), before any stop time.
    pub packets: f64,
    /// Packets times the links each crosses; capped by the stop time when one is set (no more
    /// than the servers' links can send in that time).
    pub packet_hops: f64,
    /// Directed links (ports): two per cable.
    pub directed_links: u64,
    /// Packets the switch buffers can hold at most (every port's `buffer_bytes` in whole
    /// packets), or all packets when fewer: packet mode's pool.
    pub pool_packets: f64,
}

/// `count` flows of `bytes` each (a mean, for drawn sizes) crossing `hops` links.
struct Class {
    name: &'static str,
    count: u64,
    bytes: f64,
    hops: Result<f64, String>,
    drawn: bool,
}

impl Class {
    fn packets(&self, payload: u64) -> f64 {
        if self.drawn {
            self.bytes / payload as f64 + 0.5
        } else {
            (self.bytes / payload as f64).ceil()
        }
    }
}

/// The summary of a scenario that [`Scenario::validate`] accepted, `net` being its network.
/// `given` is the scenario's own `workload` object (to tell the defaults it left out).
pub fn summarize(sc: &Scenario, net: &Network, given: Option<&serde_json::Value>) -> Validation {
    let graph = Graph::of(net);
    let mut classes = classes(sc, net, &graph);
    let mut flows_exact = true;
    match drawn_fan_in_count(sc, net, classes.first().map_or(0, |c| c.count)) {
        Some(Some(n)) => classes[0].count = n,
        Some(None) => flows_exact = false,
        None => {}
    }
    let flows: u64 = classes.iter().map(|c| c.count).sum();
    let total_bytes: f64 = classes.iter().map(|c| c.count as f64 * c.bytes).sum();
    let hops: Result<Vec<f64>, String> = classes.iter().map(|c| c.hops.clone()).collect();
    let estimate = hops.as_ref().ok().map(|hops| {
        let p = &sc.engine.packet;
        let payload = p.mtu_bytes - p.header_bytes;
        let mut packets = 0.0;
        let mut packet_hops = 0.0;
        let mut byte_hops = 0.0;
        for (c, &h) in classes.iter().zip(hops) {
            let count = c.count as f64;
            packets += count * c.packets(payload);
            packet_hops += count * c.packets(payload) * h;
            byte_hops += count * c.bytes * h;
        }
        if let Some(stop) = sc.engine.stop_time_s {
            if stop > 0.0 {
                let most = stop * graph.server_link_bytes_per_s(net) / p.mtu_bytes as f64;
                if packets > most {
                    packet_hops *= most / packets;
                }
            }
        }
        let ports = 2 * net.link_names.len() as u64;
        let per_port = (p.buffer_bytes as f64 / p.mtu_bytes as f64).ceil();
        EstimateInputs {
            flows,
            bytes: total_bytes,
            mean_hops: if total_bytes > 0.0 {
                byte_hops / total_bytes
            } else {
                0.0
            },
            packets,
            packet_hops,
            directed_links: ports,
            pool_packets: packets.min(ports as f64 * per_port),
        }
    });
    Validation {
        schema_version: VALIDATION_SCHEMA_VERSION,
        nodes: net.nodes.len(),
        servers: net.servers.len(),
        links: net.link_names.len(),
        routing: sc.routing.name(),
        mode: sc.engine.mode,
        workload: WorkloadSummary {
            kind: sc.workload.name(),
            flows,
            flows_exact,
            bytes: total_bytes,
            mean_hops: estimate.as_ref().map(|e| e.mean_hops),
            classes: classes
                .iter()
                .map(|c| FlowClass {
                    name: c.name,
                    flows: c.count,
                    bytes_per_flow: c.bytes,
                    sizes_drawn: c.drawn,
                    hops: c.hops.clone().ok(),
                })
                .collect(),
            defaults_applied: defaults_applied(sc, given),
        },
        link_ids: net.link_names.clone(),
        unestimable: hops.err(),
        estimate,
    }
}

/// The flows of fan-ins with named senders and a random receiver: a receiver drawn among the
/// senders does not send to itself, so the count depends on the draws (counted by generating, up
/// to [`EXACT_COUNT_MAX`]: `Some(None)` beyond). None for other workloads.
fn drawn_fan_in_count(sc: &Scenario, net: &Network, bound: u64) -> Option<Option<u64>> {
    match &sc.workload {
        WorkloadSpec::Incast(q) | WorkloadSpec::Query(q)
            if q.senders.is_some() && q.receiver.is_none() =>
        {
            if bound > EXACT_COUNT_MAX {
                return Some(None);
            }
            let w = crate::workload::generate(&sc.workload, net, sc.engine.seed);
            Some(Some(w.flows.len() as u64))
        }
        _ => None,
    }
}

fn classes(sc: &Scenario, net: &Network, g: &Graph) -> Vec<Class> {
    let ids = |names: &Option<Vec<String>>| -> Vec<NodeId> {
        match names {
            Some(v) => v.iter().filter_map(|s| net.node_id(s)).collect(),
            None => net.servers.clone(),
        }
    };
    let one = |name, count: u64, bytes: f64, hops: &dyn Fn() -> Result<f64, String>, drawn| {
        // (a class of no flows has no pair to route: it is left out)
        (count > 0).then(|| Class {
            name,
            count,
            bytes,
            hops: hops(),
            drawn,
        })
    };
    let pairs = |n: usize| (n as u64) * (n as u64).saturating_sub(1);
    let all = |s: &[NodeId]| g.mean_hops(net, s, s, false);
    let found = match &sc.workload {
        WorkloadSpec::Shuffle(w) => {
            let s = ids(&w.servers);
            vec![one(
                "flows",
                pairs(s.len()),
                w.bytes_per_pair as f64,
                &|| all(&s),
                false,
            )]
        }
        WorkloadSpec::AllToAll(w) => {
            let s = ids(&w.servers);
            vec![one(
                "flows",
                pairs(s.len()),
                w.bytes as f64,
                &|| all(&s),
                false,
            )]
        }
        WorkloadSpec::Permutation(w) => {
            let s = ids(&w.servers);
            let n = if s.len() > 1 { s.len() as u64 } else { 0 };
            vec![one("flows", n, w.bytes as f64, &|| all(&s), false)]
        }
        WorkloadSpec::Random(w) => {
            let s = ids(&w.servers);
            vec![one("flows", w.flows, w.bytes as f64, &|| all(&s), false)]
        }
        WorkloadSpec::ManyToMany(w) => {
            let (snd, rcv) = (
                ids(&Some(w.senders.clone())),
                ids(&Some(w.receivers.clone())),
            );
            let (count, _) = sc.workload_flows(net);
            let h = || g.mean_hops(net, &snd, &rcv, false);
            vec![one("flows", count, w.bytes as f64, &h, false)]
        }
        WorkloadSpec::Incast(q) | WorkloadSpec::Query(q) => {
            let srcs = ids(&q.senders);
            let dsts: Vec<NodeId> = match &q.receiver {
                Some(r) => net.node_id(r).into_iter().collect(),
                None => net.servers.clone(),
            };
            let (count, _) = sc.workload_flows(net);
            let h = || g.mean_hops(net, &srcs, &dsts, false);
            vec![one("flows", count, q.response_bytes as f64, &h, false)]
        }
        WorkloadSpec::Poisson(w) => {
            let s = ids(&w.servers);
            let mean = w.cdf.to_cdf().expect("validated").mean();
            let h = || g.mean_hops(net, &s, &s, w.inter_rack_only);
            vec![one("flows", w.flows, mean, &h, true)]
        }
        WorkloadSpec::Memcache(w) => {
            let caches: Vec<NodeId> = net
                .servers
                .iter()
                .copied()
                .filter(|&s| {
                    net.node(s)
                        .logical_rack
                        .as_ref()
                        .is_some_and(|r| w.server_racks.contains(r))
                })
                .collect();
            let cache_set: HashSet<NodeId> = caches.iter().copied().collect();
            let clients = match &w.clients {
                Some(_) => ids(&w.clients),
                None => net
                    .servers
                    .iter()
                    .copied()
                    .filter(|s| !cache_set.contains(s))
                    .collect(),
            };
            let h = g.mean_hops(net, &clients, &caches, false);
            let n = w.requests as u64;
            vec![
                one("requests", n, w.request_bytes as f64, &|| h.clone(), false),
                one(
                    "responses",
                    n,
                    w.response_bytes as f64,
                    &|| h.clone(),
                    false,
                ),
            ]
        }
        WorkloadSpec::Collective(w) => {
            let s = ids(&w.servers);
            let (count, _) = sc.workload_flows(net);
            // (every flow carries a chunk of bytes / ranks; the first bytes mod ranks one byte
            // more; GPU ranks' relays, pipelined phases and skews: counted by generating)
            let bytes = generated_bytes_per_flow(sc, net, count)
                .unwrap_or(w.bytes as f64 / s.len().max(1) as f64);
            let ring = || ring_hops(g, net, &s);
            let h: &dyn Fn() -> Result<f64, String> = match w.algorithm() {
                crate::scenario::CollectiveAlgorithm::Ring
                | crate::scenario::CollectiveAlgorithm::Hierarchical => &ring,
                crate::scenario::CollectiveAlgorithm::Direct => &|| all(&s),
            };
            vec![one("flows", count, bytes, h, false)]
        }
        WorkloadSpec::TrainingStep(w) => {
            let s = ids(&w.servers);
            let (count, _) = sc.workload_flows(net);
            // beyond the exact-count bound: a ring all-reduce's pipelined phase per flow
            let bytes = generated_bytes_per_flow(sc, net, count).unwrap_or(
                w.bucket_bytes.min(w.gradient_bytes) as f64 * (s.len().max(2) - 1) as f64
                    / s.len().max(1) as f64,
            );
            let h = || ring_hops(g, net, &s);
            vec![one("flows", count, bytes, &h, false)]
        }
    };
    found.into_iter().flatten().collect()
}

/// Mean bytes per flow of a collective on GPU ranks or of a training step, by generating the
/// workload when it has at most [`EXACT_COUNT_MAX`] flows (None: beyond, or a plain collective,
/// whose chunks are `bytes / ranks`).
fn generated_bytes_per_flow(sc: &Scenario, net: &Network, count: u64) -> Option<f64> {
    if count == 0 || count > EXACT_COUNT_MAX {
        return None;
    }
    let w = crate::workload::generate(&sc.workload, net, sc.engine.seed);
    if w.deps.is_empty() && matches!(sc.workload, WorkloadSpec::Collective(_)) {
        return None;
    }
    let total: u64 = w.flows.iter().map(|f| f.bytes.0).sum();
    Some(total as f64 / w.flows.len().max(1) as f64)
}

/// Mean links from each rank to the next around the ring (every ring flow crosses one of these
/// pairs, each pair as often): the pairs of at most [`MAX_SOURCE_GROUPS`] ranks spread evenly.
fn ring_hops(g: &Graph, net: &Network, ranks: &[NodeId]) -> Result<f64, String> {
    let n = ranks.len();
    let k = n.min(MAX_SOURCE_GROUPS);
    if k == 0 {
        return Err("the workload has no pair of distinct servers".into());
    }
    let mut total = 0.0;
    for j in 0..k {
        let i = j * n / k;
        total += g.hops(net, ranks[i], ranks[(i + 1) % n])?;
    }
    Ok(total / k as f64)
}

/// The workload fields with a default in the scenario schema that `given` leaves out, with the
/// default (read from the schema, which takes it from the engine's constants).
fn defaults_applied(sc: &Scenario, given: Option<&serde_json::Value>) -> Vec<AppliedDefault> {
    let Some(given) = given.and_then(|w| w.as_object()) else {
        return Vec::new();
    };
    let kind = sc.workload.name();
    let schema = serde_json::to_value(schemars::schema_for!(Scenario)).expect("schema serialises");
    let Some(variant) = schema["definitions"]["WorkloadSpec"]["oneOf"]
        .as_array()
        .and_then(|v| {
            v.iter()
                .find(|v| v["properties"]["type"]["enum"][0].as_str() == Some(kind))
        })
    else {
        return Vec::new();
    };
    let senders_named = matches!(
        &sc.workload,
        WorkloadSpec::Incast(q) | WorkloadSpec::Query(q) if q.senders.is_some()
    );
    let mut out = Vec::new();
    if let Some(props) = variant["properties"].as_object() {
        for (field, p) in props {
            let Some(value) = p.get("default") else {
                continue;
            };
            if given.contains_key(field) || (field == "fan_in" && senders_named) {
                continue;
            }
            // (a skew is an all-to-all's only)
            if field == "skew"
                && !matches!(&sc.workload, WorkloadSpec::Collective(c)
                    if c.op == crate::scenario::CollectiveOp::AllToAll)
            {
                continue;
            }
            out.push(AppliedDefault {
                field: format!("workload.{field}"),
                value: value.clone(),
            });
        }
    }
    // (a collective's algorithm depends on its op: the schema cannot carry it as one default)
    if let WorkloadSpec::Collective(c) = &sc.workload {
        if !given.contains_key("algorithm") {
            out.push(AppliedDefault {
                field: "workload.algorithm".into(),
                value: c.op.default_algorithm().name().into(),
            });
        }
    }
    out
}

/// The network as the hop counts need it: the switches each server hangs from, and the
/// switch-to-switch adjacency (servers are leaves: a path between two servers runs through
/// switches; server-to-server cables are left out).
struct Graph {
    /// Per node: for a server, its switches (sorted, once each); empty for a switch.
    attach: Vec<Vec<NodeId>>,
    /// Per node: for a switch, its neighbouring switches (sorted, once each).
    adj: Vec<Vec<NodeId>>,
    distances: std::cell::RefCell<HashMap<Vec<NodeId>, Vec<u32>>>,
}

const FAR: u32 = u32::MAX;

impl Graph {
    fn of(net: &Network) -> Graph {
        let n = net.nodes.len();
        let mut attach = vec![Vec::new(); n];
        let mut adj = vec![Vec::new(); n];
        for d in 0..net.link_names.len() {
            let l = &net.links[2 * d];
            let (a, b) = (l.from, l.to);
            match (net.is_server(a), net.is_server(b)) {
                (true, false) => attach[a.idx()].push(b),
                (false, true) => attach[b.idx()].push(a),
                (false, false) => {
                    adj[a.idx()].push(b);
                    adj[b.idx()].push(a);
                }
                (true, true) => {}
            }
        }
        for v in attach.iter_mut().chain(adj.iter_mut()) {
            v.sort_unstable();
            v.dedup();
        }
        Graph {
            attach,
            adj,
            distances: Default::default(),
        }
    }

    fn server_link_bytes_per_s(&self, net: &Network) -> f64 {
        let mut gbps = 0.0;
        for d in 0..net.link_names.len() {
            let l = &net.links[2 * d];
            if net.is_server(l.from) || net.is_server(l.to) {
                gbps += l.gbps.0;
            }
        }
        gbps * 1e9 / 8.0
    }

    /// Links on the shortest path from server `src` to server `dst` (another one).
    fn hops(&self, net: &Network, src: NodeId, dst: NodeId) -> Result<f64, String> {
        let (a, b) = (&self.attach[src.idx()], &self.attach[dst.idx()]);
        if a.is_empty() || b.is_empty() {
            let lone = if a.is_empty() { src } else { dst };
            return Err(format!("server {} has no link to a switch", net.name(lone)));
        }
        let mut cache = self.distances.borrow_mut();
        let dist = cache.entry(a.clone()).or_insert_with(|| {
            let mut dist = vec![FAR; self.adj.len()];
            let mut queue = VecDeque::new();
            for &t in a {
                dist[t.idx()] = 1;
                queue.push_back(t);
            }
            while let Some(u) = queue.pop_front() {
                for &v in &self.adj[u.idx()] {
                    if dist[v.idx()] == FAR {
                        dist[v.idx()] = dist[u.idx()] + 1;
                        queue.push_back(v);
                    }
                }
            }
            dist
        });
        match b.iter().map(|t| dist[t.idx()]).min() {
            Some(d) if d != FAR => Ok(f64::from(d + 1)),
            _ => Err(format!(
                "no path over switches from {} to {}",
                net.name(src),
                net.name(dst)
            )),
        }
    }

    /// Mean links crossed over the ordered pairs (s, d), s in `srcs`, d in `dsts`, s != d (and in
    /// different logical racks with `inter_rack_only`). Servers on the same switches in the same
    /// rack are alike: one of each group is routed and the pairs are counted.
    fn mean_hops(
        &self,
        net: &Network,
        srcs: &[NodeId],
        dsts: &[NodeId],
        inter_rack_only: bool,
    ) -> Result<f64, String> {
        type Key<'a> = (&'a [NodeId], Option<&'a str>);
        let groups = |ids: &[NodeId]| -> Vec<(Key<'_>, Vec<NodeId>)> {
            let mut out: Vec<(Key<'_>, Vec<NodeId>)> = Vec::new();
            let mut at: HashMap<Key<'_>, usize> = HashMap::new();
            for &s in ids {
                let key = (
                    self.attach[s.idx()].as_slice(),
                    net.node(s).logical_rack.as_deref(),
                );
                let i = *at.entry(key).or_insert_with(|| {
                    out.push((key, Vec::new()));
                    out.len() - 1
                });
                out[i].1.push(s);
            }
            out
        };
        let (src_groups, dst_groups) = (groups(srcs), groups(dsts));
        let mut keys: Vec<usize> = (0..src_groups.len()).collect();
        if keys.len() > MAX_SOURCE_GROUPS {
            let n = keys.len();
            keys = (0..MAX_SOURCE_GROUPS)
                .map(|i| i * n / MAX_SOURCE_GROUPS)
                .collect();
        }
        let (mut total, mut pairs) = (0.0, 0.0);
        for k in keys {
            let (key, members) = &src_groups[k];
            for (dkey, dmembers) in &dst_groups {
                if inter_rack_only && key.1.is_some() && key.1 == dkey.1 {
                    continue;
                }
                // (a server is in one group of each list: only groups of the same key share any)
                let same = if key == dkey {
                    let d: HashSet<NodeId> = dmembers.iter().copied().collect();
                    members.iter().filter(|m| d.contains(m)).count()
                } else {
                    0
                };
                let n = members.len() * dmembers.len() - same;
                if n == 0 {
                    continue;
                }
                let rep_s = members[0];
                let Some(&rep_d) = dmembers.iter().find(|&&d| d != rep_s) else {
                    continue;
                };
                total += n as f64 * self.hops(net, rep_s, rep_d)?;
                pairs += n as f64;
            }
        }
        if pairs == 0.0 {
            return Err("the workload has no pair of distinct servers".into());
        }
        Ok(total / pairs)
    }
}
