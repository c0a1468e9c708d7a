#!/usr/bin/env python3
"""Browser test of the roofline page: roofline-lint --plot=FILE.html on the
seed's kernels, a screenshot in headless Chromium, then checks that the page
rendered: the screenshot is not blank, and every nest's point shows its
verdict colour at the point's place (the SVG sits at the page's top-left
corner, one CSS pixel per SVG unit).

Chromium (Debian's `chromium`) is installed here if missing, idempotently
(apt-get, as root or with passwordless sudo). Exit 77 (ctest's skip code)
with a clear message only when it cannot be installed. The PNG is decoded
with zlib alone (no PIL).

Usage: plot-browser.py --tool build/bin/roofline-lint --kernels kernels
       --out DIR
"""
import argparse, glob, os, re, shutil, struct, subprocess, sys, tempfile, zlib

SKIP = 77
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
         "--no-first-run", "--disable-background-networking",
         "--disable-component-update", "--disable-sync",
         "--force-device-scale-factor=1", "--hide-scrollbars"]
WIDTH, HEIGHT = 1200, 800


def find_chromium():
    for name in ("chromium", "chromium-browser", "google-chrome", "chrome"):
        path = shutil.which(name)
        if path:
            return path
    return None


def install_chromium():
    """apt-get install chromium; returns (path or None, reason)."""
    if not shutil.which("apt-get"):
        return None, "no apt-get on this machine"
    sudo = []
    if os.geteuid() != 0:
        if not shutil.which("sudo") or subprocess.run(
                ["sudo", "-n", "true"], stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL).returncode != 0:
            return None, "not root and no passwordless sudo"
        sudo = ["sudo", "-n"]
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    print("plot-browser: installing chromium (apt-get)", file=sys.stderr)
    log = []
    for cmd in (["apt-get", "install", "-y", "-qq", "chromium"],
                ["apt-get", "update", "-qq"],
                ["apt-get", "install", "-y", "-qq", "chromium"]):
        r = subprocess.run(sudo + cmd, stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, text=True, env=env)
        log.append(r.stdout[-2000:])
        if cmd[1] == "install" and r.returncode == 0 and find_chromium():
            return find_chromium(), "installed"
    return None, "apt-get install chromium failed:\n" + "\n".join(log)


def decode_png(path):
    """(width, height, rows of RGBA tuples' flat bytes) for 8-bit RGB/RGBA."""
    with open(path, "rb") as f:
        data = f.read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("not a PNG")
    pos, idat, width = 8, b"", None
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        pos += 12 + length
        if kind == b"IHDR":
            width, height, depth, color, _, _, interlace = struct.unpack(">IIBBBBB", body)
            if depth != 8 or color not in (2, 6) or interlace:
                raise ValueError(f"unsupported PNG (depth {depth}, colour {color})")
            channels = 3 if color == 2 else 4
        elif kind == b"IDAT":
            idat += body
        elif kind == b"IEND":
            break
    raw = zlib.decompress(idat)
    stride = width * channels
    rows, prev = [], bytearray(stride)
    i = 0
    for _ in range(height):
        ftype = raw[i]
        line = bytearray(raw[i + 1:i + 1 + stride])
        i += 1 + stride
        for x in range(stride):
            a = line[x - channels] if x >= channels else 0
            b = prev[x]
            c = prev[x - channels] if x >= channels else 0
            if ftype == 1:
                line[x] = (line[x] + a) & 255
            elif ftype == 2:
                line[x] = (line[x] + b) & 255
            elif ftype == 3:
                line[x] = (line[x] + (a + b) // 2) & 255
            elif ftype == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(bytes(line))
        prev = line
    return width, height, channels, rows


def pixel(img, x, y):
    w, h, ch, rows = img
    o = x * ch
    return tuple(rows[y][o:o + 3])


def near(p, q, tol=24):
    return all(abs(a - b) <= tol for a, b in zip(p, q))


def hex_rgb(h):
    return tuple(int(h[i:i + 2], 16) for i in (1, 3, 5))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tool", required=True)
    ap.add_argument("--kernels", required=True)
    ap.add_argument("--out", required=True)
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)

    chromium = find_chromium()
    if not chromium:
        chromium, why = install_chromium()
        if not chromium:
            print("SKIPPED: chromium is not installed and could not be installed "
                  f"here: {why}", file=sys.stderr)
            return SKIP

    html = os.path.join(a.out, "roofline.html")
    png = os.path.join(a.out, "roofline.png")
    kernels = sorted(glob.glob(os.path.join(a.kernels, "*.cpp")))
    r = subprocess.run([a.tool, "--no-source", "--plot=" + html] + kernels,
                       stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    if r.returncode != 0:
        print(f"FAIL: roofline-lint exited {r.returncode}: {r.stderr}", file=sys.stderr)
        return 1
    if os.path.exists(png):
        os.remove(png)
    with tempfile.TemporaryDirectory() as profile:
        cmd = [chromium] + FLAGS + ["--user-data-dir=" + profile,
                                    "--screenshot=" + png,
                                    f"--window-size={WIDTH},{HEIGHT}",
                                    "file://" + os.path.abspath(html)]
        try:
            r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               text=True, timeout=120)
        except subprocess.TimeoutExpired:
            print("FAIL: chromium did not finish in 120 s", file=sys.stderr)
            return 1
    if not os.path.exists(png):
        print(f"FAIL: no screenshot (chromium exited {r.returncode}):\n{r.stderr[-3000:]}",
              file=sys.stderr)
        return 1

    img = decode_png(png)
    w, h = img[0], img[1]
    failures = []
    if (w, h) != (WIDTH, HEIGHT):
        failures.append(f"screenshot is {w}x{h}, wanted {WIDTH}x{HEIGHT}")
    # Non-blank: a good share of non-white pixels and many colours.
    colours, ink = set(), 0
    for y in range(0, min(h, 620), 2):
        for x in range(0, min(w, 1000), 2):
            p = pixel(img, x, y)
            colours.add(p)
            ink += p != (255, 255, 255)
    share = ink / ((min(h, 620) // 2) * (min(w, 1000) // 2))
    if share < 0.03 or len(colours) < 50:
        failures.append(f"looks blank: {100 * share:.1f}% ink, {len(colours)} colours")

    # Every nest point, at its SVG position, in its verdict colour.
    page = open(html).read()
    points = re.findall(r'<circle class="nest-point" cx="([\d.]+)" cy="([\d.]+)" '
                        r'r="[\d.]+" fill="(#[0-9a-f]{6})"', page)
    if not points:
        failures.append("the page has no nest points")
    for cx, cy, fill in points:
        x, y, want = int(round(float(cx))), int(round(float(cy))), hex_rgb(fill)
        # The marker's centre, within a pixel (antialiasing at the rim).
        got = [pixel(img, x + dx, y + dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1)]
        if not any(near(p, want) for p in got):
            failures.append(f"point at ({x}, {y}) is {got[4]}, wanted {fill}")
    bounds = set(re.findall(r'data-bound="([a-z-]+)"', page))
    print(f"plot-browser: {len(points)} points ({', '.join(sorted(bounds))}), "
          f"{100 * share:.1f}% ink, {len(colours)} colours; screenshot {png}")
    for f in failures:
        print("FAIL: " + f, file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
