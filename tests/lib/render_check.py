#!/usr/bin/env python3
"""render_check.py: checks what a person would see in a screenshot of sysbench's charts.

    render_check.py svg  SHOT.png N COLOURS...   the standalone SVG file: N charts stacked at
                                                 known places; COLOURS per chart, e.g.
                                                 "1f77b4" "1f77b4,d62728"
    render_check.py page SHOT.png N              an HTML page with N charts anywhere
    render_check.py structure FILE.svg|html N    the SVG markup: titles, axis labels, ticks,
                                                 series inside the plot area
    render_check.py box SHOT.png N COLOUR        a page's boxes of background COLOUR (the
                                                 warnings, a command line, a failed run's
                                                 row): at least N rows of it on the screen,
                                                 with text written inside
    render_check.py --keep-going MODE ...        report every problem of every chart, not
                                                 only the first

Prints one line per finding and "ok" at the end; exits 1 on the first missing thing. The PNG
reader needs nothing beyond the standard library (zlib), for 8-bit RGB/RGBA non-interlaced
images, which is what Chromium writes.
"""
import re
import struct
import sys
import xml.etree.ElementTree as ET
import zlib

CHART_W, CHART_H = 640, 360          # src/results/svg.h
LEFT, RIGHT, TOP, BOTTOM = 78, 24, 62, 56  # src/results/svg.c margins
DARK = 90                            # axis and text pixels: every channel below this


KEEP_GOING = False
FAILED = []


class ChartProblem(Exception):
    pass


def fail(msg):
    print("FAIL: " + msg)
    FAILED.append(msg)
    if not KEEP_GOING:
        sys.exit(1)
    raise ChartProblem(msg)


def read_png(path):
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        fail("%s is not a PNG" % path)
    pos, idat, width = 8, b"", 0
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        pos += 12 + length
        if kind == b"IHDR":
            width, height, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", body)
            if depth != 8 or colour not in (2, 6) or interlace:
                fail("unsupported PNG (depth %d, colour type %d)" % (depth, colour))
            bpp = 3 if colour == 2 else 4
        elif kind == b"IDAT":
            idat += body
    raw = zlib.decompress(idat)
    stride = width * bpp
    rows, prev = [], bytearray(stride)
    for y in range(height):
        f = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        if f == 0:
            pass
        elif f == 2:                 # "up", the common case: one pass without Python jumps
            line = bytearray((a + b) & 255 for a, b in zip(line, prev))
        for i in range(stride if f in (1, 3, 4) else 0):
            a = line[i - bpp] if i >= bpp else 0
            b = prev[i]
            c = prev[i - bpp] if i >= bpp else 0
            if f == 1:
                line[i] = (line[i] + a) & 255
            elif f == 2:
                line[i] = (line[i] + b) & 255
            elif f == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(bytes(line))
        prev = line
    return width, height, bpp, rows


class Image:
    def __init__(self, path):
        self.w, self.h, self.bpp, self.rows = read_png(path)

    def px(self, x, y):
        r = self.rows[y]
        i = x * self.bpp
        return r[i], r[i + 1], r[i + 2]

    def pixels(self, x0, y0, x1, y1):
        """(r, g, b) of every pixel in the rectangle, row by row."""
        bpp = self.bpp
        x0, x1 = max(0, x0), min(self.w, x1)
        for y in range(max(0, y0), min(self.h, y1)):
            row = self.rows[y]
            for i in range(x0 * bpp, x1 * bpp, bpp):
                yield row[i], row[i + 1], row[i + 2]

    def count(self, x0, y0, x1, y1, pred):
        return sum(1 for p in self.pixels(x0, y0, x1, y1) if pred(p))


def is_dark(p):
    return p[0] < DARK and p[1] < DARK and p[2] < DARK


def near(colour):
    want = tuple(int(colour[i:i + 2], 16) for i in (0, 2, 4))
    return lambda p: all(abs(p[i] - want[i]) <= 40 for i in range(3))


def longest_dark_run_h(img, y, x0, x1):
    best = run = 0
    for x in range(max(0, x0), min(img.w, x1)):
        run = run + 1 if is_dark(img.px(x, y)) else 0
        best = max(best, run)
    return best


def longest_dark_run_v(img, x, y0, y1):
    best = run = 0
    for y in range(max(0, y0), min(img.h, y1)):
        run = run + 1 if is_dark(img.px(x, y)) else 0
        best = max(best, run)
    return best


