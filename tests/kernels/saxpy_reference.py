"""Expected output of saxpy for gpusim's check.script: python3 saxpy_reference.py INPUTS OUT.npy.

INPUTS holds each buffer's initial contents as NAME.npy and the workload's parameters as
params.json; the script writes the checked buffer's expected contents to OUT.npy, with the
buffer's dtype (float32 here). The GPU fuses a * x + y into one rounding, NumPy rounds twice,
so the workload allows a relative tolerance of 1e-6.
"""
import json
import sys

import numpy as np

inputs, out = sys.argv[1], sys.argv[2]
n = json.load(open(f"{inputs}/params.json"))["n"]
x = np.load(f"{inputs}/x.npy")
y = np.load(f"{inputs}/y.npy")
np.save(out, (np.float32(2.5) * x[:n] + y[:n]).astype(np.float32))
