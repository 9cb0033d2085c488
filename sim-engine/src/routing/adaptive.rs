//! Subways adaptive load balancing as the design describes it (`adaptive`, DESIGN.md section 4):
//! a host that reaches the fabric through several ToRs picks, for each new flow, its source ToR
//! `i` at random with probability proportional to the spare uplink capacity `B_i (1 - U_i)`, and
//! the destination ToR `j` likewise from the spare downlink capacity; the fabric hop between them
//! is ECMP's hash. `U` is the EWMA of the link utilisation the ToR's counters show over each
//! detection period (`t_rebind_s`): the controller reads them only at period boundaries
//! ([`Adaptive::read_counters`]), so between two readings every host decides on the same stale
//! figures, as a real host polling its ToRs would. Nothing here knows a flow's size or what is
//! still queued: that stronger, size-aware rule is [`super::least_work`].
//!
//! Endpoints that share a ToR take ECMP's one-switch path through it (the Subways short path).
//! The draw is seeded: a function of the flow's hash and the number of readings so far, so a run
//! is deterministic and a flow re-routed after a new reading draws again.

use super::{server_link, Binding, Route, RouteCtx, UpDown, NONE_DETOUR};
use crate::model::Role;
use crate::network::Network;
use crate::rng::splitmix64;
use crate::scenario::AdaptiveParams;
use crate::units::{LinkId, NodeId};

/// The design's adaptive router: ToRs drawn at random, weighted by spare capacity.
#[derive(Clone, Debug)]
pub struct Adaptive {
    pub p: AdaptiveParams,
    pub ud: UpDown,
    /// Uplink capacity per node (ToRs only), Gb/s: the sum of its links to the layer above. Its
    /// downlink capacity from the fabric is the same links' other direction.
    pub cap: Vec<f64>,
    /// EWMA of the carried uplink (`[0]`) and downlink (`[1]`) utilisation per node, in [0, 1].
    pub util: [Vec<f64>; 2],
    /// Counter readings (bits carried so far) at the last period boundary, up and down.
    prev_bits: [Vec<f64>; 2],
    /// Distinct ToRs of every server, in link order (empty for switches).
    pub server_tors: Vec<Vec<NodeId>>,
    /// The directed links whose counters are read: for each ToR with uplinks, its uplinks, then
    /// the same links towards it (its downlinks from the fabric).
    pub counted: Vec<LinkId>,
    /// (ToR, first entry in `counted`, number of uplinks) of every ToR read.
    spans: Vec<(NodeId, usize, usize)>,
    /// Counter readings so far: part of every draw's seed.
    pub readings: u64,
}

/// Index drawn from `weights` with `u` in [0, 1): `k` with probability `weights[k] / sum`.
/// Negative weights count as 0; when every weight is 0 the draw is uniform.
pub fn weighted_pick(weights: &[f64], u: f64) -> usize {
    let total: f64 = weights.iter().map(|w| w.max(0.0)).sum();
    let n = weights.len();
    // (a NaN total, which no spare capacity gives, would also draw uniformly)
    if total.partial_cmp(&0.0) != Some(std::cmp::Ordering::Greater) {
        return ((u * n as f64) as usize).min(n - 1);
    }
    let target = u * total;
    let mut acc = 0.0;
    let mut last = 0;
    for (k, &w) in weights.iter().enumerate() {
        if w <= 0.0 {
            continue;
        }
        acc += w;
        last = k;
        if target < acc {
            return k;
        }
    }
    last // rounding at the top end: the last index with a weight
}

