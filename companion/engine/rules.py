"""Import every procedure module so their commands and schemas are registered."""
from __future__ import annotations

from companion.tables import register_schema

_PHRASES = {"onde": str, "nome": str, "de": str}
register_schema("comandos", {"modos": {"viagem": str, "masmorra": str, "perseguicao": str},
                             "modos_frases": {"viagem": _PHRASES, "masmorra": _PHRASES,
                                              "perseguicao": _PHRASES},
                             "comandos": {"*": {"modos": [str], "ajuda": str}}})

# Procedure modules register themselves on import. Keep this list in sync with engine/.
from companion.engine import (  # noqa: E402,F401
    campaign,
    chase,
    conditions,
    dungeon,
    hexcrawl,
    misc,
    panic,
    party,
    tally,
)
