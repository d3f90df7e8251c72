"""Run the embedding container's HTTP server.

    $ python -m functions.embed.server            # 127.0.0.1:61051, ONNX MiniLM on CPU
    $ docker run -p 8080:8080 <image> serve       # as SageMaker runs it; the image binds 0.0.0.0:8080

Configuration is environment only (see ``config.py``): EMBED_MODEL, EMBED_BACKEND, MEMORYLAYER_EMBED_PORT, ...
"""

from __future__ import annotations

import argparse
import logging

import uvicorn

from .app import create_app
from .config import EmbedConfig


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m functions.embed.server")
    # SageMaker starts containers as `docker run <image> serve`; "serve" is the only command there is.
    parser.add_argument("command", nargs="?", default="serve", choices=["serve"])
    parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s %(message)s")
    config = EmbedConfig.from_env()
    uvicorn.run(
        create_app(config),
        host=config.host,
        port=config.port,
        workers=1,  # one process owns the model; concurrency comes from the batcher
        # Above the load balancer's 60 s idle timeout, so it never reuses a socket we closed.
        timeout_keep_alive=75,
        access_log=False,
    )


if __name__ == "__main__":
    main()
