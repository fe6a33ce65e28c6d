"""Every word a person at the table reads lives in tables/ (issue 23): no Portuguese string
literal in companion/ or web/static/js/ outside this allowlist, and no word at all written in
the HTML of a page template (web/templates/).

The list is a ratchet. Each entry is a file with how many source lines of it hold Portuguese
literals today (tests/portuguese_literals.py) and why: `data` (lexicon words the parser or the
recogniser must match), `bootstrap` (what is said while tables/ itself loads, before any
narration can be), `not yet` (prose still to move to tables/narracao/ or tables/paginas.yaml).
A new Portuguese literal fails; so does a file that has fewer than listed (lower its number, or
drop the entry once it reaches 0), so the list only shrinks.

To move a text: add a code to tables/narracao/<subject>.yaml and say it with
`tables.narration.render("<subject>.<code>", {...})` (tests/tables/test_narration_coverage.py checks
both ends). A word the pages' JavaScript writes goes to tables/rotulos_paginas.yaml and is said
with `label("<section>.<key>", {...})` (web/static/js/pages.js; tests/rules/test_labels.py checks
both ends); a word written in a page template goes to the `html` sections of the same file and is
said with `{{ rotulo("<section>.<key>") }}`. `python tests/portuguese_literals.py` prints today's
counts.
"""
from __future__ import annotations

from tests.portuguese_literals import ROOT, counts


ALLOWED: dict[str, tuple[int, str]] = {
    "companion/__init__.py": (1, 'bootstrap: the one line refusing an old Python, said before anything can load'),
    "companion/rules/version.py": (1, "data: '(arquivo inteiro)', stored as the path of a whole-file rule change in campaign files and read back by it"),
    "companion/server/qr.py": (1, "data: the GM page's address (/mestre#token=…), a route, not prose"),
    "companion/tables/files.py": (4, 'bootstrap: errors about reading tables/ itself, said before any narration is loaded'),
    "companion/tables/narration.py": (14, "bootstrap: the narrator's errors about tables/narracao/ itself, and the words of the Portuguese filters (plurals in -ão, 'hora', 'minuto')"),
    "companion/tables/places.py": (1, 'bootstrap: where tables/ and web/ are, said before the tables load'),
    "companion/tables/rulebook.py": (8, "bootstrap: the typed-piece loader's own messages (unknown key, wrong type, the names of the types), said while the tables load; a piece's own check (InvalidValue) is said by code (tables/narracao/validacao.yaml)"),
    "companion/voice/spoken.py": (2, "data: numbers in Portuguese words (the recogniser's lexicon)"),
}


def test_no_new_portuguese_literal_outside_the_allowlist() -> None:
    found = counts()
    new = {name: number for name, number in found.items()
           if number > ALLOWED.get(name, (0, ""))[0]}
    assert new == {}, (
        "Portuguese text written in code (file: lines now): move it to tables/narracao/ and "
        f"say it with tables.narration.render; see `python tests/portuguese_literals.py`: {new}")


def test_the_allowlist_only_shrinks() -> None:
    found = counts()
    stale = {name: (listed, found.get(name, 0)) for name, (listed, _why) in ALLOWED.items()
             if found.get(name, 0) < listed}
    assert stale == {}, (
        "fewer Portuguese lines than listed (file: (listed, now)): lower the number in ALLOWED, "
        f"or drop the entry at 0: {stale}")


def test_every_entry_says_why() -> None:
    kinds = ("data:", "bootstrap:", "not yet:")
    assert [name for name, (_n, why) in ALLOWED.items() if not why.startswith(kinds)] == []
    assert all((ROOT / name).is_file() for name in ALLOWED)


def test_the_scan_sees_a_portuguese_literal_and_skips_keys_and_docstrings(tmp_path) -> None:
    from tests.portuguese_literals import javascript_lines, python_lines

    source = tmp_path / "sample.py"
    source.write_text('"""Docstring: não conta."""\nKEY = "jogador"\nPATH = "/mestre"\n'
                      'TEXT = "não entendi"\n# comentário: não conta\n', encoding="utf-8")
    assert python_lines(source) == [4]
    script = tmp_path / "sample.js"
    script.write_text('// não conta\nconst k = "mestre";\nconst t = `Exaustão: ${e}`;\n'
                      '/* também não */ const u = "pv_max";\n', encoding="utf-8")
    assert javascript_lines(script) == [3]


def test_the_scan_sees_a_word_in_a_template_and_skips_jinja_and_scripts(tmp_path) -> None:
    from tests.portuguese_literals import template_lines

    page = tmp_path / "page.html"
    page.write_text(
        '{#- A comment: não conta. -#}\n<title>{{ rotulo("pagina.titulo") }}</title>\n'
        '<h1>Mesa <small>{{ rotulo("x.y") }}</small></h1>\n'
        '<script type="application/json" id="textos">{"a": "não conta"}</script>\n'
        '<p id="url" class="url">/jogador</p><span>—</span>\n'
        '<button aria-label="{{ rotulo(\'a.b\') }}" title="Close">×</button>\n'
        '<img alt="Código QR"\n  src="/qr.svg">\n<!-- não conta -->\n'
        '<p>{% if a %}{{ a }}{% endif %}</p><p>Uma\nlinha e outra</p>\n', encoding="utf-8")
    assert template_lines(page) == [3, 6, 7, 10, 11]
