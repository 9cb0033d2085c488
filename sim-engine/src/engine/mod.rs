//! The flow-mode (fluid) event core.
//!
//! * Time is integer picoseconds; the event queue is a 4-ary heap keyed by `(Time, kind,
//!   subject)`, packed in one integer (link state changes first at a timestamp, then
//!   completions, controller ticks and starts, each by subject: a fixed, deterministic order).
//! * Each flow keeps `(remaining bits, time of last update, rate)`; progress is brought up to date
//!   only when the flow's rate changes (no "advance every flow" loop).
//! * A flow has one valid pending completion event, the one at its `queued` time; any other is
//!   ignored when popped (lazy invalidation). A completion that moves later keeps its event,
//!   which re-queues itself when popped early.
//! * All events of one timestamp are applied first, then the rates are re-solved once, and only
//!   around the links whose flow set changed (see [`solver`]).
//! * The controller ([`control`]) sees the engine only through [`plant::Plant`]; the report is
//!   built from [`FlowEngine::outcome`], a read-only view. Nothing below this file imports it.

mod cache_hint;
pub mod control;
mod event_queue;
mod latency;
mod level_queue;
pub mod links;
pub mod plant;
mod route_ahead;
pub mod solver;
mod sub_lists;
pub mod util;
mod zeroed;

use crate::network::Network;
use crate::routing::detour::{budget_link, DetourLeg, Side};
use crate::routing::{Binding, RouteCtx, Router};
use crate::scenario::{RoutingSpec, Scenario};
use crate::units::{LinkId, NodeId, Time};
use crate::workload::{Release, Workload};
use cache_hint::prefetch;
use control::detour::ActiveDetour;
use control::Controller;
use event_queue::EventQueue;
use latency::LatencyModel;
use links::LinkState;
use plant::{ActiveFlow, Plant};
use route_ahead::RouteFeed;
use solver::{FlowNet, Solver};
use util::LinkUtil;

