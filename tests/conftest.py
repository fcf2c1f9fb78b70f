from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

# CI runs a few more examples than a developer's quick loop, still well inside its budget.
settings.register_profile(
    "ci", max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile(
    "dev", max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.load_profile("ci" if os.environ.get("CI") else "dev")
