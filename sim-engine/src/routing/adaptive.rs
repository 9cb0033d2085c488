//! Subways adaptive routing (weighted ECMP with a periodic controller and rebinding).
//!
//! A new flow whose endpoints share no ToR is placed on the source ToR `i` with the least work per
//! unit of capacity: `max(W_i / B_i, W_port / C_port)`, where `W_i` is the bits still to send
//! through `i`'s uplinks (measured at the last controller period) plus the bits of the flows
//! placed on it since, and `W_port` the same for the server's port to `i`; its destination ToR
//! `j` likewise from downlink work. The fabric part is ECMP from `i` to `j`. This is where the
//! design's probability `B_i (1 - U_i)` aims; drawing at random instead (as an earlier build did)
//! unbalanced placements that ECMP's hashing had balanced, and adaptive lost to ECMP by up to 20%
//! on symmetric shuffles that end before the first controller period. Ties go to a hash of the
//! flow, so equal ToRs share flows evenly.
//! Endpoints sharing a ToR keep the one-switch path. Every `T_rebind` the engine feeds the
//! controller fresh per-ToR loads ([`Adaptive::update`]) and each sender moves flows towards the
//! target split `t_i = c*u_i*U_target/U_i + (1-c)*u_i` ([`Adaptive::target_split`]).
//!
//! Fluid-mode load signal: a fluid link never exceeds 100% (there are no queues), so when every
//! uplink is saturated the carried utilisation cannot tell a hot ToR from a cool one. The
//! controller therefore reads the *offered* load: the bytes still to send through the ToR divided
//! by what it can carry in one `T_rebind` (`backlog / (B * T_rebind)`), which equals the
//! utilisation when the ToR is not overloaded and keeps growing with the backlog when it is.

use super::{Binding, Route, RouteCtx, UpDown, NONE_DETOUR};
use crate::model::Role;
use crate::network::Network;
use crate::rng::splitmix64;
use crate::scenario::AdaptiveParams;
use crate::units::{LinkId, NodeId};

#[derive(Clone, Debug)]
pub struct Adaptive {
    pub p: AdaptiveParams,
    pub ud: UpDown,
    /// EWMA of uplink load per node (ToRs only).
    pub u_up: Vec<f64>,
    /// EWMA of downlink load per node (ToRs only).
    pub u_down: Vec<f64>,
    /// Uplink capacity per node, Gb/s.
    pub cap_up: Vec<f64>,
    /// Distinct ToRs of every server, in link order (empty for switches).
    pub server_tors: Vec<Vec<NodeId>>,
    /// Flows rebound by the controller so far.
    pub rebinds: u64,
    /// Work (bits) per node through its uplinks / downlinks, and per directed link for server
    /// ports: the backlog measured at the last period plus the flows placed since.
    pub work_up: Vec<f64>,
    pub work_down: Vec<f64>,
    pub work_port: Vec<f64>,
    /// Bits of the flow about to be routed ([`crate::routing::Router::note_size`]).
    pub next_bits: f64,
}

impl Adaptive {
    pub fn new(p: AdaptiveParams, net: &Network, ud: UpDown) -> Adaptive {
        let n = net.nodes.len();
        let mut cap_up = vec![0.0; n];
        let mut server_tors = vec![Vec::new(); n];
        for i in 0..n {
            let id = NodeId(i as u32);
            if net.node(id).role == Role::Tor {
                cap_up[i] = net.uplinks(id).map(|l| net.link(l).gbps.0).sum();
            }
            if net.is_server(id) {
                let mut tors: Vec<NodeId> = Vec::new();
                for l in net.server_tor_links(id) {
                    let t = net.link(l).to;
                    if !tors.contains(&t) {
                        tors.push(t);
                    }
                }
                server_tors[i] = tors;
            }
        }
        Adaptive {
            p,
            ud,
            u_up: vec![0.0; n],
            u_down: vec![0.0; n],
            cap_up,
            server_tors,
            rebinds: 0,
            work_up: vec![0.0; n],
            work_down: vec![0.0; n],
            work_port: vec![0.0; net.links.len()],
            next_bits: 0.0,
        }
    }

    /// The ToR of `server` with the least work per unit of capacity (see the module doc):
    /// `src_side` picks a source ToR (uplinks, the server's port to it), else a destination ToR
    /// (downlinks, its port to the server). `h` breaks ties and picks LAG members.
    fn pick(
        &self,
        tors: &[NodeId],
        ctx: &RouteCtx,
        h: u64,
        server: NodeId,
        src_side: bool,
    ) -> Option<NodeId> {
        let n = tors.len();
        let mut best: Option<(f64, NodeId)> = None;
        for k in 0..n {
            let t = tors[(k + (splitmix64(h ^ 0x5352) % n.max(1) as u64) as usize) % n];
            let Some(l) = self.server_link(ctx.net, ctx.up, server, t, h) else {
                continue;
            };
            let (tor_work, l) = if src_side {
                (self.work_up[t.idx()], l)
            } else {
                (self.work_down[t.idx()], l.reverse())
            };
            let port = self.work_port[l.idx()] / ctx.net.link(l).gbps.0.max(1e-9);
            let score = (tor_work / self.cap_up[t.idx()].max(1e-9)).max(port);
            if best.is_none_or(|(b, _)| score < b) {
                best = Some((score, t));
            }
        }
        best.map(|b| b.1)
    }

    /// An up link from `server` to `tor` (LAG members chosen by hash).
    fn server_link(
        &self,
        net: &Network,
        up: &[bool],
        server: NodeId,
        tor: NodeId,
        h: u64,
    ) -> Option<LinkId> {
        let ls: Vec<LinkId> = net.out[server.idx()]
            .iter()
            .copied()
            .filter(|&l| up[l.idx()] && net.link(l).to == tor)
            .collect();
        if ls.is_empty() {
            None
        } else {
            Some(ls[(h % ls.len() as u64) as usize])
        }
    }

