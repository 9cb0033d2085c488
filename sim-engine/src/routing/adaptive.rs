//! Subways adaptive routing (weighted ECMP with a periodic controller and rebinding).
//!
//! A new flow whose endpoints share no ToR picks its source ToR `i` with probability proportional
//! to `B_i (1 - U_i)` (B = ToR uplink capacity, U = EWMA of the ToR's uplink load) and its
//! destination ToR `j` likewise from downlink load; the fabric part is ECMP from `i` to `j`.
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
}

fn uniform(h: u64) -> f64 {
    (h >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
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
        }
    }

    fn pick(
        &self,
        tors: &[NodeId],
        up: &[bool],
        net: &Network,
        u: &[f64],
        h: u64,
        server: NodeId,
    ) -> Option<NodeId> {
        let usable: Vec<NodeId> = tors
            .iter()
            .copied()
            .filter(|&t| self.server_link(net, up, server, t, 0).is_some())
            .collect();
        if usable.is_empty() {
            return None;
        }
        let w: Vec<f64> = usable
            .iter()
            .map(|t| self.cap_up[t.idx()].max(1e-9) * (1.0 - u[t.idx()]).max(0.05))
            .collect();
        let total: f64 = w.iter().sum();
        let mut x = uniform(h) * total;
        for (i, wi) in w.iter().enumerate() {
            if x < *wi {
                return Some(usable[i]);
            }
            x -= wi;
        }
        usable.last().copied()
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
        if forced_src.is_none() && shares || stors.is_empty() || dtors.is_empty() {
            return match self.ud.walk(ctx.net, ctx.up, src, dst, h) {
                Some(p) => Route::single(p),
                None => Route::default(),
            };
        }
        let i = match forced_src {
            Some(t) => Some(t),
            None => self.pick(
                &stors.clone(),
                ctx.up,
                ctx.net,
                &self.u_up,
                splitmix64(h ^ 0x5352),
                src,
            ),
        };
        let j = self.pick(
            &dtors.clone(),
            ctx.up,
            ctx.net,
            &self.u_down,
            splitmix64(h ^ 0x4453),
            dst,
        );
        if let (Some(i), Some(j)) = (i, j) {
            if let Some(p) = self.path_via(ctx, h, src, i, j, dst) {
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
