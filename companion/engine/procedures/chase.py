"""The chase (tables/perseguicao.yaml: flight, the escape tests, distance and the
ranged check).

`fugir` declares flight during a combat round; at the end of that round the escape test (`fuga`)
decides whether the chase starts. During the chase each escape test is one 10-minute turn that
moves ONE signed score (+1 Ponto de Fuga, −1 Ponto de Perigo); the distance is derived from it.
The test's difficulty is always the GM's: `fuga sucesso|falha` or `fuga dc N` (a prompt for the
rolling character, or a public d20 when there is no party). Numbers and texts come from
tables/perseguicao.yaml.

Each chase turn passes its minutes through clock.pass_time: in a dungeon the lights and spells
burn, and the travel's run of advances is broken. A chase that starts leaves any safe camp.

Where the rules are silent: the test's attribute is DEX (house default in data); every test past
the third turn (4th, 5th, …) asks the GM to confirm the exhaustion of data
(`exaustao_apos_limite`) for everyone, even if that test ended the chase — one confirmation at
most: a new one replaces an unanswered one and asks for every extra turn not yet confirmed
(house default: `exaustao_apos_limite` per extra turn); Menor needs no range roll, so it does not
use up the turn's check.
"""
from __future__ import annotations

from dataclasses import replace
from typing import Any, Callable

from companion.engine.clock import pass_time
from companion.engine.model import GM, Character, Chase, Prompt, State
from companion.engine.toolkit import (
    PromptAnswer,
    Scratch,
    add_prompt,
    arg,
    clamp_supplies,
    command,
    exhaust_party,
    find_character,
    modifier,
    plural,
    prompt_handler,
    slug,
)
from companion.errors import CommandRejected, TableError
from companion.tables import register_schema

FILE = "perseguicao"
_DISTANCE = {"nome": str, "linha": str, "chance": (int, str)}
register_schema(FILE, {
    "teste_de_fuga": {"nome": str, "dados": str, "atributo": str, "sucesso": str, "falha": str,
                      "dc_minima": int, "dc_maxima": int},
    "declarada": {"falha": str, "sucesso": str},
    "turno_minutos": int,
    "limite_turnos": int,
    "limite_texto": str,
    "exaustao_apos_limite": int,
    "privacao": {"comida": int, "agua": int},
    "perda_de_velocidade": float,
    "velocidade_maxima": int,
    "pontos_para_fim": int,
    "ponto_de_fuga": str,
    "ponto_de_perigo": str,
    "escaparam": str,
    "alcancados": str,
    "fim_escaparam": str,
    "fim_alcancados": str,
    "alcance": {"nome": str, "sim": str, "nao": str},
    "distancias": {"menor": _DISTANCE, "neutra": _DISTANCE, "maior": _DISTANCE},
})

ALWAYS = "sempre"


def _data(scratch: Scratch, *path: str | int) -> Any:
    return scratch.table(FILE, *path)


def distance_of(chase: Chase) -> str:
    """The abstract distance derived from the score: −1 menor, 0 neutra, +1 maior."""
    if chase.score < 0:
        return "menor"
    return "maior" if chase.score > 0 else "neutra"


def _distance_name(scratch: Scratch, chase: Chase) -> str:
    return str(_data(scratch, "distancias", distance_of(chase), "nome"))


def _require_chase(state: State) -> Chase:
    if state.chase is None:
        raise CommandRejected("não há perseguição: o grupo declara a fuga com 'fugir'")
    return state.chase


# ---------------------------------------------------------------- declaring flight

@command("fugir")
def declare_flight(state: State, scratch: Scratch) -> State:
    """Flight is declared at the start of a combat round; the test comes at its end."""
    if state.chase is not None:
        raise CommandRejected("o grupo já está em fuga; resolva com 'fuga sucesso', "
                              "'fuga falha' ou 'fuga dificuldade N'")
    name = arg(scratch, "personagem")
    roller = find_character(state, str(name)).id if name else None
    scratch.say("O grupo declara fuga: nesta rodada, ajam para se desvencilhar dos oponentes. "
                "No fim da rodada, o teste de fuga — 'fuga sucesso', 'fuga falha' ou "
                "'fuga dificuldade N'.", personagem=roller)
    return replace(state, chase=Chase(phase="declarada", roller=roller))


# ---------------------------------------------------------------- the escape test

