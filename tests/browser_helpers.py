"""Browser-test plumbing: Debian's Chromium through Playwright, request recording, screenshots."""
from __future__ import annotations

import os
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable
from urllib.parse import urlsplit

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]
PHONE = {"width": 360, "height": 740}
TABLE_PHONE = {"width": 390, "height": 844}  # the phone the issues' play-tests use
TV = {"width": 1280, "height": 720}
ROOT = Path(__file__).resolve().parents[1]
ARTIFACTS = ROOT / "test-artifacts"
README_SHOTS = ROOT / "docs" / "screenshots"
GM_TOKEN = "segredo-do-mestre"


def missing_chromium_message() -> str:
    return (f"Chromium não encontrado em {CHROMIUM}: os testes de navegador precisam dele. "
            "`./run.sh test` installs it (apt-get install chromium).")


@dataclass
class Recorder:
    """Every URL a browser context asked for, to prove nothing leaves the loopback server."""

    origin: str
    urls: list[str] = field(default_factory=list)

    def attach(self, context: Any) -> None:
        context.on("request", lambda request: self.urls.append(request.url))
        context.on("websocket", lambda socket: self.urls.append(socket.url))

    def foreign(self) -> list[str]:
        """URLs not served by the companion itself (data:/blob: never leave the page)."""
        home = urlsplit(self.origin)
        bad = []
        for url in self.urls:
            parts = urlsplit(url)
            if parts.scheme in ("data", "blob"):
                continue
            if not (parts.scheme in ("http", "ws") and parts.hostname == home.hostname
                    and parts.port == home.port):
                bad.append(url)
        return bad


WAIT_MS = 10_000


class LiveTable:
    """A live session and server, and the browser contexts opened against it (each its own
    phone or screen, with its own localStorage). JavaScript errors are collected in `errors`."""

    def __init__(self, session: Any, server: Any, browser: Any) -> None:
        self.session = session
        self.server = server
        self.browser = browser
        self.recorder = Recorder(server.url)
        self.contexts: list[Any] = []
        self.errors: list[str] = []

    def context(self, viewport: dict[str, int] = PHONE, **options: Any) -> Any:
        context = self.browser.new_context(viewport=viewport, locale="pt-BR", **options)
        context.set_default_timeout(WAIT_MS)
        self.recorder.attach(context)
        self.contexts.append(context)
        return context

    def page(self, who: str, path: str, context: Any) -> Any:
        """A new page in `context` at `path`, its uncaught errors recorded under `who`."""
        page = context.new_page()
        page.on("pageerror", lambda error: self.errors.append(f"{who}: {error}"))
        page.goto(self.server.url + path)
        return page

    def events(self) -> list[dict]:
        return self.session.events_since(0)

    def close(self) -> None:
        for context in self.contexts:
            context.close()


def wait_until(condition: Callable[[], Any], timeout: float = 10.0, message: str = "") -> Any:
    """Poll a condition until it holds, failing with a message."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(0.05)
    raise AssertionError(message or "condição não foi satisfeita a tempo")


def screenshot(page: Any, name: str, full_page: bool = True) -> Path:
    """Save a screenshot of a page to test-artifacts/."""
    ARTIFACTS.mkdir(exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=full_page)
    return path


def readme_screenshot(page: Any, name: str, height: int | None = None) -> Path | None:
    """The committed README picture docs/screenshots/<name>.png, only when SCREENSHOTS=1.

    A phone page is shot at its width with a taller viewport (so the sticky command bar stays
    at the bottom instead of floating over a full-page capture)."""
    if os.environ.get("SCREENSHOTS") != "1":
        return None
    README_SHOTS.mkdir(parents=True, exist_ok=True)
    path = README_SHOTS / f"{name}.png"
    if height is not None:
        page.set_viewport_size({"width": page.viewport_size["width"], "height": height})
        page.wait_for_timeout(200)
    page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=str(path))
    return path


def open_report(page: Any) -> Any:
    """The tab a GM's or a player's page opens with its "Relatório" link (the page POSTs its
    token: it is never in an address), loaded."""
    with page.context.expect_page() as opened:
        page.locator("#report-link").click()
    report = opened.value
    report.wait_for_load_state()
    return report


def log_seqs(page: Any, selector: str = "#log") -> list[int]:
    """The seq numbers of the log entries on a page, in DOM order."""
    return page.eval_on_selector_all(
        f"{selector} li[data-seq]", "items => items.map(i => Number(i.dataset.seq))")


def seen_by(events: list[dict], viewer: str) -> list[dict]:
    """The events as `viewer`'s connection gets them: only those it may see, numbered 1, 2,
    3, … (the server numbers events per viewer; the GM keeps the log's own numbers)."""
    from companion.tables.protocol import may_see as visible_to

    visible = [e for e in events if visible_to(e["visibility"], viewer)]
    if viewer == "gm":
        return visible
    return [{**event, "seq": n} for n, event in enumerate(visible, start=1)]


def seq_seen_by(events: list[dict], event: dict, viewer: str) -> int | None:
    """The number `viewer`'s page shows for one event of the log (None: not for this viewer)."""
    from companion.tables.protocol import may_see as visible_to

    if not visible_to(event["visibility"], viewer):
        return None
    if viewer == "gm":
        return event["seq"]
    return sum(1 for e in events
               if e["seq"] <= event["seq"] and visible_to(e["visibility"], viewer))


def gm_only_texts(events: list[dict]) -> set[str]:
    """Full texts of GM-only events that no public or player event also says."""
    secret = {e["text"] for e in events if e["visibility"] == "gm" and e["text"].strip()}
    shared = {e["text"] for e in events if e["visibility"] != "gm"}
    return secret - shared
