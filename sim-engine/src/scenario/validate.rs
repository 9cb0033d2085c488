//! Semantic validation: turns a parsed [`Scenario`] into a dense [`Network`] or a [`ScenarioError`]
//! whose `path` names the offending field (e.g. `network.links[3].b`).

use std::collections::BTreeMap;
use std::fmt;

use super::*;
use crate::network::{Failure, Link, Loop, Network, Node};
use crate::units::{Gbps, LinkId, NodeId, Time};

/// A bad scenario: the JSON path of the offending field and what is wrong with it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScenarioError {
    pub path: String,
    pub message: String,
}

impl ScenarioError {
    pub fn new(path: impl Into<String>, message: impl Into<String>) -> ScenarioError {
        ScenarioError {
            path: path.into(),
            message: message.into(),
        }
    }
}

impl fmt::Display for ScenarioError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.path.is_empty() {
            write!(f, "{}", self.message)
        } else {
            write!(f, "{}: {}", self.path, self.message)
        }
    }
}

impl std::error::Error for ScenarioError {}

/// Most flows a workload may generate (10 million, 100x the largest benchmark). Every flow costs
/// a few hundred bytes of engine state, so a count beyond this is refused by [`Scenario::validate`]
/// instead of being allocated (e.g. `"flows": 18446744073709551615`).
pub const MAX_FLOWS: u64 = 10_000_000;

/// Slowest link (Gb/s) a scenario may have: 1 Mb/s. The rate solver's tolerances are partly
/// absolute (about 1e-12 Gb/s), so on links much slower than this its rounding is no longer
/// small against the rates, and a link of 1e-300 Gb/s left flows at rate 0 for ever.
pub const MIN_LINK_GBPS: f64 = 1e-3;

/// Fastest link (Gb/s) a scenario may have: 1 Pb/s (sums of rates stay far from overflow).
pub const MAX_LINK_GBPS: f64 = 1e6;

/// `a|b#i`, the id of the `i`-th link when it has none (written without the formatting
/// machinery: a large network has tens of thousands of them).
fn default_link_name(a: &str, b: &str, i: usize) -> String {
    use std::fmt::Write;
    let mut name = String::with_capacity(a.len() + b.len() + 12);
    name.push_str(a);
    name.push('|');
    name.push_str(b);
    name.push('#');
    let _ = write!(name, "{i}");
    name
}

/// A role as the scenario spells it.
fn role_name(role: Role) -> String {
    serde_json::to_value(role)
        .ok()
        .and_then(|v| v.as_str().map(str::to_string))
        .unwrap_or_default()
}

fn err<T>(path: impl Into<String>, msg: impl Into<String>) -> Result<T, ScenarioError> {
    Err(ScenarioError::new(path, msg))
}

/// Latest simulated time a scenario may name or imply, in seconds (10^6 s, about 11.6 days;
/// the engine's clock, integer picoseconds in a `u64`, ends at about 1.8 x 10^7 s). Event
/// times, periods, the stop time and the span of Poisson arrivals (count / rate) beyond it are
/// refused by [`Scenario::validate`] instead of running into the end of the clock.
pub const MAX_TIME_S: f64 = 1e6;

/// Largest all-to-all `skew` (Zipf exponent): at 10 the least popular of 10^6 ranks still gets
/// a weight of 10^-60, far from underflow; beyond, traffic is all but one destination's anyway.
pub const MAX_SKEW: f64 = 10.0;

fn check_time(path: &str, s: f64) -> Result<Time, ScenarioError> {
    if !s.is_finite() || s < 0.0 {
        return err(path, format!("must be a finite number >= 0, got {s}"));
    }
    if s > MAX_TIME_S {
        return err(
            path,
            format!("must be at most {MAX_TIME_S} s (the longest simulated time), got {s}"),
        );
    }
    Ok(Time::from_secs_f64(s))
}

/// A positive duration within the simulated horizon.
fn check_period(path: &str, s: f64) -> Result<(), ScenarioError> {
    check_pos(path, s)?;
    check_time(path, s).map(|_| ())
}

/// `n` Poisson arrivals at `rate` per second must fit in the simulated horizon.
fn check_arrivals(path: &str, n: u64, rate: f64) -> Result<(), ScenarioError> {
    let span = n as f64 / rate;
    if span > MAX_TIME_S {
        return err(
            path,
            format!(
                "{n} arrivals at {rate:e} per second span about {span:.3e} s, beyond the \
                 {MAX_TIME_S} s the engine simulates"
            ),
        );
    }
    Ok(())
}

fn check_pos(path: &str, v: f64) -> Result<(), ScenarioError> {
    if !v.is_finite() || v <= 0.0 {
        return err(path, format!("must be a finite number > 0, got {v}"));
    }
    Ok(())
}

fn check_frac(path: &str, v: f64) -> Result<(), ScenarioError> {
    if !(0.0..=1.0).contains(&v) {
        return err(path, format!("must be between 0 and 1, got {v}"));
    }
    Ok(())
}

