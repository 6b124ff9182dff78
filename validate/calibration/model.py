"""gpusim as the model being fitted: runs a microbenchmark workload at the parameters the GPU
ran it with, under an architecture file and NAME=VALUE overrides, and returns each launch's
simulated cycles. Results are cached: a fit re-asks for the values it already tried."""
import concurrent.futures
import json
import os
import subprocess
import threading

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def workload_path(name):
    for folder in ("micro", "", "corpus"):
        path = os.path.join(ROOT, "workloads", folder, name + ".yaml")
        if os.path.exists(path):
            return path
    raise FileNotFoundError(f"no workload named {name} under workloads/")


def launch(runs, k):
    """Launch k's (1-based) cycles from cycles() of a workload; None if the run failed."""
    return runs[k - 1] if runs and len(runs) >= k else None


def parameters(gpusim, arch, overrides=()):
    """Every parameter of an architecture file, by name: value, origin."""
    command = [gpusim, "params", "--arch", arch, "--format", "json"]
    for o in overrides:
        command += ["--set", o]
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(f"gpusim params --arch {arch}: {done.stderr.strip()}")
    return {p["name"]: p for p in json.loads(done.stdout)["parameters"]}


class Model:
    def __init__(self, gpusim, arch, workload_params, jobs):
        self.gpusim, self.arch, self.workload_params = gpusim, arch, workload_params
        self.pool = concurrent.futures.ThreadPoolExecutor(max_workers=max(1, jobs))
        self.cache, self.lock = {}, threading.Lock()
        self.runs = 0

    def cycles(self, workload, overrides):
        """Simulated cycles of each launch of `workload` (a list), or None when gpusim fails."""
        key = (workload, tuple(sorted(overrides.items())))
        with self.lock:
            if key in self.cache:
                return self.cache[key]
        command = [self.gpusim, "--arch", self.arch, "--workload", workload_path(workload), "--format", "json"]
        for p in self.workload_params.get(workload, []):
            command += ["--set", p]
        for name, value in sorted(overrides.items()):
            command += ["--set", f"{name}={value}"]
        done = subprocess.run(command, capture_output=True, text=True)
        result = None
        if done.returncode in (0, 3):  # 3: the output check failed, timing still stands
            result = [k["cycles"] for k in json.loads(done.stdout)["kernels"]]
        with self.lock:
            self.cache[key] = result
            self.runs += 1
        return result

    def many(self, requests):
        """cycles() of several (workload, overrides) pairs at once, in parallel."""
        return list(self.pool.map(lambda r: self.cycles(*r), requests))
