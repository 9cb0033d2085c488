//! A flow's latency terms (base delay, slow-start rounds) and its ideal completion time: what it
//! would take alone in the network. Per-link and per-server constants are worked out once.

use crate::network::Network;
use crate::scenario::LatencySpec;
use crate::units::{Bytes, LinkId, NodeId, Time};

#[derive(Clone, Debug)]
pub struct LatencyModel {
    spec: LatencySpec,
    /// Per network link: one-way latency, and the serialisation of one MTU, in ps.
    hop_ps: Vec<(f64, f64)>,
    /// Per node: a server's NIC rate (its links to switches), Gb/s.
    nic_gbps: Vec<f64>,
}

impl LatencyModel {
    pub fn new(net: &Network, spec: &LatencySpec) -> LatencyModel {
        let mtu_bits = spec.mtu_bytes as f64 * 8.0;
        LatencyModel {
            spec: spec.clone(),
            hop_ps: net
                .links
                .iter()
                .map(|l| (l.latency.0 as f64, mtu_bits / (l.gbps.0 * 1e-3)))
                .collect(),
            nic_gbps: (0..net.nodes.len())
                .map(|n| net.server_nic_gbps(NodeId(n as u32)))
                .collect(),
        }
    }

    /// The time a flow of `bytes` from `src` to `dst` over `paths` (its first path sets the base
    /// delay) spends beyond its fluid transfer, and its ideal completion time in seconds.
    /// `nominal_cap` is every link's capacity when up (virtual links included).
    pub fn terms<'p>(
        &self,
        nominal_cap: &[f64],
        bytes: Bytes,
        src: NodeId,
        dst: NodeId,
        paths: impl IntoIterator<Item = &'p [LinkId]>,
    ) -> (Time, f64) {
        let mut ideal_rate = 0.0; // Gb/s
        let mut base_ps = 0.0;
        for (i, path) in paths.into_iter().enumerate() {
            ideal_rate += path
                .iter()
                .map(|l| nominal_cap[l.idx()])
                .fold(f64::INFINITY, f64::min);
            if i == 0 {
                // virtual links (detour budgets) have no delay
                for &(lat, ser) in path.iter().filter_map(|l| self.hop_ps.get(l.idx())) {
                    base_ps += lat;
                    base_ps += ser;
                }
            }
        }
        let nic = self.nic_gbps[src.idx()].min(self.nic_gbps[dst.idx()]);
        if nic > 0.0 {
            ideal_rate = ideal_rate.min(nic);
        }
        let mut extra = 0.0;
        if self.spec.base_rtt {
            extra += base_ps;
        }
        if self.spec.slow_start {
            let rtt = 2.0 * base_ps;
            let w = self.spec.init_cwnd_bytes as f64;
            let size = bytes.0 as f64;
            let k_size = ((size / w + 1.0).log2().ceil() - 1.0).max(0.0);
            let bdp = ideal_rate * 1e-3 * rtt / 8.0;
            let k_bdp = (bdp / w + 1.0).log2().ceil().max(0.0);
            extra += rtt * k_size.min(k_bdp);
        }
        let extra_t = Time(extra.round() as u64);
        let ideal_s = bytes.bits() / (ideal_rate.max(1e-12) * 1e9) + extra_t.as_secs_f64();
        (extra_t, ideal_s)
    }
}
