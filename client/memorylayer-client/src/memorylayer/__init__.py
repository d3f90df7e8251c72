"""MemoryLayer Python SDK: typed sync and async clients for the MemoryLayer ``/v1`` REST API.

from memorylayer import SyncMemoryLayerClient

with SyncMemoryLayerClient("http://localhost:61001", workspace_id="ws_demo") as client:
    client.remember("Alice prefers tea", tags=["prefs"])
    print([m.content for m in client.recall("what does Alice drink?").memories])
"""

from memorylayer._base import DEFAULT_BASE_URL, RetryPolicy
from memorylayer.client import MemoryLayerClient
from memorylayer.errors import (
    AuthenticationError,
    AuthorizationError,
    ConflictError,
    MemoryLayerError,
    NotFoundError,
    PayloadTooLargeError,
    PreconditionFailedError,
    RateLimitError,
    ServerError,
    TransportError,
    ValidationError,
)
from memorylayer.models import (
    Association,
    BatchOperationResult,
    BatchResult,
    GraphPath,
    ImportResult,
    Memory,
    MemoryPage,
    MemoryType,
    RecallResult,
    Revision,
    RevisionPage,
    TraverseResult,
    Workspace,
    WorkspaceExport,
)
from memorylayer.sync_client import SyncMemoryLayerClient

__version__ = "0.3.0"

__all__ = [
    "DEFAULT_BASE_URL",
    "Association",
    "AuthenticationError",
    "AuthorizationError",
    "BatchOperationResult",
    "BatchResult",
    "ConflictError",
    "GraphPath",
    "ImportResult",
    "Memory",
    "MemoryLayerClient",
    "MemoryLayerError",
    "MemoryPage",
    "MemoryType",
    "NotFoundError",
    "PayloadTooLargeError",
    "PreconditionFailedError",
    "RateLimitError",
    "RecallResult",
    "RetryPolicy",
    "Revision",
    "RevisionPage",
    "ServerError",
    "SyncMemoryLayerClient",
    "TransportError",
    "TraverseResult",
    "ValidationError",
    "Workspace",
    "WorkspaceExport",
    "__version__",
]
