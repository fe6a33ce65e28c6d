"""tables/rotulos_paginas.yaml: the words the pages' JavaScript writes and the ones written in the
pages' templates, checked at load (errors name the file and the key), every one the scripts and
the templates say is in the file and every one in the file is said, and the page the server
serves carries them (a changed word reaches the page)."""
from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
import requests

from companion.rules import labels
from companion.rules.loader import load_rules
from companion.server.app import start_in_thread
from companion.session import Session
from companion.tables.errors import TableError
from companion.tables.files import DEFAULT_DIR
from tests.browser_helpers import GM_TOKEN

SCRIPTS = Path(__file__).resolve().parents[2] / "web" / "static" / "js"
PAGES = [Path(__file__).resolve().parents[2] / "web" / "templates" / f"{name}.html"
         for name in ("mestre", "jogador", "mesa")]
# a word a page template says: rotulo("section.key")
SAID_BY_PAGE = re.compile(r"""rotulo\(["'](\w+\.\w+)["']\)""")
COMMENT = re.compile(r"\{#.*?#\}", re.DOTALL)
# a label key as the scripts write it: "section.key", a whole string literal
KEY = re.compile(r"""["'](\w+)\.(\w+)["']""")
NOT_LABELS = {"regras.yaml"}  # a file name (regras.js: the rules' download)
DATA_BLOCK = re.compile(r'<script type="application/json" id="textos">(.*?)</script>', re.DOTALL)


def copy_with(tmp_path: Path, old: str, new: str) -> Path:
    """tables/ copied to tmp_path with one text of rotulos_paginas.yaml replaced."""
    folder = tmp_path / "tables"
    shutil.copytree(DEFAULT_DIR, folder)
    path = folder / "rotulos_paginas.yaml"
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1, old
    path.write_text(text.replace(old, new), encoding="utf-8")
    return folder


def said_keys() -> set[str]:
    """Every "section.key" string of the scripts whose section is one of the file's."""
    sections = set(labels.page_labels(load_rules())["textos"])
    return {f"{section}.{key}" for path in SCRIPTS.glob("*.js")
            for section, key in KEY.findall(path.read_text(encoding="utf-8"))
            if section in sections} - NOT_LABELS


def test_every_word_the_scripts_say_is_in_the_file_and_every_word_there_is_said() -> None:
    texts = labels.page_labels(load_rules())["textos"]
    written = {f"{section}.{key}" for section, words in texts.items() for key in words}
    said = said_keys()
    assert said - written == set(), "palavras que as páginas pedem e o arquivo não tem"
    assert written - said == set(), "palavras do arquivo que nenhuma página diz"


def page_keys() -> set[str]:
    """Every "section.key" the three page templates say (their comments left out)."""
    return {key for path in PAGES for key in SAID_BY_PAGE.findall(
        COMMENT.sub("", path.read_text(encoding="utf-8")))}


def test_every_word_the_page_templates_say_is_in_the_file_and_every_html_word_is_said() -> None:
    tables = load_rules()
    html = {f"{section}.{key}" for section, words in tables["rotulos_paginas"]["html"].items()
            for key in words}
    said = page_keys()
    assert said - set(labels.page_words(tables)) == set(), "palavras que os modelos pedem e o arquivo não tem"
    assert html - said == set(), "palavras de `html` que nenhum modelo diz"
    assert not set(labels.page_labels(tables)) - {"textos", "destaques", "campos"}  # html: not sent


def test_the_pages_get_the_sheets_names_and_highlights_from_the_tables() -> None:
    served = labels.page_labels(load_rules())
    assert served["campos"]["pv"] == "PV" and served["campos"]["dano_sab"] == "dano de SAB"
    assert served["destaques"] == {"sanidade_ate": 4, "pv_fracao": 3}


@pytest.mark.parametrize("old, new, key", [
    ('    conectado: "Conectado"', '    conectado: ""', "textos.conexao.conectado"),
    ('    so_quem: "Só {nome}"', '    so_quem: "Só {nome"', "textos.registro.so_quem"),
    ('    dia: "Dia {n}"', '    dia: "Dia {n} }"', "textos.agora.dia"),
    ("  pv_fracao: 3", "  pv_fracao: 0", "destaques.pv_fracao"),
    ('    conectando: "Conectando…"', '    conectando: " "', "html.pagina.conectando"),
    ('    nome: "Mesa"', '    nome: "Mesa {n}"', "html.pagina.nome"),
    ("  pagina_mesa:", "  voz:", "voz"),
])
def test_a_broken_label_is_refused_at_load_naming_the_key(tmp_path: Path, old: str, new: str,
                                                          key: str) -> None:
    with pytest.raises(TableError) as error:
        load_rules(copy_with(tmp_path, old, new))
    assert "tables/rotulos_paginas.yaml" in error.value.message
    assert key in error.value.message


def test_a_label_that_is_not_text_is_refused(tmp_path: Path) -> None:
    with pytest.raises(TableError) as error:
        load_rules(copy_with(tmp_path, '    conectado: "Conectado"', "    conectado: [1, 2]"))
    assert "rotulos_paginas" in error.value.message and "conectado" in error.value.message


def test_labels_are_words_not_rules() -> None:
    from companion.rules import version

    assert "rotulos_paginas" in version.WORDING


@pytest.mark.parametrize("path", ["/jogador", "/mesa", f"/mestre?token={GM_TOKEN}"])
def test_a_label_changed_in_the_tables_reaches_the_served_page(tmp_path: Path,
                                                               path: str) -> None:
    """Every page carries its words, without a token and before any socket: the ones of the
    tables the server runs with (a copy with one word changed here)."""
    tables = load_rules(copy_with(tmp_path, '    conectado: "Conectado"',
                                  '    conectado: "Na mesa <agora> & já"'))
    session = Session.open(tmp_path / "mesa.db", 7, tables, gm_token=GM_TOKEN)
    running = start_in_thread(session)
    try:
        page = requests.get(running.url + path, timeout=10)
        assert page.status_code == 200
        block = DATA_BLOCK.findall(page.text)
        assert len(block) == 1
        assert "<agora>" not in block[0]  # escaped for the script element, read back as JSON
        served = json.loads(block[0])
        assert served["textos"]["conexao"]["conectado"] == "Na mesa <agora> & já"
        assert served["campos"]["sanidade"] == "Sanidade"
    finally:
        running.stop()
        session.close()


@pytest.mark.parametrize("path", ["/jogador", "/mesa", f"/mestre?token={GM_TOKEN}"])
def test_a_word_of_the_page_changed_in_the_tables_reaches_it_escaped(tmp_path: Path,
                                                                     path: str) -> None:
    """The words written in a page come from the tables the server runs with, escaped as HTML."""
    tables = load_rules(copy_with(tmp_path, '    nada_aconteceu: "Nada aconteceu ainda."',
                                  '    nada_aconteceu: "Nada <ainda> & \'já\'"'))
    session = Session.open(tmp_path / "mesa.db", 7, tables, gm_token=GM_TOKEN)
    running = start_in_thread(session)
    try:
        page = requests.get(running.url + path, timeout=10)
        assert page.status_code == 200
        assert '<li class="empty">Nada &lt;ainda&gt; &amp; &#39;já&#39;</li>' in page.text
        assert "Nada aconteceu ainda." not in page.text
    finally:
        running.stop()
        session.close()
