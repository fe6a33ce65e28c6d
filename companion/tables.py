"""Load and validate the rule tables in tables/*.yaml, once, at start.

Each module that reads a file declares its shape with `register_schema` (the engine's procedures,
the sentence templates' parser, the voice settings…); this module imports none of them:
companion.loader.load_rules imports the registering modules first, then calls `load_tables`,
which checks every schema registered by then. A schema is
a nested structure: a dict maps required keys to sub-schemas (the key "*" matches any key), a
one-item list means "a non-empty list of this", and a type (int, str, float, bool, dict, list)
or a tuple of types is a leaf. Errors name the file and the key path, never a traceback.
"""
from __future__ import annotations

import glob
import hashlib
import marshal
import os
import re
import sys
import threading
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, Mapping, TypeVar

import yaml

from companion.errors import TableError
from companion.narration import Narrator, load_narrator
from companion.rulebook import build_piece, build_pieces

T = TypeVar("T")

DEFAULT_DIR = Path(__file__).resolve().parent.parent / "tables"
SCHEMAS: dict[str, Any] = {}


def register_schema(file: str, schema: Any) -> None:
    """Declare the shape of tables/<file>.yaml (file without extension).

    Several modules may share one file (casa.yaml): their dict schemas are merged by key.
    """
    previous = SCHEMAS.get(file)
    if isinstance(previous, dict) and isinstance(schema, dict):
        schema = {**previous, **schema}
    SCHEMAS[file] = schema


@dataclass(frozen=True)
class Tables:
    """The parsed tables, by file stem ('viagem' for tables/viagem.yaml)."""

    files: Mapping[str, Any]
    directory: Path
    pieces: dict[type, Any] = field(default_factory=dict, compare=False, repr=False)
    narrator: Narrator | None = field(default=None, compare=False, repr=False)

    def piece(self, cls: type[T]) -> T:
        """The typed piece `cls` (typed rules, rulebook.piece): built at load, or on first
        use for Tables made by hand from changed files (tests)."""
        found = self.pieces.get(cls)
        if found is None:
            found = self.pieces[cls] = build_piece(cls, self.files)
        return found

    @property
    def narration(self) -> Narrator:
        """The compiled narration templates of this tables directory."""
        return self.narrator if self.narrator is not None else _narrator_of(self.directory)

    def __getitem__(self, file: str) -> Any:
        try:
            return self.files[file]
        except KeyError:
            raise TableError(f"tables/{file}.yaml: arquivo não encontrado") from None

    def get(self, file: str, *path: str | int) -> Any:
        """Look a value up by path; a missing key is a TableError naming file and key."""
        node = self[file]
        for depth, key in enumerate(path):
            try:
                node = node[key]
            except (KeyError, IndexError, TypeError):
                where = ".".join(str(k) for k in path[: depth + 1])
                raise TableError(f"tables/{file}.yaml: chave '{where}' não encontrada") from None
        return node


@lru_cache(maxsize=8)
def _narrator_of(directory: Path) -> Narrator:
    return load_narrator(directory)


def _type_name(expected: Any) -> str:
    names = {int: "número inteiro", str: "texto", float: "número", bool: "sim/não",
             dict: "mapa", list: "lista"}
    if isinstance(expected, tuple):
        return " ou ".join(names.get(t, t.__name__) for t in expected)
    return names.get(expected, getattr(expected, "__name__", str(expected)))


