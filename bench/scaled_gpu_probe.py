#!/usr/bin/env python3
"""Probe for a sample smaller than a wave (issue 17's --sample target): does a GPU with 1/k of
the SMs, of the L2 and of DRAM, given 1/k of the grid, take as many cycles as the whole GPU on
the whole grid? If so, a launch could time a slice of its blocks on such a GPU and run the
rest functionally.

The scaled GPU keeps every k-th SM of each L2 partition (by SM index, so both partitions keep
their share), with those SMs' partitions, path offsets and dispatch order; the L2's size
(a whole number of sets per partition), its slices, the DRAM's channels and bandwidth, and the
block dispatcher's rate are scaled by m/n (m of n SMs kept). Each case's size parameters are
scaled by m/n too (grid-stride kernels: their grid as well).

usage: bench/scaled_gpu_probe.py [--gpusim build/gpusim] [--arch configs/hopper.yaml]
                                 [--size h100] [--factors 2,6,11] [CASE ...]
--keep-l2-size: the L2's capacity stays whole (its slices are still scaled).
CASE: WORKLOAD.yaml:PARAM[,PARAM...], e.g. workloads/stencil.yaml:ny (the size's values are
scaled). Without cases: six single-launch kernels of the h100 size. Prints CSV: cycles of both
runs, the error, DRAM bytes (the scaled run's times n/m), L2 hit rates, CPU seconds of each
whole program (one thread) and of the whole program run --functional (what the blocks a sample
leaves untimed would cost, at most), a row per launch."""
import json
import os
import sys

from gpusim_runs import ROOT, command, parser, run_json

DEFAULT_CASES = ["workloads/vecadd.yaml:n", "workloads/stencil.yaml:ny", "workloads/branch_by_thread.yaml:n",
                 "workloads/branch_by_warp.yaml:n", "workloads/reduce_divergent.yaml:n", "workloads/copy.yaml:n,sms"]


def arch_values(gpusim, arch):
    """Every parameter's value (`gpusim params`), lists and numbers parsed."""
    values = {}
    for p in run_json([gpusim, "params", "--arch", arch, "--format", "json"])[0]["parameters"]:
        v = p["value"]
        values[p["name"]] = json.loads(v) if v[:1] in "[-0123456789" else v
    return values


