"""The GPU side of calibrate: what the device says about itself, and the microbenchmarks
timed on it (with validate/run_gpu.py's harness). Needs CuPy, PyYAML and an NVIDIA GPU."""
import csv
import datetime
import json
import os
import subprocess
import sys
import time

import cupy as cp
import numpy as np
import yaml

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import run_gpu  # noqa: E402  (validate/run_gpu.py: the same harness the validation uses)
from probes import l2_partitions  # noqa: E402

from . import model  # noqa: E402

# cudaDeviceAttr values (driver_types.h): not in cudaDeviceProp since CUDA 13.
ATTR_CLOCK_KHZ, ATTR_MEMORY_CLOCK_KHZ, ATTR_BUS_WIDTH = 13, 36, 37

COLUMNS = ["workload", "params", "launch", "entry", "grid", "block", "median_us", "p10_us", "p90_us", "outliers",
           "repeats", "sm_clock_mhz", "cycles", "gpu", "driver", "date"]


def smi(fields):
    done = subprocess.run(["nvidia-smi", f"--query-gpu={fields}", "--format=csv,noheader,nounits"],
                          capture_output=True, text=True)
    return [v.strip() for v in done.stdout.splitlines()[0].split(",")] if done.returncode == 0 else []


def query_device():
    """cudaGetDeviceProperties, the attributes CUDA 13 moved out of it, and nvidia-smi."""
    dev = cp.cuda.Device()
    p = cp.cuda.runtime.getDeviceProperties(dev.id)
    attr = lambda a: cp.cuda.runtime.deviceGetAttribute(a, dev.id)  # noqa: E731
    keys = ["multiProcessorCount", "l2CacheSize", "totalGlobalMem", "warpSize", "maxThreadsPerBlock",
            "maxThreadsPerMultiProcessor", "maxBlocksPerMultiProcessor", "maxThreadsDim", "maxGridSize",
            "regsPerBlock", "regsPerMultiprocessor", "sharedMemPerBlock", "sharedMemPerBlockOptin",
            "sharedMemPerMultiprocessor", "reservedSharedMemPerBlock", "asyncEngineCount",
            "globalL1CacheSupported", "persistingL2CacheMaxSize"]
    q = {k: (list(p[k]) if isinstance(p.get(k), (list, tuple)) else p.get(k)) for k in keys}
    q["name"] = p["name"].decode() if isinstance(p["name"], bytes) else p["name"]
    q["compute_capability"] = f"{p['major']}.{p['minor']}"
    q["clockRate_khz"] = attr(ATTR_CLOCK_KHZ)
    q["memoryClockRate_khz"] = attr(ATTR_MEMORY_CLOCK_KHZ)
    q["memoryBusWidth_bits"] = attr(ATTR_BUS_WIDTH)
    q["runtime_version"] = cp.cuda.runtime.runtimeGetVersion()
    smi_fields = smi("driver_version,pcie.link.gen.max,pcie.link.width.max,clocks.max.sm,power.limit")
    if smi_fields:
        q["driver"], q["pcie_gen"], q["pcie_width"], q["max_sm_clock_mhz"], q["power_limit_w"] = smi_fields
    return q


def declares(path, parameter):
    with open(path) as f:
        return parameter in ((yaml.safe_load(f) or {}).get("params") or {})


def measure(out_dir, gpusim, workloads, repeats, host_copies=True, log=print):
    """Times every launch of `workloads` on this GPU into out_dir: device.json, measurements.csv,
    host_copies.csv. Each workload runs at this GPU's SM count where it has an `sms` parameter."""
    os.makedirs(out_dir, exist_ok=True)
    started = time.time()
    q = query_device()
    q["date"] = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    q["command"] = "validate/calibrate " + " ".join(sys.argv[1:])
    arch = f"sm_{q['compute_capability'].replace('.', '')}"
    rows, clocks, failed = [], [], {}
    for name in workloads:
        path = model.workload_path(name)
        overrides = [f"sms={q['multiProcessorCount']}"] if declares(path, "sms") else []
        mhz = run_gpu.sm_clock_mhz()  # per workload: a throttling GPU shows here
        clocks.append(mhz)
        buffers = {} if name == "micro_block_placement" else None
        try:
            measured = run_gpu.run_workload(gpusim, path, repeats, arch, "h100", overrides=overrides,
                                            final_buffers=buffers)
        except Exception as e:  # keep going: the fits that need it say so
            failed[name] = str(e).splitlines()[0] if str(e) else type(e).__name__
            log(f"{name}: FAILED: {failed[name]}")
            continue
        for r in measured:
            r.update(sm_clock_mhz=round(mhz, 1), cycles=round(r["median_us"] * mhz), gpu=q["name"],
                     driver=q.get("driver", ""), date=q["date"])
            rows.append(r)
            log(f"{name:30s} #{r['launch']:<2d} {r['median_us']:10.2f} us {r['cycles']:10d} cycles"
                + (f"  ({r['outliers']} outlier repeats)" if r["outliers"] else ""))
        if buffers is not None:
            q["block_placement_smid"] = [int(v) for v in buffers["out"]]
    try:  # which L2 partition is near each SM, and the far hop (validate/probes/l2_partitions.py)
        q.update(l2_partitions.partition_scan())
        log(f"L2 partitions: {sum(s >= 0.25 for s in q['l2_far_share_by_sm'])} SMs on the far side of SM 0; "
            f"hop {q['l2_near_hop_cycles']:.0f} cycles near, {q['l2_far_hop_cycles'] or 0:.0f} far")
    except Exception as e:  # the fit keeps the base's partitions and says so
        failed["l2_partitions"] = str(e).splitlines()[0] if str(e) else type(e).__name__
        log(f"l2_partitions: FAILED: {failed['l2_partitions']}")
    q["sm_clock_mhz_measured"] = [round(c, 1) for c in clocks]
    q["failed_workloads"] = failed
    with open(os.path.join(out_dir, "measurements.csv"), "w", newline="") as f:
        w = csv.DictWriter(f, COLUMNS, extrasaction="ignore")
        w.writeheader()
        w.writerows(rows)
    if host_copies:
        copy_rows, fits = run_gpu.time_host_copies()
        q["host_copies"] = {f"{d} {k}": {"latency_us": lat, "bandwidth_gbs": gbs} for d, k, lat, gbs in fits}
        with open(os.path.join(out_dir, "host_copies.csv"), "w") as f:
            f.write("direction,host_memory,bytes,median_us\n")
            for r in copy_rows:
                f.write(",".join(map(str, r)) + "\n")
    q["measure_seconds"] = round(time.time() - started, 1)
    with open(os.path.join(out_dir, "device.json"), "w") as f:
        json.dump(q, f, indent=1, default=lambda v: v.item() if isinstance(v, np.generic) else str(v))
    return q
