#!/usr/bin/env bash
# Copyright 2026 The pooledh2 authors. Licensed under the Apache License, version 2.0.
#
# Runs the JMH benchmarks of the jmh module (stock Netty against pooledh2) and renders the report.
#
#   src/bench/run.sh [quick|standard|full] [extra JMH options...]
#
#   quick  about 12 minutes on 2 cores (11.5 at d47d999): 1 fork; per frame 1 x 1 s warmup, 3 x 1 s measurement;
#          pipeline 3 x 1 s warmup, 3 x 1 s measurement. The listenerKeepsNothing variant only for
#          SETTINGS and GOAWAY, the two frames where it changes anything.
#   standard  2 forks; per frame 2 x 1 s warmup, 5 x 1 s measurement; pipeline 3 x 1 s warmup, 5 x 1 s
#          measurement; every variant (about 37 minutes).
#   full   2 forks, 5 x 1 s warmup, 5 x 2 s measurement, every variant of every benchmark (about 55 minutes).
#
# Every run uses -prof gc (B/op, GC count and time), -foe true (a failing benchmark stops the run) and JSON
# output. Writes src/bench/results/PROFILE.json (all results), PROFILE.md (tables), PROFILE-bytes.svg (chart)
# and PROFILE.log (JMH's console output). docs/benchmarks.md says how to read them.
#
# Environment: SKIP_BUILD=1 reuses jmh/target/benchmarks.jar instead of building it first.
# Run nothing else meanwhile: the numbers are only as quiet as the machine.
set -euo pipefail

profile=${1:-quick}
shift || true
case "$profile" in
  quick | standard | full) ;;
  *) echo "usage: $0 [quick|standard|full] [extra JMH options...]" >&2; exit 2 ;;
esac

root=$(cd "$(dirname "$0")/../.." && pwd)
bench_dir=$root/src/bench
results=$bench_dir/results
jar=$root/jmh/target/benchmarks.jar
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

if [ "${SKIP_BUILD:-0}" != 1 ]; then
  echo "run: building $jar"
  mvn -B -q -f "$root/pom.xml" -pl jmh -am package -DskipTests
fi
[ -f "$jar" ] || { echo "run: $jar missing (build the jmh module)" >&2; exit 1; }

# Before the log is truncated: the results are tracked, and a run must not call itself dirty.
dirty=$(git -C "$root" status --porcelain 2>/dev/null | grep -q . && echo "+local changes" || true)
mkdir -p "$results"
log=$results/$profile.log
: > "$log"
started=$(date -u +%Y-%m-%dT%H:%MZ)
start_s=$(date +%s)
load=$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo "?")
commit=$(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo "unknown")
cpus=$(nproc 2>/dev/null || echo "?")
java_version=$(java -version 2>&1 | head -1)
echo "run: $profile profile, $started, $cpus CPUs, load $load, $java_version, commit $commit$dirty" | tee -a "$log"

# One JMH invocation: NAME, then JMH arguments. Its JSON goes to $work/NAME.json.
jmh() {
  local name=$1
  shift
  echo "run: [$name] java -jar benchmarks.jar $*" | tee -a "$log"
  java -jar "$jar" "$@" -prof gc -foe true -rf json -rff "$work/$name.json" "${extra[@]}" >> "$log" 2>&1 || {
    echo "run: [$name] failed, see $log" >&2
    tail -40 "$log" >&2
    exit 1
  }
}

extra=("$@")
frames='io\.pooledh2\.jmh\.frame\.FrameParseBenchmark\.'
pipeline='io\.pooledh2\.jmh\.pipeline\.'
if [ "$profile" = quick ]; then
  frame_opts=(-f 1 -wi 1 -w 1s -i 3 -r 1s)
  jmh frames "$frames" "${frame_opts[@]}" -p reader=stockFrame,pooledFrame,stockListener,pooledListener
  jmh keeps-nothing "$frames" "${frame_opts[@]}" -p reader=pooledListenerKeepsNothing -p frame=SETTINGS,GOAWAY
  jmh pipeline "$pipeline" -f 1 -wi 3 -w 1s -i 3 -r 1s
elif [ "$profile" = standard ]; then
  jmh frames "$frames" -f 2 -wi 2 -w 1s -i 5 -r 1s
  jmh pipeline "$pipeline" -f 2 -wi 3 -w 1s -i 5 -r 1s
else
  jmh frames "$frames" -f 2 -wi 5 -w 1s -i 5 -r 2s
  jmh pipeline "$pipeline" -f 2 -wi 5 -w 1s -i 5 -r 2s
fi

elapsed=$(( $(date +%s) - start_s ))
note="$started, $cpus CPUs (load $load at start), commit $commit$dirty, $(( elapsed / 60 )) min $(( elapsed % 60 )) s"
python3 "$bench_dir/render.py" --profile "$profile" --out "$results" --note "$note" "$work"/*.json | tee -a "$log"
echo "run: done in $(( elapsed / 60 )) min $(( elapsed % 60 )) s; report: $results/$profile.md" | tee -a "$log"
