//! Empirical flow-size CDFs. The bundled ones are copied from the project's reference folder into
//! `sim-engine/data/` (each file's header names its source) and embedded at compile time.

use crate::rng::Rng;

/// Bundled CDFs: (name, file text).
pub const BUNDLED: &[(&str, &str)] = &[
    ("websearch", include_str!("../../data/websearch.txt")),
    ("datamining", include_str!("../../data/datamining.txt")),
    ("hadoop", include_str!("../../data/hadoop.txt")),
    (
        "cachefollower",
        include_str!("../../data/cachefollower.txt"),
    ),
    ("webserver", include_str!("../../data/webserver.txt")),
];

/// A piecewise-linear CDF over flow sizes in bytes: points `(bytes, cumulative fraction)`.
#[derive(Clone, Debug)]
pub struct Cdf {
    points: Vec<(f64, f64)>,
}

impl Cdf {
    /// A bundled CDF by name.
    pub fn bundled(name: &str) -> Result<Cdf, String> {
        match BUNDLED.iter().find(|(n, _)| *n == name) {
            Some((_, text)) => Cdf::parse(text),
            None => Err(format!(
                "unknown CDF \"{name}\" (bundled: {})",
                BUNDLED.iter().map(|b| b.0).collect::<Vec<_>>().join(", ")
            )),
        }
    }

    /// Parse a bundled file: `#` comments, then lines `bytes cumulative_percent`.
    pub fn parse(text: &str) -> Result<Cdf, String> {
        let mut pts = Vec::new();
        for line in text.lines() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let mut it = line.split_whitespace();
            let b: f64 = it
                .next()
                .and_then(|x| x.parse().ok())
                .ok_or_else(|| format!("bad line \"{line}\""))?;
            let p: f64 = it
                .next()
                .and_then(|x| x.parse().ok())
                .ok_or_else(|| format!("bad line \"{line}\""))?;
            pts.push((b, p));
        }
        Cdf::from_percent_points(pts)
    }

    /// Points `(bytes, cumulative percent)`, non-decreasing in both, ending at 100 percent.
    pub fn from_percent_points(pts: Vec<(f64, f64)>) -> Result<Cdf, String> {
        if pts.len() < 2 {
            return Err("a CDF needs at least 2 points".into());
        }
        for (i, w) in pts.windows(2).enumerate() {
            if !(w[1].0 >= w[0].0 && w[1].1 >= w[0].1) {
                return Err(format!(
                    "points must be non-decreasing in size and percent (point {})",
                    i + 1
                ));
            }
        }
        if pts
            .iter()
            .any(|p| !p.0.is_finite() || !p.1.is_finite() || p.0 < 0.0 || p.1 < 0.0)
        {
            return Err("points must be finite and >= 0".into());
        }
        let last = pts[pts.len() - 1].1;
        if (last - 100.0).abs() > 1e-6 {
            return Err(format!("the last point must be at 100 percent, got {last}"));
        }
        if pts[pts.len() - 1].0 < 1.0 {
            return Err("the largest size must be at least 1 byte".into());
        }
        Ok(Cdf {
            points: pts.into_iter().map(|(b, p)| (b, p / 100.0)).collect(),
        })
    }

    /// Mean size in bytes under linear interpolation.
    pub fn mean(&self) -> f64 {
        let mut m = self.points[0].0 * self.points[0].1;
        for w in self.points.windows(2) {
            m += (w[1].1 - w[0].1) * (w[0].0 + w[1].0) / 2.0;
        }
        m
    }

    /// Sample a size (at least 1 byte).
    pub fn sample(&self, rng: &mut Rng) -> u64 {
        let u = rng.next_f64();
        let pts = &self.points;
        let mut size = pts[pts.len() - 1].0;
        if u < pts[0].1 {
            size = pts[0].0;
        } else {
            for w in pts.windows(2) {
                if u < w[1].1 {
                    let f = (u - w[0].1) / (w[1].1 - w[0].1);
                    size = w[0].0 + f * (w[1].0 - w[0].0);
                    break;
                }
            }
        }
        (size.round() as u64).max(1)
    }
}
