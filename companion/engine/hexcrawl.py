"""The hexcrawl travel day (seed 000, "Rodadas de Viagem"): rounds of 4 h, weather, encounters
and the party's activities (Tabelas A–H).

Each character does one activity per round (RULES.md). A round starts, in order, with the
weather drift and the encounter check (by the terrain where the party started the day). A named
activity ("caçar Ana") is that character's one activity of the round: the first one opens the
round, a second one for the same character is refused, and when everyone has acted the round
closes by itself (clock +4 h). A group activity (no character named) is the activity of everyone
who has not acted yet, and closes the round; `avancar` moves the whole party, so it is refused
once someone did another activity this round. After the last round of the day the day ends.

Forced march (Tabela B): "o personagem deve descansar por 2 rodadas antes de realizar qualquer
outra atividade", read literally: THAT character rests, not the group. While a character owes
rest rounds (`rest_rounds_owed`), every travel round that passes (whatever the group does) pays
one round for them: they sit it out and take no part in the group's activity (no share of a
harvest, no ammunition made, never Tabela F's victim); the travel rest itself they share. An
activity named for them is refused, and so is `avancar`: leaving the hex waits for them (or the
GM releases them with `cancelar Nome`, party.py).

Prompts that hold the group (comandos.yaml `pedidos_que_seguram`: the forced-march test and the
choice after a failure, the rest's CON tests, Tabela H's DEX test): while one waits, no group
activity runs (core.require_group_free), and an activity named for its character neither.

The clock itself lives in clock.py (time passes the same way in the dungeon and in a chase):
any time that is not an advance round breaks the run of advances (Tabela B). A safe camp
(Levantar Acampamento) lasts until the party rests, does another group activity, enters a
dungeon or the day ends — whichever comes first.
"""
from __future__ import annotations

from dataclasses import replace
from typing import Any, Callable, Iterable, Mapping

from companion.engine import conditions, panic, rest
from companion.engine.clock import MINUTES_PER_DAY, day_of, pass_time
from companion.engine.core import (
    DICE_TEXT,
    schema_rule,
    spoken_name,
    PromptAnswer,
    cancel_handler,
    require_group_free,
    Scratch,
    add_prompt,
    arg,
    clamp_supplies,
    exhaust_party,
    command,
    option_label,
    plural,
    number_text,
    edge_for,
    find_character,
    modifier,
    pick_row,
    prompt_handler,
    slug,
    update_character,
)
from companion.engine.model import GM, PUBLIC, Character, Prompt, State
from companion.errors import CommandRejected, TableError
from companion.tables import register_schema

_GROUP = {"nome": str, "chance": int, "terrenos": [str]}
_ROWS = {"*": (str, dict)}
register_schema("viagem", {
    "terrenos": {"*": str},
    "modos": {"*": str},
    "rodada": {"rodadas_por_dia": int, "minutos": int},
    "encontro": {"nome": str, "sim": str, "nao": str, "grupos": [_GROUP]},
    "tabela_a": {"nome": str, "hexes": {"*": (int, float)}},
    "tabela_b": {"nome": str, "dados": str, "rodadas_sem_penalidade": int, "dc": int,
                 "dc_por_rodada": int, "atributo": str, "rodadas_de_descanso": int,
                 "exaustao": int},
    "tabela_c": {"nome": str, "dados": str, "sim": str, "nao": str, "grupos": [_GROUP]},
    "tabela_d": {"nome": str, "dados_avancar": str, "dados_explorar": str,
                 "colunas": [{"nome": str, "terrenos": [str], "linhas": _ROWS}]},
    "tabela_e": {"nome": str, "dados": str, "sim": str, "nao": str, "atividades": {"*": str},
                 "linhas": [{"nome": str, "terrenos": [str], "forragear": int, "cacar": int,
                             "pescar": int}]},
    "tabela_f": {"nome": str, "dados": str, "vitima": str, "linhas": _ROWS},
    "tabela_g": {"nome": str, "dados": str, "atributo": str,
                 "linhas": [{"nome": str, "terrenos": [str], "modificador": int}]},
    "acampamento": {"nome": str, "chance": int, "sim": str, "nao": str},
    "tabela_h": {"nome": str, "dados": str, "linhas": _ROWS},
})
register_schema("clima", {
    "inicial": {"nome": str, "dados": str},
    "variacao": {"nome": str, "dados": str, "linhas": {"*": {"texto": str, "passo": int}}},
    "estacoes": {"*": {"nome": str, "linhas": {"*": str}}},
})
_ENCOUNTER_ROW = schema_rule(
    "um texto, ou um mapa com texto e quantidade (dados, como 2d4)",
    lambda row: isinstance(row, str) or (
        isinstance(row, Mapping) and isinstance(row.get("texto"), str)
        and set(row) <= {"texto", "quantidade"}
        and ("quantidade" not in row or isinstance(row["quantidade"], DICE_TEXT))))
