"""Panic (Tabelas J and K) and exhaustion (Tabela I), through the engine."""
from __future__ import annotations

import copy
import random

import pytest

from companion.engine.characters import edge_for, modifier
from companion.engine.scratch import Scratch
from companion.engine.model import Character, Command, Prompt, State
from companion.engine.procedures.panic import exhaustion_day, request_panic
from companion.engine.view import view_state
from companion.tables.errors import CommandRejected
from companion.tables.files import Tables
from tests.play_helpers import FixedDice, Play
from tests.rules_helpers import changed_rules, new_character

# The seed's texts, copied independently of tables/panico.yaml.
J = {
    "1": "Insanidade. Se torna insano.",
    "2-4": "Afetado. Recebe uma aflição. Role 1d8 na Tabela K: Aflição e o personagem sofre um "
           "efeito de pânico aleatório.",
    "5-7": "Fúria. Ataca o ser mais próximo (até aliados) por 1d4 rodadas",
    "8-10": "Impactado. 2 de dano em Sabedoria",
    "11-13": "Catatonia. Não reage por 1d4 rodadas.",
    "14+": "Terror. Foge de todos os seres (até aliados) por 1d4 rodadas",
}
K = {
    1: "Fobia. Desenvolve um medo irracional do que desencadeou a sua fobia. Algumas fobias "
       "possíveis incluem: escuridão, espaços fechados, altura, natação, fogo, aranhas, insetos, "
       "criaturas voadoras, vermes, parasitas, cobras, mortos-vivos, demônios, diabos, fantasmas, "
       "morte, fracasso e o desconhecido.",
    2: "Medroso. Tudo parece uma ameaça. Cada som súbito é um prenúncio de morte, cada sombra "
       "esconde algo terrível. Você vive em constante tensão, olhos arregalados, respiração "
       "curta, sempre esperando o pior. você num momento de fraqueza.",
    3: "Delirante. A realidade se dobra e se confunde com memórias, sonhos e alucinações. Você "
       "vê coisas que não estão lá, escuta vozes sussurrando segredos inexistentes, e tem certeza "
       "de que o mundo está tentando lhe passar mensagens ocultas. Para você, nada é "
       "coincidência, e tudo tem um significado… mesmo que ninguém mais compreenda.",
    4: "Masoquista. A dor traz clareza. Você sente que o sofrimento o aproxima de alguma verdade "
       "maior, ou talvez sinta que merece cada ferida que carrega. Você encara os próprios "
       "machucados com uma estranha fascinação, buscando situações perigosas ou castigando-se "
       "emocional e fisicamente por suas falhas reais ou imaginadas.",
    5: "Desamparado. A sensação é de estar afundando lentamente num mar escuro. Você acredita que "
       "nada que faça importa. Você depende dos outros não por escolha, mas por incapacidade. Há "
       "um olhar vazio em seus olhos, como se já tivesse desistido de tentar, e uma tendência a "
       "se calar, mesmo diante da injustiça ou da dor.",
    6: "Paranóico. Tudo é suspeito. Você observa cada gesto alheio em busca de sinais de traição. "
       "A lealdade dos amigos é constantemente questionada, e qualquer gesto de gentileza parece "
       "mascarar uma intenção oculta. Você vive sob um véu de desconfiança, criando planos de "
       "contingência para todas as possibilidades — especialmente as que ninguém mais considera.",
    7: "Egoísta. O mundo gira ao seu redor, e as dores alheias são apenas obstáculos à sua "
       "vontade. Você sente que sua sobrevivência, seus desejos e sua liberdade estão acima de "
       "tudo. Você pode até agir de maneira cordial, mas tudo é transação: se não há ganho "
       "pessoal, não há interesse. Quando confrontado, sempre encontra um jeito de justificar "
       "suas ações como “necessárias”.",
    8: "Histérico. A emoção domina. Você passa de risadas descontroladas ao choro convulsivo em "
       "questão de minutos. Pequenas frustrações se tornam tragédias, e boas notícias viram "
       "euforia quase insana. Você é um furacão de sentimentos, incapaz de conter o que sente — e "
       "geralmente esperando que os outros acompanhem sua intensidade.",
}
K_NAMES = {1: "Fobia", 2: "Medroso", 3: "Delirante", 4: "Masoquista", 5: "Desamparado",
           6: "Paranóico", 7: "Egoísta", 8: "Histérico"}
