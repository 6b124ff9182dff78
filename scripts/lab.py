#!/usr/bin/python3
"""Runs a course lab (docs/labs/NN-name/lab.yaml) end to end and checks its observations.

Each lab lists the gpusim commands its text tells students to run (`runs`, exactly as the
text prints them), the observations students should make from their numbers (`observations`:
a claim and a Python expression over the runs' JSON reports), and the plots it draws
(`plots`). This script runs every command with --format json, evaluates every observation,
prints each with its numbers, draws the plots and exits 0 only when all hold: CI runs it for
every lab, so the labs stay true as the model changes.

Grading: --kernel FILE replaces the lab's starter kernel by a student's (every workload that
uses the starter is copied with its kernel source pointing at FILE); --set K=V adds a --set to
every simulation (e.g. a student's scheduler plug-in: --set scheduling.policy=mine); --expect
FILE checks a TA's own observations (the same format) instead of the lab's. Exit status: 0 when
every observation holds, 3 when one does not, 1 when a run or the lab file fails.

usage: scripts/lab.py docs/labs/03-coalescing/lab.yaml [--gpusim build/gpusim] [--out DIR]
                      [--kernel FILE] [--set K=V]... [--expect FILE] [--no-plots]
"""
import argparse
import json
import os
import shlex
import subprocess
import sys
import tempfile

import yaml

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


class View:
    """A JSON report read with attributes: run.k.cycles, run.kernels[1].ipc, run.points[0].occupancy."""

    def __init__(self, value):
        self._v = value

    def __getattr__(self, name):
        if name == 'k':  # the first kernel of a run report
            return View(self._v['kernels'][0])
        if isinstance(self._v, dict) and name in self._v:
            return wrap(self._v[name])
        raise AttributeError(f"no field '{name}' (fields: {', '.join(sorted(self._v)) if isinstance(self._v, dict) else '-'})")

    def __getitem__(self, key):
        return wrap(self._v[key])

    def __len__(self):
        return len(self._v)

    def __iter__(self):
        return (wrap(v) for v in self._v)

    def at_line(self, number):
        """The source view's row for CUDA line `number` (run.source[0].at_line(13))."""
        for row in self._v['lines']:
            if row['line'] == number:
                return View(row)
        raise KeyError(f'no line {number} in the source view')

    def state(self, name):
        """Warp cycles in a warp state (0 when none), for a source-view row or total."""
        return self._v.get('warp_states', {}).get(name, 0)

    def share(self, name):
        """A warp state's share of the row's warp cycles."""
        total = self._v.get('warp_cycles', 0)
        return self.state(name) / total if total else 0.0


def wrap(v):
    return View(v) if isinstance(v, (dict, list)) else v


def load_lab(path):
    try:
        with open(path) as f:
            lab = yaml.safe_load(f)
    except (OSError, yaml.YAMLError) as e:
        sys.exit(f'{path}: {e}')
    for key in ('title', 'runs', 'observations'):
        if key not in lab:
            sys.exit(f'{path}: missing `{key}`')
    return lab


def student_workload(workload, starter, kernel, tmp):
    """A copy of `workload` whose kernel is `kernel` where it was `starter`, else None."""
    with open(workload) as f:
        doc = yaml.safe_load(f)
    source = doc.get('kernel', {}).get('source', '')
    here = os.path.dirname(os.path.abspath(workload))
    if not source or os.path.realpath(os.path.join(here, source)) != os.path.realpath(starter):
        return None
    doc['kernel']['source'] = os.path.abspath(kernel)
    doc['kernel'].pop('ptx', None)
    out = os.path.join(tmp, os.path.basename(workload))
    with open(out, 'w') as f:
        yaml.safe_dump(doc, f, sort_keys=False)
    return out


