"""stats.outlier_rounds on fixed samples: the rounds (one, or two of eight) that disagree
beyond the others' spread are named; anything less clear is not."""

from cryptobench import stats


def _ci(meds, half=0.01):
    return meds, [m * (1 - half) for m in meds], [m * (1 + half) for m in meds]


def test_one_slow_round_among_agreeing_ones_is_named():
    assert stats.outlier_rounds(*_ci([59.7, 176.7, 59.7])) == [1]
    assert stats.outlier_rounds(*_ci([112.7, 112.2, 215.7, 113.0, 112.5])) == [2]


def test_a_fast_round_is_named_too():
    assert stats.outlier_rounds(*_ci([300.0, 150.0, 305.0])) == [1]


def test_rounds_within_their_spread_are_not():
    assert stats.outlier_rounds(*_ci([100.0, 104.0, 108.0])) == []
    # 1.25x away, but its own interval reaches the others: not shown to disagree
    assert stats.outlier_rounds(*_ci([100.0, 101.0, 125.0], half=0.25)) == []


def test_two_rounds_never_make_an_outlier_and_no_clear_majority_is_none():
    assert stats.outlier_rounds(*_ci([100.0, 200.0])) == []
    assert stats.outlier_rounds(*_ci([100.0, 150.0, 200.0])) == []


def test_with_eight_rounds_the_others_agree_by_their_spread_not_their_range():
    # node/crypto AES-128-GCM 16 B, `default` 2026-11-26 18:52: the group's process of round 8
    # ran 1.4x slow; the other seven lie 2476-2742 ns (10.7% apart end to end, sd 3.7%)
    meds = [2548.0, 2671.0, 2742.0, 2592.0, 2681.0, 2528.0, 2476.0, 3639.0]
    assert stats.outlier_rounds(*_ci(meds, half=0.05)) == [7]


def test_two_slow_rounds_of_eight_are_both_named():
    # node/crypto SHA-256 16 B, `default` 2026-11-28 21:52: the group's processes of rounds 5
    # and 7 ran 2x slow at every size; the other six lie 484-550 ns
    meds = [519.3, 550.2, 538.6, 520.2, 1043.1, 504.0, 1010.2, 484.6]
    assert stats.outlier_rounds(*_ci(meds, half=0.03)) == [4, 6]
    # node/hash-wasm BLAKE2b-512 16 B, `default` 2026-11-26 18:52: rounds 1 and 5 slow
    meds = [724.0, 414.0, 376.0, 359.0, 533.0, 386.0, 364.0, 379.0]
    assert stats.outlier_rounds(*_ci(meds, half=0.05)) == [0, 4]


def test_more_than_a_quarter_of_the_rounds_are_none():
    # three slow rounds of eight: more than R // 4
    meds = [500.0, 1000.0, 505.0, 1010.0, 498.0, 990.0, 502.0, 507.0]
    assert stats.outlier_rounds(*_ci(meds)) == []
    # two slow rounds of seven: R // 4 = 1, and one alone leaves the others apart
    meds = [500.0, 1000.0, 505.0, 1010.0, 498.0, 502.0, 507.0]
    assert stats.outlier_rounds(*_ci(meds)) == []
    # half of them slow: no majority
    meds = [100.0, 101.0, 140.0, 141.0, 100.5, 140.5, 99.5, 140.2]
    assert stats.outlier_rounds(*_ci(meds)) == []