impl Scenario {
    /// Check everything the engine relies on and build the dense network.
    pub fn validate(&self) -> Result<Network, ScenarioError> {
        if self.schema_version != SCENARIO_SCHEMA_VERSION {
            return err(
                "schema_version",
                format!(
                    "unsupported schema version {} (this build reads {})",
                    self.schema_version, SCENARIO_SCHEMA_VERSION
                ),
            );
        }
        let net = self.build_network()?;
        self.check_routing()?;
        self.check_workload(&net)?;
        self.check_flow_count(&net)?;
        self.check_engine()?;
        let mut net = net;
        net.failures = self.resolve_failures(&net)?;
        Ok(net)
    }

    fn build_network(&self) -> Result<Network, ScenarioError> {
        let spec = &self.network;
        if spec.nodes.is_empty() {
            return err("network.nodes", "the network has no nodes");
        }
        let mut net = Network::default();
        // (a k = 32 fat-tree has 34,000 nodes and links: error paths are only written out for
        // an error, and the indices are hashed, not ordered)
        net.index.reserve(spec.nodes.len());
        net.nodes.reserve_exact(spec.nodes.len());
        for (i, n) in spec.nodes.iter().enumerate() {
            let path = || format!("network.nodes[{i}]");
            if n.id.is_empty() {
                return err(format!("{}.id", path()), "node id must not be empty");
            }
            let id = NodeId(i as u32);
            let nodes = &net.nodes;
            if !net.index.insert(id.0, &n.id, |j| &nodes[j as usize].name) {
                return err(
                    format!("{}.id", path()),
                    format!("duplicate node id \"{}\"", n.id),
                );
            }
            let layer = n.layer.unwrap_or_else(|| n.role.default_layer());
            if n.role == Role::Server && layer != 0 {
                return err(
                    format!("{}.layer", path()),
                    format!("server \"{}\" must be on layer 0, got {layer}", n.id),
                );
            }
            if n.role != Role::Server && layer == 0 {
                return err(
                    format!("{}.layer", path()),
                    format!("switch \"{}\" must be on a layer >= 1", n.id),
                );
            }
            net.nodes.push(Node {
                name: n.id.clone(),
                role: n.role,
                layer,
                cluster: n.cluster,
                loop_id: n.loop_id,
                loop_position: n.loop_position,
                logical_rack: n.logical_rack.clone(),
                host: None,
                rail: n.rail,
            });
            if n.role == Role::Server {
                net.servers.push(id);
            }
            net.max_layer = net.max_layer.max(layer);
        }
        if net.servers.is_empty() {
            return err("network.nodes", "the network has no servers");
        }
        Self::resolve_gpu_hosts(spec, &mut net)?;
        net.out = vec![Vec::new(); net.nodes.len()];
        net.link_index.reserve(spec.links.len());
        net.links.reserve_exact(2 * spec.links.len());
        net.link_names.reserve_exact(spec.links.len());
        for (i, l) in spec.links.iter().enumerate() {
            let path = || format!("network.links[{i}]");
            let a = match net.node_id(&l.a) {
                Some(a) => a,
                None => return err(format!("{}.a", path()), format!("unknown node \"{}\"", l.a)),
            };
            let b = match net.node_id(&l.b) {
                Some(b) => b,
                None => return err(format!("{}.b", path()), format!("unknown node \"{}\"", l.b)),
            };
            if a == b {
                return err(
                    format!("{}.b", path()),
                    format!("link joins node \"{}\" to itself", l.a),
                );
            }
            if !(MIN_LINK_GBPS..=MAX_LINK_GBPS).contains(&l.gbps) {
                return err(
                    format!("{}.gbps", path()),
                    format!(
                        "capacity must be from {MIN_LINK_GBPS} to {MAX_LINK_GBPS} Gb/s, got {:?}",
                        l.gbps
                    ),
                );
            }
            let name =
                l.id.clone()
                    .unwrap_or_else(|| default_link_name(&l.a, &l.b, i));
            let names = &net.link_names;
            if !net
                .link_index
                .insert(i as u32, &name, |j| &names[j as usize])
            {
                return err(
                    format!("{}.id", path()),
                    format!("duplicate link id \"{name}\""),
                );
            }
            let latency = Time::from_ns(l.latency_ns);
            net.links.push(Link {
                from: a,
                to: b,
                gbps: Gbps(l.gbps),
                latency,
            });
            net.links.push(Link {
                from: b,
                to: a,
                gbps: Gbps(l.gbps),
                latency,
            });
            net.out[a.idx()].push(LinkId(2 * i as u32));
            net.out[b.idx()].push(LinkId(2 * i as u32 + 1));
            net.link_names.push(name);
        }
        let mut order: Vec<NodeId> = (0..net.nodes.len() as u32).map(NodeId).collect();
        order.sort_by_key(|n| (std::cmp::Reverse(net.nodes[n.idx()].layer), n.0));
        net.by_layer_desc = order;
        // Loops: ToRs with a loop id, ordered by loop_position.
        let mut loops: BTreeMap<i64, Vec<(u32, NodeId)>> = BTreeMap::new();
        for (i, n) in net.nodes.iter().enumerate() {
            if let Some(lp) = n.loop_id {
                if n.role != Role::Tor {
                    continue;
                }
                let Some(pos) = n.loop_position else {
                    return err(
                        format!("network.nodes[{i}].loop_position"),
                        format!(
                            "ToR \"{}\" is in loop {lp} but has no loop_position",
                            n.name
                        ),
                    );
                };
                loops.entry(lp).or_default().push((pos, NodeId(i as u32)));
            }
        }
        for (id, mut tors) in loops {
            tors.sort();
            for w in tors.windows(2) {
                if w[0].0 == w[1].0 {
                    return err(
                        format!("network.nodes[{}].loop_position", w[1].1 .0),
                        format!("loop {id} has two ToRs at position {}", w[0].0),
                    );
                }
            }
            net.loops.push(Loop {
                id,
                tors: tors.into_iter().map(|t| t.1).collect(),
            });
        }
        Ok(net)
    }

