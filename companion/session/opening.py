"""Opening a session's log: a new campaign (its dice secret or --seed, the GM's token, the GM's
rules it starts from) or a stored one, checked against what was asked (its --seed, its rules);
what the session then says as it opens (its initial weather, or what the GM must be told:
companion.session.notices) is the Session's, once its pieces are made."""
from __future__ import annotations

import secrets
from dataclasses import replace
from pathlib import Path

from companion.history import dice_keys
from companion.rules import overlay
from companion.session.journal import Journal, now
from companion.session.rules_in_force import RulesInForce
from companion.session.shapes import EventDict, SessionError
from companion.store.file_format import NewerFormat
from companion.store.log import Log, Meta, NewEvent
from companion.tables.errors import DiskFull, TableError
from companion.tables.files import Tables


def full_at_open(tables: Tables, where: str) -> SessionError:
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


def open_file(db_path: str | Path | None, tables: Tables) -> Log:
    """The log at db_path (None → in memory), or why it cannot be opened."""
    try:
        return Log.open(db_path)
    except DiskFull:
        raise full_at_open(tables, str(db_path)) from None
    except NewerFormat as newer:  # said in the session's own words, nothing changed
        raise SessionError(newer.message) from None


def checked_meta(log: Log, seed: int | str | None, tables: Tables, gm_token: str | None,
                 rules: overlay.Overrides | None) -> tuple[Meta, bool]:
    """The campaign's meta row (written for a new one, or when its token or secret change)
    and whether its dice were given a secret now; a --seed or rules the log contradicts
    close the log and are refused."""
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
    if meta is None:
        meta = Meta(seed=str(seed) if seed is not None else "",
                    gm_token=gm_token or secrets.token_urlsafe(16), created=now(),
                    secret=dice_keys.ON_PURPOSE if seed is not None
                    else dice_keys.new_secret())
        log.write_meta(meta)
        return meta, False
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
    return meta, rekeyed


def house_rules(log: Log, shipped: Tables, created: overlay.Overrides | None) -> overlay.Settled:
    """The GM's rules of this campaign: the ones it was created with (already checked),
    or the stored ones, as this version can keep them."""
    if created is not None:
        change = overlay.patched(shipped, {}, created)
        return overlay.Settled(change.overrides, change.tables, ())
    stored = log.house_rules()
    return overlay.settle(shipped, overlay.load(stored[1], shipped.narration) if stored else {})


def tell(journal: Journal, rules: RulesInForce, name: str, events: list[NewEvent],
         house: str | None = None) -> list[EventDict]:
    """Record what opening found as a system command `name` (GM-only, never undone, no
    dice; with `house`, the GM's rules kept from it on)."""
    if not events:
        return []
    with journal.lock:
        return journal.commit(name, rules.render("sessao.texto_ao_abrir", {}), events,
                              house=house)
