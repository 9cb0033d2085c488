//! Incremental weighted max-min fair rate allocation (progressive filling / water-filling).
//!
//! The solver never re-solves the whole world. Call a subflow's normalised rate (rate / weight)
//! its *level*, and a link saturated with a subflow at the link's highest level that subflow's
//! *bottleneck*: an allocation is max-min fair exactly when every subflow has a bottleneck. After
//! an event (subflows came or went on the `seeds` links) the solver grows a set `R` of subflows:
//!   0. `R` = the new subflows plus, on each seed link, the subflows at its top level (only they
//!      can have it as a bottleneck, so only they can move because of it; all of them if the
//!      link's capacity fell under its load);
//!   1. every subflow outside `R` keeps its rate, which is subtracted from the capacity of the
//!      links it shares with `R` (residual capacity);
//!   2. water-fill `R` on the residual capacities;
//!   3. add to `R`, and go back to 1: the top-level subflows of every link that was saturated and
//!      is crossed by a subflow of `R` whose rate changed, and every subflow outside `R` with a
//!      higher level than a subflow of `R` on the link where that one froze.
//!
//! When it stops, every subflow of `R` has a bottleneck (where it froze, saturated, and step 3
//! found no one above it), and every subflow outside `R` keeps one: a bottleneck it had before
//! saw no changed rate, or its top-level subflows, this one included, would be in `R`. So if
//! the allocation was max-min fair before the event, it is after it. `R` only grows, so the
//! loop ends. Growing by subflows, not by whole links, keeps `R` close to the subflows that
//! actually change: a busy receiver's link adds only the flows it limits, not all of its flows.
//!
//! Step 2 does not start over when `R` grows. Water-filling freezes subflows in level order, and
//! below the lowest level where a joining subflow reaches its old rate or crosses a link that
//! froze someone, every freeze happens exactly as before (see `enter`): the fill keeps
//! what froze below that level and goes on from there with the joining subflows.
//!
//! Step 3 runs inside step 2, as each subflow freezes (see `admit_tops`, `admit_higher`). A
//! joiner whose old level is above the current water level, on links that froze no one yet,
//! changes no freeze made so far: it enters the running fill at once. Only the others wait for
//! the next round (and its undoing of what they can change), which halves the subflows
//! water-filled again on the web-search benchmark.
//!
//! A region holding more than `1 / GLOBAL_DIV` of the live subflows is widened to every subflow
//! and solved in a single round: then nothing is outside, and dense, fully coupled workloads
//! (shuffles) would otherwise grow it round by round over most of the network.

use super::cache_hint::prefetch;
use super::level_queue::LevelQueue;
use super::sub_lists::SubLists;
use super::zeroed::ZeroedSlice;
use crate::units::LinkId;

/// A subflow: one path of a flow (see `FlowNet::path_of`), with a weight (a flow's subflow
/// weights sum to 1).
#[derive(Clone, Debug, Default)]
pub struct Sub {
    pub flow: u32,
    pub weight: f64,
    /// Current rate in Gb/s.
    pub rate: f64,
    pub live: bool,
}

/// A directed link's capacity and load, kept together: the solver reads both at once.
#[derive(Clone, Copy, Debug, Default)]
struct LinkLoad {
    /// Gb/s, 0 while down.
    cap: f64,
    /// Sum of the rates of the subflows on the link, Gb/s.
    load: f64,
}

/// Relative tolerance of "saturated" and "over capacity".
const SAT_TOL: f64 = 1e-9;

/// The rate state the solver reads: subflows, which subflows use each link, capacities and loads.
#[derive(Clone, Debug, Default)]
pub struct FlowNet {
    pub subs: Vec<Sub>,
    pub free_subs: Vec<u32>,
    /// The subflows on each link (see `subs_on`).
    link_subs: SubLists,
    /// Capacity and load of each directed link.
    links: Vec<LinkLoad>,
    /// Every subflow's normalised rate (rate / weight), densely: link scans read it.
    level: Vec<f64>,
    /// Every subflow's path in one flat array, `stride` links per subflow (no allocation per
    /// subflow, and the solver's hot loops read paths without chasing pointers).
    flat: Vec<LinkId>,
    /// Position of the subflow in `link_subs` of each link of its path (same layout as `flat`),
    /// for O(1) removal.
    pos: Vec<u32>,
    plen: Vec<u8>,
    stride: usize,
}

