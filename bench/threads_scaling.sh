#!/bin/bash
# How --threads scales: wall seconds of whole runs at each thread count, and whether every
# JSON report is byte-identical to the first build's one-thread report (but for the host's
# own speed, in warp instructions per second). With two builds (OLD,NEW), they alternate run
# by run: a VM's speed drifts by tens of percent over minutes, and a build timed after the
# other would carry the drift. Prints CSV on stdout.
# usage: bench/threads_scaling.sh GPUSIM[,GPUSIM2] "THREAD COUNTS" REPEATS RUN...
#   RUN: arch,workload[,extra flags]   e.g. hopper,stencil,--size h100  or  hopper,matmul,--functional
# Run on a quiet machine with at least as many free cores as the largest thread count.
set -euo pipefail
IFS=, read -r -a builds <<<"$1"
counts=$2 repeats=$3
shift 3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
host=$(uname -n) cpu=$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//; s/,/ /g')
echo "date,host,cpu,cores,arch,workload,flags,build,threads,repeat,wall_s,identical_to_1"
for run in "$@"; do
  IFS=, read -r arch workload flags <<<"$run"
  for ((r = 1; r <= repeats; ++r)); do
    for t in $counts; do
      for b in "${!builds[@]}"; do
        out=$work/$arch-$workload-$b-$t.json
        start=$(date +%s.%N)
        # shellcheck disable=SC2086  # flags are words
        "${builds[$b]}" --arch "configs/$arch.yaml" --workload "workloads/$workload.yaml" $flags --threads "$t" --format json >"$out"
        end=$(date +%s.%N)
        first=$work/$arch-$workload-0-1.json
        [ -f "$first" ] || first=$out
        same=yes  # all but the host's own speed (warp instructions per second)
        cmp -s <(grep -v per_second "$out") <(grep -v per_second "$first") || same=no
        printf '%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%.3f,%s\n' "$(date -u +%F)" "$host" "$cpu" "$(nproc)" "$arch" "$workload" \
          "$flags" "${builds[$b]}" "$t" "$r" "$(awk "BEGIN{print $end - $start}")" "$same"
      done
    done
  done
done
