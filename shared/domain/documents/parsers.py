"""Bytes to pages: plain text, Markdown, HTML, PDF (its text layer) and DOCX; anything else is refused.

>>> detect("notes.md", None, b"# Title")
'markdown'
>>> [p.text for p in parse("text", b"first\\n\\nsecond", limits=Limits())]
['first\\n\\nsecond']

Every refusal is a domain error with its own code (shared/core/errors.py), raised before anything is stored.
HTML is read by lxml (libxml2's HTML parser: linear, forgiving of missing end tags). PDF text comes from pypdf
with its content-stream parsing capped per page. DOCX is a zip whose ``word/document.xml`` is streamed through
lxml's iterparse (no DTD, no entities, no network), element by element and freed as it goes, with a cap on the
elements read, so memory stays flat whatever the body unpacks to. These caps are the first line; the second is
the child process every parse runs in (``isolated.py``: time, memory and CPU limits).
"""

from __future__ import annotations

import io
import re
import zipfile
import zlib
from dataclasses import dataclass
from pathlib import PurePosixPath
from typing import IO, NoReturn
from xml.parsers.expat import XML_PARAM_ENTITY_PARSING_NEVER, ExpatError, ParserCreate

from shared.core.errors import InvalidInput, ParseBudgetExceeded, PayloadTooLarge, UnsupportedMediaType

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
    max_xml_elements: int = 1_000_000  # a DOCX body's elements: ~1,000 a page of rich formatting; ~2 us each
    # pypdf's parsing budget for one content stream (operators, operands, array items): text extraction costs
    # ~20-75 us a token and grows faster than linearly on one long line, so a page is refused past this.
    max_pdf_page_tokens: int = 50_000


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
    from pypdf import PdfReader, apply_configuration
    from pypdf.errors import LimitReachedError, PdfReadError

    texts: list[str] = []
    try:
        with apply_configuration(stream_parsing_work_maximum_count=limits.max_pdf_page_tokens):
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
            for page in reader.pages:
                texts.append(page.extract_text() or "")
    except LimitReachedError as exc:  # a page (or a structure) past pypdf's caps: refused, not truncated
        raise ParseBudgetExceeded(
            f"page {len(texts)} of the PDF is too much work to read ({exc})",
            page_no=len(texts),
            max_page_tokens=limits.max_pdf_page_tokens,
        ) from exc
    except (PdfReadError, ValueError, KeyError, TypeError, AttributeError, IndexError, OSError) as exc:
        raise InvalidInput(
            f"the PDF cannot be read: {exc.__class__.__name__}", code="corrupt_document"
        ) from exc
    return [Page(i, _tidy(t)) for i, t in enumerate(texts) if t.strip()]


_W = "http://schemas.openxmlformats.org/wordprocessingml/2006/main "  # expat's "uri local" names
_P, _T, _TAB, _BR, _TYPE = f"{_W}p", f"{_W}t", f"{_W}tab", f"{_W}br", f"{_W}type"


def _docx(data: bytes, limits: Limits) -> list[str]:
    """The body's paragraphs, split into pages at explicit page breaks."""
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            unpacked = sum(info.file_size for info in archive.infolist())
            if unpacked > limits.max_unpacked_bytes:
                raise PayloadTooLarge(
                    f"the DOCX unpacks to {unpacked} bytes; at most {limits.max_unpacked_bytes} are read",
                    code="archive_too_large",
                )
            with archive.open("word/document.xml") as stream:
                return _docx_pages(stream, limits)
    except (zipfile.BadZipFile, zlib.error, KeyError, ExpatError, EOFError, ValueError) as exc:
        raise InvalidInput(
            f"the DOCX cannot be read: {exc.__class__.__name__}", code="corrupt_document"
        ) from exc


