#!/bin/bash
# What SMs that run ahead for a quantum of cycles would gain, before the exact version is
# built (docs/performance.md, "Session 57"). bench/quantum_probe.patch is not a model: each
# batch's due SMs run one after another, up to GPUSIM_QUANTUM cycles each, every cycle settled
# at once, so the L2 takes requests in (SM, cycle) order and kernel cycles move by about 1%.
#
# usage: bench/quantum_probe.sh build DIR     this tree's HEAD, patched, built in DIR; prints
#                                              the binary's path
#        bench/quantum_probe.sh wall GPUSIM [REPEATS] [CORE]
#                                              h100 stencil, vecadd, matmul and copy on Hopper,
#                                              one thread pinned to CORE (default 0), quantum 1
#                                              and 256 alternated; CSV of user and wall seconds
# The counts: GPUSIM_QUANTUM=Q bench/host_instructions.sh --cache GPUSIM hopper,stencil ...
set -euo pipefail
cd "$(dirname "$0")/.."
case "${1:-}" in
  build)
    [ $# = 2 ] || { echo "usage: $0 build DIR" >&2; exit 2; }
    dir=$(realpath -m "$2")
    rm -rf "$dir/src" && mkdir -p "$dir/src"
    git archive HEAD | tar -x -C "$dir/src"
    git -C "$dir/src" init -q
    git -C "$dir/src" apply "$PWD/bench/quantum_probe.patch" ||
      { echo "$0: bench/quantum_probe.patch no longer applies to this tree (made on 60b192e)" >&2; exit 1; }
    "$dir/src/scripts/build.sh" "$dir/build" -DCMAKE_BUILD_TYPE=Release -DGPUSIM_BUILD_TESTS=OFF >/dev/null
    echo "$dir/build/gpusim"
    ;;
  wall)
    [ $# -ge 2 ] || { echo "usage: $0 wall GPUSIM [REPEATS] [CORE]" >&2; exit 2; }
    gpusim=$2 repeats=${3:-5} core=${4:-0}
    [ -x "$gpusim" ] || { echo "$0: $gpusim: not an executable" >&2; exit 2; }
    work=$(mktemp -d)
    trap 'rm -rf "$work"' EXIT
    cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1 | tr , ' ')
    echo "date,host,cpu,workload,size,quantum,repeat,user_s,wall_s,kernel_cycles"
    for ((r = 1; r <= repeats; ++r)); do
      for w in stencil vecadd matmul copy; do
        for q in 1 256; do
          GPUSIM_QUANTUM=$q /usr/bin/time -o "$work/time" -f "%U,%e" taskset -c "$core" "$gpusim" --arch configs/hopper.yaml \
            --workload "workloads/$w.yaml" --size h100 --threads 1 --format json >"$work/report.json"
          cycles=$(/usr/bin/python3 -c 'import json,sys; print(sum(k["end_cycle"] - k["start_cycle"] for k in json.load(open(sys.argv[1]))["kernels"]))' "$work/report.json")
          echo "$(date -u +%F),$(hostname),$cpu,$w,h100,$q,$r,$(tail -1 "$work/time"),$cycles"
        done
      done
    done
    ;;
  *)
    echo "usage: $0 build DIR | wall GPUSIM [REPEATS] [CORE]" >&2
    exit 2
    ;;
esac
