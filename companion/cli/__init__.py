"""The `companion` command: serve, shell, parse, voz frases, ouvir and falar.

Startup problems (a broken tables/ file, a --seed that contradicts the --db, an unreadable
database) are one line on standard error and exit status 2 — never a traceback.
"""
from __future__ import annotations

import argparse
import json
import os
import signal
import sqlite3
import sys
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator, TextIO

# The rules pieces declared above companion.rules.loader (it imports those below it): imported here by
# name, so that load_rules checks them at start for every action whatever the imports below
# become (tests/cli/test_pieces.py checks that no module declaring a piece is left out).
import companion.report.words  # noqa: F401  (declares tables/relatorio.yaml's piece)
import companion.rules.form  # noqa: F401  (declares tables/regras_tela.yaml's piece)
import companion.voice.config  # noqa: F401  (declares tables/voz.yaml's piece)
import companion.speech.speech_config  # noqa: F401  (declares tables/fala.yaml's piece)
from companion.commands.text_readings import parse
from companion.tables.errors import CompanionError, TableError
from companion.rules.loader import load_rules
from companion.report import build
from companion.report import text as report_text
from companion.report.source import open_campaign, session_number
from companion.server.access import is_loopback
from companion.server.app import serve
from companion.server.qr import lan_ip
from companion.server.tls import certificate
from companion.rules import overlay
from companion.session import (Session, campaign_rules, campaign_state, reading_context,
                               verify_campaign)
from companion.store.lock import holder
from companion.cli import about, browser, campaigns
from companion.cli.model_download import fetch_models
from companion.cli import argparse_words
from companion.cli.shell import banner, run_shell
from companion.speech.say import say_text
from companion.tables import places
from companion.tables.files import Tables
from companion.voice.learned import Learned, by_list, campaign_learned, forget
from companion.voice.ouvir import listen_file
from companion.voice.phrases import phrase_list
from companion.voice.strict_reading import Known, read_voice
from companion.voice.service import start_voice
from companion.cli.arguments import INSTALL_WORDS, build_parser  # noqa: F401 (re-exported)

STARTUP_FAILURE = 2
CLOSED_PIPE = 141  # 128 + SIGPIPE, as the shell reports a reader that stopped early
NOT_A_COMMAND = 1