impl FlowNet {
    pub fn new(caps: Vec<f64>) -> FlowNet {
        let n = caps.len();
        FlowNet {
            subs: Vec::new(),
            free_subs: Vec::new(),
            link_subs: SubLists::new(n),
            links: caps
                .into_iter()
                .map(|cap| LinkLoad { cap, load: 0.0 })
                .collect(),
            level: Vec::new(),
            flat: Vec::new(),
            pos: Vec::new(),
            plen: Vec::new(),
            stride: 8,
        }
    }

    /// The path of subflow `s`.
    #[inline]
    pub fn path_of(&self, s: usize) -> &[LinkId] {
        let a = s * self.stride;
        &self.flat[a..a + self.plen[s] as usize]
    }

    /// The subflows on link `l`.
    #[inline]
    pub fn subs_on(&self, l: usize) -> &[u32] {
        self.link_subs.get(l)
    }

    /// Number of directed links.
    pub fn link_count(&self) -> usize {
        self.links.len()
    }

    /// Capacity of link `l` in Gb/s (0 while down).
    #[inline]
    pub fn cap(&self, l: usize) -> f64 {
        self.links[l].cap
    }

    pub fn set_cap(&mut self, l: usize, cap: f64) {
        self.links[l].cap = cap;
    }

    /// Sum of the rates of the subflows on link `l`, Gb/s.
    #[inline]
    pub fn load(&self, l: usize) -> f64 {
        self.links[l].load
    }

    /// Whether link `l` carries its capacity (the only kind of link that limits anyone).
    #[inline]
    pub fn saturated(&self, l: usize) -> bool {
        let ll = self.links[l];
        ll.load >= ll.cap * (1.0 - SAT_TOL)
    }

    /// Normalised rate (rate / weight) of subflow `s`: the water level it froze at.
    #[inline]
    pub fn level(&self, s: usize) -> f64 {
        self.level[s]
    }

    /// Set subflow `s`'s rate and move the load of its links with it; `moved(link, before,
    /// after)` sees each link's load change (for its utilisation series). Returns the old rate.
    pub fn set_rate(&mut self, s: usize, rate: f64, mut moved: impl FnMut(usize, f64, f64)) -> f64 {
        let old = std::mem::replace(&mut self.subs[s].rate, rate);
        self.level[s] = rate / self.subs[s].weight;
        let delta = rate - old;
        let a = s * self.stride;
        for &l in &self.flat[a..a + self.plen[s] as usize] {
            let load = &mut self.links[l.idx()].load;
            let before = *load;
            *load += delta;
            if *load < 1e-12 {
                *load = load.max(0.0); // rounding must not leave a negative load
            }
            moved(l.idx(), before, *load);
        }
        old
    }

    /// Make room for subflow `id` with a path of `n` links.
    fn reserve_path(&mut self, id: usize, n: usize) {
        if n > self.stride {
            assert!(n <= u8::MAX as usize, "path longer than 255 links");
            // re-lay the flat arrays with a wider stride (rare: only for a longer path than any so far)
            let old = self.stride;
            let stride = n.next_power_of_two();
            let mut flat = vec![LinkId(0); self.plen.len() * stride];
            let mut pos = vec![0; self.plen.len() * stride];
            for (k, &len) in self.plen.iter().enumerate() {
                let len = len as usize;
                flat[k * stride..k * stride + len]
                    .copy_from_slice(&self.flat[k * old..k * old + len]);
                pos[k * stride..k * stride + len]
                    .copy_from_slice(&self.pos[k * old..k * old + len]);
            }
            self.flat = flat;
            self.pos = pos;
            self.stride = stride;
        }
        if self.plen.len() <= id {
            self.plen.resize(id + 1, 0);
            self.level.resize(id + 1, 0.0);
            self.flat.resize((id + 1) * self.stride, LinkId(0));
            self.pos.resize((id + 1) * self.stride, 0);
        }
    }