register_schema("encontros", {
    "regioes": {"*": {"nome": str, "dados": DICE_TEXT, "linhas": {"*": _ENCOUNTER_ROW}}},
    "quantos": str,
})
register_schema("casa", {
    "colheita": {"*": {"comida": int, "agua": int}},
    "encontros": {"visibilidade": str},
})

Activity = Callable[[State, Scratch, bool], State]  # (state, scratch, encounter this round)


# ---------------------------------------------------------------- rounds of the day

def round_of(state: State, round_minutes: int) -> int:
    """The travel round of the day, from 1 (round_minutes: viagem.yaml rodada.minutos)."""
    return (state.minutes % MINUTES_PER_DAY) // round_minutes + 1


def _round_minutes(scratch: Scratch) -> int:
    return int(scratch.table("viagem", "rodada", "minutos"))


def _set_travel(state: State, **changes: Any) -> State:
    return replace(state, travel=replace(state.travel, **changes))


# ---------------------------------------------------------------- names and choices

def terrain_name(scratch: Scratch, terrain: str) -> str:
    return str(scratch.table("viagem", "terrenos", terrain))


def _spoken_list(words: list[str]) -> str:
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " ou " + words[-1]


def _choose(value: Any, options: Mapping[str, str], unknown: str, shown: list[str]) -> str:
    """The canonical key for what was said (accents and case ignored), or a rejection."""
    said = slug(str(value or "")).replace("-", " ")
    for key, name in options.items():
        if said in (slug(key).replace("-", " "), slug(name).replace("-", " ")):
            return key
    raise CommandRejected(f"{unknown}: '{value or ''}'; use {_spoken_list(shown)}")


def _choose_terrain(scratch: Scratch, value: Any) -> str:
    names = scratch.table("viagem", "terrenos")
    return _choose(value, names, "terreno desconhecido", [n.lower() for n in names.values()])


def _choose_season(scratch: Scratch, value: Any) -> str:
    seasons = {key: spec["nome"] for key, spec in scratch.table("clima", "estacoes").items()}
    return _choose(value, seasons, "estação desconhecida", [n.lower() for n in seasons.values()])


def _choose_mode(scratch: Scratch, value: Any) -> str:
    modes = scratch.table("viagem", "modos")
    return _choose(value, modes, "modo de viagem desconhecido", list(modes))


def group_for(scratch: Scratch, groups: Iterable[Mapping[str, Any]], terrain: str,
              where: str) -> Mapping[str, Any]:
    """The group/column/row of a table that covers this terrain (mapped in data)."""
    for group in groups:
        if terrain in group["terrenos"]:
            return group
    raise TableError(f"tables/viagem.yaml: '{where}' não cobre o terreno '{terrain}'")


# ---------------------------------------------------------------- weather

def _weather_rows(scratch: Scratch, season: str) -> Mapping[Any, str]:
    return scratch.table("clima", "estacoes", season, "linhas")


def weather_text(scratch: Scratch, state: State) -> str:
    if state.travel.weather_row is None:
        return "ainda não rolado"
    return str(pick_row(_weather_rows(scratch, state.travel.season), state.travel.weather_row))


def roll_initial_weather(state: State, scratch: Scratch) -> State:
    """1d6 on the season's column."""
    spec = scratch.table("clima", "inicial")
    season = state.travel.season
    rows = _weather_rows(scratch, season)
    rolled = scratch.roll(spec["dados"], spec["nome"], estacao=season,
                       describe=lambda total: str(pick_row(rows, total)))
    return _set_travel(state, weather_row=rolled.total)


def drift_weather(state: State, scratch: Scratch) -> State:
    """Each round: 1 → one row down, 2 → one row up, else no change; clamped to the column."""
    if state.travel.weather_row is None:
        state = roll_initial_weather(state, scratch)
    spec = scratch.table("clima", "variacao")
    rolled = scratch.roll(spec["dados"], spec["nome"],
                       describe=lambda total: pick_row(spec["linhas"], total)["texto"])
    rows = [int(key) for key in _weather_rows(scratch, state.travel.season)]
    row = state.travel.weather_row or min(rows)
    new_row = max(min(rows), min(max(rows), row + pick_row(spec["linhas"], rolled.total)["passo"]))
    state = _set_travel(state, weather_row=new_row)
    scratch.say(f"Clima: {weather_text(scratch, state)}.", clima=weather_text(scratch, state),
             linha=new_row)
    return state


# ---------------------------------------------------------------- encounters

def encounter_visibility(scratch: Scratch) -> str:
    chosen = scratch.table("casa", "encontros", "visibilidade")
    visibility = {"mestre": GM, "publico": PUBLIC}.get(chosen)
    if visibility is None:
        raise TableError(f"tables/casa.yaml: 'encontros.visibilidade' deveria ser mestre ou "
                         f"publico, não '{chosen}'")
    return visibility


