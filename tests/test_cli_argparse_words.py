"""argparse's own messages in Portuguese through its gettext hook (companion/cli/argparse_words.py),
their words from tables/narracao/linha_de_comando.yaml (issue 23)."""
from __future__ import annotations

import argparse

import pytest

from companion.cli import argparse_words, build_parser
from companion.cli.argparse_words import PortugueseParser, catalog
from companion.server.access import MIN_GM_TOKEN
from companion.server.ports import DEFAULT_PORT
from companion.tables.files import Tables


def test_a_wrapped_usage_lines_up_under_the_portuguese_prefix() -> None:
    usage = build_parser()._subparsers._group_actions[0].choices["serve"].format_usage()
    first, second = usage.splitlines()[:2]
    assert first.startswith("uso: companion serve [-h]")
    assert len(second) - len(second.lstrip()) == len("uso: companion serve ")


def test_the_help_headings_and_the_help_option_are_portuguese() -> None:
    text = build_parser().format_help()
    assert text.startswith("uso: companion") and "\nopções:\n" in text
    assert "\nargumentos:\n" in text and "mostra esta ajuda e sai" in text
    assert "usage:" not in text and "options:" not in text


@pytest.mark.parametrize("argv, said", [
    (["--numero", "x"], "argumento --numero: valor inválido: 'x' (esperado: um número inteiro)"),
    (["--cor", "azul"], "argumento --cor: escolha inválida: 'azul' (use 'verde', 'rosa')"),
    ([], "falta o argumento: --cor"),
    (["--cor", "verde", "--sobra"], "argumentos desconhecidos: --sobra"),
])
def test_argument_errors_are_filled_by_argparse_in_portuguese(
        argv: list[str], said: str, capsys: pytest.CaptureFixture[str]) -> None:
    parser = PortugueseParser(prog="teste")
    parser.add_argument("--numero", type=int)
    parser.add_argument("--cor", choices=["verde", "rosa"], required=True)
    with pytest.raises(SystemExit) as exit:
        parser.parse_args(argv)
    assert exit.value.code == 2
    assert capsys.readouterr().err.splitlines()[-1] == f"teste: erro: {said}"


def test_several_missing_arguments_take_the_plural(capsys: pytest.CaptureFixture[str]) -> None:
    parser = PortugueseParser(prog="teste")
    parser.add_argument("--a", required=True)
    parser.add_argument("--b", required=True)
    with pytest.raises(SystemExit):
        parser.parse_args([])
    assert capsys.readouterr().err.endswith("teste: erro: faltam os argumentos: --a, --b\n")


def test_argparse_is_left_as_it_was_and_an_unknown_msgid_is_kept() -> None:
    english = argparse._
    PortugueseParser(prog="teste").parse_args([])
    assert argparse._ is english and argparse._("usage: ") == "usage: "
    assert "a message argparse may add one day" not in catalog()


@pytest.mark.parametrize("file", [argparse_words.FILE, argparse_words.HELP])
def test_a_file_read_before_the_tables_says_what_the_tables_say(file: str,
                                                                 tables: Tables) -> None:
    """linha_de_comando.yaml and ajuda_cli.yaml are read alone at start, their texts without
    Jinja kept as written: each says exactly what the loaded tables' narrator says."""
    alone = argparse_words.words(file)
    assert alone.codes == {code for code in tables.narration.codes
                           if code.startswith(f"{file}.")}
    data = {"porta": 8765, "minimo": 16, "motivo": "tables/x.yaml: ruim"}
    plain = [code for code in alone.codes if not argparse_words.JINJA.search(alone.sources[code])]
    assert 0 < len(plain) < len(alone.codes)  # both kinds are checked
    for code in alone.codes:
        assert alone.render(code, data) == tables.narration.render(code, data), code


def test_the_help_of_every_option_comes_from_the_help_file() -> None:
    said = argparse_words.words(argparse_words.HELP)
    serve = build_parser()._subparsers._group_actions[0].choices["serve"]
    helps = {action.dest: action.help for action in serve._actions}
    assert helps["port"] == said.render("ajuda_cli.serve_port", {"porta": DEFAULT_PORT})
    assert helps["gm_token"].startswith(f"fixa o token do Mestre, com {MIN_GM_TOKEN} caracteres")
    assert helps["tables"] == said.render("ajuda_cli.tables", {})
