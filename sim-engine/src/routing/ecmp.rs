//! ECMP: a per-flow hash over the shortest valley-free paths. When source and destination share a
//! ToR (Subways), the two-hop path through it is the shortest, so it is always taken.

use super::{Route, RouteCtx, UpDown};
use crate::units::NodeId;

#[derive(Clone, Debug)]
pub struct Ecmp {
    pub ud: UpDown,
}

impl Ecmp {
    pub fn route(&mut self, ctx: &RouteCtx, hash: u64, src: NodeId, dst: NodeId) -> Route {
        match self.ud.walk(ctx.up, src, dst, hash) {
            Some(p) => Route::single(p),
            None => Route::default(),
        }
    }
}