def command(cmd, args, lab, tmp):
    """The lab's command as argv: our gpusim, JSON output, the student's kernel and sets."""
    argv = shlex.split(cmd)
    if argv[0] != './build/gpusim':
        sys.exit(f'lab command does not start with ./build/gpusim: {cmd}')
    argv[0] = args.gpusim
    simulates = len(argv) < 2 or argv[1] not in ('occupancy', 'params')
    if args.kernel and '--workload' in argv:
        i = argv.index('--workload') + 1
        replaced = student_workload(os.path.join(REPO, argv[i]), os.path.join(REPO, lab['starter']), args.kernel, tmp)
        if replaced:
            argv[i] = replaced
    if simulates:
        for s in args.set:
            argv += ['--set', s]
    if '--trace' in argv:  # written to the run's own folder, read by `timeline` plots
        i = argv.index('--trace') + 1
        argv[i] = os.path.join(tmp, os.path.basename(argv[i]))
    return argv + ['--format', 'json']


def run_all(lab, args, tmp):
    reports = {}
    for name, cmd in lab['runs'].items():
        argv = command(cmd, args, lab, tmp)
        p = subprocess.run(argv, cwd=REPO, capture_output=True, text=True)
        if p.returncode != 0:
            sys.exit(f'run {name} failed ({p.returncode}): {" ".join(argv)}\n{p.stderr.strip()}')
        reports[name] = json.loads(p.stdout)
        if '--trace' in argv:
            with open(argv[argv.index('--trace') + 1]) as f:
                reports[name]['trace'] = json.load(f)
    return reports


BUILTINS = {'abs': abs, 'View': View, 'min': min, 'max': max, 'sum': sum, 'len': len, 'all': all, 'any': any, 'range': range,
            'round': round, 'sorted': sorted, 'zip': zip, 'set': set}


def evaluate(expr, env):
    # The runs as globals, so that comprehensions in an expression see them too.
    return eval(expr, {'__builtins__': BUILTINS, **env})


def check(observations, env):
    failed = 0
    for o in observations:
        try:
            ok = bool(evaluate(o['check'], env))
            shown = ', '.join(f'{label} = {fmt(evaluate(e, env))}' for label, e in (o.get('show') or {}).items())
        except Exception as e:  # a broken expression is a failed observation, with why
            ok, shown = False, f'error: {e}'
        failed += not ok
        print(f"  [{'ok' if ok else 'FAILED'}] {o['claim']}" + (f'\n         ({shown})' if shown else ''))
        if not ok:
            print(f"         check: {o['check']}")
    return failed


def fmt(v):
    return f'{v:.4g}' if isinstance(v, float) else str(v)