def check_encounter(state: State, scratch: Scratch) -> bool:
    """X-in-6 by the terrain where the party started the day; on a hit, the region's table."""
    spec = scratch.table("viagem", "encontro")
    region = state.travel.day_start_terrain
    group = group_for(scratch, spec["grupos"], region, "encontro.grupos")
    happened = scratch.chance(group["chance"], spec["nome"], spec["sim"], spec["nao"],
                           visibility=encounter_visibility(scratch), regiao=region)
    if happened:
        roll_encounter(state, scratch)
    return happened


def roll_encounter(state: State, scratch: Scratch) -> None:
    """Roll on the start-of-day region's encounter table (the GM's own, in encontros.yaml);
    a row with `quantidade` rolls how many appear as its own rolagem."""
    table = scratch.table("encontros", "regioes", state.travel.day_start_terrain)
    visibility = encounter_visibility(scratch)
    rolled = scratch.roll(table["dados"], table["nome"], visibility=visibility,
                       describe=lambda total: rest.row_text(pick_row(table["linhas"], total)),
                       regiao=state.travel.day_start_terrain)
    row = pick_row(table["linhas"], rolled.total)
    if not isinstance(row, Mapping) or "quantidade" not in row:
        return
    what = rest.row_text(row)
    count = scratch.roll(str(row["quantidade"]), str(scratch.table("encontros", "quantos")),
                      visibility=visibility, describe=lambda total: f"{total} — {what}",
                      regiao=state.travel.day_start_terrain)
    scratch.say(f"Aparecem {count.total}: {what}.", visibility, quantidade=count.total,
             encontro=what)


# ---------------------------------------------------------------- the round

def run_round(state: State, scratch: Scratch, activity: Activity, *, resting: bool = False,
              advancing: bool = False, close: bool = True) -> State:
    """A group activity: the activity of everyone who has not acted yet this round, then the
    round closes (+4 h). A fresh round first rolls its weather and encounter check. Characters
    owing forced-march rest sit the round out (see the module docstring)."""
    _require_no_chase(state, scratch)
    require_group_free(state, scratch)
    if advancing:
        require_rested(state, scratch, tuple(c.id for c in state.party))
    if state.travel.acted:
        _require_whole_group(state, scratch, advancing, resting)
        encounter = state.travel.round_encounter
        doing = participants(state)
        names = [find_character(state, c).name for c in doing]
        scratch.say(f"{_names_text(names) if names else 'Ninguém'}: "
                 f"{_activity_name(scratch)} nesta rodada ({_acted_text(state, scratch)}).",
                 participantes=list(doing), atividade=scratch.command.name)
    else:
        state, encounter = _open_round(state, scratch)
    if not resting:
        state = _set_travel(state, camp_safe=False)  # the party leaves its camp
    state = activity(state, scratch, encounter)
    return _close_round(state, scratch, advancing=advancing) if close else state


def _require_no_chase(state: State, scratch: Scratch) -> None:
    if state.chase is not None:
        raise CommandRejected(f"'{spoken_name(scratch.tables, scratch.command.name)}' não vale "
                              "durante a fuga ou a perseguição; resolva-a antes com 'fuga "
                              "sucesso', 'fuga falha' ou 'fuga dificuldade N'")


def _open_round(state: State, scratch: Scratch) -> tuple[State, bool]:
    """The round's start, in the seed's order: the header, the weather, the encounter check."""
    scratch.say(f"Dia {day_of(state)}, rodada {round_of(state, _round_minutes(scratch))} de "
             f"{scratch.table('viagem', 'rodada', 'rodadas_por_dia')}.",
             dia=day_of(state), rodada=round_of(state, _round_minutes(scratch)))
    state = drift_weather(state, scratch)
    encounter = check_encounter(state, scratch)
    return _set_travel(state, round_open=True, round_encounter=encounter), encounter


def _close_round(state: State, scratch: Scratch, advancing: bool = False) -> State:
    state = _sit_out(state, scratch)
    return pass_time(state, scratch, _round_minutes(scratch), advancing=advancing)


def _activity_name(scratch: Scratch) -> str:
    """How people say the activity: 'caçar', 'criar munição', 'explorar'."""
    return spoken_name(scratch.tables, scratch.command.name)


def _acted_text(state: State, scratch: Scratch) -> str:
    """'Ana já caçou' → 'Ana já fez caçar'; said as 'já agiu: Ana (caçar)'."""
    names = {c.id: c.name for c in state.party}
    done = ", ".join(f"{names.get(who, who)} ({spoken_name(scratch.tables, what)})"
                     for who, what in state.travel.acted)
    return f"já agiu nesta rodada: {done}"


