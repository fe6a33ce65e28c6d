"""Small modules with one job: no Python file under companion/, tests/ or bench/ is over 500
lines, and no module name repeats across packages."""
from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LIMIT = 500  # lines


def too_long(root: Path, limit: int = LIMIT) -> dict[str, int]:
    """Each Python file under `root` over `limit` lines, with its count (paths with '/')."""
    found = {}
    for path in sorted(root.rglob("*.py")):
        with path.open(encoding="utf-8") as text:
            lines = sum(1 for _ in text)
        if lines > limit:
            found[path.relative_to(root.parent).as_posix()] = lines
    return found


CHECKED = ("companion", "tests", "bench")


def test_no_python_file_under_companion_tests_or_bench_is_over_500_lines() -> None:
    found = {}
    for folder in CHECKED:
        found.update(too_long(ROOT / folder))
    assert found == {}, "split these into modules with one job each"


def test_the_count_sees_a_long_file(tmp_path) -> None:
    package = tmp_path / "companion"
    package.mkdir()
    (package / "short.py").write_text("x = 1\n" * LIMIT, encoding="utf-8")
    (package / "long.py").write_text("x = 1\n" * (LIMIT + 1), encoding="utf-8")
    assert too_long(package) == {"companion/long.py": LIMIT + 1}


SHARED_NAMES = {"__init__.py", "__main__.py"}  # every package has them: not a collision


def repeated_names(root: Path) -> dict[str, list[str]]:
    """Module names found in more than one package under `root`, with where each is."""
    places: dict[str, list[str]] = {}
    for path in sorted(root.rglob("*.py")):
        if path.name not in SHARED_NAMES:
            places.setdefault(path.name, []).append(path.relative_to(root.parent).as_posix())
    return {name: where for name, where in places.items() if len(where) > 1}


def test_no_module_name_repeats_across_packages() -> None:
    """A name says its layer (docs/camadas.md, "Um nome por camada"): a search by name finds
    one place."""
    assert repeated_names(ROOT / "companion") == {}


def test_the_names_check_sees_a_repeated_name(tmp_path) -> None:
    for package in ("voice", "session"):
        (tmp_path / "companion" / package).mkdir(parents=True)
        (tmp_path / "companion" / package / "reading.py").write_text("", encoding="utf-8")
        (tmp_path / "companion" / package / "__init__.py").write_text("", encoding="utf-8")
    assert repeated_names(tmp_path / "companion") == {
        "reading.py": ["companion/session/reading.py", "companion/voice/reading.py"]}
