"""The table's wiring as data, and the wiring diagram (hardware/wiring.svg) drawn from it.

``python -m hardware.wiring`` rewrites the SVG. A test checks that the SVG, the README's wiring
table and the pins the code uses by default all agree with :data:`WIRES`.
"""

from __future__ import annotations

import base64
import io
from dataclasses import dataclass
from html import escape
from pathlib import Path

# fmt: off
HEADER: dict[int, str] = {
    1: "3V3", 2: "5V", 3: "GPIO2 SDA", 4: "5V", 5: "GPIO3 SCL", 6: "GND", 7: "GPIO4", 8: "GPIO14 TXD",
    9: "GND", 10: "GPIO15 RXD", 11: "GPIO17", 12: "GPIO18", 13: "GPIO27", 14: "GND", 15: "GPIO22",
    16: "GPIO23", 17: "3V3", 18: "GPIO24", 19: "GPIO10 MOSI", 20: "GND", 21: "GPIO9 MISO", 22: "GPIO25",
    23: "GPIO11 SCLK", 24: "GPIO8 CE0", 25: "GND", 26: "GPIO7 CE1", 27: "ID_SD", 28: "ID_SC", 29: "GPIO5",
    30: "GND", 31: "GPIO6", 32: "GPIO12", 33: "GPIO13", 34: "GND", 35: "GPIO19", 36: "GPIO16", 37: "GPIO26",
    38: "GPIO20", 39: "GND", 40: "GPIO21",
}
# fmt: on
"""The Raspberry Pi's 40-pin header (all models since the B+): physical pin -> name."""

GROUP_COLOURS = {
    "3.3 V": "#d62728",
    "5 V": "#ff7f0e",
    "GND": "#222222",
    "SPI0 readers": "#1f77b4",
    "SPI1 readers (optional)": "#9467bd",
    "reader reset": "#17becf",
    "I²C display": "#2ca02c",
    "buttons": "#b8a000",
    "buzzer": "#8c564b",
    "LEDs": "#e377c2",
}


@dataclass(frozen=True)
class Wire:
    """One wire: from a pin of a device to a pin of the Pi's header."""

    device: str
    device_pin: str
    header_pin: int
    group: str
    note: str = ""


