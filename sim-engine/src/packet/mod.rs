//! Packet mode: a packet-level simulation of the same scenario (links with rate and propagation
//! delay, per-output-port FIFO queues with drop-tail, store-and-forward serialisation, a per-hop
//! switching latency, TCP at the servers; see [`tcp`]). With htsim's settings and order of
//! same-time events it steps through the same events as htsim (sim-engine/README.md).
//!
//! [`PacketEngine`] implements the flow engine's [`Engine`] and runs in the same loop; its parts
//! split as htsim's do:
//! * [`events`]: the event core (htsim's `EventList`): integer picoseconds, binary heaps of
//!   `u128` keys, same-time events in a seeded random or in scheduling order;
//! * [`ports`]: ports and queues (htsim's `Queue` and `Pipe`): the packet pool, drop-tail per
//!   port or shared buffers, ECN marks, serialisation and wires, a port's backlog statistics;
//! * transport: [`tcp`] (NewReno, DCTCP, LIA as pure per-connection state) and [`nic`] (a
//!   server's queues), glued to the packets by [`host`] (sending, delivery and ACKs, timers)
//!   and [`flows`] (a flow's start onto its connections and paths);
//! * [`control`]: the controller glue (failures and recoveries, the adaptive and detour
//!   controllers through [`Plant`](crate::engine::plant::Plant), rebinding at flowlet gaps).
//!
//! Fast by construction, after htsim: few pending events per link (a port schedules only its
//! head-of-line departure, a wire only its first arrival) and at most one timer event per
//! connection; packets in a pool with a free list, source-routed; ports, connections and paths
//! are flat arrays indexed by link, connection and flow ids; no hash map anywhere (a fair NIC
//! keeps sorted vectors of its connections, [`nic`]).
//!
//! Paths are the flow mode's: the same [`Router`] with the same flow index and seed, so per-flow
//! ECMP puts a flow on the same path in both modes.

mod config;
mod control;
mod events;
mod flows;
mod host;
pub mod nic;
mod ports;
pub mod tcp;

use crate::engine::control::Controller;
use crate::engine::links::LinkState;
use crate::engine::util::LinkUtil;
use crate::engine::{last_arrival, stop_time, Engine, FlowSt, Outcome, Status};
use crate::network::Network;
use crate::report::{PacketReport, QueueReport, Report};
use crate::routing::{Route, Router};
use crate::scenario::{HostQueue, PacketSpec, RoutingSpec, Scenario, Transport};
use crate::units::{LinkId, Time};
use crate::workload::{Release, Workload};
use config::Cfg;
use events::{EventList, EV_DEPART, EV_FAIL, EV_RECOVER, EV_RETX, EV_RTO, EV_START, EV_WIRE};
use ports::{Pkt, Port, QueueSeries, NO_BUF};
use tcp::{Conn, Seg};

/// One output port of a run and the run's transport totals (see [`PacketEngine::port_record`]).
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct PortRecord {
    pub max_bytes: u64,
    pub p99_bytes: u64,
    pub drops: u64,
    /// Width of a bucket of `queue_max_bytes`, ps.
    pub queue_width_ps: u64,
    /// The largest backlog per bucket (up to the last non-empty one).
    pub queue_max_bytes: Vec<f64>,
    pub packets_sent: u64,
    pub retransmissions: u64,
    pub timeouts: u64,
    pub ecn_marks: u64,
}

/// A connection whose path counts against no detour budget.
const NO_BUDGET: u32 = u32::MAX;

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

