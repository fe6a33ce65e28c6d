"""The table's questions (issue 18, item 1): `tempo`, `estado` with a character, `repetir`.

Every question form is read by chat and by the strict voice reading (with and without a
session's names, through the real `companion parse`); the answers of each kind come out of a
real session (lights, spells, the hourly rest, the travel day, a chase, a character), through
`companion shell --json` and through real Socket.IO clients; a player's answer never carries a
GM-only fact; and a question leaves the log's commands, the state and the dice as they were.
"""
from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from companion.commands.text_readings import parse
from companion.engine import Command
from companion.history.outcome import outcome
from companion.rules.pages import PageTexts
from companion.history.replay import PLACELESS
from companion.session import Session
from tests.cli_helpers import run_main
from companion.tables.files import Tables
from companion.voice.strict_reading import Known, read_voice
from tests.phrase_helpers import PhraseReading


TEMPO = {"command": "tempo", "args": {}}
REPEAT = {"command": "repetir", "args": {}}


def sheet(name: str) -> dict[str, Any]:
    return {"command": "estado", "args": {"personagem": name}}


# (as typed in chat, as a recogniser writes it, what it means)
FORMS = [
    ("que horas são", "que horas são", TEMPO),
    ("Que horas são?", "que horas são", TEMPO),
    ("em que rodada estamos", "em que rodada estamos", TEMPO),
    ("em que turno a gente está?", "em que turno a gente está", TEMPO),
    ("que dia é hoje", "que dia é hoje", TEMPO),
    ("quanto falta para a tocha apagar", "quanto falta para a tocha apagar", TEMPO),
    ("Mestre, quanto falta para a tocha?", "mestre quanto falta para a tocha", TEMPO),
    ("quanto falta pra lanterna", "quanto falta pra lanterna", TEMPO),
    ("quanto tempo falta para a magia acabar", "quanto tempo falta para a magia acabar", TEMPO),
    ("quanto tempo ainda dura a magia", "quanto tempo ainda dura a magia", TEMPO),
    ("quantos turnos faltam para o descanso", "quantos turnos faltam para o descanso", TEMPO),
    ("quando a gente descansa?", "quando a gente descansa", TEMPO),
    ("quanto falta para o fim do dia", "quanto falta para o fim do dia", TEMPO),
    ("quantas rodadas faltam pro fim do dia", "quantas rodadas faltam pro fim do dia", TEMPO),
    ("tempo", "tempo", TEMPO),
    ("como está a Ana", "como está a ana", sheet("Ana")),
    ("Como tá o Diego?", "como tá o diego", sheet("Diego")),
    ("estado da Carla", "estado da carla", sheet("Carla")),
    ("estado Carla", "estado carla", sheet("Carla")),
    ("quanto de vida tem o Diego", "quanto de vida tem o diego", sheet("Diego")),
    ("quantos PV a Ana tem?", "quantos pv a ana tem", sheet("Ana")),
    ("repete", "repete", REPEAT),
    ("pode repetir?", "pode repetir", REPEAT),
    ("o que foi que aconteceu?", "o que foi que aconteceu", REPEAT),
    ("repete o resultado", "repete o resultado", REPEAT),
    # what must stay what it was
    ("como está o tempo", "como está o tempo", {"command": "clima", "args": {}}),
    ("estado", "estado", {"command": "estado", "args": {}}),
    ("como está o grupo", "como está o grupo", {"command": "estado", "args": {}}),
    ("estado da mesa", "estado da mesa", {"command": "estado", "args": {}}),
    ("ficha da sessão", "ficha da sessão", {"command": "registro", "args": {}}),
    ("a tocha apagou", "a tocha apagou", {"command": "luz", "args": {"acao": "apagar",
                                                                      "fonte": "tocha"}}),
    ("hora de descansar", "hora de descansar", {"command": "descansar", "args": {}}),
]
NAMES = ["Ana", "Carla", "Diego"]


# ---------------------------------------------------------------------------- reading

