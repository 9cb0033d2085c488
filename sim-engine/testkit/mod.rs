//! Test and benchmark support, not the engine: scenario builders for the tests (`tests/it`),
//! the benchmarks (`benches/`) and the CLI's `gen` subcommand (research and benchmark cases:
//! FatTree, Subways Type 0/1/2, leaf-spine, VL2, trees, GRIN). The engine itself knows no
//! floors or wiring patterns: a plan's scenario comes from the backend's generator
//! (`backend/loopline/domain/wiring/`, exported by `domain/scenario.py`), and nothing under
//! `src/` but the `gen` subcommand uses this module (`cargo build --lib --no-default-features`
//! builds the engine without it).

pub mod topology;