/// A simulation engine that can be stepped: flow mode ([`FlowEngine`]) and packet mode
/// (`packet::PacketEngine`). Both run through one loop (`crate::run`), which reads the progress
/// accessors below (all read from [`Engine::outcome`]) and builds the report from the outcome.
pub trait Engine {
    /// Steps between two looks at the run limits and the progress clock (a look reads the wall
    /// clock: packet events are ~100x cheaper than flow-mode steps, so packet mode looks less often).
    const LOOK_EVERY: u64;
    /// Process the next events (flow mode: every event of the next timestamp; packet mode: one
    /// event). Returns false when the run is over.
    fn step(&mut self) -> bool;
    /// Step until simulated time `t` (inclusive) or the end of the run.
    fn step_until(&mut self, t: Time) -> bool {
        loop {
            match self.next_time() {
                Some(n) if n <= t => {
                    if !self.step() {
                        return false;
                    }
                }
                Some(_) => return true,
                None => return false,
            }
        }
    }
    /// Time of the next event, if any.
    fn next_time(&self) -> Option<Time>;
    /// The run's outcome so far (the report's input; call [`Engine::close`] first at the end).
    fn outcome(&self) -> Outcome<'_>;
    /// At the end of the run: close the link series and settle what the report reads.
    fn close(&mut self);
    /// After the run has ended: why its result must not be reported (flows left with nothing
    /// to finish them), or `None`.
    fn stuck_flows(&self) -> Option<String> {
        None
    }
    /// Current simulated time.
    fn now(&self) -> Time {
        self.outcome().now
    }
    /// Events processed so far.
    fn events(&self) -> u64 {
        self.outcome().events
    }
    /// Flows finished so far.
    fn flows_done(&self) -> u64 {
        self.outcome().flows_done
    }
    /// Flows in the workload.
    fn flows_total(&self) -> u64 {
        self.outcome().flows.len() as u64
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    Waiting,
    Active,
    Stalled,
    Done,
}

/// Per-flow state. The fields every rate change reads share the first cache line.
#[derive(Clone, Debug)]
#[repr(C, align(64))]
pub struct FlowSt {
    pub rem_bits: f64,
    pub last: Time,
    /// Sum of the subflow rates, Gb/s.
    pub rate: f64,
    /// When the transfer will end at the current rate (MAX: never).
    pub due: Time,
    /// Time of the pending completion event that is still valid (MAX: none).
    pub queued: Time,
    /// Timestamp (batch) in which the flow's rate or subflows last changed.
    pub(crate) touched: u32,
    pub status: Status,
    pub stalled_once: bool,
    pub subs: SubIds,
    pub extra: Time,
    pub reroutes: u32,
    pub start: Time,
    /// End of the fluid transfer.
    pub done_at: Time,
    /// Completion including latency terms.
    pub fct_end: Time,
    pub ideal_s: f64,
    pub binding: Option<Binding>,
}

impl FlowSt {
    /// A flow that has not arrived yet.
    pub fn waiting() -> FlowSt {
        FlowSt {
            rem_bits: 0.0,
            last: Time::ZERO,
            rate: 0.0,
            due: Time::MAX,
            queued: Time::MAX,
            touched: 0,
            status: Status::Waiting,
            stalled_once: false,
            subs: SubIds::default(),
            extra: Time::ZERO,
            reroutes: 0,
            start: Time::ZERO,
            done_at: Time::ZERO,
            fct_end: Time::ZERO,
            ideal_s: 0.0,
            binding: None,
        }
    }
}

/// A flow's subflow ids: the first in place (most routers give a flow one path), any others in a
/// vector, so that a single-path flow allocates nothing.
#[derive(Clone, Debug, Default)]
#[repr(C)] // (the count and first id in the flow's first cache line)
pub struct SubIds {
    len: u32,
    first: u32,
    rest: Vec<u32>,
}

impl SubIds {
    pub fn push(&mut self, s: u32) {
        if self.len == 0 {
            self.first = s;
        } else {
            self.rest.push(s);
        }
        self.len += 1;
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    pub fn first(&self) -> Option<u32> {
        (self.len > 0).then_some(self.first)
    }

    pub fn iter(&self) -> impl Iterator<Item = u32> + '_ {
        self.first().into_iter().chain(self.rest.iter().copied())
    }
}

const EV_FAIL: u64 = 0;
const EV_RECOVER: u64 = 1;
const EV_COMPLETE: u64 = 2;
const EV_TICK: u64 = 3;
const EV_START: u64 = 4;
/// Fewest root flows for which [`FlowEngine::route_ahead`] starts a thread.
const ROUTE_AHEAD_MIN: usize = 1024;

/// When the scenario stops the run (`MAX`: at the end of its work).
pub fn stop_time(sc: &Scenario) -> Time {
    sc.engine
        .stop_time_s
        .map(Time::from_secs_f64)
        .unwrap_or(Time::MAX)
}

/// The last root flow's arrival, ps: how long the link series must reach at first.
pub fn last_arrival(wl: &Workload) -> u64 {
    wl.roots
        .last()
        .map_or(0, |&f| wl.flows[f as usize].arrival.0)
}

/// Fluid max-min flow engine. Its state is private: the controller acts on it through
/// [`Plant`], the report reads [`FlowEngine::outcome`].
pub struct FlowEngine<'a> {
    sc: &'a Scenario,
    net: &'a Network,
    wl: Workload,
    router: Router,
    links: LinkState,
    fnet: FlowNet,
    solver: Solver,
    util: LinkUtil,
    flows: Vec<FlowSt>,
    /// Events, each `time (ps) << 64 | kind << 32 | subject`.
    heap: EventQueue,
    /// Pending events other than controller ticks (stale ones included until popped).
    pending: u64,
    next_root: usize,
    now: Time,
    stop: Time,
    events: u64,
    done: u64,
    stalled: Vec<u32>,
    seeds: Vec<LinkId>,
    seed_subs: Vec<u32>,
    touched: Vec<u32>,
    batch: u32,
    latency: LatencyModel,
    /// Routes of upcoming arrivals from a helper thread (see [`route_ahead`]), while it runs.
    feed: Option<RouteFeed>,
    /// Flows started on a route from the helper thread.
    routed_ahead: u64,
    ctl: Controller,
    /// A source ToR imposed on the next routing of flow `.0` (the controller's rebinding).
    force: Option<(u32, Binding)>,
    nominal_cap: Vec<f64>,
    /// Set when the run is over (stop time reached, no more events).
    finished: bool,
    /// Set when the run ended at the scenario's stop time (unfinished flows are then expected).
    stopped: bool,
    /// Starts flows at other flows' ends.
    release: Release,
    /// Scratch: the flows a completion starts.
    starts: Vec<(Time, u32)>,
}