WIRES: tuple[Wire, ...] = (
    # NFC reader 0: SPI0, chip select CE0.
    Wire("NFC reader 0", "SDA (SS)", 24, "SPI0 readers", "chip select CE0"),
    Wire("NFC reader 0", "SCK", 23, "SPI0 readers"),
    Wire("NFC reader 0", "MOSI", 19, "SPI0 readers"),
    Wire("NFC reader 0", "MISO", 21, "SPI0 readers"),
    Wire("NFC reader 0", "IRQ", 0, "SPI0 readers", "not connected"),
    Wire("NFC reader 0", "GND", 6, "GND"),
    Wire("NFC reader 0", "RST", 22, "reader reset", "one pin for all readers"),
    Wire("NFC reader 0", "3.3V", 1, "3.3 V", "never 5 V"),
    # NFC reader 1: SPI0, chip select CE1; SCK/MOSI/MISO/RST shared with reader 0.
    Wire("NFC reader 1", "SDA (SS)", 26, "SPI0 readers", "chip select CE1"),
    Wire("NFC reader 1", "SCK", 23, "SPI0 readers", "shared with reader 0"),
    Wire("NFC reader 1", "MOSI", 19, "SPI0 readers", "shared with reader 0"),
    Wire("NFC reader 1", "MISO", 21, "SPI0 readers", "shared with reader 0"),
    Wire("NFC reader 1", "GND", 20, "GND"),
    Wire("NFC reader 1", "RST", 22, "reader reset", "shared with reader 0"),
    Wire("NFC reader 1", "3.3V", 1, "3.3 V", "shared with reader 0; never 5 V"),
    # Readers 2 and 3 (optional): SPI1 with dtoverlay=spi1-2cs.
    Wire("NFC reader 2", "SDA (SS)", 12, "SPI1 readers (optional)", "SPI1 CE0 (dtoverlay=spi1-2cs)"),
    Wire("NFC reader 3", "SDA (SS)", 11, "SPI1 readers (optional)", "SPI1 CE1 (dtoverlay=spi1-2cs)"),
    Wire("NFC readers 2+3", "SCK", 40, "SPI1 readers (optional)"),
    Wire("NFC readers 2+3", "MOSI", 38, "SPI1 readers (optional)"),
    Wire("NFC readers 2+3", "MISO", 35, "SPI1 readers (optional)"),
    Wire("NFC readers 2+3", "GND", 30, "GND"),
    Wire("NFC readers 2+3", "RST", 22, "reader reset", "shared with readers 0, 1"),
    Wire("NFC readers 2+3", "3.3V", 1, "3.3 V", "shared with readers 0, 1"),
    # Display.
    Wire("OLED display", "GND", 9, "GND"),
    Wire("OLED display", "VCC", 17, "3.3 V"),
    Wire("OLED display", "SCL", 5, "I²C display"),
    Wire("OLED display", "SDA", 3, "I²C display"),
    # Buttons: one leg to the GPIO, the other to GND (internal pull-ups).
    Wire("OK button", "leg 1", 29, "buttons"),
    Wire("Cancel button", "leg 1", 31, "buttons"),
    Wire("Up button", "leg 1", 33, "buttons", "or encoder CLK"),
    Wire("Down button", "leg 1", 37, "buttons", "or encoder DT"),
    Wire("all buttons", "leg 2", 39, "GND", "internal pull-ups: no resistors"),
    # Buzzer and LEDs.
    Wire("buzzer module", "I/O (S)", 32, "buzzer", "high-level trigger (NPN) module only"),
    Wire("buzzer module", "VCC", 2, "5 V", "the only 5 V part"),
    Wire("buzzer module", "GND", 14, "GND"),
    Wire("green LED", "anode, via 330 Ω", 16, "LEDs"),
    Wire("red LED", "anode, via 330 Ω", 18, "LEDs"),
    Wire("both LEDs", "cathode", 25, "GND"),
)
"""Every wire of a fully equipped table. ``header_pin`` 0 means: leave unconnected."""

ENCODER_WIRES: tuple[Wire, ...] = (
    Wire("rotary encoder", "CLK (A)", 33, "buttons", "instead of Up"),
    Wire("rotary encoder", "DT (B)", 37, "buttons", "instead of Down"),
    Wire("rotary encoder", "SW (push)", 29, "buttons", "works as OK"),
    Wire("rotary encoder", "+", 17, "3.3 V", "not 5 V"),
    Wire("rotary encoder", "GND", 34, "GND"),
)
"""The alternative to Up/Down buttons (a KY-040-style module)."""


def gpio_of(header_pin: int) -> int | None:
    """BCM number of a header pin, or ``None`` for power, ground and the ID EEPROM pins."""
    name = HEADER[header_pin]
    return int(name.split()[0][4:]) if name.startswith("GPIO") else None


# Drawing -------------------------------------------------------------------------------------------

WIDTH, HEIGHT = 1220, 790
ROW_Y0, ROW_STEP = 128, 29
PIN_X = {1: 592, 0: 628}  # odd pins left column, even pins right column
BOX_LEFT, BOX_RIGHT = 500, 720
TAG_LEFT_END, TAG_RIGHT_START = 488, 732
TAG_WIDTH = 200
PIN_STROKE = 'stroke="#fff" stroke-width="1.5"'


def _row_y(pin: int) -> int:
    return ROW_Y0 + (pin - 1) // 2 * ROW_STEP


def _tags() -> dict[int, list[Wire]]:
    tags: dict[int, list[Wire]] = {}
    for wire in WIRES + ENCODER_WIRES:
        if wire.header_pin:
            tags.setdefault(wire.header_pin, []).append(wire)
    return tags