    /// Add a subflow with rate 0; returns its id.
    pub fn add_sub(&mut self, flow: u32, path: &[LinkId], weight: f64) -> u32 {
        let id = match self.free_subs.pop() {
            Some(id) => id,
            None => {
                self.subs.push(Sub::default());
                (self.subs.len() - 1) as u32
            }
        };
        let si = id as usize;
        self.reserve_path(si, path.len());
        let a = si * self.stride;
        for (i, &l) in path.iter().enumerate() {
            self.flat[a + i] = l;
            self.pos[a + i] = self.link_subs.push(l.idx(), id);
        }
        self.plen[si] = path.len() as u8;
        self.subs[si] = Sub {
            flow,
            weight,
            rate: 0.0,
            live: true,
        };
        self.level[si] = 0.0;
        id
    }

    /// Remove a subflow whose rate has already been set to 0 (its load is gone); `moved` sees
    /// the rounding residue cleared from a link it leaves idle.
    pub fn remove_sub(&mut self, id: u32, mut moved: impl FnMut(usize, f64, f64)) {
        let si = id as usize;
        debug_assert!(self.subs[si].rate == 0.0);
        self.subs[si] = Sub::default();
        let a = si * self.stride;
        for i in 0..self.plen[si] as usize {
            let l = self.flat[a + i];
            let p = self.pos[a + i] as usize;
            let (left, moved_in) = self.link_subs.swap_remove(l.idx(), p);
            if left == 0 {
                // no rounding residue on an idle link
                let load = std::mem::take(&mut self.links[l.idx()].load);
                if load != 0.0 {
                    moved(l.idx(), load, 0.0);
                }
            }
            if p < left {
                // fix the position, for this link, of the subflow moved into slot p
                let o = moved_in as usize;
                let m = o * self.stride;
                let last = left as u32;
                for j in m..m + self.plen[o] as usize {
                    if self.flat[j] == l && self.pos[j] == last {
                        self.pos[j] = p as u32;
                        break;
                    }
                }
            }
        }
        self.free_subs.push(id);
        self.plen[si] = 0;
    }
}

/// Water-filling state of one link of the region, with the link's growth marks: one aligned
/// cache line per link (48-byte records straddled two lines every other link, and the marks in
/// arrays of their own cost a miss more; once the links outgrow the caches, as the 49,152
/// directed links of a k = 32 fat-tree do, each of those is a trip to memory).
#[derive(Clone, Copy, Debug, Default, bytemuck::Zeroable)]
#[repr(C, align(64))]
struct LinkFill {
    /// Capacity left for the unfrozen region subflows, Gb/s.
    resid: f64,
    /// Weight of the unfrozen region subflows on the link.
    wsum: f64,
    /// Number of unfrozen region subflows on the link.
    ucnt: u32,
    /// Solve in which the link joined the region's links `T`.
    t_mark: u32,
    /// Round in which the link was queued for water-filling.
    q_mark: u32,
    /// Round in which a subflow joined the running fill on the link (see `admit`).
    joined: u32,
    /// Level at which the link saturated and froze region subflows (infinite: not yet).
    sat: f64,
    /// Solve in which the link's top subflows joined R.
    topped: u32,
    /// Solve in which the link was checked as a bottleneck, and then the highest level of the
    /// subflows outside R on it.
    checked: u32,
    out_max: f64,
    /// Whether the link was saturated before this solve.
    was_sat: bool,
}

const _: () = assert!(std::mem::size_of::<LinkFill>() == 64);

/// Fill state of one subflow (one record, so a subflow costs one cache line).
#[derive(Clone, Copy, Debug, Default)]
struct SubFill {
    /// Solve in which the subflow joined the region `R`.
    in_r: u32,
    /// Solve in which the subflow froze (while it stays frozen).
    frozen: u32,
    /// Solve in which the subflow joined R but waits for the next round to enter the fill
    /// (see `admit`): until it enters, its old rate is held on its links like an outside
    /// subflow's, and no link may freeze it.
    waiting: u32,
    /// Link where it froze.
    bott: u32,
    /// Weight, and rate before this solve (copies of the `Sub` fields, read in hot loops).
    wt: f64,
    old: f64,
    /// Rate it froze at.
    new_rate: f64,
}

