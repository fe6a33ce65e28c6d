"""The narration layer: codes and data → Portuguese, from templates in tables/narracao/."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from hypothesis import given, strategies as st
from jinja2 import Environment, StrictUndefined

from companion.tables.errors import TableError
from companion.tables.narration import (compile_templates, counted, duration_text, is_plain,
                                        load_narrator, number_text, plural_word, spoken_list)
from companion.tables.files import DEFAULT_DIR, Tables


def test_a_template_renders_its_data_with_the_portuguese_filters() -> None:
    narrator = compile_templates({"viagem": {
        "avancou": "O grupo avança {{ hexes | numero }} {{ hexes | plural('hex', 'hexes') }}.",
        "comeram": "{{ nomes | lista }} comem {{ racoes | contagem('ração') }}.",
        "escolha": "Diga {{ opcoes | ou }}; modificador {{ mod | sinal }}; {{ m | duracao }}.",
    }})
    assert narrator.render("viagem.avancou", {"hexes": 0.5}) == "O grupo avança 0,5 hex."
    assert narrator.render("viagem.avancou", {"hexes": 2}) == "O grupo avança 2 hexes."
    assert narrator.render("viagem.comeram", {"nomes": ["Ana", "Bia", "Caio"], "racoes": 3}) \
        == "Ana, Bia e Caio comem 3 rações."
    assert narrator.render("viagem.escolha", {"opcoes": ["sim", "não"], "mod": -1, "m": 490}) \
        == "Diga sim ou não; modificador -1; 8 horas e 10 minutos."
    assert narrator.codes == {"viagem.avancou", "viagem.comeram", "viagem.escolha"}


def test_missing_data_and_unknown_codes_name_the_file_and_key() -> None:
    narrator = compile_templates({"masmorra": {"luz": "A {{ luz }} se apagou."}})
    with pytest.raises(TableError, match=r"narracao/masmorra\.yaml.*'luz'.*não traz"):
        narrator.render("masmorra.luz", {})
    with pytest.raises(TableError, match=r"narracao/masmorra\.yaml: falta o texto 'masmorra.x'"):
        narrator.render("masmorra.x", {"luz": "tocha"})


def test_a_template_that_cannot_use_its_data_names_the_file_and_key() -> None:
    narrator = compile_templates({"perseguicao": {"placar": "Placar {{ placar + 1 }}."}})
    assert narrator.render("perseguicao.placar", {"placar": 1}) == "Placar 2."
    with pytest.raises(TableError, match=r"narracao/perseguicao\.yaml: o texto 'placar' não"):
        narrator.render("perseguicao.placar", {"placar": "alto"})


def test_a_broken_template_is_refused_when_loaded(tmp_path: Path) -> None:
    (tmp_path / "narracao").mkdir()
    (tmp_path / "narracao" / "panico.yaml").write_text('teste: "{{ nome "\n', encoding="utf-8")
    with pytest.raises(TableError, match=r"narracao/panico\.yaml: 'teste' tem um modelo"):
        load_narrator(tmp_path)
    (tmp_path / "narracao" / "panico.yaml").write_text("teste: [1, 2\n", encoding="utf-8")
    with pytest.raises(TableError, match=r"narracao/panico\.yaml: YAML inválido \(linha"):
        load_narrator(tmp_path)


EXHAUSTION_TEXTS = {  # the three texts that list the exhaustion levels, as they always read
    "viagem.dia_sem_descanso": ("Um dia sem descansar: cada personagem recebe 1 ponto de "
                                "exaustão (exaustão agora: {})."),
    "masmorra.sem_descanso": ("O grupo não descansou depois de uma hora de exploração: cada "
                              "personagem sofre 1 ponto de exaustão (exaustão: {})."),
    "perseguicao.exaustao": ("A perseguição longa cobra seu preço: cada personagem sofre "
                             "1 ponto de exaustão (exaustão: {})."),
}


@pytest.mark.parametrize("code", sorted(EXHAUSTION_TEXTS))
@pytest.mark.parametrize("levels, said", [
    ([["Ana", 2], ["Bia", 1]], "Ana 2, Bia 1"), ([["Ana", 0]], "Ana 0"), ([], "nenhum personagem")])
def test_the_exhaustion_levels_are_one_shared_part(tables: Tables, code: str,
                                                    levels: list[list[object]],
                                                    said: str) -> None:
    assert "{% include '_partes.niveis_de_exaustao' %}" in tables.narration.sources[code]
    data = {"niveis": levels, "pontos": 1, "exaustao": 1}
    assert tables.narration.render(code, data) == EXHAUSTION_TEXTS[code].format(said)


def test_a_shared_part_is_included_and_is_no_code() -> None:
    narrator = compile_templates({
        "_partes": {"nomes": "{{ nomes | lista }}"},
        "viagem": {"grupo": "O grupo: {% include '_partes.nomes' %}."}})
    assert narrator.codes == {"viagem.grupo"}
    assert narrator.render("viagem.grupo", {"nomes": ["Ana", "Bia"]}) == "O grupo: Ana e Bia."
    with pytest.raises(TableError, match=r"narracao/viagem\.yaml: o texto 'grupo' usa um valor"):
        narrator.render("viagem.grupo", {})


def test_including_a_part_no_file_defines_is_refused_when_loaded() -> None:
    with pytest.raises(TableError, match=r"^tables/narracao/viagem\.yaml: 'grupo' inclui "
                                         r"'_partes\.nome', que nenhum arquivo define$"):
        compile_templates({"_partes": {"nomes": "{{ nomes }}"},
                           "viagem": {"grupo": "{% include '_partes.nome' %}"}})


@given(st.floats(min_value=0, max_value=1000, allow_nan=False).map(lambda v: round(v * 2) / 2))
def test_numbers_read_with_a_decimal_comma_and_plural_from_two(value: float) -> None:
    text = counted(value, "hex", "hexes")
    assert "." not in text and text.startswith(number_text(value))
    assert text.endswith(" hex" if 0 < value < 2 else " hexes")


@given(st.lists(st.text(alphabet="abcdfghij", min_size=1, max_size=5), max_size=6))
def test_a_spoken_list_keeps_every_item_in_order(items: list[str]) -> None:
    said = spoken_list(items)
    assert said.replace(" e ", ", ").split(", ") == items if items else said == ""


def test_durations() -> None:
    assert [duration_text(m) for m in (0, 30, 60, 490)] == [
        "0 minutos", "30 minutos", "1 hora", "8 horas e 10 minutos"]


@pytest.mark.parametrize(("singular", "plural_form"), [
    ("ração", "rações"), ("porção", "porções"), ("mão", "mãos"), ("pão", "pães"),
    ("cão", "cães"), ("irmão", "irmãos"), ("capitão", "capitães"), ("órgão", "órgãos"),
    ("bênção", "bênçãos"), ("Mão", "Mãos"), ("hex", "hexs"), ("rodada", "rodadas"),
])
def test_the_automatic_plural_of_ao_words(singular: str, plural_form: str) -> None:
    assert plural_word(2, singular) == plural_form
    assert plural_word(1, singular) == singular


def test_a_template_jinja_refuses_to_compile_is_refused_when_loaded() -> None:
    """Checked at load as compiling it would: an unknown filter is found when Jinja generates
    the template's Python, after parsing, and is still a load error naming file and key."""
    with pytest.raises(TableError, match=r"^tables/narracao/viagem\.yaml: 'x' tem um modelo "
                                         r"inválido \(No filter named 'nao_existe'\.\)$"):
        compile_templates({"viagem": {"x": "{{ a | nao_existe }}"}})