def per_sm_list(value, n, partitions, name):
    """A per-SM list as the architecture file may abbreviate it ('halves', 'ascending', 'none')."""
    if isinstance(value, list):
        return value
    if value == "halves":
        return [i * partitions // n for i in range(n)]
    if value == "ascending":
        return list(range(n))
    if value == "none":
        return [0] * n
    raise ValueError(f"{name}: unexpected value {value!r}")


def scaled_overrides(values, k, keep_l2_size=False):
    """The SMs kept (indices into the whole GPU) and the --set overrides of a GPU 1/k its size
    (`keep_l2_size`: but for the L2's capacity)."""
    n = int(values["gpu.sm_count"])
    parts = int(values.get("memory.l2.partitions", 1))
    partition = per_sm_list(values.get("memory.l2.sm_partitions", "halves"), n, parts, "sm_partitions")
    paths = per_sm_list(values.get("memory.l2.sm_path_cycles", "none"), n, parts, "sm_path_cycles")
    order = per_sm_list(values["block_scheduler.sm_order"], n, parts, "sm_order")
    kept = sorted(sm for p in range(parts) for sm in [s for s in range(n) if partition[s] == p][::k])
    m = len(kept)
    index = {sm: i for i, sm in enumerate(kept)}
    set_bytes = int(values["memory.l2.line_bytes"]) * int(values["memory.l2.associativity"]) * parts
    joined = lambda xs: "[" + ",".join(str(x) for x in xs) + "]"  # noqa: E731
    scaled = lambda key: max(1, int(int(values[key]) * m / n + 0.5))  # noqa: E731
    sets = [f"gpu.sm_count={m}",
            f"memory.l2.sm_partitions={joined(partition[s] for s in kept)}",
            f"memory.l2.sm_path_cycles={joined(paths[s] for s in kept)}",
            f"block_scheduler.sm_order={joined(index[s] for s in order if s in index)}",
            f"memory.l2.size_bytes={int(values['memory.l2.size_bytes']) * (n if keep_l2_size else m) // n // set_bytes * set_bytes}",
            f"memory.l2.slices={scaled('memory.l2.slices')}",
            f"memory.dram.channels={scaled('memory.dram.channels')}",
            f"memory.dram.bandwidth_gbs={float(values['memory.dram.bandwidth_gbs']) * m / n:.4f}",
            f"block_scheduler.block_dispatch_interval="
            f"{float(values['block_scheduler.block_dispatch_interval']) * n / m:.4f}"]
    return kept, sets


def size_values(workload, size):
    """The workload's parameters at `size`, from its YAML (gpusim shows them only while writing
    the buffers out: `gpusim workload --dump-inputs`)."""
    import yaml  # python3-yaml, Debian's; only here, so the tests need none
    with open(workload) as f:
        doc = yaml.safe_load(f)
    values = dict(doc.get("params", {}))
    values.update(doc.get("sizes", {}).get(size, {}) if size else {})
    return values


def run(gpusim, arch, workload, size, sets, functional=False):
    flags = ["--threads", "1"] + (["--functional"] if functional else []) + [f for s in sets for f in ("--set", s)]
    report, seconds = run_json(command(gpusim, arch, workload, size, *flags))
    return report["kernels"], seconds


def main(argv=None):
    p = parser(__doc__)
    p.add_argument("--factors", default="2,6,11")
    p.add_argument("--keep-l2-size", action="store_true", help="scale the L2's slices but not its capacity")
    p.add_argument("--no-header", action="store_true", help="rows only (to append to an earlier run's)")
    p.add_argument("cases", nargs="*")
    a = p.parse_args(argv)
    values = arch_values(a.gpusim, a.arch)
    n = int(values["gpu.sm_count"])
    dram = lambda k: k["memory"]["dram_read_bytes"] + k["memory"]["dram_write_bytes"]  # noqa: E731
    cases = []
    for case in a.cases or [os.path.join(ROOT, c) for c in DEFAULT_CASES]:
        workload, _, names = case.partition(":")
        full = size_values(workload, a.size)
        unknown = [name for name in names.split(",") if not isinstance(full.get(name), int)]
        if not names or unknown:
            sys.exit(f"{case}: expected WORKLOAD.yaml:PARAM[,PARAM...] naming the workload's parameters"
                     + (f" with whole-number values ({', '.join(unknown)} is not one)" if names and unknown else ""))
        cases.append((workload, names, full))
    if not a.no_header:
        print("arch,l2_capacity,workload,launch,k,sms,scaled_params,blocks,scaled_blocks,exact_cycles,scaled_cycles,error,"
              "exact_dram_bytes,scaled_dram_bytes_x_n_over_m,exact_l2_hit,scaled_l2_hit,cpu_s_exact,cpu_s_scaled,cpu_s_functional")
    for workload, names, full in cases:
        exacts, t_exact = run(a.gpusim, a.arch, workload, a.size, [])
        _, t_functional = run(a.gpusim, a.arch, workload, a.size, [], functional=True)
        for k in (int(f) for f in a.factors.split(",")):
            kept, sets = scaled_overrides(values, k, a.keep_l2_size)
            m = len(kept)
            params = [f"{name}={int(full[name]) * m // n}" for name in names.split(",")]
            launches, t_scaled = run(a.gpusim, a.arch, workload, a.size, sets + params)
            for i, (exact, scaled) in enumerate(zip(exacts, launches)):
                error = (scaled["cycles"] - exact["cycles"]) / exact["cycles"]
                print(",".join(str(x) for x in [
                    os.path.basename(a.arch)[:-5], "whole" if a.keep_l2_size else "scaled",
                    os.path.basename(workload)[:-5], f"{i + 1} {exact['name']}", k, m, " ".join(params),
                    exact["blocks"], scaled["blocks"], exact["cycles"], scaled["cycles"], f"{error:+.2%}",
                    dram(exact), f"{dram(scaled) * n / m:.0f}", f"{exact['memory']['l2_hit_rate']:.3f}",
                    f"{scaled['memory']['l2_hit_rate']:.3f}", f"{t_exact:.2f}", f"{t_scaled:.2f}",
                    f"{t_functional:.2f}"]), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