/// Scratch space of the solver, sized to the network; reused across events.
#[derive(Clone, Debug, Default)]
pub struct Solver {
    /// Solve counter for the fill state (marks `T` and frozen subflows).
    epoch: u32,
    /// Round counter (marks queued links).
    round: u32,
    /// Solve counter (marks membership of `R` and links whose top subflows joined).
    batch: u32,
    /// Fill state of each subflow.
    sf: Vec<SubFill>,
    /// Water-filling state of each link (one record, so a link costs one cache line).
    links: ZeroedSlice<LinkFill>,
    /// The region `R`, in the order its subflows joined.
    r_list: Vec<u32>,
    /// Subflows that joined R but wait for the next round to enter the fill.
    deferred: Vec<u32>,
    /// Whether this round's fill grows R (not in a global solve: nothing is outside).
    growing: bool,
    /// Region subflows water-filled in the current round (unfrozen at its start).
    refill: Vec<u32>,
    /// Frozen region subflows and saturated links, in the order (and so level) they froze.
    freeze_order: Vec<u32>,
    sat_order: Vec<u32>,
    unfrozen: usize,
    heap: LevelQueue,
    /// Output: (subflow, new rate) for every subflow whose rate changed.
    pub changed: Vec<(u32, f64)>,
    /// Statistics: total subflows re-solved, rounds.
    pub work_subs: u64,
    pub rounds: u64,
    /// Statistics: subflow rate changes output.
    pub changed_total: u64,
    /// Never widen a region to a global solve (tests use it to exercise the growth rules alone).
    pub no_widening: bool,
}

/// A region with more than `1 / GLOBAL_DIV` of the live subflows is widened to all of them.
const GLOBAL_DIV: usize = 4;
/// Marks a queue entry that is a subflow's own links (see `fill`), not a shared link.
const OWN_LINKS: u32 = 1 << 31;
const REL_TOL: f64 = 1e-9;

/// Ask for the records (fill state and load) of the links of `subs`: subflows joining a fill
/// bring links new to it, whose records are likely out of cache; asking for all of them first
/// overlaps the misses.
fn prefetch_links(fill: &[LinkFill], net: &FlowNet, subs: &[u32]) {
    for &s in subs {
        for &l in net.path_of(s as usize) {
            prefetch(&fill[l.idx()]);
            prefetch(&net.links[l.idx()]);
            net.link_subs.prefetch(l.idx());
        }
    }
}

/// Whether a subflow's rate moved in a solve, beyond rounding.
#[inline]
fn moved(old: f64, new: f64) -> bool {
    (new - old).abs() > REL_TOL * new.max(old).max(1e-9)
}

impl Solver {
    pub fn new(links: usize) -> Solver {
        Solver {
            // zeroed (as `default()`), not written: the pages of links no flow crosses stay unmapped
            links: ZeroedSlice::new(links),
            ..Default::default()
        }
    }

    fn ensure_subs(&mut self, n: usize) {
        if self.sf.len() < n {
            self.sf.resize(n, SubFill::default());
        }
    }

    /// Re-solve after the subflow sets of `seeds` changed. Results in `self.changed`.
    pub fn solve(&mut self, net: &FlowNet, seeds: &[LinkId]) {
        self.solve_with(net, seeds, &[]);
    }

    #[inline]
    fn join(&mut self, s: u32) -> bool {
        if self.sf[s as usize].in_r == self.batch {
            return false;
        }
        self.sf[s as usize].in_r = self.batch;
        self.r_list.push(s);
        true
    }

    /// Add the subflows of link `li` at its highest normalised rate (before this solve): the only
    /// ones that have it as a bottleneck, so the only ones a change on it can move directly.
    fn join_top(&mut self, net: &FlowNet, li: usize) -> bool {
        let subs = net.subs_on(li);
        let top = subs
            .iter()
            .map(|&o| net.level(o as usize))
            .fold(0.0f64, f64::max);
        let floor = top * (1.0 - 1e-9) - 1e-12;
        let mut grew = false;
        for &o in subs {
            if net.level(o as usize) >= floor {
                grew |= self.join(o);
            }
        }
        grew
    }

