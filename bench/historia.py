"""What stored history costs (docs/design.md "History is kept, not recomputed"), beside the code
before it, measured in one run.

Every command now stores the engine's State after it (zlib keyframes and deltas); reopening,
undo and the report read those states instead of replaying. This bench measures, for this
checkout ("novo") and, with `--antes PATH`, another checkout ("antes", e.g. the commit before
stored history) in the same run:

1. one command (`Session.run`, a mix of travel, dungeon, rolls, secrets and the answers to the
   prompts they raise) on a file: p50 and p99, each also as a multiple of the floor, one bare
   durable SQLite commit (WAL, synchronous=FULL, the one bench/bench.py measures), timed right
   after each command in the same process;
2. the file per 1,000 commands after `PRAGMA wal_checkpoint(TRUNCATE)`, for the same mix and
   for a campaign where every other command is a `segredo` (State.secrets grows with each);
3. reopening a 10,000-command campaign: `Session.open` minus an empty start's `Session.open`;
4. the report of the middle 2,000-command session of that campaign
   (`report(open_campaign(db, tables), tables, n)`).

Each version runs in its own Python process (`PYTHONPATH` = its checkout), so the two never
share a module; the timed rounds alternate antes/novo (then novo/antes) so that a busy moment
of this shared machine falls on both alike. The campaigns are built once per version with the
same seed and script (`synchronous=OFF` while building, to go fast: the file's contents are the
same; the last commands of each campaign run with `synchronous=FULL` and are timed too, as the
cost of a command late in a long campaign). Nothing here asserts a time: it prints.

    .venv/bin/python bench/historia.py [--curto] [--antes /caminho/do/checkout/antigo]
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Callable

from historia_tabela import table

ROOT = Path(__file__).resolve().parents[1]
SEED = 7
SETUP = ["personagem Ana nível 2 pv 12 con 1 des 2", "personagem Bia pv 10 des 1",
         "estação outono", "terreno floresta"]
SECRETS = ["escutar atrás da porta", "procurar armadilhas", "perceber a emboscada",
           "achar a passagem secreta", "notar o batedor", "ler as runas"]
# A typical evening: travel, a dungeon, free rolls and secret ones (each `{segredo}` becomes a
# secret roll with a reason; the prompts the rules raise are answered as the players would).
MIX = ["avançar", "explorar", "rolar 2d6+1", "forragear", "{segredo}", "caçar", "acampar",
       "descansar", "clima", "derrotados 2 goblins", "tesouro 10 moedas de ouro",
       "masmorra", "acender uma tocha", "turno", "turno", "{segredo}", "rolar 1d20",
       "derrotados 1 goblin", "turno", "item 1 poção", "descansar", "viagem"]
CUT = "encerrar sessão"
KINDS = ("tipica", "segredos")


# ---------------------------------------------------------------------------- the script

def secret(index: int) -> str:
    reason = SECRETS[index % len(SECRETS)]
    return f"segredo 1d20+2 pra {reason}" if index % 2 else f"segredo pra {reason}"


def line(index: int, kind: str) -> str:
    """The index-th command of the script: the typical mix, or (segredos) a secret roll every
    other command and the typical mix between them."""
    if kind == "segredos":
        if index % 2 == 0:
            return secret(index // 2)
        index //= 2
    text = MIX[index % len(MIX)]
    return secret(index) if text == "{segredo}" else text


# ---------------------------------------------------------------------------- in a worker
# Everything below until the orchestrator runs in a worker process, with the checkout under
# test first on PYTHONPATH; `companion` is imported only here.

class Floor:
    """One bare durable commit of a small row (bench/bench.py's baseline_commit)."""

    def __init__(self, path: Path) -> None:
        self.db = sqlite3.connect(path, isolation_level=None)
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA synchronous=FULL")
        self.db.execute("CREATE TABLE IF NOT EXISTS t (n INTEGER PRIMARY KEY, text TEXT)")

    def commit(self) -> float:
        began = time.perf_counter()
        self.db.execute("BEGIN")
        self.db.execute("INSERT INTO t (text) VALUES (?)", ("avançar",))
        self.db.execute("COMMIT")
        return time.perf_counter() - began

    def close(self) -> None:
        self.db.close()


class Player:
    """Runs the script through a real Session, answering prompts so every command stands."""

    def __init__(self, session: Any, kind: str) -> None:
        self.session = session
        self.kind = kind
        self.index = 0
        self.accepted = 0
        self.refused: list[str] = []
        self.times: list[float] = []
        self.floor: Floor | None = None
        self.floor_times: list[float] = []

    def run(self, text: str, timed: bool) -> bool:
        began = time.perf_counter()
        result = self.session.run(text)
        spent = time.perf_counter() - began
        if result.ok:
            self.accepted += 1
            if timed:
                self.times.append(spent)
                if self.floor is not None:
                    self.floor_times.append(self.floor.commit())
        else:
            self.refused.append(f"{text}: {result.error}")
        return result.ok

    def answer_prompts(self, timed: bool) -> None:
        """As bench/bench.py's answer_prompts: the first option, or a roll; cancel otherwise."""
        for _ in range(20):
            prompts = self.session.state.prompts
            if not prompts:
                return
            prompt = prompts[0]
            how = f"opcao {prompt.options[0]}" if prompt.options else "rolar"
            if not self.run(f"responder pedido {prompt.id} {how}", timed):
                self.run("cancelar", timed)

    def setup(self) -> None:
        for text in SETUP:
            self.run(text, False)

    def step(self, timed: bool) -> None:
        """The next command of the script, and the answers to what it asked."""
        self.run(line(self.index, self.kind), timed)
        self.index += 1
        self.answer_prompts(timed)


def _rules() -> Any:
    from companion.rules.loader import load_rules
    return load_rules()


def _stored_commands(db: Path) -> int:
    with sqlite3.connect(db) as raw:
        return int(raw.execute("SELECT COUNT(*) FROM commands").fetchone()[0])


def checkpointed_size(db: Path) -> int:
    """The file's size once the WAL is folded into it (PRAGMA wal_checkpoint(TRUNCATE))."""
    raw = sqlite3.connect(db)
    try:
        raw.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
    finally:
        raw.close()
    return db.stat().st_size


def by_table(db: Path) -> dict[str, int]:
    """Bytes of each table and index of the file (SQLite's dbstat: whole pages)."""
    raw = sqlite3.connect(db)
    try:
        return {name: int(size) for name, size in raw.execute(
            "SELECT name, SUM(pgsize) FROM dbstat GROUP BY name")}
    finally:
        raw.close()


def task_commands(folder: str, count: int) -> dict[str, Any]:
    """`count` timed commands of the typical mix on a new file, each followed by one floor
    commit; one untimed cycle of the mix first (templates, caches)."""
    from companion.session import Session
    tables = _rules()
    where = Path(folder)
    where.mkdir(parents=True, exist_ok=True)
    session = Session.open(where / "comandos.db", SEED, tables)
    player = Player(session, "tipica")
    player.setup()
    for _ in range(len(MIX)):
        player.step(False)
    player.floor = Floor(where / "chao.db")
    while len(player.times) < count:
        player.step(True)
    player.floor.close()
    session.close()
    return {"comandos": player.times, "chao": player.floor_times,
            "recusados": player.refused}


def task_build(db: str, count: int, kind: str, session_every: int, tail: int) -> dict[str, Any]:
    """A campaign of `count` stored commands (the session cut every `session_every`), the file
    size checkpointed every 1,000; the last `tail` commands durable and timed."""
    from companion.session import Session
    tables = _rules()
    path = Path(db)
    began = time.perf_counter()
    session = Session.open(path, SEED, tables)
    connection = session._log._db  # the bench's own shortcut: no fsync while building
    connection.execute("PRAGMA synchronous=OFF")
    player = Player(session, kind)
    player.setup()
    sizes: list[tuple[int, int]] = []
    stored = lambda: player.accepted + 1  # noqa: E731 (command 0: the session's start)
    next_cut, next_size = session_every, 1000
    timing = False
    while stored() < count:
        if not timing and stored() >= count - tail:
            connection.execute("PRAGMA synchronous=FULL")
            player.floor = Floor(path.with_name(path.stem + "-chao.db"))
            timing = True
        if stored() >= next_cut:
            if not player.run(CUT, timing):
                raise RuntimeError(f"'{CUT}' recusado: {player.refused[-1]}")
            next_cut += session_every
            continue
        player.step(timing)
        if stored() >= next_size:
            sizes.append((stored(), checkpointed_size(path)))
            next_size += 1000
    if player.floor is not None:
        player.floor.close()
    secrets = len(session.state.secrets)
    session.close()
    total = _stored_commands(path)
    sizes.append((total, checkpointed_size(path)))
    return {"tamanhos": sizes, "comandos": total, "segredos": secrets, "tabelas": by_table(path),
            "fim": player.times, "chao": player.floor_times, "recusados": player.refused,
            "segundos": time.perf_counter() - began}


def task_reopen(db: str, repeats: int) -> dict[str, Any]:
    """Session.open of a copy of the campaign, and of a new empty file, alternated."""
    from companion.session import Session
    tables = _rules()
    source = Path(db)
    scratch = source.with_name(source.stem + "-copia.db")
    empty = source.with_name(source.stem + "-vazia.db")

    def open_copy() -> float:
        shutil.copyfile(source, scratch)
        began = time.perf_counter()
        Session.open(scratch, None, tables).close()
        return time.perf_counter() - began

    def open_empty() -> float:
        empty.unlink(missing_ok=True)
        began = time.perf_counter()
        Session.open(empty, SEED, tables).close()
        return time.perf_counter() - began

    open_empty(), open_copy()  # warm-up: first imports, templates
    campaign, fresh = [], []
    for _ in range(repeats):
        campaign.append(open_copy())
        fresh.append(open_empty())
    return {"campanha": campaign, "vazia": fresh}


def task_report(db: str, repeats: int) -> dict[str, Any]:
    """report(open_campaign(db, tables), tables, n) for the middle session (the code before
    stored history has open_campaign(db) without tables)."""
    import inspect

    from companion.report.build import report
    from companion.report.source import find_session, open_campaign, sessions
    tables = _rules()
    with_tables = "tables" in inspect.signature(open_campaign).parameters

    def campaign() -> Any:
        return open_campaign(db, tables) if with_tables else open_campaign(db)

    spans = sessions(campaign())
    number = spans[(len(spans) - 1) // 2].number
    span = find_session(campaign(), number)
    samples = []
    for _ in range(repeats + 1):  # the first one warms up (templates, imports)
        began = time.perf_counter()
        report(campaign(), tables, number)
        samples.append(time.perf_counter() - began)
    return {"segundos": samples[1:], "primeira": samples[0], "sessao": number,
            "sessoes": len(spans), "comandos": span.last - span.first + 1}


TASKS: dict[str, Callable[..., dict[str, Any]]] = {
    "comandos": task_commands, "construir": task_build, "reabrir": task_reopen,
    "relatorio": task_report}


def worker(name: str, arguments: str) -> None:
    import companion
    result = TASKS[name](**json.loads(arguments))
    result["companion"] = companion.__file__
    print(json.dumps(result))


# ---------------------------------------------------------------------------- orchestrator

class Version:
    """One checkout under test: its worker processes run with it first on PYTHONPATH."""

    def __init__(self, name: str, checkout: Path) -> None:
        self.name = name
        self.checkout = checkout.resolve()

    def call(self, task: str, **arguments: Any) -> dict[str, Any]:
        env = dict(os.environ, PYTHONPATH=str(self.checkout))
        done = subprocess.run(
            [sys.executable, str(Path(__file__).resolve()), "--tarefa", task,
             "--argumentos", json.dumps(arguments)],
            cwd=self.checkout, env=env, stdout=subprocess.PIPE, text=True)
        if done.returncode != 0:
            raise RuntimeError(f"{self.name}: a tarefa {task} falhou ({done.returncode})")
        result = json.loads(done.stdout.strip().splitlines()[-1])
        where = Path(result["companion"]).resolve()
        if self.checkout not in where.parents:
            raise RuntimeError(f"{self.name}: importou {where}, não {self.checkout}")
        if result.get("recusados"):
            print(f"  aviso ({self.name}, {task}): {len(result['recusados'])} recusados, "
                  f"como {result['recusados'][0]}", file=sys.stderr)
        return result


def alternated(versions: list[Version], rounds: int,
               measure: Callable[[Version, int], dict[str, Any]]) -> dict[str, list[dict]]:
    """`rounds` rounds of `measure`, the versions' order reversed every other round."""
    found: dict[str, list[dict]] = {v.name: [] for v in versions}
    for index in range(rounds):
        order = versions if index % 2 == 0 else list(reversed(versions))
        for version in order:
            found[version.name].append(measure(version, index))
    return found


def say(text: str) -> None:
    print(f"  … {text}", file=sys.stderr, flush=True)


def measure(versions: list[Version], quick: bool, count: int, session_every: int,
            folder: Path) -> dict[str, dict[str, Any]]:
    rounds = 2 if quick else 6
    per_round = 150 if quick else 400
    tail = 100 if quick else 300
    out: dict[str, dict[str, Any]] = {v.name: {} for v in versions}

    runs = alternated(versions, rounds, lambda v, i: v.call(
        "comandos", folder=str(folder / f"{v.name}-{i}"), count=per_round))
    floor_all: list[float] = []
    for name, found in runs.items():
        out[name]["comandos"] = [t for r in found for t in r["comandos"]]
        floor_all += [t for r in found for t in r["chao"]]
    say(f"comandos medidos ({rounds} rodadas de {per_round} por versão)")

    for version in versions:
        for kind in KINDS:
            db = folder / f"{version.name}-{kind}.db"
            built = version.call("construir", db=str(db), count=count, kind=kind,
                                 session_every=session_every, tail=tail)
            out[version.name][kind] = built
            floor_all += built["chao"]
            say(f"{version.name}: campanha {kind} de {built['comandos']} comandos construída "
                f"em {built['segundos']:.0f} s")

    repeats = 3 if quick else 5
    reopened = alternated(versions, 2, lambda v, i: v.call(
        "reabrir", db=str(folder / f"{v.name}-tipica.db"), repeats=repeats))
    for name, found in reopened.items():
        out[name]["reabrir"] = [t for r in found for t in r["campanha"]]
        out[name]["vazia"] = [t for r in found for t in r["vazia"]]
    say("reabrir medido")

    reported = alternated(versions, 1 if quick else 2, lambda v, i: v.call(
        "relatorio", db=str(folder / f"{v.name}-tipica.db"), repeats=1 if quick else 2))
    for name, found in reported.items():
        out[name]["relatorio"] = [t for r in found for t in r["segundos"]]
        out[name]["relatorio_sessao"] = found[0]
    say("relatório medido")
    out["chao"] = {"commits": floor_all}
    out["amostras"] = {"rodadas": rounds, "por_rodada": per_round, "fim": tail,
                       "reabrir": 2 * repeats, "relatorio": len(out["novo"]["relatorio"])}
    return out


def main() -> None:
    options = argparse.ArgumentParser(description=__doc__,
                                      formatter_class=argparse.RawDescriptionHelpFormatter)
    options.add_argument("--curto", action="store_true",
                         help="uma versão rápida (menos rodadas e uma campanha menor)")
    options.add_argument("--antes", metavar="CAMINHO",
                         help="checkout do código de antes (ex.: um git worktree do 8853e87)")
    options.add_argument("--comandos", type=int, metavar="N",
                         help="tamanho das campanhas (padrão 10000; --curto: 4000)")
    options.add_argument("--sessao", type=int, metavar="N",
                         help="comandos por sessão (padrão 2000; --curto: 1000)")
    options.add_argument("--tarefa", help=argparse.SUPPRESS)
    options.add_argument("--argumentos", help=argparse.SUPPRESS)
    args = options.parse_args()
    if args.tarefa:
        worker(args.tarefa, args.argumentos)
        return
    count = args.comandos or (4000 if args.curto else 10_000)
    session_every = args.sessao or (1000 if args.curto else 2000)
    versions = [Version("novo", ROOT)]
    if args.antes:
        before = Path(args.antes)
        if not (before / "companion" / "__init__.py").is_file():
            options.error(f"'{before}' não é um checkout do Mesa (falta companion/)")
        versions.insert(0, Version("antes", before))
    began = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="mesa-historia-") as tmp:
        results = measure(versions, args.curto, count, session_every, Path(tmp))
    alternating = ", rodadas alternadas antes/novo" if args.antes else ""
    print(f"\nHistória guardada — medido nesta execução ({os.cpu_count()} núcleos, "
          f"{time.perf_counter() - began:.0f} s){alternating}")
    print(table(results, args.antes is not None, count,
                count >= 10_000 and session_every >= 2000))


if __name__ == "__main__":
    main()