def _require_whole_group(state: State, scratch: Scratch, advancing: bool, resting: bool) -> None:
    """Advancing moves the whole party: not after someone already did another activity."""
    if not advancing:
        return
    waiting = [find_character(state, c).name for c in participants(state)]
    others = (f"; {_names_text(waiting)} ainda pode agir (ex.: 'explorar', 'acampar' ou "
              f"'caçar {waiting[0]}')" if waiting else "")
    raise CommandRejected(f"'{_activity_name(scratch)}' leva o grupo todo, mas "
                          f"{_acted_text(state, scratch)}{others}; o grupo avança na próxima "
                          "rodada (ou diga 'desfazer')")


def named_activity(state: State, scratch: Scratch, character_id: str,
                   do: Callable[[State, Scratch, tuple[str, ...]], State]) -> State:
    """One character's activity of the round ("caçar Ana"): it opens the round when it is the
    first (weather, encounter check), counts as that character's one activity, and closes the
    round when everyone has acted. A second activity in the same round is refused."""
    _require_no_chase(state, scratch)
    character = find_character(state, character_id)
    done = dict(state.travel.acted).get(character.id)
    if done is not None:
        waiting = [find_character(state, c).name for c in participants(state)]
        left = (f"; ainda falta{'m' if len(waiting) > 1 else ''} agir: "
                f"{_names_text(waiting)}" if waiting else "")
        raise CommandRejected(
            f"{character.name} já fez a atividade desta rodada "
            f"({spoken_name(scratch.tables, done)}): cada personagem faz uma atividade por "
            f"rodada{left}; uma atividade do grupo (ex.: 'explorar') fecha a rodada")
    if not state.travel.round_open:
        state, _ = _open_round(state, scratch)
    state = do(state, scratch, (character.id,))
    state = _set_travel(state, acted=state.travel.acted + ((character.id, scratch.command.name),))
    waiting = [find_character(state, c).name for c in participants(state)]
    if waiting:
        scratch.say(f"{character.name}: {_activity_name(scratch)} nesta rodada. Ainda "
                 f"falta{'m' if len(waiting) > 1 else ''} agir: {_names_text(waiting)}.",
                 personagem=character.id, atividade=scratch.command.name,
                 faltam=list(participants(state)))
        return state
    scratch.say(f"{character.name}: {_activity_name(scratch)} nesta rodada. Todos agiram: a rodada "
             "termina.", personagem=character.id, atividade=scratch.command.name, faltam=[])
    return _close_round(state, scratch)


def participants(state: State) -> tuple[str, ...]:
    """Who takes part in the group's activity: everyone who has not acted yet this round and
    is not resting off a forced march."""
    acted = {who for who, _ in state.travel.acted}
    return tuple(c.id for c in state.party if c.rest_rounds_owed <= 0 and c.id not in acted)


def _sit_out(state: State, scratch: Scratch) -> State:
    """Forced-march debt: every travel round pays one round for everyone who owes rest."""
    for character in state.party:
        if character.rest_rounds_owed > 0:
            rested = replace(character, rest_rounds_owed=character.rest_rounds_owed - 1)
            left = (_left_text(rested.rest_rounds_owed) if rested.rest_rounds_owed
                    else "pode voltar às atividades")
            scratch.say(f"{character.name} descansa nesta rodada pela marcha forçada: {left}.",
                     personagem=character.id, descanso_devido=rested.rest_rounds_owed)
            state = update_character(state, rested)
    return state


def _left_text(rounds: int) -> str:
    """'falta 1 rodada', 'faltam 2 rodadas'."""
    return f"{'falta' if rounds == 1 else 'faltam'} {plural(rounds, 'rodada')}"


def require_rested(state: State, scratch: Scratch, who: tuple[str, ...]) -> None:
    """Refuse while any of `who` still owes forced-march rest rounds."""
    owing = [c for c in state.party if c.id in who and c.rest_rounds_owed > 0]
    if not owing:
        return
    said = "; ".join(f"{c.name} ainda descansa pela marcha forçada "
                     f"({_left_text(c.rest_rounds_owed)})" for c in owing)
    release = " ou ".join(f"'cancelar {c.name}'" for c in owing)
    if scratch.command.args.get("personagem") is None:
        wait = ("o grupo só avança depois disso, e qualquer outra atividade do grupo passa as "
                "rodadas (explorar, forragear, acampar, descansar…)")
    else:
        wait = "nenhuma outra atividade antes disso"
    raise CommandRejected(f"{said}: {wait}; ou dispense o descanso com {release}")


def end_of_day(state: State, scratch: Scratch, day: int) -> State:
    """No rest today → exhaustion for everyone; Tabela I daily harm; the new day's region.

    Called by clock.pass_time at each midnight; a safe camp does not outlast its day."""
    if not state.travel.rested_today:
        state = _day_without_rest(state, scratch)
    state = panic.exhaustion_day(state, scratch)
    travel = state.travel
    scratch.say(f"Fim do dia {day}. O dia {day_of(state)} começa em "
             f"{terrain_name(scratch, travel.terrain)}.", dia=day_of(state))
    return _set_travel(state, day_start_terrain=travel.terrain, rested_today=False,
                       camp_safe=False)


