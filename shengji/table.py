"""The names other layers read from refereed 双升 (the irregularity vocabulary, the ruling
tables); the table itself lives in ``shengji.refereed``, one module per concept."""

from shengji.refereed.engine import EFFECT_HANDLERS, SANCTION_HANDLERS
from shengji.refereed.state import IRREGULARITIES, TableState

__all__ = ["EFFECT_HANDLERS", "IRREGULARITIES", "SANCTION_HANDLERS", "TableState"]
