# Simulates validate/probes/block_turnover.py with gpusim and prints it beside the measured
# rows (validate/results/block_turnover_h100.csv): each case's cycles and what its stamps show.
# Usage: /usr/bin/python3 validate/probes/block_turnover_sim.py [--gpusim build/gpusim]
#        [--results CSV] [--set SECTION.KEY=VALUE]...
import os
import tempfile

import numpy as np

from simulate import ROOT, arguments, kernels, measured_rows
from turnover_stats import CASES, FIELDS, N, resident, summary


def workload(name, threads):
    args = {"empty": "[stamps]", "read": "[in, out, 2.0, stamps]", "copy": "[in, out, stamps]",
            "write": "[out, stamps]"}[name]
    return (f"name: block_turnover_probe\n"
            f"kernel: {{source: {ROOT}/validate/kernels/turnover_stamps.cu, entry: stamped_{name}}}\n"
            f"buffers:\n"
            f"  - {{name: in, type: f32, count: {N}, init: {{random: {{seed: 34}}}}}}\n"
            f"  - {{name: out, type: f32, count: {N}, init: zero}}\n"
            f"  - {{name: stamps, type: u64, count: {N // 32 * 3}, init: zero}}\n"
            f"steps:\n"
            f"  - copy: {{to_device: in}}\n"
            f"  - launch: {{source: {ROOT}/validate/kernels/turnover.cu, entry: turnover_read, grid: {N // 256}, "
            f"block: 256, args: [in, out, 2.0]}}\n"
            f"  - launch: {{entry: stamped_{name}, grid: {N // threads}, block: {threads}, args: {args}}}\n")


def simulate(args, name, threads):
    """The stamped launch's cycles and its stamps' summary in gpusim."""
    with tempfile.TemporaryDirectory() as tmp:
        dump = os.path.join(tmp, "stamps.npy")
        launches = kernels(args, workload(name, threads), ["--dump", f"stamps={dump}"])
        return launches[-1]["cycles"], summary(np.load(dump), threads, resident(threads))


def main():
    args = arguments("block_turnover_h100.csv").parse_args()
    measured = {(r["kernel"], int(r["threads"])): r for r in measured_rows(args.results)} \
        if os.path.exists(args.results) else {}
    print(f"{'case':12} {'cycles':>15}  " + "  ".join(f"{f:>17}" for f in FIELDS))
    for name, threads in CASES:
        cycles, got = simulate(args, name, threads)
        hw = measured.get((name, threads))
        pair = lambda m, s: f"{float(m):8.0f}/{s:<8.0f}" if hw else f"{'':8} {s:<8.0f}"
        print(f"{name + ' ' + str(threads):12} {pair(hw['cycles'] if hw else 0, cycles):>15}  " +
              "  ".join(f"{pair(hw[f] if hw else 0, got[f]):>17}" for f in FIELDS), flush=True)


if __name__ == "__main__":
    main()
