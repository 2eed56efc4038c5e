"""Build the compiled kernels of llkcore.

Compiler directives live here and only here. ``LLKCORE_DEBUG=1 pip install .`` turns bounds and
wraparound checks on (the test suite runs on that build too); the default build is the fast one.
"""
import os

import numpy
from Cython.Build import cythonize
from setuptools import Extension, setup

DEBUG = os.environ.get("LLKCORE_DEBUG", "") not in ("", "0")

DIRECTIVES = {
    "language_level": 3,
    "boundscheck": DEBUG,
    "wraparound": DEBUG,
    "initializedcheck": DEBUG,
    "cdivision": True,
    "nonecheck": False,
    "embedsignature": True,
}

KERNELS = ["grid", "link", "pairs", "solve", "gen"]

extensions = [
    Extension(
        f"llkcore._core.{name}",
        [f"llkcore/_core/{name}.pyx"],
        include_dirs=[numpy.get_include(), "llkcore/_core"],
        define_macros=[("NPY_NO_DEPRECATED_API", "NPY_1_7_API_VERSION")],
        extra_compile_args=["-O0", "-g"] if DEBUG else ["-O3"],
    )
    for name in KERNELS
]

setup(ext_modules=cythonize(extensions, compiler_directives=DIRECTIVES, quiet=True))
