"""A command's args from a match's slots: one builder per command that needs more than the
slots as they are (dice, a sheet, a marching order…), in a dispatch table."""
from __future__ import annotations

from typing import Any, Callable, Mapping

from companion.commands.normalize import fold, normalize
from companion.commands.sentences import HouseRules
from companion.commands.slots import ArgError, person_name


Builder = Callable[[dict[str, Any], Mapping[str, Any], str], dict[str, Any]]


def _as_is(slots: dict[str, Any], rules: HouseRules, shown: str) -> dict[str, Any]:
    return slots


def _dice_expression(slots: dict[str, Any]) -> str:
    """"2d6+1" from the qtd/lados/bonus/penalidade slots."""
    count = int(slots.pop("qtd", 1))
    sides = int(slots.pop("lados"))
    bonus = int(slots.pop("bonus", 0))
    penalty = int(slots.pop("penalidade", 0))
    if count < 1:
        raise ArgError.because("leitura.dados_de_menos", final=True, quantidade=count,
                               lados=sides)
    text = f"{count}d{sides}"
    return text + (f"+{bonus}" if bonus else "") + (f"-{penalty}" if penalty else "")


def _roll(slots: dict[str, Any], rules: HouseRules, shown: str) -> dict[str, Any]:
    args = {"expressao": _dice_expression(slots)}
    if "vantagem" in slots:
        args["vantagem"] = slots["vantagem"]
    return args


def _secret(slots: dict[str, Any], rules: HouseRules, shown: str) -> dict[str, Any]:
    """'segredo 1d20+2 escutar' or 'o Bruno escuta atrás da porta' (motivo 'Bruno: escutar…')."""
    args: dict[str, Any] = {}
    if "lados" in slots:
        args["expressao"] = _dice_expression(slots)
    if "acao_secreta" in slots:
        slots["motivo"] = _secret_reason(slots)
    if slots.get("motivo"):
        args["motivo"] = slots["motivo"]
    return args


def _secret_reason(slots: Mapping[str, Any]) -> str:
    """'Bruno: escutar atrás da porta' — who, the action as a verb, and what it is about."""
    action = " ".join(str(part) for part in (slots["acao_secreta"], slots.get("alvo", ""))
                      if part)
    who = slots.get("personagem")
    return f"{who}: {action}" if who else action


def _marching_order(slots: dict[str, Any], rules: HouseRules,
                    shown: str) -> dict[str, Any]:
    """'Ana, Bia e Caio', 'Caio na frente, depois Ana e Bia', 'Caio Ana Bia' → the names.

    With commas, each name is what stands between separators ('Ana Clara, Bia e Caio').
    Without a comma, a name is one word (particles join: 'Ana de Souza') except the last item
    of the list, which may have several ('ana bia e caio' → Ana, Bia, Caio; 'Bia e Ana Clara'
    → Bia, Ana Clara): a list said without commas left them out before its last 'e'."""
    words = str(slots["ordem"]).replace(",", " , ").replace(";", " , ").split()
    groups, separated = _split_on_separators(words, rules)
    if not separated:
        groups = [name for group in groups for name in _one_word_names(group, rules)]
    elif "," not in words:
        groups = [name for group in groups[:-1] for name in _one_word_names(group, rules)] \
            + groups[-1:]
    cleaned = [person_name(" ".join(n), fold(" ".join(n)).split(), rules)
               for n in groups if n]
    if not cleaned:
        raise ArgError.because("leitura.marcha_sem_nomes")
    return {"ordem": cleaned}


def _split_on_separators(words: list[str],
                         rules: HouseRules) -> tuple[list[list[str]], bool]:
    """Groups of words between separators (',', 'e', 'depois', 'na frente'…); any found?"""
    separators = sorted((fold(s).split() or [","] for s in rules.separadores_de_marcha),
                        key=len, reverse=True)
    folded = [fold(w).strip(".!?:") or w for w in words]
    groups: list[list[str]] = [[]]
    found, index = False, 0
    while index < len(words):
        size = next((len(s) for s in separators if folded[index:index + len(s)] == s), 0)
        if size:
            found = True
            groups.append([])
            index += size
            continue
        groups[-1].append(words[index].strip(".!?:"))
        index += 1
    return [g for g in groups if any(g)], found


