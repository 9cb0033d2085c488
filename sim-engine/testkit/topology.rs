//! Topology builders for tests, the benchmarks and `loopline-sim gen` (see [`super`]).
//! Each returns a [`NetworkSpec`] shaped like the wiring generator's export.

use crate::scenario::{
    EngineSpec, LinkSpec, NetworkSpec, NodeSpec, PacketProfile, PacketSpec, Role, RoutingSpec,
    Scenario, WorkloadSpec,
};

fn node(id: String, role: Role) -> NodeSpec {
    NodeSpec {
        id,
        role,
        layer: None,
        cluster: None,
        loop_id: None,
        loop_position: None,
        rack: None,
        logical_rack: None,
        host: None,
        rail: None,
    }
}

fn link(a: &str, b: &str, gbps: f64, latency_ns: u64) -> LinkSpec {
    LinkSpec {
        id: None,
        a: a.to_string(),
        b: b.to_string(),
        gbps,
        latency_ns,
    }
}

/// Wrap a network into a scenario (flow mode, seed 1).
pub fn scenario(network: NetworkSpec, routing: RoutingSpec, workload: WorkloadSpec) -> Scenario {
    Scenario {
        schema_version: 1,
        name: None,
        network,
        routing,
        workload,
        engine: EngineSpec::default(),
    }
}

/// `n` servers `S0..` on one switch `SW` (a non-blocking switch), each with one `gbps` link.
pub fn star(n: usize, gbps: f64) -> NetworkSpec {
    let mut net = NetworkSpec::default();
    let mut sw = node("SW".into(), Role::Tor);
    sw.cluster = Some(0);
    net.nodes.push(sw);
    for i in 0..n {
        let mut s = node(format!("S{i}"), Role::Server);
        s.cluster = Some(0);
        net.nodes.push(s);
        net.links.push(link(&format!("S{i}"), "SW", gbps, 0));
    }
    net
}

/// Leaf-spine: `leaves` ToRs `T{i}` with `per_leaf` servers `S{i}.{j}` each, `spines` spines `SP{k}`,
/// every ToR linked once to every spine.
pub fn leaf_spine(
    leaves: usize,
    per_leaf: usize,
    spines: usize,
    host_gbps: f64,
    fabric_gbps: f64,
) -> NetworkSpec {
    let mut net = NetworkSpec::default();
    for k in 0..spines {
        net.nodes.push(node(format!("SP{k}"), Role::Spine));
    }
    for i in 0..leaves {
        let t = format!("T{i}");
        let mut tn = node(t.clone(), Role::Tor);
        tn.cluster = Some(0);
        tn.logical_rack = Some(format!("R{i}"));
        net.nodes.push(tn);
        for k in 0..spines {
            net.links.push(link(&t, &format!("SP{k}"), fabric_gbps, 0));
        }
        for j in 0..per_leaf {
            let s = format!("S{i}.{j}");
            let mut sn = node(s.clone(), Role::Server);
            sn.cluster = Some(0);
            sn.logical_rack = Some(format!("R{i}"));
            net.nodes.push(sn);
            net.links.push(link(&s, &t, host_gbps, 0));
        }
    }
    net
}

