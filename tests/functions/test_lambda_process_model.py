"""Every function's handler, run as Lambda runs it: an unprivileged user, a code directory it cannot write,
only a fresh /tmp directory writable (HOME and TMPDIR), and the environment the synthesized dev template sets
for that function. Local stand-ins take the place of what the template names by reference: the stand-in RDS
Proxy (IAM tokens, TLS verify-full) for the database endpoint, the writer behind a TLS stand-in for migrate,
moto for SQS, S3 (the document bucket, its object-created events on the document queue) and Secrets Manager.
Real event shapes: API Gateway HTTP v2, SQS (S3's own events inside for the document queue), EventBridge,
CloudFormation.

Each run goes through tests/lambda_process.py in its own process. As root it runs first as root (which also
lists the standard-library modules it needed: this interpreter's lives under /root, unreadable to the
unprivileged user, so the second run preloads them before dropping privileges), then as ``nobody``. Neither
run may change anything under the code directory or the installed packages.
"""

from __future__ import annotations

import base64
import json
import os
import shutil
import subprocess
import sys
import sysconfig
import tempfile
import uuid
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import unquote_plus

import httpx
import psycopg
import pytest

from shared.local.api_gateway import http_v2
from shared.local.documents import document_bucket
from shared.local.rds_proxy import RdsProxyStandIn
from shared.local.sqs import LocalQueues, add_queue, lambda_event, local_sqs
from tests.otlp import AgentStandIn, decode

NOBODY = 65534
REGION = "us-east-1"
CODE_ROOT = Path(__file__).resolve().parents[2]
PACKAGES = Path(sysconfig.get_paths()["purelib"])
ADMIN_KEY = "admin-key-for-the-process-model"
SECRET_CONTENT = "Priya keeps the spare key under the blue flowerpot"
# Template values replaced by a local equivalent even though they are plain strings: where the endpoint listens,
# the database it serves, and the CA its certificate chains to (AWS's is the shipped bundle).
LOCAL_ENDPOINT_KEYS = {
    "MEMORYLAYER_DATABASE_PORT",
    "MEMORYLAYER_DATABASE_NAME",
    "MEMORYLAYER_DATABASE_SSLROOTCERT",
}


@pytest.fixture(scope="module")
def template() -> dict[str, Any]:
    """The dev stack as ``cdk synth`` writes it (code-only bundles: no pip, no network)."""
    os.environ.setdefault("JSII_SILENCE_WARNING_END_OF_LIFE_NODE_VERSION", "20")
    from aws_cdk import App

    from infra.app import create_stack

    root = Path(tempfile.mkdtemp(prefix="ml-synth-"))
    app = App(
        context={"bundle": "skip", "bundle_dir": str(root / "bundle"), "region": REGION},
        outdir=str(root / "out"),
    )
    stack = create_stack(app, "dev", stack_id="MemoryLayer-dev")
    out = app.synth().get_stack_by_name(stack.stack_name).template
    shutil.rmtree(root, ignore_errors=True)
    return out


def function_of(template: dict[str, Any], name: str) -> dict[str, Any]:
    """The properties of the Lambda function ``memorylayer-dev-<name>``."""
    for resource in template["Resources"].values():
        props = resource["Properties"]
        if (
            resource["Type"] == "AWS::Lambda::Function"
            and props.get("FunctionName") == f"memorylayer-dev-{name}"
        ):
            return props
    raise AssertionError(f"no function {name} in the template")


def event_source(template: dict[str, Any], name: str) -> dict[str, Any]:
    """The properties of the SQS event source mapping that invokes function ``name``."""
    for resource in template["Resources"].values():
        if resource["Type"] == "AWS::Lambda::EventSourceMapping":
            ref = resource["Properties"]["FunctionName"]["Ref"]
            if template["Resources"][ref]["Properties"].get("FunctionName") == f"memorylayer-dev-{name}":
                return dict(resource["Properties"])
    raise AssertionError(f"no event source for {name} in the template")


def notified_queues(template: dict[str, Any]) -> set[str]:
    """Logical ids of the queues a bucket's event notifications reach (the document queue)."""
    return {
        config["QueueArn"]["Fn::GetAtt"][0]
        for resource in template["Resources"].values()
        if resource["Type"] == "Custom::S3BucketNotifications"
        for config in resource["Properties"]["NotificationConfiguration"].get("QueueConfigurations", [])
    }