class _Body:
    """Expat's callbacks over ``word/document.xml``: no tree is built (memory holds the current paragraph and
    the text so far), a DTD or an entity declaration is refused (defusedxml's rules, stricter: Word never
    writes either), and every element counts against the cap."""

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self.seen = 0
        self.in_text = False
        self.parts: list[str] = []
        self.pages: list[list[str]] = [[]]

    def start(self, name: str, attrs: dict[str, str]) -> None:
        self.seen += 1
        if self.seen > self.limits.max_xml_elements:
            raise PayloadTooLarge(
                f"the DOCX body has more than {self.limits.max_xml_elements} elements",
                code="too_many_elements",
                max_elements=self.limits.max_xml_elements,
            )
        if name == _T:
            self.in_text = True
        elif name == _TAB:
            self.parts.append("\t")
        elif name == _BR and attrs.get(_TYPE) == "page":
            self._paragraph()
            self.pages.append([])

    def end(self, name: str) -> None:
        if name == _T:
            self.in_text = False
        elif name == _P:
            self._paragraph()

    def text(self, data: str) -> None:
        if self.in_text:
            self.parts.append(data)

    def refuse(self, *_: object) -> NoReturn:
        raise InvalidInput("the DOCX body declares a DTD or entities", code="corrupt_document")

    def _paragraph(self) -> None:
        line = "".join(self.parts)
        self.parts = []
        if line.strip():
            self.pages[-1].append(line)


def _docx_pages(stream: IO[bytes], limits: Limits) -> list[str]:
    body = _Body(limits)
    parser = ParserCreate(namespace_separator=" ")
    parser.SetParamEntityParsing(XML_PARAM_ENTITY_PARSING_NEVER)
    parser.StartElementHandler = body.start
    parser.EndElementHandler = body.end
    parser.CharacterDataHandler = body.text
    parser.StartDoctypeDeclHandler = body.refuse
    parser.EntityDeclHandler = body.refuse
    parser.ExternalEntityRefHandler = body.refuse
    while chunk := stream.read(256 * 1024):
        parser.Parse(chunk, False)
    parser.Parse(b"", True)
    return ["\n".join(page) for page in body.pages]


_SKIP = frozenset({"script", "style", "head", "title", "template", "noscript", "iframe", "object"})
_BLOCK = frozenset(
    {"p", "div", "li", "tr", "table", "ul", "ol", "dl", "dt", "dd", "blockquote", "pre", "hr", "h1", "h2",
     "h3", "h4", "h5", "h6", "section", "article", "header", "footer", "main", "aside", "nav", "figure",
     "figcaption", "address", "caption"}
)  # fmt: skip
_CELL = frozenset({"td", "th"})


def _html_text(html: str) -> str:
    """The visible text, paragraphs apart and a row's cells joined by ``" | "``; scripts, styles and the
    head dropped (lxml closes a head left open where the body starts)."""
    import lxml.html
    from lxml import etree

    parser = lxml.html.HTMLParser(
        encoding="utf-8", no_network=True, remove_comments=True, remove_pis=True, default_doctype=False
    )
    try:
        root = etree.fromstring(html.encode("utf-8"), parser)
    except etree.ParserError:  # nothing but whitespace
        return ""
    if root is None:
        return ""
    parts: list[str] = []
    skipping = 0
    for event, node in etree.iterwalk(root, events=("start", "end")):
        tag = node.tag if isinstance(node.tag, str) else ""
        if event == "start":
            if tag in _SKIP:
                skipping += 1
            elif not skipping:
                if tag in _BLOCK:
                    parts.append("\n\n")
                elif tag == "br":
                    parts.append("\n")
                elif tag in _CELL and node.getprevious() is not None:
                    parts.append(" | ")
                if node.text:
                    parts.append(node.text)
            continue
        if tag in _SKIP:
            skipping -= 1
        elif tag in _BLOCK and not skipping:
            parts.append("\n\n")
        if node.tail and not skipping:
            parts.append(node.tail)
    return "".join(parts)


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
