"""`./run.sh modelo`'s speech half: the Piper voice's files fetched and checked (from local
file:// addresses here: this machine has no internet)."""
from __future__ import annotations

import hashlib
import io
import subprocess
from pathlib import Path

from companion.speech.speech_config import VoiceFile, speech_config
from companion.speech.fetch import fetch_voice
from companion.speech.voices import piper_model
from companion.rules.loader import load_rules
from companion.tables.files import Tables

ROOT = Path(__file__).resolve().parents[2]


def _served(tmp_path: Path, name: str, data: bytes, sha: str | None = None,
            size: int | None = None) -> VoiceFile:
    source = tmp_path / "origem" / name
    source.parent.mkdir(exist_ok=True)
    source.write_bytes(data)
    return VoiceFile(name, source.as_uri(), len(data) if size is None else size,
                     hashlib.sha256(data).hexdigest() if sha is None else sha)


def _fetch(files: list[VoiceFile], folder: Path) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    status = fetch_voice(files, folder, out, err, load_rules().narration)
    return status, out.getvalue(), err.getvalue()


def test_the_voice_is_fetched_checked_and_found(tables: Tables, tmp_path: Path) -> None:
    voice = speech_config(tables).piper_voice
    files = [_served(tmp_path, f"{voice}.onnx", b"modelo" * 1000),
             _served(tmp_path, f"{voice}.onnx.json", b'{"audio": {}}')]
    models = tmp_path / "models"
    status, out, err = _fetch(files, models)
    assert status == 0, err
    assert "voz do Piper pronta" in out
    assert piper_model(speech_config(tables), models) == models / f"{voice}.onnx"
    # again: nothing is downloaded twice
    status, out, _err = _fetch(files, models)
    assert status == 0 and "baixando" not in out and out.count("já está") == 2


def test_a_file_that_does_not_check_out_is_not_kept(tables: Tables, tmp_path: Path) -> None:
    models = tmp_path / "models"
    wrong_sha = _served(tmp_path, "voz.onnx", b"abc", sha="0" * 64)
    status, _out, err = _fetch([wrong_sha], models)
    assert status == 1 and "SHA-256 de voz.onnx" in err and "esperava 000" in err
    wrong_size = _served(tmp_path, "voz.onnx.json", b"abc", size=10)
    status, _out, err = _fetch([wrong_size], models)
    assert status == 1 and "veio com 3 bytes, esperava 10" in err
    assert sorted(p.name for p in models.iterdir()) == []  # no half file left behind
    gone = VoiceFile("voz.onnx", (tmp_path / "nao-existe").as_uri(), 3, "")
    status, _out, err = _fetch([gone], models)
    assert status == 1 and "rode mesa modelo de novo" in err and "espeak-ng" in err


def test_run_sh_modelo_fetches_the_piper_voice_too() -> None:
    script = (ROOT / "run.sh").read_text(encoding="utf-8")
    assert '"$VENV/bin/companion" modelo' in script
    done = subprocess.run(["bash", "-n", str(ROOT / "run.sh")], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


def test_the_shipped_voice_files_name_the_configured_voice(tables: Tables) -> None:
    config = speech_config(tables)
    names = [f.arquivo for f in config.piper_files]
    assert names == [f"{config.piper_voice}.onnx", f"{config.piper_voice}.onnx.json"]
    assert all(f.url.endswith(f.arquivo) and f.tamanho > 0 and len(f.sha256) == 64
               for f in config.piper_files)
