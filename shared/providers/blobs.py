"""The document store: S3 in AWS, moto's S3 locally, a dict when no bucket is configured (tests, one process).

>>> store = MemoryBlobs()
>>> store.put("documents/ws_a/doc_1/a.txt", b"hi", content_type="text/plain")
>>> store.get("documents/ws_a/doc_1/a.txt")
b'hi'
>>> store.delete("documents/ws_a/doc_1/a.txt")
>>> store.exists("documents/ws_a/doc_1/a.txt")
False
"""

from __future__ import annotations

import threading
from abc import ABC, abstractmethod
from typing import Any

from shared.core.settings import Settings


class BlobNotFound(LookupError):
    """The object is not in the store (deleted, or its upload never finished)."""


class BlobStore(ABC):
    @abstractmethod
    def put(self, key: str, data: bytes, *, content_type: str | None = None) -> None: ...

    @abstractmethod
    def get(self, key: str, *, max_bytes: int | None = None) -> bytes:
        """The object's bytes; ``max_bytes``: refuse (ValueError) a larger object before reading it."""

    @abstractmethod
    def delete(self, key: str) -> None: ...

    @abstractmethod
    def exists(self, key: str) -> bool: ...

    def presigned_put(self, key: str, *, max_bytes: int, expires_s: int = 900) -> dict[str, Any] | None:
        """A URL and form fields a client POSTs the bytes to (S3's presigned POST, size-capped); None: this
        store has no URL of its own."""
        return None


class MemoryBlobs(BlobStore):
    """One process's objects: enough for tests and an in-process pipeline, never for a fleet."""

    def __init__(self) -> None:
        self._objects: dict[str, bytes] = {}
        self._lock = threading.Lock()

    def put(self, key: str, data: bytes, *, content_type: str | None = None) -> None:
        with self._lock:
            self._objects[key] = bytes(data)

    def get(self, key: str, *, max_bytes: int | None = None) -> bytes:
        with self._lock:
            if key not in self._objects:
                raise BlobNotFound(key)
            data = self._objects[key]
        if max_bytes is not None and len(data) > max_bytes:
            raise ValueError(f"object of {len(data)} bytes is over {max_bytes}")
        return data

    def delete(self, key: str) -> None:
        with self._lock:
            self._objects.pop(key, None)

    def exists(self, key: str) -> bool:
        with self._lock:
            return key in self._objects


class S3Blobs(BlobStore):
    def __init__(self, bucket: str, *, endpoint_url: str | None = None, region: str = "us-east-1") -> None:
        import boto3  # on first use: a function that never touches documents never pays for it

        self.bucket = bucket
        self.client = boto3.client("s3", endpoint_url=endpoint_url, region_name=region)

    def put(self, key: str, data: bytes, *, content_type: str | None = None) -> None:
        extra = {"ContentType": content_type} if content_type else {}
        self.client.put_object(Bucket=self.bucket, Key=key, Body=data, **extra)

    def get(self, key: str, *, max_bytes: int | None = None) -> bytes:
        try:
            obj = self.client.get_object(Bucket=self.bucket, Key=key)
        except self.client.exceptions.NoSuchKey as exc:
            raise BlobNotFound(key) from exc
        if max_bytes is not None and int(obj.get("ContentLength", 0)) > max_bytes:
            obj["Body"].close()
            raise ValueError(f"object of {obj['ContentLength']} bytes is over {max_bytes}")
        return bytes(obj["Body"].read())

    def delete(self, key: str) -> None:
        self.client.delete_object(Bucket=self.bucket, Key=key)

    def exists(self, key: str) -> bool:
        try:
            self.client.head_object(Bucket=self.bucket, Key=key)
            return True
        except self.client.exceptions.ClientError:
            return False

    def presigned_put(self, key: str, *, max_bytes: int, expires_s: int = 900) -> dict[str, Any] | None:
        post = self.client.generate_presigned_post(
            self.bucket,
            key,
            Conditions=[["content-length-range", 1, max_bytes]],
            ExpiresIn=expires_s,
        )
        return {"url": post["url"], "fields": post["fields"], "expires_in": expires_s}


_MEMORY = MemoryBlobs()  # one per process: the API and the in-process pipeline must see the same objects


def create_blobs(settings: Settings) -> BlobStore:
    if not settings.document_bucket:
        return _MEMORY
    return S3Blobs(
        settings.document_bucket, endpoint_url=settings.s3_endpoint_url, region=settings.aws_region
    )