def _day_without_rest(state: State, scratch: Scratch) -> State:
    gain = int(scratch.table("viagem", "descanso", "dia_sem_descanso"))
    state, levels = exhaust_party(state, gain)
    if state.party:
        scratch.warn(f"Um dia sem descansar: cada personagem recebe "
                  f"{plural(gain, 'ponto')} de exaustão "
                  f"(exaustão agora: {levels}).")
    return state


# ---------------------------------------------------------------- Avançar

@command("avancar")
def advance(state: State, scratch: Scratch) -> State:
    """A round of advance. Past the free rounds, the forced-march test comes BEFORE the advance
    ("requer um teste"): the round opens, every character is asked, and the advance itself
    runs when the last test (and choice) is settled — unless someone must now rest, who the
    group waits for: then the round passes without advancing."""
    count = state.travel.consecutive_advances + 1
    if _forced_dc(scratch, count) is None or not state.party:
        return run_round(state, scratch, lambda s, t, _: _advance(s, t, count), advancing=True)
    return run_round(state, scratch, lambda s, t, _: _forced_march(s, t, count), advancing=True,
                     close=False)


def resume_advance(state: State, scratch: Scratch) -> State:
    """After a forced-march prompt is settled: the round's advance, once none is left."""
    if not state.travel.pending_advance or any(
            p.kind in MARCH_PROMPTS for p in state.prompts):
        return state
    state = _set_travel(state, pending_advance=False)
    resting = [c.name for c in state.party if c.rest_rounds_owed > 0]
    if resting:
        scratch.say(f"O grupo não avança nesta rodada: espera {_names_text(resting)}, que "
                 "descansa pela marcha forçada.", sem_avanco=True)
        return _close_round(state, scratch)
    state = _advance(state, scratch, state.travel.consecutive_advances + 1)
    return _close_round(state, scratch, advancing=True)


def _advance(state: State, scratch: Scratch, count: int) -> State:
    lost = state.travel.lost or _lost_check(state, scratch)
    mode = state.travel.mode
    hexes = float(scratch.table("viagem", "tabela_a", "hexes", mode))
    slowed = conditions.advance_factor(state, scratch.tables)
    pace = str(scratch.table("viagem", "modos", mode))
    extra: dict[str, Any] = {}
    if slowed is not None:  # the group moves at the slowest member's pace
        hexes *= slowed.factor
        pace += " — " + conditions.slowed_text(slowed)
        extra = {"fator": slowed.factor, "lentos": [name for name, _ in slowed.who]}
    scratch.say(f"O grupo avança {hexes_text(hexes)} ({pace}). "
             "Os PdIs óbvios e o tipo de terreno dos hexes vizinhos são revelados.",
             hexes=hexes, tabela=scratch.table("viagem", "tabela_a", "nome"), **extra)
    if lost and state.travel.lost:
        scratch.say("O grupo continua perdido (a Tabela C não é rolada de novo enquanto ele "
                 "estiver perdido): o Mestre decide para onde ele foi. Quando ele reencontrar "
                 "o caminho, diga 'o grupo achou o caminho'.", GM, perdido=True)
    elif lost:
        scratch.say("O grupo está perdido e não sabe: o Mestre decide para onde ele foi. Ele "
                 "continua perdido até o Mestre dizer 'o grupo achou o caminho'.", GM,
                 perdido=True)
    state = _set_travel(state, lost=lost, hexes=state.travel.hexes + hexes,
                        consecutive_advances=count)
    events_roll(state, scratch, "dados_avancar")
    return state


@command("caminho")
def found_the_way(state: State, scratch: Scratch) -> State:
    """The GM says the lost party found its way (GM-only: the players never knew)."""
    if not state.travel.lost:
        raise CommandRejected("o grupo não está perdido: 'o grupo achou o caminho' só vale "
                              "depois de a Tabela C dizer que ele se perdeu")
    scratch.say("O grupo reencontrou o caminho: não está mais perdido (a Tabela C volta a ser "
             "rolada a cada avanço).", GM, perdido=False)
    return _set_travel(state, lost=False)


def hexes_text(hexes: float) -> str:
    """'0,5 hex', '1 hex', '1,5 hex', '2 hexes' (decimal comma, plural from 2)."""
    return plural(hexes, "hex", "hexes")


def _lost_check(state: State, scratch: Scratch) -> bool:
    """Tabela C — a GM-only roll: players never learn they are lost from the app."""
    spec = scratch.table("viagem", "tabela_c")
    group = group_for(scratch, spec["grupos"], state.travel.terrain, "tabela_c.grupos")
    return scratch.chance(group["chance"], spec["nome"], spec["sim"], spec["nao"],
                       visibility=GM, grupo=group["nome"])