/// A read-only view of a run's outcome: what the report is built from.
#[derive(Clone, Copy)]
pub struct Outcome<'e> {
    pub scenario: &'e Scenario,
    pub net: &'e Network,
    pub workload: &'e Workload,
    /// Every flow's state, in workload order.
    pub flows: &'e [FlowSt],
    /// Simulated time reached.
    pub now: Time,
    /// Events processed.
    pub events: u64,
    /// Flows finished.
    pub flows_done: u64,
    /// Per-link carried bits and utilisation series.
    pub util: &'e LinkUtil,
    /// Controller periods run.
    pub controller_ticks: u64,
    /// Flows the adaptive controller moved to another source ToR.
    pub rebinds: u64,
    /// Detours set up (detour routing).
    pub detours: &'e [ActiveDetour],
    /// Bits each detour budget carried (one per node and side after the real links), when the
    /// engine counts them apart (packet mode; flow mode has them in `util`).
    pub budget_bits: Option<&'e [f64]>,
    /// Water-filling rounds.
    pub solver_rounds: u64,
    /// Subflows water-filled, summed over rounds.
    pub solver_subflows: u64,
    /// Subflow rate changes produced.
    pub solver_rate_changes: u64,
}

impl<'a> FlowEngine<'a> {
    pub fn new(sc: &'a Scenario, net: &'a Network) -> FlowEngine<'a> {
        let wl = crate::workload::generate(&sc.workload, net, sc.engine.seed);
        // payload capacity: the goodput factor takes protocol overhead off every link
        let g = sc.engine.goodput_factor;
        let mut caps: Vec<f64> = net.links.iter().map(|l| l.gbps.0 * g).collect();
        let nl = caps.len();
        let router = Router::new(&sc.routing, net);
        let ctl = Controller::new(&sc.routing, net, &router);
        if ctl.has_detours() {
            // two virtual links per node: a remote ToR's detour budgets, send and receive side
            caps.extend(std::iter::repeat_n(0.0, 2 * net.nodes.len()));
        }
        let nv = caps.len();
        let n_flows = wl.flows.len();
        let horizon = last_arrival(&wl);
        let mut e = FlowEngine {
            sc,
            net,
            router,
            links: LinkState::new(nl),
            fnet: FlowNet::new(caps.clone()),
            solver: Solver::new(nv),
            util: LinkUtil::with_series(nv, horizon, sc.engine.link_series),
            flows: (0..n_flows).map(|_| FlowSt::waiting()).collect(),
            wl,
            heap: EventQueue::default(),
            pending: 0,
            next_root: 0,
            now: Time::ZERO,
            stop: stop_time(sc),
            events: 0,
            done: 0,
            stalled: Vec::new(),
            seeds: Vec::new(),
            seed_subs: Vec::new(),
            touched: Vec::new(),
            batch: 0,
            latency: LatencyModel::new(net, &sc.engine.latency),
            feed: None,
            routed_ahead: 0,
            ctl,
            force: None,
            nominal_cap: caps,
            finished: false,
            stopped: false,
            release: Release::default(),
            starts: Vec::new(),
        };
        e.release = Release::new(&e.wl);
        for (i, f) in net.failures.iter().enumerate() {
            e.push(f.at, EV_FAIL, i as u32);
            if let Some(r) = f.recover_at {
                e.push(r, EV_RECOVER, i as u32);
            }
        }
        if let Some(p) = e.ctl.period() {
            e.push(p, EV_TICK, 0);
        }
        e
    }

    #[inline]
    fn push(&mut self, t: Time, kind: u64, subject: u32) {
        if kind != EV_TICK {
            self.pending += 1;
        }
        self.heap
            .push((t.0 as u128) << 64 | (kind as u128) << 32 | subject as u128);
    }

    /// Can anything still change? (arrivals or non-tick events pending)
    fn work_left(&self) -> bool {
        self.next_root < self.wl.roots.len() || self.pending > 0
    }

    pub fn ctx(&self) -> RouteCtx<'_> {
        self.links.ctx(self.net, self.sc.engine.seed)
    }

    /// Bring a flow's progress up to `now`.
    #[inline]
    fn advance(&mut self, f: u32) {
        let fl = &mut self.flows[f as usize];
        let dt = self.now.0 - fl.last.0;
        if dt > 0 {
            fl.rem_bits -= fl.rate * 1e-3 * dt as f64;
            fl.last = self.now;
        }
    }

    /// Change a subflow's rate, keeping link loads, link integrals and the flow's rate in step.
    fn set_sub_rate(&mut self, s: u32, new: f64) {
        if self.fnet.subs[s as usize].rate == new {
            return;
        }
        let util = &mut self.util;
        let old = self.fnet.set_rate(s as usize, new, |l, before, after| {
            util.change(l, before, after)
        });
        let f = self.fnet.subs[s as usize].flow;
        self.flows[f as usize].rate += new - old;
    }

    fn touch(&mut self, f: u32) {
        if self.flows[f as usize].touched != self.batch {
            self.flows[f as usize].touched = self.batch;
            self.touched.push(f);
        }
    }

    /// Remove every subflow of a flow (its progress must be up to date).
    fn detach(&mut self, f: u32) {
        let subs = std::mem::take(&mut self.flows[f as usize].subs);
        for s in subs.iter() {
            // Only links that were saturated can give the freed capacity to someone else.
            let fnet = &self.fnet;
            for &l in fnet.path_of(s as usize) {
                let li = l.idx();
                if fnet.saturated(li) {
                    self.seeds.push(l);
                }
            }
            self.set_sub_rate(s, 0.0);
            let util = &mut self.util;
            self.fnet
                .remove_sub(s, |l, before, after| util.change(l, before, after));
        }
        let fl = &mut self.flows[f as usize];
        fl.rate = 0.0;
        fl.due = Time::MAX;
        fl.queued = Time::MAX;
    }

    /// Route a flow (`new`: it starts now) and attach its subflows; returns false when no path
    /// exists.
    fn attach(&mut self, f: u32, new: bool) -> bool {
        let spec = &self.wl.flows[f as usize];
        let (src, dst) = (spec.src, spec.dst);
        self.router
            .note_size(self.flows[f as usize].rem_bits.max(0.0));
        let route = {
            let ctx = self.links.ctx(self.net, self.sc.engine.seed);
            match self.force {
                Some((g, b)) if g == f => self.router.route_bound(&ctx, f, src, dst, b),
                _ if new => self.router.route_new(&ctx, f, src, dst),
                _ => self.router.route(&ctx, f, src, dst),
            }
        };
        let paths = route.paths.iter().map(|(p, w)| (p.as_slice(), *w));
        self.attach_paths(f, paths, route.binding)
    }

    /// Attach a flow's subflows on `paths`; returns false when there are none.
    fn attach_paths<'p>(
        &mut self,
        f: u32,
        paths: impl Iterator<Item = (&'p [LinkId], f64)>,
        binding: Option<Binding>,
    ) -> bool {
        for (p, w) in paths {
            // A new subflow is always re-solved; its links matter only where they are saturated
            // (a slack link gives it room without taking anything from anyone).
            for &l in p {
                let li = l.idx();
                if self.fnet.saturated(li) {
                    self.seeds.push(l);
                }
            }
            let s = self.fnet.add_sub(f, p, w);
            self.seed_subs.push(s);
            self.flows[f as usize].subs.push(s);
        }
        if self.flows[f as usize].subs.is_empty() {
            return false;
        }
        self.flows[f as usize].binding = binding;
        self.touch(f);
        true
    }

    fn latency_terms(&self, f: u32) -> (Time, f64) {
        let spec = &self.wl.flows[f as usize];
        let paths = self.flows[f as usize]
            .subs
            .iter()
            .map(|s| self.fnet.path_of(s as usize));
        let terms = self
            .latency
            .terms(&self.nominal_cap, spec.bytes, spec.src, spec.dst, paths);
        self.per_step(f, terms)
    }

    /// Latency terms of a flow that stands for several steps (a pipelined ring phase): each
    /// step pays them.
    fn per_step(&self, f: u32, (extra, ideal_s): (Time, f64)) -> (Time, f64) {
        let k = self.wl.flows[f as usize].extra_steps as u64;
        if k == 0 {
            return (extra, ideal_s);
        }
        let more = Time(extra.0.saturating_mul(k));
        (extra.saturating_add(more), ideal_s + more.as_secs_f64())
    }

    fn start_flow(&mut self, f: u32) {
        let bits = self.wl.flows[f as usize].bytes.bits();
        {
            let fl = &mut self.flows[f as usize];
            fl.start = self.now;
            fl.last = self.now;
            fl.rem_bits = bits;
        }
        // a root flow routed ahead by the helper thread, or routed here
        let mut feed = self.feed.take();
        let attached = match feed.as_mut().and_then(|feed| feed.next_for(f)) {
            Some(routed) => {
                self.routed_ahead += 1;
                self.attach_paths(f, routed.paths(), routed.binding)
                    .then(|| self.per_step(f, (routed.extra, routed.ideal_s)))
            }
            None => self.attach(f, true).then(|| self.latency_terms(f)),
        };
        self.feed = feed;
        if let Some((extra, ideal)) = attached {
            let fl = &mut self.flows[f as usize];
            fl.status = Status::Active;
            fl.extra = extra;
            fl.ideal_s = ideal;
        } else {
            let fl = &mut self.flows[f as usize];
            fl.status = Status::Stalled;
            fl.stalled_once = true;
            fl.ideal_s = f64::NAN;
            self.stalled.push(f);
        }
    }

    fn complete(&mut self, f: u32) {
        self.advance(f);
        self.detach(f);
        let fl = &mut self.flows[f as usize];
        fl.status = Status::Done;
        fl.done_at = self.now;
        fl.fct_end = self.now.saturating_add(fl.extra);
        let end = fl.fct_end;
        self.done += 1;
        // flows waiting on this one (follow-ups, collective steps, training buckets)
        let mut starts = std::mem::take(&mut self.starts);
        self.release.done(&self.wl, f, end, &mut starts);
        for (t, g) in starts.drain(..) {
            self.push(t, EV_START, g);
        }
        self.starts = starts;
    }

    /// Re-route a flow (after a failure or a controller decision).
    fn reroute_flow(&mut self, f: u32) {
        self.advance(f);
        self.detach(f);
        self.touch(f);
        self.flows[f as usize].reroutes += 1;
        if !self.attach(f, false) {
            let fl = &mut self.flows[f as usize];
            fl.status = Status::Stalled;
            fl.stalled_once = true;
            self.stalled.push(f);
        }
    }

    fn set_links(&mut self, fi: usize, down: bool) {
        self.feed = None; // routes worked out ahead assumed every link up
        let mut affected = Vec::new();
        for d in self.links.set(&self.net.failures[fi].links, down) {
            for l in [2 * d, 2 * d + 1] {
                self.fnet
                    .set_cap(l, if down { 0.0 } else { self.nominal_cap[l] });
                self.seeds.push(LinkId(l as u32));
                if down {
                    affected.extend(
                        self.fnet
                            .subs_on(l)
                            .iter()
                            .map(|&s| self.fnet.subs[s as usize].flow),
                    );
                }
            }
        }
        self.router.invalidate();
        if down {
            affected.sort_unstable();
            affected.dedup();
            for f in affected {
                self.reroute_flow(f);
            }
        } else {
            let stalled = std::mem::take(&mut self.stalled);
            for f in stalled {
                if self.flows[f as usize].status != Status::Stalled {
                    continue;
                }
                self.advance(f);
                if self.attach(f, false) {
                    self.flows[f as usize].status = Status::Active;
                    if self.flows[f as usize].ideal_s.is_nan() {
                        let (extra, ideal) = self.latency_terms(f);
                        self.flows[f as usize].extra = extra;
                        self.flows[f as usize].ideal_s = ideal;
                    }
                } else {
                    self.stalled.push(f);
                }
            }
        }
    }

    fn commit(&mut self) {
        // a subflow added and removed within the same timestamp is gone
        let fnet = &self.fnet;
        self.seed_subs.retain(|&s| fnet.subs[s as usize].live);
        if !self.seeds.is_empty() || !self.seed_subs.is_empty() {
            let seeds = std::mem::take(&mut self.seeds);
            let seed_subs = std::mem::take(&mut self.seed_subs);
            self.solver.solve_with(&self.fnet, &seeds, &seed_subs);
            self.seeds = seeds;
            self.seeds.clear();
            self.seed_subs = seed_subs;
            self.seed_subs.clear();
            let changed = std::mem::take(&mut self.solver.changed);
            // the flows whose rates change are scattered over the flow table, and their links'
            // utilisation records over a table the solver never reads: ask for them all
            for &(s, _) in &changed {
                prefetch(&self.flows[self.fnet.subs[s as usize].flow as usize]);
                for &l in self.fnet.path_of(s as usize) {
                    self.util.prefetch(l.idx());
                }
            }
            for &(s, r) in &changed {
                // progress up to now at the old rate (a no-op for a flow's later subflows)
                let f = self.fnet.subs[s as usize].flow;
                self.advance(f);
                self.touch(f);
                self.set_sub_rate(s, r);
            }
            self.solver.changed = changed;
        }
        let touched = std::mem::take(&mut self.touched);
        for &f in &touched {
            let fl = &mut self.flows[f as usize];
            if fl.status != Status::Active {
                continue;
            }
            fl.due = if fl.rate > 0.0 {
                let dt = (fl.rem_bits.max(0.0) / (fl.rate * 1e-3)).ceil();
                if dt >= (u64::MAX - self.now.0) as f64 {
                    Time::MAX
                } else {
                    Time(self.now.0 + dt as u64)
                }
            } else {
                Time::MAX
            };
            // A completion that moves later keeps its queued event, which re-queues itself when
            // popped early; only a completion that moves earlier needs a new event.
            if fl.due < fl.queued {
                fl.queued = fl.due;
                let t = fl.due;
                self.push(t, EV_COMPLETE, f);
            }
        }
        self.touched = touched;
        self.touched.clear();
    }

    /// Route upcoming arrivals on a helper thread of `scope` while every link is up, when the
    /// router has no controller and there are enough arrivals to be worth a thread.
    pub fn route_ahead<'scope>(&mut self, scope: &'scope std::thread::Scope<'scope, '_>)
    where
        'a: 'scope,
    {
        let pure = matches!(
            self.sc.routing,
            RoutingSpec::Ecmp | RoutingSpec::Vlb | RoutingSpec::Grin(_)
        );
        let started = self.next_root > 0 || self.links.up.iter().any(|&u| !u);
        if !pure || started || self.wl.roots.len() < ROUTE_AHEAD_MIN {
            return;
        }
        let jobs = self
            .wl
            .roots
            .iter()
            .map(|&f| {
                let spec = &self.wl.flows[f as usize];
                (f, spec.src, spec.dst, spec.bytes)
            })
            .collect();
        self.feed = Some(route_ahead::spawn(
            scope,
            self.net,
            Router::new(&self.sc.routing, self.net),
            self.latency.clone(),
            self.nominal_cap.clone(),
            self.sc.engine.seed,
            jobs,
        ));
    }

    /// Flows started on a route worked out by the helper thread.
    pub fn routed_ahead(&self) -> u64 {
        self.routed_ahead
    }

    /// The subflows and links the solver works on (for tests that re-solve from scratch).
    pub fn flow_net(&self) -> &FlowNet {
        &self.fnet
    }

    /// A directed link as the report names it, or a detour budget (virtual link) by its ToR.
    fn link_label(&self, l: LinkId) -> String {
        let n = self.net.links.len();
        if l.idx() < n {
            let k = self.net.link(l);
            return format!(
                "{} ({} Gb/s, load {} Gb/s)",
                format_args!("{}>{}", self.net.name(k.from), self.net.name(k.to)),
                self.fnet.cap(l.idx()),
                self.fnet.load(l.idx())
            );
        }
        let v = l.idx() - n;
        let (side, tor) = if v < self.net.nodes.len() {
            ("send", v)
        } else {
            ("receive", v - self.net.nodes.len())
        };
        format!(
            "detour budget {side} {} ({} Gb/s, load {} Gb/s)",
            self.net.name(NodeId(tor as u32)),
            self.fnet.cap(l.idx()),
            self.fnet.load(l.idx())
        )
    }

    /// Check the invariants (for tests): link capacity respected; rates consistent.
    pub fn invariant_violations(&self) -> Vec<String> {
        let mut v = Vec::new();
        for l in 0..self.fnet.link_count() {
            let ld = self.fnet.load(l);
            let sum: f64 = self
                .fnet
                .subs_on(l)
                .iter()
                .map(|&s| self.fnet.subs[s as usize].rate)
                .sum();
            if sum > self.fnet.cap(l) * (1.0 + 1e-6) + 1e-9 {
                v.push(format!(
                    "link {l}: rates {sum} exceed capacity {}",
                    self.fnet.cap(l)
                ));
            }
            if (sum - ld).abs() > 1e-6 * sum.max(1.0) {
                v.push(format!("link {l}: load {ld} != sum of rates {sum}"));
            }
        }
        v
    }
}

