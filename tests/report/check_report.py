#!/usr/bin/env python3
"""The --report page against the CLI's JSON of the same run, and in a real browser.

  check_report.py REPORT.html POOLED.json MAX.json OUT_DIR

POOLED.json: the CLI's --json (default precision) with --pool mean/harmonic_mean/min/max/perc5/perc50 of the
run that wrote the report; MAX.json: the same run at --precision max. Checks:
  - every pooled cell of the page (mean, harmonic mean, min, max, 5th percentile, median) is the JSON's
    text; "1% low" is the mean of the lowest max(1, n // 100) frames of MAX.json, printed the same way;
  - the data behind the charts equals MAX.json's per-frame values exactly, name for name;
  - the headline and the worst frame (the lowest of the first metric) are the JSON's;
  - headless Chromium (Debian's chromium) runs the page's script to its end with no console message of
    any level; the page's #selftest (synthetic mouse events) finds that a hover shows the frame's value and
    that a drag zooms every chart alike and a double-click resets; a screenshot (OUT_DIR/report.png) is not
    blank.
Exit 0 when all hold, 1 otherwise (each failure printed), 77 when chromium is not installed."""
import html.parser
import json
import os
import shutil
import struct
import subprocess
import sys
import zlib

report_path, pooled_path, max_path, out_dir = sys.argv[1:5]
failures = []


def fail(message):
    failures.append(message)
    print("FAIL:", message)


