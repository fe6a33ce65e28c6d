"""The `comando` event: what a connection may run, and its acknowledgement.

Commands are rate-limited per token and per address (companion.server.budget, per role). The GM may run
every command; a player only what is theirs (companion.tables.protocol.may_run: comandos.yaml
`jogador: true`); the table screen none. A player's prompt ids are their own
(companion.history.projection): 1, 2, 3, … over the prompts addressed to that player, in events,
views, texts and refusals; `responder pedido N` from a player is read in that numbering and
turned into the engine's id here, in the command's arguments, before the session runs it. The acknowledgement carries the
command's events the sender may see, in its own numbering, or a refusal it may read.
"""
from __future__ import annotations

import re
from typing import Any, Callable

from flask import request

from companion.rules.pages import PageTexts
from companion.tables import protocol
from companion.engine import Command
from companion.engine.characters import slug
from companion.tables.errors import AccessDenied, CommandRejected
from companion.server import access
from companion.server.budget import Budget
from companion.server.projections import Projections
from companion.server.rooms import Client, Connections
from companion.server.served import ServedSession
from companion.session import RunResult
from companion.tables.files import Tables


_CLAUSE = re.compile(r"[.!?;,…]+\s*")  # where table talk ends and a command may begin
_LEADING = "=+-@'\"|!?.,;:*/\\()[]{}<>#$%&_~^` \t"  # symbols before a command's first word
CARD = "cartao"  # tables/narracao/cartao.yaml: a refused answer in its prompt card's words


