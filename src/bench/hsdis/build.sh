#!/usr/bin/env bash
# Builds hsdis-amd64.so (hsdis-capstone.c) into target/hsdis/ at the repository root, installing Debian's
# libcapstone-dev first if it is missing, and prints how to use it:
#   LD_LIBRARY_PATH=target/hsdis java -jar jmh/target/benchmarks.jar ... -prof 'perfasm:events=cpu-clock'
# (cpu-clock: this machine has no hardware counters; the samples land on the instruction after a slow one).
set -euo pipefail
root=$(cd "$(dirname "$0")/../../.." && pwd)
if [ ! -f /usr/include/capstone/capstone.h ]; then
  apt-get install -y libcapstone-dev >/dev/null
fi
mkdir -p "$root/target/hsdis"
gcc -O2 -shared -fPIC -o "$root/target/hsdis/hsdis-amd64.so" "$(dirname "$0")/hsdis-capstone.c" -lcapstone
echo "hsdis: built $root/target/hsdis/hsdis-amd64.so; use it with LD_LIBRARY_PATH=$root/target/hsdis"
