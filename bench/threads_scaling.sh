#!/bin/bash
# How --threads scales: wall seconds of whole runs at each thread count, and whether every
# JSON report is byte-identical to the one-thread report (but for the host's own speed, in
# warp instructions per second). Prints CSV on stdout.
# usage: bench/threads_scaling.sh GPUSIM "THREAD COUNTS" REPEATS RUN...
#   RUN: arch,workload[,extra flags]   e.g. hopper,stencil,--size h100  or  hopper,matmul,--functional
# Run on a quiet machine with at least as many free cores as the largest thread count.
set -euo pipefail
gpusim=$1 counts=$2 repeats=$3
shift 3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
host=$(uname -n) cpu=$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//; s/,/ /g')
echo "date,host,cpu,cores,arch,workload,flags,threads,repeat,wall_s,identical_to_1"
for run in "$@"; do
  IFS=, read -r arch workload flags <<<"$run"
  for ((r = 1; r <= repeats; ++r)); do
    for t in $counts; do
      out=$work/$arch-$workload-$t.json
      # shellcheck disable=SC2086  # flags are words
      start=$(date +%s.%N)
      "$gpusim" --arch "configs/$arch.yaml" --workload "workloads/$workload.yaml" $flags --threads "$t" --format json >"$out"
      end=$(date +%s.%N)
      same=yes  # all but the host's own speed (warp instructions per second)
      if [ "$t" != 1 ]; then
        cmp -s <(grep -v per_second "$out") <(grep -v per_second "$work/$arch-$workload-1.json") || same=no
      fi
      printf '%s,%s,%s,%s,%s,%s,%s,%s,%s,%.3f,%s\n' "$(date -u +%F)" "$host" "$cpu" "$(nproc)" "$arch" "$workload" \
        "$flags" "$t" "$r" "$(awk "BEGIN{print $end - $start}")" "$same"
    done
  done
done
