"""Small modules with one job: no Python file under companion/ is over 500 lines."""
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


def test_no_python_file_under_companion_is_over_500_lines() -> None:
    assert too_long(ROOT / "companion") == {}, "split these into modules with one job each"


def test_the_count_sees_a_long_file(tmp_path) -> None:
    package = tmp_path / "companion"
    package.mkdir()
    (package / "short.py").write_text("x = 1\n" * LIMIT, encoding="utf-8")
    (package / "long.py").write_text("x = 1\n" * (LIMIT + 1), encoding="utf-8")
    assert too_long(package) == {"companion/long.py": LIMIT + 1}