@pytest.mark.parametrize("typed, spoken, meant", FORMS, ids=[f[0] for f in FORMS])
def test_every_question_form_by_chat_and_by_voice(tables: Tables, typed: str, spoken: str,
                                                  meant: dict[str, Any]) -> None:
    assert parse(typed, tables).to_json() == meant
    assert read_voice(spoken, tables, Known(any_name=True)).to_json() == meant
    assert read_voice(spoken, tables, Known.of(NAMES)).to_json() == meant


def test_voice_with_a_sessions_names_takes_only_its_characters(tables: Tables) -> None:
    known = Known.of(NAMES)
    for spoken in ("como está a zuleica", "estado da zuleica", "quanto de vida tem o zeca"):
        refused = read_voice(spoken, tables, known)
        assert refused.command is None and "não" in (refused.error or ""), spoken
    # by chat any name is read; the engine says who exists
    assert parse("como está a Zuleica", tables).to_json() == sheet("Zuleica")


TABLE_TALK = ["o que aconteceu com o goblin", "quanto falta pra chegar na cidade",
              "como está o tempo lá fora", "que horas são lá na sua casa", "como vai você",
              "quanto tempo falta pro jantar", "como está a sua mãe", "horas"]


@pytest.mark.parametrize("talk", TABLE_TALK)
def test_table_talk_is_no_question(tables: Tables, talk: str) -> None:
    """What players say to each other is not a question to the companion: by voice not a
    command at all, by chat never a question answered (a sheet of 'Tempo Lá Fora')."""
    assert read_voice(talk, tables, Known(any_name=True)).command is None
    assert read_voice(talk, tables, Known.of(NAMES)).command is None
    assert parse(talk, tables).command is None


def _cli(*args: str, stdin: str) -> list[dict[str, Any]]:
    done = run_main(*args, stdin=stdin)  # main(argv) in this process (tests/cli_helpers.py)
    return [json.loads(line) for line in done.stdout.splitlines() if line.strip()]


def test_the_command_line_reads_every_form_by_chat_and_by_voice(tmp_path: Path,
                                                                tables: Tables) -> None:
    """`companion parse --json` and `companion parse --voz --json`, without and with a
    session's names (--db), one text per line of standard input."""
    db = tmp_path / "mesa.db"
    session = Session.open(db, 3, tables)
    for name in NAMES:
        assert session.run(f"personagem {name}").ok
    session.close()
    meant = [f[2] for f in FORMS]
    assert _cli("parse", "--json", stdin="\n".join(f[0] for f in FORMS) + "\n") == meant
    spoken = "\n".join(f[1] for f in FORMS) + "\n"
    for extra in ([], ["--db", str(db)]):
        read = _cli("parse", "--voz", "--json", *extra, stdin=spoken)
        assert [r.get("command") for r in read] == [m["command"] for m in meant], extra
        assert read == meant, extra


def test_every_listed_voice_phrase_of_the_questions_is_read_back(
        tables: Tables, phrase_readings: list[PhraseReading]) -> None:
    """The questions' phrases are in `voz frases` and each is read as its command (the whole
    list is checked by tests/voice/test_reading.py)."""
    listed = [r.phrase for r in phrase_readings
              if r.listed and r.phrase.command in ("tempo", "repetir", "estado")]
    assert {p.command for p in listed} == {"tempo", "repetir", "estado"}
    texts = {p.text for p in listed}
    for must in ("que horas são", "quanto tempo ainda falta para a tocha apagar",
                 "quantos turnos faltam para a tocha apagar", "pode repetir",
                 "o que foi que aconteceu", "quanto de vida tem o ana"):
        assert must in texts, must
    assert any(t.startswith("como está ") for t in texts if t not in (
        "como está o clima", "como está o grupo", "como está a mesa"))
    for phrase in listed:
        read = read_voice(phrase.text, tables, Known(any_name=True))
        assert read.command is not None and read.command.name == phrase.command, phrase


# ---------------------------------------------------------------------------- answers

def ok(result: Any) -> list[dict[str, Any]]:
    assert result.ok, result.error
    return result.events