/// 3-tier k-ary FatTree: k pods of k/2 edge and k/2 aggregation switches, (k/2)^2 cores,
/// k^3/4 servers; every link `gbps`. Names: `P{p}.E{e}.S{s}`, `P{p}.E{e}`, `P{p}.A{a}`, `C{c}`.
pub fn fat_tree(k: usize, gbps: f64) -> NetworkSpec {
    assert!(k >= 2 && k % 2 == 0, "k must be even");
    let h = k / 2;
    let mut net = NetworkSpec::default();
    for c in 0..h * h {
        net.nodes.push(node(format!("C{c}"), Role::Core));
    }
    for p in 0..k {
        for a in 0..h {
            let an = format!("P{p}.A{a}");
            let mut n = node(an.clone(), Role::Agg);
            n.cluster = Some(p as i64);
            net.nodes.push(n);
            for j in 0..h {
                net.links
                    .push(link(&an, &format!("C{}", a * h + j), gbps, 0));
            }
        }
        for e in 0..h {
            let en = format!("P{p}.E{e}");
            let mut n = node(en.clone(), Role::Tor);
            n.cluster = Some(p as i64);
            n.logical_rack = Some(en.clone());
            net.nodes.push(n);
            for a in 0..h {
                net.links.push(link(&en, &format!("P{p}.A{a}"), gbps, 0));
            }
            for s in 0..h {
                let sn = format!("{en}.S{s}");
                let mut n = node(sn.clone(), Role::Server);
                n.cluster = Some(p as i64);
                n.logical_rack = Some(en.clone());
                net.nodes.push(n);
                net.links.push(link(&sn, &en, gbps, 0));
            }
        }
    }
    net
}

/// Parameters of a single-cluster rack row for Subways comparisons.
#[derive(Clone, Debug)]
pub struct Cluster {
    /// Logical racks (l).
    pub racks: usize,
    /// Servers per logical rack (r).
    pub servers_per_rack: usize,
    /// Ports per server (p).
    pub ports: usize,
    /// Server port speed, Gb/s.
    pub port_gbps: f64,
    /// Spine switches of the cluster; every ToR has one uplink to each.
    pub spines: usize,
    /// Speed of each ToR uplink, Gb/s.
    pub uplink_gbps: f64,
}

/// Subways Type 1 (one loop, one cluster): a server of logical rack `i` connects to ToR `i`, to the
/// `floor((p-1)/2)` ToRs clockwise (`i+1`, ...) and to the `ceil((p-1)/2)` ToRs counter-clockwise
/// (`i-1`, ...), mod `l`. Names: servers `L{i}.S{j}`, ToRs `L{i}.TOR` (loop 0, position i), spines `SP{k}`.
pub fn subways_type1(c: &Cluster) -> NetworkSpec {
    build_cluster(c, true)
}

/// Type 0 (single-homed) with the same hardware: all `p` ports of a server go to its own ToR (a LAG).
pub fn type0(c: &Cluster) -> NetworkSpec {
    build_cluster(c, false)
}

fn build_cluster(c: &Cluster, subways: bool) -> NetworkSpec {
    let l = c.racks;
    let mut net = NetworkSpec::default();
    for k in 0..c.spines {
        let mut n = node(format!("SP{k}"), Role::Spine);
        n.cluster = Some(0);
        net.nodes.push(n);
    }
    for i in 0..l {
        let t = format!("L{i}.TOR");
        let mut n = node(t.clone(), Role::Tor);
        n.cluster = Some(0);
        n.logical_rack = Some(format!("L{i}"));
        n.rack = Some(format!("K{}", i / 2));
        if subways {
            n.loop_id = Some(0);
            n.loop_position = Some(i as u32);
        }
        net.nodes.push(n);
        for k in 0..c.spines {
            net.links
                .push(link(&t, &format!("SP{k}"), c.uplink_gbps, 0));
        }
    }
    for i in 0..l {
        for j in 0..c.servers_per_rack {
            let s = format!("L{i}.S{j}");
            let mut n = node(s.clone(), Role::Server);
            n.cluster = Some(0);
            n.logical_rack = Some(format!("L{i}"));
            n.rack = Some(format!("K{}", i / 2));
            net.nodes.push(n);
            let mut tors = vec![i];
            if subways {
                let cw = (c.ports - 1) / 2;
                let ccw = c.ports - 1 - cw;
                for d in 1..=cw {
                    tors.push((i + d) % l);
                }
                for d in 1..=ccw {
                    tors.push((i + l - d % l) % l);
                }
            } else {
                tors.extend(std::iter::repeat_n(i, c.ports - 1));
            }
            for t in tors {
                net.links
                    .push(link(&s, &format!("L{t}.TOR"), c.port_gbps, 0));
            }
        }
    }
    net
}

