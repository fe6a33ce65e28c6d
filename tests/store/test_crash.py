"""Crash suite: a real `companion serve` killed with SIGKILL at random moments, over and over.

Each round starts the server on the same SQLite file, drives it through the HTTP API and
Socket.IO at once (the GM's socket, a player's socket, HTTP), kills it with `kill -9` at a
random moment (sometimes while it is still starting) and checks, before the next round:

- `PRAGMA integrity_check` is ok;
- every acknowledged command's events are in the log, exactly as acknowledged;
- every event a phone received is in the log, exactly as received (commit before broadcast),
  and the GM's socket, reconnecting each round with `desde`, never got one twice or out of
  order;
- the reopened session equals an independent replay: a fresh in-memory session with the same
  seed running the stored command texts, in order, as the same actors (every event identical).

`./run.sh crash [N]` runs N rounds (200 by default); the suite's own run does a few
(MESA_CRASH_KILLS, 3 by default) and `.ci/run` runs 20.
"""
from __future__ import annotations

import json
import os
import random
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import requests
import socketio

from companion.engine.characters import slug
from companion.history.projection import project
from companion.session import Session
from companion.tables.files import Tables
from tests.history_helpers import differences
from tests.socket_client import ordered_client

ROOT = Path(__file__).resolve().parents[2]
SEED = 91
TOKEN = "mestre-crash-token-1"
KILLS = int(os.environ.get("MESA_CRASH_KILLS", "3"))
GM_TEXTS = ["rolar 1d6", "explorar", "tesouro 3 moedas de ouro", "rolar 2d6+1", "segredo",
            "derrotados 1 goblin", "acampar", "desfazer", "clima", "item 1 corda", "descansar"]
HTTP_TEXTS = ["rolar 1d20", "tesouro 1 moeda de prata", "estado", "avançar", "desfazer",
              "rolar 3d4"]
PLAYER_TEXTS = ["rolar 1d8", "rolar 1d4", "responder rolar"]


def free_port() -> int:
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@dataclass
class Witness:
    """What the outside world was told, across every round."""

    acked_gm: list[dict[str, Any]] = field(default_factory=list)  # global seqs
    acked_player: list[dict[str, Any]] = field(default_factory=list)  # the player's numbers
    received_gm: list[dict[str, Any]] = field(default_factory=list)  # every `evento` the GM got
    received_player: list[dict[str, Any]] = field(default_factory=list)
    player_token: str | None = None
    problems: list[str] = field(default_factory=list)  # what a driver thread saw go wrong
    lock: threading.Lock = field(default_factory=threading.Lock)


