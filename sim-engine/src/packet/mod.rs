//! Packet mode: a packet-level simulation of the same scenario (links with rate and propagation
//! delay, per-output-port FIFO queues with drop-tail, store-and-forward serialisation, a per-hop
//! switching latency, TCP at the servers; see [`tcp`]). With htsim's settings and order of
//! same-time events it steps through the same events as htsim (sim-engine/README.md).
//!
//! Fast by construction, after htsim:
//! * time is integer picoseconds; binary heaps of `u128` keys `time << 64 | tie << 30 |
//!   kind << 27 | subject` (the packet events in one, the retransmission timers in another),
//!   where `tie` is drawn from a generator seeded by the scenario's seed (deterministic, and no
//!   sender wins every tie at a full queue: no phase lock-out) or, with `tie_order:
//!   "scheduled"`, counts the events scheduled (htsim's first in, first out);
//! * few pending events per link: a port schedules only its head-of-line departure, and the
//!   packets on a wire form a FIFO (constant delay) of which only the head's arrival is an event;
//!   a wire with no delay hands the packet on at once; a connection has at most one timer event
//!   (a timer that moves later keeps its event, which re-queues itself when it fires early);
//! * packets live in a pool with a free list (no allocation per packet); an ACK is its data
//!   packet turned round; packets are source-routed: they carry their flow's path (an offset
//!   into one flat array of links) and a hop count, ACKs walk it backwards;
//! * ports, connections and paths are flat arrays indexed by link, connection and flow ids; no
//!   hash map anywhere (a fair NIC keeps sorted vectors of its connections, [`nic`]).
//!
//! Adaptive and detour routing run the flow mode's controller through [`Plant`]; its moves are
//! taken at flowlet gaps.
//!
//! Paths are the flow mode's: the same [`Router`] with the same flow index and seed, so per-flow
//! ECMP puts a flow on the same path in both modes.

pub mod nic;
pub mod tcp;

use std::cmp::Reverse;
use std::collections::{BinaryHeap, VecDeque};

use crate::engine::control::Controller;
use crate::engine::plant::{ActiveFlow, Plant};
use crate::engine::util::LinkUtil;
use crate::engine::{FlowSt, Outcome, Status};
use crate::network::Network;
use crate::report::{PacketReport, QueueReport};
use crate::routing::detour::{DetourLeg, Side};
use crate::routing::{Binding, Route, RouteCtx, Router, NONE_DETOUR};
use crate::scenario::{HostQueue, RoutingSpec, Scenario, TieOrder, Transport};
use crate::units::{LinkId, NodeId, Time};
use crate::workload::{Workload, NONE};
use nic::ClassQueue;
use tcp::{Cc, Conn, Seg, TcpCfg};

const EV_DEPART: u64 = 0;
const EV_WIRE: u64 = 1;
const EV_RTO: u64 = 2;
const EV_START: u64 = 3;
/// A timer expired at a scan: the retransmission, a moment later (see `timeout`).
const EV_RETX: u64 = 4;
/// A failure (`net.failures` index) takes its links down, or they come back.
const EV_FAIL: u64 = 5;
const EV_RECOVER: u64 = 6;
/// Event keys: time (64 bits) | tie (34) | kind (3) | subject (27).
const KIND_SHIFT: u32 = 27;
const TIE_SHIFT: u32 = 30;
const TIE_MASK: u64 = (1 << 34) - 1;

const F_ACK: u8 = 1;
/// Congestion experienced (set by a queue over the ECN threshold).
const F_CE: u8 = 2;
/// ECN echo on an ACK.
const F_ECE: u8 = 4;
/// The packet walks its path backwards (ACKs).
const F_REV: u8 = 8;
/// Handshake: a SYN (with `F_ACK`: a SYN-ACK).
const F_SYN: u8 = 16;
/// A UDP datagram: never acknowledged.
const F_UDP: u8 = 32;

const NO_BUF: u32 = u32::MAX;
/// A connection whose path counts against no detour budget.
const NO_BUDGET: u32 = u32::MAX;
/// Most paths a sprayed flow uses.
const SPRAY_PATHS: usize = 8;
/// Most bins of a port's backlog histogram.
const HIST_BINS: u64 = 4096;
/// Buckets of the per-port queue series (as the utilisation series).
const QBUCKETS: usize = crate::engine::util::MAX_BUCKETS;

/// A packet in the pool.
#[derive(Clone, Copy, Debug, Default)]
struct Pkt {
    /// Data: first byte; ACK: cumulative ACK.
    seq: u64,
    /// Data: send time; ACK: the echoed send time.
    ts: u64,
    conn: u32,
    /// Offset of the path in `paths`.
    path: u32,
    /// Wire size, bytes.
    size: u32,
    /// Payload, bytes.
    len: u32,
    plen: u16,
    hop: u16,
    flags: u8,
}

/// One output port: the queue in front of a directed link, and the link.
struct Port {
    /// Packets waiting (data; at switches everything).
    q: ClassQueue,
    /// A server's NIC: ACKs waiting, sent before data.
    qa: ClassQueue,
    host: bool,
    /// The packet being sent, when `busy`.
    serving: u32,
    /// Backlog in bytes, the packet being sent included.
    bytes: u64,
    /// Drop-tail limit, bytes (per-port buffer).
    cap: u64,
    /// Shared buffer of the sending switch (`NO_BUF`: per-port).
    buf: u32,
    ps_per_byte: f64,
    /// `ps_per_byte` when it is a whole number (1, 10, 25, 40, 100 Gb/s...), else 0.
    ps_per_byte_whole: u64,
    /// Propagation plus the receiving switch's latency, ps.
    delay: u64,
    busy: bool,
    /// When the packet being sent finishes (a departure event at another time is stale: the
    /// port's link failed under it).
    depart_at: u64,
    gbps: f64,
    max: u64,
    drops: u64,
    queued: bool,
    arrivals: u64,
    /// Backlog seen by arriving packets with something queued, in bins of `hist_step` (lazy).
    hist: Vec<u32>,
    /// Packets on the wire: arrival time, packet.
    wire: VecDeque<(u64, u32)>,
}

/// Per-flow packet-mode state besides the report's [`FlowSt`].
#[derive(Clone, Debug)]
struct PFlow {
    /// Connections of the flow (`conn0 .. conn0 + nconn`).
    conn0: u32,
    nconn: u32,
    /// Bytes handed to subflows so far (MPTCP).
    assigned: u64,
    /// Bytes delivered in order, summed over subflows.
    delivered: u64,
}

/// Settings derived from `engine.packet`.
#[derive(Clone, Copy, Debug)]
struct Cfg {
    tcp: TcpCfg,
    mtu: u64,
    /// Width of a queue histogram bin, bytes: `mtu`, or 1/4096 of a larger buffer.
    hist_step: u64,
    header: u64,
    ack: u64,
    ecn: Option<u64>,
    cc: Cc,
    mptcp: bool,
    spraying: bool,
    handshake: bool,
    udp: bool,
    /// Timer check period, ps (0: timers fire at their deadline).
    rto_scan: u64,
    /// Same-time events in the order they were scheduled (else in random order).
    scheduled: bool,
    /// A flow's last packet is padded to a full one.
    whole_packets: bool,
    shared: Option<(u64, f64)>,
}

