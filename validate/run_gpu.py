#!/usr/bin/env python3
"""Run gpusim's workloads on a real GPU and record how long each launch takes.

Reads the same workloads/*.yaml and the same validate/kernels/*.cu that gpusim simulates
(one definition of every case), builds the buffers with the same generator, compiles the
kernel with NVRTC for the device's architecture, runs each step in order, and times every
launch with CUDA events (warm-up, then the median of repeats). The SM clock is measured
(clock64 against %globaltimer while the GPU is busy) and used to convert times to cycles.
Before each timed repeat of a workload's first launch the L2 is flushed, as gpusim starts
cold; later launches find what the earlier ones left, as in gpusim. Before each timed launch
a spin kernel keeps the GPU busy while the host enqueues the events and the kernel, so the
host's launch latency stays out of the measurement.
Workloads run at their named size (`--size`, default h100: their `sizes: {h100: ...}`, large
enough to fill the GPU); the parameters used are recorded. The checked output buffer is
summarised as gpusim summarises it (CRC-32 and 16 evenly spaced elements), so that
validate/compare.py can check the GPU's output against gpusim's, which is checked against
the workload's reference.

With --host-copies FILE it also times host<->device copies (pinned and pageable, both
directions, 4 KB to 256 MB) and fits latency + bytes / bandwidth to each, for host_link.

Usage (on the device machine, which has CuPy and PyYAML):
  python3 validate/run_gpu.py --out validate/results/h100.csv [--repeats 20] [--size h100]
                              [--host-copies validate/results/h100_host_copies.csv] [workload ...]
"""
import argparse
import ast
import datetime
import operator
import os
import re
import subprocess
import sys
import zlib

import cupy as cp
import numpy as np
import yaml

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

DTYPES = {"u8": np.uint8, "i32": np.int32, "u32": np.uint32, "i64": np.int64, "u64": np.uint64,
          "f32": np.float32, "f64": np.float64}

_OPS = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul,
        ast.Div: lambda a, b: int(a / b), ast.Mod: lambda a, b: a - b * int(a / b), ast.USub: operator.neg}


def evaluate(text, params):
    """gpusim's integer expressions: + - * / % with C's truncating division."""
    def ev(node):
        if isinstance(node, ast.Expression):
            return ev(node.body)
        if isinstance(node, ast.Constant):
            return int(node.value)
        if isinstance(node, ast.Name):
            return params[node.id]
        if isinstance(node, ast.BinOp):
            return _OPS[type(node.op)](ev(node.left), ev(node.right))
        if isinstance(node, ast.UnaryOp):
            return _OPS[type(node.op)](ev(node.operand))
        raise ValueError(f"unsupported expression {text!r}")
    return ev(ast.parse(str(text), mode="eval"))


def splitmix64(seed, count):
    """The generator of sim/workload/buffer_data.cpp, vectorised."""
    with np.errstate(over="ignore"):
        state = (np.uint64(seed) + np.arange(1, count + 1, dtype=np.uint64) * np.uint64(0x9E3779B97F4A7C15))
        z = state
        z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
        z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
        return z ^ (z >> np.uint64(31))


def initial(buf, params, base):
    count = evaluate(buf["count"], params)
    dtype = DTYPES[buf["type"]]
    init = buf.get("init", "zero")
    if init == "zero":
        return np.zeros(count, dtype)
    if init == "iota":
        return np.arange(count).astype(dtype)
    if "constant" in init:
        return np.full(count, init["constant"], dtype)
    if "file" in init:
        return np.fromfile(os.path.join(base, init["file"]), dtype)
    bits = splitmix64(init["random"]["seed"], count)
    t = buf["type"]
    if t == "u8":
        return (bits & np.uint64(0xFF)).astype(dtype)
    if t in ("i32", "i64"):
        return ((bits % np.uint64(2000)).astype(np.int64) - 1000).astype(dtype)
    if t in ("u32", "u64"):
        return (bits % np.uint64(1000)).astype(dtype)
    return ((bits >> np.uint64(11)).astype(np.float64) * 2.0 ** -53 * 2.0 - 1.0).astype(dtype)


CLOCK_SRC = r"""
extern "C" __global__ void measure_clock(unsigned long long* out, long long spin) {
  unsigned long long t0, t1;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t0));
  const long long c0 = clock64();
  while (clock64() - c0 < spin) {}
  const long long c1 = clock64();
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t1));
  out[0] = c1 - c0;
  out[1] = t1 - t0;
}
"""


def sm_clock_mhz():
    k = cp.RawKernel(CLOCK_SRC, "measure_clock")
    out = cp.zeros(2, cp.uint64)
    for _ in range(3):  # bring the clock up, then measure over ~20 ms
        k((1,), (1,), (out, np.int64(20_000_000)))
    cp.cuda.Device().synchronize()
    k((1,), (1,), (out, np.int64(40_000_000)))
    cycles, ns = (int(v) for v in out.get())
    return cycles / ns * 1e3


