"""Seats 0–3 in play order; partners 0&2 and 1&3.

下家 (next) = seat+1, 上家 (previous) = seat−1, 对家 (partner) = seat+2, all mod 4.
"""

NUM_SEATS = 4
SEATS = (0, 1, 2, 3)


def next_seat(seat: int) -> int:
    """下家: the seat that acts after ``seat``."""
    return (seat + 1) % NUM_SEATS


def prev_seat(seat: int) -> int:
    """上家: the seat that acts before ``seat``."""
    return (seat - 1) % NUM_SEATS


def partner(seat: int) -> int:
    """对家."""
    return (seat + 2) % NUM_SEATS


def team(seat: int) -> int:
    """Team 0 = seats {0, 2}, team 1 = seats {1, 3}."""
    return seat % 2


def team_seats(team_index: int) -> tuple[int, int]:
    return (team_index, team_index + 2)


def seats_from(start: int) -> tuple[int, int, int, int]:
    """The four seats in play order starting with ``start``."""
    return tuple((start + i) % NUM_SEATS for i in range(NUM_SEATS))  # type: ignore[return-value]  # NUM_SEATS (4) seats

REFEREE = "referee"
"""The referee's seat: ``to_act`` while an irregularity awaits a ruling, as OpenSpiel names
its chance player. Whoever fills it (the rulebook referee, a trainee, a script) answers with
a ``tabletop.rulings.Ruling`` or ``Unresolved``; never a number, so it cannot index a seat."""
