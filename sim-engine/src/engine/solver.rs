//! Incremental weighted max-min fair rate allocation (progressive filling / water-filling).
//!
//! The solver never re-solves the whole world. Given the links whose set of subflows changed
//! (`seeds`), it grows a region `L` of links:
//!   1. `R` = every subflow on a link of `L`; every other subflow keeps its rate, and its rate is
//!      subtracted from the capacity of the links it shares with `R` (residual capacity);
//!   2. water-fill `R` on the residual capacities;
//!   3. if a subflow of `R` changed rate and crosses a link outside `L`, or froze on a link outside
//!      `L` where a subflow outside `R` has a higher normalised rate (so the outside one would have
//!      to give way), add those links to `L` and go back to 1.
//!
//! When it stops, every link outside `L` carries exactly the rates it carried before, and every
//! subflow of `R` has a saturated bottleneck where no subflow has a higher normalised rate: so if
//! the allocation was max-min fair before the event, it is max-min fair after it. Each round only
//! grows `L`, so the loop terminates; in the worst case it covers the connected component.
//!
//! A region holding more than `1 / GLOBAL_DIV` of the live subflows (`1 / GLOBAL_DIV_GROWN` once
//! it has grown) is widened to every link at once and solved in a single round: with every link
//! in `L` nothing outside can be affected, and dense, fully coupled workloads (shuffles) would
//! otherwise re-solve most of the network several times per event.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use crate::units::LinkId;

/// A subflow: one path of a flow, with a weight (a flow's subflow weights sum to 1).
#[derive(Clone, Debug, Default)]
pub struct Sub {
    pub flow: u32,
    pub path: Vec<LinkId>,
    /// Position of this subflow in `link_subs[path[i]]`, for O(1) removal.
    pub pos: Vec<u32>,
    pub weight: f64,
    /// Current rate in Gb/s.
    pub rate: f64,
    pub live: bool,
}

/// The rate state the solver reads: subflows, which subflows use each link, capacities and loads.
#[derive(Clone, Debug, Default)]
pub struct FlowNet {
    pub subs: Vec<Sub>,
    pub free_subs: Vec<u32>,
    pub link_subs: Vec<Vec<u32>>,
    /// Capacity per directed link in Gb/s (0 while down).
    pub cap: Vec<f64>,
    /// Sum of the rates of the subflows on each link, Gb/s.
    pub load: Vec<f64>,
    /// Copy of every subflow's path in one flat array, `stride` links per subflow (the solver's
    /// hot loops read it instead of chasing each `Sub::path` allocation).
    flat: Vec<LinkId>,
    plen: Vec<u8>,
    stride: usize,
}

impl FlowNet {
    pub fn new(caps: Vec<f64>) -> FlowNet {
        let n = caps.len();
        FlowNet {
            subs: Vec::new(),
            free_subs: Vec::new(),
            link_subs: vec![Vec::new(); n],
            load: vec![0.0; n],
            cap: caps,
            flat: Vec::new(),
            plen: Vec::new(),
            stride: 8,
        }
    }

    /// The path of subflow `s` (same as `subs[s].path`), from the flat copy.
    #[inline]
    pub fn path_of(&self, s: usize) -> &[LinkId] {
        let a = s * self.stride;
        &self.flat[a..a + self.plen[s] as usize]
    }

    fn store_path(&mut self, id: usize) {
        let n = self.subs[id].path.len();
        if n > self.stride || n > u8::MAX as usize {
            assert!(n <= u8::MAX as usize, "path longer than 255 links");
            // re-lay the flat copy with a wider stride (rare: only for a longer path than any so far)
            let old = self.stride;
            let stride = n.next_power_of_two();
            let mut flat = vec![LinkId(0); self.plen.len() * stride];
            for (k, &len) in self.plen.iter().enumerate() {
                let len = len as usize;
                flat[k * stride..k * stride + len]
                    .copy_from_slice(&self.flat[k * old..k * old + len]);
            }
            self.flat = flat;
            self.stride = stride;
        }
        if self.plen.len() <= id {
            self.plen.resize(id + 1, 0);
            self.flat.resize((id + 1) * self.stride, LinkId(0));
        }
        let a = id * self.stride;
        self.flat[a..a + n].copy_from_slice(&self.subs[id].path);
        self.plen[id] = n as u8;
    }

