#!/usr/bin/env bash
# The long differential fuzz. Reader (default): random HTTP/2 frame sequences, valid and mutated, read by Netty's
# DefaultHttp2FrameReader and by PooledHttp2FrameReader (random deliveries, buffer kinds, paranoid / no-reuse /
# keeps-nothing variants); the listener transcripts must match (RandomizedDifferentialTest's cases). Writer
# (--writer): random call sequences through DefaultHttp2FrameWriter and PooledHttp2FrameWriter; bytes, promise
# outcomes and released inputs must match (RandomizedWriterDifferentialTest's cases). Fresh seeds for a time
# budget; both run by DifferentialFuzz (codec/src/test).
#
#   src/fuzz/run.sh [--writer] MINUTES                 fresh seeds for MINUTES (decimals allowed: 0.33 is 20 s)
#   src/fuzz/run.sh [--writer] --seed S [--cases N]    replays seed S, its first N cases (as printed with a divergence)
#   src/fuzz/run.sh --hpack MINUTES|--blocks N|--seed S
#                                           the HPACK decoder instead: PooledHttp2HeadersDecoder against Netty's
#                                           DefaultHttp2HeadersDecoder on header block sequences from Netty's
#                                           encoder, plus corrupted ones (HpackDifferential's cases, run by
#                                           HpackDifferentialFuzz); fresh seeds for MINUTES or until N blocks
#
# Prints inputs per second, divergences and leaks every 10 s and at the end, with the seed of every divergence
# and the seeds run before any leak report. Exits 1 on any divergence or leak. Runs under paranoid leak
# detection (FUZZ_LEAK_LEVEL to change it); JAVA_OPTS adds JVM options; FUZZ_JVMS=N runs N JVMs side by side
# (fresh seeds each) and sums them. -XX:-OmitStackTraceInFastThrow: otherwise, once hot, an exception the JVM
# throws (an NPE on a null argument) can lose its message on one side only, a divergence of the JIT's. Builds the codec's test classes first.
set -uo pipefail

root=$(cd "$(dirname "$0")/../.." && pwd)
mode=()
if [ "${1:-}" = "--writer" ]; then
  mode=(--writer)
  shift
fi
if [ $# -eq 0 ]; then
  sed -n '2,21p' "$0" | sed 's/^# \{0,1\}//'
  exit 2
fi
main=io.pooledh2.codec.DifferentialFuzz
if [ "$1" = "--hpack" ]; then
  main=io.pooledh2.codec.HpackDifferentialFuzz
  shift
  case "${1:-}" in
    --blocks|--seed) args=("$@") ;;
    *) args=(--minutes "${1:?usage: run.sh --hpack MINUTES|--blocks N|--seed S}") ;;
  esac
elif [ "$1" = "--seed" ]; then
  args=("${mode[@]}" "$@")
else
  args=("${mode[@]}" --minutes "$1")
fi

out=$root/codec/target/fuzz
mkdir -p "$out"
echo "fuzz: building the codec's test classes"
if ! (cd "$root" && mvn -B -q -pl codec test-compile dependency:build-classpath \
      -Dmdep.outputFile="$out/classpath.txt" -Dmdep.includeScope=test > "$out/build.log" 2>&1); then
  cat "$out/build.log"
  exit 1
fi

cp="$root/codec/target/test-classes:$root/codec/target/classes:$(cat "$out/classpath.txt")"
jvms=${FUZZ_JVMS:-1}
if [ "$jvms" -le 1 ] || [ "$1" = "--seed" ]; then
  # shellcheck disable=SC2086
  exec java -XX:-OmitStackTraceInFastThrow ${JAVA_OPTS:-} -Dio.netty.leakDetection.level="${FUZZ_LEAK_LEVEL:-paranoid}" -cp "$cp" \
    "$main" "${args[@]}"
fi
# FUZZ_JVMS=N: N JVMs side by side, each with its own fresh seeds (one per core), then the totals.
pids=()
for i in $(seq 1 "$jvms"); do
  # shellcheck disable=SC2086
  java -XX:-OmitStackTraceInFastThrow ${JAVA_OPTS:-} -Dio.netty.leakDetection.level="${FUZZ_LEAK_LEVEL:-paranoid}" -cp "$cp" \
    "$main" "${args[@]}" > "$out/fuzz-$i.log" 2>&1 &
  pids+=($!)
done
status=0
for pid in "${pids[@]}"; do wait "$pid" || status=1; done
for i in $(seq 1 "$jvms"); do
  echo "fuzz JVM $i:"; grep -E 'DIVERGENCE|LEAK|fuzz: done' "$out/fuzz-$i.log" | sed 's/^/  /'
done
cat "$out"/fuzz-*.log | awk '/^fuzz: done:/ {inputs += $3; secs = ($6 > secs ? $6 : secs); div += $(NF-3); leaks += $(NF-1)}
  END {printf "fuzz: total: %d inputs from '"$jvms"' JVMs in %.1f s (%.0f inputs/s), %d divergences, %d leaks\n",
       inputs, secs, inputs / secs, div, leaks}'
exit "$status"
