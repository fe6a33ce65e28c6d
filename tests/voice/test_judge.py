"""The verdict on one utterance carries a code the pages decide on (never the reason's words)."""
from __future__ import annotations

from companion.commands.parse import ParseResult
from companion.tables.files import DEFAULT_DIR
from companion.tables.narration import load_narrator
from companion.tables.vocabulary import Command
from companion.voice.judge import judge
from companion.voice.recognizer import Utterance, Word


NARRATION = load_narrator(DEFAULT_DIR)  # why a verdict refuses: tables/narracao/voz_erros.yaml


def _said(*words: tuple[str, float]) -> Utterance:
    return Utterance(" ".join(w for w, _ in words),
                     tuple(Word(w, c, i, i + 1.0) for i, (w, c) in enumerate(words)))


def _reads_avancar(text: str) -> ParseResult:
    if text == "avançar":
        return ParseResult(command=Command("avancar", {}))
    return ParseResult(error=f"não entendi '{text}' como comando por voz")


def test_a_confident_command_is_accepted() -> None:
    heard = judge(_said(("avançar", 0.95)), _reads_avancar, 0.6, NARRATION)
    assert (heard.outcome, heard.command.name if heard.command else None) == ("aceito", "avancar")


def test_a_word_below_the_threshold_is_low_confidence() -> None:
    heard = judge(_said(("avançar", 0.4)), _reads_avancar, 0.6, NARRATION)
    assert heard.command is None and heard.outcome == "confianca_baixa"
    assert heard.reason == "confiança baixa em 'avançar' (0,40; o mínimo é 0,60)"


def test_a_text_the_reader_refuses_is_not_understood() -> None:
    heard = judge(_said(("xyzzy", 0.99)), _reads_avancar, 0.6, NARRATION)
    assert heard.command is None and heard.outcome == "nao_entendido"
    assert heard.reason.startswith("não entendi 'xyzzy'")


def test_a_command_the_rules_refuse_keeps_the_rules_reason() -> None:
    heard = judge(_said(("avançar", 0.95)), _reads_avancar, 0.6, NARRATION).refused(
        "não entendi por que, mas há um pedido esperando")
    assert heard.command is None and heard.outcome == "recusado"
    assert heard.reason == "não entendi por que, mas há um pedido esperando"
    assert heard.to_json()["motivo"] == heard.reason  # `ouvir --json` keeps its four keys
    assert set(heard.to_json()) == {"ouvi", "confianca", "comando", "motivo"}
