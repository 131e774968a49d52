#!/usr/bin/env bash
# Runs h2spec (the HTTP/2 conformance suite, RFC 7540/9113 and HPACK) in strict mode against the example server,
# once on the pooled codec and once on Netty's own (--stock), and prints both scores.
#
#   src/conformance/h2spec.sh
#
# Fails (exit 1) when the pooled codec fails any of h2spec's tests, or when a run does not finish. A test h2spec
# skips is not a failure: it skips what the server does not offer (before Netty 4.2.14 Netty's builders advertise
# no SETTINGS_MAX_CONCURRENT_STREAMS, so the test of that limit is skipped on both codecs). Netty's codec is
# reported, not required: it is the reference the pooled codec is compared with.
#
# h2spec: the one on PATH or in $(go env GOPATH)/bin, else installed there with the Go toolchain
# (github.com/summerwind/h2spec v2.2.1). The server: server-example/target/pooledh2-server-example.jar when it
# exists, else the module's classes on the classpath Maven resolves (built here if needed).
# H2SPEC_TIMEOUT (default 300) bounds each h2spec run in seconds. Output: target/h2spec/{pooled,stock}.log.
set -uo pipefail

root=$(cd "$(dirname "$0")/../.." && pwd)
out=$root/target/h2spec
mkdir -p "$out"
h2spec_version=v2.2.1+incompatible   # h2spec has no go.mod: the module proxy knows v2.2.1 by this name
timeout_s=${H2SPEC_TIMEOUT:-300}

# --- h2spec ---------------------------------------------------------------------------------------------------
h2spec=$(command -v h2spec || true)
if [ -z "$h2spec" ] && command -v go > /dev/null; then
  gobin=$(go env GOPATH)/bin
  if [ ! -x "$gobin/h2spec" ]; then
    echo "h2spec: installing github.com/summerwind/h2spec $h2spec_version into $gobin"
    GOBIN=$gobin go install "github.com/summerwind/h2spec/cmd/h2spec@$h2spec_version" || exit 1
  fi
  h2spec=$gobin/h2spec
fi
if [ -z "$h2spec" ]; then
  echo "h2spec: not found and no Go toolchain to install it (https://go.dev/dl/)"
  exit 1
fi

# --- the server ------------------------------------------------------------------------------------------------
jar=$root/server-example/target/pooledh2-server-example.jar
if [ -f "$jar" ]; then
  server=(java -jar "$jar")
else
  cp_file=$out/classpath.txt
  echo "h2spec: building server-example"
  # package, so that the reactor resolves the codec to its jar; the last module's classpath wins the file.
  if ! (cd "$root" && mvn -B -q -pl server-example -am package -DskipTests dependency:build-classpath \
        -Dmdep.outputFile="$cp_file" -Dmdep.includeScope=runtime > "$out/build.log" 2>&1); then
    cat "$out/build.log"
    exit 1
  fi
  server=(java -cp "$root/server-example/target/classes:$(cat "$cp_file")" io.pooledh2.example.server.ExampleServer)
fi

# A port the kernel hands out as free; without python3, a random high port nobody listens on.
free_port() {
  if command -v python3 > /dev/null; then
    python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()'
    return
  fi
  local port
  while :; do
    port=$((20000 + RANDOM % 40000))
    if ! (exec 3<> "/dev/tcp/127.0.0.1/$port") 2> /dev/null; then
      echo "$port"
      return
    fi
  done
}

server_pid=
stop_server() {
  if [ -n "$server_pid" ]; then
    kill "$server_pid" 2> /dev/null
    wait "$server_pid" 2> /dev/null
    server_pid=
  fi
}
trap stop_server EXIT

# run NAME [server flags...]: starts the server on a free port, runs h2spec, leaves "passed total failed" in $score.
run() {
  local name=$1
  shift
  local port
  port=$(free_port)
  # The server listens on 127.0.0.1 by default; only --port and --stock are passed, which both ways of
  # starting it (jar or main class) take.
  "${server[@]}" --port "$port" "$@" > "$out/$name-server.log" 2>&1 &
  server_pid=$!
  for _ in $(seq 1 150); do
    if (exec 3<> "/dev/tcp/127.0.0.1/$port") 2> /dev/null; then
      break
    fi
    if ! kill -0 "$server_pid" 2> /dev/null; then
      echo "h2spec: the $name server did not start:"
      cat "$out/$name-server.log"
      exit 1
    fi
    sleep 0.2
  done
  timeout "$timeout_s" "$h2spec" --strict -h 127.0.0.1 -p "$port" > "$out/$name.log" 2>&1
  local status=$?
  stop_server
  # The summary line: "146 tests, 146 passed, 0 skipped, 0 failed".
  local summary
  summary=$(grep -E '^[0-9]+ tests, [0-9]+ passed' "$out/$name.log" | tail -1)
  if [ -z "$summary" ]; then
    echo "h2spec: no result for $name (exit $status), see $out/$name.log"
    tail -20 "$out/$name.log"
    score=""
    return
  fi
  score=$(echo "$summary" | awk '{print $3, $1, $7}')
  echo "h2spec --strict, $name codec: $summary"
  sed -n '/^Failures:/,/^Finished/p' "$out/$name.log"
}

run pooled
pooled=$score
run stock --stock
stock=$score

echo
echo "| codec | h2spec v2.2.1 --strict, tests passed |"
echo "|---|---|"
echo "| pooled (PooledHttp2FrameCodecBuilder) | ${pooled:-no result} |" | sed 's/ \([0-9]*\) \([0-9]*\) [0-9]* |$/ \1 \/ \2 |/'
echo "| Netty (Http2FrameCodecBuilder) | ${stock:-no result} |" | sed 's/ \([0-9]*\) \([0-9]*\) [0-9]* |$/ \1 \/ \2 |/'

if [ -z "$pooled" ]; then
  exit 1
fi
read -r passed total failed <<< "$pooled"
if [ "$failed" -ne 0 ]; then
  echo "h2spec: the pooled codec failed $failed of $total"
  exit 1
fi