impl PFlow {
    /// A flow that has not started (no connection yet).
    fn waiting() -> PFlow {
        PFlow {
            conn0: u32::MAX,
            nconn: 0,
            assigned: 0,
            delivered: 0,
        }
    }
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

/// The packet engine: step it through [`Engine`] until `step` returns false.
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
    links: LinkState,
    /// Recoveries still to come: while any is, stalled flows may yet finish.
    recoveries_left: u32,
    /// Flows stalled for want of a path, revived at a recovery.
    stalled_flows: Vec<u32>,
    ev: EventList,
    next_root: usize,
    now: u64,
    stop: u64,
    events: u64,
    done: u64,
    stalled: u64,
    util: LinkUtil,
    qseries: QueueSeries,
    out: Vec<Seg>,
    /// Adaptive/detour routing: the flowlet gap (ps; 0: no rebinding), each connection's last
    /// send, rebinds made.
    flowlet: u64,
    last_send: Vec<u64>,
    rebinds: u64,
    /// The routing controller of adaptive and detour routing (the flow mode's, through
    /// [`Plant`](crate::engine::plant::Plant)), its next tick (ps; `u64::MAX`: none), and the
    /// moves it decided per flow, taken at the flow's next flowlet gap.
    ctl: Controller,
    next_tick: u64,
    pending: Vec<Option<Box<Route>>>,
    /// Detour routing: the budget (virtual link) each connection's path counts against, and
    /// the data bits each budget carried (flow mode's virtual links, counted here).
    conn_budget: Vec<u32>,
    budget_bits: Vec<f64>,
    c: Counters,
    finished: bool,
    /// Decomposed mode's link simulations: each flow's path, given (empty: the router's).
    fixed: Vec<Vec<LinkId>>,
    /// Starts flows at other flows' ends (shared with flow mode).
    release: Release,
    /// Scratch: the flows a delivery starts.
    starts: Vec<(Time, u32)>,
}