def answer(session: Session, text: str, actor: str = "gm") -> dict[str, Any]:
    """The one event a question makes (visible only to whoever asked)."""
    events = ok(session.run(text, actor=actor))
    assert len(events) == 1, events
    assert events[0]["visibility"] == actor
    assert events[0]["kind"] == ("estado" if "ficha" in events[0]["data"] else "relato")
    return events[0]


@pytest.fixture
def table(tables: Tables) -> Any:
    opened = Session.open(None, 7, tables)
    for text in ("personagem Ana pv 8 sanidade 10", "personagem Bia pv 9", "personagem Caio"):
        ok(opened.run(text))
    yield opened
    opened.close()


def test_tempo_in_a_dungeon_names_each_light_and_spell_and_the_rest(table: Session) -> None:
    for text in ("masmorra", "acender tocha", "acender lanterna", "magia escudo 3 turnos",
                 "turno", "turno"):
        ok(table.run(text))
    said = answer(table, "mestre, quanto falta para a tocha?")
    dungeon = said["data"]["masmorra"]
    assert dungeon["luzes"] == [{"nome": "Tocha", "turnos": 4, "minutos": 40},
                                {"nome": "Lanterna", "turnos": 22, "minutos": 220}]
    assert dungeon["magias"] == [{"nome": "escudo", "turnos": 1, "minutos": 10}]
    assert dungeon["descanso_em"] == 4 and dungeon["turno"] == 2
    text = said["text"]
    assert "do dia 1, turno 2 na masmorra" in text
    assert "Tocha: 4 turnos, 40 minutos." in text
    assert "Lanterna: 22 turnos, 3 horas e 40 minutos." in text
    assert "Magia escudo: 1 turno, 10 minutos." in text
    assert "Descanso em 4 turnos." in text
    for _ in range(4):
        ok(table.run("turno"))
    said = answer(table, "quantos turnos faltam para o descanso")
    assert said["data"]["masmorra"]["descanso_em"] == 0
    assert "Hora de descansar: mais um turno sem descanso dá 1 de exaustão." in said["text"]
    assert "Nenhuma luz acesa" not in said["text"]
    assert "Nenhuma magia ativa." in said["text"]  # the spell ended
    ok(table.run("descansar"))
    assert answer(table, "tempo")["data"]["masmorra"]["descanso_em"] == 6


def test_tempo_travelling_names_the_rounds_left_in_the_day(table: Session) -> None:
    said = answer(table, "que horas são")
    assert said["data"]["viagem"] == {"rodada": 1, "rodadas_por_dia": 6,
                                      "rodadas_restantes": 6, "descansou_hoje": False}
    assert said["text"] == ("É meia-noite do dia 1, rodada 1 de 6: o dia ainda tem 6 "
                            "rodadas, contando esta. O grupo ainda não descansou hoje.")
    for _ in range(5):
        ok(table.run("explorar"))
    said = answer(table, "quanto falta para o fim do dia")
    assert said["data"]["viagem"]["rodadas_restantes"] == 1
    assert said["text"].startswith("São 20h do dia 1, rodada 6 de 6: é a última rodada "
                                   "do dia.")
    ok(table.run("descansar"))
    said = answer(table, "tempo")
    assert said["data"]["dia"] == 2 and said["data"]["viagem"]["descansou_hoje"] is False


def test_tempo_in_a_chase_says_its_turn_against_the_limit(table: Session) -> None:
    ok(table.run("masmorra"))
    ok(table.run("acender tocha"))
    ok(table.run("fugir"))
    assert "Fuga declarada" in answer(table, "tempo")["text"]
    ok(table.run("fuga sucesso"))
    said = answer(table, "tempo")
    assert said["data"]["perseguicao"] == {"fase": "ativa", "turno": 1, "limite": 3}
    assert "Perseguição: turno 1 de 3." in said["text"] and "Tocha:" in said["text"]


