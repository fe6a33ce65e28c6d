"""Accept or refuse one utterance: every word confident enough, and the text read strictly."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Literal, Sequence

from companion.commands.text_readings import ParseResult
from companion.tables.narration import Narrator
from companion.tables.vocabulary import Command
from companion.voice.recognizer import Utterance

Reader = Callable[[str], ParseResult]
ACCEPTED = "aceito"
# Why an utterance did or did not become a command, for the pages (the `voz` report's
# `codigo`): they decide what to show from it, never from the wording of `motivo`.
Outcome = Literal["aceito", "confianca_baixa", "nao_entendido", "recusado"]


@dataclass(frozen=True)
class Heard:
    """What was heard and what it means (the `companion ouvir` object)."""

    text: str
    confidence: float
    command: Command | None
    reason: str
    outcome: Outcome = "aceito"

    def refused(self, reason: str) -> Heard:
        """The same utterance, read as a command the rules then refused for `reason`."""
        return Heard(self.text, self.confidence, None, reason, "recusado")

    def to_json(self) -> dict[str, Any]:
        command = None if self.command is None else \
            {"command": self.command.name, "args": dict(self.command.args)}
        return {"ouvi": self.text, "confianca": round(self.confidence, 2), "comando": command,
                "motivo": self.reason}


def judge(utterance: Utterance, reader: Reader, threshold: float, narration: Narrator) -> Heard:
    """A command only when every word passes the threshold and the reader takes the text (why
    not: tables/narracao/voz_erros.yaml)."""
    low = [w for w in utterance.words if w.confidence < threshold]
    if low:
        word = min(low, key=lambda w: w.confidence)
        return Heard(utterance.text, utterance.confidence, None,
                     narration.render("voz_erros.confianca_baixa", {
                         "palavra": word.text, "confianca": _decimal(word.confidence),
                         "minimo": _decimal(threshold)}), "confianca_baixa")
    result = reader(utterance.text)
    if result.command is None:
        return Heard(utterance.text, utterance.confidence, None,
                     result.error or narration.render("voz_erros.nao_entendi", {}),
                     "nao_entendido")
    return Heard(utterance.text, utterance.confidence, result.command, ACCEPTED)


def phrase_reader(phrases: Sequence[str], narration: Narrator) -> Reader:
    """A reader for any language: a text is accepted only when it is one of the phrases."""
    known = {" ".join(p.split()) for p in phrases}

    def read(text: str) -> ParseResult:
        said = " ".join(text.split())
        if said in known:
            return ParseResult(command=Command("frase", {"texto": said}))
        return ParseResult(error=narration.render("voz_erros.nao_e_frase", {"frase": said}))
    return read


def _decimal(value: float) -> str:
    return f"{value:.2f}".replace(".", ",")
