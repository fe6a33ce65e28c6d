"""Spoken words: what the screen shows → what a listener takes in (tables/fala.yaml `pronuncia`).

The golden test plays every golden script through a session and the server's projections (what
SpeechHub hands a speaker: the viewer's copy of an event, through SpeechConfig.spoken), and the
refusals a spoken command would get: none keeps a dice expression, an abbreviation or a symbol
the voice misreads.
"""
from __future__ import annotations

import copy
import re
import shutil
from pathlib import Path

import pytest
import yaml
from hypothesis import given, settings, strategies as st

from companion.server.projections import Projections
from companion.session import Session
from companion.speech.speech_config import SpeechData, speech_config
from companion.speech.pronunciation import Pronunciation, compile_rules, spoken_words
from companion.tables.errors import TableError
from companion.tables.files import Tables
from companion.rules.loader import load_rules
from tests.golden_scripts import SCRIPTS, read_script


# What the voice would misread: dice (1d6, d20), the screen's abbreviations, "DC 12" (a Roman
# numeral), times written "20h30", and symbols.
MISREAD = {
    "dado": re.compile(r"(?<![\w])\d*d\d+(?![\w])"),
    "abreviação": re.compile(r"(?<![\w])(PV|PVs|CON|DES|SAB|FOR|INT|CAR|DESV|San|Exa|Mun|PdIs?|"
                             r"DC|CD|min)(?![\w])|(?<![\w])Com (?=\d)"),
    "hora": re.compile(r"(?<![\w])\d{1,2}h(\d\d)?(?![\w])"),
    "símbolo entre números": re.compile(r"\d ?[:/–—\-=+] ?\d"),
    "símbolo": re.compile(r"[/×→|–—·=≤≥<>+%…]"),
}


def _misread(text: str) -> list[str]:
    return [f"{what}: {found.group(0)!r}" for what, pattern in MISREAD.items()
            for found in pattern.finditer(text)]


@pytest.fixture(scope="module")
def spoken(tables: Tables):  # type: ignore[no-untyped-def]
    return speech_config(tables).spoken


@pytest.mark.parametrize("shown, said", [
    ("Ana: teste de CON DC 12.", "Ana: teste de Constituição dificuldade 12."),
    ("teste CD 15", "teste dificuldade 15"),
    ("Clima — 1d6 = 5: Sem mudança", "Clima, um dado de 6, deu 5: Sem mudança"),
    ("Rolagem — 1d20+2 = 20", "Rolagem, um dado de 20 mais 2, deu 20"),
    ("role 2d20 e fique com o pior", "jogue dois dados de 20 e fique com o pior"),
    ("Role 1d20: passa com 6 ou menos", "Jogue um dado de 20: passa com 6 ou menos"),
    ("role 1d20+0 (DES), dificuldade 12", "jogue um dado de 20 (Destreza), dificuldade 12"),
    ("Dia 1 · rodada 1 de 6 (0h–4h)", "Dia 1, rodada 1 de 6 (da meia-noite às 4 horas)"),
    ("rodada 6 de 6 (20h–24h)", "rodada 6 de 6 (das 20 à meia-noite)"),
    ("São 20h30.", "São vinte horas e trinta."),
    ("Dia 1 · 0h10 · turno 1", "Dia 1, meia-noite e dez, turno 1"),
    ("Tabela E: Forragear/Caçar/Pescar", "Tabela E: Forragear ou Caçar ou Pescar"),
    ("O grupo viaja Montado / Dirigindo", "O grupo viaja Montado ou Dirigindo"),
    ("anda 1/2 do movimento", "anda metade do movimento"),
    ("Ana: PV 8/8", "Ana: pontos de vida 8 de 8"),
    ("Dados rolados: d6 × 32, d20 × 1", "Dados rolados: 32 vezes o dado de 6, 1 vez o dado de 20"),
    ("Perigo Inseguro: 1:6 a cada 3 turnos", "Perigo Inseguro: 1 em 6 a cada 3 turnos"),
    ("Ana: PV 12 → 9.", "Ana: pontos de vida de 12 para 9."),
    ("Turno de exploração 1 (10 min)", "Turno de exploração 1 (10 minutos)"),
    ("Os PdIs óbvios", "Os pontos de interesse óbvios"),
    ("respondeu: 3 + 1 = 4.", "respondeu: 3 mais 1 dá 4."),
    ("CON +1 DES +2", "Constituição mais 1, Destreza mais 2"),
    ("placar -1", "placar menos 1"),
    ("Com DESV: role 1d20 duas vezes", "Com desvantagem: jogue um dado de 20 duas vezes"),
    ("Role 1d6. 3:6 | Encontro Aleatório.", "Jogue um dado de 6. 3 em 6. Encontro Aleatório."),
    ("(18 > Sanidade 6)", "(18 maior que Sanidade 6)"),
])
def test_a_shown_text_is_said_in_words(spoken, shown: str, said: str) -> None:  # type: ignore[no-untyped-def]
    assert spoken(shown) == said


