//! Controller glue: how packet mode takes the routing decisions flow mode makes. Failures and
//! recoveries move flows off failed links at once (or stall them) and revive stalled ones; the
//! adaptive and detour controllers (flow mode's, through [`Plant`]) decide moves that a flow
//! takes at its next flowlet gap, as does the adaptive router itself.

use super::flows::heaviest;
use super::{PacketEngine, NO_BUDGET};
use crate::engine::plant::{ActiveFlow, Plant};
use crate::engine::Status;
use crate::routing::detour::{DetourLeg, Side};
use crate::routing::{Binding, Route, Router, NONE_DETOUR};
use crate::units::{LinkId, NodeId, Time};

impl PacketEngine<'_> {
    /// A flowlet starts on connection `c` (it paused at least the flowlet gap): take the move
    /// the controller decided for its flow, if any, else the path the adaptive router gives it
    /// now (a flow on a detour stays on it until the controller moves it). The packets still on
    /// the old path were sent at least one gap ago; each carries its own path.
    pub(super) fn rebind(&mut self, c: u32) {
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
                let ctx = self.links.ctx(self.net, self.sc.engine.seed);
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
    pub(super) fn crosses_down(&self, p: &[LinkId]) -> bool {
        p.iter().any(|l| self.links.up.get(l.idx()) == Some(&false))
    }

    /// Put connection `c` on path `p` (a route's); false when it is already on it.
    pub(super) fn bind_path(&mut self, c: u32, p: &[LinkId]) -> bool {
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
    pub(super) fn tick(&mut self) {
        // the controller is set aside while it acts on the engine through `Plant`
        let mut ctl = std::mem::take(&mut self.ctl);
        let net = self.net;
        ctl.tick(self, net, Time(self.now));
        self.ctl = ctl;
        self.next_tick = self
            .ctl
            .period()
            .map_or(u64::MAX, |p| self.now.saturating_add(p.0));
    }

    /// A route for flow `f` the controller decided: taken at the flow's next flowlet gap.
    pub(super) fn set_pending(&mut self, f: u32, route: Route) -> bool {
        if route.paths.is_empty() || self.pflows[f as usize].nconn != 1 {
            return false;
        }

        if let Some(slot) = self.pending.get_mut(f as usize) {
            *slot = Some(Box::new(route));
        }
        true
    }

    /// Failure `fi`'s links go down (`down`) or come back, as in flow mode (`set_links`): going
    /// down, what is queued at their ports and on their wires is lost, and every flow with a
    /// path across them moves at once to a path that avoids them, or stalls if none is left
    /// (its packets still on the way are lost where they meet the failed link; TCP recovers
    /// them); coming back, the stalled flows are routed again.
    pub(super) fn set_links(&mut self, fi: usize, down: bool) {
        let changed = self.links.set(&self.net.failures[fi].links, down);
        if changed.is_empty() {
            return;
        }
        if down {
            for d in changed {
                self.flush(2 * d);
                self.flush(2 * d + 1);
            }
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

    /// Connection `c` has a path (or a sprayed one) across a link that is down.
    pub(super) fn conn_broken(&self, c: u32) -> bool {
        let (off, plen) = self.conn_path[c as usize];
        let n = self.conn_spray[c as usize].0 as usize;
        self.crosses_down(&self.paths[off as usize..off as usize + plen as usize * n])
    }

    /// Route flow `f` again now that links failed or came back: its connections with a path
    /// across a down link move to the route's path (the one a new flow would take; sprayed
    /// again when spraying); false, with the flow stalled, when no path is left.
    pub(super) fn reroute_flow(&mut self, f: u32) -> bool {
        if let Some(slot) = self.pending.get_mut(f as usize) {
            *slot = None; // a move decided before the failure
        }
        let spec = &self.wl.flows[f as usize];
        let (src, dst) = (spec.src, spec.dst);
        let ctx = self.links.ctx(self.net, self.sc.engine.seed);
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
    pub(super) fn revive(&mut self, f: u32) {
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
}

impl Plant for PacketEngine<'_> {
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
        let ctx = self.links.ctx(self.net, self.sc.engine.seed);
        match self.router.route_leg(&ctx, f, spec.src, spec.dst, leg) {
            Some(route) => self.set_pending(f, route),
            None => false,
        }
    }

    fn reroute(&mut self, f: u32, bound: Option<Binding>) {
        let spec = &self.wl.flows[f as usize];
        let (src, dst) = (spec.src, spec.dst);
        let ctx = self.links.ctx(self.net, self.sc.engine.seed);
        let route = match bound {
            Some(b) => self.router.route_bound(&ctx, f, src, dst, b),
            None => self.router.route(&ctx, f, src, dst),
        };
        self.set_pending(f, route);
    }
}
