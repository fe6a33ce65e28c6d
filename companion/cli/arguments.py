"""`companion`'s arguments: the actions and their options, the help from
tables/narracao/ajuda_cli.yaml (read alone at start, before the tables)."""
from __future__ import annotations

import argparse

from companion.cli import about, argparse_words
from companion.cli.argparse_words import PortugueseParser
from companion.server.access import WORDS as ACCESS_WORDS
from companion.server.access import MIN_GM_TOKEN, gm_token_problem
from companion.server.ports import DEFAULT_PORT
from companion.tables.narration import Narrator

INSTALL_WORDS = "instalacao"  # tables/narracao/instalacao.yaml: --version, atualizar


def _add_common(parser: argparse.ArgumentParser, said: Narrator, session: bool = True) -> None:
    parser.add_argument("--tables", metavar=said.render("ajuda_cli.valor_pasta", {}),
                        default=None, help=said.render("ajuda_cli.tables", {}))
    if not session:
        return
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--db", metavar=said.render("ajuda_cli.valor_arquivo", {}), default=None,
                       help=said.render("ajuda_cli.db_sessao", {}))
    where.add_argument("--campanha", metavar=said.render("ajuda_cli.valor_nome", {}),
                       default=None, help=said.render("ajuda_cli.campanha_criada", {}))
    parser.add_argument("--seed", metavar="N", type=int, default=None,
                        help=said.render("ajuda_cli.seed", {}))


def _gm_token(value: str) -> str:
    """--gm-token: long enough not to be guessed (companion.server.access.gm_token_problem;
    said with tables/narracao/acesso.yaml alone, as the arguments are read before the tables)."""
    problem = gm_token_problem(value, argparse_words.words(ACCESS_WORDS))
    if problem:
        raise argparse.ArgumentTypeError(problem)
    return value


def _add_campaign_file(parser: argparse.ArgumentParser, said: Narrator) -> None:
    """The campaign a tool reads or changes (required): a file, or a name in the GM's folder."""
    where = parser.add_mutually_exclusive_group(required=True)
    where.add_argument("--db", metavar=said.render("ajuda_cli.valor_arquivo", {}),
                       help=said.render("ajuda_cli.db_campanha", {}))
    where.add_argument("--campanha", metavar=said.render("ajuda_cli.valor_nome", {}),
                       help=said.render("ajuda_cli.campanha_existente", {}))


def _add_session_number(parser: argparse.ArgumentParser, said: Narrator) -> None:
    parser.add_argument("--sessao", metavar="N", default=None,
                        help=said.render("ajuda_cli.sessao", {}))