    /// Add a subflow with rate 0; returns its id.
    pub fn add_sub(&mut self, flow: u32, path: Vec<LinkId>, weight: f64) -> u32 {
        let id = match self.free_subs.pop() {
            Some(id) => id,
            None => {
                self.subs.push(Sub::default());
                (self.subs.len() - 1) as u32
            }
        };
        let mut pos = Vec::with_capacity(path.len());
        for &l in &path {
            let v = &mut self.link_subs[l.idx()];
            pos.push(v.len() as u32);
            v.push(id);
        }
        self.subs[id as usize] = Sub {
            flow,
            path,
            pos,
            weight,
            rate: 0.0,
            live: true,
        };
        self.store_path(id as usize);
        id
    }

    /// Remove a subflow whose rate has already been set to 0 (its load is gone).
    pub fn remove_sub(&mut self, id: u32) -> Vec<LinkId> {
        let sub = std::mem::take(&mut self.subs[id as usize]);
        debug_assert!(sub.rate == 0.0);
        for (i, &l) in sub.path.iter().enumerate() {
            let v = &mut self.link_subs[l.idx()];
            let p = sub.pos[i] as usize;
            v.swap_remove(p);
            if p < v.len() {
                let moved = v[p] as usize;
                // fix the moved subflow's position for this link
                let ms = &mut self.subs[moved];
                for (j, &ml) in ms.path.iter().enumerate() {
                    if ml == l && ms.pos[j] as usize == v.len() {
                        ms.pos[j] = p as u32;
                        break;
                    }
                }
            }
        }
        self.free_subs.push(id);
        self.plen[id as usize] = 0;
        sub.path
    }
}

#[derive(Clone, Copy, Debug, PartialEq)]
struct Key(f64);
impl Eq for Key {}
impl PartialOrd for Key {
    fn partial_cmp(&self, o: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(o))
    }
}
impl Ord for Key {
    fn cmp(&self, o: &Self) -> std::cmp::Ordering {
        self.0.total_cmp(&o.0)
    }
}

/// Scratch space of the solver, sized to the network; reused across events.
#[derive(Clone, Debug, Default)]
pub struct Solver {
    epoch: u32,
    batch: u32,
    in_l: Vec<u32>,
    l_list: Vec<u32>,
    t_mark: Vec<u32>,
    t_list: Vec<u32>,
    checked: Vec<u32>,
    resid: Vec<f64>,
    wsum: Vec<f64>,
    ucnt: Vec<u32>,
    s_mark: Vec<u32>,
    frozen: Vec<u32>,
    new_rate: Vec<f64>,
    bott: Vec<u32>,
    /// Weight and rate before this solve of each region subflow (dense copies of `Sub` fields).
    wt: Vec<f64>,
    old: Vec<f64>,
    r_list: Vec<u32>,
    unfrozen: usize,
    heap: BinaryHeap<Reverse<(Key, u32)>>,
    /// Output: (subflow, new rate) for every subflow whose rate changed.
    pub changed: Vec<(u32, f64)>,
    /// Statistics: total subflows re-solved, rounds.
    pub work_subs: u64,
    pub rounds: u64,
    /// Statistics: total region links (`T`) over all rounds.
    pub work_links: u64,
    rounds_here: u32,
    /// Water-filling levels processed (heap pops or scan passes).
    pub pops: u64,
}

/// A region with more than `1 / GLOBAL_DIV` of the live subflows is widened to all of them.
const GLOBAL_DIV: usize = 4;
/// The same once the region had to grow at least once (it is spreading).
const GLOBAL_DIV_GROWN: usize = 16;
const REL_TOL: f64 = 1e-9;
const SAT_TOL: f64 = 1e-9;

impl Solver {
    pub fn new(links: usize) -> Solver {
        Solver {
            in_l: vec![0; links],
            t_mark: vec![0; links],
            checked: vec![0; links],
            resid: vec![0.0; links],
            wsum: vec![0.0; links],
            ucnt: vec![0; links],
            ..Default::default()
        }
    }

