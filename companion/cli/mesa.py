"""`mesa`, the GM's command: with no action it serves the default campaign from the GM's own
folder (`mesa --campanha NOME` another one; any option of `serve` may follow); `mesa
campanhas`, `mesa modelo` and every other action of `companion` work the same."""
from __future__ import annotations

import sys

from companion.cli import argparse_words
from companion.cli import main as companion_main
from companion.tables.places import DEFAULT_CAMPAIGN

CAMPAIGN_OPTIONS = ("--db", "--campanha")


def arguments(argv: list[str]) -> list[str]:
    """What `mesa ARGS` means as `companion` arguments."""
    if argv[:1] in (["-h"], ["--help"], ["--version"]):
        return argv
    if argv and not argv[0].startswith("-") and argv[0] != "serve":
        return argv  # another action, as `companion` has it
    serving = ["serve", *argv[1:]] if argv[:1] == ["serve"] else ["serve", *argv]
    given = tuple(f"{option}=" for option in CAMPAIGN_OPTIONS)  # --db=x.db
    named = any(arg in CAMPAIGN_OPTIONS or arg.startswith(given) for arg in serving)
    return serving if named else [*serving, "--campanha", DEFAULT_CAMPAIGN]


def main(argv: list[str] | None = None) -> int:
    said = argparse_words.words(argparse_words.HELP)  # what `mesa` does with no action
    return companion_main(arguments(sys.argv[1:] if argv is None else list(argv)), prog="mesa",
                          epilog=said.render("ajuda_cli.mesa", {}))


if __name__ == "__main__":
    sys.exit(main())
