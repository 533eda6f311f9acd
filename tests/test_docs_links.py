"""Every relative link in README.md and docs/**/*.md resolves: the file it names exists, and the heading its
#anchor names is in that file (anchors as GitHub makes them from headings). Links inside code are text."""

from __future__ import annotations

import re
from pathlib import Path

from helpers import REPO

LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)\)")
FENCE = re.compile(r"^```.*?^```", re.MULTILINE | re.DOTALL)
CODE_SPAN = re.compile(r"`[^`\n]*`")
HEADING = re.compile(r"^#{1,6} +(.+?) *#*$", re.MULTILINE)


def pages() -> list[Path]:
    return [REPO / "README.md", *sorted((REPO / "docs").rglob("*.md"))]


def prose(path: Path) -> str:
    return CODE_SPAN.sub("", FENCE.sub("", path.read_text()))


def anchors(path: Path) -> set[str]:
    """GitHub's anchors: the heading lowercased, its code marks, punctuation and symbols dropped, each space
    a hyphen; a repeated one numbered -1, -2, ..."""
    seen: dict[str, int] = {}
    found = set()
    for heading in HEADING.findall(FENCE.sub("", path.read_text())):
        slug = "".join(c for c in heading.lower() if c.isalnum() or c in "-_ ").replace(" ", "-")
        count = seen.get(slug, 0)
        seen[slug] = count + 1
        found.add(slug if count == 0 else f"{slug}-{count}")
    return found


def broken_links(path: Path, root: Path = REPO) -> list[str]:
    broken = []
    for target in LINK.findall(prose(path)):
        if re.match(r"[a-z]+:", target):
            continue  # http:, https:, mailto:
        name, _, anchor = target.partition("#")
        linked = (path.parent / name).resolve() if name else path
        if not linked.exists():
            broken.append(f"{target} (no such file)")
        elif anchor and linked.suffix == ".md" and anchor not in anchors(linked):
            broken.append(f"{target} (no such heading)")
    return [f"{path.relative_to(root)}: {problem}" for problem in broken]


def test_every_relative_link_in_the_readme_and_the_docs_names_a_file_and_heading_that_exist():
    assert [problem for path in pages() for problem in broken_links(path)] == []


def test_a_link_to_a_missing_file_or_heading_is_reported(tmp_path):
    (tmp_path / "other.md").write_text("# A heading, with `code` and ×\n\n## Twice\n\n## Twice\n")
    page = tmp_path / "page.md"
    page.write_text(
        "[ok](other.md#a-heading-with-code-and-) [ok](other.md#twice-1) [ok](#here) `[not a link](gone.md)`\n"
        "# Here\n[gone](gone.md) [no heading](other.md#nowhere) [web](https://example.com/x.md)\n"
    )
    assert broken_links(page, tmp_path) == [
        "page.md: gone.md (no such file)",
        "page.md: other.md#nowhere (no such heading)",
    ]

