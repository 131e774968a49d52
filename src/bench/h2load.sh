#!/usr/bin/env bash
# Copyright 2026 The pooledh2 authors. Licensed under the Apache License, version 2.0.
#
# The example server under h2load, pooled codec against Netty's (--stock), in alternating rounds.
#
#   src/bench/h2load.sh [ROUNDS]          (default 5 rounds per codec and scenario)
#
# Each round starts a fresh server JVM for each codec (the order alternates between rounds), warms it up on
# fresh connections (WARMUPS runs of WARMUP_SECONDS, each h2load run opening new connections), then measures
# one run of MEASURED_SECONDS. Scenarios: GET /hello (1 KiB answer) and POST /echo with a 16 KiB body. Prints every
# round, each codec's median req/s, the ratio pooled/stock of the medians and each codec's spread
# ((max - min) / median); a difference smaller than the spread is reported as within noise. It also prints the
# ratio within each round (the two servers measured back to back) and the median of those.
#
# Environment: MEASURED_SECONDS (10; not SECONDS, which is bash's own clock), WARMUPS (6), WARMUP_SECONDS (5), H2LOAD_ARGS ("-c 4 -m 100 -t 1"),
# SERVER_JVM_ARGS (-Xms1g -Xmx1g -XX:+UseG1GC), PIPELINE (the server's --pipeline; default its own),
# SERVER_ARGS (more server options for both codecs, e.g. "--threads 1"), SCENARIOS ("hello echo"),
# SERVER_CPUS and H2LOAD_CPUS (taskset CPU lists, e.g. 1 and 0: each process on a core of its own instead of both
# sharing the two), SKIP_BUILD=1 to reuse the server jar. Installs h2load from Debian's nghttp2-client when it is
# missing.
# Run nothing else meanwhile: the machine has 2 cores and the server and h2load share them.
set -euo pipefail

rounds=${1:-5}
seconds=${MEASURED_SECONDS:-10}
warmups=${WARMUPS:-6}
warmup_seconds=${WARMUP_SECONDS:-5}
h2load_args=${H2LOAD_ARGS:--c 4 -m 100 -t 1}
server_jvm_args=${SERVER_JVM_ARGS:--Xms1g -Xmx1g -XX:+UseG1GC}

bench_name=h2load
# shellcheck source=server-lib.sh
. "$(dirname "$0")/server-lib.sh"

median() { sort -n | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2}'; }

summary=()
# shellcheck disable=SC2086
for scenario in ${SCENARIOS:-hello echo}; do
  : > "$work/pooled.$scenario"
  : > "$work/stock.$scenario"
  for round in $(seq 1 "$rounds"); do
    if [ $((round % 2)) = 1 ]; then order="pooled stock"; else order="stock pooled"; fi
    line="h2load: $scenario round $round:"
    for codec in $order; do
      flags=()
      [ "$codec" = stock ] && flags+=(--stock)
      [ -n "${PIPELINE:-}" ] && flags+=(--pipeline "$PIPELINE")
      # shellcheck disable=SC2206
      [ -n "${SERVER_ARGS:-}" ] && flags+=(${SERVER_ARGS})
      start_server "$server_jvm_args" "${flags[@]}"
      scenario_request "$scenario"
      for _ in $(seq 1 "$warmups"); do run_h2load "$warmup_seconds" "$url" "${extra[@]}" > /dev/null; done
      rps=$(run_h2load "$seconds" "$url" "${extra[@]}")
      stop_server
      echo "$rps" >> "$work/$codec.$scenario"
      line="$line $codec $rps req/s"
    done
    echo "$line"
  done
  pooled=$(median < "$work/pooled.$scenario")
  stock=$(median < "$work/stock.$scenario")
  verdict=$(python3 - "$pooled" "$stock" "$work/pooled.$scenario" "$work/stock.$scenario" <<'PY'
import sys
pooled, stock = float(sys.argv[1]), float(sys.argv[2])
def spread(path, med):
    xs = [float(x) for x in open(path)]
    return (max(xs) - min(xs)) / med
sp, ss = spread(sys.argv[3], pooled), spread(sys.argv[4], stock)
ratio = pooled / stock
noise = max(sp, ss)
word = "within noise" if abs(ratio - 1) < noise else ("pooled faster" if ratio > 1 else "pooled slower")
# Also the ratio within each round (the two servers ran back to back), as paired.py reports JMH's rounds.
rounds = [float(p) / float(s) for p, s in zip(open(sys.argv[3]), open(sys.argv[4]))]
rounds_sorted = sorted(rounds)
n = len(rounds_sorted)
paired = rounds_sorted[n // 2] if n % 2 else (rounds_sorted[n // 2 - 1] + rounds_sorted[n // 2]) / 2
print(f"median pooled {pooled:,.0f} req/s, stock {stock:,.0f} req/s, ratio pooled/stock {ratio:.3f}; "
      f"spread pooled {sp:.1%}, stock {ss:.1%}: {word}; ratio per round "
      + " ".join(f"{r:.2f}" for r in rounds) + f", their median {paired:.3f}")
PY
)
  echo "h2load: $scenario: $verdict"
  summary+=("$scenario: $verdict")
done

mkdir -p "$results"
{
  echo "h2load.sh, $(date -u +%Y-%m-%dT%H:%MZ), commit $(git -C "$root" rev-parse --short HEAD), $(nproc) CPUs"
  echo "h2load $h2load_args, $rounds rounds, $warmups x ${warmup_seconds}s warm-up on fresh connections, ${seconds}s measured"
  printf '%s\n' "${summary[@]}"
} | tee "$results/h2load.txt"
