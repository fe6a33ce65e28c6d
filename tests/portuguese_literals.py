"""Find the Portuguese a person reads that is written in code instead of tables/.

The house rule: code in English; every word a person at the table reads comes from tables/
(tables/narracao/*.yaml through the Narrator, page texts in tables/paginas.yaml). This module
counts, per source file, the lines where a string literal looks Portuguese: an accented letter
or a common Portuguese word. Docstrings and comments are English prose about the code and are
not counted. The heuristic is deliberately simple; tests/test_words_in_tables.py holds the
allowlist (lexicon data that must stay in code, and files not converted yet).
"""
from __future__ import annotations

import ast
import re
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


def counts(root: Path = ROOT) -> dict[str, int]:
    """{path relative to the repo: lines with Portuguese literals} for companion/ and the JS."""
    found: dict[str, int] = {}
    sources = [(path, python_lines) for path in sorted((root / "companion").rglob("*.py"))]
    sources += [(path, javascript_lines)
                for path in sorted((root / "web" / "static" / "js").rglob("*.js"))]
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
    for name, number in sorted(table.items()):
        print(f"{number:4d} {name}")
    print(f"Python: {python} lines; JavaScript: {script} lines")
