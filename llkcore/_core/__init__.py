"""Compiled kernels of llkcore (Cython). Import them through the facade, not directly."""
