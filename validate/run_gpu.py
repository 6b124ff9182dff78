#!/usr/bin/env python3
"""Run gpusim's workloads on a real GPU and record how long each launch takes.

The workloads are exactly the ones gpusim simulates: `gpusim workload --dump-inputs` lays each
one out (parameters and size applied, every expression evaluated, each buffer's initial
contents, each kernel argument packed by the kernel's parameter types) and this script only
moves those bytes to the GPU, compiles the same validate/kernels/*.cu with NVRTC for the
device, runs the steps in order and times every launch with CUDA events (warm-up, then the
median of repeats). Nothing of the workload format is re-implemented here. The SM clock is
measured (clock64 against %globaltimer while the GPU is busy) and used to convert times to
cycles. Every timed repeat of a launch starts from the state at the workload's first launch
with the L2 flushed (gpusim starts cold) and replays the steps before it, so that the launch
finds in the caches what the earlier launches left, as in gpusim. Before each timed
launch a spin kernel keeps the GPU busy while the host enqueues the events and the kernel, so
the host's launch latency stays out of the measurement. The checked output buffer is
summarised by `gpusim digest` (CRC-32 and 16 evenly spaced elements), so validate/compare.py
can check the GPU's output against gpusim's.

Workloads run at their named size (`--size`, default h100: large enough to fill the GPU).
With --host-copies FILE it also times host<->device copies (pinned and pageable, both
directions, 4 KB to 256 MB) and fits latency + bytes / bandwidth to each, for host_link.

Usage (on the device machine, which has CuPy and PyYAML; gpusim built statically here with
-DGPUSIM_STATIC=ON and carried, as the device machine lacks yaml-cpp and Boost):
  python3 validate/run_gpu.py --gpusim build-static/gpusim --out validate/results/h100.csv
                              [--repeats 20] [--size h100] [--host-copies FILE] [workload ...]
"""
import argparse
import collections
import datetime
import json
import os
import subprocess
import sys
import tempfile
import traceback

import cupy as cp
import numpy as np
import yaml

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# One launch of a workload, ready to run: `run()` enqueues it.
Call = collections.namedtuple("Call", "entry grid block shared run")

DTYPES = {"u8": np.uint8, "i8": np.int8, "i16": np.int16, "u16": np.uint16, "i32": np.int32, "u32": np.uint32,
          "i64": np.int64, "u64": np.uint64, "f16": np.float16, "bf16": np.uint16,  # bf16: raw bits
          "f32": np.float32, "f64": np.float64}
# PTX parameter types as NumPy scalars for CuPy's argument packing.
PTX_SCALARS = {"u8": np.uint8, "s8": np.int8, "b8": np.uint8, "u16": np.uint16, "s16": np.int16, "b16": np.uint16,
               "u32": np.uint32, "s32": np.int32, "b32": np.uint32, "u64": np.uint64, "s64": np.int64,
               "b64": np.uint64, "f32": np.float32, "f64": np.float64}


def dump_inputs(gpusim, path, size, folder, overrides=()):
    """The workload as gpusim resolves it: manifest.json and the buffers' initial bytes. A
    workload that defines no such size runs at its defaults; `overrides` are NAME=VALUE
    workload parameters set on top."""
    with open(path) as f:
        sizes = yaml.safe_load(f).get("sizes") or {}
    command = [gpusim, "workload", "--arch", os.path.join(ROOT, "configs/hopper.yaml"), "--workload", path,
               "--dump-inputs", folder] + (["--size", size] if size in sizes else [])
    for o in overrides:
        command += ["--set", o]
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(done.stderr.strip())
    with open(os.path.join(folder, "manifest.json")) as f:
        return json.load(f)


def digest(gpusim, values, type_name, folder):
    """gpusim's own digest of a buffer (CRC-32 and samples)."""
    path = os.path.join(folder, "output.bin")
    values.tofile(path)
    d = json.loads(subprocess.run([gpusim, "digest", "--type", type_name, path], check=True, capture_output=True,
                                  text=True).stdout)
    return d["crc32"], ";".join("nan" if v is None else repr(float(v)) for v in d["samples"])  # JSON has no NaN


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