@command("fuga")
def escape_test(state: State, scratch: Scratch) -> State:
    """The GM gives the outcome (sucesso/falha) or the difficulty (dc); never invented."""
    _require_chase(state)
    if any(p.kind == "fuga" for p in state.prompts):
        raise CommandRejected("já há um teste de fuga esperando resposta; responda-o ou "
                              "cancele-o com 'cancelar'")
    result, dc = arg(scratch, "resultado"), arg(scratch, "dc")
    if result is not None and dc is not None:
        raise CommandRejected(f"diga o resultado ('{result}') OU a dificuldade ({dc}), não os "
                              "dois: 'fuga sucesso', 'fuga falha' ou 'fuga dificuldade 12'")
    if result is not None:
        return resolve(state, scratch, _outcome(str(result)))
    if dc is not None:
        return _test_with_dc(state, scratch, _dc(scratch, dc))
    raise CommandRejected("a dificuldade do teste de fuga é do Mestre: diga o resultado "
                          "('fuga sucesso' ou 'fuga falha') ou a dificuldade "
                          "('fuga dificuldade 12')")


def _outcome(value: str) -> bool:
    outcomes = {"sucesso": True, "falha": False}
    key = slug(value)
    if key not in outcomes:
        raise CommandRejected(f"resultado de fuga desconhecido: '{value}'; use sucesso ou falha")
    return outcomes[key]


def _dc(scratch: Scratch, value: Any) -> int:
    low = int(_data(scratch, "teste_de_fuga", "dc_minima"))
    high = int(_data(scratch, "teste_de_fuga", "dc_maxima"))
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise CommandRejected(f"dificuldade de fuga inválida: '{value}'; diga um número de "
                              f"{low} a {high}, como em 'fuga dificuldade 12'")
    return value


def _roller(state: State, scratch: Scratch) -> Character | None:
    """Who rolls: named now, named when fleeing, or the first character."""
    named = arg(scratch, "personagem")
    if named:
        return find_character(state, str(named))
    remembered = state.chase.roller if state.chase else None
    chosen = [c for c in state.party if c.id == remembered]
    return (chosen or list(state.party) or [None])[0]


def _test_with_dc(state: State, scratch: Scratch, dc: int) -> State:
    """A prompt on the roller's phone; with no party the companion rolls the d20 in public."""
    spec = _data(scratch, "teste_de_fuga")
    character = _roller(state, scratch)
    if character is None:
        rolled = scratch.roll(str(spec["dados"]), str(spec["nome"]), dc=dc,
                              describe=lambda total: str(spec["sucesso" if total >= dc else "falha"]))
        return resolve(state, scratch, rolled.total >= dc)
    attribute = str(spec["atributo"])
    bonus = modifier(character, attribute, scratch.tables)
    text = (f"{character.name}: teste de fuga — role {spec['dados']}{bonus:+d} "
            f"({attribute.upper()}), dificuldade {dc}.")
    scratch.say(f"Teste de fuga: {character.name} rola (dificuldade {dc}).", dc=dc,
                personagem=character.id)
    return add_prompt(state, scratch, "fuga", character.id, text, str(spec["dados"]), bonus, dc,
                      tabela=str(spec["nome"]))


@prompt_handler("fuga")
def answer_escape(state: State, prompt: Prompt, answer: PromptAnswer, scratch: Scratch) -> State:
    """The roller answered: success when the total (die + modifier) reaches the DC."""
    _require_chase(state)
    spec = _data(scratch, "teste_de_fuga")
    if answer.total is None or prompt.dc is None:
        raise CommandRejected("responda o teste de fuga com o valor do dado ('responder 14') "
                              "ou 'responder' para o companheiro rolar")
    success = answer.total >= prompt.dc
    word = spec["sucesso"] if success else spec["falha"]
    scratch.say(f"{spec['nome']}: {answer.total} contra dificuldade {prompt.dc} — {word}.",
                total=answer.total, dc=prompt.dc, sucesso=success)
    state = replace(state, prompts=tuple(p for p in state.prompts if p.id != prompt.id))
    return resolve(state, scratch, success)


# ---------------------------------------------------------------- resolving a test

def resolve(state: State, scratch: Scratch, success: bool) -> State:
    """Apply an escape test's outcome to the current phase of the chase."""
    chase = _require_chase(state)
    phases: dict[str, Callable[[State, Scratch, bool], State]] = {
        "declarada": _resolve_declared, "ativa": _resolve_turn}
    return phases[chase.phase](state, scratch, success)


def _resolve_declared(state: State, scratch: Scratch, success: bool) -> State:
    if not success:
        scratch.say(str(_data(scratch, "declarada", "falha")), fuga=False)
        return replace(state, chase=None)
    chase = Chase(phase="ativa", roller=state.chase.roller if state.chase else None)
    scratch.say(f"{_data(scratch, 'declarada', 'sucesso')} Distância: {_distance_name(scratch, chase)}.",
                fuga=True, distancia=distance_of(chase), placar=0)
    return replace(state, chase=chase, travel=replace(state.travel, camp_safe=False))


