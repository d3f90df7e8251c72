"""``memorylayer keys create | list | revoke``: API keys."""

from __future__ import annotations

import argparse
import json
from typing import Any

from shared.cli.common import CliError, database, settings_for


def cmd_keys_create(args: argparse.Namespace) -> int:
    from datetime import datetime

    from shared.core.tenants import valid_tenant
    from shared.domain.auth import ApiKeys

    try:
        expires = datetime.fromisoformat(args.expires_at) if args.expires_at else None
    except ValueError:
        raise CliError(f"--expires-at {args.expires_at!r} is not an ISO-8601 timestamp") from None
    settings = settings_for(args, needs_database=True)
    with database(settings) as db:
        row, key = ApiKeys(db).create(
            args.workspace,
            access=args.access,
            expires_at=expires,
            name=args.name,
            tenant_id=valid_tenant(args.tenant) if args.tenant else None,
            shared_spaces=args.shared_spaces,
        )
    print(
        f"id:         {row['id']}\ntenant:     {row['tenant_id']}\nworkspaces: {', '.join(row['workspaces'])}"
    )
    print(f"access:     {row['access']} (user space: {row['shared_spaces']})")
    print(f"key:        {key}\n(shown once: store it now)")
    return 0


def cmd_keys_list(args: argparse.Namespace) -> int:
    from shared.domain.auth import ApiKeys

    with database(settings_for(args, needs_database=True)) as db:
        rows = ApiKeys(db).list()
    if args.json:
        print(json.dumps(rows, default=str, indent=2))
        return 0
    header = ("ID", "TENANT", "WORKSPACES", "ACCESS", "NAME", "CREATED", "EXPIRES", "STATUS")
    table = [header] + [
        (
            r["id"],
            r["tenant_id"],
            ",".join(r["workspaces"]),
            r["access"],
            r["name"] or "",
            _when(r["created_at"]),
            _when(r["expires_at"]),
            "revoked" if r["revoked_at"] else "active",
        )
        for r in rows
    ]
    widths = [max(len(str(row[i])) for row in table) for i in range(len(header))]
    for row in table:
        print("  ".join(str(v).ljust(w) for v, w in zip(row, widths, strict=True)).rstrip())
    return 0


def _when(value: Any) -> str:
    return value.strftime("%Y-%m-%d %H:%M") if value else "-"


def cmd_keys_revoke(args: argparse.Namespace) -> int:
    from shared.domain.auth import ApiKeys

    with database(settings_for(args, needs_database=True)) as db:
        ApiKeys(db).revoke(args.key_id)
    print(f"revoked {args.key_id}")
    return 0
