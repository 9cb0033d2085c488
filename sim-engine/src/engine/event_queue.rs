//! The flow engine's pending events: a min-heap of `u128` keys, four children per node, each
//! node's children in one cache line.
//!
//! On a k = 32 fat-tree with a million flows the heap holds ~50,000 events (completions,
//! superseded ones included until popped), beyond the first-level cache, and every pop walks
//! it to the bottom. A binary heap of 16-byte keys walks 16 levels, and half of its sibling
//! pairs straddle two cache lines; here a pop walks 8 levels of one line each. The order is the
//! keys' total order, as `BinaryHeap<Reverse<u128>>` pops them (equal keys are the same event).

/// Four keys: one node's children, aligned to a cache line.
#[derive(Clone, Copy, Debug, Default, bytemuck::Zeroable, bytemuck::Pod)]
#[repr(C, align(64))]
struct Line([u128; 4]);

/// Slots before the root, so that the children of node `j` (`4j + 1 ..= 4j + 4`) sit at slots
/// `4(j + 1) ..= 4(j + 1) + 3`: one whole line. In slots: the root is at `PAD`, the children of
/// slot `p` start at `4p - 8` and its parent is at `p / 4 + 2`.
const PAD: usize = 3;

#[derive(Clone, Debug, Default)]
pub struct EventQueue {
    lines: Vec<Line>,
    len: usize,
}

impl EventQueue {
    /// Every slot, padding included.
    #[inline]
    fn slots(&self) -> &[u128] {
        bytemuck::cast_slice(&self.lines)
    }

    #[inline]
    fn slots_mut(&mut self) -> &mut [u128] {
        bytemuck::cast_slice_mut(&mut self.lines)
    }

    #[cfg(test)]
    fn at(&self, j: usize) -> u128 {
        self.slots()[j + PAD]
    }

    #[cfg(test)]
    fn len(&self) -> usize {
        self.len
    }

    #[cfg(test)]
    fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The smallest key.
    #[inline]
    pub fn peek(&self) -> Option<u128> {
        (self.len > 0).then(|| self.slots()[PAD])
    }

    #[inline]
    pub fn push(&mut self, v: u128) {
        let p = self.len + PAD;
        if p / 4 == self.lines.len() {
            self.lines.push(Line::default());
        }
        self.len += 1;
        sift_up(self.slots_mut(), p, v);
    }

    /// Remove and return the smallest key.
    pub fn pop(&mut self) -> Option<u128> {
        if self.len == 0 {
            return None;
        }
        self.len -= 1;
        let end = self.len + PAD; // one past the last slot in use, after this pop
        let a = self.slots_mut();
        let top = a[PAD];
        if end == PAD {
            return Some(top);
        }
        let v = a[end];
        // move the smallest child up into the hole, down to the bottom
        let mut p = PAD;
        loop {
            let c = 4 * p - 8;
            if c >= end {
                break;
            }
            let (m, mv) = if c + 4 <= end {
                // a full node (the usual case): the least of four as a small tournament, without
                // branches (which child wins is a coin toss a branch predictor loses)
                let four = &a[c..c + 4];
                let i = usize::from(four[1] < four[0]);
                let j = 2 + usize::from(four[3] < four[2]);
                let k = if four[j] < four[i] { j } else { i };
                (c + k, four[k])
            } else {
                let (mut m, mut mv) = (c, a[c]);
                for (k, &x) in a[c + 1..end].iter().enumerate() {
                    if x < mv {
                        (m, mv) = (c + 1 + k, x);
                    }
                }
                (m, mv)
            };
            a[p] = mv;
            p = m;
        }
        // the last key belongs near the bottom: up from there (as `BinaryHeap` does) instead of
        // comparing it on every level on the way down
        sift_up(a, p, v);
        Some(top)
    }
}

/// Puts `v` into the hole at slot `p`, moving larger parents down into it on the way up.
#[inline(always)]
fn sift_up(a: &mut [u128], mut p: usize, v: u128) {
    while p > PAD {
        let parent = p / 4 + 2;
        let pv = a[parent];
        if pv <= v {
            break;
        }
        a[p] = pv;
        p = parent;
    }
    a[p] = v;
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use std::cmp::Reverse;
    use std::collections::BinaryHeap;

    proptest! {
        /// Any mix of pushes and pops gives the keys in `BinaryHeap<Reverse<_>>`'s order.
        #[test]
        fn pops_in_the_binary_heaps_order(ops in proptest::collection::vec(proptest::option::of(0u128..50), 0..400)) {
            let mut q = EventQueue::default();
            let mut want = BinaryHeap::new();
            for op in ops {
                match op {
                    Some(v) => {
                        q.push(v << 64 | v);
                        want.push(Reverse(v << 64 | v));
                    }
                    None => prop_assert_eq!(q.pop(), want.pop().map(|Reverse(v)| v)),
                }
                prop_assert_eq!(q.peek(), want.peek().map(|&Reverse(v)| v));
                prop_assert_eq!(q.len(), want.len());
            }
            while let Some(Reverse(v)) = want.pop() {
                prop_assert_eq!(q.pop(), Some(v));
            }
            prop_assert!(q.is_empty());
        }
    }

    #[test]
    fn children_share_a_line() {
        let mut q = EventQueue::default();
        for v in [5u128, 3, 9, 1, 7, 2] {
            q.push(v);
        }
        assert_eq!(q.lines.as_ptr() as usize % 64, 0);
        // the root's children (nodes 1..=4) are slots 4..=7: the second line
        let children: Vec<u128> = (1..5).map(|j| q.at(j)).collect();
        assert_eq!(q.lines[1].0.to_vec(), children);
        assert_eq!(q.slots()[4..8], children[..]);
        let popped: Vec<u128> = std::iter::from_fn(|| q.pop()).collect();
        assert_eq!(popped, vec![1, 2, 3, 5, 7, 9]);
    }
}
