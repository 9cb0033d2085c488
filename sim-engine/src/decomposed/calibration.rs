//! The error of decomposed mode measured against full packet mode (`data/decomposed_calibration.json`,
//! written by `scripts/calibrate_decomposed.py`): every result carries the largest error seen
//! per flow-size bucket, so a planner reads how far to trust each bucket.

use serde::Deserialize;

use crate::report::{Accuracy, BucketAccuracy};

/// The table as measured (`loopline-sim calibration` prints it with [`accuracy`]).
pub const TABLE: &str = include_str!("../../data/decomposed_calibration.json");

/// Where the table is shown.
pub const SOURCE: &str = "sim-engine/README.md#decomposed-mode-calibration";

#[derive(Deserialize)]
struct Table {
    cases: Vec<Case>,
}

#[derive(Deserialize)]
struct Case {
    name: String,
    by_size: Vec<Bucket>,
}

/// One bucket of one case: the medians over its seeds, packet and decomposed, and their
/// relative errors.
#[derive(Deserialize)]
struct Bucket {
    bucket: String,
    mean_slowdown_error: f64,
    p99_slowdown_error: f64,
}

/// The largest error measured per bucket over every case (`None` before any calibration).
pub fn accuracy() -> Option<Accuracy> {
    let table: Table = serde_json::from_str(TABLE).expect("the calibration table parses");
    if table.cases.is_empty() {
        return None;
    }
    let mut by_size: Vec<BucketAccuracy> = Vec::new();
    for case in &table.cases {
        for b in &case.by_size {
            let (m, p) = (b.mean_slowdown_error.abs(), b.p99_slowdown_error.abs());
            match by_size.iter_mut().find(|x| x.bucket == b.bucket) {
                Some(x) => {
                    x.mean_slowdown_error = x.mean_slowdown_error.max(m);
                    x.p99_slowdown_error = x.p99_slowdown_error.max(p);
                }
                None => by_size.push(BucketAccuracy {
                    bucket: b.bucket.clone(),
                    mean_slowdown_error: m,
                    p99_slowdown_error: p,
                }),
            }
        }
    }
    Some(Accuracy {
        measured_on: table.cases.iter().map(|c| c.name.clone()).collect(),
        by_size,
        source: SOURCE.into(),
    })
}

/// `loopline-sim calibration`: the largest errors every result carries and the cases measured.
pub fn document() -> serde_json::Value {
    let table: serde_json::Value =
        serde_json::from_str(TABLE).expect("the calibration table parses");
    serde_json::json!({"accuracy": accuracy(), "cases": table["cases"]})
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_table_parses() {
        // (the table is compiled in: a malformed one must fail here, not in a user's run)
        let _ = super::accuracy();
    }
}
