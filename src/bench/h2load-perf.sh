#!/usr/bin/env bash
# Copyright 2026 The pooledh2 authors. Licensed under the Apache License, version 2.0.
#
# What the example server does per request under h2load, pooled codec against Netty's (--stock): CPU time,
# context switches and system calls per request, counted by `perf stat` (software events and syscall
# tracepoints, which need root or perf_event_paranoid <= -1; no hardware counters needed).
#
#   src/bench/h2load-perf.sh [ROUNDS] [hello|echo]      (default 2 rounds of echo)
#
# Each round starts a fresh server per codec, warms it up with 3 x 5 s of h2load on fresh connections, then
# counts 8 s in the middle of a 10 s h2load run and divides by that run's req/s; the order of the codecs
# alternates between rounds. Prints each round, then each codec's median CPU per request and their ratio.
# Same h2load options, server JVM options and SERVER_CPUS / H2LOAD_CPUS as h2load.sh. Run nothing else meanwhile.
#
# At full load the two processes share both cores, so a server's CPU per request mostly mirrors its req/s. To
# compare what each server spends on the same work, offer a fixed rate below both servers' capacity, e.g.
#   H2LOAD_ARGS="-c 4 -m 100 -t 1 --rps 20000" src/bench/h2load-perf.sh 5 hello     (80k req/s in all)
#   H2LOAD_ARGS="-c 4 -m 100 -t 1 --rps 5000" src/bench/h2load-perf.sh 5 echo       (20k req/s in all)
# (the warm-up runs are still at full load).
set -euo pipefail

rounds=${1:-2}
scenario=${2:-echo}
h2load_args=${H2LOAD_ARGS:--c 4 -m 100 -t 1}
server_jvm_args=${SERVER_JVM_ARGS:--Xms1g -Xmx1g -XX:+UseG1GC}
events=task-clock,context-switches,syscalls:sys_enter_read,syscalls:sys_enter_writev,syscalls:sys_enter_write,syscalls:sys_enter_epoll_wait

bench_name=h2load-perf
# shellcheck source=server-lib.sh
. "$(dirname "$0")/server-lib.sh"

command -v perf >/dev/null || { echo "$bench_name: perf is missing (Debian: linux-perf)" >&2; exit 1; }

cpu_file=$work/cpu.txt
: > "$cpu_file"
for round in $(seq 1 "$rounds"); do
  if [ $((round % 2)) = 1 ]; then order="pooled stock"; else order="stock pooled"; fi
  for codec in $order; do
    flags=()
    [ "$codec" = stock ] && flags+=(--stock)
    start_server "$server_jvm_args" "${flags[@]}"
    scenario_request "$scenario"
    for _ in 1 2 3; do run_h2load 5 "$url" "${extra[@]}" > /dev/null; done
    # shellcheck disable=SC2086
    ${H2LOAD_CPUS:+taskset -c "$H2LOAD_CPUS"} h2load $h2load_args -D 10 "${extra[@]}" "$url" > "$work/h2load.out" 2>&1 &
    load=$!
    sleep 1
    perf stat -x, -e "$events" -p "$server_pid" -- sleep 8 2> "$work/perf.csv"
    wait "$load"
    stop_server
    rps=$(sed -n 's/^finished in [^,]*, \([0-9.]*\) req\/s.*/\1/p' "$work/h2load.out")
    python3 - "$codec" "$round" "$scenario" "$rps" "$work/perf.csv" "$cpu_file" <<'PY'
import sys
codec, rnd, scenario, rps, path = sys.argv[1], sys.argv[2], sys.argv[3], float(sys.argv[4]), sys.argv[5]
requests = rps * 8
counts = {}
for line in open(path):
    fields = line.strip().split(",")
    if len(fields) > 2 and fields[0][:1].isdigit():
        counts[fields[2].replace("syscalls:sys_enter_", "")] = float(fields[0])
cpu_us = counts.pop("task-clock") * 1000 / requests
with open(sys.argv[6], "a") as out:
    out.write("%s %f\n" % (codec, cpu_us))
print("h2load-perf: %s round %s, %s: %.0f req/s, CPU %.2f us/req, " % (scenario, rnd, codec, rps, cpu_us)
      + ", ".join("%s %.3f/req" % (name, value / requests) for name, value in counts.items()))
PY
  done
done
python3 - "$cpu_file" "$scenario" <<'PY'
import statistics, sys
cpu = {"pooled": [], "stock": []}
for line in open(sys.argv[1]):
    codec, value = line.split()
    cpu[codec].append(float(value))
pooled, stock = statistics.median(cpu["pooled"]), statistics.median(cpu["stock"])
print("h2load-perf: %s: median CPU pooled %.2f us/req, stock %.2f us/req, ratio pooled/stock %.3f"
      % (sys.argv[2], pooled, stock, pooled / stock))
PY
