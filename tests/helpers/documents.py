"""Small documents built in code for the document pipeline's tests and bench: PDFs with a text layer, DOCX files,
a zip bomb. No fixtures on disk, no writer library.

>>> pdf([["Hello"]]).startswith(b"%PDF-1.4")
True
"""

from __future__ import annotations

import io
import zipfile


def _escape(text: str) -> str:
    return text.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")


def pdf(pages: list[list[str]], *, padding: int = 0) -> bytes:
    """A PDF whose page i shows the lines ``pages[i]`` in Helvetica (a real text layer pypdf reads); ``padding``
    bytes of an unreferenced stream (as a scan's image would weigh) make it that much larger."""
    objects: list[bytes] = []
    n = len(pages)
    # 1: catalog, 2: pages, 3: font, then (page, content) pairs.
    kids = " ".join(f"{4 + 2 * i} 0 R" for i in range(n))
    objects.append(b"<< /Type /Catalog /Pages 2 0 R >>")
    objects.append(f"<< /Type /Pages /Kids [{kids}] /Count {n} >>".encode())
    objects.append(b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>")
    for i, lines in enumerate(pages):
        ops = ["BT", "/F1 11 Tf", "14 TL", "50 780 Td"]
        for line in lines:
            ops += [f"({_escape(line)}) Tj", "T*"]
        ops.append("ET")
        stream = "\n".join(ops).encode("latin-1")
        objects.append(
            f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents {5 + 2 * i} 0 R "
            "/Resources << /Font << /F1 3 0 R >> >> >>".encode()
        )
        objects.append(b"<< /Length %d >>\nstream\n" % len(stream) + stream + b"\nendstream")
    if padding:
        objects.append(b"<< /Length %d >>\nstream\n" % padding + bytes(range(256)) * (padding // 256)
                       + b"\0" * (padding % 256) + b"\nendstream")  # fmt: skip
    out = io.BytesIO()
    out.write(b"%PDF-1.4\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(out.tell())
        out.write(b"%d 0 obj\n" % number + body + b"\nendobj\n")
    xref = out.tell()
    out.write(b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1))
    for offset in offsets:
        out.write(b"%010d 00000 n \n" % offset)
    out.write(b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, xref))
    return out.getvalue()


_DOCX_TYPES = (
    '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
    '<Default Extension="xml" ContentType="application/xml"/>'
    '<Override PartName="/word/document.xml" '
    'ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>'
)
_W = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"


def docx(pages: list[list[str]]) -> bytes:
    """A DOCX whose paragraphs are the lines of each page, with a page break between pages."""
    body = []
    for i, lines in enumerate(pages):
        if i:
            body.append('<w:p><w:r><w:br w:type="page"/></w:r></w:p>')
        for line in lines:
            text = line.replace("&", "&amp;").replace("<", "&lt;")
            body.append(f'<w:p><w:r><w:t xml:space="preserve">{text}</w:t></w:r></w:p>')
    document = f'<?xml version="1.0" encoding="UTF-8"?><w:document xmlns:w="{_W}"><w:body>{"".join(body)}</w:body></w:document>'
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("[Content_Types].xml", _DOCX_TYPES)
        z.writestr("word/document.xml", document)
    return out.getvalue()


def zip_bomb(unpacked_mb: int = 200) -> bytes:
    """A small DOCX-shaped zip whose body inflates to ``unpacked_mb`` MiB of zeros."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("[Content_Types].xml", _DOCX_TYPES)
        with z.open("word/document.xml", "w") as f:
            chunk = b"\0" * (1024 * 1024)
            for _ in range(unpacked_mb):
                f.write(chunk)
    return out.getvalue()


def upload(http, ws: str, filename: str, data: bytes, content_type: str = "application/octet-stream", **form):
    """POST /v1/documents as the official SDK does (multipart, the file as ``file``)."""
    return http.post(
        "/v1/documents",
        headers={"X-Workspace-ID": ws},
        files={"file": (filename, data, content_type)},
        data={k: str(v) for k, v in form.items()},
    )


def wait_document(http, ws: str, document_id: str, timeout_s: float = 30) -> dict:
    """Poll the document until it is completed or failed."""
    import time

    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        doc = http.get(f"/v1/documents/{document_id}", headers={"X-Workspace-ID": ws}).json()
        if doc.get("status") in ("completed", "failed"):
            return doc
        time.sleep(0.05)
    raise AssertionError(f"document {document_id} still {doc.get('status')} after {timeout_s}s")


def wait_job(
    http, ws: str, job_id: str, statuses=("completed", "failed", "cancelled"), timeout_s: float = 30
):
    import time

    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        job = http.get(f"/v1/documents/jobs/{job_id}", headers={"X-Workspace-ID": ws}).json()
        if job.get("status") in statuses:
            return job
        time.sleep(0.05)
    raise AssertionError(f"job {job_id} still {job.get('status')} after {timeout_s}s")


# The hostile files of the noisy-neighbour tests: each is small and, read the way the parsers once did, stalls
# a process for tens of seconds or takes a gigabyte.
def slow_pdf(repeat: int = 400_000) -> bytes:
    """~5 KB: one page whose Flate content stream is ``(Aa) Tj`` ``repeat`` times (pypdf's text extraction
    slows with each operator on one line: 100 s and more for 400,000)."""
    return one_stream_pdf(b"BT /F1 11 Tf 50 780 Td " + b"(Aa) Tj " * repeat + b"ET")


def inflating_pdf(unpacked_mib: int = 60) -> bytes:
    """~60 KB: one page whose content stream inflates to ``unpacked_mib`` MiB of spaces."""
    return one_stream_pdf(b" " * (unpacked_mib * 1024 * 1024))


def one_stream_pdf(content: bytes) -> bytes:
    """A one-page PDF whose content stream is ``content``, Flate-compressed."""
    import zlib

    stream = zlib.compress(content, 9)
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [4 0 R] /Count 1 >>",
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 5 0 R "
        b"/Resources << /Font << /F1 3 0 R >> >> >>",
        b"<< /Length %d /Filter /FlateDecode >>\nstream\n" % len(stream) + stream + b"\nendstream",
    ]
    out = io.BytesIO()
    out.write(b"%PDF-1.4\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(out.tell())
        out.write(b"%d 0 obj\n" % number + body + b"\nendobj\n")
    xref = out.tell()
    out.write(b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1))
    for offset in offsets:
        out.write(b"%010d 00000 n \n" % offset)
    out.write(b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, xref))
    return out.getvalue()


def slow_html(repeat: int = 8_000) -> bytes:
    """48 KB of unterminated attribute values: quadratic in CPython's html.parser (26-65 s)."""
    return b"<p>hello</p>" + b"<a b='" * repeat


def wide_docx(unpacked_mib: int = 60) -> bytes:
    """~90 KB: a DOCX whose document.xml is ``unpacked_mib`` MiB of empty paragraphs (10 million elements for
    60 MiB: a gigabyte as an ElementTree)."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("[Content_Types].xml", _DOCX_TYPES)
        with z.open("word/document.xml", "w") as f:
            f.write(f'<?xml version="1.0" encoding="UTF-8"?><w:document xmlns:w="{_W}"><w:body>'.encode())
            chunk = b"<w:p/>" * (1024 * 1024 // 6)
            for _ in range(unpacked_mib):
                f.write(chunk)
            f.write(b"</w:body></w:document>")
    return out.getvalue()
