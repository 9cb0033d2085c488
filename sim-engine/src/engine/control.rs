//! The periodic controller of adaptive routing: every `T_rebind` it measures each ToR's offered
//! load, updates the routing EWMAs and lets every sender move flows towards its target split.

use super::{FlowEngine, Status};
use crate::network::Network;
use crate::routing::{Binding, Route, RouteCtx, Router};
use crate::scenario::RoutingSpec;
use crate::units::{NodeId, Time};

#[derive(Clone, Debug, Default)]
pub struct Controller {
    period: Option<Time>,
    /// A binding to impose on the next routing of flow `.0` (rebinding).
    force: Option<(u32, Binding)>,
    pub ticks: u64,
}

impl Controller {
    pub fn new(spec: &RoutingSpec, _net: &Network) -> Controller {
        let period = match spec {
            RoutingSpec::Adaptive(p) => Some(p.t_rebind_s),
            RoutingSpec::Detour(p) => Some(p.t_rebind_s),
            _ => None,
        };
        Controller {
            period: period.map(Time::from_secs_f64).filter(|t| t.0 > 0),
            ..Default::default()
        }
    }

    pub fn period(&self) -> Option<Time> {
        self.period
    }

    /// Detours set up so far, for the report.
    pub fn detour_reports(&self, _net: &Network) -> Vec<crate::report::DetourReport> {
        Vec::new()
    }

    pub fn forced_binding(&self, f: u32) -> Option<Binding> {
        match self.force {
            Some((g, b)) if g == f => Some(b),
            _ => None,
        }
    }
}

/// Route a flow with an imposed source ToR.
pub fn route_bound(
    router: &mut Router,
    ctx: &RouteCtx,
    f: u32,
    src: NodeId,
    dst: NodeId,
    b: Binding,
) -> Route {
    let h = crate::routing::flow_hash(ctx.seed, f);
    match router.adaptive() {
        Some(ad) => {
            let r = ad.route(ctx, h, src, dst, Some(b.src_tor));
            if r.paths.is_empty() {
                router.route(ctx, f, src, dst)
            } else {
                r
            }
        }
        None => router.route(ctx, f, src, dst),
    }
}

/// One controller period.
pub fn tick(e: &mut FlowEngine) {
    e.ctl.ticks += 1;
    let Some(period) = e.ctl.period else { return };
    let n = e.net.nodes.len();
    let now = e.now;
    // 1. offered load per ToR: bytes still to send through its uplinks / what they carry per period
    let mut back_up = vec![0.0f64; n];
    let mut back_down = vec![0.0f64; n];
    let mut bound: Vec<(NodeId, u32, f64)> = Vec::new();
    for (f, fl) in e.flows.iter().enumerate() {
        if fl.status != Status::Active || fl.subs.is_empty() {
            continue;
        }
        let rem = (fl.rem_bits - fl.rate * 1e-3 * (now.0 - fl.last.0) as f64).max(0.0);
        let path = &e.fnet.subs[fl.subs[0] as usize].path;
        if path.len() > 2 {
            let st = e.net.link(path[0]).to;
            let dt = e.net.link(path[path.len() - 1]).from;
            back_up[st.idx()] += rem;
            back_down[dt.idx()] += rem;
        }
        if let Some(b) = fl.binding {
            if b.detour == crate::routing::NONE_DETOUR {
                bound.push((e.wl.flows[f].src, f as u32, rem));
            }
        }
    }
    let Some(ad) = e.router.adaptive() else {
        return;
    };
    let secs = period.as_secs_f64();
    for i in 0..n {
        let cap_bits = ad.cap_up[i] * 1e9 * secs;
        if cap_bits > 0.0 {
            back_up[i] /= cap_bits;
            back_down[i] /= cap_bits;
        } else {
            back_up[i] = 0.0;
            back_down[i] = 0.0;
        }
    }
    ad.update(&back_up, &back_down);
    // 2. rebinding, sender by sender (flows in index order)
    bound.sort_by_key(|x| (x.0, x.1));
    let mut moves: Vec<(u32, Binding)> = Vec::new();
    let mut i = 0;
    while i < bound.len() {
        let s = bound[i].0;
        let mut j = i;
        while j < bound.len() && bound[j].0 == s {
            j += 1;
        }
        let tors = ad.server_tors[s.idx()].clone();
        if tors.len() >= 2 {
            let mut per: Vec<Vec<(u32, f64)>> = vec![Vec::new(); tors.len()];
            let mut total = 0.0;
            for &(_, f, rem) in &bound[i..j] {
                let b = e.flows[f as usize].binding.expect("bound");
                if let Some(k) = tors.iter().position(|&t| t == b.src_tor) {
                    per[k].push((f, rem));
                    total += rem;
                }
            }
            if total > 0.0 {
                let u: Vec<f64> = per
                    .iter()
                    .map(|v| v.iter().map(|x| x.1).sum::<f64>() / total)
                    .collect();
                let t = ad.target_split(&tors, &u);
                let mut deficit: Vec<f64> =
                    (0..tors.len()).map(|k| (t[k] - u[k]) * total).collect();
                for k in 0..tors.len() {
                    let mut excess = -deficit[k];
                    for &(f, rem) in &per[k] {
                        if excess <= 0.0 {
                            break;
                        }
                        // move a flow only if it brings us closer to the target
                        if rem > 2.0 * excess {
                            continue;
                        }
                        let (best, _) = deficit.iter().enumerate().filter(|(m, _)| *m != k).fold(
                            (usize::MAX, 0.0),
                            |acc, (m, &d)| if d > acc.1 { (m, d) } else { acc },
                        );
                        if best == usize::MAX || deficit[best] < rem * 0.5 {
                            break;
                        }
                        let mut b = e.flows[f as usize].binding.expect("bound");
                        b.src_tor = tors[best];
                        deficit[best] -= rem;
                        deficit[k] += rem;
                        excess -= rem;
                        moves.push((f, b));
                    }
                }
            }
        }
        i = j;
    }
    ad.rebinds += moves.len() as u64;
    for (f, b) in moves {
        e.ctl.force = Some((f, b));
        e.reroute(f);
        e.ctl.force = None;
    }
}
