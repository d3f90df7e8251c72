"""The parse child (shared/domain/documents/isolated.py) on its own: pages come back, a refusal comes back as
the same error, and each limit ends in ``document_parse_budget_exceeded`` rather than a stalled or bloated
caller. The API-level tests are tests/integration/test_documents_noisy_neighbour.py."""

from __future__ import annotations

import os
import time

import pytest

from shared.core.errors import InvalidInput, ParseBudgetExceeded, PayloadTooLarge
from shared.domain.documents.isolated import IsolatedParser
from shared.domain.documents.parsers import Limits, Page
from tests.helpers.documents import docx, slow_pdf, wide_docx


def test_pages_come_back_from_the_child() -> None:
    parser = IsolatedParser(Limits(), memory_mb=512)
    assert parser.parse("text", b"first\n\nsecond", seconds=30) == [Page(0, "first\n\nsecond")]
    assert [p.text for p in parser.parse("docx", docx([["a"], ["b"]]), seconds=30)] == ["a", "b"]


def test_a_refusal_comes_back_as_the_same_error() -> None:
    parser = IsolatedParser(Limits(max_xml_elements=1000), memory_mb=512)
    with pytest.raises(InvalidInput) as corrupt:
        parser.parse("pdf", b"%PDF-1.4\n1 0 obj <<< garbage", seconds=30)
    assert corrupt.value.code == "corrupt_document"
    with pytest.raises(PayloadTooLarge) as wide:
        parser.parse("docx", wide_docx(1), seconds=30)
    assert wide.value.code == "too_many_elements" and wide.value.details == {"max_elements": 1000}


def test_the_wall_clock_kills_the_child() -> None:
    parser = IsolatedParser(Limits(max_pdf_page_tokens=10**8), memory_mb=512)
    started = time.monotonic()
    with pytest.raises(ParseBudgetExceeded) as over:
        parser.parse("pdf", slow_pdf(), seconds=1.5)
    assert over.value.code == "document_parse_budget_exceeded" and over.value.details == {
        "limit_seconds": 1.5
    }
    assert time.monotonic() - started < 10


def test_text_past_the_cap_is_not_read_back() -> None:
    parser = IsolatedParser(Limits(), memory_mb=512, max_text_bytes=1000)
    with pytest.raises(ParseBudgetExceeded) as over:
        parser.parse("text", b"word " * 10_000, seconds=30)
    assert over.value.details == {"max_text_bytes": 1000}


def test_the_child_gets_no_credentials(monkeypatch) -> None:
    # A child that could read the environment would see this; the parse gets PATH and the locale only.
    monkeypatch.setenv("MEMORYLAYER_DATABASE_URL", "postgresql://app:secret@db/x")
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", "secret")
    seen: dict[str, str] = {}
    real = __import__("subprocess").Popen

    def spy(*args, **kwargs):
        seen.update(kwargs["env"])
        return real(*args, **kwargs)

    monkeypatch.setattr("shared.domain.documents.isolated.subprocess.Popen", spy)
    IsolatedParser(Limits(), memory_mb=512).parse("text", b"hello", seconds=30)
    assert "MEMORYLAYER_DATABASE_URL" not in seen and "AWS_SECRET_ACCESS_KEY" not in seen
    assert seen.get("PATH") == os.environ.get("PATH")
