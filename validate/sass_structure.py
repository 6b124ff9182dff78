#!/usr/bin/python3
"""How the SASS ptxas makes differs from the PTX gpusim issues, loop by loop.

Reads pairs NAME.ptx / NAME.sass under validate/sass/ (made on a machine whose toolkit has
nvdisasm by validate/dump_sass.sh, with line information) and, for every kernel, finds the
innermost loops of each (a backward branch and the code from its target to it), the global
and shared loads in each, and the source lines of those loads. A PTX loop is matched to the
SASS loops whose loads come from the same source lines; the ratio of their load counts is
ptxas's unroll factor over the PTX. It prints, per kernel: instructions in PTX and SASS, each
PTX loop's loads, the SASS loops it maps to and their factors, and what a block-by-block
mapping would meet (a PTX loop with no SASS loop: unrolled away entirely; one PTX loop to
several SASS loops: remainder loops; wide shared loads that merge PTX loads). Last, the
distribution of the unroll factors, and how many loads each unrolled SASS loop issues before
the first instruction that uses a loaded value (`scheduling.ptxas_hoist_loads`).

Usage: validate/sass_structure.py [--dir validate/sass] [--kernel NAME]
"""
import argparse
import collections
import glob
import os
import re

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def ptx_kernels(text):
    """{entry: [(kind, line, text)]} where kind is 'label', 'insn'; line the CUDA source line."""
    kernels, current, line = {}, None, 0
    for raw in text.splitlines():
        s = raw.strip()
        m = re.match(r"\.(visible\s+)?\.entry\s+(\w+)", s)
        if m:
            current = kernels.setdefault(m.group(2), [])
            continue
        if current is None or not s or s.startswith("//"):
            continue
        m = re.match(r"\.loc\s+\d+\s+(\d+)", s)
        if m:
            line = int(m.group(1))
            continue
        if re.match(r"^\$?[\w$]+:$", s):
            current.append(("label", line, s[:-1]))
        elif re.match(r"^(@!?%\w+\s+)?[a-z]", s) and not s.startswith("."):
            current.append(("insn", line, s))
    return kernels


def sass_kernels(text):
    kernels, current, line = {}, None, 0
    for raw in text.splitlines():
        s = raw.strip()
        m = re.match(r"^([\w$.]+):$", s)
        if m and not m.group(1).startswith("."):
            current = kernels.setdefault(m.group(1), [])
            continue
        if current is None:
            continue
        m = re.match(r'//## File ".*", line (\d+)', s)
        if m:
            line = int(m.group(1))
            continue
        if m := re.match(r"^(\.L_x_\d+):$", s):
            current.append(("label", line, m.group(1)))
        elif m := re.match(r"^/\*[0-9a-f]+\*/\s+(.*?)\s*;", s):
            current.append(("insn", line, m.group(1)))
    return kernels


def is_ptx_load(t):
    op = re.sub(r"^@!?%\w+\s+", "", t).split()[0]
    return op.startswith("ld.") and not op.startswith("ld.param") and not op.startswith("ld.const")


def ptx_branch_target(t):
    m = re.match(r"^(@!?%\w+\s+)?bra(\.uni)?\s+([\w$]+)", t)
    return m.group(3) if m else None


def sass_op(t):
    return re.sub(r"^@!?U?P\w+\s+", "", t).split()[0]


def is_sass_load(t):
    op = sass_op(t)
    return op.split(".")[0] in ("LDG", "LDS", "LD", "LDL")


def sass_branch_target(t):
    m = re.match(r"^(@!?P\w+\s+)?BRA\s+.*`\((\.L_x_\d+)\)", t)
    return m.group(2) if m else None


def loops(body, is_load, target_of):
    """Innermost loops: (start index, end index, [load lines], [load texts])."""
    labels = {text: i for i, (kind, _, text) in enumerate(body) if kind == "label"}
    found = []
    for i, (kind, _, text) in enumerate(body):
        if kind != "insn":
            continue
        target = target_of(text)
        if target in labels and labels[target] < i:
            found.append((labels[target], i))
    inner = [(a, b) for a, b in found if not any(a <= c and d <= b and (c, d) != (a, b) for c, d in found)]
    out = []
    for a, b in inner:
        loads = [(line, text) for kind, line, text in body[a:b + 1] if kind == "insn" and is_load(text)]
        out.append((a, b, [l for l, _ in loads], [t for _, t in loads]))
    return out


def loads_before_first_use(body, a, b):
    """Loads a SASS loop issues before the first instruction that reads a register one wrote,
    and whether a load's address comes from a loaded value (a chase: dependence, not scheduling)."""
    loaded, derived, count, first = set(), set(), 0, None
    for kind, _, text in body[a:b + 1]:
        if kind != "insn":
            continue
        regs = re.findall(r"\bR\d+\b", re.sub(r"^@!?U?P\w+\s+", "", text))
        sources = regs if sass_op(text).startswith("ST") else regs[1:]
        if first is None and any(r in loaded for r in sources):
            first = count
        if is_sass_load(text):
            if any(r in derived for r in sources):
                return count if first is None else first, True
            count += 1
            loaded.update(regs[:1])
            derived.update(regs[:1])
        elif regs and not sass_op(text).startswith("ST"):
            if any(r in derived for r in sources):
                derived.add(regs[0])
            else:  # overwritten from values no load gave
                derived.discard(regs[0])
                loaded.discard(regs[0])
    return count if first is None else first, False


