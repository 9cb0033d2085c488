//! TCP at packet level, byte-sequenced like htsim's: NewReno (slow start, congestion avoidance,
//! fast retransmit and recovery with partial ACKs, RTO with exponential backoff and go-back-N),
//! ECN reaction (NewReno: halve once per window; DCTCP: cut by `alpha/2`, `alpha` the EWMA of the
//! marked fraction of acknowledged bytes per window, gain 1/16) and MPTCP's LIA increase. The
//! receiver ACKs every data packet (no delayed ACK, as htsim's TCP) with the cumulative
//! sequence and echoes the data packet's send time and CE mark.
//!
//! A connection is pure state: every method takes the time and pushes the segments to send
//! into `out`; the engine turns them into packets and keeps the timer events.

/// A segment to send: first byte, length, whether it is a retransmission.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Seg {
    pub seq: u64,
    pub len: u32,
    pub retx: bool,
}

/// What an ACK tells the sender: the cumulative ACK, the echoed send time, the ECN echo.
#[derive(Clone, Copy, Debug)]
pub struct Ack {
    pub ack: u64,
    pub ts: u64,
    pub ece: bool,
}

/// Congestion-control flavour of a connection.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cc {
    NewReno,
    Dctcp,
    /// MPTCP subflow (LIA increase, coupled through the flow's `alpha`).
    Lia,
}

/// Settings every connection shares.
#[derive(Clone, Copy, Debug)]
pub struct TcpCfg {
    /// Payload of a full segment, bytes.
    pub mss: u64,
    pub init_cwnd: u64,
    pub init_ssthresh: u64,
    pub rto_min: u64,
    /// Before the first RTT sample.
    pub rto_initial: u64,
    pub rto_max: u64,
}

/// DCTCP's EWMA gain.
const DCTCP_G: f64 = 1.0 / 16.0;

/// One TCP connection (a flow, or one MPTCP subflow): sender and receiver state.
#[derive(Clone, Debug)]
pub struct Conn {
    pub cc: Cc,
    /// The handshake is over (no data before it).
    pub established: bool,
    /// Bytes this connection must deliver (MPTCP: grows as the flow hands it data).
    pub end: u64,
    // -- sender
    pub una: u64,
    pub nxt: u64,
    /// Highest byte ever sent + 1.
    pub high: u64,
    pub cwnd: u64,
    pub ssthresh: u64,
    pub dupacks: u32,
    pub in_rec: bool,
    pub recover: u64,
    /// No ECN cut before `una` passes this.
    pub cut_end: u64,
    /// Smoothed RTT and its variation, ps (srtt 0: no sample yet).
    pub srtt: u64,
    pub rttvar: u64,
    pub rto: u64,
    /// Deadline of the retransmission timer (u64::MAX: not armed).
    pub rto_at: u64,
    /// Time of this connection's pending timer event (u64::MAX: none).
    pub rto_queued: u64,
    // -- DCTCP
    pub alpha: f64,
    acked_win: u64,
    marked_win: u64,
    win_end: u64,
    // -- receiver
    pub rcv_nxt: u64,
    /// Out-of-order byte ranges received beyond `rcv_nxt`, sorted and disjoint.
    ooo: Vec<(u64, u64)>,
    // -- counters
    pub retransmissions: u64,
    pub timeouts: u64,
}

impl Conn {
    pub fn new(cc: Cc, end: u64, cfg: &TcpCfg) -> Conn {
        Conn {
            cc,
            established: true,
            end,
            una: 0,
            nxt: 0,
            high: 0,
            cwnd: cfg.init_cwnd,
            ssthresh: cfg.init_ssthresh,
            dupacks: 0,
            in_rec: false,
            recover: 0,
            cut_end: 0,
            srtt: 0,
            rttvar: 0,
            rto: cfg.rto_initial,
            rto_at: u64::MAX,
            rto_queued: u64::MAX,
            alpha: if cc == Cc::Dctcp { 1.0 } else { 0.0 },
            acked_win: 0,
            marked_win: 0,
            win_end: 0,
            rcv_nxt: 0,
            ooo: Vec::new(),
            retransmissions: 0,
            timeouts: 0,
        }
    }

