"""cdk-nag wiring: the AwsSolutions rule pack and a helper that insists on a written reason.

>>> acknowledge(queue, "AwsSolutions-SQS3", "This queue is itself the DLQ of ...")  # doctest: +SKIP
"""

from __future__ import annotations

from aws_cdk import Acknowledgment, Validations
from cdk_nag import AwsSolutionsChecks
from constructs import IConstruct

MIN_REASON_LENGTH = 40


def acknowledge(scope: IConstruct, rule: str, reason: str) -> None:
    """Accept one cdk-nag finding on ``scope`` (and its children), with a reason specific to this use.

    ``rule`` is the rule id, e.g. ``AwsSolutions-IAM5[Resource::*]``; the ``AwsSolutions::`` prefix is added.
    """
    if len(reason.strip()) < MIN_REASON_LENGTH:
        raise ValueError(f"acknowledging {rule} needs a specific reason, got {reason!r}")
    Validations.of(scope).acknowledge(Acknowledgment(id=f"AwsSolutions::{rule}", reason=reason))


def add_nag_checks(scope: IConstruct) -> None:
    """Run the AwsSolutions pack at synth; any unacknowledged finding fails the synth."""
    Validations.of(scope).add_plugins(AwsSolutionsChecks(scope))
