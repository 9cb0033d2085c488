//! Why a run's flows did not finish: the failure timeline, what was down at the end, and which
//! server groups had no valley-free path to each other then (the result's `reachability`, which
//! the backend reads instead of working it out again).
//!
//! Every routing scheme sends a flow up the layers and then down, so two servers have a path at
//! the end when the nodes each reaches by going only up, over links still up, meet. Servers on
//! the same live switches reach the same nodes: groups of them are checked, not servers.

use std::collections::HashMap;

use schemars::JsonSchema;
use serde::Serialize;

use crate::network::Network;
use crate::scenario::{Scenario, WorkloadSpec};
use crate::units::{NodeId, Time};

/// Unreachable group pairs listed; the count of server pairs is always exact.
pub const MAX_GROUP_PAIRS: usize = 20;
/// Beyond this many server groups (distinct sets of live switches) the pairwise check is skipped.
pub const MAX_GROUPS: usize = 3000;
/// Servers listed per group (and cut-off servers listed: 50).
pub const MAX_NAMES: usize = 5;
const MAX_CUT_OFF: usize = 50;

/// Failures and what they cut off (present when the scenario has failures or a flow did not finish).
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct Reachability {
    /// Every failure of the scenario in its order: when, what, and how many links it took down.
    pub timeline: Vec<FailureEvent>,
    /// Nodes failed at the end of the run (failed at or before it, not recovered), by name.
    pub down_nodes: Vec<String>,
    /// Links that failed on their own and were down at the end, by the engine's names (`id`, or
    /// `a|b#i` for the `i`-th link of the list), in name order.
    pub down_links: Vec<String>,
    /// The workload's servers with no live link up (or failed themselves), the first 50.
    pub servers_cut_off: Vec<String>,
    /// How many of the workload's servers have no live link up.
    pub servers_cut_off_count: u64,
    /// Ordered (sender, receiver) pairs of the workload with no up-down path at the end; null when
    /// every flow finished (not looked for) or beyond 3000 server groups.
    pub unreachable_pairs: Option<u64>,
    /// The first 20 pairs of server groups with no up-down path between them.
    pub unreachable_groups: Vec<UnreachableGroups>,
}

/// One failure of `engine.failures`.
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct FailureEvent {
    /// When it failed, seconds.
    pub at_s: f64,
    /// When it recovered, seconds (null: it stayed down).
    pub recover_at_s: Option<f64>,
    /// The failed node, for a node failure.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub node: Option<String>,
    /// The failed link's engine name, for a link failure.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub link: Option<String>,
    /// Links it took down (a node's: all of them).
    pub links_down: u64,
    /// Down at the end of the run.
    pub down_at_end: bool,
}

/// Two groups of servers (servers on the same live switches) with no up-down path between them.
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct UnreachableGroups {
    /// Ordered pairs of the workload's senders and receivers between (or within) the two groups.
    pub server_pairs: u64,
    /// The first 5 servers of the first group.
    pub servers_a: Vec<String>,
    /// Servers of the first group.
    pub servers_a_count: u64,
    /// The live switches the first group hangs from, by name.
    pub via_a: Vec<String>,
    /// The highest-layer nodes the first group reaches going up: where its traffic could turn down.
    pub reaches_a: Vec<String>,
    /// The first 5 servers of the second group.
    pub servers_b: Vec<String>,
    /// Servers of the second group.
    pub servers_b_count: u64,
    /// The live switches the second group hangs from.
    pub via_b: Vec<String>,
    /// The highest-layer nodes the second group reaches going up.
    pub reaches_b: Vec<String>,
}

