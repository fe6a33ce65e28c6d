"""Load the rule tables in tables/*.yaml, once, at start.

`load_tables` reads every file (through a cache keyed on each file's content) and builds every
typed piece declared so far (companion.tables.rulebook.piece: each module that reads a part of a file
declares its dataclass; companion.rules.loader.load_rules imports them all first). This module imports
none of them. Errors name the file and the key path, never a traceback.
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
from typing import Any, Callable, Mapping, TypeVar

import yaml

from companion.tables import places
from companion.tables.errors import TableError
from companion.tables.narration import LOADER, Narrator, load_narrator
from companion.tables.rulebook import build_piece, build_pieces, check_piece

T = TypeVar("T")

DEFAULT_DIR = places.program_folder("tables")
@dataclass(frozen=True)
class Tables:
    """The parsed tables, by file stem ('viagem' for tables/viagem.yaml)."""

    files: Mapping[str, Any]
    directory: Path
    pieces: dict[type, Any] = field(default_factory=dict, compare=False, repr=False)
    narrator: Narrator | None = field(default=None, compare=False, repr=False)
    # not an argument: a Tables made with dataclasses.replace(…, files=…) computes its own
    derived_values: dict[Callable[..., Any], Any] = field(default_factory=dict, init=False,
                                                          compare=False, repr=False)

    def piece(self, cls: type[T]) -> T:
        """The typed piece `cls` (typed rules, rulebook.piece): built at load, or on first
        use for Tables made by hand from changed files (tests)."""
        found = self.pieces.get(cls)
        if found is None:
            found = self.pieces[cls] = build_piece(cls, self.files, self.narration)
            try:
                check_piece(cls, found, self.piece, self.narration)
            except TableError:
                del self.pieces[cls]
                raise
        return found

    def derived(self, make: Callable[[Tables], T]) -> T:
        """What `make` computes from these tables' pieces (e.g. conditions.condition_notes:
        the conditions table rows note), computed once per Tables."""
        if make not in self.derived_values:
            self.derived_values[make] = make(self)
        return self.derived_values[make]

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


def program_narration() -> Narrator:
    """The narration of the program's tables/ (or $COMPANION_TABLES'), compiled once."""
    return _narrator_of(Path(os.environ.get("COMPANION_TABLES") or DEFAULT_DIR))


# What reading a YAML file gave, kept like Python keeps bytecode: marshal, named by the file's
# SHA-256 (and the Python and PyYAML versions), so an edited file is simply read again.


def _cache_dir() -> Path:
    try:
        return places.cache_folder() / "tabelas"
    except (RuntimeError, OSError, KeyError):  # no home folder: the cache is only skipped
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
    """Read every tables/*.yaml (or $COMPANION_TABLES/*.yaml) and build each typed piece
    declared so far (companion.rules.loader.load_rules imports every declaring module first)."""
    folder = Path(directory or os.environ.get("COMPANION_TABLES") or DEFAULT_DIR)
    files = {path.stem: _read(path) for path in sorted(folder.glob("*.yaml"))}
    narrator = load_narrator(folder)  # first: a piece's own check says by narration code
    # what a refused value should be (tables/narracao/validacao.yaml)
    return Tables(files=files, directory=folder, pieces=build_pieces(files, narrator),
                  narrator=narrator)
