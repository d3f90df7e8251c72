"""An environment moved from the reference server starts: its names are read with the reference's meaning, or
accepted and reported as not applicable; a typo is still refused, naming the setting it is nearest to."""

from __future__ import annotations

import logging

import pytest
from pydantic import ValidationError

from shared.core.reference_env import start_notes
from shared.core.settings import Settings, get_settings, unknown_variables

# The reference server's documented names (its README's configuration tables).
REFERENCE_NAMES = [
    "MEMORYLAYER_ADAPTIVE_GENERATION_ACTIVITIES",
    "MEMORYLAYER_CONTEXT_CURSOR_SECRET",
    "MEMORYLAYER_CONTEXT_EVENT_RETENTION_DAYS",
    "MEMORYLAYER_CONTEXT_EXECUTOR",
    "MEMORYLAYER_CONTEXT_MAX_EXEC_SECONDS",
    "MEMORYLAYER_CONTEXT_MAX_MEMORY_BYTES",
    "MEMORYLAYER_CONTEXT_MAX_OPERATIONS",
    "MEMORYLAYER_CONTEXT_MAX_OUTPUT_CHARS",
    "MEMORYLAYER_CONTEXT_PACK_ENABLED",
    "MEMORYLAYER_CONTEXT_QUERY_MAX_TOKENS",
    "MEMORYLAYER_CONTEXT_RLM_MAX_EXEC_SECONDS",
    "MEMORYLAYER_CONTEXT_RLM_MAX_ITERATIONS",
    "MEMORYLAYER_DATA_DIR",
    "MEMORYLAYER_EMBEDDING_DIMENSIONS",
    "MEMORYLAYER_EMBEDDING_GOOGLE_API_KEY",
    "MEMORYLAYER_EMBEDDING_OPENAI_API_KEY",
    "MEMORYLAYER_EMBEDDING_PROVIDER",
    "MEMORYLAYER_EMBED_SERVER_URL",
    "MEMORYLAYER_EMBED_TRANSPORT",
    "MEMORYLAYER_ENRICHMENT_POLICY",
    "MEMORYLAYER_EXTRACTIVE_TIERS_ENABLED",
    "MEMORYLAYER_GENERATION_MAX_CALLS",
    "MEMORYLAYER_GENERATION_MAX_INPUT_TOKENS",
    "MEMORYLAYER_GENERATION_MAX_OUTPUT_TOKENS",
    "MEMORYLAYER_LLM_PROFILE_<NAME>_API_KEY",
    "MEMORYLAYER_LLM_PROFILE_<NAME>_BASE_URL",
    "MEMORYLAYER_LLM_PROFILE_<NAME>_MAX_TOKENS",
    "MEMORYLAYER_LLM_PROFILE_<NAME>_MODEL",
    "MEMORYLAYER_LLM_PROFILE_<NAME>_PROVIDER",
    "MEMORYLAYER_LLM_PROFILE_<NAME>_TEMPERATURE",
    "MEMORYLAYER_LLM_PROFILE_DEFAULT_API_KEY",
    "MEMORYLAYER_LLM_PROFILE_DEFAULT_PROVIDER",
    "MEMORYLAYER_RECALL_TOKEN_BUDGET_DEFAULT",
    "MEMORYLAYER_RELATIONAL_RECALL_ENABLED",
    "MEMORYLAYER_RETRIEVAL_CONFIDENCE_ENABLED",
    "MEMORYLAYER_SERVER_HOST",
    "MEMORYLAYER_SERVER_PORT",
    "MEMORYLAYER_SESSION_CHECKPOINT_CAPTURE_ENABLED",
    "MEMORYLAYER_SESSION_CHECKPOINT_MAX_BYTES",
    "MEMORYLAYER_SESSION_SERVICE",
    "MEMORYLAYER_SQLITE_STORAGE_PATH",
]


def test_every_documented_reference_name_is_known() -> None:
    assert len(REFERENCE_NAMES) == 41
    names = [n.replace("<NAME>", "CHEAP") for n in REFERENCE_NAMES]
    assert unknown_variables(dict.fromkeys(names, "1")) == []