@dataclass
class LocalAws:
    """What the template refers to, standing in on loopback."""

    queues: LocalQueues  # the extraction queue
    documents: LocalQueues  # the document queue, on the same moto server
    bucket: str  # the document bucket, its object-created events sent to ``documents``
    app_proxy: RdsProxyStandIn
    writer: RdsProxyStandIn
    dbname: str
    secrets: dict[str, str] = field(default_factory=dict)  # logical id (or "owner") -> moto ARN
    agent: AgentStandIn = field(default_factory=AgentStandIn)  # where Lambda's X-Ray agent listens

    def resolve(self, template: dict[str, Any], key: str, value: Any) -> str:
        """A template value as the deployed function would see it, pointing at the stand-ins."""
        if isinstance(value, str):
            return value
        resources = template["Resources"]
        if value == {"Ref": "AWS::Region"}:
            return REGION
        if set(value) == {"Ref"}:
            kind = resources[value["Ref"]]["Type"]
            if kind == "AWS::SQS::Queue":
                notified = value["Ref"] in notified_queues(template)
                return self.documents.queue_url if notified else self.queues.queue_url
            if kind == "AWS::S3::Bucket":
                return self.bucket
            if kind == "AWS::SecretsManager::Secret":
                return self.secrets[value["Ref"]]
            if kind == "AWS::Lambda::Function":  # Ref of a function is its name
                return str(resources[value["Ref"]]["Properties"]["FunctionName"])
        if set(value) == {"Fn::GetAtt"}:
            attribute = value["Fn::GetAtt"][1]
            if attribute == "Endpoint.Address":
                return self.app_proxy.host
            if attribute == "MasterUserSecret.SecretArn":
                return self.secrets["owner"]
        raise AssertionError(f"{key}: no local stand-in for {value}: teach LocalAws.resolve about it")


@pytest.fixture(scope="module")
def local_aws(template, superuser_url, owner_url) -> Iterator[LocalAws]:
    from psycopg.conninfo import conninfo_to_dict

    dbname = str(conninfo_to_dict(superuser_url).get("dbname") or "postgres")
    with (
        local_sqs(visibility_timeout_s=30) as queues,
        RdsProxyStandIn(superuser_url, tls=True, iam=True, region=REGION) as app_proxy,
        # The writer endpoint, as the migrate function reaches it: TLS verify-full, the owner's password.
        RdsProxyStandIn(superuser_url, tls=True) as writer,
    ):
        # The template's shape: three receives, then the DLQ; a visibility timeout the test never reaches.
        documents = add_queue(queues, "documents", visibility_timeout_s=600, max_receive_count=3)
        aws = LocalAws(queues, documents, document_bucket(documents), app_proxy, writer, dbname)
        import boto3

        sm = boto3.client(
            "secretsmanager",
            endpoint_url=queues.endpoint_url,
            region_name=REGION,
            aws_access_key_id="local",
            aws_secret_access_key="local",
        )
        values = {"AdminKey": ADMIN_KEY, "ContextCursor": "cursor-secret-for-the-process-model"}
        for logical_id, resource in template["Resources"].items():
            if resource["Type"] == "AWS::SecretsManager::Secret":
                value = next(v for k, v in values.items() if k in logical_id)
                aws.secrets[logical_id] = sm.create_secret(Name=logical_id, SecretString=value)["ARN"]
        owner = json.dumps({"username": "memorylayer_owner", "password": "unused-locally"})
        aws.secrets["owner"] = sm.create_secret(Name="owner", SecretString=owner)["ARN"]
        try:
            yield aws
        finally:
            aws.agent.close()