def _one_word_names(group: list[str], rules: HouseRules) -> list[list[str]]:
    """'Caio Ana Bia' (no separator): a name per word; 'de'/'da' join ('Ana de Souza')."""
    particles = set(rules.particulas) - {"e"}
    names: list[list[str]] = []
    for word in group:
        joined = names and (fold(word) in particles or fold(names[-1][-1]) in particles)
        if joined:
            names[-1].append(word)
        else:
            names.append([word])
    return names


def _monster(slots: dict[str, Any], rules: HouseRules, shown: str) -> dict[str, Any]:
    """'monstro ogro na sala 3' and the bare 'o ogro morreu' ({monstro_dito}) give `nome`."""
    if "sala_num" in slots:
        slots["sala"] = str(slots.pop("sala_num"))
    if "monstro_dito" in slots:
        slots["nome"] = slots.pop("monstro_dito")
    return slots


def _sheet(slots: dict[str, Any], rules: HouseRules, shown: str) -> dict[str, Any]:
    """'Ana nível 2 pv 12 con 1' → nome and the numbers that follow each attribute.

    A sign on a field other than an attribute modifier ('comida +2', 'pv menos 3') makes the
    sheet a change (`relativo`): then every field must carry its sign.
    """
    if "campo" in slots or "dano_em" in slots:
        return _said_change(slots, rules)
    raw = str(slots["ficha"])
    sheet = normalize(raw)  # "pv_max 12" → "pv max 12", "doze" → "12"
    words = [token.text for token in sheet.tokens]
    aliases = sorted(((fold(alias).split(), key) for key, names in rules.atributos.items()
                      for alias in names), key=lambda pair: -len(pair[0]))
    start = next((i for i in range(len(words)) if _alias_at(words, i, aliases)), len(words))
    if start == 0:
        raise ArgError.because("leitura.ficha_sem_nome", dito=raw)
    said = sheet.restore(" ".join(words[:start]))
    args: dict[str, Any] = {"nome": person_name(said, fold(said).split(), rules)}
    signed: set[str] = set()
    index = start
    while index < len(words):
        found = _alias_at(words, index, aliases)
        if found is None:
            raise ArgError.because("leitura.ficha_palavra", palavra=words[index],
                                   nome=args["nome"], campos=list(rules.atributos))
        size, key = found
        value, used, has_sign = _signed_number(words, index + size)
        if value is None and key == "dado_de_vida" and words[index + size:index + size + 1] \
                == ["d"]:  # "dado de vida d6" (normalized to "d 6")
            value, used, has_sign = _signed_number(words, index + size + 1)
            used += 1
        if value is None:
            raise ArgError.because("leitura.ficha_sem_numero",
                                   campo=" ".join(words[index:index + size]))
        args[key] = value
        signed |= {key} if has_sign else set()
        index += size + used
    return _relative_if_signed(args, signed, rules, shown)


def _relative_if_signed(args: dict[str, Any], signed: set[str], rules: HouseRules,
                        shown: str) -> dict[str, Any]:
    """'comida +2' is a change; mixing changes and values in one sheet is refused."""
    if not signed - set(rules.atributos_com_sinal):
        return args
    unsigned = [key for key in args if key != "nome" and key not in signed]
    if unsigned:
        raise ArgError.because("leitura.ficha_mistura", final=True, dito=shown,
                               valores=unsigned)
    return {**args, "relativo": True}