class Round:
    """One life of the server: start, drive from three clients, kill -9."""

    def __init__(self, db: Path, witness: Witness, rng: random.Random) -> None:
        self.db = db
        self.witness = witness
        self.rng = rng
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.dead = threading.Event()
        self.process = subprocess.Popen(
            [sys.executable, "-m", "companion", "serve", "--sem-limites", "--host",
             "127.0.0.1", "--port", str(self.port), "--db", str(db), "--seed", str(SEED),
             "--gm-token", TOKEN],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=ROOT)

    def ready(self, timeout: float = 30.0) -> bool:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                return False
            try:
                if requests.get(f"{self.url}/jogador", timeout=1).status_code == 200:
                    return True
            except requests.RequestException:
                time.sleep(0.01)
        raise AssertionError("o servidor não respondeu em 30 s")

    def kill9(self) -> None:
        self.dead.set()
        if self.process.poll() is None:
            os.kill(self.process.pid, signal.SIGKILL)
        self.process.wait(timeout=30)

    # ------------------------------------------------------------------ drivers

    def _socket(self, auth: dict[str, Any], into: list[dict[str, Any]]) -> socketio.Client:
        client = ordered_client(reconnection=False)

        def got(event: dict[str, Any]) -> None:
            with self.witness.lock:
                into.append(event)

        def welcome(data: dict[str, Any]) -> None:
            if data.get("papel") == "jogador":
                self.witness.player_token = data.get("token")

        client.on("evento", got)
        client.on("eventos", lambda events: [got(event) for event in events])  # a welcome's
        client.on("boas_vindas", welcome)
        client.connect(self.url, auth=auth, transports=["websocket"], wait_timeout=5)
        return client

    def drive_gm(self) -> None:
        seen = self.witness.received_gm
        since = seen[-1]["seq"] if seen else 0
        self._drive({"token": TOKEN, "desde": since}, seen, self.witness.acked_gm, GM_TEXTS)

    def drive_player(self) -> None:
        seen = self.witness.received_player
        since = seen[-1]["seq"] if seen else 0
        stored = self._stored_token("ana")
        if self.witness.player_token is None or stored is None:
            # killed after Ana's join was committed, before her phone heard its token: her
            # seat is held (a join by name is refused), so the phone takes the stored token;
            # or an undo took the character her join made and freed the seat (no token left):
            # the phone joins again by name, as the page does after `lugar_liberado`
            self.witness.player_token = stored
        auth = ({"token": self.witness.player_token, "desde": since}
                if self.witness.player_token else {"nome": "Ana", "desde": since})
        self._drive(auth, seen, self.witness.acked_player, PLAYER_TEXTS)

    def _stored_token(self, character: str) -> str | None:
        if not self.db.exists():
            return None
        raw = sqlite3.connect(self.db)
        try:
            row = raw.execute("SELECT token FROM players WHERE character_id = ?",
                              (character,)).fetchone()
        except sqlite3.OperationalError:  # the server has not made its tables yet
            return None
        finally:
            raw.close()
        return row[0] if row else None

    def _drive(self, auth: dict[str, Any], seen: list[dict[str, Any]],
               acked: list[dict[str, Any]], texts: list[str]) -> None:
        try:
            client = self._socket(auth, seen)
        except Exception as error:
            if not self.dead.is_set():
                with self.witness.lock:
                    self.witness.problems.append(f"conexão recusada: {error!r}")
            return  # the kill came first
        try:
            while not self.dead.is_set():
                answered = threading.Event()

                def record(ack: Any = None) -> None:
                    if isinstance(ack, dict) and ack.get("ok"):
                        with self.witness.lock:
                            acked.extend(ack["events"])
                    answered.set()

                client.emit("comando", {"text": self.rng.choice(texts)}, callback=record)
                while not answered.wait(0.05):
                    if self.dead.is_set():
                        return
        except Exception:
            pass  # the server died under us: what was acknowledged is recorded
        finally:
            try:
                client.disconnect()
            except Exception:
                pass

    def drive_http(self) -> None:
        headers = {"Authorization": f"Bearer {TOKEN}"}
        while not self.dead.is_set():
            try:
                answer = requests.post(f"{self.url}/api/command", headers=headers, timeout=5,
                                       json={"text": self.rng.choice(HTTP_TEXTS)})
            except requests.RequestException:
                return
            if answer.status_code not in (200, 422):
                with self.witness.lock:
                    self.witness.problems.append(f"HTTP {answer.status_code}: {answer.text}")
            if answer.status_code == 200:
                with self.witness.lock:
                    self.witness.acked_gm.extend(answer.json()["events"])

    def live(self, seconds: float) -> None:
        """Drive from three clients at once, then kill -9 while they are still at it."""
        drivers = [threading.Thread(target=target, daemon=True)
                   for target in (self.drive_gm, self.drive_player, self.drive_http)]
        for driver in drivers:
            driver.start()
        time.sleep(seconds)
        self.kill9()
        for driver in drivers:
            driver.join(timeout=30)
            assert not driver.is_alive(), "um cliente ficou preso depois do kill -9"


class Reference:
    """An independent replay: a fresh in-memory session running the stored texts in order. A
    `personagem Nome` that a phone's join made is replayed as that join (so an undo of it frees
    the seat here too, as the live server recorded)."""

    def __init__(self, tables: Tables) -> None:
        self.session = Session.open(None, SEED, tables)
        self.done = 0

    def catch_up(self, db: Path, tables: Tables) -> None:
        with sqlite3.connect(db) as raw:
            rows = raw.execute("SELECT n, text, actor FROM commands WHERE n > ? ORDER BY n",
                               (self.done,)).fetchall()
            joined = _joined(raw)
        for n, text, actor in rows:
            self.done = n
            if actor == "sistema":  # a seat freed (an undo took its character): not a command
                continue
            name = text.removeprefix("personagem ") if text.startswith("personagem ") else None
            if name and slug(name) in joined and \
                    all(c.id != slug(name) for c in self.session.state.party):
                self.session.join_player(name)
                continue
            result = self.session.run(text, actor=actor)
            assert result.ok, f"comando {n} {text!r} recusado na repetição: {result.error}"
            self.done = n


