"""Bytes to pages: plain text, Markdown, HTML, PDF (its text layer) and DOCX; anything else is refused.

>>> detect("notes.md", None, b"# Title")
'markdown'
>>> [p.text for p in parse("text", b"first\\n\\nsecond", limits=Limits())]
['first\\n\\nsecond']

Every refusal is a domain error with its own code (shared/core/errors.py), raised before anything is stored.
PDF text comes from pypdf (pure Python); DOCX is a zip of XML read with the standard library's zipfile and
defusedxml (no lxml in the Lambda bundle), its unpacked size checked before anything is inflated.
"""

from __future__ import annotations

import io
import re
import zipfile
from dataclasses import dataclass
from html.parser import HTMLParser
from pathlib import PurePosixPath

from shared.core.errors import InvalidInput, PayloadTooLarge, UnsupportedMediaType

TEXT_TYPES = ("text", "markdown", "code", "html")
TYPES = (*TEXT_TYPES, "pdf", "docx")
PAGE_CHARS = 4000  # a text document's "page": its paragraphs, up to this many characters

_MIME = {
    "text/plain": "text",
    "text/markdown": "markdown",
    "text/x-markdown": "markdown",
    "text/html": "html",
    "application/pdf": "pdf",
    "application/vnd.openxmlformats-officedocument.wordprocessingml.document": "docx",
}
_EXT = {
    ".txt": "text",
    ".text": "text",
    ".log": "text",
    ".csv": "text",
    ".md": "markdown",
    ".markdown": "markdown",
    ".html": "html",
    ".htm": "html",
    ".pdf": "pdf",
    ".docx": "docx",
    ".py": "code",
    ".js": "code",
    ".ts": "code",
    ".json": "code",
    ".yaml": "code",
    ".yml": "code",
    ".toml": "code",
    ".sql": "code",
    ".go": "code",
    ".rs": "code",
    ".java": "code",
}
# Types the reference knows that need an OCR or vision model here: refused with 415, named.
_REFUSED_EXT = {
    ".png",
    ".jpg",
    ".jpeg",
    ".gif",
    ".webp",
    ".bmp",
    ".tiff",
    ".tif",
    ".pptx",
    ".xlsx",
    ".doc",
    ".zip",
}
_BINARY_SIGNATURES = (b"%PDF-", b"PK\x03\x04", b"\x89PNG", b"\xff\xd8\xff", b"GIF8")
# Opaque generic types a client sends for any file: the extension decides then.
_GENERIC_MIME = {"", "application/octet-stream", "binary/octet-stream"}


@dataclass(frozen=True)
class Limits:
    max_pages: int = 500
    max_unpacked_bytes: int = 64 * 1024 * 1024


@dataclass(frozen=True)
class Page:
    page_no: int  # zero-based, as the reference
    text: str


def safe_filename(filename: str | None) -> str:
    """The name to keep: its last path component, printable, at most 255 characters. A name that is only a
    path (``../..``) or control characters is refused: it would otherwise be stored as something else.

    >>> safe_filename("../../etc/passwd")
    'passwd'
    >>> safe_filename("C:\\\\Users\\\\me\\\\notes.txt")
    'notes.txt'
    """
    raw = (filename or "").strip()
    if any(ord(c) < 32 or ord(c) == 127 for c in raw):
        raise InvalidInput("filename contains control characters", code="invalid_filename")
    name = PurePosixPath(raw.replace("\\", "/")).name
    if name in ("", ".", ".."):
        raise InvalidInput("filename names no file", code="invalid_filename")
    return name[:255]


def detect(filename: str, mime_type: str | None, data: bytes, override: str | None = None) -> str:
    """The document type (``kind_of``), checked against the bytes' signature so a PNG named ``a.pdf`` is
    refused."""
    kind = kind_of(filename, mime_type, override)
    _check_signature(kind, data)
    return kind


def kind_of(filename: str, mime_type: str | None, override: str | None = None) -> str:
    """The document type from an explicit override, the upload's content type, then the extension; a name
    with no known extension is text (the bytes then decide: they must decode)."""
    ext = PurePosixPath(filename).suffix.lower()
    mime = (mime_type or "").split(";")[0].strip().lower()
    if override:
        if override.lower() not in TYPES:
            raise UnsupportedMediaType(
                f"document_type {override!r} is not served here (served: {', '.join(TYPES)})",
                code="unsupported_document_type",
            )
        return override.lower()
    if mime in _MIME:
        return _MIME[mime]
    if ext in _EXT:
        return _EXT[ext]
    if ext in _REFUSED_EXT or (mime and mime not in _GENERIC_MIME and not mime.startswith("text/")):
        raise UnsupportedMediaType(
            f"{mime or ext} is not a document type served here (served: text, Markdown, HTML, PDF, DOCX)",
            code="unsupported_document_type",
        )
    return "text"


def _check_signature(kind: str, data: bytes) -> None:
    if kind == "pdf" and not data.lstrip()[:5] == b"%PDF-":
        raise UnsupportedMediaType("the bytes are not a PDF", code="unsupported_document_type")
    if kind == "docx" and not data.startswith(b"PK\x03\x04"):
        raise UnsupportedMediaType("the bytes are not a DOCX (zip) file", code="unsupported_document_type")
    binary = data.startswith(_BINARY_SIGNATURES) or b"\x00" in data[:8192]
    if kind in TEXT_TYPES and binary:
        raise UnsupportedMediaType("binary content is not a text document", code="unsupported_document_type")


