//! One link's simulation: the link with the flows that cross it, at packet level.
//!
//! The link `u -> v` is rebuilt on its own: the flows that reach `u` over one link share an
//! access link of that link's capacity (it shapes their arrivals as it does in the network),
//! with the delay of every hop before; they cross the link; the flows that leave `v` over one
//! link share an egress link of its capacity, with the delay of every hop after. Where `u` (or
//! `v`) is a server, its flows start (or end) there, sharing its NIC. Every flow keeps its size,
//! its arrival time and its transport (`engine.packet`). A flow whose bottleneck is another
//! link ([`Plan::pace`]) first crosses a link of its own at its fluid rate there: in the network
//! it reaches this link paced by that bottleneck, and at line rate it would contend here as it
//! never does.
//!
//! What a flow loses to the link is its completion time here over its completion time in a
//! second run, the baseline, where every flow crosses a copy of the link of its own: the same
//! arrivals over the same shared hops around it, no contention at the link. The difference is
//! the link's own, so that the contention of the hops around it (simulated as links of their
//! own) and the transport's own pace (slow start, the handshake) are not counted again at every
//! hop. A flow whose whole path is the link loses its completion time here over its ideal.

use std::collections::BTreeMap;

use super::plan::Plan;
use crate::engine::{Engine, Status};
use crate::model::Role;
use crate::network::{Link, Network, Node};
use crate::packet::{PacketEngine, PortRecord};
use crate::scenario::Scenario;
use crate::units::{Gbps, LinkId, NodeId, Time};
use crate::workload::{FlowSpec, Workload, NONE};

/// What one link's simulation gave.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct LinkOutcome {
    /// The directed link simulated.
    pub link: usize,
    pub events: u64,
    pub port: PortRecord,
    /// Per flow of the link (the plan's order): what the link added to its completion time, ps:
    /// over the baseline's, or over its ideal for a flow whose whole path is the link (`None`: it
    /// did not finish there).
    pub delays_ps: Vec<Option<i64>>,
}

/// The delay of `hops`: the wire latency of each and the switching latency of each that enters
/// a switch, ps.
fn hops_delay(net: &Network, hops: &[LinkId], sw_ps: u64) -> u64 {
    hops.iter()
        .map(|l| {
            let k = net.link(*l);
            k.latency.0 + if net.is_server(k.to) { 0 } else { sw_ps }
        })
        .sum()
}

/// The small network of one link and the flows on it, each on its fixed path.
struct LinkNet {
    net: Network,
    wl: Workload,
    paths: Vec<Vec<LinkId>>,
}

fn add_node(net: &mut Network, name: String, role: Role) -> NodeId {
    let id = NodeId(net.nodes.len() as u32);
    net.nodes.push(Node {
        name,
        role,
        layer: role.default_layer(),
        cluster: None,
        loop_id: None,
        loop_position: None,
        logical_rack: None,
        host: None,
        rail: None,
    });
    net.out.push(Vec::new());
    if role == Role::Server {
        net.servers.push(id);
    }
    id
}

/// A full-duplex link `a - b`; its `a -> b` direction.
fn add_link(net: &mut Network, a: NodeId, b: NodeId, gbps: f64, latency_ps: u64) -> LinkId {
    let d = net.link_names.len() as u32;
    net.link_names
        .push(format!("{}|{}", net.name(a), net.name(b)));
    for (from, to) in [(a, b), (b, a)] {
        net.out[from.idx()].push(LinkId(net.links.len() as u32));
        net.links.push(Link {
            from,
            to,
            gbps: Gbps(gbps),
            latency: Time(latency_ps),
        });
    }
    LinkId(2 * d)
}

