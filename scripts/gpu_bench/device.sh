#!/usr/bin/env bash
# On the GPU machine, in the repository root (see README.md beside this file).
#   device.sh stash   call 1, carry .gpubench/a: keeps the bundle's first part in /tmp while the machine is warm
#   device.sh run     call 2, carry .gpubench/b and .gl: unpacks, probes the GL flag sets, replays both cases
# Results under $OUT: probe + figures (gpu-result.json), the machine's GPU (nvidia-smi.txt), the log.
set -uo pipefail
T=/tmp/gpubench
OUT=${OUT:-$T/out}
mkdir -p "$T" "$OUT"
if [ "${1:-}" = stash ]; then
  cp .gpubench/a/bundle.part0 "$T/" && ls -la "$T"
  nvidia-smi -L; ldconfig -p | grep -c . ; ldconfig -p | grep -E 'libvulkan|libEGL|libnss3|libglib-2' || true
  exit 0
fi
[ -f "$T/bundle.part0" ] || { echo "no $T/bundle.part0: run 'device.sh stash' first (the machine went cold?)"; exit 2; }
start=$(date +%s)
got=$(cat "$T/bundle.part0" .gpubench/b/bundle.part1 | sha256sum | cut -d' ' -f1)
[ "$got" = "$(cat .gpubench/b/bundle.sha256)" ] || { echo "bundle checksum mismatch"; exit 2; }
mkdir -p "$T/b"
cat "$T/bundle.part0" .gpubench/b/bundle.part1 |
  python3 -c 'import lzma, shutil, sys; shutil.copyfileobj(lzma.open(sys.stdin.buffer), sys.stdout.buffer)' |
  tar -x -C "$T/b" || exit 2
# The device README's loaders (glvnd EGL, Vulkan) over /, and the NVIDIA driver's ICD and EGL vendor files.
if [ -z "${GPUBENCH_LOCAL:-}" ]; then  # GPUBENCH_LOCAL=1: a dry run on the development machine, / untouched
  for f in .gl/*.deb; do dpkg -x "$f" /; done
  ldconfig
fi
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
export __EGL_VENDOR_LIBRARY_FILENAMES=/usr/local/nvidia/share/glvnd/egl_vendor.d/10_nvidia.json
echo "unpacked in $(($(date +%s) - start)) s"
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv >"$OUT/nvidia-smi.txt" 2>&1
cat "$OUT/nvidia-smi.txt"
ls /usr/local/nvidia/share/vulkan/icd.d/ /usr/local/nvidia/share/glvnd/egl_vendor.d/ 2>&1
nproc
export PYTHONUNBUFFERED=1
timeout "${GPUBENCH_TIMEOUT:-420}" python3 scripts/gpu_bench/gpubench.py replay --recording .gpubench/b/recording.xz \
  --dist "$T/b/dist" --chromium "$T/b/chrome.sh" --gl "${GPUBENCH_GL:-auto}" --out "$OUT/gpu-result.json" \
  --runs "${GPUBENCH_RUNS:-5}" --cases "${GPUBENCH_CASES:-big,campus}" 2>&1 | tee "$OUT/gpubench.log" | grep -v '^ ' | tail -40
echo "rc ${PIPESTATUS[0]}"
python3 - "$OUT/gpu-result.json" <<'EOF'
import json, sys
r = json.load(open(sys.argv[1]))
for p in r.get("probe", []):
    print("PROBE", p["flags"], "->", p.get("renderer") or p.get("error"), p.get("gpu_process", {}).get("gl_implementation_parts"))
for name, c in r.get("cases", {}).items():
    keep = {k: c.get(k) for k in ("renderer", "time_to_first_render_ms", "draw_calls", "js_heap_mb", "rack_move_to_frame_ms", "error")}
    keep["orbit"] = (c.get("orbit") or {}).get("median_ms"), (c.get("orbit") or {}).get("p90_ms")
    keep["dup"] = (c.get("row_duplicate") or {}).get("median_ms")
    keep["switch"] = ((c.get("plan_switch") or {}).get("both") or {}).get("median_ms")
    print("CASE", name, json.dumps(keep))
EOF
