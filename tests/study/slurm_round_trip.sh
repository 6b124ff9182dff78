#!/usr/bin/env bash
# The Slurm round trip for real: a one-node cluster on localhost (munge, slurmctld,
# slurmd), a study submitted as a job array and collected; then points lost and failed
# on purpose, and --resume submits exactly those, collected by the dependent job.
set -euo pipefail
gpusim="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"
repo="$(cd "$(dirname "$0")/../.." && pwd)"
work="$(mktemp -d /tmp/gpusim-slurm-XXXXXX)"
cleanup() { "$repo/scripts/slurm-local.sh" stop "$work/cluster" || true; rm -rf "$work"; }
trap cleanup EXIT
fail() { echo "slurm_round_trip: FAILED: $*" >&2; exit 1; }

"$repo/scripts/slurm-local.sh" start "$work/cluster"
export SLURM_CONF="$work/cluster/slurm.conf"
study="$repo/tests/study/data/tiny_study.yaml"
db="$work/tiny.db"
count() { sqlite3 "$db" "SELECT COUNT(*) FROM points WHERE status = '$1'"; }

# 1. Eight points as an array of three tasks (3 + 3 + 2), waited for and collected here.
"$gpusim" sweep "$study" --db "$db" --slurm --points-per-task 3 --wait 2> "$work/err1" > "$work/out1" ||
  { cat "$work/err1" >&2; fail "the first submission"; }
grep -q "a Slurm array of 3 tasks" "$work/err1" || { cat "$work/err1" >&2; fail "expected 3 tasks"; }
[[ "$(count ok)" == 8 ]] || fail "expected 8 ok points after the array, found $(count ok)"
[[ "$(sqlite3 "$db" "SELECT COUNT(*) FROM launches")" == 8 ]] || fail "expected 8 launch rows"
ls "$db.slurm"/task-*.log > /dev/null || fail "no task logs"
if ls "$db.slurm"/task-*.db > /dev/null 2>&1; then fail "task files left after collecting"; fi

# 2. Two points lost and one failed: --resume submits exactly those three, and the
#    dependent collect job merges them when the array ends.
sqlite3 "$db" "DELETE FROM points WHERE id IN (SELECT id FROM points ORDER BY id LIMIT 2);
               UPDATE points SET status = 'failed', error = 'lost node' WHERE id = (SELECT MAX(id) FROM points);"
[[ "$(count ok)" == 5 ]] || fail "the setup of the resume"
"$gpusim" sweep "$study" --db "$db" --slurm --resume --points-per-task 2 2> "$work/err2" ||
  { cat "$work/err2" >&2; fail "the resubmission"; }
grep -q "submitting 3 points as a Slurm array of 2 tasks" "$work/err2" || { cat "$work/err2" >&2; fail "expected 3 points in 2 tasks"; }
[[ "$(wc -l < "$db.slurm/points-1.txt")" == 3 ]] || fail "the second point list should name 3 points"
for _ in $(seq 1 240); do
  [[ -z "$(squeue -h -o %i 2>/dev/null)" ]] && break
  sleep 0.5
done
[[ -z "$(squeue -h -o %i)" ]] || fail "jobs still queued after 120 s"
[[ "$(count ok)" == 8 && "$(count failed)" == 0 ]] ||
  { cat "$db.slurm"/collect-*.log >&2 || true; fail "expected 8 ok points after the resume, found $(count ok) ok and $(count failed) failed"; }
echo "slurm_round_trip: 8 points through an array of 3 tasks; 3 lost or failed points resubmitted and collected"