/// What the result says about failures and reachability at `end`; None when the scenario has no
/// failure and every flow finished (`partial` false).
pub fn at_end(sc: &Scenario, net: &Network, end: Time, partial: bool) -> Option<Reachability> {
    if net.failures.is_empty() && !partial {
        return None;
    }
    let mut link_down = vec![false; net.link_names.len()];
    let mut node_down = vec![false; net.nodes.len()];
    let (mut down_nodes, mut down_links) = (Vec::new(), Vec::new());
    let mut timeline = Vec::with_capacity(net.failures.len());
    for (f, spec) in net.failures.iter().zip(&sc.engine.failures) {
        let down = f.at <= end && f.recover_at.is_none_or(|r| r > end);
        let node = spec.node.clone();
        // a link failure names one link (the first joining its ends, for `{a, b}`)
        let link = spec
            .link
            .as_ref()
            .map(|_| net.link_names[f.links[0]].clone());
        if down {
            for &l in &f.links {
                link_down[l] = true;
            }
            match (&node, &link) {
                (Some(n), _) => {
                    if let Some(id) = net.node_id(n) {
                        node_down[id.idx()] = true;
                    }
                    down_nodes.push(n.clone());
                }
                (None, Some(l)) => down_links.push(l.clone()),
                (None, None) => {}
            }
        }
        timeline.push(FailureEvent {
            at_s: spec.at_s,
            recover_at_s: spec.recover_at_s,
            node,
            link,
            links_down: f.links.len() as u64,
            down_at_end: down,
        });
    }
    down_nodes.sort();
    down_nodes.dedup();
    down_links.sort();
    down_links.dedup();

    // up[n]: the higher-layer neighbours over live links
    let mut up: Vec<Vec<NodeId>> = vec![Vec::new(); net.nodes.len()];
    for (d, &down) in link_down.iter().enumerate() {
        let l = &net.links[2 * d];
        let (a, b) = (l.from, l.to);
        if down || node_down[a.idx()] || node_down[b.idx()] {
            continue;
        }
        let (la, lb) = (net.node(a).layer, net.node(b).layer);
        if la != lb {
            let (lo, hi) = if la < lb { (a, b) } else { (b, a) };
            up[lo.idx()].push(hi);
        }
    }
    for u in &mut up {
        u.sort_unstable();
        u.dedup();
    }

    let (senders, receivers) = workload_pairs(sc, net);
    let mut order: Vec<NodeId> = Vec::new();
    let mut seen = vec![false; net.nodes.len()];
    for &s in senders.iter().chain(&receivers) {
        if !seen[s.idx()] {
            seen[s.idx()] = true;
            order.push(s);
        }
    }
    let cut_off: Vec<NodeId> = order
        .iter()
        .copied()
        .filter(|s| node_down[s.idx()] || up[s.idx()].is_empty())
        .collect();
    // servers under the same live switches reach the same nodes
    let mut groups: Vec<(&[NodeId], Vec<NodeId>)> = Vec::new();
    let mut at: HashMap<&[NodeId], usize> = HashMap::new();
    for &s in &order {
        if node_down[s.idx()] {
            continue;
        }
        let key = up[s.idx()].as_slice();
        let i = *at.entry(key).or_insert_with(|| {
            groups.push((key, Vec::new()));
            groups.len() - 1
        });
        groups[i].1.push(s);
    }
    let (mut unreachable_pairs, mut unreachable_groups) = (None, Vec::new());
    if partial && groups.len() <= MAX_GROUPS {
        let (pairs, listed) = unreachable(net, &up, &groups, &senders, &receivers);
        unreachable_pairs = Some(pairs);
        unreachable_groups = listed;
    }
    Some(Reachability {
        timeline,
        down_nodes,
        down_links,
        servers_cut_off: cut_off
            .iter()
            .take(MAX_CUT_OFF)
            .map(|&s| net.name(s).to_string())
            .collect(),
        servers_cut_off_count: cut_off.len() as u64,
        unreachable_pairs,
        unreachable_groups,
    })
}

/// The senders and receivers whose pairs the workload draws its flows from (many-to-many: its
/// two lists; otherwise its `servers`, or every server).
fn workload_pairs(sc: &Scenario, net: &Network) -> (Vec<NodeId>, Vec<NodeId>) {
    let ids =
        |names: &[String]| -> Vec<NodeId> { names.iter().filter_map(|n| net.node_id(n)).collect() };
    let chosen = match &sc.workload {
        WorkloadSpec::ManyToMany(w) => return (ids(&w.senders), ids(&w.receivers)),
        WorkloadSpec::Shuffle(w) => w.servers.as_deref(),
        WorkloadSpec::AllToAll(w) => w.servers.as_deref(),
        WorkloadSpec::Permutation(w) => w.servers.as_deref(),
        WorkloadSpec::Random(w) => w.servers.as_deref(),
        WorkloadSpec::Poisson(w) => w.servers.as_deref(),
        WorkloadSpec::Collective(w) => w.servers.as_deref(),
        WorkloadSpec::TrainingStep(w) => w.servers.as_deref(),
        WorkloadSpec::Incast(_) | WorkloadSpec::Query(_) | WorkloadSpec::Memcache(_) => None,
    };
    match chosen {
        Some(s) if !s.is_empty() => (ids(s), ids(s)),
        _ => (net.servers.clone(), net.servers.clone()),
    }
}

