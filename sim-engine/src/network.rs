//! The validated network: dense node and directed-link indices, adjacency, loops and failures.
//! Built only by [`crate::scenario::Scenario::validate`]; nothing is re-checked after it.

use std::hash::{BuildHasher, RandomState};

use crate::model::Role;
use crate::units::{Gbps, LinkId, NodeId, Time};

/// A node after validation.
#[derive(Clone, Debug)]
pub struct Node {
    pub name: String,
    pub role: Role,
    pub layer: u8,
    pub cluster: Option<i64>,
    pub loop_id: Option<i64>,
    pub loop_position: Option<u32>,
    pub logical_rack: Option<String>,
    /// A GPU rank's interconnect node (its server's NVSwitch), or None.
    pub host: Option<NodeId>,
    /// A GPU rank's rail (its index in its server), or None.
    pub rail: Option<u32>,
}

/// One direction of a cable.
#[derive(Clone, Debug)]
pub struct Link {
    pub from: NodeId,
    pub to: NodeId,
    pub gbps: Gbps,
    pub latency: Time,
}

/// A failure resolved to duplex link indices.
#[derive(Clone, Debug)]
pub struct Failure {
    pub at: Time,
    pub recover_at: Option<Time>,
    /// Duplex link indices (scenario `network.links` order) that go down.
    pub links: Vec<usize>,
    /// Human-readable name of the failed element.
    pub what: String,
}

/// A Subways loop: its ToRs in cyclic order.
#[derive(Clone, Debug)]
pub struct Loop {
    pub id: i64,
    pub tors: Vec<NodeId>,
}

/// The network with dense indices.
#[derive(Clone, Debug, Default)]
pub struct Network {
    pub nodes: Vec<Node>,
    /// Directed links: duplex link `i` is `2i` (a->b) and `2i+1` (b->a).
    pub links: Vec<Link>,
    /// Names of duplex links (their `id` or a default).
    pub link_names: Vec<String>,
    /// Outgoing directed links of every node, in scenario order.
    pub out: Vec<Vec<LinkId>>,
    /// Servers in scenario order.
    pub servers: Vec<NodeId>,
    /// Nodes sorted by decreasing layer (ties by id), for up-down table construction.
    pub by_layer_desc: Vec<NodeId>,
    pub max_layer: u8,
    pub loops: Vec<Loop>,
    pub failures: Vec<Failure>,
    /// GPU ranks by `(host, rail)`, sorted: the lookup behind [`Network::gpu_on_rail`].
    pub gpus: Vec<(NodeId, u32, NodeId)>,
    /// Name lookups only, never iterated (so no result depends on their order): hashed, which
    /// builds a k = 32 fat-tree's 34,000 entries several times faster than an ordered map.
    pub(crate) index: NameIndex,
    pub(crate) link_index: NameIndex,
}

/// Names to dense indices without a second copy of each name (a k = 96 fat-tree has 900,000):
/// the table keeps indices and hashes and compares the names where they already live.
#[derive(Clone, Debug, Default)]
pub(crate) struct NameIndex {
    table: hashbrown::HashTable<u32>,
    hasher: RandomState,
}

impl NameIndex {
    pub(crate) fn reserve(&mut self, n: usize) {
        let h = &self.hasher;
        // (empty: nothing to rehash, so no name is asked for)
        self.table.reserve(n, |_| h.hash_one(""));
    }
    /// Add `i` under `name`, where `names(j)` is the name of every index already added; `false`
    /// (and nothing added) if the name is taken.
    pub(crate) fn insert<'n>(
        &mut self,
        i: u32,
        name: &str,
        names: impl Fn(u32) -> &'n str,
    ) -> bool {
        let h = &self.hasher;
        match self.table.entry(
            h.hash_one(name),
            |&j| names(j) == name,
            |&j| h.hash_one(names(j)),
        ) {
            hashbrown::hash_table::Entry::Occupied(_) => false,
            hashbrown::hash_table::Entry::Vacant(v) => {
                v.insert(i);
                true
            }
        }
    }
    pub(crate) fn get<'n>(&self, name: &str, names: impl Fn(u32) -> &'n str) -> Option<u32> {
        self.table
            .find(self.hasher.hash_one(name), |&j| names(j) == name)
            .copied()
    }
}

