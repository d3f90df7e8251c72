"""Settings refuse ``MEMORYLAYER_*`` variables that are no setting: a typo is an error, not a silent default."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from shared.core.settings import Settings, unknown_variables


def test_a_typo_is_refused_naming_the_variable(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MEMORYLAYER_EMBEDING_PROVIDER", "local")
    with pytest.raises(ValidationError, match="unknown environment variable MEMORYLAYER_EMBEDING_PROVIDER"):
        Settings()


def test_lower_case_typos_are_refused_too(monkeypatch: pytest.MonkeyPatch) -> None:
    # pydantic-settings matches names case-insensitively, so the check does too
    monkeypatch.setenv("memorylayer_prot", "1")
    with pytest.raises(ValidationError, match="memorylayer_prot"):
        Settings(embedding_provider="hash")


def test_settings_and_the_other_programs_variables_are_accepted(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MEMORYLAYER_PORT", "61009")
    monkeypatch.setenv("MEMORYLAYER_EMBED_PORT", "61051")  # functions/embed's own variable
    monkeypatch.setenv("MEMORYLAYER_URL", "http://127.0.0.1:61001")  # the SDK's
    monkeypatch.setenv("MEMORYLAYER_SESSION_ID", "mcp")  # the MCP server's session
    assert Settings(embedding_provider="hash").port == 61009


def test_an_aliased_field_is_not_accepted_under_the_prefix() -> None:
    # lambda_function_name is read from AWS_LAMBDA_FUNCTION_NAME only
    assert unknown_variables({"MEMORYLAYER_LAMBDA_FUNCTION_NAME": "f", "AWS_LAMBDA_FUNCTION_NAME": "f"}) == [
        "MEMORYLAYER_LAMBDA_FUNCTION_NAME"
    ]
