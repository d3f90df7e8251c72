"""What the document queue carries: the bucket's object-created events (S3's JSON, keys URL-encoded), S3's
test event when a notification is set up, and our own reprocess messages.

>>> body = '{"Records": [{"eventSource": "aws:s3", "s3": {"object": {"key": "documents%2Fws_a%2Fdoc_1%2Fa+b.txt"}}}]}'
>>> work(body)
[('object', 'documents/ws_a/doc_1/a b.txt')]
>>> work('{"kind": "document", "workspace_id": "ws_a", "job_id": "job_1"}')
[('job', 'ws_a', 'job_1')]
>>> work('{"Service": "Amazon S3", "Event": "s3:TestEvent"}')
[]
"""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import unquote_plus

from shared.core.errors import InvalidInput


class PoisonDocumentMessage(InvalidInput):
    """A queue message that can never succeed (unparseable, or naming nothing)."""

    code = "poison_message"


def work(body: str) -> list[tuple[str, ...]]:
    """The units of work in one message: ('object', key) or ('job', workspace, job id)."""
    try:
        message: Any = json.loads(body)
        if message.get("Event") == "s3:TestEvent":
            return []
        if message.get("kind") == "document":
            return [("job", str(message["workspace_id"]), str(message["job_id"]))]
        out: list[tuple[str, ...]] = []
        for record in message["Records"]:
            if record.get("eventSource") == "aws:s3" and str(
                record.get("eventName", "ObjectCreated")
            ).startswith("ObjectCreated"):
                out.append(("object", unquote_plus(record["s3"]["object"]["key"])))
        return out
    except (ValueError, KeyError, TypeError, AttributeError) as exc:
        raise PoisonDocumentMessage(f"unreadable document message: {body[:200]!r}") from exc
