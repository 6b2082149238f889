"""scipy.stats is imported beside the runners' first hellos (stats.prefetch), not before
them: a run's modules do not import it, and the prefetch has it loaded once it returns."""

from __future__ import annotations

import subprocess
import sys

CHECK = """
import sys
import cryptobench.run.pipeline
before = "scipy.stats" in sys.modules
from cryptobench import stats
stats.prefetch()
stats.prefetched()
print(before, "scipy.stats" in sys.modules, stats.batches.trend([3.0, 2.0, 1.0]).drift)
"""


def test_a_run_s_modules_leave_scipy_stats_to_the_prefetch():
    got = subprocess.run(
        [sys.executable, "-c", CHECK], capture_output=True, text=True, timeout=120, check=True
    )
    before, after, drift = got.stdout.split()
    assert (before, after) == ("False", "True")
    assert float(drift) == -1.0  # Theil-Sen over 3, 2, 1: slope -1 × 2 steps / median 2