def check_chart_at(img, ox, oy, colours, name):
    """A chart drawn with its top-left corner at (ox, oy)."""
    pw, ph = CHART_W - LEFT - RIGHT, CHART_H - TOP - BOTTOM
    ax_y, ax_x = oy + TOP + ph, ox + LEFT
    if max(longest_dark_run_h(img, y, ax_x, ax_x + pw + 1) for y in range(ax_y - 2, ax_y + 3)) < pw * 0.95:
        fail("%s: no x axis line along the bottom of the plot area" % name)
    if max(longest_dark_run_v(img, x, oy + TOP, ax_y + 1) for x in range(ax_x - 2, ax_x + 3)) < ph * 0.95:
        fail("%s: no y axis line along the left of the plot area" % name)
    print("%s: axes drawn" % name)
    for colour in colours:
        n = img.count(ax_x + 3, oy + TOP, ax_x + pw, ax_y - 1, near(colour))
        if n < 20:
            fail("%s: series colour #%s not in the plot area (%d pixels)" % (name, colour, n))
        print("%s: series #%s drawn (%d pixels)" % (name, colour, n))
    labels = [("title", ox + 100, oy + 4, ox + CHART_W - 100, oy + 26),
              ("x tick labels", ax_x, ax_y + 8, ax_x + pw, ax_y + 24),
              ("x axis label", ox + LEFT, ax_y + 28, ox + CHART_W - RIGHT, ax_y + 48),
              ("y tick labels", ox + 26, oy + TOP - 8, ax_x - 4, ax_y + 8),
              ("y axis label", ox + 4, oy + TOP, ox + 26, ax_y)]
    for what, x0, y0, x1, y1 in labels:
        n = img.count(x0, y0, x1, y1, is_dark)
        if n < 15:
            fail("%s: nothing written where the %s go (%d dark pixels)" % (name, what, n))
    print("%s: title, tick labels and axis labels written" % name)


def check_svg_shot(path, n, colour_lists):
    img = Image(path)
    if img.w < CHART_W or img.h < CHART_H * n:
        fail("screenshot %dx%d smaller than %d charts" % (img.w, img.h, n))
    for k in range(n):
        colours = colour_lists[k].split(",") if k < len(colour_lists) else []
        try:
            check_chart_at(img, 0, CHART_H * k, colours, "chart %d" % (k + 1))
        except ChartProblem:
            pass


def find_x_axes(img):
    """Left ends of long horizontal dark lines (the x axes), one per chart."""
    pw = CHART_W - LEFT - RIGHT
    # A run of dark pixels is a run of bytes below DARK (alpha bytes aside): found by the
    # regular expression engine, then checked pixel by pixel.
    dark_run = re.compile(rb"[\x00-\x%02x]{%d,}" % (DARK - 1, int(pw * 0.9) * 3))
    found = []
    for y in range(img.h):
        row = img.rows[y] if img.bpp == 3 else bytes(b for i, b in enumerate(img.rows[y]) if i % 4 != 3)
        for m in dark_run.finditer(row):
            start = (m.start() + 2) // 3
            end = m.end() // 3
            if end - start < pw * 0.95:
                continue
            if not any(abs(fx - start) < 6 and 0 <= y - fy < 6 for fx, fy in found):
                found.append((start, y))
    return found


def check_page_shot(path, n):
    img = Image(path)
    axes = find_x_axes(img)
    if len(axes) < n:
        fail("%d charts expected, %d x axes seen in the screenshot" % (n, len(axes)))
    print("%d x axes seen" % len(axes))
    ph = CHART_H - TOP - BOTTOM
    # Series are drawn in saturated colours; axes, grid, text and background are greys.
    saturated = lambda p: max(p) - min(p) > 80
    for i, (x, y) in enumerate(axes):
        seen = img.count(x + 3, y - ph, x + CHART_W - LEFT - RIGHT, y - 1, saturated)
        if seen < 20:
            fail("chart %d (axis at %d,%d): no series drawn in its plot area" % (i + 1, x, y))
        if longest_dark_run_v(img, x, y - ph, y + 1) < ph * 0.95 and longest_dark_run_v(img, x + 1, y - ph, y + 1) < ph * 0.95:
            fail("chart %d: no y axis line" % (i + 1))
    print("every chart has its axes and a series")


