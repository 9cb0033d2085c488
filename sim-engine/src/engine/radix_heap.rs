//! A monotone min-priority queue (radix heap) of non-negative `f64` keys.
//!
//! Water-filling pops fair-share levels in increasing order and only ever pushes a key at or above
//! the last one popped, which is exactly the case a radix heap serves: a push is O(1) and a pop
//! moves each entry down at most once per differing key bit, with no comparisons of whole entries.
//! For non-negative floats the IEEE bit pattern orders like the value, so keys are kept as bits.

const BUCKETS: usize = 65;

#[derive(Clone, Debug)]
pub struct RadixHeap {
    last: u64,
    len: usize,
    /// Bit `i` set when bucket `i` is non-empty.
    filled: u128,
    buckets: Vec<Vec<(u64, u32)>>,
}

impl Default for RadixHeap {
    fn default() -> Self {
        RadixHeap {
            last: 0,
            len: 0,
            filled: 0,
            buckets: vec![Vec::new(); BUCKETS],
        }
    }
}

#[inline]
fn bucket(last: u64, key: u64) -> usize {
    (u64::BITS - (key ^ last).leading_zeros()) as usize
}

impl RadixHeap {
    /// Empty the heap and accept any key again (allocations are kept).
    pub fn clear(&mut self) {
        while self.filled != 0 {
            let i = self.filled.trailing_zeros() as usize;
            self.buckets[i].clear();
            self.filled &= self.filled - 1;
        }
        self.last = 0;
        self.len = 0;
    }

    /// Queue `item` at `key`; `key` must be >= 0 and >= the last popped key.
    #[inline]
    pub fn push(&mut self, key: f64, item: u32) {
        let k = if key > 0.0 { key.to_bits() } else { 0 };
        debug_assert!(k >= self.last, "radix heap keys must not decrease");
        let b = bucket(self.last, k);
        self.buckets[b].push((k, item));
        self.filled |= 1 << b;
        self.len += 1;
    }

    /// The entry with the smallest key (ties: any of them, deterministically).
    pub fn pop(&mut self) -> Option<(f64, u32)> {
        if self.len == 0 {
            return None;
        }
        if self.filled & 1 == 0 {
            let i = self.filled.trailing_zeros() as usize;
            let mut moved = std::mem::take(&mut self.buckets[i]);
            self.filled &= !(1 << i);
            self.last = moved.iter().map(|e| e.0).min().expect("non-empty");
            for &(k, v) in &moved {
                let b = bucket(self.last, k);
                self.buckets[b].push((k, v));
                self.filled |= 1 << b;
            }
            moved.clear();
            self.buckets[i] = moved;
        }
        self.len -= 1;
        let (k, v) = self.buckets[0].pop().expect("bucket 0 holds the minimum");
        if self.buckets[0].is_empty() {
            self.filled &= !1;
        }
        Some((f64::from_bits(k), v))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pops_in_key_order_with_monotone_pushes() {
        let mut h = RadixHeap::default();
        for (i, k) in [5.0, 0.5, 10.0, 2.5, 2.5, 0.0, 7.25].iter().enumerate() {
            h.push(*k, i as u32);
        }
        let mut out = Vec::new();
        while let Some((k, v)) = h.pop() {
            if v == 1 {
                h.push(6.0, 100); // re-queued above the current minimum, as water-filling does
            }
            out.push(k);
        }
        assert_eq!(out, vec![0.0, 0.5, 2.5, 2.5, 5.0, 6.0, 7.25, 10.0]);
        h.clear();
        h.push(1.0, 1);
        assert_eq!(h.pop(), Some((1.0, 1)));
        assert_eq!(h.pop(), None);
    }
}