I = {1: "DESV em todas as rolagens", 2: "Não adiciona modificadores de atributos às rolagens",
     3: "1d4 de dano de CON / dia"}


def party_play(tables, **ana: int) -> Play:
    ana_character = new_character(id="ana", name="Ana", **ana)
    return Play(tables, State(party=(ana_character, new_character(id="bia", name="Bia"))))


def ana(play: Play) -> Character:
    return next(c for c in play.state.party if c.id == "ana")


def panic(play: Play, *faces: int) -> list:
    """Ask Ana for a panic test and answer it with the companion rolling the given faces."""
    play("panico", personagem="Ana")
    return play("responder", actor="player:ana", rng=FixedDice(*faces))


def row_event(events: list) -> dict:
    found = [e for e in events if e.data.get("tabela") == "Tabela J: Pânico"]
    assert len(found) == 1
    return found[0]


# ---------------------------------------------------------------- the test itself

def test_panic_prompt_goes_only_to_that_player(tables):
    play = party_play(tables, sanity=12)
    events = play("panico", personagem="ana")
    pedido = [e for e in events if e.kind == "pedido"]
    assert len(pedido) == 1 and pedido[0].visibility == "player:ana"
    assert pedido[0].data["pedido"]["tipo"] == "panico"
    assert pedido[0].data["pedido"]["dados"] == "1d20"
    assert play.state.prompts[0].character == "ana"


@pytest.mark.parametrize("sanity", [1, 10, 19])
def test_roll_equal_to_sanity_passes(tables, sanity):
    play = party_play(tables, sanity=sanity)
    events = panic(play, sanity)
    assert any("passou" in e.text for e in events)
    assert not [e for e in events if e.data.get("tabela") == "Tabela J: Pânico"]
    assert play.state.prompts == ()
    assert ana(play) == new_character(id="ana", name="Ana", sanity=sanity)


def test_roll_above_sanity_fails(tables):
    play = party_play(tables, sanity=15)
    events = panic(play, 16, 2)  # fail, then 1d4 rounds of Terror
    assert any("falhou" in e.text for e in events)
    assert row_event(events).data["resultado"] == J["14+"]


def test_panic_reads_current_sanity_when_answered(tables):
    play = party_play(tables, sanity=15)
    play("panico", personagem="ana")
    play("personagem", nome="Ana", sanidade=3)  # sanity dropped before the answer
    events = play("responder", actor="player:ana", rng=FixedDice(4, 1, 2))
    assert row_event(events).data["sanidade"] == 3
    assert row_event(events).data["resultado"] == J["2-4"]


def test_request_panic_is_callable_by_other_modules(tables):
    state = State(party=(new_character(id="ana", name="Ana"),))
    scratch = Scratch(rng=random.Random(1), tables=tables, command=Command("descansar"))
    state = request_panic(state, scratch, "ana")
    assert [p.kind for p in state.prompts] == ["panico"]
    assert any(e.kind == "pedido" and e.visibility == "player:ana" for e in scratch.events)


def test_panic_needs_a_known_character(play):
    with pytest.raises(CommandRejected, match="personagem desconhecido"):
        play("panico", personagem="Zé")
    with pytest.raises(CommandRejected, match="pânico"):
        play("panico")
    assert play.state.prompts == ()


def test_exhausted_character_rolls_panic_with_disadvantage(tables):
    play = party_play(tables, sanity=10, exhaustion=1)
    events = panic(play, 18, 5)  # a roll-under test: DESV keeps the worse die, 18 → fails
    roll = next(e for e in events if e.kind == "rolagem")
    assert roll.data["vantagem"] == "desvantagem" and roll.data["total"] == 18
    assert roll.data["descartado"] == 5
    assert not any("passou" in e.text for e in events)


