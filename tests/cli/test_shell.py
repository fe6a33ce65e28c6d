"""`companion shell`, `companion parse` and `companion serve` as a person (or a script) uses them.

The shell tests run the real command (`companion.cli.main`, in this process: tests/cli_helpers.py)
and play the golden scripts — a travel day, a dungeon delve and a chase as the seeds describe
them — checking the procedure, not only that something was printed. The tests where a real
pipe is the point (the accents and a batch read from stdin) start a real process.
"""
from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from companion import cli
from companion.session import Session
from tests.cli_helpers import Ran, run_main

ROOT = Path(__file__).resolve().parents[2]
SCRIPTS = ROOT / "tests" / "golden" / "scripts"
SEED_LINE = re.compile(r"#\s*semente:\s*(\d+)\s*$")


def companion(*args: str, stdin: str = "") -> Ran:
    """`companion ARGS` run in this process, `stdin` its input."""
    return run_main(*args, stdin=stdin)


def companion_process(*args: str, stdin: str = "",
                      timeout: int = 120) -> subprocess.CompletedProcess:
    """`python -m companion ARGS` as a real process, its pipes text in UTF-8."""
    return subprocess.run([sys.executable, "-m", "companion", *args], input=stdin,
                          capture_output=True, text=True, encoding="utf-8", cwd=ROOT,
                          timeout=timeout)


def script(name: str) -> tuple[str, str]:
    """(seed, stdin text) of a golden script."""
    seed, lines = "", []
    for line in (SCRIPTS / f"{name}.txt").read_text(encoding="utf-8").splitlines():
        match = SEED_LINE.match(line)
        if match:
            seed = match.group(1)
        elif not line.startswith("#"):
            lines.append(line)
    return seed, "\n".join(lines) + "\n"


def play(name: str) -> tuple[list[str], list[dict[str, Any]]]:
    """Run a golden script through `companion shell --json`; its lines and printed objects."""
    seed, text = script(name)
    done = companion("shell", "--json", "--seed", seed, stdin=text)
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr, done.stderr
    printed = [json.loads(line) for line in done.stdout.splitlines()]
    errors = [item["error"] for item in printed if "error" in item]
    assert not errors, f"{name}.txt: comandos recusados pelo shell: {errors}"
    golden = ROOT / "tests" / "golden" / "events" / f"{name}.jsonl"
    if golden.exists():
        expected = [json.loads(line) for line in golden.read_text("utf-8").splitlines()]
        assert printed == expected, f"o shell não reproduz {golden.name}"
    return text.splitlines(), printed


def rolls(events: list[dict], table: str) -> list[dict]:
    return [e for e in events if e["kind"] == "rolagem" and e["data"]["tabela"] == table]


def of(events: list[dict], command: str) -> list[dict]:
    return [e for e in events if e["command"] == command]


# ---------------------------------------------------------------------- the three plays

def test_shell_plays_a_full_travel_day() -> None:
    lines, events = play("viagem")
    activities = [line for line in lines
                  if line.split()[0] in {"avançar", "explorar", "forragear", "acampar",
                                         "descansar", "caçar", "pescar"}]
    assert len(activities) >= 6, "a day has six travel rounds"
    for event in events:
        assert set(event) == {"seq", "command", "kind", "visibility", "text", "data"}
    assert [e["seq"] for e in events] == list(range(1, len(events) + 1))
    # each round: weather roll and encounter check (docs/regras.md), then the activity
    assert len(rolls(events, "Clima")) >= 6
    assert len(rolls(events, "Encontro aleatório")) >= 6
    assert rolls(events, "Clima inicial"), "the season's initial weather is rolled"
    lost = rolls(events, "Tabela C: Perdendo a direção")
    assert lost and all(e["visibility"] == "gm" for e in lost), "getting lost is GM-only"
    table_d = rolls(events, "Tabela D: Eventos")
    assert {e["data"]["dados"] for e in table_d} == {"1d6", "1d8"}  # avançar and explorar
    assert any(e["data"]["tabela"].startswith("Tabela E") for e in events
               if e["kind"] == "rolagem"), "foraging rolls on Tabela E"
    assert of(events, "acampar") and of(events, "descansar")
    for event in rolls(events, "Tabela D: Eventos"):
        assert event["data"]["resultado"] in {"Ponto de Interesse", "Evento", "Peregrinos", "Nada"}
    assert of(events, "estado"), "the script ends by showing the table's state"


