"""`remover personagem Nome` (issue 25): a character that never played leaves the party, its
prompts cancelled; one that played stays; `desfazer` brings it back."""
from __future__ import annotations

from pathlib import Path
from typing import Iterator

import pytest

from companion.engine.model import PUBLIC
from companion.session import Session
from companion.tables.errors import CommandRejected
from companion.tables.files import Tables
from tests.play_helpers import Play


def test_a_character_leaves_with_its_prompts(play: Play) -> None:
    play("personagem", nome="Ana")
    play("personagem", nome="Eva")
    play("panico", personagem="Eva")
    assert [p.character for p in play.state.prompts] == ["eva"]
    events = play("remover_personagem", personagem="Eva")
    assert [c.id for c in play.state.party] == ["ana"]
    assert play.state.prompts == ()
    assert [e.code for e in events] == ["pedidos.cancelado", "personagem.removido"]
    assert events[-1].visibility == PUBLIC and events[-1].data == {"personagem": "eva"}


def test_the_watch_and_the_marching_order_forget_it(play: Play) -> None:
    for name in ("Ana", "Eva"):
        play("personagem", nome=name)
    play("vigia", personagem="Eva")
    play("remover_personagem", personagem="eva")
    assert play.state.travel.watcher is None


def test_one_who_acted_this_round_or_an_unknown_name_is_refused(play: Play) -> None:
    play("personagem", nome="Ana")
    play("personagem", nome="Bia")
    play("cacar", personagem="Ana")
    before = play.state
    with pytest.raises(CommandRejected) as acted:
        play("remover_personagem", personagem="Ana")
    assert acted.value.code == "personagem.remover_ja_jogou"
    with pytest.raises(CommandRejected) as unknown:
        play("remover_personagem", personagem="Zé")
    assert unknown.value.code == "personagem.desconhecido"
    assert play.state == before


def test_without_a_name_the_party_is_named(session: Session) -> None:
    """'remover personagem' alone is this command (not 'monstro remover'), refused with the
    party's names, like 'pânico' alone."""
    for name in ("Ana", "Bruno"):
        assert session.run(f"personagem {name}").ok
    before = session.state
    refused = session.run("remover personagem")
    assert not refused.ok
    assert refused.error == ("diga quem sai do grupo: Ana ou Bruno — por exemplo, "
                             "'remover personagem Ana'")
    assert session.state == before


@pytest.fixture
def session(tmp_path: Path, tables: Tables) -> Iterator[Session]:
    opened = Session.open(tmp_path / "mesa.db", 7, tables, gm_token="g" * 20)
    yield opened
    opened.close()


def test_removing_is_undone_like_any_command(session: Session) -> None:
    assert session.run("personagem Eva").ok
    removed = session.run("remover personagem Eva")
    assert removed.ok and "Eva saiu do grupo" in removed.events[-1]["text"]
    assert all(c.id != "eva" for c in session.state.party)
    assert session.run("desfazer").ok
    assert any(c.id == "eva" for c in session.state.party)


def test_a_character_whose_phone_played_or_holds_the_seat_stays(session: Session) -> None:
    eva = session.join_player("Eva")
    held = session.run("remover personagem Eva")
    assert not held.ok and "libere o lugar" in (held.error or "")
    assert session.run("rolar 1d6", actor="player:eva").ok
    session.free_seat("eva", "gm")
    played = session.run("remover personagem Eva")
    assert not played.ok and "já jogou" in (played.error or "")
    assert any(c.id == "eva" for c in session.state.party)
    assert session.player_by_token(eva.token) is None