impl<'a> PacketEngine<'a> {
    pub fn new(sc: &'a Scenario, net: &'a Network) -> PacketEngine<'a> {
        let wl = crate::workload::generate(&sc.workload, net, sc.engine.seed);
        PacketEngine::with_workload(sc, net, wl, Vec::new())
    }

    /// An engine for the given flows, each on its path in `fixed` (empty: routed as usual).
    pub(crate) fn with_workload(
        sc: &'a Scenario,
        net: &'a Network,
        wl: Workload,
        fixed: Vec<Vec<LinkId>>,
    ) -> PacketEngine<'a> {
        let p = &sc.engine.packet;
        let cfg = Cfg::new(p);
        let n_flows = wl.flows.len();
        let nl = net.links.len();
        let util = LinkUtil::with_series(nl, last_arrival(&wl), sc.engine.link_series);
        let flowlet = match &sc.routing {
            RoutingSpec::Adaptive(_) | RoutingSpec::LeastWork(_) | RoutingSpec::Detour(_) => {
                p.flowlet_gap_us
            }
            _ => 0.0,
        };
        let router = Router::new(&sc.routing, net);
        let ctl = Controller::new(&sc.routing, net, &router);
        let next_tick = ctl.period().map_or(u64::MAX, |t| t.0);
        let per_node = |yes: bool| if yes { net.nodes.len() } else { 0 };
        let mut e = PacketEngine {
            sc,
            net,
            cfg,
            ports: ports(net, p, &cfg),
            buf_used: vec![0; per_node(cfg.shared.is_some())],
            pool: Vec::new(),
            free: Vec::new(),
            conns: Vec::with_capacity(n_flows),
            conn_flow: Vec::with_capacity(n_flows),
            conn_path: Vec::with_capacity(n_flows),
            conn_spray: Vec::with_capacity(n_flows),
            pflows: vec![PFlow::waiting(); n_flows],
            flows: (0..n_flows).map(|_| FlowSt::waiting()).collect(),
            wl,
            paths: Vec::new(),
            router,
            links: LinkState::new(nl),
            recoveries_left: 0,
            stalled_flows: Vec::new(),
            ev: EventList::new(sc.engine.seed, cfg.scheduled),
            next_root: 0,
            now: 0,
            stop: stop_time(sc).0,
            events: 0,
            done: 0,
            stalled: 0,
            qseries: QueueSeries::new(nl, sc.engine.link_series, util.width),
            util,
            out: Vec::new(),
            flowlet: (flowlet * 1e6).round() as u64,
            last_send: Vec::with_capacity(n_flows),
            rebinds: 0,
            pending: if next_tick == u64::MAX {
                Vec::new()
            } else {
                (0..n_flows).map(|_| None).collect()
            },
            conn_budget: Vec::new(),
            budget_bits: vec![0.0; 2 * per_node(ctl.has_detours())],
            ctl,
            next_tick,
            c: Counters::default(),
            finished: false,
            fixed,
            release: Release::default(),
            starts: Vec::new(),
        };
        e.release = Release::new(&e.wl);
        for (i, f) in net.failures.iter().enumerate() {
            e.ev.push(f.at.0, EV_FAIL, i as u32);
            if let Some(r) = f.recover_at {
                e.ev.push(r.0, EV_RECOVER, i as u32);
                e.recoveries_left += 1;
            }
        }
        e
    }

    /// The time of the next flow arrival or queued event (controller ticks aside).
    fn next_queued(&self) -> Option<u64> {
        let a = self
            .wl
            .roots
            .get(self.next_root)
            .map(|&i| self.wl.flows[i as usize].arrival.0);
        let h = self.ev.next().map(events::time_of);
        match (a, h) {
            (Some(a), Some(h)) => Some(a.min(h)),
            (a, h) => a.or(h),
        }
    }

    /// Every flow's state (decomposed mode reads its link simulations' flows).
    pub(crate) fn flow_states(&self) -> &[FlowSt] {
        &self.flows
    }

    /// What the run saw at directed link `l`'s output port, and the run's totals (decomposed
    /// mode keeps these of each simulated link).
    pub(crate) fn port_record(&self, l: usize) -> PortRecord {
        let p = &self.ports[l];
        let mut series = self
            .qseries
            .of(l, crate::engine::util::MAX_BUCKETS)
            .unwrap_or_default();
        while series.last() == Some(&0.0) {
            series.pop();
        }
        PortRecord {
            max_bytes: p.max,
            p99_bytes: p.p99() * self.cfg.hist_step,
            drops: p.drops,
            queue_width_ps: self.qseries.width,
            queue_max_bytes: series,
            packets_sent: self.c.sent,
            retransmissions: self.conns.iter().map(|c| c.retransmissions).sum(),
            timeouts: self.conns.iter().map(|c| c.timeouts).sum(),
            ecn_marks: self.c.ecn_marks,
        }
    }

    /// Packets lost to link failures so far (also counted as drops).
    pub fn failure_drops(&self) -> u64 {
        self.c.fail_drops
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

    /// The result of the run (after [`Engine::close`]): the flow-mode report of the outcome with
    /// packet mode's model and note, every link's queue series and the `packet` object.
    pub fn report(&self) -> Report {
        let mut rep = crate::report::build(&self.outcome());
        rep.model = "packet".into();
        rep.note = crate::report::PACKET_NOTE.into();
        rep.links.set_queue_series(|l, n| self.qseries.of(l, n));
        rep.packet = Some(self.packet_report());
        rep
    }

    /// The `packet` object of the result.
    fn packet_report(&self) -> PacketReport {
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
                    p99_bytes: p.p99() * step,
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
}

impl Engine for PacketEngine<'_> {
    // a packet event is ~100x cheaper than a flow-mode step: look at the clock less often
    const LOOK_EVERY: u64 = 65_536;

    /// The next event's time, a controller tick's included.
    fn next_time(&self) -> Option<Time> {
        if self.finished {
            return None;
        }
        self.next_queued().map(|n| Time(n.min(self.next_tick)))
    }

    /// Process one event. Returns false when the run is over.
    fn step(&mut self) -> bool {
        if self.finished {
            return false;
        }
        // stalled flows may yet finish after a recovery
        let all_settled = self.done + self.stalled == self.flows.len() as u64
            && (self.stalled == 0 || self.recoveries_left == 0);
        let Some(next) = self.next_queued().filter(|_| !all_settled) else {
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
            if self.util.width != self.qseries.width {
                self.qseries.widen(self.util.width);
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
        let e = self.ev.next().expect("an event is due");
        let (kind, a) = self.ev.pop(e);
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

    /// The run's outcome (the flow-mode report's input).
    fn outcome(&self) -> Outcome<'_> {
        Outcome {
            scenario: self.sc,
            net: self.net,
            workload: &self.wl,
            flows: &self.flows,
            now: Time(self.now),
            events: self.events,
            flows_done: self.done,
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

    /// Close the series and fill in what the report reads of unfinished flows.
    fn close(&mut self) {
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
}

/// The output ports, one per directed link: a server's NIC (fair or first-come, its own buffer
/// or unbounded) or a switch port (per-port or shared buffer).
fn ports(net: &Network, p: &PacketSpec, cfg: &Cfg) -> Vec<Port> {
    let sw_ps = p.switch_latency_ns * 1000;
    net.links
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
            let cap = match cfg.shared {
                Some((b, _)) if buf != NO_BUF => b,
                _ if host => p.host_buffer_bytes.unwrap_or(u64::MAX),
                _ => p.buffer_bytes,
            };
            let delay = if to_switch { sw_ps } else { 0 };
            Port::new(l, (host, fair), cap, buf, delay)
        })
        .collect()
}
