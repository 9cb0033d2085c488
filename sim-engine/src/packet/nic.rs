//! A server NIC's queue. Switch ports are plain FIFOs; a NIC (with `host_queue: "fair"`, the
//! default) sends ACKs before data and, within each of the two classes, takes one packet from
//! each connection in turn, as htsim's host queue (`FairPriorityQueue` over a `FairPullQueue`
//! per class) and Linux's default `fq` qdisc do. With `"fifo"` a NIC keeps arrival order within
//! each class.

use std::collections::VecDeque;

/// Round robin between connections in connection order, as htsim's `FairPullQueue`: after
/// serving connection `c` the turn passes to the next connection this NIC has ever queued for
/// (htsim keeps an empty connection's queue), so a connection that appears between `c` and that
/// successor waits for the turn to come round. A NIC has few connections at a time and new ones
/// come in increasing order: sorted vectors beat a tree here.
#[derive(Debug, Default)]
pub struct RoundRobin {
    /// Connections with packets waiting, in connection order, with their packets.
    waiting: Vec<(u32, VecDeque<u32>)>,
    /// Every connection ever queued for, in order.
    seen: Vec<u32>,
    /// The connection whose turn is next (`None`: start from the first).
    turn: Option<u32>,
    /// Emptied queues, kept for the next connection (no allocation per burst).
    spare: Vec<VecDeque<u32>>,
}

impl RoundRobin {
    pub fn push(&mut self, conn: u32, packet: u32) {
        if self.seen.last().is_none_or(|&c| c < conn) {
            self.seen.push(conn);
        } else if let Err(i) = self.seen.binary_search(&conn) {
            self.seen.insert(i, conn);
        }
        let i = self.waiting.partition_point(|w| w.0 < conn);
        if self.waiting.get(i).is_some_and(|w| w.0 == conn) {
            self.waiting[i].1.push_back(packet);
        } else {
            let mut q = self.spare.pop().unwrap_or_default();
            q.push_back(packet);
            self.waiting.insert(i, (conn, q));
        }
    }

    pub fn pop(&mut self) -> Option<u32> {
        if self.waiting.is_empty() {
            return None;
        }
        let i = self
            .turn
            .map(|t| self.waiting.partition_point(|w| w.0 < t))
            .filter(|&i| i < self.waiting.len())
            .unwrap_or(0);
        let conn = self.waiting[i].0;
        let packet = self.waiting[i].1.pop_front();
        if self.waiting[i].1.is_empty() {
            let (_, q) = self.waiting.remove(i);
            self.spare.push(q);
        }
        let next = self.seen.partition_point(|&c| c <= conn);
        self.turn = self.seen.get(next).copied();
        packet
    }

    pub fn packets(&self) -> impl Iterator<Item = &u32> {
        self.waiting.iter().flat_map(|w| w.1.iter())
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
