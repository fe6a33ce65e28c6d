"""Issue 3's acceptance test: a whole evening on three phone-sized Chromium pages.

One session (fixed seed) and one server on loopback for the module; the GM page (/mestre) and
two player pages (/jogador, Ana and Bia joining by name) stay open through three scenes that
run in order, each building on the state the previous one left:

1. a travel day — six group activities fill the day's six rounds and every page turns to Dia 2;
   the rolls reach the players' logs, Tabela C (getting lost) only the GM's;
2. a dungeon delve — enter, light a torch, explore turns that burn it down on the players'
   pages, then a panic test only Ana's phone is asked to roll;
3. a chase — flee, and escape successes until the party gets away.

The GM acts through the page's quick buttons where they exist and the "Comando" box otherwise.
The last test checks what must hold over the whole evening: no JavaScript error on any page,
no request outside the loopback server, no GM-only text on a player's page.
"""
from __future__ import annotations

from typing import Any, Iterator

import pytest
from playwright.sync_api import expect

from tests.browser_helpers import (
    WAIT_MS,
    LiveTable,
    GM_TOKEN,
    gm_only_texts,
    log_seqs,
    screenshot,
    seen_by,
    seq_seen_by,
    wait_until,
)


SEED = 7
TRAVEL_DAY = ("Explorar", "Forragear", "Acampar", "Descansar", "Avançar", "Avançar")
LOST_TABLE = "Tabela C: Perdendo a direção"
PLAYERS = {"ana": "Ana", "bia": "Bia"}


class Evening(LiveTable):
    """The live session and server, the three phone pages, and what they did."""

    def __init__(self, session: Any, server: Any, browser: Any) -> None:
        super().__init__(session, server, browser)
        self.pages: dict[str, Any] = {}

    # ------------------------------------------------------------------ pages

    def open(self, who: str, path: str) -> Any:
        """A page in its own phone-sized touch context; console errors count too."""
        page = self.page(who, path, self.context(has_touch=True, is_mobile=True))
        page.on("console", lambda message: message.type == "error"
                and self.errors.append(f"{who} (console): {message.text}"))
        self.pages[who] = page
        return page

    def join(self, name: str) -> Any:
        page = self.open(name.lower(), "/jogador")
        page.get_by_label("Nome").fill(name)
        page.get_by_role("button", name="Entrar").click()
        expect(page.locator("#who")).to_have_text(f"· {name}")
        expect(page.locator("#status")).to_have_class("status on")
        track_estados(page)
        return page

    def open_gm(self) -> Any:
        page = self.open("gm", f"/mestre?token={GM_TOKEN}")
        expect(page.locator("#status")).to_have_class("status on")
        track_estados(page)
        return page

    @property
    def gm(self) -> Any:
        return self.pages["gm"]

    @property
    def ana(self) -> Any:
        return self.pages["ana"]

    @property
    def bia(self) -> Any:
        return self.pages["bia"]

    def players(self) -> list[Any]:
        return [self.pages[who] for who in PLAYERS]

    # ------------------------------------------------------------------ acting

    def _acted(self, what: str, before: int) -> list[dict]:
        """The events an action produced, once the GM page shows the last of them."""
        error = self.gm.locator("#command-error")
        try:
            wait_until(lambda: len(self.events()) > before, timeout=WAIT_MS / 1000)
        except AssertionError:
            shown = error.inner_text() if error.is_visible() else "(nenhum)"
            raise AssertionError(f"{what} não produziu eventos; erro na página: {shown}") from None
        fresh = self.events()[before:]
        expect(self.gm.locator(f"#log li[data-seq='{fresh[-1]['seq']}']")).to_have_count(1)
        expect(error).to_be_hidden()
        return fresh

    def tap(self, label: str, where: str = "#quick") -> list[dict]:
        """Tap one of the GM page's quick buttons (by default, the ones of the current mode)."""
        before = len(self.events())
        self.gm.locator(where).get_by_role("button", name=label, exact=True).click()
        return self._acted(f"o botão {label!r}", before)

    def command(self, text: str) -> list[dict]:
        """Type a command in the GM page's "Comando" box and press Enter."""
        before = len(self.events())
        box = self.gm.get_by_label("Comando")
        box.fill(text)
        box.press("Enter")
        fresh = self._acted(repr(text), before)
        expect(box).to_have_value("")
        return fresh

    def caught_up(self, who: str) -> None:
        """Wait until a page shows every event its viewer may see, and an estado sent after."""
        page = self.pages[who]
        wanted = {e["seq"] for e in seen_by(self.events(), viewer_of(who))}
        wait_until(lambda: wanted <= set(log_seqs(page)), timeout=WAIT_MS / 1000,
                   message=f"a página de {who} não recebeu todos os eventos")
        wait_until(lambda: estado_after(page) >= max(wanted), timeout=WAIT_MS / 1000,
                   message=f"a página de {who} não recebeu o estado depois dos eventos")

    def entry(self, page: Any, event: dict) -> Any:
        """The page's log entry for one event of the log, found by the number this page's
        connection gave it; an event not for this page is looked for by kind and text."""
        who = next(w for w, p in self.pages.items() if p is page)
        seq = seq_seen_by(self.events(), event, viewer_of(who))
        if seq is None:
            return page.locator(f"#log li[data-kind='{event['kind']}']", has_text=event["text"])
        return page.locator(f"#log li[data-seq='{seq}']")

    def seq_on(self, who: str, event: dict) -> int | None:
        return seq_seen_by(self.events(), event, viewer_of(who))

