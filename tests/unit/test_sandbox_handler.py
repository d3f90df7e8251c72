"""The sandbox Lambda: its handler runs the guest; the API reaches it through boto3's invoke."""

from __future__ import annotations

import io
import json

import boto3
from botocore.response import StreamingBody
from botocore.stub import ANY, Stubber

from functions.sandbox.handler import handler
from shared.core.settings import Settings
from shared.domain.context_env.executors import LambdaExecutor, LocalExecutor, create_executor


def test_handler_runs_code_in_the_guest(monkeypatch):
    # The function's own credentials are in its environment; the guest must not see them.
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", "function-secret")
    answer = handler(
        {"op": "execute", "code": "import random\nrandom._os.environ.copy()", "limits": {"seconds": 2}}, None
    )
    assert answer["ok"] and answer["result"] == "{}"
    assert handler({"not": "a request"}, None)["code"] == "sandbox_error"


def body(payload: dict) -> StreamingBody:
    raw = json.dumps(payload).encode()
    return StreamingBody(io.BytesIO(raw), len(raw))


def test_lambda_executor_invokes_synchronously_and_maps_function_errors():
    client = boto3.client("lambda", region_name="us-east-1", aws_access_key_id="x", aws_secret_access_key="x")
    executor = LambdaExecutor("memorylayer-dev-sandbox", client=client)
    with Stubber(client) as stub:
        expected = {
            "FunctionName": "memorylayer-dev-sandbox",
            "InvocationType": "RequestResponse",
            "Payload": ANY,
            "TenantId": "tn_acme",
        }
        stub.add_response(
            "invoke", {"StatusCode": 200, "Payload": body({"ok": True, "result": "2"})}, expected
        )
        stub.add_response(
            "invoke",
            {"StatusCode": 200, "FunctionError": "Unhandled", "Payload": body({"errorMessage": "boom"})},
            expected,
        )
        assert executor.run({"op": "execute", "code": "1 + 1"}, tenant_id="tn_acme") == {
            "ok": True,
            "result": "2",
        }
        failed = executor.run({"op": "execute", "code": "1 + 1"}, tenant_id="tn_acme")
    assert failed["ok"] is False and failed["code"] == "sandbox_crashed"


def test_executor_choice():
    assert isinstance(create_executor(Settings(context_executor="wasm")), LocalExecutor)
    assert create_executor(Settings(context_executor="off")) is None


def test_lambda_executor_is_chosen_by_settings_and_builds_no_client_until_used():
    executor = create_executor(
        Settings(context_executor="lambda", context_sandbox_function="memorylayer-dev-sandbox")
    )
    assert isinstance(executor, LambdaExecutor) and executor._client is None


def test_a_missing_interpreter_is_a_clear_answer_not_a_crash(tmp_path):
    executor = LocalExecutor(str(tmp_path / "python.wasm"))
    answer = executor.run({"op": "execute", "code": "1 + 1"})
    assert (
        answer["code"] == "interpreter_missing"
        and "shared.domain.context_env.interpreter fetch" in answer["error"]
    )


def test_without_tenant_isolation_an_invoke_carries_no_tenant_id():
    """A sandbox function without the mode (a region or account that lacks it) refuses an invoke with a TenantId."""
    client = boto3.client("lambda", region_name="us-east-1", aws_access_key_id="x", aws_secret_access_key="x")
    executor = create_executor(
        Settings(
            context_executor="lambda",
            context_sandbox_function="memorylayer-dev-sandbox",
            context_sandbox_tenant_isolation=False,
        )
    )
    assert isinstance(executor, LambdaExecutor)
    executor._client = client
    expected = {
        "FunctionName": "memorylayer-dev-sandbox",
        "InvocationType": "RequestResponse",
        "Payload": ANY,
    }
    with Stubber(client) as stub:
        stub.add_response(
            "invoke", {"StatusCode": 200, "Payload": body({"ok": True, "result": "2"})}, expected
        )
        assert executor.run({"op": "execute", "code": "1 + 1"}, tenant_id="tn_acme")["result"] == "2"
        stub.assert_no_pending_responses()
