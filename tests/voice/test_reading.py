"""The strict voice reading and the phrase list: one grammar for chat and voice."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from companion.commands.normalize import normalize
from companion.commands.parse import parse
from companion.tables.files import Tables
from companion.voice.phrases import grammar_words, phrase_list
from companion.voice.strict_reading import Known, read_voice
from companion.voice.spoken import number_words
from tests.cli_helpers import Ran, run_main
from tests.phrase_helpers import PhraseReading

CANONICAL = ("avancar explorar forragear cacar pescar criar_municao acampar descansar dormir "
             "estacao terreno modo clima masmorra viagem perigo turno luz magia surpresa "
             "segredo fugir fuga distancia panico rolar tabela desfazer ajuda estado "
             "derrotados tesouro item").split()
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def phrases(phrase_readings: list[PhraseReading]) -> list:
    """The lines of `voz frases` (read once for the whole run: tests/phrase_helpers.py)."""
    return [reading.phrase for reading in phrase_readings if reading.listed]


def test_every_canonical_command_has_phrases(phrases: list) -> None:
    said = {phrase.command for phrase in phrases}
    assert [name for name in CANONICAL if name not in said] == []


def test_phrases_are_spoken_form(phrases: list) -> None:
    words = set(grammar_words(p.text for p in phrases))
    assert {"avançar", "pântano", "dois", "seis", "tocha", "ração", "pânico"} <= words
    assert not any(word.isdigit() for word in words)
    assert all(word == word.lower() for word in words)
    assert "avancar" not in words and "pantano" not in words


def test_phrases_are_unique_and_untrimmed(phrases: list) -> None:
    texts = [p.text for p in phrases]
    assert len(texts) == len(set(texts))
    assert all(t == " ".join(t.split()) and t for t in texts)


@settings(max_examples=250)
@given(data=st.data())
def test_every_phrase_is_one_command_by_voice_and_chat(data: st.DataObject,
                                                       phrases: list, tables: Tables) -> None:
    phrase = data.draw(st.sampled_from(phrases))
    voice = read_voice(phrase.text, tables)
    chat = parse(phrase.text, tables)
    assert voice.command is not None, (phrase, voice.error)
    assert chat.command is not None, (phrase, chat.error)
    assert (voice.command.name, _same(voice.command.args)) == \
        (chat.command.name, _same(chat.command.args)), phrase
    expected = {"tesouro", "item"} if phrase.command in {"tesouro", "item"} else {phrase.command}
    assert voice.command.name in expected, phrase


def test_every_printed_phrase_is_read_by_voice_and_chat_alike(
        phrase_readings: list[PhraseReading]) -> None:
    """The whole list, not a sample: `voz frases` promises every line is a command by voice."""
    listed = [reading for reading in phrase_readings if reading.listed]
    wrong = [r.phrase.text for r in listed if not all(any(c.isalnum() for c in w)
                                                       for w in r.phrase.text.split())]
    for phrase, voice, chat in ((r.phrase, r.voice, r.chat) for r in listed):
        expected = {"tesouro", "item"} if phrase.command in {"tesouro", "item"} \
            else {phrase.command}
        if voice is None or voice.command is None or chat.command is None \
                or voice.command.name != chat.command.name or voice.command.name not in expected:
            wrong.append(phrase.text)  # read alike, and as the command it is listed for
    assert wrong == []


def _same(args: dict) -> dict:
    """Speech has no commas: 'ana bia e caio' is three names by voice, 'Ana Bia' + 'Caio' by
    chat (which needs the comma); the names said are the same."""
    return {k: " ".join(v) if k == "ordem" else v for k, v in dict(args).items()}


@pytest.mark.parametrize("text, name, args", [
    ("avançar", "avancar", {}),
    ("mestre avançar", "avancar", {}),
    ("vamos avançar pessoal", "avancar", {}),
    ("rolar dois d seis mais um", "rolar", {"expressao": "2d6+1"}),
    ("rolar um d vinte", "rolar", {"expressao": "1d20"}),
    ("terreno pântano", "terreno", {"terreno": "pantano"}),
    ("estação inverno", "estacao", {"estacao": "inverno"}),
    ("acender tocha", "luz", {"fonte": "tocha", "acao": "acender"}),
    ("pânico ana", "panico", {"personagem": "Ana"}),
    ("matamos três goblins", "derrotados", {"quantidade": 3, "criatura": "goblins"}),
    ("achamos cinquenta moedas de ouro", "tesouro",
     {"quantidade": 50, "tipo": "moedas de ouro"}),
    ("magia luz por seis turnos", "magia", {"nome": "luz", "turnos": 6}),
    ("responder exaustão", "responder", {"opcao": "exaustao"}),
    ("desfazer", "desfazer", {}),
    ("mestre desfazer", "desfazer", {}),
    ("ordem de marcha ana bia e caio", "marcha", {"ordem": ["Ana", "Bia", "Caio"]}),
    ("a ana procura armadilhas", "segredo", {"motivo": "Ana: procurar armadilhas"}),
    ("item duas poções", "item", {"quantidade": 2, "tipo": "poções"}),
    ("responder doze", "responder", {"valor": 12}),
])
def test_spoken_commands(text: str, name: str, args: dict, tables: Tables) -> None:
    result = read_voice(text, tables)
    assert result.command is not None, result.error
    assert (result.command.name, dict(result.command.args)) == (name, args)


@pytest.mark.parametrize("text", [
    "terreno deserto",          # a value outside the list (by chat, it says the list)
    "floresta",                 # a value alone
    "inverno",
    "sim", "não",               # short answers with no prompt waiting
    "ana",                      # a bare name
    "terreno",                  # a command word alone
    "caçar e pescar",           # a refusal form
    "alguém quer pizza",
    "passa o refrigerante",
    "o ogro da pizzaria morreu",
    "[unk] avançar",            # out-of-grammar speech
    "pânico fulano de tal",     # a name nobody has
    "segredo pra ver se ele mente",  # free text
    "deu doze", "rolei dezoito",  # what players say all evening: only while a roll waits
    "errei", "ops", "mestre errei",  # undo by chat, not by voice
    "acho que devíamos descansar",
    "ordem de marcha ana e fulano",
    "",
])
def test_refused_by_voice(text: str, tables: Tables) -> None:
    result = read_voice(text, tables)
    assert result.command is None
    assert result.error and ("não entendi" in result.error or "não ouvi" in result.error)


def test_chat_and_voice_refuse_alike_what_has_no_context(tables: Tables) -> None:
    # a value outside its list is a reading error by chat too (the list's values said)
    assert parse("terreno deserto", tables).command is None
    # a bare "sim" answers only while a prompt waits for it, by chat and by voice alike
    assert parse("sim", tables).command is None
    assert parse("sim", tables, Known.of(waiting=["sim", "nao"])).command is not None


def test_short_answer_only_while_a_prompt_waits(tables: Tables) -> None:
    waiting = Known.of(waiting=["sim", "nao"])
    assert read_voice("sim", tables, waiting).command.args == {"opcao": "sim"}
    assert read_voice("não", tables, waiting).command.args == {"opcao": "nao"}
    assert read_voice("sim", tables, Known.of(waiting=["descansar"])).command is None


def test_a_roll_answer_only_while_a_roll_waits(tables: Tables) -> None:
    assert read_voice("deu doze", tables, Known.of(roll_waiting=True)).command.args == \
        {"valor": 12}


def test_session_names_are_known(tables: Tables) -> None:
    assert read_voice("pânico xandra", tables).command is None
    known = Known.of(names=["Xandra"])
    result = read_voice("pânico xandra", tables, known)
    assert result.command is not None and result.command.args == {"personagem": "Xandra"}


def test_session_names_join_the_phrase_list(tables: Tables) -> None:
    with_name = phrase_list(tables, ["Xandra"])
    assert any("xandra" in phrase.split() for phrase in with_name)
    assert not any("xandra" in phrase.split() for phrase in phrase_list(tables))
    said = [p for p in with_name if "xandra" in p.split()][:30]
    known = Known.of(names=["Xandra"])
    assert said and all(read_voice(p, tables, known).command is not None for p in said)


@given(st.integers(min_value=0, max_value=999_999))
def test_number_words_read_back(value: int) -> None:
    assert normalize(f"rolar {number_words(value)}").text == f"rolar {value}"


@given(st.text(max_size=80))
def test_any_text_is_a_command_or_a_refusal(text: str) -> None:
    result = read_voice(text, _TABLES)
    assert (result.command is None) != (result.error is None)


from companion.rules.loader import load_rules as _load  # noqa: E402

_TABLES = _load()


def _companion(*args: str, stdin: str | None = None) -> Ran:
    """`companion ARGS` run in this process (tests/cli_helpers.py)."""
    return run_main(*args, stdin=stdin or "")


def test_cli_parse_voz_shape() -> None:
    done = _companion("parse", "--voz", "--json", "rolar dois d seis mais um")
    assert done.returncode == 0
    assert json.loads(done.stdout) == {"command": "rolar", "args": {"expressao": "2d6+1"}}
    refused = _companion("parse", "--voz", "--json", "terreno deserto")
    assert refused.returncode == 1
    assert json.loads(refused.stdout)["command"] is None


def test_cli_every_line_of_voz_frases_is_read_by_parse_voz(tmp_path: Path,
                                                           tables: Tables) -> None:
    from companion.session import Session

    db = tmp_path / "mesa.db"
    session = Session.open(db, 3, tables)
    session.join_player("Xandra")
    session.close()
    listed = _companion("voz", "frases", "--db", str(db))
    assert listed.returncode == 0, listed.stderr
    lines = listed.stdout.splitlines()
    assert any("xandra" in line.split() for line in lines)
    sample = [line for line in lines if "xandra" in line.split()][:40] + lines[::60]
    for extra in ([], ["--db", str(db)]):  # alone (any name) and with that session's party
        read = _companion("parse", "--voz", "--json", *extra, stdin="\n".join(sample) + "\n")
        answers = [json.loads(line) for line in read.stdout.splitlines()]
        assert len(answers) == len(sample)
        assert [(line, a) for line, a in zip(sample, answers) if a["command"] is None] == []


def test_cli_parse_voz_with_a_session_knows_only_its_party(tmp_path: Path,
                                                           tables: Tables) -> None:
    from companion.session import Session

    db = tmp_path / "mesa.db"
    session = Session.open(db, 3, tables)
    session.join_player("Xandra")
    session.close()
    alone = _companion("parse", "--voz", "--json", "pânico thorin")
    assert json.loads(alone.stdout)["command"] == "panico"
    strict = _companion("parse", "--voz", "--json", "--db", str(db), "pânico thorin")
    assert strict.returncode == 1 and json.loads(strict.stdout)["command"] is None
    known = _companion("parse", "--voz", "--json", "--db", str(db), "pânico xandra")
    assert json.loads(known.stdout) == {"command": "panico", "args": {"personagem": "Xandra"}}


@pytest.mark.parametrize("text", ["o gato come", "a vizinha está de guarda", "o ogro come",
                                  "paulo tirou doze", "o rafael rola os dados"])
def test_any_name_is_still_not_any_word(text: str, tables: Tables) -> None:
    assert read_voice(text, tables, Known(any_name=True)).command is None


def test_a_value_told_by_name_while_a_roll_waits(tables: Tables) -> None:
    waiting = Known.of(["Carla"], roll_waiting=True)
    assert read_voice("a carla tirou catorze", tables, waiting).command.args == \
        {"personagem": "Carla", "valor": 14}


def _golden() -> dict:
    import yaml

    return yaml.safe_load((ROOT / "tests" / "golden" / "voz.yaml").read_text(encoding="utf-8"))


def test_spoken_commands_are_read_and_table_talk_is_not(tables: Tables) -> None:
    golden = _golden()
    right = [text for text, name in golden["comandos"]
             if (read_voice(text, tables).command or _NO).name == name]
    false_accepts = [text for text in golden["conversa"]
                     if read_voice(text, tables).command is not None]
    assert len(right) >= 0.95 * len(golden["comandos"])
    assert len(false_accepts) <= 0.02 * len(golden["conversa"]), false_accepts


def test_spoken_commands_use_the_words_of_the_phrase_list(tables: Tables) -> None:
    words = set(grammar_words(phrase_list(tables)))
    sentences = [text for text, _ in _golden()["comandos"]]
    covered = [s for s in sentences if all(w in words for w in s.split())]
    assert len(covered) >= 0.97 * len(sentences)


class _NO:
    name = None
