#!/usr/bin/env bash
# Copyright 2026 The pooledh2 authors. Licensed under the Apache License, version 2.0.
#
# What the example server allocates per request, and where: the demo's workload (POST /echo, 1 KiB body +
# trailers, 2 connections x 8 streams, from the example client) against one server, alone in its JVM with the
# demo's JVM options, warmed up, then measured while async-profiler samples its allocations.
#
#   AP=/path/to/libasyncProfiler.so src/bench/alloc-profile.sh [--stock] [--pipeline multiplex|frames|listener]
#                                                             [--warmup SECONDS] [--seconds SECONDS]
#
# Prints, and writes to src/bench/results/alloc-<pipeline>-<codec>.txt: the bytes per request the server's
# event-loop threads allocated (ThreadMXBean, exact), then the sampled profile of those threads per request: by the
# part of the code that allocated, by allocated class, and by allocating method (the innermost method outside the
# JDK) with its caller. async-profiler 3.x (https://github.com/async-profiler/async-profiler)
# is attached with jcmd after the warm-up, so the profile is of compiled code only; its sampling interval is 32 KiB,
# so the classes and sites are estimates (their total is within a few per cent of the exact figure). SKIP_BUILD=1
# reuses the jars.
set -euo pipefail

pipeline=multiplex
stock=
warmup=15
seconds=10
while [ $# -gt 0 ]; do
  case $1 in
    --stock) stock=--stock; shift ;;
    --pipeline) pipeline=$2; shift 2 ;;
    --warmup) warmup=$2; shift 2 ;;
    --seconds) seconds=$2; shift 2 ;;
    *) echo "alloc-profile: unknown argument $1" >&2; exit 2 ;;
  esac
