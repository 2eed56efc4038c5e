#!/usr/bin/env bash
# CI: build the sdist and a wheel from it with `python -m build`, check what each archive holds
# (the sdist: the kernels' .pyx/.pxd/.pyi and no generated .c; the wheel: compiled kernels, no
# .c or .pyx), install the wheel with its test extra into a fresh venv and run tests from outside
# the source tree (ci/test_installed.sh): what an installed wheel can get wrong, that is
# installing and importing (test_install; test_structure reads the installed modules), the llk command
# and its game (test_cli, test_play), the extras (test_dask, test_render's PNGs), saved games and
# errors, plus a quick pass over the kernels (test_link, test_board, test_dropin, test_solver,
# test_batch). The wheel's kernels are the release build's (same compiler, same flags), on which
# .ci/run has run the whole suite with full counts; the other kernel tests run on the
# bounds-checked, clang and ASan builds. Default example counts: the quick profile (a tenth);
# set LLKCORE_HYPOTHESIS_PROFILE to change them, or pass test files to run those instead:
#
#   ci/wheel.sh [test files...]
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
start=$(date +%s)
stamp() { echo "=== wheel: $1 ($(( $(date +%s) - start )) s)"; }

stamp "python -m build (sdist, then a wheel built from it)"
python3 -m venv "$work/tools"
"$work/tools/bin/pip" install -q build
"$work/tools/bin/python" -m build --outdir "$work/dist" "$root" > "$work/build.log" 2>&1 \
    || { tail -40 "$work/build.log"; exit 1; }
sdist=$(ls "$work"/dist/llkcore-*.tar.gz)
wheel=$(ls "$work"/dist/llkcore-*.whl)
ls -l "$sdist" "$wheel"

stamp "archive contents"
python3 - "$sdist" "$wheel" "$root/setup.py" <<'PY'
import ast, sys, tarfile, zipfile
sdist, wheel, setup_py = sys.argv[1:]
in_sdist = [n.split("/", 1)[1] for n in tarfile.open(sdist).getnames() if "/" in n]
in_wheel = zipfile.ZipFile(wheel).namelist()
# setup.py's KERNELS is the one list of kernel modules.
kernels = next(ast.literal_eval(node.value) for node in ast.parse(open(setup_py).read()).body
               if isinstance(node, ast.Assign) and getattr(node.targets[0], "id", "") == "KERNELS")
problems = []
for k in kernels:
    if f"llkcore/_core/{k}.pyx" not in in_sdist:
        problems.append(f"sdist lacks llkcore/_core/{k}.pyx")
    if not any(n.startswith(f"llkcore/_core/{k}.") and n.endswith((".so", ".pyd")) for n in in_wheel):
        problems.append(f"wheel lacks the compiled kernel {k}")
for need in ("llkcore/_core/grid.pxd", "llkcore/_core/state.pyi", "tests/conftest.py",
             "python/llkref/__init__.py", "llkcore/cli/__init__.py", "_llk_command.py", "LICENSE"):
    if need not in in_sdist:
        problems.append(f"sdist lacks {need}")
for need in ("llkcore/cli/__init__.py", "_llk_command.py", "llkcore/py.typed",
             "llkcore/_core/state.pyi"):
    if need not in in_wheel:
        problems.append(f"wheel lacks {need}")
# MIT asks for its notice to travel with every copy; the metadata names the licence in SPDX.
if not any(n.endswith(".dist-info/licenses/LICENSE") for n in in_wheel):
    problems.append("wheel lacks its LICENSE")
with zipfile.ZipFile(wheel) as z:
    meta = z.read(next(n for n in in_wheel if n.endswith(".dist-info/METADATA"))).decode()
if "License-Expression: MIT" not in meta:
    problems.append("wheel metadata lacks License-Expression: MIT")
problems += [f"sdist holds generated {n}" for n in in_sdist if n.endswith((".c", ".so", ".pyd"))]
problems += [f"wheel holds {n}" for n in in_wheel if n.endswith((".c", ".pyx", ".html", ".o"))]
problems += [f"wheel holds {n}" for n in in_wheel if n.split("/")[0] in ("tests", "bench", "python", "build")]
print(f"sdist: {len(in_sdist)} files; wheel: {len(in_wheel)} files")
if problems:
    sys.exit("archive check failed:\n  " + "\n  ".join(problems))
print("archives hold what they should")
PY

stamp "install the wheel into a fresh venv"
python3 -m venv "$work/venv"
"$work/venv/bin/pip" install -q "$wheel[test]"

stamp "tests from outside the source tree"
tests=("$@")
[ ${#tests[@]} -gt 0 ] || tests=(tests/test_install.py tests/test_structure.py tests/test_cli.py
    tests/test_play.py tests/test_dask.py tests/test_render.py tests/test_saving.py tests/test_errors.py
    tests/test_link.py tests/test_board.py tests/test_dropin.py tests/test_solver.py tests/test_batch.py)
LLKCORE_HYPOTHESIS_PROFILE="${LLKCORE_HYPOTHESIS_PROFILE:-quick}" "$root/ci/test_installed.sh" "$work/venv" \
    "${tests[@]}"
stamp "done"
echo "CPU time (user, system) of this script, then of its children:"; times
