"""What the bench scripts that run gpusim share: their common options, and one run's JSON
report with the CPU seconds it took."""
import argparse
import json
import os
import resource
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def parser(doc):
    """An argument parser with --gpusim, --arch and --size (the h100 size by default)."""
    p = argparse.ArgumentParser(description=doc, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--gpusim", default=os.path.join(ROOT, "build", "gpusim"))
    p.add_argument("--arch", default=os.path.join(ROOT, "configs", "hopper.yaml"))
    p.add_argument("--size", default="h100")
    return p


def command(gpusim, arch, workload, size, *flags):
    """gpusim's command line for `workload` on `arch` at `size` ('' for its defaults), with a
    JSON report and `flags` after."""
    return [gpusim, "--arch", arch, "--workload", workload, "--format", "json"] + (["--size", size] if size else []) + \
        list(flags)


def run_json(cmd):
    """gpusim's JSON report of `cmd` (which asks for --format json) and its CPU seconds
    (user + sys); exits with gpusim's error when it fails."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    out = subprocess.run(cmd, capture_output=True, text=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if out.returncode != 0:
        sys.exit(f"{' '.join(cmd)} failed:\n{out.stderr}")
    return json.loads(out.stdout), (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
