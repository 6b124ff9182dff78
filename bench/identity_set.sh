#!/bin/bash
# The identity set: what a change that should not move any report is checked on. Runs every
# architecture file with every top-level workload (default sizes) on one thread and on two,
# JSON reports, and the h100 size of four memory-bound workloads on Hopper (the L2 evicts,
# DRAM queues), the corpus's sparse on Hopper (gathers: a line's sectors met out of order,
# which session 68 got wrong unseen here), and four h100-size workloads with --sample on
# Hopper, on one thread and two, into OUTDIR: NAME.json and NAME.err (stderr, then the exit
# status). Then
# compare two such directories: every report byte for byte except its wall-clock rate
# (warp_instructions_per_second), and every error and exit status.
# usage: bench/identity_set.sh GPUSIM OUTDIR [JOBS]     (about 12 minutes on 2 cores)
#        bench/identity_set.sh --compare DIR_A DIR_B    (exit 1 when any file differs)
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "${1:-}" = --compare ]; then
  [ $# -eq 3 ] || { echo "usage: $0 --compare DIR_A DIR_B" >&2; exit 2; }
  n=0 bad=0
  for a in "$2"/*.json; do
    name=$(basename "$a" .json)
    n=$((n + 1))
    b="$3/$name"
    if ! cmp -s <(grep -v warp_instructions_per_second "$a") <(grep -v warp_instructions_per_second "$b.json" 2>/dev/null); then
      echo "differs: $name.json"
      bad=$((bad + 1))
    elif ! cmp -s "$2/$name.err" "$b.err"; then
      echo "differs: $name.err"
      bad=$((bad + 1))
    fi
  done
  echo "compared $n runs, $bad differ"
  [ "$bad" -eq 0 ]
  exit
fi
[ $# -ge 2 ] || { echo "usage: $0 GPUSIM OUTDIR [JOBS] | --compare DIR_A DIR_B" >&2; exit 2; }
gpusim=$(realpath "$1")
out=$2
jobs=${3:-2}
[ -x "$gpusim" ] || { echo "$0: $gpusim: not an executable" >&2; exit 2; }
mkdir -p "$out"
out=$(realpath "$out")
# shellcheck disable=SC2016  # the inner script (single-quoted) expands its own arguments
{
  for arch in configs/*.yaml; do
    for workload in workloads/*.yaml; do
      for threads in 1 2; do echo "$arch $workload $threads - -"; done
    done
  done
  for workload in vecadd stencil copy transpose_naive; do echo "configs/hopper.yaml workloads/$workload.yaml 1 h100 -"; done
  for threads in 1 2; do
    echo "configs/hopper.yaml workloads/corpus/sparse.yaml $threads - -"
    for workload in branch_by_thread reduce_divergent reduce_sequential stencil; do
      echo "configs/hopper.yaml workloads/$workload.yaml $threads h100 sample"
    done
  done
} | xargs -P "$jobs" -L1 bash -c '
  gpusim=$1 out=$2 arch=$3 workload=$4 threads=$5 size=$6 sample=$7
  name=$(basename "$arch" .yaml)-$(basename "$workload" .yaml)-t$threads
  flags=()
  if [ "$size" != - ]; then name+=-$size; flags=(--size "$size"); fi
  if [ "$sample" != - ]; then name+=-sample; flags+=(--sample on); fi
  status=0
  "$gpusim" --arch "$arch" --workload "$workload" --threads "$threads" "${flags[@]}" --format json \
    >"$out/$name.json" 2>"$out/$name.err" || status=$?
  echo "$status" >>"$out/$name.err"' identity_set "$gpusim" "$out"
