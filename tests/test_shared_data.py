"""Reference-data tests skip on a developer's machine without the data, but fail in CI."""

from __future__ import annotations

import pytest

from tests.conftest import SHARED_DATA, require_shared


def test_absent_reference_data_fails_in_ci(monkeypatch, tmp_path):
    monkeypatch.setenv("CI", "true")
    with pytest.raises(pytest.fail.Exception, match=r"CI=true: .*missing-set is absent"):
        require_shared(tmp_path / "missing-set", "a test set")


def test_absent_reference_data_skips_elsewhere(monkeypatch, tmp_path):
    monkeypatch.delenv("CI", raising=False)
    with pytest.raises(pytest.skip.Exception, match="missing-set is absent"):
        require_shared(tmp_path / "missing-set", "a test set")


def test_present_reference_data_is_returned(monkeypatch):
    monkeypatch.setenv("CI", "true")
    assert require_shared(SHARED_DATA.parent) == SHARED_DATA.parent
