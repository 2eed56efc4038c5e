"""Batch analysis on a Dask cluster: the same ``Analysis`` as ``llk.analyze``, computed by
partitions on Dask workers (``pip install llkcore[dask]``).

    import dask.bag as db
    from distributed import Client
    import llkcore.dask

    client = Client("scheduler:8786")                  # or a LocalCluster
    bag = db.from_sequence(grids, npartitions=64)      # grids, or Boards (they pickle)
    result = llkcore.dask.analyze(bag)                 # an llk.Analysis, in input order

Each partition runs ``llk.analyze`` on one worker (``threads`` threads there; the default 1 suits
one Dask worker thread per core). Results are gathered and concatenated in partition order, so they
equal the local ``llk.analyze`` of the same boards field by field (timings aside).

This module is named after the package it uses: ``import dask`` here is the real Dask (absolute
imports), imported only when a function is called, so ``import llkcore`` never needs Dask.
"""
from __future__ import annotations

import time
from typing import Any, Dict, Iterable, List, Optional, Tuple

import numpy as np

from ._core.state import MAX_SIDE
from .batch import (Analysis, analyze as _analyze_local, check_batch_array, prepare_board,
                    resolve_workers)
from .checks import flag, optional_integer
from .errors import BoardError
from .rules import Rules, as_rules
from .solver import Solver


def _require_dask() -> Any:
    try:
        import dask
        import dask.bag  # noqa: F401  (the [bag] extra)
    except ImportError as exc:
        raise ImportError("llkcore.dask needs Dask: pip install 'llkcore[dask]' "
                          f"({exc})") from exc
    return dask


def analyze_partition(items: Iterable[Any], options: Dict[str, Any], partition: int = 0) -> Analysis:
    """Analyse one partition (a list of grids/Boards, or a (b, R, C) array) on a worker. A bad
    board's error also carries its ``partition`` (analyze turns that into its input index)."""
    if not isinstance(items, np.ndarray):
        items = list(items)
    try:
        return _analyze_local(items, **options)
    except (BoardError, ValueError) as exc:
        if getattr(exc, "board_index", None) is not None:
            setattr(exc, "partition", partition)    # (attributes of batch.board_error's errors)
        raise


def _first_bad_board(items: Iterable[Any], rules: Optional[Rules]
                     ) -> Tuple[int, Optional[Exception]]:
    """(how many boards ``items`` holds, the error of its first bad one or None): each board
    is built as analyze builds it, none is solved."""
    count = 0
    for count, item in enumerate(items, 1):
        try:
            prepare_board(count - 1, item, rules)
        except (BoardError, ValueError) as exc:
            if getattr(exc, "board_index", None) is None:
                raise
            return count, exc
    return count, None


def _is_array(collection: Any) -> bool:
    try:
        import dask.array as da
    except ImportError:  # dask.array needs only numpy, but be safe
        return False
    return isinstance(collection, da.Array)


