"""The card-reading shoe's section of the config (``shoe:``), for a display reading it itself.

Kept beside :mod:`scoreboard.settings.config` (which reads it through :func:`read_shoe`)
like the keypad's section: which shoe, its serial device, the line speed and,
for an Angel Eye, the suit numbering a site may change (docs/shoes.md).

>>> from scoreboard.settings.reader import Reader
>>> read_shoe(Reader("f.yaml"), {"model": "angel-eye", "serial": "/dev/ttyUSB0"}).line_speed
4800
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from scoreboard.settings.reader import Reader, is_text

#: The shoes a display reads, and each one's line speed (docs/shoes.md).
MODELS = {"angel-eye": 4800, "bee-tek": 9600}
BAUD_RANGE = (50, 4_000_000)
SUITS = "SHDC"
"""The four suits an Angel Eye's suit order numbers, each once."""
_KEYS = {"model", "serial", "baud", "suits"}


@dataclass(frozen=True, slots=True)
class ShoeConfig:
    """``model`` (a key of :data:`MODELS`) and ``serial`` (the device path) are None until
    the file or a flag names them; ``baud`` None: the model's; ``suits``: Angel Eye only."""

    model: str | None = None
    serial: str | None = None
    baud: int | None = None
    suits: str | None = None
    """The letters of a ``scoreboard.shoes.SuitOrder`` (S, H, D and C once each, upper case),
    made one only by a display that reads its shoe: the shoe readers stay unimported otherwise."""

    @property
    def line_speed(self) -> int:
        """The baud to open the line at: the configured one, else the model's."""
        return self.baud or MODELS.get(self.model or "", MODELS["angel-eye"])


def read_shoe(reader: Reader, data: Any) -> ShoeConfig:
    """The ``shoe:`` section (None: nothing configured), its mistakes recorded in ``reader``."""
    if data is None:
        return ShoeConfig()
    section = reader.mapping(data, "shoe", _KEYS)
    model = section.get("model")
    if model is not None:
        model = reader.one_of(model, "shoe.model", tuple(MODELS))
    serial = section.get("serial")
    if serial is not None:
        serial = reader.text(serial, "shoe.serial")
        if isinstance(section["serial"], str) and not serial.strip():
            reader.expected("shoe.serial", "the shoe's serial device path", serial)
    baud = section.get("baud")
    if baud is not None:
        baud = reader.integer(baud, "shoe.baud", *BAUD_RANGE)
    return ShoeConfig(model, serial, baud, _suits(reader, section.get("suits"), model))


def _suits(reader: Reader, value: Any, model: str | None) -> str | None:
    if value is None:
        return None
    if model == "bee-tek":  # its lines name their suits
        reader.expected(
            "shoe.suits", "no suit order with model bee-tek (it names its suits)", value
        )
        return None
    text = reader.text(value, "shoe.suits").upper()
    if sorted(text) == sorted(SUITS):
        return text
    if is_text(value):  # a value that is no text is already named
        reader.expected("shoe.suits", "S, H, D and C once each: the suits of numbers 1-4", value)
    return None