def _utf8_streams() -> None:
    """Read and write UTF-8 whatever the locale says (accents are everywhere here)."""
    for stream in (sys.stdin, sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            reconfigure(encoding="utf-8", errors="replace")


def _open_session(args: argparse.Namespace, tables: Tables, gm_token: str | None = None) -> Any:
    chosen = getattr(args, "regras", None)
    rules = _rules_file(chosen, tables) if chosen else None
    return Session.open(args.db, args.seed, tables, gm_token=gm_token, rules=rules)


def _rules_file(path: str, tables: Tables) -> Any:
    """A rules file (the export's shape) read; CompanionError naming it when it cannot be."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        reason = getattr(error, "strerror", None) or \
            tables.narration.render("ferramentas.nao_e_utf8", {})
        raise CompanionError(tables.narration.render("ferramentas.nao_leu_regras", {
            "arquivo": path, "motivo": reason})) from None
    return overlay.load_import(text, tables.narration, where=path)


# ---------------------------------------------------------------------- the GM's rules

def cmd_rules(args: argparse.Namespace, tables: Tables) -> int:
    if args.regras_action == "exportar":
        overrides, _rules = campaign_rules(args.db, tables)
        text = overlay.export_text(overrides, tables.narration)
        if args.saida:
            _write(args.saida, text, tables)
            print(tables.narration.render("ferramentas.regras_escritas", {"arquivo": args.saida}))
        else:
            sys.stdout.write(text)
        return 0
    return _import_rules(args, tables)


def _import_rules(args: argparse.Namespace, tables: Tables) -> int:
    """`regras importar`: the file applied as one logged, undoable change, or refused (a
    server has the campaign open; a bad file) with nothing changed."""
    if not Path(args.db).is_file():
        raise CompanionError(tables.narration.render("sessao.banco_nao_encontrado",
                                                     {"banco": args.db}))
    serving = holder(args.db)
    if serving is not None:
        raise CompanionError(tables.narration.render("ferramentas.regras_com_servidor", {
            "banco": args.db, "servidor": serving}))
    patch = _rules_file(args.arquivo, tables)
    session = Session.open(args.db, None, tables)
    try:
        result = session.change_rules(patch, "gm", origin="arquivo",
                                      text=f"regras importar {Path(args.arquivo).name}")
    finally:
        session.close()
    if not result.ok:
        print(tables.narration.render("ferramentas.erro", {
            "motivo": f"{args.arquivo}: {result.error}"}), file=sys.stderr)
        return NOT_A_COMMAND
    for event in result.events:
        print(event["text"])
    return 0


# ---------------------------------------------------------------------- shell

def campaign_line(session: Any, notices: bool = True) -> str:
    """Which session of the campaign goes on (the last one, where the party stopped), and what
    opening it told the GM (the rules changed since the last evening, an update, a repair) —
    unless the caller prints those events itself (the shell)."""
    return session.tables.narration.render("ferramentas.campanha", {
        "banco": None if session.db_path == ":memory:" else session.db_path,
        "sessao": getattr(session.state, "session", 1),
        "avisos": list(session.notices) if notices else []})


def cmd_shell(args: argparse.Namespace, tables: Tables) -> int:
    session = _open_session(args, tables)
    print(banner(session), file=sys.stderr, flush=True)
    print(campaign_line(session, notices=False), file=sys.stderr, flush=True)
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


def _parse_text(result: Any, tables: Tables) -> str:
    if result.command is None:
        return tables.narration.render("ferramentas.nao_e_comando", {"motivo": result.error})
    values = ", ".join(f"{key}={value}" for key, value in dict(result.command.args).items())
    return f"{result.command.name}" + (f" ({values})" if values else "")


def _parse_lines(texts: Iterable[str], tables: Tables, as_json: bool, out: TextIO,
                 voice: Any = None, context: Any = None) -> bool:
    """Parse each text and print one line for it; True when every text was a command.
    `voice` (a Known) makes it the strict voice reading; `context` is the chat's."""
    reader = (lambda text: read_voice(text, tables, voice)) if voice is not None else \
        (lambda text: parse(text, tables, context))
    every = True
    for text in texts:
        result = reader(text.rstrip("\r\n"))
        every = every and result.command is not None
        line = json.dumps(_parse_json(result), ensure_ascii=False) if as_json else \
            _parse_text(result, tables)
        out.write(line + "\n")
        out.flush()
    return every


def _known(args: argparse.Namespace, tables: Tables) -> Any:
    """What the voice reading may name: that session's party and prompts, or any name."""
    if not args.db:
        return Known(any_name=True)
    if not Path(args.db).is_file():
        raise CompanionError(tables.narration.render("ferramentas.banco_inexistente",
                                                     {"banco": args.db}))
    return reading_context(campaign_state(args.db, tables)).with_learned(
        by_list(campaign_learned(args.db, tables)))


def cmd_parse(args: argparse.Namespace, tables: Tables) -> int:
    if args.db and Path(args.db).is_file():
        tables = campaign_rules(args.db, tables)[1]  # its regions are names too
    voice = _known(args, tables) if args.voz else None
    # by chat, a campaign's prompts are the context ("sim" answers one waiting for it)
    context = reading_context(campaign_state(args.db, tables)) \
        if args.db and not args.voz and Path(args.db).is_file() else None
    if not args.text:
        _parse_lines(sys.stdin, tables, args.json, sys.stdout, voice=voice, context=context)
        return 0
    ok = _parse_lines([" ".join(args.text)], tables, args.json, sys.stdout, voice=voice,
                      context=context)
    return 0 if ok else NOT_A_COMMAND


# ---------------------------------------------------------------------- voice

def _missing_db(args: argparse.Namespace, tables: Tables) -> bool:
    if args.db and not Path(args.db).is_file():
        words = tables.narration
        print(words.render("ferramentas.erro", {"motivo": words.render(
            "ferramentas.banco_inexistente", {"banco": args.db})}), file=sys.stderr)
        return True
    return False


def cmd_voice(args: argparse.Namespace, tables: Tables) -> int:
    if _missing_db(args, tables):
        return STARTUP_FAILURE
    if args.db:
        tables = campaign_rules(args.db, tables)[1]  # its regions are said too
    return VOICE_ACTIONS[args.voz_action](args, tables)


def _voice_phrases(args: argparse.Namespace, tables: Tables) -> int:
    names: list[str] = []
    learned: list[Learned] = []
    if args.db:
        names = [character.name for character in campaign_state(args.db, tables).party]
        learned = campaign_learned(args.db, tables)
    for phrase in phrase_list(tables, names, learned=learned):
        sys.stdout.write(phrase + "\n")
    sys.stdout.flush()
    return 0


def _voice_names(args: argparse.Namespace, tables: Tables) -> int:
    learned = campaign_learned(args.db, tables)
    for name in learned:
        line = json.dumps({"nome": name.shown, "dito": name.said, "comando": name.command,
                           "listas": list(name.lists)}, ensure_ascii=False) if args.json else \
            tables.narration.render("ferramentas.nome_aprendido", {
                "nome": name.shown, "comando": name.command, "listas": list(name.lists)})
        sys.stdout.write(line + "\n")
    if not learned and not args.json:
        sys.stdout.write(tables.narration.render("ferramentas.nenhum_aprendido", {}) + "\n")
    sys.stdout.flush()
    return 0


def _voice_forget(args: argparse.Namespace, tables: Tables) -> int:
    forgotten, unknown = forget(args.db, args.nomes, tables)
    if unknown:
        words = tables.narration
        print(words.render("ferramentas.erro", {"motivo": words.render(
            "ferramentas.nao_aprendido", {
                "nomes": [repr(n) for n in unknown],
                "aprendidos": [name.said for name in campaign_learned(args.db, tables)]})}),
              file=sys.stderr)
        return NOT_A_COMMAND
    for name in forgotten:
        print(tables.narration.render("ferramentas.esqueci",
                                      {"nome": name.said, "listas": list(name.lists)}))
    return 0


VOICE_ACTIONS: dict[str, Callable[[argparse.Namespace, Tables], int]] = {
    "frases": _voice_phrases, "nomes": _voice_names, "esquecer": _voice_forget}


def cmd_listen(args: argparse.Namespace, tables: Tables) -> int:
    return listen_file(args, tables, sys.stdout, sys.stderr)


def cmd_speak(args: argparse.Namespace, tables: Tables) -> int:
    return say_text(" ".join(args.text), tables, args.saida, sys.stdout, sys.stderr)


# ---------------------------------------------------------------------- serve

def _voice_factory(session: Any, tables: Tables, args: argparse.Namespace) -> Any:
    """Voice for `serve`: the session's listener, or the line that says how to turn it on."""
    return lambda heard, status: start_voice(session, tables, heard, status,
                                             getattr(args, "modelo", None))


def _certificate(args: argparse.Namespace, tables: Tables) -> tuple[str, str]:
    """The self-signed certificate of `serve --https`, kept in the GM's data folder."""
    folder = places.certificate_folder()
    folder.mkdir(parents=True, exist_ok=True)
    hosts = [h for h in (args.host, lan_ip(), "127.0.0.1") if h and h not in ("0.0.0.0", "::")]
    cert, key = certificate(folder, hosts, tables.narration)
    print(tables.narration.render("ferramentas.https", {"arquivo": cert}), file=sys.stderr,
          flush=True)
    return str(cert), str(key)


@contextmanager
def _sigterm_as_ctrl_c() -> Iterator[None]:
    """A SIGTERM (what a service manager sends to stop) is a Ctrl+C while serving: the server
    stops the same way and the session closes its SQLite file (the WAL checkpointed into it and
    removed), exit status 0."""
    before = signal.signal(signal.SIGTERM, signal.default_int_handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, before)


def cmd_serve(args: argparse.Namespace, tables: Tables) -> int:
    tls = _certificate(args, tables) if args.https else None
    words = tables.narration
    if args.sem_limites and not is_loopback(args.host):
        print(words.render("ferramentas.erro", {"motivo": words.render(
            "acesso.sem_limites_so_local", {})}), file=sys.stderr)
        return STARTUP_FAILURE
    serving = holder(args.db) if args.db else None
    if serving is not None:  # two servers writing one campaign would lose commands
        print(words.render("ferramentas.erro", {"motivo": words.render(
            "ferramentas.serve_com_servidor", {"banco": args.db, "servidor": serving})}),
              file=sys.stderr)
        return STARTUP_FAILURE
    session = _open_session(args, tables, gm_token=args.gm_token)
    print(campaign_line(session), flush=True)
    try:
        with _sigterm_as_ctrl_c():
            serve(args.host, args.port, session, voice=_voice_factory(session, tables, args),
                  tls=tls, limits=not args.sem_limites,
                  ready=None if args.sem_navegador or not args.navegador else browser.open_page)
    finally:
        session.close()
    return 0


# ---------------------------------------------------------------------- report, export

def _write(path: str, text: str, tables: Tables) -> None:
    try:
        Path(path).write_text(text, encoding="utf-8")
    except OSError as error:
        raise CompanionError(tables.narration.render("ferramentas.nao_escreveu", {
            "arquivo": path, "motivo": error.strerror})) from None


def cmd_report(args: argparse.Namespace, tables: Tables) -> int:
    number = session_number(args.sessao)
    tables = campaign_rules(args.db, tables)[1]  # its regions by their names
    campaign = open_campaign(args.db)
    viewer, name = build.viewer_for(campaign, args.jogador, tables)
    if not args.saida:
        if number is not None:  # that session's main lines after the list
            made = build.report(campaign, tables, number, viewer, name)
            print(build.sessions_text(campaign, tables) + "\n\n"
                  + "\n".join(report_text.lines(made, tables)))
        else:
            print(build.sessions_text(campaign, tables))
        return 0
    _write(args.saida, build.html(campaign, tables, number, viewer, name), tables)
    print(tables.narration.render("ferramentas.relatorio_escrito", {"arquivo": args.saida}))
    return 0


def cmd_export(args: argparse.Namespace, tables: Tables) -> int:
    number = session_number(args.sessao)
    tables = campaign_rules(args.db, tables)[1]
    campaign = open_campaign(args.db)
    viewer, _name = build.viewer_for(campaign, args.jogador, tables)
    _write(args.saida, build.export(campaign, tables, args.formato, number, viewer,
                                    args.separador), tables)
    print(tables.narration.render("ferramentas.eventos_escritos", {"arquivo": args.saida}))
    return 0


def cmd_verify(args: argparse.Namespace, tables: Tables) -> int:
    """Replay the campaign with today's code and tables (a check: the file is only read);
    exit 0 when no command's events would differ, 1 otherwise."""
    found = verify_campaign(args.db, tables)
    words = tables.narration
    for step in found:
        print(words.render("ferramentas.verificar_comando", {
            "comando": step.command.n, "texto": step.command.text, "motivo": step.differs}))
    if found:
        print(words.render("ferramentas.verificar_total", {"quantos": len(found)}))
        return NOT_A_COMMAND
    print(words.render("ferramentas.verificar_nada", {}))
    return 0


def cmd_campaigns(args: argparse.Namespace, tables: Tables) -> int:
    return campaigns.list_campaigns(tables, sys.stdout, sys.stderr)


def cmd_models(args: argparse.Namespace, tables: Tables) -> int:
    return fetch_models(tables, places.models_folder(), sys.stdout, sys.stderr)


def cmd_update(args: argparse.Namespace, tables: Tables) -> int:
    print(about.update_line(tables.narration))
    return 0


ACTIONS: dict[str, Callable[[argparse.Namespace, Tables], int]] = {
    "atualizar": cmd_update,
    "verificar": cmd_verify,
    "shell": cmd_shell, "parse": cmd_parse, "serve": cmd_serve, "voz": cmd_voice,
    "ouvir": cmd_listen, "falar": cmd_speak, "relatorio": cmd_report, "exportar": cmd_export,
    "regras": cmd_rules, "campanhas": cmd_campaigns, "modelo": cmd_models,
}


def main(argv: list[str] | None = None, prog: str = "companion",
         epilog: str | None = None) -> int:
    _utf8_streams()
    args = build_parser(prog, epilog).parse_args(argv)
    try:
        tables = load_rules(Path(args.tables) if args.tables else None)
    except TableError as error:  # said with the words read before the tables
        print(argparse_words.words().render("linha_de_comando.erro_nas_tabelas",
                                            {"motivo": error.message}), file=sys.stderr)
        return STARTUP_FAILURE
    try:
        campaigns.resolve(args, tables)
        return ACTIONS[args.action](args, tables)
    except TableError as error:
        print(argparse_words.words().render("linha_de_comando.erro_nas_tabelas",
                                            {"motivo": error.message}), file=sys.stderr)
    except CompanionError as error:
        print(tables.narration.render("ferramentas.erro", {"motivo": error.message}),
              file=sys.stderr)
    except sqlite3.Error as error:
        print(tables.narration.render("ferramentas.erro_no_banco", {
            "banco": getattr(args, "db", None), "motivo": str(error)}), file=sys.stderr)
    except KeyboardInterrupt:
        return 0
    except BrokenPipeError:  # `companion voz frases | head`: the reader had enough
        _quiet_stdout()
        return CLOSED_PIPE
    return STARTUP_FAILURE


def _quiet_stdout() -> None:
    """Point stdout at /dev/null, so the interpreter's last flush finds no closed pipe."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())