def analyze(collection: Any, *, rules: Optional[Rules] = None, strategy: str = "exact",
            node_limit: Optional[int] = None, time_limit: Optional[float] = None,
            threads: int = 1, keep_moves: bool = False, rate: bool = False,
            npartitions: Optional[int] = None, scheduler: Optional[str] = None) -> Analysis:
    """Analyse every board of a Dask collection; returns one ``Analysis`` in input order.

    collection: a ``dask.bag.Bag`` of grids or Boards; a ``dask.array.Array`` of shape
        (B, R, C) (chunked along B only; other chunkings are rechunked); or, for convenience, a
        (B, R, C) ndarray or a sequence of boards, split into ``npartitions`` bag partitions.
    rules, strategy, node_limit, time_limit, keep_moves, rate: as for ``llk.analyze``.
    threads: ``llk.analyze`` threads per partition on its worker.
    npartitions: bag partitions for an ndarray or a sequence (an int >= 1; None: about four per
        cluster thread, at most one per board).
    scheduler: passed to ``dask.compute`` (None: the active Client if any, else Dask's default).

    Parameters are checked here before anything is sent to the cluster. A bad board raises
    as in ``llk.analyze``, naming its index in the whole input.
    """
    dask = _require_dask()
    import dask.bag as db

    rules = None if rules is None else as_rules(rules)
    threads = resolve_workers(threads, "threads")
    keep_moves = flag(keep_moves, "keep_moves")
    rate = flag(rate, "rate")
    npartitions = optional_integer(npartitions, "npartitions", low=1)
    Solver(rules=None, strategy=strategy, node_limit=node_limit, time_limit=time_limit)
    options: Dict[str, Any] = dict(rules=rules, strategy=strategy, node_limit=node_limit,
                                   time_limit=time_limit, workers=threads, keep_moves=keep_moves,
                                   rate=rate)

    if isinstance(collection, np.ndarray) or isinstance(collection, (list, tuple)):
        if isinstance(collection, np.ndarray) and collection.ndim != 3:
            raise BoardError(f"a batch array must have shape (B, rows, cols), got {collection.shape}")
        n = len(collection)
        parts = npartitions if npartitions is not None else max(1, min(n, 4 * (_cluster_threads(default=1) or 1)))
        collection = db.from_sequence(list(collection), npartitions=parts) if n else None
        if collection is None:
            return _analyze_local([], **options)
    elif npartitions is not None:
        raise TypeError("npartitions applies to an ndarray or a sequence; repartition a Dask "
                        "collection yourself")

    if isinstance(collection, db.Bag):
        blocks: List[Any] = list(collection.to_delayed())
    elif _is_array(collection):
        check_batch_array(collection)
        rows, cols = collection.shape[1:]
        if not (0 < rows <= MAX_SIDE and 0 < cols <= MAX_SIDE):
            # Before the rechunk to whole boards: a graph of millions of tasks was built first.
            raise BoardError(f"boards have 1 to {MAX_SIDE} rows and columns; this batch array's "
                             f"are {rows} x {cols} (shape {collection.shape})")
        if len(collection.chunks[1]) != 1 or len(collection.chunks[2]) != 1:
            collection = collection.rechunk({1: -1, 2: -1})
        blocks = list(collection.to_delayed().ravel())
    else:
        raise TypeError("llkcore.dask.analyze takes a dask.bag.Bag, a 3-D dask.array.Array, an "
                        f"ndarray or a sequence of boards; got {type(collection).__name__}")

    task = dask.delayed(analyze_partition, pure=True)
    start = time.perf_counter()
    try:
        parts = dask.compute(*[task(block, options, k) for k, block in enumerate(blocks)],
                             scheduler=scheduler)
    except (BoardError, ValueError) as exc:
        k = getattr(exc, "partition", None)
        if k is None:
            raise
        # The scheduler raises the error of whichever partition failed first in time; the
        # first bad board in input order may be in a partition before it (local analyze names
        # that one). Those partitions are read again, their boards built and not solved: their
        # sizes and first bad board (a bag's sizes are known only once computed).
        checked = dask.compute(*[dask.delayed(_first_bad_board)(block, rules)
                                 for block in blocks[:k]], scheduler=scheduler)
        offset = 0
        for size, bad in checked:
            if bad is not None:
                exc = bad
                break
            offset += size
        index, detail = getattr(exc, "board_index"), getattr(exc, "detail")
        raise type(exc)(f"board {offset + index}: {detail}") from None
    wall = time.perf_counter() - start
    result = Analysis.concat(parts, workers=_cluster_threads(default=None), wall_seconds=wall)
    # Parameters as asked, also when there was no partition to take them from (the rules, when
    # not given, are the boards' own if they share one set: concat).
    result.strategy = strategy
    if rules is not None:
        result.rules = rules
    result.node_limit, result.time_limit = node_limit, time_limit
    return result


def _cluster_threads(default: Optional[int]) -> Optional[int]:
    """Worker threads of the active distributed Client, else ``default``."""
    try:
        from distributed import get_client
        client = get_client()
    except (ImportError, ValueError):
        return default
    try:
        return int(sum(client.nthreads().values())) or default
    except Exception:  # pragma: no cover - a client that went away meanwhile
        return default
