"""The reference server's ``MEMORYLAYER_*`` names that are not fields of ours: LLM profiles, and the settings
that cannot apply here (accepted, and reported once at start), so a migrating environment starts.

    >>> profile_variables({"MEMORYLAYER_LLM_PROFILE_CHEAP_MAX_TOKENS": "512", "PATH": "/bin"})
    {'cheap': {'max_tokens': '512'}}
    >>> nearest("MEMORYLAYER_PROT", ["MEMORYLAYER_PORT", "MEMORYLAYER_HOST"])
    'MEMORYLAYER_PORT'

Aliases of our own settings (``MEMORYLAYER_SERVER_PORT`` for ``MEMORYLAYER_PORT``) are declared on the fields in
shared/core/settings.py; the profile named DEFAULT is our ``MEMORYLAYER_LLM_*`` settings under another name.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Mapping

PROFILE_PREFIX = "MEMORYLAYER_LLM_PROFILE_"
# The documented per-profile fields, longest first so ``..._MAX_TOKENS`` is never read as a profile ``X_MAX``.
PROFILE_FIELDS = ("temperature", "max_tokens", "base_url", "provider", "api_key", "model")

# The profile names the reference's activities ask for, and which of our LLM calls ask for the same one: any
# other profile is accepted but used by nothing here (reported at start). A missing profile falls back to DEFAULT.
PROFILE_USERS = {
    "default": "context environment (query, llm_query, rlm)",
    "extraction": "session extraction (the worker)",
    "reflection": "grounded answers (/v1/memories/answer, /reflect)",
    "inference": "entity insights (POST /v1/entities/{id}/derive)",
}

NOT_APPLICABLE = {
    "MEMORYLAYER_SQLITE_STORAGE_PATH": "storage is Postgres (MEMORYLAYER_DATABASE_URL or the stack's database); "
    "there is no SQLite file",
    "MEMORYLAYER_SESSION_SERVICE": "sessions are always persistent (rows in Postgres); there is no in-memory "
    "session service",
    "MEMORYLAYER_EMBED_TRANSPORT": "the endpoint provider speaks plain HTTP to MEMORYLAYER_EMBED_ENDPOINT_URL; "
    "there is no Aether transport",
}


def profile_variables(environ: Mapping[str, str]) -> dict[str, dict[str, str]]:
    """``MEMORYLAYER_LLM_PROFILE_<NAME>_<FIELD>`` values by lower-case profile name and field (DEFAULT included)."""
    found: dict[str, dict[str, str]] = {}
    for key, value in environ.items():
        split = split_profile_variable(key)
        if split is not None:
            found.setdefault(split[0], {})[split[1]] = value
    return found


def split_profile_variable(key: str) -> tuple[str, str] | None:
    """``("cheap", "max_tokens")`` for ``MEMORYLAYER_LLM_PROFILE_CHEAP_MAX_TOKENS``; None for anything else."""
    upper = key.upper()
    if not upper.startswith(PROFILE_PREFIX):
        return None
    rest = upper.removeprefix(PROFILE_PREFIX)
    for field in PROFILE_FIELDS:
        suffix = "_" + field.upper()
        if rest.endswith(suffix) and len(rest) > len(suffix):
            return rest.removesuffix(suffix).lower(), field
    return None


def nearest(name: str, known: Iterable[str]) -> str | None:
    """The known name closest to ``name`` (difflib), if any is close enough to be the one meant."""
    upper = name.upper()
    if upper.startswith(PROFILE_PREFIX):
        # A profile variable with a misspelt field: suggest the same profile with the nearest field.
        rest = upper.removeprefix(PROFILE_PREFIX)
        profile, _, tail = rest.partition("_")
        fields = [f.upper() for f in PROFILE_FIELDS]
        match = difflib.get_close_matches(tail, fields, n=1, cutoff=0.5)
        if profile and match:
            return f"{PROFILE_PREFIX}{profile}_{match[0]}"
    matches = difflib.get_close_matches(upper, list(known), n=1, cutoff=0.75)
    return matches[0] if matches else None


def start_notes(environ: Mapping[str, str]) -> list[str]:
    """What start should report about reference names it accepts but cannot honour as the reference does."""
    notes = []
    for key in sorted(environ):
        reason = NOT_APPLICABLE.get(key.upper())
        if reason is not None:
            notes.append(f"{key.upper()} is not applicable here and is ignored: {reason}")
    for name, fields in sorted(profile_variables(environ).items()):
        if "provider" not in fields:
            notes.append(f"LLM profile {name.upper()} has no PROVIDER and is skipped (as the reference does)")
        elif name not in PROFILE_USERS:
            notes.append(
                f"LLM profile {name.upper()} is used by no LLM call of this server (profiles read here: "
                f"{', '.join(sorted(n.upper() for n in PROFILE_USERS))})"
            )
    executor = environ.get("MEMORYLAYER_CONTEXT_EXECUTOR", "").lower()
    if executor in ("smolagents", "restricted"):
        notes.append(
            f"MEMORYLAYER_CONTEXT_EXECUTOR={executor} runs in the WebAssembly sandbox (wasm): the reference's "
            "in-process executors do not exist here"
        )
    return notes
