"""What the GM says at a Brazilian table, by voice as by chat: fillers around commands, the
free names of old-school games (spells, items, treasure, creatures), and the names a campaign
taught its voice lists."""
from __future__ import annotations

import pytest

from companion.commands.normalize import fold
from companion.commands.parse import parse
from companion.commands.grammar import grammar
from companion.tables.files import Tables
from companion.voice.config import voice_config
from companion.voice.phrases import filler_phrases, grammar_words, phrase_list
from companion.voice.strict_reading import Known, read_voice
from companion.voice.spoken import say


def _fillers(tables: Tables) -> list[str]:
    config = voice_config(tables)
    return [say(f, config.accents) for f in dict.fromkeys(
        " ".join(fold(w).split()) for w in grammar(tables).intents.skip_words)
        if f != config.wake_word and not any(ch.isdigit() for ch in f)]


def test_every_filler_can_be_heard(tables: Tables) -> None:
    words = set(grammar_words(phrase_list(tables)))
    fillers = _fillers(tables)
    assert {"bora", "por favor", "então", "aí", "beleza", "tá bom", "vamos lá"} <= set(fillers)
    assert [f for f in fillers if not set(f.split()) <= words] == []


def test_fillers_do_not_multiply_the_list(tables: Tables) -> None:
    config = voice_config(tables)
    said = list(filler_phrases(tables))
    assert len(said) <= len(_fillers(tables)) * config.filler_phrases
    assert len(said) < 0.1 * len(phrase_list(tables))


@pytest.mark.parametrize("text, name", [
    ("bora avançar", "avancar"),
    ("avançar por favor", "avancar"),
    ("então vamos acampar", "acampar"),
    ("aí acende a tocha", "luz"),
    ("beleza, pode explorar", None),  # "pode" is not a filler: not a command
    ("beleza explorar", "explorar"),
    ("tá bom, descansar", "descansar"),
    ("simbora rolar um d vinte", "rolar"),
    ("e aí, próximo turno", "turno"),
    ("vamos nessa, fugir", "fugir"),
    ("olha, desfazer", "desfazer"),
    ("acender a lanterna, valeu", "luz"),
    ("então bora descansar por favor", "descansar"),
    ("mestre, bora entrar na masmorra", "masmorra"),
])
def test_fillers_around_a_command_by_chat_and_voice(text: str, name: str | None,
                                                    tables: Tables) -> None:
    chat = parse(text, tables)
    spoken = " ".join(fold(text).replace(",", " ").split())  # how the recogniser writes it
    voice = read_voice(say(spoken, voice_config(tables).accents), tables)
    assert (chat.command.name if chat.command else None) == name, chat.error
    assert (voice.command.name if voice.command else None) == name, voice.error


# ---------------------------------------------------------------- the names of old-school games

def test_the_free_name_lists_are_rich(tables: Tables) -> None:
    lists = voice_config(tables).free_lists
    assert len(lists["criatura"]) >= 300 and len(lists["tipo"]) >= 300
    assert len(lists["magia"]) >= 100
    assert set(lists["nome"]) == set(lists["magia"]) | set(lists["criatura"])
    for said in ("escudo arcano", "armadura arcana", "misseis magicos", "sono", "luz"):
        assert said in lists["magia"]
    for said in ("espada longa", "espadas longas", "mapa antigo", "pocao de cura",
                 "pocoes de cura", "moedas de ouro"):
        assert said in lists["tipo"]
    for said in ("goblins", "orcs", "esqueletos", "dragao vermelho", "lobos atrozes"):
        assert said in lists["criatura"]


def test_every_listed_name_can_be_heard(tables: Tables) -> None:
    config = voice_config(tables)
    words = set(grammar_words(phrase_list(tables)))
    unheard = [name for slot in ("criatura", "tipo", "nome", "alvo", "motivo", "condicao")
               for name in config.free_lists[slot]
               if not set(say(name, config.accents).split()) <= words]
    assert unheard == []


def test_names_fit_their_slots(tables: Tables) -> None:
    """A name the chat could not read back would be a phrase the voice never accepts: no
    filler inside it (fillers are dropped), no number, within its slot's word limit, and not
    starting with a word that is not a name where the slot refuses those."""
    config, compiled = voice_config(tables), grammar(tables)
    fillers = {" ".join(fold(w).split()) for w in compiled.intents.skip_words}
    wrong = []
    for slot in ("criatura", "monstro_dito", "tipo", "nome", "condicao"):
        spec = compiled.rules.wildcard(slot)
        for name in config.free_lists[slot]:
            words = name.split()
            if (any(f" {f} " in f" {name} " for f in fillers) or len(words) > spec.palavras
                    or any(w.isdigit() for w in words)
                    or (spec.filtra_inicio and words[0] in compiled.rules.nao_sao_nomes)):
                wrong.append((slot, name))
    assert wrong == []


@pytest.mark.parametrize("text, name, args", [
    ("magia escudo arcano por seis turnos", "magia", {"nome": "escudo arcano", "turnos": 6}),
    ("lançar armadura arcana por uma hora", "magia", {"nome": "armadura arcana", "horas": 1}),
    ("magia mísseis mágicos por um turno", "magia", {"nome": "mísseis mágicos", "turnos": 1}),
    ("matamos três esqueletos", "derrotados", {"quantidade": 3, "criatura": "esqueletos"}),
    ("matamos dois lobos atrozes", "derrotados", {"quantidade": 2, "criatura": "lobos atrozes"}),
    ("monstro dragão vermelho na sala três", "monstro",
     {"nome": "dragão vermelho", "sala": "3"}),
    ("achamos um mapa antigo", "item", {"quantidade": 1, "tipo": "mapa antigo"}),
    ("item duas poções de cura", "item", {"quantidade": 2, "tipo": "poções de cura"}),
    ("achamos uma espada longa", "item", {"quantidade": 1, "tipo": "espada longa"}),
    ("achamos trinta peças de prata", "tesouro", {"quantidade": 30, "tipo": "peças de prata"}),
])
def test_old_school_names_by_voice_and_chat(text: str, name: str, args: dict,
                                            tables: Tables) -> None:
    voice = read_voice(text, tables)
    assert voice.command is not None, voice.error
    assert (voice.command.name, dict(voice.command.args)) == (name, args)
    chat = parse(text, tables)
    assert chat.command is not None and chat.command.name == name


@pytest.mark.parametrize("text", [
    "bora pedir uma pizza", "então, o que vocês acham", "beleza, pessoal", "por favor passa o sal",
    "aí ele falou que sim", "tá bom, tá bom", "bora lá", "valeu galera", "sim, eu acho",
    "não sei", "mestre, por favor", "então tá", "ok", "agora sim", "é isso aí", "tá certo",
])
def test_fillers_alone_or_with_table_talk_are_not_commands(text: str, tables: Tables) -> None:
    waiting = Known.of(["Ana"], ["sim", "nao"], roll_waiting=True)  # even with a prompt waiting
    assert parse(text, tables, waiting).command is None
    spoken = say(" ".join(fold(text).replace(",", " ").split()), voice_config(tables).accents)
    assert read_voice(spoken, tables, waiting).command is None
