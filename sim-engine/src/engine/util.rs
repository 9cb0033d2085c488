//! Per-link carried bits over time, as a difference series: a load change records only what it
//! changes, in the bucket it falls in, and the series is integrated when read. Buckets are a
//! power-of-two multiple of 1 us wide, at first the narrowest that holds the known part of the run
//! (its last arrival), and double (merging pairs) whenever the run outgrows `MAX_BUCKETS`, so a
//! series always has between 64 and 128 buckets, whatever the length. All series live in one flat array, bucket by
//! bucket (`acc[bucket * links + link]`): the changes of one moment land in the same row, small
//! enough to stay in cache.
//!
//! Without series (`engine.link_series: false`) nothing per bucket is allocated: each link keeps
//! its carried bits, load and peak load (32 bytes), and the report's `peak_util` is then the
//! peak instantaneous utilisation instead of the peak bucket.

use super::cache_hint::prefetch;
use super::zeroed::ZeroedSlice;

pub const MAX_BUCKETS: usize = 128;

#[derive(Clone, Debug)]
pub struct LinkUtil {
    /// Bucket width in picoseconds.
    pub width: u64,
    /// What the load changes in each bucket did, per directed link, bucket-major.
    acc: Vec<Changes>,
    /// Buckets of each link's series in use (up to the last one it carried anything in).
    used: Vec<u8>,
    /// Time of the latest `reach` (ps), its bucket, and where that bucket ends.
    now: u64,
    cur: usize,
    cur_end: u64,
    /// Whether the per-bucket series are kept; without them, the per-link fields below.
    keep_series: bool,
    n: usize,
    /// Per link: carried bits, load and peak (one record: a change touches one cache line, where
    /// four arrays cost four misses once the links outgrow the cache, as on a k = 32 fat-tree).
    totals: ZeroedSlice<Totals>,
}

/// A link's carried bits without series: bits carried up to `last`, load since then (bits per
/// ps), peak load (bits per ps).
#[derive(Clone, Copy, Debug, Default, bytemuck::Zeroable)]
#[repr(C, align(32))]
struct Totals {
    tot: f64,
    last: u64,
    load: f64,
    peak: f64,
}

/// The load changes of one link within one bucket.
#[derive(Clone, Copy, Debug, Default, bytemuck::Zeroable)]
struct Changes {
    /// Sum of the changes, bits per ps.
    delta: f64,
    /// Sum of each change times the time from it to the end of the bucket: the bits the changes
    /// added to the bucket.
    bits: f64,
}

impl LinkUtil {
    /// Series for `links` links over a run known to last at least until `horizon` (ps).
    pub fn new(links: usize, horizon: u64) -> LinkUtil {
        LinkUtil::with_series(links, horizon, true)
    }

    /// As [`LinkUtil::new`]; `keep_series: false` keeps per-link totals and peaks only.
    pub fn with_series(links: usize, horizon: u64, keep_series: bool) -> LinkUtil {
        let mut width = 1_000_000;
        // as wide as doubling would make it by the horizon (merging costs a pass over the series)
        while horizon / width >= MAX_BUCKETS as u64 {
            width *= 2;
        }
        LinkUtil {
            width,
            // zeroed, not written: the pages of links that never carry a flow stay unmapped
            acc: bytemuck::zeroed_vec(if keep_series { links * MAX_BUCKETS } else { 0 }),
            used: vec![0; if keep_series { links } else { 0 }],
            now: 0,
            cur: 0,
            cur_end: width,
            keep_series,
            n: links,
            totals: ZeroedSlice::new(if keep_series { 0 } else { links }),
        }
    }

    fn links(&self) -> usize {
        self.n
    }

    /// Peak load of link `l` in Gb/s, when the series are not kept (`None` when they are).
    pub fn peak_gbps(&self, l: usize) -> Option<f64> {
        (!self.keep_series).then(|| self.totals[l].peak * 1e3)
    }