class Page(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.cells = {}        # (name, pool) -> text
        self.data = None
        self.headlines = []
        self.worst_first = None
        self._in = None
        self._text = ""
        self._worst_rows = 0
        self._in_worst = False

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "td" and a.get("class") == "v" and "data-pool" in a:
            self._in = ("cell", a["data-name"], a["data-pool"])
        elif tag == "script" and a.get("id") == "vqtwin-data":
            self._in = ("data",)
        elif tag == "p" and a.get("class") == "headline":
            self._in = ("headline",)
        elif tag == "table" and a.get("class") == "worst":
            self._in_worst = True
        elif tag == "tr" and self._in_worst:
            self._worst_rows += 1
        elif tag == "td" and self._in_worst and self._worst_rows == 2 and self.worst_first is None:
            self._in = ("worst",)
        self._text = ""

    def handle_data(self, data):
        self._text += data

    def handle_endtag(self, tag):
        if tag == "table":
            self._in_worst = False
        if not self._in:
            return
        kind = self._in[0]
        if kind == "cell" and tag == "td":
            self.cells[(self._in[1], self._in[2])] = self._text
        elif kind == "data" and tag == "script":
            self.data = json.loads(self._text)
        elif kind == "headline" and tag == "p":
            self.headlines.append(self._text)
        elif kind == "worst" and tag == "td":
            self.worst_first = int(self._text)
        else:
            return
        self._in = None


page = Page()
page.feed(open(report_path, encoding="utf-8").read())
pooled = json.load(open(pooled_path), parse_float=str)["pooled_metrics"]  # the numbers' text
exact = json.load(open(max_path))
frames = exact["frames"]
names = list(frames[0]["metrics"])

# Pooled cells.
checked = 0
for name, pools in pooled.items():
    for pool, text in pools.items():
        got = page.cells.get((name, pool))
        if got != text:
            fail(f"pooled {name} {pool}: page {got!r}, JSON {text!r}")
        checked += 1
    values = sorted(f["metrics"][name] for f in frames)
    k = max(1, len(values) // 100)
    low = "%.6f" % (sum(values[:k]) / k)
    if page.cells.get((name, "low1")) != low:
        fail(f"1% low of {name}: page {page.cells.get((name, 'low1'))!r}, from the JSON {low!r}")
    checked += 1
if checked < 7 * len(names):
    fail(f"only {checked} pooled cells checked for {len(names)} metrics")

# The data behind the charts.
run = page.data["runs"][0]
if run["frames"] != [f["frameNum"] for f in frames]:
    fail("the page's frame numbers are not the JSON's")
if list(run["series"]) != (exact.get("scores") or []) + [n for n in names if n not in (exact.get("scores") or [])] \
        and sorted(run["series"]) != sorted(names):
    fail(f"the page's metrics {list(run['series'])} are not the JSON's {names}")
for name in names:
    want = [f["metrics"][name] for f in frames]
    if run["series"].get(name) != want:
        fail(f"per-frame {name}: the page's values differ from the JSON's")

# Headline and worst frame.
mean = float(pooled["vmaf"]["mean"])
if not page.headlines or not page.headlines[0].startswith("VMAF %.2f (harmonic " % mean):
    fail(f"headline {page.headlines[:1]} does not start with VMAF {mean:.2f}")
lowest = min(frames, key=lambda f: (f["metrics"]["vmaf"], f["frameNum"]))["frameNum"]
if page.worst_first != lowest:
    fail(f"the worst frame listed first is {page.worst_first}, the JSON's lowest VMAF is frame {lowest}")
print(f"page values: {checked} pooled cells, {len(names)} series of {len(frames)} frames equal the JSON's")

# The browser.
chromium = shutil.which("chromium") or shutil.which("chromium-browser")
if not chromium:
    print("SKIP: chromium is not installed (apt-get install chromium)")
    sys.exit(1 if failures else 77)
os.makedirs(out_dir, exist_ok=True)
url = "file://" + os.path.abspath(report_path)
common = [chromium, "--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run", "--hide-scrollbars",
          "--user-data-dir=" + os.path.join(out_dir, "profile"), "--enable-logging=stderr", "--v=0"]
dom = subprocess.run(common + ["--dump-dom", url], capture_output=True, text=True, timeout=300)
if 'data-ready="true"' not in dom.stdout:
    fail("the page's script did not run to its end in Chromium")
console = [line for line in dom.stderr.splitlines() if ":CONSOLE" in line]
for line in console:
    fail("browser console: " + line)
# Hover and zoom, driven by the page's own check (#selftest): synthetic mouse events in the real browser.
selftest = subprocess.run(common + ["--window-size=1100,1400", "--dump-dom", url + "#selftest"], capture_output=True,
                          text=True, timeout=300)
if 'data-selftest="ok"' not in selftest.stdout:
    start = selftest.stdout.find("data-selftest=")
    fail("hover/zoom check in Chromium: " + (selftest.stdout[start:start + 240] if start >= 0 else "did not run"))
png_path = os.path.join(out_dir, "report.png")
shot = subprocess.run(common + ["--window-size=1100,1400", "--screenshot=" + png_path, url],
                      capture_output=True, text=True, timeout=300)
if shot.returncode != 0 or not os.path.exists(png_path):
    fail("no screenshot: " + shot.stderr[-500:])
    sys.exit(1)


def png_pixels(path):
    """Width, height and RGB(A) rows of an 8-bit non-interlaced PNG (what Chromium writes)."""
    blob = open(path, "rb").read()
    assert blob[:8] == b"\x89PNG\r\n\x1a\n"
    pos, idat, width = 8, b"", 0
    while pos < len(blob):
        length, kind = struct.unpack(">I4s", blob[pos:pos + 8])
        body = blob[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, colour = struct.unpack(">IIBB", body[:10])
            assert depth == 8 and colour in (2, 6)
            bpp = 3 if colour == 2 else 4
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    raw, rows, prev = zlib.decompress(idat), [], bytearray(width * bpp)
    stride = width * bpp
    for y in range(height):
        f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b, c = prev[i], prev[i - bpp] if i >= bpp else 0
            if f == 1: line[i] = (line[i] + a) & 255
            elif f == 2: line[i] = (line[i] + b) & 255
            elif f == 3: line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(bytes(line))
        prev = line
    return width, height, bpp, rows


w, h, bpp, rows = png_pixels(png_path)
colours, ink = set(), 0
for row in rows[::4]:
    for x in range(0, w * bpp, bpp * 4):
        px = row[x:x + 3]
        colours.add(px)
        ink += px != b"\xff\xff\xff"
samples = len(rows[::4]) * len(range(0, w * bpp, bpp * 4))
if (w, h) != (1100, 1400):
    fail(f"screenshot is {w}x{h}, not 1100x1400")
if ink < samples * 0.02 or len(colours) < 8:
    fail(f"the screenshot looks blank ({ink} of {samples} samples not white, {len(colours)} colours)")
print(f"chromium: script ran, no console message, hover and zoom work, screenshot {png_path} ({100 * ink // samples}% ink, "
      f"{len(colours)} colours)")
sys.exit(1 if failures else 0)