def _resolve_turn(state: State, scratch: Scratch, success: bool) -> State:
    """One chase turn: 10 minutes, one point of the tug of war, maybe the end or the limit."""
    chase = _require_chase(state)
    chase = replace(chase, turn=chase.turn + 1, score=chase.score + (1 if success else -1),
                    ranged_checked=False)
    state = pass_time(state, scratch, int(_data(scratch, "turno_minutos")))
    scratch.say(str(_data(scratch, "ponto_de_fuga" if success else "ponto_de_perigo")),
                turno=chase.turn, placar=chase.score)
    state = _after_point(state, scratch, chase)
    if chase.turn > int(_data(scratch, "limite_turnos")):
        state = _past_limit(state, scratch, chase.turn)
    return state


def _after_point(state: State, scratch: Scratch, chase: Chase) -> State:
    end = int(_data(scratch, "pontos_para_fim"))
    if chase.score >= end:
        scratch.say(str(_data(scratch, "fim_escaparam")), fim="escaparam",
                    regra=_data(scratch, "escaparam"))
        return replace(state, chase=None)
    if chase.score <= -end:
        scratch.warn(str(_data(scratch, "fim_alcancados")), fim="alcancados",
                     regra=_data(scratch, "alcancados"))
        return replace(state, chase=None)
    scratch.say(f"Turno de perseguição {chase.turn}: distância {_distance_name(scratch, chase)} "
                f"(placar {chase.score:+d}).", distancia=distance_of(chase), placar=chase.score)
    return replace(state, chase=chase)


def _past_limit(state: State, scratch: Scratch, chase_turn: int) -> State:
    """Past the turn limit: say so and ask the GM to confirm the exhaustion. One confirmation at
    most: a new one replaces the unanswered one and counts its extra turns too."""
    limit = int(_data(scratch, "limite_turnos"))
    scratch.warn(str(_data(scratch, "limite_texto")), turno=chase_turn)
    stale = [p for p in state.prompts if p.kind == CONFIRM]
    extra = 1 + sum(int(p.context.get("turnos_extras", 1)) for p in stale)
    if stale:
        state = replace(state, prompts=tuple(p for p in state.prompts if p.kind != CONFIRM))
        old = ", ".join(str(p.id) for p in stale)
        scratch.say(f"O pedido {old} (confirmar a exaustão da perseguição) foi substituído pelo "
                    "novo, que conta todos os turnos além do limite.", GM,
                    substituidos=[p.id for p in stale])
    amount = int(_data(scratch, "exaustao_apos_limite")) * extra
    text = (f"A perseguição passou de {limit} turnos (turno {chase_turn}: "
            f"{plural(extra, 'turno')} além do limite sem confirmar): aplicar "
            f"{plural(amount, 'ponto')} de exaustão, a privação e a redução na velocidade a "
            "todos os personagens? (sim ou não)")
    return add_prompt(state, scratch, CONFIRM, None, text, options=("sim", "nao"),
                      turnos_extras=extra, turno=chase_turn)


CONFIRM = "confirmar_perseguicao"


@prompt_handler("confirmar_perseguicao")
def confirm_exhaustion(state: State, prompt: Prompt, answer: PromptAnswer,
                       scratch: Scratch) -> State:
    """The GM confirms (sim) or declines (nao) the exhaustion of a long chase."""
    option = slug(answer.option or "")
    if option not in ("sim", "nao"):
        raise CommandRejected(f"responda 'sim' ou 'não' para a exaustão da perseguição "
                              f"(recebi '{answer.option or answer.total}')")
    state = replace(state, prompts=tuple(p for p in state.prompts if p.id != prompt.id))
    if option == "nao":
        scratch.say("O Mestre não aplicou a exaustão da perseguição.")
        return state
    extra = int(prompt.context.get("turnos_extras", 1))
    amount = int(_data(scratch, "exaustao_apos_limite")) * extra
    state, levels = exhaust_party(state, amount)
    scratch.warn(f"A perseguição longa cobra seu preço: cada personagem sofre "
                 f"{plural(amount, 'ponto')} de exaustão (exaustão: {levels}).", exaustao=amount)
    state = _deprive(state, scratch, extra)
    return _slow_down(state, scratch, extra)


