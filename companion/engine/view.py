"""The state as one viewer may see it (the `estado` payload of the server and the pages).

`view_state(state, viewer, tables) -> dict` — viewer is "gm" (everything), "public" (the shared
screen) or "player:<id>" (public + that player's own character details and own prompts).
Anything else is treated as "public". Only the GM's view has the "mestre" key; nothing GM-only
(travel.lost, dungeon.monsters, a pending dungeon encounter, secrets, prompt contexts, other
players' prompts) is ever put anywhere else.

Shape (keys are stable; values may be null when unknown):

    {
      "visao": "gm" | "public" | "player:ana",
      "modo": "viagem" | "masmorra" | "perseguicao",  "modo_nome": "viagem (hexcrawl)",
      "dia": 1, "rodada": 2, "rodadas_por_dia": 6, "minutos": 240,  # rodada: null if unknown
      "relogio": "Dia 1 · rodada 2 de 6 (4h–8h)",       # or "Dia 1 · turno 3 na masmorra"
      "estacao": "primavera", "estacao_nome": "Primavera", "clima": "Ameno e nublado" | null,
      "terreno": "floresta", "terreno_nome": "Floresta",
      "viagem": {"modo": "andando", "modo_nome": "Andando", "hexes": 1.5,
                 "avancos_seguidos": 2, "acampamento_seguro": false, "descansou_hoje": false},
      "masmorra": null | {"turno": 3, "perigo": "inseguro", "perigo_nome": "Inseguro",
                          "escuro": false, "perigo_efetivo": "inseguro",
                          "perigo_efetivo_nome": "Inseguro", "turnos_sem_descanso": 3,
                          "luzes": [{"nome": "Tocha", "turnos": 4}],
                          "magias": [{"nome": "Escudo", "turnos": 2}],
                          "ordem_marcha": ["Ana", "Bia"]},
      "perseguicao": null | {"fase": "ativa", "placar": 1, "turno": 2,
                             "distancia": "maior" | null, "distancia_nome": "Maior" | null},
      "grupo": [{"id": "ana", "nome": "Ana", "nivel": 1, "pv": 8, "pv_max": 8,
                 "sanidade": 10, "exaustao": 0, "comida": 3, "agua": 3, "municao": 0,
                 "aflicoes": ["Fobia"], "condicoes": ["Insano"],
                 # only for the GM and for the character's own player:
                 "atributos": {"con": 1}, "dano_atributo": {"sab": 2},
                 "descanso_devido": 0, "exaustao_efeitos": ["DESV em todas as rolagens"],
                 "proprio": true}],               # "proprio" only in that player's own view
      "pedidos": [{"id": 1, "tipo": "panico", "personagem": "ana", "texto": "…",
                   "dados": "1d20", "modificador": 0, "dc": null, "opcoes": []}],
      "registro": {"derrotados": {"Floresta": {"goblins": 3}}, "tesouro": {…},
                   "itens": {…}, "dados": {"d6": 12}},
      "mestre": {"perdido": false, "encontro_pendente": false,      # GM view ONLY
                 "monstros": [{"nome": "Ogro", "sala": "3", "alertado": false}],
                 "segredos": ["…"]}
    }

`visible_to(event_visibility, viewer)` says whether an event reaches a viewer.
"""
from __future__ import annotations

from typing import Any, Mapping, get_args

from companion.engine.core import prompt_to_dict
from companion.engine.model import GM, PUBLIC, Character, State, Terrain
from companion.errors import TableError
from companion.tables import Tables

PLAYER_PREFIX = "player:"
MINUTES_PER_DAY = 24 * 60  # the calendar, not a rule


def visible_to(event_visibility: str, viewer: str) -> bool:
    """The GM sees all; a player sees public events and their own; the table sees public."""
    if viewer == GM or event_visibility == PUBLIC:
        return True
    return viewer.startswith(PLAYER_PREFIX) and event_visibility == viewer


# ---------------------------------------------------------------- data look-ups

def _lookup(tables: Tables, file: str, *path: str | int, default: Any = None) -> Any:
    """A value from tables/, or default while another module's file is missing or different."""
    try:
        return tables.get(file, *path)
    except (TableError, TypeError, AttributeError):
        return default


