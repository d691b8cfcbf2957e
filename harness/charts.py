"""A chart as one standalone SVG file, of one of two kinds.

Lines (the default): task count on a log x axis, MiB on y, one line with markers per series. Input:
one point a line, three tab-separated fields: series, N (whole number >= 1), MiB (> 0). Series keep
the order they first appear in; each is drawn in increasing N.

Bars (-b): one horizontal bar per runtime, MiB along x, in input order from the top. Input: one bar
a line, two to four tab-separated fields: label, MiB (> 0), a published MiB ("-" or nothing for
none), drawn as a hollow diamond on the bar's row and named in its value, and "no" where the bar's
tasks were not all alive at once (hatched, and said on the bar). On a log axis each bar but ours
also says its ratio to ours (the first bar -m marks).

MiB are on a log scale when the values span more than two decades, or with -l. -m marks the series
or bars whose names begin with MARK (ours among the peers): thicker, filled, bold. Every marker and
bar carries its data (data-series, data-n and data-mib; data-label, data-mib and data-published),
the numbers exactly as given, so a test can read the chart back.

    python3 harness/charts.py [-b] [-t TITLE] [-s SUBTITLE] [-y Y_LABEL] [-n NOTE]... [-m MARK] [-l] [FILE] >chart.svg
"""

import math
import re
import sys

PALETTE = ["#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#17becf", "#7f7f7f", "#bcbd22"]
FONT = "-apple-system, BlinkMacSystemFont, &quot;Segoe UI&quot;, Helvetica, Arial, sans-serif"
CW = 0.55  # a generous average glyph width, in em (sans-serif text measures about 0.48): nothing here measures text
MIB = re.compile(r"^[0-9]*[.]?[0-9]+$")


class Bad(Exception):
    """Input the chart cannot be drawn from: one line, exit 2."""


def esc(s):
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")


def width(s):
    """A text's length as the layout counts it: its bytes."""
    return len(s.encode("utf-8", "surrogateescape"))


def dec_lo(v):
    """The decade at or below v, and (dec_hi) the one at or above (1000 is its own decade)."""
    return math.floor(math.log10(v) + 1e-9)


def dec_hi(v):
    return math.ceil(math.log10(v) - 1e-9)


def num(v):
    """A number as a tick label: no trailing zeros, no exponent."""
    return ("%.6f" % v).rstrip("0").rstrip(".")


def g(v):
    """A number as a label: a whole one as an integer, else six significant digits."""
    return "%d" % v if v == int(v) and abs(v) < 1e16 else "%.6g" % v


def count_label(e):
    for at, suffix in ((9, "G"), (6, "M"), (3, "K")):
        if e >= at:
            return g(10.0 ** (e - at)) + suffix
    return g(10.0 ** e)


def wrap(text, chars, sep):
    """TEXT split at SEP into lines of at most CHARS characters (a longer piece keeps its own line), SEP kept at the
    end of a broken line."""
    lines, line = [], ""
    # At " ", as the charts have always broken them: at runs of spaces, tabs and newlines, none at either end.
    words = re.split(r"[ \t\n]+", text.strip(" \t\n")) if sep == " " else text.split(sep)
    for w in words if text.strip(" \t\n") else []:
        if line != "" and width(line) + width(sep) + width(w) > chars:
            lines.append(line + ("" if sep == " " else sep))
            line = w
        else:
            line = w if line == "" else line + sep + w
    if line != "":
        lines.append(line)
    return lines


