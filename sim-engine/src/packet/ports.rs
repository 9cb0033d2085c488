//! Ports and queues (htsim's `Queue` and `Pipe`): a packet pool, one output port per directed
//! link (FIFO drop-tail queues, per port or in a switch's shared buffer, ECN marking, the
//! backlog histogram and series), store-and-forward serialisation and the wire after it.
//!
//! Few pending events per link: a port schedules only its head-of-line departure, and the
//! packets on a wire form a FIFO (constant delay) of which only the head's arrival is an event;
//! a wire with no delay hands the packet on at once. Packets live in a pool with a free list (no
//! allocation per packet; an ACK is its data packet turned round) and are source-routed: they
//! carry their flow's path (an offset into one flat array of links) and a hop count, ACKs walk
//! it backwards.

use std::collections::VecDeque;

use super::events::{EV_DEPART, EV_WIRE};
use super::nic::ClassQueue;
use super::PacketEngine;
use crate::network::Link;

pub(super) const F_ACK: u8 = 1;
/// Congestion experienced (set by a queue over the ECN threshold).
pub(super) const F_CE: u8 = 2;
/// ECN echo on an ACK.
pub(super) const F_ECE: u8 = 4;
/// The packet walks its path backwards (ACKs).
pub(super) const F_REV: u8 = 8;
/// Handshake: a SYN (with `F_ACK`: a SYN-ACK).
pub(super) const F_SYN: u8 = 16;
/// A UDP datagram: never acknowledged.
pub(super) const F_UDP: u8 = 32;

/// A port sending into its own buffer (no shared buffer).
pub(super) const NO_BUF: u32 = u32::MAX;
/// Most bins of a port's backlog histogram.
pub(super) const HIST_BINS: u64 = 4096;
/// Buckets of the per-port queue series (as the utilisation series).
const QBUCKETS: usize = crate::engine::util::MAX_BUCKETS;

/// A packet in the pool.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Pkt {
    /// Data: first byte; ACK: cumulative ACK.
    pub seq: u64,
    /// Data: send time; ACK: the echoed send time.
    pub ts: u64,
    pub conn: u32,
    /// Offset of the path in `paths`.
    pub path: u32,
    /// Wire size, bytes.
    pub size: u32,
    /// Payload, bytes.
    pub len: u32,
    pub plen: u16,
    pub hop: u16,
    pub flags: u8,
}

/// One output port: the queue in front of a directed link, and the link.
pub(super) struct Port {
    /// Packets waiting (data; at switches everything).
    pub q: ClassQueue,
    /// A server's NIC: ACKs waiting, sent before data.
    pub qa: ClassQueue,
    host: bool,
    /// The packet being sent, when `busy`.
    pub serving: u32,
    /// Backlog in bytes, the packet being sent included.
    pub bytes: u64,
    /// Drop-tail limit, bytes: the port's own buffer, or with `buf` its switch's whole shared
    /// buffer (admission then reads the switch's occupancy, see `PacketEngine::enqueue`); the
    /// backlog histogram spans it.
    pub cap: u64,
    /// Shared buffer of the sending switch (`NO_BUF`: per-port).
    pub buf: u32,
    pub ps_per_byte: f64,
    /// `ps_per_byte` when it is a whole number (1, 10, 25, 40, 100 Gb/s...), else 0.
    ps_per_byte_whole: u64,
    /// Propagation plus the receiving switch's latency, ps.
    pub delay: u64,
    pub busy: bool,
    /// When the packet being sent finishes (a departure event at another time is stale: the
    /// port's link failed under it).
    depart_at: u64,
    pub gbps: f64,
    pub max: u64,
    pub drops: u64,
    pub queued: bool,
    arrivals: u64,
    /// Backlog seen by arriving packets with something queued, in bins of `hist_step` (lazy).
    hist: Vec<u32>,
    /// Packets on the wire: arrival time, packet.
    wire: VecDeque<(u64, u32)>,
}

impl Port {
    /// The port in front of link `l`: a server's NIC (`host`; `fair`: its flows in turn) or a
    /// switch port, with buffer `cap` bytes of its own or in switch buffer `buf`, and
    /// `switch_ps` of switching latency where the link ends at a switch.
    pub fn new(l: &Link, (host, fair): (bool, bool), cap: u64, buf: u32, switch_ps: u64) -> Port {
        Port {
            q: ClassQueue::new(fair),
            qa: ClassQueue::new(fair),
            host,
            serving: u32::MAX,
            bytes: 0,
            cap,
            buf,
            ps_per_byte: 8000.0 / l.gbps.0,
            ps_per_byte_whole: Some(8000.0 / l.gbps.0)
                .filter(|x| x.fract() == 0.0)
                .map_or(0, |x| x as u64),
            delay: l.latency.0 + switch_ps,
            busy: false,
            depart_at: 0,
            gbps: l.gbps.0,
            max: 0,
            drops: 0,
            queued: false,
            arrivals: 0,
            hist: Vec::new(),
            wire: VecDeque::new(),
        }
    }

