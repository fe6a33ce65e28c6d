"""`mesa modelo`, the speech half: the Piper pt_BR voice into the GM's models folder, beside
the Vosk model, each file's size and SHA-256 checked against tables/fala.yaml (`piper.baixar`).

A file already there with the right size and digest is kept; a download goes to a `.parte` file
first and takes its name only once checked, so a cut download never looks like a voice.
"""
from __future__ import annotations

import hashlib
import sys
import urllib.request
from pathlib import Path
from typing import Callable, Iterable, TextIO

from companion.rules.loader import load_rules
from companion.speech.config import VoiceFile, speech_config
from companion.speech.voices import MODELS_DIR

BLOCK = 1 << 20
Opener = Callable[[str], object]


def sha256_of(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as source:
        for block in iter(lambda: source.read(BLOCK), b""):
            digest.update(block)
    return digest.hexdigest()


def _good(path: Path, want: VoiceFile) -> bool:
    return path.is_file() and path.stat().st_size == want.tamanho and \
        (not want.sha256 or sha256_of(path) == want.sha256)


def fetch_file(want: VoiceFile, folder: Path, out: TextIO, err: TextIO,
               opener: Opener = urllib.request.urlopen) -> bool:
    """One file of the voice: already good, or downloaded and checked."""
    target = folder / want.arquivo
    if _good(target, want):
        print(f"{want.arquivo} já está em {folder}", file=out)
        return True
    part = folder / f"{want.arquivo}.parte"
    print(f"baixando {want.url} ({max(1, want.tamanho // 1_000_000)} MB)", file=out, flush=True)
    try:
        with opener(want.url) as response, part.open("wb") as sink:  # type: ignore[attr-defined]
            for block in iter(lambda: response.read(BLOCK), b""):
                sink.write(block)
    except OSError as error:
        part.unlink(missing_ok=True)
        print(f"erro: não consegui baixar {want.arquivo} ({error}); sem internet? veja "
              "models/README.md para fazê-lo à mão", file=err)
        return False
    size = part.stat().st_size
    if size != want.tamanho:
        part.unlink()
        print(f"erro: {want.arquivo} veio com {size} bytes, esperava {want.tamanho}; "
              "tente de novo", file=err)
        return False
    digest = sha256_of(part)
    if want.sha256 and digest != want.sha256:
        part.unlink()
        print(f"erro: SHA-256 de {want.arquivo} é {digest}, esperava {want.sha256}", file=err)
        return False
    part.replace(target)
    return True


def fetch_voice(files: Iterable[VoiceFile], folder: Path, out: TextIO, err: TextIO,
                opener: Opener = urllib.request.urlopen) -> int:
    """Every file of the voice; 0 when all are there, 1 otherwise."""
    folder.mkdir(parents=True, exist_ok=True)
    results = [fetch_file(want, folder, out, err, opener) for want in files]
    if all(results):
        print(f"voz do Piper pronta em {folder} (instale o Piper com pip install -e .[fala])",
              file=out)
        return 0
    print("a fala continua com o espeak-ng (a voz do Piper não foi baixada)", file=err)
    return 1


def main() -> int:
    config = speech_config(load_rules())
    return fetch_voice(config.piper_files, MODELS_DIR, sys.stdout, sys.stderr)


if __name__ == "__main__":
    sys.exit(main())