def parse(kind: str, data: bytes, *, limits: Limits) -> list[Page]:
    """The document's pages with text (pages without any are left out); refuses over ``limits.max_pages``."""
    if kind == "pdf":
        pages = _pdf(data, limits)
    elif kind == "docx":
        pages = _split_pages(_docx(data, limits))
    else:
        text = _decode(data)
        pages = _split_pages([_html_text(text) if kind == "html" else text])
    if len(pages) > limits.max_pages:
        raise PayloadTooLarge(
            f"the document has {len(pages)} pages; at most {limits.max_pages} are taken",
            code="too_many_pages",
            max_pages=limits.max_pages,
        )
    return pages


def _decode(data: bytes) -> str:
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise UnsupportedMediaType(
            "the text is not UTF-8 (convert it, or upload a PDF or DOCX)", code="unsupported_encoding"
        ) from exc


def _pdf(data: bytes, limits: Limits) -> list[Page]:
    from pypdf import PdfReader
    from pypdf.errors import PdfReadError

    try:
        reader = PdfReader(io.BytesIO(data), strict=False)
        if reader.is_encrypted:
            raise UnsupportedMediaType("encrypted PDFs are not read", code="encrypted_pdf")
        count = len(reader.pages)
        if count > limits.max_pages:
            raise PayloadTooLarge(
                f"the document has {count} pages; at most {limits.max_pages} are taken",
                code="too_many_pages",
                max_pages=limits.max_pages,
            )
        texts = [(page.extract_text() or "") for page in reader.pages]
    except (PdfReadError, ValueError, KeyError, TypeError, AttributeError, IndexError, OSError) as exc:
        raise InvalidInput(
            f"the PDF cannot be read: {exc.__class__.__name__}", code="corrupt_document"
        ) from exc
    return [Page(i, _tidy(t)) for i, t in enumerate(texts) if t.strip()]


_W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"


def _docx(data: bytes, limits: Limits) -> list[str]:
    """The body's paragraphs, split into pages at explicit page breaks."""
    from defusedxml import ElementTree

    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            unpacked = sum(info.file_size for info in archive.infolist())
            if unpacked > limits.max_unpacked_bytes:
                raise PayloadTooLarge(
                    f"the DOCX unpacks to {unpacked} bytes; at most {limits.max_unpacked_bytes} are read",
                    code="archive_too_large",
                )
            info = archive.getinfo("word/document.xml")
            with archive.open(info) as f:
                xml = f.read(limits.max_unpacked_bytes + 1)
        if len(xml) > limits.max_unpacked_bytes:
            raise PayloadTooLarge("the DOCX body is over the unpacked limit", code="archive_too_large")
        root = ElementTree.fromstring(xml)
    except (zipfile.BadZipFile, KeyError, ElementTree.ParseError, EOFError, ValueError) as exc:
        raise InvalidInput(
            f"the DOCX cannot be read: {exc.__class__.__name__}", code="corrupt_document"
        ) from exc
    pages: list[list[str]] = [[]]
    for paragraph in root.iter(f"{_W}p"):
        parts: list[str] = []
        for node in paragraph.iter():
            if node.tag == f"{_W}t" and node.text:
                parts.append(node.text)
            elif node.tag == f"{_W}tab":
                parts.append("\t")
            elif node.tag == f"{_W}br" and node.get(f"{_W}type") == "page":
                pages[-1].append("".join(parts))
                parts = []
                pages.append([])
        pages[-1].append("".join(parts))
    return ["\n".join(p for p in page if p.strip()) for page in pages]


class _Text(HTMLParser):
    _SKIP = frozenset({"script", "style", "head", "template", "noscript"})
    _BLOCK = frozenset(
        {"p", "div", "br", "li", "tr", "h1", "h2", "h3", "h4", "h5", "h6", "section", "article"}
    )

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self._skipping = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in self._SKIP:
            self._skipping += 1
        elif tag in self._BLOCK:
            self.parts.append("\n\n")

    def handle_endtag(self, tag: str) -> None:
        if tag in self._SKIP and self._skipping:
            self._skipping -= 1
        elif tag in self._BLOCK:
            self.parts.append("\n\n")

    def handle_data(self, data: str) -> None:
        if not self._skipping:
            self.parts.append(data)


def _html_text(html: str) -> str:
    parser = _Text()
    parser.feed(html)
    parser.close()
    return "".join(parser.parts)


def _tidy(text: str) -> str:
    lines = [re.sub(r"[ \t]+", " ", line).strip() for line in text.replace("\r\n", "\n").split("\n")]
    return re.sub(r"\n{3,}", "\n\n", "\n".join(lines)).strip()


def _split_pages(texts: list[str]) -> list[Page]:
    """Each text (a DOCX page, or a whole text document) as pages of at most PAGE_CHARS, cut at paragraphs."""
    pages: list[str] = []
    for text in texts:
        current = ""
        for paragraph in re.split(r"\n\s*\n", _tidy(text)):
            if current and len(current) + len(paragraph) + 2 > PAGE_CHARS:
                pages.append(current)
                current = ""
            current = f"{current}\n\n{paragraph}" if current else paragraph
        if current.strip():
            pages.append(current)
    return [Page(i, t) for i, t in enumerate(pages)]
