"""calibrate end to end on synthetic measurements with known answers (CI has no GPU).

The "GPU" is gpusim itself with known parameter values (TRUTH) on hopper.yaml: its cycles
for the microbenchmarks, at small sizes, become measurements.csv. `calibrate --fit-only`
starting from hopper.yaml must find TRUTH again and write a file gpusim loads with those
values; a fit whose launch was not measured, and one the model cannot reach, must be
refused by name with the base value kept. GPUSIM names the gpusim executable.
"""
import csv
import json
import os
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
GPUSIM = os.environ.get("GPUSIM", os.path.join(ROOT, "build/gpusim"))
HOPPER = os.path.join(ROOT, "configs/hopper.yaml")

TRUTH = {"block_scheduler.kernel_launch_cycles": 5000, "latencies.fp32": 6, "shared_memory.latency": 31,
         "memory.l2.latency": 250, "memory.l2.fetch_bytes": 32, "memory.l1.store_sector_cycles": 1.5}
# Small sizes: the fit runs each many times.
SIZES = {"micro_empty": [], "micro_fp32_chain": ["n=300"], "micro_shared_chase": ["hops=500", "stride=33"],
         "micro_l2_chase": ["hops=400", "n=1048576", "step=32"],
         "micro_scattered_read": ["n=2097152", "threads=65536", "block=256", "stride=32"],
         "micro_sync_32": ["n=100"], "micro_store_path": ["reps=8", "line_mask=4095"]}
UNREACHABLE = ("micro_sync_32", 1)  # measured far below any launch: latencies.barrier cannot fit
# calibrate does not measure each SM's distance to the L2 and writes none: so has the synthetic GPU.
ALIKE = {"memory.l2.sm_path_cycles": "none"}


def simulate(workload, params, overrides):
    command = [GPUSIM, "--arch", HOPPER, "--workload", os.path.join(ROOT, "workloads/micro", workload + ".yaml"),
               "--format", "json"]
    for p in params + [f"{k}={v}" for k, v in overrides.items()]:
        command += ["--set", p]
    done = subprocess.run(command, capture_output=True, text=True, check=True)
    return [k["cycles"] for k in json.loads(done.stdout)["kernels"]]


class Synthetic(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        folder = cls.tmp.name
        with open(os.path.join(folder, "measurements.csv"), "w", newline="") as f:
            w = csv.writer(f)
            w.writerow(["workload", "params", "launch", "median_us", "p10_us", "p90_us", "outliers", "repeats",
                        "sm_clock_mhz", "cycles"])
            for workload, params in SIZES.items():
                for launch, cycles in enumerate(simulate(workload, params, {**TRUTH, **ALIKE}), 1):
                    if (workload, launch) == UNREACHABLE:
                        cycles = 100
                    w.writerow([workload, " ".join(params), launch, cycles / 1980, cycles / 1980, cycles / 1980, 0, 10,
                                1980.0, cycles])
        device = {"name": "Synthetic GPU", "compute_capability": "9.0", "multiProcessorCount": 132,
                  "l2CacheSize": 52428800, "sm_clock_mhz_measured": [1975.0, 1980.0, 1981.0],
                  "date": "2026-11-24 00:00 UTC", "driver": "synthetic"}
        with open(os.path.join(folder, "device.json"), "w") as f:
            json.dump(device, f)
        cls.config = os.path.join(folder, "synthetic.yaml")
        params = list(TRUTH) + ["latencies.barrier", "latencies.int32"]
        cls.done = subprocess.run([sys.executable, os.path.join(ROOT, "validate/calibrate"), "--fit-only", folder,
                                  "--config", cls.config, "--gpusim", GPUSIM, "--only", ",".join(params)],
                                 capture_output=True, text=True)
        cls.report = ""
        if cls.done.returncode == 0:
            with open(os.path.join(folder, "report.md")) as f:
                cls.report = f.read()

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def written(self):
        done = subprocess.run([GPUSIM, "params", "--arch", self.config, "--format", "json"], capture_output=True,
                              text=True, check=True)
        return {p["name"]: p for p in json.loads(done.stdout)["parameters"]}

    def test_calibrate_succeeds(self):
        self.assertEqual(self.done.returncode, 0, self.done.stderr + self.done.stdout)

    def test_every_known_value_is_found_and_written(self):
        values = self.written()
        for name, want in TRUTH.items():
            self.assertEqual(values[name]["value"], str(want), name)
            self.assertIn("synthetic.yaml", values[name]["origin"], name)

    def test_what_the_device_states_is_written(self):
        values = self.written()
        self.assertEqual(values["gpu.core_clock_mhz"]["value"], "1980")  # the median of the clocks measured
        self.assertEqual(values["gpu.name"]["value"], "Synthetic GPU")

    def test_a_fit_without_its_measurement_is_refused_and_keeps_the_base_value(self):
        self.assertIn("latencies.int32", self.done.stdout)
        self.assertRegex(self.report, r"`latencies.int32` \| 4 \| 4 \|.*NOT FITTED, base kept: not measured: micro_int_chain #1")
        kept = self.written()["latencies.int32"]
        self.assertEqual(kept["value"], "4")
        self.assertNotIn("synthetic.yaml", kept["origin"])

    def test_a_fit_the_model_cannot_reach_is_refused_and_keeps_the_base_value(self):
        self.assertRegex(self.report, r"`latencies.barrier` \| 8 \| 8 \|.*NOT FITTED, base kept: the best value \(\d+\) is at an end")
        self.assertEqual(self.written()["latencies.barrier"]["value"], "8")

    def test_the_written_file_reproduces_the_measurements(self):
        # every fitted launch within 1% (cycles are integers: a latency moves a chain in steps)
        rows = [line for line in self.report.splitlines() if line.startswith("| micro_")]
        self.assertTrue(rows)
        for line in rows:
            if "micro_sync_32" in line:
                continue
            error = float(line.rstrip(" |").split("|")[-1].strip().rstrip("%"))
            self.assertLess(abs(error), 1.0, line)


if __name__ == "__main__":
    unittest.main()