class Chart:
    def __init__(self, title, subtitle, ylabel, notes, mark, log):
        self.title, self.subtitle, self.ylabel, self.notes_text = title, subtitle, ylabel, notes
        self.mark, self.force_log = mark, log
        self.out = []

    def p(self, s):
        self.out.append(s)

    def marked(self, name):
        return self.mark != "" and name.startswith(self.mark)

    def scale(self, lo, hi):
        """The MiB axis for values from lo to hi: log, whole decades ylo..yhi, when they span more than two decades or
        -l asks; else linear from 0 to ymax in steps of step."""
        self.ylog = self.force_log or hi / lo > 100
        if self.ylog:
            self.ylo, self.yhi = dec_lo(lo), dec_hi(hi)
            if self.yhi == self.ylo:
                self.yhi += 1
        else:
            raw = hi / 5
            mag = 10.0 ** math.floor(math.log10(raw) + 1e-9)
            f = raw / mag
            self.step = (1 if f <= 1 else 2 if f <= 2 else 2.5 if f <= 2.5 else 5 if f <= 5 else 10) * mag
            self.ymax = math.ceil(hi / self.step - 1e-9) * self.step

    def frac(self, v):
        """Where MiB v lies along the axis, from 0 to 1."""
        return (math.log10(v) - self.ylo) / (self.yhi - self.ylo) if self.ylog else v / self.ymax

    def linear_ticks(self, start):
        v = start
        while v <= self.ymax + self.step / 1e6:
            yield v
            v += self.step

    def subtitle_lines(self, chars):
        self.sub = wrap(self.subtitle, chars, " · ") if self.subtitle else []
        return len(self.sub)

    def notes(self, w):
        """The notes, each wrapped to the width of the page."""
        self.noteline = []
        for note in self.notes_text.split("\n"):
            if note:
                self.noteline += wrap(note, int((w - 2 * 16) / (11 * CW)), " ")
        return len(self.noteline)

    def page(self, w, h, title):
        """The svg element, its tooltip title, an opaque background (GitHub shows SVG images on a dark page in dark
        mode), the title and the wrapped subtitle."""
        p = self.p
        p('<?xml version="1.0" encoding="UTF-8"?>\n')
        p(f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}"')
        p(f' font-family="{FONT}" font-size="12" data-y-scale="{"log" if self.ylog else "linear"}">\n')
        p(f"<title>{esc(title + (' — ' + self.subtitle if self.sub else ''))}</title>\n")
        p('<rect width="100%" height="100%" fill="#ffffff"/>\n')
        p(f'<text x="16" y="30" font-size="18" font-weight="bold" fill="#111">{esc(title)}</text>\n')
        for i, s in enumerate(self.sub, 1):
            p(f'<text x="16" y="{30 + 18 * i}" fill="#444">{esc(s)}</text>\n')

    def ylabel_text(self):
        return esc(self.ylabel + (", log scale" if self.ylog else ""))


