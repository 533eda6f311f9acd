"""The designer's page of a report (`unflip report --html`): one self-contained HTML file, nothing fetched,
that opens from file:// offline. It shows

- the difficulty curve over the book's order: par, minEric, obv×100 and gap, each a line in a panel of its
  own over the same level axis, the levels that break a curve (difficulty.py) ringed in red;
- a histogram of par;
- every board as a thumbnail, drawn by the walkthrough's own code (walkthrough.board_svg), as the game
  draws it;
- the table of every figure, sorted by a click on a column's heading.

Everything is drawn here as inline SVG, with a few lines of inline JavaScript for the sorting: a chart
library would be a dependency of the package (its runtime is click and rich alone) and a file to inline or
fetch, for four lines and a histogram. The colours of the curves are none the boards use, so a screenshot
can tell them apart (tests/frontend/test_report_page.py)."""

from __future__ import annotations

import html
import math
from collections import Counter
from collections.abc import Sequence

from .boards import shape_text
from .difficulty import BREAK_AHEAD, BREAK_SHARE, FIGURES, Figure
from .report import MEASURED, Measured, Report, optima_cell, par_cell
from .walkthrough import FONT, board_extent, board_svg, longer_extent

CURVE_COLOURS = {"par": "#1971c2", "eric": "#2f9e44", "obv": "#9c36b5", "gap": "#c2255c"}
BREAK = "#e03131"
GRID, AXIS, MUTED = "#dee2e6", "#868e96", "#495057"

# The curves' drawing, in SVG units: panels one above the other over a shared level axis.
WIDTH = 960
LEFT, RIGHT = 64, 16
PANEL, PANEL_GAP = 110, 26
AXIS_ROOM = 34  # the level numbers under the last panel
THUMBNAIL = 84  # CSS pixels of a thumbnail's longer side


def escaped(text: object) -> str:
    return html.escape(str(text))


def nice_step(span: float, most: int) -> int:
    """The least of 1, 2, 5, 10, 20, 50, ... that cuts span into at most `most` steps."""
    for power in range(0, 12):
        for base in (1, 2, 5):
            step: int = base * 10**power
            if span / step <= most:
                return step
    raise AssertionError("no step fits")


def x_of(index: int, count: int) -> float:
    """The middle of a level's slot on the axis, counting from 0."""
    return LEFT + (index + 0.5) * (WIDTH - LEFT - RIGHT) / count


def panel_svg(figure: Figure, report: Report, top: float) -> str:
    """One figure's curve: a line through each level's value (broken where a level has none), a point per
    level, a red ring on each level that breaks the curve."""
    values = report.values(figure.name)
    known = [value for value in values if value is not None]
    step = nice_step(max(known, default=1) or 1, 4)
    ceiling = max(step, math.ceil(max(known, default=1) / step) * step)
    colour = CURVE_COLOURS[figure.name]

    def y_of(value: float) -> float:
        return top + PANEL - value * PANEL / ceiling

    parts = [f'<g class="panel" data-figure="{figure.name}">']
    for tick in range(0, ceiling + 1, step):
        y = y_of(tick)
        parts.append(
            f'<line x1="{LEFT}" x2="{WIDTH - RIGHT}" y1="{y:.1f}" y2="{y:.1f}" stroke="{GRID}"/>'
            f'<text x="{LEFT - 6}" y="{y + 4:.1f}" text-anchor="end" font-size="11" fill="{MUTED}">'
            f"{tick}</text>"
        )
    parts.append(
        f'<text x="{LEFT}" y="{top - 8}" font-size="13" font-weight="bold" fill="{colour}">'
        f"{escaped(figure.heading)}</text>"
    )
    runs: list[list[str]] = [[]]  # the line's pieces, cut at each level without a value
    for index, value in enumerate(values):
        if value is None:
            runs.append([])
        else:
            runs[-1].append(f"{x_of(index, len(values)):.1f},{y_of(value):.1f}")
    for run in runs:
        if len(run) > 1:
            parts.append(
                f'<polyline class="curve" points="{" ".join(run)}" fill="none" stroke="{colour}" '
                'stroke-width="2" stroke-linejoin="round"/>'
            )
    breaking = set(report.breaks[figure.name])
    for index, (row, value) in enumerate(zip(report.rows, values, strict=True)):
        if value is None:
            continue
        x, y = x_of(index, len(values)), y_of(value)
        tip = f"level {row.place}: {figure.heading} {value}"
        ring = ""
        if row.place in breaking:
            tip += " (breaks the curve)"
            ring = (
                f'<circle class="break" cx="{x:.1f}" cy="{y:.1f}" r="6.5" fill="none" stroke="{BREAK}" '
                'stroke-width="2"/>'
            )
        parts.append(
            f'<a href="#level-{row.place}"><circle class="point" data-level="{row.place}" cx="{x:.1f}" '
            f'cy="{y:.1f}" r="3" fill="{colour}"><title>{escaped(tip)}</title></circle>{ring}</a>'
        )
    parts.append("</g>")
    return "".join(parts)


