# Simulates validate/probes/branch_cost.py's kernels with gpusim and compares cycles per trip
# with the committed measurement (validate/results/branch_cost_h100.csv).
# Usage: /usr/bin/python3 validate/probes/branch_cost_sim.py [--gpusim build/gpusim] [--set K=V]...
from simulate import ROOT, compare_per_trip, dumped

SRC = f"{ROOT}/validate/kernels/branch_cost.cu"
TRIPS = 4096


def workload(r):
    name = r["kernel"]
    if name.startswith("chain_lane"):
        args = f"[out, cycles, trips_of, 0.999]"
    elif name == "until_value":
        args = "[out, cycles, 990.0, 0.999]"
    elif name == "forward_taken":
        args = f"[out, cycles, {TRIPS}, 0.999, -1]"
    else:
        args = f"[out, cycles, {TRIPS}, 0.999]"
    return (f"name: branch_cost_probe\n"
            f"kernel: {{source: {SRC}, entry: {name}}}\n"
            f"buffers:\n"
            f"  - {{name: out, type: f32, count: 8, init: zero}}\n"
            f"  - {{name: cycles, type: i64, count: 1, init: zero}}\n"
            f"  - {{name: trips_of, type: i32, count: 32, init: {{constant: {TRIPS}}}}}\n"
            f"steps:\n"
            f"  - copy: {{to_device: trips_of}}\n"
            f"  - launch: {{entry: {name}, grid: 1, block: 32, args: {args}}}\n")


def simulate(args, r):
    return int(dumped(args, workload(r), ["cycles"])["cycles"][0]) / int(r["trips"])


if __name__ == "__main__":
    compare_per_trip("branch_cost_h100.csv", simulate, [("kernel", 16)])