/// Counters of the run.
#[derive(Clone, Debug, Default)]
struct Counters {
    sent: u64,
    drops: u64,
    ecn_marks: u64,
    /// Packets lost to link failures (queued at a failed port, on its wire, or arriving at it
    /// while it is down); also counted in `drops`.
    fail_drops: u64,
}

/// The packet engine. Step it with [`PacketEngine::step`] until it returns false.
pub struct PacketEngine<'a> {
    sc: &'a Scenario,
    net: &'a Network,
    wl: Workload,
    cfg: Cfg,
    ports: Vec<Port>,
    /// Shared-buffer occupancy per node (bytes).
    buf_used: Vec<u64>,
    pool: Vec<Pkt>,
    free: Vec<u32>,
    conns: Vec<Conn>,
    /// Flow of each connection, its path offset and length.
    conn_flow: Vec<u32>,
    conn_path: Vec<(u32, u16)>,
    /// Spraying: paths of each connection (stored one after another from its path offset) and
    /// the next one to use.
    conn_spray: Vec<(u16, u16)>,
    pflows: Vec<PFlow>,
    flows: Vec<FlowSt>,
    paths: Vec<LinkId>,
    router: Router,
    up: Vec<bool>,
    /// Failures holding each duplex link down (overlapping failures: up again at the last
    /// recovery).
    down_cnt: Vec<u32>,
    /// Recoveries still to come: while any is, stalled flows may yet finish.
    recoveries_left: u32,
    /// Flows stalled for want of a path, revived at a recovery.
    stalled_flows: Vec<u32>,
    heap: BinaryHeap<Reverse<u128>>,
    /// Retransmission timers, apart: they wait hundreds of times longer than the packet events,
    /// one per connection, and would make every push and pop of `heap` deeper.
    timers: BinaryHeap<Reverse<u128>>,
    next_root: usize,
    now: u64,
    stop: u64,
    events: u64,
    done: u64,
    stalled: u64,
    util: LinkUtil,
    /// Largest backlog per port and bucket (`port * QBUCKETS + bucket`), when series are kept.
    qseries: Vec<u32>,
    qwidth: u64,
    out: Vec<Seg>,
    /// Adaptive/detour routing: the flowlet gap (ps; 0: no rebinding), each connection's last
    /// send, rebinds made.
    flowlet: u64,
    last_send: Vec<u64>,
    rebinds: u64,
    /// The routing controller of adaptive and detour routing (the flow mode's, through
    /// [`Plant`]), its next tick (ps; `u64::MAX`: none), and the moves it decided per flow,
    /// taken at the flow's next flowlet gap.
    ctl: Controller,
    next_tick: u64,
    pending: Vec<Option<Box<Route>>>,
    /// Detour routing: the budget (virtual link) each connection's path counts against, and
    /// the data bits each budget carried (flow mode's virtual links, counted here).
    conn_budget: Vec<u32>,
    budget_bits: Vec<f64>,
    /// xorshift64 state for breaking ties between events of one time (random order), or the
    /// count of events scheduled (scheduled order).
    tie: u64,
    c: Counters,
    finished: bool,
}

impl<'a> PacketEngine<'a> {
    pub fn new(sc: &'a Scenario, net: &'a Network) -> PacketEngine<'a> {
        let p = &sc.engine.packet;
        let wl = crate::workload::generate(&sc.workload, net, sc.engine.seed);
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
        let cfg = Cfg {
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
        };
        let sw_ps = p.switch_latency_ns * 1000;
        let ports = net
            .links
            .iter()
            .map(|l| {
                let to_switch = !net.is_server(l.to);
                let from_switch = !net.is_server(l.from);
                let buf = if from_switch && cfg.shared.is_some() {
                    l.from.0
                } else {
                    NO_BUF
                };
                let host = net.is_server(l.from);
                let fair = host && p.host_queue == HostQueue::Fair;
                Port {
                    q: ClassQueue::new(fair),
                    qa: ClassQueue::new(fair),
                    host,
                    serving: u32::MAX,
                    bytes: 0,
                    cap: if host {
                        p.host_buffer_bytes.unwrap_or(u64::MAX)
                    } else {
                        p.buffer_bytes
                    },
                    buf,
                    ps_per_byte: 8000.0 / l.gbps.0,
                    ps_per_byte_whole: Some(8000.0 / l.gbps.0)
                        .filter(|x| x.fract() == 0.0)
                        .map_or(0, |x| x as u64),
                    delay: l.latency.0 + if to_switch { sw_ps } else { 0 },
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
            })
            .collect::<Vec<_>>();
        let n_flows = wl.flows.len();
        let horizon = wl
            .roots
            .last()
            .map_or(0, |&f| wl.flows[f as usize].arrival.0);
        let util = LinkUtil::with_series(net.links.len(), horizon, sc.engine.link_series);
        let qwidth = util.width;
        let nl = net.links.len();
        let flowlet = match &sc.routing {
            RoutingSpec::Adaptive(_) | RoutingSpec::LeastWork(_) | RoutingSpec::Detour(_) => {
                p.flowlet_gap_us
            }
            _ => 0.0,
        };
        let router = Router::new(&sc.routing, net);
        let ctl = Controller::new(&sc.routing, net, &router);
        let next_tick = ctl.period().map_or(u64::MAX, |t| t.0);
        let mut e = PacketEngine {
            sc,
            net,
            cfg,
            ports,
            buf_used: vec![
                0;
                if cfg.shared.is_some() {
                    net.nodes.len()
                } else {
                    0
                }
            ],
            pool: Vec::new(),
            free: Vec::new(),
            conns: Vec::with_capacity(n_flows),
            conn_flow: Vec::with_capacity(n_flows),
            conn_path: Vec::with_capacity(n_flows),
            conn_spray: Vec::with_capacity(n_flows),
            pflows: vec![
                PFlow {
                    conn0: u32::MAX,
                    nconn: 0,
                    assigned: 0,
                    delivered: 0,
                };
                n_flows
            ],
            flows: (0..n_flows)
                .map(|_| FlowSt {
                    rem_bits: 0.0,
                    last: Time::ZERO,
                    rate: 0.0,
                    due: Time::MAX,
                    queued: Time::MAX,
                    touched: 0,
                    status: Status::Waiting,
                    stalled_once: false,
                    subs: Default::default(),
                    extra: Time::ZERO,
                    reroutes: 0,
                    start: Time::ZERO,
                    done_at: Time::ZERO,
                    fct_end: Time::ZERO,
                    ideal_s: 0.0,
                    binding: None,
                })
                .collect(),
            wl,
            paths: Vec::new(),
            router,
            up: vec![true; nl],
            down_cnt: vec![0; nl / 2],
            recoveries_left: 0,
            stalled_flows: Vec::new(),
            heap: BinaryHeap::new(),
            timers: BinaryHeap::new(),
            next_root: 0,
            now: 0,
            stop: sc
                .engine
                .stop_time_s
                .map(|s| Time::from_secs_f64(s).0)
                .unwrap_or(u64::MAX),
            events: 0,
            done: 0,
            stalled: 0,
            util,
            qseries: vec![
                0;
                if sc.engine.link_series {
                    nl * QBUCKETS
                } else {
                    0
                }
            ],
            qwidth,
            out: Vec::new(),
            flowlet: 0,
            last_send: Vec::with_capacity(n_flows),
            rebinds: 0,
            pending: if next_tick == u64::MAX {
                Vec::new()
            } else {
                (0..n_flows).map(|_| None).collect()
            },
            conn_budget: Vec::new(),
            budget_bits: vec![
                0.0;
                if ctl.has_detours() {
                    2 * net.nodes.len()
                } else {
                    0
                }
            ],
            ctl,
            next_tick,
            tie: crate::rng::splitmix64(sc.engine.seed ^ 0x7469_6573) | 1,
            c: Counters::default(),
            finished: false,
        };
        e.flowlet = (flowlet * 1e6).round() as u64;
        for (i, f) in net.failures.iter().enumerate() {
            e.push(f.at.0, EV_FAIL, i as u32);
            if let Some(r) = f.recover_at {
                e.push(r.0, EV_RECOVER, i as u32);
                e.recoveries_left += 1;
            }
        }
        e
    }

