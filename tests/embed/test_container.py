"""The embedding container over real HTTP: SageMaker contract, OpenAI route, limits and dynamic batching."""

from __future__ import annotations

import asyncio

import httpx
import numpy as np
import openai
import pytest

from shared.providers.embeddings.local import LocalOnnxEmbedder


def test_ping_and_health(container) -> None:
    assert httpx.get(f"{container.url}/ping").status_code == 200
    health = httpx.get(f"{container.url}/health").json()
    assert health == {"status": "ok", "model": "all-MiniLM-L6-v2", "dimensions": 384, "backend": "onnx"}


@pytest.mark.parametrize("inputs", [["login timeout", "redis down"], "login timeout", [""]])
def test_invocations(container, inputs: list[str] | str) -> None:
    reply = httpx.post(f"{container.url}/invocations", json={"inputs": inputs})
    assert reply.status_code == 200
    body = reply.json()
    texts = [inputs] if isinstance(inputs, str) else inputs
    assert body["model"] == "all-MiniLM-L6-v2" and body["dimensions"] == 384
    got = np.asarray(body["embeddings"], dtype=np.float32)
    assert got.shape == (len(texts), 384)
    np.testing.assert_allclose(got, np.stack(LocalOnnxEmbedder().embed(texts)), atol=1e-5)


def test_openai_route_plain_json(container) -> None:
    reply = httpx.post(
        f"{container.url}/v1/embeddings", json={"input": ["a", "b c"], "model": "all-MiniLM-L6-v2"}
    )
    body = reply.json()
    assert reply.status_code == 200 and body["object"] == "list" and body["model"] == "all-MiniLM-L6-v2"
    assert [item["index"] for item in body["data"]] == [0, 1]
    assert all(item["object"] == "embedding" and len(item["embedding"]) == 384 for item in body["data"])
    assert body["usage"]["prompt_tokens"] == body["usage"]["total_tokens"] == 3 + 4  # [CLS] ... [SEP]


def test_openai_sdk_against_the_container(container) -> None:
    client = openai.OpenAI(base_url=f"{container.url}/v1", api_key="unused", max_retries=0)
    texts = ["the cat sat on the mat", "a kitten rests on a rug", "quarterly revenue grew"]
    # The SDK asks for base64 by default and decodes it itself.
    response = client.embeddings.create(model="sentence-transformers/all-MiniLM-L6-v2", input=texts)
    got = np.asarray([item.embedding for item in response.data], dtype=np.float32)
    np.testing.assert_allclose(got, np.stack(LocalOnnxEmbedder().embed(texts)), atol=1e-5)
    assert float(got[0] @ got[1]) > float(got[0] @ got[2])
    floats = client.embeddings.create(model="all-MiniLM-L6-v2", input="one", encoding_format="float")
    assert len(floats.data[0].embedding) == 384
    with pytest.raises(openai.NotFoundError):
        client.embeddings.create(model="text-embedding-3-small", input="wrong model")
    with pytest.raises(openai.BadRequestError):
        client.embeddings.create(model="all-MiniLM-L6-v2", input="x", dimensions=128)


@pytest.mark.parametrize(
    ("path", "body", "status", "code"),
    [
        ("/invocations", {"inputs": []}, 400, "empty_input"),
        ("/v1/embeddings", {"input": []}, 400, "empty_input"),
        ("/invocations", {"inputs": ["x"] * 257}, 413, "too_many_inputs"),
        ("/v1/embeddings", {"input": "x" * (32 * 1024 + 1)}, 413, "input_too_long"),
        ("/invocations", {"inputs": [1, 2]}, 400, "invalid_request"),
        ("/v1/embeddings", {"input": [[101, 102]]}, 400, "invalid_request"),  # token ids: not supported
        ("/invocations", {"texts": ["x"]}, 400, "invalid_request"),
    ],
)
def test_bad_input_is_a_4xx_json_error(container, path: str, body: dict, status: int, code: str) -> None:
    reply = httpx.post(f"{container.url}{path}", json=body)
    assert reply.status_code == status
    assert reply.json()["error"]["code"] == code


def test_malformed_json_is_a_400(container) -> None:
    reply = httpx.post(
        f"{container.url}/invocations", content=b"{not json", headers={"content-type": "application/json"}
    )
    assert reply.status_code == 400 and reply.json()["error"]["type"] == "invalid_request_error"


def test_concurrent_requests_share_model_calls(container) -> None:
    texts = [f"concurrent request number {i}" for i in range(32)]

    async def fire() -> list[httpx.Response]:
        async with httpx.AsyncClient(base_url=container.url, timeout=30) as client:
            return await asyncio.gather(*(client.post("/invocations", json={"inputs": [t]}) for t in texts))

    before = httpx.get(f"{container.url}/stats").json()
    replies = asyncio.run(fire())
    after = httpx.get(f"{container.url}/stats").json()
    assert all(r.status_code == 200 for r in replies)
    requests, batches = after["requests"] - before["requests"], after["batches"] - before["batches"]
    assert requests == 32
    assert batches < 16, f"32 concurrent requests took {batches} model calls"
    # Each reply still carries its own text's vector.
    got = np.asarray([r.json()["embeddings"][0] for r in replies], dtype=np.float32)
    np.testing.assert_allclose(got, np.stack(LocalOnnxEmbedder().embed(texts)), atol=1e-5)
