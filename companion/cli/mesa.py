"""`mesa`, the GM's command: with no action it serves the default campaign from the GM's own
folder (`mesa --campanha NOME` another one; any option of `serve` may follow); `mesa
campanhas`, `mesa modelo` and every other action of `companion` work the same."""
from __future__ import annotations

import sys

from companion.cli import main as companion_main
from companion.tables.places import DEFAULT_CAMPAIGN

HELP = ("sem AÇÃO, o mesa liga a mesa com a campanha padrão (na pasta do Mestre: veja "
        "'mesa campanhas'); 'mesa --campanha NOME' abre ou cria outra, 'mesa --port 9000' "
        "escolhe a porta, 'mesa --db ARQUIVO' usa um arquivo qualquer")
CAMPAIGN_OPTIONS = ("--db", "--campanha")


def arguments(argv: list[str]) -> list[str]:
    """What `mesa ARGS` means as `companion` arguments."""
    if argv[:1] in (["-h"], ["--help"]):
        return argv
    if argv and not argv[0].startswith("-") and argv[0] != "serve":
        return argv  # another action, as `companion` has it
    serving = ["serve", *argv[1:]] if argv[:1] == ["serve"] else ["serve", *argv]
    named = any(arg in CAMPAIGN_OPTIONS or arg.startswith(("--db=", "--campanha="))
                for arg in serving)
    return serving if named else [*serving, "--campanha", DEFAULT_CAMPAIGN]


def main(argv: list[str] | None = None) -> int:
    return companion_main(arguments(sys.argv[1:] if argv is None else list(argv)), prog="mesa",
                          epilog=HELP)


if __name__ == "__main__":
    sys.exit(main())