    /// Path `src -> i -> (fabric ECMP) -> j -> dst`.
    pub fn path_via(
        &mut self,
        ctx: &RouteCtx,
        h: u64,
        src: NodeId,
        i: NodeId,
        j: NodeId,
        dst: NodeId,
    ) -> Option<Vec<LinkId>> {
        let first = self.server_link(ctx.net, ctx.up, src, i, h)?;
        let last = self.server_link(ctx.net, ctx.up, dst, j, h >> 7)?.reverse();
        let mut p = vec![first];
        if i != j {
            p.extend(self.ud.walk(ctx.net, ctx.up, i, j, h)?);
        }
        p.push(last);
        Some(p)
    }

    pub fn route(
        &mut self,
        ctx: &RouteCtx,
        h: u64,
        src: NodeId,
        dst: NodeId,
        forced_src: Option<NodeId>,
    ) -> Route {
        let stors = &self.server_tors[src.idx()];
        let dtors = &self.server_tors[dst.idx()];
        let shares = stors.iter().any(|t| dtors.contains(t));
        if forced_src.is_none() && shares {
            // the one-switch path, through the shared ToR whose two ports have the least work
            let mut best: Option<(f64, Vec<LinkId>)> = None;
            let n = stors.len();
            for k in 0..n {
                let t = stors[(k + (splitmix64(h ^ 0x5352) % n as u64) as usize) % n];
                if !dtors.contains(&t) {
                    continue;
                }
                let a = self.server_link(ctx.net, ctx.up, src, t, h);
                let b = self.server_link(ctx.net, ctx.up, dst, t, h >> 7);
                if let (Some(a), Some(b)) = (a, b) {
                    let b = b.reverse();
                    let w = |l: LinkId| self.work_port[l.idx()] / ctx.net.link(l).gbps.0.max(1e-9);
                    let score = w(a).max(w(b));
                    if best.as_ref().is_none_or(|x| score < x.0) {
                        best = Some((score, vec![a, b]));
                    }
                }
            }
            if let Some((_, p)) = best {
                self.work_port[p[0].idx()] += self.next_bits;
                self.work_port[p[1].idx()] += self.next_bits;
                return Route::single(p);
            }
        }
        if forced_src.is_none() && shares || stors.is_empty() || dtors.is_empty() {
            return match self.ud.walk(ctx.net, ctx.up, src, dst, h) {
                Some(p) => Route::single(p),
                None => Route::default(),
            };
        }
        let i = match forced_src {
            Some(t) => Some(t),
            None => self.pick(stors, ctx, h, src, true),
        };
        let j = self.pick(dtors, ctx, h >> 7, dst, false);
        if let (Some(i), Some(j)) = (i, j) {
            if let Some(p) = self.path_via(ctx, h, src, i, j, dst) {
                let bits = self.next_bits;
                self.work_up[i.idx()] += bits;
                self.work_down[j.idx()] += bits;
                self.work_port[p[0].idx()] += bits;
                self.work_port[p[p.len() - 1].idx()] += bits;
                return Route {
                    paths: vec![(p, 1.0)],
                    binding: Some(Binding {
                        src_tor: i,
                        dst_tor: j,
                        detour: NONE_DETOUR,
                    }),
                };
            }
        }
        match self.ud.walk(ctx.net, ctx.up, src, dst, h) {
            Some(p) => Route::single(p),
            None => Route::default(),
        }
    }

    /// The work measured at a controller period (bits still to send per node's uplinks and
    /// downlinks, per server port): placements since the last period are in it.
    pub fn set_work(&mut self, up: Vec<f64>, down: Vec<f64>, port: Vec<f64>) {
        self.work_up = up;
        self.work_down = down;
        self.work_port = port;
    }

    /// Fold one sample of per-node offered load into the EWMAs.
    pub fn update(&mut self, load_up: &[f64], load_down: &[f64]) {
        let a = self.p.ewma;
        for i in 0..self.u_up.len() {
            self.u_up[i] = a * load_up[i] + (1.0 - a) * self.u_up[i];
            self.u_down[i] = a * load_down[i] + (1.0 - a) * self.u_down[i];
        }
    }

    /// Target split over a sender's ToRs given its current split `u` (sums to 1):
    /// `t_i = c*u_i*U_target/U_i + (1-c)*u_i`, `U_target = sum(B_i U_i)/sum(B_i)`, normalised.
    /// A ToR the sender does not use yet counts as a small share so that an idle ToR can attract flows.
    pub fn target_split(&self, tors: &[NodeId], u: &[f64]) -> Vec<f64> {
        let n = tors.len() as f64;
        let bsum: f64 = tors
            .iter()
            .map(|t| self.cap_up[t.idx()])
            .sum::<f64>()
            .max(1e-12);
        let ut: f64 = tors
            .iter()
            .map(|t| self.cap_up[t.idx()] * self.u_up[t.idx()])
            .sum::<f64>()
            / bsum;
        let c = self.p.c;
        let mut t: Vec<f64> = tors
            .iter()
            .zip(u)
            .map(|(tor, &ui)| {
                let ui = ui.max(0.05 / n);
                let uu = self.u_up[tor.idx()].max(1e-9);
                c * ui * (ut.max(1e-9) / uu) + (1.0 - c) * ui
            })
            .collect();
        let s: f64 = t.iter().sum();
        t.iter_mut().for_each(|x| *x /= s);
        t
    }
}
