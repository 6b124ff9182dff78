#!/bin/bash
# Two builds' --threads wall times, alternated run by run (a VM's speed drifts by tens of
# percent over minutes: a build timed after another would carry the drift), and whether
# each JSON report is byte-identical to the old build's one-thread report (but for the
# host's own speed, in warp instructions per second). Prints CSV on stdout.
# usage: bench/threads_ab.sh OLD_GPUSIM NEW_GPUSIM "THREAD COUNTS" REPEATS RUN...
#   RUN: arch,workload[,extra flags]   e.g. hopper,stencil,--size h100
set -euo pipefail
old=$1 new=$2 counts=$3 repeats=$4
shift 4
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
host=$(uname -n) cpu=$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//; s/,/ /g')
echo "date,host,cpu,cores,arch,workload,flags,build,threads,repeat,wall_s,identical_to_old_1"
for run in "$@"; do
  IFS=, read -r arch workload flags <<<"$run"
  for ((r = 1; r <= repeats; ++r)); do
    for t in $counts; do
      for build in old new; do
        gpusim=$old
        [ "$build" = new ] && gpusim=$new
        out=$work/$arch-$workload-$build-$t.json
        start=$(date +%s.%N)
        # shellcheck disable=SC2086  # flags are words
        "$gpusim" --arch "configs/$arch.yaml" --workload "workloads/$workload.yaml" $flags --threads "$t" --format json >"$out"
        end=$(date +%s.%N)
        reference=$work/$arch-$workload-old-1.json
        [ -f "$reference" ] || reference=$out
        same=yes
        cmp -s <(grep -v per_second "$out") <(grep -v per_second "$reference") || same=no
        printf '%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%.3f,%s\n' "$(date -u +%F)" "$host" "$cpu" "$(nproc)" "$arch" "$workload" \
          "$flags" "$build" "$t" "$r" "$(awk "BEGIN{print $end - $start}")" "$same"
      done
    done
  done
done