def analyse(name, ptx_body, sass_body):
    p_loops = loops(ptx_body, is_ptx_load, ptx_branch_target)
    s_loops = loops(sass_body, is_sass_load, sass_branch_target)
    rows = []
    for _, _, p_lines, _ in p_loops:
        if not p_lines:
            rows.append((collections.Counter(), [], "no loads"))
            continue
        need = collections.Counter(p_lines)
        # NVVM's remainder loop (the trips its own unrolling left): same lines, fewer loads.
        if any(set(other) == set(p_lines) and len(other) > len(p_lines) for _, _, other, _ in p_loops):
            rows.append((need, [], "NVVM remainder loop"))
            continue
        maps = []
        for _, _, s_lines, s_texts in s_loops:
            have = collections.Counter(s_lines)
            if set(have) != set(need):
                continue
            ratios = {have[k] / need[k] for k in need}
            wide = sum(1 for t in s_texts if re.search(r"\.(64|128)\b", sass_op(t)))
            maps.append((min(ratios), max(ratios), wide))
        uniform = [lo for lo, hi, _ in maps if lo == hi and lo == int(lo)]
        best = max(uniform, default=0)
        if not maps:
            kind = "unrolled away (no SASS loop)"
        elif not uniform:
            kind = "loads merged or split"
        elif best > 1:
            kind = f"unrolled {best:g}x more by ptxas"
        else:
            kind = "one SASS loop per trip"
        rows.append((need, maps, kind))
    return rows


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--dir", default=os.path.join(ROOT, "validate/sass"))
    ap.add_argument("--kernel")
    args = ap.parse_args()
    factors, kinds = collections.Counter(), collections.Counter()
    ahead = []  # per SASS loop of 16 or more global loads: loads issued before the first use
    totals = [0, 0]
    print(f"{'kernel':32} {'PTX':>5} {'SASS':>5}  PTX loop loads -> SASS loops (unroll factor, wide loads): what mapping meets")
    for ptx_path in sorted(glob.glob(os.path.join(args.dir, "*.ptx"))):
        sass_path = ptx_path[:-4] + ".sass"
        if not os.path.exists(sass_path):
            continue
        pk, sk = ptx_kernels(open(ptx_path).read()), sass_kernels(open(sass_path).read())
        for name in sorted(pk):
            if name not in sk or (args.kernel and name != args.kernel):
                continue
            p_n = sum(1 for k, _, _ in pk[name] if k == "insn")
            s_n = sum(1 for k, _, t in sk[name] if k == "insn" and sass_op(t) != "NOP")
            totals[0] += p_n
            totals[1] += s_n
            rows = analyse(name, pk[name], sk[name])
            for a, b, _, texts in loops(sk[name], is_sass_load, sass_branch_target):
                count, chase = loads_before_first_use(sk[name], a, b)
                if not chase and sum(1 for t in texts if sass_op(t).startswith("LDG")) >= 16:
                    ahead.append((count, name))
            desc = []
            for need, maps, kind in rows:
                if kind in ("no loads", "NVVM remainder loop"):
                    continue
                kinds[kind] += 1
                uniform = [lo for lo, hi, _ in maps if lo == hi and lo == int(lo)]
                if uniform:
                    factors[int(max(uniform))] += 1
                shown = ", ".join(f"{lo:g}x" + (f" ({w} wide)" if w else "") for lo, _, w in maps) or "-"
                desc.append(f"{sum(need.values())} -> [{shown}]: {kind}")
            print(f"{name[:32]:32} {p_n:5} {s_n:5}  " + ("; ".join(desc) if desc else "(no loop with loads)"))
    print(f"\ninstructions: PTX {totals[0]}, SASS {totals[1]} (SASS/PTX {totals[1] / max(1, totals[0]):.2f})")
    n = sum(kinds.values())
    print(f"PTX loops with loads (not counting NVVM's remainder loops): {n}")
    for kind, count in sorted(kinds.items()):
        print(f"  {kind:34} {count:4}  ({100 * count / max(1, n):.0f}%)")
    print("largest SASS unroll factor per matched PTX loop: " +
          ", ".join(f"{f}x: {c}" for f, c in sorted(factors.items())))
    counts = sorted(n for n, _ in ahead)
    if counts:
        print(f"SASS loops with 16 or more global loads, chases aside: {len(counts)}; loads issued before the first use of a loaded "
              f"value: min {counts[0]}, median {counts[len(counts) // 2]}, max {counts[-1]} "
              f"({', '.join(f'{name} {n}' for n, name in sorted(ahead, key=lambda x: (x[0], x[1])))})")


if __name__ == "__main__":
    main()
