#!/usr/bin/env python3
"""Sums a JMH perfasm output's events on serializing instructions: each lock-prefixed instruction and the one after
it, where a cpu-clock sample of a slow instruction lands. 'lock add [rsp...], 0' is a StoreLoad fence (in G1's
post-write barrier, for a reference stored into an old object from another region); other lock-prefixed
instructions are atomic read-modify-writes. Run perfasm with printMargin >= 1 so that each instruction before a
sampled one is printed.

    src/bench/hsdis/serializing.py PERFASM_OUTPUT
"""
import re
import sys

INSN = re.compile(r'(0x[0-9a-f]+):\s+([a-z].*)')
PREFIX = re.compile(r'[\s\d.%│↗↘╭╰]*')
PERCENT = re.compile(r'(\d+\.\d+)%')


def main(path):
    insns = []
    for line in open(path, encoding='utf-8'):
        m = INSN.search(line)
        if m and PREFIX.fullmatch(line, 0, m.start()):
            percent = PERCENT.search(line, 0, m.start())
            insns.append((int(m.group(1), 16), float(percent.group(1)) if percent else 0.0,
                          m.group(2).split(';')[0].strip()))
    seen = set()
    sums = {'atomic': [0, 0.0], 'fence': [0, 0.0]}
    for i, (addr, pct, text) in enumerate(insns):
        if not text.startswith('lock ') or addr in seen:
            continue
        seen.add(addr)
        kind = 'fence' if re.match(r'lock add\s+dword ptr \[rsp', text) else 'atomic'
        after = insns[i + 1][1] if i + 1 < len(insns) else 0.0
        sums[kind][0] += 1
        sums[kind][1] += pct + after
    total = sum(p for _, p, _ in insns)
    print('%s: events shown %.1f%%; atomics: %d instructions, %.1f%% of events; fences: %d, %.1f%%'
          % (path, total, sums['atomic'][0], sums['atomic'][1], sums['fence'][0], sums['fence'][1]))


if __name__ == '__main__':
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])
