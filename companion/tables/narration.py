"""Narration: an event's (or a refusal's) code and data → the Portuguese a person reads.

The rules decide *what* happened and say it as a code with structured data; this layer says it
in words. Templates live in `tables/narracao/*.yaml`, one file per subject, each a mapping from
a code to a Jinja2 template:

    viagem.avancou: "O grupo avança {{ hexes | numero }} {{ hexes | plural('hex', 'hexes') }}."

A code is `<file>.<key>` (the file's stem, then the key). Templates are compiled once, when the
rules load; a template with a syntax error is a TableError naming the file and the key, and so
is rendering a code no file defines or a template that uses data the event does not carry
(StrictUndefined: a missing value is never rendered as an empty string).

A file whose name starts with '_' holds shared parts, not codes: a template says one with
`{% include '_partes.niveis_de_exaustao' %}` (the part sees the template's data). Parts are
compiled with the rest; including a part no file defines is a TableError when the rules load.

Filters for Portuguese: `numero` (1,5 · 2), `plural(n, singular, plural)` (the word only;
'ração' → 'rações', 'mão' → 'mãos' by themselves), `contagem(singular, plural)` (number and word: '2 rações'),
`lista` ('Ana, Bia e Caio'), `ou` ('Ana, Bia ou Caio'), `sinal` (+1 · −1 · +0),
`duracao` (minutes → '8 horas e 10 minutos') and `meio_de_frase` (a sentence of the data said
inside another: 'Não adiciona…' → 'não adiciona…'; 'DESV em…' stays).
"""
from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any, Iterable, Mapping

import yaml
from jinja2 import Environment, FunctionLoader, StrictUndefined, Template, TemplateError, \
    UndefinedError, meta

from companion.tables.errors import TableError

FOLDER = "narracao"  # under the tables directory
PARTS = "_"  # a file stem starting with it holds shared parts (included), not codes


def number_text(value: float) -> str:
    """A number as people read it in Brazil: 1,5 (decimal comma), 2 (no ',0')."""
    if float(value).is_integer():
        return str(int(value))
    return f"{value:g}".replace(".", ",")


# Words in -ão whose plural is not -ões. Paroxytones (órgão, bênção, sótão: an accent before
# the -ão) take -s by rule; these are the common ones the rule cannot tell.
_AO_PLURALS = {"mão": "mãos", "irmão": "irmãos", "grão": "grãos", "chão": "chãos",
               "vão": "vãos", "cidadão": "cidadãos", "cristão": "cristãos",
               "pão": "pães", "cão": "cães", "capitão": "capitães", "alemão": "alemães",
               "capelão": "capelães", "escrivão": "escrivães", "tabelião": "tabeliães",
               "charlatão": "charlatães", "sacristão": "sacristães"}
_ACCENTED = set("áéíóúâêô")


def _ao_plural(singular: str) -> str:
    """The plural of a word in -ão: the list above, -ãos for a paroxytone, else -ões."""
    known = _AO_PLURALS.get(singular.lower())
    if known is not None:
        return singular[0] + known[1:] if singular[:1].isupper() else known
    if _ACCENTED & set(singular[:-2].lower()):
        return singular + "s"
    return singular[:-2] + "ões"


def plural_word(count: float, singular: str, plural_form: str | None = None) -> str:
    """The word for `count` things: singular for 1 (and 1,5), plural from 2 up and for 0.
    The plural is singular + 's' unless given; a word in -ão gets its own ('ração' →
    'rações', 'mão' → 'mãos', 'pão' → 'pães')."""
    if plural_form is None:
        plural_form = _ao_plural(singular) if singular.endswith("ão") else singular + "s"
    return singular if 0 < abs(count) < 2 else plural_form


def counted(count: float, singular: str, plural_form: str | None = None) -> str:
    """'1 rodada', '2 rodadas', '0 rodadas', '1,5 hex'."""
    return f"{number_text(count)} {plural_word(count, singular, plural_form)}"