def test_shell_plays_a_forced_march() -> None:
    _, events = play("marcha")
    asked = [e["data"]["pedido"] for e in events if e["kind"] == "pedido"]
    march = [p for p in asked if p["tipo"] == "marcha_forcada"]
    # Tabela B: the 3rd consecutive advance asks CON DC 12 of each character, the 4th DC 15
    assert [(p["personagem"], p["dc"]) for p in march] == [
        ("ana", 12), ("bruno", 12), ("ana", 15), ("bruno", 15)]
    assert all(e["visibility"] == f"player:{e['data']['pedido']['personagem']}"
               for e in events if e["kind"] == "pedido")
    choices = [p for p in asked if p["tipo"] == "escolha_marcha"]
    assert [p["personagem"] for p in choices] == ["bruno"]  # only the failed test chooses
    assert any("exaustão" in e["text"] and "Bruno" in e["text"] for e in of(events, "responder"))


def test_shell_plays_a_dungeon_delve() -> None:
    lines, events = play("masmorra")
    turns = [line for line in lines if line.strip() == "turno"]
    assert len(turns) >= 6
    # Arriscado: one encounter check every 2 exploration turns
    checks = [e for e in of(events, "turno") if e["kind"] == "rolagem"
              and e["data"]["tabela"] == "Encontro aleatório"]
    assert len(checks) == len(turns) // 2
    for check in checks:
        assert check["data"]["dados"] == "1d6"
    warnings = [e["text"] for e in events if e["kind"] == "aviso"]
    assert any("ocha" in text for text in warnings), "the torch burns out after 6 turns"
    assert rolls(events, "Tabela B: Percalços da Dungeon"), "sleeping rolls dungeon mishaps"
    assert rolls(events, "Tabela C: Descansando na Dungeon"), "and dungeon rest encounters"
    assert of(events, "viagem"), "the party leaves the dungeon"


def test_shell_plays_a_chase() -> None:
    lines, events = play("perseguicao")
    assert of(events, "fugir") and of(events, "fuga") and of(events, "distancia")
    ranged = rolls(events, "Ataques, Arremessos e Magias")
    assert ranged, "a ranged action during the chase is checked by distance"
    texts = " ".join(e["text"] for e in events)
    assert "escap" in texts.lower() or "despist" in texts.lower(), "two escape points: escaped"
    assert "alcançad" in texts.lower() or "encurralad" in texts.lower(), \
        "two danger points: caught"


# ---------------------------------------------------------------------- shell behaviour

def test_junk_and_empty_lines_get_an_error_and_the_shell_goes_on() -> None:
    done = companion("shell", "--json", "--seed", "3",
                     stdin="xyzzy plugh\n\nrolar 1d6\n   \nrolar 2d4\n")
    assert done.returncode == 0, done.stderr
    printed = [json.loads(line) for line in done.stdout.splitlines()]
    start, printed = printed[:2], printed[2:]  # a new session first says its initial weather
    assert [e["command"] for e in start] == ["inicio_sessao"] * 2
    assert start[1]["data"]["tabela"] == "Clima inicial"
    assert "error" in printed[0] and "error" in printed[1]
    assert printed[1]["error"].startswith("linha vazia")
    assert printed[2]["command"] == "rolar"
    assert "error" in printed[3]
    assert printed[4]["command"] == "rolar"
    assert len(printed) == 5


def test_shell_json_keeps_accents_unescaped() -> None:
    done = companion_process("shell", "--json", "--seed", "3",
                             stdin="tesouro 10 moedas de ouro\najuda\n")
    assert done.returncode == 0, done.stderr
    assert "\\u00" not in done.stdout
    assert any(ch in done.stdout for ch in "áâãçéêíóôõú")


def test_readable_shell_output() -> None:
    done = companion("shell", "--seed", "3", stdin="rolar 1d6\nxyzzy\n")
    assert done.returncode == 0, done.stderr
    start, weather, first, second = done.stdout.splitlines()
    assert re.match(r"\s*1  Sessão criada", start) and "Clima inicial" in weather
    assert re.match(r"\s*3  \S", first) and "1d6" in first
    assert second.startswith("erro: ")
    assert "semente 3" in done.stderr


def test_shell_with_db_resumes_and_refuses_another_seed(tmp_path: Path) -> None:
    db = str(tmp_path / "mesa.db")
    first = companion("shell", "--json", "--db", db, "--seed", "8", stdin="rolar 1d20\n")
    assert first.returncode == 0, first.stderr
    again = companion("shell", "--json", "--db", db, stdin="rolar 1d20\n")
    assert json.loads(again.stdout)["seq"] == 4  # after the start's 2 events and the first roll
    assert "semente 8" in again.stderr
    wrong = companion("shell", "--json", "--db", db, "--seed", "9", stdin="rolar 1d20\n")
    assert wrong.returncode == 2
    assert wrong.stdout == ""
    assert len(wrong.stderr.strip().splitlines()) == 1
    assert "semente 8" in wrong.stderr and "Traceback" not in wrong.stderr