# ---------------------------------------------------------------- Tabela J, every row

@pytest.mark.parametrize("sanity,row", [(0, "1"), (1, "1"), (2, "2-4"), (4, "2-4"),
                                        (5, "5-7"), (7, "5-7"), (8, "8-10"), (10, "8-10"),
                                        (11, "11-13"), (13, "11-13"), (14, "14+"), (19, "14+")])
def test_every_row_of_tabela_j(tables, sanity, row):
    play = party_play(tables, sanity=sanity)
    faces = {"1": (20,), "2-4": (20, 1, 2), "8-10": (20,)}.get(row, (20, 3))
    events = panic(play, *faces)
    event = row_event(events)
    assert event.data["resultado"] == J[row]  # the seed's row, exactly, in the data
    if row in ("1", "8-10"):
        assert J[row] in event.text
    elif row != "2-4":  # a brief effect: its line says the rounds rolled (issue 31)
        assert "por 3 rodadas" in event.text and "1d4" not in event.text
    assert event.visibility == "player:ana"  # the effect's name: hers and the GM's (default)


def test_the_afflicted_row_does_not_ask_to_roll_what_the_companion_rolls(tables):
    """The seed's row says 'Role 1d8 na Tabela K': the companion rolls it right after, so the
    text people read says so instead (the data keeps the seed's words)."""
    play = party_play(tables, sanity=3)
    event = row_event(panic(play, 20, 1, 2))
    assert "Role 1d8" not in event.text
    assert event.text == ("Tabela J: Pânico (Sanidade 3): Afetado. Recebe uma aflição (o "
                          "companheiro rola 1d8 na Tabela K: Aflição) e sofre um efeito de "
                          "pânico aleatório.")


def test_insanity_becomes_a_condition_once(tables):
    play = party_play(tables, sanity=1)
    panic(play, 20)
    assert ana(play).conditions == ("Insanidade",)
    panic(play, 20)
    assert ana(play).conditions == ("Insanidade",)


def test_impacted_deals_two_wisdom_damage_each_time(tables):
    play = party_play(tables, sanity=9)
    panic(play, 20)
    assert ana(play).attribute_damage == {"sab": 2}
    panic(play, 20)
    assert ana(play).attribute_damage == {"sab": 4}
    assert ana(play).sanity == 9


@pytest.mark.parametrize("sanity,name", [(6, "Fúria"), (12, "Catatonia"), (16, "Terror")])
@pytest.mark.parametrize("rounds", [1, 4])
def test_brief_effects_roll_1d4_rounds(tables, sanity, name, rounds):
    play = party_play(tables, sanity=sanity)
    events = panic(play, 20, rounds)
    duration = [e for e in events if e.kind == "rolagem" and e.data["dados"] == "1d4"]
    assert len(duration) == 1 and duration[0].data["total"] == rounds
    assert any(f"{name} por {rounds} rodada" in e.text for e in events)


# ---------------------------------------------------------------- Tabela K, every row

@pytest.mark.parametrize("face", range(1, 9))
def test_every_row_of_tabela_k_goes_in_full_to_that_player(tables, face):
    play = party_play(tables, sanity=3)
    events = panic(play, 20, face, 2)  # fail, Tabela K, random effect 2 (Impactado)
    k_rolls = [e for e in events if e.data.get("tabela") == "Tabela K: Aflição"]
    assert len(k_rolls) == 1
    roll = k_rolls[0]
    assert roll.kind == "rolagem" and roll.visibility == "player:ana"
    assert roll.data["dados"] == "1d8" and roll.data["total"] == face
    assert roll.data["resultado"] == K[face]
    assert [a.name for a in ana(play).afflictions] == [K_NAMES[face]]
    # the full text never goes to the table; by default not even the name
    public = " ".join(e.text for e in events if e.visibility == "public")
    assert K[face] not in public and K_NAMES[face] not in public


