"""The state as one viewer may see it (the `estado` payload of the server and the pages).

`view_state(state, viewer, tables) -> dict` — viewer is "gm" (everything), "public" (the shared
screen) or "player:<id>" (public + that player's own character details and own prompts).
Anything else is treated as "public". Only the GM's view has the "mestre" key; nothing GM-only
(travel.lost, dungeon.monsters, a pending dungeon encounter, secrets, prompt contexts, other
players' prompts) is ever put anywhere else.

Its shape is `ViewState` below, every key typed once (TypedDicts: plain dicts at run time, so
the JSON the pages get is what these functions build); tests/server/test_view_keys.py checks
that every view fits it and that every key the pages read (web/static/js) is in it.

Whether an event reaches a viewer is companion.tables.protocol.may_see; what each viewer reads of the
log (its numbers, prompt ids and texts) is companion.history.projection.
"""
from __future__ import annotations

import random
from typing import Any, Iterable, NotRequired, TypedDict

from companion.tables import protocol
from companion.engine.clock import MINUTES_PER_DAY, day_of
from companion.engine.model import GM, PUBLIC, Character, Command, Prompt, State
from companion.engine.procedures import dungeon, rest
from companion.engine.procedures.chase import (
    ChaseRules,
    distance_of,
    speed_gap_text,
    speeds_text,
)
from companion.engine.procedures.panic import exhaustion_effects
from companion.engine.procedures.tally import tally_dict
from companion.engine.procedures.dungeon import DungeonRules
from companion.engine.procedures.encounters import current_region, region_name
from companion.engine.procedures.travel import (
    TravelModes,
    TravelRound,
    acted_this_round,
    restless_last_round,
    restless_words,
    round_of,
)
from companion.engine.procedures.weather import WeatherRules, weather_text
from companion.engine.characters import edge_for, modifier, seen_conditions, seen_damage
from companion.engine.prompting import prompt_to_dict
from companion.engine.scratch import Scratch
from companion.engine.terrain import terrain_name
from companion.tables.protocol import CommandRules
from companion.tables.files import Tables
from companion.tables.light_sources import LightRules

PLAYER_PREFIX = protocol.PLAYER_PREFIX


# ---------------------------------------------------------------- the shape


class ActedView(TypedDict):
    """One character who already did their activity in the travel round under way."""
    id: str
    nome: str
    atividade: str  # as people say it: "caçar"


class TravelView(TypedDict):
    modo: str
    modo_nome: str
    hexes: float
    hexes_texto: str  # "1,5 hex"
    avancos_seguidos: int
    acampamento_seguro: bool
    descansou_hoje: bool
    agiram: list[ActedView]
    vigia: str | None  # the watcher's name
    vigia_escolhido: bool  # false: the house default picked the watcher


class TimerView(TypedDict):
    """A light source or a spell and the turns it has left."""
    nome: str
    turnos: int


class DungeonView(TypedDict):
    turno: int
    perigo: str
    perigo_nome: str
    escuro: bool
    perigo_efetivo: str  # total darkness makes it "mortal"
    perigo_efetivo_nome: str
    turnos_sem_descanso: int
    luzes: list[TimerView]
    magias: list[TimerView]
    ordem_marcha: list[str]  # names


class ChaseView(TypedDict):
    fase: str  # "declarada" | "ativa"
    placar: int
    turno: int
    distancia: str
    distancia_nome: str
    # once the GM gave the speeds (kept the whole chase):
    velocidade_grupo: NotRequired[int]
    velocidade_perseguidores: NotRequired[int]
    velocidade_diferenca: NotRequired[str]  # "o grupo é 30 mais rápido"
    velocidades: NotRequired[str]  # the one line every page shows


class LastingView(TypedDict):
    """A condition with an end, with the travel rounds it still lasts (rounded up)."""
    texto: str
    rodadas: int
    desvantagem: bool
    rodadas_combate: NotRequired[int]  # combat rounds, as rolled (a brief panic effect)
    comeca_dia: NotRequired[int]  # not yet in force ("pelo próximo dia")


class CharacterView(TypedDict):
    id: str
    nome: str
    nivel: int
    pv: int
    pv_max: int
    sanidade: int
    exaustao: int
    comida: int
    agua: int
    municao: int
    aflicoes: list[str]  # those this viewer may see
    condicoes: list[str]  # "Insanidade", "Mosquitos (DESV, mais 2 rodadas)"
    condicoes_temporarias: list[LastingView]
    dano_atributos: dict[str, int]  # {"sab": 2}, those this viewer may see
    # only for the GM and the character's own player:
    atributos: NotRequired[dict[str, int]]  # modifiers: {"con": 1}
    descanso_devido: NotRequired[int]  # forced-march rounds of rest owed
    exaustao_efeitos: NotRequired[list[str]]
    proprio: NotRequired[bool]  # only in that player's own view


