//! Which links are up, as failures take them down and recoveries bring them back: the
//! bookkeeping both engines share (flow mode's capacities and packet mode's ports act on what
//! changed).

use crate::network::Network;
use crate::routing::RouteCtx;

/// Directed links up or down, and the failures holding each duplex link down.
pub struct LinkState {
    /// Per directed link (duplex `d` is directed `2d` and `2d + 1`).
    pub up: Vec<bool>,
    /// Failures holding each duplex link down (overlapping failures: up again at the last
    /// recovery).
    down_cnt: Vec<u32>,
}

impl LinkState {
    /// Every one of `directed` links up.
    pub fn new(directed: usize) -> LinkState {
        LinkState {
            up: vec![true; directed],
            down_cnt: vec![0; directed / 2],
        }
    }

    /// A failure's duplex links go down (`down`) or one of their failures ends: the duplex
    /// links whose state changed, in the failure's order (both directions set).
    pub fn set(&mut self, duplex: &[usize], down: bool) -> Vec<usize> {
        let mut changed = Vec::new();
        for &d in duplex {
            if down {
                self.down_cnt[d] += 1;
                if self.down_cnt[d] != 1 {
                    continue;
                }
            } else {
                self.down_cnt[d] -= 1;
                if self.down_cnt[d] != 0 {
                    continue;
                }
            }
            self.up[2 * d] = !down;
            self.up[2 * d + 1] = !down;
            changed.push(d);
        }
        changed
    }

    /// What a router reads of the network now.
    #[inline]
    pub fn ctx<'n>(&'n self, net: &'n Network, seed: u64) -> RouteCtx<'n> {
        RouteCtx {
            net,
            up: &self.up,
            seed,
        }
    }
}