def _said_change(slots: dict[str, Any], rules: HouseRules) -> dict[str, Any]:
    """'Ana toma 3 de dano' → {"nome": "Ana", "pv": -3, "relativo": true}."""
    amount = int(slots.get("quantidade", 1))
    sign = -1 if slots["sinal"] == "menos" else 1
    field = str(slots["campo"] if "campo" in slots else slots["dano_em"])
    return {"nome": slots["personagem"], field: sign * amount, "relativo": True}


def _alias_at(words: list[str], index: int,
              aliases: list[tuple[list[str], str]]) -> tuple[int, str] | None:
    for alias, key in aliases:
        if words[index:index + len(alias)] == alias:
            return len(alias), key
    return None


def _signed_number(words: list[str], index: int) -> tuple[int | None, int, bool]:
    """'menos 1' → -1, '12' → 12, 'um' → 1; (None, 0, False) when no number is there.

    The last item says whether a sign was said ('mais 2', '+2', 'menos 1').
    """
    sign, used = 1, 0
    if index < len(words) and words[index] in {"menos", "mais"}:
        sign, used = (-1 if words[index] == "menos" else 1), 1
    if index + used >= len(words):
        return None, 0, False
    word = words[index + used]
    if word.isdigit():
        return sign * int(word), used + 1, used == 1
    if word in {"um", "uma"}:
        return sign, used + 1, used == 1
    return None, 0, False


def _answer(slots: dict[str, Any], rules: HouseRules, shown: str) -> dict[str, Any]:
    """Options are one word, compared without accents ('exaustão' → 'exaustao'), no digits.

    Words before the option name who answers: 'responder ana exaustao' (hassil cannot split
    two wildcards that touch, so the builder does).
    """
    if "opcao" in slots:
        said = str(slots["opcao"]).split()
        if "personagem" in slots and len(said) > 1 and fold(said[0]) in rules.artigos:
            said = said[1:]  # "a Carla prefere a exaustão"
        option = fold(said[-1])
        if any(char.isdigit() for char in fold(" ".join(said))):
            raise ArgError()  # "pedido 3 rolar" is not an option: another template reads it
        if {fold(word) for word in said} & set(rules.palavras_de_rolar):
            raise ArgError()  # "responder Carla rolar": the companion rolls, not an option
        if len(said) > 1:
            slots["personagem"] = _answerer(said[:-1], slots, rules)
        slots["opcao"] = option
    return slots


def _light(slots: dict[str, Any], rules: HouseRules, shown: str) -> dict[str, Any]:
    """'a Ana acende a tocha' lights a torch; 'acendam duas tochas' is refused (one per command)."""
    slots.pop("personagem", None)
    count = slots.pop("quantidade", 1)
    if count != 1:
        raise ArgError.because("leitura.uma_luz", final=True, dito=shown,
                               fonte=slots.get("fonte", "tocha"))
    return slots


def _answerer(words: list[str], slots: Mapping[str, Any], rules: HouseRules) -> str:
    """The name said before an option; refused when a name was already said or is too long."""
    limit = rules.wildcard("personagem").palavras
    if "personagem" in slots or len(words) > limit:
        raise ArgError()
    name = " ".join(words).strip(" ,;:.!?")  # "responder Ana, exaustão"
    return person_name(name, fold(name).split(), rules)


BUILDERS: dict[str, Builder] = {
    "responder": _answer,
    "rolar": _roll,
    "segredo": _secret,
    "marcha": _marching_order,
    "monstro": _monster,
    "personagem": _sheet,
    "luz": _light,
}


def treasure_or_item(slots: Mapping[str, Any], rules: HouseRules) -> str:
    """'achamos 50 moedas de ouro' is treasure; 'achamos 2 poções' is an item."""
    words = set(fold(str(slots.get("tipo", ""))).split())
    return "tesouro" if words & set(rules.palavras_de_tesouro) else "item"


def arguments(name: str, slots: dict[str, Any], rules: HouseRules,
              shown: str) -> dict[str, Any]:
    """The args of command `name` from its slots (its builder, else the slots as they are)."""
    return BUILDERS.get(name, _as_is)(slots, rules, shown)
