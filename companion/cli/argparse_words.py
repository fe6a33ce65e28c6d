"""argparse in Portuguese, by its own translation hook.

argparse says every message through gettext (`argparse._(msgid)` and `argparse.ngettext`), then
fills the msgid's %-fields itself. While a PortugueseParser builds, parses or formats, those two
names point at a catalog made of tables/narracao/linha_de_comando.yaml: the English msgid in,
its Portuguese format string out, and argparse fills it as usual. A msgid the catalog does not
know (a newer Python's) stays as argparse says it, never mangled.

The help of every action and option (tables/narracao/ajuda_cli.yaml) is read the same way,
`words(HELP)`, when the parser is built. Only those narration files are read (not the whole
tables/): the usage, the help and the argument errors come before the tables load. A text with
no Jinja in it (nearly all of them) is never compiled: it is said as it is written, as Jinja
would say it (companion.tables.narration.is_plain).
"""
from __future__ import annotations

import argparse
from contextlib import contextmanager
from functools import cache
from typing import Any, Callable, Iterator, Mapping, NoReturn

import yaml

from companion.tables.files import DEFAULT_DIR
from companion.tables.narration import (  # noqa: F401  (JINJA: the tests read it here)
    FOLDER, JINJA, LOADER, Narrator, compile_templates)

FILE = "linha_de_comando"  # tables/narracao/linha_de_comando.yaml
HELP = "ajuda_cli"  # tables/narracao/ajuda_cli.yaml


class _Counted(str):
    """A message whose %s is a list argparse joined with ', ': one name takes `self`, several
    take `plural`."""

    plural: str

    def __new__(cls, singular: str, plural: str) -> _Counted:
        said = super().__new__(cls, singular)
        said.plural = plural
        return said

    def __mod__(self, names: Any) -> str:
        form = self.plural if isinstance(names, str) and ", " in names else str(self)
        return form % names


class _Typed(str):
    """'invalid %(type)s value': the type's name (int, float) said in Portuguese."""

    types: Mapping[str, str]

    def __new__(cls, text: str, types: Mapping[str, str]) -> _Typed:
        said = super().__new__(cls, text)
        said.types = types
        return said

    def __mod__(self, fields: Any) -> str:
        if isinstance(fields, dict) and "type" in fields:
            fields = {**fields, "type": self.types.get(fields["type"], fields["type"])}
        return str(self) % fields


@cache
def words(file: str = FILE) -> Narrator:
    """One file of the program's own tables/narracao/ (linha_de_comando.yaml unless named),
    read alone, before the tables (a text is compiled when first said; one with no Jinja in
    it, nearly all of them, is said as written)."""
    with (DEFAULT_DIR / FOLDER / f"{file}.yaml").open(encoding="utf-8") as handle:
        texts = yaml.load(handle, Loader=LOADER) or {}
    return compile_templates({file: texts})


@cache
def catalog() -> Mapping[str, str]:
    """argparse's msgids (Python 3.11 and later) → their Portuguese."""
    said = words()
    missing = said.render("linha_de_comando.falta_valor", {})
    return {
        "usage: ": said.render("linha_de_comando.uso", {}),
        "options": said.render("linha_de_comando.opcoes", {}),
        "positional arguments": said.render("linha_de_comando.argumentos_posicionais", {}),
        "show this help message and exit": said.render("linha_de_comando.ajuda", {}),
        "%(prog)s: error: %(message)s\n": said.render("linha_de_comando.erro", {}),
        "argument %(argument_name)s: %(message)s": said.render("linha_de_comando.argumento", {}),
        "invalid %(type)s value: %(value)r": _Typed(
            said.render("linha_de_comando.valor_invalido", {}),
            {"int": said.render("linha_de_comando.tipo_inteiro", {}),
             "float": said.render("linha_de_comando.tipo_numero", {})}),
        "invalid choice: %(value)r (choose from %(choices)s)": said.render(
            "linha_de_comando.escolha_invalida", {}),
        "expected one argument": missing,
        "expected at least one argument": missing,
        "expected at most one argument": missing,
        "expected %s argument": missing,
        "expected %s arguments": missing,
        "not allowed with argument %s": said.render("linha_de_comando.nao_vale_junto", {}),
        "ignored explicit argument %r": said.render("linha_de_comando.nao_leva_valor", {}),
        "the following arguments are required: %s": _Counted(
            said.render("linha_de_comando.falta_argumento", {}),
            said.render("linha_de_comando.faltam_argumentos", {})),
        "unrecognized arguments: %s": said.render("linha_de_comando.desconhecidos", {}),
        "one of the arguments %s is required": said.render("linha_de_comando.um_destes", {}),
        "ambiguous option: %(option)s could match %(matches)s": said.render(
            "linha_de_comando.ambigua", {}),
        "unknown parser %(parser_name)r (choices: %(choices)s)": said.render(
            "linha_de_comando.subcomando_desconhecido", {}),
    }


def _translate(msgid: str) -> str:
    return catalog().get(msgid, msgid)


def _translate_plural(singular: str, plural: str, count: int) -> str:
    msgid = singular if count == 1 else plural
    return catalog().get(msgid, msgid)


@contextmanager
def _portuguese() -> Iterator[None]:
    """argparse's gettext names pointed at the catalog for the duration (nested calls keep
    the outer ones)."""
    saved: tuple[Callable[..., str], Callable[..., str]] = (argparse._, argparse.ngettext)
    argparse._, argparse.ngettext = _translate, _translate_plural  # type: ignore[assignment]
    try:
        yield
    finally:
        argparse._, argparse.ngettext = saved  # type: ignore[assignment]


class PortugueseParser(argparse.ArgumentParser):
    """argparse with its usage, help and errors in Portuguese (tables/narracao/
    linha_de_comando.yaml); a mistake still exits with status 2, after the usage line."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        with _portuguese():
            super().__init__(*args, **kwargs)

    def parse_args(self, *args: Any, **kwargs: Any) -> Any:
        with _portuguese():
            return super().parse_args(*args, **kwargs)

    def parse_known_args(self, *args: Any, **kwargs: Any) -> Any:
        with _portuguese():
            return super().parse_known_args(*args, **kwargs)

    def format_usage(self) -> str:
        with _portuguese():
            return super().format_usage()

    def format_help(self) -> str:
        with _portuguese():
            return super().format_help()

    def error(self, message: str) -> NoReturn:
        """The usage line, then the error, and exit status 2 (argparse's own, in Portuguese)."""
        with _portuguese():
            super().error(message)
