"""The floor: a bare Flask-SocketIO server that re-broadcasts one event of a given size.

Same stack and settings as the companion (threading mode, simple-websocket, werkzeug's threaded
server with Nagle off), none of its work: on `comando` it sends every connected client one
`evento` of `--size` bytes and acknowledges; on `boas` it sends the asker `--boas-vindas` such
events in one `eventos` message and an `estado` (what a welcome sends). What the companion costs beyond this is its own.

With `--duravel ARQUIVO` it is the durable floor: each `comando` is first committed to a SQLite
file in WAL mode with synchronous=FULL (one INSERT, one COMMIT, as the companion's log
commits each command) before its event goes out: the least any server that keeps every
acknowledged command must pay.

    python bench/floor_server.py --port 5001 --size 300 [--duravel chao.db]
"""
from __future__ import annotations

import argparse
import json
import sqlite3
import threading

from flask import Flask, request
from flask_socketio import SocketIO
from werkzeug.serving import WSGIRequestHandler, make_server


class Handler(WSGIRequestHandler):
    disable_nagle_algorithm = True

    def connection_dropped(self, error: BaseException, environ: object = None) -> None:
        self.close_connection = True


def _durable(path: str) -> sqlite3.Connection:
    """The durable floor's log: WAL, synchronous=FULL, as the companion's."""
    connection = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    connection.execute("PRAGMA journal_mode=WAL")
    connection.execute("PRAGMA synchronous=FULL")
    connection.execute("CREATE TABLE IF NOT EXISTS log (n INTEGER PRIMARY KEY, text TEXT, "
                       "event TEXT)")
    return connection


def main() -> None:
    options = argparse.ArgumentParser(description=__doc__)
    options.add_argument("--host", default="127.0.0.1")
    options.add_argument("--port", type=int, required=True)
    options.add_argument("--size", type=int, default=300)
    options.add_argument("--boas-vindas", type=int, default=300, metavar="N",
                         help="eventos que `boas` manda (o chão de uma reconexão)")
    options.add_argument("--duravel", metavar="ARQUIVO",
                         help="grava cada comando num SQLite WAL synchronous=FULL antes de mandar")
    args = options.parse_args()
    durable = _durable(args.duravel) if args.duravel else None
    lock = threading.Lock()
    app = Flask(__name__)
    socketio = SocketIO(app, async_mode="threading", cors_allowed_origins=None,
                        manage_session=False)
    counter = {"seq": 0}

    @app.get("/jogador")
    def page() -> str:
        return "<!doctype html><title>chão</title>"

    def event_of(seq: int) -> dict:
        """An event whose JSON is `--size` bytes long."""
        shape = {"seq": seq, "command": "rolar", "kind": "rolagem", "visibility": "public",
                 "text": "", "data": {}}
        shape["text"] = "x" * max(0, args.size - len(json.dumps(shape)))
        return shape

    @socketio.on("comando")
    def command(payload: object = None) -> dict:
        with lock:
            counter["seq"] += 1
            event = event_of(counter["seq"])
            if durable is not None:  # the durable floor: committed before anyone hears it
                durable.execute("BEGIN")
                durable.execute("INSERT INTO log (text, event) VALUES (?, ?)",
                                (json.dumps(payload), json.dumps(event)))
                durable.execute("COMMIT")
        socketio.emit("evento", event)
        return {"ok": True, "events": [event]}

    @socketio.on("boas")
    def welcome(payload: object = None) -> None:
        """The floor of a welcome: `--boas-vindas` events in one message (`eventos`, as the
        companion sends a welcome's replay) and one `estado`, to this client."""
        events = [event_of(seq) for seq in range(1, args.boas_vindas + 1)]
        socketio.emit("eventos", events, to=request.sid)  # type: ignore[attr-defined]
        socketio.emit("estado", {}, to=request.sid)  # type: ignore[attr-defined]

    server = make_server(args.host, args.port, app, threaded=True, request_handler=Handler)
    print("pronto", flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
