"""The golden scripts (tests/golden/scripts/*.txt): a seed line `# semente: N`, comments, and
one command per line — read here for every test and benchmark that plays them."""
from __future__ import annotations

import re
from pathlib import Path

SCRIPTS = sorted((Path(__file__).resolve().parent / "golden" / "scripts").glob("*.txt"))
SEED_LINE = re.compile(r"#\s*semente:\s*(\d+)\s*$")


def read_script(path: Path) -> tuple[int, list[str]]:
    """The seed and the command lines of a golden script (a blank line is a command too: the
    shell answers it)."""
    seed: int | None = None
    lines: list[str] = []
    for line in path.read_text(encoding="utf-8").splitlines():
        match = SEED_LINE.match(line)
        if match:
            seed = int(match.group(1))
        elif not line.startswith("#"):
            lines.append(line)
    assert seed is not None, f"{path.name}: falta a linha '# semente: N'"
    return seed, lines
