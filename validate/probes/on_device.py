# What the probes that run on the GPU share (CuPy): the device's properties, the repository's
# kernel files compiled for it, a 256 MB read that empties the L2, a launch timed by events
# (median of repeats), and the results written as CSV under a header naming the GPU, driver,
# clock, date and command.
import datetime
import os
import subprocess

import cupy as cp
import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PROPS = cp.cuda.runtime.getDeviceProperties(0)
SMS = PROPS["multiProcessorCount"]
_ARCH = (f"--gpu-architecture=sm_{PROPS['major']}{PROPS['minor']}",)
_modules = {}


def kernel(path, name):
    """Kernel `name` of the repository's file `path`, compiled for this GPU."""
    if path not in _modules:
        _modules[path] = cp.RawModule(code=open(os.path.join(ROOT, path)).read(), options=_ARCH)
    return _modules[path].get_function(name)


_flush_buf = None
_sink = None


def flush():
    """Reads 256 MB, so the L2 holds none of what was there (only clean lines of that read)."""
    global _flush_buf, _sink
    if _flush_buf is None:
        _flush_buf = cp.zeros(64 << 20, dtype=cp.float32)
        _sink = cp.zeros(SMS * 8 * 256, dtype=cp.float32)
    kernel("validate/kernels/memory_bench.cu", "stream_read")((SMS * 8,), (256,), (_flush_buf, _sink, np.int32(_flush_buf.size)))


def timed(launch, before=None, repeats=5):
    """Median microseconds of `launch()` over `repeats`, each after `before()` (enqueued just ahead)."""
    start, end = cp.cuda.Event(), cp.cuda.Event()
    times = []
    for _ in range(repeats):
        if before:
            before()
        start.record()
        launch()
        end.record()
        end.synchronize()
        times.append(cp.cuda.get_elapsed_time(start, end) * 1e3)
    return float(np.median(times))


def write_csv(path, command, header, rows):
    """The rows under '# GPU, driver and clock; date' and '# command: ...' lines."""
    driver = subprocess.run(["nvidia-smi", "--query-gpu=driver_version,clocks.sm", "--format=csv,noheader"],
                            capture_output=True, text=True).stdout.strip()
    stamp = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    with open(path, "w") as f:
        f.write(f"# {PROPS['name'].decode()}, driver and SM clock after the run: {driver}; {stamp}\n")
        f.write(f"# command: {command}\n")
        f.write(",".join(header) + "\n")
        for row in rows:
            f.write(",".join(f"{x:.2f}" if isinstance(x, float) else str(x) for x in row) + "\n")
