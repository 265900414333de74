"""Errors with one-line messages that say exactly what is wrong."""


class PaijuError(Exception):
    """Base of every error paiju raises on purpose; the CLI prints its message alone."""


class CardParseError(PaijuError, ValueError):
    """A card or rank text that does not parse; the message names the bad token."""


class IllegalAction(PaijuError, ValueError):
    """An action the rules forbid in strict mode; the message says why."""


class LogError(PaijuError, ValueError):
    """A log that cannot be read; the message names the line."""


class OptionError(PaijuError, ValueError):
    """A rules option or command-line option that does not exist or has a bad value."""


class RulingRefused(IllegalAction):
    """A ruling's table effect (or sanction) the table cannot carry out — wrong phase, cards
    not where the effect says, a kind the game does not know; the message says why."""
