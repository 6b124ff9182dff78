# How DRAM latency grows with the lines in flight GPU-wide, and how a warp's lines spread over
# the channels (issue 13: load-dependent latency). Kernels lines_in_flight_K of
# validate/kernels/micro.cu: each warp walks its own lines, K independent loads per group.
# Every timed run starts after a 256 MB read has replaced the L2's contents with clean lines.
# Usage (on the device machine): python3 validate/probes/dram_loaded.py OUT.csv
import datetime
import os
import subprocess
import sys

import cupy as cp
import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
src = open(os.path.join(ROOT, "validate/kernels/micro.cu")).read()
module = cp.RawModule(code=src, options=("--gpu-architecture=sm_90",))
bench = cp.RawModule(code=open(os.path.join(ROOT, "validate/kernels/memory_bench.cu")).read(),
                     options=("--gpu-architecture=sm_90",))
FLUSH_SRC = r"""
extern "C" __global__ void flush_read(const float4* a, long long n, float* out) {
  float acc = 0.0f;
  for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += (long long)gridDim.x * blockDim.x) {
    float4 v = a[i]; acc += v.x + v.y + v.z + v.w;
  }
  if (acc == 12345.0f) out[0] = acc;
}
extern "C" __global__ void spin(long long cycles, long long* out) {
  long long start = clock64(); unsigned long long t0, t1;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t0));
  while (clock64() - start < cycles) {}
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t1));
  out[0] = (long long)(t1 - t0);
}
"""
aux = cp.RawModule(code=FLUSH_SRC, options=("--gpu-architecture=sm_90",))
flush_k, spin_k = aux.get_function("flush_read"), aux.get_function("spin")
SMS = cp.cuda.runtime.getDeviceProperties(0)["multiProcessorCount"]

flush_buf = cp.empty(256 << 20 >> 2, dtype=cp.float32)
data = cp.empty(1 << 30 >> 2, dtype=cp.float32)  # 1 GB, never written: timing only
out = cp.zeros(SMS * 32 * 64, dtype=cp.float32)
sink = cp.zeros(1, dtype=cp.float32)
ev0, ev1 = cp.cuda.Event(), cp.cuda.Event()


def clock_mhz():
    ns = cp.zeros(1, dtype=cp.int64)
    cycles = 200_000_000
    spin_k((1,), (1,), (np.int64(cycles), ns))
    cp.cuda.Device().synchronize()
    return cycles / (int(ns.get()[0]) / 1e3)


def flush():
    flush_k((SMS * 8,), (256,), (flush_buf, np.int64(flush_buf.size // 4), sink))


def timed(kernel, blocks, args, from_l2, repeats=5):
    fn = module.get_function(kernel)
    times = []
    for _ in range(repeats):
        flush()
        if from_l2:
            fn((blocks,), (32,), args)
        ev0.record()
        fn((blocks,), (32,), args)
        ev1.record()
        ev1.synchronize()
        times.append(cp.cuda.get_elapsed_time(ev0, ev1) * 1e3)
    return float(np.median(times))


def configs():
    # (probe, K, warps per SM, groups, line spacing in floats, SMs, lanes that load)
    # GPU-wide load: K = 1 and K = 16, 1..32 warps on every SM, consecutive lines per warp.
    for w in (1, 2, 4, 8, 16, 32):
        yield ("load", 1, w, max(1024 // w, 16), 32, SMS, 32)
    for w in (1, 2, 4, 8):
        yield ("load", 16, w, max(128 // w, 8), 32, SMS, 32)
    # How one warp's 16 lines spread: lines 128 B .. 64 KB apart, one SM and every SM.
    for stride in (32, 64, 128, 256, 512, 1024, 2048, 4096, 16384):
        groups = min(64, (7 << 20) // (16 * stride * 4))  # each warp's walk within 7 MB
        yield ("stride", 16, 1, groups, stride, 1, 32)
        yield ("stride", 16, 1, groups, stride, SMS, 32)
    # One access at a time of one sector, two, or the whole line (kernel sectors_in_flight),
    # consecutive lines or lines 4 KB apart, one SM and every SM.
    for stride in (32, 1024):
        for sms in (1, SMS):
            for lanes in (8, 16, 32):
                yield ("sectors", 1, 1, 1024, stride, sms, lanes)


def main():
    path = sys.argv[1]
    gpu = cp.cuda.runtime.getDeviceProperties(0)["name"].decode()
    driver = subprocess.run(["nvidia-smi", "--query-gpu=driver_version", "--format=csv,noheader"],
                            capture_output=True, text=True).stdout.strip()
    mhz_before = clock_mhz()
    rows = []
    for kind, k, w, groups, stride, sms, lanes in configs():
        if kind == "sectors":
            kernel, args = "sectors_in_flight", (data, out, np.int32(groups), np.int64(stride), np.int32(lanes))
        else:
            kernel, args = f"lines_in_flight_{k}", (data, out, np.int32(groups), np.int64(stride))
        for from_l2 in (False, True):
            t = timed(kernel, sms * w, args, from_l2)
            rows.append((kind, k, w, sms, groups, stride * 4, lanes, "l2" if from_l2 else "dram", t))
            print(rows[-1], flush=True)
    # DRAM bandwidth, every SM full: 256 MB read with 16 lines in flight per warp (8 warps per
    # SM), 256 MB written (fill_f32, 64 warps per SM), 128 MB copied into 128 MB (copy_f32).
    n = 64 << 20
    read_groups = n * 4 // (SMS * 8 * 16 * 128)
    for name, run, lines in (
            ("read_bw", lambda: module.get_function("lines_in_flight_16")(
                (SMS * 8,), (32,), (data, out, np.int32(read_groups), np.int64(32))), SMS * 8 * 16 * read_groups),
            ("fill_bw", lambda: bench.get_function("fill_f32")((SMS * 8,), (256,), (data, np.int32(n), np.float32(1))), n // 32),
            ("copy_bw", lambda: bench.get_function("copy_f32")(
                (SMS * 8,), (256,), (data, data[n // 2:], np.int32(n // 2))), n // 32)):
        times = []
        for _ in range(5):
            flush()
            ev0.record(); run(); ev1.record(); ev1.synchronize()
            times.append(cp.cuda.get_elapsed_time(ev0, ev1) * 1e3)
        rows.append((name, 0, 64, SMS, lines, 128, 32, "dram", float(np.median(times))))
        print(rows[-1], flush=True)
    mhz_after = clock_mhz()
    mhz = (mhz_before + mhz_after) / 2
    stamp = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    with open(path, "w") as f:
        f.write(f"# {gpu}, driver {driver}, SM clock {mhz_before:.0f}/{mhz_after:.0f} MHz (before/after), {stamp}\n")
        f.write("# command: python3 validate/probes/dram_loaded.py (median of 5; L2 replaced by a 256 MB read before each)\n")
        f.write("probe,k,warps_per_sm,sms,groups,line_spacing_bytes,lanes,source,median_us,cycles,cycles_per_group\n")
        for kind, k, w, sms, groups, spacing, lanes, source, t in rows:
            cycles = t * mhz
            f.write(f"{kind},{k},{w},{sms},{groups},{spacing},{lanes},{source},{t:.2f},{cycles:.0f},{cycles / groups:.1f}\n")


main()