    #[inline]
    fn push(&mut self, t: u64, kind: u64, subject: u32) {
        // ties at one time are broken by a draw from the seeded generator: a fixed order (say by
        // link id) would hand every freed queue slot to the same sender (phase lock-out); or,
        // as htsim, by the order of scheduling
        let tie = if self.cfg.scheduled {
            self.tie += 1;
            self.tie & TIE_MASK
        } else {
            let mut x = self.tie;
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            self.tie = x;
            x >> 30
        };
        self.push_key(t, tie, kind, subject);
    }

    #[inline]
    fn push_key(&mut self, t: u64, tie: u64, kind: u64, subject: u32) {
        debug_assert!(subject < 1 << KIND_SHIFT);
        let key = Reverse(
            (t as u128) << 64
                | (tie as u128) << TIE_SHIFT
                | (kind as u128) << KIND_SHIFT
                | subject as u128,
        );
        if kind == EV_RTO {
            self.timers.push(key);
        } else {
            self.heap.push(key);
        }
    }

    /// The earliest pending event's key (of either heap).
    #[inline]
    fn next_event(&self) -> Option<u128> {
        match (self.heap.peek(), self.timers.peek()) {
            (Some(a), Some(b)) => Some(a.0.min(b.0)),
            (a, b) => a.or(b).map(|r| r.0),
        }
    }

    #[inline]
    fn ser(&self, l: usize, bytes: u32) -> u64 {
        // rounded half up (a positive number: `round` without the library call)
        let port = &self.ports[l];
        match port.ps_per_byte_whole {
            0 => (bytes as f64 * port.ps_per_byte + 0.5) as u64,
            whole => bytes as u64 * whole,
        }
    }

