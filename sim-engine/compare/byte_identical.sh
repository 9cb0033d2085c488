#!/usr/bin/env bash
# Byte-identical results of two engine builds: every scenario in examples/ (as written, and
# in packet mode), the benchmark cases (e)-(h) (`cargo bench`, LOOPLINE_BENCH_CASES=efgh) and
# packet-mode variants (transports, spraying, UDP, shared buffers, ECN, controllers, failures),
# run by both binaries with --no-run-info; the `gen` outputs are compared too. For refactors
# that must not move a result: build the old binary first, then
#
#   OLD=/tmp/loopline-sim-old NEW=target/release/loopline-sim compare/byte_identical.sh
#
# Exit 0 when every output (and exit code) is the same, 1 naming each case that differs.
# KEEP=1 keeps the scenarios and both outputs (the directory is printed).
set -euo pipefail
cd "$(dirname "$0")/.."
OLD=${OLD:-/tmp/loopline-sim-old}
NEW=${NEW:-target/release/loopline-sim}
[ -x "$OLD" ] || { echo "byte_identical: no old binary at $OLD (set OLD)" >&2; exit 2; }
[ -x "$NEW" ] || { echo "byte_identical: no new binary at $NEW (set NEW)" >&2; exit 2; }
DIR=$(mktemp -d)
[ -z "${KEEP:-}" ] || echo "byte_identical: files kept in $DIR"
[ -n "${KEEP:-}" ] || trap 'rm -rf "$DIR"' EXIT
mkdir -p "$DIR/sc" "$DIR/old" "$DIR/new"

# --- the `gen` outputs of both binaries (the scenarios below come from the old one)
GENS=(
  "fattree --k 16 --gbps 10 --flows 10"
  "fattree --k 8 --gbps 10 --load 0.4 --flows 2000"
  "fattree --k 4 --flows 200 --packet planning --routing vlb"
  "subways --racks 6 --servers-per-rack 2 --ports 2 --gbps 10 --bytes-per-pair 200000"
  "subways --racks 9 --servers-per-rack 20 --ports 2 --gbps 25 --job-racks 3 --active-fraction 0.5 --seed 3"
  "type0 --racks 4 --servers-per-rack 2 --ports 2 --packet linux"
  "type2 --racks 6 --servers-per-rack 2 --ports 3 --clusters 2 --cores 2 --routing detour"
  "leaf-spine --tors 4 --servers-per-tor 4"
  "vl2 --tors 4 --servers-per-tor 4"
  "tree --tors 4 --servers-per-tor 4"
  "grin --tors 4 --servers-per-tor 4 --degree 2 --packet htsim"
)
fail=0
n=0
for g in "${GENS[@]}"; do
  n=$((n + 1))
  # shellcheck disable=SC2086
  "$OLD" gen $g >"$DIR/old/gen$n.json"
  # shellcheck disable=SC2086
  "$NEW" gen $g >"$DIR/new/gen$n.json"
  if ! cmp -s "$DIR/old/gen$n.json" "$DIR/new/gen$n.json"; then
    echo "DIFFERS: gen $g"
    fail=1
  fi
done