def test_afflictions_accumulate(tables):
    play = party_play(tables, sanity=3)
    panic(play, 20, 1, 2)
    panic(play, 20, 8, 2)
    assert [a.name for a in ana(play).afflictions] == ["Fobia", "Histérico"]


@pytest.mark.parametrize("face,row", [(1, "5-7"), (2, "8-10"), (3, "11-13"), (4, "14+")])
def test_afflicted_also_suffers_a_random_panic_effect(tables, face, row):
    play = party_play(tables, sanity=2)
    events = panic(play, 20, 5, face, 3)  # the trailing 3 is a brief effect's duration
    random_roll = [e for e in events if e.data.get("tabela") == "Efeito de pânico aleatório"]
    assert len(random_roll) == 1
    assert random_roll[0].data["resultado"] == J[row]
    if row == "8-10":
        assert ana(play).attribute_damage == {"sab": 2}
    else:
        assert ana(play).attribute_damage == {}
        assert any("por 3 rodada" in e.text for e in events)


# ---------------------------------------------------------------- Tabela I

def exhausted(level: int) -> Character:
    return new_character(id="ana", name="Ana", exhaustion=level, mods={"con": 2, "des": 1})


@pytest.mark.parametrize("level", [0, 1, 2, 3, 4])
def test_tabela_i_levels_are_cumulative(tables, level):
    character = exhausted(level)
    assert (edge_for(character, tables, 0) == "desvantagem") == (level >= 1)
    assert modifier(character, "con", tables) == (0 if level >= 2 else 2)
    scratch = Scratch(rng=FixedDice(3), tables=tables, command=Command("avancar"))
    state = exhaustion_day(State(party=(character,)), scratch)
    damage = state.party[0].attribute_damage.get("con", 0)
    assert damage == (3 if level >= 3 else 0)
    rolls = [e for e in scratch.events if e.kind == "rolagem"]
    if level >= 3:
        assert [(r.data["tabela"], r.data["dados"], r.data["resultado"]) for r in rolls] == \
            [("Tabela I: Exaustão", "1d4", I[3])]
    else:
        assert rolls == []


def test_exhaustion_day_damage_adds_up_per_character(tables):
    party = (exhausted(3), new_character(id="bia", name="Bia", exhaustion=3,
                                     attribute_damage={"con": 1}))
    scratch = Scratch(rng=FixedDice(4, 2), tables=tables, command=Command("avancar"))
    state = exhaustion_day(State(party=party), scratch)
    assert [c.attribute_damage["con"] for c in state.party] == [4, 3]


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


# ---------------------------------------------------------------- who sees what (docs/regras.md)

PRIVATE_EFFECT = "  efeito: jogador"
PRIVATE_AFFLICTION = "  aflicao: jogador"


def public_rules(tmp_path, effect: bool = True, affliction: bool = True) -> Tables:
    """tables/ with the panic's effect and/or affliction made public (a house setting)."""
    changed_rules(tmp_path, "panico.yaml", PRIVATE_EFFECT,
                  "  efeito: publico" if effect else PRIVATE_EFFECT)
    return changed_rules(tmp_path, "panico.yaml", PRIVATE_AFFLICTION,
                         "  aflicao: publico" if affliction else PRIVATE_AFFLICTION)


def names_seen(state: State, viewer: str, tables: Tables, who: str = "ana") -> list:
    return next(c["aflicoes"] for c in view_state(state, viewer, tables)["grupo"]
                if c["id"] == who)


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


# ---------------------------------------------------------------- what the card shows (issue 26)

def _card(events: list) -> str:
    """What a player's card headlines after the answer: the first `cartao` of the events."""
    found = [e.data["cartao"] for e in events if e.data.get("cartao")]
    assert found, [e.text for e in events]
    return found[0]


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


# ---------------------------------------------------------------- what the sheet keeps private (issue 26)

def _sheet(state: State, viewer: str, tables: Tables, who: str = "ana") -> dict:
    return next(c for c in view_state(state, viewer, tables)["grupo"] if c["id"] == who)


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
