//! The event core (htsim's `EventList`): pending events as `u128` keys `time << 64 | tie << 30 |
//! kind << 27 | subject` in two binary heaps, the packet events in one and the retransmission
//! timers in the other (they wait hundreds of times longer than packet events, one per
//! connection, and would make every push and pop of the packet heap deeper).
//!
//! `tie` orders the events of one time: a draw from a generator seeded by the scenario's seed
//! (deterministic, and no sender wins every tie at a full queue: no phase lock-out), or, with
//! `tie_order: "scheduled"`, the count of events scheduled (htsim's first in, first out).

use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// A port's head-of-line packet finished serialising (subject: the link).
pub const EV_DEPART: u64 = 0;
/// The head of a link's wire reaches the far end (subject: the link).
pub const EV_WIRE: u64 = 1;
/// A connection's retransmission timer (subject: the connection).
pub const EV_RTO: u64 = 2;
/// A flow starts (subject: the flow; a response after its request).
pub const EV_START: u64 = 3;
/// A timer expired at a scan: the retransmission, a moment later (see `host::timeout`).
pub const EV_RETX: u64 = 4;
/// A failure (`net.failures` index) takes its links down, or they come back.
pub const EV_FAIL: u64 = 5;
pub const EV_RECOVER: u64 = 6;
/// Event keys: time (64 bits) | tie (34) | kind (3) | subject (27).
const KIND_SHIFT: u32 = 27;
const TIE_SHIFT: u32 = 30;
const TIE_MASK: u64 = (1 << 34) - 1;

/// The pending events, in time order and, at one time, in tie order.
pub struct EventList {
    heap: BinaryHeap<Reverse<u128>>,
    /// Retransmission timers, apart (see the module doc).
    timers: BinaryHeap<Reverse<u128>>,
    /// xorshift64 state for breaking ties between events of one time (random order), or the
    /// count of events scheduled (scheduled order).
    tie: u64,
    scheduled: bool,
}

impl EventList {
    /// An empty list; `scheduled`: same-time events in the order they were scheduled, else in
    /// an order drawn from `seed`.
    pub fn new(seed: u64, scheduled: bool) -> EventList {
        EventList {
            heap: BinaryHeap::new(),
            timers: BinaryHeap::new(),
            tie: crate::rng::splitmix64(seed ^ 0x7469_6573) | 1,
            scheduled,
        }
    }

    /// Schedule an event of `kind` for `subject` at `t`, after the events already scheduled
    /// then (scheduled order) or at a random place among them.
    #[inline]
    pub fn push(&mut self, t: u64, kind: u64, subject: u32) {
        // ties at one time are broken by a draw from the seeded generator: a fixed order (say by
        // link id) would hand every freed queue slot to the same sender (phase lock-out); or,
        // as htsim, by the order of scheduling
        let tie = if self.scheduled {
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

    /// Schedule an event with the given tie (0: before every other event of its time).
    #[inline]
    pub fn push_key(&mut self, t: u64, tie: u64, kind: u64, subject: u32) {
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
    pub fn next(&self) -> Option<u128> {
        match (self.heap.peek(), self.timers.peek()) {
            (Some(a), Some(b)) => Some(a.0.min(b.0)),
            (a, b) => a.or(b).map(|r| r.0),
        }
    }

    /// Remove the earliest pending event, whose key [`EventList::next`] gave: its kind and
    /// subject.
    #[inline]
    pub fn pop(&mut self, e: u128) -> (u64, u32) {
        if self.timers.peek().is_some_and(|r| r.0 == e) {
            self.timers.pop();
        } else {
            self.heap.pop();
        }
        let low = e as u64;
        (
            (low >> KIND_SHIFT) & 7,
            (low & ((1 << KIND_SHIFT) - 1)) as u32,
        )
    }
}

/// The time of an event key.
#[inline]
pub fn time_of(e: u128) -> u64 {
    (e >> 64) as u64
}
