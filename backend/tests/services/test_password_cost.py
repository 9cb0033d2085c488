"""The product hashes passwords at argon2id's RFC 9106 cost; the tests' cheap stand-in (root
conftest) must not hide a change to it."""

from __future__ import annotations

import pytest

from loopline.services import security


@pytest.mark.production_password_cost
def test_the_product_hashes_with_argon2id_at_64_mib_3_passes() -> None:
    encoded = security.hash_password("correct horse battery staple")
    assert encoded.startswith("$argon2id$v=19$m=65536,t=3,p=4$")
    assert security.verify_password(encoded, "correct horse battery staple")
    assert not security.verify_password(encoded, "wrong")


def test_other_tests_hash_cheaply_but_with_argon2id() -> None:
    assert security.hash_password("x").startswith("$argon2id$v=19$m=8,t=1,p=1$")
