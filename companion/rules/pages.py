"""What the pages show on their buttons and titles (tables/paginas.yaml), checked at load.

The server sends `page_data(tables)` to every page in `boas_vindas` (key "paginas"): each
mode's name and quick buttons, the player's dice, the prompt cards' titles, the option
buttons' labels, what the seat controls say (the GM's list of seats, the player's "Sair"
and second-device link) and what the GM's last-result box shows (`ultimo_resultado`, which
`repetir` repeats too: companion.history.outcome). The pages keep none of these texts themselves.
"""
from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any, Mapping, get_args

from companion.tables.errors import TableError
from companion.tables.prompt_names import PromptLabels
from companion.tables.protocol import Mode
from companion.tables.rulebook import InvalidValue, piece, require_at_least
from companion.tables.files import Tables

FILE = "paginas"
DEFAULT_TITLE = "padrao"


@dataclass(frozen=True)
class ButtonSpec:
    rotulo: str
    comando: str


@dataclass(frozen=True)
class SeatTexts:
    """What the seat controls say (tables/paginas.yaml `lugares`); the page fills in {nome},
    {n} and {h}."""

    vazio: str
    livre: str
    no_ar: str
    no_ar_varios: str
    fora_do_ar: str
    ha_pouco: str  # how long ago a seat took its state ("há 12 min"), never a wall-clock hour
    ha_minutos: str
    ha_horas: str
    ha_horas_minutos: str
    ha_um_dia: str
    ha_dias: str
    liberar: str
    confirmar_liberar: str
    outro_aparelho: str
    outro_aparelho_ajuda: str
    fechar: str
    sair_pergunta: str
    sair_explica: str
    sair_confirmar: str
    sair_cancelar: str
    saiu: str
    pedido_novo: str  # the GM's list of requests to join (companion.server.doorway)
    pedido_livre: str
    aceitar: str
    recusar: str
    convidar: str  # a free seat's one-time link and QR code (companion.server.invites)
    convite_ajuda: str


@dataclass(frozen=True)
class RoundTexts:
    """The "Nesta rodada" line of the pages' "Agora" (tables/paginas.yaml `rodada`): who already
    did their activity in this travel round, and who owes rest after a failed forced march;
    the page fills in {nome}, {atividade} and {n}."""

    rotulo: str
    agiu: str
    deve_descanso: str
    deve_descanso_1: str


@dataclass(frozen=True)
class LastResultRules:
    """What the GM page's last-result box shows of a command's events, and `repetir` repeats
    (tables/paginas.yaml `ultimo_resultado`; companion.history.outcome ranks them, the server
    sends the ranking)."""

    linhas: int
    linhas_no_celular: int
    nao_sao_resultado: tuple[str, ...]  # event kinds that are never a result
    # the commands that ask a question (`tempo`, `estado`…): their answers open whole in the
    # GM's answer panel and are never a result (`repetir` passes over them)
    perguntas: tuple[str, ...] = ()

    def validate(self) -> None:
        require_at_least(self, 1, "linhas", "linhas_no_celular")


@piece(FILE)
@dataclass(frozen=True)
class PageTexts:
    """tables/paginas.yaml as written: each mode's name and buttons, the player's dice, the
    prompt cards' titles (`padrao` for a kind without one), the option labels and the seat
    controls' words."""

    modos: Mapping[str, str]
    botoes: Mapping[str, tuple[ButtonSpec, ...]]
    dados_jogador: tuple[str, ...]
    titulos_pedidos: Mapping[str, str]
    opcoes: Mapping[str, str]
    lugares: SeatTexts
    ultimo_resultado: LastResultRules
    rodada: RoundTexts

    def validate(self) -> None:
        if not self.dados_jogador:
            raise InvalidValue("dados_jogador", "validacao.lista_de_dados")
        for mode, buttons in self.botoes.items():
            if not buttons:
                raise InvalidValue(f"botoes.{mode}", "validacao.lista_de_botoes")
        if DEFAULT_TITLE not in self.titulos_pedidos:
            raise InvalidValue(f"titulos_pedidos.{DEFAULT_TITLE}", "validacao.titulo_padrao")


