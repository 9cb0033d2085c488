//! The plan of a decomposed run: every flow routed once (as packet mode routes a flow that finds
//! the network idle), the flows of every directed link, which links are simulated and which take
//! a representative's delays, and how the simulations are dealt into batches. A pure function of
//! the scenario: every process that plans the same scenario gets the same plan, which is what
//! lets batches run on different workers and be combined elsewhere.

use super::cluster::{self, Features};
use crate::network::Network;
use crate::packet::PacketEngine;
use crate::scenario::Scenario;
use crate::units::LinkId;
use crate::workload::Workload;

/// Links with fewer flows are simulated on their own, never clustered.
pub const MIN_CLUSTER_FLOWS: usize = 32;

/// What a directed link is in the run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LinkRole {
    /// No flow crosses it: nothing to simulate.
    Idle,
    /// Simulated: representative number `r` (an index into [`Plan::reps`]).
    Simulated(u32),
    /// Takes the delays of representative `r`'s simulation.
    Clustered(u32),
}

/// See the module documentation.
pub struct Plan {
    pub wl: Workload,
    /// Flow `f`'s path is `paths[path_at[f]..path_at[f + 1]]` (empty: no path, the flow stalls).
    path_at: Vec<u32>,
    paths: Vec<LinkId>,
    /// Flow `f`'s time alone on its whole path, ps (packet mode's ideal).
    pub ideal_ps: Vec<u64>,
    /// The flows crossing directed link `l`, in flow order: `link_flows[flows_at[l]..flows_at[l + 1]]`.
    flows_at: Vec<u32>,
    link_flows: Vec<u32>,
    pub role: Vec<LinkRole>,
    /// The simulated links, in link order.
    pub reps: Vec<usize>,
    /// Each representative's estimated packet-hops (data packets times the hops of its
    /// simulation), the batches' balance.
    pub cost: Vec<u64>,
    pub features: Vec<Option<Features>>,
    pub threshold: f64,
    /// Each flow's pace elsewhere, from a fluid (flow-mode) run of the whole scenario: its mean
    /// rate (Gb/s; 0 where it did not finish) and the busiest link of its path then, its
    /// bottleneck. A link that is not a flow's bottleneck sees it at that rate (see link_sim).
    pub fluid_gbps: Vec<f64>,
    pub bottleneck: Vec<u32>,
    /// The fluid run's mean utilisation of every directed link.
    pub fluid_util: Vec<f64>,
    /// `engine.decomposed.bottleneck_margin`.
    pub margin: f64,
}

