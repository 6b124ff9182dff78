#!/usr/bin/env python3
"""--sample against exact timing: per launch, cycles and a few counters of both runs, the
sampled run's error and its estimate, and the CPU seconds of each (sum over launches).

usage: bench/sample_accuracy.py [--gpusim build/gpusim] [--arch configs/hopper.yaml]
                                [--size h100] [--sample on] [WORKLOAD.yaml ...]
Without workloads: every bundled workload that has the size. --size '': each workload's
default size (the validation corpus: workloads/corpus/*.yaml). Prints a Markdown table."""
import glob
import os
import statistics

from gpusim_runs import ROOT, command, parser, run_json


def run(gpusim, arch, workload, size, sample):
    return run_json(command(gpusim, arch, workload, size, "--sample", sample))


def main():
    p = parser(__doc__)
    p.add_argument("--sample", default="on")
    p.add_argument("workloads", nargs="*")
    a = p.parse_args()
    workloads = a.workloads or sorted(
        w for w in glob.glob(os.path.join(ROOT, "workloads", "*.yaml")) if f"{a.size}:" in open(w).read())
    print("| workload | launch | blocks | timed | exact cycles | sampled cycles | error | estimate | "
          "DRAM bytes error | CPU s exact | CPU s sampled | speedup |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    errors = []
    for w in workloads:
        exact, t_exact = run(a.gpusim, a.arch, w, a.size, "off")
        sampled, t_sampled = run(a.gpusim, a.arch, w, a.size, a.sample)
        name = os.path.basename(w)[:-5]
        for i, (e, s) in enumerate(zip(exact["kernels"], sampled["kernels"])):
            info = s.get("sample")
            if not info:
                continue
            err = (s["cycles"] - e["cycles"]) / e["cycles"]
            errors.append(abs(err))
            de, ds = e["memory"]["dram_read_bytes"] + e["memory"]["dram_write_bytes"], \
                s["memory"]["dram_read_bytes"] + s["memory"]["dram_write_bytes"]
            dram = f"{(ds - de) / de:+.1%}" if de else "-"
            print(f"| {name} | {i + 1} {e['name']} | {info['blocks']} | {info['simulated_blocks']} | {e['cycles']} | "
                  f"{s['cycles']} | {err:+.2%} | {info['error_estimate']:.2%} | {dram} | {t_exact:.2f} | "
                  f"{t_sampled:.2f} | {t_exact / t_sampled:.1f}x |")
    if errors:
        print(f"\n{len(errors)} sampled launches: mean |error| {statistics.mean(errors):.2%}, "
              f"worst {max(errors):.2%}")


if __name__ == "__main__":
    main()
