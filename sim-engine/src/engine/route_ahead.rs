//! Routes of upcoming arrivals, worked out ahead on a second thread.
//!
//! With a router that has no controller (ECMP, VLB, GRIN), a flow's paths and latency terms
//! depend only on the network, which links are up, the seed and the flow. So while every link is
//! up, a helper thread routes the root flows in arrival order and hands them over in batches;
//! the event loop takes each flow's route instead of working it out between two solves. The
//! helper computes exactly what the event loop would (same router, same inputs), so results do
//! not depend on it. The first link state change ends the feed: later arrivals are routed on the
//! event thread, against the links as they are then.

use std::sync::mpsc::{sync_channel, Receiver};
use std::thread::Scope;

use super::latency::LatencyModel;
use crate::network::Network;
use crate::routing::{Binding, RouteCtx, Router};
use crate::units::{Bytes, LinkId, NodeId, Time};

/// Flows per batch, and batches queued ahead of the event loop.
const BATCH: usize = 512;
const QUEUED: usize = 8;

/// A flow to route: id, source, destination, size.
pub type Job = (u32, NodeId, NodeId, Bytes);

/// One routed flow; its paths are `Batch::paths[previous flow's end..paths_end]`.
#[derive(Clone, Copy, Debug)]
struct Routed {
    flow: u32,
    paths_end: u32,
    binding: Option<Binding>,
    /// Latency terms (meaningless when the flow has no path).
    extra: Time,
    ideal_s: f64,
}

#[derive(Debug, Default)]
struct Batch {
    flows: Vec<Routed>,
    /// Per path: end of its links in `links`, and its weight.
    paths: Vec<(u32, f64)>,
    links: Vec<LinkId>,
}

/// The event loop's end of the feed.
#[derive(Debug)]
pub struct RouteFeed {
    rx: Receiver<Batch>,
    batch: Batch,
    /// Next flow of `batch` to hand out.
    at: usize,
}

/// A routed flow, borrowed from the feed.
pub struct RoutedFlow<'f> {
    batch: &'f Batch,
    paths: std::ops::Range<usize>,
    pub binding: Option<Binding>,
    pub extra: Time,
    pub ideal_s: f64,
}

impl RoutedFlow<'_> {
    /// Its paths and weights (none: no path existed).
    pub fn paths(&self) -> impl Iterator<Item = (&[LinkId], f64)> + '_ {
        self.paths.clone().map(|i| {
            let start = if i == 0 {
                0
            } else {
                self.batch.paths[i - 1].0 as usize
            };
            let (end, w) = self.batch.paths[i];
            (&self.batch.links[start..end as usize], w)
        })
    }
}

impl RouteFeed {
    /// The route of flow `f` if it is the next flow of the feed (root flows come in arrival
    /// order); waits for the helper when it is behind. None when `f` is not next or the feed
    /// has ended.
    pub fn next_for(&mut self, f: u32) -> Option<RoutedFlow<'_>> {
        if self.at == self.batch.flows.len() {
            self.batch = self.rx.recv().ok()?;
            self.at = 0;
        }
        let r = self.batch.flows[self.at];
        if r.flow != f {
            return None;
        }
        let start = if self.at == 0 {
            0
        } else {
            self.batch.flows[self.at - 1].paths_end as usize
        };
        self.at += 1;
        Some(RoutedFlow {
            batch: &self.batch,
            paths: start..r.paths_end as usize,
            binding: r.binding,
            extra: r.extra,
            ideal_s: r.ideal_s,
        })
    }
}

/// Start routing `jobs` (root flows, in arrival order) on a thread of `scope`, with every link
/// up. The thread stops when the feed is dropped.
pub fn spawn<'scope>(
    scope: &'scope Scope<'scope, '_>,
    net: &'scope Network,
    mut router: Router,
    latency: LatencyModel,
    nominal_cap: Vec<f64>,
    seed: u64,
    jobs: Vec<Job>,
) -> RouteFeed {
    let (tx, rx) = sync_channel(QUEUED);
    scope.spawn(move || {
        let up = vec![true; net.links.len()];
        let ctx = RouteCtx { net, up: &up, seed };
        for chunk in jobs.chunks(BATCH) {
            let mut b = Batch::default();
            for &(f, src, dst, bytes) in chunk {
                let route = router.route(&ctx, f, src, dst);
                let (extra, ideal_s) = if route.paths.is_empty() {
                    (Time::ZERO, f64::NAN)
                } else {
                    let paths = route.paths.iter().map(|(p, _)| p.as_slice());
                    latency.terms(&nominal_cap, bytes, src, dst, paths)
                };
                for (p, w) in &route.paths {
                    b.links.extend_from_slice(p);
                    b.paths.push((b.links.len() as u32, *w));
                }
                b.flows.push(Routed {
                    flow: f,
                    paths_end: b.paths.len() as u32,
                    binding: route.binding,
                    extra,
                    ideal_s,
                });
            }
            if tx.send(b).is_err() {
                return; // the run is over, or the links changed
            }
        }
    });
    RouteFeed {
        rx,
        batch: Batch::default(),
        at: 0,
    }
}
