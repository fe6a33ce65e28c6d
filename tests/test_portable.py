"""What differs on the GM's own laptop (Windows, macOS), checked here with its inputs faked:
espeak-ng found outside PATH, Vosk and a folder with accents, the GM's folders; and the `mesa`
command's campaigns and model download."""
from __future__ import annotations

import hashlib
import io
import re
import zipfile
from pathlib import Path

import pytest

from companion.tables.files import Tables
from companion.cli import main as companion_main
from companion.cli.mesa import arguments
from companion.cli.model_download import fetch_vosk_model
from companion.speech.voices import find_espeak
from companion.tables import places
from companion.tables.errors import CompanionError
from tests.voice_helpers import NARRATION
from companion.voice.config import ModelDownload
from companion.voice.recognizer import VoiceUnavailable, vosk_path

ROOT = Path(__file__).resolve().parents[1]


def _nowhere(_name: str) -> None:
    return None


def test_espeak_on_path_wins() -> None:
    assert find_espeak("win32", {}, lambda name: f"/bin/{name}", lambda _p: False) == \
        "/bin/espeak-ng"


def test_espeak_in_its_windows_install_folder() -> None:
    present = {"D:\\Apps\\eSpeak NG\\espeak-ng.exe"}
    env = {"ProgramFiles": "C:\\Program Files", "ProgramFiles(x86)": "D:\\Apps"}
    assert find_espeak("win32", env, _nowhere, present.__contains__) == \
        "D:\\Apps\\eSpeak NG\\espeak-ng.exe"


def test_espeak_from_homebrew_on_a_mac() -> None:
    present = {"/opt/homebrew/bin/espeak-ng"}
    assert find_espeak("darwin", {}, _nowhere, present.__contains__) == \
        "/opt/homebrew/bin/espeak-ng"
    assert find_espeak("darwin", {}, _nowhere, lambda _p: False) is None
    assert find_espeak("linux", {}, _nowhere, lambda _p: True) is None  # Linux: PATH only


def test_vosk_path_with_accents_on_windows() -> None:
    folder = Path("C:/Users/João/AppData/Local/Mesa/modelos/vosk-model-small-pt-0.3")
    plain = Path("C:/Mesa/vosk-model-small-pt-0.3")
    assert vosk_path(plain, NARRATION, windows=True, short=_nowhere) == str(plain)
    # Linux and macOS open it as it is
    assert vosk_path(folder, NARRATION, windows=False) == str(folder)
    assert vosk_path(folder, NARRATION, windows=True, short=lambda _p: "C:\\Users\\JOOA~1\\m") == \
        "C:\\Users\\JOOA~1\\m"
    with pytest.raises(VoiceUnavailable) as refused:
        # no 8.3 names on that disk
        vosk_path(folder, NARRATION, windows=True, short=lambda path: path)
    said = refused.value.message
    assert "acentos" in said and "C:\\MesaModelos\\vosk-model-small-pt-0.3" in said
    assert "--modelo" in said


def test_the_models_folder_has_no_accents_on_windows(monkeypatch: pytest.MonkeyPatch,
                                                     tmp_path: Path) -> None:
    monkeypatch.setattr(places, "data_folder", lambda: Path("C:/Users/João/AppData/Mesa"))
    monkeypatch.setattr(places.platformdirs, "site_data_path",
                        lambda app, appauthor: Path("C:/ProgramData") / app)
    assert places.models_folder(windows=True) == Path("C:/ProgramData/Mesa/modelos")
    assert places.models_folder(windows=False) == Path("C:/Users/João/AppData/Mesa/modelos")
    monkeypatch.setattr(places, "data_folder", lambda: Path("C:/Users/Joao/AppData/Mesa"))
    assert places.models_folder(windows=True) == Path("C:/Users/Joao/AppData/Mesa/modelos")


def test_the_checkout_finds_its_own_tables_and_pages() -> None:
    assert places.program_folder("tables") == ROOT / "tables"
    assert places.program_folder("web") == ROOT / "web"


@pytest.mark.parametrize("name", ["Tumba do Rei", "tumba_2", "Ação", "campanha.db"])
def test_a_campaign_name_is_a_file_in_the_gms_folder(name: str) -> None:
    path = places.campaign_file(name)
    assert path.parent == places.campaigns_folder() and path.suffix == ".db"


@pytest.mark.parametrize("name", ["", "../fora", "a/b", "C:\\x", "  ", "x" * 61, ".oculta"])
def test_a_name_that_is_not_a_file_name_is_refused(name: str) -> None:
    with pytest.raises(CompanionError, match="nome de campanha inválido"):
        places.campaign_file(name)


