# Which short if-then blocks ptxas turns into predicated instructions (issue 13: block_sums is
# -29% in gpusim, whose warps branch around the tree's levels; the SASS has one BRA for 11 PTX
# branches). For each kind of body and each size, a kernel `if (threadIdx.x < lim) { body }`
# followed by a use of the result, and one with the if-then inside a loop; the PTX body is
# counted between the branch and its label, the SASS searched for predicated instructions of
# the body's kind. No GPU time: nvcc and cuobjdump only.
# Usage (where the CUDA toolkit has cuobjdump): python3 validate/probes/if_conversion.py OUT.csv
import csv
import os
import re
import subprocess
import sys
import tempfile

ARCH = "sm_90"
SIZES = list(range(1, 17)) + [20, 24, 32]


def body(kind, n):
    """CUDA statements for a body of about n PTX instructions of one kind."""
    if kind == "alu":  # dependent integer multiply-adds (one mad.lo each)
        return "".join(f"x = x * x + {i + 1};" for i in range(n))
    if kind == "fp32":  # dependent FMAs
        return "".join("f = fmaf(f, f, f);" for i in range(n))
    if kind == "shared":  # volatile loads and stores to the thread's own column (ld, st pairs)
        return "".join(f"vs[t + {256 * (1 + i % 3)}] = vs[t];" for i in range((n + 1) // 2))
    if kind == "global_load":  # independent loads summed (ld + add)
        return "".join(f"x += in[t + {32 * (i + 1)}];" for i in range((n + 1) // 2))
    if kind == "global_store":
        return "".join(f"out[t + {1024 * (i + 1)}] = x + {i};" for i in range(n))
    raise ValueError(kind)


KINDS = ("alu", "fp32", "shared", "global_load", "global_store")


def source():
    kernels = []
    for kind in KINDS:
        for n in SIZES:
            # at the top level, inside a loop (each trip's condition the warp's own), and
            # inside another if-then that stays a branch (it holds a barrier)
            kernels.append(
                f'extern "C" __global__ void {kind}_{n}(const int* in, int* out, float* fout, int lim) {{\n'
                f"  __shared__ int s[1024]; volatile int* vs = s;\n"
                f"  const int t = threadIdx.x; int x = in[t]; float f = fout[t]; s[t] = x;\n"
                f"  if (t < lim) {{ {body(kind, n)} }}\n"
                f"  out[t] = x + vs[t + 256]; fout[t] = f;\n}}\n")
            kernels.append(
                f'extern "C" __global__ void loop_{kind}_{n}(const int* in, int* out, float* fout, int lim) {{\n'
                f"  __shared__ int s[1024]; volatile int* vs = s;\n"
                f"  const int t = threadIdx.x; int x = in[t]; float f = fout[t]; s[t] = x;\n"
                f"#pragma unroll 1\n"
                f"  for (int k = 0; k < lim; ++k)\n"
                f"    if ((k & 7) < (lim >> 3)) {{ {body(kind, n)} }}\n"
                f"  out[t] = x + vs[t + 256]; fout[t] = f;\n}}\n")
    return "".join(kernels)


def ptx_bodies(ptx):
    """PTX instructions in each kernel's if-then: the first forward branch over straight-line code."""
    out = {}
    for m in re.finditer(r"\.entry (\w+)\((.*?)\n\}", ptx, re.S):
        lines = [l.strip() for l in m.group(2).split("\n")]
        lines = [l for l in lines if l and not l.startswith((".loc", "//", ".reg", ".shared", "{", "}", ".pragma"))]
        for i, l in enumerate(lines):
            b = re.match(r"@!?%p\d+ bra(?:\.uni)?\s+(\$\w+);", l)
            if not b:
                continue
            # `@p bra L; body; L:`, or NVVM's `@p bra L1; bra.uni L2; L1: body; L2:`
            u = re.match(r"bra\.uni\s+(\$\w+);", lines[i + 1])
            first, label = (i + 3, u.group(1)) if u and lines[i + 2] == b.group(1) + ":" else (i + 1, b.group(1))
            end = lines.index(label + ":")
            body = lines[first:end]
            if end > first and not any(x.endswith(":") or " bra" in x or x.startswith("bra") for x in body):
                out[m.group(1)] = len(body)
                break
    return out


# The SASS opcode each kind's body is made of: predicated copies mean ptxas predicated it.
BODY_OPCODES = {"alu": ("IMAD",), "fp32": ("FFMA",), "shared": ("LDS", "STS"), "global_load": ("LDG",),
                "global_store": ("STG",)}


def sass_predicated(sass):
    """Per kernel: whether an instruction of its body's kind is guarded by a predicate."""
    out = {}
    for m in re.finditer(r"Function : (\w+)\n(.*?)(?=Function :|\Z)", sass, re.S):
        kind = next(k for k in BODY_OPCODES if m.group(1).removeprefix("loop_").startswith(k))
        ops = "|".join(BODY_OPCODES[kind])
        out[m.group(1)] = int(re.search(r"@!?P\d\s+(?:" + ops + r")\b", m.group(2)) is not None)
    return out


def main():
    with tempfile.TemporaryDirectory() as d:
        cu = os.path.join(d, "hammocks.cu")
        with open(cu, "w") as f:
            f.write(source())
        subprocess.run(["nvcc", "-ptx", "-arch=" + ARCH, "-o", cu[:-3] + ".ptx", cu], check=True)
        subprocess.run(["nvcc", "-cubin", "-arch=" + ARCH, "-o", cu[:-3] + ".cubin", cu], check=True)
        ptx = open(cu[:-3] + ".ptx").read()
        sass = subprocess.run(["cuobjdump", "-sass", cu[:-3] + ".cubin"], check=True,
                              capture_output=True, text=True).stdout
        version = subprocess.run(["nvcc", "--version"], capture_output=True, text=True).stdout.strip().splitlines()[-1]
    bodies, predicated = ptx_bodies(ptx), sass_predicated(sass)
    with open(sys.argv[1], "w", newline="") as f:
        w = csv.writer(f)
        f.write(f"# ptxas if-conversion, {ARCH}, {version}; command: python3 validate/probes/if_conversion.py\n")
        w.writerow(["where", "kind", "size", "ptx_body", "predicated"])
        for where in ("top", "loop"):
            for kind in KINDS:
                for n in SIZES:
                    name = f"{kind}_{n}" if where == "top" else f"loop_{kind}_{n}"
                    w.writerow([where, kind, n, bodies.get(name, ""), predicated.get(name, "")])
                    print(where, kind, n, bodies.get(name), predicated.get(name))


if __name__ == "__main__":
    main()
