# Copyright 2026 The pooledh2 authors. Licensed under the Apache License, version 2.0.
#
# Sourced by h2load.sh and reuse-rate.sh: the example server's jar, a scratch directory, h2load, servers started
# and stopped (several may run at once: h2load.sh keeps both codecs' alive in a round), and h2load runs against
# them. The caller sets bench_name (the prefix of its messages) and h2load_args before sourcing. SERVER_CPUS and
# H2LOAD_CPUS, if set, are taskset CPU lists for the servers and for h2load.

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
jar=$root/server-example/target/pooledh2-server-example.jar
results=$root/src/bench/results
work=$(mktemp -d)
server_pid=
server_pids=()
server_log=
port=
cleanup() {
  local pid
  for pid in "${server_pids[@]}"; do kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; done
  rm -rf "$work"
}
trap cleanup EXIT

if ! command -v h2load >/dev/null; then
  echo "$bench_name: installing nghttp2-client"
  if [ "$(id -u)" = 0 ]; then apt-get update -qq && apt-get install -y -qq nghttp2-client >/dev/null
  else sudo apt-get update -qq && sudo apt-get install -y -qq nghttp2-client >/dev/null; fi
fi

if [ "${SKIP_BUILD:-0}" != 1 ] || [ ! -f "$jar" ]; then
  echo "$bench_name: building $jar"
  # Output to a log: Maven's console colour codes would otherwise end up in front of the script's first line.
  mvn -B -q -Dstyle.color=never -f "$root/pom.xml" -pl server-example -am package -DskipTests \
    > "$work/build.log" 2>&1 || { cat "$work/build.log" >&2; exit 1; }
fi

head -c 16384 /dev/urandom > "$work/body16k"

free_port() {
  python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()'
}

# start_server "JVM ARGS" [SERVER ARGS...]: starts a server on a free port ($port, its pid in $server_pid), leak
# detection off, and waits until it listens; its output goes to $server_log. It runs $server_jar if the caller set
# it, else $jar.
start_server() {
  local jvm_args=$1
  shift
  port=$(free_port)
  server_log=$work/server-$port.log
  # shellcheck disable=SC2086
  ${SERVER_CPUS:+taskset -c "$SERVER_CPUS"} java $jvm_args -Dio.netty.leakDetection.level=disabled -jar "${server_jar:-$jar}" --port "$port" "$@" > "$server_log" 2>&1 &
  server_pid=$!
  server_pids+=("$server_pid")
  for _ in $(seq 1 100); do
    if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then return 0; fi
    sleep 0.1
  done
  echo "$bench_name: the server ($*) did not start:" >&2
  cat "$server_log" >&2
  exit 1
}

# stop_server [PID]: stops the server (the one started last by default) and waits, so that what it prints at
# stop is in its log.
stop_server() {
  local pid=${1:-$server_pid} kept=() p
  kill "$pid"
  wait "$pid" 2>/dev/null || true
  for p in "${server_pids[@]}"; do [ "$p" = "$pid" ] || kept+=("$p"); done
  server_pids=("${kept[@]}")
  [ "$pid" = "$server_pid" ] && server_pid=
  return 0
}

# scenario_request hello|echo [PORT]: sets url and extra (h2load's arguments) for GET /hello or POST /echo with
# 16 KiB, on the server on PORT (by default the one started last).
scenario_request() {
  local p=${2:-$port}
  url=http://127.0.0.1:$p/hello
  extra=()
  if [ "$1" = echo ]; then url=http://127.0.0.1:$p/echo; extra=(-d "$work/body16k"); fi
}

# run_h2load SECONDS URL [h2load args]: prints req/s; fails on any failed or errored request.
run_h2load() {
  local duration=$1 url=$2
  shift 2
  local out
  # shellcheck disable=SC2086
  out=$(${H2LOAD_CPUS:+taskset -c "$H2LOAD_CPUS"} h2load $h2load_args -D "$duration" "$@" "$url" 2>&1) || { echo "$out" >&2; exit 1; }
  local failed
  failed=$(echo "$out" | sed -n 's/^requests: .* \([0-9]*\) failed, \([0-9]*\) errored.*/\1 \2/p')
  if [ "$failed" != "0 0" ]; then
    echo "$bench_name: failed or errored requests ($failed):" >&2
    echo "$out" >&2
    exit 1
  fi
  echo "$out" | sed -n 's/^finished in [^,]*, \([0-9.]*\) req\/s.*/\1/p'
}

# arm_flags CODEC: for the arm named CODEC (pooled or stock) of a run of two arms, sets flags (the server's codec
# option; PIPELINE's) and server_jar. CONTROL=stock or pooled runs that codec in both arms (an A/A run), and
# STOCK_ARM_JAR, with CONTROL, is another build's server jar for the arm called stock (an A/B of two builds).
arm_flags() {
  flags=()
  case "${CONTROL:-}:$1" in
    stock:*|:stock) flags+=(--stock) ;;
    pooled:*|:pooled) ;;
    *) echo "$bench_name: CONTROL must be stock or pooled, not ${CONTROL}" >&2; exit 1 ;;
  esac
  server_jar=
  if [ -n "${STOCK_ARM_JAR:-}" ]; then
    [ -n "${CONTROL:-}" ] || { echo "$bench_name: STOCK_ARM_JAR needs CONTROL" >&2; exit 1; }
    [ "$1" = stock ] && server_jar=$STOCK_ARM_JAR
  fi
  [ -n "${PIPELINE:-}" ] && flags+=(--pipeline "$PIPELINE")
  return 0
}

# arm_note: the line a results file gets for CONTROL and STOCK_ARM_JAR, if set.
arm_note() {
  if [ -n "${STOCK_ARM_JAR:-}" ]; then
    echo "CONTROL=$CONTROL, STOCK_ARM_JAR=$STOCK_ARM_JAR: both arms ran the $CONTROL codec, the arm called stock from that jar (an A/B of two builds)"
  elif [ -n "${CONTROL:-}" ]; then
    echo "CONTROL=$CONTROL: both arms ran the $CONTROL codec (an A/A run)"
  fi
  return 0
}