def curves_svg(report: Report) -> str:
    """The four panels, and the level numbers under the last."""
    count = len(report.rows)
    height = len(FIGURES) * (PANEL + PANEL_GAP) + AXIS_ROOM
    parts = [
        f'<svg id="curves" viewBox="0 0 {WIDTH} {height}" font-family="{FONT}" role="img" '
        'aria-label="The difficulty curve: par, minEric, obv×100 and gap by level">'
    ]
    for number, figure in enumerate(FIGURES):
        parts.append(panel_svg(figure, report, PANEL_GAP + number * (PANEL + PANEL_GAP)))
    bottom = len(FIGURES) * (PANEL + PANEL_GAP)
    step = nice_step(count, 20)
    for index, row in enumerate(report.rows):
        if row.place % step == 0 or index == 0:
            x = x_of(index, count)
            parts.append(
                f'<line x1="{x:.1f}" x2="{x:.1f}" y1="{bottom + 2}" y2="{bottom + 7}" stroke="{AXIS}"/>'
                f'<text x="{x:.1f}" y="{bottom + 20}" text-anchor="middle" font-size="11" fill="{MUTED}">'
                f"{row.place}</text>"
            )
    parts.append(
        f'<text x="{WIDTH - RIGHT}" y="{bottom + 32}" text-anchor="end" font-size="11" fill="{MUTED}">'
        "level</text></svg>"
    )
    return "".join(parts)


def histogram_svg(report: Report) -> str:
    """A bar for each par from the least to the greatest, as tall as the levels with it, the count on top."""
    pars = Counter(value for value in report.values("par") if value is not None)
    if not pars:
        return "<p>No level has a proven par.</p>"
    low, high = min(pars), max(pars)
    width, height, bottom = 480, 180, 150
    slot = min(48, (width - 40) / (high - low + 1))  # a bar of a lone par is not the width of the chart
    right = 20 + (high - low + 1) * slot
    tallest = max(pars.values())
    parts = [
        f'<svg id="histogram" viewBox="0 0 {width} {height}" font-family="{FONT}" role="img" '
        'aria-label="How many levels have each par">'
    ]
    for par in range(low, high + 1):
        x = 20 + (par - low) * slot
        count = pars.get(par, 0)
        bar = count * (bottom - 20) / tallest
        parts.append(
            f'<rect class="bar" data-par="{par}" data-count="{count}" x="{x + 2:.1f}" y="{bottom - bar:.1f}" '
            f'width="{slot - 4:.1f}" height="{bar:.1f}" fill="{CURVE_COLOURS["par"]}">'
            f"<title>par {par}: {count} level{'s' * (count != 1)}</title></rect>"
            f'<text x="{x + slot / 2:.1f}" y="{bottom + 16}" text-anchor="middle" font-size="11" '
            f'fill="{MUTED}">{par}</text>'
        )
        if count:
            parts.append(
                f'<text x="{x + slot / 2:.1f}" y="{bottom - bar - 4:.1f}" text-anchor="middle" '
                f'font-size="10" fill="{MUTED}">{count}</text>'
            )
    parts.append(
        f'<line x1="20" x2="{right:.1f}" y1="{bottom}" y2="{bottom}" stroke="{AXIS}"/>'
        f'<text x="{right:.1f}" y="{height - 2}" text-anchor="end" font-size="11" fill="{MUTED}">par</text>'
        "</svg>"
    )
    return "".join(parts)


