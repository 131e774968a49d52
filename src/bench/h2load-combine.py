#!/usr/bin/env python3
# Copyright 2026 The pooledh2 authors. Licensed under the Apache License, version 2.0.
"""Combines the rounds of several h2load.sh runs, per scenario, as h2load.sh sums up one run.

    python3 src/bench/h2load-combine.py FILE...   (h2load.sh output, e.g. a results/h2load-pairs-*.txt file)

Reads every "h2load: SCENARIO round N: pooled P stock S req/s ...; pooled/stock per pair R R ..." line and prints
per scenario: the median of the rounds' req/s per codec and their ratio, the median and the mean of the rounds'
ratios, the mean's standard error (the rounds are the independent draws: a round's pairs share its two JVMs) and
in how many rounds the pooled server led; then over every pair of windows the median and mean ratio, the mean's
standard error and how many pairs the pooled server led. (The pairs' ratios come from the printed two decimals.)
"""
import re
import statistics
import sys

ROUND = re.compile(r"h2load: (\w+) round \d+: pooled ([\d.]+) stock ([\d.]+) req/s.*per pair ([\d. ]+)$")

rounds = {}
for path in sys.argv[1:]:
    for line in open(path):
        match = ROUND.match(line.strip())
        if match:
            scenario = rounds.setdefault(match[1], ([], [], []))
            scenario[0].append(float(match[2]))
            scenario[1].append(float(match[3]))
            scenario[2].extend(float(r) for r in match[4].split())

for name, (pooled, stock, pairs) in rounds.items():
    ratios = [p / s for p, s in zip(pooled, stock)]
    error = statistics.stdev(pairs) / len(pairs) ** 0.5
    # The rounds, not the pairs, are the independent draws: a round's pairs share its two JVMs.
    round_error = statistics.stdev(ratios) / len(ratios) ** 0.5 if len(ratios) > 1 else float("nan")
    print(f"{name}: {len(pooled)} rounds: median pooled {statistics.median(pooled):,.0f} req/s, stock "
          f"{statistics.median(stock):,.0f} req/s, ratio {statistics.median(pooled) / statistics.median(stock):.3f}; "
          f"median of the rounds' ratios {statistics.median(ratios):.3f}, mean {statistics.mean(ratios):.3f} "
          f"(standard error {round_error:.3f}), pooled ahead in {sum(r > 1 for r in ratios)}; "
          f"{len(pairs)} pairs of windows: median {statistics.median(pairs):.3f}, mean {statistics.mean(pairs):.3f} "
          f"(standard error {error:.3f}), pooled ahead in {sum(r > 1 for r in pairs)}")
