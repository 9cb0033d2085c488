//! Least-work routing (`least_work`): the stronger adaptive router, which places every flow by the
//! work still queued on each link, with a periodic controller and rebinding. It reads each flow's
//! remaining size, which a real host does not know, so it is an upper reference for what ToR
//! balancing can reach, not the design's rule (that is [`super::adaptive`], the default
//! `adaptive`). Detour routing runs on top of it.
//!
//! Placement: every directed link has a *work* `W_l`, the bits still to cross it (measured over
//! the active flows at the last controller period) plus the bits of the flows placed on it
//! since. A new flow whose endpoints share no ToR takes, among the paths `src -> i -> (fabric)
//! -> j -> dst` over its source ToRs `i`, destination ToRs `j` and up to [`FABRIC_SAMPLES`]
//! shortest fabric paths of each pair, the one whose busiest link would have the least work per
//! unit of capacity, `max_l (W_l + size) / C_l` (ties: the first in an order rotated by the
//! flow's hash), and adds its size to that path's links. This is where the design's probability
//! `B_i (1 - U_i)` aims; drawing at random instead (the design's rule, [`super::adaptive`]), or
//! balancing the ToRs but hashing the fabric hop, left single ToR-spine links with more work than
//! ECMP's hashing did: the random draw lost to ECMP by up to 22% on symmetric shuffles (the job
//! time is the busiest link's work over its capacity there).
//! Endpoints sharing a ToR keep a one-switch path (through the shared ToR with the least work on
//! its two ports). Every `T_rebind` the engine feeds the
//! controller fresh per-ToR loads ([`LeastWork::update`]) and each sender moves flows towards the
//! target split `t_i = c*u_i*U_target/U_i + (1-c)*u_i` ([`LeastWork::target_split`]).
//!
//! Fluid-mode load signal: a fluid link never exceeds 100% (there are no queues), so when every
//! uplink is saturated the carried utilisation cannot tell a hot ToR from a cool one. The
//! controller therefore reads the *offered* load: the bytes still to send through the ToR divided
//! by what it can carry in one `T_rebind` (`backlog / (B * T_rebind)`), which equals the
//! utilisation when the ToR is not overloaded and keeps growing with the backlog when it is.

use super::{server_link, Binding, Route, RouteCtx, UpDown, NONE_DETOUR};
use crate::model::Role;
use crate::network::Network;
use crate::rng::splitmix64;
use crate::scenario::AdaptiveParams;
use crate::units::{LinkId, NodeId};

/// Fabric paths sampled per (source ToR, destination ToR) pair when placing a flow.
pub const FABRIC_SAMPLES: u64 = 8;

#[derive(Clone, Debug)]
pub struct LeastWork {
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
    /// Work (bits) per directed link: the backlog measured at the last period plus the flows
    /// placed since.
    pub work: Vec<f64>,
    /// Bits of the flow about to be routed ([`crate::routing::Router::note_size`]).
    pub next_bits: f64,
}

impl LeastWork {
    pub fn new(p: AdaptiveParams, net: &Network, ud: UpDown) -> LeastWork {
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
        LeastWork {
            p,
            ud,
            u_up: vec![0.0; n],
            u_down: vec![0.0; n],
            cap_up,
            server_tors,
            rebinds: 0,
            work: vec![0.0; net.links.len()],
            next_bits: 0.0,
        }
    }

    /// Work per unit of capacity of path `p`'s busiest link once `bits` more cross it.
    fn score(&self, net: &Network, p: &[LinkId], bits: f64) -> f64 {
        p.iter()
            .map(|&l| (self.work[l.idx()] + bits) / net.link(l).gbps.0.max(1e-9))
            .fold(0.0, f64::max)
    }

    /// Record that a flow of `bits` was placed on `p`.
    fn place(&mut self, p: &[LinkId], bits: f64) {
        for &l in p {
            self.work[l.idx()] += bits;
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
        let first = server_link(ctx.net, ctx.up, src, i, h)?;
        let last = server_link(ctx.net, ctx.up, dst, j, h >> 7)?.reverse();
        let mut p = vec![first];
        if i != j {
            p.extend(self.ud.walk(ctx.up, i, j, h)?);
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
            let bits = self.next_bits;
            let mut best: Option<(f64, Vec<LinkId>)> = None;
            let n = stors.len();
            let rot = (splitmix64(h ^ 0x5352) % n as u64) as usize;
            for k in 0..n {
                let t = stors[(k + rot) % n];
                if !dtors.contains(&t) {
                    continue;
                }
                let a = server_link(ctx.net, ctx.up, src, t, h);
                let b = server_link(ctx.net, ctx.up, dst, t, h >> 7);
                if let (Some(a), Some(b)) = (a, b) {
                    let p = vec![a, b.reverse()];
                    let score = self.score(ctx.net, &p, bits);
                    if best.as_ref().is_none_or(|x| score < x.0) {
                        best = Some((score, p));
                    }
                }
            }
            if let Some((_, p)) = best {
                self.place(&p, bits);
                return Route::single(p);
            }
        }
        if forced_src.is_none() && shares || stors.is_empty() || dtors.is_empty() {
            return match self.ud.walk(ctx.up, src, dst, h) {
                Some(p) => Route::single(p),
                None => Route::default(),
            };
        }
        let is: Vec<NodeId> = match forced_src {
            Some(t) => vec![t],
            None => stors.clone(),
        };
        let dtors = dtors.clone();
        let bits = self.next_bits;
        let pairs = is.len() * dtors.len();
        let rot = splitmix64(h ^ 0x5352) as usize;
        let mut best: Option<(f64, Vec<LinkId>, NodeId, NodeId)> = None;
        for k in 0..pairs {
            let q = (k + rot) % pairs;
            let (i, j) = (is[q / dtors.len()], dtors[q % dtors.len()]);
            let mut tried: Vec<Vec<LinkId>> = Vec::new();
            for s in 0..FABRIC_SAMPLES {
                let hs = if s == 0 { h } else { splitmix64(h ^ s) };
                let Some(p) = self.path_via(ctx, hs, src, i, j, dst) else {
                    break;
                };
                if tried.contains(&p) {
                    continue;
                }
                let score = self.score(ctx.net, &p, bits);
                if best.as_ref().is_none_or(|x| score < x.0) {
                    best = Some((score, p.clone(), i, j));
                }
                tried.push(p);
            }
        }
        if let Some((_, p, i, j)) = best {
            self.place(&p, bits);
            return Route {
                paths: vec![(p, 1.0)],
                binding: Some(Binding {
                    src_tor: i,
                    dst_tor: j,
                    detour: NONE_DETOUR,
                }),
            };
        }
        match self.ud.walk(ctx.up, src, dst, h) {
            Some(p) => Route::single(p),
            None => Route::default(),
        }
    }

    /// The work measured at a controller period (bits still to cross each directed link):
    /// placements since the last period are in it.
    pub fn set_work(&mut self, work: Vec<f64>) {
        self.work = work;
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