@pytest.mark.parametrize(
    ("reference", "field", "value", "expected"),
    [
        ("MEMORYLAYER_SERVER_HOST", "host", "127.0.0.2", "127.0.0.2"),
        ("MEMORYLAYER_SERVER_PORT", "port", "61009", 61009),
        ("MEMORYLAYER_SESSION_CHECKPOINT_MAX_BYTES", "checkpoint_max_bytes", "2048", 2048),
        ("MEMORYLAYER_EMBED_SERVER_URL", "embed_endpoint_url", "http://embed:61051", "http://embed:61051"),
        ("MEMORYLAYER_GENERATION_MAX_CALLS", "llm_max_calls_per_operation", "8", 8),
        ("MEMORYLAYER_GENERATION_MAX_INPUT_TOKENS", "llm_max_tokens_per_operation", "100000", 100000),
        ("MEMORYLAYER_GENERATION_MAX_OUTPUT_TOKENS", "llm_max_output_tokens_per_operation", "512", 512),
        ("MEMORYLAYER_LLM_PROFILE_DEFAULT_PROVIDER", "llm_provider", "anthropic", "anthropic"),
        ("MEMORYLAYER_LLM_PROFILE_DEFAULT_MODEL", "llm_model", "claude-x", "claude-x"),
        ("MEMORYLAYER_LLM_PROFILE_DEFAULT_MAX_TOKENS", "llm_max_tokens", "256", 256),
        ("MEMORYLAYER_LLM_PROFILE_DEFAULT_TEMPERATURE", "llm_temperature", "0.7", 0.7),
        ("MEMORYLAYER_RECALL_TOKEN_BUDGET_DEFAULT", "recall_token_budget_default", "300", 300),
        ("MEMORYLAYER_CONTEXT_MAX_OPERATIONS", "context_max_operations", "50", 50),
        ("MEMORYLAYER_EXTRACTIVE_TIERS_ENABLED", "extractive_tiers_enabled", "false", False),
        ("MEMORYLAYER_EMBEDDING_PROVIDER", "embedding_provider", "embed_server", "endpoint"),
        ("MEMORYLAYER_EMBEDDING_PROVIDER", "embedding_provider", "mock", "hash"),
        ("MEMORYLAYER_CONTEXT_EXECUTOR", "context_executor", "smolagents", "wasm"),
    ],
)
def test_a_reference_name_sets_our_setting(
    monkeypatch: pytest.MonkeyPatch, reference: str, field: str, value: str, expected: object
) -> None:
    monkeypatch.setenv(reference, value)
    assert getattr(Settings(), field) == expected


@pytest.mark.parametrize(
    ("reference", "field"),
    [
        ("MEMORYLAYER_EMBEDDING_OPENAI_API_KEY", "openai_api_key"),
        ("MEMORYLAYER_EMBEDDING_GOOGLE_API_KEY", "google_api_key"),
        ("MEMORYLAYER_LLM_PROFILE_DEFAULT_API_KEY", "llm_api_key"),
    ],
)
def test_reference_key_names_set_our_keys(
    monkeypatch: pytest.MonkeyPatch, reference: str, field: str
) -> None:
    monkeypatch.setenv(reference, "sk-moved")
    assert getattr(Settings(embedding_provider="hash"), field).get_secret_value() == "sk-moved"


