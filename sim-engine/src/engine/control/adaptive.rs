//! The design's adaptive balancing at a period boundary: the router reads its ToRs' link counters
//! (the bits each of their directed fabric links has carried) and turns the period's utilisation
//! into the spare capacities new flows are drawn by
//! ([`crate::routing::adaptive::Adaptive::read_counters`]). No flow is moved: hosts place flows
//! as they start.

use crate::engine::plant::Plant;
use crate::units::Time;

/// One detection period. Returns false when the router is not the design's adaptive one.
pub fn tick(plant: &mut impl Plant, period: Time) -> bool {
    let Some(links) = plant.router().adaptive().map(|ad| ad.counted.clone()) else {
        return false;
    };
    let bits: Vec<f64> = links.iter().map(|&l| plant.carried_bits(l)).collect();
    if let Some(ad) = plant.router().adaptive() {
        ad.read_counters(period.as_secs_f64(), &bits);
    }
    true
}
