# What .ftz does to setp and to cvt from f32 to an integer on the GPU, and what NaN converts
# to: the GPU's side of tests/exec/ftz_semantics_test.cpp and
# Conversions.NotANumberToIntegersOfEachWidth. Pairs of f32 bit patterns: subnormals of both
# signs against each other, zeros, normals and NaN.
# Kernels: validate/kernels/ftz_semantics.cu.
# Usage (on the device): python3 validate/probes/ftz_semantics.py PAIRS.csv NAN.csv
import sys

import cupy as cp
import numpy as np

from on_device import kernel, write_csv

SUBNORMALS = [0x00000001, 0x00400000, 0x007FFFFF, 0x80000001, 0x80400000, 0x807FFFFF]
OTHERS = [0x00000000, 0x80000000, 0x00800000, 0x80800000, 0x3F800000, 0xBF800000, 0x7FC00000]
COLUMNS = ["setp_lt_ftz", "setp_lt", "setp_eq_ftz", "setp_eq", "setp_gtu_ftz", "setp_gtu",
           "cvt_rmi_ftz_s32", "cvt_rmi_s32", "cvt_rpi_ftz_s32", "cvt_rpi_s32", "cvt_rpi_ftz_u32", "cvt_rpi_u32"]


def main():
    pairs = [(s, o) for s in SUBNORMALS for o in SUBNORMALS + OTHERS]
    pairs += [(o, s) for o in OTHERS for s in SUBNORMALS]
    a = cp.asarray(np.array([p[0] for p in pairs], dtype=np.uint32))
    b = cp.asarray(np.array([p[1] for p in pairs], dtype=np.uint32))
    out = cp.zeros(len(pairs) * len(COLUMNS), dtype=cp.uint32)
    n = len(pairs)
    kernel("validate/kernels/ftz_semantics.cu", "ftz_semantics")(((n + 127) // 128,), (128,), (a, b, out, np.int32(n)))
    words = cp.asnumpy(out).reshape(n, len(COLUMNS))
    rows = [(f"0x{x:08X}", f"0x{y:08X}", *(f"0x{int(w):08X}" if c.startswith("cvt") else int(w) for c, w in zip(COLUMNS, r)))
            for (x, y), r in zip(pairs, words)]
    write_csv(sys.argv[1], "python3 validate/probes/ftz_semantics.py (one thread per pair)", ["a", "b", *COLUMNS], rows)
    nan = cp.zeros(8, dtype=cp.uint32)
    kernel("validate/kernels/ftz_semantics.cu", "nan_conversions")((1,), (1,), (nan,))
    names = ["s32_f32", "u32_f32", "s32_f64", "u32_f64", "s64_f32_low", "s64_f32_high", "u64_f64_low", "u64_f64_high"]
    write_csv(sys.argv[2], "python3 validate/probes/ftz_semantics.py (cvt.rzi of NaN, one thread)", ["conversion", "word"],
              [(n, f"0x{int(w):08X}") for n, w in zip(names, cp.asnumpy(nan))])


main()
