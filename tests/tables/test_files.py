"""Loading and validating tables/: broken files name the file and the key."""
from __future__ import annotations

import shutil
import subprocess
import sys
from dataclasses import dataclass, fields, is_dataclass, make_dataclass
from pathlib import Path
from typing import Mapping, Optional, get_args, get_origin, get_type_hints

import pytest

from companion.tables.errors import TableError
from companion.tables.narration import compile_templates
from companion.tables.rulebook import PIECES, build_piece, piece
from companion.tables.files import DEFAULT_DIR
from companion.rules.loader import load_rules
from companion.engine.model import Attribute
from tests.rules_helpers import changed_rules


def copy_tables(tmp_path: Path) -> Path:
    target = tmp_path / "tables"
    shutil.copytree(DEFAULT_DIR, target)
    return target


def test_real_tables_load(tables) -> None:
    assert "comandos" in tables.files
    assert tables.get("comandos", "comandos", "avancar", "modos") == ["viagem"]


def test_missing_key_names_file_and_key(tmp_path: Path) -> None:
    folder = copy_tables(tmp_path)
    path = folder / "comandos.yaml"
    path.write_text(path.read_text(encoding="utf-8").replace("  masmorra: masmorra\n", "", 1),
                    encoding="utf-8")
    with pytest.raises(TableError) as error:
        load_rules(folder)
    assert "tables/comandos.yaml" in error.value.message
    assert "modos.masmorra" in error.value.message


def test_wrong_type_names_the_key(tmp_path: Path) -> None:
    folder = copy_tables(tmp_path)
    path = folder / "comandos.yaml"
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("avancar: {modos: [viagem]", "avancar: {modos: viagem", 1),
                    encoding="utf-8")
    with pytest.raises(TableError) as error:
        load_rules(folder)
    assert "comandos.avancar.modos" in error.value.message


def test_invalid_yaml_names_the_line(tmp_path: Path) -> None:
    folder = copy_tables(tmp_path)
    (folder / "comandos.yaml").write_text("modos: [\n  : :\n", encoding="utf-8")
    with pytest.raises(TableError) as error:
        load_rules(folder)
    assert "comandos.yaml" in error.value.message and "YAML inválido" in error.value.message


def test_a_refused_value_is_said_by_the_narration_of_the_folder_being_loaded(
        tmp_path: Path) -> None:
    folder = copy_tables(tmp_path)
    rules = folder / "masmorra.yaml"
    rules.write_text(rules.read_text(encoding="utf-8").replace(
        "inseguro: {nome: Inseguro, chance: 1,", "inseguro: {nome: Inseguro, chance: 9,", 1),
        encoding="utf-8")
    with pytest.raises(TableError) as shipped:
        load_rules(folder)
    assert shipped.value.message.endswith("deveria ser uma chance em 6, de 0 a 6")
    texts = folder / "narracao" / "validacao.yaml"
    texts.write_text(texts.read_text(encoding="utf-8").replace(
        'chance_em_6: "uma chance em 6, de 0 a 6"', 'chance_em_6: "de 0 a 6 (desta pasta)"'),
        encoding="utf-8")
    with pytest.raises(TableError) as own:
        load_rules(folder)
    assert own.value.message == shipped.value.message.replace(
        "uma chance em 6, de 0 a 6", "de 0 a 6 (desta pasta)")


def test_missing_file(tmp_path: Path) -> None:
    folder = copy_tables(tmp_path)
    (folder / "comandos.yaml").unlink()
    with pytest.raises(TableError, match="comandos.yaml"):
        load_rules(folder)


def test_get_missing_path_is_a_table_error(tables) -> None:
    with pytest.raises(TableError, match="chave 'comandos.nao_existe'"):
        tables.get("comandos", "comandos", "nao_existe")


@dataclass(frozen=True)
class _B:
    b: int


@pytest.mark.parametrize(
    ("kind", "value", "ok"),
    [
        (int, 1, True),
        (int, "x", False),
        (int, True, False),
        (float | int, 1.5, True),
        (float | int, 2, True),
        (tuple[int, ...], [1, 2], True),
        (tuple[int, ...], [1, "dois"], False),
        (Mapping[str, _B], {"x": {"b": 1}, "y": {"b": 2}}, True),
        (Mapping[str, _B], {"x": {"b": 1}, "y": {}}, False),
    ],
)
def test_piece_shapes(kind, value, ok) -> None:
    """The shapes a typed piece accepts (what the old schemas checked, now rulebook.piece)."""
    shape = piece("f")(make_dataclass("_Shape", [("a", kind)], frozen=True))
    try:
        if ok:
            assert build_piece(shape, {"f": {"a": value}}, compile_templates({})).a is not None
        else:
            with pytest.raises(TableError, match=r"tables/f\.yaml: .*'a"):
                build_piece(shape, {"f": {"a": value}}, compile_templates({}))
    finally:
        PIECES.pop(shape, None)


