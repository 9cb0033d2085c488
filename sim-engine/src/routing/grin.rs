//! GRIN h1 multipath. Besides its direct (shortest valley-free) path, a flow may leave through a
//! GRIN neighbour of the source (one horizontal hop, then that neighbour's uplinks) or arrive
//! through a GRIN neighbour of the destination. The direct path carries `direct_weight` of the
//! flow's weight and the h1 paths share the rest equally: the weights sum to 1, so where all of a
//! flow's paths meet at one bottleneck the flow gets one fair share, never more.

use super::{Route, RouteCtx, UpDown};
use crate::network::Network;
use crate::units::{LinkId, NodeId};

#[derive(Clone, Debug)]
pub struct Grin {
    pub ud: UpDown,
    pub direct_weight: f64,
}

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
        // A direct GRIN cable between the two servers is the direct path.
        let direct = match src_n.iter().find(|&&l| net.link(l).to == dst) {
            Some(&l) => Some(vec![l]),
            None => self.ud.walk(net, ctx.up, src, dst, hash),
        };
        let mut alts: Vec<Vec<LinkId>> = Vec::new();
        for (i, &l) in src_n.iter().enumerate() {
            let n = net.link(l).to;
            if n == dst {
                continue;
            }
            if let Some(rest) = self.ud.walk(net, ctx.up, n, dst, hash ^ (i as u64 + 1)) {
                let mut p = vec![l];
                p.extend(rest);
                alts.push(p);
            }
        }
        for (i, &l) in grin_links(net, ctx.up, dst).iter().enumerate() {
            let m = net.link(l).to; // dst -> m; we use m -> dst, the reverse
            if m == src {
                continue;
            }
            if let Some(mut p) = self
                .ud
                .walk(net, ctx.up, src, m, hash ^ ((i as u64 + 1) << 20))
            {
                p.push(l.reverse());
                alts.push(p);
            }
        }
        let mut paths = Vec::new();
        match (direct, alts.is_empty()) {
            (Some(d), true) => paths.push((d, 1.0)),
            (Some(d), false) => {
                paths.push((d, self.direct_weight));
                let w = (1.0 - self.direct_weight) / alts.len() as f64;
                if w > 0.0 {
                    paths.extend(alts.into_iter().map(|p| (p, w)));
                } else {
                    paths[0].1 = 1.0;
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
