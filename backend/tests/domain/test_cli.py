"""The `wiring` and `scenario build` commands (run in-process through `main`)."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from loopline.cli import main

ROOT = Path(__file__).resolve().parents[3]
LAYOUT = [
    "--rows", "2", "--racks-per-row", "4", "--logical-per-rack", "2",
    "--servers-per-logical-rack", "4", "--port-gbps", "25",
]  # fmt: skip


def run_json(capsys: pytest.CaptureFixture[str], *args: str) -> dict[str, Any]:
    assert main(["wiring", *LAYOUT, *args, "--json"]) == 0
    out: dict[str, Any] = json.loads(capsys.readouterr().out)
    return out


def test_wiring_json_summary(capsys: pytest.CaptureFixture[str]) -> None:
    out = run_json(capsys, "--ports", "2", "--pattern", "side-to-side", "--loop", "8")
    assert out["servers"] == 64 and out["tors"] == 16
    # 64 servers x 2 ports + 16 ToRs x 4 uplinks + 4 aggs x 4 cores
    assert out["cables"] == 128 + 64 + 16
    assert list(out["by_class"]) == ["server_tor", "server_server", "tor_fabric", "agg_core"]
    assert out["by_class"]["server_server"] == {
        "count": 0, "min_raw_length_m": 0.0, "mean_raw_length_m": 0.0, "max_raw_length_m": 0.0,
        "max_ordered_length_m": 0.0, "media": {},
    }  # fmt: skip
    # back edge from the lowest server of K04.L2 (U6, 244 mm) to the ToR of K01.L1 (U5, 200 mm):
    # (2167 - 244) + 3 * 600 + (2167 - 200) = 1923 + 1800 + 1967 = 5690 mm (see test_routing)
    assert out["by_class"]["server_tor"]["max_raw_length_m"] == 5.69
    assert out["max_raw_length_m"] == max(v["max_raw_length_m"] for v in out["by_class"].values())
    assert sum(out["media"].values()) == out["cables"]
    assert 0 < out["copper_share"] <= 1
    assert isinstance(out["warnings"], list)
    # each ToR: 4 servers x 2 ports x 25G = 200G down (r*p = 8 ports), 4 x 100G up
    assert out["tor_oversubscription"] == {"min": 0.5, "max": 0.5}
    # Priced with the default book, as the API's plan summary is; the stored materials stay inside.
    assert "materials" not in out
    cost = out["cost"]
    assert cost["currency"] == "USD" and cost["price_book_version"] is None
    assert cost["cables"] > 0 and cost["transceivers"] > 0
    assert cost["total"] == round(cost["cables"] + cost["transceivers"] + cost["switches"] + cost["nics"], 2)


def test_wiring_paper_geometry(capsys: pytest.CaptureFixture[str]) -> None:
    out = run_json(capsys, "--ports", "2", "--pattern", "side-to-side", "--loop", "8", "--geometry", "paper")
    # paper back edge (see test_routing): 1.5 m along the row + 1.4 m vertical
    assert out["by_class"]["server_tor"]["max_raw_length_m"] == 2.9
    assert out["geometry"] == "paper"


def test_wiring_grin_class(capsys: pytest.CaptureFixture[str]) -> None:
    out = run_json(capsys, "--ports", "1", "--pattern", "grin", "--grin-degree", "2")
    assert out["by_class"]["server_server"]["count"] == 64 * 2 // 2
    assert out["by_class"]["server_tor"]["count"] == 64


def test_wiring_upgrade_diff(capsys: pytest.CaptureFixture[str]) -> None:
    out = run_json(capsys, "--ports", "2", "--pattern", "inter-chassis", "--upgrade-from-ports", "1")
    assert (out["kept"], out["added"], out["moved"], out["removed"]) == (144, 64, 0, 0)
    assert out["diff"]["from_ports"] == 1


def test_wiring_text_output(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["wiring", *LAYOUT, "--ports", "2", "--pattern", "paired-row"]) == 0
    text = capsys.readouterr().out
    assert "paired-row (geometry default): 208 cables" in text
    assert "with the default price book" in text


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--ports", "2", "--pattern", "side-to-side", "--loop", "3"], "error: loop: row R01 (4 racks x b=2)"),
        (["--pattern", "nope"], "error: argument --pattern: invalid choice"),
        (["--pattern", "grin"], "error: grin_degree: --pattern grin needs --grin-degree n"),
        (["--ports", "0", "--pattern", "mc-lag"], "error: argument --ports: must be >= 1, got 0"),
        (["--ports", "3", "--pattern", "mc-lag"], "error: ports: mc-lag wires each server to p=3 ToRs"),
        (["--ports", "2", "--pattern", "side-to-side", "--subways-type", "2", "--clusters", "2"],
         "error: clusters: Type 2 spreads each loop over c=2 clusters but the hall has 1"),
        (["--ports", "2", "--pattern", "side-to-side", "--clusters", "2"],
         "error: clusters: c=2 spreads loops over clusters: that is Subways Type 2"),
        (["--ports", "2", "--pattern", "side-to-side", "--upgrade-from-ports", "3"],
         "error: upgrade_from_ports: P0=3 exceeds --ports 2"),
    ],
)  # fmt: skip
def test_bad_arguments_exit_2_with_one_line(capsys: pytest.CaptureFixture[str], args: list[str], message: str) -> None:
    with pytest.raises(SystemExit) as e:
        raise SystemExit(main(["wiring", *LAYOUT, *args, "--json"]))
    assert e.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith(message), err
    assert err.count("\n") == 1


def test_scenario_build(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "s.json"
    fabric = ["--uplinks-per-tor", "2", "--uplink-gbps", "100", "--aggs-per-cluster", "2", "--core-switches", "2"]
    rc = main(["scenario", "build", *LAYOUT, "--ports", "2", "--pattern", "side-to-side", *fabric, "-o", str(out)])
    assert rc == 0
    sc = json.loads(out.read_text())
    nodes = sc["network"]["nodes"]
    assert sum(n["role"] == "server" for n in nodes) == 64
    assert sum(n["role"] == "agg" for n in nodes) == 2 and sum(n["role"] == "core" for n in nodes) == 2
    # 128 server links + 16 ToRs x 2 uplinks + 2 aggs x 2 cores
    assert len(sc["network"]["links"]) == 128 + 32 + 4
    assert sc["routing"] == {"type": "ecmp"}
    assert sc["engine"]["mode"] == "flow" and sc["engine"]["seed"] == 1
    assert len(sc["workload"]["servers"]) == 8
    assert "wrote" in capsys.readouterr().err
    engine = ROOT / "sim-engine" / "target" / "release" / "loopline-sim"
    if engine.exists() and shutil.which(str(engine)):
        res = subprocess.run([str(engine), "validate", str(out)], capture_output=True, text=True, timeout=60)
        assert res.returncode == 0, res.stdout + res.stderr


def test_scenario_build_leaf_spine(tmp_path: Path) -> None:
    out = tmp_path / "s.json"
    args = ["--ports", "1", "--pattern", "single-homed", "--fabric", "leaf-spine", "--spine-switches", "4"]
    assert main(["scenario", "build", *LAYOUT, *args, "-o", str(out)]) == 0
    nodes = json.loads(out.read_text())["network"]["nodes"]
    assert sum(n["role"] == "spine" for n in nodes) == 4


def test_module_entry_point() -> None:
    py = ROOT / ".venv" / "bin" / "python"
    res = subprocess.run(
        [str(py), "-m", "loopline.cli", "wiring", "--rows", "1", "--racks-per-row", "1", "--pattern", "x"],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert res.returncode == 2
    assert res.stderr.startswith("error: argument --pattern: invalid choice")


def test_fabric_media_optical_by_default(capsys: pytest.CaptureFixture[str]) -> None:
    out = run_json(capsys, "--ports", "1", "--pattern", "single-homed")
    for cls in ("tor_fabric", "agg_core"):
        assert set(out["by_class"][cls]["media"]) <= {"aoc", "fibre"}
    out = run_json(capsys, "--ports", "1", "--pattern", "single-homed", "--fabric-media", "cheapest")
    assert "dac" in out["by_class"]["agg_core"]["media"]  # agg and core share a network rack


def test_heterogeneous_upgrade(capsys: pytest.CaptureFixture[str]) -> None:
    out = run_json(
        capsys, "--ports", "1", "--port-gbps", "10", "--pattern", "side-to-side", "--subways-type", "2",
        "--parallel-ports", "1", "--parallel-gbps", "25", "--parallel-clusters", "2", "--rows-per-cluster", "1",
        "--upgrade-from-ports", "1",
    )  # fmt: skip
    # 64 new 25G server cables + 16 parallel ToRs x 4 uplinks; nothing existing moves
    assert (out["moved"], out["removed"], out["added"]) == (0, 0, 64 + 64)
    assert out["diff"]["hardware_added"] == {"tor": 16}
    assert out["tors"] == 32


def test_heterogeneous_scenario_is_valid_for_the_engine(tmp_path: Path) -> None:
    out = tmp_path / "s.json"
    args = [
        "--ports", "1", "--port-gbps", "10", "--pattern", "single-homed", "--rows-per-cluster", "1",
        "--parallel-ports", "1", "--parallel-pattern", "side-to-side", "--parallel-clusters", "2",
    ]  # fmt: skip
    assert main(["scenario", "build", *LAYOUT, *args, "-o", str(out)]) == 0
    nodes = json.loads(out.read_text())["network"]["nodes"]
    loops = {(n["loop"], n["loop_position"]) for n in nodes if n["role"] == "tor" and n["loop"] is not None}
    assert len(loops) == 16  # unique (loop, position) for the 16 parallel ToRs
    engine = ROOT / "sim-engine" / "target" / "release" / "loopline-sim"
    if engine.exists():
        res = subprocess.run([str(engine), "validate", str(out)], capture_output=True, text=True, timeout=60)
        assert res.returncode == 0, res.stdout + res.stderr


ENGINE = ROOT / "sim-engine" / "target" / "release" / "loopline-sim"


def _engine_accepts(path: Path) -> None:
    if ENGINE.exists():
        res = subprocess.run([str(ENGINE), "validate", str(path)], capture_output=True, text=True, timeout=60)
        assert res.returncode == 0, res.stdout + res.stderr


def test_scenario_build_twins(tmp_path: Path) -> None:
    """One command line: the layout wired Type 0, Type 1 and Type 2 (2 rows, one cluster each)."""
    out = tmp_path / "s-{wiring}.json"
    args = ["--ports", "2", "--pattern", "side-to-side", "--loop", "8", "--rows-per-cluster", "1", "--twins"]
    assert main(["scenario", "build", *LAYOUT, *args, "--job-racks", "3", "-o", str(out)]) == 0
    scs = {w: json.loads((tmp_path / f"s-{w}.json").read_text()) for w in ("type0", "type1", "type2")}
    servers = {w: sorted(n["id"] for n in sc["network"]["nodes"] if n["role"] == "server") for w, sc in scs.items()}
    assert servers["type0"] == servers["type1"] == servers["type2"] and len(servers["type0"]) == 64
    tors = {w: [n for n in sc["network"]["nodes"] if n["role"] == "tor"] for w, sc in scs.items()}
    assert all(t["loop"] is None for t in tors["type0"])
    assert all(t["loop"] is not None for t in tors["type1"] + tors["type2"])
    # Type 1 keeps a loop in its cluster; Type 2 spreads every loop over both clusters
    by_loop: dict[str, dict[Any, set[Any]]] = {"type1": {}, "type2": {}}
    for w in by_loop:
        for t in tors[w]:
            by_loop[w].setdefault(t["loop"], set()).add(t["cluster"])
    assert all(len(c) == 1 for c in by_loop["type1"].values())
    assert all(len(c) == 2 for c in by_loop["type2"].values())
    # the same workload on each: 3 racks of 4 servers
    assert scs["type0"]["workload"] == scs["type1"]["workload"] == scs["type2"]["workload"]
    assert len(scs["type0"]["workload"]["servers"]) == 12
    for w in scs:
        _engine_accepts(tmp_path / f"s-{w}.json")


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (["--workload", "permutation", "--job-racks", "4", "--bytes", "1000"],
         {"type": "permutation", "bytes": 1000, "n_servers": 16}),
        (["--workload", "many-to-many", "--senders", "2", "--receivers", "1"],
         {"type": "many_to_many", "n_senders": 8, "n_receivers": 4}),
        (["--workload", "poisson", "--cdf", "datamining", "--load", "0.3", "--flows", "500", "--inter-rack-only"],
         {"type": "poisson", "cdf": "datamining", "load": 0.3, "flows": 500, "inter_rack_only": True}),
        (["--workload", "incast", "--fan-in", "5", "--queries", "3", "--bytes", "20000"],
         {"type": "query", "fan_in": 5, "queries": 3, "response_bytes": 20000}),
        (["--workload", "memcache", "--server-racks", "2"], {"type": "memcache", "n_server_racks": 2}),
    ],
)  # fmt: skip
def test_scenario_build_workloads(tmp_path: Path, args: list[str], expected: dict[str, Any]) -> None:
    out = tmp_path / "s.json"
    base = ["--ports", "2", "--pattern", "side-to-side", "--loop", "8", "--routing", "adaptive"]
    extra = ["--fail", "H1.C0.AGG1@0.001:0.002", "--goodput-factor", "0.95"]
    assert main(["scenario", "build", *LAYOUT, *base, *args, *extra, "-o", str(out)]) == 0
    sc = json.loads(out.read_text())
    wl = sc["workload"]
    for k, v in expected.items():
        if k == "n_servers":
            assert len(wl["servers"]) == v
        elif k == "n_senders":
            assert len(wl["senders"]) == v and not set(wl["senders"]) & set(wl["receivers"])
        elif k == "n_receivers":
            assert len(wl["receivers"]) == v
        elif k == "n_server_racks":
            assert len(wl["server_racks"]) == v
        else:
            assert wl[k] == v, k
    assert sc["routing"] == {"type": "adaptive"}
    assert sc["engine"]["failures"] == [{"node": "H1.C0.AGG1", "at_s": 0.001, "recover_at_s": 0.002}]
    assert sc["engine"]["goodput_factor"] == 0.95
    _engine_accepts(out)


def test_twins_that_cannot_all_be_built_write_no_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """One cluster (2 rows, 2 rows per cluster): Type 2 cannot spread a loop over 2 clusters, so
    neither the Type 0 nor the Type 1 file is written."""
    out = tmp_path / "s-{wiring}.json"
    args = ["--ports", "2", "--pattern", "side-to-side", "--loop", "8", "--rows-per-cluster", "2", "--twins"]
    assert main(["scenario", "build", *LAYOUT, *args, "-o", str(out)]) == 2
    assert capsys.readouterr().err.startswith(
        "error: clusters: the type2 twin cannot be built, so no file was written: Type 2 spreads each loop over "
        "c=2 clusters but the hall has 1"
    )
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--twins", "-o", "x.json"], "error: output: with --twins the file name must contain {wiring}"),
        (["--job-racks", "99", "-o", "-"], "error: job_racks: needs 1..16 logical racks (the layout has 16), got 99"),
        (["--fail", "X@soon", "-o", "-"], "error: fail: expected NODE@AT_S[:RECOVER_S], got 'X@soon'"),
        (["--goodput-factor", "1.5", "-o", "-"], "error: goodput_factor: must be from 0.01 to 1, got 1.5"),
        (["--goodput-factor", "0.009", "-o", "-"], "error: goodput_factor: must be from 0.01 to 1, got 0.009"),
    ],
)  # fmt: skip
def test_scenario_build_bad_flags(capsys: pytest.CaptureFixture[str], args: list[str], message: str) -> None:
    base = ["--ports", "2", "--pattern", "side-to-side", "--loop", "8"]
    assert main(["scenario", "build", *LAYOUT, *base, *args]) == 2
    assert capsys.readouterr().err.startswith(message)


@pytest.mark.skipif(not ENGINE.exists(), reason="the engine is not built")
@pytest.mark.parametrize("factor", [0.009, 0.01, 1.0, 1.001])
def test_the_cli_and_the_engine_agree_on_the_goodput_factor(tmp_path: Path, factor: float) -> None:
    """The CLI's early check is a copy of the engine's rule: both take or refuse the same factors."""
    out = tmp_path / "s.json"
    base = ["--ports", "2", "--pattern", "side-to-side", "--loop", "8", "-o", str(out)]
    assert main(["scenario", "build", *LAYOUT, *base]) == 0
    scenario = json.loads(out.read_text())
    scenario["engine"]["goodput_factor"] = factor
    out.write_text(json.dumps(scenario))
    engine_takes = subprocess.run([str(ENGINE), "validate", str(out)], capture_output=True, timeout=60).returncode == 0
    cli_takes = main(["scenario", "build", *LAYOUT, *base, "--goodput-factor", str(factor)]) == 0
    assert engine_takes == cli_takes == (0.01 <= factor <= 1)