impl Network {
    pub fn node_id(&self, name: &str) -> Option<NodeId> {
        self.index
            .get(name, |n| &self.nodes[n as usize].name)
            .map(NodeId)
    }
    pub fn duplex_link(&self, name: &str) -> Option<usize> {
        self.link_index
            .get(name, |l| &self.link_names[l as usize])
            .map(|l| l as usize)
    }
    pub fn node(&self, n: NodeId) -> &Node {
        &self.nodes[n.idx()]
    }
    pub fn link(&self, l: LinkId) -> &Link {
        &self.links[l.idx()]
    }
    pub fn is_server(&self, n: NodeId) -> bool {
        self.nodes[n.idx()].role == Role::Server
    }
    /// ToRs directly attached to a server, in link order, one entry per link (a LAG appears once per member).
    pub fn server_tor_links(&self, s: NodeId) -> impl Iterator<Item = LinkId> + '_ {
        self.out[s.idx()].iter().copied().filter(move |&l| {
            let to = self.links[l.idx()].to;
            self.nodes[to.idx()].role == Role::Tor
        })
    }
    /// Total capacity of a server's links towards switches (its NIC rate): a GPU's link to its
    /// server's interconnect is not a NIC.
    pub fn server_nic_gbps(&self, s: NodeId) -> f64 {
        self.out[s.idx()]
            .iter()
            .filter(|l| {
                let role = self.nodes[self.links[l.idx()].to.idx()].role;
                role != Role::Server && role != Role::Interconnect
            })
            .map(|l| self.links[l.idx()].gbps.0)
            .sum()
    }
    /// Uplinks of a switch: links towards a higher layer.
    pub fn uplinks(&self, n: NodeId) -> impl Iterator<Item = LinkId> + '_ {
        let layer = self.nodes[n.idx()].layer;
        self.out[n.idx()]
            .iter()
            .copied()
            .filter(move |&l| self.nodes[self.links[l.idx()].to.idx()].layer > layer)
    }
    /// Servers of the given logical rack name.
    pub fn servers_of_logical_rack(&self, rack: &str) -> Vec<NodeId> {
        self.servers
            .iter()
            .copied()
            .filter(|s| self.nodes[s.idx()].logical_rack.as_deref() == Some(rack))
            .collect()
    }
    pub fn name(&self, n: NodeId) -> &str {
        &self.nodes[n.idx()].name
    }
    /// The GPU of interconnect `host` on `rail`, if the network has one.
    pub fn gpu_on_rail(&self, host: NodeId, rail: u32) -> Option<NodeId> {
        self.gpus
            .binary_search_by_key(&(host, rail), |&(h, r, _)| (h, r))
            .ok()
            .map(|i| self.gpus[i].2)
    }
    /// NCCL's PXN relay for a transfer from GPU `src` to GPU `dst`: when they sit on different
    /// servers and different rails, the GPU of `src`'s server on `dst`'s rail, which the bytes
    /// reach over the interconnect before crossing `dst`'s rail (so a rail-only fabric carries
    /// cross-rail traffic). None otherwise, or when that server has no GPU on that rail.
    pub fn pxn_relay(&self, src: NodeId, dst: NodeId) -> Option<NodeId> {
        let (a, b) = (&self.nodes[src.idx()], &self.nodes[dst.idx()]);
        match (a.host, a.rail, b.host, b.rail) {
            (Some(ha), Some(ra), Some(hb), Some(rb)) if ha != hb && ra != rb => {
                self.gpu_on_rail(ha, rb)
            }
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::NameIndex;
    use proptest::prelude::*;

    proptest! {
        /// The index answers as a map from each name to its first index would, and refuses
        /// exactly the repeats.
        #[test]
        fn name_index_is_a_map_of_first_occurrences(names in prop::collection::vec("[a-c]{0,3}", 0..200)) {
            let mut index = NameIndex::default();
            index.reserve(names.len() / 2);
            let mut kept: Vec<&str> = Vec::new();
            let mut first = std::collections::HashMap::new();
            for name in &names {
                let fresh = !first.contains_key(name.as_str());
                let i = kept.len() as u32;
                let added = index.insert(i, name, |j| kept[j as usize]);
                prop_assert_eq!(added, fresh, "{}", name);
                if added {
                    first.insert(name.as_str(), i);
                    kept.push(name);
                }
            }
            for name in &names {
                prop_assert_eq!(index.get(name, |j| kept[j as usize]), first.get(name.as_str()).copied());
            }
            prop_assert_eq!(index.get("zz", |j| kept[j as usize]), None);
        }
    }
}
