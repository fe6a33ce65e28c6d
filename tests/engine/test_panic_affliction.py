"""test_panic.py, continued: the affliction tests."""
from __future__ import annotations

import copy

import pytest

from companion.engine.scratch import Scratch
from companion.engine.model import Command, Prompt, State
from companion.engine.procedures.panic import exhaustion_day
from companion.engine.view import view_state
from companion.tables.files import Tables
from tests.play_helpers import FixedDice, Play
from tests.rules_helpers import new_character
from tests.engine.panic_helpers import (  # noqa: F401
    J,
    I,
    party_play,
    ana,
    panic,
    row_event,
    exhausted,
    public_rules,
    names_seen,
    _card,
    _sheet,
)


def test_the_daily_harm_follows_its_row_in_the_data(tables):
    """Moving `dano_diario` to row 1 makes level 1 take the damage (1d4 CON, from the row)."""
    files = copy.deepcopy(dict(tables.files))
    rows = files["exaustao"]["tabela_i"]["linhas"]
    rows["1"], rows["3"] = ({**rows["1"], "efeito": "dano_diario",
                             "dano_diario": {"atributo": "sab", "dados": "1d6"}},
                            {"texto": rows["3"]["texto"], "efeito": "desvantagem"})
    moved = Tables(files=files, directory=tables.directory)
    scratch = Scratch(rng=FixedDice(5), tables=moved, command=Command("avancar"))
    state = exhaustion_day(State(party=(exhausted(1),)), scratch)
    assert state.party[0].attribute_damage == {"sab": 5}
    assert [e.data["dados"] for e in scratch.events if e.kind == "rolagem"] == ["1d6"]


def test_tabela_i_texts_are_the_seeds(tables):
    rows = tables.get("exaustao", "tabela_i", "linhas")
    assert {int(k): v["texto"] for k, v in rows.items()} == I


def test_panic_prompt_with_modifier_counts_it(tables):
    prompt = Prompt(id=1, kind="panico", character="ana", text="teste", modifier=2)
    play = Play(tables, State(party=(new_character(id="ana", name="Ana", sanity=10),),
                              prompts=(prompt,), next_prompt_id=2))
    events = play("responder", actor="player:ana", valor=9)
    assert any("falhou" in e.text and "11 > Sanidade 10" in e.text for e in events)


def test_by_default_the_affliction_is_its_players_and_the_gms(tables):
    play = party_play(tables, sanity=3)
    events = panic(play, 20, 2, 2)  # fail, Tabela K 2 (Medroso), random effect 2 (Impactado)
    (told,) = [e for e in events if e.code == "panico.aflicao"]
    assert told.visibility == "player:ana" and told.data["aflicao"] == "Medroso"
    public = " ".join(e.text for e in events if e.visibility == "public")
    assert "Medroso" not in public
    assert "Ana falhou no teste de pânico" in public  # the others see that she panicked
    (kept,) = ana(play).afflictions
    assert (kept.name, kept.visibility) == ("Medroso", "player:ana")
    for viewer in ("public", "player:bia"):
        assert names_seen(play.state, viewer, tables) == []
    for viewer in ("gm", "player:ana"):
        assert names_seen(play.state, viewer, tables) == ["Medroso"]


def test_by_default_the_effects_name_is_its_players_and_the_gms(tables):
    play = party_play(tables, sanity=6)
    events = panic(play, 20, 3)  # fail: Tabela J 5-7, Fúria for 3 rounds
    public = [e for e in events if e.visibility == "public"]
    assert any("falhou" in e.text for e in public)
    assert not any("Fúria" in e.text or e.data.get("tabela") for e in public)
    named = [e for e in events if "Fúria" in e.text]
    assert named and {e.visibility for e in named} == {"player:ana"}
    assert row_event(events).visibility == "player:ana"


