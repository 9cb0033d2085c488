//! Routing: maps a flow to one or more weighted paths. One enum, dispatched with `match` (no `dyn`).

pub mod adaptive;
pub mod detour;
pub mod ecmp;
pub mod grin;
pub mod least_work;
pub mod updown;
pub mod vlb;

use crate::network::Network;
use crate::rng::splitmix64;
use crate::scenario::RoutingSpec;
use crate::units::{LinkId, NodeId};

pub use updown::UpDown;

/// `Binding::detour` of a flow that is not on a detour.
pub const NONE_DETOUR: u32 = u32::MAX;

/// A path and its weight (the weights of one flow's paths sum to 1).
pub type WeightedPath = (Vec<LinkId>, f64);

/// Where a flow is bound (adaptive/detour): source ToR, destination ToR, detour id (or `u32::MAX`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Binding {
    pub src_tor: NodeId,
    pub dst_tor: NodeId,
    pub detour: u32,
}

/// The result of routing one flow.
#[derive(Clone, Debug, Default)]
pub struct Route {
    pub paths: Vec<WeightedPath>,
    pub binding: Option<Binding>,
}

impl Route {
    pub fn single(p: Vec<LinkId>) -> Route {
        Route {
            paths: vec![(p, 1.0)],
            binding: None,
        }
    }
}

/// What a router may read: the network, which directed links are up, and the seed.
pub struct RouteCtx<'a> {
    pub net: &'a Network,
    pub up: &'a [bool],
    pub seed: u64,
}

/// An up link from `server` to `tor`, a LAG member chosen by the hash `h`; None when all are down.
/// (The host side of the ToR-choosing routers, adaptive and least-work.)
pub(crate) fn server_link(
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
    (!ls.is_empty()).then(|| ls[(h % ls.len() as u64) as usize])
}

/// Per-flow ECMP hash (the fluid stand-in for a 5-tuple hash): a function of the seed and flow index.
#[inline]
pub fn flow_hash(seed: u64, flow: u32) -> u64 {
    splitmix64(seed.rotate_left(17) ^ (flow as u64).wrapping_mul(0xd1b5_4a32_d192_ed03))
}

/// The routing scheme of a run.
#[derive(Clone, Debug)]
pub enum Router {
    Ecmp(ecmp::Ecmp),
    Adaptive(adaptive::Adaptive),
    LeastWork(least_work::LeastWork),
    Detour(detour::Detour),
    Vlb(vlb::Vlb),
    Grin(grin::Grin),
}

impl Router {
    pub fn new(spec: &RoutingSpec, net: &Network) -> Router {
        let ud = UpDown::new(net);
        match spec {
            RoutingSpec::Ecmp => Router::Ecmp(ecmp::Ecmp { ud }),
            RoutingSpec::Adaptive(p) => {
                Router::Adaptive(adaptive::Adaptive::new(p.clone(), net, ud))
            }
            RoutingSpec::LeastWork(p) => {
                Router::LeastWork(least_work::LeastWork::new(p.clone(), net, ud))
            }
            RoutingSpec::Detour(p) => Router::Detour(detour::Detour::new(p.clone(), net, ud)),
            RoutingSpec::Vlb => Router::Vlb(vlb::Vlb::new(net, ud)),
            RoutingSpec::Grin(p) => Router::Grin(grin::Grin {
                ud,
                direct_weight: p.direct_weight,
            }),
        }
    }

    /// Route flow `flow` from `src` to `dst`; an empty route means no path exists right now.
    pub fn route(&mut self, ctx: &RouteCtx, flow: u32, src: NodeId, dst: NodeId) -> Route {
        let h = flow_hash(ctx.seed, flow);
        match self {
            Router::Ecmp(r) => r.route(ctx, h, src, dst),
            Router::Adaptive(r) => r.route(ctx, h, src, dst),
            Router::LeastWork(r) => r.route(ctx, h, src, dst, None),
            Router::Detour(r) => r.route(ctx, h, src, dst, None),
            Router::Vlb(r) => r.route(ctx, h, src, dst),
            Router::Grin(r) => r.route(ctx, h, src, dst),
        }
    }

    /// Route flow `flow`, which starts now: as [`Router::route`], but detour routing may place
    /// it on an active detour of its rack (running flows are moved by the scheduler).
    pub fn route_new(&mut self, ctx: &RouteCtx, flow: u32, src: NodeId, dst: NodeId) -> Route {
        match self {
            Router::Detour(r) => r.route_new(ctx, flow_hash(ctx.seed, flow), src, dst),
            _ => self.route(ctx, flow, src, dst),
        }
    }

    /// Route flow `flow` with its source ToR imposed (`b.src_tor`, least-work rebinding); as
    /// [`Router::route`] when the scheme does not rebind or that ToR gives no path.
    pub fn route_bound(
        &mut self,
        ctx: &RouteCtx,
        flow: u32,
        src: NodeId,
        dst: NodeId,
        b: Binding,
    ) -> Route {
        let h = flow_hash(ctx.seed, flow);
        match self.least_work() {
            Some(ad) => {
                let r = ad.route(ctx, h, src, dst, Some(b.src_tor));
                if r.paths.is_empty() {
                    self.route(ctx, flow, src, dst)
                } else {
                    r
                }
            }
            None => self.route(ctx, flow, src, dst),
        }
    }

    /// Route flow `flow` onto a detour leg (detour routing only; `None`: no such path is up).
    pub fn route_leg(
        &mut self,
        ctx: &RouteCtx,
        flow: u32,
        src: NodeId,
        dst: NodeId,
        leg: &detour::DetourLeg,
    ) -> Option<Route> {
        let h = flow_hash(ctx.seed, flow);
        match self {
            Router::Detour(d) => d.route_leg(ctx, h, src, dst, leg),
            _ => None,
        }
    }

    /// The size (bits) of the flow about to be routed: least-work placement counts the work it
    /// adds (the design's adaptive rule does not know it).
    pub fn note_size(&mut self, bits: f64) {
        if let Some(ad) = self.least_work() {
            ad.next_bits = bits;
        }
    }

    /// Links changed state: drop cached tables.
    pub fn invalidate(&mut self) {
        self.updown().invalidate();
    }

    pub fn updown(&mut self) -> &mut UpDown {
        match self {
            Router::Ecmp(r) => &mut r.ud,
            Router::Adaptive(r) => &mut r.ud,
            Router::LeastWork(r) => &mut r.ud,
            Router::Detour(r) => &mut r.ad.ud,
            Router::Vlb(r) => &mut r.ud,
            Router::Grin(r) => &mut r.ud,
        }
    }

    /// Flows rebound by the least-work controller.
    pub fn rebinds(&self) -> u64 {
        match self {
            Router::LeastWork(r) => r.rebinds,
            Router::Detour(r) => r.ad.rebinds,
            _ => 0,
        }
    }

    /// The design's adaptive router (`adaptive`), whose counters the controller reads.
    pub fn adaptive(&mut self) -> Option<&mut adaptive::Adaptive> {
        match self {
            Router::Adaptive(r) => Some(r),
            _ => None,
        }
    }

    /// The least-work router and its controller state (`least_work`, and under `detour`).
    pub fn least_work(&mut self) -> Option<&mut least_work::LeastWork> {
        match self {
            Router::LeastWork(r) => Some(r),
            Router::Detour(r) => Some(&mut r.ad),
            _ => None,
        }
    }
}
