//! The routing controller, run every `T_rebind` for the schemes that have one: the design's
//! adaptive balancing reads the ToRs' counters ([`adaptive`]); least-work balancing rebinds flows
//! ([`least_work`]), then, for detour routing, the loop scheduler runs ([`detour`]). It reads
//! and acts on the engine only through [`Plant`].

pub mod adaptive;
pub mod detour;
pub mod least_work;

use super::plant::Plant;
use crate::network::Network;
use crate::routing::Router;
use crate::scenario::RoutingSpec;
use crate::units::Time;
use detour::{ActiveDetour, DetourScheduler};

/// The controller of a run: its period, the ticks run, and the detour scheduler's state.
#[derive(Clone, Debug, Default)]
pub struct Controller {
    period: Option<Time>,
    ticks: u64,
    detour: Option<DetourScheduler>,
}

impl Controller {
    pub fn new(spec: &RoutingSpec, net: &Network, router: &Router) -> Controller {
        let period = match spec {
            RoutingSpec::Adaptive(p) | RoutingSpec::LeastWork(p) => Some(p.t_rebind_s),
            RoutingSpec::Detour(p) => Some(p.t_rebind_s),
            _ => None,
        };
        let detour = match router {
            Router::Detour(d) => Some(DetourScheduler::new(net, d)),
            _ => None,
        };
        Controller {
            period: period.map(Time::from_secs_f64).filter(|t| t.0 > 0),
            ticks: 0,
            detour,
        }
    }

    /// Time between two ticks (`None`: the scheme has no controller).
    pub fn period(&self) -> Option<Time> {
        self.period
    }

    /// Controller periods run so far.
    pub fn ticks(&self) -> u64 {
        self.ticks
    }

    /// Does the scheme set up detours (so the engine needs one virtual link per node)?
    pub fn has_detours(&self) -> bool {
        self.detour.is_some()
    }

    /// Detours set up so far.
    pub fn detours(&self) -> &[ActiveDetour] {
        self.detour.as_ref().map_or(&[], |d| d.detours())
    }

    /// One controller period, at time `now`.
    pub fn tick(&mut self, plant: &mut impl Plant, net: &Network, now: Time) {
        self.ticks += 1;
        let Some(period) = self.period else { return };
        if adaptive::tick(plant, period) || !least_work::tick(plant, net, period) {
            return;
        }
        if let Some(d) = &mut self.detour {
            d.tick(plant, net, period, now);
        }
    }
}
