"""Narration: an event's (or a refusal's) code and data → the Portuguese a person reads.

The rules decide *what* happened and say it as a code with structured data; this layer says it
in words. Templates live in `tables/narracao/*.yaml`, one file per subject, each a mapping from
a code to a Jinja2 template:

    viagem.avancou: "O grupo avança {{ hexes | numero }} {{ hexes | plural('hex', 'hexes') }}."

A code is `<file>.<key>` (the file's stem, then the key). Templates are checked when the rules
load (parsed, and their Python generated, as compiling them would: both cached by text), and each
is compiled when first rendered (once per text in a process; a text with no Jinja syntax is said
as written); a template with a syntax error is a TableError naming the file and the key, and so
is rendering a code no file defines or a template that uses data the event does not carry
(StrictUndefined: a missing value is never rendered as an empty string).

A file whose name starts with '_' holds shared parts, not codes: a template says one with
`{% include '_partes.niveis_de_exaustao' %}` (the part sees the template's data). Parts are
checked with the rest; including a part no file defines is a TableError when the rules load.

Filters for Portuguese: `numero` (1,5 · 2), `plural(n, singular, plural)` (the word only;
'ração' → 'rações', 'mão' → 'mãos' by themselves), `contagem(singular, plural)` (number and word: '2 rações'),
`lista` ('Ana, Bia e Caio'), `ou` ('Ana, Bia ou Caio'), `sinal` (+1 · −1 · +0),
`duracao` (minutes → '8 horas e 10 minutos') and `meio_de_frase` (a sentence of the data said
inside another: 'Não adiciona…' → 'não adiciona…'; 'DESV em…' stays).
"""
from __future__ import annotations

import marshal
import re
import threading
from collections import OrderedDict
from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from pathlib import Path
from types import CodeType
from typing import Any, Iterable, Mapping, NamedTuple, Protocol

import yaml
from jinja2 import Environment, FunctionLoader, StrictUndefined, Template, TemplateError, \
    UndefinedError, meta

from companion.tables.errors import TableError

FOLDER = "narracao"  # under the tables directory
PARTS = "_"  # a file stem starting with it holds shared parts (included), not codes
JINJA = re.compile(r"\{[{%#]")  # where Jinja's syntax starts: {{ … }}, {% … %}, {# … #}
# libyaml's safe loader when PyYAML has it (the same documents, several times faster)
LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class Renders(Protocol):
    """A template ready to render (Jinja's Template, or a plain text said as written)."""

    def render(self, *args: Any, **data: Any) -> str: ...


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


class _Plain(NamedTuple):
    """A text with no Jinja syntax in it: rendered, it is itself, as Jinja would say it."""

    text: str

    def render(self, **_data: Any) -> str:
        return self.text


class _Check(NamedTuple):
    """What checking one template's text found: the Python source Jinja makes of it and the
    parts it includes, or Jinja's message for what is wrong with it."""

    source: str
    includes: tuple[str, ...]
    failed: bool
    message: str | None  # Jinja's, when it failed


# Every narration environment is made alike (_environment), so what Jinja makes of a text
# depends on the text alone: checked once and compiled once per text in a process, however
# many times the rules load (the tests load changed copies of tables/ hundreds of times).
_CHECKING = _environment({})


@lru_cache(maxsize=8192)
def _checked(text: str) -> _Check:
    """Parse and generate the Python of `text` (Jinja's own checks, as compiling it would
    make them), without compiling that Python: most texts are never rendered in a process."""
    try:
        tree = _CHECKING.parse(text)
        includes = tuple(name for name in meta.find_referenced_templates(tree)
                         if isinstance(name, str))
        return _Check(_CHECKING.compile(tree, raw=True), includes, False, None)
    except TemplateError as error:
        return _Check("", (), True, error.message)


@lru_cache(maxsize=8192)
def _code(source: str) -> CodeType:
    """The compiled Python of a checked template (what Environment.from_string compiles)."""
    return compile(source, "<template>", "exec")


def is_plain(text: str) -> bool:
    """A text Jinja would say as it is written: none of its syntax (and no carriage return,
    which Jinja would turn into a newline)."""
    return JINJA.search(text) is None and "\r" not in text