def test_mesa_arguments() -> None:
    assert arguments([]) == ["serve", "--campanha", "mesa"]
    assert arguments(["--port", "9000"]) == ["serve", "--port", "9000", "--campanha", "mesa"]
    assert arguments(["--campanha", "Tumba"]) == ["serve", "--campanha", "Tumba"]
    assert arguments(["--db", "x.db"]) == ["serve", "--db", "x.db"]
    assert arguments(["serve"]) == ["serve", "--campanha", "mesa"]
    assert arguments(["campanhas"]) == ["campanhas"]
    assert arguments(["relatorio", "--campanha", "Tumba"]) == ["relatorio", "--campanha",
                                                               "Tumba"]
    assert arguments(["--help"]) == ["--help"]


def test_campaigns_by_name_then_listed(monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "dados"))
    assert companion_main(["campanhas"]) == 0
    assert "nenhuma campanha" in capsys.readouterr().out
    monkeypatch.setattr("sys.stdin", io.StringIO("rolar 1d6\n"))
    assert companion_main(["shell", "--campanha", "Tumba do Rei"]) == 0
    made = tmp_path / "dados" / "Mesa" / "campanhas" / "Tumba do Rei.db"
    assert made.is_file()
    capsys.readouterr()
    assert companion_main(["campanhas"]) == 0
    listed = capsys.readouterr().out.splitlines()
    # the date as the report says it (dd/mm/yyyy HH:MM), one date format for the GM
    assert re.fullmatch(r"Tumba do Rei: jogada por último em \d\d/\d\d/\d{4} \d\d:\d\d, "
                        r"1 sessão, \d+ kB", listed[0]), listed[0]
    assert companion_main(["verificar", "--campanha", "Tumba do Rei"]) == 0
    # the voice-name tools read a campaign by name too, as the README promises of every tool
    assert companion_main(["voz", "nomes", "--campanha", "Tumba do Rei"]) == 0
    assert companion_main(["voz", "esquecer", "--campanha", "Tumba do Rei", "Ogro"]) == 1
    assert "não é nome aprendido nesta campanha" in capsys.readouterr().err  # read, refused
    assert "--db" not in capsys.readouterr().err
    with pytest.raises(SystemExit) as both:
        companion_main(["exportar", "--campanha", "Tumba do Rei", "--db", str(made),
                        "--formato", "csv", "--saida", str(tmp_path / "e.csv")])
    assert both.value.code == 2 and "não vale junto com" in capsys.readouterr().err
    assert companion_main(["shell", "--campanha", "../x"]) == 2
    assert "nome de campanha inválido" in capsys.readouterr().err


def _model_zip(tmp_path: Path, name: str) -> ModelDownload:
    packed = tmp_path / "origem" / f"{name}.zip"
    packed.parent.mkdir()
    with zipfile.ZipFile(packed, "w") as archive:
        archive.writestr(f"{name}/am/final.mdl", b"am")
        archive.writestr(f"{name}/conf/model.conf", b"conf")
    data = packed.read_bytes()
    return ModelDownload(packed.name, packed.as_uri(), len(data),
                         hashlib.sha256(data).hexdigest())


def test_mesa_modelo_downloads_checks_and_unpacks_the_vosk_model(tmp_path: Path,
                                                                  tables: Tables) -> None:
    name = "vosk-model-teste"
    want = _model_zip(tmp_path, name)
    models = tmp_path / "modelos"
    out, err = io.StringIO(), io.StringIO()
    assert fetch_vosk_model(want, name, models, out, err, tables.narration) == 0, err.getvalue()
    assert (models / name / "am").is_dir() and not (models / want.file).exists()
    assert "pronto" in out.getvalue()
    out = io.StringIO()
    assert fetch_vosk_model(want, name, models, out, err, tables.narration) == 0  # already there: kept
    assert "já está" in out.getvalue() and "baixando" not in out.getvalue()


def test_mesa_modelo_refuses_a_model_that_does_not_check_out(tmp_path: Path,
                                                             tables: Tables) -> None:
    name = "vosk-model-teste"
    want = _model_zip(tmp_path, name)
    models = tmp_path / "modelos"
    for wrong, said in ((ModelDownload(want.file, want.url, want.size, "0" * 64), "SHA-256"),
                        (ModelDownload(want.file, want.url, want.size + 1, want.sha256),
                         "bytes")):
        out, err = io.StringIO(), io.StringIO()
        assert fetch_vosk_model(wrong, name, models, out, err, tables.narration) == 1
        assert said in err.getvalue()
        assert list(models.iterdir()) == []  # nothing half-made left behind
