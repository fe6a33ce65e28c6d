"""Resting: the travel rest (`descansar`), shared with the dungeon's 8-hour sleep (`dormir`).

`rest_party` runs the steps of Descansar (tables/viagem.yaml `descanso`): a mishap roll when the
party is not safe, 1 food and 1 water each, hit dice equal to level, and 1 attribute damage / 1
sanity / 1 exhaustion recovered. Sanity comes back only up to the character's own Sanity
(`Character.sanity_max`, set with the character); a Sanity already above it stays where it is.
Every interruption asks each character for a test (viagem.yaml descanso: CON, 1d20 + modifier
against the DC; prompt kind "interrupcao"); a character with a pending test gets the benefits
only AFTER passing every test, so a failure never has to undo anything. Food and water are eaten
either way.
The mishap rows and their effects: rest_mishaps.py.

An interruption by an encounter the players may not see (casa.yaml `encontros.visibilidade`:
mestre) is a secret: the players are asked nothing, and the GM gets a prompt saying what would
be asked ("interromper o descanso agora?", kind "interromper_descanso"): `sim` asks the players
the tests, `nao` lets the rest go on without that interruption.

`vigia Nome` chooses who keeps watch during the travel rest (Tabela H row 8's panic test); it
holds until another is chosen. Without a name it says who watches now (the chosen one, else the
house default of casa.yaml).
"""
from __future__ import annotations

from dataclasses import replace

from companion.engine.model import GM, PUBLIC, Character, Prompt, State
from companion.engine.characters import (
    clamp_supplies,
    edge_for,
    find_character,
    kept_private,
    modifier,
    update_character,
)
from companion.engine.handlers import PromptAnswer, command, prompt_handler
from companion.engine.prompting import add_prompt, passed
from companion.engine.scratch import Scratch, arg
from companion.tables.weights import Weight
from companion.engine.procedures.rest_mishaps import (  # noqa: F401 (some re-exported)
    AttributeTest,
    HouseRest,
    MishapRow,
    MishapRows,
    MishapTable,
    RestRules,
    Test,
    TravelMishaps,
    _hit_die_text,
    add_condition,
    first_sentence,
    interruption,
    mishap,
    watcher,
)


REVEAL = "interromper_descanso"  # the GM's prompt: ask the players a secret interruption now?


# ---------------------------------------------------------------- the procedure

def rest_party(state: State, scratch: Scratch, mishaps: MishapTable, *,
               safe: bool | None = None, interruptions: int = 0, secret: bool = False,
               who: tuple[str, ...] | None = None) -> State:
    """The whole rest. `safe` defaults to the travel camp (never safe in a dungeon);
    `interruptions` counts interruptions found by the caller (e.g. an encounter this round;
    `secret`: one only the GM saw);
    `who` are the characters who rest (default: the whole party): they eat, drink, test and
    recover; the mishap (rolled on `mishaps`) falls on the camp as a whole."""
    if safe is None:
        safe = state.travel.camp_safe and not state.dungeon.active
    tests: tuple[Test, ...] = (interruption(scratch, secret),) * interruptions
    if safe:
        scratch.tell("descanso.seguro")
    else:
        state, found = mishap(state, scratch, mishaps)
        tests += found
    return finish_rest(state, scratch, tests, who)


def finish_rest(state: State, scratch: Scratch, tests: tuple[Test, ...],
                who: tuple[str, ...] | None = None) -> State:
    """The rest's end: food and water, then the CON tests (one per interruption) or the
    benefits straight away."""
    resting = tuple(c.id for c in state.party) if who is None else who
    state, hungry = _consume(state, scratch, resting)
    testing = tuple(c.id for c in state.party if c.id in resting and c.id not in hungry)
    if testing and any(secret for _, _, secret in tests):
        state = _ask_the_gm(state, scratch, tests, testing)
    else:
        state = _test_or_benefit(state, scratch, tests, testing)
    return replace(state, travel=replace(state.travel, rested_today=True, camp_safe=False))


def _test_or_benefit(state: State, scratch: Scratch, tests: tuple[Test, ...],
                     who: tuple[str, ...]) -> State:
    """Each of `who` (still in the party) tests (the first test, the rest after it) or, with
    no test, gets the rest's benefits."""
    for character in (c for c in state.party if c.id in who):
        state = (_ask_interruption(state, scratch, character, tests) if tests
                 else apply_benefits(state, scratch, character.id))
    return state


