"""The grammar grows with the campaign: a name the GM typed in monstro, item, tesouro or magia
joins that campaign's voice lists (read from its stored commands), can be pruned with
`companion voz esquecer`, and the recogniser takes a new list only between utterances."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from companion.rules.loader import load_rules
from companion.session import Session
from companion.tables.files import Tables
from companion.voice.config import voice_config
from companion.voice.judge import phrase_reader
from companion.voice.learned import campaign_learned, learned_names
from companion.voice.listener import Listener
from companion.voice.strict_reading import read_voice
from companion.voice.service import session_phrases, session_reader
from companion.voice.learned import SessionNames
from companion.voice.sources import wav_chunks
from tests.cli_helpers import Ran, run_main
from tests.voice_helpers import NARRATION, KOREAN_LIST, speak

TYPED = ["masmorra", "monstro Troll das Cavernas na sala 3", "magia Raio Prismático por 3 turnos",
         "item 2 Cristais de Gelo", "tesouro 30 moedas de mithril", "monstro Górgona",
         "monstro Ogro 2"]


def _companion(*args: str, stdin: str | None = None) -> Ran:
    """`companion ARGS` run in this process (tests/cli_helpers.py)."""
    return run_main(*args, stdin=stdin or "")


@pytest.fixture
def campaign(tmp_path: Path, tables: Tables) -> Path:
    db = tmp_path / "campanha.db"
    session = Session.open(db, 7, tables)
    try:
        for line in TYPED:
            assert session.run(line).ok, line
        assert session.run("monstro Quimera Azul").ok
        assert session.run("desfazer").ok  # an undone command teaches nothing
    finally:
        session.close()
    return db


def test_typed_names_join_the_campaigns_voice_lists(campaign: Path, tables: Tables) -> None:
    taught = {name.said: name for name in campaign_learned(campaign, tables)}
    assert set(taught) == {"troll das cavernas", "raio prismatico", "cristais de gelo",
                           "moedas de mithril", "gorgona"}  # "ogro 2": a number is not said
    assert taught["troll das cavernas"].lists == ("nome", "monstro_dito", "criatura")
    assert taught["raio prismatico"].lists == ("nome",)
    assert taught["cristais de gelo"].lists == ("tipo",)
    assert taught["gorgona"].shown == "Górgona"


def test_voz_frases_db_shows_the_typed_monster_and_parse_voz_reads_it(campaign: Path) -> None:
    listed = _companion("voz", "frases", "--db", str(campaign))
    assert listed.returncode == 0, listed.stderr
    lines = listed.stdout.splitlines()
    alone = _companion("voz", "frases").stdout.splitlines()
    with_troll = [line for line in lines if "troll das cavernas" in line]
    assert with_troll and not any("troll das cavernas" in line for line in alone)
    assert any("górgona" in line.split() for line in lines)  # said with the accent typed
    assert any("raio prismático" in line for line in lines)
    taught = [line for line in lines if any(name in line for name in (
        "troll das cavernas", "górgona", "raio prismático", "cristais de gelo", "mithril"))]
    read = _companion("parse", "--voz", "--json", "--db", str(campaign),
                      stdin="\n".join(taught) + "\n")
    answers = [json.loads(line) for line in read.stdout.splitlines()]
    assert len(answers) == len(taught)
    assert [(line, a) for line, a in zip(taught, answers) if a["command"] is None] == []
    # another campaign (or none) never heard of the troll
    unknown = _companion("parse", "--voz", "--json", "o troll das cavernas morreu")
    assert unknown.returncode == 1
    known = _companion("parse", "--voz", "--json", "--db", str(campaign),
                       "o troll das cavernas morreu")
    assert json.loads(known.stdout) == {"command": "derrotados", "args": {
        "quantidade": 1, "criatura": "troll das cavernas"}}


def test_the_gm_sees_and_prunes_the_list(campaign: Path, tables: Tables) -> None:
    shown = _companion("voz", "nomes", "--db", str(campaign), "--json")
    assert shown.returncode == 0, shown.stderr
    names = [json.loads(line) for line in shown.stdout.splitlines()]
    assert {"nome": "Troll das Cavernas", "dito": "troll das cavernas", "comando": "monstro",
            "listas": ["nome", "monstro_dito", "criatura"]} in names
    wrong = _companion("voz", "esquecer", "--db", str(campaign), "Dragão de Lata")
    assert wrong.returncode == 1 and "não é nome aprendido" in wrong.stderr
    assert len(campaign_learned(campaign, tables)) == 5  # nothing forgotten
    done = _companion("voz", "esquecer", "--db", str(campaign), "Troll das Cavernas")
    assert done.returncode == 0, done.stderr
    assert "esqueci 'troll das cavernas'" in done.stdout
    assert "troll das cavernas" not in _companion("voz", "frases", "--db",
                                                  str(campaign)).stdout
    assert "troll" not in _companion("voz", "nomes", "--db", str(campaign)).stdout.lower()
    # typed again later, it comes back
    session = Session.open(campaign, None, tables)
    try:
        assert session.run("monstro Troll das Cavernas").ok
    finally:
        session.close()
    assert "troll das cavernas" in {n.said for n in campaign_learned(campaign, tables)}


def test_a_live_session_grows_its_phrase_list(tables: Tables) -> None:
    session = Session.open(None, 3, tables)
    taught = SessionNames(session, tables)
    try:
        phrases = session_phrases(session, tables, taught)
        reader = session_reader(session, tables, taught)
        before = phrases()
        assert phrases() is before  # nothing changed: the same list, no rebuild
        assert read_voice("o basilisco de fogo morreu", tables).command is None
        assert session.run("masmorra").ok and session.run("monstro Basilisco de Fogo").ok
        after = phrases()
        assert any("basilisco de fogo" in line for line in after)
        assert not any("basilisco de fogo" in line for line in before)
        assert reader()("o basilisco de fogo morreu").command.name == "derrotados"
        assert session.run("rolar 1d6").ok
        assert phrases() is after  # a command that teaches nothing: the same list
    finally:
        taught.close()
        session.close()


def test_the_live_list_follows_the_campaigns_names_and_regions(tables: Tables) -> None:
    """A spell the GM adds on the Regras screen and a region the GM names are rules changes:
    the live phrase list (what the listener takes between utterances) and the voice reading
    follow them, and an undo takes them back out."""
    session = Session.open(None, 3, tables)
    taught = SessionNames(session, tables)
    try:
        phrases = session_phrases(session, tables, taught)
        reader = session_reader(session, tables, taught)
        before = phrases()
        assert reader()("magia raio do trovão por seis turnos").command is None
        change = session.change_rules({
            "nomes_da_voz": {"magia": ["Raio do Trovão"], "criatura": ["Górgona Anciã"]},
            "encontros": {"regioes": {"vale-cinzento": {
                "regiao": "Vale Cinzento", "terreno": "colinas", "dados": "1d2",
                "linhas": {1: "Corvos", 2: "Pastores"}}}}}, "gm")
        assert change.ok, change.error
        after = phrases()
        assert after is not before
        for name in ("raio do trovão", "górgona anciã", "vale cinzento"):
            assert any(name in line for line in after), name
        assert reader()("magia raio do trovão por seis turnos").command.args == {
            "nome": "raio do trovão", "turnos": 6}
        assert reader()("a górgona anciã morreu").command.name == "derrotados"
        assert reader()("região vale cinzento").command.name == "regiao"
        assert session.run("desfazer").ok
        assert not any("raio do trovão" in line for line in phrases())
    finally:
        taught.close()
        session.close()


def test_learned_names_leave_out_what_cannot_be_read_back(tables: Tables) -> None:
    from companion.store.log import StoredCommand

    def typed(n: int, name: str, **args: Any) -> StoredCommand:
        return StoredCommand(n, "", name, args, "gm", False, "")

    names = learned_names([typed(1, "monstro", nome="Goblin 3"),        # a number
                           typed(2, "monstro", nome="o ogro bom"),      # a filler inside
                           typed(3, "item", tipo="espada longa"),      # already in the list
                           typed(4, "magia", nome="Luz Negra", turnos=2)], {}, tables)
    assert [(n.said, n.lists) for n in names] == [("luz negra", ("nome",))]


# ---------------------------------------------------------------- between utterances

def test_the_grammar_changes_only_between_utterances(tmp_path: Path, ko_model: Any) -> None:
    """The phrase source changes on every look; the listener looks only while nobody is
    being heard, so the utterance in the middle is heard whole."""
    model = ko_model
    config = voice_config(load_rules())
    looks: list[bool] = []
    heard: list[dict] = []
    listener: Listener

    def source() -> list[str]:
        current = listener._recognizer
        looks.append(current is None or current.idle())
        return [*KOREAN_LIST, *(["학교 학교"] if len(looks) % 2 else [])]  # a new list each time

    listener = Listener(model, config, source,
                        lambda: phrase_reader(KOREAN_LIST, config.narration), None,
                        heard.append, wake_phrases=False)
    listener.start()
    try:
        listener.set_mode("sempre")
        chunks = list(wav_chunks(speak("안녕하세요", "ko", tmp_path / "fala.wav"), NARRATION))
        for chunk in chunks:
            listener.feed(chunk)
            assert listener.wait_idle(30)
        listener.flush()
        assert listener.wait_idle(30)
        listener.feed(chunks[0])  # silence after it: the next look may change the grammar
        assert listener.wait_idle(30)
    finally:
        listener.stop()
    assert [report["ouvi"] for report in heard] == ["안녕하세요"]
    assert looks and all(looks)  # every look happened between utterances
    assert len(looks) < len(chunks)  # while the phrase was heard, nobody looked
    assert listener.rebuilds == len(looks)  # each look found a new list and took it