    fn check_routing(&self) -> Result<(), ScenarioError> {
        let check_adaptive = |p: &AdaptiveParams| -> Result<(), ScenarioError> {
            check_period("routing.t_rebind_s", p.t_rebind_s)?;
            check_frac("routing.c", p.c)?;
            check_frac("routing.ewma", p.ewma)?;
            if p.ewma == 0.0 {
                return err("routing.ewma", "must be > 0");
            }
            Ok(())
        };
        match &self.routing {
            RoutingSpec::Adaptive(p) | RoutingSpec::LeastWork(p) => check_adaptive(p),
            RoutingSpec::Detour(p) => {
                check_adaptive(&p.adaptive())?;
                check_frac("routing.hot_threshold", p.hot_threshold)?;
                check_period("routing.t_detect_s", p.t_detect_s)?;
                check_time("routing.t_duration_s", p.t_duration_s)?;
                check_frac("routing.spare_fraction", p.spare_fraction)?;
                if p.max_intermediate_servers == 0 {
                    return err("routing.max_intermediate_servers", "must be at least 1");
                }
                Ok(())
            }
            RoutingSpec::Grin(p) => {
                check_frac("routing.direct_weight", p.direct_weight)?;
                if p.direct_weight == 0.0 {
                    return err("routing.direct_weight", "must be > 0");
                }
                Ok(())
            }
            RoutingSpec::Ecmp | RoutingSpec::Vlb => Ok(()),
        }
    }

    /// GPU ranks: `host` names an interconnect node, `rail` comes with it, both only on
    /// servers, and a host has each rail once.
    fn resolve_gpu_hosts(spec: &NetworkSpec, net: &mut Network) -> Result<(), ScenarioError> {
        for (i, n) in spec.nodes.iter().enumerate() {
            let path = |f: &str| format!("network.nodes[{i}].{f}");
            if n.host.is_none() && n.rail.is_none() {
                continue;
            }
            let field = if n.host.is_some() { "host" } else { "rail" };
            if n.role != Role::Server {
                return err(
                    path(field),
                    format!(
                        "only a server (a GPU rank) has a {field}; \"{}\" has role \"{}\"",
                        n.id,
                        role_name(n.role)
                    ),
                );
            }
            let Some(host) = &n.host else {
                return err(
                    path("host"),
                    format!("GPU \"{}\" has a rail but no host: give both", n.id),
                );
            };
            if n.rail.is_none() {
                return err(
                    path("rail"),
                    format!("GPU \"{}\" has a host but no rail: give both", n.id),
                );
            }
            let Some(h) = net.node_id(host) else {
                return err(path("host"), format!("unknown node \"{host}\""));
            };
            if net.node(h).role != Role::Interconnect {
                return err(
                    path("host"),
                    format!(
                        "\"{host}\" has role \"{}\": a host is an interconnect node (role \"interconnect\")",
                        role_name(net.node(h).role)
                    ),
                );
            }
            net.nodes[i].host = Some(h);
        }
        let mut gpus: Vec<(NodeId, u32, NodeId)> = net
            .nodes
            .iter()
            .enumerate()
            .filter_map(|(i, n)| Some((n.host?, n.rail?, NodeId(i as u32))))
            .collect();
        gpus.sort_unstable();
        if let Some(w) = gpus
            .windows(2)
            .find(|w| (w[0].0, w[0].1) == (w[1].0, w[1].1))
        {
            return err(
                format!("network.nodes[{}].rail", w[1].2.idx()),
                format!(
                    "rail {} of host \"{}\" is already GPU \"{}\"",
                    w[1].1,
                    net.name(w[1].0),
                    net.name(w[0].2)
                ),
            );
        }
        net.gpus = gpus;
        Ok(())
    }

    /// The hierarchical algorithm's ranks: GPUs (with host and rail), every server holding
    /// the same rails.
    fn check_hierarchy(net: &Network, servers: &Option<Vec<String>>) -> Result<(), ScenarioError> {
        let ranks = super::ranks_of(servers, net);
        for (i, &r) in ranks.iter().enumerate() {
            if net.node(r).host.is_none() {
                let path = match servers {
                    Some(_) => format!("workload.servers[{i}]"),
                    None => "workload.servers".to_string(),
                };
                return err(
                    path,
                    format!(
                        "the hierarchical algorithm needs GPU ranks: \"{}\" has no host",
                        net.name(r)
                    ),
                );
            }
        }
        let hosts = super::hierarchy(&ranks, net).unwrap_or_default();
        let rails =
            |g: &Vec<NodeId>| -> Vec<u32> { g.iter().filter_map(|&r| net.node(r).rail).collect() };
        if let Some(first) = hosts.first() {
            for g in &hosts[1..] {
                if rails(g) != rails(first) {
                    return err(
                        "workload.servers",
                        format!(
                            "the hierarchical algorithm needs every server to hold the same \
                             rails: \"{}\" has rails {:?}, \"{}\" {:?}",
                            net.name(net.node(first[0]).host.expect("checked")),
                            rails(first),
                            net.name(net.node(g[0]).host.expect("checked")),
                            rails(g)
                        ),
                    );
                }
            }
        }
        Ok(())
    }

