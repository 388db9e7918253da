"""Draw the installable app's icons (src/parlour/web/static/icons/icon-N.png) from the
favicon's idea: a white card with a red heart on green felt. Run once after a change;
the PNGs are committed (the server never draws them)."""

from __future__ import annotations

from pathlib import Path

from PIL import Image, ImageDraw

OUT = Path(__file__).resolve().parents[1] / "src" / "parlour" / "web" / "static" / "icons"
FELT, CARD, HEART = (15, 92, 54), (255, 255, 255), (192, 38, 45)


def icon(size: int) -> Image.Image:
    """The icon at ``size`` px, drawn at 4x and scaled down (smooth edges). The card
    stays inside the middle 80% so a "maskable" crop keeps it whole."""
    big = size * 4
    u = big / 64  # the favicon's 64-unit grid
    img = Image.new("RGB", (big, big), FELT)
    d = ImageDraw.Draw(img)
    d.rounded_rectangle([17 * u, 11 * u, 47 * u, 53 * u], radius=4 * u, fill=CARD)
    cx, cy, r = 32 * u, 30 * u, 5.2 * u  # a heart: two circles and a point
    d.ellipse([cx - 2 * r, cy - r, cx, cy + r], fill=HEART)
    d.ellipse([cx, cy - r, cx + 2 * r, cy + r], fill=HEART)
    d.polygon([(cx - 1.93 * r, cy + 0.37 * r), (cx + 1.93 * r, cy + 0.37 * r),
               (cx, cy + 2.6 * r)], fill=HEART)
    return img.resize((size, size), Image.LANCZOS)


if __name__ == "__main__":
    OUT.mkdir(parents=True, exist_ok=True)
    for n in (192, 512):
        icon(n).save(OUT / f"icon-{n}.png", optimize=True)
        print(OUT / f"icon-{n}.png")