class CommandGate:
    """Runs each connection's `comando` through the session, as who may run it."""

    def __init__(self, session: ServedSession, tables: Tables, connections: Connections,
                 projections: Projections,
                 budgets: dict[str, Budget],
                 visible_to: Callable[[str, str], bool]) -> None:
        self.session = session
        self.tables = tables
        self.connections = connections
        self.projections = projections
        self.budgets = budgets  # role → its commands' budget (per token, per address)
        self.visible_to = visible_to

    def command(self, payload: Any) -> dict[str, Any]:
        """The `comando` handler: returns the acknowledgement."""
        sid = request.sid  # type: ignore[attr-defined]
        client = self.connections.find(sid)
        if client is None:
            return {"ok": False,
                    "error": self.tables.narration.render("servidor.conexao_nao_aceita", {})}
        actor = protocol.actor_for_viewer(client.viewer)
        if actor is None:
            return protocol.refusal(
                self.tables.narration.render("servidor.mesa_so_mostra", {}), "so_mestre")
        too_fast = self.budgets[client.role].refusal(client, self.session.tables)
        if too_fast is not None:
            return {"ok": False, "error": too_fast}
        try:
            text = access.command_text(payload, self.tables.narration)
        except AccessDenied as refused:
            return {"ok": False, "error": refused.message}
        if protocol.is_player(actor):
            return self._player_command(client, actor, text)
        result = self.session.run(text, actor=actor)
        return self._ack(result, client)

    def forget(self, sid: str) -> None:
        """A connection is gone: a budget kept by its sid goes too (those of a token and of
        an address stay: reconnecting does not refill them)."""
        for budget in self.budgets.values():
            budget.per_token.forget(f"sid:{sid}")

    # ------------------------------------------------------------------ acknowledging

    def _ack(self, result: RunResult, client: Client) -> dict[str, Any]:
        if not result.ok:
            return self._with_card(protocol.refusal(self._refusal_text(result, client.viewer),
                                                    result.code), result.params)
        events = [self.projections.show(e, client.viewer) for e in result.events
                  if self.visible_to(e["visibility"], client.viewer)]
        # what the asker asked to read (the answer to a question — `tempo`, `estado`,
        # `registro`, `ajuda` — never a last result; `repetir`: the last game result again,
        # headline first), for the page to show whole where its asker is looking
        rules = self.session.tables.piece(PageTexts).ultimo_resultado
        asked = events if result.repeated else [
            e for e in events
            if e["kind"] in rules.nao_sao_resultado or e.get("command") in rules.perguntas]
        return {"ok": True, "events": events, "consulta": asked, "repetido": result.repeated}

    def _refusal_text(self, result: RunResult, viewer: str) -> str:
        """What the viewer reads of a refusal. The GM reads the engine's text. For a player, a
        refusal whose params (or the refusal it wraps: comandos.na_vez) name prompts is written
        again from its template in the player's numbers, with only the player's own prompts
        (companion.history.projection); any other keeps its text."""
        message = result.error or ""
        code, params = result.code, result.params
        if viewer == protocol.GM or not protocol.is_player(viewer):
            return message
        if code in self.tables.narration.codes and self.projections.names_prompts(params,
                                                                                  viewer):
            return self.projections.refusal(code, params, viewer)
        return message

    def _refused(self, refusal: CommandRejected) -> dict[str, Any]:
        """The server's own refusal (said by its code) as the acknowledgement."""
        text = refusal.message or self.tables.narration.render(refusal.code, refusal.params)
        return self._with_card(protocol.refusal(text, refusal.code), refusal.params)

    def _with_card(self, ack: dict[str, Any], params: Any) -> dict[str, Any]:
        """A refused answer as its prompt card says it (tables/narracao/cartao.yaml, by the
        refusal's `codigo`), in `cartao`; nothing when the card says the refusal itself."""
        card = f"{CARD}.{ack.get('codigo')}"
        if card in self.tables.narration.codes:
            return {**ack, "cartao": self.tables.narration.render(card, params or {})}
        return ack

    # ------------------------------------------------------------------ a player's line

    def _player_command(self, client: Client, actor: str, text: str) -> dict[str, Any]:
        """A player's line: parsed once (Session.parse: the session's cache, which its own
        `run` shares), refused unless it is theirs to give (the session handles `desfazer`
        before the engine's own check), the prompt it names read in the player's own numbers,
        then run as that player."""
        command = self.session.parse(text, actor).command
        if command is None:
            return self._ack(self.session.run(text, actor=actor), client)  # its parse error
        if not protocol.may_run(actor, command.name, self.tables):
            return protocol.refusal(protocol.refusal_to_run(command.name, self.tables),
                                    "so_mestre")
        args = dict(command.args)
        try:
            said = self._own_prompt(client.viewer, command.name, args,
                                    self._canonical(text, actor, command))
        except CommandRejected as refused:
            return self._refused(refused)
        result = self.session.run_command(Command(command.name, args, actor), text=said)
        return self._ack(result, client)

    def _canonical(self, text: str, actor: str, command: Any) -> str:
        """What the log keeps of a player's line: the shortest tail of it that reads as the
        same command — the clause read (the talk before a comma dropped: 'Mestre, rolar 1d6'),
        without leading symbols — so a line like '=HYPERLINK(…), rolar 1d6' is stored as
        'rolar 1d6' and reaches no report export as a formula."""
        line = text.strip()
        tails = [line] + [line[found.end():] for found in _CLAUSE.finditer(line)]
        tails += [tail.lstrip(_LEADING) for tail in tails]
        same = [tail.strip() for tail in tails if tail.strip()
                and self.session.parse(tail.strip(), actor).command == command]
        return min(same, key=len, default=line)

    def _own_prompt(self, viewer: str, name: str, args: dict[str, Any], text: str) -> str:
        """For an answer, the prompt it names in the player's numbers becomes the engine's id
        (in `args`; the log keeps the text as typed, and quotes it by its arguments); returns
        that text. A number the player
        never had, or whose prompt is no longer pending, is refused here (tables/narracao/
        pedidos_jogador.yaml), listing only the player's own pending prompts."""
        if name != "responder":
            return text
        mine = [p for p in self.session.state.prompts
                if protocol.may_answer(viewer, p.character, p.party)]
        local = self.projections.prompt_numbers(viewer)
        if "pedido" not in args:
            named = args.get("personagem")
            if named is not None and slug(str(named)) != protocol.character_of(viewer):
                raise CommandRejected.because("pedidos_jogador.pedido_alheio", nome=named)
            if not mine:
                raise CommandRejected.because("pedidos_jogador.sem_pedido")
            return text
        said = str(args["pedido"]).strip()
        number = int(said) if said.isascii() and said.isdigit() else 0
        wanted = self.projections.prompt_id(viewer, number) if number else None
        pending = [local[p.id] for p in mine if p.id in local]
        if wanted is None:
            raise CommandRejected.because("pedidos_jogador.pedido_desconhecido", pedido=said,
                                          pendentes=pending)
        if not any(p.id == wanted for p in mine):
            raise CommandRejected.because("pedidos_jogador.pedido_encerrado", pedido=number,
                                          pendentes=pending)
        args["pedido"] = wanted  # the log keeps what the player typed, and the engine's id
        return text
