"""The Portuguese command language: text → Command (see tables/frases.yaml)."""
from __future__ import annotations

from companion.commands.normalize import Normalized, normalize
# through the facade, last: `companion.commands.parse` then names the function, not the module
from companion.commands.parse import ParseResult, parse

__all__ = ["Normalized", "ParseResult", "normalize", "parse"]
