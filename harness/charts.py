"""A chart as one standalone SVG file (draw() gives its text): lines or bars, MiB on a log scale when the values span
more than two decades or when asked, the series or bars whose names begin with MARK (ours among the peers) marked:
thicker, filled, bold. Every marker and bar carries its data (data-series, data-n and data-mib; data-label, data-mib
and data-published), the numbers exactly as given, so a test can read the chart back.

Lines: a line with markers per series over N on a log x axis, the series in the order they first appear; a point is
(series, N, MiB). Bars: a horizontal bar per runtime, in their order from the top; a bar is (label, MiB, published MiB,
all alive[, ours]): "-" for no published figure (else a hollow diamond on the bar's row, named in its value), all
alive "no" where the bar's tasks were not all alive at once (hatched), and ours the label of the marked bar its
ratio is to ("-": none), else the one marked bar. On a log axis each bar but ours gives its ratio. MiB are text, as
given."""

import math
import re

PALETTE = ["#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#17becf", "#7f7f7f", "#bcbd22"]
FONT = "-apple-system, BlinkMacSystemFont, &quot;Segoe UI&quot;, Helvetica, Arial, sans-serif"
CW = 0.55  # a generous average glyph width, in em (sans-serif text measures about 0.48): nothing here measures text
# Markers 2 to 4 (0 is a circle, 1 a square): a diamond, a triangle up, a triangle down, as offsets from the centre.
POLYGONS = (((0, -6.5), (6.5, 0), (0, 6.5), (-6.5, 0)), ((0, -6.5), (5.5, 4), (-5.5, 4)),
            ((0, 6.5), (5.5, -4), (-5.5, -4)))


class Bad(Exception):
    """Figures the chart cannot be drawn from (none, a second point at one N, a size of 0 on a log axis): one line,
    which the section gives in the chart's place."""


def check(ok, what):
    if not ok:
        raise Bad(what)


def esc(s):
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")


def span(lo, hi):
    """The decade at or below LO and the one at or above HI (1000 is its own decade)."""
    return math.floor(math.log10(lo) + 1e-9), math.ceil(math.log10(hi) - 1e-9)


def decades(lo, hi):
    """The marks of a log axis from decade LO to HI as (value, length): a long one at each decade, short ones at 2 to 9
    times it."""
    for e in range(lo, hi + 1):
        yield 10.0 ** e, 6
        if e < hi:
            yield from ((i * 10.0 ** e, 3) for i in range(2, 10))


def count_label(e):
    """10^e as a tick label, in K, M or G from 1000 on."""
    at = next((at for at in (9, 6, 3) if e >= at), 0)
    return f"{10 ** (e - at)}" + {9: "G", 6: "M", 3: "K", 0: ""}[at]


def wrap(text, chars, sep):
    """TEXT split at SEP into lines of at most CHARS characters (a longer piece keeps its own line), SEP kept at the
    end of a broken line."""
    lines, line = [], ""
    # At " ", as the charts have always broken them: at runs of spaces, tabs and newlines, none at either end.
    words = re.split(r"[ \t\n]+", text.strip(" \t\n")) if sep == " " else text.split(sep)
    for w in words if text.strip(" \t\n") else []:
        if line != "" and len(line) + len(sep) + len(w) > chars:
            lines.append(line + ("" if sep == " " else sep))
            line = w
        else:
            line = w if line == "" else line + sep + w
    if line != "":
        lines.append(line)
    return lines


def marker(shape, x, y):
    """One of five shapes centred on x,y, of sizes that let each show round another."""
    if shape == 0:
        return '<circle cx="%.1f" cy="%.1f" r="5"/>' % (x, y)
    if shape == 1:
        return '<rect x="%.1f" y="%.1f" width="7" height="7"/>' % (x - 3.5, y - 3.5)
    return '<polygon points="%s"/>' % " ".join("%.1f,%.1f" % (x + dx, y + dy) for dx, dy in POLYGONS[shape - 2])


