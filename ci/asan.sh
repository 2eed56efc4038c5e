#!/usr/bin/env bash
# CI: the kernels built with AddressSanitizer (gcc -fsanitize=address, LLKCORE_SANITIZE=address
# in setup.py) into a fresh venv from a copy of the sources (the normal build is untouched), then
# the differential tests, the solver tests (gravity and playouts too), the thread stress, the
# memory tests and a slice of the fuzz suite with the ASan runtime preloaded. Any ASan report fails the run: ASan aborts the
# process that made it, and every report (subprocesses' too) is also written to a log file that
# is checked at the end. Runs as root on a clean clone (docs/architecture.md, "Fuzzing,
# AddressSanitizer and the leak check").
#
# The tests run with the quick hypothesis profile (a tenth of the examples; set
# LLKCORE_HYPOTHESIS_PROFILE to change it): about 170 s alone on a 2-core machine, more when
# .ci/run runs this script beside its foreground lane, hence a generous box: on a slow day of
# this machine (the benchmarks at a third of their usual speed) they ran past 480 s alone,
# cut off at 83% with no report.
#
#   ci/asan.sh                    # about a minute of build, then at most ASAN_TEST_SECONDS of tests
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
start=$(date +%s)
stamp() { echo "=== asan: $1 ($(( $(date +%s) - start )) s)"; }
#: The tests' time box in seconds (the build is not in it).
ASAN_TEST_SECONDS="${ASAN_TEST_SECONDS:-720}"

command -v gcc > /dev/null || { echo "asan: gcc is needed"; exit 1; }
libasan="$(gcc -print-file-name=libasan.so)"
[ -e "$libasan" ] || { echo "asan: gcc has no libasan.so ($libasan); install libasan"; exit 1; }

stamp "build the kernels with -fsanitize=address (gcc) into a fresh venv"
# From a copy of the sources without any earlier build: nothing compiled without ASan is reused.
mkdir "$work/src"
tar -C "$root" --exclude=./.git --exclude='./.*venv*' --exclude=./build --exclude='*.so' \
    --exclude='*.c' --exclude='*.egg-info' -cf - . | tar -C "$work/src" -xf -
python3 -m venv "$work/venv"
# LLKCORE_DEBUG=1 as well: bounds checks on, and -O0 compiles in half the time of -O3.
CC=gcc LLKCORE_SANITIZE=address LLKCORE_DEBUG=1 "$work/venv/bin/pip" install -q "$work/src[test,png]" \
    > "$work/build.log" 2>&1 || { tail -40 "$work/build.log"; exit 1; }

stamp "every kernel is instrumented"
# (An instrumented kernel loads only with the ASan runtime first in the process: preloaded.)
site=$(cd "$work" && LD_PRELOAD="$libasan" ASAN_OPTIONS=detect_leaks=0 "$work/venv/bin/python" \
       -c "import llkcore, os; print(os.path.dirname(llkcore.__file__))")
case "$site" in */site-packages/*) ;; *) echo "llkcore imported from $site, not the venv"; exit 1;; esac
count=0
for so in "$site"/_core/*.so; do
  # (grep without -q: -q would stop reading, and nm's SIGPIPE fails the pipe under pipefail.)
  if ! nm -D "$so" | grep "__asan_" > /dev/null; then
    echo "$so is not built with AddressSanitizer"; exit 1
  fi
  count=$((count + 1))
done
echo "$count kernels built with AddressSanitizer"

stamp "differential, solver, thread, memory and fuzz tests under ASan"
# From a folder outside the source tree, so that `import llkcore` finds the ASan build.
run="$work/run"
mkdir -p "$run/python"
cp -r "$root/tests" "$run/tests"
cp -r "$root/python/llkref" "$run/python/llkref"
mkdir "$work/reports"
status=0
(
  cd "$run"
  # detect_leaks=0: CPython keeps objects alive at exit by design. abort_on_error: a report
  # ends the process (and fails its test). log_path: every report lands in a file too, also
  # from subprocesses whose tests would only see an exit code. PYTHONMALLOC=malloc: Python's
  # own objects come from malloc, so ASan sees overruns into them as well. The test deselected
  # runs moves() under a 1 GiB address-space limit, which ASan's shadow memory cannot live in.
  export LD_PRELOAD="$libasan"
  export ASAN_OPTIONS="detect_leaks=0:abort_on_error=1:halt_on_error=1:detect_stack_use_after_return=0:strict_init_order=1:check_initialization_order=1:log_path=$work/reports/asan"
  export PYTHONMALLOC=malloc
  export LLKCORE_HYPOTHESIS_PROFILE="${LLKCORE_HYPOTHESIS_PROFILE:-quick}"
  export LLKCORE_STRESS_SECONDS="${LLKCORE_STRESS_SECONDS:-10}"
  export LLKCORE_FUZZ_CALLS="${LLKCORE_FUZZ_CALLS:-20000}"
  export LLKCORE_FUZZ_SECONDS="${LLKCORE_FUZZ_SECONDS:-40}"
  timeout --signal=INT --kill-after=30 "$ASAN_TEST_SECONDS" \
    "$work/venv/bin/python" -m pytest -q -p no:cacheprovider -p no:randomly --rootdir "$run" \
      -o pythonpath=python -o addopts= -o "markers=fuzz: the fuzzing suite" --durations=15 \
      --deselect tests/test_board.py::test_moves_memory_follows_the_answer_not_the_same_type_pairs \
      tests/test_link.py tests/test_board.py tests/test_dropin.py tests/test_solver.py \
      tests/test_solver_gravity.py tests/test_playouts.py \
      tests/test_threads.py tests/test_memory.py tests/fuzz
) || status=$?

if ls "$work"/reports/asan.* > /dev/null 2>&1; then
  echo "asan: AddressSanitizer reports:"
  cat "$work"/reports/asan.*
  exit 1
fi
if [ "$status" -eq 124 ]; then
  echo "asan: the tests ran past their time box of $ASAN_TEST_SECONDS s"
fi
stamp "done (exit $status)"
exit "$status"
