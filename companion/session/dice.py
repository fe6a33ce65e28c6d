"""A command's dice: what its RNG derives from — the campaign's secret (or the --seed:
companion.history.dice_keys) and its place among the standing commands that change the state."""
from __future__ import annotations

from companion.engine.procedures.weather import SESSION_START
from companion.history import dice_keys
from companion.history.replay import PLACELESS
from companion.session.journal import START_NUMBER
from companion.store.log import Log, Meta, StoredCommand


def place_of(command: StoredCommand | None) -> int:
    """A standing command's place among those that change the state: the number after the
    last ':' of its dice key (none: the session's start, place 0)."""
    if command is None or not command.dice:
        return START_NUMBER
    tail = command.dice.rsplit(":", 1)[-1]
    return int(tail) if tail.isdigit() else command.n


class Dice:
    """The campaign's dice keys (read once the log is opened: a migration fills them)."""

    def __init__(self, log: Log, meta: Meta) -> None:
        self._log = log
        self.seed = meta.seed
        self._secret = meta.secret  # the campaign's dice secret (companion.history.dice_keys)
        # the places played before the campaign had a secret keep their keys
        self._seeded_places: dict[int, str] = dice_keys.seeded_places(
            log.dice_keys(dice_keys.KEYED_LENGTH)) if dice_keys.is_secret(meta.secret) else {}

    @property
    def seeded(self) -> bool:
        """Whether the dice come from a seed (--seed N: tests; an old campaign kept on its
        seed) rather than the campaign's secret."""
        return not dice_keys.is_secret(self._secret)

    def key(self, name: str) -> str:
        """What the RNG of a command about to run derives from: the campaign's secret (or the
        --seed: companion.history.dice_keys) and its place among the standing commands that
        change the state — the place after the newest of them (the session's start is place
        0; a command of a migrated log has its number as its place). A command undone gives
        its place back, so the same command again rolls the same dice (a place played before
        the campaign had a secret keeps that key)."""
        place = START_NUMBER if name == SESSION_START else \
            place_of(self._log.last_active(sorted(PLACELESS))) + 1
        return self._seeded_places.get(place) or dice_keys.dice_key(self.seed, self._secret,
                                                                     place)