    fn check_servers(
        net: &Network,
        path: &str,
        ids: &[String],
        min: usize,
    ) -> Result<(), ScenarioError> {
        let mut seen = std::collections::BTreeSet::new();
        for (i, s) in ids.iter().enumerate() {
            match net.node_id(s) {
                None => return err(format!("{path}[{i}]"), format!("unknown node \"{s}\"")),
                Some(n) if !net.is_server(n) => {
                    return err(
                        format!("{path}[{i}]"),
                        format!("node \"{s}\" is not a server"),
                    )
                }
                Some(_) => {}
            }
            if !seen.insert(s) {
                return err(
                    format!("{path}[{i}]"),
                    format!("server \"{s}\" listed twice"),
                );
            }
        }
        if ids.len() < min {
            return err(
                path,
                format!("needs at least {min} servers, got {}", ids.len()),
            );
        }
        Ok(())
    }

    fn check_opt_servers(
        net: &Network,
        path: &str,
        ids: &Option<Vec<String>>,
    ) -> Result<(), ScenarioError> {
        match ids {
            Some(ids) => Self::check_servers(net, path, ids, 2),
            None if net.servers.len() < 2 => err(path, "the network needs at least 2 servers"),
            None => Ok(()),
        }
    }

    fn check_workload(&self, net: &Network) -> Result<(), ScenarioError> {
        let pos_bytes = |path: &str, b: u64| {
            if b == 0 {
                err(path, "must be > 0 bytes")
            } else {
                Ok(())
            }
        };
        match &self.workload {
            WorkloadSpec::Shuffle(w) => {
                Self::check_opt_servers(net, "workload.servers", &w.servers)?;
                pos_bytes("workload.bytes_per_pair", w.bytes_per_pair)?;
                check_time("workload.start_s", w.start_s)?;
            }
            WorkloadSpec::Permutation(w) => {
                Self::check_opt_servers(net, "workload.servers", &w.servers)?;
                pos_bytes("workload.bytes", w.bytes)?;
            }
            WorkloadSpec::Random(w) => {
                Self::check_opt_servers(net, "workload.servers", &w.servers)?;
                pos_bytes("workload.bytes", w.bytes)?;
                if let Some(r) = w.rate_per_s {
                    check_pos("workload.rate_per_s", r)?;
                }
            }
            WorkloadSpec::AllToAll(w) => {
                Self::check_opt_servers(net, "workload.servers", &w.servers)?;
                pos_bytes("workload.bytes", w.bytes)?;
            }
            WorkloadSpec::ManyToMany(w) => {
                Self::check_servers(net, "workload.senders", &w.senders, 1)?;
                Self::check_servers(net, "workload.receivers", &w.receivers, 1)?;
                pos_bytes("workload.bytes", w.bytes)?;
                if w.flows_per_pair == 0 {
                    return err("workload.flows_per_pair", "must be at least 1");
                }
                if w.senders.len() == 1 && w.receivers.len() == 1 && w.senders[0] == w.receivers[0]
                {
                    return err(
                        "workload.receivers",
                        "the only receiver is the only sender: no flows",
                    );
                }
            }
            WorkloadSpec::Incast(w) | WorkloadSpec::Query(w) => {
                if let Some(r) = &w.receiver {
                    Self::check_servers(net, "workload.receiver", std::slice::from_ref(r), 1)
                        .map_err(|e| ScenarioError::new("workload.receiver", e.message))?;
                }
                if let Some(s) = &w.senders {
                    Self::check_servers(net, "workload.senders", s, 1)?;
                    if let Some(r) = &w.receiver {
                        if let Some(i) = s.iter().position(|x| x == r) {
                            return err(
                                format!("workload.senders[{i}]"),
                                format!("\"{r}\" is the receiver"),
                            );
                        }
                    }
                } else {
                    let fan_in = w.fan_in() as usize;
                    if fan_in == 0 || fan_in >= net.servers.len() {
                        return err(
                            "workload.fan_in",
                            format!(
                                "must be between 1 and {} (servers - 1), got {fan_in}",
                                net.servers.len() - 1
                            ),
                        );
                    }
                }
                pos_bytes("workload.response_bytes", w.response_bytes)?;
                if w.queries == Some(0) {
                    return err("workload.queries", "must be at least 1");
                }
                if let Some(r) = w.rate_per_s {
                    check_pos("workload.rate_per_s", r)?;
                }
            }
            WorkloadSpec::Poisson(w) => {
                Self::check_opt_servers(net, "workload.servers", &w.servers)?;
                w.cdf
                    .to_cdf()
                    .map_err(|m| ScenarioError::new("workload.cdf", m))?;
                check_pos("workload.load", w.load)?;
                if w.load > 1.0 {
                    return err(
                        "workload.load",
                        format!("must be at most 1, got {}", w.load),
                    );
                }
                if w.flows == 0 {
                    return err("workload.flows", "must be at least 1");
                }
                if w.inter_rack_only {
                    let servers: Vec<NodeId> = match &w.servers {
                        Some(ids) => ids.iter().filter_map(|x| net.node_id(x)).collect(),
                        None => net.servers.clone(),
                    };
                    let mut racks = Vec::new();
                    for s in servers {
                        match &net.node(s).logical_rack {
                            Some(r) => racks.push(r.clone()),
                            None => {
                                return err(
                                    "workload.inter_rack_only",
                                    format!("server {:?} has no logical_rack", net.name(s)),
                                )
                            }
                        }
                    }
                    racks.sort();
                    racks.dedup();
                    if racks.len() < 2 {
                        return err(
                            "workload.inter_rack_only",
                            "needs servers in at least two logical racks",
                        );
                    }
                }
            }
            WorkloadSpec::Memcache(w) => {
                if w.server_racks.is_empty() {
                    return err("workload.server_racks", "needs at least one logical rack");
                }
                for (i, r) in w.server_racks.iter().enumerate() {
                    if net.servers_of_logical_rack(r).is_empty() {
                        return err(
                            format!("workload.server_racks[{i}]"),
                            format!("no server has logical_rack \"{r}\""),
                        );
                    }
                }
                match &w.clients {
                    Some(c) => Self::check_servers(net, "workload.clients", c, 1)?,
                    None => {
                        let cache: std::collections::BTreeSet<NodeId> = w
                            .server_racks
                            .iter()
                            .flat_map(|r| net.servers_of_logical_rack(r))
                            .collect();
                        if net.servers.iter().all(|s| cache.contains(s)) {
                            return err(
                                "workload.server_racks",
                                "every server is in a server rack, so no client is left \
                                 (give \"clients\" or fewer racks)",
                            );
                        }
                    }
                }
                pos_bytes("workload.request_bytes", w.request_bytes)?;
                pos_bytes("workload.response_bytes", w.response_bytes)?;
                check_pos("workload.rate_per_s", w.rate_per_s)?;
                check_pos("workload.latency_bound_us", w.latency_bound_us)?;
                if w.requests == 0 {
                    return err("workload.requests", "must be at least 1");
                }
            }
            WorkloadSpec::Collective(w) => {
                Self::check_opt_servers(net, "workload.servers", &w.servers)?;
                let alg = w.algorithm();
                let fits = match w.op {
                    CollectiveOp::AllToAll => alg == CollectiveAlgorithm::Direct,
                    CollectiveOp::AllReduce => {
                        matches!(
                            alg,
                            CollectiveAlgorithm::Ring | CollectiveAlgorithm::Hierarchical
                        )
                    }
                    _ => alg == CollectiveAlgorithm::Ring,
                };
                if !fits {
                    let also = if w.op == CollectiveOp::AllReduce {
                        " or \"hierarchical\""
                    } else {
                        ""
                    };
                    return err(
                        "workload.algorithm",
                        format!(
                            "{} runs with \"{}\"{also}, not \"{}\"",
                            w.op.name(),
                            w.op.default_algorithm().name(),
                            alg.name()
                        ),
                    );
                }
                pos_bytes("workload.bytes", w.bytes)?;
                let ranks = w.servers.as_ref().map_or(net.servers.len(), |v| v.len()) as u64;
                if w.bytes < ranks {
                    return err(
                        "workload.bytes",
                        format!(
                            "must be at least the number of ranks ({ranks}) so that every \
                             chunk of bytes / ranks holds a byte, got {}",
                            w.bytes
                        ),
                    );
                }
                if w.iterations == 0 {
                    return err("workload.iterations", "must be at least 1");
                }
                if alg == CollectiveAlgorithm::Hierarchical {
                    Self::check_hierarchy(net, &w.servers)?;
                }
                if let Some(x) = w.skew {
                    // (0, the uniform default, is harmless on any op: a form may send it)
                    if w.op != CollectiveOp::AllToAll && x != 0.0 {
                        return err(
                            "workload.skew",
                            format!("only all_to_all has a skew, not {}", w.op.name()),
                        );
                    }
                    if !(x.is_finite() && (0.0..=MAX_SKEW).contains(&x)) {
                        return err(
                            "workload.skew",
                            format!("must be from 0 to {MAX_SKEW} (a Zipf exponent), got {x}"),
                        );
                    }
                }
            }
            WorkloadSpec::TrainingStep(w) => {
                Self::check_opt_servers(net, "workload.servers", &w.servers)?;
                pos_bytes("workload.gradient_bytes", w.gradient_bytes)?;
                pos_bytes("workload.bucket_bytes", w.bucket_bytes)?;
                let ranks = w.servers.as_ref().map_or(net.servers.len(), |v| v.len()) as u64;
                let smallest = w.bucket_size(w.buckets() - 1);
                if w.bucket_bytes < ranks || smallest < ranks {
                    let field = if w.bucket_bytes < ranks {
                        "workload.bucket_bytes"
                    } else {
                        "workload.gradient_bytes"
                    };
                    return err(
                        field,
                        format!(
                            "every bucket must hold at least a byte per rank ({ranks}): the \
                             smallest of {} buckets has {} bytes",
                            w.buckets(),
                            smallest.min(w.bucket_bytes)
                        ),
                    );
                }
                check_time("workload.forward_s", w.forward_s)?;
                check_time("workload.backward_s", w.backward_s)?;
                if w.iterations == 0 {
                    return err("workload.iterations", "must be at least 1");
                }
                let compute = (w.forward_s + w.backward_s) * w.iterations as f64;
                if compute > MAX_TIME_S {
                    return err(
                        "workload.iterations",
                        format!(
                            "{} steps of {} s of compute exceed the {MAX_TIME_S} s the engine \
                             simulates",
                            w.iterations,
                            w.forward_s + w.backward_s
                        ),
                    );
                }
                match w.algorithm {
                    CollectiveAlgorithm::Ring => {}
                    CollectiveAlgorithm::Hierarchical => Self::check_hierarchy(net, &w.servers)?,
                    CollectiveAlgorithm::Direct => {
                        return err(
                            "workload.algorithm",
                            "a training step all-reduces with \"ring\" or \"hierarchical\", \
                             not \"direct\"",
                        )
                    }
                }
            }
        }
        Ok(())
    }

