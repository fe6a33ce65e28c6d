"""The words the pages' JavaScript writes come from tables/rotulos_paginas.yaml (issue 23,
item 3): with one word changed in a copy of tables/, the page in Chromium writes the new one,
from its first paint on (the connection's status) to what it draws from the state."""
from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

from companion.rules.loader import load_rules
from companion.tables.files import DEFAULT_DIR
from tests.browser_helpers import TV
from tests.pages.page_helpers import live_table


def tables_with(tmp_path: Path, changes: dict[str, str]) -> Any:
    folder = tmp_path / "tables"
    shutil.copytree(DEFAULT_DIR, folder)
    path = folder / "rotulos_paginas.yaml"
    text = path.read_text(encoding="utf-8")
    for old, new in changes.items():
        assert text.count(old) == 1, old
        text = text.replace(old, new)
    path.write_text(text, encoding="utf-8")
    return load_rules(folder)


def test_a_word_changed_in_the_tables_is_the_word_the_page_writes(tmp_path: Path,
                                                                   browser: Any) -> None:
    tables = tables_with(tmp_path, {'    conectado: "Conectado"': '    conectado: "Na mesa"',
                                    '    clima: "Clima"': '    clima: "Tempo lá fora"'})
    with live_table(tmp_path, tables, browser) as table:
        screen = table.open("/mesa", viewport=TV)
        screen.locator("#status.on", has_text="Na mesa").wait_for()
        screen.locator("#glance .fact .k", has_text="Tempo lá fora").wait_for()
        assert "Conectado" not in screen.locator("body").inner_text()