def _deprive(state: State, scratch: Scratch, extra: int) -> State:
    """Privation (house default): each character loses food and water per extra turn."""
    cost = _data(scratch, "privacao")
    food, water = int(cost["comida"]) * extra, int(cost["agua"]) * extra
    if not (food or water) or not state.party:
        return state
    party = tuple(clamp_supplies(replace(c, food=c.food - food, water=c.water - water))
                  for c in state.party)
    what = " e ".join(f"{amount} de {name}" for amount, name in ((food, "comida"),
                                                                  (water, "água")) if amount)
    scratch.warn(f"Privação: cada personagem perde {what}.", comida=food, agua=water)
    return replace(state, party=party)


def _slow_down(state: State, scratch: Scratch, extra: int) -> State:
    """The party's speed drops (house default fraction per extra turn), when the GM gave it."""
    chase = state.chase
    if chase is None or chase.party_speed is None:
        scratch.say("Redução na velocidade: o grupo está mais lento (diga as velocidades com "
                    "'velocidade 120 contra 90' para o companheiro mostrar).")
        return state
    loss = float(_data(scratch, "perda_de_velocidade"))
    slower = max(0, round(chase.party_speed * (1 - loss) ** extra))
    scratch.warn(f"Redução na velocidade: o grupo passa de {chase.party_speed} para {slower}.",
                 velocidade_grupo=slower)
    return replace(state, chase=replace(chase, party_speed=slower))


# ---------------------------------------------------------------- speeds

@command("velocidade")
def speeds(state: State, scratch: Scratch) -> State:
    """The sides' speeds (50× each side's exploration rate), as the GM says them: shown with
    the difference, as information for the escape test's difficulty."""
    chase = _require_chase(state)
    top = int(_data(scratch, "velocidade_maxima"))
    values = []
    for key in ("grupo", "perseguidores"):
        raw = arg(scratch, key)
        if isinstance(raw, bool) or not isinstance(raw, int) or not 0 <= raw <= top:
            raise CommandRejected(f"velocidade inválida: '{raw}'; diga as duas, de 0 a {top}, "
                                  "como em 'velocidade 120 contra 90' (o grupo, depois os "
                                  "perseguidores)")
        values.append(raw)
    party, foes = values
    chase = replace(chase, party_speed=party, foe_speed=foes)
    scratch.say(f"Velocidades: o grupo {party}, os perseguidores {foes} — {speed_gap_text(chase)}.",
                velocidade_grupo=party, velocidade_perseguidores=foes,
                diferenca=party - foes)
    return replace(state, chase=chase)


def speed_gap_text(chase: Chase) -> str:
    """'o grupo é 30 mais rápido', '… mais lento', 'mesma velocidade'."""
    if chase.party_speed is None or chase.foe_speed is None:
        return "velocidades não informadas"
    gap = chase.party_speed - chase.foe_speed
    if gap == 0:
        return "mesma velocidade"
    return f"o grupo é {abs(gap)} mais {'rápido' if gap > 0 else 'lento'}"


# ---------------------------------------------------------------- ranged actions

@command("distancia")
def ranged_check(state: State, scratch: Scratch) -> State:
    """Ataques, Arremessos e Magias: by the current distance, once per turn unless wider range."""
    chase = _require_chase(state)
    if chase.phase != "ativa":
        raise CommandRejected("a perseguição ainda não começou: primeiro o teste de fuga "
                              "('fuga sucesso', 'fuga falha' ou 'fuga dificuldade N')")
    wider = arg(scratch, "alcance_maior", False)
    if not isinstance(wider, bool):
        raise CommandRejected(f"alcance maior inválido: '{wider}'; use sim ou não")
    key = distance_of(chase)
    spec = _data(scratch, "distancias", key)
    data = _data(scratch, "alcance")
    if spec["chance"] == ALWAYS:
        scratch.say(f"{data['nome']} — distância {spec['nome']}: {spec['linha']}",
                    distancia=key, linha=spec["linha"])
        return state
    if isinstance(spec["chance"], str):
        raise TableError(f"tables/{FILE}.yaml: 'distancias.{key}.chance' deveria ser um "
                         f"número ou '{ALWAYS}'")
    if chase.ranged_checked and not wider:
        raise CommandRejected("o teste de alcance já foi feito neste turno; só vale de novo "
                              "com uma ação de alcance bem maior ('ataque à distância com "
                              "alcance maior')")
    scratch.chance(int(spec["chance"]), str(data["nome"]), str(data["sim"]), str(data["nao"]),
                   distancia=key, linha=spec["linha"], alcance_maior=wider)
    return replace(state, chase=replace(chase, ranged_checked=True))

