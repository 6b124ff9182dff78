#!/usr/bin/env python3
"""Plots a study's results, for each metric: the normalised response to each factor with
one line (or bar group) per architecture x workload context; per context with two or more
factors, a tornado chart of the factors' swings with their elasticities and a heatmap for
each pair of factors varied as a grid. The numbers come from `gpusim results DB --format
json`, so the plots show exactly what the "what matters" tables say. Writes PNG and SVG.

    scripts/plot_study.py latency_hiding.db --out docs/studies [--metric cycles] [--gpusim build/gpusim]
"""
import argparse
import json
import os
import re
import subprocess
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402


def slug(text):
    return re.sub(r"[^A-Za-z0-9]+", "_", text).strip("_").lower()


FORMATS = ("png", "svg")


def save(fig, out_dir, name, written):
    for ext in FORMATS:
        path = os.path.join(out_dir, f"{name}.{ext}")
        fig.savefig(path, dpi=110, bbox_inches="tight")
        written.append(path)
    plt.close(fig)


def is_geometric(numbers):
    positive = [n for n in numbers if n is not None and n > 0]
    return len(positive) == len(numbers) and len(positive) >= 3 and max(positive) / min(positive) >= 8


def context_label(ctx):
    arch = os.path.splitext(os.path.basename(ctx["arch_file"]))[0]
    return f"{ctx['workload']} on {arch}"


def plot_factor(study, metric, factor, contexts, out_dir, written):
    """One factor's normalised response, a line (or bar group) per context."""
    series = []
    for ctx in contexts:
        for e in ctx["metrics"][metric]["effects"]:
            if e["factor"] == factor and len(e["response"]) >= 2:
                series.append((ctx, e))
    if not series:
        return
    fig, ax = plt.subplots(figsize=(6.4, 3.8))
    numeric = all(e["numeric"] for _, e in series)
    if numeric:
        for ctx, e in series:
            xs = [r["number"] for r in e["response"]]
            label = context_label(ctx)
            if e["elasticity"] is not None:
                label += f" (e={e['elasticity']:+.2f})"
            ax.plot(xs, [r["normalised"] for r in e["response"]], marker="o", label=label)
            if is_geometric(xs):
                ax.set_xscale("log", base=2)
        ax.set_xlabel(factor)
    else:
        values = []
        for _, e in series:
            for r in e["response"]:
                if r["value"] not in values:
                    values.append(r["value"])
        width = 0.8 / len(values)
        for i, value in enumerate(values):
            ys = []
            for _, e in series:
                match = [r["normalised"] for r in e["response"] if r["value"] == value]
                ys.append(match[0] if match else np.nan)
            ax.bar(np.arange(len(series)) + (i - (len(values) - 1) / 2) * width, ys, width, label=value)
        ax.set_xticks(range(len(series)), [context_label(c) for c, _ in series], rotation=30, ha="right", fontsize=8)
        finite = [r["normalised"] for _, e in series for r in e["response"] if r["normalised"] is not None]
        if finite:  # small differences stay visible: the axis spans the data, not 0..max
            lo, hi = min(finite), max(finite)
            pad = max(0.02, 0.1 * (hi - lo))
            ax.set_ylim(max(0.0, lo - pad), hi + pad)
        ax.set_xlabel(factor)
    ax.axhline(1.0, color="grey", linewidth=0.8)
    ax.set_ylabel(f"{metric} / baseline")
    ax.grid(alpha=0.3)
    ax.legend(fontsize=7)
    ax.set_title(f"{study}: {metric} against {factor}", fontsize=10)
    fig.tight_layout()
    save(fig, out_dir, slug(f"{study}-{metric}-{factor}"), written)


