#!/usr/bin/python3
"""Speedup of --threads from bench/threads_scaling.sh's CSV (or a bench/data file of its rows).

For each (set, architecture, workload, build): the median wall time at each thread count, and the ratio of
one thread to each other count taken repeat by repeat. The builds alternate run by run and a
repeat's runs are next to each other in time, so a machine that drifts by tens of percent over
minutes (a shared VM) moves both sides of a repeat's ratio alike; the median is over repeats.
Also the fastest run at each count and the fastest one-thread run over it: a run slowed by
another tenant cannot come out fast, so on a machine whose runs of one build spread 2x the
fastest runs are the ones least disturbed. Both ratios are printed; neither replaces the other.

usage: bench/threads_ratio.py CSV [CSV...]
"""
import csv
import statistics
import sys
from collections import defaultdict


def main(paths):
    if not paths:
        print(__doc__.strip().splitlines()[-1], file=sys.stderr)
        return 2
    runs = defaultdict(dict)  # (set, arch, workload, flags, build) -> {(threads, repeat): wall}
    for path in paths:
        try:
            with open(path, newline="") as f:
                # bench/data files open with '#' lines: the machine, builds and command.
                for row in csv.DictReader(line for line in f if not line.startswith("#")):
                    key = (row.get("set", ""), row["arch"], row["workload"], row["flags"], row["build"])
                    runs[key][(int(row["threads"]), row["repeat"])] = float(row["wall_s"])
        except (OSError, KeyError, ValueError) as e:
            print(f"{path}: not a threads_scaling.sh CSV ({e})", file=sys.stderr)
            return 2
    print("set,arch,workload,flags,build,threads,repeats,median_wall_s,median_ratio_to_1,fastest_wall_s,fastest_ratio_to_1")
    for (set_, arch, workload, flags, build), walls in sorted(runs.items()):
        ones = [w for (t, _), w in walls.items() if t == 1]
        for threads in sorted({t for t, _ in walls}):
            repeats = sorted(r for t, r in walls if t == threads)
            median = statistics.median(walls[(threads, r)] for r in repeats)
            paired = [walls[(1, r)] / walls[(threads, r)] for r in repeats if (1, r) in walls]
            ratio = f"{statistics.median(paired):.2f}" if paired and threads != 1 else ""
            fastest = min(walls[(threads, r)] for r in repeats)
            best = f"{min(ones) / fastest:.2f}" if ones and threads != 1 else ""
            print(f"{set_},{arch},{workload},{flags},{build},{threads},{len(repeats)},{median:.3f},{ratio},{fastest:.3f},{best}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
