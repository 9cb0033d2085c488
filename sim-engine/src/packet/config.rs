//! Packet mode's settings, derived once from `engine.packet`.

use super::ports::HIST_BINS;
use super::tcp::{Cc, TcpCfg};
use crate::scenario::{PacketSpec, TieOrder, Transport};

/// Settings derived from `engine.packet`.
#[derive(Clone, Copy, Debug)]
pub(super) struct Cfg {
    pub tcp: TcpCfg,
    pub mtu: u64,
    /// Width of a queue histogram bin, bytes: `mtu`, or 1/4096 of a larger buffer.
    pub hist_step: u64,
    pub header: u64,
    pub ack: u64,
    pub ecn: Option<u64>,
    pub cc: Cc,
    pub mptcp: bool,
    pub spraying: bool,
    pub handshake: bool,
    pub udp: bool,
    /// Timer check period, ps (0: timers fire at their deadline).
    pub rto_scan: u64,
    /// Same-time events in the order they were scheduled (else in random order).
    pub scheduled: bool,
    /// A flow's last packet is padded to a full one.
    pub whole_packets: bool,
    pub shared: Option<(u64, f64)>,
}

impl Cfg {
    pub fn new(p: &PacketSpec) -> Cfg {
        let cc = match p.transport {
            Transport::Dctcp => Cc::Dctcp,
            _ => Cc::NewReno,
        };
        let ecn = match (p.ecn_threshold_bytes, p.transport) {
            (Some(k), _) => Some(k),
            (None, Transport::Dctcp) => Some(20 * p.mtu_bytes),
            _ => None,
        };
        let mss = p.mtu_bytes - p.header_bytes;
        Cfg {
            tcp: TcpCfg {
                mss,
                init_cwnd: mss * p.initial_window_packets as u64,
                init_ssthresh: p
                    .initial_ssthresh_packets
                    .map_or(u64::MAX, |k| k as u64 * mss),
                rto_min: (p.rto_min_ms * 1e9).round() as u64,
                rto_initial: (p.rto_initial_ms.unwrap_or(p.rto_min_ms) * 1e9).round() as u64,
                rto_max: 60_000_000_000_000,
            },
            mtu: p.mtu_bytes,
            hist_step: p.mtu_bytes.max(p.buffer_bytes.div_ceil(HIST_BINS)).max(
                p.shared_buffer
                    .as_ref()
                    .map_or(0, |b| b.bytes.div_ceil(HIST_BINS)),
            ),
            header: p.header_bytes,
            ack: p.ack_bytes,
            ecn,
            cc,
            mptcp: p.transport == Transport::Mptcp,
            spraying: p.spraying,
            handshake: p.handshake,
            udp: p.udp_requests,
            rto_scan: p.rto_scan_ms.map_or(0, |x| (x * 1e9).round() as u64),
            scheduled: p.tie_order == TieOrder::Scheduled,
            whole_packets: p.whole_packets,
            shared: p.shared_buffer.as_ref().map(|b| (b.bytes, b.alpha)),
        }
    }
}