    /// Bytes sent and not yet acknowledged.
    pub fn flight(&self) -> u64 {
        self.nxt.saturating_sub(self.una)
    }

    /// Everything sent and acknowledged.
    pub fn sender_done(&self) -> bool {
        self.una >= self.end
    }

    fn seg_at(&self, seq: u64, cfg: &TcpCfg, retx: bool) -> Seg {
        Seg {
            seq,
            len: (self.end - seq).min(cfg.mss) as u32,
            retx,
        }
    }

    /// Send new segments while the window allows.
    pub fn pump(&mut self, now: u64, cfg: &TcpCfg, out: &mut Vec<Seg>) {
        if !self.established {
            return;
        }
        // a segment goes out when the window has room for a full one, as htsim's TCP and Linux
        // (whose windows count whole segments) send; an MPTCP subflow too: sending whatever
        // fraction of a segment its coupled window had free made GRIN permutations send 5x the
        // packets, each a tiny segment with its own ACK, and lose to single-path TCP at load
        while self.nxt < self.end && self.nxt + cfg.mss <= self.una + self.cwnd {
            let retx = self.nxt < self.high;
            let s = self.seg_at(self.nxt, cfg, retx);
            if retx {
                self.retransmissions += 1;
            }
            self.nxt += s.len as u64;
            self.high = self.high.max(self.nxt);
            out.push(s);
        }
        if self.rto_at == u64::MAX && self.flight() > 0 {
            self.rto_at = now + self.rto;
        }
    }

    fn retransmit_una(&mut self, cfg: &TcpCfg, out: &mut Vec<Seg>) {
        if self.una < self.end {
            self.retransmissions += 1;
            out.push(self.seg_at(self.una, cfg, true));
        }
    }

    /// An RTT sample, as htsim's `TcpSrc` (Jacobson's estimator in integer picoseconds, each
    /// term truncated on its own; a zero sample is skipped) with RFC 6298's minimum applied on
    /// every ACK.
    fn rtt_sample(&mut self, r: u64, cfg: &TcpCfg) {
        if r != 0 {
            if self.srtt > 0 {
                let d = self.srtt.abs_diff(r);
                self.rttvar = 3 * self.rttvar / 4 + d / 4;
                self.srtt = 7 * self.srtt / 8 + r / 8;
            } else {
                self.srtt = r;
                self.rttvar = r / 2;
            }
            self.rto = self.srtt + 4 * self.rttvar;
        }
        self.rto = self.rto.clamp(cfg.rto_min, cfg.rto_max);
    }

    /// Window growth on a new ACK, as htsim's `inflate_window`: by the room the ACK opened in
    /// the window (at most one segment; none if the flight still fills it), in slow start up to
    /// `ssthresh`, in congestion avoidance `room * mss / cwnd` bytes (truncated, as htsim).
    /// `lia`: for an MPTCP subflow, the coupled increase
    /// `min(alpha_f * acked * mss / cwnd_total, acked * mss / cwnd)` per acknowledged byte.
    fn grow(&mut self, acked: u64, cfg: &TcpCfg, lia: Option<(f64, u64)>) {
        if self.cc == Cc::Lia {
            if self.cwnd < self.ssthresh {
                self.cwnd += acked.min(cfg.mss).min(self.ssthresh - self.cwnd);
                return;
            }
            let own = (acked * cfg.mss) as f64 / self.cwnd as f64;
            let inc = match lia {
                Some((a, total)) => (a * (acked * cfg.mss) as f64 / total as f64).min(own),
                None => own,
            };
            // fractional increases accumulate in the window (bytes), at least one byte per ACK
            self.cwnd += (inc.round() as u64).max(1);
            return;
        }
        let Some(room) = (self.una + self.cwnd).checked_sub(self.nxt) else {
            return;
        };
        let room = room.min(cfg.mss);
        if self.cwnd < self.ssthresh {
            self.cwnd += room.min(self.ssthresh - self.cwnd);
        } else {
            self.cwnd += room * cfg.mss / self.cwnd;
        }
    }

