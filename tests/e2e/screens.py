"""Checks on what a page shows, read from the live DOM and from each chart's own state.

Three checks, run after Run All and after each scripted interaction (see the tests):

* ``geometry``: every plotly chart's whole drawing (its SVG, legend, title, axis titles and
  tick labels) lies inside the viewport's width and inside every box around it that clips or
  scrolls (and the player's chart column); so do buttons, tables, paragraphs, list items and
  widget text; a chart's legend and titles also lie inside the chart's own height (not over
  the next chart) and its legends, titles, axis titles and annotations do not overlap; no label is cut with an
  ellipsis (``text-overflow: ellipsis`` with hidden text).
* ``data_out_of_view``: every point of every trace (numbers on linear axes) lies inside the
  axis ranges the chart shows (``gd._fullLayout``, ``gd._fullData``).
* ``Screens.match``: a screenshot of a part of the page (see ``STORED_WIDTH``) against a reviewed baseline in
  ``tests/e2e/baselines`` (see ``TOLERANCE``). ``make baselines`` (``MOGUL_BASELINES=update``)
  rewrites the baselines and ``screenshots/index.html``, a gallery to review before committing.

The screenshots are compared in the browser (a canvas), so no image library is needed.
"""

from __future__ import annotations

import base64
import html
import json
import os
from dataclasses import dataclass, field
from pathlib import Path

from playwright.sync_api import Locator, Page

ROOT = Path(__file__).resolve().parents[2]
BASELINES = Path(__file__).resolve().parent / "baselines"
SCREENSHOTS = ROOT / "screenshots"
UPDATE = os.environ.get("MOGUL_BASELINES") == "update"

SIZES = {
    "phone": {"width": 390, "height": 844},
    "laptop": {"width": 1366, "height": 768},
    "projector": {"width": 1920, "height": 1080},
}

# Screenshots are stored and compared at most STORED_WIDTH px wide (a phone's at full size, a
# laptop's shrunk): small files that a person can still read. A pixel differs when one of its
# colour channels differs by more than PIXEL_STEP (0-255); a screenshot matches when at most
# TOLERANCE of its pixels differ and its size is the baseline's. Anti-aliasing stays well
# below; a chart drawn at another width, a moved legend or a wrapped line do not.
STORED_WIDTH = 700
PIXEL_STEP = 64
TOLERANCE = 0.01

GEOMETRY = r"""(root) => {
  root = root || document.body;
  const vw = document.documentElement.clientWidth;
  const problems = [];
  const shown = e => {
    const r = e.getBoundingClientRect();
    return r.width > 0 && r.height > 0 && e.getClientRects().length > 0
      && getComputedStyle(e).visibility !== 'hidden' && !e.closest('[hidden], details:not([open]) > :not(summary)');
  };
  const label = e => {
    const cls = typeof e.className === 'string' ? e.className.split(' ').filter(c => c)[0] : '';
    return e.tagName.toLowerCase() + (cls ? '.' + cls : '');
  };
  const words = e => (e.textContent || '').trim().replace(/\s+/g, ' ').slice(0, 50);
  // Boxes that clip or scroll what sticks out, and the game player's chart column.
  const frames = e => {
    const out = [];
    for (let a = e.parentElement; a && a !== document.body && a !== document.documentElement; a = a.parentElement) {
      const s = getComputedStyle(a);
      if (s.overflowX !== 'visible' || a.classList.contains('mogul-charts')) out.push(a);
    }
    return out;
  };
  const inside = (e, what) => {
    const r = e.getBoundingClientRect();
    if (r.width === 0) return;
    if (r.right > vw + 1 || r.left < -1) {
      problems.push(`${what}: x ${Math.round(r.left)}..${Math.round(r.right)} is outside the viewport 0..${vw}`);
      return;
    }
    for (const f of frames(e)) {
      const b = f.getBoundingClientRect();
      if (r.right > b.right + 1 || r.left < b.left - 1) {
        problems.push(`${what}: x ${Math.round(r.left)}..${Math.round(r.right)} is outside its container ` +
                      `${label(f)} x ${Math.round(b.left)}..${Math.round(b.right)}`);
        return;
      }
    }
  };
  for (const gd of root.querySelectorAll('.js-plotly-plot')) {
    if (!shown(gd)) continue;
    const title = gd.querySelector('.gtitle') ? words(gd.querySelector('.gtitle')) : '(no title)';
    const svg = gd.querySelector('svg.main-svg');
    if (!svg) continue;
    inside(svg, `chart "${title}"`);
    const parts = gd.querySelectorAll('.legend, .g-gtitle, .g-xtitle, .g-ytitle, .xtick text, .ytick text');
    const box = gd.getBoundingClientRect();
    for (const p of parts) {
      if (!shown(p)) continue;
      const what = `chart "${title}" ${(p.getAttribute('class') || p.parentNode.getAttribute('class') || '').split(' ')[0]} "${words(p)}"`;
      inside(p, what);
      // Up and down too: a legend or title outside its chart's own box runs into what is
      // above or below it (a wrapped legend over the next chart's title).
      const r = p.getBoundingClientRect();
      if (r.bottom > box.bottom + 1 || r.top < box.top - 1)
        problems.push(`${what}: y ${Math.round(r.top)}..${Math.round(r.bottom)} is outside its chart ` +
                      `y ${Math.round(box.top)}..${Math.round(box.bottom)}`);
    }
    // Its legends, titles, axis titles and annotations (subplot titles) do not write over
    // each other.
    const texts = [...gd.querySelectorAll('.legend, .g-gtitle, .g-xtitle, .g-ytitle, .annotation-text-g')].filter(shown);
    for (let i = 0; i < texts.length; i++) for (let j = i + 1; j < texts.length; j++) {
      const [a, b] = [texts[i].getBoundingClientRect(), texts[j].getBoundingClientRect()];
      if (a.left < b.right - 1 && b.left < a.right - 1 && a.top < b.bottom - 1 && b.top < a.bottom - 1)
        problems.push(`chart "${title}": "${words(texts[i])}" and "${words(texts[j])}" overlap`);
    }
  }
  const texts = root.querySelectorAll(
    'button, table, .widget-html-content, p, li, h1, h2, h3, h4, summary, .widget-label, .mogul-game');
  for (const e of texts) if (shown(e)) inside(e, `${label(e)} "${words(e)}"`);
  for (const e of root.querySelectorAll('*')) {
    if (getComputedStyle(e).textOverflow === 'ellipsis' && e.scrollWidth > e.clientWidth + 1 && shown(e))
      problems.push(`${label(e)} "${words(e)}" is cut with an ellipsis (${e.scrollWidth} > ${e.clientWidth} px)`);
  }
  return [...new Set(problems)];
}"""