# --- scenarios: examples as written, then generated and derived ones
cp examples/*.json "$DIR/sc/"
gen() { # name, gen arguments...
  local name=$1
  shift
  "$OLD" gen "$@" >"$DIR/sc/$name.json"
}
gen bench_e fattree --k 16 --gbps 10 --flows 10
gen bench_g fattree --k 8 --gbps 10 --load 0.4 --flows 2000
gen sub_adaptive subways --racks 6 --servers-per-rack 2 --ports 2 --gbps 10 --bytes-per-pair 300000 --routing adaptive --packet planning
gen sub_least_work subways --racks 6 --servers-per-rack 2 --ports 2 --gbps 10 --bytes-per-pair 300000 --routing least_work --packet planning
gen sub_detour subways --racks 8 --servers-per-rack 2 --ports 2 --gbps 10 --bytes-per-pair 300000 --routing detour --job-racks 3 --packet planning
gen t2_detour type2 --racks 6 --servers-per-rack 2 --ports 3 --clusters 2 --cores 2 --bytes-per-pair 200000 --routing detour --job-racks 2 --packet linux
gen grin_htsim grin --tors 4 --servers-per-tor 4 --degree 2 --packet htsim
gen vl2_planning vl2 --tors 4 --servers-per-tor 4 --packet planning
gen ft_linux fattree --k 4 --flows 300 --load 0.6 --packet linux
python3 - "$DIR/sc" <<'EOF'
import glob, json, os, sys

d = sys.argv[1]

def load(name):
    with open(os.path.join(d, name + ".json")) as f:
        return json.load(f)

def save(name, sc):
    with open(os.path.join(d, name + ".json"), "w") as f:
        json.dump(sc, f)

# the settings sim-engine/compare matches to htsim (htsim_packet_settings), 1 us per hop
HTSIM = {
    "profile": "htsim", "transport": "newreno", "mtu_bytes": 1500, "header_bytes": 0,
    "ack_bytes": 40, "buffer_bytes": 150000, "switch_latency_ns": 0,
    "initial_window_packets": 11, "initial_ssthresh_packets": 100, "rto_min_ms": 250.0,
    "rto_initial_ms": 3000.0, "rto_scan_ms": 10.0, "tie_order": "scheduled",
    "host_queue": "fair", "whole_packets": True,
}
for base in ("bench_e", "bench_g"):
    sc = load(base)
    if base == "bench_e":
        sc["workload"] = {"type": "permutation", "bytes": 2000000}
    for link in sc["network"]["links"]:
        link["latency_ns"] = 1000
    save(base, sc)
    pk = json.loads(json.dumps(sc))
    pk["engine"]["mode"] = "packet"
    pk["engine"]["packet"] = HTSIM
    save({"bench_e": "bench_f", "bench_g": "bench_h"}[base], pk)
    if base == "bench_g":
        pk["engine"]["link_series"] = False
        save("bench_h_noseries", pk)

# every example in packet mode, planning defaults and a few transports / features
variants = {
    "pk": {},
    "dctcp": {"transport": "dctcp"},
    "mptcp": {"transport": "mptcp"},
    "spray_shared": {"spraying": True, "shared_buffer": {"bytes": 400000, "alpha": 1.0},
                     "ecn_threshold_bytes": 30000},
    "udp_nohs": {"udp_requests": True, "handshake": False, "host_buffer_bytes": 200000,
                 "host_queue": "fifo", "tie_order": "scheduled", "whole_packets": True,
                 "header_bytes": 40, "switch_latency_ns": 500, "rto_scan_ms": 1.0},
}
for path in sorted(glob.glob(os.path.join(d, "*.json"))):
    name = os.path.basename(path)[:-5]
    if name.startswith(("bench_", "sub_", "t2_", "vl2_", "ft_")) or name == "grin_htsim":
        continue
    sc = load(name)
    for vname, v in variants.items():
        pk = json.loads(json.dumps(sc))
        eng = pk.setdefault("engine", {})
        eng["mode"] = "packet"
        eng["packet"] = dict(v)
        # keep packet runs short: a stop time bounds the big shuffles
        eng.setdefault("stop_time_s", 0.05)
        save(f"{name}__{vname}", pk)
    # failures in packet mode: a server cut off and back (its flows stall and are revived),
    # a spine down for good, overlapping with the example's own failures
    servers = [n["id"] for n in sc["network"]["nodes"] if n["role"] == "server"]
    spines = [n["id"] for n in sc["network"]["nodes"] if n["role"] in ("spine", "agg", "core")]
    if len(servers) < 2 or not spines:
        continue  # (a network without them, e.g. a GPU cluster's roles: no failure variant)
    pk = json.loads(json.dumps(sc))
    eng = pk.setdefault("engine", {})
    eng["mode"] = "packet"
    eng.setdefault("stop_time_s", 0.05)
    eng["failures"] = eng.get("failures", []) + [
        {"at_s": 0.0005, "node": servers[1], "recover_at_s": 0.004},
        {"at_s": 0.001, "node": servers[1], "recover_at_s": 0.002},
        {"at_s": 0.003, "node": spines[-1]},
    ]
    save(f"{name}__failures", pk)
EOF

for f in "$DIR"/sc/*.json; do
  name=$(basename "$f" .json)
  set +e
  "$OLD" run "$f" --no-run-info -o "$DIR/old/$name.json" 2>"$DIR/old/$name.err"
  rc_old=$?
  "$NEW" run "$f" --no-run-info -o "$DIR/new/$name.json" 2>"$DIR/new/$name.err"
  rc_new=$?
  set -e
  n=$((n + 1))
  if [ "$rc_old" != "$rc_new" ]; then
    echo "DIFFERS: $name: exit $rc_old (old) vs $rc_new (new)"
    fail=1
  elif [ "$rc_old" != 0 ]; then
    if ! cmp -s "$DIR/old/$name.err" "$DIR/new/$name.err"; then
      echo "DIFFERS: $name: error messages"
      fail=1
    else
      echo "same error (exit $rc_old): $name: $(head -c 200 "$DIR/old/$name.err")"
    fi
  elif ! cmp -s "$DIR/old/$name.json" "$DIR/new/$name.json"; then
    echo "DIFFERS: $name ($(cmp "$DIR/old/$name.json" "$DIR/new/$name.json" | head -1))"
    fail=1
  fi
done
if [ "$fail" = 0 ]; then
  echo "byte_identical: all $n outputs identical ($(ls "$DIR"/sc | wc -l) scenarios, ${#GENS[@]} gen commands)"
fi
exit "$fail"
