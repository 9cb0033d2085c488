//! The water-filling queue: a min-priority queue of non-negative `f64` levels.
//!
//! For non-negative floats the IEEE bit pattern orders like the value, so keys are kept as bits
//! and compared as integers. A plain binary heap: the queues are small (a region's links), and a
//! radix heap, tried first, spent more time redistributing buckets (a level's low mantissa bits
//! differ between links, so entries moved down many buckets) than the heap spends on comparisons.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// Entries come in two kinds: queued ones (`push`, at any time) and fixed ones (`push_fixed`,
/// all before the first `pop`), which are only sorted once and merged, not sifted through the
/// heap: water-filling knows most of its entries up front and never moves them.
#[derive(Clone, Debug, Default)]
pub struct LevelQueue {
    heap: BinaryHeap<Reverse<(u64, u32)>>,
    /// Fixed entries as `key << 32 | item`: one integer sorts faster than a pair.
    fixed: Vec<u128>,
    /// Whether `fixed` is sorted (popping has started), and its next entry.
    sorted: bool,
    next: usize,
}

#[inline]
fn key_bits(key: f64) -> u64 {
    if key > 0.0 {
        key.to_bits()
    } else {
        0
    }
}

impl LevelQueue {
    /// Empty the queue (its allocation is kept).
    pub fn clear(&mut self) {
        self.heap.clear();
        self.fixed.clear();
        self.sorted = false;
        self.next = 0;
    }

    /// Queue `item` at `key` (negative keys count as 0).
    #[inline]
    pub fn push(&mut self, key: f64, item: u32) {
        self.heap.push(Reverse((key_bits(key), item)));
    }

    /// Queue `item` at `key` before the first `pop` (negative keys count as 0).
    #[inline]
    pub fn push_fixed(&mut self, key: f64, item: u32) {
        debug_assert!(!self.sorted, "fixed entries come before the first pop");
        self.fixed
            .push((key_bits(key) as u128) << 32 | item as u128);
    }

    /// The entry with the smallest key (ties: the smallest item).
    #[inline]
    pub fn pop(&mut self) -> Option<(f64, u32)> {
        if !self.sorted {
            self.fixed.sort_unstable();
            self.sorted = true;
        }
        let fixed = self
            .fixed
            .get(self.next)
            .map(|&e| ((e >> 32) as u64, e as u32));
        let take_fixed = match (fixed, self.heap.peek()) {
            (Some(f), Some(Reverse(h))) => f < *h,
            (f, _) => f.is_some(),
        };
        let (k, item) = if take_fixed {
            self.next += 1;
            fixed.expect("checked")
        } else {
            self.heap.pop()?.0
        };
        Some((f64::from_bits(k), item))
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

    #[test]
    fn fixed_entries_merge_with_queued_ones_in_key_then_item_order() {
        let mut q = LevelQueue::default();
        for (k, v) in [(3.0, 30), (1.0, 10), (2.0, 7), (-1.0, 1)] {
            q.push_fixed(k, v);
        }
        for (k, v) in [(2.0, 5), (2.5, 6), (0.0, 2)] {
            q.push(k, v);
        }
        let mut out = Vec::new();
        while let Some((k, v)) = q.pop() {
            if v == 10 {
                q.push(1.5, 15); // queued after popping started, between fixed entries
            }
            out.push((k, v));
        }
        let expected = [
            (0.0, 1),
            (0.0, 2),
            (1.0, 10),
            (1.5, 15),
            (2.0, 5),
            (2.0, 7),
            (2.5, 6),
            (3.0, 30),
        ];
        assert_eq!(out, expected);
    }
}
