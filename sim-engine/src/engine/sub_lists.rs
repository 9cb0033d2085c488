//! The subflows on each directed link, one cache line per link.
//!
//! The solver's growth checks (`admit_higher`, `join_top`, `freeze_link`) scan a link's
//! subflows. As a `Vec` per link that scan cost two misses once the links outgrow the caches (a
//! k = 32 fat-tree's 49,152 directed links): the vector's header, then its heap block. Here a
//! link's list is held in its own 64-byte record, up to `INLINE` ids; a longer list moves whole
//! to a vector of a shared pool (and back once it shrinks to half of that), so a list is always
//! one contiguous slice in the same order a `Vec` would keep (push at the end, `swap_remove`).
//! Zero bytes are an empty list: the records of links no flow crosses are never written.

use super::cache_hint::prefetch;
use super::zeroed::ZeroedSlice;

/// Subflow ids held in a link's own record.
const INLINE: usize = 14;

#[derive(Clone, Copy, Debug, Default, bytemuck::Zeroable)]
#[repr(C, align(64))]
struct List {
    len: u32,
    /// 1 + the pool vector holding the list (0: the list is in `inline`).
    spill: u32,
    inline: [u32; INLINE],
}

const _: () = assert!(std::mem::size_of::<List>() == 64);

/// The subflow ids on each link, in the order of a `Vec` with `push` and `swap_remove`.
#[derive(Clone, Debug, Default)]
pub struct SubLists {
    lists: ZeroedSlice<List>,
    /// Lists longer than `INLINE`; a free vector keeps its allocation for the next one.
    pool: Vec<Vec<u32>>,
    free: Vec<u32>,
}

impl SubLists {
    /// `links` empty lists.
    pub fn new(links: usize) -> SubLists {
        SubLists {
            lists: ZeroedSlice::new(links),
            pool: Vec::new(),
            free: Vec::new(),
        }
    }

    /// The subflows on link `l`.
    #[inline]
    pub fn get(&self, l: usize) -> &[u32] {
        let x = &self.lists[l];
        if x.spill == 0 {
            &x.inline[..x.len as usize]
        } else {
            &self.pool[x.spill as usize - 1]
        }
    }

    /// Ask for link `l`'s list before a scan of it.
    #[inline]
    pub fn prefetch(&self, l: usize) {
        prefetch(&self.lists[l]);
    }

    /// Add subflow `s` at the end of link `l`'s list; returns its position.
    #[inline]
    pub fn push(&mut self, l: usize, s: u32) -> u32 {
        let x = &mut self.lists[l];
        let p = x.len;
        x.len += 1;
        if x.spill != 0 {
            self.pool[x.spill as usize - 1].push(s);
        } else if (p as usize) < INLINE {
            x.inline[p as usize] = s;
        } else {
            let k = match self.free.pop() {
                Some(k) => k as usize,
                None => {
                    self.pool.push(Vec::new());
                    self.pool.len() - 1
                }
            };
            let v = &mut self.pool[k];
            v.clear();
            v.extend_from_slice(&x.inline);
            v.push(s);
            x.spill = k as u32 + 1;
        }
        p
    }

    /// Remove the entry at position `p` of link `l`'s list, the last one taking its place (as
    /// `Vec::swap_remove`); returns the list's new length and the id now at `p` (when `p` is
    /// still inside the list).
    #[inline]
    pub fn swap_remove(&mut self, l: usize, p: usize) -> (usize, u32) {
        let x = &mut self.lists[l];
        x.len -= 1;
        let n = x.len as usize;
        if x.spill == 0 {
            let last = x.inline[n];
            x.inline[p] = last;
            return (n, last);
        }
        let k = x.spill as usize - 1;
        let v = &mut self.pool[k];
        let last = v[n];
        v[p] = last;
        v.truncate(n);
        if n <= INLINE / 2 {
            // short again: back into the record (half, so that a list at the limit does not
            // move on every arrival and departure)
            x.inline[..n].copy_from_slice(v);
            x.spill = 0;
            self.free.push(k as u32);
        }
        (n, last)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// Any sequence of pushes and removals leaves each link's list equal to a `Vec`'s,
        /// in the same order, through every move into and out of the pool.
        #[test]
        fn same_lists_as_vectors(ops in proptest::collection::vec((0usize..3, any::<bool>(), 0usize..64), 0..600)) {
            let mut lists = SubLists::new(3);
            let mut want: Vec<Vec<u32>> = vec![Vec::new(); 3];
            for (i, &(l, add, at)) in ops.iter().enumerate() {
                if add || want[l].is_empty() {
                    let p = lists.push(l, i as u32);
                    prop_assert_eq!(p as usize, want[l].len());
                    want[l].push(i as u32);
                } else {
                    let p = at % want[l].len();
                    want[l].swap_remove(p);
                    let (left, moved) = lists.swap_remove(l, p);
                    prop_assert_eq!(left, want[l].len());
                    if p < left {
                        prop_assert_eq!(moved, want[l][p]);
                    }
                }
                for (k, w) in want.iter().enumerate() {
                    prop_assert_eq!(lists.get(k), w.as_slice());
                }
            }
        }
    }

    #[test]
    fn a_long_list_moves_to_the_pool_and_back() {
        let mut lists = SubLists::new(2);
        for s in 0..20 {
            assert_eq!(lists.push(1, s), s);
        }
        assert_eq!(lists.get(1), (0..20).collect::<Vec<u32>>().as_slice());
        assert_eq!(lists.lists[1].spill, 1);
        assert!(lists.get(0).is_empty());
        // 20 -> 7 entries: back in the record at 7 (INLINE / 2), each removal moving the last in
        for _ in 0..13 {
            lists.swap_remove(1, 0);
        }
        assert_eq!(lists.lists[1].spill, 0);
        assert_eq!(lists.free, vec![0]);
        // removing position 0 thirteen times: 19, 18, ..., 7 came to the front in turn
        assert_eq!(lists.get(1), &[7, 1, 2, 3, 4, 5, 6]);
    }
}
