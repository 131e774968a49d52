#!/usr/bin/env bash
# Copyright 2026 The pooledh2 authors. Licensed under the Apache License, version 2.0.
#
# The example server under h2load, pooled codec against Netty's (--stock), in rounds.
#
#   src/bench/h2load.sh [ROUNDS]          (default 5 rounds per scenario)
#
# Each round starts a fresh server JVM for each codec, both kept running for the round, warms each up on fresh
# connections (WARMUPS runs of WARMUP_SECONDS, each h2load run opening new connections, the two servers taking
# turns), then measures PAIRS pairs of windows of MEASURED_SECONDS, one window per codec in each pair, the order
# alternating from pair to pair and from round to round. Only the server h2load is loading does any work: the
# other waits on its sockets.
#
# Why windows in pairs: on this shared machine the speed of one warm server moves by about 5% (standard
# deviation, 2-7%) from one 5 s window to the next, within one JVM (measured at 7bf34c8), so one 10 s run
# per fresh server, as this script measured before, gave rounds that spread by 20-40%. Many short windows, the two
# servers taking turns, average that out in the time a few long runs take.
#
# Scenarios: GET /hello (1 KiB answer) and POST /echo with a 16 KiB body. Prints every round (each codec's median
# req/s over its windows, and the ratio pooled/stock of each pair), then per scenario: each codec's median over the
# rounds, the ratio pooled/stock of those medians and each codec's spread ((max - min) / median of the rounds); a
# difference smaller than the spread is reported as within noise; the mean of the rounds' own ratios and its
# standard error (the rounds are the independent draws: a round's pairs share its two JVMs). Then over every pair
# of windows: the median and the mean of the pairs' ratios, the mean's standard error and how many pairs the
# pooled server led.
#
# Environment: MEASURED_SECONDS (5; not SECONDS, which is bash's own clock), PAIRS (6), WARMUPS (6), WARMUP_SECONDS
# (5), H2LOAD_ARGS ("-c 4 -m 100 -t 1"), SERVER_JVM_ARGS (-Xms1g -Xmx1g -XX:+UseG1GC), PIPELINE (the server's
# --pipeline, default its own: multiplex; when set, the results go to h2load-pipeline-PIPELINE.txt), SERVER_ARGS
# (more server options for both codecs, e.g. "--threads 1"), SCENARIOS ("hello echo"), SERVER_CPUS and
# H2LOAD_CPUS (taskset CPU lists, e.g. 1 and 0: the servers on one core and h2load on the other instead of all
# sharing the two), SKIP_BUILD=1 to reuse the server jar. Installs h2load from Debian's nghttp2-client when it is
# missing. CONTROL=stock (or pooled) starts both servers with that codec: an A/A run,
# which shows how far apart this method puts two servers that run the same code (the labels pooled and stock
# then name the two arms, which take turns exactly as in a real run). STOCK_ARM_JAR, with CONTROL, is a server jar
# built from another commit for the arm called stock: an A/B of two builds of one codec.
# Run nothing else meanwhile: the machine has 2 cores and the servers and h2load share them.
set -euo pipefail

rounds=${1:-5}
seconds=${MEASURED_SECONDS:-5}
pairs=${PAIRS:-6}
warmups=${WARMUPS:-6}
warmup_seconds=${WARMUP_SECONDS:-5}
h2load_args=${H2LOAD_ARGS:--c 4 -m 100 -t 1}
server_jvm_args=${SERVER_JVM_ARGS:--Xms1g -Xmx1g -XX:+UseG1GC}

bench_name=h2load
# shellcheck source=server-lib.sh
. "$(dirname "$0")/server-lib.sh"

median() { sort -n | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2}'; }

# measure CODEC SECONDS: one h2load run against CODEC's server of this round; prints req/s.
measure() {
  local codec=$1 duration=$2
  scenario_request "$scenario" "${ports[$codec]}"
  run_h2load "$duration" "$url" "${extra[@]}"
}