def events_roll(state: State, scratch: Scratch, dice_key: str) -> None:
    """Tabela D, column by the current terrain: 1d6 when advancing, 1d8 when exploring."""
    spec = scratch.table("viagem", "tabela_d")
    column = group_for(scratch, spec["colunas"], state.travel.terrain, "tabela_d.colunas")
    scratch.roll(spec[dice_key], spec["nome"], coluna=column["nome"],
              describe=lambda total: str(pick_row(column["linhas"], total)))


MARCH_PROMPTS = ("marcha_forcada", "escolha_marcha")


def _forced_dc(scratch: Scratch, count: int) -> int | None:
    """Tabela B: the DC of the `count`-th consecutive advance (None within the free rounds)."""
    spec = scratch.table("viagem", "tabela_b")
    extra = count - spec["rodadas_sem_penalidade"]
    return None if extra < 1 else spec["dc"] + spec["dc_por_rodada"] * (extra - 1)


def _forced_march(state: State, scratch: Scratch, count: int) -> State:
    """Tabela B: past the free rounds every character tests CON, DC 12 then +3 per round,
    before the group advances (the advance waits: `resume_advance`)."""
    spec = scratch.table("viagem", "tabela_b")
    dc = _forced_dc(scratch, count)
    attribute = str(spec["atributo"])
    scratch.say(f"Marcha forçada: {count}ª rodada seguida de avanço — antes de avançar, cada "
             f"personagem faz um teste de {attribute.upper()} DC {dc}.", tabela=spec["nome"],
             dc=dc)
    state = _set_travel(state, pending_advance=True)
    for character in state.party:
        state = add_prompt(
            state, scratch, "marcha_forcada", character.id,
            f"{character.name}: teste de {attribute.upper()} DC {dc} (marcha forçada).",
            str(spec["dados"]), modifier(character, attribute, scratch.tables), dc,
            rotulo=f"teste de {attribute.upper()} DC {dc} (marcha forçada)")
    return state


@prompt_handler("marcha_forcada")
def forced_march_answered(state: State, prompt: Prompt, answer: PromptAnswer,
                          scratch: Scratch) -> State:
    """Pass → goes on; fail → the player chooses: rest 2 rounds or 1 exhaustion."""
    character = find_character(state, str(prompt.character))
    if rest.passed(prompt, answer):
        scratch.say(f"{character.name} aguenta a marcha forçada ({answer.total} contra DC "
                 f"{prompt.dc}).", personagem=character.id)
        return resume_advance(state, scratch)
    spec = scratch.table("viagem", "tabela_b")
    scratch.say(f"{character.name} falha na marcha forçada ({answer.total} contra DC {prompt.dc}).",
             personagem=character.id)
    return add_prompt(
        state, scratch, "escolha_marcha", character.id,
        f"{character.name}: descansar {plural(spec['rodadas_de_descanso'], 'rodada')} antes de "
        f"qualquer outra atividade, ou receber {plural(spec['exaustao'], 'ponto')} de exaustão?",
        options=tuple(MARCH_CHOICES))


def _owe_rest(state: State, scratch: Scratch, character: Character) -> State:
    rounds = int(scratch.table("viagem", "tabela_b", "rodadas_de_descanso"))
    scratch.say(f"{character.name} vai descansar {plural(rounds, 'rodada')} antes de outra "
             "atividade.",
             personagem=character.id)
    return update_character(state, replace(character, rest_rounds_owed=rounds))


def _take_exhaustion(state: State, scratch: Scratch, character: Character) -> State:
    gain = int(scratch.table("viagem", "tabela_b", "exaustao"))
    tired = replace(character, exhaustion=character.exhaustion + gain)
    scratch.say(f"{character.name} recebe {plural(gain, 'ponto')} de exaustão (agora "
             f"{tired.exhaustion}).",
             personagem=character.id)
    return update_character(state, tired)


MARCH_CHOICES: dict[str, Callable[[State, Scratch, Character], State]] = {
    "descansar": _owe_rest,
    "exaustao": _take_exhaustion,
}


@prompt_handler("escolha_marcha")
def march_choice_answered(state: State, prompt: Prompt, answer: PromptAnswer,
                          scratch: Scratch) -> State:
    character = find_character(state, str(prompt.character))
    choice = MARCH_CHOICES.get(slug(str(answer.option or "")))
    if choice is None:
        listed = " ou ".join(option_label(prompt, o) for o in prompt.options)
        raise CommandRejected(f"escolha desconhecida: '{answer.option or ''}'; use {listed}")
    return resume_advance(choice(state, scratch, character), scratch)


for _kind in MARCH_PROMPTS:  # a test or choice cancelled by the GM: the advance goes on
    cancel_handler(_kind)(resume_advance)


# ---------------------------------------------------------------- Explorar

@command("explorar")
def explore(state: State, scratch: Scratch) -> State:
    return run_round(state, scratch, _explore)


