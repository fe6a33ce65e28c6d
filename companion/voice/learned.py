"""The names a campaign taught its voice lists: a name the GM typed in `monstro`, `item`,
`tesouro` or `magia` (voz.yaml `aprender`) can be said next time. Read from the campaign's
stored commands (history is kept: nothing is recomputed), less the names the GM forgot
(`companion voz esquecer`, companion/store/voice_names.py) — a name typed again after it was
forgotten comes back."""
from __future__ import annotations

import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable, Mapping

from companion.commands.grammar import grammar
from companion.commands.normalize import fold, normalize
from companion.store.log import Log, StoredCommand
from companion.store.voice_names import TABLE, ForgottenNames, forgotten_of
from companion.tables.files import Tables
from companion.voice.config import fits_slot, voice_config


@dataclass(frozen=True)
class Learned:
    """One name the campaign taught the voice."""

    said: str  # as the recogniser writes it, folded ("troll das cavernas")
    shown: str  # as the GM typed it ("Troll das Cavernas")
    lists: tuple[str, ...]  # the voice lists it joined
    command: str  # the command it was typed in
    n: int  # the last command that typed it


def fits(slot: str, said: str, tables: Tables) -> bool:
    """Can this name be read back in this slot? (config.fits_slot: no number, no filler
    inside, within the slot's word limit, not a word that is no name where the slot refuses
    those — frases.yaml mesa.curingas)."""
    compiled = grammar(tables)
    fillers = frozenset(" ".join(fold(w).split()) for w in compiled.intents.skip_words)
    return fits_slot(said, compiled.rules.wildcard(slot), fillers, compiled.rules.nao_sao_nomes)


def learned_names(commands: Iterable[StoredCommand], forgotten: Mapping[str, int],
                  tables: Tables) -> list[Learned]:
    """The names the stored commands taught the voice lists (undone commands teach nothing),
    each once, in the order they were first typed."""
    config = voice_config(tables)
    found: dict[str, Learned] = {}
    for stored in commands:
        for argument, lists in config.learn.get(stored.name, {}).items():
            value = stored.args.get(argument)
            if stored.undone or not isinstance(value, str):
                continue
            said = normalize(value).text
            joins = tuple(name for name in lists
                          if said not in config.free_lists.get(name, ())
                          and fits(name, said, tables))
            if not joins or forgotten.get(said, 0) >= stored.n:
                continue
            first = found.get(said)
            lists_now = tuple(dict.fromkeys((*(first.lists if first else ()), *joins)))
            found[said] = Learned(said, first.shown if first else value.strip(), lists_now,
                                  first.command if first else stored.name, stored.n)
    return list(found.values())


def by_list(learned: Iterable[Learned]) -> dict[str, tuple[str, ...]]:
    """{voice list: the names it learned}, for the phrase list and the voice reading."""
    lists: dict[str, list[str]] = {}
    for name in learned:
        for list_name in name.lists:
            lists.setdefault(list_name, []).append(name.said)
    return {list_name: tuple(names) for list_name, names in lists.items()}


def campaign_learned(path: str | Path, tables: Tables) -> list[Learned]:
    """What a campaign file taught its voice lists, read without writing the file."""
    log = Log.read(path)
    try:
        return learned_names(log.commands(), forgotten_of(log.rows_of(TABLE)), tables)
    finally:
        log.close()


def forget(path: str | Path, said: Iterable[str],
           tables: Tables) -> tuple[list[Learned], list[str]]:
    """Take names out of a campaign's voice lists (until typed again): the names forgotten,
    and the ones said that the campaign never taught (nothing is written for those)."""
    names = ForgottenNames(path)
    try:
        return forget_in(campaign_learned(path, tables), names, said)
    finally:
        names.close()


def forget_in(learned: Iterable[Learned], names: ForgottenNames,
              said: Iterable[str]) -> tuple[list[Learned], list[str]]:
    """Forget names among `learned` in the forgotten-names table `names`: the names forgotten,
    and the ones said that were not learned (then nothing is written)."""
    taught = {name.said: name for name in learned}
    said = list(said)
    wanted = [normalize(text).text for text in said]
    known = [taught[name] for name in dict.fromkeys(wanted) if name in taught]
    unknown = [text for text, name in zip(said, wanted) if name not in taught]
    if not known or unknown:
        return [], unknown
    for name in known:
        names.forget([name.said], name.n)
    return known, unknown


class SessionNames:
    """What a live session has taught its voice lists: read again from its stored commands
    only when a command was stored or a name forgotten since the last look."""

    def __init__(self, session: Any, tables: Tables) -> None:
        self._session = session
        self._tables = tables
        self._forgotten = ForgottenNames(session.db_path)
        self._key: tuple[Any, ...] | None = None
        self._learned: list[Learned] = []
        self._lock = threading.RLock()

    def current(self, tables: Tables | None = None) -> list[Learned]:
        """The names taught so far (read with `tables`, the campaign's rules in force)."""
        rules = tables or self._tables
        with self._lock:  # the listener's thread and the Regras screen's requests both ask
            key = (self._session.last_seq(), self._forgotten.version(), id(rules))
            if key != self._key:
                self._learned = learned_names(self._session.commands(),
                                              self._forgotten.all(), rules)
                self._key = key
            return self._learned

    def forget(self, said: Iterable[str],
               tables: Tables | None = None) -> tuple[list[Learned], list[str]]:
        """Forget names the session taught (forget_in); the listener hears the list without
        them from its next utterance on."""
        with self._lock:
            return forget_in(self.current(tables), self._forgotten, said)

    def close(self) -> None:
        self._forgotten.close()
