"""The knowledgebase viewer's HTML: stored Markdown made into a page with every piece of stored text escaped
first, so an article (whose text comes from memories anyone with a key wrote) can carry no markup of its own.
No script at all; the page's styles are inline (the CSP of shared/api/edge.py allows inline styles only).

    >>> markdown_html("# Hi <b>\\n\\n- [[entities/x|X]] *rel*", {"entities/x": "entity-x"})
    '<h1>Hi &lt;b&gt;</h1>\\n<ul>\\n<li><a href="?article=entity-x">X</a> <em>rel</em></li>\\n</ul>'
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from html import escape
from urllib.parse import quote

_FRONT_MATTER = re.compile(r"\A---\n.*?\n---\n", re.S)
_WIKILINK = re.compile(r"\[\[([^\]|]+)(?:\|([^\]]+))?\]\]")
_STRONG = re.compile(r"\*\*(.+?)\*\*")
_EM = re.compile(r"\*(.+?)\*")
_CODE = re.compile(r"`([^`]+)`")

_STYLE = """
body{font-family:-apple-system,BlinkMacSystemFont,'Segoe UI',Roboto,sans-serif;margin:0;display:flex;
  background:#1a1b26;color:#c0caf5;line-height:1.6}
nav{width:280px;min-width:280px;background:#24283b;padding:1rem;height:100vh;overflow-y:auto;position:sticky;top:0}
nav h2{color:#7aa2f7;font-size:.8rem;text-transform:uppercase;margin:1rem 0 .4rem}
nav a{display:block;padding:.2rem .5rem;color:#c0caf5;text-decoration:none;border-radius:4px;
  white-space:nowrap;overflow:hidden;text-overflow:ellipsis}
nav a.active,nav a:hover{background:#3b4261;color:#7aa2f7}
main{flex:1;padding:2rem 3rem;max-width:900px}
a{color:#7aa2f7}
code{background:#1f2335;padding:.1rem .3rem;border-radius:3px}
table{border-collapse:collapse}td,th{border:1px solid #3b4261;padding:.3rem .7rem}
blockquote{border-left:3px solid #7aa2f7;margin:.8rem 0;padding:.3rem 1rem;color:#a9b1d6}
.meta{color:#565f89;font-size:.8rem}
ul.workspaces{list-style:none;padding:0}ul.workspaces li{background:#24283b;margin:.5rem 0;padding:.8rem 1rem;
  border-radius:6px}
"""


def _inline(text: str, links: Mapping[str, str]) -> str:
    """One line of Markdown: escaped, then wikilinks to known articles, bold, emphasis and code."""
    out = escape(text)

    def link(m: re.Match[str]) -> str:
        target, shown = m.group(1).strip(), (m.group(2) or m.group(1)).strip()
        article = links.get(target)
        if article is None:  # already escaped: the text is shown, never followed
            return shown
        return f'<a href="?article={escape(quote(article, safe=""))}">{shown}</a>'

    out = _WIKILINK.sub(link, out)
    out = _CODE.sub(r"<code>\1</code>", out)
    out = _STRONG.sub(r"<strong>\1</strong>", out)
    return _EM.sub(r"<em>\1</em>", out)


def markdown_html(markdown: str, links: Mapping[str, str]) -> str:
    """The subset of Markdown the articles are written in: headings, lists, quotes, tables, paragraphs.
    ``links``: vault path -> article id, the wikilink targets that become links."""
    lines = _FRONT_MATTER.sub("", markdown).splitlines()
    html: list[str] = []
    block: str | None = None  # the open list/table/quote/paragraph

    def close() -> None:
        nonlocal block
        if block:
            html.append(f"</{block}>")
        block = None

    def open_(tag: str) -> None:
        nonlocal block
        if block != tag:
            close()
            html.append(f"<{tag}>")
            block = tag

    for raw in lines:
        line = raw.rstrip()
        heading = re.match(r"(#{1,6}) (.*)", line)
        if not line.strip():
            close()
        elif heading:
            close()
            level = len(heading.group(1))
            html.append(f"<h{level}>{_inline(heading.group(2), links)}</h{level}>")
        elif line.startswith("- "):
            open_("ul")
            html.append(f"<li>{_inline(line[2:], links)}</li>")
        elif line.startswith("> "):
            open_("blockquote")
            html.append(_inline(line[2:], links))
        elif line.startswith("|"):
            cells = [c.strip() for c in line.strip("|").split("|")]
            if all(set(c) <= {"-", ":"} for c in cells):
                continue
            open_("table")
            html.append("<tr>" + "".join(f"<td>{_inline(c, links)}</td>" for c in cells) + "</tr>")
        else:
            open_("p")
            html.append(_inline(line, links))
    close()
    return "\n".join(html)


def _page(title: str, body: str) -> str:
    return (
        '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>{escape(title)} - MemoryLayer KB</title>\n<style>{_STYLE}</style>\n</head>\n"
        f"<body>\n{body}\n</body>\n</html>\n"
    )


def article_page(
    workspace_id: str, titles: Iterable[Mapping], article: Mapping | None, links: Mapping[str, str]
) -> str:
    """A workspace's viewer page: every article in the side bar (by kind), the chosen one rendered."""
    groups: dict[str, list[str]] = {"index": [], "community": [], "entity": []}
    shown_id = article["id"] if article else None
    for t in titles:
        active = ' class="active"' if t["id"] == shown_id else ""
        href = escape(quote(t["id"], safe=""))
        groups.setdefault(t["article_type"], []).append(
            f'<a href="?article={href}"{active}>{escape(t["title"])}</a>'
        )
    nav = "".join(
        f"<h2>{heading} ({len(groups[kind])})</h2>" + "".join(groups[kind])
        for kind, heading in (("index", "Overview"), ("community", "Communities"), ("entity", "Entities"))
        if groups.get(kind)
    )
    if article is None:
        content = (
            "<h1>No knowledgebase generated yet</h1><p>Generate one with "
            "<code>POST /v1/knowledgebase/generate</code>.</p>"
        )
        title = "No knowledgebase"
    else:
        content = markdown_html(article["content_md"], links)
        title = article["title"]
    body = (
        f'<nav><div><a href="../kb">MemoryLayer KB</a></div><div class="meta">{escape(workspace_id)}</div>'
        f"{nav}</nav>\n<main>\n{content}\n</main>"
    )
    return _page(title, body)


def workspaces_page(workspaces: Iterable[Mapping], counts: Mapping[str, int]) -> str:
    """The workspaces the key may see, each with whether it has a knowledgebase."""
    items = []
    for w in workspaces:
        count = counts.get(w["id"], 0)
        state = f"{count} articles" if count else "no knowledgebase"
        items.append(
            f'<li><a href="kb/{escape(quote(w["id"], safe=""))}">{escape(w.get("name") or w["id"])}</a> '
            f'<span class="meta">{escape(w["id"])} · {state}</span></li>'
        )
    listing = f'<ul class="workspaces">{"".join(items)}</ul>' if items else "<p>No workspaces.</p>"
    return _page("Knowledgebases", f"<main>\n<h1>MemoryLayer Knowledgebases</h1>\n{listing}\n</main>")