/// A uniform number in [0, 1) from 53 bits of `x`.
fn unit(x: u64) -> f64 {
    (x >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
}

impl Adaptive {
    pub fn new(p: AdaptiveParams, net: &Network, ud: UpDown) -> Adaptive {
        let n = net.nodes.len();
        let mut cap = vec![0.0; n];
        let mut counted = Vec::new();
        let mut spans = Vec::new();
        let mut server_tors = vec![Vec::new(); n];
        for i in 0..n {
            let id = NodeId(i as u32);
            if net.node(id).role == Role::Tor {
                cap[i] = net.uplinks(id).map(|l| net.link(l).gbps.0).sum();
                let ups: Vec<LinkId> = net.uplinks(id).collect();
                if cap[i] > 0.0 {
                    spans.push((id, counted.len(), ups.len()));
                    counted.extend(ups.iter().copied());
                    counted.extend(ups.iter().map(|l| l.reverse()));
                }
            }
            if net.is_server(id) {
                for l in net.server_tor_links(id) {
                    let t = net.link(l).to;
                    if !server_tors[i].contains(&t) {
                        server_tors[i].push(t);
                    }
                }
            }
        }
        Adaptive {
            p,
            ud,
            cap,
            util: [vec![0.0; n], vec![0.0; n]],
            prev_bits: [vec![0.0; n], vec![0.0; n]],
            server_tors,
            counted,
            spans,
            readings: 0,
        }
    }

    /// Spare capacity `B (1 - U)` of ToR `t` in Gb/s, uplinks (`down` false) or downlinks.
    pub fn spare(&self, t: NodeId, down: bool) -> f64 {
        self.cap[t.idx()] * (1.0 - self.util[down as usize][t.idx()])
    }

    /// Read every ToR's counters at a period boundary: `carried[k]` is the bits directed link
    /// `counted[k]` has carried so far, `period_s` the time since the last reading. The
    /// utilisation of the period (clamped to [0, 1]: a counter difference is never negative nor
    /// above what the links can carry, and rounding must not make a spare capacity negative) is
    /// folded into the EWMA with weight `ewma`.
    pub fn read_counters(&mut self, period_s: f64, carried: &[f64]) {
        let a = self.p.ewma;
        for &(t, start, k) in &self.spans {
            let per_period = self.cap[t.idx()] * 1e9 * period_s;
            for d in 0..2 {
                let from = start + d * k;
                let bits: f64 = carried[from..from + k].iter().sum();
                let u = ((bits - self.prev_bits[d][t.idx()]) / per_period).clamp(0.0, 1.0);
                self.prev_bits[d][t.idx()] = bits;
                let e = &mut self.util[d][t.idx()];
                *e = (a * u + (1.0 - a) * *e).clamp(0.0, 1.0);
            }
        }
        self.readings += 1;
    }

    /// The ToR of `tors` a new flow with hash `h` takes: drawn with probability proportional to
    /// its spare uplink (`down` false) or downlink capacity; when every one is full, in
    /// proportion to capacity.
    pub fn pick_tor(&self, tors: &[NodeId], down: bool, h: u64) -> NodeId {
        if tors.len() == 1 {
            return tors[0];
        }
        let mut w: Vec<f64> = tors.iter().map(|&t| self.spare(t, down)).collect();
        if w.iter().all(|&x| x <= 0.0) {
            w = tors.iter().map(|t| self.cap[t.idx()]).collect();
        }
        let salt = if down { 0x646f_776e } else { 0x7570 };
        let u = unit(splitmix64(
            h ^ salt ^ self.readings.wrapping_mul(0x9e37_79b9_7f4a_7c15),
        ));
        tors[weighted_pick(&w, u)]
    }

    pub fn route(&mut self, ctx: &RouteCtx, h: u64, src: NodeId, dst: NodeId) -> Route {
        let stors = &self.server_tors[src.idx()];
        let dtors = &self.server_tors[dst.idx()];
        let shares = stors.iter().any(|t| dtors.contains(t));
        if !(shares || stors.is_empty() || dtors.is_empty()) {
            let i = self.pick_tor(stors, false, h);
            let j = self.pick_tor(dtors, true, h);
            let first = server_link(ctx.net, ctx.up, src, i, h);
            let last = server_link(ctx.net, ctx.up, dst, j, h >> 7);
            if let (Some(first), Some(last)) = (first, last) {
                let fabric = if i == j {
                    Some(Vec::new())
                } else {
                    self.ud.walk(ctx.up, i, j, h)
                };
                if let Some(fabric) = fabric {
                    let mut p = Vec::with_capacity(fabric.len() + 2);
                    p.push(first);
                    p.extend(fabric);
                    p.push(last.reverse());
                    return Route {
                        paths: vec![(p, 1.0)],
                        binding: Some(Binding {
                            src_tor: i,
                            dst_tor: j,
                            detour: NONE_DETOUR,
                        }),
                    };
                }
            }
        }
        // a shared ToR (the one-switch path), a server without ToRs, or the drawn ToRs give no
        // path after a failure: ECMP's shortest path
        match self.ud.walk(ctx.up, src, dst, h) {
            Some(p) => Route::single(p),
            None => Route::default(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::weighted_pick;

    #[test]
    fn a_zero_weight_is_never_drawn() {
        for k in 0..1000 {
            let u = k as f64 / 1000.0;
            assert_eq!(weighted_pick(&[0.0, 3.0], u), 1);
            assert_ne!(weighted_pick(&[2.0, 0.0, 2.0], u), 1);
        }
        // the top end, where rounding could fall past the last weight
        assert_eq!(weighted_pick(&[1.0, 0.0], 1.0 - f64::EPSILON), 0);
    }

    #[test]
    fn weights_split_the_unit_interval_in_proportion() {
        // weights 1 and 3: [0, 0.25) -> 0, [0.25, 1) -> 1
        assert_eq!(weighted_pick(&[1.0, 3.0], 0.0), 0);
        assert_eq!(weighted_pick(&[1.0, 3.0], 0.2499), 0);
        assert_eq!(weighted_pick(&[1.0, 3.0], 0.25), 1);
        assert_eq!(weighted_pick(&[1.0, 3.0], 0.9999), 1);
        // all zero: uniform
        assert_eq!(weighted_pick(&[0.0, 0.0], 0.49), 0);
        assert_eq!(weighted_pick(&[0.0, 0.0], 0.5), 1);
    }
}