impl Engine for FlowEngine<'_> {
    const LOOK_EVERY: u64 = 1024;

    fn outcome(&self) -> Outcome<'_> {
        Outcome {
            scenario: self.sc,
            net: self.net,
            workload: &self.wl,
            flows: &self.flows,
            now: self.now,
            events: self.events,
            flows_done: self.done,
            util: &self.util,
            controller_ticks: self.ctl.ticks(),
            rebinds: self.router.rebinds(),
            detours: self.ctl.detours(),
            budget_bits: None,
            solver_rounds: self.solver.rounds,
            solver_subflows: self.solver.work_subs,
            solver_rate_changes: self.solver.changed_total,
        }
    }

    /// Close the link utilisation series at the end of the run.
    fn close(&mut self) {
        let fnet = &self.fnet;
        self.util.close(self.now.0, |l| fnet.load(l));
    }

    /// After the run has ended with no event left (not at the stop time): the flows still active
    /// at rate 0, described with their rates, bits left and paths, for an engine error. Such a flow has no
    /// completion ahead and nothing will change its rate again, so a report would be a silent
    /// wrong answer. `None` when every flow finished or stalled on a failure (stalled flows are
    /// reported as such), or the run was cut at the stop time.
    fn stuck_flows(&self) -> Option<String> {
        if !self.finished || self.stopped {
            return None;
        }
        // (an active flow with a rate finishes beyond the end of the clock, ~1.8e7 s: like a
        // stop time, the report says it did not finish; one without a rate never would)
        let active: Vec<usize> = (0..self.flows.len())
            .filter(|&f| {
                let fl = &self.flows[f];
                fl.status == Status::Active
                    && fl.rate.partial_cmp(&0.0) != Some(std::cmp::Ordering::Greater)
            })
            .collect();
        if active.is_empty() {
            return None;
        }
        const SHOWN: usize = 5;
        let mut m = format!(
            "{} of {} flows unfinished at rate 0 with no event left at t = {:.9} s ({} done, {} stalled); ",
            active.len(),
            self.flows.len(),
            self.now.as_secs_f64(),
            self.done,
            self.flows
                .iter()
                .filter(|f| f.status == Status::Stalled)
                .count(),
        );
        for (k, &f) in active.iter().take(SHOWN).enumerate() {
            let fl = &self.flows[f];
            let spec = &self.wl.flows[f];
            let paths: Vec<String> = fl
                .subs
                .iter()
                .map(|s| {
                    let s = s as usize;
                    let links: Vec<String> = self
                        .fnet
                        .path_of(s)
                        .iter()
                        .map(|&l| self.link_label(l))
                        .collect();
                    format!(
                        "{} Gb/s over [{}]",
                        self.fnet.subs[s].rate,
                        links.join(", ")
                    )
                })
                .collect();
            m += &format!(
                "{}flow {f} ({} -> {}): rate {} Gb/s, {:.0} of {:.0} bits left, started at {:.9} s, binding {}, paths {}",
                if k > 0 { "; " } else { "" },
                self.net.name(spec.src),
                self.net.name(spec.dst),
                fl.rate,
                fl.rem_bits - fl.rate * 1e-3 * (self.now.0 - fl.last.0) as f64,
                spec.bytes.bits(),
                fl.start.as_secs_f64(),
                match fl.binding {
                    Some(b) if b.detour != crate::routing::NONE_DETOUR => format!("detour {}", b.detour),
                    Some(_) => "adaptive".to_string(),
                    None => "none".to_string(),
                },
                paths.join(" + "),
            );
        }
        if active.len() > SHOWN {
            m += &format!("; and {} more", active.len() - SHOWN);
        }
        Some(m)
    }

    fn next_time(&self) -> Option<Time> {
        if self.finished {
            return None;
        }
        let a = self
            .wl
            .roots
            .get(self.next_root)
            .map(|&i| self.wl.flows[i as usize].arrival);
        let h = self.heap.peek().map(|e| Time((e >> 64) as u64));
        match (a, h) {
            (Some(a), Some(h)) => Some(a.min(h)),
            (a, h) => a.or(h),
        }
    }

    fn step(&mut self) -> bool {
        let Some(t) = self.next_time() else {
            self.finished = true;
            return false;
        };
        // Only periodic controller ticks left: the run is over.
        if !self.work_left() {
            self.finished = true;
            return false;
        }
        if t > self.stop {
            self.now = self.stop;
            self.finished = true;
            self.stopped = true;
            return false;
        }
        self.now = t;
        self.util.reach(t.0);
        self.batch = self.batch.wrapping_add(1);
        while let Some(&i) = self.wl.roots.get(self.next_root) {
            if self.wl.flows[i as usize].arrival != t {
                break;
            }
            self.next_root += 1;
            self.events += 1;
            self.start_flow(i);
        }
        while let Some(e) = self.heap.peek() {
            if (e >> 64) as u64 != t.0 {
                break;
            }
            self.heap.pop();
            let (kind, a) = ((e >> 32) as u32 as u64, e as u32);
            if kind != EV_TICK {
                self.pending -= 1;
            }
            match kind {
                EV_COMPLETE => {
                    let fl = &mut self.flows[a as usize];
                    if fl.queued != t || fl.status != Status::Active {
                        continue; // superseded by an earlier completion, or the flow moved on
                    }
                    fl.queued = Time::MAX;
                    if fl.due > t {
                        // the flow slowed down since this event was queued: re-queue at its due time
                        if fl.due < Time::MAX {
                            fl.queued = fl.due;
                            let due = fl.due;
                            self.push(due, EV_COMPLETE, a);
                        }
                        continue;
                    }
                    self.events += 1;
                    self.complete(a);
                }
                EV_START => {
                    self.events += 1;
                    self.start_flow(a);
                }
                EV_FAIL => {
                    self.events += 1;
                    self.set_links(a as usize, true);
                }
                EV_RECOVER => {
                    self.events += 1;
                    self.set_links(a as usize, false);
                }
                EV_TICK => {
                    self.events += 1;
                    // the controller is set aside while it acts on the engine through `Plant`
                    let mut ctl = std::mem::take(&mut self.ctl);
                    let net = self.net;
                    ctl.tick(self, net, t);
                    self.ctl = ctl;
                    if let Some(p) = self.ctl.period() {
                        self.push(t.saturating_add(p), EV_TICK, 0);
                    }
                }
                _ => unreachable!("unknown event kind"),
            }
        }
        self.commit();
        true
    }
}