def spoken_list(items: Iterable[Any], last: str = "e") -> str:
    """'Ana', 'Ana e Bia', 'Ana, Bia e Caio' (or 'ou' before the last)."""
    words = [str(item) for item in items]
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + f" {last} " + words[-1]


def signed(value: int) -> str:
    """+1, -1, +0: a modifier as written on a sheet."""
    return f"{value:+d}"


def duration_text(minutes: int) -> str:
    """'8 horas e 10 minutos', '1 hora', '30 minutos'."""
    hours, rest = divmod(max(0, int(minutes)), 60)
    parts = ([counted(hours, "hora")] if hours else []) + ([counted(rest, "minuto")] if rest else [])
    return " e ".join(parts) or counted(0, "minuto")


def mid_sentence(text: str) -> str:
    """A sentence of the data said inside another: its first letter in lower case ('Não
    adiciona…' → 'não adiciona…'), unless its first word is an acronym ('DESV em…')."""
    first = text.split(" ", 1)[0]
    if not text or first.isupper() and len(first) > 1:
        return text
    return text[0].lower() + text[1:]


def _environment(parts: Mapping[str, str]) -> Environment:
    environment = Environment(undefined=StrictUndefined, autoescape=False,
                              keep_trailing_newline=True, loader=FunctionLoader(parts.get))
    environment.filters.update({
        "numero": number_text,
        "plural": plural_word,
        "contagem": counted,
        "lista": spoken_list,
        "ou": lambda items: spoken_list(items, "ou"),
        "sinal": signed,
        "duracao": duration_text,
        "meio_de_frase": mid_sentence,
    })
    return environment


@dataclass(frozen=True)
class Narrator:
    """The compiled templates of tables/narracao/, by code ('viagem.avancou')."""

    templates: Mapping[str, Template]
    sources: Mapping[str, str]  # code → the template's text (for tests and the docs)

    @cached_property
    def codes(self) -> frozenset[str]:
        """Every code with a template (made once: the fan-out asks it per event and viewer)."""
        return frozenset(self.templates)

    @cached_property
    def _said(self) -> tuple[threading.Lock, OrderedDict[tuple[str, Any], str]]:
        """(code, the data as a key) → the text rendered from them, the newest RENDERS_KEPT
        (and the lock the server's threads take to read or change them)."""
        return threading.Lock(), OrderedDict()

    def render(self, code: str, data: Mapping[str, Any]) -> str:
        """The text for this code and data; a TableError names what is missing. A template is
        a function of its data: the same code and data (same values of the same types) give
        the same text, so the last RENDERS_KEPT texts are remembered — the log renders each
        event's text again to see whether it can be left out (DERIVED), and an evening says
        the same few things again and again."""
        frozen = _frozen(data)
        if frozen is _UNFROZEN:
            return self._render(code, data)
        key = (code, frozen)
        lock, said = self._said
        with lock:
            text = said.get(key)
            if text is not None:
                said.move_to_end(key)
                return text
        text = self._render(code, data)
        with lock:
            said[key] = text
            if len(said) > RENDERS_KEPT:
                said.popitem(last=False)
        return text

    def _render(self, code: str, data: Mapping[str, Any]) -> str:
        """The text for this code and data, rendered now."""
        template = self.templates.get(code)
        if template is None:
            file = code.split(".", 1)[0]
            raise TableError(f"tables/{FOLDER}/{file}.yaml: falta o texto '{code}'")
        try:
            return template.render(**data)
        except UndefinedError as error:
            file, key = _split(code)
            raise TableError(f"tables/{FOLDER}/{file}.yaml: o texto '{key}' usa um valor que "
                             f"o evento não traz ({error.message})") from None
        except (TemplateError, TypeError, ValueError, ArithmeticError) as error:
            file, key = _split(code)
            raise TableError(f"tables/{FOLDER}/{file}.yaml: o texto '{key}' não pôde ser "
                             f"escrito com estes dados ({error})") from None


RENDERS_KEPT = 2048  # texts Narrator.render remembers
_UNFROZEN = object()  # data `_frozen` cannot make a key of


