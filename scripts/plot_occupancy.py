#!/usr/bin/python3
"""Draw the CUDA Occupancy Calculator's graphs from `gpusim occupancy` CSV.

Usage: plot_occupancy.py SWEEP.csv OUT.png [--title T] [--mark THREADS,REGS,SMEM]

One panel per swept variable (block size, registers per thread, shared memory per
block), occupancy on the y axis, the kernel's own point marked. Uses Debian's
python3-matplotlib under /usr/bin/python3.
"""
import argparse
import csv
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

PANELS = {
    "threads": ("threads_per_block", "Threads per block"),
    "regs": ("registers_per_thread", "Registers per thread"),
    "smem": ("shared_memory_per_block", "Shared memory per block (bytes)"),
}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("csv")
    parser.add_argument("png")
    parser.add_argument("--title", default="Occupancy")
    parser.add_argument("--mark", default=None, help="THREADS,REGS,SMEM of the kernel")
    args = parser.parse_args()

    with open(args.csv, newline="") as f:
        rows = list(csv.DictReader(f))
    if not rows:
        print(f"{args.csv}: no rows", file=sys.stderr)
        return 1
    panels = [v for v in PANELS if any(r["varied"] == v for r in rows)]
    if not panels:
        print(f"{args.csv}: nothing swept (varied column is {rows[0]['varied']!r})", file=sys.stderr)
        return 1
    mark = dict(zip(("threads", "regs", "smem"), map(int, args.mark.split(",")))) if args.mark else None

    fig, axes = plt.subplots(1, len(panels), figsize=(5.5 * len(panels), 4), squeeze=False)
    for ax, var in zip(axes[0], panels):
        column, label = PANELS[var]
        pts = [r for r in rows if r["varied"] == var]
        xs = [int(r[column]) for r in pts]
        ys = [100.0 * float(r["occupancy"]) for r in pts]
        ax.step(xs, ys, where="post", color="tab:blue")
        ax.plot(xs, ys, ".", color="tab:blue", markersize=3)
        if mark is not None:
            here = [y for x, y in zip(xs, ys) if x == mark[var]]
            if here:
                ax.plot([mark[var]], [here[0]], "o", color="tab:red", markersize=8, label="your kernel")
                ax.legend(loc="lower left")
        ax.set_xlabel(label)
        ax.set_ylabel("Occupancy (%)")
        ax.set_ylim(0, 105)
        ax.grid(True, alpha=0.3)
    fig.suptitle(args.title)
    fig.tight_layout()
    fig.savefig(args.png, dpi=100)
    return 0


if __name__ == "__main__":
    sys.exit(main())