    /// The number of flows the (checked) workload generates on `net`, and the field that
    /// multiplies it (saturating: only compared with [`MAX_FLOWS`]).
    pub fn workload_flows(&self, net: &Network) -> (u64, &'static str) {
        let n =
            |ids: &Option<Vec<String>>| ids.as_ref().map_or(net.servers.len(), |v| v.len()) as u64;
        let pairs = |k: u64| k.saturating_mul(k.saturating_sub(1));
        match &self.workload {
            WorkloadSpec::Shuffle(w) => (pairs(n(&w.servers)), "workload.servers"),
            WorkloadSpec::AllToAll(w) => (pairs(n(&w.servers)), "workload.servers"),
            WorkloadSpec::Permutation(w) => (n(&w.servers), "workload.servers"),
            WorkloadSpec::Random(w) => (w.flows, "workload.flows"),
            WorkloadSpec::Poisson(w) => (w.flows, "workload.flows"),
            WorkloadSpec::ManyToMany(w) => {
                let both = w.senders.iter().filter(|s| w.receivers.contains(s)).count() as u64;
                let pairs = (w.senders.len() as u64)
                    .saturating_mul(w.receivers.len() as u64)
                    .saturating_sub(both);
                (
                    pairs.saturating_mul(w.flows_per_pair as u64),
                    "workload.flows_per_pair",
                )
            }
            WorkloadSpec::Incast(w) | WorkloadSpec::Query(w) => {
                let per = match &w.senders {
                    Some(s) => s.len() as u64,
                    None => w.fan_in() as u64,
                };
                let queries = self.workload.query_count().unwrap_or(0) as u64;
                (queries.saturating_mul(per), "workload.queries")
            }
            WorkloadSpec::Memcache(w) => {
                ((w.requests as u64).saturating_mul(2), "workload.requests")
            }
            WorkloadSpec::Collective(w) => {
                let ranks = super::ranks_of(&w.servers, net);
                let per =
                    super::collective_iteration_flows(w.op, w.algorithm(), w.model(), &ranks, net);
                (
                    per.saturating_mul(w.iterations as u64),
                    "workload.iterations",
                )
            }
            WorkloadSpec::TrainingStep(w) => {
                let ranks = super::ranks_of(&w.servers, net);
                let per = super::collective_iteration_flows(
                    CollectiveOp::AllReduce,
                    w.algorithm,
                    w.model,
                    &ranks,
                    net,
                );
                (
                    per.saturating_mul(w.buckets())
                        .saturating_mul(w.iterations as u64),
                    "workload.iterations",
                )
            }
        }
    }

