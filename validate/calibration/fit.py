"""The fitting side of calibrate (no GPU needed): from device.json and measurements.csv,
derive what the device states, fit each parameter of FITS by running gpusim on its
microbenchmark launches, and return the values with the evidence for each."""
import csv
import math
import os
import time

from . import fits as fit_table
from . import model as model_mod
from . import search

# Compute capability -> the bundled file whose structure (units, policies, memory layout)
# a GPU of that generation shares; calibrate overrides what it measures.
BASES = [((9, 0), "hopper.yaml"), ((8, 0), "ampere.yaml"), ((7, 5), "turing.yaml"), ((7, 0), "volta.yaml"),
         ((6, 0), "pascal.yaml"), ((5, 0), "maxwell.yaml"), ((3, 0), "kepler.yaml"), ((2, 0), "fermi.yaml")]
# Parameters the device states, and the cudaDeviceProp field each comes from.
DEVICE_FIELDS = [("limits.max_threads_per_sm", "maxThreadsPerMultiProcessor"),
                 ("limits.max_blocks_per_sm", "maxBlocksPerMultiProcessor"),
                 ("limits.max_threads_per_block", "maxThreadsPerBlock"), ("limits.max_block_dims", "maxThreadsDim"),
                 ("limits.max_grid_dims", "maxGridSize"), ("registers.per_sm", "regsPerMultiprocessor"),
                 ("registers.max_per_block", "regsPerBlock"), ("shared_memory.per_sm", "sharedMemPerMultiprocessor"),
                 ("shared_memory.max_per_block", "sharedMemPerBlock"),
                 ("shared_memory.max_per_block_optin", "sharedMemPerBlockOptin"),
                 ("shared_memory.reserved_per_block", "reservedSharedMemPerBlock"),
                 ("memory.l2.size_bytes", "l2CacheSize"), ("memory.dram.size_bytes", "totalGlobalMem"),
                 ("host_link.copy_engines", "asyncEngineCount")]
TOLERATED_ERROR = 0.25  # a fit that leaves more than this on its own launches is refused


def base_for(compute_capability):
    major, minor = (int(v) for v in compute_capability.split("."))
    for cc, name in BASES:
        if (major, minor) >= cc:
            return name
    return "g80.yaml"


def load_measurements(folder):
    with open(os.path.join(folder, "measurements.csv"), newline="") as f:
        rows = list(csv.DictReader(f))
    cycles = {(r["workload"], int(r["launch"])): int(r["cycles"]) for r in rows}
    params = {r["workload"]: r["params"].split() for r in rows}
    return rows, cycles, params