DATA_OUT_OF_VIEW = r"""(root) => {
  root = root || document.body;
  const problems = [];
  for (const gd of root.querySelectorAll('.js-plotly-plot')) {
    const L = gd._fullLayout;
    if (!L || !gd._fullData) continue;
    const title = (L.title && L.title.text) || '(no title)';
    let found = 0;
    for (const t of gd._fullData) {
      if (t.visible !== true || !['scatter', 'scattergl', 'bar'].includes(t.type) || !t.x || !t.y) continue;
      const axes = [['x', L[(t.xaxis || 'x').replace('x', 'xaxis')], t.x],
                    ['y', L[(t.yaxis || 'y').replace('y', 'yaxis')], t.y]];
      for (let i = 0; i < Math.min(t.x.length, t.y.length) && found < 3; i++) {
        for (const [name, axis, values] of axes) {
          const v = values[i];
          if (!axis || axis.type !== 'linear' || v === null || v === undefined || typeof v !== 'number') continue;
          const [lo, hi] = [Math.min(...axis.range), Math.max(...axis.range)];
          const eps = (hi - lo) * 1e-6;
          if (v < lo - eps || v > hi + eps) {
            problems.push(`chart "${title}": trace "${t.name}" has ${name} = ${v} (point ${i}), ` +
                          `outside the ${name} axis range ${lo.toFixed(2)}..${hi.toFixed(2)}`);
            found++;
          }
        }
      }
    }
  }
  return problems;
}"""

# The charts' drawn width against their frame's, for a short note in failure messages.
CHART_WIDTHS = r"""(root) => Array.from((root || document.body).querySelectorAll('.js-plotly-plot'))
  .filter(gd => gd.getBoundingClientRect().width > 0 && gd._fullLayout)
  .map(gd => `${Math.round(gd._fullLayout.width)} px drawn in ${Math.round(gd.getBoundingClientRect().width)} px`)"""

# Every live chart drawn at the width of its box (plotly redraws after a resize, a moment later).
CHARTS_SETTLED = r"""(root) => Array.from((root || document.body).querySelectorAll('.js-plotly-plot'))
  .filter(gd => gd.getBoundingClientRect().width > 0 && gd._fullLayout)
  .every(gd => Math.abs(gd._fullLayout.width - gd.getBoundingClientRect().width) <= 2)"""