/// Parking lot: a chain of switches `X0..X{n}` whose hop `i` (`X{i}` -> `X{i+1}`) has capacity
/// `hop_gbps[i]`. Layers increase along the chain (X{i} is on layer i+1), so the chain is a valid
/// up-down path. The long flow's servers are `LS` (on `X0`) and `LD` (on `X{n}`); for every hop `i`
/// server `A{i}` on `X{i}` and `B{i}` on `X{i+1}` can send across that hop only.
/// Server links are `server_gbps`.
pub fn parking_lot(hop_gbps: &[f64], server_gbps: f64) -> NetworkSpec {
    let n = hop_gbps.len();
    let mut net = NetworkSpec::default();
    for i in 0..=n {
        let mut x = node(format!("X{i}"), if i == 0 { Role::Tor } else { Role::Agg });
        x.layer = Some(i as u8 + 1);
        net.nodes.push(x);
    }
    for (i, &g) in hop_gbps.iter().enumerate() {
        net.links
            .push(link(&format!("X{i}"), &format!("X{}", i + 1), g, 0));
    }
    let add = |name: String, sw: usize, net: &mut NetworkSpec| {
        net.nodes.push(node(name.clone(), Role::Server));
        net.links
            .push(link(&name, &format!("X{sw}"), server_gbps, 0));
    };
    add("LS".into(), 0, &mut net);
    add("LD".into(), n, &mut net);
    for i in 0..n {
        add(format!("A{i}"), i, &mut net);
        add(format!("B{i}"), i + 1, &mut net);
    }
    net
}

/// A FatTree(k) with web-search Poisson traffic at `load` (the benchmark's case (a)).
pub fn fat_tree_websearch(k: usize, gbps: f64, load: f64, flows: u64) -> Scenario {
    use crate::scenario::{CdfSpec, PoissonSpec};
    let mut sc = scenario(
        fat_tree(k, gbps),
        RoutingSpec::Ecmp,
        WorkloadSpec::Poisson(PoissonSpec {
            cdf: CdfSpec::Named("websearch".into()),
            load,
            flows,
            servers: None,
            inter_rack_only: false,
        }),
    );
    sc.name = Some(format!("fattree k={k} websearch load={load}"));
    sc.engine.link_series = false;
    sc
}

/// An all-to-all shuffle of every server of `net` (ECMP), `bytes_per_pair` per ordered pair.
pub fn shuffle_all(net: NetworkSpec, bytes_per_pair: u64) -> Scenario {
    use crate::scenario::ShuffleSpec;
    scenario(
        net,
        RoutingSpec::Ecmp,
        WorkloadSpec::Shuffle(ShuffleSpec {
            servers: None,
            bytes_per_pair,
            start_s: 0.0,
        }),
    )
}

/// GRIN cables: pair the `i`-th server of `net` (in node order) with the `i ^ xor`-th, each pair
/// once (one perfect matching when the server count is a multiple of `2 * xor`'s top bit). Calling
/// it with `d` different masks gives every server `d` GRIN neighbours.
pub fn add_grin_matching(net: &mut NetworkSpec, xor: usize, gbps: f64) {
    let servers: Vec<String> = net
        .nodes
        .iter()
        .filter(|n| n.role == Role::Server)
        .map(|n| n.id.clone())
        .collect();
    for (i, a) in servers.iter().enumerate() {
        let j = i ^ xor;
        if j > i && j < servers.len() {
            let mut l = link(a, &servers[j], gbps, 0);
            l.id = Some(format!("GRIN.{a}.{}", servers[j]));
            net.links.push(l);
        }
    }
}

/// The servers of `net` grouped by logical rack, racks in the order of their first server
/// (node order inside a rack).
fn servers_by_rack(net: &NetworkSpec) -> Vec<(String, Vec<String>)> {
    let mut racks: Vec<(String, Vec<String>)> = Vec::new();
    for n in net.nodes.iter().filter(|n| n.role == Role::Server) {
        let r = n.logical_rack.clone().unwrap_or_default();
        match racks.iter_mut().find(|(name, _)| *name == r) {
            Some((_, v)) => v.push(n.id.clone()),
            None => racks.push((r, vec![n.id.clone()])),
        }
    }
    racks
}

