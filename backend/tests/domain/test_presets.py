"""The preset table and the one builder of workloads from it: engine-owned defaults are the engine's
schema's, every preset builds the workload derived by hand on a 16-rack plan, and bad input names the
field."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from _wiring_helpers import plan
from hypothesis import given
from hypothesis import strategies as st

from loopline.domain.errors import DomainError
from loopline.domain.scenario import (
    PRESETS,
    WORKLOADS,
    EngineDefault,
    PresetChoice,
    build_scenario,
    logical_racks,
    preset_table,
    requested_workload,
    workload,
)
from loopline.domain.wiring import Pattern

SCHEMA = json.loads((Path(__file__).parents[3] / "sim-engine" / "schema" / "scenario.schema.json").read_text())
PLAN = plan(Pattern.SINGLE_HOMED, ports=1)  # 2 rows x 4 racks x 2 logical racks of 4 servers: 16 racks
RACKS = [name for name, _ in logical_racks(PLAN)]


def servers(*racks: int) -> list[str]:
    return [f"{RACKS[i]}.S0{s}" for i in racks for s in (1, 2, 3, 4)]


def schema_default(variant: str, field: str) -> Any:
    for v in SCHEMA["definitions"]["WorkloadSpec"]["oneOf"]:
        if v["properties"]["type"]["enum"] == [variant]:
            return v["properties"][field].get("default")
    raise AssertionError(f"no workload {variant}")


def schema_has(variant: str, field: str) -> bool:
    return any(
        v["properties"]["type"]["enum"] == [variant] and field in v["properties"]
        for v in SCHEMA["definitions"]["WorkloadSpec"]["oneOf"]
    )


def test_engine_owned_defaults_are_the_engine_schemas() -> None:
    table = {(pr.name, p.name): p for pr in preset_table(SCHEMA) for p in pr.params}
    owned = [(pr.name, p) for pr in PRESETS for p in pr.params if isinstance(p.default, EngineDefault)]
    owned = [(name, p) for name, p in owned if (name, p.name) in table]
    # poisson 1, incast 3, memcache 4, collective 2; the fields new in the engine (issue 31) once it has them
    new = {("collective", "model"), ("collective", "skew")} if schema_has("collective", "model") else set()
    if schema_has("training_step", "bucket_bytes"):
        new |= {("training-step", f) for f in ("bucket_bytes", "iterations", "algorithm", "model")}
    assert {(name, p.name) for name, p in owned} == {
        ("poisson", "inter_rack_only"), ("incast", "fan_in"), ("incast", "queries"), ("incast", "rate_per_s"),
        ("memcache", "request_bytes"), ("memcache", "response_bytes"), ("memcache", "rate_per_s"),
        ("memcache", "latency_bound_us"), ("collective", "algorithm"), ("collective", "iterations"), *new,
    }  # fmt: skip
    for preset, p in owned:
        assert isinstance(p.default, EngineDefault)
        served = table[preset, p.name]
        assert served.default == schema_default(p.default.variant, p.default.field), (preset, p.name)
        assert served.engine_field == f"workload.{p.default.variant}.{p.default.field}"
    # the values as the engine's README states them, by hand
    assert (table["incast", "fan_in"].default, table["incast", "queries"].default) == (8, 100)
    assert table["incast", "rate_per_s"].default == 1000
    memcache = {n: table["memcache", n].default for n in ("request_bytes", "response_bytes", "rate_per_s")}
    assert memcache == {"request_bytes": 100, "response_bytes": 100_000, "rate_per_s": 10_000}
    assert table["memcache", "latency_bound_us"].default == 1000
    # the preset's own defaults stay its own
    assert table["shuffle", "bytes"].default == 15_000_000 and table["shuffle", "bytes"].engine_field is None


def test_a_field_missing_from_the_engine_schema_is_named() -> None:
    schema = json.loads(json.dumps(SCHEMA))
    for v in schema["definitions"]["WorkloadSpec"]["oneOf"]:
        v["properties"].pop("fan_in", None)
    with pytest.raises(DomainError, match="no workload field query.fan_in"):
        preset_table(schema)


def test_one_vocabulary() -> None:
    assert WORKLOADS == (
        "shuffle", "permutation", "all-to-all", "many-to-many", "poisson", "incast", "memcache", "collective",
        "training-step",
    )  # fmt: skip


@pytest.mark.parametrize(
    ("preset", "params", "racks", "expected"),
    [
        ("shuffle", {}, {}, {"type": "shuffle", "servers": servers(0, 1), "bytes_per_pair": 15_000_000}),
        # 4 racks spread over 16: indices round(i * 15 / 3) = 0, 5, 10, 15
        ("permutation", {"job_racks": 4, "placement": "spread", "bytes": 7}, {},
         {"type": "permutation", "servers": servers(0, 5, 10, 15), "bytes": 7}),
        ("all-to-all", {"job_racks": 3}, {"job": [RACKS[9], RACKS[2]]},
         {"type": "all_to_all", "servers": servers(9, 2), "bytes": 15_000_000}),
        ("many-to-many", {"sender_racks": 2, "receiver_racks": 1, "bytes": 5}, {},
         {"type": "many_to_many", "senders": servers(0, 1), "receivers": servers(2), "bytes": 5}),
        # receivers chosen: the senders are the first racks not among them
        ("many-to-many", {"sender_racks": 2}, {"receivers": [RACKS[0]]},
         {"type": "many_to_many", "senders": servers(1, 2), "receivers": servers(0), "bytes": 15_000_000}),
        ("poisson", {}, {}, {"type": "poisson", "cdf": "websearch", "load": 0.4, "flows": 2000}),
        ("poisson", {"job_racks": 2, "inter_rack_only": True, "cdf": "hadoop", "load": 1, "flows": 9}, {},
         {"type": "poisson", "cdf": "hadoop", "load": 1.0, "flows": 9, "servers": servers(0, 1),
          "inter_rack_only": True}),
        # the engine's defaults are left to the engine
        ("incast", {}, {}, {"type": "query", "response_bytes": 64_000}),
        ("incast", {"fan_in": 3, "queries": 2, "rate_per_s": 50, "bytes": 10}, {},
         {"type": "query", "fan_in": 3, "response_bytes": 10, "queries": 2, "rate_per_s": 50.0}),
        ("memcache", {"cache_racks": 2}, {}, {"type": "memcache", "server_racks": RACKS[:2]}),
        ("memcache", {"latency_bound_us": 500}, {"cache": [RACKS[7]]},
         {"type": "memcache", "server_racks": [RACKS[7]], "latency_bound_us": 500.0}),
    ],
)  # fmt: skip
def test_each_preset_builds_the_workload_derived_by_hand(
    preset: str, params: dict[str, Any], racks: dict[str, list[str]], expected: dict[str, Any]
) -> None:
    assert workload(PLAN, preset, params, racks) == expected


def test_the_default_scenario_is_the_shuffle_preset() -> None:
    assert build_scenario(PLAN)["workload"] == workload(PLAN, "shuffle")
    raw = {"type": "permutation", "bytes": 1}
    assert requested_workload(PLAN, raw) is raw
    assert requested_workload(PLAN, PresetChoice("incast", {"bytes": 2})) == {"type": "query", "response_bytes": 2}


@pytest.mark.parametrize(
    ("preset", "params", "racks", "field", "reason"),
    [
        ("shuffle", {"mb": 4}, {}, "params.mb", "not a parameter of shuffle (it takes job_racks, placement, bytes)"),
        ("shuffle", {"bytes": 0}, {}, "params.bytes", "must be at least 1"),
        ("shuffle", {"bytes": 1.5}, {}, "params.bytes", "must be a whole number, got 1.5"),
        ("shuffle", {"bytes": True}, {}, "params.bytes", "must be a whole number"),
        ("shuffle", {"job_racks": 17}, {}, "params.job_racks", "needs 1..16 logical racks (the layout has 16), got 17"),
        ("shuffle", {"placement": "random"}, {}, "params.placement", "must be one of contiguous, spread, got 'random'"),
        ("poisson", {"load": 0}, {}, "params.load", "must be more than 0"),
        ("poisson", {"load": 1.01}, {}, "params.load", "must be at most 1"),
        ("poisson", {"inter_rack_only": 1}, {}, "params.inter_rack_only", "must be true or false"),
        ("incast", {"rate_per_s": "fast"}, {}, "params.rate_per_s", "must be a number"),
        ("shuffle", {}, {"job": ["H9.X"]}, "racks.job[0]", "rack H9.X is not in this plan"),
        ("shuffle", {}, {"job": [RACKS[0], RACKS[0]]}, "racks.job[1]", f"rack {RACKS[0]} is chosen twice"),
        ("shuffle", {}, {"cache": [RACKS[0]]}, "racks.cache", "shuffle takes no such rack set (it takes: job)"),
        ("many-to-many", {}, {"senders": [RACKS[0]], "receivers": [RACKS[0]]}, "racks.receivers",
         "a rack cannot both send and receive"),
        ("many-to-many", {"sender_racks": 10, "receiver_racks": 7}, {}, "params.receiver_racks",
         "sender and receiver racks together exceed the plan's 16"),
        ("memcache", {"cache_racks": 16}, {}, "params.cache_racks", "at most 15: clients need a rack of their own"),
        ("query", {}, {}, "preset", "unknown workload 'query' (one of shuffle, permutation, all-to-all, "
         "many-to-many, poisson, incast, memcache, collective, training-step)"),
    ],
)  # fmt: skip
def test_bad_input_names_the_field(
    preset: str, params: dict[str, Any], racks: dict[str, list[str]], field: str, reason: str
) -> None:
    with pytest.raises(DomainError) as e:
        workload(PLAN, preset, params, racks)
    assert (e.value.field, e.value.reason) == (field, reason)


@given(n=st.integers(1, 16), spread=st.booleans())
def test_counted_racks_are_n_distinct_in_layout_order(n: int, spread: bool) -> None:
    params = {"job_racks": n, "placement": "spread" if spread else "contiguous", "bytes": 1}
    got = workload(PLAN, "permutation", params)["servers"]
    picked = [s.rsplit(".", 1)[0] for s in got[::4]]
    assert len(picked) == len(set(picked)) == n
    assert [RACKS.index(r) for r in picked] == sorted(RACKS.index(r) for r in picked)
    assert picked[0] == RACKS[0]
    if spread and n > 1:
        assert picked[-1] == RACKS[-1]
    elif not spread:
        assert picked == RACKS[:n]