impl Plant for FlowEngine<'_> {
    fn active_flows(&self) -> impl Iterator<Item = ActiveFlow<'_>> {
        let now = self.now;
        self.flows
            .iter()
            .enumerate()
            .filter(|(_, fl)| fl.status == Status::Active)
            .map(move |(f, fl)| ActiveFlow {
                id: f as u32,
                src: self.wl.flows[f].src,
                dst: self.wl.flows[f].dst,
                // the real links only (a detour path ends with its budget's virtual link)
                path: fl.subs.first().map(|s| {
                    let p = self.fnet.path_of(s as usize);
                    match p.last() {
                        Some(l) if l.idx() >= self.net.links.len() => &p[..p.len() - 1],
                        _ => p,
                    }
                }),
                remaining_bits: (fl.rem_bits - fl.rate * 1e-3 * (now.0 - fl.last.0) as f64)
                    .max(0.0),
                binding: fl.binding,
            })
    }

    fn carried_bits(&self, l: LinkId) -> f64 {
        self.util.total_bits(l.idx())
    }

    fn router(&mut self) -> &mut Router {
        &mut self.router
    }

    fn set_detour_cap(&mut self, tor: NodeId, side: Side, gbps: f64) {
        let l = budget_link(self.net, side, tor);
        self.fnet.set_cap(l.idx(), gbps);
        self.seeds.push(l); // flows of an earlier detour may still cross it
    }

    fn reroute_detour(&mut self, f: u32, leg: &DetourLeg) -> bool {
        let spec = &self.wl.flows[f as usize];
        let ctx = self.links.ctx(self.net, self.sc.engine.seed);
        let Some(route) = self.router.route_leg(&ctx, f, spec.src, spec.dst, leg) else {
            return false;
        };
        self.advance(f);
        self.detach(f);
        self.touch(f);
        self.flows[f as usize].reroutes += 1;
        let paths = route.paths.iter().map(|(p, w)| (p.as_slice(), *w));
        self.attach_paths(f, paths, route.binding)
    }

    fn reroute(&mut self, f: u32, bound: Option<Binding>) {
        self.force = bound.map(|b| (f, b));
        self.reroute_flow(f);
        self.force = None;
    }
}
