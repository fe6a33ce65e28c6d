"""Which Vosk model to use: --modelo DIR, else the largest known one in models/, else none."""
from __future__ import annotations

from pathlib import Path

from companion.voice.config import VoiceConfig

MODELS_DIR = Path(__file__).resolve().parents[2] / "models"
NO_MODEL = ("voz desligada: nenhum modelo de voz em models/; baixe o de português com "
            "./run.sh modelo (ou veja models/README.md para fazê-lo à mão)")


def is_model(folder: Path) -> bool:
    return (folder / "am").is_dir() and (folder / "conf").is_dir()


def find_model(config: VoiceConfig, explicit: str | Path | None = None,
               folder: Path = MODELS_DIR) -> Path | None:
    """The model folder to load (None: voice stays off)."""
    if explicit:
        return Path(explicit)
    for name in (*config.larger_models, config.default_model):
        if is_model(folder / name):
            return folder / name
    others = sorted(p for p in folder.glob("vosk-model*") if p.is_dir() and is_model(p))
    return others[0] if others else None