COMPARE = r"""async ([shot, base, step, WIDTH]) => {
  const load = src => new Promise((ok, fail) => {
    const img = new Image(); img.onload = () => ok(img); img.onerror = fail; img.src = src; });
  const pixels = (img, w, h) => {
    const c = document.createElement('canvas'); c.width = w; c.height = h;
    const g = c.getContext('2d'); g.imageSmoothingQuality = 'high'; g.drawImage(img, 0, 0, w, h);
    return [c, g.getImageData(0, 0, w, h).data];
  };
  const img = await load(shot);
  const scale = Math.min(1, WIDTH / img.width);
  const w = Math.max(1, Math.round(img.width * scale)), h = Math.max(1, Math.round(img.height * scale));
  const [canvas, now] = pixels(img, w, h);
  const out = {png: canvas.toDataURL('image/png'), width: w, height: h};
  if (!base) return out;
  const old = await load(base);
  out.baseWidth = old.width; out.baseHeight = old.height;
  if (old.width !== w || old.height !== h) return out;
  const [, was] = pixels(old, w, h);
  const diff = document.createElement('canvas'); diff.width = w; diff.height = h;
  const g = diff.getContext('2d'); g.drawImage(old, 0, 0); g.fillStyle = 'rgba(255,255,255,0.7)'; g.fillRect(0, 0, w, h);
  const marks = g.getImageData(0, 0, w, h);
  let differ = 0;
  for (let i = 0; i < now.length; i += 4) {
    const d = Math.max(Math.abs(now[i] - was[i]), Math.abs(now[i + 1] - was[i + 1]), Math.abs(now[i + 2] - was[i + 2]));
    if (d > step) { differ++; marks.data[i] = 230; marks.data[i + 1] = 0; marks.data[i + 2] = 0; marks.data[i + 3] = 255; }
  }
  g.putImageData(marks, 0, 0);
  out.differ = differ / (w * h);
  out.diff = diff.toDataURL('image/png');
  return out;
}"""


def geometry(page: Page, root: str = "body") -> list[str]:
    """What sticks out of the viewport or its container, and labels cut with an ellipsis."""
    return page.locator(root).first.evaluate(GEOMETRY)


def data_out_of_view(page: Page, root: str = "body") -> list[str]:
    """Points of a chart outside the axis ranges it shows (up to three per chart)."""
    return page.locator(root).first.evaluate(DATA_OUT_OF_VIEW)


def chart_widths(page: Page, root: str = "body") -> list[str]:
    return page.locator(root).first.evaluate(CHART_WIDTHS)


def wait_for_charts(page: Page, root: str = "body", timeout: float = 10_000) -> None:
    """Wait until every chart is drawn at its box's width (a chart that never is fails later)."""
    try:
        page.locator(root).first.evaluate(
            "() => new Promise(r => requestAnimationFrame(() => setTimeout(r, 100)))"
        )
        page.wait_for_function(
            f"() => ({CHARTS_SETTLED})(document.querySelector({json.dumps(root)}))", timeout=timeout
        )
    except Exception:  # noqa: BLE001 - the geometry check then names the chart
        pass


def _data_url(png: bytes) -> str:
    return "data:image/png;base64," + base64.b64encode(png).decode()


