"""Worker test fixtures (the shared ones, database and worker process, are in the root conftest)."""

from __future__ import annotations

import pytest


@pytest.fixture(scope="module", autouse=True)
def _fresh_registration_counts() -> None:
    """Registrations are counted per address in Redis (the test client is always `testclient`), outside
    any transaction: a module's accounts must not wait behind the tests that ran before it."""
    from loopline.services.login_throttle import REGISTRATION_PREFIX, RegistrationThrottle
    from loopline.settings import get_settings

    client = RegistrationThrottle.of(get_settings().broker_url).client
    for key in client.scan_iter(f"{REGISTRATION_PREFIX}:*"):
        client.delete(key)
