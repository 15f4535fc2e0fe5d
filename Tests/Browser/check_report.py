#!/usr/bin/env python3
"""Renders a report.html in headless Chromium and fails (exit 1) when the page is blank or nearly
so, when the browser logs a console message (the page has no script, so any is an error: a blocked
or missing resource, a parse problem), when an expected chart is missing from the DOM, or when a
label is clipped or overlaps: every SVG <text>'s box must lie inside its SVG's box, and no two
axis tick labels on one line may overlap (measured by the browser on a copy of the page with a
probe script added; the page itself has none).

Usage: check_report.py REPORT_HTML SCREENSHOT_PNG [CHART_ID ...]
With README_SCREENSHOT=PATH in the environment, also writes a 1200-pixel-wide screenshot of the
page's top there (the README's picture).
Standard library only (the PNG is decoded with zlib), so any python3 runs it.
"""
import html
import html.parser
import json
import os
import shutil
import struct
import subprocess
import sys
import zlib

DEFAULT_CHARTS = [
    "chart-outcomes", "chart-spectrum-journey", "chart-histogram-journey", "chart-allocations",
]
DEFAULT_IDS = ["headline-table", "environment", "scenario-classes", "violations"]
WINDOW = "1280,1600"


def browser():
    for name in ("chromium", "chromium-browser", "google-chrome"):
        path = shutil.which(name)
        if path:
            return path
    sys.exit("check_report: no chromium on PATH (apt-get install -y chromium)")


def run(arguments):
    # No D-Bus, no GPU in CI containers; a fresh profile so nothing else leaks in.
    base = [browser(), "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
            "--user-data-dir=" + os.path.join(os.path.dirname(os.path.abspath(sys.argv[2])), "chromium-profile")]
    return subprocess.run(base + arguments, capture_output=True, text=True, timeout=120)


# Measures every SVG text against its SVG and the tick labels of each axis line against each
# other, in CSS pixels after layout; writes the problems as JSON into #layout-probe.
LAYOUT_PROBE = """<script>
(function () {
  var problems = [], slack = 0.5;
  function name(svg, index) {
    var holder = svg.closest('[id]');
    return '#' + (holder ? holder.id : 'svg-' + index);
  }
  document.querySelectorAll('svg').forEach(function (svg, index) {
    var box = svg.getBoundingClientRect(), rows = {};
    svg.querySelectorAll('text').forEach(function (text) {
      var r = text.getBoundingClientRect(), label = text.textContent;
      if (r.width === 0 || label.trim() === '') return;
      if (r.left < box.left - slack || r.right > box.right + slack ||
          r.top < box.top - slack || r.bottom > box.bottom + slack) {
        problems.push('clipped: ' + name(svg, index) + ' "' + label + '" [' + Math.round(r.left - box.left) +
          '..' + Math.round(r.right - box.left) + ' of ' + Math.round(box.width) + ' px wide, ' +
          Math.round(r.top - box.top) + '..' + Math.round(r.bottom - box.top) + ' of ' +
          Math.round(box.height) + ' px high]');
      }
      if (text.classList.contains('tick')) {
        var key = Math.round(r.top);
        (rows[key] = rows[key] || []).push({left: r.left, right: r.right, label: label});
      }
    });
    Object.keys(rows).forEach(function (key) {
      var labels = rows[key].sort(function (a, b) { return a.left - b.left; });
      for (var i = 1; i < labels.length; i++) {
        if (labels[i].left < labels[i - 1].right - slack) {
          problems.push('overlapping: ' + name(svg, index) + ' "' + labels[i - 1].label + '" and "' +
            labels[i].label + '"');
        }
      }
    });
  });
  var out = document.createElement('pre');
  out.id = 'layout-probe';
  out.textContent = JSON.stringify(problems);
  document.body.appendChild(out);
})();
</script>"""


def layout_problems(report, window):
    """The clipped and overlapping labels the browser measures in a probed copy of `report`."""
    with open(report, encoding="utf-8") as handle:
        page = handle.read()
    probed = report[:-len(".html")] + ".probe.html"
    with open(probed, "w", encoding="utf-8") as handle:
        handle.write(page.replace("</body>", LAYOUT_PROBE + "</body>"))
    dump = run(["--window-size=" + window, "--dump-dom", "file://" + probed])
    start = dump.stdout.find('<pre id="layout-probe">')
    if start < 0:
        return ["the layout probe did not run: " + dump.stderr[-300:]]
    end = dump.stdout.find("</pre>", start)
    text = html.unescape(dump.stdout[start + len('<pre id="layout-probe">'):end])
    return json.loads(text)


