//! VL2 Valiant load balancing: each flow climbs to an intermediate switch of the top layer chosen
//! by its per-flow hash (uniform over the reachable ones), then descends to the destination.
//! Pairs under one ToR are not bounced.

use super::{Route, RouteCtx, UpDown};
use crate::network::Network;
use crate::rng::splitmix64;
use crate::scenario::Role;
use crate::units::NodeId;

#[derive(Clone, Debug)]
pub struct Vlb {
    pub ud: UpDown,
    tops: Vec<NodeId>,
}

impl Vlb {
    pub fn new(net: &Network, ud: UpDown) -> Vlb {
        let tops = (0..net.nodes.len() as u32)
            .map(NodeId)
            .filter(|&n| net.node(n).role != Role::Server && net.node(n).layer == net.max_layer)
            .collect();
        Vlb { ud, tops }
    }

    pub fn route(&mut self, ctx: &RouteCtx, hash: u64, src: NodeId, dst: NodeId) -> Route {
        let d = self.ud.dist(ctx.up, src, dst);
        if d <= 2 || self.tops.is_empty() {
            return match self.ud.walk(ctx.up, src, dst, hash) {
                Some(p) => Route::single(p),
                None => Route::default(),
            };
        }
        let mut cands = Vec::new();
        for &m in &self.tops {
            let a = self.ud.down_dist(ctx.up, m, src);
            let b = self.ud.down_dist(ctx.up, m, dst);
            if a != super::updown::INF && b != super::updown::INF {
                cands.push(m);
            }
        }
        if cands.is_empty() {
            return match self.ud.walk(ctx.up, src, dst, hash) {
                Some(p) => Route::single(p),
                None => Route::default(),
            };
        }
        let m = cands[(splitmix64(hash ^ 0x0056_4c42) % cands.len() as u64) as usize];
        let Some(mut p) = self.ud.walk_up(ctx.up, src, m, hash) else {
            return Route::default();
        };
        let Some(q) = self.ud.walk_down(ctx.up, m, dst, hash.rotate_left(7)) else {
            return Route::default();
        };
        p.extend(q);
        Route::single(p)
    }
}
