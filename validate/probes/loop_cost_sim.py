# Simulates validate/probes/loop_cost.py's kernels with gpusim and compares cycles per trip with
# the committed measurement (validate/results/loop_cost_h100.csv).
# Usage: /usr/bin/python3 validate/probes/loop_cost_sim.py [--gpusim build/gpusim] [--set K=V]...
from simulate import ROOT, compare_per_trip, dumped, flush_buffers, flush_launch

SRC = f"{ROOT}/validate/kernels/loop_cost.cu"
RING = f"{ROOT}/validate/kernels/dram_latency.cu"
TRIPS, HOPS = 4096, 2048


def workload(r):
    name, data = r["kernel"], r["data"]
    if name.startswith("fadd_loop"):
        steps = f"  - launch: {{entry: {name}, grid: 1, block: 32, args: [out, cycles, {TRIPS}, 0.999]}}\n"
    else:
        run = f"  - launch: {{entry: {name}, grid: 1, block: 32, args: [ring, cycles, last, {HOPS}]}}\n"
        steps = (f"  - launch: {{source: {RING}, entry: ring_sequential, grid: 64, block: 256, args: [ring, {HOPS * 32}, 32]}}\n"
                 + flush_launch() + run * (2 if data == "l2" else 1))
    return (f"name: loop_cost_probe\n"
            f"kernel: {{source: {SRC}, entry: fadd_loop_1}}\n"
            f"buffers:\n"
            f"  - {{name: ring, type: u32, count: {HOPS * 32}, init: zero}}\n"
            f"  - {{name: out, type: f32, count: 2, init: zero}}\n"
            f"  - {{name: cycles, type: i64, count: 1, init: zero}}\n"
            f"  - {{name: last, type: u32, count: 1, init: zero}}\n"
            + flush_buffers() + "steps:\n" + steps)


def simulate(args, r):
    return int(dumped(args, workload(r), ["cycles"])["cycles"][0]) / int(r["trips"])


if __name__ == "__main__":
    compare_per_trip("loop_cost_h100.csv", simulate, [("kernel", 22), ("data", 9)])