    /// An ACK arrived. `lia`: (`alpha`, total window of the flow's subflows) for MPTCP
    /// subflows.
    pub fn on_ack(
        &mut self,
        now: u64,
        a: Ack,
        cfg: &TcpCfg,
        lia: Option<(f64, u64)>,
        out: &mut Vec<Seg>,
    ) {
        let Ack { ack, ts, ece } = a;
        if self.sender_done() || ack < self.una {
            return; // an old ACK (reordered) says nothing new, not even an RTT
        }
        // every ACK echoes a send time: an RTT sample (duplicate ACKs too, as htsim)
        self.rtt_sample(now.saturating_sub(ts), cfg);
        if ack > self.una {
            let acked = ack - self.una;
            if self.cc == Cc::Dctcp {
                self.acked_win += acked;
                if ece {
                    self.marked_win += acked;
                }
                if ack >= self.win_end {
                    let f = if self.acked_win > 0 {
                        self.marked_win as f64 / self.acked_win as f64
                    } else {
                        0.0
                    };
                    self.alpha = (1.0 - DCTCP_G) * self.alpha + DCTCP_G * f;
                    self.acked_win = 0;
                    self.marked_win = 0;
                    self.win_end = self.nxt.max(ack + 1);
                }
            }
            self.una = ack;
            if self.nxt < ack {
                self.nxt = ack; // after go-back-N the receiver already held more
            }
            if self.in_rec {
                if ack >= self.recover {
                    self.in_rec = false;
                    self.dupacks = 0;
                    self.cwnd = self.ssthresh.min(self.flight() + cfg.mss).max(cfg.mss);
                } else {
                    // partial ACK: the next hole is lost too
                    self.retransmit_una(cfg, out);
                    self.cwnd = self.cwnd.saturating_sub(acked) + cfg.mss;
                }
            } else {
                self.dupacks = 0;
                self.grow(acked, cfg, lia);
            }
            self.rto_at = if self.sender_done() {
                u64::MAX
            } else {
                now + self.rto
            };
        } else if ack == self.una && self.flight() > 0 {
            self.dupacks += 1;
            if self.in_rec {
                self.cwnd += cfg.mss;
            } else if self.dupacks == 3 && self.una >= self.recover {
                // (htsim and Linux halve the window; RFC 5681 says half the flight size)
                self.ssthresh = (self.cwnd / 2).max(2 * cfg.mss);
                self.recover = self.nxt;
                self.in_rec = true;
                self.cut_end = self.nxt;
                self.retransmit_una(cfg, out);
                self.cwnd = self.ssthresh + 3 * cfg.mss;
            }
        }
        if ece && !self.in_rec && self.una >= self.cut_end && !self.sender_done() {
            let target = match self.cc {
                Cc::Dctcp => (self.cwnd as f64 * (1.0 - self.alpha / 2.0)) as u64,
                _ => self.cwnd / 2,
            };
            self.cwnd = target.max(cfg.mss);
            self.ssthresh = self.cwnd;
            self.cut_end = self.nxt;
        }
        if !self.sender_done() {
            self.pump(now, cfg, out);
        }
    }

    /// The SYN-ACK arrived (echoing the SYN's send time `ts`): data may flow. As in htsim the
    /// SYN-ACK is a new ACK and opens the window by one segment in slow start (the engine
    /// starts a handshaking connection one segment below `initial_window_packets`).
    pub fn on_synack(&mut self, now: u64, ts: u64, cfg: &TcpCfg, out: &mut Vec<Seg>) {
        if self.established {
            return; // a duplicate (the SYN was sent again)
        }
        self.established = true;
        self.rtt_sample(now.saturating_sub(ts), cfg);
        self.rto_at = u64::MAX;
        self.grow(self.cwnd.min(cfg.mss), cfg, None);
        self.pump(now, cfg, out);
    }

    /// The retransmission timer expired (its deadline passed at `now`): back off, as htsim's
    /// timer scan does at once. The retransmission itself is [`Conn::on_timeout`], which htsim
    /// runs a little later (see the engine).
    pub fn on_expiry(&mut self, now: u64, cfg: &TcpCfg) {
        self.timeouts += 1;
        self.rto = (self.rto * 2).min(cfg.rto_max);
        self.rto_at = now + self.rto;
    }