def lambda_environment(template: dict[str, Any], name: str, aws: LocalAws, run_dir: Path) -> dict[str, str]:
    """The template's variables for function ``name``, resolved to the stand-ins, plus what Lambda's runtime
    sets for a function with active tracing (AWS's list of reserved variables)."""
    props = function_of(template, name)
    env = {k: aws.resolve(template, k, v) for k, v in props["Environment"]["Variables"].items()}
    proxy = aws.writer if name == "migrate" else aws.app_proxy
    ca = run_dir / "ca.pem"  # the stand-in's CA sits in a root-only temporary directory
    shutil.copy(str(proxy.ca_file), ca)
    ca.chmod(0o644)
    env.update(
        MEMORYLAYER_DATABASE_PORT=str(proxy.port),
        MEMORYLAYER_DATABASE_NAME=aws.dbname,
        MEMORYLAYER_DATABASE_SSLROOTCERT=str(ca),
    )
    env.update(
        {
            "_HANDLER": props["Handler"],
            "AWS_EXECUTION_ENV": "AWS_Lambda_python3.12",
            "AWS_LAMBDA_FUNCTION_NAME": props["FunctionName"],
            "AWS_LAMBDA_FUNCTION_MEMORY_SIZE": str(props["MemorySize"]),
            "AWS_LAMBDA_FUNCTION_VERSION": "$LATEST",
            "AWS_LAMBDA_INITIALIZATION_TYPE": "on-demand",
            "AWS_LAMBDA_LOG_GROUP_NAME": f"/aws/lambda/{props['FunctionName']}",
            "AWS_LAMBDA_LOG_STREAM_NAME": "2026/12/03/[$LATEST]0123456789abcdef",
            "AWS_REGION": REGION,
            "AWS_DEFAULT_REGION": REGION,
            "AWS_ACCESS_KEY_ID": "ASIALOCALPROCESSMODEL",
            "AWS_SECRET_ACCESS_KEY": "local",
            "AWS_SESSION_TOKEN": "local",
            "AWS_XRAY_CONTEXT_MISSING": "LOG_ERROR",
            "AWS_XRAY_DAEMON_ADDRESS": aws.agent.address,
            "LAMBDA_TASK_ROOT": str(CODE_ROOT),
            "LAMBDA_RUNTIME_DIR": "/var/runtime",
            "LANG": "en_US.UTF-8",
            "TZ": ":UTC",
            "PATH": "/usr/local/bin:/usr/bin:/bin",
            "PYTHONPATH": str(CODE_ROOT),
            "HOME": str(run_dir),
            "TMPDIR": str(run_dir),
            # Local endpoints for the AWS SDK (boto3's own variables, so no MEMORYLAYER_* value changes).
            "AWS_ENDPOINT_URL_SQS": aws.queues.endpoint_url,
            "AWS_ENDPOINT_URL_S3": aws.queues.endpoint_url,
            "AWS_ENDPOINT_URL_SECRETS_MANAGER": aws.queues.endpoint_url,
        }
    )
    return env


def listing(*roots: Path) -> dict[str, tuple[int, int]]:
    """Every file and directory under the roots (symlinks not followed): (mtime_ns, size)."""
    seen: dict[str, tuple[int, int]] = {}
    for root in roots:
        for dirpath, dirnames, filenames in os.walk(root):
            # pytest's own cache, written by this run; git's store, which no Lambda has and other checkouts of
            # this repository may write to meanwhile.
            dirnames[:] = [d for d in dirnames if d not in (".pytest_cache", ".git")]
            for entry in (dirpath, *(os.path.join(dirpath, f) for f in filenames)):
                st = os.lstat(entry)
                seen[entry] = (st.st_mtime_ns, st.st_size)
    return seen


def changes(before: dict[str, tuple[int, int]], after: dict[str, tuple[int, int]]) -> list[str]:
    return sorted(p for p in before.keys() | after.keys() if before.get(p) != after.get(p))


MODES = ["as_root", "as_user"] if os.geteuid() == 0 else ["as_user"]


@dataclass
class Run:
    uid: int
    results: list[dict[str, Any]]
    stdlib: list[str]
    written: list[str]  # changed paths under the code directory and the installed packages
    log: str  # the function's own output (logs, metrics), for failure messages


