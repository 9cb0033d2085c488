//! A server NIC's queue. Switch ports are plain FIFOs; a NIC (with `host_queue: "fair"`, the
//! default) sends ACKs before data and, within each of the two classes, takes one packet from
//! each connection in turn, as htsim's host queue (`FairPriorityQueue` over a `FairPullQueue`
//! per class) and Linux's default `fq` qdisc do. With `"fifo"` a NIC keeps arrival order within
//! each class.

use std::collections::{BTreeMap, BTreeSet, VecDeque};

/// Round robin between connections in connection order, as htsim's `FairPullQueue`: after
/// serving connection `c` the turn passes to the next connection this NIC has ever queued for
/// (htsim keeps an empty connection's queue), so a connection that appears between `c` and that
/// successor waits for the turn to come round.
#[derive(Debug, Default)]
pub struct RoundRobin {
    waiting: BTreeMap<u32, VecDeque<u32>>,
    seen: BTreeSet<u32>,
    /// The connection whose turn is next (`None`: start from the first).
    turn: Option<u32>,
}

impl RoundRobin {
    pub fn push(&mut self, conn: u32, packet: u32) {
        self.seen.insert(conn);
        self.waiting.entry(conn).or_default().push_back(packet);
    }

    pub fn pop(&mut self) -> Option<u32> {
        let conn = self
            .turn
            .and_then(|t| self.waiting.range(t..).next())
            .or_else(|| self.waiting.iter().next())
            .map(|(&c, _)| c)?;
        let q = self.waiting.get_mut(&conn).expect("a waiting connection");
        let packet = q.pop_front();
        if q.is_empty() {
            self.waiting.remove(&conn);
        }
        self.turn = self.seen.range(conn + 1..).next().copied();
        packet
    }

    pub fn packets(&self) -> impl Iterator<Item = &u32> {
        self.waiting.values().flatten()
    }
}

/// One class of a NIC's queue: arrival order, or round robin between connections.
#[derive(Debug)]
pub enum ClassQueue {
    Fifo(VecDeque<u32>),
    Fair(Box<RoundRobin>),
}

impl ClassQueue {
    pub fn new(fair: bool) -> ClassQueue {
        if fair {
            ClassQueue::Fair(Box::default())
        } else {
            ClassQueue::Fifo(VecDeque::new())
        }
    }

    pub fn push(&mut self, conn: u32, packet: u32) {
        match self {
            ClassQueue::Fifo(q) => q.push_back(packet),
            ClassQueue::Fair(rr) => rr.push(conn, packet),
        }
    }

    pub fn pop(&mut self) -> Option<u32> {
        match self {
            ClassQueue::Fifo(q) => q.pop_front(),
            ClassQueue::Fair(rr) => rr.pop(),
        }
    }

    pub fn packets(&self) -> Box<dyn Iterator<Item = &u32> + '_> {
        match self {
            ClassQueue::Fifo(q) => Box::new(q.iter()),
            ClassQueue::Fair(rr) => Box::new(rr.packets()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn drain(rr: &mut RoundRobin) -> Vec<u32> {
        std::iter::from_fn(|| rr.pop()).collect()
    }

    #[test]
    fn takes_one_packet_per_connection_in_turn() {
        let mut rr = RoundRobin::default();
        for p in [10, 11, 12] {
            rr.push(1, p);
        }
        for p in [20, 21] {
            rr.push(2, p);
        }
        rr.push(0, 0);
        assert_eq!(drain(&mut rr), vec![0, 10, 20, 11, 21, 12]);
    }

    #[test]
    fn the_turn_passes_to_the_successor_known_when_served() {
        // htsim: after connection 1 is served the turn is at 5 (3 unknown then); 3's packet,
        // queued later, waits until the turn wraps round
        let mut rr = RoundRobin::default();
        rr.push(1, 10);
        rr.push(1, 11);
        rr.push(5, 50);
        assert_eq!(rr.pop(), Some(10));
        rr.push(3, 30);
        assert_eq!(drain(&mut rr), vec![50, 11, 30]);
    }

    #[test]
    fn an_emptied_connection_keeps_its_place_in_the_turn() {
        let mut rr = RoundRobin::default();
        rr.push(1, 10);
        rr.push(2, 20);
        assert_eq!(rr.pop(), Some(10)); // turn -> 2
        assert_eq!(rr.pop(), Some(20)); // turn -> none after 2: wraps
        rr.push(2, 21);
        rr.push(1, 11);
        assert_eq!(drain(&mut rr), vec![11, 21]);
    }
}