done
: "${AP:?set AP to the path of libasyncProfiler.so}"
root=$(cd "$(dirname "$0")/../.." && pwd)
jar=$root/client-example/target/pooledh2-client-example.jar
codec=$([ -n "$stock" ] && echo Netty || echo pooled)
results=$root/src/bench/results
out=$results/alloc-$pipeline-$codec.txt
work=$(mktemp -d)
server_pid=
cleanup() {
  exec 3>&- 2>/dev/null || true
  if [ -n "$server_pid" ]; then kill "$server_pid" 2>/dev/null || true; wait "$server_pid" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT

if [ "${SKIP_BUILD:-0}" != 1 ] || [ ! -f "$jar" ]; then
  mvn -B -q -f "$root/pom.xml" -pl client-example -am package -DskipTests
fi

# The demo's server: one ExampleServer in a JVM of its own that answers "stats" on stdin with its event loops'
# allocated bytes, and stops at the end of stdin; the JVM options of the demo's servers (ServerProcess.JVM_OPTIONS).
mkfifo "$work/commands"
java -Xms512m -Xmx512m -Xmn256m -XX:+UseG1GC -Dio.netty.leakDetection.level=disabled \
  -cp "$jar" io.pooledh2.example.client.DemoServer --port=0 \
  --pipeline="$pipeline" $stock < "$work/commands" > "$work/server.out" 2> "$work/server.err" &
server_pid=$!
exec 3> "$work/commands"
for _ in $(seq 1 200); do grep -q '^listening' "$work/server.out" 2>/dev/null && break; sleep 0.1; done
port=$(awk '/^listening/ {print $2}' "$work/server.out")
[ -n "$port" ] || { cat "$work/server.err" >&2; exit 1; }

load() {
  java -jar "$jar" --port "$port" --connections 2 --streams 8 --route echo --body-size 1024 --duration "$1" --quiet
}
stats() {
  echo stats >&3
  local n
  n=$(grep -c '^stats' "$work/server.out" || true)
  for _ in $(seq 1 100); do [ "$(grep -c '^stats' "$work/server.out" || true)" -gt "$n" ] && break; sleep 0.05; done
  grep '^stats' "$work/server.out" | tail -1 | awk '{print $2}'
}
# jcmd reads name=value pairs out of its arguments: the profiler's options go in quotes of their own.
profiler() { jcmd "$server_pid" JVMTI.agent_load "$AP" "\"$1\"" > /dev/null; }

load "$warmup" > /dev/null
sleep 1
profiler "start,event=alloc,alloc=32k,total,threads"
before=$(stats)
requests=$(load "$seconds" | awk '/^requests/ {gsub(",", "", $2); print $2}')
after=$(stats)
profiler "stop,collapsed,total,threads,file=$work/alloc.collapsed"

mkdir -p "$results"
{
  echo "alloc-profile.sh --pipeline $pipeline${stock:+ $stock}, $(date -u +%Y-%m-%dT%H:%MZ), commit $(git -C "$root" rev-parse --short HEAD)"
  echo "POST /echo, 1 KiB body + trailers, 2 connections x 8 streams; ${warmup} s warm-up, ${seconds} s measured"
  awk -v b="$before" -v a="$after" -v n="$requests" 'BEGIN {
    printf "requests %d; server event loops: %.0f B/request (ThreadMXBean)\n", n, (a - b) / n }'
  # Collapsed stacks: "[thread tid=N];frame;...;allocated.Class_[i] BYTES". The connection event loops are
  # pooledh2-server-N-M (the accept loop is pooledh2-server-accept-...).
  awk -v n="$requests" -v dir="$work" '
    /^\[pooledh2-server-[0-9]/ {
      bytes = $NF; stack = $0; sub(/ [0-9]+$/, "", stack)
      k = split(stack, frame, ";")
      class = frame[k]; sub(/_\[[a-z]\]$/, "", class)
      # The allocating method, the innermost frame outside the JDK (a JDK method allocates for its caller), and
      # the method that called it.
      site = "?"
      for (i = k - 1; i > 1; i--) {
        if (frame[i] !~ /^(java|jdk|sun)\//) { site = frame[i] (i > 2 ? "  <-  " frame[i - 1] : ""); break }
      }
      gsub("/", ".", site)
      # Whose code asked for it: the innermost frame of one of these parts.
      part = "other"
      for (i = k - 1; i > 1 && part == "other"; i--) {
        f = frame[i]
        # Headers and frame classes allocate for whoever makes them: look further out.
        if (f ~ /^io\/netty\/handler\/codec\/http2\/(ReadOnlyHttp2Headers|DefaultHttp2Headers|DefaultHttp2[A-Za-z]*Frame)\./) continue
        if (f ~ /^io\/pooledh2\/example\//) part = "example server (handlers, routes)"
        else if (f ~ /^io\/pooledh2\/codec\//) part = "pooled codec"
        else if (f ~ /^io\/netty\/handler\/codec\/http2\/(HpackDecoder|DefaultHttp2HeadersDecoder)/) part = "HPACK decoder"
        else if (f ~ /^io\/netty\/handler\/codec\/http2\/(HpackEncoder|DefaultHttp2HeadersEncoder)/) part = "HPACK encoder"
        else if (f ~ /^io\/netty\/handler\/codec\/http2\/DefaultHttp2FrameReader/) part = "Netty frame reader"
        else if (f ~ /^io\/netty\/handler\/codec\/http2\/DefaultHttp2FrameWriter/) part = "Netty frame writer"
        else if (f ~ /^io\/netty\/handler\/codec\/http2\/(AbstractHttp2StreamChannel|Http2MultiplexHandler)/) part = "child channels (Http2MultiplexHandler)"
        else if (f ~ /^io\/netty\/handler\/codec\/http2\/(DefaultHttp2Connection|WeightedFairQueue|DefaultHttp2RemoteFlowController|DefaultHttp2LocalFlowController)/) part = "streams and flow control"
        else if (f ~ /^io\/netty\/handler\/codec\/http2\//) part = "Netty frame codec, encoder, decoder"
        else if (f ~ /^io\/netty\/channel\/(ChannelOutboundBuffer|nio\/|socket\/)/) part = "socket reads and writes"
      }
      total += bytes; byClass[class] += bytes; bySite[class "  <-  " site] += bytes; byPart[part] += bytes
    }
    END {
      printf "sampled: %.0f B/request\n", total / n
      for (c in byClass) printf "%9.1f  %s\n", byClass[c] / n, c > dir "/classes"
      for (s in bySite) printf "%9.1f  %s\n", bySite[s] / n, s > dir "/sites"
      for (p in byPart) printf "%9.1f  %s\n", byPart[p] / n, p > dir "/parts"
    }' "$work/alloc.collapsed"
  echo
  echo "B/request by the code that allocated (the innermost frame of the part):"
  sort -rn "$work/parts"
  echo
  echo "B/request by allocated class (top 40):"
  sort -rn "$work/classes" | head -40
  echo
  echo "B/request by allocated class and allocating method (top 60):"
  sort -rn "$work/sites" | head -60
} | tee "$out"