def _short(wire: Wire) -> str:
    """How a wire is named on its header tag."""
    pin = wire.device_pin.replace(" (SS)", "").replace(" (S)", "")
    if wire.device.endswith("button"):
        return wire.device
    if wire.device == "all buttons":
        return "buttons, other leg"
    if wire.device.endswith("LED"):
        return f"{wire.device} + via 330 Ω"
    if wire.device == "both LEDs":
        return "LEDs −"
    device = wire.device.replace(" display", "").replace(" module", "").replace("rotary ", "")
    return f"{device} {pin}"


def _tag_text(wires: list[Wire]) -> str:
    readers: set[int] = set()
    reader_pin = ""
    parts: list[str] = []
    for wire in wires:
        if wire.device.startswith("NFC reader"):
            readers.update(int(number) for number in wire.device.split()[-1].split("+"))
            reader_pin = wire.device_pin.replace(" (SS)", "")
            continue
        text = _short(wire)
        if wire in ENCODER_WIRES and len(wires) > 1:
            text = "or " + text
        if text not in parts:
            parts.append(text)
    if readers:
        numbers = sorted(readers)
        if len(numbers) == 1:
            label = f"reader {numbers[0]}"
        elif numbers == list(range(numbers[0], numbers[-1] + 1)) and len(numbers) > 2:
            label = f"readers {numbers[0]}–{numbers[-1]}"
        else:
            label = "readers " + "+".join(str(number) for number in numbers)
        parts.insert(0, f"{label} {reader_pin}")
    return " · ".join(parts)


def _screen_png() -> str:
    from hardware.display import ScreenView, render_view

    image = render_view(
        ScreenView(title="Боб → Анна", lines=("Аренда: Парк-Плейс",), amount="550 тыс.", footer="OK платить  ✕ назад")
    )
    image = image.convert("RGB").resize((256, 128))
    pixels = image.load()
    assert pixels is not None
    for y in range(image.height):
        for x in range(image.width):
            if pixels[x, y] != (0, 0, 0):
                pixels[x, y] = (120, 200, 255)  # the blue-white of a typical OLED
    buffer = io.BytesIO()
    image.save(buffer, format="PNG", optimize=True)
    return base64.b64encode(buffer.getvalue()).decode("ascii")


class _Svg:
    def __init__(self) -> None:
        self.parts: list[str] = []

    def add(self, text: str) -> None:
        self.parts.append(text)

    def text(
        self,
        x: float,
        y: float,
        text: str,
        *,
        size: int = 12,
        anchor: str = "start",
        weight: str = "normal",
        fill: str = "#222",
        style: str = "",
    ) -> None:
        self.add(
            f'<text x="{x}" y="{y}" font-size="{size}" text-anchor="{anchor}" font-weight="{weight}" '
            f'fill="{fill}"{style}>{escape(text)}</text>'
        )


def _device_card(
    svg: _Svg,
    x: int,
    y: int,
    width: int,
    title: str,
    rows: list[tuple[str, str, str]],
    *,
    subtitle: str = "",
    dashed: bool = False,
) -> int:
    """A device with its pins: (pin, where it goes, colour). Returns the height used."""
    height = 34 + (14 if subtitle else 0) + 17 * len(rows)
    dash = ' stroke-dasharray="6 4"' if dashed else ""
    svg.add(f'<rect x="{x}" y="{y}" width="{width}" height="{height}" rx="8" fill="#fafafa" stroke="#777"{dash}/>')
    svg.text(x + 10, y + 20, title, size=14, weight="bold")
    top = y + 30
    if subtitle:
        svg.text(x + 10, top + 6, subtitle, size=11, fill="#555")
        top += 14
    for index, (pin, target, colour) in enumerate(rows):
        row_y = top + 14 + index * 17
        svg.add(f'<circle cx="{x + 16}" cy="{row_y - 4}" r="5" fill="{colour}"/>')
        svg.text(x + 28, row_y, pin, size=12, weight="bold")
        svg.text(x + 112, row_y, target, size=12)
    return height


_CARD_NOTES = {"never 5 V", "not 5 V"}
"""Notes important enough to repeat on the device cards."""


