#!/usr/bin/env bash
# Run the test suite against an installed llkcore, from outside the source tree.
#
#   ci/test_installed.sh VENV [test files...]     (default: all of tests/)
#
# Copies tests/ and the reference engine (python/llkref) into a temporary folder and runs pytest
# there with VENV's Python, so `import llkcore` can only find the installed package (the clone's
# llkcore/ folder is nowhere on the path); checks that first.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
venv="$1"; shift
run="$(mktemp -d)"
trap 'rm -rf "$run"' EXIT
cp -r "$root/tests" "$run/tests"
mkdir "$run/python" && cp -r "$root/python/llkref" "$run/python/llkref"
cd "$run"
"$venv/bin/python" - <<'PY'
import pathlib, sys
import llkcore
where = pathlib.Path(llkcore.__file__).resolve()
print(f"llkcore {llkcore.__version__} from {where.parent}")
if "site-packages" not in where.parts:
    sys.exit(f"llkcore was imported from {where}, not from the installed package")
PY
export LLKCORE_HYPOTHESIS_PROFILE="${LLKCORE_HYPOTHESIS_PROFILE:-ci}"
# The test files to run (default: all of tests/).
paths=("$@")
[ ${#paths[@]} -gt 0 ] || paths=(tests)
"$venv/bin/python" -m pytest -q -p no:cacheprovider --rootdir "$run" -o pythonpath=python \
    -o addopts= "${paths[@]}"
