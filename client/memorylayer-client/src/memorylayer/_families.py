"""Sub-clients by family, declared rather than copied: ``client.skills.list()`` is ``client.list_skills()``.

A :class:`Family` names its nouns (``"skill", "skills"``); each flat method whose name holds one of them, as
whole ``_``-separated words, appears in the family under its name with the noun taken out (``list_skills`` →
``list``, ``get_skill_manifest`` → ``get_manifest``, ``list_kb_articles`` → ``list_articles``). A method a
noun of several families would claim goes to the one named first in it, then the longest noun
(``get_document_memories`` is ``documents.get_memories``; ``create_workspace_view`` is
``workspace_views.create``). ``also`` adds methods under their own names (``threads.append_messages``) and
takes them from every other family. The flat methods stay; the sub-clients call exactly them.
"""

from __future__ import annotations

import keyword
from collections.abc import Iterable
from typing import Any

__all__ = ["Family", "FamilyClient", "family_methods"]


class Family:
    """A descriptor that binds a family's flat methods under one attribute of the client."""

    def __init__(self, *nouns: str, also: Iterable[str] = ()) -> None:
        self.nouns = tuple(nouns)
        self.also = tuple(also)
        self.name = ""

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    def __get__(self, client: Any, owner: type | None = None) -> Any:
        if client is None:
            return self
        return FamilyClient(client, self.name, family_methods(type(client))[self.name])

    def _match(self, method: str) -> tuple[int, int] | None:
        """Where a noun of this family sits in ``method`` (word position, minus its length in words)."""
        words = method.split("_")
        best: tuple[int, int] | None = None
        for noun in self.nouns:
            size = noun.count("_") + 1
            for at in range(len(words) - size + 1):
                if "_".join(words[at : at + size]) == noun:
                    found = (at, -size)
                    best = found if best is None or found < best else best
        return best

    def short_name(self, method: str) -> str:
        words = method.split("_")
        for noun in sorted(self.nouns, key=lambda n: -n.count("_")):
            size = noun.count("_") + 1
            for at in range(len(words) - size + 1):
                if "_".join(words[at : at + size]) == noun:
                    rest = "_".join(words[:at] + words[at + size :]) or method
                    return f"{rest}_" if keyword.iskeyword(rest) else rest
        return method


_CACHE: dict[type, dict[str, dict[str, str]]] = {}


def family_methods(cls: type) -> dict[str, dict[str, str]]:
    """Every family of client class ``cls``: ``{family: {short name: flat method name}}`` (computed once)."""
    if cls in _CACHE:
        return _CACHE[cls]
    families = {
        name: attr
        for klass in reversed(cls.__mro__)
        for name, attr in vars(klass).items()
        if isinstance(attr, Family)
    }
    methods = [
        n for n in dir(cls) if not n.startswith("_") and n not in families and callable(getattr(cls, n))
    ]
    explicit = {m: name for name, fam in families.items() for m in fam.also}
    table: dict[str, dict[str, str]] = {name: {} for name in families}
    for method in methods:
        if method in explicit:
            table[explicit[method]][method] = method
            continue
        claims = [
            (where, name) for name, fam in families.items() if (where := fam._match(method)) is not None
        ]
        if not claims:
            continue
        owner = min(claims)[1]
        short = families[owner].short_name(method)
        if short in table[owner]:
            raise TypeError(f"{cls.__name__}.{owner}: {method} and {table[owner][short]} are both {short!r}")
        table[owner][short] = method
    _CACHE[cls] = table
    return table


class FamilyClient:
    """One family of a client: its methods are the client's own flat methods, under short names."""

    def __init__(self, client: Any, family: str, methods: dict[str, str]) -> None:
        self._client = client
        self._family = family
        self._methods = methods

    def __getattr__(self, name: str) -> Any:
        try:
            return getattr(self._client, self._methods[name])
        except KeyError:
            raise AttributeError(
                f"{type(self._client).__name__}.{self._family} has no {name!r} "
                f"(it has {', '.join(sorted(self._methods))})"
            ) from None

    def __dir__(self) -> list[str]:
        return sorted(self._methods)

    def __repr__(self) -> str:
        return f"<{type(self._client).__name__}.{self._family}: {', '.join(sorted(self._methods))}>"
