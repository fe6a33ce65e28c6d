"""A line read once: what it means, kept in a bounded cache keyed by the line, the rules and
what the asker's reading may know."""
from __future__ import annotations

from collections import OrderedDict
from typing import Hashable

from companion.commands.context import Known
from companion.commands.text_readings import ParseResult, parse
from companion.engine import State
from companion.session.journal import Journal
from companion.session.rules_in_force import RulesInForce
from companion.tables import protocol

PARSE_CACHE = 512  # distinct readings remembered: (line, tables version, context)


def reading_context(state: State, actor: str = protocol.GM) -> Known:
    """What a reading may know from a state: the party's names, the options the prompts the
    actor may answer wait for, and whether one of them waits for a die's value."""
    theirs = [prompt for prompt in state.prompts
              if protocol.may_answer(actor, prompt.character, prompt.party)]
    return Known.of([character.name for character in state.party],
                    [option for prompt in theirs for option in prompt.options],
                    roll_waiting=any(not prompt.options for prompt in theirs))


class Parser:
    """The session's one parse cache, shared by `run` and the server's player gate."""

    def __init__(self, journal: Journal, rules: RulesInForce) -> None:
        self._journal = journal
        self._rules = rules
        # (line, tables version, context) → what the line means (LRU)
        self._parsed: OrderedDict[tuple[str, str, Hashable], ParseResult] = OrderedDict()
        # actor → (the party, the prompts, what a reading knows of them): a command that
        # changes neither keeps their objects, and the context is not made again
        self._contexts: dict[str, tuple[object, object, Known]] = {}

    def parse(self, text: str, actor: str = protocol.GM) -> ParseResult:
        """What a line means (commands.parse), read once: a table says the same few commands
        all evening, and a reading is a pure function of the line, the tables and the context
        (the asker's: a player's "sim" reads only their own prompts), its key in a bounded cache
        (PARSE_CACHE). `run` and the server's player gate share it, so a player's line is
        parsed once."""
        line = text.strip()
        lock = self._journal.lock
        with lock:
            key = (line, self._rules.tables_version, self._parse_context(actor))
            tables = self._rules.tables
            known = self._parsed.get(key)
            if known is not None:
                self._parsed.move_to_end(key)
                return known
        result = parse(line, tables, key[2])
        with lock:
            self._parsed[key] = result
            if len(self._parsed) > PARSE_CACHE:
                self._parsed.popitem(last=False)
        return result

    def _parse_context(self, actor: str) -> Known:
        """What a reading depends on besides the line and the rules: the names that exist
        and the answers the actor's prompts wait for ("sim" alone answers only then). Made
        again only when the party or the prompts changed (the lock held)."""
        state = self._journal.state
        known = self._contexts.get(actor)
        if known is not None and known[0] is state.party and known[1] is state.prompts:
            return known[2]
        context = reading_context(state, actor)
        self._contexts[actor] = (state.party, state.prompts, context)
        return context