def track_estados(page: Any) -> None:
    """Note, for each `estado` or `estado_mudou` a page renders, the last event seq it had seen by then (the
    page's own listeners were registered first, so they have run when ours runs)."""
    page.evaluate("""() => {
        const socket = window.mesa.conn.socket;
        window.__seq = 0;
        window.__estadoAfter = 0;
        const saw = (e) => { window.__seq = Math.max(window.__seq, Number(e.seq) || 0); };
        socket.on("evento", saw);
        socket.on("eventos", (list) => list.forEach(saw));
        socket.on("estado", () => { window.__estadoAfter = window.__seq; });
        socket.on("estado_mudou", () => { window.__estadoAfter = window.__seq; });
    }""")


def estado_after(page: Any) -> int:
    """The last event seq a page had when its latest estado arrived."""
    return page.evaluate("window.__estadoAfter")


def viewer_of(who: str) -> str:
    return "gm" if who == "gm" else f"player:{who}"


def body_text(page: Any) -> str:
    return page.locator("body").inner_text()


# ---------------------------------------------------------------------------- fixtures


@pytest.fixture(scope="module")
def evening(tmp_path_factory: Any, tables: Any, browser: Any) -> Iterator[Evening]:
    from companion.server.app import start_in_thread
    from companion.session import Session

    path = tmp_path_factory.mktemp("noite") / "mesa.db"
    session = Session.open(path, SEED, tables, gm_token=GM_TOKEN)
    server = start_in_thread(session)
    live = Evening(session, server, browser)
    try:
        live.join("Ana")
        live.join("Bia")
        live.open_gm()
        yield live
    finally:
        live.close()
        server.stop()
        session.close()


# ---------------------------------------------------------------------------- the evening