/// Every node reachable from `n` going only up (itself included), sorted; memoised.
fn upward(n: NodeId, up: &[Vec<NodeId>], memo: &mut HashMap<NodeId, Vec<NodeId>>) -> Vec<NodeId> {
    if let Some(r) = memo.get(&n) {
        return r.clone();
    }
    let mut out = vec![n];
    for &x in &up[n.idx()] {
        // layers strictly increase along `up`: this ends
        out.extend(upward(x, up, memo));
    }
    out.sort_unstable();
    out.dedup();
    memo.insert(n, out.clone());
    out
}

fn meet(a: &[NodeId], b: &[NodeId]) -> bool {
    let (mut i, mut j) = (0, 0);
    while i < a.len() && j < b.len() {
        match a[i].cmp(&b[j]) {
            std::cmp::Ordering::Less => i += 1,
            std::cmp::Ordering::Greater => j += 1,
            std::cmp::Ordering::Equal => return true,
        }
    }
    false
}

fn unreachable(
    net: &Network,
    up: &[Vec<NodeId>],
    groups: &[(&[NodeId], Vec<NodeId>)],
    senders: &[NodeId],
    receivers: &[NodeId],
) -> (u64, Vec<UnreachableGroups>) {
    let mut is_sender = vec![false; net.nodes.len()];
    let mut is_receiver = vec![false; net.nodes.len()];
    for &s in senders {
        is_sender[s.idx()] = true;
    }
    for &r in receivers {
        is_receiver[r.idx()] = true;
    }
    let mut memo = HashMap::new();
    let tops: Vec<Vec<NodeId>> = groups
        .iter()
        .map(|(via, _)| {
            let mut t: Vec<NodeId> = via.iter().flat_map(|&v| upward(v, up, &mut memo)).collect();
            t.sort_unstable();
            t.dedup();
            t
        })
        .collect();
    let names = |ids: &[NodeId]| -> Vec<String> {
        let mut v: Vec<String> = ids.iter().map(|&n| net.name(n).to_string()).collect();
        v.sort();
        v
    };
    let highest = |nodes: &[NodeId]| -> Vec<String> {
        let Some(top) = nodes.iter().map(|&n| net.node(n).layer).max() else {
            return Vec::new();
        };
        let at_top: Vec<NodeId> = nodes
            .iter()
            .copied()
            .filter(|&n| net.node(n).layer == top)
            .collect();
        names(&at_top)
    };
    let count = |g: &[NodeId], of: &[bool]| g.iter().filter(|s| of[s.idx()]).count() as u64;
    let (mut pairs, mut listed) = (0u64, Vec::new());
    for i in 0..groups.len() {
        for j in i..groups.len() {
            if meet(&tops[i], &tops[j]) {
                continue;
            }
            let (ga, gb) = (&groups[i].1, &groups[j].1);
            let mut n = count(ga, &is_sender) * count(gb, &is_receiver);
            if i == j {
                // a server does not send to itself
                n -= ga
                    .iter()
                    .filter(|s| is_sender[s.idx()] && is_receiver[s.idx()])
                    .count() as u64;
            } else {
                n += count(gb, &is_sender) * count(ga, &is_receiver);
            }
            if n == 0 {
                continue;
            }
            pairs += n;
            if listed.len() < MAX_GROUP_PAIRS {
                let first = |g: &[NodeId]| -> Vec<String> {
                    g.iter()
                        .take(MAX_NAMES)
                        .map(|&s| net.name(s).to_string())
                        .collect()
                };
                listed.push(UnreachableGroups {
                    server_pairs: n,
                    servers_a: first(ga),
                    servers_a_count: ga.len() as u64,
                    via_a: names(groups[i].0),
                    reaches_a: highest(&tops[i]),
                    servers_b: first(gb),
                    servers_b_count: gb.len() as u64,
                    via_b: names(groups[j].0),
                    reaches_b: highest(&tops[j]),
                });
            }
        }
    }
    (pairs, listed)
}
