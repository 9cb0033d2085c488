//! The least-work part of a controller period: measure each ToR's offered load, update the
//! router's EWMAs ([`crate::routing::least_work::LeastWork::update`]) and let every sender move
//! flows towards its target split ([`crate::routing::least_work::LeastWork::target_split`]).

use crate::engine::plant::Plant;
use crate::network::Network;
use crate::routing::{Binding, NONE_DETOUR};
use crate::units::{NodeId, Time};

/// One least-work period. Returns false when the router has no least-work part (nothing done).
pub fn tick(plant: &mut impl Plant, net: &Network, period: Time) -> bool {
    let n = net.nodes.len();
    // 1. offered load per ToR: bytes still to send through its uplinks / what they carry per period
    let mut back_up = vec![0.0f64; n];
    let mut back_down = vec![0.0f64; n];
    let mut work = vec![0.0f64; net.links.len()];
    // (sender, flow, remaining bits, binding) of the flows bound to a source ToR, off detours
    let mut bound: Vec<(NodeId, u32, f64, Binding)> = Vec::new();
    for fl in plant.active_flows() {
        let Some(path) = fl.path else {
            continue;
        };
        let rem = fl.remaining_bits;
        for &l in path {
            work[l.idx()] += rem;
        }
        if path.len() > 2 {
            let st = net.link(path[0]).to;
            let dt = net.link(path[path.len() - 1]).from;
            back_up[st.idx()] += rem;
            back_down[dt.idx()] += rem;
        }
        if let Some(b) = fl.binding {
            if b.detour == NONE_DETOUR {
                bound.push((fl.src, fl.id, rem, b));
            }
        }
    }
    let Some(ad) = plant.router().least_work() else {
        return false;
    };
    ad.set_work(work);
    let secs = period.as_secs_f64();
    for i in 0..n {
        let cap_bits = ad.cap_up[i] * 1e9 * secs;
        if cap_bits > 0.0 {
            back_up[i] /= cap_bits;
            back_down[i] /= cap_bits;
        } else {
            back_up[i] = 0.0;
            back_down[i] = 0.0;
        }
    }
    ad.update(&back_up, &back_down);
    // 2. rebinding, sender by sender (flows in index order)
    bound.sort_by_key(|x| (x.0, x.1));
    let mut moves: Vec<(u32, Binding)> = Vec::new();
    let mut i = 0;
    while i < bound.len() {
        let s = bound[i].0;
        let mut j = i;
        while j < bound.len() && bound[j].0 == s {
            j += 1;
        }
        let tors = ad.server_tors[s.idx()].clone();
        if tors.len() >= 2 {
            let mut per: Vec<Vec<(u32, f64, Binding)>> = vec![Vec::new(); tors.len()];
            let mut total = 0.0;
            for &(_, f, rem, b) in &bound[i..j] {
                if let Some(k) = tors.iter().position(|&t| t == b.src_tor) {
                    per[k].push((f, rem, b));
                    total += rem;
                }
            }
            if total > 0.0 {
                let u: Vec<f64> = per
                    .iter()
                    .map(|v| v.iter().map(|x| x.1).sum::<f64>() / total)
                    .collect();
                let t = ad.target_split(&tors, &u);
                let mut deficit: Vec<f64> =
                    (0..tors.len()).map(|k| (t[k] - u[k]) * total).collect();
                for k in 0..tors.len() {
                    let mut excess = -deficit[k];
                    for &(f, rem, b) in &per[k] {
                        if excess <= 0.0 {
                            break;
                        }
                        // move a flow only if it brings us closer to the target
                        if rem > 2.0 * excess {
                            continue;
                        }
                        let (best, _) = deficit.iter().enumerate().filter(|(m, _)| *m != k).fold(
                            (usize::MAX, 0.0),
                            |acc, (m, &d)| if d > acc.1 { (m, d) } else { acc },
                        );
                        if best == usize::MAX || deficit[best] < rem * 0.5 {
                            break;
                        }
                        let mut b = b;
                        b.src_tor = tors[best];
                        deficit[best] -= rem;
                        deficit[k] += rem;
                        excess -= rem;
                        moves.push((f, b));
                    }
                }
            }
        }
        i = j;
    }
    ad.rebinds += moves.len() as u64;
    for (f, b) in moves {
        plant.reroute(f, Some(b));
    }
    true
}