def _joined(raw: sqlite3.Connection) -> set[str]:
    """The characters phones joined: seated now, or whose seat an undo freed."""
    seated = {row[0] for row in raw.execute("SELECT character_id FROM players")}
    freed = {json.loads(row[0]).get("personagem") for row in raw.execute(
        "SELECT args FROM commands WHERE name = 'lugar_liberado'")}
    return seated | {c for c in freed if isinstance(c, str)}


def integrity(db: Path) -> str:
    with sqlite3.connect(db) as raw:
        return raw.execute("PRAGMA integrity_check").fetchone()[0]


def check_round(db: Path, witness: Witness, reference: Reference, tables: Tables) -> None:
    assert witness.problems == []
    assert integrity(db) == "ok"
    reopened = Session.open(db, None, tables)
    try:
        assert differences(db, tables) == []
        stored = reopened.events_since(0)
        by_seq = {e["seq"]: e for e in stored}
        assert len(by_seq) == len(stored)
        with witness.lock:
            acked_gm = list(witness.acked_gm)
            acked_player = list(witness.acked_player)
            got_gm = list(witness.received_gm)
            got_player = list(witness.received_player)
        for event in acked_gm + got_gm:
            assert by_seq.get(event["seq"]) == event, f"evento {event['seq']} perdido/mudado"
        player = next((p for p in reopened.players() if p.character_id == "ana"), None)
        if player is not None:
            viewer = "player:ana"
            _projection, mine = project(viewer, tables, reopened.history_since(0),
                                        reopened.quoted)
            by_number = {e["seq"]: e for e in mine}
            for event in acked_player + got_player:
                assert by_number.get(event["seq"]) == event, f"evento {event} da Ana"
        for seen in (got_gm, got_player):
            numbers = [e["seq"] for e in seen]
            assert numbers == sorted(set(numbers)), "evento repetido ou fora de ordem"
        gm_numbers = [e["seq"] for e in got_gm]
        assert gm_numbers == list(range(1, len(gm_numbers) + 1)), "o Mestre perdeu um evento"
        reference.catch_up(db, tables)
        assert reopened.state == reference.session.state
        assert stored == reference.session.events_since(0)
    finally:
        reopened.close()


def test_kill_9_at_random_moments_loses_nothing_acknowledged(tmp_path: Path,
                                                             tables: Tables) -> None:
    db = tmp_path / "mesa.db"
    rng = random.Random(int(os.environ.get("MESA_CRASH_SEED", "2026")))
    witness = Witness()
    reference = Reference(tables)
    for number in range(KILLS):
        life = Round(db, witness, rng)
        if rng.random() < 0.1:  # now and then, kill it while it is still starting
            time.sleep(rng.uniform(0.0, 0.5))
            life.kill9()
        elif life.ready():
            life.live(rng.uniform(0.2, 1.5))
        else:
            life.kill9()
        if db.exists():
            check_round(db, witness, reference, tables)
    # a last life, not killed: the GM's phone catches up on everything, once, in order
    life = Round(db, witness, rng)
    assert life.ready()
    try:
        since = witness.received_gm[-1]["seq"] if witness.received_gm else 0
        client = life._socket({"token": TOKEN, "desde": since}, witness.received_gm)
        with sqlite3.connect(db) as raw:
            last = raw.execute("SELECT COALESCE(MAX(seq), 0) FROM events").fetchone()[0]
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline and len(witness.received_gm) < last:
            time.sleep(0.02)
        client.disconnect()
    finally:
        life.kill9()
    check_round(db, witness, reference, tables)
    assert len(witness.received_gm) == last
    assert len(witness.acked_gm) > 0 and (KILLS < 5 or len(witness.acked_player) > 0)
