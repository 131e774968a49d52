#!/usr/bin/env bash
# Runs the jcstress tests of the pooled frames' release and reuse protocol (module jcstress) and checks
# the results, since jcstress itself does not fail on every bad run (it exits 0 when no test matches).
#
#   src/jcstress/run.sh [--quick | --full | --negative] [extra jcstress options]
#
#   --quick     (default) the bounded profile CI runs: the JVM modes jcstress picks with -sc false
#               (interpreter, C1, C2, C2 with stress flags; biased locking on and off), one fork each,
#               3 x 100 ms iterations. About 2.5 minutes on 2 cores.
#   --full      the same JVM modes with 5 x 500 ms iterations. About 7.5 minutes on 2 cores.
#   --negative  the negative controls only. They break the retention contract on purpose and must
#               FAIL; the run passes when jcstress finds their forbidden outcomes. About 1 minute.
#
# JCSTRESS_OPTS replaces the profile's jcstress options (the test filter stays), for example
# JCSTRESS_OPTS="-sc true -f 1 -iters 5 -time 1000" for per-actor compilation modes (much longer).
#
# A quick or full run fails when a test is missing, FAILED (a FORBIDDEN outcome) or in error, when no
# test matches, or when a test whose outcomes mention REUSED never observed one: a run in which nothing
# was reused proves nothing about reuse. The jar is (re)built with Maven when it is missing or older than
# the sources. Output goes to jcstress/target/jcstress-run/<profile>/ (log, HTML report, result blob).
set -uo pipefail

root=$(cd "$(dirname "$0")/../.." && pwd)
jar=${JCSTRESS_JAR:-$root/jcstress/target/jcstress.jar}

profile=quick
if [ $# -gt 0 ]; then
  case "$1" in
    --quick) profile=quick; shift ;;
    --full) profile=full; shift ;;
    --negative) profile=negative; shift ;;
    -h|--help) sed -n '2,20p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
  esac
fi

# The project's tests, negative controls left out; -t takes a regexp matched against the class name.
positive='^io\.pooledh2\.codec\.'
negative='^io\.pooledh2\.jcstress\.negative\.'
case "$profile" in
  quick) filter=$positive; opts=(-sc false -f 1 -fsm 1 -iters 3 -time 100) ;;
  full) filter=$positive; opts=(-sc false -f 1 -fsm 1 -iters 5 -time 500) ;;
  negative) filter=$negative; opts=(-sc false -f 1 -fsm 1 -iters 3 -time 100) ;;
esac
if [ -n "${JCSTRESS_OPTS:-}" ]; then
  read -r -a opts <<< "$JCSTRESS_OPTS"
fi

fail() {
  echo "jcstress ($profile): FAIL: $*" >&2
  exit 1
}

# Build when the jar is missing or stale (a rebuilt codec or test class would otherwise go untested).
if [ -z "${JCSTRESS_JAR:-}" ]; then
  if [ ! -f "$jar" ] || [ -n "$(find "$root/jcstress/src" "$root/jcstress/pom.xml" "$root/codec/src/main" \
      "$root/codec/pom.xml" -newer "$jar" -print -quit)" ]; then
    echo "jcstress ($profile): building $jar"
    mvn -B -q -f "$root/pom.xml" -pl jcstress -am package -DskipTests || fail "the build failed"
  fi
fi
[ -f "$jar" ] || fail "no jar at $jar"

run_dir=$root/jcstress/target/jcstress-run/$profile
rm -rf "$run_dir"
mkdir -p "$run_dir"
cd "$run_dir" || fail "cannot enter $run_dir"
log=$run_dir/jcstress.log

# The tests that must run: jcstress's own list for the filter.
expected=$(java -jar "$jar" -l -t "$filter" | grep -E '^io\.pooledh2\.' | sort)
[ -n "$expected" ] || fail "no test matches $filter"

echo "jcstress ($profile): $(echo "$expected" | wc -l) tests, options: -t '$filter' ${opts[*]} $*"
java -jar "$jar" -t "$filter" "${opts[@]}" -v "$@" 2>&1 | tee "$log"
status=${PIPESTATUS[0]}

grep -q '^FATAL' "$log" && fail "$(grep '^FATAL' "$log" | head -1)"
grep -q '^RUN RESULTS:' "$log" || fail "jcstress stopped before its results (exit $status)"

# From the final results: each test's status, and the tests that mention REUSED without observing it.
summary=$(awk '
  /^RUN RESULTS:/ { results = 1; next }
  !results { next }
  /[[](OK|FAILED|ERROR|TIMEOUT|VM ERROR|SKIPPED)[]] [^ ]+$/ {
    test = $NF
    label = $0; sub(/^[^[]*[[]/, "", label); sub(/[]].*$/, "", label)
    print "status", test, label
    next
  }
  test != "" && match($0, / +[0-9,]+ +<?[0-9.]+% +(Acceptable|Interesting|Forbidden|Unknown)( |$)/) {
    id = substr($0, 1, RSTART - 1)
    split(substr($0, RSTART), column, " ")
    samples = column[1]; gsub(/,/, "", samples)
    if (id ~ /REUSED/) {
      mentions[test] = 1
      if (samples + 0 > 0) observed[test] = 1
    }
  }
  END { for (t in mentions) if (!(t in observed)) print "noreuse", t }
' "$log")

problems=0
for test in $expected; do
  label=$(echo "$summary" | awk -v t="$test" '$1 == "status" && $2 == t { $1 = ""; $2 = ""; sub(/^ +/, ""); print }')
  if [ "$profile" = negative ]; then
    want=FAILED
  else
    want=OK
  fi
  if [ "$label" != "$want" ]; then
    echo "jcstress ($profile): $test: ${label:-did not run} (expected $want)" >&2
    problems=$((problems + 1))
  fi
done
for test in $(echo "$summary" | awk '$1 == "noreuse" { print $2 }'); do
  echo "jcstress ($profile): $test: no sample observed reuse (REUSED); the run proves nothing about reuse" >&2
  problems=$((problems + 1))
done

if [ "$profile" = negative ]; then
  [ "$problems" -eq 0 ] || fail "a negative control did not find its forbidden outcome"
  echo "jcstress ($profile): OK: every negative control found its forbidden outcome (log: $log)"
  exit 0
fi
[ "$problems" -eq 0 ] || fail "$problems problem(s), see above and $log"
[ "$status" -eq 0 ] || fail "jcstress exited with $status"
echo "jcstress ($profile): OK: $(echo "$expected" | wc -l) tests passed, reuse observed where required (log: $log)"