def test_a_characters_sheet_in_one_sentence(table: Session) -> None:
    ok(table.run("Ana toma 3 de dano"))
    ok(table.run("Ana ganha 1 de exaustão"))
    ok(table.run("Ana perde 2 de CON"))
    said = answer(table, "como está a Ana")
    assert said["data"]["personagem"] == "ana"
    assert said["text"].startswith("Ana: 5 de 8 PV, sanidade 10, exaustão 1, comida 3, "
                                   "água 3; dano de atributo: CON 2")
    assert said["text"].count(".") == 1 and said["text"].endswith(".")
    assert answer(table, "quanto de vida tem o Caio")["data"]["personagem"] == "caio"
    refused = table.run("estado da Zuleica")
    assert not refused.ok and "Zuleica" in refused.error and "Ana, Bia, Caio" in refused.error


def test_the_shell_prints_each_answer(tmp_path: Path) -> None:
    """`companion shell --json`: lights and spells, the hourly rest, the day, a character."""
    script = ["personagem Ana pv 8", "tempo", "masmorra", "acender tocha",
              "magia escudo 3 turnos", "turno", "turno", "tempo", "como está a Ana",
              "repete"]
    done = run_main("shell", "--seed", "5", "--json", stdin="\n".join(script) + "\n")
    printed = [json.loads(line) for line in done.stdout.splitlines()]
    answers = [e for e in printed if e.get("command") in ("tempo", "estado")]
    travel, dungeon, ana = answers
    assert "rodada 1 de 6: o dia ainda tem 6 rodadas" in travel["text"]
    assert "Tocha: 4 turnos, 40 minutos." in dungeon["text"]
    assert "Magia escudo: 1 turno, 10 minutos." in dungeon["text"]
    assert "Descanso em 4 turnos." in dungeon["text"]
    assert ana["text"] == "Ana: 8 de 8 PV, sanidade 10, exaustão 0, comida 3, água 3."
    # `repete`: the last GAME result again (issue 31), never an answer to a question — not
    # the sheet (a state dump), not `tempo`: the second `turno`'s
    assert ana["kind"] == "estado"
    assert printed[-1]["command"] == "turno"


# ---------------------------------------------------------------------------- repetir

def test_repeat_gives_the_last_result_the_asker_could_see(table: Session) -> None:
    ok(table.run("rolar 2d6"))
    public = table.events_since(0)[-1]
    ok(table.run("segredo 1d20 escutar a porta"))
    secret = table.events_since(0)[-1]
    assert secret["visibility"] == "gm"
    before = table.last_seq()
    assert ok(table.run("repete")) == [secret]
    assert ok(table.run("pode repetir", actor="player:bia")) == [public]
    ok(table.run("estado"))  # a state dump is no result: passed over
    ok(table.run("ajuda", actor="player:bia"))
    assert ok(table.run("o que foi que aconteceu", actor="player:bia")) == [public]
    assert ok(table.run("repete")) == [secret]
    assert table.last_seq() == before + 3  # estado (2 events) and ajuda; the repeats none
    answer(table, "tempo")  # an answer to a question: `repete` passes over it (issue 31)
    assert ok(table.run("repete")) == [secret]
    assert ok(table.run("repete", actor="player:bia")) == [public]


def test_repeat_picks_what_the_gm_pages_last_result_box_shows(table: Session,
                                                              tables: Tables) -> None:
    ok(table.run("avançar"))
    events = table.events_since(0)
    last = [e for e in events if e["command"] == "avancar"]
    rules = tables.piece(PageTexts).ultimo_resultado
    shown = outcome(last, rules)
    assert 0 < len(shown) <= rules.linhas
    # the headline first: the heaviest event, the later on a tie (its weight, `peso`)
    weights = [e["data"]["peso"] for e in last]
    assert shown[0]["data"]["peso"] == max(weights)
    assert ok(table.run("repete")) == shown


def test_repeat_on_a_new_session_repeats_its_start(tables: Tables) -> None:
    """The session's own start (its season; the initial weather is preamble) is the first
    result everyone saw; the table screen runs no command."""
    fresh = Session.open(None, 1, tables)
    try:
        first = ok(fresh.run("repete"))
        assert {e["command"] for e in first} == {"inicio_sessao"}
        assert ok(fresh.run("repete", actor="player:zeca")) == first
        refused = fresh.run_command(Command("repetir", {}, "public"))
        assert not refused.ok and "Mestre" in (refused.error or "")
    finally:
        fresh.close()