def _explore(state: State, scratch: Scratch, encounter: bool) -> State:
    scratch.say("O grupo explora o hex atual, procurando PdIs e rastros.")
    events_roll(state, scratch, "dados_explorar")
    return state


# ---------------------------------------------------------------- Forragear / Caçar / Pescar

def _who(state: State, scratch: Scratch) -> tuple[str, ...] | None:
    """The named character's id, or None for a group activity."""
    name = arg(scratch, "personagem")
    if not name:
        return None
    character = find_character(state, name)
    require_group_free(state, scratch, (character.id,))
    require_rested(state, scratch, (character.id,))
    return (character.id,)


def _gathering(activity: str) -> Callable[[State, Scratch], State]:
    def handler(state: State, scratch: Scratch) -> State:
        named = _who(state, scratch)
        if named is not None:
            return named_activity(state, scratch, named[0],
                                  lambda s, t, who: gather(s, t, activity, who))
        return run_round(state, scratch, lambda s, t, _: gather(s, t, activity,
                                                              participants(s)))
    handler.__doc__ = f"{activity}: Tabela E; on failure Tabela F."
    return handler


for _activity in ("forragear", "cacar", "pescar"):
    command(_activity)(_gathering(_activity))


def gather(state: State, scratch: Scratch, activity: str, who: tuple[str, ...]) -> State:
    """1d6 X-in-6 on Tabela E (terrain row, activity column); failure → Tabela F."""
    if not who and state.party:
        scratch.say(_nobody_text())
        return state
    spec = scratch.table("viagem", "tabela_e")
    row = group_for(scratch, spec["linhas"], state.travel.terrain, "tabela_e.linhas")
    found = scratch.chance(row[activity], spec["nome"], spec["sim"], spec["nao"],
                        atividade=spec["atividades"][activity], linha=row["nome"])
    if found:
        return _harvest(state, scratch, activity, who)
    return accident(state, scratch, who)


def _harvest(state: State, scratch: Scratch, activity: str, who: tuple[str, ...]) -> State:
    """House default yields (casa.yaml colheita) for each character taking part."""
    gain = scratch.table("casa", "colheita", activity)
    names = []
    for character_id in who:
        character = find_character(state, character_id)
        names.append(character.name)
        state = update_character(state, replace(character, food=character.food + gain["comida"],
                                                water=character.water + gain["agua"]))
    what = f"+{gain['comida']} comida e +{gain['agua']} água"
    if names:
        each = " cada" if len(names) > 1 else ""
        scratch.say(f"{_names_text(names)}: {what}{each}.", comida=gain["comida"],
                 agua=gain["agua"])
    else:
        scratch.say(f"Encontram comida ({what} por personagem), mas não há personagens no grupo.")
    return state


def _nobody_text() -> str:
    return "Ninguém participa: todo o grupo descansa nesta rodada pela marcha forçada."


def _names_text(names: list[str]) -> str:
    """'Ana', 'Ana e Bia', 'Ana, Bia e Caio'."""
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " e " + names[-1]


def accident(state: State, scratch: Scratch, who: tuple[str, ...]) -> State:
    """1d10 on Tabela F; apply damage, conditions and the encounter row."""
    spec = scratch.table("viagem", "tabela_f")
    rolled = scratch.roll(spec["dados"], spec["nome"],
                       describe=lambda total: rest.row_text(pick_row(spec["linhas"], total)))
    row = pick_row(spec["linhas"], rolled.total)
    if not isinstance(row, Mapping):
        return state
    if row.get("encontro"):
        roll_encounter(state, scratch)
    if not {"dano", "condicao", "condicao_temporaria"} & set(row):
        return state
    victim = _victim(state, scratch, who)
    if victim is None:
        return state
    hurt = victim
    if "condicao_temporaria" in row:
        lasting = conditions.timed(state, scratch, row["condicao_temporaria"])
        hurt = conditions.add_lasting(hurt, lasting)
        scratch.warn(f"{hurt.name}: {conditions.timed_text(lasting, row['condicao_temporaria'])}.",
                  personagem=hurt.id, condicao=lasting.text)
    if "condicao" in row:
        hurt = rest.add_condition(hurt, str(row["condicao"]))
    if "dano" in row:
        hurt = clamp_supplies(replace(hurt, hp=hurt.hp - int(row["dano"])))
        scratch.say(f"{hurt.name} sofre {row['dano']} de dano (PV {hurt.hp}).", personagem=hurt.id)
    if "condicao" in row:
        cure = (f" Dura até ser curado: diga 'curar {hurt.name}'."
                if row.get("ate_ser_curado") is True else "")
        scratch.warn(f"{hurt.name}: {row['condicao']}.{cure}", personagem=hurt.id)
    return update_character(state, hurt)