def test_travel_day(evening: Evening) -> None:
    gm, ana, bia = evening.gm, evening.ana, evening.bia
    for page in (gm, ana, bia):
        expect(page.locator("#glance")).to_contain_text("Dia 1 · rodada 1 de 6")
    evening.command("personagem Ana nível 2 pv máximo 12 pv 12 con 1")
    expect(ana.locator("#me")).to_contain_text("nível 2")
    expect(ana.locator("#me .stat", has_text="PV")).to_have_text("PV 12/12")
    expect(bia.locator("#party")).to_contain_text("nível 2")
    evening.command("estação outono")
    evening.command("terreno floresta")
    for page in (ana, bia):
        expect(page.locator("#glance")).to_contain_text("Outono")
        expect(page.locator("#glance")).to_contain_text("Floresta")

    day: list[dict] = []
    for done, label in enumerate(TRAVEL_DAY, start=1):
        day += evening.tap(label)
        if done < len(TRAVEL_DAY):
            expect(gm.locator("#glance")).to_contain_text(f"Dia 1 · rodada {done + 1} de 6")
    for page in (gm, ana, bia):
        expect(page.locator("#glance")).to_contain_text("Dia 2 · rodada 1 de 6")
    assert any(e["data"].get("tabela") == LOST_TABLE for e in day), "avançar não rolou a Tabela C"

    public_rolls = [e for e in day if e["kind"] == "rolagem" and e["visibility"] == "public"]
    assert {e["data"]["tabela"] for e in public_rolls} >= {"Clima", "Tabela E: Forragear/Caçar/Pescar"}
    for page in (ana, bia):
        for roll in public_rolls:
            item = evening.entry(page, roll)
            expect(item).to_contain_text(roll["data"]["tabela"])
            expect(item.locator(".total")).to_have_text(str(roll["data"]["total"]))
            expect(item.locator(".result")).to_have_text(roll["data"]["resultado"])

    lost = [e for e in day if e["data"].get("tabela") == LOST_TABLE]
    assert lost and all(e["visibility"] == "gm" for e in lost)
    for roll in lost:
        expect(evening.entry(gm, roll)).to_contain_text(LOST_TABLE)
        expect(evening.entry(gm, roll).locator(".badge.gm")).to_have_text("Só o Mestre")
    for who in PLAYERS:
        evening.caught_up(who)
        page = evening.pages[who]
        for roll in lost:
            expect(evening.entry(page, roll)).to_have_count(0)
        assert "Tabela C" not in body_text(page)
    screenshot(gm, "noite-mestre-dia2")
    screenshot(ana, "noite-ana-dia2")


def test_dungeon_delve_with_a_panic_test(evening: Evening) -> None:
    gm, ana, bia = evening.gm, evening.ana, evening.bia
    evening.tap("Entrar na masmorra")
    for page in (gm, ana, bia):
        expect(page.locator("#glance")).to_contain_text("turno 0 na masmorra")
        expect(page.locator("#glance")).to_contain_text("Escuridão total")
    evening.tap("Acender tocha")
    for page in (ana, bia):
        expect(page.locator("#glance")).to_contain_text("Tocha: 6 turnos")
    for left in (5, 4, 3):
        evening.tap("Turno")
        for page in (ana, bia):
            expect(page.locator("#glance")).to_contain_text(f"Tocha: {left} turnos")
            expect(page.locator("#glance")).to_contain_text(f"turno {6 - left} na masmorra")

    asked = evening.command("pânico Ana")
    prompt = next(e for e in asked if e["kind"] == "pedido")
    assert prompt["visibility"] == "player:ana"
    card = ana.locator(".prompt")
    expect(card).to_contain_text("Teste de pânico")
    expect(card).to_contain_text(prompt["text"])
    expect(gm.locator("#prompts .prompt")).to_contain_text("Ana: teste de pânico")
    expect(evening.entry(bia, asked[0])).to_have_count(1)  # "Teste de pânico para Ana." is public
    wait_until(lambda: estado_after(bia) >= evening.seq_on("bia", asked[0]),
               message="Bia não recebeu o estado depois do pânico")
    expect(bia.locator(".prompt")).to_have_count(0)
    assert bia.evaluate("window.mesa.state.pedidos") == []
    expect(evening.entry(bia, prompt)).to_have_count(0)
    screenshot(ana, "noite-ana-panico")

    sanity = next(c.sanity for c in evening.session.state.party if c.id == "ana")
    before = len(evening.events())
    card.get_by_role("button", name="Rolar", exact=True).click()
    wait_until(lambda: any(e["kind"] == "resposta" for e in evening.events()[before:]),
               message="a rolagem de Ana não chegou ao servidor")
    outcome = evening.events()[before:]
    rolled = next(e for e in outcome if e["kind"] == "rolagem")
    assert rolled["data"]["tabela"] == "Teste de pânico" and rolled["data"]["dados"] == "1d20"
    public = [e for e in outcome if e["visibility"] == "public"]
    private = [e for e in outcome if e["visibility"] == "player:ana"]
    assert public and private
    passed = rolled["data"]["total"] <= sanity  # the panic test is a d20 roll-under Sanidade
    assert any(("passou" if passed else "falhou") in e["text"] for e in public)
    for event in outcome:
        expect(evening.entry(gm, event)).to_have_count(1)
        expect(evening.entry(ana, event)).to_have_count(1)
    for event in public:
        expect(evening.entry(bia, event)).to_have_count(1)
        if event["kind"] != "rolagem":
            expect(evening.entry(bia, event)).to_contain_text(event["text"])
    for event in private:  # Ana's own die and answer are hers (and the GM's) only
        expect(evening.entry(bia, event)).to_have_count(0)
    expect(card).to_have_count(0)
    expect(gm.locator("#prompts .prompt")).to_have_count(0)
    expect(gm.locator("#prompts-card")).to_be_hidden()
    screenshot(bia, "noite-bia-panico")


