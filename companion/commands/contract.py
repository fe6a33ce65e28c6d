"""The argument contract of every command (tables/argumentos.yaml, documented in
docs/commands.md): checked once, where text becomes a command (parse), for every input.

Only what the words themselves can get wrong is checked here: an argument the command does not
take, one it cannot go without, a value of the wrong kind, a value outside a closed set, a dice
modifier past the house limit. What depends on the rules (terrains, seasons, tables, a number's
bounds) or on the table's state (a character that does not exist) stays with the engine, which
says what it accepts. The refusals are said by code, from tables/narracao/argumentos.yaml.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from typing import Any, Iterable, Literal, Mapping

from companion.tables.dice_limits import DiceLimits
from companion.tables.errors import TableError
from companion.tables.narration import Narrator
from companion.tables.rulebook import InvalidValue, piece

Kind = Literal["nome", "nomes", "texto", "regra", "inteiro", "sim_nao", "escolha", "dados",
               "pedido"]
_MODIFIER = re.compile(r"([+-])\s*(\d+)(?!\s*d)", re.IGNORECASE)


@dataclass(frozen=True)
class ArgumentSpec:
    """One argument of one command: its kind, and what bounds it."""

    tipo: Kind
    obrigatorio: bool = False
    valores: tuple[str, ...] = ()

    def validate(self) -> None:
        if (self.tipo == "escolha") != bool(self.valores):
            raise InvalidValue("valores", "validacao.valores_so_em_escolha")


@dataclass(frozen=True)
class SheetArguments:
    """argumentos.yaml `ficha`: the command that takes every sheet field (the keys of
    frases.yaml `mesa.atributos`, which say how each is said) and the argument each field is."""

    comando: str
    campo: ArgumentSpec


@piece("argumentos")
@dataclass(frozen=True)
class ArgumentContract:
    """tables/argumentos.yaml: every command's arguments (the sheet fields come from frases.yaml,
    `with_sheet`; the largest dice modifier is the house's dice limits', tables/casa.yaml
    `limites_dados.modificador`)."""

    comandos: Mapping[str, Mapping[str, ArgumentSpec]]
    ficha: SheetArguments

    def validate(self) -> None:
        if self.ficha.comando not in self.comandos:
            raise InvalidValue("ficha.comando", "validacao.comando_conhecido")

    def with_sheet(self, fields: Iterable[str], narration: Narrator) -> ArgumentContract:
        """The whole contract: every sheet field (frases.yaml `mesa.atributos`) also an
        argument of `ficha.comando`; a field named like one of its own arguments is a
        TableError."""
        name = self.ficha.comando
        own = self.comandos[name]
        fields = list(fields)
        clash = [key for key in fields if key in own]
        if clash:
            raise TableError(narration.render("tabelas.campo_repetido",
                                              {"campos": clash, "comando": name}))
        sheet = {key: self.ficha.campo for key in fields}
        return replace(self, comandos={**self.comandos, name: {**own, **sheet}})


class ContractBroken(ValueError):
    """A command's arguments break the contract; the message (rendered from
    tables/narracao/argumentos.yaml) says what would be accepted."""


@dataclass(frozen=True)
class Problem:
    """What a value should have been, said by its code (tables/narracao/argumentos.yaml)."""

    code: str
    params: Mapping[str, Any] = field(default_factory=dict)

    @classmethod
    def because(cls, code: str, **params: Any) -> Problem:
        return cls(code, params)


def check(contract: ArgumentContract, limits: DiceLimits, narration: Narrator, name: str,
          args: Mapping[str, Any]) -> None:
    """Raise ContractBroken (in Portuguese, from tables/narracao/argumentos.yaml) unless `args`
    are what `name` takes, its dice within the house's `limits`."""
    specs = contract.comandos.get(name)
    if specs is None:
        raise _broken(narration, Problem.because("argumentos.sem_contrato", comando=name))
    unknown = sorted(set(args) - set(specs))
    if unknown:
        raise _broken(narration, Problem.because("argumentos.nao_leva", comando=name,
                                                 argumentos=unknown, aceitos=list(specs)))
    missing = [key for key, spec in specs.items() if spec.obrigatorio and key not in args]
    if missing:
        raise _broken(narration, Problem.because("argumentos.falta", comando=name,
                                                 argumentos=missing))
    for key, value in args.items():
        problem = _problem(specs[key], value, limits)
        if problem is not None:
            said = narration.render(problem.code, problem.params)
            raise _broken(narration, Problem.because(
                "argumentos.valor_invalido", argumento=key, valor=value,
                lista=isinstance(value, list), problema=said))


def _broken(narration: Narrator, problem: Problem) -> ContractBroken:
    return ContractBroken(narration.render(problem.code, problem.params))


def _problem(spec: ArgumentSpec, value: Any, limits: DiceLimits) -> Problem | None:
    """What would be accepted, when `value` is not; None when it is."""
    return _CHECKS[spec.tipo](spec, value, limits)


def _text(spec: ArgumentSpec, value: Any, limits: DiceLimits) -> Problem | None:
    return None if isinstance(value, str) and value.strip() else Problem.because(
        "argumentos.texto")


def _names(spec: ArgumentSpec, value: Any, limits: DiceLimits) -> Problem | None:
    ok = isinstance(value, list) and value and all(isinstance(v, str) and v.strip()
                                                  for v in value)
    return None if ok else Problem.because("argumentos.nomes")


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _integer(spec: ArgumentSpec, value: Any, limits: DiceLimits) -> Problem | None:
    return None if _whole(value) else Problem.because("argumentos.inteiro")


def _yes_no(spec: ArgumentSpec, value: Any, limits: DiceLimits) -> Problem | None:
    return None if isinstance(value, bool) else Problem.because("argumentos.sim_nao")


def _choice(spec: ArgumentSpec, value: Any, limits: DiceLimits) -> Problem | None:
    return None if value in spec.valores else Problem.because(
        "argumentos.escolha", valores=list(spec.valores))


def _dice(spec: ArgumentSpec, value: Any, limits: DiceLimits) -> Problem | None:
    if not isinstance(value, str) or not value.strip():
        return Problem.because("argumentos.dados")
    top = limits.modificador
    if any(int(amount) > top for _sign, amount in _MODIFIER.findall(value)):
        return Problem.because("argumentos.modificador", maximo=top)
    return None


def _prompt(spec: ArgumentSpec, value: Any, limits: DiceLimits) -> Problem | None:
    return None if _whole(value) else Problem.because("argumentos.pedido")


_CHECKS = {"nome": _text, "texto": _text, "regra": _text, "nomes": _names, "inteiro": _integer,
           "sim_nao": _yes_no, "escolha": _choice, "dados": _dice, "pedido": _prompt}
