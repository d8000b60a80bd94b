"""What a Raspberry Pi adds to the emulated table's time: the costs ``banker bench --table`` runs the
emulated chips and buses with, so that its figures are a Pi's and not this machine's.

The emulated MFRC522s, SPI bus, I²C bus and OLED panels already take the time the chips and the wires
take (frames on the air, the card's answer, the timer, each bit at the bus's clock). What they do not
know is the Pi: how long a system call to ``spidev`` or ``i2c-dev`` takes from Python, how late a short
sleep wakes, how much slower the Pi runs this Python, and when the panel's own scan shows what was
written. :class:`PiCosts` holds those five costs; :data:`ZERO_2_W` are a Raspberry Pi Zero 2 W's, from
the published measurements below; ``banker bench --calibrate`` measures them on a real Pi so that the
first person with one can confirm or replace them (``banker bench --table --spi-message-us …``).

Sources of the defaults (docs/performance.md, "The Pi model", says the same):

- **SPI.** "The Linux SPI driver tops out at about 20k calls per second on all but the Pi3 where it
  reaches about 70k calls per second" (joan, the author of pigpio, raspberrypi.stackexchange.com
  question 45607): about 14 µs a call from C on a Pi 3. The same question measured 70 µs a call
  and, with 128 transfers in one ``SPI_IOC_MESSAGE``, 45,000 transfers a second (22 µs each) on a
  Pi 1. From Python, py-spidev's ``xfer2`` builds a list and two buffers around the same ioctl
  (spidev_module.c); python-periphery's ``SPI.transfer`` took 219 µs for 7 bytes on a CM4
  (vsergeev/python-periphery#56). The Zero 2 W runs its Cortex-A53 at 1 GHz against the Pi 3's
  1.2 GHz. Default: 60 µs a system call (``spi_message_s``) and 10 µs for each further transfer in
  one message (``spi_segment_s``), all of it CPU: for transfers this short the Pi's SPI driver polls
  instead of sleeping (drivers/spi/spi-bcm2835.c, ``polling_limit_us``).
- **Sleeps.** Linux lets a sleeping thread wake up to its timer slack late, 50 µs by default
  (prctl(2), PR_SET_TIMERSLACK), and a Pi adds its scheduling latency; short ``time.sleep`` calls
  from Python on a Pi 4 overran by 35–100 µs each ("average overheads between 70 and 200
  microseconds for two sleeps", Roy Longbottom, Raspberry Pi Pico, Pi 4 and Pi 400 Python and C bit
  banging benchmarks). Default: 70 µs late, 20 µs of the kernel's CPU a sleep.
- **I²C.** One ``i2c_rdwr`` is one ioctl to i2c-dev (smbus2), then the bcm2835 I²C driver starts
  the transfer and refills its 16-byte FIFO from interrupts while the bytes go out: the bytes take
  their 9 clocks each (the emulated bus counts them); the system call and the start take about what
  an SPI call does. Default: 50 µs a transaction.
- **CPU.** A Zero 2 W runs "almost like a Raspberry Pi 3B+" (Hackaday, "The Pi Zero 2 W is the most
  efficient Pi", 2021); a Cortex-A53 at 1 GHz runs Python about ten times slower than a current x86
  server core. Default: 10, the factor the program's own CPU time on this machine is multiplied by;
  ``banker bench --calibrate`` times the same work on the Pi (``cpu_workload_ms``), and
  ``--pi-workload-ms`` turns that into the factor for the machine the bench runs on.
- **The panel's scan.** "Ffrm = Fosc / (D × K × No. of Mux)", K = phase 1 + phase 2 + 50 DCLKs
  (SSD1306 datasheet, section 8.3), Fosc 370 kHz typical at the reset setting of D5h (section 13,
  DC characteristics); luma.oled sends D5h 0x80 (D = 1), D9h 0xF1 (phase 1 = 1, phase 2 = 15) and a
  multiplex of 64: 370 kHz / (1 × 66 × 64) = 87.6 Hz, 11.4 ms a pass (:func:`ssd1306_frame_s`).
  The SH1106's datasheet sets its frame rate by the same divide ratio, clocks per row and oscillator;
  luma sets its oscillator 50 % faster (D5h 0xF0), so 11.4 ms is on the slow side for it.
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from typing import Any

SSD1306_FOSC_HZ = 370_000
"""The SSD1306's display oscillator, typical, at D5h A[7:4] = 1000b (datasheet section 13)."""


