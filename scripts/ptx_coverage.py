#!/usr/bin/python3
"""PTX coverage over a public CUDA suite: which kernels gpusim can run, and why not.

Extracts the suite's .cu files from a git checkout or mirror at run time (nothing of it is
committed), compiles each with the toolkit's nvcc to PTX (compute_90, -lineinfo, the suite's
include folders), lists every kernel with `gpusim kernels`, and writes a Markdown table per
file plus a ranking of the reasons kernels cannot run.

Usage: scripts/ptx_coverage.py --repo /path/to/repo.git --name cuda-samples --out docs/coverage/cuda-samples.md
       [--gpusim build/gpusim] [--arch 90] [--include DIR ...] [--glob 'Samples/*'] [--define N=V ...] [--generated-header 'config.h=TEXT']
"""
import argparse
import collections
import fnmatch
import json
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
NVCC = os.path.join(os.environ.get("CUDA_HOME", "/usr/local/cuda"), "bin", "nvcc")


def extract(repo, folder):
    """The suite's sources at HEAD into `folder`: the files nvcc may read (a mirror may lack
    its largest files, so only these are taken, one by one)."""
    git = ["git", "--git-dir", repo]
    listing = subprocess.run(git + ["ls-tree", "-r", "HEAD"], capture_output=True, text=True, check=True).stdout
    for line in listing.splitlines():
        meta, path = line.split("\t", 1)
        if not path.endswith((".cu", ".cuh", ".h", ".hpp", ".inl", ".c", ".cpp")):
            continue
        blob = subprocess.run(git + ["cat-file", "blob", meta.split()[2]], capture_output=True)
        if blob.returncode != 0:
            continue
        os.makedirs(os.path.join(folder, os.path.dirname(path)), exist_ok=True)
        with open(os.path.join(folder, path), "wb") as f:
            f.write(blob.stdout)
    return subprocess.run(git + ["rev-parse", "HEAD"], capture_output=True, text=True, check=True).stdout.strip()


def reason_kind(reason):
    """A short class of an unsupported reason, for the ranking."""
    m = re.search(r"unknown instruction '([^']+)'", reason)
    if m:
        return f"instruction {m.group(1)}"
    m = re.search(r"modifier '([^']+)' of '([^']+)'", reason)
    if m:
        return f"{m.group(2)}{m.group(1)}"
    m = re.search(r"call to (\S+), which", reason)
    if m:
        return f"call to {m.group(1).rstrip(',')}"
    if "indirect call" in reason:
        return "indirect call (function pointer)"
    m = re.search(r": ([^:]+): not supported$", reason)
    return m.group(1) if m else reason.split(": ")[-1][:60]