def _where(wire: Wire) -> str:
    if not wire.header_pin:
        return "not connected"
    name = HEADER[wire.header_pin]
    target = f"pin {wire.header_pin} ({name})" if name not in ("GND", "3V3", "5V") else f"pin {wire.header_pin} {name}"
    return target + (f", {wire.note}" if wire.note in _CARD_NOTES else "")


def render_svg() -> str:
    """The wiring diagram as SVG text."""
    svg = _Svg()
    svg.add(
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" viewBox="0 0 {WIDTH} {HEIGHT}" '
        'font-family="DejaVu Sans, Verdana, Arial, sans-serif">'
    )
    svg.add(f'<rect width="{WIDTH}" height="{HEIGHT}" fill="white"/>')
    svg.text(20, 36, "Table banker: wiring", size=24, weight="bold")
    svg.text(
        20,
        60,
        "Raspberry Pi 3/4/5 seen from above, USB and Ethernet at the bottom, header on the right edge. "
        "GPIO numbers are BCM. Everything runs on 3.3 V except the buzzer module.",
        size=13,
        fill="#444",
    )

    # The header.
    top, bottom = _row_y(1) - 22, _row_y(40) + 22
    svg.add(
        f'<rect x="{BOX_LEFT}" y="{top}" width="{BOX_RIGHT - BOX_LEFT}" height="{bottom - top}" rx="10" '
        'fill="#1d4d2b"/>'
    )
    svg.text((BOX_LEFT + BOX_RIGHT) / 2, top - 8, "Raspberry Pi GPIO header", size=13, anchor="middle", weight="bold")
    tags = _tags()
    colour_of = {pin: GROUP_COLOURS[wires[0].group] for pin, wires in tags.items()}
    for pin in range(1, 41):
        x, y = PIN_X[pin % 2], _row_y(pin)
        colour = colour_of.get(pin)
        fill = colour or "#c9c9c9"
        shape = "rect" if pin == 1 else "circle"
        if shape == "rect":
            svg.add(f'<rect x="{x - 9}" y="{y - 9}" width="18" height="18" fill="{fill}" {PIN_STROKE}/>')
        else:
            svg.add(f'<circle cx="{x}" cy="{y}" r="9" fill="{fill}" {PIN_STROKE}/>')
        svg.text(x, y + 3.5, str(pin), size=9, anchor="middle", weight="bold", fill="#fff" if colour else "#333")
        name = HEADER[pin]
        if pin % 2:
            svg.text(x - 16, y + 4, name, size=11, anchor="end", fill="#fff")
        else:
            svg.text(x + 16, y + 4, name, size=11, fill="#fff")
        if pin not in tags:
            continue
        text = _tag_text(tags[pin])
        optional = all("optional" in wire.group or wire.device.startswith("NFC readers 2") for wire in tags[pin])
        dash = ' stroke-dasharray="4 3"' if optional else ""
        if pin % 2:
            svg.add(f'<line x1="{BOX_LEFT}" y1="{y}" x2="{TAG_LEFT_END}" y2="{y}" stroke="{colour}" stroke-width="3"/>')
            svg.add(
                f'<rect x="{TAG_LEFT_END - TAG_WIDTH}" y="{y - 11}" width="{TAG_WIDTH}" height="22" rx="11" '
                f'fill="white" stroke="{colour}" stroke-width="2"{dash}/>'
            )
            svg.text(TAG_LEFT_END - 10, y + 4, text, size=11, anchor="end")
        else:
            svg.add(
                f'<line x1="{BOX_RIGHT}" y1="{y}" x2="{TAG_RIGHT_START}" y2="{y}" stroke="{colour}" stroke-width="3"/>'
            )
            svg.add(
                f'<rect x="{TAG_RIGHT_START}" y="{y - 11}" width="{TAG_WIDTH}" height="22" rx="11" '
                f'fill="white" stroke="{colour}" stroke-width="2"{dash}/>'
            )
            svg.text(TAG_RIGHT_START + 10, y + 4, text, size=11)

    # Devices on the left: the readers.
    group = GROUP_COLOURS
    y = 84
    for reader in ("NFC reader 0", "NFC reader 1"):
        rows = [(w.device_pin, _where(w), group[w.group]) for w in WIRES if w.device == reader]
        subtitle = "RC522 on SPI0 " + ("CE0" if reader.endswith("0") else "CE1, other lines shared")
        y += _device_card(svg, 14, y, 262, reader, rows, subtitle=subtitle) + 12
    rows = [(w.device_pin, _where(w), group[w.group]) for w in WIRES if w.device.startswith("NFC readers 2")]
    selects = [w for w in WIRES if w.device in ("NFC reader 2", "NFC reader 3")]
    rows[:0] = [(f"SDA ({w.device[-1]})", _where(w), group[w.group]) for w in selects]
    _device_card(
        svg, 14, y, 262, "NFC readers 2, 3 (optional)", rows, subtitle="RC522 on SPI1: dtoverlay=spi1-2cs", dashed=True
    )

    # Devices on the right.
    x = 944
    y = 84
    rows = [(w.device_pin, _where(w), group[w.group]) for w in WIRES if w.device == "OLED display"]
    height = _device_card(svg, x, y, 262, "OLED display", rows, subtitle='SH1106 1.3" or SSD1306 0.96", I²C 0x3C')
    svg.add(f'<rect x="{x + 64}" y="{y + height + 6}" width="136" height="72" rx="4" fill="#111"/>')
    svg.add(
        f'<image x="{x + 68}" y="{y + height + 10}" width="128" height="64" '
        f'href="data:image/png;base64,{_screen_png()}" style="image-rendering:pixelated"/>'
    )
    y += height + 90
    rows = [(w.device.split()[0], _where(w), group[w.group]) for w in WIRES if w.group == "buttons"]
    rows.append(("other legs", "pin 39 GND", group["GND"]))
    y += _device_card(svg, x, y, 262, "Buttons", rows, subtitle="push buttons to GND, no resistors") + 12
    rows = [(w.device_pin.split()[0], _where(w), group[w.group]) for w in ENCODER_WIRES]
    y += (
        _device_card(svg, x, y, 262, "or: rotary encoder", rows, subtitle="replaces Up/Down; push = OK", dashed=True)
        + 12
    )
    rows = [(w.device_pin.split()[0], _where(w), group[w.group]) for w in WIRES if w.device == "buzzer module"]
    rows += [(w.device.split()[0], _where(w), group[w.group]) for w in WIRES if w.device.endswith(("LED", "LEDs"))]
    _device_card(svg, x, y, 262, "Buzzer and LEDs", rows, subtitle="high-level-trigger buzzer; LEDs via 330 Ω")

    # Legend.
    legend_y = HEIGHT - 22
    legend_x = 20
    for name, colour in GROUP_COLOURS.items():
        svg.add(f'<rect x="{legend_x}" y="{legend_y - 10}" width="14" height="14" rx="3" fill="{colour}"/>')
        svg.text(legend_x + 19, legend_y + 1, name, size=12)
        legend_x += 34 + int(len(name) * 6.9)
    svg.add("</svg>")
    return "\n".join(svg.parts) + "\n"


def markdown_table(wires: tuple[Wire, ...] = WIRES) -> str:
    """The wiring table of hardware/README.md."""
    lines = ["| Part | Part pin | Pi pin | Pi name | Note |", "|---|---|---|---|---|"]
    for wire in wires:
        pin = str(wire.header_pin) if wire.header_pin else "–"
        name = HEADER[wire.header_pin] if wire.header_pin else "–"
        lines.append(f"| {wire.device} | {wire.device_pin} | {pin} | {name} | {wire.note} |")
    return "\n".join(lines) + "\n"


SVG_PATH = Path(__file__).with_name("wiring.svg")


def main() -> None:
    SVG_PATH.write_text(render_svg(), encoding="utf-8")
    print(f"wrote {SVG_PATH}")


if __name__ == "__main__":
    main()