impl Plan {
    pub fn build(sc: &Scenario, net: &Network) -> Plan {
        let wl = crate::workload::generate(&sc.workload, net, sc.engine.seed);
        let settings = sc.engine.decomposed.clone().unwrap_or_default();
        // a packet engine over the network with no flows: its router and its ideal times
        let mut eng = PacketEngine::with_workload(sc, net, Workload::default(), Vec::new());
        let n = wl.flows.len();
        let mut path_at = Vec::with_capacity(n + 1);
        let mut paths = Vec::with_capacity(n * 4);
        let mut ideal_ps = Vec::with_capacity(n);
        path_at.push(0u32);
        for (f, spec) in wl.flows.iter().enumerate() {
            let path = eng.idle_path(f as u32, spec).unwrap_or_default();
            let udp = eng.udp_group(spec.group);
            ideal_ps.push(if path.is_empty() {
                0
            } else {
                eng.ideal_ps(&path, spec.bytes.0, udp)
            });
            paths.extend_from_slice(&path);
            path_at.push(paths.len() as u32);
        }
        let mss = sc.engine.packet.mtu_bytes - sc.engine.packet.header_bytes;
        drop(eng);
        // flows per link, counted then placed (flow order within each link)
        let nl = net.links.len();
        let mut flows_at = vec![0u32; nl + 1];
        for l in &paths {
            flows_at[l.idx() + 1] += 1;
        }
        for l in 0..nl {
            flows_at[l + 1] += flows_at[l];
        }
        let mut fill = flows_at.clone();
        let mut link_flows = vec![0u32; paths.len()];
        for f in 0..n {
            for l in &paths[path_at[f] as usize..path_at[f + 1] as usize] {
                link_flows[fill[l.idx()] as usize] = f as u32;
                fill[l.idx()] += 1;
            }
        }
        let mut plan = Plan {
            wl,
            path_at,
            paths,
            ideal_ps,
            flows_at,
            link_flows,
            role: vec![LinkRole::Idle; nl],
            reps: Vec::new(),
            cost: Vec::new(),
            features: Vec::new(),
            fluid_gbps: Vec::new(),
            bottleneck: Vec::new(),
            fluid_util: Vec::new(),
            threshold: settings.cluster_threshold,
            margin: settings.bottleneck_margin,
        };
        plan.fluid_paces(sc, net);
        plan.features = (0..nl).map(|l| plan.link_features(net, l)).collect();
        // links of few flows are simulated on their own: cheap, and too few flows to stand for
        // another link's sizes
        let busy: Vec<usize> = (0..nl).filter(|&l| plan.features[l].is_some()).collect();
        let few = |l: usize| plan.flows_on(l).len() < MIN_CLUSTER_FLOWS;
        let feats: Vec<Features> = busy
            .iter()
            .map(|&l| plan.features[l].expect("busy"))
            .collect();
        let mut rep_of = cluster::cluster(&feats, plan.threshold);
        for (k, &l) in busy.iter().enumerate() {
            if few(l) || few(busy[rep_of[k]]) {
                rep_of[k] = k;
            }
        }
        let mut rep_index = vec![u32::MAX; busy.len()];
        for (k, &l) in busy.iter().enumerate() {
            if rep_of[k] == k {
                rep_index[k] = plan.reps.len() as u32;
                plan.role[l] = LinkRole::Simulated(rep_index[k]);
                plan.reps.push(l);
                plan.cost.push(plan.packet_hops(net, l, mss));
            }
        }
        for (k, &l) in busy.iter().enumerate() {
            if rep_of[k] != k {
                plan.role[l] = LinkRole::Clustered(rep_index[rep_of[k]]);
            }
        }
        plan
    }

    /// The fluid run's rate of every flow and the busiest link of its path.
    fn fluid_paces(&mut self, sc: &Scenario, net: &Network) {
        use crate::engine::{Engine, FlowEngine, Status};
        let mut fluid = sc.clone();
        fluid.engine.mode = crate::scenario::Mode::Flow;
        fluid.engine.link_series = false;
        fluid.engine.flow_records = false;
        let mut eng = FlowEngine::new(&fluid, net);
        while eng.step() {}
        eng.close();
        let o = eng.outcome();
        let dur = o.now.as_secs_f64().max(1e-12);
        let util: Vec<f64> = (0..net.links.len())
            .map(|l| o.util.total_bits(l) / (net.links[l].gbps.0 * 1e9 * dur))
            .collect();
        self.fluid_gbps = o
            .flows
            .iter()
            .zip(&self.wl.flows)
            .map(|(fl, spec)| {
                let t = (fl.fct_end.0.saturating_sub(fl.start.0)) as f64 / 1e12;
                if fl.status == Status::Done && t > 0.0 {
                    spec.bytes.bits() / t / 1e9
                } else {
                    0.0
                }
            })
            .collect();
        self.bottleneck = (0..self.wl.flows.len())
            .map(|f| {
                self.path(f)
                    .iter()
                    .max_by(|a, b| util[a.idx()].total_cmp(&util[b.idx()]).then(b.0.cmp(&a.0)))
                    .map_or(u32::MAX, |l| l.0)
            })
            .collect();
        self.fluid_util = util;
    }