def test_estado_says_each_character_in_a_short_sentence(spoken) -> None:  # type: ignore[no-untyped-def]
    shown = ("Dia 1 · rodada 6 de 6 (20h–24h) · Primavera: Ameno · Estepe, Andando, 1,5 hex\n"
             "Grupo: Ana PV 12/12 San 10 Exa 0 Com 2 Água 2 Mun 0; "
             "Bia PV 8/8 San 9 Exa 1 Com 3 Água 1 Mun 4")
    said = spoken(shown)
    assert "Ana tem 12 de 12 pontos de vida, sanidade 10, exaustão 0, comida 2, água 2, " \
           "munição 0. Bia tem 8 de 8 pontos de vida, sanidade 9, exaustão 1, comida 3, " \
           "água 1, munição 4" in said
    assert "1,5 hex. Grupo:" in said
    assert not _misread(said)


def test_the_rules_are_the_tables_a_changed_table_changes_what_is_said(tables: Tables) -> None:
    data = tables.piece(SpeechData).pronuncia
    changed = Pronunciation(data.numeros, data.trocas, {**data.palavras, "PV": "vida"},
                            data.simbolos)
    assert spoken_words("PV 3", compile_rules(changed)) == "vida 3"
    assert spoken_words("PV 3", compile_rules(data)) == "pontos de vida 3"


def test_a_bad_rewrite_in_the_table_is_refused_when_the_rules_load(tmp_path: Path) -> None:
    source = Path(__file__).resolve().parents[2] / "tables"
    target = tmp_path / "tables"
    shutil.copytree(source, target)
    fala = yaml.safe_load((target / "fala.yaml").read_text(encoding="utf-8"))
    broken = copy.deepcopy(fala)
    broken["pronuncia"]["trocas"][0]["padrao"] = "(sem fechar"
    (target / "fala.yaml").write_text(yaml.safe_dump(broken, allow_unicode=True),
                                      encoding="utf-8")
    with pytest.raises(TableError, match=r"pronuncia\.trocas\[0\]\.padrao"):
        load_rules(target)


@pytest.mark.parametrize("script", SCRIPTS, ids=[path.stem for path in SCRIPTS])
def test_what_each_golden_command_says_holds_nothing_the_voice_misreads(
        tables: Tables, script: Path) -> None:
    """Every event of every golden command, as the GM's and the table's copy a speaker gets
    (any of them may be the spoken headline), and every refusal, as said."""
    seed, lines = read_script(script)
    config = speech_config(tables)
    session = Session.open(None, seed, tables)
    projections = Projections(session, tables)
    found: list[str] = []
    said_any = 0
    try:
        for line in lines:
            result = session.run(line)
            texts = [result.error or ""] if not result.ok else \
                [projections.show(event, viewer)["text"] for event in result.events
                 for viewer in (["gm", "public"] if event["visibility"] == "public" else ["gm"])]
            for text in texts:
                said = config.spoken(text)
                said_any += bool(said)
                found += [f"{line!r} → {said!r}: {problem}" for problem in _misread(said)]
    finally:
        session.close()
    assert said_any > 0
    assert not found, "\n".join(found[:20])


@settings(max_examples=300, deadline=None)
@given(text=st.text(alphabet=st.sampled_from(list("0123456789dhDCPV/:×→–—|=+-·., ;\nAaRole")),
                    max_size=40))
def test_any_text_is_said_without_an_error_and_once_said_says_the_same(
        tables: Tables, text: str) -> None:
    """Speech must never break a command: any text becomes words, and words stay words."""
    spoken = speech_config(tables).spoken
    said = spoken(text)
    assert isinstance(said, str)
    assert spoken(said) == said or _misread(said)
