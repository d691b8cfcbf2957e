#!/bin/sh
# charts/svg.sh: draws a chart as one standalone SVG file, of one of two kinds.
#   Lines (the default): task count on a log x axis, MiB on y, one line with markers per series.
#     Input: one point a line, three tab-separated fields: series, N (whole number >= 1), MiB (> 0).
#     Series keep the order they first appear in; each is drawn in increasing N.
#   Bars (-b): one horizontal bar per runtime, MiB along x, in input order from the top.
#     Input: one bar a line, two to four tab-separated fields: label, MiB (> 0), a published MiB
#     ("-" or nothing for none), drawn as a hollow diamond on the bar's row and named in its value,
#     and "no" where the bar's tasks were not all alive at once (hatched, and said on the bar).
#     On a log axis each bar but ours also says its ratio to ours (the first bar -m marks).
# MiB are on a log scale when the values span more than two decades, or with -l. -m marks the
# series or bars whose names begin with MARK (ours among the peers): thicker, filled, bold.
# Run:   charts/svg.sh [-b] [-t TITLE] [-s SUBTITLE] [-y Y_LABEL] [-n NOTE]... [-m MARK] [-l] [FILE] >chart.svg
# POSIX sh, awk and nothing else, so run.sh can draw on any machine it runs on. Every marker and bar
# carries its data (data-series, data-n and data-mib; data-label, data-mib and data-published),
# the numbers exactly as given, so a test can read the chart back.

usage() {
  echo "usage: charts/svg.sh [-b] [-t TITLE] [-s SUBTITLE] [-y Y_LABEL] [-n NOTE]... [-m MARK] [-l] [FILE] >chart.svg" >&2
  exit 2
}

SVG_TITLE='' SVG_SUBTITLE='' SVG_YLABEL='MiB' SVG_NOTES='' SVG_MARK='' SVG_LOG='' bars=''
while getopts bt:s:y:n:m:l opt; do
  case $opt in
    t) SVG_TITLE=$OPTARG ;;
    s) SVG_SUBTITLE=$OPTARG ;;
    y) SVG_YLABEL=$OPTARG ;;
    n) SVG_NOTES="$SVG_NOTES$OPTARG
" ;;
    m) SVG_MARK=$OPTARG ;;
    l) SVG_LOG=yes ;;
    b) bars=yes ;;
    *) usage ;;
  esac