def test_without_a_seed_the_dice_come_from_a_kept_secret(tmp_path: Path) -> None:
    db = str(tmp_path / "mesa.db")
    started = companion("shell", "--db", db, stdin="")
    assert "chave secreta" in started.stderr and "semente" not in started.stderr
    assert not Session.open(db, None, cli.load_rules()).seeded


# ---------------------------------------------------------------------- broken tables

def _tables_copy(tmp_path: Path) -> Path:
    folder = tmp_path / "tables"
    shutil.copytree(ROOT / "tables", folder)
    return folder


@pytest.mark.parametrize("action", [["shell", "--json"], ["parse", "rolar", "1d6"],
                                    ["serve", "--port", "1"]])
def test_broken_yaml_is_one_line_and_status_2(tmp_path: Path, action: list[str]) -> None:
    folder = _tables_copy(tmp_path)
    (folder / "comandos.yaml").write_text("modos: [\n  quebrado", encoding="utf-8")
    done = companion(*action, "--tables", str(folder), stdin="ajuda\n")
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [done.stderr.strip()]
    assert done.stderr.startswith("erro nas tabelas: tables/comandos.yaml: ")
    assert "Traceback" not in done.stderr


def test_missing_key_names_file_and_key(tmp_path: Path) -> None:
    folder = _tables_copy(tmp_path)
    text = (folder / "comandos.yaml").read_text(encoding="utf-8")
    (folder / "comandos.yaml").write_text(text.replace("modos:\n", "modas:\n", 1),
                                          encoding="utf-8")
    done = companion("shell", "--tables", str(folder), stdin="ajuda\n")
    assert done.returncode == 2
    assert done.stderr.strip() == "erro nas tabelas: tables/comandos.yaml: falta a chave 'modos'"


# ---------------------------------------------------------------------- parse

def test_parse_one_text_as_json() -> None:
    done = companion("parse", "--json", "rolar", "2d6+1")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == {"command": "rolar", "args": {"expressao": "2d6+1"}}


def test_parse_not_a_command_exits_1() -> None:
    done = companion("parse", "--json", "o", "dragão", "dança")
    assert done.returncode == 1
    answer = json.loads(done.stdout)
    assert answer["command"] is None and answer["error"]


def test_parse_batch_from_stdin() -> None:
    done = companion_process("parse", "--json", stdin="avançar\nxyzzy\nterreno pântano\n")
    assert done.returncode == 0, done.stderr
    answers = [json.loads(line) for line in done.stdout.splitlines()]
    assert [a["command"] for a in answers] == ["avancar", None, "terreno"]
    assert answers[2]["args"] == {"terreno": "pantano"}


def test_parse_readable() -> None:
    done = companion("parse", "terreno", "floresta")
    assert done.returncode == 0
    assert done.stdout.strip() == "terreno (terreno=floresta)"


# ---------------------------------------------------------------------- serve

def test_serve_opens_the_session_and_hands_it_to_the_server(tmp_path: Path,
                                                            monkeypatch: pytest.MonkeyPatch
                                                            ) -> None:
    calls: list[tuple[str, int, Session]] = []
    monkeypatch.setattr(cli, "serve", lambda host, port, session, **_voice_and_tls: calls.append(
        (host, port, session)))
    db = tmp_path / "mesa.db"
    status = cli.main(["serve", "--port", "5055", "--db", str(db), "--seed", "4",
                       "--gm-token", "token-do-mestre-4"])
    assert status == 0
    ((host, port, session),) = calls
    assert (host, port, session.seed, session.gm_token) == ("0.0.0.0", 5055, "4",
                                                            "token-do-mestre-4")
    assert session.db_path == str(db)


@pytest.mark.parametrize("args, said", [
    (["serve", "--port", "abc"], "companion serve: erro: argumento --port: valor inválido: "
                                 "'abc' (esperado: um número inteiro)"),
    ([], "companion: erro: falta o argumento: AÇÃO"),
    (["shell", "--seed", "x"], "companion shell: erro: argumento --seed: valor inválido: 'x' "
                               "(esperado: um número inteiro)"),
    (["shell", "--desconhecida"], "companion: erro: argumentos desconhecidos: --desconhecida"),
    (["parse", "--db"], "companion parse: erro: argumento --db: falta o valor"),
    (["voar"], "companion: erro: argumento AÇÃO: escolha inválida: 'voar' (use "),
])
def test_command_line_mistakes_are_said_in_portuguese_with_status_2(
        args: list[str], said: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        cli.main(args)
    assert exited.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith("uso: companion"), err
    assert said in err, err
    assert "error" not in err and "usage" not in err and "invalid" not in err


def test_the_command_line_help_is_in_portuguese(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        cli.main(["serve", "--help"])
    assert exited.value.code == 0
    out = capsys.readouterr().out
    assert out.startswith("uso: companion serve") and "opções:" in out
    assert "mostra esta ajuda e sai" in out and "show this help" not in out