def _ask_the_gm(state: State, scratch: Scratch, tests: tuple[Test, ...],
                who: tuple[str, ...]) -> State:
    """A secret interruption: the GM is told what the players would be asked, and asked
    whether to interrupt the rest now (nothing reaches the players yet)."""
    rules = scratch.piece(RestRules)
    secret = next(test for test in tests if test[2])
    names = [c.name for c in state.party if c.id in who]
    text = scratch.tables.narration.render("descanso.pedido_revelar", {
        "nomes": names, "motivo": secret[1], "atributo": rules.atributo, "dc": secret[0],
        "outros": sum(1 for test in tests if not test[2])})
    return add_prompt(state, scratch, REVEAL, None, text, options=("sim", "nao"),
                      testes=[list(test) for test in tests], quem=list(who))


@prompt_handler(REVEAL)
def reveal_answered(state: State, prompt: Prompt, answer: PromptAnswer,
                    scratch: Scratch) -> State:
    """`sim`: the players are asked every test now (the interruption is no longer secret);
    `nao`: the rest goes on without the secret interruptions (other tests still asked)."""
    option = answer.option or ""
    tests = tuple((int(dc), str(why), bool(secret))
                  for dc, why, secret in prompt.context.get("testes", ()))
    who = tuple(str(c) for c in prompt.context.get("quem", ()))
    if option == "sim":
        scratch.tell("descanso.revelado", GM)
        kept = tuple((dc, why, False) for dc, why, _ in tests)
    else:
        scratch.tell("descanso.nao_revelado", GM)
        kept = tuple(test for test in tests if not test[2])
    return _test_or_benefit(state, scratch, kept, who)



# ---------------------------------------------------------------- consumption and benefits

def _consume(state: State, scratch: Scratch,
             who: tuple[str, ...]) -> tuple[State, tuple[str, ...]]:
    """Each one resting eats and drinks; nobody goes below 0. Also returns who went without
    and so gets none of the rest's benefits (viagem.yaml descanso.sem_comida_sem_beneficios)."""
    rules = scratch.piece(RestRules)
    use = rules.consumo
    strict = rules.sem_comida_sem_beneficios
    hungry: list[str] = []
    for character in (c for c in state.party if c.id in who):
        short = [word for word, have, need in (("comida", character.food, use.comida),
                                               ("agua", character.water, use.agua))
                 if have < need]
        if short:
            scratch.tell("descanso.sem_suprimentos", weight=Weight.HARM,
                         kind="aviso", personagem=character.id,
                         sem_beneficios=strict, words={"nome": character.name, "faltam": short})
            if strict:
                hungry.append(character.id)
        state = update_character(state, clamp_supplies(replace(
            character, food=character.food - use.comida,
            water=character.water - use.agua)))
    return state, tuple(hungry)


def _hit_die(house: HouseRest, character: Character) -> str:
    if character.hit_die:  # set on the sheet ("personagem Ana dado de vida d6")
        return f"d{character.hit_die}"
    return _hit_die_text(str(house.dados_de_vida.get(character.id, house.dado_de_vida)))


def apply_benefits(state: State, scratch: Scratch, character_id: str) -> State:
    """Hit dice = level for HP; recover attribute damage, sanity (up to the character's own
    Sanity), exhaustion."""
    character = find_character(state, character_id)
    rules = scratch.piece(RestRules)
    recover = rules.recupera
    narration = scratch.tables.narration
    healed = 0
    if character.level > 0:
        rolled = scratch.roll(f"{character.level}{_hit_die(scratch.piece(HouseRest), character)}",
                              rules.dados_de_vida, weight=Weight.ROUTINE,
                              edge=edge_for(character, scratch.tables, state.minutes),
                              personagem=character.id, quem=character.name,
                              describe=lambda total: narration.render(
                                  "descanso.recupera_pv", {"nome": character.name, "pv": total}))
        healed = max(0, rolled.total)
    sanity = character.sanity
    if sanity < character.sanity_max:
        sanity = min(character.sanity_max, sanity + recover.sanidade)
    damage = {name: value - recover.atributo
              for name, value in character.attribute_damage.items()
              if value - recover.atributo > 0}
    rested = clamp_supplies(replace(
        character, hp=character.hp + healed, sanity=sanity, attribute_damage=damage,
        private_damage=kept_private(character.private_damage, damage),
        exhaustion=character.exhaustion - recover.exaustao))
    scratch.tell("descanso.descansa", personagem=rested.id,
                 consumiu={"comida": rules.consumo.comida, "agua": rules.consumo.agua},
                 words={"nome": rested.name, "antes": character.hp, "pv": rested.hp,
                        "sanidade": rested.sanity, "exaustao": rested.exhaustion})
    return update_character(state, rested)