    /// Re-solve after the subflow sets of `seeds` changed, with `seed_subs` (new subflows) always
    /// in the region. Results in `self.changed`.
    pub fn solve_with(&mut self, net: &FlowNet, seeds: &[LinkId], seed_subs: &[u32]) {
        self.changed.clear();
        self.ensure_subs(net.subs.len());
        self.batch = self.batch.wrapping_add(1);
        if self.batch == 0 {
            self.sf.iter_mut().for_each(|x| x.in_r = 0);
            self.links.iter_mut().for_each(|x| {
                x.topped = 0;
                x.checked = 0;
            });
            self.batch = 1;
        }
        let batch = self.batch;
        self.r_list.clear();
        for &s in seed_subs {
            self.join(s);
        }
        for &l in seeds {
            let li = l.idx();
            if net.load(li) > net.cap(li) * (1.0 + SAT_TOL) + 1e-12 {
                // the capacity fell under the load: everyone on the link must be re-solved
                for &s in net.subs_on(li) {
                    self.join(s);
                }
            } else if self.links[li].topped != batch {
                self.links[li].topped = batch;
                self.join_top(net, li);
            }
        }
        if self.r_list.is_empty() {
            return;
        }
        let mut global = false;
        let mut first = true;
        // the seeds' region joins the first fill
        self.deferred.clear();
        self.deferred.extend_from_slice(&self.r_list);
        self.start_fill();
        loop {
            self.rounds += 1;
            self.next_round();
            // A region covering a good part of the network: solve everything at once (one round,
            // subflows in id order for memory locality) instead of growing it round by round.
            let live = net.subs.len() - net.free_subs.len();
            if !global && !self.no_widening && self.r_list.len() * GLOBAL_DIV > live {
                global = true;
                first = true;
                self.r_list.clear();
                for (s, sub) in net.subs.iter().enumerate() {
                    if sub.live {
                        self.sf[s].in_r = batch;
                        self.r_list.push(s as u32);
                    }
                }
                self.deferred.clear();
                self.deferred.extend_from_slice(&self.r_list);
                self.start_fill();
            }
            // every subflow is in R when global: nothing outside can be affected
            self.growing = !global;
            self.refill.clear();
            // 1. the joining subflows, on capacity the subflows outside R leave their links
            let mut resume = f64::INFINITY;
            prefetch_links(&self.links, net, &self.deferred);
            for i in 0..self.deferred.len() {
                let s = self.deferred[i];
                resume = resume.min(self.enter(net, s));
                self.refill.push(s);
            }
            self.deferred.clear();
            // 2. resume the fill below the lowest level the joining subflows can change
            let floor = if first {
                0.0
            } else {
                self.unfreeze_from(net, resume)
            };
            first = false;
            self.work_subs += self.refill.len() as u64;
            // 3. water-fill, growing R as it goes; joiners that would change a freeze already
            //    made wait for the next round
            self.fill(net, floor);
            if self.deferred.is_empty() {
                break;
            }
        }
        for &s in &self.r_list {
            let si = s as usize;
            let old = self.sf[si].old;
            let nr = self.sf[si].new_rate;
            if moved(old, nr) || (old == 0.0) != (nr == 0.0) {
                self.changed.push((s, nr));
            }
        }
        self.changed_total += self.changed.len() as u64;
    }

    /// Forget the fill state: no link in `T`, no subflow frozen.
    fn start_fill(&mut self) {
        self.next_epoch();
        self.freeze_order.clear();
        self.sat_order.clear();
    }

    /// Put subflow `s` (joining R) into the fill: unfrozen, its rate given back to its links.
    /// Returns the level below which its joining changes no freeze.
    ///
    /// Water-filling freezes in level order. Below a joining subflow's old level it takes less
    /// capacity than the fixed rate it held outside R, so no link it crosses saturates earlier
    /// than before; the other links see the same loads. Every freeze below the first level where
    /// it reaches its old rate or crosses a link that froze someone happens as before.
    #[inline]
    fn enter(&mut self, net: &FlowNet, s: u32) -> f64 {
        let (rate, w) = self.start_entering(net, s);
        let mut resume = net.level(s as usize);
        for &l in net.path_of(s as usize) {
            let lf = self.fill_of(net, l.idx());
            resume = resume.min(lf.sat);
            lf.resid += rate;
            lf.wsum += w;
            lf.ucnt += 1;
        }
        resume
    }

