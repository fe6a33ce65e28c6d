"""Players and seats: a character's seat belongs to the devices holding its tokens. `join_player`
gives a token to a FREE character (one with no token: made by the GM with `personagem`, or
whose seat was freed), creating it the first time the name is heard (through a logged
`personagem` command); a seated name is refused (`entrada.lugar_ocupado`), nothing created or
handed out. A second device of the same player joins with the same token (the link its first
device shows). `free_seat` — the GM for any seat, a player for their own ("Sair") — deletes
every token of the seat in the transaction of a system command (`lugar_liberado`: GM-only,
never undone, no dice, no place), so the next join by that name takes the character back.
"""
from __future__ import annotations

import secrets
from dataclasses import dataclass

from companion.engine import Command
from companion.engine.model import GM
from companion.engine.characters import slug
from companion.session import names
from companion.history.replay import SEAT_FREED
from companion.session.core import Core, now
from companion.session.shapes import EventDict
from companion.tables import protocol
from companion.tables.errors import CommandRejected


@dataclass(frozen=True)
class Player:
    token: str
    character_id: str
    name: str


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


class Seats(Core):
    """Joining, freeing and listing the seats, their tokens kept in the log (through self:
    Running._run_locked, Reading._deliver)."""

    def join_player(self, name: str) -> Player:
        """A new token for the named character if its seat is free, creating the character
        the first time; a seated name is refused (the GM frees seats)."""
        shown = names.normal(name)
        character_id = slug(shown)
        if not character_id:
            raise self._refusal(CommandRejected.because("entrada.nome_invalido", nome=name))
        self._refuse_lookalike(shown, character_id)
        full = CommandRejected.because("entrada.disco_cheio", nome=shown)
        try:
            with self._lock, self._recording(full):
                seated = self._seat_of(character_id)
                if seated is not None:
                    raise self._refusal(CommandRejected.because("entrada.lugar_ocupado",
                                                                nome=seated.name))
                if not any(c.id == character_id for c in self._state.party):
                    self._run_locked(Command("personagem", {"nome": shown}),
                                     f"personagem {shown}")
                character = next((c for c in self._state.party if c.id == character_id), None)
                if character is None:
                    raise self._refusal(CommandRejected.because("entrada.nao_criado",
                                                                nome=shown))
                player = Player(secrets.token_urlsafe(12), character.id, character.name)
                self._log.add_player(player.token, player.character_id, player.name, now())
        finally:
            self._deliver()  # a character created before the disk filled is still told
        return player

    def _refuse_lookalike(self, shown: str, character_id: str) -> None:
        """A new name that looks like a character's under another id, or with letters the id
        would drop, is refused (companion.session.names)."""
        look = names.skeleton(shown)
        twin = next((c for c in self.state.party
                     if c.id != character_id and names.skeleton(c.name) == look), None)
        if twin is not None:
            raise self._refusal(CommandRejected.because("entrada.nome_parecido", nome=shown,
                                                        parecido=twin.name))
        lost = names.dropped(shown)
        if lost:
            raise self._refusal(CommandRejected.because("entrada.nome_invisivel", nome=shown,
                                                        letras=lost))

    def _seat_of(self, character_id: str) -> Seat | None:
        """The character's seat if someone holds it (the lock held)."""
        return next((Seat(*row) for row in self._log.seats() if row[0] == character_id), None)

    def seats(self) -> list[Seat]:
        """Every character's seat: the party's in its order (free ones too), then any seat
        whose character left the party."""
        with self._lock:
            held = {row[0]: Seat(*row) for row in self._log.seats()}
            party = [(c.id, c.name) for c in self._state.party]
        listed = [held.get(cid, Seat(cid, name, None, 0)) for cid, name in party]
        return listed + [seat for cid, seat in held.items()
                         if cid not in {c for c, _ in party}]

    def free_seat(self, character_id: str, actor: str) -> list[EventDict]:
        """Free a character's seat: every token of it stops working, and the next join by
        that name takes the character. The GM frees any seat, a player only their own. The
        freeing is a system command (GM-only event; never undone, no dice, no place)."""
        mine = protocol.character_of(actor)
        if protocol.is_player(actor) and mine != character_id:
            raise self._refusal(CommandRejected.because("entrada.lugar_alheio"))
        full = CommandRejected.because("gravacao.disco_cheio")
        with self._lock:
            seat = self._seat_of(character_id)
            if seat is None:
                character = next((c for c in self._state.party if c.id == character_id), None)
                if character is None:
                    raise self._refusal(CommandRejected.because(
                        "entrada.sem_personagem", personagem=character_id,
                        lugares=[s.name for s in self.seats() if s.occupied]))
                raise self._refusal(CommandRejected.because("entrada.lugar_livre",
                                                            nome=character.name))
            who = actor if mine else GM
            told = self._narrated("entrada.lugar_liberado", GM,
                                  {"personagem": character_id, "nome": seat.name, "por": who})
            with self._recording(full):
                stored = self._commit(SEAT_FREED, told.text, [told],
                                      args={"personagem": character_id, "por": who},
                                      release=character_id)
            self._pending.append(stored)
        self._deliver()
        return stored

    def _never_played(self, command: Command) -> None:
        """`remover personagem`: only a character whose seat no phone holds and whose
        player's phones never sent a command that stands (the lock held); the engine checks
        the rest (companion.engine.procedures.roster)."""
        wanted = slug(str(command.args.get("personagem") or ""))
        character = next((c for c in self._state.party
                          if wanted in (c.id, slug(c.name))), None)
        if character is None:
            return  # the engine says who is in the party
        if self._seat_of(character.id) is not None:
            raise self._refusal(CommandRejected.because("personagem.remover_lugar_ocupado",
                                                        nome=character.name))
        actor = protocol.player_key(character.id)
        if any(c.actor == actor and not c.undone for c in self._log.commands()):
            raise self._refusal(CommandRejected.because("personagem.remover_ja_jogou",
                                                        nome=character.name))

    def player_by_token(self, token: str) -> Player | None:
        with self._lock:
            row = self._log.player(token)
        return Player(*row) if row else None

    def players(self) -> list[Player]:
        with self._lock:
            return [Player(*row) for row in self._log.players()]
