"""Every word a person at the table reads lives in tables/ (issue 23): no Portuguese string
literal in companion/ or web/static/js/ outside this allowlist.

The list is a ratchet. Each entry is a file with how many source lines of it hold Portuguese
literals today (tests/portuguese_literals.py) and why: `data` (lexicon words the parser or the
recogniser must match), `bootstrap` (what is said while tables/ itself loads, before any
narration can be), `not yet` (prose still to move to tables/narracao/ or tables/paginas.yaml).
A new Portuguese literal fails; so does a file that has fewer than listed (lower its number, or
drop the entry once it reaches 0), so the list only shrinks.

To move a text: add a code to tables/narracao/<subject>.yaml and say it with
`tables.narration.render("<subject>.<code>", {...})` (tests/test_narration_coverage.py checks
both ends). `python tests/portuguese_literals.py` prints today's counts.
"""
from __future__ import annotations

from tests.portuguese_literals import ROOT, counts

VALIDATE = "not yet: InvalidValue texts of validate() (to be said by code when the validators move)"
PAGES_JS = "not yet: page labels written in JS (to be sent by the server with the page texts)"

ALLOWED: dict[str, tuple[int, str]] = {
    "companion/__init__.py": (1, 'bootstrap: the one line refusing an old Python, said before anything can load'),
    "companion/commands/contract.py": (2, VALIDATE),
    "companion/commands/sentences.py": (2, VALIDATE),
    "companion/engine/exhaustion.py": (1, VALIDATE),
    "companion/engine/procedures/chase.py": (3, VALIDATE),
    "companion/engine/procedures/checks.py": (1, VALIDATE),
    "companion/engine/procedures/conditions.py": (11, "not yet: InvalidValue texts of validate() (to be said by code when the validators move); the condition's 'com …' / 'de dano por rodada' wording"),
    "companion/engine/procedures/dice_tables.py": (5, VALIDATE),
    "companion/engine/procedures/dungeon.py": (1, VALIDATE),
    "companion/engine/procedures/encounters.py": (10, VALIDATE),
    "companion/engine/procedures/panic.py": (1, VALIDATE),
    "companion/engine/procedures/party.py": (3, VALIDATE),
    "companion/engine/procedures/travel.py": (2, VALIDATE),
    "companion/engine/prompting.py": (1, VALIDATE),
    "companion/engine/rows.py": (1, VALIDATE),
    "companion/engine/terrain.py": (2, VALIDATE),
    "companion/engine/validators.py": (2, VALIDATE),
    "companion/report/export.py": (3, "not yet: CSV 'sim'/'não' and the format refusal"),
    "companion/report/render.py": (1, "not yet: the report's HTML built in Python (to become Jinja templates in web/templates/)"),
    "companion/report/source.py": (6, 'not yet: ReportError texts (no tables at hand where the campaign file is read)'),
    "companion/report/words.py": (1, 'not yet: the error about tables/relatorio.yaml itself'),
    "companion/rules/overlay.py": (8, "not yet: the export header, '(arquivo inteiro)', the YAML error, regions in use"),
    "companion/rules/pages.py": (4, VALIDATE),
    "companion/rules/version.py": (1, "not yet: '(arquivo inteiro)', stored as the key of a whole-file rule change"),
    "companion/server/qr.py": (1, "data: the GM page's address (/mestre?token=…), a route, not prose"),
    "companion/speech/config.py": (3, 'not yet: speech settings errors'),
    "companion/speech/speaker.py": (5, "not yet: the speaker's log lines"),
    "companion/speech/voices.py": (9, 'not yet: voice lookup messages'),
    "companion/tables/files.py": (4, 'bootstrap: errors about reading tables/ itself, said before any narration is loaded'),
    "companion/tables/narration.py": (14, "bootstrap: the narrator's errors about tables/narracao/ itself, and the words of the Portuguese filters (plurals in -ão, 'hora', 'minuto')"),
    "companion/tables/places.py": (1, 'bootstrap: where tables/ and web/ are, said before the tables load'),
    "companion/tables/protocol.py": (3, VALIDATE),
    "companion/tables/rulebook.py": (10, "bootstrap: the typed-piece loader's messages (unknown key, wrong type, InvalidValue), said while the tables load"),
    "companion/voice/config.py": (8, 'not yet: voice settings errors'),
    "companion/voice/gate.py": (1, 'not yet: the listening-mode refusal'),
    "companion/voice/judge.py": (3, 'not yet: why a heard phrase was refused'),
    "companion/voice/listener.py": (1, 'not yet: a log line'),
    "companion/voice/models.py": (1, 'not yet: the model lookup message'),
    "companion/voice/ouvir.py": (2, 'not yet: `companion ouvir` messages'),
    "companion/voice/phrases.py": (2, 'not yet: phrase expansion errors'),
    "companion/voice/recognizer.py": (6, 'not yet: recognizer errors'),
    "companion/voice/sources.py": (5, 'not yet: WAV format refusals'),
    "companion/voice/spoken.py": (2, "data: numbers in Portuguese words (the recogniser's lexicon)"),
    "web/static/js/answer.js": (2, PAGES_JS),
    "web/static/js/commands.js": (1, PAGES_JS),
    "web/static/js/common.js": (6, PAGES_JS),
    "web/static/js/fala.js": (5, PAGES_JS),
    "web/static/js/jogador.js": (7, PAGES_JS),
    "web/static/js/mesa.js": (4, PAGES_JS),
    "web/static/js/mestre-link.js": (2, PAGES_JS),
    "web/static/js/mestre.js": (15, PAGES_JS),
    "web/static/js/prompt-card.js": (5, PAGES_JS),
    "web/static/js/regras.js": (17, PAGES_JS),
    "web/static/js/view.js": (17, PAGES_JS),
    "web/static/js/voz-mesa.js": (2, PAGES_JS),
    "web/static/js/voz-mestre.js": (7, PAGES_JS),
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
