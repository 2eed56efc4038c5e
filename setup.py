"""Build the compiled kernels of llkcore (llkcore/_core/*.pyx; docs/architecture.md, "Layout").

Compiler directives and flags live here and only here:

- ``LLKCORE_DEBUG=1 pip install .`` turns bounds, wraparound and initialisation checks on and
  optimisation off (the test suite runs on that build too); the default build is the fast one.
- ``LLKCORE_SANITIZE=address pip install .`` builds the kernels with AddressSanitizer (gcc or
  clang; run Python with the ASan runtime preloaded, see ci/asan.sh).
- Flags are chosen per compiler (MSVC or a GCC-compatible one: gcc, clang); ``CC=clang`` picks
  clang as usual.

The extensions are compiled in parallel, one job per core.
"""
import os

import numpy
from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

DEBUG = os.environ.get("LLKCORE_DEBUG", "") not in ("", "0")
SANITIZE = os.environ.get("LLKCORE_SANITIZE", "")

DIRECTIVES = {
    "language_level": 3,
    "boundscheck": DEBUG,
    "wraparound": DEBUG,
    "initializedcheck": DEBUG,
    "cdivision": True,
    "nonecheck": False,
    "embedsignature": True,
}

#: One extension module per kernel file, in dependency order (docs/architecture.md): each
#: cimports only those before it, but peeling and pairing, which cimport each other.
KERNELS = ["alloc", "reach", "path", "run", "state", "link", "reader", "memo", "pairs", "greedy",
           "matching", "peeling", "pairing", "gravity_dead", "playouts", "gravity_search", "solve",
           "deal"]

# Flags by compiler family: (release, debug). GCC and clang share the "unix" family. A release
# build drops the debug information Python's own CFLAGS ask for (-g0 after them): the wheel
# shrinks from 2.2 MB to about 0.5 MB and compiles faster.
FLAGS = {
    "msvc": (["/O2"], ["/Od", "/Zi"]),
    "unix": (["-O3", "-g0"], ["-O0", "-g"]),
}


class BuildKernels(build_ext):
    """build_ext that runs Cython first (only when kernels are built: making an sdist does not
    need the C), with per-compiler flags and one parallel job per core."""

    def finalize_options(self):
        super().finalize_options()
        if self.parallel is None:
            self.parallel = os.cpu_count() or 1

    def run(self):
        from Cython.Build import cythonize

        # One folder of generated C per configuration: Cython decides what to regenerate by
        # timestamps, not by directives, so a debug build must never reuse release C.
        flavour = ("debug" if DEBUG else "release") + (f"-{SANITIZE}" if SANITIZE else "")
        generated = cythonize(self.extensions, compiler_directives=DIRECTIVES, quiet=True,
                              nthreads=os.cpu_count() or 1,
                              build_dir=os.path.join("build", f"cython-{flavour}"))
        sources = {ext.name: ext.sources for ext in generated}
        for ext in self.extensions:          # keep the objects setuptools has prepared
            ext.sources = sources[ext.name]
        super().run()

    def build_extensions(self):
        family = "msvc" if self.compiler.compiler_type == "msvc" else "unix"
        compile_args = list(FLAGS[family][1 if DEBUG else 0])
        link_args = []
        if SANITIZE:
            if family == "msvc":
                compile_args.append(f"/fsanitize={SANITIZE}")
            else:
                compile_args += [f"-fsanitize={SANITIZE}", "-fno-omit-frame-pointer", "-g"]
                link_args.append(f"-fsanitize={SANITIZE}")
        for ext in self.extensions:
            ext.extra_compile_args = compile_args
            ext.extra_link_args = link_args
        super().build_extensions()


extensions = [
    Extension(
        f"llkcore._core.{name}",
        [f"llkcore/_core/{name}.pyx"],
        include_dirs=[numpy.get_include(), "llkcore/_core"],
        define_macros=[("NPY_NO_DEPRECATED_API", "NPY_1_7_API_VERSION")],
    )
    for name in KERNELS
]

setup(ext_modules=extensions, cmdclass={"build_ext": BuildKernels})
