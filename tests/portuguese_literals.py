"""Find the Portuguese a person reads that is written in code instead of tables/.

The house rule: code in English; every word a person at the table reads comes from tables/
(tables/narracao/*.yaml through the Narrator, page texts in tables/paginas.yaml and
tables/rotulos_paginas.yaml). This module counts, per source file, the lines where a string
literal looks Portuguese: an accented letter or a common Portuguese word. Docstrings and
comments are English prose about the code and are not counted. The page templates
(web/templates/) are held stricter: a template has no lexicon data, so any word in the HTML's
text or in an attribute a person reads (a title, a label, a placeholder…) counts, whatever its
language; what Jinja writes (`{{ … }}`, `{% … %}`) and its comments do not. The heuristic is deliberately simple; tests/test_words_in_tables.py holds the
allowlist (lexicon data that must stay in code, and files not converted yet).
"""
from __future__ import annotations

import ast
import re
from html.parser import HTMLParser
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

# An accent Portuguese uses, or a short word English text never has (whole words, any case).
PORTUGUESE = re.compile(
    r"[ãõçáéíóúâêôàÃÕÇÁÉÍÓÚÂÊÔÀ]|\b(não|nao|use|diga|erro|para|com|sem|uma|um|está|esta|"
    r"arquivo|campanha|sessão|jogador|mestre|comando|ou|de|do|da|dos|das|no|na|ao|os|as|"
    r"em|que|é)\b", re.IGNORECASE)
# Words that are also English are not evidence alone.
_ENGLISH = re.compile(r"as|no|do|use", re.IGNORECASE)
# A lone lower-case ASCII word, path or file name ('nao', 'jogador', '/mestre', 'mesa.html') is a
# key, a route or a lexicon entry, not prose.
_KEY = re.compile(r"[a-z0-9_./:{}-]+")


def looks_portuguese(text: str) -> bool:
    """True when the literal has an accent, or a Portuguese word that is not also English;
    a lone lower-case ASCII word, path or file name (a key) is not prose."""
    if _KEY.fullmatch(text):
        return False
    return any(not _ENGLISH.fullmatch(match.group(0)) for match in PORTUGUESE.finditer(text))


def _docstrings(tree: ast.AST) -> set[int]:
    found: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            first = node.body[0] if node.body else None
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                found.add(id(first.value))
    return found


def python_lines(path: Path) -> list[int]:
    """The source lines of `path` where a non-docstring string literal looks Portuguese."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docstrings = _docstrings(tree)
    return sorted({node.lineno for node in ast.walk(tree)
                   if isinstance(node, ast.Constant) and isinstance(node.value, str)
                   and id(node) not in docstrings and looks_portuguese(node.value)})


# A JavaScript token we care about: a comment (skipped) or a string/template literal.
_JS_TOKEN = re.compile(
    r"//[^\n]*|/\*.*?\*/"
    r"|'(?:\\.|[^'\\\n])*'|\"(?:\\.|[^\"\\\n])*\"|`(?:\\.|[^`\\])*`",
    re.DOTALL)


def javascript_lines(path: Path) -> list[int]:
    """The lines of `path` where a string or template literal looks Portuguese."""
    text = path.read_text(encoding="utf-8")
    lines: set[int] = set()
    for match in _JS_TOKEN.finditer(text):
        token = match.group(0)
        if token.startswith(("//", "/*")):
            continue
        if looks_portuguese(token[1:-1]):
            lines.add(text.count("\n", 0, match.start()) + 1)
    return sorted(lines)


# Jinja's own syntax: an expression, a statement or a comment (what it writes is not a literal)
_JINJA = re.compile(r"\{\{.*?\}\}|\{%.*?%\}|\{#.*?#\}", re.DOTALL)
# The attributes whose value a person reads (or hears, from a screen reader)
READ_ATTRIBUTES = frozenset({"title", "alt", "placeholder", "label", "value",
                             "aria-label", "aria-description", "aria-roledescription",
                             "aria-placeholder", "aria-valuetext", "data-text"})
_LETTER = re.compile(r"[^\W\d_]")


def is_word(text: str) -> bool:
    """True when a template's text has a letter and is not a key, path or route ('/jogador')."""
    return bool(_LETTER.search(text)) and not _KEY.fullmatch(text)


class _PageText(HTMLParser):
    """The lines of an HTML page where its text or a read attribute has a word."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.lines: set[int] = set()
        self.raw: str | None = None  # inside <script> or <style>: data, not words

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if any(name in READ_ATTRIBUTES and value and is_word(value.strip())
               for name, value in attrs):
            self.lines.add(self.getpos()[0])
        if tag in ("script", "style"):
            self.raw = tag

    def handle_endtag(self, tag: str) -> None:
        if tag == self.raw:
            self.raw = None

    def handle_data(self, data: str) -> None:
        if self.raw is not None:
            return
        first = self.getpos()[0]
        for offset, line in enumerate(data.split("\n")):
            if is_word(line.strip()):
                self.lines.add(first + offset)


def template_lines(path: Path) -> list[int]:
    """The lines of a page template where its HTML text or a read attribute has a word
    (Jinja's expressions, statements and comments blanked first, line breaks kept)."""
    text = _JINJA.sub(lambda match: "\n" * match.group(0).count("\n"),
                      path.read_text(encoding="utf-8"))
    parser = _PageText()
    parser.feed(text)
    parser.close()
    return sorted(parser.lines)


def counts(root: Path = ROOT) -> dict[str, int]:
    """{path relative to the repo: lines with Portuguese literals} for companion/, the JS and
    the page templates."""
    found: dict[str, int] = {}
    sources = [(path, python_lines) for path in sorted((root / "companion").rglob("*.py"))]
    sources += [(path, javascript_lines)
                for path in sorted((root / "web" / "static" / "js").rglob("*.js"))]
    sources += [(path, template_lines)
                for path in sorted((root / "web" / "templates").rglob("*.html"))]
    for path, scan in sources:
        lines = scan(path)
        if lines:
            found[path.relative_to(root).as_posix()] = len(lines)
    return found


if __name__ == "__main__":
    import sys

    table = counts(Path(sys.argv[1]).resolve() if len(sys.argv) > 1 else ROOT)
    python = sum(n for name, n in table.items() if name.endswith(".py"))
    script = sum(n for name, n in table.items() if name.endswith(".js"))
    pages = sum(n for name, n in table.items() if name.endswith(".html"))
    for name, number in sorted(table.items()):
        print(f"{number:4d} {name}")
    print(f"Python: {python} lines; JavaScript: {script} lines; page templates: {pages} lines")
