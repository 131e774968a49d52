# Copyright 2026 The pooledh2 authors. Licensed under the Apache License, version 2.0.
#
# Sourced by h2load.sh and reuse-rate.sh: the example server's jar, a scratch directory, h2load, and one server
# at a time started and stopped. The caller sets bench_name (the prefix of its messages) before sourcing.

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
jar=$root/server-example/target/pooledh2-server-example.jar
results=$root/src/bench/results
work=$(mktemp -d)
server_pid=
port=
cleanup() {
  if [ -n "$server_pid" ]; then kill "$server_pid" 2>/dev/null || true; wait "$server_pid" 2>/dev/null || true; fi
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

# start_server "JVM ARGS" [SERVER ARGS...]: starts the server on a free port ($port), leak detection off, and
# waits until it listens; its output goes to $work/server.log.
start_server() {
  local jvm_args=$1
  shift
  port=$(free_port)
  # shellcheck disable=SC2086
  java $jvm_args -Dio.netty.leakDetection.level=disabled -jar "$jar" --port "$port" "$@" > "$work/server.log" 2>&1 &
  server_pid=$!
  for _ in $(seq 1 100); do
    if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then return 0; fi
    sleep 0.1
  done
  echo "$bench_name: the server ($*) did not start:" >&2
  cat "$work/server.log" >&2
  exit 1
}

# stop_server: stops it and waits, so that what it prints at stop is in $work/server.log.
stop_server() {
  kill "$server_pid"
  wait "$server_pid" 2>/dev/null || true
  server_pid=
}