def build_parser(prog: str = "companion", epilog: str | None = None) -> argparse.ArgumentParser:
    """`companion`'s arguments, their help from tables/narracao/ajuda_cli.yaml."""
    said = argparse_words.words(argparse_words.HELP)
    action = said.render("ajuda_cli.valor_acao", {})
    file = said.render("ajuda_cli.valor_arquivo", {})
    folder = said.render("ajuda_cli.valor_pasta", {})
    yaml_file = said.render("ajuda_cli.valor_arquivo_yaml", {})
    name, text = said.render("ajuda_cli.valor_nome", {}), said.render("ajuda_cli.valor_texto", {})
    parser = PortugueseParser(prog=prog, epilog=epilog,
                              description=said.render("ajuda_cli.descricao", {}))
    parser.add_argument("--version", action="version",
                        version=about.version_line(argparse_words.words(INSTALL_WORDS)),
                        help=said.render("ajuda_cli.versao", {}))
    actions = parser.add_subparsers(dest="action", required=True, metavar=action)

    serve = actions.add_parser("serve", help=said.render("ajuda_cli.serve", {}))
    serve.add_argument("--host", default="0.0.0.0")
    serve.add_argument("--port", type=int, default=None,
                       help=said.render("ajuda_cli.serve_port", {"porta": DEFAULT_PORT}))
    serve.add_argument("--gm-token", metavar="TOKEN", default=None, type=_gm_token,
                       help=said.render("ajuda_cli.serve_gm_token", {"minimo": MIN_GM_TOKEN}))
    serve.add_argument("--https", action="store_true",
                       help=said.render("ajuda_cli.serve_https", {}))
    serve.add_argument("--modelo", metavar=folder, default=None,
                       help=said.render("ajuda_cli.serve_modelo", {}))
    serve.add_argument("--sem-navegador", action="store_true",
                       help=said.render("ajuda_cli.serve_sem_navegador", {}))
    # `mesa` opens the GM page in the laptop's browser; `companion serve` (programs, tests) not
    serve.set_defaults(navegador=prog == "mesa")
    serve.add_argument("--sem-limites", action="store_true",
                       help=said.render("ajuda_cli.serve_sem_limites", {}))
    _add_common(serve, said)
    _add_rules_file(serve, said)

    shell = actions.add_parser("shell", help=said.render("ajuda_cli.shell", {}))
    shell.add_argument("--json", action="store_true", help=said.render("ajuda_cli.shell_json", {}))
    _add_common(shell, said)
    _add_rules_file(shell, said)

    rules = actions.add_parser("regras", help=said.render("ajuda_cli.regras_acao", {}))
    rules_actions = rules.add_subparsers(dest="regras_action", required=True, metavar=action)
    export_rules = rules_actions.add_parser("exportar",
                                            help=said.render("ajuda_cli.regras_exportar", {}))
    _add_campaign_file(export_rules, said)
    export_rules.add_argument("--saida", metavar=yaml_file, default=None,
                              help=said.render("ajuda_cli.regras_exportar_saida", {}))
    _add_common(export_rules, said, session=False)
    import_rules = rules_actions.add_parser("importar",
                                            help=said.render("ajuda_cli.regras_importar", {}))
    _add_campaign_file(import_rules, said)
    import_rules.add_argument("arquivo", metavar=yaml_file)
    _add_common(import_rules, said, session=False)

    report = actions.add_parser("relatorio", help=said.render("ajuda_cli.relatorio", {}))
    _add_campaign_file(report, said)
    _add_session_number(report, said)
    report.add_argument("--saida", metavar=file, default=None,
                        help=said.render("ajuda_cli.relatorio_saida", {}))
    report.add_argument("--jogador", metavar=name, default=None,
                        help=said.render("ajuda_cli.relatorio_jogador", {}))
    _add_common(report, said, session=False)

    export = actions.add_parser("exportar", help=said.render("ajuda_cli.exportar", {}))
    _add_campaign_file(export, said)
    export.add_argument("--formato", metavar="csv|json", required=True)
    export.add_argument("--saida", metavar=file, required=True)
    _add_session_number(export, said)
    export.add_argument("--jogador", metavar=name, default=None,
                        help=said.render("ajuda_cli.exportar_jogador", {}))
    export.add_argument("--separador", metavar=said.render("ajuda_cli.valor_separador", {}),
                        default=",", help=said.render("ajuda_cli.exportar_separador", {}))
    _add_common(export, said, session=False)

    verify = actions.add_parser("verificar", help=said.render("ajuda_cli.verificar", {}))
    _add_campaign_file(verify, said)
    _add_common(verify, said, session=False)

    parse = actions.add_parser("parse", help=said.render("ajuda_cli.parse", {}))
    parse.add_argument("--json", action="store_true", help=said.render("ajuda_cli.parse_json", {}))
    parse.add_argument("--voz", action="store_true", help=said.render("ajuda_cli.parse_voz", {}))
    parse.add_argument("--db", metavar=file, default=None,
                       help=said.render("ajuda_cli.parse_db", {}))
    parse.add_argument("text", nargs="*", metavar=text)
    _add_common(parse, said, session=False)

    voice = actions.add_parser("voz", help=said.render("ajuda_cli.voz", {}))
    voice_actions = voice.add_subparsers(dest="voz_action", required=True, metavar=action)
    phrases = voice_actions.add_parser("frases", help=said.render("ajuda_cli.voz_frases", {}))
    phrases.add_argument("--db", metavar=file, default=None,
                         help=said.render("ajuda_cli.voz_frases_db", {}))
    _add_common(phrases, said, session=False)
    learned = voice_actions.add_parser("nomes", help=said.render("ajuda_cli.voz_nomes", {}))
    _add_campaign_file(learned, said)
    learned.add_argument("--json", action="store_true",
                         help=said.render("ajuda_cli.voz_nomes_json", {}))
    _add_common(learned, said, session=False)
    forget = voice_actions.add_parser("esquecer", help=said.render("ajuda_cli.voz_esquecer", {}))
    _add_campaign_file(forget, said)
    forget.add_argument("nomes", nargs="+", metavar=name)
    _add_common(forget, said, session=False)

    listen = actions.add_parser("ouvir", help=said.render("ajuda_cli.ouvir", {}))
    listen.add_argument("wav", metavar=said.render("ajuda_cli.valor_arquivo_wav", {}))
    listen.add_argument("--modelo", metavar=folder, default=None,
                        help=said.render("ajuda_cli.ouvir_modelo", {}))
    listen.add_argument("--json", action="store_true",
                        help=said.render("ajuda_cli.ouvir_json", {}))
    listen.add_argument("--frases", metavar=file, default=None,
                        help=said.render("ajuda_cli.ouvir_frases", {}))
    _add_common(listen, said)

    listing = actions.add_parser("campanhas", help=said.render("ajuda_cli.campanhas", {}))
    _add_common(listing, said, session=False)
    models = actions.add_parser("modelo", help=said.render("ajuda_cli.modelo", {}))
    _add_common(models, said, session=False)
    updating = actions.add_parser("atualizar", help=said.render("ajuda_cli.atualizar", {}))
    _add_common(updating, said, session=False)

    speak = actions.add_parser("falar", help=said.render("ajuda_cli.falar", {}))
    speak.add_argument("text", nargs="+", metavar=text)
    speak.add_argument("--saida", metavar=said.render("ajuda_cli.valor_arquivo_wav", {}),
                       default=None, help=said.render("ajuda_cli.falar_saida", {}))
    _add_common(speak, said, session=False)
    return parser


def _add_rules_file(parser: argparse.ArgumentParser, said: Narrator) -> None:
    parser.add_argument("--regras", metavar=said.render("ajuda_cli.valor_arquivo_yaml", {}),
                        default=None, help=said.render("ajuda_cli.regras", {}))