def run_handler(
    template: dict[str, Any],
    aws: LocalAws,
    name: str,
    invocations: list[dict[str, Any]],
    *,
    as_user: bool,
    preload: Sequence[str] = (),
    handler: str | None = None,
    roots: tuple[Path, ...] = (CODE_ROOT, PACKAGES),
) -> Run:
    """One cold container of function ``name``: its handler module imported, then each invocation in turn."""
    run_dir = Path(tempfile.mkdtemp(prefix=f"lambda-{name}-", dir="/tmp"))
    uid = NOBODY if as_user and os.geteuid() == 0 else os.geteuid()
    os.chown(run_dir, uid, uid)
    env = lambda_environment(template, name, aws, run_dir)
    props = function_of(template, name)
    spec = {
        "handler": handler or props["Handler"].rsplit(".", 1)[0].replace("/", "."),
        "function_name": props["FunctionName"],
        "preload": list(preload),
        "invocations": invocations,
    }
    # -B: Lambda's code directory is read-only, so its Python writes no bytecode there; root could here, and a
    # stray __pycache__ would hide (or fake) what the handler itself wrote.
    args = [sys.executable, "-B", "-m", "tests.lambda_process"]
    if uid != os.geteuid():
        args += ["--as-user", str(uid)]
        # The document parser's child process execs an interpreter, and this one lives under /root, which the
        # function's user cannot read (Lambda's, /var/lang, is world-readable): it runs the system's Python of
        # the same minor version over the same packages instead.
        same = shutil.which(f"python{sys.version_info.major}.{sys.version_info.minor}", path="/usr/bin")
        if same:
            env |= {"MEMORYLAYER_DOCUMENT_PARSE_PYTHON": same, "PYTHONPATH": str(PACKAGES)}
    before = listing(*roots)
    done = subprocess.run(
        args, input=json.dumps(spec), capture_output=True, text=True, env=env, cwd=CODE_ROOT, timeout=300,
        check=False,
    )  # fmt: skip
    after = listing(*roots)
    shutil.rmtree(run_dir, ignore_errors=True)
    assert done.returncode == 0, done.stderr[-4000:]
    report = json.loads(done.stdout.strip().splitlines()[-1])  # logs and metrics go to stdout first
    assert report["uid"] == uid
    log = (done.stdout.strip().rpartition("\n")[0] + done.stderr)[-6000:]
    return Run(report["uid"], report["results"], report["stdlib"], changes(before, after), log)


def in_every_mode(template, aws, name, build) -> Iterator[tuple[str, Run]]:
    """Runs the invocations ``build()`` makes (fresh ones per run) in each mode; the unprivileged run preloads
    the standard library the root run loaded."""
    preload: list[str] = []
    for mode in MODES:
        run = run_handler(template, aws, name, build(), as_user=mode == "as_user", preload=preload)
        assert run.written == [], (mode, run.written[:20])
        for result in run.results:
            assert result["ok"], (mode, result["error"])
        preload = run.stdlib
        yield mode, run


def api(method: str, path: str, ws: str, body: Any = None, *, key: str = ADMIN_KEY) -> dict[str, Any]:
    """An API Gateway event (the admin key by default: only the memory function holds it)."""
    headers = {"Authorization": f"Bearer {key}", "X-Workspace-ID": ws}
    return {"event": http_v2(method, path, body=body, headers=headers), "env": trace_header()}


def trace_header() -> dict[str, str]:
    root = f"1-{uuid.uuid4().hex[:8]}-{uuid.uuid4().hex[:24]}"
    return {"_X_AMZN_TRACE_ID": f"Root={root};Parent={uuid.uuid4().hex[:16]};Sampled=1"}


def answers(run: Run) -> list[tuple[int, dict[str, Any]]]:
    return [(r["value"]["statusCode"], json.loads(r["value"]["body"] or "null")) for r in run.results]


def fresh_ws() -> str:
    return f"ws_{uuid.uuid4().hex[:12]}"


@pytest.fixture(scope="module")
def memory_runs(template, local_aws) -> dict[str, tuple[str, Run]]:
    """The memory function in every mode: mode -> (workspace, run). Each run leaves one extraction job."""
    out: dict[str, tuple[str, Run]] = {}
    workspaces: list[str] = []

    def build() -> list[dict[str, Any]]:
        workspaces.append(fresh_ws())
        return memory_invocations(workspaces[-1])

    for mode, run in in_every_mode(template, local_aws, "memory", build):
        out[mode] = (workspaces[-1], run)
    return out