@dataclass(frozen=True)
class Button:
    label: str
    command: str


@dataclass(frozen=True)
class Pages:
    modes: dict[str, str]
    buttons: dict[str, tuple[Button, ...]]
    dice: tuple[str, ...]
    prompt_titles: dict[str, str]
    options: dict[str, str]
    seats: SeatTexts
    last_result: LastResultRules
    round: RoundTexts

    def to_json(self) -> dict[str, Any]:
        """The `paginas` of boas_vindas."""
        return {
            "modos": dict(self.modes),
            "botoes": {mode: [{"rotulo": b.label, "comando": b.command} for b in buttons]
                       for mode, buttons in self.buttons.items()},
            "dados_jogador": list(self.dice),
            "titulos_pedidos": dict(self.prompt_titles),
            "opcoes": dict(self.options),
            "lugares": asdict(self.seats),
            "rodada": asdict(self.round),
            # the page needs only how many lines to show: the server ranks them (`resultado`)
            "ultimo_resultado": {"linhas": self.last_result.linhas,
                                 "linhas_no_celular": self.last_result.linhas_no_celular},
        }


def _known(tables: Tables, file: str, where: str, keys: Any, known: Any, what: str) -> None:
    for key in keys:
        if key not in known:
            raise TableError(tables.narration.render("tabelas.nao_e", {
                "arquivo": file, "onde": where, "chave": key, "o_que": what,
                "aceitos": [str(k) for k in known]}))


def load(tables: Tables) -> Pages:
    """The pages' data of this load of the rules: built (and checked) once, then kept with
    the rules' typed pieces, so every boas_vindas and API call reuses it."""
    found = tables.pieces.get(Pages)
    if found is None:
        found = tables.pieces[Pages] = _build(tables)
    return found


def _build(tables: Tables) -> Pages:
    """tables/paginas.yaml as typed values; modes, prompt kinds and options it names must
    exist (the modes of protocol.Mode, pedidos.yaml `nomes_pedidos` and `nomes_opcoes`), and every
    mode has its name and its buttons."""
    raw = tables.piece(PageTexts)
    modes = get_args(Mode)  # the modes comandos.yaml names (protocol.ModeNames)
    a_mode = tables.narration.render("tabelas.um_modo", {})
    _known(tables, FILE, "modos", raw.modos, modes, a_mode)
    _known(tables, FILE, "botoes", raw.botoes, modes, a_mode)
    for mode in modes:
        for key, named in (("modos", raw.modos), ("botoes", raw.botoes)):
            if mode not in named:
                raise TableError(tables.narration.render(
                    "tabelas.falta_chave", {"arquivo": FILE, "chave": f"{key}.{mode}"}))
    kinds = [k for k in raw.titulos_pedidos if k != DEFAULT_TITLE]
    labels = tables.piece(PromptLabels)
    _known(tables, FILE, "titulos_pedidos", kinds, labels.nomes_pedidos,
           tables.narration.render("tabelas.um_tipo_de_pedido", {}))
    _known(tables, FILE, "opcoes", raw.opcoes, labels.nomes_opcoes,
           tables.narration.render("tabelas.uma_opcao_de_pedido", {}))
    for index, die in enumerate(raw.dados_jogador):
        if not (die.startswith("d") and die[1:].isdigit() and int(die[1:]) > 1):
            raise TableError(tables.narration.render("tabelas.dado_invalido", {
                "arquivo": FILE, "posicao": index, "dado": die}))
    return Pages(
        modes=dict(raw.modos),
        buttons={mode: tuple(Button(b.rotulo, b.comando) for b in buttons)
                 for mode, buttons in raw.botoes.items()},
        dice=raw.dados_jogador,
        prompt_titles=dict(raw.titulos_pedidos),
        options=dict(raw.opcoes),
        seats=raw.lugares,
        last_result=raw.ultimo_resultado,
        round=raw.rodada,
    )


def page_data(tables: Tables) -> dict[str, Any]:
    """The `paginas` of boas_vindas (from the data built once per load)."""
    return load(tables).to_json()
