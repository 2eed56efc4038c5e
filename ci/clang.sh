#!/usr/bin/env bash
# CI: compile the kernels with clang (Debian's clang package, installed when missing: CI runs as
# root on a fresh machine), check that clang built every kernel, and run the kernel tests on that build
# from outside the source tree (ci/test_installed.sh). Default example counts: quick (a tenth; the
# release build ran them in full).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
start=$(date +%s)
stamp() { echo "=== clang: $1 ($(( $(date +%s) - start )) s)"; }

if ! command -v clang > /dev/null; then
  stamp "installing clang"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq && apt-get install -y -qq clang > /dev/null
fi
clang --version | head -1

stamp "build a wheel with CC=clang"
# From a copy of the sources without any earlier build, so that nothing gcc compiled is reused.
mkdir "$work/src"
tar -C "$root" --exclude=./.git --exclude='./.*venv*' --exclude=./build --exclude='*.so' \
    --exclude='*.c' --exclude='*.egg-info' -cf - . | tar -C "$work/src" -xf -
python3 -m venv "$work/venv"
CC=clang LDSHARED="clang -shared" "$work/venv/bin/pip" wheel -q --no-deps -w "$work/dist" \
    "$work/src" > "$work/build.log" 2>&1 || { tail -40 "$work/build.log"; exit 1; }
wheel=$(ls "$work"/dist/llkcore-*.whl)
"$work/venv/bin/pip" install -q "$wheel[test]"

stamp "every kernel was compiled by clang"
# From $work: Python run in the clone's root would import the source folder, not the wheel.
site=$(cd "$work" && "$work/venv/bin/python" -c "import llkcore, os; print(os.path.dirname(llkcore.__file__))")
case "$site" in */site-packages/*) ;; *) echo "llkcore imported from $site, not the wheel"; exit 1;; esac
count=0
for so in "$site"/_core/*.so; do
  if ! readelf -p .comment "$so" | grep -q "clang version"; then
    echo "$so was not compiled by clang:"; readelf -p .comment "$so"; exit 1
  fi
  count=$((count + 1))
done
echo "$count kernels compiled by clang"

stamp "tests from outside the source tree"
# The tests of what the compiler changes: every kernel against llkref, the state machine, the
# solvers, deals, playouts, budgets and clocks, threads and allocation failures. (The whole suite
# runs on the gcc builds; CI's time goes to those.)
LLKCORE_HYPOTHESIS_PROFILE="${LLKCORE_HYPOTHESIS_PROFILE:-quick}" "$root/ci/test_installed.sh" "$work/venv" \
    tests/test_link.py tests/test_board.py tests/test_dropin.py tests/test_state_machine.py \
    tests/test_solver.py tests/test_solver_gravity.py tests/test_generate.py tests/test_playouts.py \
    tests/test_edges.py tests/test_threads.py tests/test_memory.py
stamp "done"
echo "CPU time (user, system) of this script, then of its children:"; times