def test_the_house_setting_makes_the_effect_and_the_affliction_public(tmp_path):
    rules = public_rules(tmp_path)
    play = party_play(rules, sanity=3)
    events = panic(play, 20, 2, 1, 3)  # Medroso, then the random effect 1: Fúria, 3 rounds
    (told,) = [e for e in events if e.code == "panico.aflicao"]
    assert told.visibility == "public"
    assert row_event(events).visibility == "public"
    assert any("Fúria por 3 rodadas" in e.text and e.visibility == "public" for e in events)
    k_roll = next(e for e in events if e.data.get("tabela") == "Tabela K: Aflição")
    assert k_roll.visibility == "player:ana"  # the full text stays hers
    assert names_seen(play.state, "player:bia", rules) == ["Medroso"]


def test_the_affliction_keeps_who_sees_it_when_the_setting_changes(tables, tmp_path):
    rules = public_rules(tmp_path, effect=False)
    play = party_play(tables, sanity=3)
    panic(play, 20, 2, 2)  # Medroso, gained while afflictions were private
    later = Play(rules, play.state)
    panic(later, 20, 8, 2)  # Histérico, gained once they are public
    assert [(a.name, a.visibility) for a in ana(later).afflictions] == [
        ("Medroso", "player:ana"), ("Histérico", "public")]
    for viewer, shown in (("public", ["Histérico"]), ("player:bia", ["Histérico"]),
                          ("player:ana", ["Medroso", "Histérico"]),
                          ("gm", ["Medroso", "Histérico"])):
        for read_with in (tables, rules):  # the view reads the affliction, not today's setting
            assert names_seen(later.state, viewer, read_with) == shown, (viewer, shown)


def test_estado_keeps_a_private_affliction_off_the_public_line(tables):
    play = party_play(tables, sanity=3)
    panic(play, 20, 2, 2)
    events = play("estado")
    public = next(e for e in events if e.visibility == "public")
    gm = next(e for e in events if e.visibility == "gm")
    assert "Medroso" not in public.text
    assert "Ana: Medroso" in gm.text  # the GM's own line lists what only the player sees
    mine = play("estado", actor="player:ana")
    assert "aflição: Medroso" in mine[0].text


def test_the_card_never_asks_to_roll_what_the_companion_rolled(tables):
    play = party_play(tables, sanity=3)
    card = _card(panic(play, 20, 1, 2))  # Afetado; Tabela K 1; the random effect
    assert "Role" not in card and "1d8" not in card and card.startswith("Afetado")


@pytest.mark.parametrize("sanity,name", [(6, "Fúria"), (12, "Catatonia"), (16, "Terror")])
def test_a_rolled_duration_is_on_the_card_the_sheet_and_estado(tables, sanity, name):
    play = party_play(tables, sanity=sanity)
    card = _card(panic(play, 20, 3))
    assert f"{name} por 3 rodadas" in card and "1d4" not in card
    shown = f"{name} (3 rodadas de combate)"
    for viewer in ("gm", "player:ana"):
        (sheet,) = [c for c in view_state(play.state, viewer, tables)["grupo"]
                    if c["id"] == "ana"]
        assert shown in sheet["condicoes"], viewer
    (other,) = [c for c in view_state(play.state, "player:bia", tables)["grupo"]
                if c["id"] == "ana"]
    assert not any(name in text for text in other["condicoes"])  # the effect is hers (default)
    said = play("estado", actor="gm")
    assert any(shown in e.text for e in said)
    ended = play("explorar")  # time passes: the combat rounds are long over
    assert any(f"Acabou: {name}" in e.text for e in ended)
    assert not ana(play).lasting


@pytest.mark.parametrize("sanity,name", [(6, "Fúria"), (12, "Catatonia"), (16, "Terror")])
def test_the_tabela_j_line_shows_the_rolled_duration(tables, sanity, name):
    """Issue 31 item 3: the log line of a rolled effect shows the rolled number, never the
    seed's "1d4" (the data keeps the seed's row)."""
    play = party_play(tables, sanity=sanity)
    events = panic(play, 20, 3)
    event = row_event(events)
    assert f"{name} por 3 rodadas" in event.text and "1d4" not in event.text, event.text
    assert event.data["resultado"] == J[{6: "5-7", 12: "11-13", 16: "14+"}[sanity]]
    seen = [e.text for e in events if e.visibility in ("public", "player:ana")]
    assert not any("1d4 rodadas" in text for text in seen), seen