    fn check_flow_count(&self, net: &Network) -> Result<(), ScenarioError> {
        let (flows, path) = self.workload_flows(net);
        if flows > MAX_FLOWS {
            return err(
                path,
                format!(
                    "the workload would generate {flows} flows, more than the limit of {MAX_FLOWS}"
                ),
            );
        }
        // Poisson arrivals: the last one comes at about count / rate
        match &self.workload {
            WorkloadSpec::Random(w) => {
                if let Some(r) = w.rate_per_s {
                    check_arrivals("workload.rate_per_s", w.flows, r)?;
                }
            }
            WorkloadSpec::Incast(w) | WorkloadSpec::Query(w) => {
                let n = self.workload.query_count().unwrap_or(0) as u64;
                check_arrivals("workload.rate_per_s", n, w.rate_per_s())?;
            }
            WorkloadSpec::Memcache(w) => {
                check_arrivals("workload.rate_per_s", w.requests as u64, w.rate_per_s)?;
            }
            WorkloadSpec::Poisson(w) => {
                // the same rate as the generator: load x server capacity / mean flow size
                let ids = match &w.servers {
                    Some(ids) => ids.iter().filter_map(|s| net.node_id(s)).collect(),
                    None => net.servers.clone(),
                };
                let cap_bits: f64 = ids.iter().map(|&n| net.server_nic_gbps(n) * 1e9).sum();
                if cap_bits <= 0.0 {
                    return err(
                        "workload.servers",
                        "the servers taking part have no link to a switch: no load to offer",
                    );
                }
                let mean = w.cdf.to_cdf().map_or(1.0, |c| c.mean());
                let rate = w.load * cap_bits / (mean * 8.0);
                check_arrivals("workload.load", w.flows, rate)?;
            }
            _ => {}
        }
        Ok(())
    }

