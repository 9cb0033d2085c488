//! Subways detour routing: least-work routing plus detours through neighbouring servers. A flow is
//! routed as in least-work routing; [`Detour::route_leg`] builds the detour path of a hot rack's
//! flow through a remote ToR, on the sending side (traffic leaves through the remote ToR's
//! uplinks) or the receiving side (traffic for the rack enters at the remote ToR). Which racks get detours, through which remote ToRs and for how
//! long is decided by the loop scheduler (`engine/control/detour.rs`).

use super::least_work::LeastWork;
use super::{Binding, Route, RouteCtx, UpDown};
use crate::network::Network;
use crate::rng::splitmix64;
use crate::scenario::DetourParams;
use crate::units::{LinkId, NodeId};

#[derive(Clone, Debug)]
pub struct Detour {
    pub p: DetourParams,
    pub ad: LeastWork,
    /// The active detours new flows of their racks are placed on (the loop scheduler sets them
    /// every period).
    pub placing: Vec<Placing>,
}

/// An active detour as the router places new flows on it: a flow of one of `servers` (its
/// source on the send side, its destination on the receive side) that would cross the fabric
/// through one of `rack_tors` on that side takes one of `legs` with probability `share`, the
/// share of the rack's traffic the detour is to carry (DESIGN.md: the hot rack's traffic is
/// source-routed through the detour, new flows included, not only the flows alive at a tick).
#[derive(Clone, Debug)]
pub struct Placing {
    pub side: Side,
    pub servers: Vec<NodeId>,
    pub rack_tors: Vec<NodeId>,
    pub legs: Vec<DetourLeg>,
    pub share: f64,
    /// New flows placed on it since the scheduler last counted.
    pub placed: u64,
}