def memory_invocations(ws: str) -> list[dict[str, Any]]:
    thread = f"thr_{uuid.uuid4().hex[:12]}"
    return [
        {"event": http_v2("GET", "/health"), "env": trace_header()},
        api("POST", "/v1/memories", ws, {"content": SECRET_CONTENT, "tags": ["home"]}),
        api("POST", "/v1/memories/recall", ws, {"query": "where is the spare key?"}),
        api("POST", "/v1/threads", ws, {"id": thread, "user_id": "priya"}),
        api(
            "POST",
            f"/v1/threads/{thread}/messages",
            ws,
            {"messages": [{"role": "user", "content": "Hi, my name is Priya and I live in Lisbon"}]},
        ),
    ]


def test_memory_function_remembers_recalls_and_enqueues_extraction(memory_runs):
    assert set(memory_runs) == set(MODES)
    for mode, (_, run) in memory_runs.items():
        (health, _), (created, memory), (recalled, found), (thread, _), (appended, job) = answers(run)
        assert (health, created, recalled, thread, appended) == (200, 201, 200, 201, 201), (mode, run.log)
        assert memory["memory"]["content"] == SECRET_CONTENT
        assert [m["content"] for m in found["memories"]] == [SECRET_CONTENT]
        assert job["job_id"]


def test_the_memory_function_traces_to_the_xray_agent_without_content(memory_runs, local_aws):
    """Active tracing as the template sets it: every invocation's spans reach the agent, one cold start per
    container, each a child of Lambda's segment, and none of the memories, queries or messages with them."""
    payloads = local_aws.agent.payloads()
    spans = [s for s in decode(payloads) if s.resource["service.name"] == "memorylayer-memory"]
    handlers = [s for s in spans if s.name == "## handler"]
    assert len(handlers) == len(MODES) * len(memory_invocations("ws_count")), [s.name for s in spans]
    assert sum(s.attributes["faas.coldstart"] for s in handlers) == len(MODES)
    assert {"db.connection", "embedding"} <= {s.name for s in spans}
    assert all(s.trace_id[:8] != "0" * 8 and s.parent_id for s in handlers)  # X-Ray ids, Lambda's segment
    for marker in (b"flowerpot", b"spare key", b"Lisbon"):
        assert marker not in b"".join(payloads), marker


def test_extraction_worker_turns_the_queued_jobs_into_memories(
    template, local_aws, memory_runs, superuser_url
):
    """The jobs the memory runs sent to SQS, delivered as Lambda's SQS event source delivers them."""
    queues = local_aws.queues
    delivered: list[dict[str, Any]] = []

    def build() -> list[dict[str, Any]]:
        received = queues.client.receive_message(
            QueueUrl=queues.queue_url, MaxNumberOfMessages=1, AttributeNames=["All"], WaitTimeSeconds=5
        )["Messages"]
        delivered.extend(received)
        return [{"event": lambda_event(queues, received), "env": trace_header()}]

    for mode, run in in_every_mode(template, local_aws, "extraction", build):
        assert run.results[0]["value"] == {"batchItemFailures": []}, (mode, run.log)
        # The event source deletes what succeeded: a run slower than the visibility timeout must not hand the
        # next one the same message again.
        queues.client.delete_message(QueueUrl=queues.queue_url, ReceiptHandle=delivered[-1]["ReceiptHandle"])
    assert len({m["MessageId"] for m in delivered}) == len(MODES)
    workspaces = [ws for ws, _ in memory_runs.values()]
    with psycopg.connect(superuser_url) as conn:
        statuses = conn.execute(
            "SELECT status FROM extraction_jobs WHERE workspace_id = ANY(%s)", (workspaces,)
        ).fetchall()
    assert statuses == [("done",)] * len(MODES)


# The documents runs come after the tracing test above: their memory-function uploads add handler spans that
# test does not count.
DOCUMENT_TEXT = b"The lighthouse keeper logs the weather at dawn.\n\nStorms come from the west in autumn.\n"
CORRUPT_PDF = b"%PDF-1.4\n1 0 obj <<< not a pdf at all"


@dataclass
class DocumentUploads:
    """What one memory-function run left in the bucket: a document uploaded through the API and a presigned
    upload the client filled with a corrupt PDF, each with its job."""

    workspace: str
    document: str
    job: str
    refused: str
    refused_job: str


