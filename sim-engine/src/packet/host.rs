//! The hosts (htsim's `TcpSrc`/`TcpSink` glue): a connection's segments onto the wire, packets
//! delivered at the end of their path (data turned round as ACKs; ACKs to the sender's TCP, see
//! [`super::tcp`]), MPTCP's data handed to subflows, and the retransmission timers (at most one
//! pending event per connection: a timer that moves later keeps its event, which re-queues
//! itself when it fires early).

use super::events::{EV_RETX, EV_RTO, EV_START};
use super::ports::{Pkt, F_ACK, F_CE, F_ECE, F_REV, F_SYN, F_UDP};
use super::tcp::{self, Conn};
use super::{PacketEngine, NO_BUDGET};
use crate::engine::Status;
use crate::units::Time;

impl PacketEngine<'_> {
    /// Send the segments in `self.out` on connection `c`.
    pub(super) fn send_out(&mut self, c: u32) {
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
    pub(super) fn fire_at(&self, at: u64) -> u64 {
        match self.cfg.rto_scan {
            0 => at,
            s => (at / s + 1).saturating_mul(s),
        }
    }

    /// Make sure connection `c`'s timer has an event at or before it fires. A deadline that
    /// moved earlier than the queued event (the SYN's long initial RTO replaced by the data's,
    /// a backed-off RTO reset by a new RTT sample) gets a new event; the later one is stale.
    pub(super) fn arm(&mut self, c: u32) {
        let cn = &self.conns[c as usize];
        let at = cn.rto_at;
        if at != u64::MAX {
            let t = self.fire_at(at);
            if t < cn.rto_queued {
                self.conns[c as usize].rto_queued = t;
                if self.cfg.scheduled && self.cfg.rto_scan > 0 {
                    // htsim's timer scan: one event, scheduled a scan period earlier (before
                    // whatever else happens then), checking connections in their order
                    self.ev.push_key(t, 0, EV_RTO, c);
                } else {
                    self.ev.push(t, EV_RTO, c);
                }
            }
        }
    }

    /// Packet `i` reached the end of its path.
    pub(super) fn deliver(&mut self, i: u32) {
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
                // the whole flow has arrived: a response (a next step) may start; the
                // packets paid their own latency, so no latency terms are added
                let mut starts = std::mem::take(&mut self.starts);
                self.release.done(&self.wl, f, Time(self.now), &mut starts);
                for (t, g) in starts.drain(..) {
                    self.ev.push(t.0, EV_START, g);
                }
                self.starts = starts;
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
    pub(super) fn acked_in_full(&self, f: u32) -> bool {
        let pf = &self.pflows[f as usize];
        pf.assigned >= self.wl.flows[f as usize].bytes.0
            && self.conns[pf.conn0 as usize..(pf.conn0 + pf.nconn) as usize]
                .iter()
                .all(|c| c.sender_done())
    }

    /// Send connection `c`'s SYN.
    pub(super) fn send_syn(&mut self, c: u32) {
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
    pub(super) fn launch(&mut self, pkt: Pkt) {
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
    pub(super) fn lia(&self, f: u32) -> Option<(f64, u64)> {
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

    pub(super) fn complete(&mut self, f: u32) {
        let fl = &mut self.flows[f as usize];
        fl.status = Status::Done;
        fl.done_at = Time(self.now);
        fl.fct_end = Time(self.now);
        fl.last = Time(self.now);
        self.done += 1;
    }

    /// Send what connection `c`'s window allows (MPTCP: hand it more of the flow's data first).
    pub(super) fn pump(&mut self, c: u32) {
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

    pub(super) fn timeout(&mut self, c: u32) {
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
        self.ev.push(t, EV_RETX, c);
    }

    /// Connection `c` goes back after its timer expired.
    pub(super) fn retransmit(&mut self, c: u32) {
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
