"""Where things are: the program's own folders (tables/, web/) and the GM's (campaigns, models,
the HTTPS certificate, caches).

The program's folders sit at the repository's top level in a checkout, beside companion/; an
installed wheel carries them inside the package (companion/_data/tables, companion/_data/web),
read with importlib.resources. The GM's files go to the user's own data and cache folders
(platformdirs, app "Mesa": %LOCALAPPDATA%\\Mesa on Windows, ~/Library/Application Support/Mesa
on macOS, ~/.local/share/Mesa on Linux), never into the program's folder or the current one.
"""
from __future__ import annotations

import importlib.metadata
import os
import re
import tomllib
from importlib import resources
from pathlib import Path

import platformdirs

from companion.tables.errors import CompanionError

APP = "Mesa"
DISTRIBUTION = "mesa"  # the package and the uv tool: `uv tool uninstall mesa`
PACKED = "_data"  # a wheel's companion/_data/tables and companion/_data/web (pyproject's force-include)
CAMPAIGN_SUFFIX = ".db"
DEFAULT_CAMPAIGN = "mesa"
# A campaign's name is a file name on every OS: letters (accents too), digits, space, - and _.
CAMPAIGN_NAME = re.compile(r"^[\w][\w \-]{0,59}$")


def program_folder(name: str) -> Path:
    """One of the program's own folders ("tables", "web", "models"): the installed package's
    copy when there is one, else the checkout's top-level folder."""
    package = Path(str(resources.files("companion")))
    packed = package / PACKED / name
    return packed if packed.is_dir() else package.parent / name


def release() -> str:
    """This release of Mesa: the installed distribution's version, else the checkout's
    pyproject.toml (one number to raise on a release: the launchers, `mesa --version` and the
    campaign files all read it here)."""
    try:
        return importlib.metadata.version(DISTRIBUTION)
    except importlib.metadata.PackageNotFoundError:
        pyproject = Path(str(resources.files("companion"))).parent / "pyproject.toml"
        with pyproject.open("rb") as file:
            return str(tomllib.load(file)["project"]["version"])


def data_folder() -> Path:
    """The GM's data folder for Mesa (made on first use by whoever writes in it)."""
    return platformdirs.user_data_path(APP, appauthor=False)


def cache_folder() -> Path:
    """Where caches go (the tables' parsed YAML): safe to delete at any time."""
    return platformdirs.user_cache_path(APP, appauthor=False)


def campaigns_folder() -> Path:
    return data_folder() / "campanhas"


def models_folder(windows: bool = os.name == "nt") -> Path:
    """Where `mesa modelo` puts the voice models (Vosk, Piper). Vosk cannot open a folder
    whose path has accents on Windows (C:\\Users\\João\\...): there, such a user's models go
    to the machine's shared data folder (C:\\ProgramData\\Mesa) instead."""
    mine = data_folder() / "modelos"
    if not windows or str(mine).isascii():
        return mine
    return platformdirs.site_data_path(APP, appauthor=False) / "modelos"


def checkout_models_folder() -> Path:
    """The checkout's models/ folder (where `./run.sh modelo` put them before)."""
    return program_folder("models")


def certificate_folder() -> Path:
    """Where `serve --https` keeps its self-signed certificate."""
    return data_folder() / "certificado"


def campaign_file(name: str) -> Path:
    """The file of the campaign called `name` in the GM's campaigns folder; CompanionError
    (Portuguese, saying what a name may be) for a name that cannot be a file name."""
    cleaned = name.strip()
    if cleaned.lower().endswith(CAMPAIGN_SUFFIX):
        cleaned = cleaned[:-len(CAMPAIGN_SUFFIX)]
    if not CAMPAIGN_NAME.match(cleaned):
        raise CompanionError(f"nome de campanha inválido: '{name}'; use letras, números, "
                             "espaço, - ou _ (até 60), como --campanha Tumba-do-Rei; para "
                             "um arquivo em outro lugar, use --db CAMINHO")
    return campaigns_folder() / f"{cleaned}{CAMPAIGN_SUFFIX}"
