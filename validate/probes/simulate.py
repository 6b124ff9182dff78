# What the probes' simulators (*_sim.py) share: their command line, and running gpusim on a
# workload written out as text.
import argparse
import csv
import json
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def arguments(results):
    """A parser with --gpusim, --arch, --results (default `results`, under validate/results) and --set."""
    ap = argparse.ArgumentParser()
    ap.add_argument("--gpusim", default=os.path.join(ROOT, "build/gpusim"))
    ap.add_argument("--arch", default=os.path.join(ROOT, "configs/hopper.yaml"))
    ap.add_argument("--results", default=os.path.join(ROOT, "validate/results", results))
    ap.add_argument("--set", action="append", default=[])
    return ap


FLUSH_FLOATS = 64 << 20  # the probes' 256 MB read that empties the L2


def flush_buffers(floats=FLUSH_FLOATS, sms=132):
    """Workload buffer lines for the flush: its array (`floats` long) and a sink."""
    return (f"  - {{name: flush, type: f32, count: {floats}, init: zero}}\n"
            f"  - {{name: sink, type: f32, count: {sms * 8 * 256}, init: zero}}\n")


def flush_launch(sms=132):
    """A workload step reading the 256 MB flush array, as the probes do before a cold case."""
    return (f"  - launch: {{source: {ROOT}/validate/kernels/memory_bench.cu, entry: stream_read, grid: {sms * 8}, "
            f"block: 256, args: [flush, sink, {FLUSH_FLOATS}]}}\n")


def measured_rows(path):
    """The CSV rows of a probe's results, its comment lines skipped."""
    with open(path) as f:
        return list(csv.DictReader(line for line in f if not line.startswith("#")))


def kernels(args, text, extra=()):
    """Simulates the workload `text` with args' gpusim, file and --set (and `extra` command-line
    arguments): its launches' JSON reports."""
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "probe.yaml")
        with open(path, "w") as f:
            f.write(text)
        cmd = [args.gpusim, "--arch", args.arch, "--workload", path, "--format", "json", *extra]
        for s in args.set:
            cmd += ["--set", s]
        run = subprocess.run(cmd, capture_output=True, text=True)
    if run.returncode:
        sys.exit(run.stderr)
    return json.loads(run.stdout)["kernels"]


def dumped(args, text, names):
    """Simulates the workload `text` with args' gpusim, file and --set, without an instruction
    limit, and returns the named buffers' device contents after it (numpy arrays, by name)."""
    import numpy as np
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "probe.yaml")
        with open(path, "w") as f:
            f.write(text)
        cmd = [args.gpusim, "--arch", args.arch, "--workload", path, "--max-instructions", "0"]
        for name in names:
            cmd += ["--dump", f"{name}={tmp}/{name}.npy"]
        for s in args.set:
            cmd += ["--set", s]
        run = subprocess.run(cmd, capture_output=True, text=True)
        if run.returncode:
            sys.exit(run.stderr)
        return {name: np.load(f"{tmp}/{name}.npy") for name in names}


def compare_per_trip(results, trips_of_row, keys):
    """The shared main of the loop probes' simulators: simulates every measured row of `results`
    (under validate/results) with `trips_of_row(args, row)` (cycles per trip), -j at once, and
    prints each against its measured cycles_per_trip with the mean absolute error. `keys`: the
    row's columns that name it, with their widths."""
    from concurrent.futures import ThreadPoolExecutor

    import numpy as np
    ap = arguments(results)
    ap.add_argument("-j", type=int, default=2, help="simulations at once")
    args = ap.parse_args()
    rows = measured_rows(args.results)
    with ThreadPoolExecutor(args.j) as pool:
        sims = list(pool.map(lambda r: trips_of_row(args, r), rows))
    errors = []
    print(" ".join(f"{k:{w}}" for k, w in keys) + f"   {'per trip':>8} {'gpusim':>7} {'error':>7}")
    for r, s in zip(rows, sims):
        m = float(r["cycles_per_trip"])
        errors.append(abs(100 * (s - m) / m))
        print(" ".join(f"{r[k]:{w}}" for k, w in keys) + f"   {m:8.1f} {s:7.1f} {100 * (s - m) / m:+6.1f}%")
    print(f"{len(rows)} figures: mean absolute error {np.mean(errors):.1f}%")