class Chart:
    def __init__(self, title, subtitle, ylabel, notes, mark, log):
        self.title, self.subtitle, self.ylabel, self.notes = title, subtitle, ylabel, notes
        self.mark, self.force_log, self.out = mark, log, []

    def marked(self, name):
        return self.mark != "" and name.startswith(self.mark)

    def scale(self, lo, hi):
        """The MiB axis for values from lo to hi, and its ticks: log, whole decades ylo..yhi, when they span more than
        two decades or it is asked for; else linear from 0 to ymax in steps of step."""
        self.ylog = self.force_log or hi / lo > 100
        self.axis_label = esc(self.ylabel + (", log scale" if self.ylog else ""))
        if self.ylog:
            self.ylo, yhi = span(lo, hi)
            self.yhi = max(yhi, self.ylo + 1)
            self.ticks = [10.0 ** e for e in range(self.ylo, self.yhi + 1)]
        else:
            mag = 10.0 ** math.floor(math.log10(hi / 5) + 1e-9)
            f = hi / 5 / mag
            self.step = (1 if f <= 1 else 2 if f <= 2 else 2.5 if f <= 2.5 else 5 if f <= 5 else 10) * mag
            self.ymax = math.ceil(hi / self.step - 1e-9) * self.step
            self.ticks = [0]
            while self.ticks[-1] + self.step <= self.ymax + self.step / 1e6:
                self.ticks.append(self.ticks[-1] + self.step)

    def frac(self, v):
        """Where MiB v lies along the axis, from 0 to 1."""
        return (math.log10(v) - self.ylo) / (self.yhi - self.ylo) if self.ylog else v / self.ymax

    def mib_axis(self, pos):
        """The MiB axis as frame() takes it, POS placing a value: a grid line at each tick but a linear axis's 0."""
        marks = decades(self.ylo, self.yhi) if self.ylog else ((v, 6) for v in self.ticks)
        return ([pos(v) for v in self.ticks[0 if self.ylog else 1:]], [(pos(v), size) for v, size in marks],
                [(pos(v), ("%.6f" % v).rstrip("0").rstrip(".")) for v in self.ticks])

    def page(self, w, top, height, below):
        """The page, W wide or as wide as its title: the svg element, its tooltip title, an opaque background
        (GitHub shows SVG images on a dark page in dark mode), the title and the subtitle wrapped to the page. The
        plot, HEIGHT high, starts TOP under the subtitle, and the notes BELOW + 10 under the plot: gives the plot's
        top and bottom."""
        w = max(w, 2 * 16 + int(len(self.title) * 18 * CW + 0.5))  # the title on one line, inside the page
        self.sub = wrap(self.subtitle, int((w - 2 * 16) / (12 * CW)), " · ") if self.subtitle else []
        self.noteline = [line for note in self.notes.split("\n") if note
                         for line in wrap(note, int((w - 2 * 16) / (11 * CW)), " ")]
        t = 30 + 18 * len(self.sub) + top
        b = t + height
        h = b + below + (10 + 16 * len(self.noteline) if self.noteline else 0) + 8
        self.notes_at = b + below + 10
        self.out += ['<?xml version="1.0" encoding="UTF-8"?>\n',
                     f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}"',
                     f' font-family="{FONT}" font-size="12" data-y-scale="{"log" if self.ylog else "linear"}">\n',
                     f"<title>{esc(self.title + (' — ' + self.subtitle if self.sub else ''))}</title>\n",
                     '<rect width="100%" height="100%" fill="#ffffff"/>\n',
                     f'<text x="16" y="30" font-size="18" font-weight="bold" fill="#111">{esc(self.title)}</text>\n']
        self.out += [f'<text x="16" y="{30 + 18 * i}" fill="#444">{esc(s)}</text>\n' for i, s in enumerate(self.sub, 1)]
        return t, b

    def frame(self, box, xaxis, yaxis=((), (), ())):
        """The grid, the axes of the plot BOX (left, top, right, bottom) with their marks, and the tick labels; an axis
        as its grid lines' positions, its marks as (position, length) and its labels as (position, text)."""
        (L, T, R, B), (xgrid, xmarks, xlabels), (ygrid, ymarks, ylabels) = box, xaxis, yaxis
        vline, hline = '<line x1="%.1f" y1="%d" x2="%.1f" y2="%d"/>\n', '<line x1="%d" y1="%.1f" x2="%d" y2="%.1f"/>\n'
        self.out += ['<g class="grid" stroke="#e4e4e4" stroke-width="1">\n', *(vline % (x, T, x, B) for x in xgrid),
                     *(hline % (L, y, R, y) for y in ygrid), "</g>\n",
                     '<g class="axes" stroke="#333" stroke-width="1" fill="none">\n',
                     '<polyline points="%d,%d %d,%d %d,%d"/>\n' % (L, T, L, B, R, B),
                     *(vline % (x, B, x, B + n) for x, n in xmarks), *(hline % (L - n, y, L, y) for y, n in ymarks),
                     '</g>\n<g class="tick-labels" fill="#333">\n',
                     *('<text class="xtick" x="%.1f" y="%d" text-anchor="middle">%s</text>\n' % (x, B + 20, text)
                       for x, text in xlabels),
                     *('<text class="ytick" x="%d" y="%.1f" text-anchor="end">%s</text>\n' % (L - 9, y + 4, text)
                       for y, text in ylabels), "</g>\n"]


