"""The dead-state table's replacement rule (memo.pxd): at the cap, entries that took more work
stay; with equal work the newest two of a bucket stay; the weight is not part of the key."""
from llkcore._core.memo import kept_after

# A table of at most 2 entries has one bucket of two slots, so every key competes for it.
ONE_BUCKET = 2


def test_without_work_the_newest_two_stay():
    assert kept_after([(1, 1, 0), (2, 2, 0), (3, 3, 0)], ONE_BUCKET) == [False, True, True]


def test_the_entry_of_most_work_outlives_newer_cheap_ones():
    puts = [(1, 1, 1000), (2, 2, 0), (3, 3, 5), (4, 4, 0)]
    assert kept_after(puts, ONE_BUCKET) == [True, False, False, True]


def test_a_heavier_newcomer_takes_over_and_the_old_one_becomes_the_spare():
    # 2 outweighs 1, so 1 moves to the spare slot, which the cheap 3 and then 4 take: 2 stays.
    puts = [(1, 1, 10), (2, 2, 100), (3, 3, 0), (4, 4, 0)]
    assert kept_after(puts, ONE_BUCKET) == [False, True, False, True]
    # Equal work (the same bit length) counts as heavier: the newer one takes over.
    puts = [(1, 1, 8), (2, 2, 15), (3, 3, 0), (4, 4, 0)]
    assert kept_after(puts, ONE_BUCKET) == [False, True, False, True]


def test_the_weight_bits_are_not_part_of_the_key():
    # The same key with other top bits in its second word is already there: not stored twice,
    # so 6 still finds a free slot and all three report present.
    puts = [(5, 5, 7), (5, 5 | (1 << 63), 0), (6, 6, 0)]
    assert kept_after(puts, ONE_BUCKET) == [True, True, True]


def test_growth_keeps_what_fits():
    # Far below the cap the table doubles before a bucket overflows for keys spread over
    # buckets: one key a bucket, all kept.
    puts = [(i, i + 1, i % 7) for i in range(1, 3000)]
    assert all(kept_after(puts, 1 << 16))


def test_a_key_is_both_its_words():
    # Keys that share their first word are three keys (a mutation audit: a lookup on the first
    # word alone passed every other test): the newest two stay, the first is pushed out.
    assert kept_after([(1, 1, 0), (1, 2, 0), (1, 3, 0)], ONE_BUCKET) == [False, True, True]