# The flush reads a scratch array four times the L2 (at least 256 MB) with the probes' grid-stride
# sum (validate/kernels/memory_bench.cu's stream_read, as validate/probes/on_device.py). Reading
# leaves the L2 full of clean lines, as close as a GPU gets to gpusim's empty L2. Until 2026-11-26
# it wrote the array (a fill), which leaves the L2 full of dirty lines: every timed launch that
# then evicted them paid their write-back (validate/probes/write_back.py: a 256 MB read takes
# 11 us longer after a fill of 32 MB or more; the GPU does not write them back while it idles).
FLUSH_WRITES = False  # --flush write: the harness before 2026-11-26, for comparisons
_FLUSH = None


class _Flush:
    """The scratch array, its sink and the reading kernel, made once."""

    def __init__(self):
        props = cp.cuda.runtime.getDeviceProperties(cp.cuda.Device().id)
        self.scratch = cp.zeros(max(4 * props["l2CacheSize"], 256 << 20) // 4, dtype=cp.float32)
        self.blocks = props["multiProcessorCount"] * 8
        self.sink = cp.zeros(self.blocks * 256, dtype=cp.float32)
        source = open(os.path.join(ROOT, "validate/kernels/memory_bench.cu")).read()
        arch = f"--gpu-architecture=sm_{props['major']}{props['minor']}"
        self.kernel = cp.RawModule(code=source, options=(arch,)).get_function("stream_read")
        self.read()  # its own zeroing left dirty lines: read them out once

    def read(self):
        self.kernel((self.blocks,), (256,), (self.scratch, self.sink, np.int32(self.scratch.size)))


def flush_l2():
    """Replace the L2's contents so that the next launch finds none of its data there (the
    restore copies before it would otherwise leave the inputs L2-resident)."""
    global _FLUSH
    if _FLUSH is None:
        _FLUSH = _Flush()
    if FLUSH_WRITES:
        _FLUSH.scratch.fill(0)
    else:
        _FLUSH.read()


def global_of(module, name):
    """A module variable's device memory; None for an internal-linkage one (libcu++'s empty
    tag objects), whose mangled name embeds a hash of the file that NVRTC computes differently."""
    try:
        return module.get_global(name)
    except cp.cuda.driver.CUDADriverError:
        if "_INTERNAL_" in name:
            return None
        raise


def spread(times):
    """The repeats' 10th and 90th percentiles, and how many are outliers: further from the
    median than 5 median absolute deviations and 2% of the median (a shared or throttling
    GPU shows as outliers, not as a shifted median)."""
    t = np.asarray(times)
    median = np.median(t)
    mad = np.median(np.abs(t - median))
    far = np.abs(t - median) > max(5 * mad, 0.02 * median)
    return float(np.percentile(t, 10)), float(np.percentile(t, 90)), int(far.sum())


def run_workload(gpusim, path, repeats, arch, size, save_outputs=None, overrides=(), final_buffers=None):
    """Times every launch of one workload; returns one row per launch. `overrides` set
    workload parameters (NAME=VALUE); `final_buffers`, a dict, receives every buffer's
    host copy after the last step."""
    with tempfile.TemporaryDirectory() as folder:
        spec = dump_inputs(gpusim, path, size, folder, overrides)
        source = os.path.normpath(os.path.join(ROOT, spec["kernel"]["source"]))
        options = [f"--gpu-architecture={arch}", "--device-int128"]  # NVRTC optimises; nvcc allows __int128
        # cuda_fp16.h and friends: the toolkit's headers, where this machine has them.
        # CUDA 13 keeps libcu++ (cuda/std/...), which cooperative groups include, under include/cccl.
        cuda = os.environ.get("CUDA_PATH", "/usr/local/cuda")
        options += [f"--include-path={d}" for d in (os.path.join(cuda, "include"), os.path.join(cuda, "include", "cccl"))
                    if os.path.isdir(d)]
        modules = {}  # by source: the workload's kernel's, and any other .cu a launch names

        def module_of(path):
            if path not in modules:
                modules[path] = cp.RawModule(code=open(path).read(), options=tuple(options))
            return modules[path]

        module = module_of(source)
        kernels = {}  # a workload may launch several kernels of its modules
        types = {b["name"]: b["type"] for b in spec["buffers"]}
        host = {b["name"]: np.fromfile(os.path.join(folder, b["file"]), DTYPES[b["type"]]) for b in spec["buffers"]}
        device = {name: cp.zeros_like(cp.asarray(a)) for name, a in host.items()}
        steps = spec["steps"]

        def copy(c):
            if c["direction"] == "to_symbol":  # cudaMemcpyToSymbol
                data = host[c["buffer"]]
                owner = next((s.get("source", source) for s in spec.get("symbols", []) if s["name"] == c["symbol"]), source)
                module_of(os.path.normpath(os.path.join(ROOT, owner))).get_global(c["symbol"]).copy_from_host(
                    data.ctypes.data, data.nbytes)
            elif c["direction"] == "to_device":
                device[c["buffer"]].set(host[c["buffer"]])
            else:
                host[c["buffer"]] = device[c["buffer"]].get()

        def prepare(launch):
            """The launch as a call: kernel, grid, block, dynamic shared bytes and arguments."""
            entry = launch.get("entry", spec["kernel"]["entry"])
            launch_source = os.path.normpath(os.path.join(ROOT, launch["source"])) if "source" in launch else source
            kernel = kernels.setdefault((launch_source, entry), module_of(launch_source).get_function(entry))
            grid, block, shared = tuple(launch["grid"]), tuple(launch["block"]), launch["shared_bytes"]
            if launch.get("shared_opt_in"):  # as cudaFuncSetAttribute(MaxDynamicSharedMemorySize)
                kernel.max_dynamic_shared_size_bytes = shared
            if launch.get("preferred_carveout", -1) >= 0:  # as cudaFuncAttributePreferredSharedMemoryCarveout
                kernel.preferred_shared_memory_carveout = launch["preferred_carveout"]
            for a in launch["args"]:
                if "buffer" not in a and np.dtype(PTX_SCALARS[a["ptx_type"]]).itemsize != a["bytes"]:
                    raise RuntimeError(f"argument {a['param']}: a struct by value, which this harness cannot pass")
            args = tuple(device[a["buffer"]][a.get("offset_elements", 0):] if "buffer" in a else
                         np.frombuffer(bytes.fromhex(a["little_endian_hex"]), PTX_SCALARS[a["ptx_type"]])[0]
                         for a in launch["args"])
            return Call(entry, grid, block, shared, lambda: kernel(grid, block, args, shared_mem=shared))

        launches = [i for i, step in enumerate(steps) if "launch" in step]
        if not launches:
            return []
        first = launches[0]
        for step in steps[:first]:
            copy(step["copy"])
        calls = {i: prepare(steps[i]["launch"]) for i in launches}
        # The state at the first launch: buffers, module variables and the host's copies that a
        # later step uploads again. Every timed launch starts from it with a flushed L2 and
        # replays the steps before it, so that it finds in the caches what the earlier launches
        # left, as in gpusim (restoring its own inputs with a copy would leave them in the L2).
        at_first = {name: d.copy() for name, d in device.items()}
        symbols = [(global_of(module_of(os.path.normpath(os.path.join(ROOT, s.get("source", source)))), s["name"]),
                    np.empty(s["bytes"], np.uint8)) for s in spec.get("symbols", [])]
        symbols = [v for v in symbols if v[0] is not None]
        for ptr, saved in symbols:
            ptr.copy_to_host(saved.ctypes.data, saved.nbytes)
        downloaded = {steps[i]["copy"]["buffer"] for i in range(first, len(steps))
                      if steps[i].get("copy", {}).get("direction") == "to_host"}
        host_at_first = {name: host[name].copy() for name in downloaded}

        def replay(until):
            for name in device:
                device[name][...] = at_first[name]
            for name in downloaded:
                host[name] = host_at_first[name].copy()
            for ptr, saved in symbols:
                ptr.copy_from_host(saved.ctypes.data, saved.nbytes)
            flush_l2()
            for i in range(first, until):
                if "copy" in steps[i]:
                    copy(steps[i]["copy"])
                else:
                    calls[i].run()

        rows = []
        start, stop = cp.cuda.Event(), cp.cuda.Event()
        for launch_index, i in enumerate(launches, 1):
            call = calls[i]
            replay(i)
            call.run()  # warm-up
            times = []
            for _ in range(repeats):
                replay(i)
                keep_gpu_busy()
                start.record()
                call.run()
                stop.record()
                stop.synchronize()
                times.append(cp.cuda.get_elapsed_time(start, stop) * 1e3)  # us
            p10, p90, outliers = spread(times)
            rows.append({"workload": spec["workload"], "launch": launch_index, "entry": call.entry,
                         "grid": "x".join(map(str, call.grid)), "block": "x".join(map(str, call.block)),
                         "shared_bytes": call.shared, "median_us": float(np.median(times)),
                         "min_us": float(np.min(times)), "p10_us": p10, "p90_us": p90,
                         "outliers": outliers, "repeats": repeats})
        replay(len(steps))  # leave the state one run produces
        cp.cuda.Device().synchronize()
        if final_buffers is not None:
            final_buffers.update({name: d.get() for name, d in device.items()})
        check = spec.get("check")
        crc, samples = digest(gpusim, host[check["buffer"]], types[check["buffer"]], folder) if check else ("", "")
        if check and save_outputs:  # the GPU's output, as an expected file for gpusim's checks
            os.makedirs(save_outputs, exist_ok=True)
            host[check["buffer"]].tofile(os.path.join(save_outputs, f"{spec['workload']}.{check['buffer']}.bin"))
    params = " ".join(f"{k}={v}" for k, v in sorted(spec["params"].items()))
    for r in rows:
        r.update(size=spec["size"], params=params, output_crc32=crc, output_samples=samples)
    return rows


def time_host_copies():
    """Time cudaMemcpy for each direction and host memory kind; fit t = latency + bytes / bandwidth.
    Returns the timings (direction, host memory, bytes, us) and the fits (direction, host memory,
    latency us, GB/s)."""
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
    return rows, fits


def host_copies(path, header_fields):
    """time_host_copies() written to `path` as CSV, each row with the GPU, driver, date and command."""
    rows, fits = time_host_copies()
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
    ap.add_argument("--gpusim", default=os.path.join(ROOT, "build-static/gpusim"),
                    help="gpusim executable (it lays the workloads out); default build-static/gpusim")
    ap.add_argument("--repeats", type=int, default=20)
    ap.add_argument("--size", default="h100", help="the workloads' named size to run (their `sizes:`), default h100")
    ap.add_argument("--host-copies", metavar="FILE", help="also time host<->device copies into FILE")
    ap.add_argument("--flush", choices=("read", "write"), default="read",
                    help="how the L2 is emptied before a workload: read (clean lines; default) or write (dirty "
                         "lines: the harness before 2026-11-26)")
    ap.add_argument("--save-outputs", metavar="DIR", help="write each checked buffer's final bytes into DIR")
    ap.add_argument("workloads", nargs="*", help="names under workloads/, or paths to .yaml files")
    args = ap.parse_args()
    global FLUSH_WRITES
    FLUSH_WRITES = args.flush == "write"
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
                path = name if name.endswith(".yaml") else os.path.join(ROOT, "workloads", name + ".yaml")
                rows = run_workload(args.gpusim, path, args.repeats, arch, args.size, args.save_outputs)
            except Exception as e:  # keep going: one broken case should not lose the others
                print(f"{name}: FAILED: {e}", file=sys.stderr)
                traceback.print_exc()
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