def lines_chart(c, rows):
    """One line per series, through its markers, on a log axis of N."""
    points_of = {}
    for s, n, m in rows:
        check(float(m) > 0, f"{s} at N={n}: a max RSS of {m} MiB")
        check(n not in points_of.setdefault(s, {}), f"a second point for {s} at N={n}")
        points_of[s][n] = m
    if not points_of:
        raise Bad("no points to draw")
    allp = [pt for pts in points_of.values() for pt in pts.items()]
    # x: whole decades around the data (one each side when all points share one decade).
    xlo, xhi = span(min(n for n, _ in allp), max(n for n, _ in allp))
    if xhi == xlo:
        xlo, xhi = xlo - 1, xhi + 1
    c.scale(min(float(m) for _, m in allp), max(float(m) for _, m in allp))
    # The plot, then the legend to its right, outside the data; under them the axis label, then the notes. The plot
    # is 380 high, or as high as the legend beside it (22 a series) when that is more.
    L, R, PAD = 78, 78 + 580, 14
    LX = R + 28
    W = max(LX + 36 + int(max(len(s) for s in points_of) * 12 * CW + 0.5) + 20, 760)
    p = c.out.append
    T, B = c.page(W, 30, max(22 * len(points_of) + 16, 380), 58)

    def xpos(n):
        return L + PAD + (math.log10(n) - xlo) / (xhi - xlo) * (R - L - 2 * PAD)

    def ypos(v):
        pad = PAD if c.ylog else 0
        return B - pad - c.frac(v) * (B - T - PAD - pad)

    def style(k):
        """Series K's colour and shape, the shapes one on each time the colours start over: 50 series, 50 styles."""
        return PALETTE[(k - 1) % len(PALETTE)], (k - 1 + (k - 1) // len(PALETTE)) % 5

    xdec = range(xlo, xhi + 1)
    c.frame((L, T, R, B), ([xpos(10.0 ** e) for e in xdec], [(xpos(v), n) for v, n in decades(xlo, xhi)],
                           [(xpos(10.0 ** e), count_label(e)) for e in xdec]), c.mib_axis(ypos))
    p('<text x="%.1f" y="%d" text-anchor="middle" fill="#111">tasks N (log scale)</text>\n' % ((L + R) / 2, B + 42))
    p('<text transform="translate(20,%.1f) rotate(-90)" text-anchor="middle" fill="#111">%s</text>\n'
      % ((T + B) / 2, c.axis_label))

    # One group per series: its line, then its markers in increasing N. Markers are hollow and of five shapes, so
    # series that share a point (at N = 1 they all do) still show through each other. A marked series is drawn last,
    # on top, with a thicker line and filled markers.
    for k, name in sorted(enumerate(points_of, 1), key=lambda kn: c.marked(kn[1])):
        marked, (col, shape), s = c.marked(name), style(k), esc(name)
        xy = [(n, m, xpos(n), ypos(float(m))) for n, m in sorted(points_of[name].items())]
        p('<g id="series-%d" fill="%s" stroke="%s"%s>\n' % (k, col, col, ' data-marked="yes"' if marked else ""))
        p('<polyline class="series" data-series="%s" fill="none" stroke-width="%s" stroke-linejoin="round" points="%s"'
          '/>\n' % (s, "4" if marked else "2", " ".join("%.1f,%.1f" % (x, y) for _, _, x, y in xy)))
        for n, m, x, y in xy:
            p('<g class="point" data-series="%s" data-n="%d" data-mib="%s" data-x="%.1f" data-y="%.1f" fill="%s"'
              ' stroke-width="1.5">%s<title>%s: N=%d, %s MiB</title></g>\n'
              % (s, n, m, x, y, col if marked else "#ffffff", marker(shape, x, y), s, n, m))
        p("</g>\n")

    # The legend, right of the plot, one entry per series in input order.
    p('<g class="legend">\n')
    for k, name in enumerate(points_of, 1):
        (col, shape), ly, marked = style(k), T + 8 + 22 * (k - 1), c.marked(name)
        p('<g fill="%s" stroke="%s"><line x1="%d" y1="%d" x2="%d" y2="%d" stroke-width="%s"/><g fill="%s" stroke-width='
          '"1.5">%s</g></g><text x="%d" y="%d" fill="#111"%s>%s</text>\n'
          % (col, col, LX, ly, LX + 28, ly, "4" if marked else "2", col if marked else "#ffffff",
             marker(shape, LX + 14, ly), LX + 36, ly + 4, ' font-weight="bold"' if marked else "", esc(name)))
    p("</g>\n")


def bars_chart(c, rows):
    """One bar per label, ours marked, the published figure beside it."""
    bars = []
    for label, mib, pub, alive, *vs in rows:
        pub = "" if pub == "-" else pub
        check(float(mib) > 0 and (pub == "" or float(pub) > 0), f"{label}: a max RSS of {mib} MiB ({pub} published)")
        check(all(b["label"] != label for b in bars), f"a second bar for {label}")
        bars.append({"label": label, "mib": mib, "pub": pub, "alive": alive, "ratio": "-", "vs": vs})
    if not bars:
        raise Bad("no bars to draw")
    npub, nnot = any(b["pub"] for b in bars), any(b["alive"] == "no" for b in bars)
    values = [float(v) for b in bars for v in (b["mib"], b["pub"]) if v]
    c.scale(min(values), max(values))
    # On a log axis a bar twice as long is many times as large: each bar says its ratio to ours, the ours it names
    # where ours has several bars (one a thread count), so that like is set against like.
    mib_of = {b["label"]: float(b["mib"]) for b in bars if c.marked(b["label"])}
    first = next(iter(mib_of.values()), 0)
    for b in bars:
        b["value"] = b["mib"] + (b["pub"] and f" here, {b['pub']} published")
        ours = mib_of.get(b["vs"][0], 0) if b["vs"] else first
        if c.ylog and ours > 0 and not c.marked(b["label"]):
            ratio = float(b["mib"]) / ours
            b["ratio"] = "%.2f" % ratio
            b["value"] += (", %.0f × ours" if ratio >= 10 else ", %.1f × ours") % ratio
        b["value"] += ", not all alive" if b["alive"] == "no" else ""
    # Labels right-aligned left of the bars, the value right of each bar, inside the page; a key above them when there
    # is a published figure or a hatched bar.
    L = 16 + int(max(len(b["label"]) for b in bars) * 12 * CW + 0.5) + 10
    R, ROW = L + 520, 22
    W = max(R + 16 + int(max(len(b["value"]) for b in bars) * 12 * CW + 0.5), 760)
    T, B = c.page(W, 24 + (20 if npub or nnot else 0), ROW * len(bars) + 8, 52)

    def bx(v):
        return L + c.frac(v) * (R - L)

    p = c.out.append
    if nnot:
        p('<defs><pattern id="not-alive" width="6" height="6" patternUnits="userSpaceOnUse" '
          'patternTransform="rotate(45)"><rect width="6" height="6" fill="#dde3ea"/>'
          '<line x1="0" y1="0" x2="0" y2="6" stroke="#9ab" stroke-width="3"/></pattern></defs>\n')
    if npub or nnot:
        p('<g class="key" fill="#111"><rect x="%d" y="%d" width="14" height="10" fill="#9ab"/><text x="%d" y="%d">'
          'measured here</text>' % (L, T - 22, L + 20, T - 13))
        kx = L + 136
        if npub:
            p('<polygon points="%d,%d %d,%d %d,%d %d,%d" fill="#ffffff" stroke="#111" stroke-width="1.5"/><text x="%d" '
              'y="%d">published</text>' % (kx, T - 23, kx + 6, T - 17, kx, T - 11, kx - 6, T - 17, kx + 14, T - 13))
            kx += 110
        if nnot:
            p('<rect x="%d" y="%d" width="14" height="10" fill="url(#not-alive)"/><text x="%d" y="%d">not all N alive'
              ' at once: not a measure of N waiting tasks</text>' % (kx - 6, T - 22, kx + 14, T - 13))
        p("</g>\n")
    c.frame((L, T, R, B), c.mib_axis(bx))
    p('<text x="%.1f" y="%d" text-anchor="middle" fill="#111">%s</text>\n' % ((L + R) / 2, B + 42, c.axis_label))

    # One row per bar: the label, the bar, its value (each figure saying what it is: measured, published, ratio, all
    # alive or not), and the diamond of the published figure.
    for k, b in enumerate(bars):
        y = T + 4 + ROW * k
        mid = y + (ROW - 8) / 2
        bold = ' font-weight="bold"' if c.marked(b["label"]) else ""
        x0, x1 = bx(10.0 ** c.ylo if c.ylog else 0), bx(float(b["mib"]))  # from the lowest decade, or 0
        p('<g class="bar" data-label="%s" data-mib="%s" data-published="%s" data-alive="%s" data-ratio="%s"'
          ' data-x="%.1f" data-w="%.1f"%s>' % (esc(b["label"]), b["mib"], b["pub"] or "-", b["alive"], b["ratio"], x0,
                                               x1 - x0, ' data-marked="yes"' if bold else ""))
        p('<text x="%d" y="%.1f" text-anchor="end" fill="#111"%s>%s</text>' % (L - 8, mid + 4, bold, esc(b["label"])))
        p('<rect x="%.1f" y="%d" width="%.1f" height="%d" fill="%s"/>'
          % (x0, y, x1 - x0, ROW - 8, "#d62728" if bold else "url(#not-alive)" if b["alive"] == "no" else "#9ab"))
        # The value right of the bar, or of the diamond where that lies further right.
        px = bx(float(b["pub"])) if b["pub"] else 0
        tx = max(x1, px + 6) if b["pub"] else x1
        p('<text class="value" x="%.1f" y="%.1f" fill="#333"%s>%s</text>' % (tx + 4, mid + 4, bold, esc(b["value"])))
        if b["pub"]:
            p('<polygon class="published" points="%s" fill="#ffffff" stroke="#111" stroke-width="1.5"/>'
              % " ".join("%.1f,%.1f" % (px + dx, mid + dy) for dx, dy in ((0, -6), (6, 0), (0, 6), (-6, 0))))
        p("<title>%s: %s MiB%s</title></g>\n" % (esc(b["label"]), b["mib"], b["pub"] and f", published {b['pub']} MiB"))


def draw(rows, bars, title, subtitle, ylabel, notes, mark, log):
    """The chart of ROWS (points, or bars when BARS, as the module's docstring says) as SVG text; Bad for figures it
    cannot be drawn from."""
    chart = Chart(title, subtitle, ylabel, notes + "\n", mark, log)
    (bars_chart if bars else lines_chart)(chart, rows)
    chart.out += ['<text class="note" x="16" y="%d" font-size="11" fill="#555">%s</text>\n'
                  % (chart.notes_at + 16 * i, esc(line)) for i, line in enumerate(chart.noteline)]
    return "".join(chart.out) + "</svg>\n"
