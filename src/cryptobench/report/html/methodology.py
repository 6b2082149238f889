"""The report's Methodology section: docs/methodology.md rendered by markdown-it-py, so the
page and the normative document cannot disagree (one home per fact; docs/reports.md).

The document's own raw HTML is escaped (``html=False``), headings move one level down (the
page's title is the only h1), and links to other documents of the checkout become their text:
a saved report has no docs/ beside it. An installed wheel carries the file under
``cryptobench/_share/docs/`` (setup.py), found the way ``paths.project_root()`` finds catalog/.
"""

from __future__ import annotations

import functools

from markdown_it import MarkdownIt
from markdown_it.token import Token

from ... import paths

SOURCE = "docs/methodology.md"
ID = "methodology"


def markdown() -> MarkdownIt:
    """CommonMark with tables (the document's runtime table), raw HTML escaped."""
    return MarkdownIt("commonmark", {"html": False}).enable("table")


def _external(href: str) -> bool:
    return href.startswith(("https://", "http://", "#"))


def _adapt(tokens: list[Token]) -> list[Token]:
    for token in tokens:
        if token.type in ("heading_open", "heading_close"):
            token.tag = f"h{min(int(token.tag[1]) + 1, 6)}"
        if token.type == "inline" and token.children:
            token.children = _unlink(token.children)
    return tokens


def _unlink(children: list[Token]) -> list[Token]:
    """Drop the link tokens around links into the checkout, keeping their text."""
    out, dropped = [], []
    for child in children:
        if child.type == "link_open":
            dropped.append(not _external(child.attrGet("href") or ""))
            if dropped[-1]:
                continue
        elif child.type == "link_close" and dropped.pop():
            continue
        out.append(child)
    return out


def render_markdown(text: str) -> str:
    md = markdown()
    return md.renderer.render(_adapt(md.parse(text)), md.options, {})


@functools.cache
def section() -> str:
    """``<section id="methodology">`` holding the rendering of docs/methodology.md."""
    path = paths.project_root() / SOURCE
    try:
        body = render_markdown(path.read_text("utf-8"))
    except OSError as exc:
        body = f"<p>The methodology ({SOURCE}) was not found: {type(exc).__name__}.</p>"
    return f'<section id="{ID}" class="cb-methodology">\n{body}</section>'
