#!/usr/bin/python3
"""Dependent-issue latency per instruction class, on a GPU and as gpusim predicts it.

Each kernel of instruction_latency.cu times a chain of dependent instructions in one warp
with clock64 (cycles per instruction = what an architecture file's `instruction_classes`
says), and two pointer chases time ld.global.ca against cp.async + wait + ld.shared.

  validate/latency/instruction_latency.py --gpu --out validate/results/h100_instruction_latency.csv
  validate/latency/instruction_latency.py --gpusim build/gpusim --arch configs/hopper.yaml
"""
import argparse
import datetime
import os
import subprocess
import sys
import tempfile

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE = os.path.join(HERE, "instruction_latency.cu")
CHAINS = ["add", "prmt", "shf", "bfind", "popc", "redux", "match", "match_uniform", "hfma2", "bf16fma2"]
CHASES = ["ld", "cp_async"]
KERNELS = [("chain_" + c, 1024) for c in CHAINS] + [("chase_" + c, 256) for c in CHASES]


def table():
    """A pointer chase through 1024 words (4 KB): each step to another line."""
    return ((np.arange(1024, dtype=np.uint64) * 97 + 33) % 1024).astype(np.uint32)


def on_gpu():
    import cupy as cp
    cuda = os.environ.get("CUDA_PATH", "/usr/local/cuda")
    module = cp.RawModule(code=open(SOURCE).read(), options=("--gpu-architecture=sm_90", f"--include-path={cuda}/include"))
    cycles, sink, t = cp.zeros(1, cp.uint64), cp.zeros(32, cp.uint32), cp.asarray(table())
    out = {}
    for name, count in KERNELS:
        k = module.get_function(name)
        third = t if name.startswith("chase") else np.uint32(12345)
        best = None
        for _ in range(5):
            k((1,), (32,), (cycles, sink, third))
            cp.cuda.Device().synchronize()
            c = int(cycles.get()[0])
            best = c if best is None else min(best, c)
        out[name] = best / count
    props = cp.cuda.runtime.getDeviceProperties(0)
    info = {"gpu": props["name"].decode(), "driver": subprocess.run(
        ["nvidia-smi", "--query-gpu=driver_version,clocks.sm", "--format=csv,noheader"], capture_output=True,
        text=True).stdout.strip()}
    return out, info


def on_gpusim(gpusim, arch):
    with tempfile.TemporaryDirectory() as tmp:
        table().tofile(os.path.join(tmp, "table.u32"))
        steps = ["  - copy: {to_device: table}"]
        for i, (name, _) in enumerate(KERNELS):
            third = "table" if name.startswith("chase") else "12345"
            steps.append(f"  - launch: {{entry: {name}, grid: 1, block: 32, args: [{{buffer: cycles, offset: {i}}}, sink, {third}]}}")
        with open(os.path.join(tmp, "w.yaml"), "w") as f:
            f.write(f"name: instruction_latency\nkernel: {{source: {SOURCE}, entry: chain_add}}\nbuffers:\n"
                    f"  - {{name: cycles, type: u64, count: {len(KERNELS)}, init: zero}}\n"
                    "  - {name: sink, type: u32, count: 32, init: zero}\n"
                    "  - {name: table, type: u32, count: 1024, init: {file: table.u32}}\n"
                    "steps:\n" + "\n".join(steps) + "\n")
        npy = os.path.join(tmp, "cycles.npy")
        subprocess.run([gpusim, "--arch", arch, "--workload", os.path.join(tmp, "w.yaml"), "--dump", f"cycles={npy}"],
                       check=True, capture_output=True)
        c = np.load(npy)
    return {name: int(c[i]) / count for i, (name, count) in enumerate(KERNELS)}, {"gpu": "gpusim " + arch}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--gpu", action="store_true", help="measure on this machine's GPU (CuPy)")
    ap.add_argument("--gpusim", help="gpusim binary: its prediction")
    ap.add_argument("--arch", default="configs/hopper.yaml")
    ap.add_argument("--out", help="CSV to write")
    args = ap.parse_args()
    result, info = on_gpu() if args.gpu else on_gpusim(args.gpusim, args.arch)
    date = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    rows = ["kernel,cycles_per_instruction,gpu,driver_and_sm_clock,date,command"]
    for name, v in result.items():
        rows.append(f'{name},{v:.2f},"{info["gpu"]}","{info.get("driver", "")}",{date},"{" ".join(sys.argv)}"')
        print(f"{name:18s} {v:8.2f} cycles")
    if args.out:
        with open(args.out, "w") as f:
            f.write("\n".join(rows) + "\n")


if __name__ == "__main__":
    main()
