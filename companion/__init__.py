"""Companheiro de mesa: runs the GM's procedures from Portuguese commands.

Every entry point (`mesa`, `companion`, `python -m companion`) imports this package first, so
an older Python is refused here, in one Portuguese line, before any module that needs a newer
one. Keep this file readable by old Pythons (no newer syntax).
"""
import sys

MINIMUM_PYTHON = (3, 11)


def too_old(version=None):  # type: ignore[no-untyped-def]
    """The refusal line when `version` (default: this Python's) is older than the minimum;
    None when it is new enough."""
    version = tuple(sys.version_info if version is None else version)
    if version[:2] >= MINIMUM_PYTHON:
        return None
    return ("erro: o Mesa precisa do Python {0}.{1} ou mais novo, e este é o {2}.{3}; "
            "instale um Python novo (python.org) ou use o instalador do README "
            "(uv tool install), que traz o seu").format(
                MINIMUM_PYTHON[0], MINIMUM_PYTHON[1], version[0], version[1])


if too_old() is not None:
    sys.stderr.write(too_old() + "\n")
    raise SystemExit(2)
