//! Which busy links are simulated, and which take a similar link's delays instead.
//!
//! A link is described by what shapes its queue: its capacity and shape (whether a server sends
//! or receives on it), its offered work, its flows' mean size, how many servers send through it
//! and how bursty its arrivals are. Links of one capacity and shape whose features are within
//! the threshold of each other share one simulation, their representative's.

/// What shapes a link's queue, for clustering.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Features {
    /// Capacity (Gb/s) and whether the link leaves / enters a server: only equal ones cluster.
    pub gbps: f64,
    pub from_server: bool,
    pub to_server: bool,
    /// Offered work: the bits of its flows over its capacity, seconds.
    pub load_s: f64,
    /// Mean flow size, bytes.
    pub mean_bytes: f64,
    /// Distinct sending servers.
    pub senders: f64,
    /// Coefficient of variation of its flows' inter-arrival times (0 for fewer than 3 flows).
    pub burstiness: f64,
}

/// Whether `a` and `b` differ by at most `t` of the larger (both 0: equal).
pub fn close(a: f64, b: f64, t: f64) -> bool {
    (a - b).abs() <= t * a.abs().max(b.abs())
}

impl Features {
    fn same_kind(&self, o: &Features) -> bool {
        self.gbps == o.gbps && self.from_server == o.from_server && self.to_server == o.to_server
    }

    /// Whether `o` may take this link's simulation (besides the load, which [`cluster`] keeps
    /// within the threshold of every member).
    fn matches(&self, o: &Features, t: f64) -> bool {
        self.same_kind(o)
            && close(self.mean_bytes, o.mean_bytes, t)
            && close(self.senders, o.senders, t)
            && (self.burstiness - o.burstiness).abs() <= t
    }
}

/// The representative of every link (an index into `links`; a representative is its own), for
/// the links' features and a threshold `t` (0: every link its own).
///
/// Links are taken by kind and increasing load; a link joins the first open cluster whose
/// representative (its least loaded member) is within `t` of its load and matches its other
/// features, else opens one. Every member's load is then within `t` of every other's (all lie
/// between the representative's `x` and `x / (1 - t)`), so no two links whose loads differ by
/// more than the threshold ever share a simulation.
pub fn cluster(links: &[Features], t: f64) -> Vec<usize> {
    let mut rep: Vec<usize> = (0..links.len()).collect();
    if t <= 0.0 {
        return rep;
    }
    let mut order: Vec<usize> = (0..links.len()).collect();
    let kind = |f: &Features| (f.gbps.to_bits(), f.from_server, f.to_server);
    order.sort_by(|&a, &b| {
        let (fa, fb) = (&links[a], &links[b]);
        kind(fa)
            .cmp(&kind(fb))
            .then(fa.load_s.total_cmp(&fb.load_s))
            .then(a.cmp(&b))
    });
    // open clusters: their representatives, least loaded first
    let mut open: std::collections::VecDeque<usize> = std::collections::VecDeque::new();
    for &l in &order {
        let f = &links[l];
        // a representative of another kind, or too light for this load, closes for good
        // (the loads only grow from here)
        while let Some(&r) = open.front() {
            let fr = &links[r];
            if fr.same_kind(f) && close(fr.load_s, f.load_s, t) {
                break;
            }
            open.pop_front();
        }
        match open.iter().find(|&&r| links[r].matches(f, t)) {
            Some(&r) => rep[l] = r,
            None => open.push_back(l),
        }
    }
    rep
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn link(gbps: f64, load_s: f64, mean_bytes: f64) -> Features {
        Features {
            gbps,
            from_server: false,
            to_server: false,
            load_s,
            mean_bytes,
            senders: 10.0,
            burstiness: 1.0,
        }
    }

    #[test]
    fn links_within_the_threshold_share_a_representative() {
        let links = [
            link(100.0, 1.00, 1e5),
            link(100.0, 1.04, 1e5), // within 5 % of the first
            link(100.0, 1.20, 1e5), // 17 % above: its own
            link(40.0, 1.00, 1e5),  // another capacity: its own
            link(100.0, 1.02, 2e5), // another flow-size mix: its own
        ];
        assert_eq!(cluster(&links, 0.05), vec![0, 0, 2, 3, 4]);
        // no clustering at 0
        assert_eq!(cluster(&links, 0.0), vec![0, 1, 2, 3, 4]);
    }

    fn features() -> impl Strategy<Value = Features> {
        (
            prop::sample::select(vec![10.0, 40.0, 100.0]),
            any::<bool>(),
            0.0f64..2.0,
            1e3f64..1e6,
            1.0f64..50.0,
            0.0f64..3.0,
        )
            .prop_map(
                |(gbps, from_server, load_s, mean_bytes, senders, burstiness)| Features {
                    gbps,
                    from_server,
                    to_server: false,
                    load_s,
                    mean_bytes,
                    senders: senders.round(),
                    burstiness,
                },
            )
    }

    proptest! {
        /// Clustering never merges links whose loads differ by more than the threshold (nor
        /// links of another capacity or shape), and a representative stands for itself.
        #[test]
        fn no_cluster_spans_more_than_the_threshold(
            links in prop::collection::vec(features(), 0..120),
            t in prop::sample::select(vec![0.0, 0.01, 0.05, 0.1, 0.3]),
        ) {
            let rep = cluster(&links, t);
            prop_assert_eq!(rep.len(), links.len());
            for (a, &ra) in rep.iter().enumerate() {
                prop_assert_eq!(rep[ra], ra);
                let (fa, fr) = (&links[a], &links[ra]);
                prop_assert!(fr.matches(fa, t) || a == ra);
                for (b, &rb) in rep.iter().enumerate() {
                    if ra == rb {
                        let fb = &links[b];
                        prop_assert!(
                            close(fa.load_s, fb.load_s, t),
                            "links {} and {} share a simulation with loads {} and {} (threshold {})",
                            a, b, fa.load_s, fb.load_s, t
                        );
                        prop_assert!(fa.same_kind(fb));
                    }
                }
            }
        }
    }
}