_SPIN = None


def keep_gpu_busy():
    """Queue ~50 us of spinning so that the GPU is still busy while the host enqueues the
    start event, the kernel and the stop event: the events then time the kernel on the
    GPU, not the host's launch latency."""
    global _SPIN
    if _SPIN is None:
        _SPIN = (cp.RawKernel(CLOCK_SRC, "measure_clock"), cp.zeros(2, cp.uint64))
    kernel, out = _SPIN
    kernel((1,), (1,), (out, np.int64(100_000)))


_SCRATCH = None


def flush_l2():
    """Overwrite twice the L2's capacity so that the next launch finds none of its data there
    (the restore copies before it would otherwise leave the inputs L2-resident)."""
    global _SCRATCH
    if _SCRATCH is None:
        l2 = cp.cuda.runtime.getDeviceProperties(cp.cuda.Device().id)["l2CacheSize"]
        _SCRATCH = cp.empty(2 * l2, dtype=cp.uint8)
    _SCRATCH.fill(0)


DIGEST_SAMPLES = 16


def output_digest(values):
    """gpusim's OutputDigest (sim/reference/output_digest.cpp): CRC-32 of the bytes and the
    elements at k * (count - 1) / 15, k = 0..15, each index once."""
    count = len(values)
    indices = sorted({k * (count - 1) // (DIGEST_SAMPLES - 1) for k in range(DIGEST_SAMPLES)}) if count else []
    samples = ";".join(repr(float(values[i])) for i in indices)
    return f"{zlib.crc32(values.tobytes()):08x}", samples


def run_workload(path, repeats, arch, size):
    spec = yaml.safe_load(open(path))
    base = os.path.dirname(path)
    params = dict(spec.get("params", {}))
    params.update(spec.get("sizes", {}).get(size, {}))
    source = os.path.normpath(os.path.join(base, spec["kernel"]["source"]))
    module = cp.RawModule(code=open(source).read(), options=(f"--gpu-architecture={arch}",))  # NVRTC optimises by default
    kernel = module.get_function(spec["kernel"]["entry"])
    host = {b["name"]: initial(b, params, base) for b in spec["buffers"]}
    device = {name: cp.zeros_like(cp.asarray(a)) for name, a in host.items()}
    rows = []
    launch_index = 0
    for step in spec["steps"]:
        if "copy" in step:
            c = step["copy"]
            if "to_device" in c:
                device[c["to_device"]].set(host[c["to_device"]])
            else:
                host[c["to_host"]] = device[c["to_host"]].get()
            continue
        launch = step["launch"]
        launch_index += 1
        dims = lambda v: tuple(evaluate(x, params) for x in (v if isinstance(v, list) else [v])) + (1,) * (
            3 - (len(v) if isinstance(v, list) else 1))
        grid, block = dims(launch["grid"]), dims(launch["block"])
        shared = evaluate(launch.get("shared_bytes", 0), params)
        args = []
        for a in launch["args"]:
            if isinstance(a, str) and a in device:
                args.append(device[a])
            elif isinstance(a, float) or (isinstance(a, str) and re.search(r"[.eE]", a) and a not in params):
                args.append(np.float32(a))
            else:
                args.append(np.int32(evaluate(a, params)))
        # Snapshot the buffers so that every timed repeat starts from the same state.
        saved = {name: d.copy() for name, d in device.items()}
        def once():
            kernel(grid, block, tuple(args), shared_mem=shared)
        for _ in range(3):
            for name in device:
                device[name][...] = saved[name]
            once()
        times = []
        start, stop = cp.cuda.Event(), cp.cuda.Event()
        for _ in range(repeats):
            for name in device:
                device[name][...] = saved[name]
            if launch_index == 1:
                flush_l2()  # gpusim starts every workload with cold caches; later launches inherit
            keep_gpu_busy()
            start.record()
            once()
            stop.record()
            stop.synchronize()
            times.append(cp.cuda.get_elapsed_time(start, stop) * 1e3)  # us
        for name in device:  # leave the state one run produces
            device[name][...] = saved[name]
        once()
        cp.cuda.Device().synchronize()
        rows.append({"workload": spec["name"], "launch": launch_index, "entry": spec["kernel"]["entry"],
                     "grid": "x".join(map(str, grid)), "block": "x".join(map(str, block)), "shared_bytes": shared,
                     "median_us": float(np.median(times)), "min_us": float(np.min(times)), "repeats": repeats})
    check = spec.get("check")
    crc, samples = output_digest(host[check["buffer"]]) if check else ("", "")
    applied = size if size in spec.get("sizes", {}) else "default"
    for r in rows:
        r.update(size=applied, params=" ".join(f"{k}={v}" for k, v in sorted(params.items())),
                 output_crc32=crc, output_samples=samples)
    return rows


def host_copies(path, header_fields):
    """Time cudaMemcpy for each direction and host memory kind; fit t = latency + bytes / bandwidth."""
    sizes = [4 << 10, 64 << 10, 1 << 20, 16 << 20, 64 << 20, 256 << 20]
    dev = cp.empty(sizes[-1], dtype=cp.uint8)
    pinned_mem = cp.cuda.alloc_pinned_memory(sizes[-1])
    hosts = {"pinned": np.frombuffer(pinned_mem, dtype=np.uint8, count=sizes[-1]),
             "pageable": np.ones(sizes[-1], dtype=np.uint8)}
    rt = cp.cuda.runtime
    start, stop = cp.cuda.Event(), cp.cuda.Event()
    rows, fits = [], []
    for kind, host in hosts.items():
        host[...] = 1  # touch every page before timing
        for direction in ("to_device", "to_host"):
            points = []
            for size in sizes:
                def copy():
                    if direction == "to_device":
                        rt.memcpy(dev.data.ptr, host.ctypes.data, size, rt.memcpyHostToDevice)
                    else:
                        rt.memcpy(host.ctypes.data, dev.data.ptr, size, rt.memcpyDeviceToHost)
                for _ in range(2):
                    copy()
                times = []
                for _ in range(10):
                    start.record()
                    copy()
                    stop.record()
                    stop.synchronize()
                    times.append(cp.cuda.get_elapsed_time(start, stop) * 1e3)  # us
                us = float(np.median(times))
                points.append((size, us))
                rows.append((direction, kind, size, us))
                print(f"copy {direction:9s} {kind:8s} {size:>10d} B {us:10.2f} us {size / us / 1e3:7.2f} GB/s", flush=True)
            # Bandwidth from the two largest copies (latency cancels); latency from the smallest,
            # less its transfer time. A least-squares line lets the large copies' noise swamp the intercept.
            (b1, t1), (b2, t2) = points[-2], points[-1]
            gbs = (b2 - b1) / (t2 - t1) / 1e3
            fits.append((direction, kind, points[0][1] - points[0][0] / gbs / 1e3, gbs))
    with open(path, "w") as f:
        f.write("direction,host_memory,bytes,median_us,gpu,driver,date,command\n")
        for r in rows:
            f.write(",".join(map(str, r)) + "," + header_fields + "\n")
        for direction, kind, latency, gbs in fits:
            f.write(f"# fit {direction} {kind}: latency {latency:.2f} us, bandwidth {gbs:.2f} GB/s\n")
            print(f"fit {direction} {kind}: latency {latency:.2f} us, bandwidth {gbs:.2f} GB/s")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", required=True)
    ap.add_argument("--repeats", type=int, default=20)
    ap.add_argument("--size", default="h100", help="the workloads' named size to run (their `sizes:`), default h100")
    ap.add_argument("--host-copies", metavar="FILE", help="also time host<->device copies into FILE")
    ap.add_argument("workloads", nargs="*")
    args = ap.parse_args()
    names = args.workloads or sorted(
        [f[:-5] for f in os.listdir(os.path.join(ROOT, "workloads")) if f.endswith(".yaml")] +
        ["micro/" + f[:-5] for f in os.listdir(os.path.join(ROOT, "workloads", "micro")) if f.endswith(".yaml")])
    dev = cp.cuda.Device()
    props = cp.cuda.runtime.getDeviceProperties(dev.id)
    gpu = props["name"].decode()
    arch = f"sm_{props['major']}{props['minor']}"
    driver = subprocess.run(["nvidia-smi", "--query-gpu=driver_version", "--format=csv,noheader"],
                            capture_output=True, text=True).stdout.strip()
    mhz = sm_clock_mhz()
    date = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    command = "python3 validate/run_gpu.py " + " ".join(sys.argv[1:])
    header = ["workload", "size", "params", "launch", "entry", "grid", "block", "shared_bytes", "median_us", "min_us",
              "repeats", "sm_clock_mhz", "cycles", "output_crc32", "output_samples", "gpu", "driver", "date", "command"]
    with open(args.out, "w") as f:
        f.write(",".join(header) + "\n")
        for name in names:
            try:
                rows = run_workload(os.path.join(ROOT, "workloads", name + ".yaml"), args.repeats, arch, args.size)
            except Exception as e:  # keep going: one broken case should not lose the others
                print(f"{name}: FAILED: {e}", file=sys.stderr)
                continue
            for r in rows:
                r.update(sm_clock_mhz=round(mhz, 1), cycles=round(r["median_us"] * mhz), gpu=gpu, driver=driver,
                         date=date, command=command)
                f.write(",".join(f'"{r[h]}"' if h in ("command", "gpu", "date", "params", "output_samples") else str(r[h]) for h in header) + "\n")
                print(f"{name:22s} launch {r['launch']}: {r['median_us']:10.2f} us  {r['cycles']:10d} cycles", flush=True)
    print(f"{gpu}, driver {driver}, SM clock {mhz:.0f} MHz -> {args.out}")
    if args.host_copies:
        host_copies(args.host_copies, f'"{gpu}",{driver},"{date}","{command}"')


if __name__ == "__main__":
    main()
