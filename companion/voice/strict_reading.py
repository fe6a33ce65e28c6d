"""The strict voice reading: a recogniser's text is a command only when nothing is guessed.

Vosk's grammar mode builds a bigram model, not a strict grammar, so it can return confident
nonsense. A text is accepted only when a template reads it whole AND
- no value falls outside its list ("terreno deserto" is table talk by voice, not a command);
- every free name ({criatura}, {tipo}, {nome}, {personagem}…) is one of the voice lists of
  tables/voz.yaml or the session's character names;
- it is not a value alone ("floresta"), a command word alone, or a refusal form;
- a short answer ("sim", "não") is accepted only while a prompt waits for it (the context's
  rule, the chat's too: companion/commands/matching.py).
Confidence is the listener's business (per word, from the recogniser): this is text only.
"""
from __future__ import annotations

from typing import Any

from hassil.expression import ListReference, Sequence

from companion.commands.context import Known
from companion.commands.normalize import fold
from companion.commands.grammar import grammar
from companion.commands.matching import bare_answer
from companion.commands.text_readings import ParseResult, readings
from companion.tables.vocabulary import Command
from companion.tables.prompt_names import PromptLabels
from companion.tables.files import Tables
from companion.voice.config import voice_config

UNK = "[unk]"
_OPTION = "opcao"


def _refused(text: str, tables: Tables, why: str | None = None) -> ParseResult:
    words = tables.narration
    return ParseResult(error=words.render("voz.nao_entendi", {
        "texto": " ".join(text.split())[:60], "motivo": why,
        "dica": words.render("voz.dica", {})}))


def read_voice(text: str, tables: Tables, known: Known = Known()) -> ParseResult:
    """The command a recogniser's text means, or why voice does not take it. Never raises."""
    said = " ".join(str(text).split())
    if not said:
        return ParseResult(error=tables.narration.render(
            "voz.nao_ouvi", {"dica": tables.narration.render("voz.dica", {})}))
    if UNK in said.split():
        return _refused(said, tables, tables.narration.render("voz.fora_da_lista", {}))
    if _chat_only(said, tables):
        return _refused(said, tables, tables.narration.render("voz.so_pelo_chat", {}))
    why: str | None = None
    for reading in readings(said, tables, known):
        problem = _distrust(reading.match, reading.result, tables, known)
        if problem is None and reading.result.command is not None:
            return ParseResult(command=_clean(reading.result.command, tables, known))
        answer = bare_answer(reading.match)
        if problem is None and answer is not None:
            problem = tables.narration.render("voz.ninguem_espera", {"resposta": answer})
        why = why or problem
    return _refused(said, tables, why)


def _chat_only(said: str, tables: Tables) -> bool:
    config = voice_config(tables)
    words = " ".join(fold(said).replace(",", " ").split()).split()
    if words[:1] == [config.wake_word]:
        words = words[1:]
    return " ".join(words) in config.chat_only


def bare_value(sentence: Any) -> bool:
    """A template that is one list value alone ("{terreno}"): table talk, by voice."""
    return _only_a_list(sentence.expression)


def _only_a_list(expression: Any) -> bool:
    if isinstance(expression, ListReference):
        return True
    items = getattr(expression, "items", None)
    return isinstance(expression, Sequence) and items is not None and len(items) == 1 \
        and _only_a_list(items[0])


def _clean(command: Command, tables: Tables, known: Known) -> Command:
    args = dict(command.args)
    if isinstance(args.get("ordem"), list):  # "ana bia e caio": no commas in speech
        allowed = _people(tables, known)
        args["ordem"] = [part for name in args["ordem"] for part in _split_names(name, allowed)]
    return Command(command.name, args, command.actor)


def _people(tables: Tables, known: Known) -> set[str]:
    return set(voice_config(tables).free_lists.get("personagem", ())) | known.names


def _split_names(name: str, allowed: set[str]) -> list[str]:
    """'Ana Bia' → ['Ana', 'Bia'] when it is not one known name but each word is."""
    if " ".join(fold(name).split()) in allowed:
        return [name]
    words = name.split()
    return words if all(fold(w) in allowed for w in words) else [name]