@dataclass(frozen=True)
class Narrator:
    """The templates of tables/narracao/, by code ('viagem.avancou'): checked when loaded
    (compile_templates), each compiled when first rendered."""

    sources: Mapping[str, str]  # code → the template's text (for tests and the docs)
    parts: Mapping[str, str] = field(default_factory=dict)  # the shared parts ('_partes.x')
    compiled: dict[str, Renders] = field(default_factory=dict, compare=False, repr=False)

    @cached_property
    def codes(self) -> frozenset[str]:
        """Every code with a template (made once: the fan-out asks it per event and viewer)."""
        return frozenset(self.sources)

    @cached_property
    def environment(self) -> Environment:
        """The Jinja environment of these templates (it finds the parts they include)."""
        return _environment(self.parts)

    def template(self, code: str) -> Renders | None:
        """The compiled template of `code` (compiled on first use), or None."""
        found = self.compiled.get(code)
        if found is None:
            text = self.sources.get(code)
            if text is None:
                return None
            found = self.compiled[code] = _template(self.environment, text)
        return found

    def may_read(self, code: str, name: str) -> bool:
        """Whether the template of `code` may read the value `name`: its text or a shared part
        names it (a template reads only the values it names: no function of the environment
        sees the whole context). Answered once per code and name (asked per event)."""
        known = self._reads.get((code, name))
        if known is None:
            text = self.sources.get(code, "")
            known = self._reads[(code, name)] = \
                name in text or any(name in part for part in self.parts.values())
        return known

    @cached_property
    def _reads(self) -> dict[tuple[str, str], bool]:
        """(code, name) → may_read's answer (sources and parts never change)."""
        return {}

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
        key_of_data = _memo_key(data)
        if key_of_data is _NO_KEY:
            return self._render(code, data)
        key = (code, key_of_data)
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
        template = self.template(code)
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
_NO_KEY = object()  # data `_memo_key` cannot make a key of


def _memo_key(value: Any) -> Any:
    """`value` as a key that tells apart what a template could tell apart (the type of every
    value: 1, 1.0 and True, a list and a tuple, as marshal writes them: equal bytes read back
    as the same values of the same types), or _NO_KEY when it holds anything marshal does
    not write (an enum, a subclass of str, an object: such data is rendered every time). Two
    equal dicts built in another order make two keys: a text rendered twice, never a wrong
    one. Marshal's version 0 writes a string the same whether Python interned it or not, and
    writes no references: the same values, read back from JSON or made by the engine, give
    the same bytes."""
    try:
        return marshal.dumps(value, 0)
    except ValueError:
        return _NO_KEY


def _template(environment: Environment, text: str) -> Renders:
    """A checked text made ready to render: itself when plain, else its compiled template."""
    if is_plain(text):
        return _Plain(text)
    compiled = Template.from_code(environment, _code(_checked(text).source),
                                  environment.make_globals(None))
    # Jinja keeps a template's globals as a ChainMap over the environment's and copies it into
    # every render's context: flattened once here (they never change), a render costs a third
    # less (the report renders every event of a session).
    compiled.globals = dict(compiled.globals)
    return compiled


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


def _check(code: str, text: str, parts: Mapping[str, str]) -> None:
    """One template checked as compiling it would, with the parts it includes known; errors
    name the file and the key."""
    if is_plain(text):
        return
    file, key = _split(code)
    found = _checked(text)
    if found.failed:
        raise TableError(f"tables/{FOLDER}/{file}.yaml: '{key}' tem um modelo "
                         f"inválido ({found.message})")
    missing = [name for name in found.includes if name not in parts]
    if missing:
        raise TableError(f"tables/{FOLDER}/{file}.yaml: '{key}' inclui "
                         f"'{missing[0]}', que nenhum arquivo define")


def compile_templates(files: Mapping[str, Mapping[str, Any]]) -> Narrator:
    """Check {file stem: {key: template text}} (files starting with '_' are shared parts,
    not codes) as compiling them would; each is compiled when first rendered. Errors name
    the file and the key."""
    texts = _texts(files)
    parts = {code: text for code, text in texts.items() if code.startswith(PARTS)}
    for code, text in texts.items():
        _check(code, text, parts)
    sources = {code: text for code, text in texts.items() if code not in parts}
    return Narrator(sources=sources, parts=parts)


def load_narrator(tables_directory: Path) -> Narrator:
    """Read and check tables/narracao/*.yaml (an absent folder is an empty narrator). The
    same files read again (a copy of tables/, a reload) give the same narrator, its templates
    compiled once."""
    return _narrator_of(tuple((path.name, path.read_bytes())
                              for path in sorted((tables_directory / FOLDER).glob("*.yaml"))))


@lru_cache(maxsize=16)
def _narrator_of(contents: tuple[tuple[str, bytes], ...]) -> Narrator:
    files: dict[str, Any] = {}
    for name, raw in contents:
        # as a file opened as text reads it: UTF-8, every line ending a newline
        text = raw.decode("utf-8").replace("\r\n", "\n").replace("\r", "\n")
        try:
            files[name.removesuffix(".yaml")] = yaml.load(text, Loader=LOADER) or {}
        except yaml.YAMLError as error:
            mark = getattr(error, "problem_mark", None)
            line = f" (linha {mark.line + 1})" if mark is not None else ""
            raise TableError(f"tables/{FOLDER}/{name}: YAML inválido{line}") from None
    return compile_templates(files)


__all__ = ["JINJA", "LOADER", "Narrator", "Renders", "compile_templates", "counted",
           "duration_text", "is_plain", "load_narrator", "number_text", "plural_word", "signed",
           "spoken_list"]