class DieRange(TypedDict):
    """The values a prompt's die can give and what its card says of another."""
    minimo: int
    maximo: int
    aviso: str


class PromptView(TypedDict):
    """A prompt the viewer answers (companion.engine.prompting.prompt_to_dict)."""
    id: int  # a player's own number in a player's view (companion.history.projection)
    tipo: str
    personagem: str | None
    texto: str
    dados: str
    modificador: int
    dc: int | None
    opcoes: list[str]  # canonical values to send back
    opcoes_nomes: list[str]  # labels to show (same order)
    grupo: NotRequired[bool]  # the whole party's test: any player answers, the first counts
    vantagem: NotRequired[str]  # "desvantagem" | "vantagem": two dice, one kept
    # added by the server to a prompt answered with a die (companion/server/fanout.py)
    faixa: NotRequired[DieRange]


class TallyView(TypedDict):
    """The session form."""
    derrotados: dict[str, dict[str, int]]  # region → creature → how many
    tesouro: dict[str, int]
    itens: dict[str, int]
    dados: NotRequired[dict[str, int]]  # "d6" → rolled; the GM's only (secret rolls count)


class MonsterView(TypedDict):
    nome: str
    sala: str
    alertado: bool


class GmView(TypedDict):
    """What only the GM's view has."""
    perdido: bool  # lost in the hexcrawl (still true in a dungeon)
    sem_descanso_hoje: str | None  # the day's last round without rest: the reminder
    encontro_pendente: bool
    monstros: list[MonsterView]
    segredos: list[str]


class ViewState(TypedDict):
    """The `estado` payload: the state as one viewer may see it."""
    visao: str  # "gm" | "public" | "player:ana"
    modo: str  # "viagem" | "masmorra" | "perseguicao"
    modo_nome: str
    dia: int
    rodada: int
    rodadas_por_dia: int
    minutos: int
    hora: str  # "4h20"
    relogio: str  # "Dia 1 · rodada 2 de 6 (4h–8h)"
    estacao: str
    estacao_nome: str
    clima: str | None  # null before the first weather roll
    terreno: str
    terreno_nome: str
    regiao: str  # a terrain's default region is the terrain
    regiao_nome: str
    viagem: TravelView
    masmorra: DungeonView | None
    perseguicao: ChaseView | None
    grupo: list[CharacterView]
    pedidos: list[PromptView]
    registro: TallyView
    mestre: NotRequired[GmView]  # the GM's view only


def _reader(tables: Tables) -> Scratch:
    """A Scratch only for reading tables through the procedure modules' own helpers (it never rolls:
    its RNG is fixed and its events are dropped)."""
    return Scratch(rng=random.Random(0), tables=tables, command=Command("estado"))


# ---------------------------------------------------------------- clock