def _distrust(match: Any, result: ParseResult, tables: Tables, known: Known) -> str | None:
    """Why this reading is not trusted by voice (None: trusted)."""
    metadata = match.intent_metadata or {}
    if metadata.get("falta") or metadata.get("recusa"):
        return tables.narration.render("voz.incompleto", {})
    if match.intent_sentence is not None and bare_value(match.intent_sentence):
        return tables.narration.render("voz.so_um_valor", {})
    for entity in match.entities_list:
        if entity.is_wildcard and entity.name in _NAMES_IN_ARGS:
            problem = _names_in(result, _NAMES_IN_ARGS[entity.name], tables, known)
        elif entity.is_wildcard:
            problem = _free_value(entity.name, str(entity.value), tables, known)
        else:
            continue
        if problem:
            return problem
    return _table_talk_value(match, result, tables, known)


def _free_value(slot: str, value: str, tables: Tables, known: Known) -> str | None:
    """A wildcard is trusted only when its words are in a voice list (or the party)."""
    config = voice_config(tables)
    said = " ".join(fold(value).split())
    if slot == _OPTION:
        option = _without_article(said, tables)
        return None if option in known.waiting or option in prompt_options(tables) else \
            tables.narration.render("voz.nao_e_opcao", {"valor": value})
    allowed = set(config.free_lists.get(slot, ())) | known.learned_in(slot)
    if slot == "personagem":
        allowed |= known.names
    if said in allowed or _without_article(said, tables) in allowed:
        return None
    if slot == "personagem" and known.any_name and _can_be_a_name(said, tables):
        return None
    return tables.narration.render("voz.fora_das_listas", {"valor": value})


# wildcards the builder turns into character names: trusted when every name is known
_NAMES_IN_ARGS = {"ordem": "ordem", "ficha": "nome"}


def _names_in(result: ParseResult, key: str, tables: Tables, known: Known) -> str | None:
    """'ordem de marcha ana bia e caio', 'personagem ana nível dois': known names only."""
    if result.command is None:
        return tables.narration.render("voz.incompleto", {})
    value = result.command.args.get(key)
    names = value if isinstance(value, list) else [value]
    allowed = _people(tables, known)
    unknown = [str(n) for n in names
               if not all(part in allowed or (known.any_name and _can_be_a_name(part, tables))
                          for part in [" ".join(fold(p).split())
                                       for p in _split_names(str(n), allowed)])]
    return tables.narration.render("voz.personagem_desconhecido", {"nome": unknown[0]}) \
        if unknown else None


def _can_be_a_name(said: str, tables: Tables) -> bool:
    """One or two plain words that are not a creature, a thing, a spell or a grammar word."""
    words = _without_article(said, tables).split()
    if not 1 <= len(words) <= 2 or not all(w.isalpha() for w in words):
        return False
    config = voice_config(tables)
    things = {w for name in ("criatura", "tipo", "nome", "alvo", "condicao")
              for phrase in config.free_lists.get(name, ()) for w in phrase.split()}
    rules = grammar(tables).rules
    not_names = set(rules.nao_sao_nomes) | set(rules.varios_personagens) | \
        set(config.not_names)
    return not any(w in things or w in not_names or w in config.accents_folded_grammar
                   for w in words)


def _without_article(said: str, tables: Tables) -> str:
    words = said.split()
    articles = set(grammar(tables).rules.artigos)
    return " ".join(words[1:]) if len(words) > 1 and words[0] in articles else said


def prompt_options(tables: Tables) -> frozenset[str]:
    """Every option a prompt can offer (pedidos.yaml nomes_opcoes: values and their names)."""
    names = tables.piece(PromptLabels).nomes_opcoes
    return frozenset(" ".join(fold(str(w)).split()) for pair in names.items() for w in pair)


def _table_talk_value(match: Any, result: ParseResult, tables: Tables,
                      known: Known) -> str | None:
    """'deu doze', 'o Paulo tirou doze', 'a Carla rola os dados': what players say all
    evening; an answer by voice only while a prompt waits for a roll, or with 'responder'."""
    command = result.command
    if match.intent.name != "responder" or known.roll_waiting or command is None:
        return None
    config = voice_config(tables)
    words = " ".join(fold(str(match.original_text or "")).split()).split()
    first = words[1:2] if words[:1] == [config.wake_word] else words[:1]
    if first and first[0] in config.value_only_with_prompt:
        return tables.narration.render("voz.nenhum_valor_de_dado", {})
    if "opcao" not in command.args and not set(words) & config.answer_words:
        return tables.narration.render("voz.nenhuma_resposta", {})
    return None
