#!/usr/bin/python3
"""The source view works for every bundled workload (workloads/*.yaml): each kernel's CUDA
lines are found (line information), its lines' and instructions' executions add up to the
launches' warp instructions, and the hottest line is one with source text.

usage: tests/source_view_every_workload.py GPUSIM ARCH.yaml
"""
import glob
import json
import subprocess
import sys


def main():
    gpusim, arch = sys.argv[1], sys.argv[2]
    failed = 0
    for workload in sorted(glob.glob('workloads/*.yaml')):
        p = subprocess.run([gpusim, '--arch', arch, '--workload', workload, '--source', '--format', 'json'],
                           capture_output=True, text=True)
        if p.returncode != 0:
            print(f'FAILED {workload}: exit {p.returncode}: {p.stderr.strip()}')
            failed += 1
            continue
        report = json.loads(p.stdout)
        problems = []
        for view in report['source']:
            launched = sum(k['warp_instructions'] for k in report['kernels'] if k['name'] == view['kernel'])
            by_line = sum(l['warp_executions'] for l in view['lines'])
            by_instruction = sum(i['warp_executions'] for i in view['instructions'])
            if not view['line_info']:
                problems.append(f"{view['kernel']}: no CUDA line information")
            if not launched == by_line == by_instruction:
                problems.append(f"{view['kernel']}: {launched} warp instructions, {by_line} by line, {by_instruction} by instruction")
            if not view['lines'] or not view['lines'][0]['text']:
                problems.append(f"{view['kernel']}: the hottest line has no source text")
        if not report['source']:
            problems.append('no source view')
        print(('FAILED ' if problems else 'ok     ') + workload + ('' if not problems else ': ' + '; '.join(problems)))
        failed += bool(problems)
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
