"""What calibrate writes: the architecture file (a base file and the values measured, each
commented with its evidence) and the report (each fit, and every measured launch against the
written file)."""
import json
import os


def yaml_value(value):
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(yaml_value(v) for v in value) + "]"
    if isinstance(value, str):
        return json.dumps(value)  # a quoted YAML scalar: "9.0" stays a string
    return repr(value) if isinstance(value, float) else str(value)


def nest(entries, order):
    """[(dotted name, value, comment)] -> lines of YAML, sections in `order`'s order."""
    rank = {name: i for i, name in enumerate(order)}
    entries = sorted(entries, key=lambda e: rank.get(e[0], len(rank)))
    lines, open_path = [], []
    for name, value, comment in entries:
        *path, key = name.split(".")
        common = 0
        while common < min(len(path), len(open_path)) and path[common] == open_path[common]:
            common += 1
        for depth in range(common, len(path)):
            lines.append("  " * depth + path[depth] + ":")
        open_path = path
        text = "  " * len(path) + f"{key}: {value}"
        lines.append(f"{text}  # {comment}" if comment else text)
    return lines


def config(path, base_path, q, stated, results, order):
    where = f"{q['name']}, driver {q.get('driver', '?')}, {q['date']}"
    clock = stated["gpu.core_clock_mhz"][0] if "gpu.core_clock_mhz" in stated else "?"
    stamp = f"{q['name'].replace('NVIDIA ', '')}, driver {q.get('driver', '?')}, {clock} MHz, {q['date'][:10]}"
    entries = [(name, yaml_value(v), f"{src} ({stamp})") for name, (v, src) in stated.items()]
    for r in results:
        if r["fitted"]:
            fit = r["fit"]
            launches = "; ".join(f"{w} #{k} {m} cycles (model {s}, {100 * (s / m - 1):+.1f}%)"
                                 for (w, k), m, s in zip(fit.targets, r["measured"], r["simulated"]))
            text = r["value"] if fit.kind == "choice" else yaml_value(r["value"])  # choices are YAML text
            entries.append((fit.param, text, f"[calibrate] {fit.measures}: {launches} ({stamp})"))
    header = [f"# {q['name']} (compute capability {q['compute_capability']}): written by validate/calibrate, not by hand.",
              f"# Measured {where}, SM clock {stated['gpu.core_clock_mhz'][0] if 'gpu.core_clock_mhz' in stated else '?'} MHz;",
              f"# command: {q.get('command', 'validate/calibrate')}",
              "# Every value below was measured on that GPU: [calibrate] values were fitted by running gpusim on the",
              "# microbenchmark launches named (validate/calibration/fits.py), the others are what the device states.",
              "# What is not here comes from the base file. The fit's report is beside the raw measurements.",
              f"base: {base_path}"]
    with open(path, "w") as f:
        f.write("\n".join(header + nest(entries, order)) + "\n")


def report(path, q, stated, results, check_rows, model_runs, seconds):
    out = [f"# Calibration of {q['name']}", "",
           f"Driver {q.get('driver', '?')}, measured {q['date']}, SM clock measured "
           f"{min(q.get('sm_clock_mhz_measured') or [0]):.0f}-{max(q.get('sm_clock_mhz_measured') or [0]):.0f} MHz; "
           f"measuring took {q.get('measure_seconds', '?')} s, fitting {seconds:.0f} s ({model_runs} gpusim runs).", ""]
    if q.get("failed_workloads"):
        out += ["Microbenchmarks that failed to run: " + "; ".join(f"{k} ({v})" for k, v in q["failed_workloads"].items()), ""]
    out += ["## Fits", "", "| parameter | base | written | launches: measured / model (residual) | values tried | seconds | note |",
            "| --- | --- | --- | --- | --- | --- | --- |"]
    for r in results:
        fit = r["fit"]
        launches = "<br>".join(f"{w} #{k}: {m} / {s} ({100 * (s / m - 1):+.1f}%)" if s else f"{w} #{k}: {m} / failed"
                               for (w, k), m, s in zip(fit.targets, r.get("measured", []), r.get("simulated", [])))
        note = "" if r["fitted"] else "NOT FITTED, base kept: " + r["why"]
        out.append(f"| `{fit.param}` | {r['base']} | {r['value']} | {launches or '-'} | {r.get('tried', '-')} | {r.get('seconds', 0):.0f} | {note} |")
    out += ["", "## Stated by the device", "", "| parameter | value | source |", "| --- | --- | --- |"]
    for name, (v, src) in stated.items():
        shown = v if not isinstance(v, list) or len(v) < 8 else f"[{len(v)} values]"
        out.append(f"| `{name}` | {shown} | {src} |")
    out += ["", "## Every measured launch against the written file", "",
            "| launch | measured cycles | outlier repeats | p10-p90 (us) | model | error |", "| --- | --- | --- | --- | --- | --- |"]
    errors = []
    for r, sim in check_rows:
        m = int(r["cycles"])
        err = f"{100 * (sim / m - 1):+.1f}%" if sim else "failed"
        if sim:
            errors.append(abs(sim / m - 1) * 100)
        out.append(f"| {r['workload']} #{r['launch']} | {m} | {r['outliers']} | {float(r['p10_us']):.2f}-"
                   f"{float(r['p90_us']):.2f} | {sim or '-'} | {err} |")
    if errors:
        ranked = sorted(errors)
        out += ["", f"{len(errors)} launches: mean absolute error {sum(errors) / len(errors):.1f}%, median "
                f"{ranked[len(ranked) // 2]:.1f}%, worst {ranked[-1]:.1f}%."]
    with open(path, "w") as f:
        f.write("\n".join(out) + "\n")
    return errors