    fn alloc(&mut self, p: Pkt) -> u32 {
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
    fn link_of(&self, p: &Pkt) -> usize {
        let h = p.hop as usize;
        if p.flags & F_REV == 0 {
            self.paths[p.path as usize + h].idx()
        } else {
            self.paths[p.path as usize + p.plen as usize - 1 - h]
                .reverse()
                .idx()
        }
    }

    // ---------------------------------------------------------------- ports

    /// Packet `i` arrives at the port of link `l`: queue it or drop it.
    fn enqueue(&mut self, l: usize, i: u32) {
        if !self.up[l] {
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
        port.arrivals += 1;
        if backlog > 0 {
            if port.hist.is_empty() {
                let cap = match self.cfg.shared {
                    Some((b, _)) if port.buf != NO_BUF => b,
                    _ => port.cap,
                };
                let bins = cap.min(HIST_BINS * self.cfg.hist_step) / self.cfg.hist_step + 2;
                port.hist = vec![0; bins as usize];
            }
            let k = (backlog.div_ceil(self.cfg.hist_step) as usize).min(port.hist.len() - 1);
            port.hist[k] += 1;
        }
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
        if !self.qseries.is_empty() {
            let b = ((self.now / self.qwidth) as usize).min(QBUCKETS - 1);
            let cell = &mut self.qseries[l * QBUCKETS + b];
            *cell = (*cell).max(port.bytes.min(u32::MAX as u64) as u32);
        }
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
        self.push(t, EV_DEPART, l as u32);
        true
    }

    /// The head of port `l` finished serialising.
    fn depart(&mut self, l: usize) {
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
                self.push(self.now + delay, EV_WIRE, l as u32);
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
    fn wire(&mut self, l: usize) {
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
            self.push(t, EV_WIRE, l as u32);
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

    // ---------------------------------------------------------------- hosts

    /// Send the segments in `self.out` on connection `c`.
    fn send_out(&mut self, c: u32) {
        if !self.out.is_empty() && self.flowlet > 0 {
            let last = self.last_send[c as usize];
            if last != u64::MAX && self.now - last >= self.flowlet {
                self.rebind(c);
            }
            self.last_send[c as usize] = self.now;
        }
        let (first, plen) = self.conn_path[c as usize];
        let udp = if self.conn_udp(c) { F_UDP } else { 0 };
        let mut out = std::mem::take(&mut self.out);
        for s in out.drain(..) {
            // spraying: each packet on the next of the connection's paths (its ACK comes back
            // along the same one)
            let sp = &mut self.conn_spray[c as usize];
            let path = first + (sp.1 % sp.0) as u32 * plen as u32;
            sp.1 = sp.1.wrapping_add(1);
            self.launch(Pkt {
                seq: s.seq,
                ts: self.now,
                conn: c,
                path,
                size: (s.len as u64 + self.cfg.header) as u32,
                len: s.len,
                plen,
                hop: 0,
                flags: udp,
            });
        }
        self.out = out;
        self.arm(c);
    }

    /// When a timer with deadline `at` fires: at once, or at the first periodic check after it.
    #[inline]
    fn fire_at(&self, at: u64) -> u64 {
        match self.cfg.rto_scan {
            0 => at,
            s => (at / s + 1).saturating_mul(s),
        }
    }

    /// Make sure connection `c`'s timer has an event at or before it fires. A deadline that
    /// moved earlier than the queued event (the SYN's long initial RTO replaced by the data's,
    /// a backed-off RTO reset by a new RTT sample) gets a new event; the later one is stale.
    fn arm(&mut self, c: u32) {
        let cn = &self.conns[c as usize];
        let at = cn.rto_at;
        if at != u64::MAX {
            let t = self.fire_at(at);
            if t < cn.rto_queued {
                self.conns[c as usize].rto_queued = t;
                if self.cfg.scheduled && self.cfg.rto_scan > 0 {
                    // htsim's timer scan: one event, scheduled a scan period earlier (before
                    // whatever else happens then), checking connections in their order
                    self.push_key(t, 0, EV_RTO, c);
                } else {
                    self.push(t, EV_RTO, c);
                }
            }
        }
    }

    /// Packet `i` reached the end of its path.
    fn deliver(&mut self, i: u32) {
        let p = self.pool[i as usize];
        let c = p.conn;
        let f = self.conn_flow[c as usize];
        if p.flags & F_ACK != 0 {
            self.free.push(i);
            if self.flows[f as usize].status != Status::Active {
                return;
            }
            let mut out = std::mem::take(&mut self.out);
            let lia = self.lia(f);
            let cn = &mut self.conns[c as usize];
            if p.flags & F_SYN != 0 {
                cn.on_synack(self.now, p.ts, &self.cfg.tcp, &mut out);
            } else {
                let a = tcp::Ack {
                    ack: p.seq,
                    ts: p.ts,
                    ece: p.flags & F_ECE != 0,
                };
                cn.on_ack(self.now, a, &self.cfg.tcp, lia, &mut out);
            }
            self.out = out;
            self.send_out(c);
            if self.pflows[f as usize].nconn > 1 {
                self.pump(c); // an MPTCP subflow takes more of the flow's data as it can
            }
            if self.acked_in_full(f) {
                self.complete(f);
            }
            return;
        }
        let ack_pkt = if p.flags & F_SYN != 0 {
            F_SYN | F_ACK | F_REV
        } else {
            // data at the receiver
            let cn = &mut self.conns[c as usize];
            let before = cn.rcv_nxt;
            let ack = cn.on_data(p.seq, p.len);
            let pf = &mut self.pflows[f as usize];
            let size = self.wl.flows[f as usize].bytes.0;
            let was = pf.delivered;
            pf.delivered += ack - before;
            if was < size && pf.delivered >= size {
                // the whole flow has arrived: a response may start
                let next = self.wl.flows[f as usize].follow_up;
                if next != NONE {
                    self.push(self.now, EV_START, next);
                }
                if p.flags & F_UDP != 0 {
                    self.complete(f);
                }
            }
            if p.flags & F_UDP != 0 {
                self.free.push(i);
                return;
            }
            self.pool[i as usize].seq = ack;
            F_ACK | F_REV | if p.flags & F_CE != 0 { F_ECE } else { 0 }
        };
        // the packet turns round as the ACK (or SYN-ACK)
        let a = &mut self.pool[i as usize];
        a.flags = ack_pkt;
        a.size = self.cfg.ack as u32;
        a.len = 0;
        a.hop = 0;
        let l = self.link_of(&self.pool[i as usize]);
        self.c.sent += 1;
        self.enqueue(l, i);
    }

    /// Every byte of flow `f` is sent and acknowledged.
    fn acked_in_full(&self, f: u32) -> bool {
        let pf = &self.pflows[f as usize];
        pf.assigned >= self.wl.flows[f as usize].bytes.0
            && self.conns[pf.conn0 as usize..(pf.conn0 + pf.nconn) as usize]
                .iter()
                .all(|c| c.sender_done())
    }

    /// A flowlet starts on connection `c` (it paused at least the flowlet gap): take the move
    /// the controller decided for its flow, if any, else the path the adaptive router gives it
    /// now (a flow on a detour stays on it until the controller moves it). The packets still on
    /// the old path were sent at least one gap ago; each carries its own path.
    fn rebind(&mut self, c: u32) {
        let f = self.conn_flow[c as usize];
        let pf = &self.pflows[f as usize];
        if pf.nconn != 1 || self.conn_spray[c as usize].0 != 1 {
            return;
        }
        let route = match self.pending.get_mut(f as usize).and_then(Option::take) {
            Some(r) => *r,
            None if self.flows[f as usize]
                .binding
                .is_some_and(|b| b.detour != NONE_DETOUR) =>
            {
                return
            }
            None => {
                let spec = &self.wl.flows[f as usize];
                let (src, dst) = (spec.src, spec.dst);
                let cn = &self.conns[c as usize];
                self.router.note_size((cn.end - cn.una) as f64 * 8.0);
                let ctx = RouteCtx {
                    net: self.net,
                    up: &self.up,
                    seed: self.sc.engine.seed,
                };
                self.router.route(&ctx, f, src, dst)
            }
        };
        let Some((p, _)) = route.paths.first() else {
            return;
        };
        if self.crosses_down(p) {
            return; // decided before a link on it failed
        }
        self.flows[f as usize].binding = route.binding;
        if self.bind_path(c, p) {
            self.flows[f as usize].reroutes += 1;
            self.rebinds += 1;
        }
    }

    /// Path `p` (a route's, perhaps ending with a detour budget's virtual link) crosses a link
    /// that is down.
    fn crosses_down(&self, p: &[LinkId]) -> bool {
        p.iter().any(|l| self.up.get(l.idx()) == Some(&false))
    }

    /// Put connection `c` on path `p` (a route's); false when it is already on it.
    fn bind_path(&mut self, c: u32, p: &[LinkId]) -> bool {
        // a detour's path ends with the virtual link of its budget (flow mode's cap): packets
        // cross only the real links, and their bits count against the budget
        let real = self.net.links.len();
        let (p, budget) = match p.last() {
            Some(v) if v.idx() >= real => (&p[..p.len() - 1], v.idx() - real),
            _ => (p, NO_BUDGET as usize),
        };
        if !self.budget_bits.is_empty() {
            if self.conn_budget.len() <= c as usize {
                self.conn_budget.resize(c as usize + 1, NO_BUDGET);
            }
            self.conn_budget[c as usize] = budget as u32;
        }
        let (off, len) = self.conn_path[c as usize];
        if self.conn_spray[c as usize].0 == 1
            && self.paths[off as usize..off as usize + len as usize] == p[..]
        {
            return false;
        }
        let off = self.paths.len() as u32;
        self.paths.extend_from_slice(p);
        self.conn_path[c as usize] = (off, p.len() as u16);
        self.conn_spray[c as usize] = (1, 0);
        true
    }

    /// One controller period: the adaptive EWMAs and moves, the detour scheduler.
    fn tick(&mut self) {
        // the controller is set aside while it acts on the engine through `Plant`
        let mut ctl = std::mem::take(&mut self.ctl);
        let net = self.net;
        ctl.tick(self, net);
        self.ctl = ctl;
        self.next_tick = self
            .ctl
            .period()
            .map_or(u64::MAX, |p| self.now.saturating_add(p.0));
    }

    /// A route for flow `f` the controller decided: taken at the flow's next flowlet gap.
    fn set_pending(&mut self, f: u32, route: Route) -> bool {
        if route.paths.is_empty() || self.pflows[f as usize].nconn != 1 {
            return false;
        }

        if let Some(slot) = self.pending.get_mut(f as usize) {
            *slot = Some(Box::new(route));
        }
        true
    }

    /// Flow `f` is sent as UDP datagrams (`udp_requests` and a request/response workload).
    fn udp_flow(&self, f: u32) -> bool {
        self.cfg.udp && self.wl.flows[f as usize].group != NONE
    }

    fn conn_udp(&self, c: u32) -> bool {
        self.cfg.udp && self.udp_flow(self.conn_flow[c as usize])
    }

    /// Send connection `c`'s SYN.
    fn send_syn(&mut self, c: u32) {
        let (path, plen) = self.conn_path[c as usize];
        self.launch(Pkt {
            seq: 0,
            ts: self.now,
            conn: c,
            path,
            size: 1,
            len: 0,
            plen,
            hop: 0,
            flags: F_SYN,
        });
        self.arm(c);
    }

    /// A new packet from the pool onto the first link of its path.
    fn launch(&mut self, pkt: Pkt) {
        let path = pkt.path;
        if pkt.len > 0 {
            if let Some(&b) = self.conn_budget.get(pkt.conn as usize) {
                if b != NO_BUDGET {
                    self.budget_bits[b as usize] += pkt.len as f64 * 8.0;
                }
            }
        }
        let i = self.alloc(pkt);
        self.c.sent += 1;
        let l = self.paths[path as usize].idx();
        self.enqueue(l, i);
    }

    /// LIA's coupling for flow `f`'s subflows: (`alpha`, total window), or `None`.
    fn lia(&self, f: u32) -> Option<(f64, u64)> {
        let pf = &self.pflows[f as usize];
        if pf.nconn < 2 {
            return None;
        }
        let cs = &self.conns[pf.conn0 as usize..(pf.conn0 + pf.nconn) as usize];
        let total: u64 = cs.iter().map(|c| c.cwnd).sum();
        let rtt = |c: &Conn| c.srtt.max(1) as f64;
        let best = cs
            .iter()
            .map(|c| c.cwnd as f64 / (rtt(c) * rtt(c)))
            .fold(0.0, f64::max);
        let sum: f64 = cs.iter().map(|c| c.cwnd as f64 / rtt(c)).sum();
        Some((total as f64 * best / (sum * sum), total))
    }

    fn complete(&mut self, f: u32) {
        let fl = &mut self.flows[f as usize];
        fl.status = Status::Done;
        fl.done_at = Time(self.now);
        fl.fct_end = Time(self.now);
        fl.last = Time(self.now);
        self.done += 1;
    }

    /// Time alone on an idle path with an unlimited window, as packet mode measures a flow (from
    /// its start to the ACK of its last byte at the sender): the handshake's round trip if any;
    /// every data packet but the largest at the slowest hop's rate, the largest through every
    /// hop (exact on a path of one rate, where a short last packet waits behind the full one
    /// before it); the last ACK's way back; every hop's delay on each crossing.
    fn ideal(&self, path: &[LinkId], bytes: u64, udp: bool) -> f64 {
        let mss = self.cfg.tcp.mss;
        let bytes = if self.cfg.whole_packets {
            bytes.div_ceil(mss) * mss
        } else {
            bytes
        };
        let n = bytes.div_ceil(mss).max(1);
        let wire = bytes + n * self.cfg.header;
        let largest = (bytes.min(mss) + self.cfg.header) as u32;
        let ack = self.cfg.ack as u32;
        let one_way = |size: u32, back: bool| -> u64 {
            path.iter()
                .map(|&l| {
                    let li = if back { l.reverse().idx() } else { l.idx() };
                    self.ser(li, size) + self.ports[li].delay
                })
                .sum()
        };
        let slow = path
            .iter()
            .map(|l| self.ports[l.idx()].ps_per_byte)
            .fold(0.0, f64::max);
        let body = ((wire - largest as u64) as f64 * slow).round() as u64;
        let mut t = body + one_way(largest, false);
        if udp {
            return t as f64 / 1e12; // done when the last byte arrives
        }
        t += one_way(ack, true);
        if self.cfg.handshake {
            t += one_way(1, false) + one_way(ack, true);
        }
        t as f64 / 1e12
    }

    fn start_flow(&mut self, f: u32) {
        let spec = &self.wl.flows[f as usize];
        let (src, dst, bytes) = (spec.src, spec.dst, spec.bytes.0);
        {
            let fl = &mut self.flows[f as usize];
            fl.start = Time(self.now);
            fl.last = Time(self.now);
        }
        self.router.note_size(bytes as f64 * 8.0);
        let route = {
            let ctx = RouteCtx {
                net: self.net,
                up: &self.up,
                seed: self.sc.engine.seed,
            };
            self.router.route_new(&ctx, f, src, dst)
        };
        if route.paths.is_empty() {
            let fl = &mut self.flows[f as usize];
            fl.status = Status::Stalled;
            fl.stalled_once = true;
            fl.ideal_s = f64::NAN;
            self.stalled += 1;
            self.stalled_flows.push(f);
            return;
        }
        // MPTCP: a subflow per path; otherwise the heaviest path (the first of equals)
        let chosen: Vec<&[LinkId]> = if self.cfg.mptcp && route.paths.len() > 1 && !self.udp_flow(f)
        {
            route.paths.iter().map(|(p, _)| p.as_slice()).collect()
        } else {
            vec![&route.paths[heaviest(&route)].0]
        };
        // a new flow placed on a detour: its path ends with the budget's virtual link (flow
        // mode's cap); packets cross the real links and their bits count against the budget
        let real = self.net.links.len();
        let budget = match chosen.as_slice() {
            [p] => p.last().filter(|v| v.idx() >= real).map(|v| v.idx() - real),
            _ => None,
        };
        let chosen: Vec<&[LinkId]> = chosen
            .into_iter()
            .map(|p| match p.last() {
                Some(v) if v.idx() >= real => &p[..p.len() - 1],
                _ => p,
            })
            .collect();
        let ideal = chosen
            .iter()
            .map(|p| self.ideal(p, bytes, self.udp_flow(f)))
            .fold(f64::INFINITY, f64::min);
        let fl = &mut self.flows[f as usize];
        fl.status = Status::Active;
        fl.ideal_s = ideal;
        fl.binding = route.binding;
        if bytes == 0 {
            self.complete(f);
            return;
        }
        let multi = chosen.len() > 1;
        let spray = if self.cfg.spraying && !multi {
            self.spray_paths(f, chosen[0])
        } else {
            Vec::new()
        };
        let conn0 = self.conns.len() as u32;
        for p in &chosen {
            let off = self.paths.len() as u32;
            self.paths.extend_from_slice(p);
            for q in &spray {
                self.paths.extend_from_slice(q);
            }
            self.conn_spray.push((1 + spray.len() as u16, 0));
            let cc = if multi { Cc::Lia } else { self.cfg.cc };
            // an MPTCP subflow is handed data as its window opens (see `feed`)
            let end = match (multi, self.cfg.whole_packets) {
                (true, _) => 0,
                (false, true) => bytes.div_ceil(self.cfg.tcp.mss) * self.cfg.tcp.mss,
                (false, false) => bytes,
            };
            self.conns.push(Conn::new(cc, end, &self.cfg.tcp));
            self.conn_flow.push(f);
            self.last_send.push(u64::MAX);
            self.conn_path.push((off, p.len() as u16));
        }
        if let (Some(v), false) = (budget, self.budget_bits.is_empty()) {
            if self.conn_budget.len() <= conn0 as usize {
                self.conn_budget.resize(conn0 as usize + 1, NO_BUDGET);
            }
            self.conn_budget[conn0 as usize] = v as u32;
        }
        let pf = &mut self.pflows[f as usize];
        pf.conn0 = conn0;
        pf.nconn = chosen.len() as u32;
        pf.assigned = if multi { 0 } else { bytes };
        if self.udp_flow(f) {
            // every datagram to the NIC at once
            let c = conn0;
            let mss = self.cfg.tcp.mss;
            self.out.clear();
            let mut seq = 0;
            while seq < bytes {
                let len = if self.cfg.whole_packets {
                    mss
                } else {
                    (bytes - seq).min(mss)
                } as u32;
                self.out.push(Seg {
                    seq,
                    len,
                    retx: false,
                });
                seq += len as u64;
            }
            self.send_out(c);
            return;
        }
        for c in conn0..conn0 + chosen.len() as u32 {
            if self.cfg.handshake {
                let cn = &mut self.conns[c as usize];
                cn.established = false;
                // the SYN-ACK opens it by one segment (see `Conn::on_synack`)
                cn.cwnd = cn.cwnd.saturating_sub(self.cfg.tcp.mss);
                cn.rto_at = self.now + cn.rto;
                self.send_syn(c);
            } else {
                self.pump(c);
            }
        }
    }

    /// Spraying: up to `SPRAY_PATHS - 1` more shortest valley-free paths (ECMP's set) of flow
    /// `f` besides `first`, as long as it, each walked with another hash of the flow.
    fn spray_paths(&mut self, f: u32, first: &[LinkId]) -> Vec<Vec<LinkId>> {
        let spec = &self.wl.flows[f as usize];
        let (src, dst) = (spec.src, spec.dst);
        let h = crate::routing::flow_hash(self.sc.engine.seed, f);
        let mut found: Vec<Vec<LinkId>> = Vec::new();
        for k in 1..4 * SPRAY_PATHS as u64 {
            if found.len() + 1 >= SPRAY_PATHS {
                break;
            }
            let hk = crate::rng::splitmix64(h ^ k.wrapping_mul(0x9e37_79b9_7f4a_7c15));
            let Some(p) = self.router.updown().walk(self.net, &self.up, src, dst, hk) else {
                break;
            };
            if p.len() == first.len() && p != first && !found.contains(&p) {
                found.push(p);
            }
        }
        found
    }

    /// Send what connection `c`'s window allows (MPTCP: hand it more of the flow's data first).
    fn pump(&mut self, c: u32) {
        let f = self.conn_flow[c as usize];
        let pf = &self.pflows[f as usize];
        if pf.nconn > 1 {
            let size = self.wl.flows[f as usize].bytes.0;
            let cn = &self.conns[c as usize];
            let room = (cn.una + cn.cwnd).saturating_sub(cn.end);
            // whole segments (but the flow's last bytes): a subflow sends only full ones
            let mss = self.cfg.tcp.mss;
            let left = size - pf.assigned;
            let give = if left <= room { left } else { room / mss * mss };
            if give > 0 {
                self.conns[c as usize].end += give;
                self.pflows[f as usize].assigned += give;
            }
        }
        let mut out = std::mem::take(&mut self.out);
        self.conns[c as usize].pump(self.now, &self.cfg.tcp, &mut out);
        self.out = out;
        self.send_out(c);
    }

    fn timeout(&mut self, c: u32) {
        let cn = &mut self.conns[c as usize];
        if cn.rto_queued != self.now {
            return; // replaced by an earlier event (see `arm`)
        }
        cn.rto_queued = u64::MAX;
        let at = cn.rto_at;
        let f = self.conn_flow[c as usize];
        if at == u64::MAX || self.flows[f as usize].status != Status::Active {
            return;
        }
        if self.fire_at(at) > self.now {
            self.arm(c); // the deadline moved later since this event was queued
            return;
        }
        self.conns[c as usize].on_expiry(self.now, &self.cfg.tcp);
        let scan = self.cfg.rto_scan;
        if scan == 0 {
            self.retransmit(c);
            return;
        }
        let t = scan_retransmit_at(self.now, at, scan);
        self.push(t, EV_RETX, c);
    }

    /// Connection `c` goes back after its timer expired.
    fn retransmit(&mut self, c: u32) {
        let f = self.conn_flow[c as usize];
        if self.flows[f as usize].status != Status::Active {
            return;
        }
        let mut out = std::mem::take(&mut self.out);
        let syn = self.conns[c as usize].on_timeout(self.now, &self.cfg.tcp, &mut out);
        self.out = out;
        if syn {
            self.send_syn(c);
        } else {
            self.send_out(c);
        }
    }

    // ---------------------------------------------------------------- failures

    /// Failure `fi`'s links go down (`down`) or come back, as in flow mode (`set_links`): going
    /// down, what is queued at their ports and on their wires is lost, and every flow with a
    /// path across them moves at once to a path that avoids them, or stalls if none is left
    /// (its packets still on the way are lost where they meet the failed link; TCP recovers
    /// them); coming back, the stalled flows are routed again.
    fn set_links(&mut self, fi: usize, down: bool) {
        let net = self.net;
        let mut changed = false;
        for &d in &net.failures[fi].links {
            if down {
                self.down_cnt[d] += 1;
                if self.down_cnt[d] != 1 {
                    continue;
                }
            } else {
                self.down_cnt[d] -= 1;
                if self.down_cnt[d] != 0 {
                    continue;
                }
            }
            changed = true;
            for l in [2 * d, 2 * d + 1] {
                self.up[l] = !down;
                if down {
                    self.flush(l);
                }
            }
        }
        if !changed {
            return;
        }
        self.router.invalidate();
        if down {
            for f in 0..self.flows.len() as u32 {
                let pf = &self.pflows[f as usize];
                if self.flows[f as usize].status != Status::Active || pf.nconn == 0 {
                    continue;
                }
                if (pf.conn0..pf.conn0 + pf.nconn).any(|c| self.conn_broken(c)) {
                    self.flows[f as usize].reroutes += 1;
                    self.reroute_flow(f);
                }
            }
        } else {
            let stalled = std::mem::take(&mut self.stalled_flows);
            for f in stalled {
                if self.flows[f as usize].status == Status::Stalled {
                    self.revive(f);
                }
            }
        }
    }

    /// Link `l` went down: the packets queued at its port, the one being sent and those on its
    /// wire are lost.
    fn flush(&mut self, l: usize) {
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

    /// Connection `c` has a path (or a sprayed one) across a link that is down.
    fn conn_broken(&self, c: u32) -> bool {
        let (off, plen) = self.conn_path[c as usize];
        let n = self.conn_spray[c as usize].0 as usize;
        self.crosses_down(&self.paths[off as usize..off as usize + plen as usize * n])
    }

    /// Route flow `f` again now that links failed or came back: its connections with a path
    /// across a down link move to the route's path (the one a new flow would take; sprayed
    /// again when spraying); false, with the flow stalled, when no path is left.
    fn reroute_flow(&mut self, f: u32) -> bool {
        if let Some(slot) = self.pending.get_mut(f as usize) {
            *slot = None; // a move decided before the failure
        }
        let spec = &self.wl.flows[f as usize];
        let (src, dst) = (spec.src, spec.dst);
        let ctx = RouteCtx {
            net: self.net,
            up: &self.up,
            seed: self.sc.engine.seed,
        };
        let route = self.router.route(&ctx, f, src, dst);
        if route.paths.is_empty() {
            let fl = &mut self.flows[f as usize];
            fl.status = Status::Stalled;
            fl.stalled_once = true;
            self.stalled += 1;
            self.stalled_flows.push(f);
            return false;
        }
        self.flows[f as usize].binding = route.binding;
        let p = &route.paths[heaviest(&route)].0;
        let pf = &self.pflows[f as usize];
        for c in pf.conn0..pf.conn0 + pf.nconn {
            if !self.conn_broken(c) {
                continue;
            }
            let sprayed = self.conn_spray[c as usize].0 > 1;
            self.bind_path(c, p);
            if sprayed {
                let (off, plen) = self.conn_path[c as usize];
                let first = self.paths[off as usize..off as usize + plen as usize].to_vec();
                let more = self.spray_paths(f, &first);
                for q in &more {
                    self.paths.extend_from_slice(q);
                }
                self.conn_spray[c as usize] = (1 + more.len() as u16, 0);
            }
        }
        true
    }

    /// A recovery gave stalled flow `f` another chance: routed again, it goes on from where it
    /// stopped (its timers re-armed, or what its window allows sent); one stalled at its start
    /// starts now, its time still counted from its arrival.
    fn revive(&mut self, f: u32) {
        self.stalled -= 1;
        if self.pflows[f as usize].nconn == 0 {
            let start = self.flows[f as usize].start;
            self.start_flow(f);
            self.flows[f as usize].start = start;
            return;
        }
        self.flows[f as usize].status = Status::Active;
        if !self.reroute_flow(f) {
            return;
        }
        let pf = &self.pflows[f as usize];
        for c in pf.conn0..pf.conn0 + pf.nconn {
            let cn = &mut self.conns[c as usize];
            if cn.rto_at == u64::MAX {
                self.pump(c);
            } else {
                // its timer ran out while stalled (and was let go): it fires now
                cn.rto_at = cn.rto_at.max(self.now);
                self.arm(c);
            }
        }
    }

    /// Packets lost to link failures so far (also counted as drops).
    pub fn failure_drops(&self) -> u64 {
        self.c.fail_drops
    }

    // ---------------------------------------------------------------- loop

    fn next_time(&self) -> Option<u64> {
        let a = self
            .wl
            .roots
            .get(self.next_root)
            .map(|&i| self.wl.flows[i as usize].arrival.0);
        let h = self.next_event().map(|e| (e >> 64) as u64);
        match (a, h) {
            (Some(a), Some(h)) => Some(a.min(h)),
            (a, h) => a.or(h),
        }
    }

    /// Process one event. Returns false when the run is over.
    pub fn step(&mut self) -> bool {
        if self.finished {
            return false;
        }
        // stalled flows may yet finish after a recovery
        let all_settled = self.done + self.stalled == self.flows.len() as u64
            && (self.stalled == 0 || self.recoveries_left == 0);
        let Some(next) = self.next_time().filter(|_| !all_settled) else {
            self.finished = true;
            return false;
        };
        // a controller tick comes before the events of its time (as in flow mode), and only
        // while there are events to come
        let tick = self.next_tick <= next;
        let t = if tick { self.next_tick } else { next };
        if t > self.stop {
            self.now = self.stop.max(self.now);
            self.util.reach(self.now);
            self.finished = true;
            return false;
        }
        if t != self.now {
            self.now = t;
            self.util.reach(t);
            if self.util.width != self.qwidth {
                self.merge_qseries();
            }
        }
        self.events += 1;
        if tick {
            self.tick();
            return true;
        }
        if let Some(&i) = self.wl.roots.get(self.next_root) {
            if self.wl.flows[i as usize].arrival.0 == t {
                self.next_root += 1;
                self.start_flow(i);
                return true;
            }
        }
        let e = self.next_event().expect("an event is due");
        if self.timers.peek().is_some_and(|r| r.0 == e) {
            self.timers.pop();
        } else {
            self.heap.pop();
        }
        let low = e as u64;
        let (kind, a) = (
            (low >> KIND_SHIFT) & 7,
            (low & ((1 << KIND_SHIFT) - 1)) as u32,
        );
        match kind {
            EV_DEPART => self.depart(a as usize),
            EV_WIRE => self.wire(a as usize),
            EV_RTO => self.timeout(a),
            EV_START => self.start_flow(a),
            EV_RETX => self.retransmit(a),
            EV_FAIL => self.set_links(a as usize, true),
            EV_RECOVER => {
                self.recoveries_left -= 1;
                self.set_links(a as usize, false);
            }
            _ => unreachable!("unknown event kind"),
        }
        true
    }

    /// The utilisation buckets doubled: merge the queue series likewise (max of pairs).
    fn merge_qseries(&mut self) {
        if self.qseries.is_empty() {
            self.qwidth = self.util.width;
            return;
        }
        while self.qwidth < self.util.width {
            for l in 0..self.ports.len() {
                let row = &mut self.qseries[l * QBUCKETS..(l + 1) * QBUCKETS];
                for k in 0..QBUCKETS / 2 {
                    row[k] = row[2 * k].max(row[2 * k + 1]);
                }
                row[QBUCKETS / 2..].iter_mut().for_each(|x| *x = 0);
            }
            self.qwidth *= 2;
        }
    }

    /// Current simulated time.
    pub fn now(&self) -> Time {
        Time(self.now)
    }

    /// Events processed so far (packet departures, wire arrivals, timers, flow starts).
    pub fn events(&self) -> u64 {
        self.events
    }

    /// Flows finished so far.
    pub fn flows_done(&self) -> u64 {
        self.done
    }

    /// Flows in the workload.
    pub fn flows_total(&self) -> u64 {
        self.flows.len() as u64
    }

    /// Backlog of every port in bytes (for tests).
    pub fn backlogs(&self) -> impl Iterator<Item = u64> + '_ {
        self.ports.iter().map(|p| p.bytes)
    }

    /// Invariants (for tests): every port's backlog is the sum of its packets and within its
    /// buffer; shared buffers hold their ports' backlogs.
    pub fn invariant_violations(&self) -> Vec<String> {
        let mut v = Vec::new();
        let mut used = vec![0u64; self.buf_used.len()];
        for (l, p) in self.ports.iter().enumerate() {
            let sum: u64 =
                p.q.packets()
                    .chain(p.qa.packets())
                    .chain(p.busy.then_some(&p.serving))
                    .map(|&i| self.pool[i as usize].size as u64)
                    .sum();
            if sum != p.bytes {
                v.push(format!("port {l}: backlog {} != packets {sum}", p.bytes));
            }
            if p.buf == NO_BUF && p.bytes > p.cap {
                v.push(format!("port {l}: backlog {} > buffer {}", p.bytes, p.cap));
            }
            if p.buf != NO_BUF {
                used[p.buf as usize] += p.bytes;
            }
        }
        if let Some((total, _)) = self.cfg.shared {
            for (n, &u) in used.iter().enumerate() {
                if u != self.buf_used[n] || u > total {
                    v.push(format!(
                        "switch {n}: shared buffer {u} (kept {})",
                        self.buf_used[n]
                    ));
                }
            }
        }
        v
    }

    /// Close the series and fill in what the report reads of unfinished flows.
    pub fn close(&mut self) {
        for f in 0..self.flows.len() {
            if self.flows[f].status == Status::Active {
                let size = self.wl.flows[f].bytes.0;
                let fl = &mut self.flows[f];
                fl.rem_bits = (size - self.pflows[f].delivered.min(size)) as f64 * 8.0;
                fl.rate = 0.0;
                fl.last = Time(self.now);
            }
        }
        let ports = &self.ports;
        self.util.close(
            self.now,
            |l| if ports[l].busy { ports[l].gbps } else { 0.0 },
        );
    }

    /// The run's outcome (the flow-mode report's input).
    pub fn outcome(&self) -> Outcome<'_> {
        Outcome {
            scenario: self.sc,
            net: self.net,
            workload: &self.wl,
            flows: &self.flows,
            now: Time(self.now),
            events: self.events,
            util: &self.util,
            controller_ticks: self.ctl.ticks(),
            rebinds: self.rebinds,
            detours: self.ctl.detours(),
            budget_bits: Some(&self.budget_bits),
            solver_rounds: 0,
            solver_subflows: 0,
            solver_rate_changes: 0,
        }
    }

    /// The `packet` object of the result.
    pub fn packet_report(&self) -> PacketReport {
        let mtu = self.cfg.mtu;
        let step = self.cfg.hist_step;
        let queues = self
            .ports
            .iter()
            .enumerate()
            .filter(|(_, p)| p.queued || p.drops > 0)
            .map(|(l, p)| {
                let link = &self.net.links[l];
                QueueReport {
                    link: self.net.link_names[l / 2].clone(),
                    from: self.net.name(link.from).to_string(),
                    to: self.net.name(link.to).to_string(),
                    max_bytes: p.max,
                    p99_bytes: p99(p) * step,
                    drops: p.drops,
                }
            })
            .collect();
        PacketReport {
            transport: match self.sc.engine.packet.transport {
                Transport::Newreno => "newreno",
                Transport::Dctcp => "dctcp",
                Transport::Mptcp => "mptcp",
            }
            .into(),
            mtu_bytes: mtu,
            packets_sent: self.c.sent,
            drops: self.c.drops,
            retransmissions: self.conns.iter().map(|c| c.retransmissions).sum(),
            timeouts: self.conns.iter().map(|c| c.timeouts).sum(),
            ecn_marks: self.c.ecn_marks,
            queues,
        }
    }

    /// The largest backlog per bucket of port `l`, for its first `n` buckets.
    pub fn queue_series(&self, l: usize, n: usize) -> Option<Vec<f64>> {
        if self.qseries.is_empty() {
            return None;
        }
        let row = &self.qseries[l * QBUCKETS..(l + 1) * QBUCKETS];
        Some(row[..n.min(QBUCKETS)].iter().map(|&x| x as f64).collect())
    }
}

impl Plant for PacketEngine<'_> {
    fn now(&self) -> Time {
        Time(self.now)
    }

    fn active_flows(&self) -> impl Iterator<Item = ActiveFlow<'_>> {
        self.flows
            .iter()
            .enumerate()
            .filter(|(_, fl)| fl.status == Status::Active)
            .map(move |(f, fl)| {
                let spec = &self.wl.flows[f];
                let pf = &self.pflows[f];
                let conns = &self.conns[pf.conn0 as usize..(pf.conn0 + pf.nconn) as usize];
                let acked: u64 = conns.iter().map(|c| c.una).sum();
                let (off, len) = self.conn_path[pf.conn0 as usize];
                ActiveFlow {
                    id: f as u32,
                    src: spec.src,
                    dst: spec.dst,
                    path: Some(&self.paths[off as usize..off as usize + len as usize]),
                    remaining_bits: spec.bytes.0.saturating_sub(acked) as f64 * 8.0,
                    binding: fl.binding,
                }
            })
    }

    fn carried_bits(&self, l: LinkId) -> f64 {
        match l.idx().checked_sub(self.net.links.len()) {
            Some(v) => self.budget_bits[v],
            None => self.util.total_bits(l.idx()),
        }
    }

    fn router(&mut self) -> &mut Router {
        &mut self.router
    }

    /// Flow mode caps a detour's traffic with a virtual link for the forwarding servers'
    /// budget; in packet mode a detour's packets cross the forwarding servers' real links and
    /// queues, which is what the budget stands for: nothing more to enforce.
    fn set_detour_cap(&mut self, _tor: NodeId, _side: Side, _gbps: f64) {}

    fn reroute_detour(&mut self, f: u32, leg: &DetourLeg) -> bool {
        let spec = &self.wl.flows[f as usize];
        let ctx = RouteCtx {
            net: self.net,
            up: &self.up,
            seed: self.sc.engine.seed,
        };
        match self.router.route_leg(&ctx, f, spec.src, spec.dst, leg) {
            Some(route) => self.set_pending(f, route),
            None => false,
        }
    }

    fn reroute(&mut self, f: u32, bound: Option<Binding>) {
        let spec = &self.wl.flows[f as usize];
        let (src, dst) = (spec.src, spec.dst);
        let ctx = RouteCtx {
            net: self.net,
            up: &self.up,
            seed: self.sc.engine.seed,
        };
        let route = match bound {
            Some(b) => self.router.route_bound(&ctx, f, src, dst, b),
            None => self.router.route(&ctx, f, src, dst),
        };
        self.set_pending(f, route);
    }
}

/// The index of a route's heaviest path (the first of equals): a single-path flow's.
fn heaviest(route: &Route) -> usize {
    route
        .paths
        .iter()
        .enumerate()
        .max_by(|a, b| a.1 .1.total_cmp(&b.1 .1).then(b.0.cmp(&a.0)))
        .map_or(0, |(k, _)| k)
}

/// When a timer with deadline `deadline`, found expired by the scan at `now` (every `period`),
/// retransmits: htsim's scan backs the timer off at once and retransmits a little later, by
/// (period - lateness) / 200, the lateness halved until it is no more than the period (htsim's
/// way of spreading restarts that one scan would otherwise synchronise).
fn scan_retransmit_at(now: u64, deadline: u64, period: u64) -> u64 {
    let mut late = now - deadline;
    while late > period {
        late >>= 1;
    }
    now + (period - late) / 200
}

/// 99th percentile (nearest rank) of the backlog arriving packets found, in histogram bins.
fn p99(p: &Port) -> u64 {
    if p.arrivals == 0 {
        return 0;
    }
    let rank = (0.99 * p.arrivals as f64).ceil() as u64;
    let queued: u64 = p.hist.iter().map(|&x| x as u64).sum();
    let mut seen = p.arrivals - queued; // arrivals that found the port empty
    if seen >= rank {
        return 0;
    }
    for (k, &x) in p.hist.iter().enumerate() {
        seen += x as u64;
        if seen >= rank {
            return k as u64;
        }
    }
    p.hist.len() as u64
}

#[cfg(test)]
mod tests {
    use super::scan_retransmit_at;

    #[test]
    fn a_scanned_timeout_retransmits_by_htsims_offset() {
        let ms = 1_000_000_000;
        // deadline 250.012345678 ms, scan at 260 ms: 9.987654322 ms late, so
        // (10 ms - 9.987654322 ms) / 200 = 61,728.39 ps, truncated
        assert_eq!(
            scan_retransmit_at(260 * ms, 250_012_345_678, 10 * ms),
            260 * ms + 61_728
        );
        // 25 ms late halves to 12.5 and 6.25 ms: (10 - 6.25) ms / 200 = 18.75 us
        assert_eq!(
            scan_retransmit_at(35 * ms, 10 * ms, 10 * ms),
            35 * ms + 18_750_000
        );
    }
}
