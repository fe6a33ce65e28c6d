"""`mesa modelo` (`companion modelo`): the voice models into the GM's models folder, on every OS.

The default Portuguese Vosk model (tables/voz.yaml, `modelos.baixar`) is downloaded, its size
and SHA-256 checked, and unpacked; then the Piper pt_BR voice beside it (tables/fala.yaml,
`piper.baixar`). A model already there is kept; a failed download changes nothing.
"""
from __future__ import annotations

import urllib.request
import zipfile
from pathlib import Path
from typing import TextIO

from companion.speech.speech_config import VoiceFile, speech_config
from companion.tables.narration import Narrator
from companion.speech.fetch import Opener, fetch_file, sha256_of, fetch_voice
from companion.tables.files import Tables
from companion.voice.config import ModelDownload, voice_config
from companion.voice.models import is_model


def fetch_models(tables: Tables, folder: Path, out: TextIO, err: TextIO,
                 opener: Opener = urllib.request.urlopen) -> int:
    """The Vosk model, then the Piper voice, into folder; 0 when both are there, 1 otherwise."""
    config = voice_config(tables)
    words = tables.narration
    made = _first_missing(folder)
    status = fetch_vosk_model(config.download, config.default_model, folder, out, err, words,
                              opener)
    piper = fetch_voice(speech_config(tables).piper_files, folder, out, err, words, opener)
    if made is not None:
        _remove_if_empty(folder, made)  # a failed first download leaves no empty folder behind
    return status or piper


def _first_missing(folder: Path) -> Path | None:
    """The outermost folder of `folder`'s path that does not exist yet (None: it exists)."""
    missing = None
    for place in (folder, *folder.parents):
        if place.exists():
            return missing
        missing = place
    return missing


def _remove_if_empty(folder: Path, up_to: Path) -> None:
    """Remove `folder` and its parents up to `up_to` while each is empty."""
    for place in (folder, *folder.parents):
        try:
            place.rmdir()  # only an empty folder goes
        except OSError:
            return
        if place == up_to:
            return


def fetch_vosk_model(want: ModelDownload, name: str, folder: Path, out: TextIO, err: TextIO,
                     words: Narrator, opener: Opener = urllib.request.urlopen) -> int:
    """The zipped Vosk model `name` downloaded, checked and unpacked into folder; 0 when it
    is there, 1 (with one line saying why) otherwise."""
    target = folder / name
    if is_model(target):
        print(words.render("baixar_voz.modelo_ja_esta", {"alvo": target}), file=out)
        return 0
    folder.mkdir(parents=True, exist_ok=True)
    archive = VoiceFile(want.file, want.url, want.size, want.sha256)
    if not fetch_file(archive, folder, out, err, words, opener):
        return 1
    packed = folder / want.file
    if not want.sha256:
        print(words.render("baixar_voz.sha_nao_anotado", {"arquivo": want.file,
                                                          "sha": sha256_of(packed)}), file=out)
    try:
        with zipfile.ZipFile(packed) as unpacking:
            unpacking.extractall(folder)
    except (zipfile.BadZipFile, OSError) as error:
        print(words.render("baixar_voz.zip_ruim", {"arquivo": packed, "motivo": error}),
              file=err)
        return 1
    packed.unlink()
    if not is_model(target):
        print(words.render("baixar_voz.modelo_incompleto", {"alvo": target}), file=err)
        return 1
    print(words.render("baixar_voz.modelo_pronto", {"alvo": target}), file=out)
    return 0