/// GRIN cables inside each logical rack (DESIGN.md: same rack by default): every server of a
/// rack of `r` servers gets `degree` neighbours among them, never two cables between one pair.
/// Servers at positions `i` and `i + k (mod r)` are cabled for `k = 1 ..= degree / 2`; an odd
/// degree adds the pairs `(i, i + r/2)` when `r` is even, and when `r` is odd the pairs
/// `(i, i + (r-1)/2)` for `i < (r-1)/2` plus the last server to server `(r-1)/2`, which then has
/// `degree + 1` (a rack of odd size has no `degree`-regular wiring of odd degree). Err when a
/// rack has `degree` servers or fewer.
pub fn add_grin_within_racks(
    net: &mut NetworkSpec,
    degree: usize,
    gbps: f64,
) -> Result<(), String> {
    let mut cables = Vec::new();
    for (rack, servers) in servers_by_rack(net) {
        let r = servers.len();
        if degree == 0 {
            break;
        }
        if degree >= r {
            return Err(format!(
                "--degree {degree}: rack {rack:?} has {r} servers, so a server has at most {} GRIN neighbours in it",
                r.saturating_sub(1)
            ));
        }
        let mut pairs: Vec<(usize, usize)> = Vec::new();
        for k in 1..=degree / 2 {
            pairs.extend((0..r).map(|i| (i, (i + k) % r)));
        }
        if degree % 2 == 1 {
            let h = r / 2;
            if r % 2 == 0 {
                pairs.extend((0..h).map(|i| (i, i + h)));
            } else {
                pairs.extend((0..h).map(|i| (i, i + h)));
                pairs.push((h, r - 1));
            }
        }
        for (i, j) in pairs {
            let (a, b) = (&servers[i.min(j)], &servers[i.max(j)]);
            let mut l = link(a, b, gbps, 0);
            l.id = Some(format!("GRIN.{a}.{b}"));
            cables.push(l);
        }
    }
    net.links.extend(cables);
    Ok(())
}

/// The server list of a workload that has one (shuffle, all-to-all, permutation, random,
/// Poisson).
fn workload_servers(w: &mut WorkloadSpec) -> Option<&mut Option<Vec<String>>> {
    match w {
        WorkloadSpec::Shuffle(s) => Some(&mut s.servers),
        WorkloadSpec::AllToAll(s) => Some(&mut s.servers),
        WorkloadSpec::Permutation(s) => Some(&mut s.servers),
        WorkloadSpec::Random(s) => Some(&mut s.servers),
        WorkloadSpec::Poisson(s) => Some(&mut s.servers),
        _ => None,
    }
}

/// Job size: the workload runs among the servers of the first `racks` logical racks (in the
/// order of their first server: `L0, L1, ...` on a Subways loop, adjacent racks).
pub fn restrict_to_racks(sc: &mut Scenario, racks: usize) -> Result<(), String> {
    let all = servers_by_rack(&sc.network);
    if racks == 0 || racks > all.len() {
        return Err(format!(
            "--job-racks {racks}: the network has {} logical racks (give 1 to {})",
            all.len(),
            all.len()
        ));
    }
    let servers: Vec<String> = all.into_iter().take(racks).flat_map(|(_, v)| v).collect();
    let name = sc.workload.name();
    let slot = workload_servers(&mut sc.workload)
        .ok_or_else(|| format!("--job-racks: the {name} workload has no server list"))?;
    *slot = Some(servers);
    Ok(())
}

