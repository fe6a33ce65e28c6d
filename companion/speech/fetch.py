"""`mesa modelo`, the speech half: the Piper pt_BR voice into the GM's models folder, beside
the Vosk model, each file's size and SHA-256 checked against tables/fala.yaml (`piper.baixar`).

A file already there with the right size and digest is kept; a download goes to a `.parte` file
first and takes its name only once checked, so a cut download never looks like a voice.
"""
from __future__ import annotations

import hashlib
import socket
import sys
import urllib.request
from pathlib import Path
from typing import Callable, Iterable, TextIO

from companion.rules.loader import load_rules
from companion.speech.speech_config import VoiceFile, speech_config
from companion.speech.voices import MODELS_DIR
from companion.tables.narration import Narrator

BLOCK = 1 << 20
Opener = Callable[[str], object]


def sha256_of(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as source:
        for block in iter(lambda: source.read(BLOCK), b""):
            digest.update(block)
    return digest.hexdigest()


def why(error: OSError, words: Narrator) -> str:
    """A failed download in the GM's words: no internet, the server's answer, or the system's
    reason (never urllib's English `<urlopen error …>`)."""
    code = getattr(error, "code", None)
    if isinstance(code, int):  # an HTTPError: the server answered
        return words.render("baixar_voz.servidor_respondeu", {"codigo": code})
    reason = getattr(error, "reason", error)  # a URLError wraps the socket's error
    if isinstance(reason, (socket.gaierror, ConnectionError, TimeoutError, socket.timeout)):
        return words.render("baixar_voz.sem_internet", {})
    return str(getattr(reason, "strerror", None) or reason)


def _good(path: Path, want: VoiceFile) -> bool:
    return path.is_file() and path.stat().st_size == want.tamanho and \
        (not want.sha256 or sha256_of(path) == want.sha256)


def fetch_file(want: VoiceFile, folder: Path, out: TextIO, err: TextIO, words: Narrator,
               opener: Opener = urllib.request.urlopen) -> bool:
    """One file of the voice: already good, or downloaded and checked."""
    target = folder / want.arquivo
    if _good(target, want):
        print(words.render("baixar_voz.ja_esta", {"arquivo": want.arquivo, "pasta": folder}),
              file=out)
        return True
    part = folder / f"{want.arquivo}.parte"
    print(words.render("baixar_voz.baixando", {
        "endereco": want.url, "megas": max(1, want.tamanho // 1_000_000)}), file=out, flush=True)
    try:
        with opener(want.url) as response, part.open("wb") as sink:  # type: ignore[attr-defined]
            for block in iter(lambda: response.read(BLOCK), b""):
                sink.write(block)
    except OSError as error:
        part.unlink(missing_ok=True)
        print(words.render("baixar_voz.nao_baixou", {"arquivo": want.arquivo,
                                                     "motivo": why(error, words)}), file=err)
        return False
    size = part.stat().st_size
    if size != want.tamanho:
        part.unlink()
        print(words.render("baixar_voz.tamanho_errado", {
            "arquivo": want.arquivo, "veio": size, "esperado": want.tamanho}), file=err)
        return False
    digest = sha256_of(part)
    if want.sha256 and digest != want.sha256:
        part.unlink()
        print(words.render("baixar_voz.sha_errado", {
            "arquivo": want.arquivo, "veio": digest, "esperado": want.sha256}), file=err)
        return False
    part.replace(target)
    return True


def fetch_voice(files: Iterable[VoiceFile], folder: Path, out: TextIO, err: TextIO,
                words: Narrator, opener: Opener = urllib.request.urlopen) -> int:
    """Every file of the voice; 0 when all are there, 1 otherwise."""
    folder.mkdir(parents=True, exist_ok=True)
    # the first failure stops it: one line, not one per file
    if all(fetch_file(want, folder, out, err, words, opener) for want in files):
        print(words.render("baixar_voz.pronta", {"pasta": folder}), file=out)
        return 0
    print(words.render("baixar_voz.sem_piper", {}), file=err)
    return 1


def main() -> int:
    tables = load_rules()
    return fetch_voice(speech_config(tables).piper_files, MODELS_DIR, sys.stdout, sys.stderr,
                       tables.narration)


if __name__ == "__main__":
    sys.exit(main())