# ---------------------------------------------------------------------------- read-only

SCRIPT = ["personagem Ana", "personagem Bia", "terreno pântano", "avançar", "explorar",
          "masmorra", "acender tocha", "turno"]
QUESTIONS = ["tempo", "como está a Ana", "repete", "quanto falta para a tocha apagar",
             "pode repetir"]


def _standing(session: Session) -> list[tuple[str, dict[str, Any]]]:
    return [(c.name, dict(c.args)) for c in session.commands() if c.name not in PLACELESS]


def test_questions_leave_the_log_the_state_and_the_dice_untouched(tables: Tables) -> None:
    plain, asked = Session.open(None, 11, tables), Session.open(None, 11, tables)
    try:
        for text in SCRIPT:
            ok(plain.run(text))
            ok(asked.run(text))
            for question in QUESTIONS:
                ok(asked.run(question))
                ok(asked.run(question, actor="player:ana"))
        for text in ("turno", "turno", "viagem", "avançar"):
            expected = ok(plain.run(text))
            got = ok(asked.run(text))
            strip = [(e["kind"], e["visibility"], e["text"], e["data"]) for e in expected]
            assert [(e["kind"], e["visibility"], e["text"], e["data"]) for e in got] == strip
        assert _standing(asked) == _standing(plain)
        assert asked.state == plain.state
        assert [c.dice for c in asked.commands() if c.name not in PLACELESS] == \
            [c.dice for c in plain.commands() if c.name not in PLACELESS]
        assert not any(c.name == "repetir" for c in asked.commands())  # never stored
        # and `desfazer` passes over them: it undoes the last command that changed the table
        undone = ok(asked.run("desfazer"))
        assert "avançar" in undone[0]["text"]
    finally:
        plain.close()
        asked.close()


# ---------------------------------------------------------------------------- GM-only facts

def _private_affliction(session: Session) -> str:
    """Ana panics at Sanity 3 (Tabela J row 2-4: Afetado), gaining an affliction only she and
    the GM see (tables/panico.yaml visibilidade.aflicao: jogador); its name."""
    ok(session.run("personagem Ana sanidade 3"))
    ok(session.run("pânico Ana"))
    ok(session.run("responder 20", actor="player:ana"))
    (ana,) = [c for c in session.state.party if c.id == "ana"]
    (affliction,) = ana.afflictions
    assert affliction.visibility == "player:ana"
    return affliction.name


def _get_lost(session: Session) -> None:
    ok(session.run("terreno pântano"))
    for _ in range(40):
        ok(session.run("avançar"))
        while session.state.prompts:
            ok(session.run("cancelar"))
        if session.state.travel.lost:
            return
    raise AssertionError("com a semente 7 o grupo deveria se perder no pântano em 40 avanços")


def test_a_players_answer_never_carries_a_gm_only_fact(table: Session) -> None:
    affliction = _private_affliction(table)
    _get_lost(table)
    bias = [answer(table, text, "player:bia")
            for text in ("como está a Ana", "tempo", "estado da Bia")]
    anas = [answer(table, text, "player:ana") for text in ("como está a Ana", "tempo")]
    gms = [answer(table, "como está a Ana")]
    seen = json.dumps(bias, ensure_ascii=False)
    assert affliction not in seen and "perdid" not in seen.lower()
    assert bias[0]["data"]["ficha"]["aflicoes"] == []
    assert "atributos" not in bias[0]["data"]["ficha"]  # another's details: not in the list
    assert affliction in anas[0]["text"] and affliction in gms[0]["text"]
    assert "perdid" not in json.dumps(anas, ensure_ascii=False).lower()
    # the repeat of a player's last result never reaches into the GM's
    ok(table.run("segredo ouvir a porta"))
    repeated = json.dumps(ok(table.run("repete", actor="player:bia")), ensure_ascii=False)
    assert "ouvir a porta" not in repeated and '"visibility": "gm"' not in repeated


# ---------------------------------------------------------------------------- Socket.IO

