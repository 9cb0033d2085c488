//! Putting the links' delays together: each flow's completion time is its ideal on its whole
//! path plus what every link on it added (its own delay where the link was simulated, a delay
//! drawn from the representative's flows of the nearest sizes where it was clustered), in
//! integer picoseconds, so that a flow crossing one simulated link completes exactly when it
//! did in that link's simulation.

use super::link_sim::LinkOutcome;
use super::plan::{LinkRole, Plan};
use crate::engine::util::LinkUtil;
use crate::engine::{stop_time, FlowSt, Outcome, Status};
use crate::network::Network;
use crate::report::{self, DecompositionReport, PacketReport, QueueReport, Report};
use crate::rng::splitmix64;
use crate::scenario::{Scenario, Transport};
use crate::units::Time;

/// A representative's finished flows as (size, delay), by size: what its cluster draws from.
struct Draws(Vec<(u64, i64)>);

impl Draws {
    fn of(plan: &Plan, out: &LinkOutcome) -> Draws {
        let mut v: Vec<(u64, i64)> = plan
            .flows_on(out.link)
            .iter()
            .zip(&out.delays_ps)
            .filter_map(|(&f, d)| d.map(|d| (plan.wl.flows[f as usize].bytes.0, d)))
            .collect();
        v.sort_unstable();
        Draws(v)
    }

    /// A delay for a flow of `bytes`: one of the representative's flows of the nearest sizes
    /// (the 2 % of its flows, at least 3, around the size), chosen by `hash`; `None` when it
    /// finished no flow.
    fn draw(&self, bytes: u64, hash: u64) -> Option<i64> {
        let n = self.0.len();
        if n == 0 {
            return None;
        }
        let at = self.0.partition_point(|&(b, _)| b < bytes);
        let half = (n / 100).max(1);
        let lo = at.saturating_sub(half);
        let hi = (at + half).min(n).max(lo + 1);
        Some(self.0[lo + (hash % (hi - lo) as u64) as usize].1)
    }
}

/// The result of a decomposed run from its plan and every representative's outcome (by
/// representative number).
pub fn combine(sc: &Scenario, net: &Network, plan: &Plan, outcomes: &[LinkOutcome]) -> Report {
    let draws: Vec<Draws> = outcomes.iter().map(|o| Draws::of(plan, o)).collect();
    let stop = stop_time(sc).0;
    let n = plan.wl.flows.len();
    let mut flows: Vec<FlowSt> = (0..n).map(|_| FlowSt::waiting()).collect();
    let mut done = 0u64;
    let mut end = 0u64;
    for (f, fl) in flows.iter_mut().enumerate() {
        let spec = &plan.wl.flows[f];
        let start = spec.arrival.0;
        if start > stop {
            continue; // never started
        }
        fl.start = Time(start);
        fl.last = Time(start);
        fl.rem_bits = spec.bytes.bits();
        let path = plan.path(f);
        if path.is_empty() {
            fl.status = Status::Stalled;
            fl.stalled_once = true;
            fl.ideal_s = f64::NAN;
            continue;
        }
        fl.status = Status::Active;
        let ideal = plan.ideal_ps[f];
        fl.ideal_s = ideal as f64 / 1e12;
        let mut total = ideal as i64;
        let mut finished = true;
        for l in path {
            let delay = match plan.role[l.idx()] {
                LinkRole::Simulated(r) => {
                    let on = plan.flows_on(l.idx());
                    let k = on.binary_search(&(f as u32)).expect("on its link");
                    outcomes[r as usize].delays_ps[k]
                }
                LinkRole::Clustered(r) => {
                    let h = splitmix64(
                        sc.engine.seed
                            ^ (f as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15)
                            ^ (l.idx() as u64).wrapping_mul(0xc2b2_ae3d_27d4_eb4f),
                    );
                    draws[r as usize].draw(spec.bytes.0, h)
                }
                LinkRole::Idle => unreachable!("a flow's link carries it"),
            };
            match delay {
                Some(d) => total += d,
                None => finished = false,
            }
        }
        // (a link can give back a little of its own ideal: never faster than the whole path's)
        let fct = total.max(ideal as i64) as u64;
        let finish = start.saturating_add(fct);
        if !finished || finish > stop {
            continue; // unfinished: at the stop time, or lost for good in a link's simulation
        }
        fl.status = Status::Done;
        fl.done_at = Time(finish);
        fl.fct_end = Time(finish);
        fl.last = Time(finish);
        fl.rem_bits = 0.0;
        done += 1;
        end = end.max(finish);
    }
    if stop != u64::MAX && done < n as u64 {
        end = stop;
    }
    let util = spread_load(sc, net, plan, &flows, end);
    let events = outcomes.iter().map(|o| o.events).sum();
    let o = Outcome {
        scenario: sc,
        net,
        workload: &plan.wl,
        flows: &flows,
        now: Time(end),
        events,
        flows_done: done,
        util: &util,
        controller_ticks: 0,
        rebinds: 0,
        detours: &[],
        budget_bits: None,
        solver_rounds: 0,
        solver_subflows: 0,
        solver_rate_changes: 0,
    };
    let mut rep = report::build(&o);
    rep.model = "decomposed".into();
    rep.note = report::DECOMPOSED_NOTE.into();
    if sc.engine.link_series {
        let by_link: Vec<Option<&LinkOutcome>> = {
            let mut v = vec![None; net.links.len()];
            for o in outcomes {
                v[o.link] = Some(o);
            }
            v
        };
        let width = util.width;
        rep.links.set_queue_series(|l, buckets| {
            by_link[l].map(|o| {
                resample_max(
                    &o.port.queue_max_bytes,
                    o.port.queue_width_ps,
                    width,
                    buckets,
                )
            })
        });
    }
    rep.packet = Some(packet_report(sc, net, outcomes));
    let links_idle = plan.role.iter().filter(|r| **r == LinkRole::Idle).count() as u64;
    rep.decomposition = Some(DecompositionReport {
        links_total: net.links.len() as u64,
        links_simulated: plan.reps.len() as u64,
        links_clustered: net.links.len() as u64 - links_idle - plan.reps.len() as u64,
        links_idle,
        cluster_threshold: plan.threshold,
        link_events: events,
        warnings: super::warnings(sc, plan),
        accuracy: super::calibration::accuracy(),
    });
    rep
}

