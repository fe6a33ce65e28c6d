"""Portuguese text → Command, with the sentence templates of tables/frases.yaml (hassil).

The parser's public names, kept here for the tests, the benches and other callers; the work
is done by sentences (frases.yaml's pieces), grammar (compiled once), slots and builders
(a match → args), matching (the one matching step) and reading (chat and voice readings).

`parse` never raises on any text: "not a command" is a ParseResult with an error message.
Templates match the normalized text as a whole; wildcard slots (names, creatures, treasure) are
given back as the GM wrote them and cleaned by the rules in the `mesa` section of frases.yaml.
A value said outside a list ("terreno lava") is caught by a wildcard template that ranks below
the list's own and reaches the engine as said, so the engine's message lists what it accepts.
A command word said alone ("terreno") matches a template marked `falta`: the answer says what is
missing and the command's usage line from comandos.yaml. A template marked `recusa` is a clear
"no" ("caçar e pescar": one activity per round) with the YAML's explanation.
"""
from __future__ import annotations

from companion.commands.grammar import Grammar, grammar
from companion.commands.text_readings import ParseResult, Reading, parse, readings
from companion.commands.sentences import HouseRules, SentenceFile

__all__ = ["Grammar", "HouseRules", "ParseResult", "Reading", "SentenceFile", "grammar", "parse",
           "readings"]