def _frozen(value: Any) -> Any:
    """`value` as a hashable key that tells apart what a template could tell apart (the type
    of every value: 1, 1.0 and True, a list and a tuple), or _UNFROZEN when it holds anything
    but dicts, lists, tuples and JSON scalars (such data is rendered every time). A str or an
    int is its own key; anything else is a tuple led by its type, equal to no str or int."""
    kind = type(value)
    if kind is str or kind is int:
        return value
    if kind is dict:
        items = []
        for key, item in value.items():
            frozen = _frozen(item)
            if type(key) is not str or frozen is _UNFROZEN:
                return _UNFROZEN
            items.append((key, frozen))
        return (dict, tuple(items))
    if kind is list or kind is tuple:
        items = []
        for item in value:
            frozen = _frozen(item)
            if frozen is _UNFROZEN:
                return _UNFROZEN
            items.append(frozen)
        return (kind, tuple(items))
    if kind is float or kind is bool or value is None:
        return (kind, value)
    return _UNFROZEN


def _split(code: str) -> tuple[str, str]:
    file, _, key = code.partition(".")
    return file, key


def _texts(files: Mapping[str, Any]) -> dict[str, str]:
    """{'file.key': template text} of every file; errors name the file and the key."""
    texts: dict[str, str] = {}
    for file, entries in files.items():
        if not isinstance(entries, Mapping):
            raise TableError(f"tables/{FOLDER}/{file}.yaml: deveria ser um mapa de código → texto")
        for key, text in entries.items():
            if not isinstance(text, str):
                raise TableError(f"tables/{FOLDER}/{file}.yaml: '{key}' deveria ser texto")
            texts[f"{file}.{key}"] = text
    return texts


def _compiled(environment: Environment, code: str, text: str,
              parts: Mapping[str, str]) -> Template:
    """One template, with the parts it includes known; errors name the file and the key."""
    file, key = _split(code)
    try:
        missing = [name for name in meta.find_referenced_templates(environment.parse(text))
                   if name not in parts]
        compiled = environment.from_string(text)
    except TemplateError as error:
        raise TableError(f"tables/{FOLDER}/{file}.yaml: '{key}' tem um modelo "
                         f"inválido ({error.message})") from None
    if missing:
        raise TableError(f"tables/{FOLDER}/{file}.yaml: '{key}' inclui "
                         f"'{missing[0]}', que nenhum arquivo define")
    # Jinja keeps a template's globals as a ChainMap over the environment's and copies it into
    # every render's context: flattened once here (they never change), a render costs a third
    # less (the report renders every event of a session).
    compiled.globals = dict(compiled.globals)
    return compiled


def compile_templates(files: Mapping[str, Mapping[str, Any]]) -> Narrator:
    """Compile {file stem: {key: template text}} (files starting with '_' are shared parts,
    not codes); errors name the file and the key."""
    texts = _texts(files)
    parts = {code: text for code, text in texts.items() if code.startswith(PARTS)}
    environment = _environment(parts)
    templates = {code: _compiled(environment, code, text, parts)
                 for code, text in texts.items()}
    sources = {code: text for code, text in texts.items() if code not in parts}
    return Narrator(templates={code: templates[code] for code in sources}, sources=sources)


def load_narrator(tables_directory: Path) -> Narrator:
    """Read and compile tables/narracao/*.yaml (an absent folder is an empty narrator)."""
    files: dict[str, Any] = {}
    for path in sorted((tables_directory / FOLDER).glob("*.yaml")):
        try:
            with path.open(encoding="utf-8") as handle:
                files[path.stem] = yaml.safe_load(handle) or {}
        except yaml.YAMLError as error:
            mark = getattr(error, "problem_mark", None)
            line = f" (linha {mark.line + 1})" if mark is not None else ""
            raise TableError(f"tables/{FOLDER}/{path.name}: YAML inválido{line}") from None
    return compile_templates(files)


__all__ = ["Narrator", "compile_templates", "counted", "duration_text", "load_narrator",
           "number_text", "plural_word", "signed", "spoken_list"]
