"""The seats as the log keeps them, and the two rules the run path asks of them: a character
removed only if it never played, and an undo that takes a seated character out frees its seat.
Below both the run path and the joining (companion.session.seats), so neither calls the other
back."""
from __future__ import annotations

from dataclasses import dataclass

from companion.engine import Command
from companion.engine.characters import slug
from companion.engine.model import GM
from companion.history.replay import SEAT_FREED, UNDO
from companion.session.journal import Journal
from companion.session.rules_in_force import RulesInForce
from companion.session.subscribers import Subscribers
from companion.tables import protocol
from companion.tables.errors import CommandRejected


@dataclass(frozen=True)
class Seat:
    """A character's place at the table: free (no token), or held by the devices with its
    tokens since the first of them was given (None: a log from before tokens kept it)."""

    character_id: str
    name: str
    since: str | None
    tokens: int

    @property
    def occupied(self) -> bool:
        return self.tokens > 0


class SeatBook:
    """The seats read from the log, and what a command does to them (the lock held, but for
    `seats`)."""

    def __init__(self, journal: Journal, rules: RulesInForce, subscribers: Subscribers) -> None:
        self._journal = journal
        self._rules = rules
        self._subscribers = subscribers

    def seat_of(self, character_id: str) -> Seat | None:
        """The character's seat if someone holds it (the lock held)."""
        return next((Seat(*row) for row in self._journal.log.seats() if row[0] == character_id),
                    None)

    def seats(self) -> list[Seat]:
        """Every character's seat: the party's in its order (free ones too), then any seat
        whose character left the party."""
        with self._journal.lock:
            held = {row[0]: Seat(*row) for row in self._journal.log.seats()}
            party = [(c.id, c.name) for c in self._journal.state.party]
        listed = [held.get(cid, Seat(cid, name, None, 0)) for cid, name in party]
        return listed + [seat for cid, seat in held.items()
                         if cid not in {c for c, _ in party}]

    def never_played(self, command: Command) -> None:
        """`remover personagem`: only a character whose seat no phone holds and whose
        player's phones never sent a command that stands (the lock held); the engine checks
        the rest (companion.engine.procedures.roster)."""
        wanted = slug(str(command.args.get("personagem") or ""))
        character = next((c for c in self._journal.state.party
                          if wanted in (c.id, slug(c.name))), None)
        if character is None:
            return  # the engine says who is in the party
        if self.seat_of(character.id) is not None:
            raise self._rules.refusal(CommandRejected.because(
                "personagem.remover_lugar_ocupado", nome=character.name))
        actor = protocol.player_key(character.id)
        if any(c.actor == actor and not c.undone for c in self._journal.log.commands()):
            raise self._rules.refusal(CommandRejected.because("personagem.remover_ja_jogou",
                                                              nome=character.name))

    def free_undone_seats(self, party: set[str]) -> None:
        """An undo that takes a seated character out of the party (the `personagem` a
        player's join made) frees its seat: its tokens stop working, recorded as the GM's
        freeing is (by 'desfazer'); the server lets its phones go (the lock held)."""
        now = {c.id for c in self._journal.state.party}
        for seat in (Seat(*row) for row in self._journal.log.seats()):
            if seat.character_id not in party or seat.character_id in now:
                continue
            data = {"personagem": seat.character_id, "nome": seat.name, "por": UNDO}
            told = self._rules.narrated("entrada.lugar_liberado", GM, data)
            self._subscribers.queue(self._journal.commit(
                SEAT_FREED, told.text, [told], args={"personagem": seat.character_id, "por": UNDO},
                release=seat.character_id))