def thumbnail(row: Measured, report: Report) -> str:
    """The level's board as the walkthrough draws it, its number and par under it; a red edge when it
    breaks a curve."""
    breaking = report.breaking(row)
    classes = "thumbnail breaks" if breaking else "thumbnail"
    caption = f"{row.place} · par {par_cell(row)}" if row.signals else f"{row.place} · {optima_cell(row)}"
    tip = f"level {row.place}" + (f": breaks the {', '.join(breaking)} curve" if breaking else "")
    board = row.level.board
    if not board:  # a malformed level has no board to draw
        drawing = '<div class="missing">no board</div>'
    else:
        across, down = board_extent(board)
        side = THUMBNAIL * max(across, down) / longer_extent(board)
        drawing = (
            f'<svg viewBox="0 0 {across} {down}" width="{side * across / max(across, down):.0f}" '
            f'height="{side * down / max(across, down):.0f}" role="img" aria-label="{escaped(tip)}">'
            f"{board_svg(board, None)}</svg>"
        )
    return (
        f'<figure class="{classes}" id="level-{row.place}" title="{escaped(tip)}">{drawing}'
        f"<figcaption>{escaped(caption)}</figcaption></figure>"
    )


def cell(value: object, sort_key: object = None, text: bool = False) -> str:
    """A table cell; its data-value is what the column sorts by (empty: no figure, sorted last)."""
    key = value if sort_key is None else sort_key
    css = ' class="text"' if text else ""
    return f'<td{css} data-value="{escaped(key)}">{escaped(value)}</td>'


# The table's columns: heading, and what each level shows (the level's own columns come first).
COLUMNS = (
    "level",
    "board",
    "book par",
    "par",
    "optima",
    "minEric",
    "maxEric",
    "obv×100",
    "max obv×100",
    "gap",
    "symmetry",
    "time (s)",
    "breaks",
    "title",
)


def table_row(row: Measured, report: Report) -> str:
    level, signals = row.level, row.signals
    board = level.board
    cells = [
        f'<td data-value="{row.place}"><a href="#level-{row.place}">{row.place}</a></td>',
        cell(
            shape_text(len(board), len(board[0])) if board else "-",
            len(board) * len(board[0]) if board else "",
        ),
        cell("-" if level.par is None else level.par, "" if level.par is None else level.par),
    ]
    if signals is None:
        cells.append(cell("-", ""))
        why = escaped(optima_cell(row))
        cells.append(f'<td class="unmeasured" data-value="" title="{escaped(row.note)}">{why}</td>')
        cells += [cell("-", "")] * 7
    else:
        cells += [
            cell(par_cell(row), signals.optimum),
            cell(optima_cell(row), signals.optima),
            cell(signals.min_eric),
            cell(signals.max_eric),
            cell(signals.obvious_100),
            cell(round(100 * signals.max_obvious)),
            cell(signals.gap),
            cell(signals.symmetry, text=True),
            cell(f"{signals.seconds:.3f}", signals.seconds),
        ]
    breaking = report.breaking(row)
    cells.append(cell(", ".join(breaking), len(breaking), text=True))
    cells.append(cell(level.title, text=True))
    css = ' class="breaks"' if breaking else ""
    return f"<tr{css}>{''.join(cells)}</tr>"


