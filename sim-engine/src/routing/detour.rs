//! Subways detour routing: adaptive routing plus detours through neighbouring servers. A flow is
//! routed as in adaptive routing; [`Detour::route_via`] builds the detour path of a hot rack's
//! flow through a remote ToR. Which racks get detours, through which remote ToRs and for how
//! long is decided by the loop scheduler (`engine/control/detour.rs`).

use super::adaptive::Adaptive;
use super::{Binding, Route, RouteCtx, UpDown};
use crate::network::Network;
use crate::rng::splitmix64;
use crate::scenario::DetourParams;
use crate::units::{LinkId, NodeId};

#[derive(Clone, Debug)]
pub struct Detour {
    pub p: DetourParams,
    pub ad: Adaptive,
}

impl Detour {
    pub fn new(p: DetourParams, net: &Network, ud: UpDown) -> Detour {
        let ad = Adaptive::new(p.adaptive(), net, ud);
        Detour { p, ad }
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

    /// The detour path of a flow with hash `h` (detour `detour`, through remote ToR `remote`
    /// reached by the ToR `chain`, whose first ToR is one of the source rack's):
    /// `src -> a -> n1 -> b -> ... -> remote -> (up-down) -> dst`, plus the remote ToR's virtual
    /// link (one per node after the real links) that caps detour traffic at its share of spare
    /// uplink capacity. `None` when no such path is up.
    #[allow(clippy::too_many_arguments)]
    pub fn route_via(
        &mut self,
        ctx: &RouteCtx,
        h: u64,
        src: NodeId,
        dst: NodeId,
        remote: NodeId,
        chain: &[NodeId],
        detour: u32,
    ) -> Option<Route> {
        let (net, up) = (ctx.net, ctx.up);
        // the chain must start at a ToR of the source server
        let start = chain
            .iter()
            .position(|t| self.ad.server_tors[src.idx()].contains(t))?;
        let chain = &chain[start..];
        let first = net.out[src.idx()]
            .iter()
            .copied()
            .find(|&l| up[l.idx()] && net.link(l).to == chain[0])?;
        let mut path = vec![first];
        for (k, w) in chain.windows(2).enumerate() {
            let cands: Vec<NodeId> = net.out[w[0].idx()]
                .iter()
                .map(|&l| net.link(l).to)
                .filter(|&s| {
                    net.is_server(s)
                        && s != src
                        && s != dst
                        && self.ad.server_tors[s.idx()].contains(&w[1])
                })
                .collect();
            if cands.is_empty() {
                return None;
            }
            let n = cands[(splitmix64(h ^ k as u64) % cands.len() as u64) as usize];
            let down = net.out[w[0].idx()]
                .iter()
                .copied()
                .find(|&l| up[l.idx()] && net.link(l).to == n)?;
            let upl = net.out[n.idx()]
                .iter()
                .copied()
                .find(|&l| up[l.idx()] && net.link(l).to == w[1])?;
            path.push(down);
            path.push(upl);
        }
        let rest = self.ad.ud.walk(net, up, remote, dst, h)?;
        path.extend(rest);
        path.push(LinkId((net.links.len() + remote.idx()) as u32));
        let j = net.link(path[path.len() - 2]).from;
        Some(Route {
            paths: vec![(path, 1.0)],
            binding: Some(Binding {
                src_tor: chain[0],
                dst_tor: j,
                detour,
            }),
        })
    }
}