def document_upload(ws: str, filename: str, data: bytes) -> dict[str, Any]:
    """POST /v1/documents as the SDK sends it (multipart) and API Gateway hands it on (base64-encoded)."""
    request = httpx.Request(
        "POST", "https://api.invalid/v1/documents", files={"file": (filename, data, "text/plain")}
    )
    headers = {
        "Authorization": f"Bearer {ADMIN_KEY}",
        "X-Workspace-ID": ws,
        "Content-Type": request.headers["content-type"],
    }
    event = http_v2("POST", "/v1/documents", headers=headers)
    event.update(body=base64.b64encode(request.read()).decode(), isBase64Encoded=True)
    return {"event": event, "env": trace_header()}


@pytest.fixture(scope="module")
def document_uploads(template, local_aws) -> dict[str, DocumentUploads]:
    """The memory function in every mode takes a document and grants a presigned upload, which the client then
    fills with a corrupt PDF; the bucket's events for both wait on the document queue. mode -> what it left."""
    out: dict[str, DocumentUploads] = {}
    workspaces: list[str] = []

    def build() -> list[dict[str, Any]]:
        workspaces.append(fresh_ws())
        return [
            document_upload(workspaces[-1], "lighthouse log.txt", DOCUMENT_TEXT),
            api("POST", "/v1/documents/uploads", workspaces[-1], {"filename": "broken.pdf"}),
        ]

    for mode, run in in_every_mode(template, local_aws, "memory", build):
        (accepted, uploaded), (granted, grant) = answers(run)
        assert (accepted, granted) == (202, 201), (mode, run.log)
        assert grant["upload_url"].startswith(local_aws.queues.endpoint_url), grant["upload_url"]
        sent = httpx.post(
            grant["upload_url"], data=grant["fields"], files={"file": ("broken.pdf", CORRUPT_PDF)}
        )
        assert sent.status_code in (200, 201, 204), sent.text
        out[mode] = DocumentUploads(
            workspaces[-1],
            uploaded["document"]["id"],
            uploaded["job"]["id"],
            grant["document"]["id"],
            grant["job"]["id"],
        )
    return out


def bucket_events(queues: LocalQueues, count: int) -> tuple[list[dict[str, Any]], dict[str, dict[str, Any]]]:
    """``count`` object-created events from the document queue, as S3 sent them (document id -> message), and
    the test events S3 sends when a notification is set up."""
    tests: list[dict[str, Any]] = []
    received: dict[str, dict[str, Any]] = {}
    for _ in range(30):  # moto sends the events as the objects land; a few polls collect them
        if len(received) == count:
            break
        got = queues.client.receive_message(
            QueueUrl=queues.queue_url, MaxNumberOfMessages=10, AttributeNames=["All"], WaitTimeSeconds=1
        )
        for message in got.get("Messages", []):
            body = json.loads(message["Body"])
            if body.get("Event") == "s3:TestEvent":
                tests.append(message)
                continue
            [record] = body["Records"]
            assert record["eventSource"] == "aws:s3" and record["eventName"].startswith("ObjectCreated:")
            key = unquote_plus(record["s3"]["object"]["key"])  # S3 URL-encodes keys in its events
            received[key.split("/")[2]] = message  # documents/<workspace>/<document>/<filename>
    assert len(received) == count, sorted(received)
    return tests, received