def summary(report: Report) -> str:
    measured = [row.signals for row in report.rows if row.signals is not None]
    parts = [f"{report.total} level{'s' * (report.total != 1)}"]
    if len(measured) < len(report.rows):
        parts.append(f"{len(measured)} measured")
    if measured:
        low, high = min(s.optimum for s in measured), max(s.optimum for s in measured)
        parts.append(f"par {low}–{high}" if low != high else f"par {low}")
        optima = sum(s.optima for s in measured)
        parts.append(f"{optima:,} optimal solution{'s' * (optima != 1)} measured")
    parts.append(f"solver time {report.seconds:.2f} s")
    return "; ".join(parts)


def breaks_list(report: Report) -> str:
    items = []
    for figure in FIGURES:
        places = report.breaks[figure.name]
        if places:
            links = ", ".join(f'<a href="#level-{place}">{place}</a>' for place in places)
            items.append(f"<li><b>{escaped(figure.heading)}</b>: level{'s' * (len(places) > 1)} {links}</li>")
    if not items:
        return "<p>No level breaks a curve.</p>"
    return f'<ul class="breaks">{"".join(items)}</ul>'


def legend(figures: Sequence[Figure]) -> str:
    return "".join(
        f'<li><span class="swatch" style="background: {CURVE_COLOURS[figure.name]}"></span>'
        f"<b>{escaped(figure.heading)}</b>: {escaped(figure.meaning)}</li>"
        for figure in figures
    )


PAGE_STYLE = f"""
:root {{ color-scheme: light; }}
* {{ box-sizing: border-box; }}
body {{ margin: 0 auto; padding: 12px 16px 32px; max-width: 72rem; background: #f8f9fa; color: #212529;
  font: 15px/1.45 {FONT}; }}
h1 {{ font-size: 1.35rem; margin: 0.4rem 0 0.2rem; }}
h2 {{ font-size: 1.1rem; margin: 1.6rem 0 0.4rem; }}
header p, .note {{ color: {MUTED}; margin: 0 0 0.6rem; }}
section {{ background: #ffffff; border: 1px solid #dee2e6; border-radius: 8px; padding: 4px 16px 12px;
  margin: 0 0 14px; }}
svg#curves {{ display: block; width: 100%; height: auto; }}
svg#histogram {{ display: block; width: 100%; max-width: 36rem; height: auto; }}
ul.legend {{ list-style: none; padding: 0; margin: 0 0 0.4rem; font-size: 0.9rem; }}
.swatch {{ display: inline-block; width: 0.8rem; height: 0.8rem; border-radius: 2px; margin-right: 0.4rem;
  vertical-align: -1px; }}
ul.breaks li {{ margin: 0.1rem 0; }}
.ring {{ color: {BREAK}; font-weight: bold; }}
.boards {{ display: flex; flex-wrap: wrap; gap: 10px; }}
figure.thumbnail {{ margin: 0; padding: 4px; width: {THUMBNAIL + 10}px; text-align: center;
  border: 2px solid transparent; border-radius: 6px; }}
figure.thumbnail svg {{ display: block; margin: 0 auto; }}
figure.thumbnail.breaks {{ border-color: {BREAK}; }}
figure.thumbnail:target {{ background: #fff3bf; }}
figcaption {{ font-size: 0.8rem; color: {MUTED}; white-space: nowrap; }}
.missing {{ height: {THUMBNAIL}px; line-height: {THUMBNAIL}px; color: {BREAK}; font-size: 0.8rem; }}
.scroll {{ overflow-x: auto; }}
table {{ border-collapse: collapse; font-size: 0.88rem; width: 100%; }}
th, td {{ padding: 3px 6px; border-bottom: 1px solid #e9ecef; text-align: right; white-space: nowrap; }}
td.text {{ text-align: left; }}
th {{ cursor: pointer; user-select: none; background: #f1f3f5; position: sticky; top: 0; }}
th[aria-sort="ascending"]::after {{ content: " ▲"; }}
th[aria-sort="descending"]::after {{ content: " ▼"; }}
tr.breaks td:first-child {{ box-shadow: inset 3px 0 {BREAK}; }}
td.unmeasured {{ color: {BREAK}; }}
"""