def _victim(state: State, scratch: Scratch, who: tuple[str, ...]) -> Character | None:
    """The one taking part, or 1dN among the party when the whole group foraged."""
    people = [find_character(state, character_id) for character_id in who]
    if len(people) <= 1:
        return people[0] if people else None
    rolled = scratch.roll(f"1d{len(people)}", scratch.table("viagem", "tabela_f", "vitima"),
                       describe=lambda total: people[total - 1].name)
    return people[rolled.total - 1]


# ---------------------------------------------------------------- Criar munição

@command("criar_municao")
def craft_ammo(state: State, scratch: Scratch) -> State:
    named = _who(state, scratch)
    if named is not None:
        return named_activity(state, scratch, named[0], craft)
    return run_round(state, scratch, lambda s, t, _: craft(s, t, participants(s)))


def craft(state: State, scratch: Scratch, who: tuple[str, ...]) -> State:
    """DEX test (d20 + DEX modifier) + Tabela G: ammunition made = result, never below 0."""
    spec = scratch.table("viagem", "tabela_g")
    row = group_for(scratch, spec["linhas"], state.travel.terrain, "tabela_g.linhas")
    if not who:
        scratch.warn(_nobody_text() if state.party
                  else "Não há personagens no grupo para criar munição.")
    for character_id in who:
        character = find_character(state, character_id)
        mods = (modifier(character, spec["atributo"], scratch.tables), int(row["modificador"]))
        expression = spec["dados"] + "".join(f"{m:+d}" for m in mods if m)
        rolled = scratch.roll(expression, spec["nome"], edge=edge_for(character, scratch.tables, state.minutes),
                           personagem=character.id, linha=row["nome"],
                           describe=lambda total, c=character: f"{c.name}: {max(0, total)} "
                                                               "munições")
        made = max(0, rolled.total)
        state = update_character(state, replace(character, ammo=character.ammo + made))
    return state


# ---------------------------------------------------------------- Acampar / Descansar

@command("acampar")
def make_camp(state: State, scratch: Scratch) -> State:
    return run_round(state, scratch, _camp)


def _camp(state: State, scratch: Scratch, encounter: bool) -> State:
    spec = scratch.table("viagem", "acampamento")
    safe = scratch.chance(spec["chance"], spec["nome"], spec["sim"], spec["nao"])
    scratch.say("O acampamento está seguro para a noite." if safe
             else "O acampamento não ficou seguro.", seguro=safe)
    return _set_travel(state, camp_safe=safe)


@command("descansar")
def rest_command(state: State, scratch: Scratch) -> State:
    """Travel: the party sleeps (one round). Dungeon: the dungeon module rests one turn."""
    if state.dungeon.active:
        from companion.engine import dungeon

        return dungeon.rest_turn(state, scratch)
    return run_round(state, scratch, _rest, resting=True)


def _rest(state: State, scratch: Scratch, encounter: bool) -> State:
    """An encounter this round interrupts the rest (one CON test each)."""
    acted = {who for who, _ in state.travel.acted}
    return rest.rest_party(state, scratch, "viagem", "tabela_h",
                           str(scratch.table("viagem", "tabela_h", "nome")),
                           interruptions=1 if encounter else 0,
                           who=tuple(c.id for c in state.party if c.id not in acted))


# ---------------------------------------------------------------- settings

@command("estacao")
def set_season(state: State, scratch: Scratch) -> State:
    season = _choose_season(scratch, arg(scratch, "estacao"))
    scratch.say(f"Estação: {scratch.table('clima', 'estacoes', season, 'nome')}.", estacao=season)
    return roll_initial_weather(_set_travel(state, season=season), scratch)


@command("terreno")
def set_terrain(state: State, scratch: Scratch) -> State:
    """The current hex. Before the day's first round it is also where the day started."""
    terrain = _choose_terrain(scratch, arg(scratch, "terreno"))
    changes: dict[str, Any] = {"terrain": terrain}
    if state.minutes % MINUTES_PER_DAY == 0:
        changes["day_start_terrain"] = terrain
    scratch.say(f"Terreno do hex atual: {terrain_name(scratch, terrain)}.", terreno=terrain)
    return _set_travel(state, **changes)


@command("modo")
def set_mode(state: State, scratch: Scratch) -> State:
    mode = _choose_mode(scratch, arg(scratch, "modo"))
    hexes = float(scratch.table("viagem", "tabela_a", "hexes", mode))
    scratch.say(f"O grupo viaja {scratch.table('viagem', 'modos', mode)}: {hexes_text(hexes)} por "
             "rodada.", modo=mode)
    return _set_travel(state, mode=mode)


@command("clima")
def reroll_weather(state: State, scratch: Scratch) -> State:
    return roll_initial_weather(state, scratch)


@command("encontro")
def encounter_command(state: State, scratch: Scratch) -> State:
    roll_encounter(state, scratch)
    return state


__all__ = ["day_of", "round_of", "run_round", "roll_encounter", "encounter_visibility",
           "roll_initial_weather", "drift_weather", "check_encounter"]
