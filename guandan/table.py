"""The names other layers read from refereed 掼蛋 (the irregularity vocabulary, the
combination type of the lead option, the ruling tables); the table itself lives in
``guandan.refereed``, one module per concept."""

from guandan.refereed.engine import EFFECT_HANDLERS, SANCTION_HANDLERS
from guandan.refereed.restrictions import kind_key
from guandan.refereed.state import IRREGULARITIES, TableState

__all__ = ["EFFECT_HANDLERS", "IRREGULARITIES", "SANCTION_HANDLERS", "TableState", "kind_key"]
