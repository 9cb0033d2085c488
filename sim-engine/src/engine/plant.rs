//! The narrow interface between the engine's core and its controller: what a controller may read
//! of the running engine and the few things it may ask of it (the *plant*, in control terms).
//! [`super::FlowEngine`] implements [`Plant`]; the controllers in `control/` see nothing else of
//! it, and this module imports nothing from either side.

use crate::routing::detour::{DetourLeg, Side};
use crate::routing::{Binding, Router};
use crate::units::{LinkId, NodeId};

/// An active flow as a controller sees it.
#[derive(Clone, Copy, Debug)]
pub struct ActiveFlow<'a> {
    /// Flow index (workload order).
    pub id: u32,
    /// Sending server.
    pub src: NodeId,
    /// Receiving server.
    pub dst: NodeId,
    /// Path of the flow's first subflow, real links only (`None`: the flow has no subflow).
    pub path: Option<&'a [LinkId]>,
    /// Bits still to send at the current time.
    pub remaining_bits: f64,
    /// Where the flow is bound (adaptive and detour routing).
    pub binding: Option<Binding>,
}

/// What a controller may see of the running engine and ask of it.
/// (The time is given with each controller period: `Engine::now` is the one clock.)
pub trait Plant {
    /// Every active flow, in flow index order.
    fn active_flows(&self) -> impl Iterator<Item = ActiveFlow<'_>>;
    /// Bits directed link `l` has carried so far.
    fn carried_bits(&self, l: LinkId) -> f64;
    /// The router (the adaptive scheme's load estimates and counters live in it).
    fn router(&mut self) -> &mut Router;
    /// Set the capacity (Gb/s) of the virtual link that caps detour traffic through ToR `tor` on
    /// `side`.
    fn set_detour_cap(&mut self, tor: NodeId, side: Side, gbps: f64);
    /// Move flow `f` onto detour leg `leg` now; false (flow untouched) when the leg has no path
    /// for it.
    fn reroute_detour(&mut self, f: u32, leg: &DetourLeg) -> bool;
    /// Re-route flow `f` now; with `bound`, on its source ToR `bound.src_tor` if that gives a path.
    fn reroute(&mut self, f: u32, bound: Option<Binding>);
}