/// Every finished flow's bytes spread evenly over its time on each link of its path (the
/// utilisation series of a decomposed run: its links were not simulated together).
fn spread_load(sc: &Scenario, net: &Network, plan: &Plan, flows: &[FlowSt], end: u64) -> LinkUtil {
    // one start and one end per finished flow, in time order (ends first at a time)
    let mut marks: Vec<(u64, bool, u32)> = Vec::new();
    for (f, fl) in flows.iter().enumerate() {
        if fl.status == Status::Done && fl.fct_end.0 > fl.start.0 {
            marks.push((fl.start.0, true, f as u32));
            marks.push((fl.fct_end.0, false, f as u32));
        }
    }
    marks.sort_unstable();
    let mut util = LinkUtil::with_series(net.links.len(), end, sc.engine.link_series);
    let mut load = vec![0.0f64; net.links.len()];
    for (t, starts, f) in marks {
        let fl = &flows[f as usize];
        let gbps =
            plan.wl.flows[f as usize].bytes.bits() / (fl.fct_end.0 - fl.start.0) as f64 * 1e3;
        util.reach(t);
        for l in plan.path(f as usize) {
            let before = load[l.idx()];
            let after = if starts {
                before + gbps
            } else {
                (before - gbps).max(0.0)
            };
            util.change(l.idx(), before, after);
            load[l.idx()] = after;
        }
    }
    util.close(end, |l| load[l]);
    util
}

/// A series of per-bucket maxima of width `from` (ps) over buckets of width `to`: each bucket
/// the largest of those it overlaps; `buckets` of them.
fn resample_max(series: &[f64], from: u64, to: u64, buckets: usize) -> Vec<f64> {
    (0..buckets)
        .map(|k| {
            let (a, b) = (k as u64 * to, (k as u64 + 1) * to);
            let first = (a / from) as usize;
            let last = (b.div_ceil(from) as usize).min(series.len());
            series
                .get(first..last.max(first))
                .map_or(0.0, |s| s.iter().copied().fold(0.0, f64::max))
        })
        .collect()
}

/// The `packet` object: the transport's totals summed over the link simulations, and the queue
/// of every simulated link that held one.
fn packet_report(sc: &Scenario, net: &Network, outcomes: &[LinkOutcome]) -> PacketReport {
    let sum = |f: fn(&LinkOutcome) -> u64| outcomes.iter().map(f).sum::<u64>();
    let mut queues: Vec<QueueReport> = outcomes
        .iter()
        .filter(|o| o.port.max_bytes > 0 || o.port.drops > 0)
        .map(|o| {
            let link = &net.links[o.link];
            QueueReport {
                link: net.link_names[o.link / 2].clone(),
                from: net.name(link.from).to_string(),
                to: net.name(link.to).to_string(),
                max_bytes: o.port.max_bytes,
                p99_bytes: o.port.p99_bytes,
                drops: o.port.drops,
            }
        })
        .collect();
    queues.sort_by(|a, b| (&a.link, &a.from).cmp(&(&b.link, &b.from)));
    PacketReport {
        transport: match sc.engine.packet.transport {
            Transport::Newreno => "newreno",
            Transport::Dctcp => "dctcp",
            Transport::Mptcp => "mptcp",
        }
        .into(),
        mtu_bytes: sc.engine.packet.mtu_bytes,
        packets_sent: sum(|o| o.port.packets_sent),
        drops: sum(|o| o.port.drops),
        retransmissions: sum(|o| o.port.retransmissions),
        timeouts: sum(|o| o.port.timeouts),
        ecn_marks: sum(|o| o.port.ecn_marks),
        queues,
    }
}

#[cfg(test)]
mod tests {
    use super::resample_max;

    #[test]
    fn resampling_keeps_the_largest_of_each_wider_bucket() {
        // 1 us buckets onto 2 us ones, and onto 0.5 us ones (each takes the bucket it lies in)
        let s = [1.0, 5.0, 2.0, 0.0, 7.0];
        assert_eq!(resample_max(&s, 1, 2, 4), vec![5.0, 2.0, 7.0, 0.0]);
        assert_eq!(resample_max(&s, 2, 1, 5), vec![1.0, 1.0, 5.0, 5.0, 2.0]);
    }
}