/// The small network of link `l`: with `private`, each flow crosses a copy of the link of its
/// own (the baseline: the same arrivals, no contention at the link).
fn link_net(sc: &Scenario, net: &Network, plan: &Plan, l: usize, private: bool) -> LinkNet {
    let sw_ps = sc.engine.packet.switch_latency_ns * 1000;
    let target = &net.links[l];
    let (u, v) = (target.from, target.to);
    let flows = plan.flows_on(l);
    let mut m = Network::default();
    let end = |n: NodeId, role: Role| if net.is_server(n) { Role::Server } else { role };
    let mu = add_node(&mut m, "u".into(), end(u, Role::Tor));
    let mv = add_node(&mut m, "v".into(), end(v, Role::Spine));
    let hop = add_link(&mut m, mu, mv, target.gbps.0, target.latency.0);
    let mut wl = Workload {
        groups: plan.wl.groups,
        group_kind: plan.wl.group_kind,
        ..Workload::default()
    };
    // flows that come over one link into `u` share it here too (its capacity shapes their
    // arrivals), and so do flows that leave `v` over one link
    let mut access: BTreeMap<(u32, u64), (NodeId, LinkId)> = BTreeMap::new();
    let mut egress: BTreeMap<(u32, u64), (NodeId, LinkId)> = BTreeMap::new();
    let mut paths = Vec::with_capacity(flows.len());
    for &f in flows {
        let path = plan.path(f as usize);
        let at = path.iter().position(|x| x.idx() == l).expect("on its link");
        let spec = &plan.wl.flows[f as usize];
        let mut mini = Vec::with_capacity(4);
        // a flow whose bottleneck is elsewhere comes at the pace it keeps there: through a link
        // of its own at that rate (slower than its first hop, or it would pace nothing)
        let pace = plan
            .pace(f as usize, l)
            .filter(|&g| g < net.link(path[0]).gbps.0);
        let shaped = pace.is_some();
        let pace = pace.unwrap_or(0.0);
        let shaper = |m: &mut Network, mini: &mut Vec<LinkId>, to: NodeId| {
            let s = add_node(m, format!("f{f}"), Role::Server);
            mini.push(add_link(m, s, to, pace, 0));
            s
        };
        let src = if at == 0 {
            if shaped {
                shaper(&mut m, &mut mini, mu)
            } else {
                mu
            }
        } else {
            let delay = hops_delay(net, &path[..at], sw_ps).saturating_sub(sw_ps);
            let key = (path[at - 1].0, delay);
            let (s, a) = *access.entry(key).or_insert_with(|| {
                let s = add_node(&mut m, format!("s{}", key.0), Role::Server);
                let gbps = net.link(path[at - 1]).gbps.0;
                (s, add_link(&mut m, s, mu, gbps, delay))
            });
            if shaped {
                let first = shaper(&mut m, &mut mini, s);
                mini.push(a);
                first
            } else {
                mini.push(a);
                s
            }
        };
        mini.push(if private {
            add_link(&mut m, mu, mv, target.gbps.0, target.latency.0)
        } else {
            hop
        });
        let dst = if at + 1 == path.len() {
            mv
        } else {
            let delay = hops_delay(net, &path[at + 1..], sw_ps);
            let key = (path[at + 1].0, delay);
            let (d, e) = *egress.entry(key).or_insert_with(|| {
                let d = add_node(&mut m, format!("d{}", key.0), Role::Server);
                let gbps = net.link(path[at + 1]).gbps.0;
                (d, add_link(&mut m, mv, d, gbps, delay))
            });
            mini.push(e);
            d
        };
        paths.push(mini);
        wl.flows.push(FlowSpec {
            arrival: spec.arrival,
            src,
            dst,
            bytes: spec.bytes,
            group: spec.group,
            follow_up: NONE,
            is_follow_up: false,
            extra_steps: 0,
        });
    }
    m.max_layer = m.nodes.iter().map(|n| n.layer).max().unwrap_or(0);
    let mut by_layer: Vec<NodeId> = (0..m.nodes.len() as u32).map(NodeId).collect();
    by_layer.sort_by_key(|n| (std::cmp::Reverse(m.node(*n).layer), n.0));
    m.by_layer_desc = by_layer;
    crate::workload::finish(&mut wl);
    LinkNet { net: m, wl, paths }
}

/// Simulate link `l` of the plan with `mini`, the scenario a link simulation runs under
/// ([`super::link_scenario`]); `look` is called every so many events with the events since the
/// last call and may stop the run with an error.
pub fn simulate(
    mini: &Scenario,
    net: &Network,
    plan: &Plan,
    l: usize,
    mut look: impl FnMut(u64) -> Result<(), crate::SimError>,
) -> Result<LinkOutcome, crate::SimError> {
    let (with, port, events) = run_net(mini, link_net(mini, net, plan, l, false), &mut look, true)?;
    let (base, _, base_events) =
        run_net(mini, link_net(mini, net, plan, l, true), &mut look, false)?;
    let delays_ps = plan
        .flows_on(l)
        .iter()
        .zip(with.iter().zip(&base))
        .map(|(&f, (w, b))| {
            let (fct, ideal) = (*w)?;
            if plan.path(f as usize).len() == 1 {
                // the flow's whole path: what it lost here, transport included, is all it lost
                return Some(fct - ideal);
            }
            b.map(|(alone, _)| fct - alone)
        })
        .collect();
    Ok(LinkOutcome {
        link: l,
        events: events + base_events,
        port: port.expect("the link's port"),
        delays_ps,
    })
}

/// Each flow's (completion time, ideal) in ps (`None`: unfinished), the target port's record
/// (`keep_port`) and the events of one small network's run.
#[allow(clippy::type_complexity)]
fn run_net(
    mini: &Scenario,
    ln: LinkNet,
    look: &mut impl FnMut(u64) -> Result<(), crate::SimError>,
    keep_port: bool,
) -> Result<(Vec<Option<(i64, i64)>>, Option<PortRecord>, u64), crate::SimError> {
    let mut eng = PacketEngine::with_workload(mini, &ln.net, ln.wl, ln.paths);
    let mut seen = 0u64;
    while eng.step() {
        let e = eng.events();
        if e - seen >= PacketEngine::LOOK_EVERY {
            look(e - seen)?;
            seen = e;
        }
    }
    look(eng.events() - seen)?;
    eng.close();
    let flows = eng
        .flow_states()
        .iter()
        .map(|fl| {
            (fl.status == Status::Done).then(|| {
                // (the ideal is whole picoseconds over 10^12: exact back)
                (
                    (fl.fct_end.0 - fl.start.0) as i64,
                    (fl.ideal_s * 1e12).round() as i64,
                )
            })
        })
        .collect();
    // the target link is the small network's first: directed link 0
    Ok((flows, keep_port.then(|| eng.port_record(0)), eng.events()))
}
