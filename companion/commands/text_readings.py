"""The readings of a text: text → normalise → match → build → check → ParseResult.

`parse` (chat, the HTTP API, the shell) keeps the first match that makes a command; `readings`
gives the strict voice reading every match, to keep the first it trusts. Both go through the
one matching step of `matching.attempts`. Neither raises for any text.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from companion.commands.context import Known
from companion.commands.grammar import Grammar, grammar
from companion.commands.matching import Attempt, attempts
from companion.commands.normalize import Normalized, normalize
from companion.tables.files import Tables
from companion.tables.vocabulary import Command

_QUOTE_MAX = 60


@dataclass(frozen=True)
class ParseResult:
    """What a text means: a command, or why it is not one."""

    command: Command | None = None
    error: str | None = None

    def to_json(self) -> dict[str, Any]:
        """{"command": "rolar", "args": {...}} or {"command": null, "error": "…"}."""
        if self.command is None:
            return {"command": None, "error": self.error}
        return {"command": self.command.name, "args": dict(self.command.args)}


def parse(text: str, tables: Tables, context: Known | None = None) -> ParseResult:
    """What the text means (with what `context` knows: the prompts waiting, the names that
    exist). Never raises for any text."""
    compiled = grammar(tables)
    limit = compiled.rules.max_caracteres
    raw = str(text)
    normalized, shown = _said(raw, compiled)
    words = compiled.narration
    if not shown:
        return ParseResult(error=words.render("leitura.vazio", {}))
    if len(raw) > limit:
        return ParseResult(error=words.render("leitura.longo_demais",
                                              {"caracteres": len(raw), "maximo": limit}))
    if not normalized.tokens:
        return ParseResult(error=_unknown(shown, compiled))
    if len(normalized.tokens) > compiled.rules.max_palavras:
        return ParseResult(error=words.render("leitura.palavras_demais", {"dito": shown}))
    try:
        result = _first_command(normalized, compiled, shown, context)
    except (ValueError, TypeError, KeyError, IndexError, RecursionError):
        result = None
    if result is None:  # the matcher or a builder slipped: not understood, no second try
        return ParseResult(error=_unknown(shown, compiled))
    if result.command is None and result.error == _unknown(shown, compiled):
        return _last_clause(raw, tables, context) or result
    return result


def _first_command(normalized: Normalized, compiled: Grammar, shown: str,
                   context: Known | None) -> ParseResult | None:
    """The first match that makes a command wins; a clear refusal ends the search (None: a
    builder slipped)."""
    first_error: str | None = None
    for tried in attempts(normalized, compiled, shown, context):
        if tried.command is not None:
            return ParseResult(command=tried.command)
        if tried.refusal is None:
            return None
        if tried.refusal.final:
            return ParseResult(error=tried.refusal.message(compiled.narration))
        first_error = first_error or tried.refusal.message(compiled.narration) or None
    return ParseResult(error=first_error or _unknown(shown, compiled))


@dataclass(frozen=True)
class Reading:
    """One template match of a text and what it would mean (the voice layer filters these)."""

    match: Any  # the hassil RecognizeResult: intent, entities, metadata, literal words matched
    result: ParseResult


def readings(text: str, tables: Tables, context: Known | None = None) -> list[Reading]:
    """Every template match of the text, best first, each with its command or its error.

    `parse` keeps the first match that makes a command; a stricter reader (voice) walks them
    all and keeps the first it trusts. Never raises for any text."""
    compiled = grammar(tables)
    normalized, shown = _said(str(text), compiled)
    if not normalized.tokens or len(normalized.tokens) > compiled.rules.max_palavras:
        return []
    try:
        tried = attempts(normalized, compiled, shown, context)
    except (ValueError, TypeError, KeyError, IndexError, RecursionError):
        return []
    return [Reading(each.match, _result(each, compiled, shown)) for each in tried]


def _result(tried: Attempt, compiled: Grammar, shown: str) -> ParseResult:
    """What one match means: its command, its refusal in words, or "não entendi"."""
    if tried.command is not None:
        return ParseResult(command=tried.command)
    message = tried.refusal.message(compiled.narration) if tried.refusal is not None else ""
    return ParseResult(error=message or _unknown(shown, compiled))


def _said(raw: str, compiled: Grammar) -> tuple[Normalized, str]:
    """The text normalised (read up to one character past the limit) and as quoted back."""
    normalized = normalize(raw[: compiled.rules.max_caracteres + 1])
    return normalized, quote(normalized)


def _unknown(shown: str, compiled: Grammar) -> str:
    return compiled.narration.render("leitura.nao_entendi", {"dito": shown})


_CLAUSE_END = re.compile(r"[.!?;,…]+(?=\s|$)")


def _last_clause(raw: str, tables: Tables, context: Known | None) -> ParseResult | None:
    """'o ogro ataca! vamos fugir': table talk, then a command — the last clause, if it is one."""
    clauses = [clause for clause in _CLAUSE_END.split(raw) if clause.strip()]
    if len(clauses) < 2:
        return None
    result = parse(clauses[-1], tables, context)
    return result if result.command is not None else None


def quote(normalized: Normalized) -> str:
    """The input as it can be quoted back: one line, trimmed, not too long."""
    plain = " ".join(normalized.original)
    return plain if len(plain) <= _QUOTE_MAX else plain[: _QUOTE_MAX - 1] + "…"