def lines_chart(c, rows):
    """One line per series, through its markers, on a log axis of N."""
    names, points, seen = [], {}, set()
    for nr, line in rows:
        f = line.split("\t")
        if len(f) != 3:
            raise Bad(f"line {nr}: expected 3 tab-separated fields (series, N, MiB), got {len(f)}")
        s, n, m = f
        if s == "":
            raise Bad(f"line {nr}: empty series name")
        if not re.fullmatch(r"[0-9]+", n) or int(n) < 1:
            raise Bad(f'line {nr}: N must be a whole number >= 1, got "{n}"')
        if not MIB.match(m) or float(m) <= 0:
            raise Bad(f'line {nr}: MiB must be a number > 0, got "{m}"')
        if s not in points:
            names.append(s)
            points[s] = []
        if (s, int(n)) in seen:
            raise Bad(f"line {nr}: a second point for {s} at N={n}")
        seen.add((s, int(n)))
        points[s].append((int(n), m))
    if not names:
        raise Bad("no points to draw")
    for s in names:
        points[s].sort(key=lambda pt: pt[0])
    allp = [pt for s in names for pt in points[s]]
    nmin, nmax = min(n for n, _ in allp), max(n for n, _ in allp)
    mmin, mmax = min(float(m) for _, m in allp), max(float(m) for _, m in allp)
    ns = len(names)

    # Horizontal layout: plot, then the legend to its right, outside the data.
    longest = max(width(s) for s in names)
    L, PW, PAD = 78, 580, 14
    R = L + PW
    LX = R + 28
    W = max(LX + 36 + int(longest * 12 * CW + 0.5) + 20, 760)
    chars = int((W - 2 * 16) / (12 * CW))
    # Vertical layout: title, wrapped subtitle, plot, axis label, wrapped notes.
    nsub = c.subtitle_lines(chars)
    T = 30 + 18 * nsub + 30
    # The plot is 380 high, or as high as the legend beside it (22 a series) when that is more.
    B = T + max(22 * ns + 16, 380)
    nn = c.notes(W)
    H = B + 58 + (10 + 16 * nn if nn else 0) + 8
    # x: whole decades around the data (one each side when all points share one decade).
    xlo, xhi = dec_lo(nmin), dec_hi(nmax)
    if xhi == xlo:
        xlo, xhi = xlo - 1, xhi + 1
    # y: linear from 0 unless the values span more than two decades (or -l asks for log).
    c.scale(mmin, mmax)

    def xpos(n):
        return L + PAD + (math.log10(n) - xlo) / (xhi - xlo) * (R - L - 2 * PAD)

    def ypos(v):
        if c.ylog:
            return B - PAD - (math.log10(v) - c.ylo) / (c.yhi - c.ylo) * (B - T - 2 * PAD)
        return B - v / c.ymax * (B - T - PAD)

    def marker(shape, x, y):
        """One of five shapes centred on x,y, of sizes that let each show round another."""
        if shape == 0:
            return '<circle cx="%.1f" cy="%.1f" r="5"/>' % (x, y)
        if shape == 1:
            return '<rect x="%.1f" y="%.1f" width="7" height="7"/>' % (x - 3.5, y - 3.5)
        if shape == 2:
            return '<polygon points="%.1f,%.1f %.1f,%.1f %.1f,%.1f %.1f,%.1f"/>' % (x, y - 6.5, x + 6.5, y, x, y + 6.5, x - 6.5, y)
        if shape == 3:
            return '<polygon points="%.1f,%.1f %.1f,%.1f %.1f,%.1f"/>' % (x, y - 6.5, x + 5.5, y + 4, x - 5.5, y + 4)
        return '<polygon points="%.1f,%.1f %.1f,%.1f %.1f,%.1f"/>' % (x, y + 6.5, x + 5.5, y - 4, x - 5.5, y - 4)

    def shape_of(k):
        """Shapes move on by one each time the colours start over, so no two of the first 50 series share both colour
        and shape."""
        return (k - 1 + (k - 1) // len(PALETTE)) % 5

    p = c.p
    c.page(W, H, c.title)
    yticks = [10.0 ** e for e in range(c.ylo, c.yhi + 1)] if c.ylog else None
    # Grid, ticks and tick labels.
    p('<g class="grid" stroke="#e4e4e4" stroke-width="1">\n')
    for e in range(xlo, xhi + 1):
        p('<line x1="%.1f" y1="%d" x2="%.1f" y2="%d"/>\n' % (xpos(10.0 ** e), T, xpos(10.0 ** e), B))
    for v in (yticks if c.ylog else c.linear_ticks(c.step)):
        p('<line x1="%d" y1="%.1f" x2="%d" y2="%.1f"/>\n' % (L, ypos(v), R, ypos(v)))
    p("</g>\n")
    p('<g class="axes" stroke="#333" stroke-width="1" fill="none">\n')
    p('<polyline points="%d,%d %d,%d %d,%d"/>\n' % (L, T, L, B, R, B))
    for e in range(xlo, xhi + 1):
        p('<line x1="%.1f" y1="%d" x2="%.1f" y2="%d"/>\n' % (xpos(10.0 ** e), B, xpos(10.0 ** e), B + 6))
        if e < xhi:
            for i in range(2, 10):
                p('<line x1="%.1f" y1="%d" x2="%.1f" y2="%d"/>\n' % (xpos(i * 10.0 ** e), B, xpos(i * 10.0 ** e), B + 3))
    if c.ylog:
        for e in range(c.ylo, c.yhi + 1):
            p('<line x1="%d" y1="%.1f" x2="%d" y2="%.1f"/>\n' % (L - 6, ypos(10.0 ** e), L, ypos(10.0 ** e)))
            if e < c.yhi:
                for i in range(2, 10):
                    p('<line x1="%d" y1="%.1f" x2="%d" y2="%.1f"/>\n' % (L - 3, ypos(i * 10.0 ** e), L, ypos(i * 10.0 ** e)))
    else:
        for v in c.linear_ticks(0):
            p('<line x1="%d" y1="%.1f" x2="%d" y2="%.1f"/>\n' % (L - 6, ypos(v), L, ypos(v)))
    p("</g>\n")
    p('<g class="tick-labels" fill="#333">\n')
    for e in range(xlo, xhi + 1):
        p('<text class="xtick" x="%.1f" y="%d" text-anchor="middle">%s</text>\n' % (xpos(10.0 ** e), B + 20, count_label(e)))
    for v in (yticks if c.ylog else c.linear_ticks(0)):
        p('<text class="ytick" x="%d" y="%.1f" text-anchor="end">%s</text>\n' % (L - 9, ypos(v) + 4, num(v)))
    p("</g>\n")
    p('<text x="%.1f" y="%d" text-anchor="middle" fill="#111">tasks N (log scale)</text>\n' % ((L + R) / 2, B + 42))
    p('<text transform="translate(20,%.1f) rotate(-90)" text-anchor="middle" fill="#111">%s</text>\n' % ((T + B) / 2, c.ylabel_text()))

    # One group per series: its line, then its markers in increasing N. Markers are hollow and of five shapes, so
    # series that share a point (at N = 1 they all do) still show through each other. A marked series is drawn last,
    # on top, with a thicker line and filled markers.
    for pass_ in (False, True):
        for k, name in enumerate(names, 1):
            marked = c.marked(name)
            if marked != pass_:
                continue
            col, shape, s = PALETTE[(k - 1) % len(PALETTE)], shape_of(k), esc(name)
            p('<g id="series-%d" fill="%s" stroke="%s"%s>\n' % (k, col, col, ' data-marked="yes"' if marked else ""))
            p('<polyline class="series" data-series="%s" fill="none" stroke-width="%s" stroke-linejoin="round" points="' % (s, "4" if marked else "2"))
            p(" ".join("%.1f,%.1f" % (xpos(n), ypos(float(m))) for n, m in points[name]))
            p('"/>\n')
            for n, m in points[name]:
                x, y = xpos(n), ypos(float(m))
                p('<g class="point" data-series="%s" data-n="%d" data-mib="%s" data-x="%.1f" data-y="%.1f" fill="%s" stroke-width="1.5">%s<title>%s: N=%d, %s MiB</title></g>\n'
                  % (s, n, m, x, y, col if marked else "#ffffff", marker(shape, x, y), s, n, m))
            p("</g>\n")

    # The legend, right of the plot, one entry per series in input order.
    p('<g class="legend">\n')
    for k, name in enumerate(names, 1):
        col, ly, marked = PALETTE[(k - 1) % len(PALETTE)], T + 8 + 22 * (k - 1), c.marked(name)
        p('<g fill="%s" stroke="%s"><line x1="%d" y1="%d" x2="%d" y2="%d" stroke-width="%s"/>' % (col, col, LX, ly, LX + 28, ly, "4" if marked else "2"))
        p('<g fill="%s" stroke-width="1.5">%s</g></g>' % (col if marked else "#ffffff", marker(shape_of(k), LX + 14, ly)))
        p('<text x="%d" y="%d" fill="#111"%s>%s</text>\n' % (LX + 36, ly + 4, ' font-weight="bold"' if marked else "", esc(name)))
    p("</g>\n")
    for i, line in enumerate(c.noteline):
        p('<text class="note" x="16" y="%d" font-size="11" fill="#555">%s</text>\n' % (B + 68 + 16 * i, esc(line)))
    p("</svg>\n")


def bars_chart(c, rows):
    """One bar per label, ours marked, the published figure beside it."""
    bars, seen, values = [], set(), []
    for nr, line in rows:
        f = line.split("\t")
        if not 2 <= len(f) <= 4:
            raise Bad(f"line {nr}: expected 2 to 4 tab-separated fields (label, MiB[, published MiB[, all alive]]), got {len(f)}")
        if f[0] == "":
            raise Bad(f"line {nr}: empty label")
        if not MIB.match(f[1]) or float(f[1]) <= 0:
            raise Bad(f'line {nr}: MiB must be a number > 0, got "{f[1]}"')
        pub = f[2] if len(f) >= 3 and f[2] != "-" else ""
        alive = f[3] if len(f) == 4 else "-"
        if alive not in ("-", "yes", "no"):
            raise Bad(f'line {nr}: all alive must be yes, no or -, got "{alive}"')
        if pub != "" and (not MIB.match(pub) or float(pub) <= 0):
            raise Bad(f'line {nr}: a published MiB must be a number > 0 or -, got "{pub}"')
        if f[0] in seen:
            raise Bad(f"line {nr}: a second bar for {f[0]}")
        seen.add(f[0])
        bars.append({"label": f[0], "mib": f[1], "pub": pub, "alive": alive})
        values += [float(f[1])] + ([float(pub)] if pub else [])
    if not bars:
        raise Bad("no bars to draw")
    npub = sum(1 for b in bars if b["pub"])
    nnot = sum(1 for b in bars if b["alive"] == "no")
    longest = max(width(b["label"]) for b in bars)
    c.scale(min(values), max(values))
    # On a log axis a bar twice as long is many times as large: each bar says its ratio to ours.
    ours = next((float(b["mib"]) for b in bars if c.marked(b["label"])), 0)
    widest = 0
    for b in bars:
        b["value"] = b["mib"] + ("" if b["pub"] == "" else f" here, {b['pub']} published")
        if c.ylog and ours > 0 and not c.marked(b["label"]):
            b["ratio"] = float(b["mib"]) / ours
            b["value"] += (", %.0f × ours" if b["ratio"] >= 10 else ", %.1f × ours") % b["ratio"]
        if b["alive"] == "no":
            b["value"] += ", not all alive"
        widest = max(widest, width(b["value"]))
    # Labels right-aligned left of the bars; the value right of each bar, inside the page.
    L = 16 + int(longest * 12 * CW + 0.5) + 10
    R = L + 520
    W = max(R + 16 + int(widest * 12 * CW + 0.5), 760)
    nsub = c.subtitle_lines(int((W - 2 * 16) / (12 * CW)))
    T = 30 + 18 * nsub + 24 + (20 if npub or nnot else 0)
    ROW = 22
    B = T + ROW * len(bars) + 8
    nn = c.notes(W)
    H = B + 52 + (10 + 16 * nn if nn else 0) + 8

    def bx(v):
        """The x of MiB v; a log axis starts at its lowest decade, a linear one at 0."""
        return L + c.frac(v) * (R - L)

    p = c.p
    c.page(W, H, c.title)
    if nnot:
        p('<defs><pattern id="not-alive" width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)"><rect width="6" height="6" fill="#dde3ea"/><line x1="0" y1="0" x2="0" y2="6" stroke="#9ab" stroke-width="3"/></pattern></defs>\n')
    if npub or nnot:
        p('<g class="key" fill="#111"><rect x="%d" y="%d" width="14" height="10" fill="#9ab"/><text x="%d" y="%d">measured here</text>' % (L, T - 22, L + 20, T - 13))
        kx = L + 136
        if npub:
            p('<polygon points="%d,%d %d,%d %d,%d %d,%d" fill="#ffffff" stroke="#111" stroke-width="1.5"/><text x="%d" y="%d">published</text>'
              % (kx, T - 23, kx + 6, T - 17, kx, T - 11, kx - 6, T - 17, kx + 14, T - 13))
            kx += 110
        if nnot:
            p('<rect x="%d" y="%d" width="14" height="10" fill="url(#not-alive)"/><text x="%d" y="%d">not all N alive at once: not a measure of N waiting tasks</text>' % (kx - 6, T - 22, kx + 14, T - 13))
        p("</g>\n")
    ticks = [10.0 ** e for e in range(c.ylo, c.yhi + 1)] if c.ylog else None
    # Grid and MiB ticks along the bottom.
    p('<g class="grid" stroke="#e4e4e4" stroke-width="1">\n')
    for v in (ticks if c.ylog else c.linear_ticks(c.step)):
        p('<line x1="%.1f" y1="%d" x2="%.1f" y2="%d"/>\n' % (bx(v), T, bx(v), B))
    p("</g>\n")
    p('<g class="axes" stroke="#333" stroke-width="1" fill="none">\n')
    p('<polyline points="%d,%d %d,%d %d,%d"/>\n' % (L, T, L, B, R, B))
    if c.ylog:
        for e in range(c.ylo, c.yhi + 1):
            p('<line x1="%.1f" y1="%d" x2="%.1f" y2="%d"/>\n' % (bx(10.0 ** e), B, bx(10.0 ** e), B + 6))
            if e < c.yhi:
                for i in range(2, 10):
                    p('<line x1="%.1f" y1="%d" x2="%.1f" y2="%d"/>\n' % (bx(i * 10.0 ** e), B, bx(i * 10.0 ** e), B + 3))
    else:
        for v in c.linear_ticks(0):
            p('<line x1="%.1f" y1="%d" x2="%.1f" y2="%d"/>\n' % (bx(v), B, bx(v), B + 6))
    p("</g>\n")
    p('<g class="tick-labels" fill="#333">\n')
    for v in (ticks if c.ylog else c.linear_ticks(0)):
        p('<text class="xtick" x="%.1f" y="%d" text-anchor="middle">%s</text>\n' % (bx(v), B + 20, num(v)))
    p("</g>\n")
    p('<text x="%.1f" y="%d" text-anchor="middle" fill="#111">%s</text>\n' % ((L + R) / 2, B + 42, c.ylabel_text()))

    # One row per bar: the label, the bar, its value, and the diamond of the published figure.
    for k, b in enumerate(bars):
        y = T + 4 + ROW * k
        mid = y + (ROW - 8) / 2
        marked = c.marked(b["label"])
        x0, x1 = bx(10.0 ** c.ylo if c.ylog else 0), bx(float(b["mib"]))
        p('<g class="bar" data-label="%s" data-mib="%s" data-published="%s" data-alive="%s" data-ratio="%s" data-x="%.1f" data-w="%.1f"%s>'
          % (esc(b["label"]), b["mib"], b["pub"] or "-", b["alive"], "%.2f" % b["ratio"] if "ratio" in b else "-", x0, x1 - x0,
             ' data-marked="yes"' if marked else ""))
        p('<text x="%d" y="%.1f" text-anchor="end" fill="#111"%s>%s</text>' % (L - 8, mid + 4, ' font-weight="bold"' if marked else "", esc(b["label"])))
        p('<rect x="%.1f" y="%d" width="%.1f" height="%d" fill="%s"/>'
          % (x0, y, x1 - x0, ROW - 8, "#d62728" if marked else "url(#not-alive)" if b["alive"] == "no" else "#9ab"))
        # The value right of the bar, or of the diamond where that lies further right.
        tx = x1
        if b["pub"]:
            px = bx(float(b["pub"]))
            tx = max(tx, px + 6)
        # Each figure says what it is: measured, published, ratio, all alive or not.
        p('<text class="value" x="%.1f" y="%.1f" fill="#333"%s>%s</text>' % (tx + 4, mid + 4, ' font-weight="bold"' if marked else "", esc(b["value"])))
        if b["pub"]:
            p('<polygon class="published" points="%.1f,%.1f %.1f,%.1f %.1f,%.1f %.1f,%.1f" fill="#ffffff" stroke="#111" stroke-width="1.5"/>'
              % (px, mid - 6, px + 6, mid, px, mid + 6, px - 6, mid))
        p("<title>%s: %s MiB%s</title></g>\n" % (esc(b["label"]), b["mib"], "" if not b["pub"] else f", published {b['pub']} MiB"))
    for i, line in enumerate(c.noteline):
        p('<text class="note" x="16" y="%d" font-size="11" fill="#555">%s</text>\n' % (B + 62 + 16 * i, esc(line)))
    p("</svg>\n")


def draw(lines, bars, title, subtitle, ylabel, notes, mark, log):
    """The chart of LINES (a point or a bar a line, tab-separated, as the module's docstring says) as SVG text; Bad
    for data it cannot be drawn from."""
    rows = [(nr, line) for nr, line in enumerate(lines, 1) if line.strip(" \t") != ""]
    chart = Chart(title, subtitle, ylabel, notes + "\n", mark, log)
    (bars_chart if bars else lines_chart)(chart, rows)
    return "".join(chart.out)