/// Active fraction: keep `round(fraction x n)` (at least 2) of the workload's `n` servers, drawn
/// with `seed`, listed in node order; the others stay idle (for GRIN, idle neighbours lend their
/// links).
pub fn keep_active_fraction(sc: &mut Scenario, fraction: f64, seed: u64) -> Result<(), String> {
    if !(fraction > 0.0 && fraction <= 1.0) {
        return Err(format!(
            "--active-fraction: must be > 0 and at most 1, got {fraction}"
        ));
    }
    let every: Vec<String> = sc
        .network
        .nodes
        .iter()
        .filter(|n| n.role == Role::Server)
        .map(|n| n.id.clone())
        .collect();
    let name = sc.workload.name();
    let slot = workload_servers(&mut sc.workload)
        .ok_or_else(|| format!("--active-fraction: the {name} workload has no server list"))?;
    let pool = slot.clone().unwrap_or(every);
    let n = ((fraction * pool.len() as f64).round() as usize).max(2);
    if n > pool.len() {
        return Err(format!(
            "--active-fraction {fraction}: {n} active servers needed, the job has {}",
            pool.len()
        ));
    }
    let mut idx: Vec<usize> = (0..pool.len()).collect();
    crate::rng::Rng::new(seed, 0x6163).shuffle(&mut idx);
    idx.truncate(n);
    idx.sort_unstable();
    *slot = Some(idx.into_iter().map(|i| pool[i].clone()).collect());
    Ok(())
}

/// Subways Type 2: the loop of [`subways_type1`] (same server wiring), but the ToR at loop
/// position `i` joins cluster `i mod clusters`; each cluster has `c.spines` aggregation switches
/// `C{k}.A{j}` (every ToR of the cluster has one uplink to each), and every aggregation switch has
/// one `c.uplink_gbps` link to each of `cores` cores `CORE{m}`.
pub fn subways_type2(c: &Cluster, clusters: usize, cores: usize) -> NetworkSpec {
    let mut net = build_cluster(c, true);
    let clusters = clusters.max(1);
    // drop the one-cluster spines and their links, rewire the ToRs to their cluster's aggs
    net.nodes.retain(|n| n.role != Role::Spine);
    net.links.retain(|l| !l.b.starts_with("SP"));
    for k in 0..clusters {
        for j in 0..c.spines {
            let a = format!("C{k}.A{j}");
            let mut n = node(a.clone(), Role::Agg);
            n.cluster = Some(k as i64);
            net.nodes.push(n);
            for m in 0..cores {
                net.links
                    .push(link(&a, &format!("CORE{m}"), c.uplink_gbps, 0));
            }
        }
    }
    for m in 0..cores {
        net.nodes.push(node(format!("CORE{m}"), Role::Core));
    }
    for i in 0..c.racks {
        let k = i % clusters;
        for n in net.nodes.iter_mut() {
            if n.id == format!("L{i}.TOR") {
                n.cluster = Some(k as i64);
            }
        }
        for j in 0..c.spines {
            net.links.push(link(
                &format!("L{i}.TOR"),
                &format!("C{k}.A{j}"),
                c.uplink_gbps,
                0,
            ));
        }
    }
    net
}

/// VL2: `tors` ToRs `T{i}` with `per_tor` servers `S{i}.{j}` each; ToR `i` has two uplinks, to
/// aggregation switches `A{i mod aggs}` and `A{(i+1) mod aggs}`; every aggregation switch links
/// to every intermediate switch `I{m}`.
pub fn vl2(
    tors: usize,
    per_tor: usize,
    aggs: usize,
    intermediates: usize,
    host_gbps: f64,
    fabric_gbps: f64,
) -> NetworkSpec {
    let mut net = NetworkSpec::default();
    for m in 0..intermediates {
        net.nodes.push(node(format!("I{m}"), Role::Core));
    }
    for a in 0..aggs {
        let an = format!("A{a}");
        let mut n = node(an.clone(), Role::Agg);
        n.cluster = Some(0);
        net.nodes.push(n);
        for m in 0..intermediates {
            net.links.push(link(&an, &format!("I{m}"), fabric_gbps, 0));
        }
    }
    for i in 0..tors {
        let t = format!("T{i}");
        let mut tn = node(t.clone(), Role::Tor);
        tn.cluster = Some(0);
        tn.logical_rack = Some(format!("R{i}"));
        net.nodes.push(tn);
        let mut ups = vec![i % aggs.max(1)];
        if aggs > 1 {
            ups.push((i + 1) % aggs);
        }
        for a in ups {
            net.links.push(link(&t, &format!("A{a}"), fabric_gbps, 0));
        }
        for j in 0..per_tor {
            let s = format!("S{i}.{j}");
            let mut sn = node(s.clone(), Role::Server);
            sn.cluster = Some(0);
            sn.logical_rack = Some(format!("R{i}"));
            net.nodes.push(sn);
            net.links.push(link(&s, &t, host_gbps, 0));
        }
    }
    net
}

