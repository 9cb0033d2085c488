from __future__ import annotations

import pytest

from loopline.domain.passwords import MIN_SCORE, weakness


@pytest.mark.parametrize("password", ["12345678", "password", " " * 8, "qwertyuiop", "aaaaaaaaaaaa", "11111111"])
def test_common_and_trivial_passwords_are_refused_with_a_reason(password: str) -> None:
    reason = weakness(password)
    assert reason is not None
    assert reason.startswith("too easy to guess (0 of 4") or reason.startswith("too easy to guess (1 of 4")
    assert f"at least {MIN_SCORE} needed" in reason


def test_a_password_made_of_the_accounts_own_email_is_refused() -> None:
    hints = ("ada.lovelace@example.com", "Ada")
    assert weakness("ada.lovelace@example.com", hints=hints) is not None
    assert weakness("ada.lovelace@example.com") is None, "the same password is fine for someone else"


@pytest.mark.parametrize("password", ["correct horse battery", "simulate please", "probe password 1"])
def test_passphrases_pass(password: str) -> None:
    assert weakness(password) is None


def test_a_very_long_password_is_judged_quickly_by_its_start() -> None:
    assert weakness("correct horse battery " * 1000) is None
