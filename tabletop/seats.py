"""Seats 0–3 in play order; partners 0&2 and 1&3.

下家 (next) = seat+1, 上家 (previous) = seat−1, 对家 (partner) = seat+2, all mod 4. A game
other than the partnership games says who sits where with a ``Seating`` of its own.
"""

import attrs

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


@attrs.frozen
class Seating:
    """Who sits where: ``seats`` in play order (下家 = the next seat), and the sides. A
    partnership game has two sides of two facing seats; a game of one against two has sides
    of one and of two."""

    seats: int = 4
    sides: tuple[tuple[int, ...], ...] = ((0, 2), (1, 3))

    def next(self, seat: int) -> int:
        """下家: the seat that acts after ``seat``."""
        return (seat + 1) % self.seats

    def prev(self, seat: int) -> int:
        """上家: the seat that acts before ``seat``."""
        return (seat - 1) % self.seats

    def side(self, seat: int) -> int:
        """The index of ``seat``'s side."""
        return next(i for i, members in enumerate(self.sides) if seat in members)

    def partners(self, seat: int) -> tuple[int, ...]:
        """The other seats of ``seat``'s side (对家 in a partnership)."""
        return tuple(s for s in self.sides[self.side(seat)] if s != seat)


PARTNERSHIPS = Seating()
"""Four seats, 0 & 2 against 1 & 3: 掼蛋 and 双升."""
