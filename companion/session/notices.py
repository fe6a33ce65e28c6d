"""What opening tells the GM: a migration that came out different, damaged states rebuilt, the
rules changed since the campaign's last command, what an update took from the GM's rules. A
list of rule changes — these, a rules change, an undone one — names at most
version.MAX_SHOWN of them."""
from __future__ import annotations

from typing import Sequence

from companion.engine import State
from companion.engine.model import GM
from companion.history import replay
from companion.rules import overlay, version
from companion.session.journal import logger
from companion.session.rules_in_force import RulesInForce
from companion.store import file_format
from companion.store.log import Log, NewEvent


class Notices:
    """The GM's news of how the session opened and of the rules, as events to store."""

    def __init__(self, log: Log, seed: str, rules: RulesInForce) -> None:
        self._log = log
        self._seed = seed
        self._rules = rules

    def rekeyed_news(self, rekeyed: bool) -> list[NewEvent]:
        """The GM told that the dice now come from a secret (a campaign from before secrets,
        opened without --seed): the commands already played keep their dice."""
        return [self._rules.narrated("historico.dados_nova_chave", GM, {})] if rekeyed else []

    def resume(self) -> tuple[State, list[NewEvent]]:
        """The stored session's state (replay.open_history), and what the GM must be told of
        how it was opened: a migration that came out different, damaged states rebuilt."""
        rules = self._rules
        opened = replay.open_history(self._log, rules.shipped, self._seed, rules.rules_id)
        told: list[NewEvent] = []
        if self._log.copied is not None:  # the file as it was, beside it, before this release
            told.append(rules.narrated("historico.copia_antes", GM, {
                "copia": str(self._log.copied), "versao": file_format.RELEASE}))
        first = opened.first_difference
        if first is not None:
            logger.warning(rules.render("sessao.log_migracao", {
                "comando": first.command.n, "texto": repr(first.command.text),
                "motivo": first.differs}))
            told.append(rules.narrated(
                "historico.atualizada_diferente", GM,
                {"comando": first.command.n, "texto": first.command.text,
                 "motivo": first.differs, "quantos": len(opened.differences)}))
            told += [self._difference_told(step) for step in opened.differences]
        if opened.damaged:
            logger.warning(rules.render("sessao.log_recuperada", {
                "comandos": list(opened.damaged), "desde": opened.recovered_from}))
            told.append(rules.narrated("historico.recuperada", GM, {
                "comandos": list(opened.damaged), "desde": max(opened.recovered_from, 0)}))
        return opened.state, told

    def _difference_told(self, step: replay.Step) -> NewEvent:
        """One command a migration found different: its number, what it said when the table
        played it and what it says today (the texts only one of them has)."""
        then, now = replay.said_then_and_now(self._log, step)
        return self._rules.narrated("historico.comando_diferente", GM, {
            "comando": step.command.n, "texto": step.command.text, "motivo": step.differs,
            "antes": then, "agora": now})

    def changes_told(self, summary: NewEvent,
                     changes: Sequence[version.RuleChange]) -> list[NewEvent]:
        """The GM's one line of a rules change (`summary`), then each value that changed, the
        first version.MAX_SHOWN of them and how many more."""
        told = [summary]
        told += [self._rules.narrated("historico.regra_mudou", GM, change.data())
                 for change in changes[:version.MAX_SHOWN]]
        if len(changes) > version.MAX_SHOWN:
            told.append(self._rules.narrated("historico.mais_mudancas", GM,
                                             {"quantas": len(changes) - version.MAX_SHOWN}))
        return told

    def rules_news(self) -> list[NewEvent]:
        """What changed in the rules since the campaign's last command ran, for the GM."""
        last = self._log.last_rules()
        if last is None or last == self._rules.rules_id:
            return []
        stored = self._log.rules_text(last)
        before = version.read(stored) if stored is not None else {}
        changes = version.changes(before, version.rule_files(self._rules.tables))
        if not changes:
            return []
        return self.changes_told(self._rules.narrated(
            "historico.regras_mudaram", GM, {"quantas": len(changes)}), changes)

    def dropped_news(self, settled: overlay.Settled) -> list[NewEvent]:
        """What an update of the companion took from the GM's rules (told once: the rules
        kept without it are stored with the telling)."""
        if not settled.dropped:
            return []
        return [self._rules.narrated("regras.removidas", GM, {"quantas": len(settled.dropped)})
                ] + [self._rules.narrated("historico.regra_mudou", GM, change.data())
                     for change in settled.dropped]