    /// Fill state of subflow `s`, entering the fill: unfrozen, its weight and old rate noted.
    #[inline]
    fn start_entering(&mut self, net: &FlowNet, s: u32) -> (f64, f64) {
        let sub = &net.subs[s as usize];
        let sf = &mut self.sf[s as usize];
        sf.frozen = 0;
        sf.waiting = 0;
        sf.wt = sub.weight;
        sf.old = sub.rate;
        (sub.rate, sub.weight)
    }

    /// Link `li`'s fill state, set up (from the rates outside R) on its first use in this fill.
    #[inline]
    fn fill_of(&mut self, net: &FlowNet, li: usize) -> &mut LinkFill {
        let lf = &mut self.links[li];
        if lf.t_mark != self.epoch {
            *lf = LinkFill {
                resid: net.cap(li) - net.load(li),
                wsum: 0.0,
                ucnt: 0,
                t_mark: self.epoch,
                q_mark: lf.q_mark,
                joined: lf.joined,
                topped: lf.topped,
                checked: lf.checked,
                out_max: lf.out_max,
                sat: f64::INFINITY,
                was_sat: net.saturated(li),
            };
        }
        lf
    }

    /// Undo every freeze at or above `lambda` (they are filled again); returns the level to
    /// resume filling from.
    fn unfreeze_from(&mut self, net: &FlowNet, lambda: f64) -> f64 {
        let from = lambda * (1.0 - 1e-9) - 1e-12;
        while let Some(&s) = self.freeze_order.last() {
            let s = s as usize;
            let (w, rate) = (self.sf[s].wt, self.sf[s].new_rate);
            if rate / w < from {
                break;
            }
            self.freeze_order.pop();
            self.sf[s].frozen = 0;
            for &l in net.path_of(s) {
                let lf = &mut self.links[l.idx()];
                lf.resid += rate;
                lf.wsum += w;
                lf.ucnt += 1;
            }
            self.refill.push(s as u32);
        }
        while let Some(&l) = self.sat_order.last() {
            let lf = &mut self.links[l as usize];
            if lf.sat < from {
                break;
            }
            lf.sat = f64::INFINITY;
            self.sat_order.pop();
        }
        from.max(0.0)
    }

    /// Freeze every unfrozen R subflow of link `li` at `level`.
    #[inline]
    fn freeze_link(&mut self, net: &FlowNet, li: usize, level: f64) {
        let ep = self.epoch;
        self.links[li].sat = level;
        self.sat_order.push(li as u32);
        for &s in net.subs_on(li) {
            let s = s as usize;
            // subflows outside the region keep their rates (already out of `resid`)
            // (a subflow waiting to enter in the next round was never counted in the link's
            // unfrozen weight: freezing it would take its weight and rate off twice)
            let sf = &self.sf[s];
            if sf.in_r == self.batch && sf.frozen != ep && sf.waiting != ep {
                self.freeze(net, s, level, li as u32);
                if self.links[li].ucnt == 0 {
                    break; // every unfrozen region subflow of the link is frozen now
                }
            }
        }
    }

    /// Freeze subflow `s` of R at `level`, bottlenecked at link `b`.
    #[inline]
    fn freeze(&mut self, net: &FlowNet, s: usize, level: f64, b: u32) {
        self.sf[s].frozen = self.epoch;
        self.freeze_order.push(s as u32);
        self.unfrozen -= 1;
        let w = self.sf[s].wt;
        let rate = w * level;
        self.sf[s].new_rate = rate;
        self.sf[s].bott = b;
        for &l in net.path_of(s) {
            let lf = &mut self.links[l.idx()];
            lf.resid -= rate;
            lf.wsum -= w;
            lf.ucnt -= 1;
        }
        if self.growing && moved(self.sf[s].old, rate) {
            // A changed rate on a link that was saturated moves the subflows that had it as their
            // bottleneck; a link that was slack was no one's bottleneck, and if it saturates now
            // `admit_higher` covers it.
            self.admit_tops(net, s, level);
        }
    }

