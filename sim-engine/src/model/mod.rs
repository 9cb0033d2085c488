//! The validated model below the wire format: what `scenario/` (serde types and validation)
//! turns a scenario into and the rest of the engine reads. Nothing here imports the scenario's
//! types: `scenario` depends on this module, never the reverse. (The validated network itself is
//! [`crate::network`], on the same floor.)

pub mod cdf;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// Role of a node in the network.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, JsonSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum Role {
    /// An end host: sends and receives flows; forwards only for GRIN and detour routing.
    Server,
    /// Top-of-rack (leaf) switch.
    Tor,
    /// Aggregation switch of a cluster.
    Agg,
    /// Spine switch (leaf-spine or VL2 intermediate).
    Spine,
    /// Core switch (3-tier).
    Core,
    /// A GPU server's internal GPU interconnect (NVSwitch / NVLink), one per server: its GPUs
    /// (servers with `host` naming it) reach each other through it. Not a ToR: never a flow's
    /// end, in no loop, no rack's switch.
    Interconnect,
}

impl Role {
    /// Default layer of the role: server 0, tor and interconnect 1, agg/spine 2, core 3.
    pub fn default_layer(self) -> u8 {
        match self {
            Role::Server => 0,
            Role::Tor | Role::Interconnect => 1,
            Role::Agg | Role::Spine => 2,
            Role::Core => 3,
        }
    }
}