def test_cli_reports_broken_tables_without_traceback(tmp_path: Path) -> None:
    folder = copy_tables(tmp_path)
    (folder / "comandos.yaml").write_text("modos: {}\n", encoding="utf-8")
    result = subprocess.run(
        [sys.executable, "-m", "companion", "parse", "--json", "ajuda"],
        capture_output=True, text=True, env={"COMPANION_TABLES": str(folder), "PATH": ""},
        timeout=60,
    )
    assert result.returncode == 2
    assert "tables/comandos.yaml" in result.stderr + result.stdout
    assert "Traceback" not in result.stderr


def test_read_tables_are_kept_and_an_edited_file_is_read_again(tmp_path: Path,
                                                                monkeypatch) -> None:
    """The start-up cache (marshal, named by each file's SHA-256) gives back exactly what the
    YAML gave; an edited file is read again, and a broken cache file only means re-reading."""
    import companion.tables.files as tables_module

    cache = tmp_path / "cache"
    monkeypatch.setattr(tables_module, "CACHE_DIR", cache)
    folder = copy_tables(tmp_path)
    first = load_rules(folder)
    kept = sorted(p.name for p in cache.iterdir())
    assert len(kept) == len(list(folder.glob("*.yaml")))
    assert load_rules(folder).files == first.files
    assert repr(load_rules(folder).files) == repr(first.files)  # snapshot versions agree
    path = folder / "inicio.yaml"
    text = path.read_text(encoding="utf-8")
    assert text.count("valor: planicie") == 1
    path.write_text(text.replace("valor: planicie", "valor: colinas"), encoding="utf-8")
    edited = load_rules(folder)
    assert edited.files["inicio"]["terreno"]["valor"] == "colinas"
    assert len(list(cache.glob("inicio-*.marshal"))) == 1  # the old one is gone
    for file in cache.iterdir():
        file.write_bytes(b"\x00 not marshal")
    assert load_rules(folder).files == edited.files


def _atributo_fields(kind: object, seen: set[type]) -> list[tuple[str, object]]:
    """(class name, declared type) of every field called `atributo` inside a piece's type."""
    origin = get_origin(kind) or kind
    if is_dataclass(origin) and isinstance(origin, type):
        if origin in seen:
            return []
        seen.add(origin)
        hints = get_type_hints(origin)
        found = [(origin.__name__, hints[f.name]) for f in fields(origin) if f.name == "atributo"]
        return found + [item for hint in hints.values() for item in _atributo_fields(hint, seen)]
    return [item for arg in get_args(kind) if isinstance(arg, type) or get_origin(arg)
            for item in _atributo_fields(arg, seen)]


def test_every_attribute_in_the_rules_is_one_of_the_six() -> None:
    """No piece reads a key `atributo` as free text: an attribute's name is an Attribute (the
    load refuses anything else); the others are amounts (descanso's `recupera`, the limits)."""
    seen: set[type] = set()
    found = [item for cls in list(PIECES) for item in _atributo_fields(cls, seen)]
    assert [name for name, kind in found if kind in (str, Optional[str])] == []
    assert len([kind for _, kind in found if kind in (Attribute, Optional[Attribute])]) >= 7


@pytest.mark.parametrize("old, new, where", [
    ("  dc_por_rodada: 3     # rodadas subsequentes: +3\n  atributo: con",
     "  dc_por_rodada: 3     # rodadas subsequentes: +3\n  atributo: sorte", "tabela_b.atributo"),
    ("  dados: 1d20\n  atributo: des", "  dados: 1d20\n  atributo: destreza", "tabela_g.atributo"),
])
def test_an_unknown_attribute_is_refused_at_load(tmp_path: Path, old: str, new: str,
                                                 where: str) -> None:
    with pytest.raises(TableError, match=rf"^tables/viagem\.yaml: '{where}' deveria ser um "
                                         r"destes: for, des, con, int, sab, car$"):
        changed_rules(tmp_path, "viagem.yaml", old, new)