    /// Progressive filling of the `refill` subflows from level `floor`, with a lazy min-heap of
    /// link fair shares (`resid / wsum`).
    ///
    /// Freezing subflows at the current level never lowers another link's fair share (it removes
    /// `level * w <= share * w` of residual capacity for `w` of weight), so a queued key is a lower
    /// bound of its link's share: a popped link whose share grew is re-queued with its current
    /// share instead of being updated on every change.
    fn fill(&mut self, net: &FlowNet, mut floor: f64) {
        self.heap.clear();
        let round = self.round;
        self.unfrozen = self.refill.len();
        // A link crossed by one unfrozen subflow bounds only that subflow, at a level that never
        // moves (nobody else frees or takes capacity there): such links are folded into one
        // entry per subflow, its lowest, instead of each being queued.
        for i in 0..self.refill.len() {
            let s = self.refill[i] as usize;
            let w = self.sf[s].wt;
            // (its own links' capacity left, the link with the least)
            let mut own = (f64::INFINITY, 0);
            for &l in net.path_of(s) {
                let lf = &mut self.links[l.idx()];
                if lf.ucnt == 1 {
                    if lf.resid < own.0 {
                        own = (lf.resid, l.0);
                    }
                } else if lf.q_mark != round {
                    lf.q_mark = round;
                    self.heap.push_fixed((lf.resid / lf.wsum).max(floor), l.0);
                }
            }
            if own.0.is_finite() {
                self.sf[s].bott = own.1;
                self.heap
                    .push_fixed((own.0 / w).max(floor), s as u32 | OWN_LINKS);
            }
        }
        while self.unfrozen > 0 {
            let Some((key, item)) = self.heap.pop() else {
                break;
            };
            if item & OWN_LINKS != 0 {
                let s = (item & !OWN_LINKS) as usize;
                if self.sf[s].frozen == self.epoch {
                    continue;
                }
                let (mut key, mut b) = (key, self.sf[s].bott);
                if self.links[b as usize].joined == self.round {
                    // A joiner came onto the link this entry is about since it was queued (a
                    // joiner on another of s's own links leaves this bound right, and queues that
                    // link as shared).
                    match self.own_bound(net, s) {
                        None => continue, // they are all shared now, and queued as such
                        Some((k, l)) if k > key * (1.0 + 1e-12) + 1e-300 => {
                            self.sf[s].bott = l;
                            self.heap.push(k.max(floor), item);
                            continue;
                        }
                        Some((k, l)) => (key, b) = (k, l),
                    }
                }
                let level = key.max(floor);
                if self.admit_higher(net, b as usize, level) {
                    // `b` is shared now (and queued): s's own links are bounded afresh
                    if let Some((k, l)) = self.own_bound(net, s) {
                        self.sf[s].bott = l;
                        self.heap.push(k.max(floor), item);
                    }
                    continue;
                }
                floor = level;
                self.links[b as usize].sat = floor;
                self.sat_order.push(b);
                self.freeze(net, s, floor, b);
                continue;
            }
            let li = item as usize;
            let lf = self.links[li];
            if lf.ucnt == 0 {
                continue;
            }
            let cur = (lf.resid / lf.wsum.max(1e-300)).max(floor);
            if cur > key * (1.0 + 1e-12) + 1e-300 {
                self.heap.push(cur, item);
                continue;
            }
            if self.admit_higher(net, li, cur) {
                // the joiners gave back more than their fair share here: the link's share rose
                let lf = self.links[li];
                self.heap.push((lf.resid / lf.wsum).max(floor), item);
                continue;
            }
            floor = cur;
            self.freeze_link(net, li, cur);
        }
    }

    /// The lowest capacity left per unit of weight on the links subflow `s` crosses alone, and
    /// that link.
    fn own_bound(&self, net: &FlowNet, s: usize) -> Option<(f64, u32)> {
        let mut own = (f64::INFINITY, 0);
        for &l in net.path_of(s) {
            let lf = &self.links[l.idx()];
            if lf.ucnt == 1 && lf.resid < own.0 {
                own = (lf.resid, l.0);
            }
        }
        own.0.is_finite().then(|| (own.0 / self.sf[s].wt, own.1))
    }

