"""stats.outlier_round on fixed samples: one round that disagrees beyond the others' spread
is named; anything less clear is not."""

from cryptobench import stats


def _ci(meds, half=0.01):
    return meds, [m * (1 - half) for m in meds], [m * (1 + half) for m in meds]


def test_one_slow_round_among_agreeing_ones_is_named():
    assert stats.outlier_round(*_ci([59.7, 176.7, 59.7])) == 1
    assert stats.outlier_round(*_ci([112.7, 112.2, 215.7, 113.0, 112.5])) == 2


def test_a_fast_round_is_named_too():
    assert stats.outlier_round(*_ci([300.0, 150.0, 305.0])) == 1


def test_rounds_within_their_spread_are_not():
    assert stats.outlier_round(*_ci([100.0, 104.0, 108.0])) is None
    # 1.25x away, but its own interval reaches the others: not shown to disagree
    assert stats.outlier_round(*_ci([100.0, 101.0, 125.0], half=0.25)) is None


def test_two_rounds_never_make_an_outlier_and_no_clear_majority_is_none():
    assert stats.outlier_round(*_ci([100.0, 200.0])) is None
    assert stats.outlier_round(*_ci([100.0, 150.0, 200.0])) is None


def test_with_eight_rounds_the_others_agree_by_their_spread_not_their_range():
    # node/crypto AES-128-GCM 16 B, `default` 2026-11-26 18:52: the group's process of round 8
    # ran 1.4x slow; the other seven lie 2476-2742 ns (10.7% apart end to end, sd 3.7%)
    meds = [2548.0, 2671.0, 2742.0, 2592.0, 2681.0, 2528.0, 2476.0, 3639.0]
    assert stats.outlier_round(*_ci(meds, half=0.05)) == 7
    # node/hash-wasm BLAKE2b-512 16 B, same run: round 1 slow, but round 5 too (533 ns):
    # two rounds disagree, none is named
    meds = [724.0, 414.0, 376.0, 359.0, 533.0, 386.0, 364.0, 379.0]
    assert stats.outlier_round(*_ci(meds, half=0.05)) is None