/// A uniform number in [0, 1) from 53 bits of `x`.
fn unit(x: u64) -> f64 {
    (x >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
}

impl Detour {
    pub fn new(p: DetourParams, net: &Network, ud: UpDown) -> Detour {
        let ad = LeastWork::new(p.adaptive(), net, ud);
        Detour {
            p,
            ad,
            placing: Vec::new(),
        }
    }

    pub fn route(
        &mut self,
        ctx: &RouteCtx,
        h: u64,
        src: NodeId,
        dst: NodeId,
        forced_src: Option<NodeId>,
    ) -> Route {
        self.ad.route(ctx, h, src, dst, forced_src)
    }

    /// Route a flow that starts now: as [`Detour::route`], then, when its rack has an active
    /// detour on the side it would cross the fabric, onto that detour with the detour's share.
    /// (Flows already running are moved by the scheduler only, so that re-routes after a
    /// failure or at a flowlet gap do not put more than the share on the detour.)
    pub fn route_new(&mut self, ctx: &RouteCtx, h: u64, src: NodeId, dst: NodeId) -> Route {
        let r = self.ad.route(ctx, h, src, dst, None);
        if self.placing.is_empty() {
            return r;
        }
        // a flow of a detoured rack leaving (entering) through one of its ToRs and the fabric
        let Some((p, _)) = r.paths.first() else {
            return r;
        };
        if p.len() <= 2 {
            return r;
        }
        let (first, last) = (ctx.net.link(p[0]).to, ctx.net.link(p[p.len() - 1]).from);
        for k in 0..self.placing.len() {
            let pl = &self.placing[k];
            let (endpoint, tor) = match pl.side {
                Side::Send => (src, first),
                Side::Receive => (dst, last),
            };
            if !pl.servers.contains(&endpoint) || !pl.rack_tors.contains(&tor) {
                continue;
            }
            if unit(splitmix64(h ^ 0x6465_746f_7572 ^ k as u64)) >= pl.share {
                return r;
            }
            let n = pl.legs.len();
            if n == 0 {
                return r;
            }
            let start = (splitmix64(h ^ 0x006c_6567) % n as u64) as usize;
            for t in 0..n {
                let leg = self.placing[k].legs[(start + t) % n].clone();
                if let Some(on) = self.route_leg(ctx, h, src, dst, &leg) {
                    self.placing[k].placed += 1;
                    return on;
                }
            }
            return r;
        }
        r
    }

    /// The detour path of flow hash `h` on `leg`, with the remote ToR's budget link for the
    /// leg's side (one virtual link per node and side after the real links, see [`budget_link`]),
    /// which caps the detour's traffic at its share of the remote ToR's spare capacity:
    /// * send side: `src -> a -> n1 -> b -> ... -> remote -> (up-down) -> dst`, the chain starting
    ///   at a ToR of the source server;
    /// * receive side: `src -> (up-down) -> remote -> ... -> b -> n1 -> a -> dst`, the chain ending
    ///   at a ToR of the destination server.
    ///
    /// Each `n` is a server that forwards (attached to both ToRs of its step, neither endpoint).
    /// `None` when no such path is up.
    pub fn route_leg(
        &mut self,
        ctx: &RouteCtx,
        h: u64,
        src: NodeId,
        dst: NodeId,
        leg: &DetourLeg,
    ) -> Option<Route> {
        let (net, up) = (ctx.net, ctx.up);
        let own = |s: NodeId| &self.ad.server_tors[s.idx()];
        let link = |a: NodeId, b: NodeId| {
            net.out[a.idx()]
                .iter()
                .copied()
                .find(|&l| up[l.idx()] && net.link(l).to == b)
        };
        // the ToR sequence from the remote side: chain[0] is a ToR of the hot rack
        let endpoint = if leg.side == Side::Send { src } else { dst };
        let start = leg.chain.iter().position(|t| own(endpoint).contains(t))?;
        let mut tors: Vec<NodeId> = leg.chain[start..].to_vec();
        if leg.side == Side::Receive {
            tors.reverse(); // remote first, a ToR of the destination last
        }
        let mut mid = Vec::new();
        for (k, w) in tors.windows(2).enumerate() {
            let cands: Vec<NodeId> = net.out[w[0].idx()]
                .iter()
                .map(|&l| net.link(l).to)
                .filter(|&s| net.is_server(s) && s != src && s != dst && own(s).contains(&w[1]))
                .collect();
            if cands.is_empty() {
                return None;
            }
            let n = cands[(splitmix64(h ^ k as u64) % cands.len() as u64) as usize];
            mid.push(link(w[0], n)?);
            mid.push(link(n, w[1])?);
        }
        let (first, last) = (tors[0], tors[tors.len() - 1]);
        let mut path;
        let binding;
        if leg.side == Side::Send {
            path = vec![link(src, first)?];
            path.extend(mid);
            path.extend(self.ad.ud.walk(up, leg.remote, dst, h)?);
            let j = net.link(path[path.len() - 1]).from;
            binding = (first, j);
        } else {
            path = self.ad.ud.walk(up, src, leg.remote, h)?;
            path.extend(mid);
            path.push(link(last, dst)?);
            binding = (net.link(path[0]).to, last);
        }
        path.push(budget_link(net, leg.side, leg.remote));
        Some(Route {
            paths: vec![(path, 1.0)],
            binding: Some(Binding {
                src_tor: binding.0,
                dst_tor: binding.1,
                detour: leg.id,
            }),
        })
    }
}

/// Which traffic of a hot rack a detour carries.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Side {
    /// Traffic leaving the rack (its ToRs' uplinks are hot).
    Send,
    /// Traffic entering the rack (its ToRs' downlinks are hot).
    Receive,
}

impl Side {
    pub fn name(self) -> &'static str {
        match self {
            Side::Send => "send",
            Side::Receive => "receive",
        }
    }
}

/// One way onto a detour: its id, side, remote ToR and the ToR chain from a ToR of the hot rack
/// (first) to the remote ToR (last).
#[derive(Clone, Debug)]
pub struct DetourLeg {
    pub id: u32,
    pub side: Side,
    pub remote: NodeId,
    pub chain: Vec<NodeId>,
}

/// The virtual link capping detour traffic through `tor` on `side`: after the real links, one
/// per node for the send side, then one per node for the receive side.
pub fn budget_link(net: &Network, side: Side, tor: NodeId) -> LinkId {
    let base = net.links.len()
        + if side == Side::Receive {
            net.nodes.len()
        } else {
            0
        };
    LinkId((base + tor.idx()) as u32)
}