def check_structure(path, n):
    text = open(path, encoding="utf-8").read()
    svgs = re.findall(r'<svg class="chart".*?</svg>', text, re.S)
    if len(svgs) != n:
        fail("%d charts expected in %s, found %d" % (n, path, len(svgs)))
    for k, s in enumerate(svgs):
        root = ET.fromstring(s.replace("<svg ", '<svg xmlns="http://www.w3.org/2000/svg" ', 1))
        ns = "{http://www.w3.org/2000/svg}"
        texts = {}
        for t in root.iter(ns + "text"):
            texts.setdefault(t.get("class", ""), []).append((t.text or "").strip())
        title = texts.get("chart-title", [""])[0]
        for cls in ("axis-label x-label", "axis-label y-label", "chart-title"):
            if not texts.get(cls) or not texts[cls][0]:
                fail("chart %d (%s): no %s text" % (k + 1, title, cls))
        for cls in ("tick-label x-tick", "tick-label y-tick"):
            if len(texts.get(cls, [])) < 1 + (cls.endswith("y-tick")):
                fail("chart %d (%s): too few %s" % (k + 1, title, cls))
        series = [g for g in root.iter(ns + "g") if g.get("class") == "series"]
        if not series:
            fail("chart %d (%s): no series" % (k + 1, title))
        for g in series:
            points = [(float(c.get("cx")), float(c.get("cy"))) for c in g.iter(ns + "circle")]
            for pl in g.iter(ns + "polyline"):
                points += [tuple(map(float, p.split(","))) for p in pl.get("points").split()]
            if not points:
                fail("chart %d (%s): series %s has no points" % (k + 1, title, g.get("data-series")))
            for x, y in points:
                if not (LEFT <= x <= CHART_W - RIGHT and TOP <= y <= CHART_H - BOTTOM):
                    fail("chart %d (%s): point %.1f,%.1f outside the plot area" % (k + 1, title, x, y))
        print("chart %d (%s): %d series, labelled axes '%s' / '%s'" % (
            k + 1, title, len(series), texts["axis-label x-label"][0], texts["axis-label y-label"][0]))


def check_box(path, n, colour):
    """Boxes filled with `colour` (runs of 8 or more pixels of exactly that colour, as
    Chromium paints a CSS background; rows of them one under the other make a box): at least
    n of them, each with dark text inside."""
    img = Image(path)
    want = bytes(int(colour[i:i + 2], 16) for i in (0, 2, 4))
    run = re.compile(b"(?:" + re.escape(want) + b"){8,}", re.S)
    spans = {}                       # row -> (leftmost, rightmost) pixel of the colour
    for y in range(img.h):
        row = img.rows[y] if img.bpp == 3 else bytes(b for i, b in enumerate(img.rows[y]) if i % 4 != 3)
        for m in run.finditer(row):
            if m.start() % 3:
                continue
            x0, x1 = spans.get(y, (img.w, 0))
            spans[y] = (min(x0, m.start() // 3), max(x1, m.end() // 3))
    boxes = []
    for y in sorted(spans):
        if boxes and y == boxes[-1][3]:
            b = boxes[-1]
            boxes[-1] = [min(b[0], spans[y][0]), b[1], max(b[2], spans[y][1]), y + 1]
        else:
            boxes.append([spans[y][0], y, spans[y][1], y + 1])
    if len(boxes) < n:
        fail("#%s: %d boxes of it on the screen, %d expected" % (colour, len(boxes), n))
    for k, (x0, y0, x1, y1) in enumerate(boxes):
        dark = img.count(x0, y0, x1, y1, is_dark)
        if dark < 20:
            fail("#%s box %d (%dx%d at %d,%d): no text inside (%d dark pixels)" % (
                colour, k + 1, x1 - x0, y1 - y0, x0, y0, dark))
        print("#%s box %d: %dx%d at %d,%d, text inside (%d dark pixels)" % (
            colour, k + 1, x1 - x0, y1 - y0, x0, y0, dark))


def main():
    global KEEP_GOING
    args = sys.argv[1:]
    if args[0] == "--keep-going":
        KEEP_GOING = True
        args = args[1:]
    mode, path, n = args[0], args[1], int(args[2])
    sys.argv = [sys.argv[0]] + args
    if mode == "svg":
        check_svg_shot(path, n, sys.argv[4:])
    elif mode == "page":
        check_page_shot(path, n)
    elif mode == "structure":
        check_structure(path, n)
    elif mode == "box":
        check_box(path, n, sys.argv[4])
    else:
        fail("unknown mode " + mode)
    if FAILED:
        sys.exit(1)
    print("ok")


if __name__ == "__main__":
    main()