    /// The rate flow `f` reaches link `l`'s simulation at: its fluid rate when its bottleneck is
    /// elsewhere (its busiest link, and any within the margin of that link's utilisation, are
    /// its bottleneck), else `None` (line rate).
    pub fn pace(&self, f: usize, l: usize) -> Option<f64> {
        let b = self.bottleneck[f];
        let gbps = self.fluid_gbps[f];
        let elsewhere = b != u32::MAX
            && b as usize != l
            && self.fluid_util[l] < (1.0 - self.margin) * self.fluid_util[b as usize];
        (elsewhere && gbps > 0.0).then_some(gbps)
    }

    /// Flow `f`'s path.
    pub fn path(&self, f: usize) -> &[LinkId] {
        &self.paths[self.path_at[f] as usize..self.path_at[f + 1] as usize]
    }

    /// The flows crossing directed link `l`, in flow order.
    pub fn flows_on(&self, l: usize) -> &[u32] {
        &self.link_flows[self.flows_at[l] as usize..self.flows_at[l + 1] as usize]
    }

    fn link_features(&self, net: &Network, l: usize) -> Option<Features> {
        let flows = self.flows_on(l);
        if flows.is_empty() {
            return None;
        }
        let link = &net.links[l];
        let bytes: f64 = flows
            .iter()
            .map(|&f| self.wl.flows[f as usize].bytes.0 as f64)
            .sum();
        let mut senders: Vec<u32> = flows
            .iter()
            .map(|&f| self.wl.flows[f as usize].src.0)
            .collect();
        senders.sort_unstable();
        senders.dedup();
        let mut arrivals: Vec<u64> = flows
            .iter()
            .map(|&f| self.wl.flows[f as usize].arrival.0)
            .collect();
        arrivals.sort_unstable();
        Some(Features {
            gbps: link.gbps.0,
            from_server: net.is_server(link.from),
            to_server: net.is_server(link.to),
            load_s: bytes * 8.0 / (link.gbps.0 * 1e9),
            mean_bytes: bytes / flows.len() as f64,
            senders: senders.len() as f64,
            burstiness: burstiness(&arrivals),
        })
    }

    /// Data packets of link `l`'s flows times the hops of its simulation.
    fn packet_hops(&self, net: &Network, l: usize, mss: u64) -> u64 {
        let link = &net.links[l];
        let hops = 1 + u64::from(!net.is_server(link.from)) + u64::from(!net.is_server(link.to));
        let packets: u64 = self
            .flows_on(l)
            .iter()
            .map(|&f| self.wl.flows[f as usize].bytes.0.div_ceil(mss).max(1))
            .sum();
        packets * hops
    }

    /// Links with at least one flow.
    pub fn busy_links(&self) -> usize {
        self.role.iter().filter(|r| **r != LinkRole::Idle).count()
    }

    /// The representatives dealt to batch `batch` (1-based) of `batches`: the costliest first,
    /// each to the batch with the least work so far (the lowest-numbered of equals).
    pub fn batch(&self, batch: usize, batches: usize) -> Vec<usize> {
        let mut order: Vec<usize> = (0..self.reps.len()).collect();
        order.sort_by(|&a, &b| self.cost[b].cmp(&self.cost[a]).then(a.cmp(&b)));
        let mut work = vec![0u64; batches];
        let mut mine = Vec::new();
        for r in order {
            let k = (0..batches)
                .min_by_key(|&k| (work[k], k))
                .expect("at least one batch");
            work[k] += self.cost[r].max(1);
            if k + 1 == batch {
                mine.push(r);
            }
        }
        mine
    }
}

/// The coefficient of variation of the gaps between sorted arrival times (0 for fewer than
/// three arrivals or all at once).
fn burstiness(arrivals: &[u64]) -> f64 {
    if arrivals.len() < 3 {
        return 0.0;
    }
    let gaps: Vec<f64> = arrivals.windows(2).map(|w| (w[1] - w[0]) as f64).collect();
    let mean = gaps.iter().sum::<f64>() / gaps.len() as f64;
    if mean <= 0.0 {
        return 0.0;
    }
    let var = gaps.iter().map(|g| (g - mean).powi(2)).sum::<f64>() / gaps.len() as f64;
    var.sqrt() / mean
}
