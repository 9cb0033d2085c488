//! Per-link carried bits over time, kept lazily: a link's integral is brought up to date only when
//! its load changes (or at the end). Buckets start 1 us wide and double (merging pairs) whenever the
//! run outgrows `MAX_BUCKETS`, so a series always has between 64 and 128 buckets, whatever the length.

pub const MAX_BUCKETS: usize = 128;

#[derive(Clone, Debug)]
pub struct LinkUtil {
    /// Bucket width in picoseconds.
    pub width: u64,
    last: Vec<u64>,
    /// Bits carried per bucket, per directed link.
    pub series: Vec<Vec<f64>>,
    /// Total bits carried, per directed link.
    pub total_bits: Vec<f64>,
}

impl LinkUtil {
    pub fn new(links: usize) -> LinkUtil {
        LinkUtil {
            width: 1_000_000,
            last: vec![0; links],
            series: vec![Vec::new(); links],
            total_bits: vec![0.0; links],
        }
    }

    /// Make sure time `now` falls within the bucket range (call before flushing at `now`).
    pub fn reach(&mut self, now: u64) {
        while now / self.width >= MAX_BUCKETS as u64 {
            self.width *= 2;
            for s in &mut self.series {
                let merged: Vec<f64> = s.chunks(2).map(|c| c.iter().sum()).collect();
                *s = merged;
            }
        }
    }

    /// Account link `l`'s constant load `gbps` from its last update up to `now`.
    #[inline]
    pub fn flush(&mut self, l: usize, now: u64, gbps: f64) {
        let mut t0 = self.last[l];
        if now <= t0 {
            return;
        }
        self.last[l] = now;
        if gbps <= 0.0 {
            return;
        }
        let bits_per_ps = gbps * 1e-3;
        self.total_bits[l] += bits_per_ps * (now - t0) as f64;
        let s = &mut self.series[l];
        while t0 < now {
            let b = (t0 / self.width) as usize;
            let end = ((b as u64 + 1) * self.width).min(now);
            if s.len() <= b {
                s.resize(b + 1, 0.0);
            }
            s[b] += bits_per_ps * (end - t0) as f64;
            t0 = end;
        }
    }
}