def stated(q):
    """Values the device states about itself: {parameter: (value, comment)}."""
    v = {}

    def put(name, value, source):
        if value is not None:
            v[name] = (value, source)
    clocks = sorted(q.get("sm_clock_mhz_measured") or [])
    put("gpu.name", q["name"].replace("NVIDIA ", ""), "device name")
    put("gpu.compute_capability", q["compute_capability"], "device")
    put("gpu.sm_count", q.get("multiProcessorCount"), "multiProcessorCount")
    if clocks:
        put("gpu.core_clock_mhz", round(clocks[len(clocks) // 2]),
            f"SM clock measured before each microbenchmark (clock64 against %globaltimer): median of "
            f"{len(clocks)}, {clocks[0]:.0f}-{clocks[-1]:.0f} MHz")
    for name, key in DEVICE_FIELDS:
        put(name, q.get(key), key)
    if q.get("memoryBusWidth_bits"):
        put("memory.dram.channels", q["memoryBusWidth_bits"] // 64,
            f"memoryBusWidth {q['memoryBusWidth_bits']} bits / 64 bits per channel")
    if q.get("pcie_gen") and q.get("pcie_width"):
        put("host_link.name", f"PCIe {q['pcie_gen']}.0 x{q['pcie_width']}", "nvidia-smi pcie.link.gen.max, width.max")
    order = sm_order(q.get("block_placement_smid"), q.get("multiProcessorCount"))
    if order:
        put("block_scheduler.sm_order", order, "micro_block_placement: the SM (%smid) each of "
            f"{len(q['block_placement_smid'])} one-warp blocks ran on, in order of first use")
    copies = q.get("host_copies") or {}
    pinned = [copies[k] for k in ("to_device pinned", "to_host pinned") if k in copies]
    if pinned:
        put("host_link.bandwidth_gbs", round(min(c["bandwidth_gbs"] for c in pinned), 1),
            "pinned cudaMemcpy 64 -> 256 MB, slower direction: " + ", ".join(f"{c['bandwidth_gbs']:.1f}" for c in pinned))
        put("host_link.latency_us", round(sum(c["latency_us"] for c in pinned) / len(pinned), 1),
            "pinned 4 KB copies less their transfer time, mean of both directions: "
            + ", ".join(f"{c['latency_us']:.1f}" for c in pinned))
    if "to_device pageable" in copies:
        c = copies["to_device pageable"]
        put("host_link.pageable_bandwidth_gbs", round(c["bandwidth_gbs"], 1), "pageable cudaMemcpy to device, 64 -> 256 MB")
    if "to_host pageable" in copies:
        c = copies["to_host pageable"]
        put("host_link.pageable_to_host_bandwidth_gbs", round(c["bandwidth_gbs"], 1), "pageable cudaMemcpy to host, 64 -> 256 MB")
    pageable = [copies[k] for k in ("to_device pageable", "to_host pageable") if k in copies]
    if pageable:
        put("host_link.pageable_latency_us", round(sum(c["latency_us"] for c in pageable) / len(pageable), 1),
            "pageable 4 KB copies less their transfer time, mean of both directions")
    return v


def partition_map(q, base):
    """The L2's partitions from validate/probes/l2_partitions.py's scan (in q), as {parameter:
    (value, comment)}; without the scan, 'halves' where the base's map is for another SM count.
    `base`: the base file's parameters (model.parameters)."""
    shares, sms = q.get("l2_far_share_by_sm"), q.get("multiProcessorCount")
    if shares and len(shares) == sms:
        far = [int(s >= 0.25) for s in shares]
        if not any(far):
            return {"memory.l2.partitions": (1, "l2_partitions scan: no SM's reads left lines far from SM 0"),
                    "memory.l2.sm_partitions": ("halves", "one partition")}
        near, far_hop = q["l2_near_hop_cycles"], q["l2_far_hop_cycles"]
        return {"memory.l2.partitions": (2, f"l2_partitions scan: after {sum(far)} of {sms} SMs read a 1 MB ring, "
                                            "SM 0 finds some of its lines in the far partition"),
                "memory.l2.sm_partitions": (far, "l2_partitions scan: 1 where SM 0's chase found 25% or more of its "
                                                 "hops far after that SM read the ring"),
                "memory.l2.far_latency": (round(far_hop - near), f"l2_partitions scan: median far hop {far_hop:.0f} "
                                                                 f"cycles less the near one, {near:.0f}")}
    listed = str(base.get("memory.l2.sm_partitions", {}).get("value", "halves"))
    if listed.startswith("[") and listed.count(",") + 1 != sms:
        return {"memory.l2.sm_partitions": ("halves", "not measured, and the base's map is for another SM count")}
    return {}


def path_offsets(base):
    """Each SM's distance to the L2 is the chip's own (validate/probes/sm_latency.py, not part of the
    measurement): a base file's offsets are dropped, as {parameter: (value, comment)}."""
    listed = str(base.get("memory.l2.sm_path_cycles", {}).get("value", "none"))
    if listed == "none":
        return {}
    return {"memory.l2.sm_path_cycles": ("none", "not measured here: the base's offsets are another chip's")}


def sm_order(smids, sm_count):
    """The order in which SMs first received blocks; None unless every SM appears."""
    if not smids or not sm_count:
        return None
    order = list(dict.fromkeys(smids))
    return order if sorted(order) == list(range(sm_count)) else None


def as_number(text):
    """A parameter's value as `gpusim params` prints it, as a number; None if it is not one."""
    if isinstance(text, (int, float)) and not isinstance(text, bool):
        return text
    for kind in (int, float):
        try:
            return kind(text)
        except (TypeError, ValueError):
            pass
    return None


def fmt(value, integer):
    return int(round(value)) if integer else float(f"{value:.4g}")


class Fitter:
    def __init__(self, gpusim, arch, measured, workload_params, jobs, log=print):
        self.model = model_mod.Model(gpusim, arch, workload_params, jobs)
        self.jobs = jobs
        self.measured, self.log = measured, log
        self.base = model_mod.parameters(gpusim, arch)
        self.fitted = {}    # parameter -> value (as given to --set)
        self.results = []   # one dict per fit, for the report

    def simulate_many(self, targets, overrides_list):
        """Each target launch's simulated cycles under each set of overrides, all runs in parallel."""
        workloads = sorted({w for w, _ in targets})
        runs = self.model.many([(w, o) for o in overrides_list for w in workloads])
        sims = []
        for i in range(len(overrides_list)):
            by_name = dict(zip(workloads, runs[i * len(workloads):(i + 1) * len(workloads)]))
            sims.append([model_mod.launch(by_name[w], k) for w, k in targets])
        return sims

    def simulate(self, targets, overrides):
        return self.simulate_many(targets, [overrides])[0]

    def run(self, fit, narrow=False):
        """Fits one parameter with every other at its value so far. `narrow`: search near the
        current value only (a later pass, after the parameters fitted after it have moved),
        falling back to the whole range when the best lies on an end."""
        if narrow and fit.kind != "choice" and fit.param in self.fitted:
            # First the value's two neighbours at the parameter's resolution: where neither is
            # better the minimum has not moved (the objective is unimodal) and three runs settle
            # it; most parameters of a second pass end here.
            near = self.neighbours(fit)
            if near:
                result = self.search(near)
                if not result["at_edge"]:
                    return self.finish(result)
            result = self.search(fit._replace(lo=0.9, hi=1.12))
            if not result["at_edge"]:
                return self.finish(result)
        return self.finish(self.search(fit))

    def resolution(self, fit):
        """Whether the parameter is an integer (what --set accepts), and its search step."""
        integer = self.base[fit.param].get("type") == "integer"
        return integer, 1 if integer else fit.step

    def bounds(self, fit):
        """The numeric range a search of `fit` covers, at its resolution: (lo, hi, step), or None
        when the value it centres on is not a number."""
        integer, step = self.resolution(fit)
        base_number = as_number(self.fitted.get(fit.param, self.base[fit.param]["value"]))
        if base_number is None:
            return None
        lo, hi = fit.lo * base_number, fit.hi * base_number
        lo, hi = search.snap(lo, step, 0, math.inf), search.snap(hi, step, 0, math.inf)
        if integer:
            lo = max(lo, 1)
        return lo, max(hi, lo + step), step

    def neighbours(self, fit):
        """A second pass's first try for `fit`: its value and the two next to it."""
        value, step = as_number(self.fitted[fit.param]), self.resolution(fit)[1]
        return fit._replace(lo=1 - step / value, hi=1 + step / value) if value else None

    def prefetch(self, fits):
        """Runs every second-pass neighbour check at once, in parallel, at the values fitted
        so far. The pass then goes in order as before: a check finds its runs done, unless a
        parameter before it has moved (its overrides differ, so it runs them afresh)."""
        requests = []
        for fit in fits:
            if fit.kind == "choice" or fit.param not in self.fitted or any(t not in self.measured for t in fit.targets):
                continue
            near = self.neighbours(fit)
            span = near and self.bounds(near)
            if not span:
                continue
            workloads = sorted({w for w, _ in fit.targets})
            values = search.first_round(*span, points=max(8, self.jobs))
            requests += [(w, dict(self.fitted, **{fit.param: v})) for v in values for w in workloads]
        self.model.many(requests)

    def search(self, fit):
        integer, step = self.resolution(fit)
        base_value = self.fitted.get(fit.param, self.base[fit.param]["value"])  # the search's centre
        missing = [t for t in fit.targets if t not in self.measured]
        result = {"fit": fit, "base": self.base[fit.param]["value"], "value": base_value, "fitted": False,
                  "at_edge": False}
        if missing:
            result["why"] = "not measured: " + ", ".join(f"{w} #{k}" for w, k in missing)
            return result
        measured = [self.measured[t] for t in fit.targets]

        def evaluate(values):
            sims = self.simulate_many(fit.targets, [dict(self.fitted, **{fit.param: v}) for v in values])
            return [search.objective(measured, s) for s in sims]

        if fit.kind == "choice":
            value, score, tried = search.choose(evaluate, fit.choices)
            at_edge = False
        else:
            span = self.bounds(fit)
            if span is None:
                result["why"] = f"base value {base_value!r} is not a number"
                return result
            value, score, tried, at_edge = search.minimise(evaluate, *span, points=max(8, self.jobs))
            value = fmt(value, integer)
        sims = self.simulate(fit.targets, dict(self.fitted, **{fit.param: value}))
        result.update(measured=measured, simulated=sims, tried=len(tried), at_edge=at_edge)
        errors = [abs(s / m - 1) if s else math.inf for m, s in zip(measured, sims)]
        if at_edge:
            result["why"] = (f"the best value ({value}) is at an end of the range searched "
                             f"({fit.lo:g}x to {fit.hi:g}x the base): the model cannot reach the measurement")
        elif max(errors) > TOLERATED_ERROR:
            result["why"] = f"the best value ({value}) still leaves {100 * max(errors):.0f}% on a launch"
        else:
            result.update(value=value, fitted=True)
            self.fitted[fit.param] = value
        return result

    def finish(self, result):
        fit = result["fit"]
        if result["fitted"]:
            worst = max(abs(s / m - 1) for m, s in zip(result["measured"], result["simulated"]))
            self.log(f"fitted {fit.param} = {result['value']} (base {result['base']}; worst launch "
                     f"{100 * worst:.1f}% off; {result['tried']} values tried)")
        else:
            self.log(f"NOT fitted {fit.param}: {result['why']}; keeping {result['value']}")
        earlier = [r for r in self.results if r["fit"].param == fit.param]
        if earlier and earlier[0]["fitted"] and not result["fitted"]:
            return earlier[0]  # a later pass that cannot improve keeps the earlier fit
        # a parameter fitted twice reports its last fit only
        self.results = [r for r in self.results if r["fit"].param != fit.param] + [result]
        return result

    def run_all(self, fits, passes=2):
        """Every fit in order, then again near the values found: an early fit (the launch
        cost) absorbs what later ones (the empty kernel's instruction latencies) set."""
        spent = {}  # seconds per parameter over every pass
        for n in range(passes):
            if n:
                self.log(f"pass {n + 1}: every parameter again, near its value")
                self.prefetch(fits)
            for fit in fits:
                started = time.time()
                result = self.run(fit, narrow=n > 0)
                spent[fit.param] = spent.get(fit.param, 0) + time.time() - started
                result["seconds"] = spent[fit.param]
        return self.results
