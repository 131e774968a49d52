#!/usr/bin/env bash
# Copyright 2026 The pooledh2 authors. Licensed under the Apache License, version 2.0.
#
# How much of the example server's CPU per request the inbound codec takes, pooled against Netty's (--stock),
# under h2load: the bound on what any reader, however cheap, could change end to end.
#
#   src/bench/h2load-profile.sh [ROUNDS] [hello|echo]      (default 3 rounds of echo, about 2.5 minutes a round)
#
# Each round starts a fresh server per codec (the order alternating between rounds), warms it up with WARMUPS x
# WARMUP_SECONDS of h2load on fresh connections, then attaches async-profiler (jcmd JVMTI.agent_load; CPU samples
# every millisecond, compiled code only) for WINDOWS h2load runs of MEASURED_SECONDS and stops it. The requests
# h2load completed in those runs divide the samples (src/bench/codec-share.py): the server's CPU per request, and
# the part of it spent where the inbound bytes become frames and listener calls, which is what the codec choice
# changes:
#   reader   the frame reader (its parsing, checks and partial frames, the pooled reader's adapter and
#            stream-state checks), up to the decoder's listener, without HPACK;
#   hpack    HPACK decoding into the headers object (Netty's HpackDecoder, into each codec's headers);
#   input    ByteToMessageDecoder around the reader (Netty's cumulation of partial frames);
#   decoder  from DefaultHttp2ConnectionDecoder's listener to the frame handed to the next handler (flow-control
#            accounting, stream look-ups, the frame codec's frames);
# and the rest (the handlers after the codec, the child channels, the writes, the flush, the kernel).
# Prints each server's line, then per codec the medians over the rounds, and the codec parts of Netty's server as
# a share of its request.
#
# Environment: AP (the path of libasyncProfiler.so; by default async-profiler 4.1 for linux-x64 from Maven Central,
# unpacked into the scratch directory), WARMUPS (6), WARMUP_SECONDS (5), WINDOWS (3), MEASURED_SECONDS (10),
# H2LOAD_ARGS ("-c 4 -m 100 -t 1"), SERVER_JVM_ARGS (-Xms1g -Xmx1g -XX:+UseG1GC), PIPELINE (the server's
# --pipeline), PROFILE_EVENT (cpu; itimer where perf events are not allowed), SKIP_BUILD=1 to reuse the server jar,
# SERVER_CPUS and H2LOAD_CPUS as in h2load.sh; CONTROL and STOCK_ARM_JAR as in h2load.sh (CONTROL=pooled
# STOCK_ARM_JAR=<another build's server jar>: both arms the pooled codec, the arm called stock from that jar, an A/B of
# two builds part by part); PROFILES=<directory> keeps each server's collapsed profile there, with the run's lines,
# for codec-share.py --methods (which methods a part's time is in). Writes
# src/bench/results/h2load-profile[-PIPELINE]-SCENARIO.txt (h2load-profile[-PIPELINE]-control-CONTROL-SCENARIO.txt
# with CONTROL).
# Run nothing else meanwhile: the profile is of the whole server JVM.
set -euo pipefail

rounds=${1:-3}
scenario=${2:-echo}
warmups=${WARMUPS:-6}
warmup_seconds=${WARMUP_SECONDS:-5}
windows=${WINDOWS:-3}
seconds=${MEASURED_SECONDS:-10}
event=${PROFILE_EVENT:-cpu}
h2load_args=${H2LOAD_ARGS:--c 4 -m 100 -t 1}
# DebugNonSafepoints: samples name the inlined method they fell in, not the caller it was inlined into.
server_jvm_args="${SERVER_JVM_ARGS:--Xms1g -Xmx1g -XX:+UseG1GC} -XX:+UnlockDiagnosticVMOptions -XX:+DebugNonSafepoints"

bench_name=h2load-profile
# shellcheck source=server-lib.sh
. "$(dirname "$0")/server-lib.sh"

command -v jcmd >/dev/null || { echo "$bench_name: jcmd is missing (it comes with the JDK)" >&2; exit 1; }
if [ -z "${AP:-}" ]; then
  mvn -B -q -Dstyle.color=never dependency:copy -Dartifact=tools.profiler:async-profiler:4.1:jar:linux-x64 \
    -DoutputDirectory="$work/ap" > "$work/ap.log" 2>&1 || { cat "$work/ap.log" >&2; exit 1; }
  (cd "$work/ap" && unzip -q -o async-profiler-4.1-linux-x64.jar)
  AP=$work/ap/linux-x64/libasyncProfiler.so
fi
[ -f "$AP" ] || { echo "$bench_name: no async-profiler library at $AP" >&2; exit 1; }

# jcmd reads name=value pairs out of its arguments: the profiler's options go in quotes of their own.
profiler() { jcmd "$server_pid" JVMTI.agent_load "$AP" "\"$1\"" > /dev/null; }

# requests PORT: one measured h2load run; prints the requests that succeeded.
requests() {
  local out
  scenario_request "$scenario" "$1"
  # shellcheck disable=SC2086
  out=$(${H2LOAD_CPUS:+taskset -c "$H2LOAD_CPUS"} h2load $h2load_args -D "$seconds" "${extra[@]}" "$url" 2>&1) \
    || { echo "$out" >&2; exit 1; }
  echo "$out" | sed -n 's/^requests: .* \([0-9]*\) succeeded, \([0-9]*\) failed, \([0-9]*\) errored.*/\1 \2 \3/p' \
    | awk -v name="$bench_name" '$2 + $3 > 0 {print name ": failed or errored requests" > "/dev/stderr"; exit 1} {print $1}'
}

lines=$work/lines.txt
: > "$lines"
for round in $(seq 1 "$rounds"); do
  if [ $((round % 2)) = 1 ]; then order="pooled stock"; else order="stock pooled"; fi
  for codec in $order; do
    arm_flags "$codec"
    start_server "$server_jvm_args" "${flags[@]}"
    scenario_request "$scenario"
    for _ in $(seq 1 "$warmups"); do run_h2load "$warmup_seconds" "$url" "${extra[@]}" > /dev/null; done
    profile=$work/profile-$round-$codec.txt
    profiler "start,event=$event,interval=1ms"
    done_requests=0
    for _ in $(seq 1 "$windows"); do
      n=$(requests "$port")
      done_requests=$((done_requests + n))
    done
    profiler "stop,collapsed,file=$profile"
    stop_server
    if [ -n "${PROFILES:-}" ]; then mkdir -p "$PROFILES" && cp "$profile" "$PROFILES/"; fi
    line=$(python3 "$root/src/bench/codec-share.py" --line "$codec" "$round" "$done_requests" "$profile")
    echo "$bench_name: $line"
    echo "$line" >> "$lines"
    if [ -n "${PROFILES:-}" ]; then cp "$lines" "$PROFILES/lines.txt"; fi
  done
done

mkdir -p "$results"
{
  echo "h2load-profile.sh, $(date -u +%Y-%m-%dT%H:%MZ), commit $(git -C "$root" rev-parse --short HEAD), $(nproc) CPUs"
  echo "$scenario, h2load $h2load_args, $rounds rounds, each: a fresh server per codec, $warmups x ${warmup_seconds}s" \
    "warm-up, then async-profiler ($event, 1 ms) over $windows runs of ${seconds}s${PIPELINE:+; PIPELINE=$PIPELINE}"
  arm_note
  cat "$lines"
  python3 "$root/src/bench/codec-share.py" --summary "$lines"
} | tee "$results/h2load-profile${PIPELINE:+-$PIPELINE}${CONTROL:+-control-$CONTROL}-$scenario.txt"