def test_players_ask_over_socketio_and_only_they_hear_the_answer(server: Any,
                                                                  session: Session) -> None:
    from tests.socket_helpers import SERVER_GM_TOKEN as GM_TOKEN
    from tests.socket_helpers import Peer, wait_until

    gm = Peer(server.url, {"token": GM_TOKEN})
    ana, bia = Peer(server.url, {"nome": "Ana"}), Peer(server.url, {"nome": "Bia"})
    try:
        for peer in (gm, ana, bia):
            peer.welcome()
        affliction = _private_affliction(session)
        for text in ("masmorra", "acender tocha", "turno", "turno"):
            assert gm.cmd(text)["ok"], text
        asked = bia.cmd("quanto falta para a tocha apagar?")
        assert asked["ok"], asked
        (said,) = asked["events"]
        assert said["visibility"] == "player:bia" and said["command"] == "tempo"
        assert "Tocha: 4 turnos, 40 minutos." in said["text"]
        wait_until(lambda: said in bia.events, what="a resposta no registro da Bia")
        assert said["seq"] == len(bia.events)  # Bia's own numbering
        sheet_of_ana = bia.cmd("como está a Ana")
        assert sheet_of_ana["ok"] and affliction not in json.dumps(sheet_of_ana,
                                                                   ensure_ascii=False)
        own = ana.cmd("como está a Ana")
        assert own["ok"] and affliction in own["events"][0]["text"]
        again = bia.cmd("repete")
        # neither the sheet (issue 26) nor `tempo` is a result: the last game result (the
        # second `turno`), headline first, in Bia's numbering (issue 31)
        assert again["ok"] and again["repetido"] and said not in again["events"]
        assert again["events"] and {e["command"] for e in again["events"]} == {"turno"}
        gm_said = gm.cmd("tempo")["events"][0]
        wait_until(lambda: gm_said in gm.events, what="a resposta no registro do Mestre")
        for peer, viewer in ((ana, "player:ana"), (bia, "player:bia")):
            peer_seen = json.dumps([peer.received, peer.acks], ensure_ascii=False)
            for other in {"player:ana", "player:bia", "gm"} - {viewer}:
                assert f'"visibility": "{other}"' not in peer_seen, (viewer, other)
        assert not any(e["visibility"] == "player:bia" for e in ana.events)
        assert not any(e["command"] == "repetir" for e in gm.events)
    finally:
        for peer in (gm, ana, bia):
            peer.close()


def test_a_spoken_question_words_are_in_the_phrase_list(tables: Tables) -> None:
    """Every word of the spoken forms above is a word of `voz frases` (a word outside the list
    can never be heard)."""
    from companion.voice.phrases import voice_phrases

    words = {w for p in voice_phrases(tables, NAMES) for w in p.text.split()} | {"mestre"}
    for _typed, spoken, _meant in FORMS:
        missing = [w for w in spoken.split() if w not in words]
        assert not missing, (spoken, missing)


def test_the_answers_are_written_to_be_heard(table: Session) -> None:
    """No abbreviation read letter by letter besides PV, no '·' separators, no 'h' clock."""
    ok(table.run("masmorra"))
    ok(table.run("acender tocha"))
    texts = [answer(table, "tempo")["text"], answer(table, "como está a Bia")["text"]]
    for text in texts:
        assert "·" not in text and not re.search(r"\d+h\d*", text), text


def test_a_cancelled_panic_test_is_not_the_last_result_of_who_saw_it_asked(tables: Tables) -> None:
    """Issue 26, 11: everyone saw 'Teste de pânico para Ana'; when the GM cancels it, everyone
    sees that, so it is no longer the latest result on the table screen or Bia's phone."""
    table = Session.open(None, 2, tables)
    try:
        for line in ("personagem Ana", "personagem Bia", "pânico Ana", "cancelar"):
            ok(table.run(line))
        for viewer in ("player:bia", "public"):
            last = table.last_result(viewer)
            assert last and all("Teste de pânico para Ana" not in e["text"] for e in last)
            assert any("cancel" in e["text"] for e in last), (viewer, last)
    finally:
        table.close()