    /// Go back after a timeout: the window to one segment and the lost segment sent again
    /// (htsim's `TcpSrc` timeout; RFC 5681 after a lost SYN or SYN-ACK too). Before the
    /// handshake is over: returns true, and the SYN must be sent again.
    pub fn on_timeout(&mut self, now: u64, cfg: &TcpCfg, out: &mut Vec<Seg>) -> bool {
        if self.established && self.sender_done() {
            return false;
        }
        if self.in_rec {
            self.cwnd = self.ssthresh.min(self.flight() + cfg.mss);
        }
        self.ssthresh = (self.cwnd / 2).max(2 * cfg.mss);
        self.cwnd = cfg.mss;
        self.in_rec = false;
        self.dupacks = 0;
        // duplicate ACKs of the old flight must not start a fast retransmit
        self.recover = self.nxt;
        self.cut_end = self.high;
        if !self.established {
            return true;
        }
        self.nxt = self.una;
        let rto_at = self.rto_at;
        self.pump(now, cfg, out);
        self.rto_at = rto_at;
        false
    }

    /// A data segment arrived at the receiver; returns the cumulative ACK to send.
    pub fn on_data(&mut self, seq: u64, len: u32) -> u64 {
        let end = seq + len as u64;
        if seq <= self.rcv_nxt {
            if end > self.rcv_nxt {
                self.rcv_nxt = end;
                // fill from the out-of-order ranges now reached
                let k = self.ooo.iter().take_while(|r| r.0 <= self.rcv_nxt).count();
                if k > 0 {
                    self.rcv_nxt = self.rcv_nxt.max(self.ooo[k - 1].1);
                    self.ooo.drain(..k);
                }
            }
        } else {
            // insert [seq, end) and merge with its neighbours
            let i = self.ooo.partition_point(|r| r.1 < seq);
            let mut lo = seq;
            let mut hi = end;
            let mut j = i;
            while j < self.ooo.len() && self.ooo[j].0 <= hi {
                lo = lo.min(self.ooo[j].0);
                hi = hi.max(self.ooo[j].1);
                j += 1;
            }
            self.ooo.splice(i..j, [(lo, hi)]);
        }
        if self.rcv_nxt >= self.end && !self.ooo.is_empty() {
            self.ooo = Vec::new();
        }
        self.rcv_nxt
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ack(a: u64) -> Ack {
        Ack {
            ack: a,
            ts: 0,
            ece: false,
        }
    }

    fn cfg() -> TcpCfg {
        TcpCfg {
            mss: 1000,
            init_cwnd: 2000,
            init_ssthresh: u64::MAX,
            rto_min: 1_000_000,
            rto_initial: 1_000_000,
            rto_max: 1 << 40,
        }
    }

    #[test]
    fn receiver_reassembles_out_of_order_ranges() {
        let mut c = Conn::new(Cc::NewReno, 5000, &cfg());
        assert_eq!(c.on_data(1000, 1000), 0);
        assert_eq!(c.on_data(3000, 1000), 0);
        assert_eq!(c.on_data(2000, 1000), 0); // merges into [1000, 4000)
        assert_eq!(c.ooo, vec![(1000, 4000)]);
        assert_eq!(c.on_data(0, 1000), 4000);
        assert_eq!(c.on_data(0, 1000), 4000); // duplicate
        assert_eq!(c.on_data(4000, 1000), 5000);
    }

    #[test]
    fn slow_start_then_three_dupacks_halve_and_retransmit() {
        let cfg = cfg();
        let mut c = Conn::new(Cc::NewReno, 100_000, &cfg);
        let mut out = Vec::new();
        c.pump(0, &cfg, &mut out);
        assert_eq!(out.len(), 2);
        out.clear();
        // each new ACK of a full segment adds one segment in slow start
        c.on_ack(10, ack(1000), &cfg, None, &mut out);
        assert_eq!((c.cwnd, out.len()), (3000, 2));
        out.clear();
        c.on_ack(20, ack(2000), &cfg, None, &mut out);
        assert_eq!((c.cwnd, c.nxt), (4000, 6000));
        out.clear();
        for _ in 0..3 {
            c.on_ack(30, ack(2000), &cfg, None, &mut out);
        }
        // flight 4000 -> ssthresh 2000, cwnd 2000 + 3 x 1000, the hole resent
        assert!(c.in_rec);
        assert_eq!((c.ssthresh, c.cwnd), (2000, 5000));
        assert_eq!(
            out[0],
            Seg {
                seq: 2000,
                len: 1000,
                retx: true
            }
        );
        out.clear();
        c.on_ack(40, ack(6000), &cfg, None, &mut out);
        assert!(!c.in_rec);
        assert_eq!(c.cwnd, 2000);
    }

    #[test]
    fn timeout_goes_back_to_one_segment_and_backs_off() {
        let cfg = cfg();
        let mut c = Conn::new(Cc::NewReno, 10_000, &cfg);
        let mut out = Vec::new();
        c.pump(0, &cfg, &mut out);
        assert_eq!(c.rto_at, cfg.rto_min);
        out.clear();
        c.on_expiry(cfg.rto_min, &cfg);
        c.on_timeout(cfg.rto_min, &cfg, &mut out);
        assert_eq!(out.len(), 1);
        assert_eq!((out[0].seq, out[0].retx), (0, true));
        assert_eq!((c.cwnd, c.rto, c.timeouts), (1000, 2 * cfg.rto_min, 1));
    }

    #[test]
    fn congestion_avoidance_grows_by_the_truncated_share_of_a_segment() {
        // htsim: cwnd += room * mss / cwnd, integer division (66.67 -> 66 bytes)
        let mut cfg = cfg();
        cfg.init_cwnd = 15_000;
        cfg.init_ssthresh = 15_000;
        let mut c = Conn::new(Cc::NewReno, 1_000_000, &cfg);
        let mut out = Vec::new();
        c.pump(0, &cfg, &mut out);
        assert_eq!(out.len(), 15);
        c.on_ack(10, ack(1000), &cfg, None, &mut out);
        assert_eq!(c.cwnd, 15_066);
        // an ACK of two segments opens the window by at most one segment's share
        c.on_ack(20, ack(3000), &cfg, None, &mut out);
        assert_eq!(c.cwnd, 15_066 + 1000 * 1000 / 15_066);
    }

    #[test]
    fn the_syn_ack_opens_the_window_by_one_segment() {
        let cfg = cfg();
        let mut c = Conn::new(Cc::NewReno, 100_000, &cfg);
        c.established = false;
        c.cwnd = cfg.init_cwnd - cfg.mss; // as the engine starts a handshaking connection
        let mut out = Vec::new();
        c.on_synack(100, 0, &cfg, &mut out);
        assert_eq!((c.cwnd, out.len()), (2000, 2));
    }

    #[test]
    fn a_lost_syn_restarts_from_one_segment() {
        // RFC 5681 (and htsim): after a SYN timeout the window is one segment, the SYN-ACK adds
        // one, and ssthresh is half the window before (at least two segments)
        let mut cfg = cfg();
        cfg.init_cwnd = 10_000;
        let mut c = Conn::new(Cc::NewReno, 100_000, &cfg);
        c.established = false;
        c.cwnd = cfg.init_cwnd - cfg.mss;
        let mut out = Vec::new();
        c.on_expiry(cfg.rto_initial, &cfg);
        assert!(c.on_timeout(cfg.rto_initial, &cfg, &mut out));
        assert!(out.is_empty());
        assert_eq!((c.cwnd, c.ssthresh, c.timeouts), (1000, 4500, 1));
        c.on_synack(cfg.rto_initial + 100, cfg.rto_initial, &cfg, &mut out);
        assert_eq!((c.cwnd, out.len()), (2000, 2));
    }

    #[test]
    fn an_old_ack_is_ignored_even_for_its_rtt() {
        let cfg = cfg();
        let mut c = Conn::new(Cc::NewReno, 100_000, &cfg);
        let mut out = Vec::new();
        c.pump(0, &cfg, &mut out);
        c.on_ack(10, ack(2000), &cfg, None, &mut out);
        let (srtt, cwnd) = (c.srtt, c.cwnd);
        c.on_ack(5_000_000, ack(1000), &cfg, None, &mut out);
        assert_eq!((c.srtt, c.cwnd, c.una), (srtt, cwnd, 2000));
    }
}