    /// Bits carried per bucket by link `l`, from time 0 up to the latest `reach`.
    fn buckets(&self, l: usize) -> impl ExactSizeIterator<Item = f64> + '_ {
        let n = self.links();
        let mut load = 0.0; // bits per ps at the start of the bucket
        (0..self.cur + 1).map(move |b| {
            let c = self.acc[b * n + l];
            let bits = if b < self.cur {
                load * self.width as f64 + c.bits
            } else {
                // the part after `now` has not happened yet
                let left = (self.cur_end - self.now) as f64;
                load * (self.width as f64 - left) + c.bits - c.delta * left
            };
            load += c.delta;
            bits
        })
    }

    /// Bits carried per bucket by link `l`, from time 0 to its last loaded bucket (after
    /// `close`).
    pub fn series(&self, l: usize) -> impl ExactSizeIterator<Item = f64> + '_ {
        let n = if self.keep_series {
            self.used[l] as usize
        } else {
            0
        };
        self.buckets(l).take(n)
    }

    /// Total bits carried by link `l` up to the latest `reach`.
    pub fn total_bits(&self, l: usize) -> f64 {
        if !self.keep_series {
            let t = &self.totals[l];
            return t.tot + t.load * (self.now - t.last) as f64;
        }
        self.buckets(l).sum()
    }

    /// Move to time `now` (never backwards): later changes are recorded at `now`.
    pub fn reach(&mut self, now: u64) {
        debug_assert!(now >= self.now, "time goes forwards");
        if now < self.cur_end {
            self.now = now; // the same bucket (most calls: no division)
            return;
        }
        let n = self.links();
        while !self.keep_series && now / self.width >= MAX_BUCKETS as u64 {
            self.width *= 2;
        }
        while now / self.width >= MAX_BUCKETS as u64 {
            // merge pairs: a change in the first half now ends a bucket later
            let w = self.width as f64;
            for k in 0..MAX_BUCKETS / 2 {
                for l in 0..n {
                    let (a, b) = (self.acc[2 * k * n + l], self.acc[(2 * k + 1) * n + l]);
                    self.acc[k * n + l] = Changes {
                        delta: a.delta + b.delta,
                        bits: a.bits + a.delta * w + b.bits,
                    };
                }
            }
            self.acc[MAX_BUCKETS / 2 * n..]
                .iter_mut()
                .for_each(|c| *c = Changes::default());
            for u in &mut self.used {
                *u = u.div_ceil(2);
            }
            self.width *= 2;
        }
        self.now = now;
        self.cur = (now / self.width) as usize;
        self.cur_end = (self.cur as u64 + 1) * self.width;
    }

    /// Ask for link `l`'s record before a change (without series: the one record a change
    /// touches; the solver never reads it, so on a network whose links outgrow the cache it is
    /// cold, and the rate changes of one step ask for all of theirs at once).
    #[inline]
    pub fn prefetch(&self, l: usize) {
        if let Some(t) = self.totals.get(l) {
            prefetch(t);
        }
    }

    /// Record that link `l`'s load went from `before` to `after` Gb/s at the reached time.
    #[inline]
    pub fn change(&mut self, l: usize, before: f64, after: f64) {
        let n = self.links();
        let delta = (after - before) * 1e-3;
        if !self.keep_series {
            let t = &mut self.totals[l];
            t.tot += t.load * (self.now - t.last) as f64;
            t.last = self.now;
            t.load += delta;
            t.peak = t.peak.max(t.load);
            return;
        }
        let c = &mut self.acc[self.cur * n + l];
        c.delta += delta;
        c.bits += delta * (self.cur_end - self.now) as f64;
        if before > 0.0 {
            // the series runs to the last bucket the load ran in: the one before this if it
            // ended right where this one starts (a load still on at the end is marked by `close`)
            let last = if self.now + self.width > self.cur_end {
                self.cur + 1
            } else {
                self.cur
            };
            let u = &mut self.used[l];
            *u = (*u).max(last as u8);
        }
    }

    /// End the series at `end`, with each link's load then (`load(l)`).
    pub fn close(&mut self, end: u64, load: impl Fn(usize) -> f64) {
        // the bucket holding the last picosecond, so that `end` never opens a new one
        self.reach(end.saturating_sub(1).max(self.now));
        self.now = end.max(self.now);
        if !self.keep_series {
            return;
        }
        for l in 0..self.links() {
            if load(l) > 0.0 {
                self.used[l] = self.used[l].max(self.cur as u8 + 1);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn series_integrates_the_load_changes_per_bucket() {
        let us = 1_000_000; // the first bucket width, ps
        let mut u = LinkUtil::new(2, 0);
        // link 0: 10 Gb/s from 0.5 us to 2.25 us; link 1: idle throughout
        u.reach(us / 2);
        u.change(0, 0.0, 10.0);
        u.reach(2 * us + us / 4);
        u.change(0, 10.0, 0.0);
        u.close(3 * us, |_| 0.0);
        // 10 Gb/s = 0.01 bits per ps: 5,000 bits in the first half bucket, 10,000 in a full one
        let s: Vec<f64> = u.series(0).collect();
        assert_eq!(s.len(), 3);
        for (got, want) in s.iter().zip([5_000.0, 10_000.0, 2_500.0]) {
            assert!((got - want).abs() < 1e-6, "{s:?}");
        }
        assert!((u.total_bits(0) - 17_500.0).abs() < 1e-6);
        assert_eq!(u.series(1).len(), 0);
        // without series: the same totals, the peak load, no buckets
        let mut v = LinkUtil::with_series(2, 0, false);
        v.reach(us / 2);
        v.change(0, 0.0, 10.0);
        v.reach(2 * us + us / 4);
        v.change(0, 10.0, 0.0);
        v.close(3 * us, |_| 0.0);
        assert!((v.total_bits(0) - 17_500.0).abs() < 1e-6);
        assert_eq!(v.peak_gbps(0), Some(10.0));
        assert_eq!(v.series(0).len(), 0);
        assert!(v.acc.is_empty());
        assert_eq!(u.peak_gbps(0), None);
    }

    #[test]
    fn a_long_run_merges_buckets_and_keeps_the_totals() {
        let us = 1_000_000;
        let mut u = LinkUtil::new(1, 0);
        // 1 Gb/s from 0 to 300 us, still loaded at the end (300 buckets of 1 us: merged twice)
        u.reach(0);
        u.change(0, 0.0, 1.0);
        u.reach(150 * us);
        u.change(0, 1.0, 2.0); // 2 Gb/s from 150 us
        u.close(300 * us, |_| 2.0);
        assert_eq!(u.width, 4 * us);
        let s: Vec<f64> = u.series(0).collect();
        assert_eq!(s.len(), 75);
        // 1 Gb/s = 0.001 bits per ps: 4,000 bits per 4 us bucket, then 8,000; the change at
        // 150 us falls mid-bucket (148..152 us): 2 us at each rate
        assert!((s[0] - 4_000.0).abs() < 1e-6);
        assert!((s[37] - 6_000.0).abs() < 1e-6, "{}", s[37]);
        assert!((s[74] - 8_000.0).abs() < 1e-6);
        assert!((u.total_bits(0) - (150.0 * 1_000.0 + 150.0 * 2_000.0)).abs() < 1e-3);
        // the same run with its length known up front: no merging, the same series
        let mut v = LinkUtil::new(1, 299 * us);
        assert_eq!(v.width, 4 * us);
        v.reach(0);
        v.change(0, 0.0, 1.0);
        v.reach(150 * us);
        v.change(0, 1.0, 2.0);
        v.close(300 * us, |_| 2.0);
        let t: Vec<f64> = v.series(0).collect();
        assert_eq!(t.len(), s.len());
        for (a, b) in s.iter().zip(&t) {
            assert!((a - b).abs() < 1e-6);
        }
    }
}