    fn check_engine(&self) -> Result<(), ScenarioError> {
        if let Some(s) = self.engine.stop_time_s {
            check_period("engine.stop_time_s", s)?;
        }
        let g = self.engine.goodput_factor;
        // (at least 0.01: it scales every link's capacity, which must stay well above the
        // solver's absolute tolerances, see MIN_LINK_GBPS)
        if !(0.01..=1.0).contains(&g) {
            return err(
                "engine.goodput_factor",
                format!("must be from 0.01 to 1, got {g}"),
            );
        }
        if self.engine.latency.mtu_bytes == 0 {
            return err("engine.latency.mtu_bytes", "must be > 0");
        }
        if self.engine.latency.init_cwnd_bytes == 0 {
            return err("engine.latency.init_cwnd_bytes", "must be > 0");
        }
        self.check_packet()?;
        self.check_decomposed()
    }

    /// What decomposed mode does not model is refused rather than estimated wrongly: a link's
    /// simulation holds its own flows on one fixed path each, so nothing that moves or couples
    /// flows across links (failures, detours, MPTCP, spraying, a buffer shared by a switch's
    /// ports) or starts one flow at another's end (memcache) can be decomposed.
    fn check_decomposed(&self) -> Result<(), ScenarioError> {
        if let Some(d) = &self.engine.decomposed {
            let t = d.cluster_threshold;
            if !(t.is_finite() && (0.0..=1.0).contains(&t)) {
                return err(
                    "engine.decomposed.cluster_threshold",
                    format!("must be from 0 to 1, got {t}"),
                );
            }
            let m = d.bottleneck_margin;
            if !(m.is_finite() && (0.0..=1.0).contains(&m)) {
                return err(
                    "engine.decomposed.bottleneck_margin",
                    format!("must be from 0 to 1, got {m}"),
                );
            }
        }
        if self.engine.mode != super::Mode::Decomposed {
            return Ok(());
        }
        let why = "decomposed mode simulates each link with its own flows on fixed paths";
        if !self.engine.failures.is_empty() {
            return err(
                "engine.failures",
                format!("{why}: it does not model failures (use packet or flow mode)"),
            );
        }
        if matches!(self.routing, super::RoutingSpec::Detour(_)) {
            return err(
                "routing.type",
                format!(
                    "{why}: detour routing moves flows between links (use packet or flow mode)"
                ),
            );
        }
        if matches!(self.workload, super::WorkloadSpec::Memcache(_)) {
            return err(
                "workload.type",
                format!("{why}: memcache responses start at their request's end (use packet or flow mode)"),
            );
        }
        if matches!(self.workload, super::WorkloadSpec::Collective(_)) {
            return err(
                "workload.type",
                format!(
                    "{why}: a collective's steps start at other steps' ends (use packet or flow mode)"
                ),
            );
        }
        if matches!(self.workload, super::WorkloadSpec::TrainingStep(_)) {
            return err(
                "workload.type",
                format!(
                    "{why}: a training step's all-reduces start at other flows' ends and after \
                     compute time (use packet or flow mode)"
                ),
            );
        }
        let p = &self.engine.packet;
        if p.transport == super::Transport::Mptcp {
            return err(
                "engine.packet.transport",
                format!("{why}: MPTCP couples a flow's paths (use newreno or dctcp)"),
            );
        }
        if p.spraying {
            return err(
                "engine.packet.spraying",
                format!("{why}: spraying spreads a flow over paths (set it false)"),
            );
        }
        if p.shared_buffer.is_some() {
            return err(
                "engine.packet.shared_buffer",
                format!(
                    "{why}: a shared buffer couples a switch's ports (give buffer_bytes per port)"
                ),
            );
        }
        Ok(())
    }

