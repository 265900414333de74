"""Hypothesis profiles: `ci` (default) keeps the suite inside its time budget;
`nightly` (HYPOTHESIS_PROFILE=nightly) searches much harder (state machines: longer runs,
see tests/enforcement/stateful_table.py)."""

import os

from hypothesis import HealthCheck, settings

settings.register_profile(
    "ci", max_examples=60, deadline=None, derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
settings.register_profile(
    "nightly", max_examples=2000, deadline=None, stateful_step_count=200,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))
