//! GRIN h1 multipath (one horizontal hop at each end).
//!
//! A flow from `s` to `d` may leave through `s` itself or any GRIN neighbour `x` of `s` (one
//! horizontal hop, then `x`'s uplinks) and arrive through `d` itself or any GRIN neighbour `y` of
//! `d` (`y`'s downlinks, then one horizontal hop). The path set is every pair `(x, y)`:
//! `s -> x -> (fabric, shortest valley-free) -> y -> d`, where `x == y` (a common neighbour) is
//! the purely horizontal path `s -> x -> d`, and a GRIN cable `s - d` is the direct path. So a
//! flow alone on idle links can use all of `s`'s outgoing links and all of `d`'s incoming ones:
//! its path set's max-flow is `min(out(s), in(d))` when the fabric is not the limit.
//!
//! Coupling (the fluid stand-in for MPTCP's coupled congestion control): the weights of a flow's
//! paths sum to 1, the direct path carrying `direct_weight` and the others the rest equally. Under
//! weighted max-min, where every path of the flow meets single-path flows at one bottleneck the
//! flow gets one fair share there, never more; a path that is not bottlenecked keeps growing
//! until it meets a saturated link, so on idle paths the flow fills them.

use super::{Route, RouteCtx, UpDown};
use crate::network::Network;
use crate::units::{LinkId, NodeId};

#[derive(Clone, Debug)]
pub struct Grin {
    pub ud: UpDown,
    pub direct_weight: f64,
}

/// Up links from `n` to GRIN neighbours (servers).
fn grin_links(net: &Network, up: &[bool], n: NodeId) -> Vec<LinkId> {
    net.out[n.idx()]
        .iter()
        .copied()
        .filter(|&l| up[l.idx()] && net.is_server(net.link(l).to))
        .collect()
}

impl Grin {
    pub fn route(&mut self, ctx: &RouteCtx, hash: u64, src: NodeId, dst: NodeId) -> Route {
        let net = ctx.net;
        let src_n = grin_links(net, ctx.up, src);
        let dst_n = grin_links(net, ctx.up, dst);
        let cable = src_n.iter().copied().find(|&l| net.link(l).to == dst);
        // sources of the fabric part: (first hop, node); destinations: (node, last hop)
        let mut xs: Vec<(Option<LinkId>, NodeId)> = vec![(None, src)];
        xs.extend(
            src_n
                .iter()
                .filter(|&&l| net.link(l).to != dst)
                .map(|&l| (Some(l), net.link(l).to)),
        );
        let mut ys: Vec<(NodeId, Option<LinkId>)> = vec![(dst, None)];
        ys.extend(
            dst_n
                .iter()
                .filter(|&&l| net.link(l).to != src)
                .map(|&l| (net.link(l).to, Some(l.reverse()))),
        );
        let mut direct: Option<Vec<LinkId>> = cable.map(|l| vec![l]);
        let mut alts: Vec<Vec<LinkId>> = Vec::new();
        for (i, &(first, x)) in xs.iter().enumerate() {
            for (j, &(y, last)) in ys.iter().enumerate() {
                let mut p: Vec<LinkId> = first.into_iter().collect();
                if x != y {
                    let h = if i == 0 && j == 0 {
                        hash
                    } else {
                        hash ^ ((i as u64 + 1) | (j as u64 + 1) << 20)
                    };
                    match self.ud.walk(ctx.up, x, y, h) {
                        Some(mid) => p.extend(mid),
                        None => continue,
                    }
                }
                p.extend(last);
                if i == 0 && j == 0 && direct.is_none() {
                    direct = Some(p);
                } else {
                    alts.push(p);
                }
            }
        }
        let mut paths = Vec::new();
        match (direct, alts.is_empty()) {
            (Some(d), true) => paths.push((d, 1.0)),
            (Some(d), false) => {
                let w = (1.0 - self.direct_weight) / alts.len() as f64;
                if w > 0.0 {
                    paths.push((d, self.direct_weight));
                    paths.extend(alts.into_iter().map(|p| (p, w)));
                } else {
                    paths.push((d, 1.0));
                }
            }
            (None, false) => {
                let w = 1.0 / alts.len() as f64;
                paths.extend(alts.into_iter().map(|p| (p, w)));
            }
            (None, true) => {}
        }
        Route {
            paths,
            binding: None,
        }
    }
}
