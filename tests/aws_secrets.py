"""moto's Secrets Manager server on loopback, counting the calls it answers, for the lazy-secret tests.

>>> with secrets_manager() as sm:                                                    # doctest: +SKIP
...     arn = sm.create("admin", "k1")
...     sm.reads(arn)
0
"""

from __future__ import annotations

import io
import json
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

import boto3
import httpx
from moto.server import ThreadedMotoServer

REGION = "us-east-1"


@dataclass
class SecretsServer:
    endpoint: str
    calls: list[dict[str, Any]] = field(default_factory=list)  # {"action", "SecretId", "VersionStage"}

    @property
    def env(self) -> dict[str, str]:
        """What a process needs to reach this server through boto3 (and so through Powertools)."""
        return {
            "AWS_ENDPOINT_URL_SECRETS_MANAGER": self.endpoint,
            "AWS_ACCESS_KEY_ID": "test",
            "AWS_SECRET_ACCESS_KEY": "test",
            "AWS_DEFAULT_REGION": REGION,
            "AWS_REGION": REGION,
        }

    def client(self):
        return boto3.client(
            "secretsmanager",
            endpoint_url=self.endpoint,
            region_name=REGION,
            aws_access_key_id="test",
            aws_secret_access_key="test",
        )

    def create(self, name: str, value: str) -> str:
        arn = self.client().create_secret(Name=name, SecretString=value)["ARN"]
        self.calls.clear()
        return arn

    def rotate(self, arn: str, value: str) -> None:
        """A new AWSCURRENT version; the old one becomes AWSPREVIOUS, as a rotation leaves it."""
        self.client().put_secret_value(SecretId=arn, SecretString=value)
        self.calls[:] = [c for c in self.calls if c["action"] != "PutSecretValue"]

    def reads(self, arn: str, stage: str = "AWSCURRENT") -> int:
        return sum(
            1
            for c in self.calls
            if c["action"] == "GetSecretValue"
            and c.get("SecretId") == arn
            and c.get("VersionStage", "AWSCURRENT") == stage
        )


@contextmanager
def secrets_manager() -> Iterator[SecretsServer]:
    moto = ThreadedMotoServer(ip_address="127.0.0.1", port=0, verbose=False)
    moto.start()
    host, port = moto.get_host_and_port()
    server = SecretsServer(endpoint=f"http://{host}:{port}")
    # moto keeps its state per process, not per server: start from nothing, as a fresh account would.
    httpx.post(f"{server.endpoint}/moto-api/reset").raise_for_status()
    app = moto._server.app  # type: ignore[union-attr]  # wrapped to count what reaches the server

    def counting(environ: dict, start_response: Any) -> Any:
        target = environ.get("HTTP_X_AMZ_TARGET", "")
        if target.startswith("secretsmanager."):
            body = environ["wsgi.input"].read(int(environ.get("CONTENT_LENGTH") or 0))
            environ["wsgi.input"] = io.BytesIO(body)
            request = json.loads(body or b"{}")
            server.calls.append({"action": target.split(".", 1)[1], **request})
        return app(environ, start_response)

    moto._server.app = counting  # type: ignore[union-attr]
    try:
        yield server
    finally:
        moto.stop()