/// Conventional 3-tier tree: `pods` pods of `tors_per_pod` ToRs `P{p}.T{t}` (servers
/// `P{p}.T{t}.S{j}`) and `aggs_per_pod` aggregation switches `P{p}.A{a}`; every ToR links to every
/// aggregation switch of its pod, every aggregation switch to every core `C{m}` (fabric links
/// `fabric_gbps`: oversubscribed when below the servers' total).
pub fn tree(
    pods: usize,
    tors_per_pod: usize,
    per_tor: usize,
    aggs_per_pod: usize,
    cores: usize,
    host_gbps: f64,
    fabric_gbps: f64,
) -> NetworkSpec {
    let mut net = NetworkSpec::default();
    for m in 0..cores {
        net.nodes.push(node(format!("C{m}"), Role::Core));
    }
    for p in 0..pods {
        for a in 0..aggs_per_pod {
            let an = format!("P{p}.A{a}");
            let mut n = node(an.clone(), Role::Agg);
            n.cluster = Some(p as i64);
            net.nodes.push(n);
            for m in 0..cores {
                net.links.push(link(&an, &format!("C{m}"), fabric_gbps, 0));
            }
        }
        for t in 0..tors_per_pod {
            let tn = format!("P{p}.T{t}");
            let mut n = node(tn.clone(), Role::Tor);
            n.cluster = Some(p as i64);
            n.logical_rack = Some(tn.clone());
            net.nodes.push(n);
            for a in 0..aggs_per_pod {
                net.links
                    .push(link(&tn, &format!("P{p}.A{a}"), fabric_gbps, 0));
            }
            for j in 0..per_tor {
                let s = format!("{tn}.S{j}");
                let mut sn = node(s.clone(), Role::Server);
                sn.cluster = Some(p as i64);
                sn.logical_rack = Some(tn.clone());
                net.nodes.push(sn);
                net.links.push(link(&s, &tn, host_gbps, 0));
            }
        }
    }
    net
}

/// Packet settings matched to htsim's TCP on top of the defaults, as sim-engine/compare runs the
/// two side by side (README "Packet mode against htsim"): htsim's window of 10 opened by its
/// SYN-ACK (a first flight of 11), ssthresh 100, a 250 ms minimum RTO (3 s before the first
/// sample) checked every 10 ms, same-time events in scheduling order, only full packets.
/// (The scenario's `"profile": "htsim"`, [`PacketProfile::Htsim`].)
pub fn htsim_packet_settings() -> PacketSpec {
    PacketSpec::for_profile(PacketProfile::Htsim)
}

/// A GPU cluster as the backend's rail-optimized plan exports it (issue 31): `servers` GPU
/// servers `G{s}` of `rails` GPUs each, every server's GPUs `G{s}/gpu{i}` joined by its
/// interconnect `G{s}/interconnect` (`nvlink_gbps` per GPU each way) and GPU `i`'s compute NIC
/// (`nic_gbps`) cabled to rail leaf `SU{u}.L{i}` of its scalable unit of `su_size` servers; with
/// `spines > 0`, every leaf has `spine_links` links of `spine_gbps` to every spine `SP{k}` (1:1
/// when `spines x spine_links x spine_gbps = su_size x nic_gbps`), none for a rail-only fabric.
/// Links have latency `latency_ns`.
pub struct GpuCluster {
    pub servers: usize,
    pub rails: usize,
    pub su_size: usize,
    pub nic_gbps: f64,
    pub nvlink_gbps: f64,
    pub spines: usize,
    pub spine_links: usize,
    pub spine_gbps: f64,
    pub latency_ns: u64,
}

