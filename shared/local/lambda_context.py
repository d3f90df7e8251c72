"""The context object Lambda passes to a handler, for running handlers in-process (local stack, tests).

>>> LambdaContext.for_function("memorylayer-extraction").function_name
'memorylayer-extraction'
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field


@dataclass
class LambdaContext:
    function_name: str = "memorylayer-memory"
    function_version: str = "$LATEST"
    invoked_function_arn: str = "arn:aws:lambda:us-east-1:000000000000:function:memorylayer-memory"
    memory_limit_in_mb: int = 512
    aws_request_id: str = field(default_factory=lambda: str(uuid.uuid4()))
    log_group_name: str = "/aws/lambda/memorylayer-memory"
    log_stream_name: str = "local"
    timeout_ms: int = 30_000

    @classmethod
    def for_function(cls, name: str, *, timeout_ms: int = 30_000) -> LambdaContext:
        return cls(
            function_name=name,
            invoked_function_arn=f"arn:aws:lambda:us-east-1:000000000000:function:{name}",
            log_group_name=f"/aws/lambda/{name}",
            timeout_ms=timeout_ms,
        )

    def get_remaining_time_in_millis(self) -> int:
        return self.timeout_ms