def smoke_kind(run):
    """A short class of why a smoke run stopped."""
    if run["status"] == "budget":
        return "instruction budget (a loop the made-up inputs do not end)"
    m = re.search(r"\): (.*)$", run["detail"])
    what = m.group(1) if m else run["detail"]
    what = re.sub(r"0x[0-9a-f]+", "ADDR", what)
    what = re.sub(r"\d+", "N", what)
    return what[:80]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repo", required=True, help="git directory of the suite (a mirror or .git)")
    ap.add_argument("--name", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--gpusim", default=os.path.join(ROOT, "build/gpusim"))
    ap.add_argument("--arch", default="90")
    ap.add_argument("--include", nargs="*", default=[], help="include folders, relative to the suite")
    ap.add_argument("--glob", default="*", help="only .cu files whose path matches")
    ap.add_argument("--define", nargs="*", default=[], metavar="NAME=VALUE",
                    help="macros for nvcc (e.g. APIs CUDA has removed: cudaThreadSynchronize=cudaDeviceSynchronize)")
    ap.add_argument("--generated-header", nargs="*", default=[], metavar="NAME=TEXT",
                    help="a header the suite's build generates (SHOC's config.h), with this text ('\\n': new line)")
    args = ap.parse_args()
    rows, kinds, smoke_kinds = [], collections.Counter(), collections.Counter()
    totals = collections.Counter()
    with tempfile.TemporaryDirectory() as tmp:
        src = os.path.join(tmp, "src")
        os.makedirs(src)
        commit = extract(args.repo, src)
        sources = sorted(os.path.relpath(os.path.join(d, f), src) for d, _, fs in os.walk(src) for f in fs
                         if f.endswith(".cu") and fnmatch.fnmatch(os.path.relpath(os.path.join(d, f), src), args.glob))
        includes = [f"-I{os.path.join(src, i)}" for i in args.include] + [f"-D{d}" for d in args.define]
        if args.generated_header:
            generated = os.path.join(tmp, "generated")
            os.makedirs(generated)
            for spec in args.generated_header:
                name, _, text = spec.partition("=")
                os.makedirs(os.path.dirname(os.path.join(generated, name)), exist_ok=True)
                with open(os.path.join(generated, name), "w") as f:
                    f.write(text.replace("\\n", "\n") + "\n")
            includes.append(f"-I{generated}")
        for rel in sources:
            path = os.path.join(src, rel)
            ptx = os.path.join(tmp, "k.ptx")
            done = subprocess.run([NVCC, "-ptx", "-O3", "-lineinfo", f"-arch=compute_{args.arch}", *includes,
                                   "-I", os.path.dirname(path), path, "-o", ptx], capture_output=True, text=True)
            totals["files"] += 1
            if done.returncode != 0:
                first = next((l for l in done.stderr.splitlines() if "error" in l), done.stderr.strip()[:120])
                rows.append((rel, "does not compile", "", first.replace(src + "/", "")[:160]))
                totals["files not compiling"] += 1
                continue
            listed = subprocess.run([args.gpusim, "kernels", "--ptx", ptx, "--format", "json", "--smoke-run"],
                                    capture_output=True, text=True)
            if listed.returncode != 0:
                rows.append((rel, "parse error", "", listed.stderr.strip().replace(ptx, "PTX")[:200]))
                totals["files not parsing"] += 1
                continue
            kernels = json.loads(listed.stdout)
            if not kernels:
                continue  # host code only
            ok = [k for k in kernels if k["supported"]]
            totals["kernels"] += len(kernels)
            totals["kernels supported"] += len(ok)
            for k in kernels:
                if not k["supported"]:
                    kinds[reason_kind(k["reason"])] += 1
            ran = [k for k in ok if k["smoke_run"]["status"] == "ran"]
            totals["kernels ran"] += len(ran)
            for k in ok:
                if k["smoke_run"]["status"] != "ran":
                    smoke_kinds[smoke_kind(k["smoke_run"])] += 1
            bad = [k for k in kernels if not k["supported"]]
            failed = [k for k in ok if k["smoke_run"]["status"] != "ran"]
            note = "; ".join(sorted({reason_kind(k["reason"]) for k in bad} |
                                    {"smoke run: " + smoke_kind(k["smoke_run"]) for k in failed}))
            rows.append((rel, f"{len(ok)} of {len(kernels)} parse, {len(ran)} ran",
                         ", ".join(k["kernel"] for k in bad + failed)[:120], note))
    with open(args.out, "w") as f:
        f.write(f"# PTX coverage: {args.name}\n\n")
        f.write(f"Generated by `scripts/ptx_coverage.py --repo ... --name {args.name}` from commit `{commit[:12]}` "
                f"(compute_{args.arch}, the toolkit's nvcc; the suite's code is not in this repository).\n\n")
        f.write(f"{totals['files']} .cu files: {totals['files not compiling']} do not compile as single files "
                f"(they need the suite's build: other headers, -rdc, libraries); "
                f"{totals['kernels']} kernels in the rest, **{totals['kernels supported']} parse and can run** "
                f"({100 * totals['kernels supported'] / max(1, totals['kernels']):.0f}%), and "
                f"**{totals['kernels ran']} of those ran** in a smoke run (`gpusim kernels --smoke-run`: one launch of "
                f"2 x 64 threads, every pointer a zeroed 1 MB buffer, 32-bit scalars 64, out-of-bounds accesses "
                f"counted, not fatal, at most 2 M warp instructions).\n\n")
        f.write("Why the others cannot (kernels per reason; the first unsupported feature of each):\n\n")
        f.write("| reason | kernels |\n| --- | --- |\n")
        for kind, n in kinds.most_common():
            f.write(f"| {kind} | {n} |\n")
        if smoke_kinds:
            f.write("\nKernels that parse but whose smoke run stopped (made-up inputs: a fault may be the inputs'):\n\n")
            f.write("| why | kernels |\n| --- | --- |\n")
            for kind, n in smoke_kinds.most_common():
                f.write(f"| {kind} | {n} |\n")
        f.write("\n| file | status | kernels that cannot run, or whose smoke run stopped | why |\n"
                "| --- | --- | --- | --- |\n")
        for rel, status, names, why in rows:
            f.write(f"| `{rel}` | {status} | {names} | {why.replace('|', '/')} |\n")
    print(f"{args.name}: {totals['kernels supported']} of {totals['kernels']} kernels supported; "
          f"{totals['files not compiling']} of {totals['files']} files do not compile alone -> {args.out}")
    for kind, n in kinds.most_common(12):
        print(f"  {n:4d}  {kind}")


if __name__ == "__main__":
    sys.exit(main())
