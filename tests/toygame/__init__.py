"""A toy third game that lives only in the tests: three seats, one against two (斗地主's
seating), each dealt eight cards of a 24-card deck; a seat plays one card higher than the
last, or passes; after two passes the last player leads again; the first seat out wins for
its side. It registers with the game registry exactly as 掼蛋 and 双升 do (for the tests that
use it only: ``game.toy_registered``), to show that a game is a registration: `paiju simulate`, `replay --check` and the invariant checker run it
without a line of theirs knowing it."""