# A click on a heading sorts the rows by that column, a second click the other way; a level without the
# figure goes last either way, and rows that tie keep the book's order.
PAGE_SCRIPT = """
(function () {
  var table = document.getElementById('levels');
  var body = table.tBodies[0];
  var headings = table.tHead.rows[0].cells;
  Array.prototype.forEach.call(body.rows, function (row, index) { row.setAttribute('data-order', index); });
  function key(row, column) {
    var text = row.cells[column].getAttribute('data-value');
    var number = parseFloat(text);
    return { empty: text === '', number: number, text: text };
  }
  Array.prototype.forEach.call(headings, function (heading, column) {
    heading.addEventListener('click', function () {
      var ascending = heading.getAttribute('aria-sort') !== 'ascending';
      var rows = Array.prototype.slice.call(body.rows);
      rows.sort(function (a, b) {
        var x = key(a, column), y = key(b, column), order;
        var inBook = a.getAttribute('data-order') - b.getAttribute('data-order');
        if (x.empty || y.empty) return (x.empty - y.empty) || inBook;
        order = isNaN(x.number) || isNaN(y.number) ? x.text.localeCompare(y.text) : x.number - y.number;
        return (ascending ? order : -order) || inBook;
      });
      rows.forEach(function (row) { body.appendChild(row); });
      Array.prototype.forEach.call(headings, function (other) { other.removeAttribute('aria-sort'); });
      heading.setAttribute('aria-sort', ascending ? 'ascending' : 'descending');
    });
  });
})();
"""


def report_page(report: Report) -> str:
    """The whole page, as text."""
    title = f"{report.name}: how hard each level feels"
    header_cells = "".join(f'<th scope="col">{escaped(heading)}</th>' for heading in COLUMNS)
    rows = "\n".join(table_row(row, report) for row in report.rows)
    thumbnails = "\n".join(thumbnail(row, report) for row in report.rows)
    unmeasured = [row for row in report.rows if row.outcome != MEASURED]
    named = ", ".join(f"{row.place}: {row.outcome}" for row in unmeasured)
    missing = f'<p class="note">Levels without figures ({named}) have no point on the curves.</p>'
    return (
        '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>{escaped(title)}</title>\n<style>{PAGE_STYLE}</style>\n</head>\n<body>\n"
        f"<header><h1>{escaped(title)}</h1><p>{escaped(summary(report))}</p></header>\n"
        '<section id="curve"><h2>The difficulty curve</h2>'
        f'<ul class="legend">{legend(FIGURES)}</ul>'
        f'<p class="note">Each figure is taken over every optimal solution of the level. A level '
        f'<span class="ring">ringed</span> breaks the curve: it is harder than the median of the '
        f"{BREAK_AHEAD} levels after it by more than {BREAK_SHARE:.0%} of the figure's range over the book."
        f"</p>{missing if unmeasured else ''}\n{curves_svg(report)}\n"
        f"<h3>Levels that break the curve</h3>{breaks_list(report)}"
        "</section>\n"
        f'<section id="pars"><h2>How many levels have each par</h2>{histogram_svg(report)}</section>\n'
        '<section id="boards-section"><h2>The boards</h2>'
        f'<div class="boards">\n{thumbnails}\n</div></section>\n'
        '<section id="table-section"><h2>Every figure</h2><p class="note">Click a heading to sort by it.</p>'
        f'<div class="scroll"><table id="levels"><thead><tr>{header_cells}</tr></thead>\n<tbody>\n{rows}\n'
        "</tbody></table></div></section>\n"
        f"<script>{PAGE_SCRIPT}</script>\n</body>\n</html>\n"
    )
