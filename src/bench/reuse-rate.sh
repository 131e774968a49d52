#!/usr/bin/env bash
# Copyright 2026 The pooledh2 authors. Licensed under the Apache License, version 2.0.
#
# Reuse rate under load: the share of frames of each type that the example server's pooled reader parsed into
# a reused object, for each of its pipelines (Http2FrameCodec + Http2MultiplexHandler, Http2FrameCodec + one
# frame handler, and the Http2FrameListener path).
#
#   src/bench/reuse-rate.sh [SECONDS]      (default 10 s of each load per pipeline)
#
# The server runs with -Dio.pooledh2.reuseStats=true (FrameReuseStatistics: a constant switch, compiled out
# when off) and prints the counts when it stops. Load: h2load GET /hello, then POST /echo with a 16 KiB body,
# each H2LOAD_ARGS ("-c 4 -m 100 -t 1"). Writes src/bench/results/reuse-rate.txt. Installs h2load from Debian's
# nghttp2-client when it is missing; SKIP_BUILD=1 reuses the server jar.
set -euo pipefail

seconds=${1:-10}
h2load_args=${H2LOAD_ARGS:--c 4 -m 100 -t 1}
bench_name=reuse-rate
# shellcheck source=server-lib.sh
. "$(dirname "$0")/server-lib.sh"

out=$results/reuse-rate.txt
mkdir -p "$results"
{
  echo "reuse-rate.sh, $(date -u +%Y-%m-%dT%H:%MZ), commit $(git -C "$root" rev-parse --short HEAD)"
  echo "h2load $h2load_args: ${seconds}s GET /hello, then ${seconds}s POST /echo (16 KiB body), per pipeline"
} > "$out"
for pipeline in multiplex frames listener; do
  start_server -Dio.pooledh2.reuseStats=true --pipeline "$pipeline"
  # shellcheck disable=SC2086
  h2load $h2load_args -D "$seconds" "http://127.0.0.1:$port/hello" | grep -E '^(finished|requests):'
  # shellcheck disable=SC2086
  h2load $h2load_args -D "$seconds" -d "$work/body16k" "http://127.0.0.1:$port/echo" | grep -E '^(finished|requests):'
  stop_server
  {
    echo
    echo "pipeline $pipeline:"
    sed -n '/^frame reuse/,$p' "$server_log" | grep -E 'parsed' || { echo "no counts printed"; cat "$server_log"; }
  } | tee -a "$out"
done