def _write_data_url(url: str, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(base64.b64decode(url.split(",", 1)[1]))


TOUCH_PX = 44
"""The least height of a control a finger taps (and width of a checkbox's label)."""

SMALL_TARGETS = r"""([root, least]) => {
  const roots = root ? [...document.querySelectorAll(root)] : [document.body];
  const shown = e => e.getClientRects().length > 0 && getComputedStyle(e).visibility !== 'hidden';
  const out = [];
  // buttons, text and number boxes, drop-downs, slider tracks, and a checkbox by its label
  // (a tap on its words ticks it; the box itself is small)
  const controls = roots.flatMap(r => [...r.querySelectorAll(
    'button, input:not([type=checkbox]), select, .widget-slider .slider-container, .widget-checkbox label')]);
  for (const e of controls) {
    if (!shown(e)) continue;
    const r = e.getBoundingClientRect();
    const name = (e.innerText || e.value || e.getAttribute('title') || '').trim().slice(0, 30);
    const what = `${e.tagName.toLowerCase()} "${name}"`;
    if (r.height < least - 0.5) out.push(`${what}: ${Math.round(r.height)} px tall, under ${least} px`);
    else if (e.matches('label') && r.width < least - 0.5)
      out.push(`${what}: ${Math.round(r.width)} px wide, under ${least} px`);
  }
  return out;
}"""


def small_targets(page: Page, root: str | None = None) -> list[str]:
    """The controls under ``root`` (default: the page) a finger would miss: under ``TOUCH_PX``."""
    return page.evaluate(SMALL_TARGETS, [root, TOUCH_PX])


@dataclass
class Screens:
    """The checks for one page, with the problems found so far (``assert_clean`` reports)."""

    page: Page
    root: str = "body"
    problems: list[str] = field(default_factory=list)

    def check(self, step: str, root: str | None = None) -> None:
        """Geometry and data in view for the page as it is now (or the part ``root`` selects);
        ``step`` names it in messages."""
        root = root or self.root
        wait_for_charts(self.page, root)
        found = geometry(self.page, root) + data_out_of_view(self.page, root)
        if found:
            widths = "; ".join(chart_widths(self.page, root))
            self.problems += [f"[{step}] {p}" for p in found] + [f"[{step}] charts: {widths}"]

    def check_touch(self, step: str, root: str | None = None) -> None:
        """Every control shown under ``root`` is a touch target of at least ``TOUCH_PX`` (a
        phone): see ``small_targets``."""
        self.problems += [f"[{step}] {p}" for p in small_targets(self.page, root or self.root)]

    def match(self, name: str, target: Locator | None = None) -> None:
        """Screenshot ``target`` (default: the viewport) and compare it with its baseline."""
        wait_for_charts(self.page, self.root)
        options = {"animations": "disabled", "caret": "hide"}
        if target is None:
            png = self.page.screenshot(**options)
        else:
            # Lab and Voila scroll inside a box of their own, so a screenshot shows only what
            # is in the viewport: make the viewport as tall as the part (same width, so the
            # same layout), then go back.
            viewport = self.page.viewport_size
            height = target.evaluate("e => Math.ceil(e.getBoundingClientRect().height)")
            if height + 200 > viewport["height"]:
                self.page.set_viewport_size({"width": viewport["width"], "height": height + 200})
            try:
                target.evaluate("e => e.scrollIntoView({block: 'start'})")
                wait_for_charts(self.page, self.root)
                png = target.screenshot(**options)
            finally:
                self.page.set_viewport_size(viewport)
        baseline = BASELINES / f"{name}.png"
        base = None if UPDATE or not baseline.exists() else _data_url(baseline.read_bytes())
        helper = self.page.context.new_page()  # a blank page of our own draws the comparison
        try:
            result = helper.evaluate(COMPARE, [_data_url(png), base, PIXEL_STEP, STORED_WIDTH])
        finally:
            helper.close()
        _write_data_url(result["png"], SCREENSHOTS / f"{name}.png")
        if UPDATE:
            _write_data_url(result["png"], baseline)
            return
        if base is None:
            self.problems.append(
                f"[{name}] no baseline {baseline.relative_to(ROOT)}: run `make baselines` and review"
            )
        elif "differ" not in result:
            self.problems.append(
                f"[{name}] screenshot is {result['width']}x{result['height']} px, the baseline "
                f"{result['baseWidth']}x{result['baseHeight']} (see screenshots/{name}.png)"
            )
        elif result["differ"] > TOLERANCE:
            _write_data_url(result["diff"], SCREENSHOTS / f"diff-{name}.png")
            self.problems.append(
                f"[{name}] {result['differ']:.1%} of the pixels differ from the baseline (tolerance "
                f"{TOLERANCE:.0%}); see screenshots/{name}.png and screenshots/diff-{name}.png"
            )

    def assert_clean(self) -> None:
        assert not self.problems, "What the page shows is wrong:\n" + "\n".join(self.problems)


def write_gallery() -> Path:
    """screenshots/index.html: every baseline beside this run's screenshot, for review."""
    rows = []
    for baseline in sorted(BASELINES.glob("*.png")):
        now = SCREENSHOTS / baseline.name
        diff = SCREENSHOTS / f"diff-{baseline.name}"
        cells = [f"<td><img src='../{baseline.relative_to(ROOT)}'></td>"]
        cells.append(f"<td><img src='{now.name}'></td>" if now.exists() else "<td>(not taken)</td>")
        cells.append(f"<td><img src='{diff.name}'></td>" if diff.exists() else "<td></td>")
        rows.append(
            f"<tr><th colspan=3>{html.escape(baseline.stem)}</th></tr><tr>{''.join(cells)}</tr>"
        )
    page = (
        "<!doctype html><meta charset=utf-8><title>Mogul screenshots</title>"
        "<style>body{font-family:sans-serif}img{max-width:100%;border:1px solid #ccc}"
        "td{vertical-align:top;width:33%}th{text-align:left;padding-top:1em}</style>"
        "<h1>Screenshots against the baselines</h1><p>Baseline (tests/e2e/baselines), this run, "
        "pixels that differ (red). Review before committing new baselines.</p>"
        f"<table>{''.join(rows)}</table>"
    )
    SCREENSHOTS.mkdir(exist_ok=True)
    index = SCREENSHOTS / "index.html"
    index.write_text(page)
    return index
