//! The water-filling queue: a min-priority queue of non-negative `f64` levels.
//!
//! For non-negative floats the IEEE bit pattern orders like the value, so keys are kept as bits
//! and compared as integers. A plain binary heap: the queues are small (a region's links), and a
//! radix heap, tried first, spent more time redistributing buckets (a level's low mantissa bits
//! differ between links, so entries moved down many buckets) than the heap spends on comparisons.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

#[derive(Clone, Debug, Default)]
pub struct LevelQueue {
    heap: BinaryHeap<Reverse<(u64, u32)>>,
}

impl LevelQueue {
    /// Empty the queue (its allocation is kept).
    pub fn clear(&mut self) {
        self.heap.clear();
    }

    /// Queue `item` at `key` (negative keys count as 0).
    #[inline]
    pub fn push(&mut self, key: f64, item: u32) {
        let k = if key > 0.0 { key.to_bits() } else { 0 };
        self.heap.push(Reverse((k, item)));
    }

    /// The entry with the smallest key (ties: the smallest item).
    #[inline]
    pub fn pop(&mut self) -> Option<(f64, u32)> {
        self.heap
            .pop()
            .map(|Reverse((k, item))| (f64::from_bits(k), item))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pops_in_key_order_then_item_order() {
        let mut q = LevelQueue::default();
        for (i, k) in [5.0, 0.5, 10.0, 2.5, 2.5, -0.0, 7.25].iter().enumerate() {
            q.push(*k, i as u32);
        }
        let mut out = Vec::new();
        while let Some((k, v)) = q.pop() {
            if v == 1 {
                q.push(6.0, 100); // re-queued above the current minimum, as water-filling does
            }
            out.push((k, v));
        }
        let expected = [
            (0.0, 5),
            (0.5, 1),
            (2.5, 3),
            (2.5, 4),
            (5.0, 0),
            (6.0, 100),
            (7.25, 6),
            (10.0, 2),
        ];
        assert_eq!(out, expected);
        q.clear();
        q.push(1.0, 1);
        assert_eq!(q.pop(), Some((1.0, 1)));
        assert_eq!(q.pop(), None);
    }
}
