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