done
shift $((OPTIND - 1))
[ $# -le 1 ] || usage
# Text goes through the environment: awk -v would turn backslashes in a CPU name into escapes.
export SVG_TITLE SVG_SUBTITLE SVG_YLABEL SVG_NOTES SVG_MARK SVG_LOG

# The awk both kinds share: escaping, numbers, scales, wrapping, the page's head.
common='
function die(msg) { print "svg.sh: " msg | "cat 1>&2"; failed = 1; exit 2 }
function esc(s) {
  gsub(/&/, "\\&amp;", s); gsub(/</, "\\&lt;", s); gsub(/>/, "\\&gt;", s); gsub(/"/, "\\&quot;", s)
  return s
}
function log10(v) { return log(v) / log(10) }
function floor_(v) { return v == int(v) || v > 0 ? int(v) : int(v) - 1 }
function ceil_(v) { return -floor_(-v) }
# The decade at or below v, and the one at or above (1000 is its own decade despite rounding).
function dec_lo(v) { return floor_(log10(v) + 1e-9) }
function dec_hi(v) { return ceil_(log10(v) - 1e-9) }
function pow10(e,   r) { r = 1; while (e > 0) { r *= 10; e-- } while (e < 0) { r /= 10; e++ } return r }
# A number as a tick label: no trailing zeros, no exponent.
function num(v,   s) { s = sprintf("%.6f", v); sub(/0+$/, "", s); sub(/[.]$/, "", s); return s }
function count_label(e) {
  if (e >= 9) return pow10(e - 9) "G"
  if (e >= 6) return pow10(e - 6) "M"
  if (e >= 3) return pow10(e - 3) "K"
  return pow10(e)
}
# wrap(text, chars, sep): splits text at sep into lines[1..k] of at most chars characters (a
# longer piece keeps its own line), keeping sep at the end of a broken line.
function wrap(text, chars, sep,   w, nw, i, line, k) {
  nw = split(text, w, sep); k = 0; line = ""
  for (i = 1; i <= nw; i++) {
    if (line != "" && length(line) + length(sep) + length(w[i]) > chars) { lines[++k] = line (sep == " " ? "" : sep); line = w[i] }
    else line = line == "" ? w[i] : line sep w[i]
  }
  if (line != "") lines[++k] = line
  return k
}
# page(W, H, title, nsub): the svg element, its tooltip title, an opaque background (GitHub shows
# SVG images on a dark page in dark mode), the title and the wrapped subtitle (sub_[1..nsub]).
function page(W, H, title, nsub,   i) {
  printf "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
  printf "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\"", W, H, W, H
  printf " font-family=\"%s\" font-size=\"12\" data-y-scale=\"%s\">\n", font, ylog ? "log" : "linear"
  printf "<title>%s</title>\n", esc(title (nsub ? " — " ENVIRON["SVG_SUBTITLE"] : ""))
  printf "<rect width=\"100%%\" height=\"100%%\" fill=\"#ffffff\"/>\n"
  printf "<text x=\"16\" y=\"30\" font-size=\"18\" font-weight=\"bold\" fill=\"#111\">%s</text>\n", esc(title)
  for (i = 1; i <= nsub; i++)
    printf "<text x=\"16\" y=\"%d\" fill=\"#444\">%s</text>\n", 30 + 18 * i, esc(sub_[i])
}
# subtitle(chars): the subtitle wrapped at its " · " into sub_[1..k]; returns k.
function subtitle(chars,   i, k) {
  k = ENVIRON["SVG_SUBTITLE"] == "" ? 0 : wrap(ENVIRON["SVG_SUBTITLE"], chars, " · ")
  for (i = 1; i <= k; i++) sub_[i] = lines[i]
  return k
}
# scale(lo, hi): the MiB axis for values from lo to hi: log, whole decades ylo..yhi, when they span
# more than two decades or -l asks; else linear from 0 to ymax in steps of step.
function scale(lo, hi,   raw, mag, f) {
  ylog = ENVIRON["SVG_LOG"] != "" || hi / lo > 100
  if (ylog) {
    ylo = dec_lo(lo); yhi = dec_hi(hi)
    if (yhi == ylo) yhi++
  } else {
    raw = hi / 5; mag = pow10(floor_(log10(raw) + 1e-9)); f = raw / mag
    step = (f <= 1 ? 1 : f <= 2 ? 2 : f <= 2.5 ? 2.5 : f <= 5 ? 5 : 10) * mag
    ymax = ceil_(hi / step - 1e-9) * step
  }
}
# frac(v): where MiB v lies along the axis, from 0 to 1.
function frac(v) { return ylog ? (log10(v) - ylo) / (yhi - ylo) : v / ymax }
# notes(W): the notes, each wrapped to the width of the page, in noteline[1..nn].
function notes(W,   i, j, k, nnotes, note) {
  nn = 0
  nnotes = split(ENVIRON["SVG_NOTES"], note, "\n")
  for (i = 1; i <= nnotes; i++) {
    if (note[i] == "") continue
    k = wrap(note[i], int((W - 2 * 16) / (11 * CW)), " ")
    for (j = 1; j <= k; j++) noteline[++nn] = lines[j]
  }
}
BEGIN {
  palette = "#1f77b4 #d62728 #2ca02c #ff7f0e #9467bd #8c564b #e377c2 #17becf #7f7f7f #bcbd22"
  ncol = split(palette, color, " ")
  font = "-apple-system, BlinkMacSystemFont, &quot;Segoe UI&quot;, Helvetica, Arial, sans-serif"
  CW = 0.55   # a generous average glyph width, in em (sans-serif text measures about 0.48): awk cannot measure text
}
'

# Lines: one per series, through its markers, on a log axis of N.
lines_chart='
function xpos(n) { return L + PAD + (log10(n) - xlo) / (xhi - xlo) * (R - L - 2 * PAD) }
function ypos(v) {
  if (ylog) return B - PAD - (log10(v) - ylo) / (yhi - ylo) * (B - T - 2 * PAD)
  return B - v / ymax * (B - T - PAD)
}
# marker(shape, x, y): one of five shapes centred on x,y, of sizes that let each show round another.
function marker(shape, x, y) {
  if (shape == 0) return sprintf("<circle cx=\"%.1f\" cy=\"%.1f\" r=\"5\"/>", x, y)
  if (shape == 1) return sprintf("<rect x=\"%.1f\" y=\"%.1f\" width=\"7\" height=\"7\"/>", x - 3.5, y - 3.5)
  if (shape == 2) return sprintf("<polygon points=\"%.1f,%.1f %.1f,%.1f %.1f,%.1f %.1f,%.1f\"/>", x, y - 6.5, x + 6.5, y, x, y + 6.5, x - 6.5, y)
  if (shape == 3) return sprintf("<polygon points=\"%.1f,%.1f %.1f,%.1f %.1f,%.1f\"/>", x, y - 6.5, x + 5.5, y + 4, x - 5.5, y + 4)
  return sprintf("<polygon points=\"%.1f,%.1f %.1f,%.1f %.1f,%.1f\"/>", x, y + 6.5, x + 5.5, y - 4, x - 5.5, y - 4)
}

# shape_of(k): the marker of series k. Shapes move on by one each time the colours start over, so no two
# of the first 50 series share both colour and shape.
function shape_of(k) { return (k - 1 + int((k - 1) / ncol)) % 5 }

/^[ \t]*$/ { next }
{
  if (NF != 3) die("line " NR ": expected 3 tab-separated fields (series, N, MiB), got " NF)
  s = $1; n = $2; m = $3
  if (s == "") die("line " NR ": empty series name")
  if (n !~ /^[0-9]+$/ || n + 0 < 1) die("line " NR ": N must be a whole number >= 1, got \"" n "\"")
  if (m !~ /^[0-9]*[.]?[0-9]+$/ || m + 0 <= 0) die("line " NR ": MiB must be a number > 0, got \"" m "\"")
  if (!(s in sid)) { ns++; sid[s] = ns; name[ns] = s; cnt[ns] = 0 }
  k = sid[s]
  if ((k, n + 0) in seen) die("line " NR ": a second point for " s " at N=" n)
  seen[k, n + 0] = 1
  c = ++cnt[k]; pn[k, c] = n + 0; pm[k, c] = m
  if (np++ == 0) { nmin = nmax = n + 0; mmin = mmax = m + 0 }
  if (n + 0 < nmin) nmin = n + 0; if (n + 0 > nmax) nmax = n + 0
  if (m + 0 < mmin) mmin = m + 0; if (m + 0 > mmax) mmax = m + 0
}

END {
  if (failed) exit 2
  if (np == 0) die("no points to draw")
  # Each series in increasing N (insertion sort: a handful of points).
  for (k = 1; k <= ns; k++)
    for (i = 2; i <= cnt[k]; i++)
      for (j = i; j > 1 && pn[k, j - 1] > pn[k, j]; j--) {
        t = pn[k, j]; pn[k, j] = pn[k, j - 1]; pn[k, j - 1] = t
        t = pm[k, j]; pm[k, j] = pm[k, j - 1]; pm[k, j - 1] = t
      }

  # Horizontal layout: plot, then the legend to its right, outside the data.
  longest = 0
  for (k = 1; k <= ns; k++) if (length(name[k]) > longest) longest = length(name[k])
  L = 78; PW = 580; PAD = 14
  R = L + PW
  LX = R + 28
  W = LX + 36 + int(longest * 12 * CW + 0.5) + 20
  if (W < 760) W = 760
  chars = int((W - 2 * 16) / (12 * CW))

  # Vertical layout: title, wrapped subtitle, plot, axis label, wrapped notes.
  title = ENVIRON["SVG_TITLE"]
  nsub = subtitle(chars)
  T = 30 + 18 * nsub + 30
  # The plot is 380 high, or as high as the legend beside it (22 a series) when that is more.
  B = T + (22 * ns + 16 > 380 ? 22 * ns + 16 : 380)
  notes(W)
  H = B + 58 + (nn ? 10 + 16 * nn : 0) + 8

  # x: whole decades around the data (one each side when all points share one decade).
  xlo = dec_lo(nmin); xhi = dec_hi(nmax)
  if (xhi == xlo) { xlo--; xhi++ }
  # y: linear from 0 unless the values span more than two decades (or -l asks for log).
  scale(mmin, mmax)

  page(W, H, title, nsub)

  # Grid, ticks and tick labels.
  printf "<g class=\"grid\" stroke=\"#e4e4e4\" stroke-width=\"1\">\n"
  for (e = xlo; e <= xhi; e++) printf "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\"/>\n", xpos(pow10(e)), T, xpos(pow10(e)), B
  if (ylog) {
    for (e = ylo; e <= yhi; e++) printf "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\"/>\n", L, ypos(pow10(e)), R, ypos(pow10(e))
  } else {
    for (v = step; v <= ymax + step / 1e6; v += step) printf "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\"/>\n", L, ypos(v), R, ypos(v)
  }
  printf "</g>\n"
  printf "<g class=\"axes\" stroke=\"#333\" stroke-width=\"1\" fill=\"none\">\n"
  printf "<polyline points=\"%d,%d %d,%d %d,%d\"/>\n", L, T, L, B, R, B
  for (e = xlo; e <= xhi; e++) {
    printf "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\"/>\n", xpos(pow10(e)), B, xpos(pow10(e)), B + 6
    if (e < xhi) for (i = 2; i <= 9; i++) printf "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\"/>\n", xpos(i * pow10(e)), B, xpos(i * pow10(e)), B + 3
  }
  if (ylog) {
    for (e = ylo; e <= yhi; e++) {
      printf "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\"/>\n", L - 6, ypos(pow10(e)), L, ypos(pow10(e))
      if (e < yhi) for (i = 2; i <= 9; i++) printf "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\"/>\n", L - 3, ypos(i * pow10(e)), L, ypos(i * pow10(e))
    }
  } else {
    for (v = 0; v <= ymax + step / 1e6; v += step) printf "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\"/>\n", L - 6, ypos(v), L, ypos(v)
  }
  printf "</g>\n"
  printf "<g class=\"tick-labels\" fill=\"#333\">\n"
  for (e = xlo; e <= xhi; e++) printf "<text class=\"xtick\" x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%s</text>\n", xpos(pow10(e)), B + 20, count_label(e)
  if (ylog) {
    for (e = ylo; e <= yhi; e++) printf "<text class=\"ytick\" x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%s</text>\n", L - 9, ypos(pow10(e)) + 4, num(pow10(e))
  } else {
    for (v = 0; v <= ymax + step / 1e6; v += step) printf "<text class=\"ytick\" x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%s</text>\n", L - 9, ypos(v) + 4, num(v)
  }
  printf "</g>\n"
  printf "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\" fill=\"#111\">tasks N (log scale)</text>\n", (L + R) / 2, B + 42
  printf "<text transform=\"translate(20,%.1f) rotate(-90)\" text-anchor=\"middle\" fill=\"#111\">%s</text>\n", (T + B) / 2, esc(ENVIRON["SVG_YLABEL"] (ylog ? ", log scale" : ""))

  # One group per series: its line, then its markers in increasing N. Markers are hollow and of
  # five shapes, so series that share a point (at N = 1 they all do) still show through each other.
  # A marked series is drawn last, on top, with a thicker line and filled markers.
  mark = ENVIRON["SVG_MARK"]
  for (k = 1; k <= ns; k++) marked[k] = mark != "" && index(name[k], mark) == 1
  for (pass = 0; pass <= 1; pass++) for (k = 1; k <= ns; k++) {
    if (marked[k] != pass) continue
    col = color[(k - 1) % ncol + 1]; shape = shape_of(k); s = esc(name[k])
    printf "<g id=\"series-%d\" fill=\"%s\" stroke=\"%s\"%s>\n", k, col, col, marked[k] ? " data-marked=\"yes\"" : ""
    printf "<polyline class=\"series\" data-series=\"%s\" fill=\"none\" stroke-width=\"%s\" stroke-linejoin=\"round\" points=\"", s, marked[k] ? "4" : "2"
    for (i = 1; i <= cnt[k]; i++) printf "%s%.1f,%.1f", (i > 1 ? " " : ""), xpos(pn[k, i]), ypos(pm[k, i])
    printf "\"/>\n"
    for (i = 1; i <= cnt[k]; i++)
      printf "<g class=\"point\" data-series=\"%s\" data-n=\"%d\" data-mib=\"%s\" data-x=\"%.1f\" data-y=\"%.1f\" fill=\"%s\" stroke-width=\"1.5\">%s<title>%s: N=%d, %s MiB</title></g>\n", s, pn[k, i], pm[k, i], xpos(pn[k, i]), ypos(pm[k, i]), marked[k] ? col : "#ffffff", marker(shape, xpos(pn[k, i]), ypos(pm[k, i])), s, pn[k, i], pm[k, i]
    printf "</g>\n"
  }

  # The legend, right of the plot, one entry per series in input order.
  printf "<g class=\"legend\">\n"
  for (k = 1; k <= ns; k++) {
    col = color[(k - 1) % ncol + 1]; ly = T + 8 + 22 * (k - 1)
    printf "<g fill=\"%s\" stroke=\"%s\"><line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke-width=\"%s\"/>", col, col, LX, ly, LX + 28, ly, marked[k] ? "4" : "2"
    printf "<g fill=\"%s\" stroke-width=\"1.5\">%s</g></g>", marked[k] ? col : "#ffffff", marker(shape_of(k), LX + 14, ly)
    printf "<text x=\"%d\" y=\"%d\" fill=\"#111\"%s>%s</text>\n", LX + 36, ly + 4, marked[k] ? " font-weight=\"bold\"" : "", esc(name[k])
  }
  printf "</g>\n"
  for (i = 1; i <= nn; i++)
    printf "<text class=\"note\" x=\"16\" y=\"%d\" font-size=\"11\" fill=\"#555\">%s</text>\n", B + 68 + 16 * (i - 1), esc(noteline[i])
  printf "</svg>\n"
}'

# Bars: one per label, ours marked, the published figure beside it.
bars_chart='
/^[ \t]*$/ { next }
{
  if (NF < 2 || NF > 4) die("line " NR ": expected 2 to 4 tab-separated fields (label, MiB[, published MiB[, all alive]]), got " NF)
  if ($1 == "") die("line " NR ": empty label")
  if ($2 !~ /^[0-9]*[.]?[0-9]+$/ || $2 + 0 <= 0) die("line " NR ": MiB must be a number > 0, got \"" $2 "\"")
  p = NF >= 3 ? $3 : ""
  if (p == "-") p = ""
  a = NF == 4 ? $4 : "-"
  if (a != "-" && a != "yes" && a != "no") die("line " NR ": all alive must be yes, no or -, got \"" a "\"")
  alive[nb + 1] = a; if (a == "no") nnot++
  if (p != "" && (p !~ /^[0-9]*[.]?[0-9]+$/ || p + 0 <= 0)) die("line " NR ": a published MiB must be a number > 0 or -, got \"" p "\"")
  if ($1 in seen) die("line " NR ": a second bar for " $1)
  seen[$1] = 1
  nb++; label[nb] = $1; mib[nb] = $2; pub[nb] = p
  for (i = 2; i <= (p == "" ? 2 : 3); i++) {
    v = $i + 0
    if (nv++ == 0) lo = hi = v
    if (v < lo) lo = v; if (v > hi) hi = v
  }
  if (p != "") npub++
}
# bx(v): the x of MiB v; a log axis starts at its lowest decade, a linear one at 0.
function bx(v) { return L + frac(v) * (R - L) }
END {
  if (failed) exit 2
  if (nb == 0) die("no bars to draw")
  mark = ENVIRON["SVG_MARK"]
  longest = 0
  for (k = 1; k <= nb; k++) if (length(label[k]) > longest) longest = length(label[k])
  scale(lo, hi)
  # On a log axis a bar twice as long is many times as large: each bar says its ratio to ours.
  for (k = 1; k <= nb && !ours; k++) if (mark != "" && index(label[k], mark) == 1) ours = mib[k]
  for (k = 1; k <= nb; k++) {
    value[k] = mib[k] (pub[k] == "" ? "" : " here, " pub[k] " published")
    if (ylog && ours > 0 && !(mark != "" && index(label[k], mark) == 1)) {
      ratio[k] = mib[k] / ours; value[k] = value[k] sprintf(ratio[k] >= 10 ? ", %.0f × ours" : ", %.1f × ours", ratio[k])
    }
    if (alive[k] == "no") value[k] = value[k] ", not all alive"
    if (length(value[k]) > widest) widest = length(value[k])
  }
  # Labels right-aligned left of the bars; the value right of each bar, inside the page.
  L = 16 + int(longest * 12 * CW + 0.5) + 10; PW = 520
  R = L + PW
  W = R + 16 + int(widest * 12 * CW + 0.5)
  if (W < 760) W = 760
  nsub = subtitle(int((W - 2 * 16) / (12 * CW)))
  T = 30 + 18 * nsub + 24 + (npub || nnot ? 20 : 0)
  ROW = 22
  B = T + ROW * nb + 8
  notes(W)
  H = B + 52 + (nn ? 10 + 16 * nn : 0) + 8

  page(W, H, ENVIRON["SVG_TITLE"], nsub)
  if (nnot) printf "<defs><pattern id=\"not-alive\" width=\"6\" height=\"6\" patternUnits=\"userSpaceOnUse\" patternTransform=\"rotate(45)\"><rect width=\"6\" height=\"6\" fill=\"#dde3ea\"/><line x1=\"0\" y1=\"0\" x2=\"0\" y2=\"6\" stroke=\"#9ab\" stroke-width=\"3\"/></pattern></defs>\n"
  if (npub || nnot) {
    printf "<g class=\"key\" fill=\"#111\"><rect x=\"%d\" y=\"%d\" width=\"14\" height=\"10\" fill=\"#9ab\"/><text x=\"%d\" y=\"%d\">measured here</text>", L, T - 22, L + 20, T - 13
    kx = L + 136
    if (npub) {
      printf "<polygon points=\"%d,%d %d,%d %d,%d %d,%d\" fill=\"#ffffff\" stroke=\"#111\" stroke-width=\"1.5\"/><text x=\"%d\" y=\"%d\">published</text>", kx, T - 23, kx + 6, T - 17, kx, T - 11, kx - 6, T - 17, kx + 14, T - 13
      kx += 110
    }
    if (nnot) printf "<rect x=\"%d\" y=\"%d\" width=\"14\" height=\"10\" fill=\"url(#not-alive)\"/><text x=\"%d\" y=\"%d\">not all N alive at once: not a measure of N waiting tasks</text>", kx - 6, T - 22, kx + 14, T - 13
    printf "</g>\n"
  }
  # Grid and MiB ticks along the bottom.
  printf "<g class=\"grid\" stroke=\"#e4e4e4\" stroke-width=\"1\">\n"
  if (ylog) { for (e = ylo; e <= yhi; e++) printf "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\"/>\n", bx(pow10(e)), T, bx(pow10(e)), B }
  else { for (v = step; v <= ymax + step / 1e6; v += step) printf "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\"/>\n", bx(v), T, bx(v), B }
  printf "</g>\n"
  printf "<g class=\"axes\" stroke=\"#333\" stroke-width=\"1\" fill=\"none\">\n"
  printf "<polyline points=\"%d,%d %d,%d %d,%d\"/>\n", L, T, L, B, R, B
  if (ylog) {
    for (e = ylo; e <= yhi; e++) {
      printf "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\"/>\n", bx(pow10(e)), B, bx(pow10(e)), B + 6
      if (e < yhi) for (i = 2; i <= 9; i++) printf "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\"/>\n", bx(i * pow10(e)), B, bx(i * pow10(e)), B + 3
    }
  } else {
    for (v = 0; v <= ymax + step / 1e6; v += step) printf "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\"/>\n", bx(v), B, bx(v), B + 6
  }
  printf "</g>\n"
  printf "<g class=\"tick-labels\" fill=\"#333\">\n"
  if (ylog) { for (e = ylo; e <= yhi; e++) printf "<text class=\"xtick\" x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%s</text>\n", bx(pow10(e)), B + 20, num(pow10(e)) }
  else { for (v = 0; v <= ymax + step / 1e6; v += step) printf "<text class=\"xtick\" x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%s</text>\n", bx(v), B + 20, num(v) }
  printf "</g>\n"
  printf "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\" fill=\"#111\">%s</text>\n", (L + R) / 2, B + 42, esc(ENVIRON["SVG_YLABEL"] (ylog ? ", log scale" : ""))

  # One row per bar: the label, the bar, its value, and the diamond of the published figure.
  for (k = 1; k <= nb; k++) {
    y = T + 4 + ROW * (k - 1); mid = y + (ROW - 8) / 2
    marked = mark != "" && index(label[k], mark) == 1
    x0 = bx(ylog ? pow10(ylo) : 0); x1 = bx(mib[k])
    printf "<g class=\"bar\" data-label=\"%s\" data-mib=\"%s\" data-published=\"%s\" data-alive=\"%s\" data-ratio=\"%s\" data-x=\"%.1f\" data-w=\"%.1f\"%s>", esc(label[k]), mib[k], pub[k] == "" ? "-" : pub[k], alive[k], k in ratio ? sprintf("%.2f", ratio[k]) : "-", x0, x1 - x0, marked ? " data-marked=\"yes\"" : ""
    printf "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\" fill=\"#111\"%s>%s</text>", L - 8, mid + 4, marked ? " font-weight=\"bold\"" : "", esc(label[k])
    printf "<rect x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"%d\" fill=\"%s\"/>", x0, y, x1 - x0, ROW - 8, marked ? "#d62728" : alive[k] == "no" ? "url(#not-alive)" : "#9ab"
    # The value right of the bar, or of the diamond where that lies further right.
    tx = x1
    if (pub[k] != "") { px = bx(pub[k]); if (px + 6 > tx) tx = px + 6 }
    # Each figure says what it is: measured, published, ratio, all alive or not.
    printf "<text class=\"value\" x=\"%.1f\" y=\"%.1f\" fill=\"#333\"%s>%s</text>", tx + 4, mid + 4, marked ? " font-weight=\"bold\"" : "", esc(value[k])
    if (pub[k] != "") {
      printf "<polygon class=\"published\" points=\"%.1f,%.1f %.1f,%.1f %.1f,%.1f %.1f,%.1f\" fill=\"#ffffff\" stroke=\"#111\" stroke-width=\"1.5\"/>", px, mid - 6, px + 6, mid, px, mid + 6, px - 6, mid
    }
    printf "<title>%s: %s MiB%s</title></g>\n", esc(label[k]), mib[k], pub[k] == "" ? "" : ", published " pub[k] " MiB"
  }
  for (i = 1; i <= nn; i++)
    printf "<text class=\"note\" x=\"16\" y=\"%d\" font-size=\"11\" fill=\"#555\">%s</text>\n", B + 62 + 16 * (i - 1), esc(noteline[i])
  printf "</svg>\n"
}'

if [ -n "$bars" ]; then exec awk -F '\t' "$common$bars_chart" "$@"; fi
exec awk -F '\t' "$common$lines_chart" "$@"
