"""Which Vosk model to use: --modelo DIR, else the largest known one in the GM's models folder
(or a checkout's models/), else none."""
from __future__ import annotations

from pathlib import Path

from companion.tables import places
from companion.tables.narration import Narrator
from companion.voice.config import VoiceConfig

MODELS_DIR = places.models_folder()


def no_model(narration: Narrator) -> str:
    """Why voice is off when no model was found (tables/narracao/voz_erros.yaml)."""
    return narration.render("voz_erros.sem_modelo", {"pasta": str(MODELS_DIR)})


def is_model(folder: Path) -> bool:
    return (folder / "am").is_dir() and (folder / "conf").is_dir()


def find_model(config: VoiceConfig, explicit: str | Path | None = None,
               folder: Path = MODELS_DIR) -> Path | None:
    """The model folder to load (None: voice stays off): the GM's folder first, then a
    checkout's models/."""
    if explicit:
        return Path(explicit)
    for place in dict.fromkeys((folder, places.checkout_models_folder())):
        found = _best(config, place)
        if found is not None:
            return found
    return None


def _best(config: VoiceConfig, folder: Path) -> Path | None:
    for name in (*config.larger_models, config.default_model):
        if is_model(folder / name):
            return folder / name
    others = sorted(p for p in folder.glob("vosk-model*") if p.is_dir() and is_model(p))
    return others[0] if others else None