def ssd1306_frame_s(*, fosc_hz: float = SSD1306_FOSC_HZ, divide: int = 1, phase1: int = 1, phase2: int = 15,
                    mux: int = 64) -> float:
    """The SSD1306's frame period: D × K × mux / Fosc with K = phase 1 + phase 2 + 50 (datasheet 8.3).
    The defaults are what luma.oled sets (D5h 0x80, D9h 0xF1, A8h 0x3F)."""
    return divide * (phase1 + phase2 + 50) * mux / fosc_hz


@dataclass(frozen=True)
class PiCosts:
    """What a Pi adds to the emulated table's time (see the module doc for where each default comes from)."""

    spi_message_s: float = 60e-6
    """One system call to spidev from Python (``xfer2``, or one ``SPI_IOC_MESSAGE``), besides the bits."""
    spi_segment_s: float = 10e-6
    """Each further transfer (chip-select frame) in one ``SPI_IOC_MESSAGE``."""
    sleep_overshoot_s: float = 70e-6
    """How much later than asked a short sleep wakes."""
    sleep_cpu_s: float = 20e-6
    """The kernel's CPU for one sleep."""
    i2c_transaction_s: float = 50e-6
    """One I²C transaction from Python (``i2c_rdwr``), besides its bytes on the wire."""
    cpu_factor: float = 10.0
    """How many times longer the Pi runs the program's Python than this machine."""
    panel_scan_s: float = ssd1306_frame_s()
    """The OLED's frame period: a byte written into its RAM is seen when the scan next drives its row."""

    def describe(self) -> str:
        """One line of the costs, as ``banker bench --table`` prints them."""
        return (f"SPI {self.spi_message_s * 1e6:g} µs a call + {self.spi_segment_s * 1e6:g} µs a further transfer, "
                f"sleeps {self.sleep_overshoot_s * 1e6:g} µs late ({self.sleep_cpu_s * 1e6:g} µs CPU), "
                f"I²C {self.i2c_transaction_s * 1e6:g} µs a call, CPU ×{self.cpu_factor:.3g}, "
                f"panel scan {self.panel_scan_s * 1e3:.1f} ms")

    def with_options(self, **values: Any) -> PiCosts:
        """These costs with some replaced (``None`` values are left as they are).

        Raises:
            ValueError: an unknown cost, or a negative one (the CPU factor must be positive).
        """
        known = {f.name for f in fields(self)}
        chosen = {name: value for name, value in values.items() if value is not None}
        unknown = set(chosen) - known
        if unknown:
            raise ValueError(f"unknown Pi costs {sorted(unknown)}; known: {sorted(known)}")
        for name, value in chosen.items():
            if value < 0 or (name == "cpu_factor" and value <= 0):
                raise ValueError(f"{name} must be positive, not {value}")
        return replace(self, **chosen)


ZERO_2_W = PiCosts()
"""A Raspberry Pi Zero 2 W (the module doc gives the sources)."""
LAPTOP = PiCosts(spi_message_s=20e-6, spi_segment_s=5e-6, sleep_overshoot_s=0.0, sleep_cpu_s=0.0,
                 i2c_transaction_s=0.0, cpu_factor=1.0, panel_scan_s=0.0)
"""How the table was benched before the Pi was modelled: 20 µs a transfer, exact sleeps, this machine's
CPU, no I²C transaction cost and no panel scan (the ``glass_after_*`` figures)."""