    /// Serialisation time of `bytes`, ps.
    #[inline]
    pub fn ser(&self, bytes: u32) -> u64 {
        // rounded half up (a positive number: `round` without the library call)
        match self.ps_per_byte_whole {
            0 => (bytes as f64 * self.ps_per_byte + 0.5) as u64,
            whole => bytes as u64 * whole,
        }
    }

    /// Count an arrival that found `backlog` bytes in the backlog histogram (bins of `step`
    /// bytes up to the buffer, allocated at the first arrival that finds a backlog).
    // (on every enqueue: left out of line, it cost 2% more instructions on benchmark (h))
    #[inline(always)]
    fn count_arrival(&mut self, backlog: u64, step: u64) {
        self.arrivals += 1;
        if backlog > 0 {
            if self.hist.is_empty() {
                let bins = self.cap.min(HIST_BINS * step) / step + 2;
                self.hist = vec![0; bins as usize];
            }
            let k = (backlog.div_ceil(step) as usize).min(self.hist.len() - 1);
            self.hist[k] += 1;
        }
    }

    /// 99th percentile (nearest rank) of the backlog arriving packets found, in histogram bins.
    pub fn p99(&self) -> u64 {
        if self.arrivals == 0 {
            return 0;
        }
        let rank = (0.99 * self.arrivals as f64).ceil() as u64;
        let queued: u64 = self.hist.iter().map(|&x| x as u64).sum();
        let mut seen = self.arrivals - queued; // arrivals that found the port empty
        if seen >= rank {
            return 0;
        }
        for (k, &x) in self.hist.iter().enumerate() {
            seen += x as u64;
            if seen >= rank {
                return k as u64;
            }
        }
        self.hist.len() as u64
    }
}

/// The largest backlog per port and bucket of the utilisation series (`port * QBUCKETS +
/// bucket`), when series are kept.
pub(super) struct QueueSeries {
    max: Vec<u32>,
    /// Bucket width, ps (the utilisation series' width: merged when it doubles).
    pub width: u64,
}

impl QueueSeries {
    pub fn new(ports: usize, keep: bool, width: u64) -> QueueSeries {
        QueueSeries {
            max: vec![0; if keep { ports * QBUCKETS } else { 0 }],
            width,
        }
    }

    /// Port `l` holds `bytes` at `now`.
    #[inline]
    fn record(&mut self, l: usize, now: u64, bytes: u64) {
        if !self.max.is_empty() {
            let b = ((now / self.width) as usize).min(QBUCKETS - 1);
            let cell = &mut self.max[l * QBUCKETS + b];
            *cell = (*cell).max(bytes.min(u32::MAX as u64) as u32);
        }
    }

    /// The utilisation buckets widened to `width`: merge likewise (max of pairs).
    pub fn widen(&mut self, width: u64) {
        if self.max.is_empty() {
            self.width = width;
            return;
        }
        while self.width < width {
            for row in self.max.chunks_exact_mut(QBUCKETS) {
                for k in 0..QBUCKETS / 2 {
                    row[k] = row[2 * k].max(row[2 * k + 1]);
                }
                row[QBUCKETS / 2..].iter_mut().for_each(|x| *x = 0);
            }
            self.width *= 2;
        }
    }

    /// The largest backlog per bucket of port `l`, for its first `n` buckets.
    pub fn of(&self, l: usize, n: usize) -> Option<Vec<f64>> {
        if self.max.is_empty() {
            return None;
        }
        let row = &self.max[l * QBUCKETS..(l + 1) * QBUCKETS];
        Some(row[..n.min(QBUCKETS)].iter().map(|&x| x as f64).collect())
    }
}