def plot_tornado(ctx, metric, m, out_dir, name, written):
    effects = [e for e in m["effects"] if e["method"]]
    if not effects:
        return
    effects = list(reversed(effects))  # largest swing on top
    fig, ax = plt.subplots(figsize=(7, 0.5 * len(effects) + 1.4))
    for i, e in enumerate(effects):
        ax.barh(i, e["high"] - 1.0, left=1.0, color="tab:red", alpha=0.8)
        ax.barh(i, e["low"] - 1.0, left=1.0, color="tab:blue", alpha=0.8)
        label = f"{e['swing']:.2f}x"
        if e["elasticity"] is not None:
            label += f", e={e['elasticity']:+.2f}"
        ax.text(max(e["high"], 1.0), i, " " + label, va="center", fontsize=8)
    ax.set_yticks(range(len(effects)), [e["factor"] for e in effects], fontsize=8)
    ax.axvline(1.0, color="black", linewidth=0.8)
    ax.set_xscale("log")
    ax.set_xlabel(f"{metric} / baseline (lowest and highest over each factor's values)")
    ax.set_title(f"What matters for {metric}: {ctx['workload']} on {ctx['arch']}", fontsize=10)
    fig.tight_layout()
    save(fig, out_dir, f"{name}-tornado", written)


def plot_pairs(ctx, metric, m, out_dir, name, written):
    for p in m["pairs"]:
        grid = np.array([[np.nan if v is None else v for v in row] for row in p["normalised"]])
        fig, ax = plt.subplots(figsize=(1.0 + 0.7 * len(p["b_values"]), 1.0 + 0.5 * len(p["a_values"])))
        im = ax.imshow(grid, cmap="viridis", aspect="auto", origin="lower")
        ax.set_xticks(range(len(p["b_values"])), p["b_values"], rotation=30, fontsize=8)
        ax.set_yticks(range(len(p["a_values"])), p["a_values"], fontsize=8)
        ax.set_xlabel(p["b"])
        ax.set_ylabel(p["a"])
        for i in range(grid.shape[0]):
            for j in range(grid.shape[1]):
                if not np.isnan(grid[i, j]):
                    ax.text(j, i, f"{grid[i, j]:.2f}", ha="center", va="center", fontsize=7, color="white")
        fig.colorbar(im, ax=ax, label=f"{metric} / baseline")
        ax.set_title(f"{ctx['workload']} on {ctx['arch']}", fontsize=9)
        fig.tight_layout()
        save(fig, out_dir, f"{name}-{slug(p['a'])}-x-{slug(p['b'])}", written)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("db", help="a results database written by gpusim sweep")
    ap.add_argument("--out", default=".", help="folder for the PNG and SVG files")
    ap.add_argument("--metric", action="append", help="metric to plot (default: the study's metrics)")
    ap.add_argument("--study", help="only this study's points")
    ap.add_argument("--formats", default="png,svg", help="image formats to write (default png,svg)")
    ap.add_argument("--gpusim", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "build", "gpusim"))
    args = ap.parse_args()
    global FORMATS
    FORMATS = tuple(f for f in args.formats.split(",") if f)
    cmd = [args.gpusim, "results", args.db, "--format", "json"]
    for m in args.metric or []:
        cmd += ["--metric", m]
    if args.study:
        cmd += ["--study", args.study]
    try:
        done = subprocess.run(cmd, capture_output=True, text=True, check=False)
    except OSError as e:
        sys.exit(f"plot_study: cannot run {args.gpusim}: {e} (build it, or pass --gpusim)")
    if done.returncode != 0:
        sys.exit(f"plot_study: {done.stderr.strip()}")
    analysis = json.loads(done.stdout)
    os.makedirs(args.out, exist_ok=True)
    written = []
    studies = {}
    for ctx in analysis["contexts"]:
        studies.setdefault(ctx["study"], []).append(ctx)
    for study, contexts in studies.items():
        for metric in contexts[0]["metrics"]:
            for factor in contexts[0]["factors"]:
                plot_factor(study, metric, factor, contexts, args.out, written)
            for ctx in contexts:
                m = ctx["metrics"][metric]
                if len(ctx["factors"]) < 2:
                    continue
                arch = os.path.splitext(os.path.basename(ctx["arch_file"]))[0]
                name = slug(f"{study}-{ctx['workload']}-{arch}-{metric}")
                plot_tornado(ctx, metric, m, args.out, name, written)
                plot_pairs(ctx, metric, m, args.out, name, written)
    for path in written:
        print(path)
    if not written:
        sys.exit("plot_study: nothing to plot (no finished points with two or more values of a factor)")


if __name__ == "__main__":
    main()
