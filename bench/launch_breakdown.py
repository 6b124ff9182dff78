#!/usr/bin/python3
"""Where each thread's time goes during a timed launch on several threads, from perf samples.

Reads `perf script -F tid,time,ip,sym` of a `perf record -g` run of gpusim and counts, over the
timed launch, each thread's samples by what they were doing. The timed launch runs from the
first to the last sample whose call chain holds TickBatch, which hands each cycle between the
threads (without frame pointers a chain is short: Gpu::launch is seldom in it).
  settle   the memory system's shared part (the L2, DRAM, the hierarchy's settle);
  waiting  TickBatch's own code at the top of the chain: mostly the per-cycle hand-over's spin;
  kernel   the operating system (page faults, futexes);
  SM work  the rest: the SMs' cycles, the functional executor, the L1.
The waiting share is what a quantum of cycles per hand-over would cut (docs/performance.md).

A build without frame pointers (the default Release) gives perf's call chains of a frame or two,
so work of the settle's below its first frames (the L2's cache lookups, DRAM) counts as SM work;
for the settle's whole share, build with -DCMAKE_CXX_FLAGS=-fno-omit-frame-pointer.

With --top N it then lists the main thread's N leaf functions with the most samples (it settles,
and starts and ends each quantum, alone), the workers' together, and the main thread's samples
by the TickBatch step they fall under (the innermost TickBatch frame of each chain): which of
its serial jobs bounds a run on many threads, and where the workers wait.

usage: perf record -g -o DATA gpusim ... --threads 2 && perf script -i DATA -F tid,time,ip,sym > S
       bench/launch_breakdown.py [--top N] S
"""
import collections
import csv
import re
import sys

SETTLE = ("MemoryHierarchy::settle", "MemoryHierarchy::do_below", "MemoryHierarchy::from_l2", "L2::", "Dram::")
LOOP = ("TickBatch::serve", "TickBatch::run_shared", "TickBatch::run()", "TickBatch::run_part")


def samples(path):
    """(thread, time, frames from the sampled one outwards) for each sample."""
    head, frames = None, []
    sample = re.compile(r"^\s*(\d+)\s+(\d+\.\d+):\s*$")  # "TID TIME:" (perf pads the thread id)
    with open(path, errors="replace") as f:
        for line in f:
            start = sample.match(line)
            if not line.strip():
                if head:
                    yield head[0], head[1], frames
                head, frames = None, []
            elif start:
                head = (int(start.group(1)), float(start.group(2)))
            else:
                frames.append(line.strip().split(None, 1)[-1])
    if head:
        yield head[0], head[1], frames


def category(frames):
    chain = " ".join(frames)
    top = frames[0] if frames else ""
    if any(k in chain for k in SETTLE):
        return "settle"
    if any(k in top for k in LOOP):
        return "waiting"
    if top.startswith("ffffffff") or "page_fault" in chain or "entry_SYSCALL" in chain:
        return "kernel"
    return "SM work"


def name(frame):
    """A frame's function: without its dso and offset."""
    return re.sub(r"\+0x[0-9a-f]+$", "", re.sub(r" \(.*\)$", "", frame))


def batch_step(frames):
    """The innermost TickBatch function of a chain, or '(none)'."""
    for frame in frames:
        if "TickBatch::" in frame:
            return name(frame)
    return "(none)"


def usage():
    print(__doc__.strip().splitlines()[-1], file=sys.stderr)
    return 2


def main(args):
    top = 0
    if args[:1] == ["--top"]:
        if len(args) < 2 or not args[1].isdigit() or int(args[1]) < 1:
            return usage()
        top, args = int(args[1]), args[2:]
    if len(args) != 1:
        return usage()
    path = args[0]
    try:
        runs = list(samples(path))
    except (OSError, ValueError) as e:
        print(f"{path}: not perf script output ({e})", file=sys.stderr)
        return 2
    launch = [t for _, t, frames in runs if any("TickBatch::" in f for f in frames)]
    if not runs or not launch:
        print(f"{path}: no sample inside gpusim::core::TickBatch (recorded with -g, on two or more threads?)", file=sys.stderr)
        return 2
    first, last = min(launch), max(launch)
    main_thread = runs[0][0]  # the process's first sample is its main thread's
    counts = collections.Counter()
    for tid, t, frames in runs:
        if first <= t <= last:
            counts[("main" if tid == main_thread else f"worker {tid}", category(frames))] += 1
    per_thread = collections.Counter()
    for (thread, _), n in counts.items():
        per_thread[thread] += n
    print(f"launch_s,{last - first:.3f}")
    print("thread,category,samples,share_of_thread")
    for (thread, cat), n in sorted(counts.items()):
        print(f"{thread},{cat},{n},{n / per_thread[thread]:.3f}")
    if top:
        out = csv.writer(sys.stdout, lineterminator="\n")  # C++ names hold commas: quoted
        mine = [frames for tid, t, frames in runs if tid == main_thread and first <= t <= last]
        theirs = [frames for tid, t, frames in runs if tid != main_thread and first <= t <= last]
        for title, chains in (("main_leaf", mine), ("workers_leaf", theirs)):
            leaves = collections.Counter((name(f[0]) if f else "(none)", category(f)) for f in chains)
            out.writerow([title, "category", "samples"])
            for (leaf, cat), n in sorted(leaves.items(), key=lambda kv: (-kv[1], kv[0]))[:top]:
                out.writerow([leaf, cat, n])
        steps = collections.Counter(batch_step(f) for f in mine)
        out.writerow(["main_step", "samples"])
        for step, n in sorted(steps.items(), key=lambda kv: (-kv[1], kv[0]))[:top]:
            out.writerow([step, n])
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