@pytest.mark.parametrize("face,name", [(1, "Fúria"), (3, "Catatonia"), (4, "Terror")])
def test_the_afflicted_card_names_the_affliction_and_the_rolled_duration(tables, face, name):
    """Issue 31 item 3: Ana's "Afetado" card said "Fúria… por 1d4 rodadas" (the random
    effect's row as the seed writes it); it says the affliction and the rounds rolled."""
    play = party_play(tables, sanity=3)
    events = panic(play, 20, 4, face, 1)  # fail; Tabela K 4 (Masoquista); effect; 1 round
    card = _card(events)
    assert card.startswith("Afetado") and "Masoquista" in card, card
    assert f"{name} por 1 rodada" in card and "1d4" not in card, card
    seen = [e.text for e in events if e.visibility in ("public", "player:ana")]
    assert not any("1d4 rodadas" in text for text in seen), seen
    random_roll = next(e for e in events if e.data.get("tabela") == "Efeito de pânico aleatório")
    assert random_roll.data["resultado"] == J[{1: "5-7", 3: "11-13", 4: "14+"}[face]]


def test_the_afflicted_card_keeps_a_private_affliction_off_a_public_effect(tmp_path):
    """The effect public by the house setting, the affliction not: the card people may see
    says the effect and that an affliction came, never its name."""
    play = party_play(public_rules(tmp_path, effect=True, affliction=False), sanity=3)
    events = panic(play, 20, 4, 1, 2)
    carded = [e for e in events if e.data.get("cartao")]
    assert carded and all("Masoquista" not in e.data["cartao"]
                          for e in carded if e.visibility == "public"), [e.data for e in carded]
    assert "Fúria por 2 rodadas" in carded[0].data["cartao"]


def test_insanity_is_its_players_and_the_gms_on_the_sheet_and_in_estado(tables):
    """docs/regras.md "Pânico": one visibility for the same fact everywhere: the panic's effect is
    private by default, so the Insanidade it leaves is too (events, sheet, estado)."""
    play = party_play(tables, sanity=1)
    events = panic(play, 20)
    assert not any("Insanidade" in e.text for e in events if e.visibility == "public")
    for viewer in ("public", "player:bia"):
        assert _sheet(play.state, viewer, tables)["condicoes"] == []
    for viewer in ("gm", "player:ana"):
        assert _sheet(play.state, viewer, tables)["condicoes"] == ["Insanidade"]
    public = next(e for e in play("estado") if e.visibility == "public")
    assert "Insanidade" not in public.text
    asked = play("estado", actor="player:bia", personagem="Ana")
    assert "Insanidade" not in " ".join(e.text for e in asked)
    mine = play("estado", actor="player:ana")
    assert "Insanidade" in mine[0].text


def test_impacted_wisdom_damage_is_its_players_and_the_gms(tables):
    play = party_play(tables, sanity=9)
    events = panic(play, 20)  # fail: Impactado, 2 SAB
    assert not any(e.code == "panico.dano_atributo" and e.visibility == "public"
                   for e in events)
    for viewer in ("public", "player:bia"):
        assert _sheet(play.state, viewer, tables)["dano_atributos"] == {}
    for viewer in ("gm", "player:ana"):
        assert _sheet(play.state, viewer, tables)["dano_atributos"] == {"sab": 2}


def test_the_house_setting_makes_insanity_and_wisdom_damage_public(tmp_path):
    rules = public_rules(tmp_path)
    play = party_play(rules, sanity=1)
    panic(play, 20)
    assert _sheet(play.state, "player:bia", rules)["condicoes"] == ["Insanidade"]
    play = party_play(rules, sanity=9)
    panic(play, 20)
    assert _sheet(play.state, "player:bia", rules)["dano_atributos"] == {"sab": 2}
