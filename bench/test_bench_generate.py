"""Deals: solvable generation with a certificate vs KShisen's rejection scheme, and reshuffles.

generate-18x8: llk.generate(18, 8, solvable=True) against llkref.kshisen_generate(18, 8) (deal at
random, keep the first deal one greedy playout clears, at most 200 deals) on the same seeds:
ratio = ref / core. How many deals KShisen's scheme tried, and how often it found none, goes to
the benchmark's extra_info. generate-40x40-* and reshuffle-40x40-half have no llkref baseline
(KShisen's scheme practically never succeeds at 40x40) and are reported, not gated.
"""
import itertools

import llkref

import llkcore as llk

#: KShisen's scheme takes seconds per 18x8 deal in pure Python (4.3 s measured): three seeds give
#: a median, and the ratio is some 18 times its floor.
REF_ROUNDS = 3


def test_generate_18x8_core(benchmark):
    benchmark.group = "generate-18x8"
    seeds = itertools.count()
    board = benchmark(lambda: llk.generate(18, 8, seed=next(seeds)))
    assert llk.verify(board, board.certificate)


def test_generate_18x8_ref(benchmark):
    benchmark.group = "generate-18x8"
    seeds = itertools.count()
    tried = []

    def run():
        grid, deals = llkref.kshisen_generate(18, 8, seed=next(seeds))
        tried.append(deals if grid is not None else None)

    benchmark.pedantic(run, rounds=REF_ROUNDS, iterations=1)
    benchmark.extra_info["deals_tried"] = tried
    benchmark.extra_info["no_deal_found"] = sum(t is None for t in tried)


def _bench_generate_40x40(benchmark, rules):
    seeds = itertools.count()
    board = benchmark(lambda: llk.generate(40, 40, seed=next(seeds), rules=rules))
    assert llk.verify(board, board.certificate)


def test_generate_40x40_classic_core(benchmark):
    benchmark.group = "generate-40x40-classic"
    _bench_generate_40x40(benchmark, llk.Rules())


def test_generate_40x40_noborder_core(benchmark):
    benchmark.group = "generate-40x40-noborder"
    _bench_generate_40x40(benchmark, llk.Rules(border=False))


def test_generate_40x40_gravity_core(benchmark):
    benchmark.group = "generate-40x40-gravity"
    _bench_generate_40x40(benchmark, llk.Rules(gravity="down"))


def test_reshuffle_40x40_half_core(benchmark):
    """A solvable reshuffle of a 40x40 board half cleared by its own certificate (800 tiles)."""
    benchmark.group = "reshuffle-40x40-half"
    board = llk.generate(40, 40, seed=2026)
    for move in board.certificate[:400]:
        board.remove(*move)
    seeds = itertools.count()

    def fresh():
        return (board.copy(),), {}

    def reshuffle(b):
        b.shuffle(seed=next(seeds))
        return b

    shuffled = benchmark.pedantic(reshuffle, setup=fresh, rounds=100, iterations=1, warmup_rounds=2)
    assert shuffled.tiles_left == 800
    assert llk.verify(shuffled, shuffled.certificate)