def check(data: Any, schema: Any, file: str, path: str = "") -> None:
    """Raise TableError if data does not have the shape of schema."""
    where = path or "(raiz)"
    if isinstance(schema, dict):
        if not isinstance(data, dict):
            raise TableError(f"tables/{file}.yaml: '{where}' deveria ser um mapa")
        for key, sub in schema.items():
            if key == "*":
                for real_key, value in data.items():
                    check(value, sub, file, f"{path}.{real_key}" if path else str(real_key))
                continue
            if key not in data:
                full = f"{path}.{key}" if path else str(key)
                raise TableError(f"tables/{file}.yaml: falta a chave '{full}'")
            check(data[key], sub, file, f"{path}.{key}" if path else str(key))
        return
    if isinstance(schema, list):
        if not isinstance(data, list) or not data:
            raise TableError(f"tables/{file}.yaml: '{where}' deveria ser uma lista não vazia")
        for index, item in enumerate(data):
            check(item, schema[0], file, f"{path}[{index}]")
        return
    expected = schema if isinstance(schema, tuple) else (schema,)
    if float in expected:
        expected = expected + (int,)
    if isinstance(data, bool) and bool not in expected:
        raise TableError(f"tables/{file}.yaml: '{where}' deveria ser {_type_name(schema)}")
    if not isinstance(data, expected):
        raise TableError(f"tables/{file}.yaml: '{where}' deveria ser {_type_name(schema)}")


# libyaml's safe loader when PyYAML has it (the same documents, several times faster at start-up)
LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
# What reading a YAML file gave, kept like Python keeps bytecode: marshal, named by the file's
# SHA-256 (and the Python and PyYAML versions), so an edited file is simply read again.


def _cache_dir() -> Path:
    try:
        return Path(os.environ.get("XDG_CACHE_HOME") or Path("~/.cache").expanduser()) / "mesa"
    except RuntimeError:  # no home directory: the cache (then unwritable) is only skipped
        return Path("/nonexistent/mesa")


CACHE_DIR = _cache_dir()
_CACHE_TAG = f"{sys.implementation.cache_tag}-yaml{yaml.__version__}"
_CACHED_NAME = re.compile(r"[0-9a-f]{32}-.*\.marshal")  # what follows "<stem>-"


def _read(path: Path) -> Any:
    try:
        raw = path.read_bytes()
        text = raw.decode("utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise TableError(f"tables/{path.name}: não consegui ler o arquivo ({error})") from None
    cached = CACHE_DIR / f"{path.stem}-{hashlib.sha256(raw).hexdigest()[:32]}-{_CACHE_TAG}.marshal"
    try:
        return marshal.loads(cached.read_bytes())
    except (OSError, ValueError, EOFError, TypeError):
        pass  # not read before (or an unreadable cache file): read the YAML
    data = _parse(path, text.replace("\r\n", "\n").replace("\r", "\n"))
    _keep(cached, path.stem, data)
    return data


def _parse(path: Path, text: str) -> Any:
    try:
        return yaml.load(text, Loader=LOADER)
    except yaml.YAMLError as error:
        mark = getattr(error, "problem_mark", None)
        line = f" (linha {mark.line + 1})" if mark is not None else ""
        raise TableError(f"tables/{path.name}: YAML inválido{line}") from None


def _keep(cached: Path, stem: str, data: Any) -> None:
    """Write the cache file (atomically), dropping older ones of the same table; a cache that
    cannot be written only means reading the YAML again next time."""
    try:
        blob = marshal.dumps(data)
        cached.parent.mkdir(parents=True, exist_ok=True)
        partial = cached.with_name(f"{cached.name}.{os.getpid()}.{threading.get_ident()}")
        partial.write_bytes(blob)
        os.replace(partial, cached)
        for old in cached.parent.glob(f"{glob.escape(stem)}-*.marshal"):
            if old != cached and _CACHED_NAME.fullmatch(old.name[len(stem) + 1:]):
                old.unlink(missing_ok=True)
    except (OSError, ValueError):
        pass


def load_tables(directory: Path | str | None = None) -> Tables:
    """Read every tables/*.yaml (or $COMPANION_TABLES/*.yaml) and check each schema registered
    so far (companion.loader.load_rules registers them all first)."""
    folder = Path(directory or os.environ.get("COMPANION_TABLES") or DEFAULT_DIR)
    files = {path.stem: _read(path) for path in sorted(folder.glob("*.yaml"))}
    for file, schema in SCHEMAS.items():
        if file not in files:
            raise TableError(f"tables/{file}.yaml: arquivo não encontrado em {folder}")
        check(files[file], schema, file)
    return Tables(files=files, directory=folder, pieces=build_pieces(files),
                  narrator=load_narrator(folder))
