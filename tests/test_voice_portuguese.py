"""Portuguese end to end, whenever a Portuguese model sits in models/: espeak-ng pt-br → WAV →
Vosk → strict reading → a command run in the session."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from companion.tables import load_tables
from companion.voice.config import voice_config
from companion.voice.models import find_model
from tests.voice_helpers import speak

ROOT = Path(__file__).resolve().parents[1]
MODEL = find_model(voice_config(load_tables()))

pytestmark = pytest.mark.skipif(
    MODEL is None, reason="sem modelo de português em models/ (./run.sh modelo o baixa): o "
                          "teste de ponta a ponta em português só roda com ele")


def test_spoken_portuguese_runs_the_command(tmp_path: Path) -> None:
    from companion.session import Session
    from companion.store.utterances import Utterances

    db = tmp_path / "mesa.db"
    Session.open(db, 4, load_tables()).close()
    wav = speak("avançar", "pt-br", tmp_path / "avancar.wav")
    done = subprocess.run([sys.executable, "-m", "companion.cli", "ouvir", str(wav), "--db",
                           str(db), "--json"], capture_output=True, text=True, cwd=ROOT,
                          timeout=300)
    assert done.returncode == 0, done.stderr
    heard = [json.loads(line) for line in done.stdout.splitlines()]
    assert [h["comando"]["command"] for h in heard if h["comando"]] == ["avancar"]
    session = Session.open(db, None, load_tables())
    assert [c.name for c in session.commands()] == ["avancar"]
    session.close()
    log = Utterances(db)
    assert [r.command_name for r in log.all() if r.accepted] == ["avancar"]
    log.close()
