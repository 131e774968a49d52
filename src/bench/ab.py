#!/usr/bin/env python3
# Copyright 2026 The pooledh2 authors. Licensed under the Apache License, version 2.0.
"""Two builds of the benchmarks jar against each other, in paired rounds: is a change faster than the code before?

    src/bench/ab.py ROUNDS "JMH ARGUMENTS" JAR_A JAR_B

Each round runs one fork of every benchmark the JMH arguments select on each jar, A and B back to back (the order
reversed every other round), and takes each fork's median iteration; the report gives, per parameter set, the
median of A and of B over the rounds, the ratio B/A within each round and the median of those ratios. Build the
two jars from the two commits (`mvn -B -pl jmh -am package -DskipTests`, then copy
jmh/target/benchmarks.jar away), and run nothing else meanwhile. Example, the header change of 7ac25d1:

    src/bench/ab.py 10 "io\\.pooledh2\\.jmh\\.pipeline\\.RequestResponseBenchmark\\. -p headers=10 \\
        -p stack=pooledFrameCodec,pooledListener -wi 3 -w 1s -i 5 -r 1s" before.jar after.jar
"""

import json
import os
import statistics
import subprocess
import sys
import tempfile


def main(argv):
    if len(argv) != 4:
        sys.exit(__doc__)
    rounds, args, jars = int(argv[0]), argv[1].split(), argv[2:]
    scores = {}
    with tempfile.TemporaryDirectory() as work:
        out = os.path.join(work, "round.json")
        for r in range(rounds):
            for jar in (jars if r % 2 == 0 else jars[::-1]):
                subprocess.run(["java", "-jar", jar] + args + ["-f", "1", "-foe", "true", "-rf", "json", "-rff", out],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
                for result in json.load(open(out)):
                    key = ", ".join("%s=%s" % kv for kv in sorted(result.get("params", {}).items()))
                    iterations = [v for fork in result["primaryMetric"]["rawData"] for v in fork]
                    scores.setdefault(key, {}).setdefault(jar, []).append(statistics.median(iterations))
            print("ab: round %d of %d done" % (r + 1, rounds), flush=True)
    for key, by_jar in scores.items():
        a, b = by_jar[jars[0]], by_jar[jars[1]]
        ratios = [y / x for x, y in zip(a, b)]
        print("%s: A %.1f, B %.1f; B/A per round %s; median %.3f" % (
            key or "(no parameters)", statistics.median(a), statistics.median(b),
            " ".join("%.2f" % q for q in ratios), statistics.median(ratios)))


if __name__ == "__main__":
    main(sys.argv[1:])