# ---------------------------------------------------------------- interruptions

def _ask_interruption(state: State, scratch: Scratch, character: Character,
                      tests: tuple[Test, ...]) -> State:
    rules = scratch.piece(RestRules)
    attribute = rules.atributo
    dc, why, _ = tests[0]
    narration = scratch.tables.narration
    words = {"nome": character.name, "motivo": why, "atributo": attribute, "dc": dc}
    return add_prompt(
        state, scratch, "interrupcao", character.id,
        narration.render("descanso.pedido_interrupcao", words),
        rules.dados_teste, modifier(character, attribute, scratch.tables), dc,
        restantes=[[d, w] for d, w, _ in tests[1:]],
        rotulo=narration.render("descanso.rotulo_interrupcao", words))


@prompt_handler("interrupcao")
def interruption_answered(state: State, prompt: Prompt, answer: PromptAnswer,
                          scratch: Scratch) -> State:
    """Passed every test → the rest's benefits; failed one → none."""
    character = find_character(state, str(prompt.character))
    words = {"nome": character.name, "total": answer.total, "dc": prompt.dc}
    if not passed(prompt, answer):
        scratch.tell("descanso.interrupcao_falhou", PUBLIC, personagem=character.id,
                     words=words)
        return state
    remaining = tuple((int(dc), str(why), False)
                      for dc, why in prompt.context.get("restantes", ()))
    if remaining:
        scratch.tell("descanso.interrupcao_falta_outro", personagem=character.id, words=words)
        return _ask_interruption(state, scratch, character, remaining)
    scratch.tell("descanso.interrupcao_passou", personagem=character.id, words=words)
    return apply_benefits(state, scratch, character.id)


@prompt_handler("teste_percalco")
def mishap_test_answered(state: State, prompt: Prompt, answer: PromptAnswer,
                         scratch: Scratch) -> State:
    """Passed: nothing lost; failed: the row's cost for this character (e.g. 1 random item)."""
    character = find_character(state, str(prompt.character))
    words = {"nome": character.name, "total": answer.total, "dc": prompt.dc,
             "falha": prompt.context.get("falha", "")}
    if passed(prompt, answer):
        scratch.tell("descanso.percalco_passou", personagem=character.id, sucesso=True,
                     words=words)
    else:
        scratch.tell("descanso.percalco_falhou", weight=Weight.HARM,
                     kind="aviso", personagem=character.id,
                     sucesso=False, words=words)
    return state


# ---------------------------------------------------------------- vigia

@command("vigia")
def watch_command(state: State, scratch: Scratch) -> State:
    """Choose who keeps watch during the rest, or say who does now."""
    name = arg(scratch, "personagem")
    if not name:
        current = watcher(state, scratch)
        chosen = state.travel.watcher is not None and current is not None
        scratch.tell("descanso.vigia_atual", PUBLIC, vigia=current.id if current else None,
                     words={"nome": current.name if current else None, "escolhido": chosen})
        if current is not None:
            scratch.tell("descanso.vigia_dica", GM, weight=Weight.FRAMING)
        return state
    character = find_character(state, str(name))
    scratch.tell("descanso.vigia_escolhido", PUBLIC, vigia=character.id,
                 words={"nome": character.name})
    return replace(state, travel=replace(state.travel, watcher=character.id))


__all__ = ["MishapTable", "MishapRow", "AttributeTest", "TravelMishaps", "rest_party", "finish_rest", "mishap", "interruption", "apply_benefits", "passed", "add_condition", "watcher"]
