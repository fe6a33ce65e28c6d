"""Helpers shared by the test_panic test modules."""
from __future__ import annotations



from companion.engine.model import Character, State
from companion.engine.view import view_state
from companion.tables.files import Tables
from tests.play_helpers import FixedDice, Play
from tests.rules_helpers import changed_rules, new_character

# The seed's texts, copied independently of tables/panico.yaml.
J = {
    "1": "Insanidade. Se torna insano.",
    "2-4": "Afetado. Recebe uma aflição. Role 1d8 na Tabela K: Aflição e o personagem sofre um "
           "efeito de pânico aleatório.",
    "5-7": "Fúria. Ataca o ser mais próximo (até aliados) por 1d4 rodadas",
    "8-10": "Impactado. 2 de dano em Sabedoria",
    "11-13": "Catatonia. Não reage por 1d4 rodadas.",
    "14+": "Terror. Foge de todos os seres (até aliados) por 1d4 rodadas",
}
K = {
    1: "Fobia. Desenvolve um medo irracional do que desencadeou a sua fobia. Algumas fobias "
       "possíveis incluem: escuridão, espaços fechados, altura, natação, fogo, aranhas, insetos, "
       "criaturas voadoras, vermes, parasitas, cobras, mortos-vivos, demônios, diabos, fantasmas, "
       "morte, fracasso e o desconhecido.",
    2: "Medroso. Tudo parece uma ameaça. Cada som súbito é um prenúncio de morte, cada sombra "
       "esconde algo terrível. Você vive em constante tensão, olhos arregalados, respiração "
       "curta, sempre esperando o pior. você num momento de fraqueza.",
    3: "Delirante. A realidade se dobra e se confunde com memórias, sonhos e alucinações. Você "
       "vê coisas que não estão lá, escuta vozes sussurrando segredos inexistentes, e tem certeza "
       "de que o mundo está tentando lhe passar mensagens ocultas. Para você, nada é "
       "coincidência, e tudo tem um significado… mesmo que ninguém mais compreenda.",
    4: "Masoquista. A dor traz clareza. Você sente que o sofrimento o aproxima de alguma verdade "
       "maior, ou talvez sinta que merece cada ferida que carrega. Você encara os próprios "
       "machucados com uma estranha fascinação, buscando situações perigosas ou castigando-se "
       "emocional e fisicamente por suas falhas reais ou imaginadas.",
    5: "Desamparado. A sensação é de estar afundando lentamente num mar escuro. Você acredita que "
       "nada que faça importa. Você depende dos outros não por escolha, mas por incapacidade. Há "
       "um olhar vazio em seus olhos, como se já tivesse desistido de tentar, e uma tendência a "
       "se calar, mesmo diante da injustiça ou da dor.",
    6: "Paranóico. Tudo é suspeito. Você observa cada gesto alheio em busca de sinais de traição. "
       "A lealdade dos amigos é constantemente questionada, e qualquer gesto de gentileza parece "
       "mascarar uma intenção oculta. Você vive sob um véu de desconfiança, criando planos de "
       "contingência para todas as possibilidades — especialmente as que ninguém mais considera.",
    7: "Egoísta. O mundo gira ao seu redor, e as dores alheias são apenas obstáculos à sua "
       "vontade. Você sente que sua sobrevivência, seus desejos e sua liberdade estão acima de "
       "tudo. Você pode até agir de maneira cordial, mas tudo é transação: se não há ganho "
       "pessoal, não há interesse. Quando confrontado, sempre encontra um jeito de justificar "
       "suas ações como “necessárias”.",
    8: "Histérico. A emoção domina. Você passa de risadas descontroladas ao choro convulsivo em "
       "questão de minutos. Pequenas frustrações se tornam tragédias, e boas notícias viram "
       "euforia quase insana. Você é um furacão de sentimentos, incapaz de conter o que sente — e "
       "geralmente esperando que os outros acompanhem sua intensidade.",
}
K_NAMES = {1: "Fobia", 2: "Medroso", 3: "Delirante", 4: "Masoquista", 5: "Desamparado",
           6: "Paranóico", 7: "Egoísta", 8: "Histérico"}
I = {1: "DESV em todas as rolagens", 2: "Não adiciona modificadores de atributos às rolagens",
     3: "1d4 de dano de CON / dia"}


def party_play(tables, **ana: int) -> Play:
    ana_character = new_character(id="ana", name="Ana", **ana)
    return Play(tables, State(party=(ana_character, new_character(id="bia", name="Bia"))))


def ana(play: Play) -> Character:
    return next(c for c in play.state.party if c.id == "ana")


def panic(play: Play, *faces: int) -> list:
    """Ask Ana for a panic test and answer it with the companion rolling the given faces."""
    play("panico", personagem="Ana")
    return play("responder", actor="player:ana", rng=FixedDice(*faces))


def row_event(events: list) -> dict:
    found = [e for e in events if e.data.get("tabela") == "Tabela J: Pânico"]
    assert len(found) == 1
    return found[0]


# ---------------------------------------------------------------- Tabela I

def exhausted(level: int) -> Character:
    return new_character(id="ana", name="Ana", exhaustion=level, mods={"con": 2, "des": 1})


# ---------------------------------------------------------------- who sees what (docs/regras.md)

PRIVATE_EFFECT = "  efeito: jogador"
PRIVATE_AFFLICTION = "  aflicao: jogador"


def public_rules(tmp_path, effect: bool = True, affliction: bool = True) -> Tables:
    """tables/ with the panic's effect and/or affliction made public (a house setting)."""
    changed_rules(tmp_path, "panico.yaml", PRIVATE_EFFECT,
                  "  efeito: publico" if effect else PRIVATE_EFFECT)
    return changed_rules(tmp_path, "panico.yaml", PRIVATE_AFFLICTION,
                         "  aflicao: publico" if affliction else PRIVATE_AFFLICTION)


def names_seen(state: State, viewer: str, tables: Tables, who: str = "ana") -> list:
    return next(c["aflicoes"] for c in view_state(state, viewer, tables)["grupo"]
                if c["id"] == who)


# ---------------------------------------------------------------- what the card shows (issue 26)

def _card(events: list) -> str:
    """What a player's card headlines after the answer: the first `cartao` of the events."""
    found = [e.data["cartao"] for e in events if e.data.get("cartao")]
    assert found, [e.text for e in events]
    return found[0]


# ---------------------------------------------------------------- what the sheet keeps private (issue 26)

def _sheet(state: State, viewer: str, tables: Tables, who: str = "ana") -> dict:
    return next(c for c in view_state(state, viewer, tables)["grupo"] if c["id"] == who)