def plot(lab, env, reports, out):
    import matplotlib
    matplotlib.use('Agg')
    import matplotlib.pyplot as plt
    written = []
    for p in lab.get('plots', []):
        fig, ax = plt.subplots(figsize=(7, 4))
        if p['kind'] == 'bar':
            labels = list(p['bars'])
            ax.bar(labels, [evaluate(e, env) for e in p['bars'].values()], color='#4477aa')
        elif p['kind'] == 'line':
            xs = evaluate(p['x'], env)
            for name, e in p['series'].items():
                ax.plot(xs, evaluate(e, env), marker='o', label=name)
            ax.legend()
            if p.get('logx'):
                ax.set_xscale('log', base=2)
        elif p['kind'] == 'source':  # warp states per CUDA line, stacked, hottest lines
            view = reports[p['run']]['source'][0]
            rows = [r for r in view['lines'] if r['warp_cycles'] > 0][:p.get('top', 8)]
            states = sorted({s for r in rows for s in r['warp_states']},
                            key=lambda s: -sum(r['warp_states'].get(s, 0) for r in rows))
            bottom = [0.0] * len(rows)
            total = view['total']['warp_cycles']
            colours = plt.get_cmap('tab20').colors  # one colour per state (up to 13 occur)
            for i, s in enumerate(states):
                vals = [100.0 * r['warp_states'].get(s, 0) / total for r in rows]
                ax.barh([f"line {r['line']}" for r in rows], vals, left=bottom, label=s, color=colours[i % len(colours)])
                bottom = [b + v for b, v in zip(bottom, vals)]
            ax.invert_yaxis()
            ax.legend(fontsize=8)
            p.setdefault('xlabel', '% of the kernel\'s warp cycles')
        elif p['kind'] == 'timeline':  # blocks on the first SMs' block slots, from a --trace run
            events = reports[p['run']]['trace']['traceEvents']
            sms = p.get('sms', 8)
            pids = {e['pid']: e['args']['name'] for e in events if e['ph'] == 'M' and e['name'] == 'process_name'}
            rows = {}
            for e in events:
                name = pids.get(e['pid'], '')
                if e['ph'] != 'X' or not name.startswith('SM ') or int(name[3:]) >= sms or e['tid'] >= 1000:
                    continue
                rows.setdefault((int(name[3:]), e['tid']), []).append((e['ts'], e['dur'], e['args'].get('block', 0)))
            keys = sorted(rows)
            colours = plt.get_cmap('tab20').colors
            for y, key in enumerate(keys):
                ax.broken_barh([(ts, dur) for ts, dur, _ in rows[key]], (y - 0.4, 0.8),
                               facecolors=[colours[b % len(colours)] for _, _, b in rows[key]], edgecolor='white', linewidth=0.3)
            ax.set_yticks(range(len(keys)), [f'SM {sm} slot {slot}' for sm, slot in keys], fontsize=6)
            ax.invert_yaxis()
            p.setdefault('xlabel', 'microseconds')
        else:
            sys.exit(f"unknown plot kind {p['kind']}")
        ax.set_title(p.get('title', ''))
        ax.set_xlabel(p.get('xlabel', ''))
        ax.set_ylabel(p.get('ylabel', ''))
        fig.tight_layout()
        path = os.path.join(out, p['file'])
        fig.savefig(path, dpi=90)
        plt.close(fig)
        written.append(path)
    return written


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('lab')
    ap.add_argument('--gpusim', default=os.path.join(REPO, 'build', 'gpusim'))
    ap.add_argument('--out', help='folder for the plots (default: beside lab.yaml)')
    ap.add_argument('--kernel', help="a student's version of the lab's starter kernel")
    ap.add_argument('--set', action='append', default=[], help='K=V added to every simulation')
    ap.add_argument('--expect', help="a TA's observations (YAML list) to check instead of the lab's")
    ap.add_argument('--no-plots', action='store_true')
    ap.add_argument('--check-readme', action='store_true',
                    help="also check that the lab's README.md shows every command exactly as the lab runs it")
    args = ap.parse_args()
    args.gpusim = os.path.abspath(args.gpusim)
    lab = load_lab(args.lab)
    if args.kernel and 'starter' not in lab:
        sys.exit(f'{args.lab}: this lab names no starter kernel to replace')
    with tempfile.TemporaryDirectory() as tmp:
        reports = run_all(lab, args, tmp)
    env = {name: View(r) for name, r in reports.items()}
    for name, expr in (lab.get('values') or {}).items():  # named numbers the observations share
        env[name] = evaluate(expr, env)
    observations = lab['observations']
    if args.expect:
        with open(args.expect) as f:
            observations = yaml.safe_load(f)
    print(f"{lab['title']}: {len(lab['runs'])} runs")
    if args.check_readme:
        readme = os.path.join(os.path.dirname(os.path.abspath(args.lab)), 'README.md')
        with open(readme) as f:
            text = f.read()
        missing = [c for c in lab['runs'].values() if c not in text]
        for c in missing:
            print(f'  [FAILED] {readme} does not show the command: {c}')
        if missing:
            return 3
    failed = check(observations, env)
    if not args.no_plots:
        out = args.out or os.path.dirname(os.path.abspath(args.lab))
        os.makedirs(out, exist_ok=True)
        for path in plot(lab, env, reports, out):
            print(f'  plot: {os.path.relpath(path)}')
    print(f'{len(observations) - failed} of {len(observations)} observations hold')
    return 3 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
