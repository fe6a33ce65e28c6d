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
from companion.engine.characters import slug
from companion.engine.model import GM
from companion.history.replay import SEAT_FREED
from companion.session import names
from companion.session.journal import Journal, now
from companion.session.rules_in_force import RulesInForce
from companion.session.running import Runner
from companion.session.seat_book import SeatBook
from companion.session.shapes import EventDict
from companion.session.subscribers import Subscribers
from companion.tables import protocol
from companion.tables.errors import CommandRejected


@dataclass(frozen=True)
class Player:
    token: str
    character_id: str
    name: str


class Seats:
    """Joining and freeing the seats, their tokens kept in the log."""

    def __init__(self, journal: Journal, rules: RulesInForce, runner: Runner, book: SeatBook,
                 subscribers: Subscribers) -> None:
        self._journal = journal
        self._rules = rules
        self._runner = runner
        self._book = book
        self._subscribers = subscribers

    def join_player(self, name: str) -> Player:
        """A new token for the named character if its seat is free, creating the character
        the first time; a seated name is refused (the GM frees seats)."""
        refusal = self._rules.refusal
        shown = names.normal(name)
        character_id = slug(shown)
        if not character_id:
            raise refusal(CommandRejected.because("entrada.nome_invalido", nome=name))
        self._refuse_lookalike(shown, character_id)
        full = CommandRejected.because("entrada.disco_cheio", nome=shown)
        journal = self._journal
        try:
            with journal.lock, journal.recording(full):
                seated = self._book.seat_of(character_id)
                if seated is not None:
                    raise refusal(CommandRejected.because("entrada.lugar_ocupado",
                                                          nome=seated.name))
                if not any(c.id == character_id for c in journal.state.party):
                    self._runner.run_locked(Command("personagem", {"nome": shown}),
                                            f"personagem {shown}")
                character = next((c for c in journal.state.party if c.id == character_id),
                                 None)
                if character is None:
                    raise refusal(CommandRejected.because("entrada.nao_criado", nome=shown))
                player = Player(secrets.token_urlsafe(12), character.id, character.name)
                journal.log.add_player(player.token, player.character_id, player.name, now())
        finally:
            self._subscribers.deliver()  # a character created before the disk filled is told
        return player

    def _refuse_lookalike(self, shown: str, character_id: str) -> None:
        """A new name that looks like a character's under another id, or with letters the id
        would drop, is refused (companion.session.names)."""
        look = names.skeleton(shown)
        with self._journal.lock:
            party = self._journal.state.party
        twin = next((c for c in party
                     if c.id != character_id and names.skeleton(c.name) == look), None)
        if twin is not None:
            raise self._rules.refusal(CommandRejected.because(
                "entrada.nome_parecido", nome=shown, parecido=twin.name))
        lost = names.dropped(shown)
        if lost:
            raise self._rules.refusal(CommandRejected.because(
                "entrada.nome_invisivel", nome=shown, letras=lost))

    def free_seat(self, character_id: str, actor: str) -> list[EventDict]:
        """Free a character's seat: every token of it stops working, and the next join by
        that name takes the character. The GM frees any seat, a player only their own. The
        freeing is a system command (GM-only event; never undone, no dice, no place)."""
        refusal = self._rules.refusal
        mine = protocol.character_of(actor)
        if protocol.is_player(actor) and mine != character_id:
            raise refusal(CommandRejected.because("entrada.lugar_alheio"))
        full = CommandRejected.because("gravacao.disco_cheio")
        journal = self._journal
        with journal.lock:
            seat = self._book.seat_of(character_id)
            if seat is None:
                character = next((c for c in journal.state.party if c.id == character_id),
                                 None)
                if character is None:
                    raise refusal(CommandRejected.because(
                        "entrada.sem_personagem", personagem=character_id,
                        lugares=[s.name for s in self._book.seats() if s.occupied]))
                raise refusal(CommandRejected.because("entrada.lugar_livre",
                                                      nome=character.name))
            who = actor if mine else GM
            told = self._rules.narrated("entrada.lugar_liberado", GM,
                                        {"personagem": character_id, "nome": seat.name,
                                         "por": who})
            with journal.recording(full):
                stored = journal.commit(SEAT_FREED, told.text, [told],
                                        args={"personagem": character_id, "por": who},
                                        release=character_id)
            self._subscribers.queue(stored)
        self._subscribers.deliver()
        return stored

    def player_by_token(self, token: str) -> Player | None:
        with self._journal.lock:
            row = self._journal.log.player(token)
        return Player(*row) if row else None

    def players(self) -> list[Player]:
        with self._journal.lock:
            return [Player(*row) for row in self._journal.log.players()]
