#!/bin/bash
# Host instructions per simulated warp instruction (issue 17's per-core measure), counted by
# callgrind over the launches only (Gpu::launch), on one thread: deterministic, so the same on
# any x86-64 machine with the same compiler and build type, and with AVX2 and FMA (a few lane
# loops have clones for them, and take fewer instructions there). Also the share of those
# instructions spent in the SMs' own cycles (Sm::run_until, Sm::run_cycle), the part that
# --threads runs side by side; the rest (the L2 and DRAM's settle, each cycle's end, the
# events) stays on one thread and bounds its speedup (Amdahl). Then three parts of the launch, each inclusive (see
# `parts` below): the functional executor, the SMs' side of the memory system and the shared
# L2 and DRAM's settle; what the SMs' cycles spend besides the first two is the issue logic.
# Prints CSV on stdout.
# With --cache, callgrind also simulates a host cache of fixed sizes (32 KB L1s, a 2 MB
# last level, whatever this machine has, so the counts are the same everywhere) and adds the
# last-level misses per simulated warp instruction (reads and writes): the host's cache misses
# on the simulator's state, which the instruction count does not see; then the L1 data misses
# (reads and writes: nearly all served by the host's second level) and the mispredicted
# branches (callgrind's branch simulation, conditional and indirect), per warp instruction:
# with the instructions, what sets the wall clock. Twice as slow again.
# usage: bench/host_instructions.sh [--cache] GPUSIM RUN...
#   RUN: arch,workload[,extra flags]   e.g. hopper,stencil  or  hopper,vecadd,--size h100
# Needs valgrind (apt-get install valgrind). Each run takes about 50x its normal time.
set -euo pipefail
cache=0
if [ "${1:-}" = --cache ]; then
  cache=1
  shift
fi
if [ $# -lt 2 ]; then
  echo "usage: $0 [--cache] GPUSIM arch,workload[,flags]..." >&2
  exit 2
fi
command -v valgrind >/dev/null || { echo "$0: valgrind is not installed (apt-get install valgrind)" >&2; exit 2; }
gpusim=$1
shift
[ -x "$gpusim" ] || { echo "$0: $gpusim: not an executable" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cache_flags=()
header=date,host,arch,workload,flags,warp_instructions,launch_host_instructions,per_warp_instruction,in_sm_cycles_pct
header+=,executor_pct,sm_memory_pct,settle_pct
if [ $cache = 1 ]; then
  # shellcheck disable=SC2054  # valgrind writes a cache geometry with commas
  cache_flags=(--cache-sim=yes --I1=32768,8,64 --D1=32768,8,64 --LL=2097152,16,64 --branch-sim=yes)
  header+=,ll_misses_per_warp_instruction,l1d_misses_per_warp_instruction,mispredicts_per_warp_instruction
fi
# Functions' inclusive counts in this run's callgrind listing, summed, less $less if set (host
# instructions: a call between them), as a share of the launch's ($total), to one decimal
# ("" where none is there). The listing is sorted by count, so the first line naming a
# function is the function itself (with -g, the largest of its per-file lines), not a lambda
# or a part compiled in from a header.
share() {
  awk -v names="$*" -v less="${less:-0}" -v total="$total" '
    BEGIN { n = split(names, f, " ") }
    { for (i = 1; i <= n; i++) if (!seen[i] && index($0, f[i])) { seen[i] = 1; found = 1; v = $1; gsub(",", "", v); sum += v } }
    END { if (found) printf "%.1f", 100 * (sum - less) / total }' "$work/inclusive"
}
echo "$header"
for run in "$@"; do
  IFS=, read -r arch workload flags <<<"$run"
  [ -f "configs/$arch.yaml" ] || { echo "$0: '$run': no configs/$arch.yaml" >&2; exit 2; }
  [ -f "workloads/$workload.yaml" ] || { echo "$0: '$run': no workloads/$workload.yaml" >&2; exit 2; }
  # shellcheck disable=SC2086  # flags are words
  valgrind --tool=callgrind "${cache_flags[@]}" --callgrind-out-file="$work/cg" --toggle-collect='gpusim::core::Gpu::launch*' \
    "$gpusim" --arch "configs/$arch.yaml" --workload "workloads/$workload.yaml" $flags --threads 1 --format json \
    >"$work/report.json" 2>"$work/valgrind.err" || { cat "$work/valgrind.err" >&2; exit 1; }
  warp=$(/usr/bin/python3 -c 'import json,sys; print(sum(k["warp_instructions"] for k in json.load(open(sys.argv[1]))["kernels"]))' "$work/report.json")
  read -r -a totals <<<"$(sed -n 's/^totals: *//p' "$work/cg")"
  total=${totals[0]}
  callgrind_annotate --inclusive=yes --threshold=100 "$work/cg" >"$work/inclusive" 2>/dev/null
  # The SMs' cycles: Sm::run_until runs a quantum's (each cycle compiled into it), Sm::run_cycle
  # a batch's one at a time; both absent when the SMs tick alone (atomics, printf, --source,
  # limited miss-status registers; see core/tick_batch.hpp).
  # Builds before session 68 call run_cycle from run_until: that call is taken off the sum.
  callgrind_annotate --tree=calling --inclusive=yes --threshold=100 "$work/cg" >"$work/calling" 2>/dev/null
  nested=$(awk '/ \*  / { in_until = index($0, "gpusim::core::Sm::run_until(") > 0; next }
    /^ *$/ { in_until = 0 } in_until && / >  / && index($0, "gpusim::core::Sm::run_cycle(") { v = $1; gsub(",", "", v); sum += v }
    END { printf "%.0f", sum }' "$work/calling")
  in_sm=$(less=$nested share 'gpusim::core::Sm::run_until(' 'gpusim::core::Sm::run_cycle(')
  # Where the launch's instructions go, as parts of it (each inclusive, so they overlap where
  # one calls another): the functional executor (every step, issued or set aside); the SM's
  # side of the memory system (the load/store unit: coalescing, the L1, the requests); the
  # shared L2 and DRAM (the settle). What the SMs' cycles spend besides the first two is the
  # issue logic: the schedulers' scans, operands, units, the hoist queue, statistics.
  parts=$(share 'gpusim::exec::Executor::execute(')
  parts+=,$(share 'gpusim::core::LoadStoreUnit::access(')
  parts+=,$(share 'gpusim::memory::MemoryHierarchy::settle_until(')
  # Events with --cache: Ir Dr Dw I1mr D1mr D1mw ILmr DLmr DLmw Bc Bcm Bi Bim
  misses=""
  [ $cache = 1 ] && misses=$(/usr/bin/python3 -c 'import sys; t = [int(x) for x in sys.argv[1:]]; w = t.pop()
print("".join(f",{(a + b) / w:.2f}" for a, b in ((t[7], t[8]), (t[4], t[5]), (t[10], t[12]))))' "${totals[@]}" "$warp")
  printf '%s,%s,%s,%s,%s,%s,%s,%s,%s,%s%s\n' "$(date -u +%F)" "$(uname -n)" "$arch" "$workload" "$flags" "$warp" "$total" \
    "$(( (total + warp / 2) / warp ))" "$in_sm" "$parts" "$misses"
done