    /// Before link `b` freezes R's subflows at `level`: no one outside R may hold a higher
    /// normalised rate there. Such subflows join R; returns whether any joined the fill now.
    fn admit_higher(&mut self, net: &FlowNet, b: usize, level: f64) -> bool {
        if !self.growing {
            return false;
        }
        let batch = self.batch;
        let cap_level = level * (1.0 + 1e-7) + 1e-9;
        if self.links[b].checked == batch && self.links[b].out_max <= cap_level {
            // (the highest level outside R on `b` only falls as R grows: one scan per solve
            // usually answers every later check)
            return false;
        }
        self.links[b].checked = batch;
        let mut out_max = 0.0f64;
        let from = self.r_list.len();
        for &o in net.subs_on(b) {
            if self.sf[o as usize].in_r != batch {
                let lv = net.level(o as usize);
                if lv > cap_level {
                    self.join(o);
                } else {
                    out_max = out_max.max(lv);
                }
            }
        }
        self.links[b].out_max = out_max;
        prefetch_links(&self.links, net, &self.r_list[from..]);
        let mut now = false;
        for i in from..self.r_list.len() {
            let o = self.r_list[i];
            now |= self.admit(net, o, level);
        }
        now
    }

    /// Subflow `o` just joined R while the fill stands at `level`. If no freeze made so far can
    /// depend on it (see `enter`), it joins this fill at once; otherwise it waits for the next
    /// round, which undoes the freezes it can change. Returns whether it joined now.
    fn admit(&mut self, net: &FlowNet, o: u32, level: f64) -> bool {
        let ep = self.epoch;
        let mut resume = net.level(o as usize);
        for &l in net.path_of(o as usize) {
            let lf = &self.links[l.idx()];
            if lf.t_mark == ep {
                resume = resume.min(lf.sat);
            }
        }
        if resume <= level * (1.0 + 1e-9) + 1e-12 {
            self.sf[o as usize].waiting = ep;
            self.deferred.push(o);
            return false;
        }
        self.unfrozen += 1;
        self.work_subs += 1;
        // enter it (as `enter`); its links: shared ones queued (their share may have fallen), its
        // own ones as one entry
        let (rate, w) = self.start_entering(net, o);
        let round = self.round;
        let mut own = (f64::INFINITY, 0);
        for &l in net.path_of(o as usize) {
            let lf = self.fill_of(net, l.idx());
            lf.resid += rate;
            lf.wsum += w;
            lf.ucnt += 1;
            if lf.ucnt > 1 {
                // (someone else's own-links entry may be about this link)
                lf.joined = round;
                let share = (lf.resid / lf.wsum).max(level);
                self.heap.push(share, l.0);
            } else if lf.resid < own.0 {
                own = (lf.resid, l.0);
            }
        }
        if own.0.is_finite() {
            self.sf[o as usize].bott = own.1;
            self.heap.push((own.0 / w).max(level), o | OWN_LINKS);
        }
        true
    }

    /// Subflow `s` froze at a rate that moved: the subflows that had a saturated link of its
    /// path as their bottleneck (those at the link's top level) join R.
    fn admit_tops(&mut self, net: &FlowNet, s: usize, level: f64) {
        let batch = self.batch;
        for &l in net.path_of(s) {
            let li = l.idx();
            if self.links[li].was_sat && self.links[li].topped != batch {
                self.links[li].topped = batch;
                let from = self.r_list.len();
                self.join_top(net, li);
                // the joiners' links are mostly new to this fill, their records likely out of
                // cache: ask for all of them before entering any
                prefetch_links(&self.links, net, &self.r_list[from..]);
                for i in from..self.r_list.len() {
                    let o = self.r_list[i];
                    self.admit(net, o, level);
                }
            }
        }
    }

    fn next_round(&mut self) {
        self.round = self.round.wrapping_add(1);
        if self.round == 0 {
            self.links.iter_mut().for_each(|x| {
                x.q_mark = 0;
                x.joined = 0;
            });
            self.round = 1;
        }
    }

    fn next_epoch(&mut self) {
        self.epoch = self.epoch.wrapping_add(1);
        if self.epoch == 0 {
            self.links.iter_mut().for_each(|x| x.t_mark = 0);
            self.sf.iter_mut().for_each(|x| {
                x.frozen = 0;
                x.waiting = 0;
            });
            self.epoch = 1;
        }
    }
}