def _clock(state: State, scratch: Scratch) -> dict[str, Any]:
    """Day, travel round (viagem.yaml `rodada`) and a clock text for people."""
    travel_round = scratch.piece(TravelRound)
    minutes_per_round, rounds = travel_round.minutos, travel_round.rodadas_por_dia
    day = day_of(state)
    round_number = round_of(state, minutes_per_round)
    hour = time_of_day(state, scratch)
    if state.dungeon.active:
        text = scratch.tables.narration.render("relogio.na_masmorra", {
            "dia": day, "hora": hour, "turno": state.dungeon.turn})
    else:
        text = scratch.tables.narration.render("relogio.na_viagem", {
            "dia": day, "rodada": round_number, "rodadas_por_dia": rounds,
            "inicio": (round_number - 1) * minutes_per_round // 60,
            "fim": round_number * minutes_per_round // 60})
    return {"dia": day, "rodada": round_number, "rodadas_por_dia": rounds,
            "minutos": state.minutes, "hora": hour, "relogio": text}


def time_of_day(state: State, scratch: Scratch) -> str:
    """The clock's time of day as people write it: '14h20', '8h00'
    (tables/narracao/relogio.yaml `hora`)."""
    hours, minutes = divmod(state.minutes % MINUTES_PER_DAY, 60)
    return scratch.tables.narration.render("relogio.hora", {"horas": hours, "minutos": minutes})


# ---------------------------------------------------------------- sections

def _travel(state: State, scratch: Scratch) -> dict[str, Any]:
    travel = state.travel
    weather = None if travel.weather_row is None else weather_text(scratch, state)
    return {
        "estacao": travel.season,
        "estacao_nome": scratch.piece(WeatherRules).estacoes[travel.season].nome,
        "clima": weather,
        "terreno": travel.terrain,
        "terreno_nome": terrain_name(scratch, travel.terrain),
        # the region (a terrain's default one is the terrain: regiao == terreno)
        "regiao": current_region(state),
        "regiao_nome": region_name(scratch, current_region(state)),
        "viagem": {
            "modo": travel.mode,
            "modo_nome": scratch.piece(TravelModes).name(travel.mode),
            "hexes": travel.hexes,
            "hexes_texto": scratch.tables.narration.render("viagem.hexes",
                                                           {"hexes": travel.hexes}),
            "avancos_seguidos": travel.consecutive_advances,
            "acampamento_seguro": travel.camp_safe,
            "descansou_hoje": travel.rested_today,
            "agiram": acted_this_round(state, scratch),
            **_watch(state, scratch),
        },
    }


def _watch(state: State, scratch: Scratch) -> dict[str, Any]:
    """Who keeps watch during the rest: chosen with `vigia`, or the house default."""
    watcher = rest.watcher(state, scratch)
    chosen = watcher is not None and watcher.id == state.travel.watcher
    return {"vigia": watcher.name if watcher else None, "vigia_escolhido": chosen}


def _danger_name(scratch: Scratch, level: str) -> str:
    return scratch.piece(DungeonRules).tabela_a.niveis[level].nome


def _dungeon(state: State, scratch: Scratch) -> DungeonView | None:
    current = state.dungeon
    if not current.active:
        return None
    effective = dungeon.effective_danger(state, scratch)
    names = {c.id: c.name for c in state.party}
    return {
        "turno": current.turn,
        "perigo": current.danger,
        "perigo_nome": _danger_name(scratch, current.danger),
        "escuro": dungeon.is_dark(state),
        "perigo_efetivo": effective,
        "perigo_efetivo_nome": _danger_name(scratch, effective),
        "turnos_sem_descanso": current.turns_since_rest,
        "luzes": [{"nome": name, "turnos": t.turns_left} for name, t in zip(
            scratch.piece(LightRules).shown_names([t.name for t in current.lights]),
            current.lights)],
        "magias": [{"nome": t.name, "turnos": t.turns_left} for t in current.spells],
        "ordem_marcha": [names.get(i, i) for i in current.marching_order],
    }


def _chase(state: State, scratch: Scratch) -> ChaseView | None:
    chase = state.chase
    if chase is None:
        return None
    rules = scratch.piece(ChaseRules)
    distance = distance_of(chase, rules.distancia_pelo_placar)
    name = rules.distancias.of(distance).nome
    shown: ChaseView = {"fase": chase.phase, "placar": chase.score, "turno": chase.turn,
                             "distancia": distance, "distancia_nome": name}
    if chase.party_speed is not None:  # only once the GM gave them
        narrator = scratch.tables.narration
        shown.update({"velocidade_grupo": chase.party_speed,
                      "velocidade_perseguidores": chase.foe_speed,
                      "velocidade_diferenca": speed_gap_text(narrator, chase),
                      "velocidades": speeds_text(narrator, chase)})
    return shown


def _lasting(state: State, character: Character, scratch: Scratch,
             viewer: str) -> list[LastingView]:
    """Conditions with an end that `viewer` may see, with the travel rounds they still last
    (rounded up), or the combat rounds rolled for them."""
    minutes = scratch.piece(TravelRound).minutos
    shown = []
    for c in character.lasting:
        if not protocol.may_see(c.visibility, viewer):
            continue
        entry: LastingView = {"texto": c.text, "rodadas": -(-(c.until - state.minutes) // minutes),
                                 "desvantagem": c.edge == "desvantagem"}
        if c.rounds is not None:  # combat rounds, as rolled (a brief panic effect)
            entry["rodadas_combate"] = c.rounds
        if c.since > state.minutes and c.rounds is None:  # not yet in force ("pelo próximo dia")
            entry["comeca_dia"] = c.since // MINUTES_PER_DAY + 1
        shown.append(entry)
    return shown


def _lasting_text(entry: LastingView, scratch: Scratch) -> str:
    """'Mosquitos (DESV, mais 2 rodadas)', 'Febre (no dia 3)' (tables/narracao/relogio.yaml)."""
    return scratch.tables.narration.render("relogio.condicao_com_fim",
                                           {"comeca_dia": None, "rodadas_combate": None,
                                            **entry})


def _character(state: State, character: Character, viewer: str,
               scratch: Scratch) -> CharacterView:
    """One character as `viewer` sees it: the sheet everyone sees, its afflictions by the
    visibility each keeps, and the details (modifiers, rest owed, exhaustion's effects) for
    the GM and the character's own player."""
    detailed = viewer == GM or viewer == protocol.player_key(character.id)
    lasting = _lasting(state, character, scratch, viewer)
    shown: CharacterView = {
        "id": character.id, "nome": character.name, "nivel": character.level,
        "pv": character.hp, "pv_max": character.hp_max, "sanidade": character.sanity,
        "exaustao": character.exhaustion, "comida": character.food, "agua": character.water,
        "municao": character.ammo,
        "aflicoes": [a.name for a in character.afflictions
                     if protocol.may_see(a.visibility, viewer)],
        "condicoes": seen_conditions(character, viewer)
        + [_lasting_text(e, scratch) for e in lasting],
        "condicoes_temporarias": lasting,
        "dano_atributos": seen_damage(character, viewer),
    }
    if detailed:
        shown.update({
            "atributos": dict(character.mods),
            "descanso_devido": character.rest_rounds_owed,
            "exaustao_efeitos": exhaustion_effects(character, scratch.tables),
        })
    return shown


def _party(state: State, viewer: str, scratch: Scratch) -> list[CharacterView]:
    party = []
    for character in state.party:
        own = viewer == protocol.player_key(character.id)
        entry = _character(state, character, viewer, scratch)
        if own:
            entry["proprio"] = True
        party.append(entry)
    return party


def _prompts(state: State, viewer: str, tables: Tables) -> list[PromptView]:
    """The prompts the viewer answers: the GM all; a player their own and the party's, the
    party's with their own character's modifier and edge (as they would roll it)."""
    if viewer == GM:
        return [prompt_to_dict(p) for p in state.prompts]
    own = protocol.character_of(viewer)
    mine = next((c for c in state.party if c.id == own), None)
    if mine is None:
        return []
    return [_party_prompt_for(p, mine, state, tables) if p.party else prompt_to_dict(p)
            for p in state.prompts if p.party or p.character == mine.id]


def _party_prompt_for(prompt: Prompt, character: Character, state: State,
                      tables: Tables) -> dict[str, Any]:
    attribute = prompt.context.get("atributo")
    shown = prompt_to_dict(prompt)
    if attribute:
        shown["modificador"] = modifier(character, str(attribute), tables)
    edge = edge_for(character, tables, state.minutes)
    if edge:
        shown["vantagem"] = edge
    return shown


def _tally(state: State, gm: bool) -> TallyView:
    """The session form. Dice counts include secret rolls, so only the GM sees them."""
    return tally_dict(state.tally, with_dice=gm)


def _gm_only(state: State, scratch: Scratch) -> GmView:
    restless = restless_last_round(state, scratch)
    return {
        "perdido": state.travel.lost,  # still true in a dungeon: the party is lost outside
        # the day's last round without rest: the GM's reminder, as the log said it (else null)
        "sem_descanso_hoje": scratch.tables.narration.render(
            "viagem.sem_descanso_hoje", restless_words(state, scratch)) if restless else None,
        "encontro_pendente": state.dungeon.pending_encounter,
        "monstros": [{"nome": m.name, "sala": m.room, "alertado": m.alerted}
                     for m in state.dungeon.monsters],
        "segredos": list(state.secrets),
    }


def _viewer(viewer: str) -> str:
    return protocol.viewer_key(viewer)


def view_state(state: State, viewer: str, tables: Tables) -> ViewState:
    """The JSON-able state as `viewer` may see it (see the module docstring for the shape)."""
    return view_states(state, [viewer], tables)[viewer]


def view_states(state: State, viewers: Iterable[str], tables: Tables) -> dict[str, ViewState]:
    """`view_state` for several viewers at once: what they share is built once (the server
    builds every connected viewer's view after each command). Equal to calling view_state
    for each; the returned views may share their unchanged parts, so never mutate them."""
    scratch = _reader(tables)
    common = {
        "modo": state.mode,
        "modo_nome": scratch.piece(CommandRules).modos.of(state.mode),
        **_clock(state, scratch),
        **_travel(state, scratch),
        "masmorra": _dungeon(state, scratch),
        "perseguicao": _chase(state, scratch),
    }
    brief: list[CharacterView] | None = None
    public_tally: TallyView | None = None
    views: dict[str, ViewState] = {}
    for asked in viewers:
        viewer = _viewer(asked)
        if viewer == GM:
            party, tally = _party(state, viewer, scratch), _tally(state, True)
        else:
            if brief is None:
                brief, public_tally = _party(state, PUBLIC, scratch), _tally(state, False)
            party, tally = _own_party(state, viewer, brief, scratch), public_tally
        view: ViewState = {"visao": viewer, **common, "grupo": party,
                                "pedidos": _prompts(state, viewer, tables), "registro": tally}
        if viewer == GM:
            view["mestre"] = _gm_only(state, scratch)
        views[asked] = view
    return views


def _own_party(state: State, viewer: str, brief: list[CharacterView],
               scratch: Scratch) -> list[CharacterView]:
    """The public party list with the viewer's own character in detail."""
    mine = protocol.character_of(viewer)
    if mine is None:
        return brief
    party = list(brief)
    for index, character in enumerate(state.party):
        if character.id == mine:
            party[index] = {**_character(state, character, viewer, scratch), "proprio": True}
    return party