/// The GPU id of rail `i` of server `s` (what the backend emits: `<server>/gpu<i>`).
pub fn gpu_id(s: usize, i: usize) -> String {
    format!("G{s}/gpu{i}")
}

/// See [`GpuCluster`].
pub fn gpu_cluster(c: &GpuCluster) -> NetworkSpec {
    let mut net = NetworkSpec::default();
    let sus = c.servers.div_ceil(c.su_size);
    for k in 0..c.spines {
        net.nodes.push(node(format!("SP{k}"), Role::Spine));
    }
    for u in 0..sus {
        for i in 0..c.rails {
            let leaf = format!("SU{u}.L{i}");
            let mut n = node(leaf.clone(), Role::Tor);
            n.cluster = Some(u as i64);
            net.nodes.push(n);
            for k in 0..c.spines {
                for _ in 0..c.spine_links {
                    let sp = format!("SP{k}");
                    net.links.push(link(&leaf, &sp, c.spine_gbps, c.latency_ns));
                }
            }
        }
    }
    for s in 0..c.servers {
        let u = s / c.su_size;
        let ic = format!("G{s}/interconnect");
        let mut n = node(ic.clone(), Role::Interconnect);
        n.cluster = Some(u as i64);
        net.nodes.push(n);
        for i in 0..c.rails {
            let g = gpu_id(s, i);
            let mut n = node(g.clone(), Role::Server);
            n.cluster = Some(u as i64);
            n.logical_rack = Some(format!("G{s}"));
            n.host = Some(ic.clone());
            n.rail = Some(i as u32);
            net.nodes.push(n);
            net.links.push(link(&g, &ic, c.nvlink_gbps, c.latency_ns));
            net.links
                .push(link(&g, &format!("SU{u}.L{i}"), c.nic_gbps, c.latency_ns));
        }
    }
    net
}

/// Issue 31's scale benchmark: one training step on a rail-optimized GPU cluster of `servers`
/// servers x `rails` GPUs (SUs of `su_size`, 400 Gb/s NICs, 3,600 Gb/s interconnect links,
/// spines at 1:1: `su_size` spines of one 400 Gb/s link to every leaf), a `gradient_bytes`
/// gradient in `bucket_bytes` buckets, hierarchical pipelined all-reduce, forward 10 ms,
/// backward 20 ms; no link series (its buckets would dominate the memory).
pub fn gpu_training_step(
    servers: usize,
    rails: usize,
    su_size: usize,
    gradient_bytes: u64,
    bucket_bytes: u64,
) -> Scenario {
    use crate::scenario::{CollectiveAlgorithm, CollectiveModel, TrainingStepSpec};
    let net = gpu_cluster(&GpuCluster {
        servers,
        rails,
        su_size,
        nic_gbps: 400.0,
        nvlink_gbps: 3600.0,
        spines: su_size,
        spine_links: 1,
        spine_gbps: 400.0,
        latency_ns: 500,
    });
    let mut sc = scenario(
        net,
        RoutingSpec::Ecmp,
        WorkloadSpec::TrainingStep(TrainingStepSpec {
            servers: None,
            gradient_bytes,
            bucket_bytes,
            forward_s: 0.01,
            backward_s: 0.02,
            iterations: 1,
            algorithm: CollectiveAlgorithm::Hierarchical,
            model: CollectiveModel::Pipelined,
            software_latency: true,
        }),
    );
    sc.engine.link_series = false;
    sc.name = Some(format!(
        "training step: {servers} servers x {rails} GPUs, SUs of {su_size}, \
         {gradient_bytes} bytes in buckets of {bucket_bytes}"
    ));
    sc
}
