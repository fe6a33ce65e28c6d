"""The `companion` command: serve, shell and parse.

Startup problems (a broken tables/ file, a --seed that contradicts the --db, an unreadable
database) are one line on standard error and exit status 2 — never a traceback.
"""
from __future__ import annotations

import argparse
import json
import sqlite3
import sys
from pathlib import Path
from typing import Any, Callable, Iterable, TextIO

from companion.errors import CompanionError, TableError
from companion.tables import Tables, load_tables

STARTUP_FAILURE = 2
NOT_A_COMMAND = 1


def _add_common(parser: argparse.ArgumentParser, session: bool = True) -> None:
    parser.add_argument("--tables", metavar="PASTA", default=None,
                        help="pasta das tabelas (padrão: tables/ do projeto)")
    if not session:
        return
    parser.add_argument("--db", metavar="ARQUIVO", default=None,
                        help="banco SQLite da sessão (sem ele, a sessão fica só na memória)")
    parser.add_argument("--seed", metavar="N", type=int, default=None,
                        help="semente das rolagens (sem ela, uma é sorteada e guardada)")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="companion",
                                     description="Companheiro de mesa do Mestre (offline).")
    actions = parser.add_subparsers(dest="action", required=True, metavar="AÇÃO")

    serve = actions.add_parser("serve", help="liga o servidor da mesa")
    serve.add_argument("--host", default="0.0.0.0")
    serve.add_argument("--port", type=int, default=5000)
    serve.add_argument("--gm-token", metavar="TOKEN", default=None,
                       help="fixa o token do Mestre (sem ele, um é sorteado e guardado)")
    serve.add_argument("--sem-limites", action="store_true",
                       help="só para testes de carga, com --host 127.0.0.1: sem limite de "
                            "entradas por endereço nem de comandos por conexão")
    _add_common(serve)

    shell = actions.add_parser("shell", help="roda comandos lidos da entrada padrão, como Mestre")
    shell.add_argument("--json", action="store_true", help="um objeto JSON por evento")
    _add_common(shell)

    parse = actions.add_parser("parse", help="mostra o que um texto significa, sem rodá-lo")
    parse.add_argument("--json", action="store_true", help="saída em JSON")
    parse.add_argument("text", nargs="*", metavar="TEXTO")
    _add_common(parse, session=False)
    return parser


def _utf8_streams() -> None:
    """Read and write UTF-8 whatever the locale says (accents are everywhere here)."""
    for stream in (sys.stdin, sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            reconfigure(encoding="utf-8", errors="replace")


def _open_session(args: argparse.Namespace, tables: Tables, gm_token: str | None = None) -> Any:
    from companion.session import Session

    return Session.open(args.db, args.seed, tables, gm_token=gm_token)


# ---------------------------------------------------------------------- shell

def cmd_shell(args: argparse.Namespace, tables: Tables) -> int:
    from companion.shell import banner, run_shell

    session = _open_session(args, tables)
    print(banner(session), file=sys.stderr, flush=True)
    try:
        return run_shell(session, sys.stdin, sys.stdout, as_json=args.json)
    finally:
        session.close()


# ---------------------------------------------------------------------- parse

def _parse_json(result: Any) -> dict[str, Any]:
    """The contract shape of a parse result (the parser's own to_json when it has one)."""
    to_json = getattr(result, "to_json", None)
    if to_json is not None:
        value = to_json()
        return json.loads(value) if isinstance(value, str) else dict(value)
    if result.command is None:
        return {"command": None, "error": result.error}
    return {"command": result.command.name, "args": dict(result.command.args)}


def _parse_text(result: Any) -> str:
    if result.command is None:
        return f"não é um comando: {result.error}"
    values = ", ".join(f"{key}={value}" for key, value in dict(result.command.args).items())
    return f"{result.command.name}" + (f" ({values})" if values else "")


def _parse_lines(texts: Iterable[str], tables: Tables, as_json: bool, out: TextIO) -> bool:
    """Parse each text and print one line for it; True when every text was a command."""
    from companion.commands.parse import parse

    every = True
    for text in texts:
        result = parse(text.rstrip("\r\n"), tables)
        every = every and result.command is not None
        line = json.dumps(_parse_json(result), ensure_ascii=False) if as_json else \
            _parse_text(result)
        out.write(line + "\n")
        out.flush()
    return every


def cmd_parse(args: argparse.Namespace, tables: Tables) -> int:
    if not args.text:
        _parse_lines(sys.stdin, tables, args.json, sys.stdout)
        return 0
    ok = _parse_lines([" ".join(args.text)], tables, args.json, sys.stdout)
    return 0 if ok else NOT_A_COMMAND


# ---------------------------------------------------------------------- serve

def cmd_serve(args: argparse.Namespace, tables: Tables) -> int:
    try:
        from companion.server.access import NO_LIMITS_ONLY_LOOPBACK, is_loopback
        from companion.server.app import serve
    except ImportError as error:
        print(f"erro: o servidor não está disponível ({error})", file=sys.stderr)
        return STARTUP_FAILURE
    if args.sem_limites and not is_loopback(args.host):
        print(f"erro: {NO_LIMITS_ONLY_LOOPBACK}", file=sys.stderr)
        return STARTUP_FAILURE
    session = _open_session(args, tables, gm_token=args.gm_token)
    try:
        serve(args.host, args.port, session, **({"limits": False} if args.sem_limites else {}))
    finally:
        session.close()
    return 0


ACTIONS: dict[str, Callable[[argparse.Namespace, Tables], int]] = {
    "shell": cmd_shell, "parse": cmd_parse, "serve": cmd_serve,
}


def main(argv: list[str] | None = None) -> int:
    _utf8_streams()
    args = build_parser().parse_args(argv)
    try:
        tables = load_tables(Path(args.tables) if args.tables else None)
    except TableError as error:
        print(f"erro nas tabelas: {error.message}", file=sys.stderr)
        return STARTUP_FAILURE
    try:
        return ACTIONS[args.action](args, tables)
    except TableError as error:
        print(f"erro nas tabelas: {error.message}", file=sys.stderr)
    except CompanionError as error:
        print(f"erro: {error.message}", file=sys.stderr)
    except sqlite3.Error as error:
        print(f"erro no banco de dados '{getattr(args, 'db', None)}': {error}", file=sys.stderr)
    except KeyboardInterrupt:
        return 0
    return STARTUP_FAILURE


if __name__ == "__main__":
    sys.exit(main())