def terrain_names(tables: Tables) -> dict[str, str]:
    """Terrain id → display name (viagem.yaml `terrenos`, else the capitalised id)."""
    names = _lookup(tables, "viagem", "terrenos", default=None)
    if isinstance(names, Mapping):
        return {str(k): str(v) for k, v in names.items()}
    return {terrain: terrain.capitalize() for terrain in get_args(Terrain)}


def terrain_name(tables: Tables, terrain: str) -> str:
    return terrain_names(tables).get(terrain, terrain.capitalize())


def _row(rows: Any, number: int | None) -> Any:
    if not isinstance(rows, Mapping) or number is None:
        return None
    return rows.get(number, rows.get(str(number)))


def weather_text(state: State, tables: Tables) -> str | None:
    """The current weather row of the season's column (clima.yaml), if rolled."""
    rows = _lookup(tables, "clima", "estacoes", state.travel.season, "linhas")
    found = _row(rows, state.travel.weather_row)
    return str(found) if found is not None else None


def _clock(state: State, tables: Tables) -> dict[str, Any]:
    """Day, travel round (from viagem.yaml `rodada`) and a clock text for people."""
    minutes_per_round = _lookup(tables, "viagem", "rodada", "minutos")
    rounds = _lookup(tables, "viagem", "rodada", "rodadas_por_dia")
    day = state.minutes // MINUTES_PER_DAY + 1
    round_number = None
    if minutes_per_round:
        round_number = state.minutes % MINUTES_PER_DAY // int(minutes_per_round) + 1
    if state.dungeon.active:
        text = f"Dia {day} · turno {state.dungeon.turn} na masmorra"
    elif round_number is None:
        text = f"Dia {day}"
    else:
        start = (round_number - 1) * int(minutes_per_round) // 60
        end = round_number * int(minutes_per_round) // 60
        text = f"Dia {day} · rodada {round_number} de {rounds} ({start}h–{end}h)"
    return {"dia": day, "rodada": round_number, "rodadas_por_dia": rounds,
            "minutos": state.minutes, "relogio": text}


# ---------------------------------------------------------------- sections

def _travel(state: State, tables: Tables) -> dict[str, Any]:
    travel = state.travel
    return {
        "estacao": travel.season,
        "estacao_nome": str(_lookup(tables, "clima", "estacoes", travel.season, "nome",
                                    default=travel.season.capitalize())),
        "clima": weather_text(state, tables),
        "terreno": travel.terrain,
        "terreno_nome": terrain_name(tables, travel.terrain),
        "viagem": {
            "modo": travel.mode,
            "modo_nome": str(_lookup(tables, "viagem", "modos", travel.mode,
                                     default=travel.mode.capitalize())),
            "hexes": travel.hexes,
            "avancos_seguidos": travel.consecutive_advances,
            "acampamento_seguro": travel.camp_safe,
            "descansou_hoje": travel.rested_today,
        },
    }


def _danger_name(tables: Tables, level: str) -> str:
    return str(_lookup(tables, "masmorra", "tabela_a", "niveis", level, "nome",
                       default=level.capitalize()))


def _dungeon(state: State, tables: Tables) -> dict[str, Any] | None:
    dungeon = state.dungeon
    if not dungeon.active:
        return None
    dark = not dungeon.lights
    effective = str(_lookup(tables, "masmorra", "escuridao", "nivel", default="mortal")) \
        if dark else dungeon.danger
    names = {c.id: c.name for c in state.party}
    return {
        "turno": dungeon.turn,
        "perigo": dungeon.danger,
        "perigo_nome": _danger_name(tables, dungeon.danger),
        "escuro": dark,
        "perigo_efetivo": effective,
        "perigo_efetivo_nome": _danger_name(tables, effective),
        "turnos_sem_descanso": dungeon.turns_since_rest,
        "luzes": [{"nome": t.name, "turnos": t.turns_left} for t in dungeon.lights],
        "magias": [{"nome": t.name, "turnos": t.turns_left} for t in dungeon.spells],
        "ordem_marcha": [names.get(i, i) for i in dungeon.marching_order],
    }


