"""How phones reach the server: the LAN address, the links and their QR codes (segno).

Finding the address never sends a packet: a UDP socket is "connected" to a private address
(which only asks the system for a route) and the local address it would use is the answer,
unless it belongs to a virtual adapter (WSL, Hyper-V, VirtualBox, VMware, a VPN, Docker); then
the first private address of a real adapter (ifaddr, on every OS) is; 127.0.0.1 is the last
resort.
"""
from __future__ import annotations

import io
import ipaddress
import os
import socket
import threading
import time
from dataclasses import dataclass
from typing import Callable, Iterable, Sequence, Union
from urllib.parse import quote

import ifaddr
import segno

from companion.tables.narration import Narrator

# Adapters phones cannot reach: by how their name starts (Linux, macOS) ...
VIRTUAL_PREFIXES = ("lo", "docker", "br-", "veth", "virbr", "vmnet", "vboxnet", "tun", "tap",
                    "wg", "zt", "tailscale", "utun", "awdl", "llw", "bridge")
# ... or by a word in their name or description (Windows: "vEthernet (WSL)", "Hyper-V Virtual
# Ethernet Adapter", "VirtualBox Host-Only Ethernet Adapter", "TAP-Windows Adapter V9", ...)
VIRTUAL_WORDS = ("virtual", "vethernet", "hyper-v", "wsl", "vmware", "virtualbox", "tap-",
                 "tunnel", "vpn", "tailscale", "zerotier", "wireguard", "loopback", "docker",
                 "anyconnect", "npcap", "pseudo")
# Private destinations the route probe asks about (no packet is sent to them).
PROBE_TARGETS = ("10.255.255.255", "192.168.255.255", "172.31.255.255")
# Hosts that mean "every adapter": phones are shown the LAN address instead.
WILDCARDS = ("", "0.0.0.0", "::")


@dataclass(frozen=True)
class Adapter:
    """One network adapter as the system lists it: its names and IPv4 addresses."""

    name: str
    description: str
    addresses: tuple[str, ...]


@dataclass(frozen=True)
class Links:
    """The addresses printed at start and shown on /mesa."""

    base: str  # http://192.168.0.12:5000
    gm_token: str

    @property
    def player(self) -> str:
        return player_url(self.base)

    @property
    def table(self) -> str:
        return f"{self.base}/mesa"

    @property
    def gm(self) -> str:
        """The GM's link: the token in the fragment, which the browser never sends (the page
        keeps it and takes it out of the address bar)."""
        return f"{self.base}/mestre#token={quote(self.gm_token, safe='')}"


def player_url(base: str) -> str:
    """The page phones open to join, under a base address."""
    return f"{base.rstrip('/')}/jogador"


def base_url(host: str, port: int) -> str:
    """The URL phones should open for a server bound to host:port."""
    shown = lan_ip() if host in WILDCARDS else host
    return f"http://{_bracketed(shown)}:{port}"


