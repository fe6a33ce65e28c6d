"""An event's text is kept only when its code cannot say it again (issue 25: the file per
1,000 commands): a coded event's row keeps no text and reads back with it, byte for byte;
rows written before keep theirs and read exactly as stored."""
from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from companion.store import event_json
from companion.history.projection import Projection
from companion.report.source import open_campaign
from companion.session import Session
from companion.store import Log, NewEvent, StoredState
from companion.store.log import DERIVED
from companion.tables.files import Tables

STATE = StoredState(1, b'{"minutes": 0}')
ROLL = {"tabela": "Rolagem secreta: ouvir", "dados": "1d20", "total": 7, "resultado": None,
        "faces": [["d20", [7]]], "motivo": "ouvir"}
ROLL_WORDS = {"rotulo": "Rolagem secreta: ouvir", "lado": None, "outro": None}


def test_a_coded_events_text_is_not_stored_and_reads_back_the_same(
        tmp_path: Path, tables: Tables) -> None:
    db = tmp_path / "c.db"
    session = Session.open(db, 3, tables)
    said = []
    for text in ["personagem Ana", "segredo 1d20 pra ouvir a porta", "avançar", "pânico Ana",
                 "rolar 2d6", "desfazer"]:
        result = session.run(text)
        assert result.ok, text
        said += result.events
    every = session.events_since(0)
    session.close()
    with sqlite3.connect(db) as raw:
        rows = raw.execute("SELECT text, code, data FROM events").fetchall()
    assert rows and all(text == DERIVED for text, code, _ in rows if code), rows
    assert all(event_json.text(data) == json.dumps(json.loads(event_json.text(data)),
                                                   ensure_ascii=False, separators=(",", ":"))
               for _, _, data in rows)  # compact JSON (packed or not)
    reopened = Session.open(db, None, tables)
    assert reopened.events_since(0) == every
    assert [e for e in every if e["seq"] in {s["seq"] for s in said}] == said
    assert [e for n in [0] + [c.n for c in reopened.commands()]
            for e in reopened.events_of(n)] == every
    gm = Projection("gm", tables, reopened.quoted)
    for event in reopened.history_since(0):
        gm.add(event)
    assert [gm.show(e)["text"] for e in reopened.history_since(0)] == [e["text"] for e in every]
    reopened.close()
    campaign = open_campaign(db, tables)
    by_seq = {e["seq"]: e for e in every}
    read = [e for n in sorted(campaign.events) for e in campaign.events[n]]
    assert len(read) > 5 and all(e == by_seq[e["seq"]] for e in read)


def test_rows_written_before_keep_their_text(tmp_path: Path, tables: Tables) -> None:
    """A row of the release before has its text beside its code: it reads as stored, even
    when today's template would say it otherwise."""
    log = Log.open(tmp_path / "c.db")
    log.append(1, "segredo", "segredo", {}, "gm", "t", [NewEvent(
        "rolagem", "gm", "Rolagem secreta: ouvir — 1d20 = 7", ROLL, "dados.rolagem",
        ROLL_WORDS, derived=True)], STATE, "7:1", None)
    with sqlite3.connect(tmp_path / "c.db") as raw:
        assert raw.execute("SELECT text FROM events").fetchone() == (DERIVED,)
        raw.execute("UPDATE events SET text = 'Como a versão anterior escreveu'")
    log.close()  # the release before wrote the file; today's opens it
    log = Log.open(tmp_path / "c.db")
    assert [e["text"] for e in log.events_since(0)] == ["Como a versão anterior escreveu"]
    assert log.stored_since(0)[0][5] == "Como a versão anterior escreveu"
    log.close()


def test_the_log_keeps_the_text_it_is_given(tmp_path: Path) -> None:
    """The log stores what it is given: a text is left out only when the event says its code
    renders it again (the session decides: companion.session.journal)."""
    log = Log.open(tmp_path / "c.db")
    log.append(1, "segredo", "segredo", {}, "gm", "t", [
        NewEvent("rolagem", "gm", "outras palavras", ROLL, "dados.rolagem", ROLL_WORDS),
        NewEvent("relato", "gm", "sem código", {"a": 1})], STATE, "7:1", None)
    assert [e["text"] for e in log.events_since(0)] == ["outras palavras", "sem código"]
    with sqlite3.connect(tmp_path / "c.db") as raw:
        assert [t for (t,) in raw.execute("SELECT text FROM events")] == [
            "outras palavras", "sem código"]
    log.close()


def test_the_session_leaves_out_only_a_text_its_code_says_again(tmp_path: Path,
                                                                tables: Tables) -> None:
    """The session's commit decides: a text its code renders again, byte for byte, is left
    out; one it does not say, one whose template does not fit the values, and one with no
    code are kept."""
    session = Session.open(tmp_path / "c.db", 3, tables)
    said = tables.narration.render("dados.rolagem", {**ROLL, **ROLL_WORDS})
    journal = session._journal
    with journal.lock:
        stored = journal.commit("segredo", "segredo", [
            NewEvent("rolagem", "gm", said, ROLL, "dados.rolagem", ROLL_WORDS),
            NewEvent("rolagem", "gm", "outras palavras", ROLL, "dados.rolagem", ROLL_WORDS),
            NewEvent("rolagem", "gm", "não cabe", {"a": 1}, "dados.rolagem"),
            NewEvent("relato", "gm", "sem código", {"a": 1})])
    texts = [said, "outras palavras", "não cabe", "sem código"]
    assert [e["text"] for e in stored] == texts
    assert [e["text"] for e in session.events_since(stored[0]["seq"] - 1)] == texts
    session.close()
    with sqlite3.connect(tmp_path / "c.db") as raw:
        assert [t for (t,) in raw.execute("SELECT text FROM events WHERE command = 'segredo'")
                ] == [DERIVED, "outras palavras", "não cabe", "sem código"]
