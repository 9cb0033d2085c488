//! Unit newtypes: integer simulated time, bytes, link speeds and dense ids.

use serde::Serialize;

/// Simulated time in picoseconds since the start of the run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub struct Time(pub u64);

impl Time {
    pub const ZERO: Time = Time(0);
    pub const MAX: Time = Time(u64::MAX);
    pub const PS_PER_S: f64 = 1e12;

    /// Seconds to picoseconds, rounded to the nearest picosecond (negative clamps to 0).
    pub fn from_secs_f64(s: f64) -> Time {
        if s.is_nan() || s <= 0.0 {
            return Time(0);
        }
        let ps = s * Self::PS_PER_S;
        if ps >= u64::MAX as f64 {
            Time::MAX
        } else {
            Time(ps.round() as u64)
        }
    }
    pub fn from_ns(ns: u64) -> Time {
        Time(ns.saturating_mul(1000))
    }
    pub fn as_secs_f64(self) -> f64 {
        self.0 as f64 / Self::PS_PER_S
    }
    pub fn saturating_add(self, d: Time) -> Time {
        Time(self.0.saturating_add(d.0))
    }
}

/// A byte count.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub struct Bytes(pub u64);

impl Bytes {
    pub fn bits(self) -> f64 {
        self.0 as f64 * 8.0
    }
}

/// A link speed in gigabits per second (= bits per nanosecond).
#[derive(Clone, Copy, Debug, Default, PartialEq, PartialOrd, Serialize)]
pub struct Gbps(pub f64);

impl Gbps {
    /// Bits per picosecond.
    pub fn bits_per_ps(self) -> f64 {
        self.0 * 1e-3
    }
}

/// Dense index of a node (server or switch) in a validated [`crate::network::Network`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct NodeId(pub u32);

/// Dense index of a *directed* link. Duplex link `i` of the scenario is `2i` (a->b) and `2i+1` (b->a).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct LinkId(pub u32);

impl NodeId {
    #[inline]
    pub fn idx(self) -> usize {
        self.0 as usize
    }
}

impl LinkId {
    #[inline]
    pub fn idx(self) -> usize {
        self.0 as usize
    }
    /// The opposite direction of the same cable.
    #[inline]
    pub fn reverse(self) -> LinkId {
        LinkId(self.0 ^ 1)
    }
    /// Index of the duplex link in the scenario's `network.links`.
    #[inline]
    pub fn duplex(self) -> usize {
        (self.0 >> 1) as usize
    }
}
