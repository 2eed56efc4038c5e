"""The facade's imports point down only (docs/architecture.md, "Layers"): no import cycle between
llkcore's modules, counting imports made inside functions (which hide a cycle from Python but not
from a reader) and leaving out those under ``if TYPE_CHECKING:`` (annotations only)."""
import ast
import re
from pathlib import Path

import pytest

import llkcore

PACKAGE = Path(llkcore.__file__).resolve().parent


def _module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _imports(path: Path, modules: set) -> set:
    """The llkcore modules ``path`` imports, anywhere in the file but under TYPE_CHECKING."""
    name = _module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()

    def visit(node):
        if isinstance(node, ast.If) and _is_type_checking(node):
            for child in node.orelse:
                visit(child)
            return
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[:len(base) - (node.level - 1)]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            for alias in node.names:
                # "from . import render" names a module; "from .board import Board" names a member.
                sub = f"{target}.{alias.name}"
                found.add(sub if sub in modules else target)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(ast.parse(path.read_text(encoding="utf-8")))
    return {m for m in found if m in modules and m != name}


def _graph():
    paths = [p for p in PACKAGE.rglob("*.py")]
    modules = {_module_name(p) for p in paths}
    # Compiled kernels are leaves (nothing they import is a facade module), named by their
    # sources in a clone and by their extension files in an installed wheel (which has no .pyx).
    kernels = [p for pattern in ("*.pyx", "*.so", "*.pyd") for p in (PACKAGE / "_core").glob(pattern)]
    modules |= {f"llkcore._core.{p.name.split('.')[0]}" for p in kernels}
    return {_module_name(p): _imports(p, modules) for p in paths}


def test_the_import_graph_has_no_cycle():
    graph = _graph()
    assert "llkcore.board" in graph and "llkcore._core.state" in graph["llkcore.board"]
    state = {}          # module -> "open" while on the stack, "done" after

    def walk(module, trail):
        state[module] = "open"
        for dep in sorted(graph.get(module, ())):
            if dep == "llkcore":
                continue        # the package itself: only llkcore/__init__ re-exports
            if state.get(dep) == "open":
                cycle = trail[trail.index(dep):] + [dep]
                raise AssertionError("import cycle: " + " -> ".join(cycle))
            if dep not in state:
                walk(dep, trail + [dep])
        state[module] = "done"

    for module in sorted(graph):
        if module not in state:
            walk(module, [module])


def test_nothing_below_the_package_imports_the_package_itself():
    """``from llkcore import x`` inside llkcore would run the whole facade's __init__ first."""
    graph = _graph()
    offenders = sorted(m for m, deps in graph.items() if "llkcore" in deps and m != "llkcore")
    assert offenders == []


def test_setup_lists_the_kernels_in_dependency_order():
    """setup.py's KERNELS: each kernel cimports only kernels listed before it (docs/architecture.md
    says so), but peeling and pairing, which cimport each other."""
    root = Path(__file__).resolve().parents[1]        # the source tree (a wheel has no .pyx)
    if not (root / "setup.py").exists():
        pytest.skip("the sources are not here (ci/wheel.sh runs a copy of the tests elsewhere)")
    tree = ast.parse((root / "setup.py").read_text())
    kernels = next(ast.literal_eval(node.value) for node in tree.body if isinstance(node, ast.Assign)
                   and any(isinstance(t, ast.Name) and t.id == "KERNELS" for t in node.targets))
    core = root / "llkcore" / "_core"
    assert sorted(kernels) == sorted(p.stem for p in core.glob("*.pyx"))
    pattern = re.compile(r"^\s*(?:from\s+\.?(\w+)\s+cimport|cimport\s+(\w+))", re.M)
    for i, name in enumerate(kernels):
        text = "".join(p.read_text() for p in (core / f"{name}.pyx", core / f"{name}.pxd") if p.exists())
        used = {a or b for a, b in pattern.findall(text)} & set(kernels) - {name}
        later = used - set(kernels[:i]) - ({"pairing"} if name == "peeling" else set())
        assert not later, f"{name} cimports {sorted(later)}, listed after it in setup.py"


def test_every_public_method_and_property_has_a_docstring():
    """help() on any public object says what it is (a helper's audit found 17 without one)."""
    import inspect

    import llkcore as llk
    from llkcore import _insight, render
    from llkcore.deals import Deals

    missing = []
    for cls in (llk.Board, llk.Index, llk.Rules, llk.Solver, llk.Solution, llk.Analysis, Deals,
                render.Picture, _insight.Hint, _insight.Traps):
        for name, member in inspect.getmembers(cls):
            if not name.startswith("_") and (callable(member) or isinstance(member, property)):
                if not (member.__doc__ or "").strip():
                    missing.append(f"{cls.__name__}.{name}")
    assert not missing, missing


def test_every_public_name_is_in_the_readme():
    """A user reading the README meets every name ``llkcore`` exports and every public member
    of its main classes (an audit found Solution, Analysis.concat and others unmentioned)."""
    import inspect

    import llkcore as llk

    readme = Path(__file__).resolve().parents[1] / "README.md"
    if not readme.exists():
        pytest.skip("the README is not here (ci/wheel.sh runs a copy of the tests elsewhere)")
    text = readme.read_text(encoding="utf-8")
    # Internal glue that is public for the package's own modules, not for users.
    internal = {"Rules.gravity_code"}
    missing = [name for name in llk.__all__ if name not in text]
    for cls in (llk.Board, llk.Index, llk.Rules, llk.Solver, llk.Solution, llk.Analysis):
        for name, _ in inspect.getmembers(cls):
            if not name.startswith("_") and f"{cls.__name__}.{name}" not in internal \
                    and not re.search(rf"\b{name}\b", text):
                missing.append(f"{cls.__name__}.{name}")
    assert not missing, missing
