"""Opening a session: a new campaign (its dice secret or --seed, the GM's token, the GM's rules it starts from,
its initial weather) or a stored one resumed from its newest state, with what the GM must be
told of how it opened (companion.session.notices)."""
from __future__ import annotations

import secrets
from dataclasses import replace
from pathlib import Path
from typing import Self

from companion.engine import Command, initial_state
from companion.engine.procedures.weather import SESSION_START
from companion.history import dice_keys
from companion.history.replay import HISTORY_NOTICE, RULES_CHANGED
from companion.rules import overlay
from companion.session.core import START_NUMBER, Core, now
from companion.session.shapes import EventDict, SessionError
from companion.store.file_format import NewerFormat
from companion.store.log import Log, Meta
from companion.tables.errors import DiskFull, TableError
from companion.tables.files import Tables


def _full_at_open(tables: Tables, where: str) -> SessionError:
    """The session could not be written as it opened: the disk is full."""
    return SessionError(tables.narration.render("gravacao.disco_cheio_ao_abrir",
                                                {"banco": where}))


def _seed_refusal(tables: Tables, where: str, meta: Meta, seed: int | str | None) -> str | None:
    """Why a stored campaign cannot be opened with this --seed (None: it can). A campaign
    with a secret has no seed to give; the secret is never shown."""
    if seed is None or (str(seed) == meta.seed and not dice_keys.is_secret(meta.secret)):
        return None
    if dice_keys.is_secret(meta.secret):
        return tables.narration.render("sessao.dados_secretos", {"banco": where})
    return tables.narration.render("sessao.outra_semente", {
        "banco": where, "semente": meta.seed, "pedida": seed})


class Opening(Core):
    """A session opened from its log (through self: Running._apply, Notices)."""

    def __init__(self, log: Log, meta: Meta, tables: Tables,
                 rules: overlay.Overrides | None = None, rekeyed: bool = False) -> None:
        Core.__init__(self, log, meta, tables)
        fresh = log.is_empty()
        settled = self._house_rules(rules if fresh else None)
        self._use_rules(settled)  # the shipped rules with the GM's over them
        self._state, notices = (initial_state(self.tables), []) if fresh else self._resume()
        if dice_keys.is_secret(meta.secret):  # after _resume: a migration fills the keys
            self._seeded_places = dice_keys.seeded_places(
                log.dice_keys(dice_keys.KEYED_LENGTH))
        self._prompts_issued = max(log.prompt_ids().values(), default=0)
        # what the session said when it was created (empty when it was resumed)
        self.started: list[EventDict] = self._start() if fresh else []
        self.opening: list[EventDict] = [] if fresh else (
            self._tell(HISTORY_NOTICE, notices + self._rekeyed_news(rekeyed))
            + self._tell(RULES_CHANGED, self._dropped_news(settled) + self._rules_news(),
                         house=overlay.dump(self.overrides) if settled.dropped else None))

    @classmethod
    def open(cls, db_path: str | Path | None, seed: int | str | None, tables: Tables,
             gm_token: str | None = None, rules: overlay.Overrides | None = None) -> Self:
        """Open a new session or resume the one stored at db_path (None → in memory); a new
        one may start from the GM's rules of another campaign (`rules`, the export's shape)."""
        try:
            log = Log.open(db_path)
        except DiskFull:
            raise _full_at_open(tables, str(db_path)) from None
        except NewerFormat as newer:  # said in the session's own words, nothing changed
            raise SessionError(newer.message) from None
        return cls.open_log(log, seed, tables, gm_token, rules)

    @classmethod
    def open_log(cls, log: Log, seed: int | str | None, tables: Tables,
                 gm_token: str | None = None, rules: overlay.Overrides | None = None) -> Self:
        """The session stored in an open log (a new one when it has none). A write that finds
        the disk full (the meta row, the first command) closes the log and says so."""
        try:
            return cls._opening(log, seed, tables, gm_token, rules)
        except DiskFull:
            log.close()
            raise _full_at_open(tables, log.path) from None

    @classmethod
    def _opening(cls, log: Log, seed: int | str | None, tables: Tables,
                 gm_token: str | None, rules: overlay.Overrides | None) -> Self:
        if rules is not None and not log.is_empty():
            log.close()
            raise SessionError(tables.narration.render("regras.so_na_criacao",
                                                       {"banco": log.path}))
        if rules is not None:
            try:
                overlay.patched(tables, {}, rules)
            except TableError as error:
                log.close()
                raise SessionError(tables.narration.render("regras.invalida",
                                                           {"motivo": error.message})) from None
        meta = log.meta()
        rekeyed = False
        if meta is None:
            meta = Meta(seed=str(seed) if seed is not None else "",
                        gm_token=gm_token or secrets.token_urlsafe(16), created=now(),
                        secret=dice_keys.ON_PURPOSE if seed is not None
                        else dice_keys.new_secret())
            log.write_meta(meta)
        else:
            refusal = _seed_refusal(tables, log.path, meta, seed)
            if refusal is not None:
                log.close()
                raise SessionError(refusal)
            changed = meta
            if gm_token and gm_token != meta.gm_token:
                changed = replace(changed, gm_token=gm_token)
            rekeyed = dice_keys.must_rekey(seed is not None, meta.secret)
            if rekeyed:  # an old campaign's small seed: a secret for its commands from now on
                changed = replace(changed, secret=dice_keys.new_secret())
            if changed != meta:
                meta = changed
                log.write_meta(meta)
        return cls(log, meta, tables, rules, rekeyed=rekeyed)

    def _house_rules(self, created: overlay.Overrides | None) -> overlay.Settled:
        """The GM's rules of this campaign: the ones it was created with (already checked),
        or the stored ones, as this version can keep them."""
        if created is not None:
            change = overlay.patched(self.shipped, {}, created)
            return overlay.Settled(change.overrides, change.tables, ())
        stored = self._log.house_rules()
        return overlay.settle(self.shipped, overlay.load(stored[1], self.shipped.narration) if stored else {})

    def _start(self) -> list[EventDict]:
        """A session just created rolls its initial weather (docs/regras.md: at the start of the
        session, with the default season). It is command 0, with its own RNG, so the table's
        commands keep their places and rolls; it is never undone."""
        with self._lock:
            said = self.tables.narration.render("sessao.texto_inicio", {})
            return self._apply(Command(SESSION_START, {}), said, START_NUMBER,
                               house=overlay.dump(self.overrides) if self.overrides
                               else None)
