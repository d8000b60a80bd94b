"""The home-screen icons (``static/icon-192.png``, ``static/icon-512.png``): the page's icon.svg, a white
B on the green rounded square, drawn with Pillow from shapes (no font needed).

``python -m webui.icons`` draws them again.
"""

from __future__ import annotations

import sys
from pathlib import Path

from PIL import Image, ImageDraw

STATIC = Path(__file__).parent / "static"
SIZES = (192, 512)
GREEN, WHITE = (27, 94, 32, 255), (255, 255, 255, 255)
SUPERSAMPLE = 4


def icon(size: int) -> Image.Image:
    """The icon at ``size`` × ``size`` pixels, on icon.svg's 32-unit grid (rounded corners of 6 units)."""
    big = size * SUPERSAMPLE
    unit = big / 32
    image = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    draw.rounded_rectangle((0, 0, big - 1, big - 1), radius=6 * unit, fill=GREEN)

    def box(x0: float, y0: float, x1: float, y1: float) -> tuple[float, float, float, float]:
        return (x0 * unit, y0 * unit, x1 * unit, y1 * unit)

    # The bold B: a stem and two bowls, each bowl a white rounded shape with its counter cut out.
    stroke = 3.4
    top, middle, bottom = 8.0, 15.4, 23.0
    left = 10.0
    for y0, y1, right in ((top, middle + stroke / 2, 20.6), (middle - stroke / 2, bottom, 22.0)):
        radius = (y1 - y0) / 2
        draw.rounded_rectangle(box(left, y0, right, y1), radius=radius * unit, fill=WHITE)
        inner = box(left + stroke, y0 + stroke, right - stroke, y1 - stroke)
        draw.rounded_rectangle(inner, radius=max(0.1, radius - stroke) * unit, fill=GREEN)
    draw.rectangle(box(left, top, left + stroke, bottom), fill=WHITE)
    return image.resize((size, size), Image.Resampling.LANCZOS)


def main(out: Path = STATIC) -> list[Path]:
    written = []
    for size in SIZES:
        target = out / f"icon-{size}.png"
        icon(size).save(target, optimize=True)
        written.append(target)
    return written


if __name__ == "__main__":
    for path in main(Path(sys.argv[1]) if len(sys.argv) > 1 else STATIC):
        print(path)
