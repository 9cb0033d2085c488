//! Flows onto connections: a flow's start (its route, the paths its connections take: one, or
//! MPTCP's subflows, or a sprayed set; its time alone on an idle path), and the first packets
//! of each connection (a SYN, what the window allows, or every UDP datagram at once).

use super::tcp::{Cc, Conn, Seg};
use super::{PacketEngine, NO_BUDGET};
use crate::engine::Status;
use crate::routing::Route;
use crate::units::{LinkId, NodeId, Time};
use crate::workload::{FlowSpec, NONE};

/// Most paths a sprayed flow uses.
const SPRAY_PATHS: usize = 8;

impl PacketEngine<'_> {
    /// Flow `f` arrives: routed like a new flow in flow mode, it opens its connections and
    /// sends; with no path it stalls (until a recovery, see `control::revive`).
    pub(super) fn start_flow(&mut self, f: u32) {
        let spec = &self.wl.flows[f as usize];
        let (src, dst, bytes) = (spec.src, spec.dst, spec.bytes.0);
        {
            let fl = &mut self.flows[f as usize];
            fl.start = Time(self.now);
            fl.last = Time(self.now);
        }
        let route = match self.fixed.get(f as usize) {
            Some(path) => Route::single(path.clone()),
            None => self.route_now(f, src, dst, bytes),
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
        let (chosen, budget) = self.chosen_paths(f, &route);
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
        let conn0 = self.open_conns(f, &chosen, budget);
        if self.udp_flow(f) {
            self.send_datagrams(conn0, bytes);
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

    /// Flow `f`'s route as its router gives it now.
    fn route_now(&mut self, f: u32, src: NodeId, dst: NodeId, bytes: u64) -> Route {
        self.router.note_size(bytes as f64 * 8.0);
        let ctx = self.links.ctx(self.net, self.sc.engine.seed);
        self.router.route_new(&ctx, f, src, dst)
    }

    /// Decomposed mode's planning, on an engine with no flows of its own: the one path flow `f`
    /// of `spec` would take on the idle network (its router's heaviest path: decomposed mode
    /// refuses MPTCP, which would take several), or `None` without a path.
    pub(crate) fn idle_path(&mut self, f: u32, spec: &FlowSpec) -> Option<Vec<LinkId>> {
        let route = self.route_now(f, spec.src, spec.dst, spec.bytes.0);
        if route.paths.is_empty() {
            return None;
        }
        let real = self.net.links.len();
        let path = &route.paths[heaviest(&route)].0;
        Some(path.iter().copied().filter(|l| l.idx() < real).collect())
    }

    /// The paths of flow `f`'s connections on `route`, real links only, and the detour budget
    /// (virtual link past the real ones) a single path counts against: MPTCP takes a subflow
    /// per path, anything else the heaviest path (the first of equals).
    fn chosen_paths<'r>(&self, f: u32, route: &'r Route) -> (Vec<&'r [LinkId]>, Option<usize>) {
        let chosen: Vec<&[LinkId]> = if self.cfg.mptcp && route.paths.len() > 1 && !self.udp_flow(f)
        {
            route.paths.iter().map(|(p, _)| p.as_slice()).collect()
        } else {
            vec![&route.paths[heaviest(route)].0]
        };
        // a new flow placed on a detour: its path ends with the budget's virtual link (flow
        // mode's cap); packets cross the real links and their bits count against the budget
        let real = self.net.links.len();
        let budget = match chosen.as_slice() {
            [p] => p.last().filter(|v| v.idx() >= real).map(|v| v.idx() - real),
            _ => None,
        };
        let chosen = chosen
            .into_iter()
            .map(|p| match p.last() {
                Some(v) if v.idx() >= real => &p[..p.len() - 1],
                _ => p,
            })
            .collect();
        (chosen, budget)
    }

    /// Open a connection of flow `f` on each of `chosen` (sprayed over more paths when
    /// spraying a single one); the first connection's id.
    fn open_conns(&mut self, f: u32, chosen: &[&[LinkId]], budget: Option<usize>) -> u32 {
        let bytes = self.wl.flows[f as usize].bytes.0;
        let multi = chosen.len() > 1;
        let spray = if self.cfg.spraying && !multi {
            self.spray_paths(f, chosen[0])
        } else {
            Vec::new()
        };
        let conn0 = self.conns.len() as u32;
        for p in chosen {
            let off = self.paths.len() as u32;
            self.paths.extend_from_slice(p);
            for q in &spray {
                self.paths.extend_from_slice(q);
            }
            self.conn_spray.push((1 + spray.len() as u16, 0));
            let cc = if multi { Cc::Lia } else { self.cfg.cc };
            // an MPTCP subflow is handed data as its window opens (see `pump`)
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
        conn0
    }

    /// A UDP flow of `bytes` on connection `c`: every datagram to the NIC at once.
    fn send_datagrams(&mut self, c: u32, bytes: u64) {
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
    }

    /// Spraying: up to `SPRAY_PATHS - 1` more shortest valley-free paths (ECMP's set) of flow
    /// `f` besides `first`, as long as it, each walked with another hash of the flow.
    pub(super) fn spray_paths(&mut self, f: u32, first: &[LinkId]) -> Vec<Vec<LinkId>> {
        let spec = &self.wl.flows[f as usize];
        let (src, dst) = (spec.src, spec.dst);
        let h = crate::routing::flow_hash(self.sc.engine.seed, f);
        let mut found: Vec<Vec<LinkId>> = Vec::new();
        for k in 1..4 * SPRAY_PATHS as u64 {
            if found.len() + 1 >= SPRAY_PATHS {
                break;
            }
            let hk = crate::rng::splitmix64(h ^ k.wrapping_mul(0x9e37_79b9_7f4a_7c15));
            let Some(p) = self.router.updown().walk(&self.links.up, src, dst, hk) else {
                break;
            };
            if p.len() == first.len() && p != first && !found.contains(&p) {
                found.push(p);
            }
        }
        found
    }

    /// Time alone on an idle path with an unlimited window, as packet mode measures a flow (from
    /// its start to the ACK of its last byte at the sender): the handshake's round trip if any;
    /// every data packet but the largest at the slowest hop's rate, the largest through every
    /// hop (exact on a path of one rate, where a short last packet waits behind the full one
    /// before it); the last ACK's way back; every hop's delay on each crossing.
    pub(super) fn ideal(&self, path: &[LinkId], bytes: u64, udp: bool) -> f64 {
        self.ideal_ps(path, bytes, udp) as f64 / 1e12
    }

    /// [`Self::ideal`] in picoseconds (decomposed mode adds per-hop delays to it exactly).
    pub(crate) fn ideal_ps(&self, path: &[LinkId], bytes: u64, udp: bool) -> u64 {
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
            return t; // done when the last byte arrives
        }
        t += one_way(ack, true);
        if self.cfg.handshake {
            t += one_way(1, false) + one_way(ack, true);
        }
        t
    }

    /// Flow `f` is sent as UDP datagrams (`udp_requests` and a request/response workload).
    pub(super) fn udp_flow(&self, f: u32) -> bool {
        self.udp_group(self.wl.flows[f as usize].group)
    }

    /// A flow of `group` is sent as UDP datagrams.
    pub(crate) fn udp_group(&self, group: u32) -> bool {
        self.cfg.udp && group != NONE
    }

    pub(super) fn conn_udp(&self, c: u32) -> bool {
        self.cfg.udp && self.udp_flow(self.conn_flow[c as usize])
    }
}

/// The index of a route's heaviest path (the first of equals): a single-path flow's.
pub(super) fn heaviest(route: &Route) -> usize {
    route
        .paths
        .iter()
        .enumerate()
        .max_by(|a, b| a.1 .1.total_cmp(&b.1 .1).then(b.0.cmp(&a.0)))
        .map_or(0, |(k, _)| k)
}