def test_documents_function_turns_bucket_events_into_memories(
    template, local_aws, document_uploads, superuser_url
):
    """The bucket's events, delivered as the template's event source delivers them (its batch size, partial
    batch failure): the uploaded document completes with its memories; the corrupt PDF fails its job with the
    reason at once, and its record is reported failed (SQS redelivers it, then parks it in the DLQ)."""
    from psycopg.rows import dict_row

    queues = local_aws.documents
    source = event_source(template, "documents")
    assert source["FunctionResponseTypes"] == ["ReportBatchItemFailures"]
    size = int(source["BatchSize"])
    tests, events = bucket_events(queues, 2 * len(document_uploads))
    pending = iter(document_uploads.values())
    delivered: list[list[dict[str, Any]]] = []

    def build() -> list[dict[str, Any]]:
        uploads = next(pending)
        # S3's test event goes to the first container: it is taken and changes nothing.
        earlier = [] if delivered else tests
        delivered.append([*earlier, events[uploads.document], events[uploads.refused]])
        batches = [delivered[-1][i : i + size] for i in range(0, len(delivered[-1]), size)]
        return [{"event": lambda_event(queues, batch), "env": trace_header()} for batch in batches]

    for mode, run in in_every_mode(template, local_aws, "documents", build):
        *succeeded, refused = delivered[-1]
        failed = [f["itemIdentifier"] for r in run.results for f in r["value"]["batchItemFailures"]]
        assert failed == [refused["MessageId"]], (mode, run.log)
        # The event source deletes what succeeded; the refused record stays for SQS's redrive.
        for message in succeeded:
            queues.client.delete_message(QueueUrl=queues.queue_url, ReceiptHandle=message["ReceiptHandle"])

    with psycopg.connect(superuser_url, row_factory=dict_row) as conn:

        def row(query: str, *params: Any) -> dict[str, Any]:
            found = conn.execute(query, params).fetchone()
            assert found is not None, (query, params)
            return found

        for uploads in document_uploads.values():
            doc = row("SELECT status, page_count, memory_ids FROM documents WHERE id = %s", uploads.document)
            assert doc["status"] == "completed" and doc["page_count"] == 1, doc
            memories = conn.execute(
                "SELECT content FROM memories WHERE id = ANY(%s) AND workspace_id = %s AND deleted_at IS NULL "
                "AND metadata->>'source_document_id' = %s",
                (doc["memory_ids"], uploads.workspace, uploads.document),
            ).fetchall()
            assert memories and len(memories) == len(doc["memory_ids"]), doc
            assert "lighthouse keeper" in " ".join(m["content"] for m in memories)
            job = row("SELECT * FROM document_jobs WHERE id = %s", uploads.job)
            assert job["status"] == "completed" and job["total_memories_created"] == len(memories), job

            bad = row(
                "SELECT status, error_message, memory_ids FROM documents WHERE id = %s", uploads.refused
            )
            assert bad["status"] == "failed" and "cannot be read" in bad["error_message"], bad
            assert bad["memory_ids"] == []
            job = row("SELECT * FROM document_jobs WHERE id = %s", uploads.refused_job)
            assert job["status"] == "failed", job
            assert job["errors"][-1]["code"] == "corrupt_document" and job["errors"][-1]["final"] is True


@pytest.fixture(scope="module")
def sessions_runs(template, local_aws, services) -> dict[str, tuple[str, str, Run]]:
    """The sessions function in every mode: mode -> (workspace, its key, run). Each run leaves a session."""
    from shared.domain.auth import ApiKeys

    out: dict[str, tuple[str, str, Run]] = {}
    made: list[tuple[str, str]] = []

    def build() -> list[dict[str, Any]]:
        ws = fresh_ws()
        made.append((ws, ApiKeys(services.db).create([ws])[1]))
        key = made[-1][1]
        return [
            api("POST", "/v1/sessions", ws, {"working_memory": {"goal": "water the plants"}}, key=key),
            api("GET", "/v1/sessions", ws, key=key),
        ]

    for mode, run in in_every_mode(template, local_aws, "sessions", build):
        out[mode] = (*made[-1], run)
    return out


def test_sessions_function_creates_and_lists(sessions_runs):
    for mode, (_, _, run) in sessions_runs.items():
        (created, session), (listed, sessions) = answers(run)
        assert (created, listed) == (201, 200), (mode, run.log)
        assert [s["id"] for s in sessions["sessions"]] == [session["session"]["id"]]


def test_context_function_packs_a_session(template, local_aws, sessions_runs):
    made = iter(sessions_runs.values())

    def build() -> list[dict[str, Any]]:
        ws, key, run = next(made)
        sid = answers(run)[0][1]["session"]["id"]
        return [api("POST", f"/v1/sessions/{sid}/context-pack", ws, {"budget_tokens": 64}, key=key)]

    for mode, run in in_every_mode(template, local_aws, "context", build):
        [(status, pack)] = answers(run)
        assert status == 200, (mode, run.log)
        assert "goal: water the plants" in pack["rendered"]


def scheduled_event() -> dict[str, Any]:
    """What an EventBridge schedule rule delivers."""
    return {
        "version": "0",
        "id": str(uuid.uuid4()),
        "detail-type": "Scheduled Event",
        "source": "aws.events",
        "account": "123456789012",
        "time": "2026-12-03T06:00:00Z",
        "region": REGION,
        "resources": ["arn:aws:events:us-east-1:123456789012:rule/memorylayer-dev-cleanup"],
        "detail": {},
    }


