"""Checks that a picture or page holds nothing that runs, loads or links (issue 51): every
SVG parses as XML and every HTML page with html.parser, and every element and attribute is
on an allowlist (no script, no on* handler, no foreignObject, no javascript: URL, href only
to fragments), and no text holds a control character."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from html.parser import HTMLParser

SVG = "{http://www.w3.org/2000/svg}"
SVG_ELEMENTS = {"svg", "defs", "marker", "g", "rect", "circle", "line", "polygon"}
SVG_ELEMENTS |= {"polyline", "text", "title"}
SVG_ATTRIBUTES = {
    "width",
    "height",
    "viewBox",
    "font-family",
    "font-size",
    "font-weight",
    "fill",
    "fill-opacity",
    "stroke",
    "stroke-width",
    "stroke-opacity",
    "stroke-dasharray",
    "stroke-linecap",
    "stroke-linejoin",
    "x",
    "y",
    "rx",
    "cx",
    "cy",
    "r",
    "x1",
    "y1",
    "x2",
    "y2",
    "points",
    "text-anchor",
    "dominant-baseline",
    "class",
    "id",
    "orient",
    "markerWidth",
    "markerHeight",
    "refX",
    "refY",
    "marker-end",
}
HTML_ELEMENTS = {"html", "head", "meta", "title", "style", "body", "h1", "div", "button"}
HTML_ELEMENTS |= {"span", "ol", "li", "script", "table", "caption", "thead", "tbody", "tr"}
HTML_ELEMENTS |= {"th", "td"}
HTML_ATTRIBUTES = {"lang", "charset", "id", "type", "title", "aria-live", "class", "hidden"}
HTML_ATTRIBUTES |= {"data-ply"}
# C0/C1 controls (but the page's own newlines), bidi controls and separators
UNPRINTABLE = re.compile(
    "[\x00-\x09\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]"
)
# The page's one script, byte for byte: anything else in a script element is a defect.
SCRIPTS: set[str] = set()


def check_text(s: str | None, where: str) -> None:
    assert s is None or not UNPRINTABLE.search(s), f"{where}: a control character in {s!r:.80}"


def check_svg(svg: str) -> ET.Element:
    """Parse `svg` and check every element, attribute and text against the allowlist."""
    root = ET.fromstring(svg)
    assert root.tag == f"{SVG}svg", root.tag
    for e in root.iter():
        assert e.tag.startswith(SVG), e.tag
        tag = e.tag[len(SVG) :]
        assert tag in SVG_ELEMENTS, f"element {tag}"
        for k, v in e.attrib.items():
            assert k in SVG_ATTRIBUTES or re.fullmatch(r"data-[a-z]+(-[a-z]+)*", k), k
            check_text(v, f"{tag}@{k}")
            if not k.startswith("data-") and k != "class":  # plain text there, not a URL
                assert "javascript:" not in v.lower().replace(" ", ""), v
            if k == "marker-end":
                assert re.fullmatch(r"url\(#k\d+\)", v), v
            if k in ("fill", "stroke"):
                assert re.fullmatch(r"#[0-9a-fA-F]{3}|#[0-9a-fA-F]{6}|[a-z]+", v), v
        check_text(e.text, tag)
        check_text(e.tail if e.tail and e.tail.strip() else None, tag)
    return root


class _Page(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.stack: list[str] = []
        self.svg: list[str] = []  # inline SVG, re-serialised for check_svg
        self.scripts: list[tuple[dict[str, str | None], str]] = []
        self.texts: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "svg" or (self.stack and self.stack[0] == "svg"):
            raise AssertionError("inline SVG is checked by check_page itself")
        assert tag in HTML_ELEMENTS, f"element {tag}"
        for k, v in attrs:
            assert k in HTML_ATTRIBUTES, f"attribute {k} of {tag}"
            assert v is None or "javascript:" not in v.lower(), v
            check_text(v, f"{tag}@{k}")
        if tag not in ("meta",):
            self.stack.append(tag)
        if tag == "script":
            self.scripts.append((dict(attrs), ""))

    def handle_endtag(self, tag: str) -> None:
        if self.stack and self.stack[-1] == tag:
            self.stack.pop()

    def handle_data(self, data: str) -> None:
        if self.stack and self.stack[-1] == "script":
            attrs, text = self.scripts[-1]
            self.scripts[-1] = (attrs, text + data)
        elif self.stack and self.stack[-1] != "style":
            self.texts.append(data)


def check_page(page: str) -> list[str]:
    """Check a replay page or an HTML table: its HTML outside the pictures, each picture
    (inline or assembled from the page's JSON frames) with `check_svg`, and its scripts:
    the page's own code and one JSON block. Returns the pictures of every ply."""
    inline = re.findall(r"<svg\b.*?</svg>", page, flags=re.DOTALL)
    outside = re.sub(r"<svg\b.*?</svg>", "", page, flags=re.DOTALL)
    p = _Page()
    p.feed(outside)
    p.close()
    for t in p.texts:
        check_text(t.replace("\n", " "), "page text")
    pictures = [check_svg(s) and s for s in inline]
    code = [t for a, t in p.scripts if a.get("type") != "application/json"]
    data = [t for a, t in p.scripts if a.get("type") == "application/json"]
    assert len(code) <= 1 and len(data) <= 1, "one script and one data block at most"
    if code:
        SCRIPTS.add(code[0])
        assert len(SCRIPTS) == 1, "the page's script changed with its data"
    if data:
        assert "<" not in data[0] and ">" not in data[0]
        frames = json.loads(data[0])
        pieces = frames["pieces"]
        pictures = ["\n".join(pieces[i] for i in f) for f in frames["frames"]]
        for s in pictures:
            check_svg(s)
    return pictures