    fn ensure_subs(&mut self, n: usize) {
        if self.s_mark.len() < n {
            self.s_mark.resize(n, 0);
            self.frozen.resize(n, 0);
            self.new_rate.resize(n, 0.0);
            self.bott.resize(n, 0);
            self.wt.resize(n, 0.0);
            self.old.resize(n, 0.0);
        }
    }

    /// Re-solve after the subflow sets of `seeds` changed. Results in `self.changed`.
    pub fn solve(&mut self, net: &FlowNet, seeds: &[LinkId]) {
        self.solve_with(net, seeds, &[]);
    }

    /// Re-solve after the subflow sets of `seeds` changed, with `seed_subs` (new subflows) always
    /// in the region even when none of their links is a seed. Results in `self.changed`.
    pub fn solve_with(&mut self, net: &FlowNet, seeds: &[LinkId], seed_subs: &[u32]) {
        self.changed.clear();
        self.ensure_subs(net.subs.len());
        self.batch = self.batch.wrapping_add(1);
        if self.batch == 0 {
            self.in_l.iter_mut().for_each(|x| *x = 0);
            self.batch = 1;
        }
        let batch = self.batch;
        self.l_list.clear();
        for &l in seeds {
            if self.in_l[l.idx()] != batch {
                self.in_l[l.idx()] = batch;
                self.l_list.push(l.0);
            }
        }
        if self.l_list.is_empty() && seed_subs.is_empty() {
            return;
        }
        let mut global = false;
        self.rounds_here = 0;
        loop {
            self.rounds += 1;
            self.rounds_here += 1;
            self.next_epoch();
            let ep = self.epoch;
            // 1. region R and its links T with residual capacities
            self.r_list.clear();
            for &s in seed_subs {
                if self.s_mark[s as usize] != ep {
                    self.s_mark[s as usize] = ep;
                    self.r_list.push(s);
                }
            }
            for &l in &self.l_list {
                for &s in &net.link_subs[l as usize] {
                    if self.s_mark[s as usize] != ep {
                        self.s_mark[s as usize] = ep;
                        self.r_list.push(s);
                    }
                }
            }
            // A region covering a good part of the network: solve everything at once (one round,
            // subflows in id order for memory locality) instead of growing it round by round.
            let live = net.subs.len() - net.free_subs.len();
            let div = if self.rounds_here > 1 {
                GLOBAL_DIV_GROWN
            } else {
                GLOBAL_DIV
            };
            if !global && self.r_list.len() * div > live {
                global = true;
                for (l, v) in net.link_subs.iter().enumerate() {
                    if !v.is_empty() && self.in_l[l] != batch {
                        self.in_l[l] = batch;
                        self.l_list.push(l as u32);
                    }
                }
                self.r_list.clear();
                for (s, sub) in net.subs.iter().enumerate() {
                    if sub.live {
                        self.s_mark[s] = ep;
                        self.r_list.push(s as u32);
                    }
                }
            }
            self.work_subs += self.r_list.len() as u64;
            self.t_list.clear();
            for &s in &self.r_list {
                let sub = &net.subs[s as usize];
                let (rate, w) = (sub.rate, sub.weight);
                self.frozen[s as usize] = 0;
                self.wt[s as usize] = w;
                self.old[s as usize] = rate;
                for &l in net.path_of(s as usize) {
                    let li = l.idx();
                    if self.t_mark[li] != ep {
                        self.t_mark[li] = ep;
                        self.t_list.push(l.0);
                        self.resid[li] = net.cap[li] - net.load[li];
                        self.wsum[li] = 0.0;
                        self.ucnt[li] = 0;
                    }
                    self.resid[li] += rate;
                    self.wsum[li] += w;
                    self.ucnt[li] += 1;
                }
            }
            self.work_links += self.t_list.len() as u64;
            // 2. water-fill
            self.unfrozen = self.r_list.len();
            self.fill(net);
            if global {
                break; // every link is in the region: nothing outside can be affected
            }
            // 3. grow the region where the answer could still be wrong
            let mut grow = false;
            for i in 0..self.r_list.len() {
                let s = self.r_list[i] as usize;
                let (old, w) = (self.old[s], self.wt[s]);
                let nr = self.new_rate[s];
                if (nr - old).abs() > REL_TOL * nr.max(old).max(1e-9) {
                    for &l in net.path_of(s) {
                        // A link that is slack both before and after the change is no one's
                        // bottleneck: the subflows outside R on it cannot be affected.
                        let li = l.idx();
                        let sat_before = net.load[li] >= net.cap[li] * (1.0 - SAT_TOL);
                        let sat_after = self.resid[li] <= net.cap[li] * SAT_TOL;
                        if self.in_l[li] != batch && (sat_before || sat_after) {
                            self.in_l[l.idx()] = batch;
                            self.l_list.push(l.0);
                            grow = true;
                        }
                    }
                }
                let b = self.bott[s] as usize;
                if self.in_l[b] != batch && self.checked[b] != ep {
                    self.checked[b] = ep;
                    let level = nr / w;
                    let beaten = net.link_subs[b].iter().any(|&o| {
                        let o = o as usize;
                        self.s_mark[o] != ep
                            && net.subs[o].rate / net.subs[o].weight > level * (1.0 + 1e-7) + 1e-9
                    });
                    if beaten {
                        self.in_l[b] = batch;
                        self.l_list.push(b as u32);
                        grow = true;
                    }
                }
            }
            if !grow {
                break;
            }
        }
        let ep = self.epoch;
        for &s in &self.r_list {
            let si = s as usize;
            let old = self.old[si];
            let nr = self.new_rate[si];
            debug_assert!(self.s_mark[si] == ep);
            if (nr - old).abs() > REL_TOL * nr.max(old).max(1e-9) || (old == 0.0) != (nr == 0.0) {
                self.changed.push((s, nr));
            }
        }
    }