declare -A ports pids window
summary=()
round_lines=()
# shellcheck disable=SC2086
for scenario in ${SCENARIOS:-hello echo}; do
  : > "$work/pooled.$scenario"
  : > "$work/stock.$scenario"
  : > "$work/pairs.$scenario"
  for round in $(seq 1 "$rounds"); do
    if [ $((round % 2)) = 1 ]; then order=(pooled stock); else order=(stock pooled); fi
    for codec in "${order[@]}"; do
      arm_flags "$codec"
      # shellcheck disable=SC2206
      [ -n "${SERVER_ARGS:-}" ] && flags+=(${SERVER_ARGS})
      start_server "$server_jvm_args" "${flags[@]}"
      ports[$codec]=$port
      pids[$codec]=$server_pid
    done
    for _ in $(seq 1 "$warmups"); do
      for codec in "${order[@]}"; do measure "$codec" "$warmup_seconds" > /dev/null; done
    done
    : > "$work/round.pooled"
    : > "$work/round.stock"
    ratios=""
    for pair in $(seq 1 "$pairs"); do
      if [ $(((round + pair) % 2)) = 0 ]; then turn=("${order[@]}"); else turn=("${order[1]}" "${order[0]}"); fi
      for codec in "${turn[@]}"; do
        window[$codec]=$(measure "$codec" "$seconds")
        echo "${window[$codec]}" >> "$work/round.$codec"
      done
      echo "${window[pooled]} ${window[stock]}" >> "$work/pairs.$scenario"
      ratios="$ratios $(awk -v p="${window[pooled]}" -v s="${window[stock]}" 'BEGIN {printf "%.2f", p / s}')"
    done
    for codec in "${order[@]}"; do stop_server "${pids[$codec]}"; done
    pooled=$(median < "$work/round.pooled" | xargs printf '%.0f')
    stock=$(median < "$work/round.stock" | xargs printf '%.0f')
    echo "$pooled" >> "$work/pooled.$scenario"
    echo "$stock" >> "$work/stock.$scenario"
    round_line="h2load: $scenario round $round: pooled $pooled stock $stock req/s (medians of $pairs windows each); pooled/stock per pair$ratios"
    echo "$round_line"
    round_lines+=("$round_line")
  done
  verdict=$(python3 - "$work/pooled.$scenario" "$work/stock.$scenario" "$work/pairs.$scenario" <<'PY'
import statistics, sys
pooled_rounds = [float(x) for x in open(sys.argv[1])]
stock_rounds = [float(x) for x in open(sys.argv[2])]
pooled, stock = statistics.median(pooled_rounds), statistics.median(stock_rounds)
sp = (max(pooled_rounds) - min(pooled_rounds)) / pooled
ss = (max(stock_rounds) - min(stock_rounds)) / stock
ratio = pooled / stock
# The rounds, not the pairs, are the independent draws: a round's pairs share its two JVMs.
round_ratios = [p / s for p, s in zip(pooled_rounds, stock_rounds)]
round_error = statistics.stdev(round_ratios) / len(round_ratios) ** 0.5 if len(round_ratios) > 1 else float("nan")
noise = max(sp, ss)
word = "within noise" if abs(ratio - 1) < noise else ("pooled faster" if ratio > 1 else "pooled slower")
pairs = [float(p) / float(s) for p, s in (line.split() for line in open(sys.argv[3]))]
mean = statistics.mean(pairs)
error = statistics.stdev(pairs) / len(pairs) ** 0.5 if len(pairs) > 1 else float("nan")
ahead = sum(r > 1 for r in pairs)
print(f"median pooled {pooled:,.0f} req/s, stock {stock:,.0f} req/s, ratio pooled/stock {ratio:.3f}; "
      f"spread pooled {sp:.1%}, stock {ss:.1%}: {word}; the rounds' ratios: mean {statistics.mean(round_ratios):.3f} "
      f"(standard error {round_error:.3f}); over {len(pairs)} pairs of windows, pooled/stock "
      f"median {statistics.median(pairs):.3f}, mean {mean:.3f} (standard error {error:.3f}), pooled ahead in {ahead}")
PY
)
  echo "h2load: $scenario: $verdict"
  summary+=("$scenario: $verdict")
done

mkdir -p "$results"
results_file=h2load${PIPELINE:+-pipeline-$PIPELINE}.txt
[ -n "${CONTROL:-}" ] && results_file=h2load${PIPELINE:+-pipeline-$PIPELINE}-control-$CONTROL.txt
{
  echo "h2load.sh, $(date -u +%Y-%m-%dT%H:%MZ), commit $(git -C "$root" rev-parse --short HEAD), $(nproc) CPUs"
  echo "h2load $h2load_args, $rounds rounds, each: both servers fresh, $warmups x ${warmup_seconds}s warm-up each on" \
    "fresh connections, then $pairs pairs of ${seconds}s windows"
  arm_note
  [ -n "${PIPELINE:-}" ] && echo "PIPELINE=$PIPELINE: both servers ran --pipeline $PIPELINE"
  printf '%s\n' "${summary[@]}"
  # The rounds too, so that h2load-combine.py can pool this run with others.
  printf '%s\n' "${round_lines[@]}"
} | tee "$results/$results_file"