def test_fields_are_still_set_by_name(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MEMORYLAYER_SERVER_PORT", "61009")
    assert Settings(port=61010, checkpoint_max_bytes=5).port == 61010
    assert Settings(llm_max_calls_per_operation=2).llm_max_calls_per_operation == 2


def test_the_same_value_under_both_names_is_fine(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MEMORYLAYER_PORT", "61009")
    monkeypatch.setenv("MEMORYLAYER_SERVER_PORT", "61009")
    assert Settings().port == 61009


def test_different_values_under_both_names_are_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MEMORYLAYER_OPENAI_API_KEY", "sk-one")
    monkeypatch.setenv("MEMORYLAYER_EMBEDDING_OPENAI_API_KEY", "sk-two")
    with pytest.raises(
        ValidationError, match="MEMORYLAYER_OPENAI_API_KEY=… and MEMORYLAYER_EMBEDDING_OPENAI_API_KEY=…"
    ):
        Settings()


def test_a_typo_names_the_nearest_setting(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MEMORYLAYER_EMBEDDING_OPENAI_APIKEY", "sk")
    with pytest.raises(ValidationError, match=r"did you mean MEMORYLAYER_EMBEDDING_OPENAI_API_KEY\?"):
        Settings()


def test_a_misspelt_profile_field_is_refused_naming_the_field(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MEMORYLAYER_LLM_PROFILE_CHEAP_MODLE", "gpt")
    with pytest.raises(ValidationError, match=r"did you mean MEMORYLAYER_LLM_PROFILE_CHEAP_MODEL\?"):
        Settings()


def test_named_profiles_are_read_and_missing_ones_fall_back_to_the_default(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("MEMORYLAYER_LLM_PROVIDER", "openai")
    monkeypatch.setenv("MEMORYLAYER_LLM_PROFILE_EXTRACTION_PROVIDER", "anthropic")
    monkeypatch.setenv("MEMORYLAYER_LLM_PROFILE_EXTRACTION_MODEL", "claude-haiku")
    monkeypatch.setenv("MEMORYLAYER_LLM_PROFILE_EXTRACTION_API_KEY", "sk-ant")
    monkeypatch.setenv("MEMORYLAYER_LLM_PROFILE_EXTRACTION_BASE_URL", "http://127.0.0.1:9")
    monkeypatch.setenv("MEMORYLAYER_LLM_PROFILE_EXTRACTION_MAX_TOKENS", "512")
    monkeypatch.setenv("MEMORYLAYER_LLM_PROFILE_EXTRACTION_TEMPERATURE", "0.3")
    s = Settings()
    extraction = s.llm_profile("extraction")
    assert (extraction.provider, extraction.model, extraction.max_tokens, extraction.temperature) == (
        "anthropic",
        "claude-haiku",
        512,
        0.3,
    )
    assert extraction.api_key is not None and extraction.api_key.get_secret_value() == "sk-ant"
    assert s.llm_profile("reflection").provider == "openai"  # not configured: the default profile


def test_not_applicable_names_start_and_are_reported_once(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    for name in (
        "MEMORYLAYER_SQLITE_STORAGE_PATH",
        "MEMORYLAYER_SESSION_SERVICE",
        "MEMORYLAYER_EMBED_TRANSPORT",
    ):
        monkeypatch.setenv(name, "x")
    monkeypatch.setenv("MEMORYLAYER_EMBEDDING_PROVIDER", "hash")
    get_settings.cache_clear()
    try:
        with caplog.at_level(logging.WARNING, logger="memorylayer.settings"):
            get_settings()
            get_settings()
    finally:
        get_settings.cache_clear()
    warned = [r.getMessage() for r in caplog.records if r.name == "memorylayer.settings"]
    assert len(warned) == 3
    assert any(w.startswith("MEMORYLAYER_SQLITE_STORAGE_PATH is not applicable") for w in warned)


def test_profiles_nothing_reads_are_reported() -> None:
    notes = start_notes(
        {"MEMORYLAYER_LLM_PROFILE_TITLING_PROVIDER": "openai", "MEMORYLAYER_LLM_PROFILE_X_MODEL": "m"}
    )
    assert any("TITLING is used by no LLM call" in n for n in notes)
    assert any("X has no PROVIDER" in n for n in notes)


@pytest.mark.parametrize(
    ("policy", "activities", "activity", "allowed"),
    [
        ("adaptive", None, "session_extraction", True),  # unset: every activity (ours)
        ("adaptive", "reflection,synthesis", "session_extraction", False),
        ("adaptive", "reflection,synthesis", "synthesis", True),
        ("adaptive", "", "reflection", False),  # empty: none
        ("generative", "", "reflection", True),
        ("deterministic", None, "reflection", False),
    ],
)
def test_adaptive_generation_activities(
    policy: str, activities: str | None, activity: str, allowed: bool
) -> None:
    s = Settings(enrichment_policy=policy, adaptive_generation_activities=activities)
    assert s.generation_allowed(activity) is allowed