impl PacketEngine<'_> {
    #[inline]
    pub(super) fn ser(&self, l: usize, bytes: u32) -> u64 {
        self.ports[l].ser(bytes)
    }

    pub(super) fn alloc(&mut self, p: Pkt) -> u32 {
        match self.free.pop() {
            Some(i) => {
                self.pool[i as usize] = p;
                i
            }
            None => {
                self.pool.push(p);
                (self.pool.len() - 1) as u32
            }
        }
    }

    /// The link packet `p` crosses at its current hop.
    #[inline]
    pub(super) fn link_of(&self, p: &Pkt) -> usize {
        let h = p.hop as usize;
        if p.flags & F_REV == 0 {
            self.paths[p.path as usize + h].idx()
        } else {
            self.paths[p.path as usize + p.plen as usize - 1 - h]
                .reverse()
                .idx()
        }
    }

    /// Packet `i` arrives at the port of link `l`: queue it or drop it.
    pub(super) fn enqueue(&mut self, l: usize, i: u32) {
        if !self.links.up[l] {
            // sent (or forwarded) onto a path chosen before its link failed
            self.ports[l].drops += 1;
            self.c.drops += 1;
            self.c.fail_drops += 1;
            self.free.push(i);
            return;
        }
        let size = self.pool[i as usize].size as u64;
        let port = &mut self.ports[l];
        let backlog = port.bytes;
        let admit = if port.buf == NO_BUF {
            backlog + size <= port.cap
        } else {
            let (total, alpha) = self.cfg.shared.expect("shared buffer set");
            let used = self.buf_used[port.buf as usize];
            used + size <= total && (backlog + size) as f64 <= alpha * (total - used) as f64
        };
        port.count_arrival(backlog, self.cfg.hist_step);
        if !admit {
            port.drops += 1;
            self.c.drops += 1;
            self.free.push(i);
            return;
        }
        if let Some(k) = self.cfg.ecn {
            if backlog >= k {
                self.pool[i as usize].flags |= F_CE;
                self.c.ecn_marks += 1;
            }
        }
        port.bytes += size;
        if port.buf != NO_BUF {
            self.buf_used[port.buf as usize] += size;
        }
        port.max = port.max.max(port.bytes);
        let p = &self.pool[i as usize];
        if port.host && p.flags & F_ACK != 0 {
            port.qa.push(p.conn, i);
        } else {
            port.q.push(p.conn, i);
        }
        if port.busy {
            port.queued = true;
        }
        self.qseries.record(l, self.now, port.bytes);
        if !port.busy {
            let g = port.gbps;
            self.util.change(l, 0.0, g);
            self.serve_next(l);
        }
    }

    /// Start sending the next packet of port `l` (ACKs first at a server); false if none.
    fn serve_next(&mut self, l: usize) -> bool {
        let port = &mut self.ports[l];
        let Some(i) = port.qa.pop().or_else(|| port.q.pop()) else {
            port.busy = false;
            return false;
        };
        port.busy = true;
        port.serving = i;
        let t = self.now + self.ser(l, self.pool[i as usize].size);
        self.ports[l].depart_at = t;
        self.ev.push(t, EV_DEPART, l as u32);
        true
    }

    /// The head of port `l` finished serialising.
    pub(super) fn depart(&mut self, l: usize) {
        let port = &mut self.ports[l];
        if !port.busy || port.depart_at != self.now {
            return; // the link failed while the packet was being sent
        }
        let i = port.serving;
        let size = self.pool[i as usize].size as u64;
        port.bytes -= size;
        if port.buf != NO_BUF {
            self.buf_used[port.buf as usize] -= size;
        }
        let delay = port.delay;
        // onto the wire, then the next packet (the order htsim schedules them in)
        if delay > 0 {
            let port = &mut self.ports[l];
            port.wire.push_back((self.now + delay, i));
            if port.wire.len() == 1 {
                self.ev.push(self.now + delay, EV_WIRE, l as u32);
            }
        }
        if !self.serve_next(l) {
            let g = self.ports[l].gbps;
            self.util.change(l, g, 0.0);
        }
        if delay == 0 {
            self.arrive(i);
        }
    }

    /// The head of link `l`'s wire reaches the far end.
    pub(super) fn wire(&mut self, l: usize) {
        if self.ports[l]
            .wire
            .front()
            .is_none_or(|&(t, _)| t != self.now)
        {
            return; // the link failed with this packet on it
        }
        let (_, i) = self.ports[l]
            .wire
            .pop_front()
            .expect("a wire event has a packet");
        // the packet on, then the next arrival (htsim's Pipe order)
        self.arrive(i);
        if let Some(&(t, _)) = self.ports[l].wire.front() {
            self.ev.push(t, EV_WIRE, l as u32);
        }
    }

    /// Packet `i` crossed its current hop.
    fn arrive(&mut self, i: u32) {
        let p = &mut self.pool[i as usize];
        p.hop += 1;
        if p.hop < p.plen {
            let p = *p;
            let l = self.link_of(&p);
            self.enqueue(l, i);
        } else {
            self.deliver(i);
        }
    }

    /// Link `l` went down: the packets queued at its port, the one being sent and those on its
    /// wire are lost.
    pub(super) fn flush(&mut self, l: usize) {
        let port = &mut self.ports[l];
        let mut lost: Vec<u32> =
            std::iter::from_fn(|| port.qa.pop().or_else(|| port.q.pop())).collect();
        if port.busy {
            lost.push(port.serving);
            port.busy = false;
            let g = port.gbps;
            self.util.change(l, g, 0.0);
        }
        let port = &mut self.ports[l];
        lost.extend(port.wire.drain(..).map(|(_, i)| i));
        if port.buf != NO_BUF {
            self.buf_used[port.buf as usize] -= port.bytes;
        }
        port.bytes = 0;
        port.drops += lost.len() as u64;
        self.c.drops += lost.len() as u64;
        self.c.fail_drops += lost.len() as u64;
        self.free.extend(lost);
    }
}
