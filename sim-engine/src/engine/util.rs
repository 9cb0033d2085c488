//! Per-link carried bits over time, kept lazily: a link's integral is brought up to date only when
//! its load changes (or at the end). Buckets start 1 us wide and double (merging pairs) whenever the
//! run outgrows `MAX_BUCKETS`, so a series always has between 64 and 128 buckets, whatever the length.
//! All series live in one flat array, bucket by bucket (`bits[bucket * links + link]`): the
//! flushes of one moment land in the same bucket, a row small enough to stay in cache.

pub const MAX_BUCKETS: usize = 128;

#[derive(Clone, Debug)]
pub struct LinkUtil {
    /// Bucket width in picoseconds.
    pub width: u64,
    links: Vec<Integral>,
    /// Bits carried per bucket and directed link, bucket-major.
    bits: Vec<f64>,
}

/// One link's running integral (kept together: a flush reads and writes all of it).
#[derive(Clone, Copy, Debug, Default)]
struct Integral {
    /// Time up to which the link is accounted, ps.
    last: u64,
    /// Total bits carried.
    total_bits: f64,
    /// Buckets of the series in use (up to the last loaded one).
    used: u8,
}

impl LinkUtil {
    pub fn new(links: usize) -> LinkUtil {
        LinkUtil {
            width: 1_000_000,
            links: vec![Integral::default(); links],
            bits: vec![0.0; links * MAX_BUCKETS],
        }
    }

    /// Bits carried per bucket by link `l`, from time 0 to its last loaded bucket.
    pub fn series(&self, l: usize) -> impl ExactSizeIterator<Item = f64> + '_ {
        let n = self.links.len();
        (0..self.links[l].used as usize).map(move |b| self.bits[b * n + l])
    }

    /// Total bits carried by link `l` up to its last flush.
    pub fn total_bits(&self, l: usize) -> f64 {
        self.links[l].total_bits
    }

    /// Make sure time `now` falls within the bucket range (call before flushing at `now`).
    pub fn reach(&mut self, now: u64) {
        let n = self.links.len();
        while now / self.width >= MAX_BUCKETS as u64 {
            self.width *= 2;
            for k in 0..MAX_BUCKETS / 2 {
                for l in 0..n {
                    self.bits[k * n + l] =
                        self.bits[2 * k * n + l] + self.bits[(2 * k + 1) * n + l];
                }
            }
            self.bits[MAX_BUCKETS / 2 * n..]
                .iter_mut()
                .for_each(|b| *b = 0.0);
            for link in &mut self.links {
                link.used = link.used.div_ceil(2);
            }
        }
    }

    /// Account link `l`'s constant load `gbps` from its last update up to `now`.
    #[inline]
    pub fn flush(&mut self, l: usize, now: u64, gbps: f64) {
        let link = &mut self.links[l];
        let mut t0 = link.last;
        if now <= t0 {
            return;
        }
        link.last = now;
        if gbps <= 0.0 {
            return;
        }
        let bits_per_ps = gbps * 1e-3;
        link.total_bits += bits_per_ps * (now - t0) as f64;
        let n = self.links.len();
        let mut b = (t0 / self.width) as usize;
        while t0 < now {
            let end = ((b as u64 + 1) * self.width).min(now);
            self.bits[b * n + l] += bits_per_ps * (end - t0) as f64;
            t0 = end;
            b += 1;
        }
        let used = &mut self.links[l].used;
        *used = (*used).max(b as u8);
    }
}