def png_pixels(path):
    """(width, height, rows of RGB tuples) of an 8-bit RGB or RGBA, non-interlaced PNG."""
    with open(path, "rb") as handle:
        data = handle.read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("not a PNG")
    offset, idat, header = 8, b"", None
    while offset < len(data):
        length, kind = struct.unpack(">I4s", data[offset:offset + 8])
        chunk = data[offset + 8:offset + 8 + length]
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", chunk)
        elif kind == b"IDAT":
            idat += chunk
        offset += 12 + length
    width, height, depth, colour, _, _, interlace = header
    if depth != 8 or colour not in (2, 6) or interlace:
        raise ValueError("unsupported PNG format %r" % (header,))
    channels = 3 if colour == 2 else 4
    raw = zlib.decompress(idat)
    stride = width * channels
    previous = bytearray(stride)
    rows = []
    position = 0
    for _ in range(height):
        kind = raw[position]
        line = bytearray(raw[position + 1:position + 1 + stride])
        position += 1 + stride
        for i in range(stride):
            left = line[i - channels] if i >= channels else 0
            up = previous[i]
            corner = previous[i - channels] if i >= channels else 0
            if kind == 1:
                line[i] = (line[i] + left) & 255
            elif kind == 2:
                line[i] = (line[i] + up) & 255
            elif kind == 3:
                line[i] = (line[i] + ((left + up) >> 1)) & 255
            elif kind == 4:
                estimate = left + up - corner
                pa, pb, pc = abs(estimate - left), abs(estimate - up), abs(estimate - corner)
                predictor = left if pa <= pb and pa <= pc else (up if pb <= pc else corner)
                line[i] = (line[i] + predictor) & 255
        rows.append(bytes(line))
        previous = line
    return width, height, channels, rows


class Elements(html.parser.HTMLParser):
    """Ids in the DOM, and for each id the tags inside it."""

    def __init__(self):
        super().__init__()
        self.ids = {}
        self.open = []

    def handle_starttag(self, tag, attributes):
        element_id = dict(attributes).get("id")
        for _, tags in self.open:
            tags.append(tag)
        if element_id:
            self.ids[element_id] = []
        if tag not in ("br", "meta", "line", "rect", "circle", "polyline", "path", "link", "img", "input"):
            self.open.append((tag, self.ids[element_id] if element_id else []))

    def handle_endtag(self, tag):
        for index in range(len(self.open) - 1, -1, -1):
            if self.open[index][0] == tag:
                del self.open[index:]
                break


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    report, screenshot = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    charts = sys.argv[3:] or DEFAULT_CHARTS
    failures = []
    url = "file://" + report

    shot = run(["--window-size=" + WINDOW, "--screenshot=" + screenshot, url])
    if shot.returncode != 0 or not os.path.exists(screenshot):
        failures.append("screenshot failed: " + shot.stderr[-500:])
    else:
        width, height, channels, rows = png_pixels(screenshot)
        total = count = 0
        squares = 0.0
        inked = 0
        for row in rows[::4]:
            for x in range(0, width * channels, channels * 4):
                luminance = (299 * row[x] + 587 * row[x + 1] + 114 * row[x + 2]) // 1000
                total += luminance
                squares += luminance * luminance
                count += 1
                if luminance < 200:
                    inked += 1
        mean = total / count
        deviation = max(0.0, squares / count - mean * mean) ** 0.5
        share = inked / count
        print("screenshot %s: %dx%d, luminance mean %.1f, deviation %.1f, %.1f%% of pixels inked"
              % (screenshot, width, height, mean, deviation, share * 100))
        if deviation < 20 or share < 0.03:
            failures.append("near-blank page (deviation %.1f, %.2f%% inked)" % (deviation, share * 100))

    dump = run(["--enable-logging=stderr", "--v=0", "--dump-dom", url])
    console = [line for line in dump.stderr.splitlines()
               if "CONSOLE" in line or "Uncaught" in line or "Failed to load resource" in line]
    if console:
        failures.append("console messages:\n  " + "\n  ".join(console[:10]))
    parser = Elements()
    parser.feed(dump.stdout)
    for chart in charts:
        tags = parser.ids.get(chart)
        if tags is None:
            failures.append("missing chart #" + chart)
        elif "svg" not in tags or not any(tag in tags for tag in ("polyline", "rect", "circle")):
            failures.append("chart #%s has no drawing (tags: %s)" % (chart, sorted(set(tags))[:12]))
    for element_id in DEFAULT_IDS:
        if element_id not in parser.ids:
            failures.append("missing #" + element_id)
    print("DOM: %d elements with ids; charts checked: %s" % (len(parser.ids), ", ".join(charts)))

    # Two widths: the page's own (1120 px of content) and a narrow window, where the charts scale
    # down with their text (a label that fits one fits the other unless it is placed by pixels).
    for window in (WINDOW, "800,1600"):
        problems = layout_problems(report, window)
        print("layout at %s: %d clipped or overlapping labels" % (window, len(problems)))
        failures += ["at %s: %s" % (window, problem) for problem in problems]

    readme = os.environ.get("README_SCREENSHOT")
    if readme:
        picture = run(["--window-size=1200,1420", "--screenshot=" + os.path.abspath(readme), url])
        if picture.returncode != 0 or not os.path.exists(readme):
            failures.append("README screenshot failed: " + picture.stderr[-500:])
        else:
            print("README screenshot %s: %d bytes" % (readme, os.path.getsize(readme)))

    if failures:
        print("check_report: FAIL\n- " + "\n- ".join(failures))
        return 1
    print("check_report: OK")
    return 0


if __name__ == "__main__":
    sys.exit(main())
