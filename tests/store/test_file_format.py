"""A campaign file across releases (issue 32, 3 and 4): every file records its format and the
release that wrote it; a newer format is refused untouched, in Portuguese; an older file is
copied beside itself, once, before anything of it changes, and `mesa campanhas` lists the copy."""
from __future__ import annotations

import hashlib
import io
import sqlite3
from pathlib import Path

import pytest

from companion.cli.campaigns import list_campaigns
from companion.session import Session
from companion.session.shapes import SessionError
from companion.store import file_format
from companion.store.log import Log
from companion.tables.files import Tables
from tests.report_helpers import play

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def restore(sql: Path, db: Path) -> Path:
    connection = sqlite3.connect(db)
    connection.executescript(sql.read_text(encoding="utf-8"))
    connection.close()
    return db


def campaign(db: Path, tables: Tables) -> Path:
    """A campaign played by today's code, closed."""
    session = Session.open(db, 3, tables)
    play(session, ["personagem Ana", "terreno colinas", "avançar", "masmorra", "acender tocha"])
    session.close()
    return db


def test_a_file_records_its_format_and_the_release_that_wrote_it(tmp_path: Path,
                                                                  tables: Tables) -> None:
    db = campaign(tmp_path / "campanha.db", tables)
    raw = sqlite3.connect(db)
    assert raw.execute("PRAGMA user_version").fetchone()[0] == file_format.FORMAT
    assert raw.execute("SELECT release, format FROM written_by").fetchone() == (
        file_format.RELEASE, file_format.FORMAT)
    raw.close()
    assert not file_format.copy_path(db).exists()  # this release's own file: no copy


def test_a_newer_format_is_refused_and_the_file_is_untouched(tmp_path: Path,
                                                            tables: Tables) -> None:
    db = campaign(tmp_path / "campanha.db", tables)
    raw = sqlite3.connect(db)
    raw.execute(f"PRAGMA user_version={file_format.FORMAT + 1}")
    raw.execute("UPDATE written_by SET release = '9.9', format = ?", (file_format.FORMAT + 1,))
    raw.commit()
    raw.close()
    before, files = digest(db), sorted(p.name for p in tmp_path.iterdir())
    assert files == ["campanha.db"]
    with pytest.raises(SessionError) as refused:
        Session.open(db, None, tables)
    said = refused.value.message
    assert "versão mais nova do Mesa (9.9)" in said and "Atualize o Mesa" in said, said
    assert f"formato {file_format.FORMAT + 1}" in said and str(db) in said
    with pytest.raises(file_format.NewerFormat):  # the readers (report, verificar) too
        Log.read(db)
    assert digest(db) == before  # nothing migrated, no lock, no -wal/-shm, no copy
    assert sorted(p.name for p in tmp_path.iterdir()) == files


def test_an_older_file_is_copied_beside_itself_once_before_it_changes(tmp_path: Path,
                                                                      tables: Tables) -> None:
    db = restore(FIXTURES / "campanha_versao_anterior.sql", tmp_path / "antiga.db")
    before = digest(db)
    session = Session.open(db, None, tables)
    told = [e["text"] for e in session.opening]
    session.close()
    copy = tmp_path / f"antiga.antes-de-{file_format.RELEASE}.db"
    assert digest(copy) == before  # byte for byte the file the older release wrote
    assert digest(db) != before  # the campaign itself was migrated
    assert any(str(copy) in text and "cópia" in text for text in told), told
    old = sqlite3.connect(f"{copy.resolve().as_uri()}?mode=ro", uri=True)
    assert old.execute("PRAGMA user_version").fetchone()[0] == 0  # as that release left it
    assert old.execute("SELECT COUNT(*) FROM commands").fetchone()[0] > 40
    old.close()
    again = Session.open(db, None, tables)  # once: the next opening copies nothing
    assert not any("cópia" in e["text"] for e in again.opening)
    again.close()
    assert digest(copy) == before


def test_a_file_a_server_still_holds_is_copied_as_a_consistent_snapshot(
        tmp_path: Path, tables: Tables) -> None:
    """The last release's file with its WAL beside it (a server still has it open): the copy is
    SQLite's backup of file and WAL together, not the main file alone."""
    db = campaign(tmp_path / "campanha.db", tables)
    raw = sqlite3.connect(db, isolation_level=None)
    raw.execute("DROP TABLE written_by")
    raw.execute("PRAGMA user_version=2")  # as the last release wrote it
    holder = sqlite3.connect(db, isolation_level=None)  # a server of that release, still open
    holder.execute("PRAGMA journal_mode=WAL")
    holder.execute("PRAGMA wal_autocheckpoint=0")
    holder.execute("UPDATE meta SET created = 'ainda no WAL'")
    raw.close()
    assert Path(f"{db}-wal").exists()
    session = Session.open(db, None, tables)
    session.close()
    holder.close()
    copy = sqlite3.connect(file_format.copy_path(db))
    assert copy.execute("SELECT created FROM meta").fetchone() == ("ainda no WAL",)
    assert copy.execute("PRAGMA user_version").fetchone()[0] == 2
    copy.close()


def test_mesa_campanhas_lists_the_copies(tmp_path: Path, tables: Tables) -> None:
    db = restore(FIXTURES / "campanha_versao_anterior.sql", tmp_path / "antiga.db")
    Session.open(db, None, tables).close()
    out, err = io.StringIO(), io.StringIO()
    assert list_campaigns(tables, out, err, tmp_path) == 0
    listed = out.getvalue()
    assert listed.count("antiga:") == 1  # the campaign once, not its copy as a campaign
    assert "Cópias de antes de uma atualização" in listed
    assert f"antiga, como estava antes da versão {file_format.RELEASE}:" in listed, listed
    assert str(file_format.copy_path(db)) in listed and err.getvalue() == ""