    fn check_packet(&self) -> Result<(), ScenarioError> {
        let p = &self.engine.packet;
        if !(64..=65_536).contains(&p.mtu_bytes) {
            return err(
                "engine.packet.mtu_bytes",
                format!("must be 64 to 65536 bytes, got {}", p.mtu_bytes),
            );
        }
        if p.header_bytes >= p.mtu_bytes {
            return err(
                "engine.packet.header_bytes",
                format!(
                    "must be less than mtu_bytes ({}), got {}",
                    p.mtu_bytes, p.header_bytes
                ),
            );
        }
        if !(1..=p.mtu_bytes).contains(&p.ack_bytes) {
            return err(
                "engine.packet.ack_bytes",
                format!(
                    "must be 1 to mtu_bytes ({}), got {}",
                    p.mtu_bytes, p.ack_bytes
                ),
            );
        }
        if p.buffer_bytes < p.mtu_bytes || p.buffer_bytes > 1 << 40 {
            return err(
                "engine.packet.buffer_bytes",
                format!(
                    "must hold at least one packet (mtu_bytes = {}) and at most 2^40 bytes, got {}",
                    p.mtu_bytes, p.buffer_bytes
                ),
            );
        }
        if let Some(h) = p.host_buffer_bytes {
            if h < p.mtu_bytes || h > 1 << 40 {
                return err(
                    "engine.packet.host_buffer_bytes",
                    format!(
                        "must hold at least one packet (mtu_bytes = {}) and at most 2^40 bytes, got {h}",
                        p.mtu_bytes
                    ),
                );
            }
        }
        if p.initial_ssthresh_packets == Some(0) {
            return err(
                "engine.packet.initial_ssthresh_packets",
                "must be > 0 (or null)",
            );
        }
        if p.switch_latency_ns > 1_000_000_000 {
            return err("engine.packet.switch_latency_ns", "must be at most 1 s");
        }
        if !(1..=1_000_000).contains(&p.initial_window_packets) {
            return err(
                "engine.packet.initial_window_packets",
                "must be 1 to 1000000",
            );
        }
        if !(p.rto_min_ms.is_finite() && p.rto_min_ms > 0.0 && p.rto_min_ms <= 60_000.0) {
            return err(
                "engine.packet.rto_min_ms",
                format!("must be > 0 and at most 60000 ms, got {}", p.rto_min_ms),
            );
        }
        if let Some(x) = p.rto_initial_ms {
            if !(x.is_finite() && x > 0.0 && x <= 60_000.0) {
                return err(
                    "engine.packet.rto_initial_ms",
                    format!("must be > 0 and at most 60000 ms (or null), got {x}"),
                );
            }
        }
        if let Some(x) = p.rto_scan_ms {
            if !(x.is_finite() && x > 0.0 && x <= 60_000.0) {
                return err(
                    "engine.packet.rto_scan_ms",
                    format!("must be > 0 and at most 60000 ms (or null), got {x}"),
                );
            }
        }
        if p.ecn_threshold_bytes == Some(0) {
            return err("engine.packet.ecn_threshold_bytes", "must be > 0 (or null)");
        }
        if let Some(sb) = &p.shared_buffer {
            if sb.bytes < p.mtu_bytes || sb.bytes > 1 << 40 {
                return err(
                    "engine.packet.shared_buffer.bytes",
                    "must hold at least one packet (mtu_bytes) and at most 2^40 bytes",
                );
            }
            if !(sb.alpha.is_finite() && sb.alpha > 0.0 && sb.alpha <= 1e6) {
                return err(
                    "engine.packet.shared_buffer.alpha",
                    format!("must be > 0 and at most 10^6, got {}", sb.alpha),
                );
            }
        }
        if !(p.flowlet_gap_us.is_finite() && p.flowlet_gap_us > 0.0 && p.flowlet_gap_us <= 1e9) {
            return err(
                "engine.packet.flowlet_gap_us",
                format!("must be > 0 and at most 10^9, got {}", p.flowlet_gap_us),
            );
        }
        Ok(())
    }

    fn resolve_failures(&self, net: &Network) -> Result<Vec<Failure>, ScenarioError> {
        let mut out = Vec::new();
        for (i, f) in self.engine.failures.iter().enumerate() {
            let path = format!("engine.failures[{i}]");
            let at = check_time(&format!("{path}.at_s"), f.at_s)?;
            let recover_at = match f.recover_at_s {
                None => None,
                Some(r) => {
                    let t = check_time(&format!("{path}.recover_at_s"), r)?;
                    if t <= at {
                        return err(
                            format!("{path}.recover_at_s"),
                            "recovery must come after the failure",
                        );
                    }
                    Some(t)
                }
            };
            let (links, what) = match (&f.link, &f.node) {
                (Some(_), Some(_)) | (None, None) => {
                    return err(path, "give exactly one of \"link\" and \"node\"");
                }
                (Some(LinkRef::Id(id)), None) => match net.duplex_link(id) {
                    Some(l) => (vec![l], format!("link {id}")),
                    None => return err(format!("{path}.link"), format!("unknown link \"{id}\"")),
                },
                (Some(LinkRef::Ends { a, b }), None) => {
                    let Some(na) = net.node_id(a) else {
                        return err(format!("{path}.link.a"), format!("unknown node \"{a}\""));
                    };
                    let Some(nb) = net.node_id(b) else {
                        return err(format!("{path}.link.b"), format!("unknown node \"{b}\""));
                    };
                    let l = net.out[na.idx()].iter().find(|l| net.link(**l).to == nb);
                    match l {
                        Some(l) => (vec![l.duplex()], format!("link {a}-{b}")),
                        None => {
                            return err(
                                format!("{path}.link"),
                                format!("no link joins \"{a}\" and \"{b}\""),
                            )
                        }
                    }
                }
                (None, Some(n)) => match net.node_id(n) {
                    Some(id) => (
                        net.out[id.idx()].iter().map(|l| l.duplex()).collect(),
                        format!("node {n}"),
                    ),
                    None => return err(format!("{path}.node"), format!("unknown node \"{n}\"")),
                },
            };
            out.push(Failure {
                at,
                recover_at,
                links,
                what,
            });
        }
        Ok(out)
    }
}
