"""A local server speaking the OpenAI chat-completions wire that replays recorded extraction answers.

    >>> with RecordedOpenAI(RECORDINGS) as stub:                              # doctest: +SKIP
    ...     llm = create_llm(Settings(llm_provider="openai", llm_base_url=stub.base_url))

The answer is looked up by the NEW user message in the prompt (``render_prompt`` writes it as ``user: <text>``);
an utterance with no recording is a 404, so a missing recording fails loudly instead of scoring as silence.
"""

from __future__ import annotations

import json
import re
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

RECORDINGS = Path(__file__).with_name("recorded_llm.json")


class RecordedOpenAI:
    def __init__(self, path: Path = RECORDINGS) -> None:
        self.responses: dict[str, Any] = json.loads(path.read_text())["responses"]
        self.calls = 0
        stub = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args: Any) -> None:
                pass

            def do_POST(self) -> None:
                body = json.loads(self.rfile.read(int(self.headers.get("content-length") or 0)))
                status, payload = stub.answer(self.path, body)
                raw = json.dumps(payload).encode()
                self.send_response(status)
                self.send_header("content-type", "application/json")
                self.send_header("content-length", str(len(raw)))
                self.end_headers()
                self.wfile.write(raw)

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._thread = threading.Thread(target=self._server.serve_forever, args=(0.05,), daemon=True)

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self._server.server_address[1]}/v1"

    def answer(self, path: str, body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        if path != "/v1/chat/completions" or body.get("response_format", {}).get("type") != "json_schema":
            return 404, {
                "error": {"message": f"unexpected request to {path}", "type": "invalid_request_error"}
            }
        prompt = body["messages"][-1]["content"]
        said = re.search(r"NEW messages:\nuser: (.*)\n", prompt)
        recorded = self.responses.get(said.group(1)) if said else None
        if recorded is None:
            return 404, {
                "error": {"message": "no recording for this prompt", "type": "invalid_request_error"}
            }
        self.calls += 1
        return 200, {
            "id": f"chatcmpl-rec{self.calls}",
            "object": "chat.completion",
            "created": 0,
            "model": body["model"],
            "choices": [{"index": 0, "finish_reason": "stop",
                         "message": {"role": "assistant", "content": json.dumps(recorded)}}],
            "usage": {"prompt_tokens": len(prompt) // 4, "completion_tokens": len(json.dumps(recorded)) // 4,
                      "total_tokens": (len(prompt) + len(json.dumps(recorded))) // 4},
        }  # fmt: skip

    def __enter__(self) -> RecordedOpenAI:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._server.shutdown()
        self._server.server_close()