def test_a_text_without_jinja_is_said_as_jinja_would_say_it(tables: Tables) -> None:
    """Plain texts are never compiled: each shipped one renders as Jinja renders it."""
    environment = Environment(undefined=StrictUndefined, autoescape=False,
                              keep_trailing_newline=True)
    plain = {code: text for code, text in tables.narration.sources.items() if is_plain(text)}
    assert len(plain) > 100
    for code, text in plain.items():
        assert tables.narration.render(code, {"x": 1}) == environment.from_string(text).render(
            x=1) == text, code
    assert not is_plain("a\r\nb") and not is_plain("{# nada #}") and is_plain("{ a } %}")


def test_templates_compile_when_first_said_and_a_reload_shares_them(tmp_path: Path) -> None:
    shutil.copytree(DEFAULT_DIR / "narracao", tmp_path / "narracao")
    path = tmp_path / "narracao" / "viagem.yaml"
    original = path.read_text(encoding="utf-8")
    unique = f"teste_{tmp_path.name}"  # contents no other test loaded in this process
    path.write_text(f"{original}\n{unique}: \"{{{{ n | numero }}}} hex\"\n", encoding="utf-8")
    narrator = load_narrator(tmp_path)
    assert narrator.compiled == {}  # checked, none compiled yet
    assert narrator.render(f"viagem.{unique}", {"n": 1.5}) == "1,5 hex"
    assert list(narrator.compiled) == [f"viagem.{unique}"]
    assert load_narrator(tmp_path) is narrator  # the same files: the same narrator
    path.write_text(f"{original}\n{unique}: \"{{{{ n | numero }}}} hexes\"\n",
                    encoding="utf-8")
    changed = load_narrator(tmp_path)
    assert changed is not narrator and changed.render(f"viagem.{unique}", {"n": 2}) == "2 hexes"