    /// Freeze every unfrozen R subflow of link `li` at `level`.
    #[inline]
    fn freeze_link(&mut self, net: &FlowNet, li: usize, level: f64) {
        let ep = self.epoch;
        for &s in &net.link_subs[li] {
            let si = s as usize;
            // subflows outside the region keep their rates (already out of `resid`)
            if self.s_mark[si] != ep || self.frozen[si] == ep {
                continue;
            }
            self.frozen[si] = ep;
            self.unfrozen -= 1;
            let w = self.wt[si];
            let rate = w * level;
            self.new_rate[si] = rate;
            self.bott[si] = li as u32;
            for &l2 in net.path_of(si) {
                let l2i = l2.idx();
                self.resid[l2i] -= rate;
                self.wsum[l2i] -= w;
                self.ucnt[l2i] -= 1;
            }
        }
    }

    /// Progressive filling with a lazy min-heap of link fair shares (`resid / wsum`).
    ///
    /// Freezing subflows at the current level never lowers another link's fair share (it removes
    /// `level * w <= share * w` of residual capacity for `w` of weight), so a queued key is a lower
    /// bound of its link's share: a popped link whose share grew is re-queued with its current
    /// share instead of being updated on every change.
    fn fill(&mut self, net: &FlowNet) {
        let mut v = std::mem::take(&mut self.heap).into_vec();
        v.clear();
        for &l in &self.t_list {
            let li = l as usize;
            let ratio = (self.resid[li] / self.wsum[li]).max(0.0);
            v.push(Reverse((Key(ratio), l)));
        }
        self.heap = BinaryHeap::from(v);
        let mut floor = 0.0f64;
        while self.unfrozen > 0 {
            let Some(Reverse((Key(key), l))) = self.heap.pop() else {
                break;
            };
            self.pops += 1;
            let li = l as usize;
            if self.ucnt[li] == 0 {
                continue;
            }
            let cur = (self.resid[li] / self.wsum[li].max(1e-300)).max(floor);
            if cur > key * (1.0 + 1e-12) + 1e-300 {
                self.heap.push(Reverse((Key(cur), l)));
                continue;
            }
            floor = cur;
            self.freeze_link(net, li, cur);
        }
    }

    fn next_epoch(&mut self) {
        self.epoch = self.epoch.wrapping_add(1);
        if self.epoch == 0 {
            self.t_mark.iter_mut().for_each(|x| *x = 0);
            self.checked.iter_mut().for_each(|x| *x = 0);
            self.s_mark.iter_mut().for_each(|x| *x = 0);
            self.frozen.iter_mut().for_each(|x| *x = 0);
            self.epoch = 1;
        }
    }
}
