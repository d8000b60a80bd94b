"""The table's physical parts: NFC readers, the OLED, buttons, buzzer and LEDs.

Importing this package touches no hardware and needs no Raspberry Pi: ``mfrc522``, ``RPi.GPIO``,
``spidev``, luma and gpiozero are imported inside the drivers that use them. The firmware opens
everything in one call::

    from hardware import TableConfig, open_table, ScreenView

    with open_table(TableConfig(mode="pi")) as table:
        table.hub.start()
        tap = table.hub.get(timeout=1.0)            # Tap(reader=0, uid=b"...") or None
        table.display.show(ScreenView(title="Park Place", amount="$550", footer="OK pay  ✕ back"))
        event = table.controls.get_event(timeout=0)  # ControlEvent("ok") or None
"""

from hardware.display import ScreenView, render_view
from hardware.errors import ControlsError, DisplayError, HardwareError, NfcReaderError
from hardware.factory import DisplayConfig, ReaderConfig, Table, TableConfig, open_table
from hardware.protocols import BUTTONS, ButtonName, ControlEvent, Controls, Display, TagReader
from hardware.taps import ReaderHealth, Removal, TagReaderHub, Tap

__all__ = [
    "BUTTONS",
    "ButtonName",
    "ControlEvent",
    "Controls",
    "ControlsError",
    "Display",
    "DisplayConfig",
    "DisplayError",
    "HardwareError",
    "NfcReaderError",
    "ReaderConfig",
    "ReaderHealth",
    "Removal",
    "ScreenView",
    "Table",
    "TableConfig",
    "Tap",
    "TagReader",
    "TagReaderHub",
    "open_table",
    "render_view",
]