class LiveBase:
    """The base address phones open, read again when asked after REFRESH seconds: a laptop
    that reconnects to the Wi-Fi mid-evening gets another LAN address, and the QR code and
    links shown from then on carry the new one (the banner printed at start cannot)."""

    REFRESH = 5.0

    def __init__(self, host: str, port: int, scheme: str = "http",
                 address: Callable[[], str] | None = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self._host, self._port, self._scheme = host, port, scheme
        self._address = address or lan_ip
        self._clock = clock
        self._lock = threading.Lock()
        self._read_at: float | None = None
        self._base = ""

    def __call__(self) -> str:
        with self._lock:
            now = self._clock()
            if self._read_at is None or now - self._read_at >= self.REFRESH:
                self._read_at = now
                shown = self._address() if self._host in WILDCARDS else self._host
                self._base = f"{self._scheme}://{_bracketed(shown)}:{self._port}"
            return self._base


# What phones open: a fixed address, one read again now and then, or None (the address the
# client itself used).
BaseUrl = Union[str, Callable[[], str], None]


def current_base(base: BaseUrl) -> str | None:
    """The base address phones should open right now."""
    return base() if callable(base) else base


def _bracketed(address: str) -> str:
    return f"[{address}]" if ":" in address else address


def lan_ip() -> str:
    """The machine's address on the local network, without touching the internet."""
    return choose_address(_routed_address(), _adapters())


def own_addresses() -> list[str]:
    """The address phones are shown, then every IPv4 address of this machine's adapters."""
    return [lan_ip(), *(address for adapter in _adapters() for address in adapter.addresses)]


def choose_address(routed: str | None, adapters: Sequence[Adapter]) -> str:
    """The address phones should open: the routed one unless a virtual adapter owns it, else
    the first private address of a real adapter, else the routed one, else 127.0.0.1."""
    virtual = {address for adapter in adapters if is_virtual(adapter)
               for address in adapter.addresses}
    routed_ok = _pick([routed] if routed else [])
    if routed_ok and routed_ok not in virtual:
        return routed_ok
    real = [address for adapter in adapters if not is_virtual(adapter)
            for address in adapter.addresses]
    return _pick(real) or routed_ok or "127.0.0.1"


def is_virtual(adapter: Adapter) -> bool:
    """Whether phones on the Wi-Fi cannot reach this adapter (loopback, VM, VPN, container)."""
    if adapter.name.lower().startswith(VIRTUAL_PREFIXES):
        return True
    words = f"{adapter.name} {adapter.description}".lower()
    return any(word in words for word in VIRTUAL_WORDS)


def _pick(addresses: Iterable[str]) -> str | None:
    """The first private, non-loopback IPv4 address; else the first non-loopback one."""
    usable = []
    for text in addresses:
        try:
            address = ipaddress.IPv4Address(text)
        except ValueError:
            continue
        if address.is_loopback or address.is_link_local or address.is_unspecified:
            continue
        usable.append(address)
    private = [a for a in usable if a.is_private]
    chosen = (private or usable or [None])[0]
    return str(chosen) if chosen else None


def _adapters() -> list[Adapter]:
    """The system's adapters with their IPv4 addresses (ifaddr); [] when they cannot be read."""
    try:
        found = ifaddr.get_adapters()
    except Exception:  # noqa: BLE001 (an OS ifaddr cannot read: the routed address alone)
        return []
    return [Adapter(str(adapter.name), str(adapter.nice_name),
                    tuple(ip.ip for ip in adapter.ips if isinstance(ip.ip, str)))
            for adapter in found]


def _routed_address() -> str | None:
    """Ask the system which local address would route to a private network (no packet sent)."""
    for target in PROBE_TARGETS:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            try:
                probe.setsockopt(socket.SOL_SOCKET, socket.SO_BROADCAST, 1)
                probe.connect((target, 9))
                return str(probe.getsockname()[0])
            except OSError:
                continue
    return None


def svg(url: str, title: str) -> bytes:
    """A standalone SVG QR code of url (dark modules on white, with a quiet zone), `title` its
    accessible name."""
    buffer = io.BytesIO()
    segno.make(url, error="m").save(buffer, kind="svg", scale=8, border=4,
                                    dark="#000", light="#fff", xmldecl=False,
                                    title=title)
    return buffer.getvalue()


def _host(base: str) -> str:
    """The address part of a base URL (http://[::1]:8765 -> ::1)."""
    return base.split("://", 1)[-1].rsplit(":", 1)[0].strip("[]")


def reachable(base: str) -> bool:
    """Whether a phone could open this base address: not a loopback one (127.0.0.1 is what
    lan_ip falls back to when the laptop is on no network)."""
    host = _host(base)
    try:
        return not ipaddress.ip_address(host).is_loopback
    except ValueError:
        return host != "localhost"


def banner(links: Links, words: Narrator, windows: bool = os.name == "nt") -> str:
    """What `companion serve` prints at start (tables/narracao/servidor_no_ar.yaml): short, so
    that it fits an 80x24 window with the lines around it (the QR code is on the GM page and the
    table screen, not drawn here). Windows asks once whether Python may use the network, and
    "public" leaves phones out: there it says so. With no address a phone can reach, it says
    what to do."""
    firewall = [words.render("servidor_no_ar.firewall_windows", {})] if windows else []
    alone = [] if reachable(links.base) else [
        words.render("servidor_no_ar.sem_rede", {"endereco": _host(links.base)})]
    return "\n".join([
        "",
        words.render("servidor_no_ar.no_ar", {}),
        words.render("servidor_no_ar.mestre", {"link": links.gm}),
        words.render("servidor_no_ar.jogadores", {"link": links.player}),
        words.render("servidor_no_ar.mesa", {"link": links.table}),
        *alone,
        *firewall,
        words.render("servidor_no_ar.ctrl_c", {}),
        "",
    ])
