#!/usr/bin/env bash
# Copyright 2026 The pooledh2 authors. Licensed under the Apache License, version 2.0.
#
# How long the example server takes to reach its steady speed under h2load: req/s in successive windows on a fresh
# server, pooled codec and Netty's (--stock) alternating, so that h2load.sh's warm-up can be checked against it.
#
#   src/bench/h2load-warmup.sh [ROUNDS] [SCENARIO]   (default 2 rounds of echo; SCENARIO hello or echo)
#
# Each round starts a fresh server JVM per codec and runs WINDOWS (10) h2load runs of WINDOW_SECONDS (5) back to
# back, each on fresh connections, and prints their req/s on one line. H2LOAD_ARGS and SERVER_JVM_ARGS as in
# h2load.sh; SKIP_BUILD=1 reuses the server jar. With -XX:+PrintCompilation in SERVER_JVM_ARGS the line also counts
# the methods the server's JIT made not entrant (deoptimised). Run nothing else meanwhile.
set -euo pipefail

rounds=${1:-2}
scenario=${2:-echo}
windows=${WINDOWS:-10}
window_seconds=${WINDOW_SECONDS:-5}
h2load_args=${H2LOAD_ARGS:--c 4 -m 100 -t 1}
server_jvm_args=${SERVER_JVM_ARGS:--Xms1g -Xmx1g -XX:+UseG1GC}

bench_name=h2load-warmup
# shellcheck source=server-lib.sh
. "$(dirname "$0")/server-lib.sh"

echo "h2load-warmup: $scenario, h2load $h2load_args, $windows windows of ${window_seconds}s on a fresh server, req/s"
for round in $(seq 1 "$rounds"); do
  if [ $((round % 2)) = 1 ]; then order="pooled stock"; else order="stock pooled"; fi
  for codec in $order; do
    flags=()
    [ "$codec" = stock ] && flags+=(--stock)
    start_server "$server_jvm_args" "${flags[@]}"
    scenario_request "$scenario"
    line="h2load-warmup: $scenario round $round, $codec:"
    for _ in $(seq 1 "$windows"); do
      rps=$(run_h2load "$window_seconds" "$url" "${extra[@]}")
      line="$line ${rps%.*}"
    done
    stop_server
    case "$server_jvm_args" in
      *PrintCompilation*)
        line="$line; methods made not entrant: $(grep -c 'made not entrant' "$server_log" || true)" ;;
    esac
    echo "$line"
  done
done
