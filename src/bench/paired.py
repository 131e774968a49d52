#!/usr/bin/env python3
# Copyright 2026 The pooledh2 authors. Licensed under the Apache License, version 2.0.
"""The pipeline benchmarks in paired rounds: stock and pooled next to each other in time, many times.

A plain JMH run measures every fork of the stock stack, then every fork of the pooled one; on a shared machine
whose speed drifts by 10-30% from one minute to the next, a slow patch lands on one variant and decides the
ratio. Here each round runs one short fork of every stack of a case, stock and pooled back to back (the order
reversed every other round), and the ratio pooled/stock of the forks' median iterations is taken within the
round. The report gives each round's ratio, their median and range, and the issue's target: 0.95 for
request/response and unary, 1.00 for downloads.

    src/bench/paired.py [--rounds 6] [--warmups 3] [--iterations 5] [--cases rr,unary,download] [--out FILE.md]
    src/bench/paired.py --render FILE.json        (the report again, from the scores a run saved)

With --out the report goes to FILE.md too and every round's ns/op to FILE.json.

The jar is jmh/target/benchmarks.jar (build it with `mvn -pl jmh -am package -DskipTests`). Run nothing else
meanwhile.
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PATHS = ("Listener", "FrameCodec")
PIPELINE = "io\\.pooledh2\\.jmh\\.pipeline\\."

# name: (JMH benchmark, JMH parameters besides the stack, the parameter that tells cases apart, target ratio)
CASES = {
    "rr": ("RequestResponseBenchmark", ["-p", "headers=0,10"], "headers", 0.95),
    "unary": ("UnaryBenchmark", [], None, 0.95),
    "download": ("DownloadBenchmark", [], "frameKiB", 1.00),
}


def stacks(round_index):
    """Every stack, stock and pooled of a path next to each other; reversed every other round."""
    order = [variant + path for path in PATHS for variant in ("stock", "pooled")]
    return order if round_index % 2 == 0 else order[::-1]


def run_round(jar, case, round_index, args, work):
    benchmark, params, case_param, _ = CASES[case]
    out = os.path.join(work, "%s-%d.json" % (case, round_index))
    command = ["java", "-jar", jar, PIPELINE + benchmark + "\\.", "-p", "stack=" + ",".join(stacks(round_index)),
               "-f", "1", "-wi", str(args.warmups), "-w", "1s", "-i", str(args.iterations), "-r", "1s",
               "-foe", "true", "-rf", "json", "-rff", out] + params
    done = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if done.returncode != 0:
        sys.stderr.write(done.stdout[-4000:])
        raise SystemExit("paired: %s failed in round %d" % (benchmark, round_index + 1))
    scores = {}
    for result in json.load(open(out)):
        values = result.get("params", {})
        stack = values["stack"]
        key = values.get(case_param, "") if case_param else ""
        # The median of the fork's iterations: a burst of other work on the host lengthens one iteration, and
        # JMH's score (their mean) takes it in whole.
        iterations = [value for fork in result["primaryMetric"]["rawData"] for value in fork]
        scores.setdefault(key, {})[stack] = statistics.median(iterations)
    return scores


def label(case, key, path):
    what = {"rr": "request/response, %s headers" % key, "unary": "unary 1 KiB",
            "download": "download 1 MiB, %s KiB frames" % key}[case]
    return "%s (%s)" % (what, "listener" if path == "Listener" else "frame codec")


def report(run):
    rounds = run["rounds"]
    lines = []
    lines.append("Paired rounds: %d, each one fork per stack of %d x 1 s warm-up and %d x 1 s measured; "
                 "order reversed every other round; %s; %d min %d s." % (
                     run["count"], run["warmups"], run["iterations"], run["note"], run["elapsed"] // 60,
                     run["elapsed"] % 60))
    lines.append("")
    lines.append("| case | stock ns/op (median of rounds) | pooled ns/op (median of rounds) | ratio per round "
                 "| median ratio | range | target | verdict |")
    lines.append("|---|---:|---:|---|---:|---|---:|---|")
    for case in run["cases"]:
        keys = sorted({key for scores in rounds[case] for key in scores}, key=lambda k: int(k or 0))
        target = CASES[case][3]
        for key in keys:
            for path in PATHS:
                stock = [scores[key]["stock" + path] for scores in rounds[case]]
                pooled = [scores[key]["pooled" + path] for scores in rounds[case]]
                ratios = [p / s for p, s in zip(pooled, stock)]
                median = statistics.median(ratios)
                if max(ratios) <= target:
                    verdict = "met in every round"
                elif median <= target:
                    verdict = "met (median)"
                elif min(ratios) <= target:
                    verdict = "missed (median), met in some rounds"
                else:
                    verdict = "missed in every round"
                name = label(case, key, path)
                lines.append("| %s | %s | %s | %s | %.3f | %.2f-%.2f | %.2f | %s |" % (
                    name, "{:,.0f}".format(statistics.median(stock)), "{:,.0f}".format(statistics.median(pooled)),
                    " ".join("%.2f" % r for r in ratios), median, min(ratios), max(ratios), target, verdict))
    return "\n".join(lines)


def describe():
    """When, where and on what: the date, the commit and the JDK."""
    commit = subprocess.run(["git", "-C", ROOT, "rev-parse", "--short", "HEAD"], stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, text=True).stdout.strip() or "unknown"
    # Tracked files only: results of an earlier run left in the tree are not a change of what is measured.
    dirty = subprocess.run(["git", "-C", ROOT, "status", "--porcelain", "--untracked-files=no"],
                           stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True).stdout.strip()
    java = subprocess.run(["java", "-version"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          text=True).stdout.splitlines()[0]
    return "%s, commit %s%s, %s, %d CPUs" % (time.strftime("%Y-%m-%dT%H:%MZ", time.gmtime()), commit,
                                             " (+local changes)" if dirty else "", java, os.cpu_count())


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--warmups", type=int, default=3)
    parser.add_argument("--iterations", type=int, default=5)
    parser.add_argument("--cases", default="rr,unary,download",
                        help="comma-separated, of: " + ", ".join(CASES))
    parser.add_argument("--jar", default=os.path.join(ROOT, "jmh", "target", "benchmarks.jar"))
    parser.add_argument("--out", help="also write the report to this file, and the scores next to it (.json)")
    parser.add_argument("--render", help="print the report of the scores a run saved, and run nothing")
    args = parser.parse_args(argv)
    if args.render:
        print(report(json.load(open(args.render))))
        return
    args.cases = [c for c in args.cases.split(",") if c]
    for case in args.cases:
        if case not in CASES:
            parser.error("unknown case %r" % case)
    if args.rounds < 1:
        parser.error("--rounds must be at least 1")
    if not os.path.isfile(args.jar):
        parser.error("%s missing: mvn -B -pl jmh -am package -DskipTests" % args.jar)

    start = time.time()
    rounds = {case: [] for case in args.cases}
    with tempfile.TemporaryDirectory() as work:
        for r in range(args.rounds):
            for case in args.cases:
                rounds[case].append(run_round(args.jar, case, r, args, work))
            print("paired: round %d of %d done (%d s)" % (r + 1, args.rounds, time.time() - start), flush=True)
    run = {"count": args.rounds, "warmups": args.warmups, "iterations": args.iterations, "cases": args.cases,
           "note": describe(), "elapsed": int(time.time() - start), "rounds": rounds}
    text = report(run)
    print(text)
    if args.out:
        with open(args.out, "w") as f:
            f.write(text + "\n")
        with open(os.path.splitext(args.out)[0] + ".json", "w") as f:
            json.dump(run, f, indent=1)
            f.write("\n")


if __name__ == "__main__":
    main(sys.argv[1:])
