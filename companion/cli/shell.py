"""`companion shell`: one command per line from standard input, run as the GM.

With `--json` each event is one JSON object on its own line (the docs/design.md shape) and a command
that cannot run is `{"error": "…"}`; without it, readable Portuguese lines. Output is flushed
after every command, so whatever has been printed has already been committed to the log.
"""
from __future__ import annotations

import json
from typing import Callable, Iterable, TextIO

from companion.tables import protocol
from companion.session import EventDict, RunResult, Session
from companion.tables.narration import Narrator

Printer = Callable[[RunResult, TextIO, Narrator], None]


def _print_json(result: RunResult, out: TextIO, words: Narrator) -> None:
    if not result.ok:
        out.write(json.dumps({"error": result.error}, ensure_ascii=False) + "\n")
        return
    for event in result.events:
        out.write(json.dumps(event, ensure_ascii=False) + "\n")


def _audience(visibility: str, words: Narrator) -> str:
    """A short tag saying who sees an event at the table."""
    if visibility == "gm":
        return words.render("ferramentas.so_mestre", {})
    player = protocol.character_of(visibility)
    if player is not None:
        return words.render("ferramentas.para", {"personagem": player})
    return ""


def readable(event: EventDict, words: Narrator) -> str:
    """One event as a line a person reads."""
    return f"{event['seq']:>4}  {_audience(event['visibility'], words)}{event['text']}"


def _print_text(result: RunResult, out: TextIO, words: Narrator) -> None:
    if not result.ok:
        out.write(words.render("ferramentas.erro", {"motivo": result.error}) + "\n")
        return
    for event in result.events:
        out.write(readable(event, words) + "\n")


PRINTERS: dict[bool, Printer] = {True: _print_json, False: _print_text}


def run_shell(session: Session, lines: Iterable[str], out: TextIO, as_json: bool = False) -> int:
    """Run each line as the GM and print what happened; returns the exit status (0)."""
    printer = PRINTERS[as_json]
    if session.started:  # a session created just now: what it said first (the initial weather)
        printer(RunResult(True, events=session.started), out, session.tables.narration)
    if session.opening:  # what opening told the GM (the rules changed, an update, a repair)
        printer(RunResult(True, events=session.opening), out, session.tables.narration)
    for line in lines:
        printer(session.run(line.rstrip("\r\n")), out, session.tables.narration)
        out.flush()
    return 0


def banner(session: Session) -> str:
    """What the shell says on standard error when it starts."""
    return session.tables.narration.render("ferramentas.banner", {
        "banco": None if session.db_path == ":memory:" else session.db_path,
        "semente": session.seed if session.seeded else None})
