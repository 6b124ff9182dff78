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
#
# bench/store_quantum_probe.patch (session 59) probes the quantum's one change of the model:
# each SM's logged global stores applied every GPUSIM_STORE_QUANTUM cycles (0: every cycle, as
# now) instead of at the end of each cycle, so that other SMs see them only then (its own
# loads read them at once); all are applied when the launch ends (unless
# GPUSIM_PROBE_NO_FLUSH is set: then stores never reach memory, which checks that the
# logs are really held).
#        bench/quantum_probe.sh build DIR bench/store_quantum_probe.patch
#        bench/quantum_probe.sh stores GPUSIM OUTDIR [JOBS]
#                                              the identity set at store quanta 0, 256 and
#                                              10^9 (the whole launch), each compared with 0
set -euo pipefail
cd "$(dirname "$0")/.."
case "${1:-}" in
  build)
    [ $# = 2 ] || [ $# = 3 ] || { echo "usage: $0 build DIR [PATCH]" >&2; exit 2; }
    dir=$(realpath -m "$2")
    patch=$(realpath "${3:-bench/quantum_probe.patch}")
    rm -rf "$dir/src" && mkdir -p "$dir/src"
    git archive HEAD | tar -x -C "$dir/src"
    git -C "$dir/src" init -q
    git -C "$dir/src" apply "$patch" ||
      { echo "$0: $patch no longer applies to this tree (quantum_probe.patch: made on 60b192e; store_quantum_probe.patch: 23240bb)" >&2; exit 1; }
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
  stores)
    [ $# -ge 3 ] || { echo "usage: $0 stores GPUSIM OUTDIR [JOBS]" >&2; exit 2; }
    gpusim=$(realpath "$2") out=$3 jobs=${4:-2}
    status=0
    for q in 0 256 1000000000; do
      GPUSIM_STORE_QUANTUM=$q bench/identity_set.sh "$gpusim" "$out/q$q" "$jobs" >/dev/null
    done
    for q in 256 1000000000; do
      echo "store quantum $q against 0:"
      bench/identity_set.sh --compare "$out/q0" "$out/q$q" || status=1
    done
    exit "$status"
    ;;
  *)
    echo "usage: $0 build DIR [PATCH] | wall GPUSIM [REPEATS] [CORE] | stores GPUSIM OUTDIR [JOBS]" >&2
    exit 2
    ;;
esac
