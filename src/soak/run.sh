#!/usr/bin/env bash
# The soak: the end-to-end StressTest (client-example) at full size. The example server and the load client,
# both on the pooled codec, over loopback: 64 workers (8 connections x 8 streams) x 1000 POST /echo exchanges,
# each with request headers, a body of 1 to 48 KiB in 5000-byte DATA frames and trailers both ways, every
# response checked (status, request id, every body byte, trailers). Once per codec configuration on both sides:
# paranoid mode, reuse on, reuse off (option) and reuse off (system property), under paranoid leak detection.
#
#   src/soak/run.sh
#
# SOAK_CONNECTIONS (8), SOAK_STREAMS (8), SOAK_REQUESTS (exchanges per worker, 1000) and SOAK_TIMEOUT (seconds
# per configuration, 3600) change the size. Reports, per configuration, the load summary (requests, errors,
# latency, bytes, frame reuse) and the heap in use after a full GC at start and at end; then the leak reports
# and the test result. Exits non-zero on any error, failed check or leak. Log: client-example/target/soak.log.
set -uo pipefail

root=$(cd "$(dirname "$0")/../.." && pwd)
connections=${SOAK_CONNECTIONS:-8}
streams=${SOAK_STREAMS:-8}
requests=${SOAK_REQUESTS:-1000}
timeout_s=${SOAK_TIMEOUT:-3600}
log=$root/client-example/target/soak.log
mkdir -p "$(dirname "$log")"

echo "soak: $((connections * streams)) workers ($connections connections x $streams streams) x $requests exchanges," \
  "4 codec configurations, paranoid leak detection"
(cd "$root" && mvn -B -pl client-example -am test -Dtest=StressTest -Dsurefire.failIfNoSpecifiedTests=false \
  -Dio.netty.leakDetection.level=paranoid \
  -Dpooledh2.stress.connections="$connections" -Dpooledh2.stress.streams="$streams" \
  -Dpooledh2.stress.requestsPerWorker="$requests" -Dpooledh2.stress.timeoutSeconds="$timeout_s") > "$log" 2>&1
status=$?

# Each configuration's report: from "stress MODE:" to its heap line.
sed -n '/^stress [A-Z_]*: /,/^heap /p' "$log"
leaks=$(grep -c 'LEAK' "$log")
echo "soak: leak reports: $leaks"
grep -E 'Tests run:.*StressTest|FAIL' "$log" | head -20
if [ "$status" -ne 0 ] || [ "$leaks" -ne 0 ]; then
  echo "soak: FAILED (maven exit $status, $leaks leak reports); see $log"
  exit 1
fi
echo "soak: passed"