def _chase(state: State, tables: Tables) -> dict[str, Any] | None:
    chase = state.chase
    if chase is None:
        return None
    try:
        from companion.engine.chase import distance_of
        distance: str | None = str(distance_of(chase))
    except (ImportError, AttributeError):
        distance = None
    name = _lookup(tables, "perseguicao", "distancias", distance, "nome") if distance else None
    return {"fase": chase.phase, "placar": chase.score, "turno": chase.turn,
            "distancia": distance, "distancia_nome": str(name) if name else distance}


def _character(character: Character, detailed: bool, tables: Tables) -> dict[str, Any]:
    shown: dict[str, Any] = {
        "id": character.id, "nome": character.name, "nivel": character.level,
        "pv": character.hp, "pv_max": character.hp_max, "sanidade": character.sanity,
        "exaustao": character.exhaustion, "comida": character.food, "agua": character.water,
        "municao": character.ammo, "aflicoes": list(character.afflictions),
        "condicoes": list(character.conditions),
    }
    if detailed:
        rows = _lookup(tables, "panico", "tabela_i", "linhas", default={}) or {}
        shown.update({
            "atributos": dict(character.mods),
            "dano_atributo": dict(character.attribute_damage),
            "descanso_devido": character.rest_rounds_owed,
            "exaustao_efeitos": [row["texto"] for key, row in
                                 sorted(rows.items(), key=lambda kv: int(kv[0]))
                                 if character.exhaustion >= int(key)],
        })
    return shown


def _party(state: State, viewer: str, tables: Tables) -> list[dict[str, Any]]:
    party = []
    for character in state.party:
        own = viewer == PLAYER_PREFIX + character.id
        entry = _character(character, viewer == GM or own, tables)
        if own:
            entry["proprio"] = True
        party.append(entry)
    return party


def _prompts(state: State, viewer: str) -> list[dict[str, Any]]:
    if viewer == GM:
        return [prompt_to_dict(p) for p in state.prompts]
    if viewer.startswith(PLAYER_PREFIX):
        mine = viewer[len(PLAYER_PREFIX):]
        return [prompt_to_dict(p) for p in state.prompts if p.character == mine]
    return []


def _tally(state: State, gm: bool) -> dict[str, Any]:
    """The session form. Dice counts include secret rolls, so only the GM sees them."""
    tally = state.tally
    form: dict[str, Any] = {
        "derrotados": {region: dict(counts) for region, counts in tally.defeated.items()},
        "tesouro": dict(tally.treasure), "itens": dict(tally.items)}
    if gm:
        form["dados"] = dict(tally.dice)
    return form


def _gm_only(state: State) -> dict[str, Any]:
    return {
        "perdido": state.travel.lost,
        "encontro_pendente": state.dungeon.pending_encounter,
        "monstros": [{"nome": m.name, "sala": m.room, "alertado": m.alerted}
                     for m in state.dungeon.monsters],
        "segredos": list(state.secrets),
    }


def _viewer(viewer: str) -> str:
    if viewer == GM or (viewer.startswith(PLAYER_PREFIX) and len(viewer) > len(PLAYER_PREFIX)):
        return viewer
    return PUBLIC


def view_state(state: State, viewer: str, tables: Tables) -> dict[str, Any]:
    """The JSON-able state as `viewer` may see it (see the module docstring for the shape)."""
    viewer = _viewer(viewer)
    view: dict[str, Any] = {
        "visao": viewer,
        "modo": state.mode,
        "modo_nome": str(_lookup(tables, "comandos", "modos", state.mode, default=state.mode)),
        **_clock(state, tables),
        **_travel(state, tables),
        "masmorra": _dungeon(state, tables),
        "perseguicao": _chase(state, tables),
        "grupo": _party(state, viewer, tables),
        "pedidos": _prompts(state, viewer),
        "registro": _tally(state, viewer == GM),
    }
    if viewer == GM:
        view["mestre"] = _gm_only(state)
    return view
