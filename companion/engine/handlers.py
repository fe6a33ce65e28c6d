"""The registries the procedures fill on import: `@command` (a handler for a canonical command
name), `@prompt_handler` (what happens when a prompt of a kind is answered) and
`@cancel_handler` (what happens after one is cancelled); and PromptAnswer, what a prompt
handler is given."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from companion.engine.model import Prompt, State
from companion.engine.scratch import Scratch

Handler = Callable[[State, Scratch], State]


PromptHandler = Callable[[State, Prompt, "PromptAnswer", Scratch], State]


COMMANDS: dict[str, Handler] = {}


PROMPT_HANDLERS: dict[str, PromptHandler] = {}


CANCEL_HANDLERS: dict[str, Handler] = {}  # what happens after a prompt of a kind is cancelled


@dataclass(frozen=True)
class PromptAnswer:
    """A player's answer: a rolled total (natural die + modifier) or a chosen option."""

    total: int | None = None
    natural: int | None = None
    option: str | None = None
    faces: tuple[int, ...] = ()  # the physical die values said (two under DESV/vantagem)


def command(name: str) -> Callable[[Handler], Handler]:
    """Register a handler for a canonical command name."""
    def register(handler: Handler) -> Handler:
        COMMANDS[name] = handler
        return handler
    return register


def cancel_handler(kind: str) -> Callable[[Handler], Handler]:
    """Register what happens after a prompt of this kind is cancelled (`cancelar`)."""
    def register(handler: Handler) -> Handler:
        CANCEL_HANDLERS[kind] = handler
        return handler
    return register


def prompt_handler(kind: str) -> Callable[[PromptHandler], PromptHandler]:
    """Register what happens when a prompt of this kind is answered."""
    def register(handler: PromptHandler) -> PromptHandler:
        PROMPT_HANDLERS[kind] = handler
        return handler
    return register
