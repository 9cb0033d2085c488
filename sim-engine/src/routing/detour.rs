//! Subways detour routing: adaptive routing plus detours through neighbouring servers.
//! (Detour scheduling is driven by the engine's controller tick; see `engine/control.rs`.)

use super::adaptive::Adaptive;
use super::{Route, RouteCtx, UpDown};
use crate::network::Network;
use crate::scenario::DetourParams;
use crate::units::NodeId;

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
}