def test_chase_until_the_party_escapes(evening: Evening) -> None:
    gm, ana, bia = evening.gm, evening.ana, evening.bia
    evening.tap("Fugir")
    for page in (gm, ana, bia):
        expect(page.locator("#glance .fact.alert")).to_contain_text("Fuga declarada")
    evening.tap("Fuga sucesso")  # the declared flight works: the chase starts
    for page in (ana, bia):
        expect(page.locator("#glance .fact.alert .v")).to_have_text(
            "Distância Neutra · placar 0 · turno 1")
    evening.tap("Fuga sucesso")
    for page in (ana, bia):
        expect(page.locator("#glance .fact.alert .v")).to_have_text(
            "Distância Maior · placar +1 · turno 2")
    screenshot(bia, "noite-bia-perseguicao")
    escaped = evening.tap("Fuga sucesso")
    end = next(e for e in escaped if e["data"].get("fim") == "escaparam")
    assert end["visibility"] == "public"
    for page in (gm, ana, bia):
        expect(evening.entry(page, end)).to_have_text(end["text"])
        expect(page.locator("#glance .fact.alert")).to_have_count(0)  # no chase any more
    assert evening.session.state.chase is None


def test_nothing_leaked_or_left_the_table(evening: Evening) -> None:
    """Over the whole evening: GM-only texts stayed on the GM's page, no request left the
    loopback server, no page raised or logged a JavaScript error."""
    summary = evening.tap("Estado", where="#always")  # one last public event and estado
    assert any(e["kind"] == "estado" and e["visibility"] == "gm" for e in summary)
    events = evening.events()
    assert len(events) > 60, "a noite deveria ter produzido muitos eventos"
    for who in ("gm", *PLAYERS):
        evening.caught_up(who)
    hidden = gm_only_texts(events)
    secret_rolls = ({e["data"]["tabela"] for e in events if e["visibility"] == "gm"
                     and e["kind"] == "rolagem"}
                    - {e["data"].get("tabela") for e in events if e["visibility"] != "gm"})
    assert hidden and {LOST_TABLE, "Encontro aleatório"} <= secret_rolls
    gm_text = body_text(evening.gm)
    assert all(table in gm_text for table in secret_rolls)
    for who in PLAYERS:
        page = evening.pages[who]
        shown = body_text(page)
        leaked = sorted(t for t in hidden | secret_rolls if t in shown)
        assert leaked == [], f"textos do Mestre na página de {who}: {leaked}"
        assert "Só o Mestre" not in shown
        assert page.locator("#log li.vis-gm").count() == 0
        other = next(o for o in PLAYERS if o != who)
        assert page.locator("#log li.vis-player").count() == len(
            [e for e in events if e["visibility"] == f"player:{who}"])
        assert "mestre" not in page.evaluate("window.mesa.state"), f"estado do Mestre para {who}"
        mine = seen_by(events, viewer_of(who))
        assert sorted(log_seqs(page)) == [e["seq"] for e in mine]  # each once, nothing else
        assert not any(e["visibility"] == f"player:{other}" for e in mine)
    assert evening.recorder.urls, "nenhuma requisição registrada"
    assert evening.recorder.foreign() == [], f"requisições fora do servidor: {evening.recorder.foreign()}"
    assert evening.errors == [], f"erros de JavaScript: {evening.errors}"