def test_cleanup_function_sweeps_on_its_schedule(template, local_aws):
    build = lambda: [{"event": scheduled_event(), "env": trace_header()}]  # noqa: E731
    for mode, run in in_every_mode(template, local_aws, "cleanup", build):
        counts = run.results[0]["value"]
        assert {"sessions_expired", "jobs_requeued", "vectors_indexed", "rate_windows_purged"} <= set(counts)
        assert all(isinstance(v, int) for v in counts.values()), (mode, counts)


def custom_resource(request: str, **extra: Any) -> dict[str, Any]:
    """What the custom-resource provider's framework function passes the migrate function."""
    return {
        "RequestType": request,
        "ServiceToken": "arn:aws:lambda:us-east-1:123456789012:function:memorylayer-dev-migrations-provider",
        "ResponseURL": "https://cloudformation-custom-resource-response-useast1.s3.amazonaws.com/presigned",
        "StackId": "arn:aws:cloudformation:us-east-1:123456789012:stack/MemoryLayer-dev/0123",
        "RequestId": str(uuid.uuid4()),
        "LogicalResourceId": "MigrationsSchema",
        "ResourceType": "Custom::Migrations",
        "ResourceProperties": {"ServiceToken": "arn:aws:lambda:...", "MigrationsHash": "a"},
        **extra,
    }


def test_migrate_function_applies_migrations_as_the_owner(template, local_aws):
    def build() -> list[dict[str, Any]]:
        update = {
            "PhysicalResourceId": "memorylayer-schema",
            "OldResourceProperties": {"MigrationsHash": "0"},
        }
        return [
            {"event": custom_resource("Create"), "env": trace_header()},
            {"event": custom_resource("Update", **update), "env": trace_header()},
            {
                "event": custom_resource("Delete", PhysicalResourceId="memorylayer-schema"),
                "env": trace_header(),
            },
        ]

    for mode, run in in_every_mode(template, local_aws, "migrate", build):
        create, update, delete = (r["value"] for r in run.results)
        # The test database is migrated already: nothing pending, and running again is harmless.
        assert create == update == {"PhysicalResourceId": "memorylayer-schema", "Data": {"Applied": "none"}}
        assert delete == {"PhysicalResourceId": "memorylayer-schema"}, (mode, run.log)


def test_the_environment_is_the_templates(template, local_aws, tmp_path):
    """Every variable the template sets reaches the function unchanged, except where a stand-in listens."""
    for name in ("memory", "sessions", "context", "extraction", "cleanup", "documents", "migrate"):
        env = lambda_environment(template, name, local_aws, tmp_path)
        declared = function_of(template, name)["Environment"]["Variables"]
        differs = {k for k, v in declared.items() if env[k] != v}
        referenced = {k for k, v in declared.items() if not isinstance(v, str)}
        assert differs - referenced <= LOCAL_ENDPOINT_KEYS, name
        ours = {k for k in env if k.startswith(("MEMORYLAYER_", "POWERTOOLS_"))}
        assert ours - set(declared) <= LOCAL_ENDPOINT_KEYS, name


def test_a_handler_that_writes_beside_its_code_is_caught(template, local_aws):
    """The walls are real: a handler that keeps a cache next to its module fails as the function's user,
    and the listing catches the file where the process could write it (as root)."""
    handler = "tests.functions.writes_beside_code"
    target = CODE_ROOT / "tests" / "functions" / "writes_beside_code.cache"
    invocations = [{"event": scheduled_event(), "env": trace_header()}]
    preload: list[str] = []
    try:
        for mode in MODES:
            run = run_handler(
                template, local_aws, "cleanup", invocations, as_user=mode == "as_user", handler=handler,
                preload=preload, roots=(CODE_ROOT,),
            )  # fmt: skip
            preload = run.stdlib
            if mode == "as_user" and os.geteuid() == 0:
                assert not run.results[0]["ok"] and "PermissionError" in run.results[0]["error"]
                assert run.written == []
            else:
                assert str(target) in run.written
            target.unlink(missing_ok=True)
    finally:
        target.unlink(missing_ok=True)
