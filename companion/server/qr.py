"""How phones reach the server: the LAN address, the links and their QR codes (segno).

Finding the address never sends a packet: interfaces are read first (Linux ioctl), then the
host name is resolved, then a UDP socket is "connected" to a private address (which only asks
the kernel for a route), and 127.0.0.1 is the last resort.
"""
from __future__ import annotations

import io
import ipaddress
import socket
import struct
from dataclasses import dataclass
from typing import Any, Callable, Iterable
from urllib.parse import quote

import segno

SIOCGIFADDR = 0x8915  # Linux: read an interface's IPv4 address
VIRTUAL_PREFIXES = ("lo", "docker", "br-", "veth", "virbr", "vmnet", "vboxnet", "tun", "tap",
                    "wg", "zt", "tailscale")


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
        return f"{self.base}/mestre?token={quote(self.gm_token, safe='')}"


def player_url(base: str) -> str:
    """The page phones open to join, under a base address."""
    return f"{base.rstrip('/')}/jogador"


def base_url(host: str, port: int) -> str:
    """The URL phones should open for a server bound to host:port."""
    shown = lan_ip() if host in ("", "0.0.0.0", "::") else host
    if ":" in shown:
        shown = f"[{shown}]"
    return f"http://{shown}:{port}"


def lan_ip() -> str:
    """The machine's address on the local network, without touching the internet."""
    finders: tuple[Callable[[], Iterable[str]], ...] = (
        _interface_addresses, _hostname_addresses, _routed_address)
    for finder in finders:
        best = _pick(finder())
        if best:
            return best
    return "127.0.0.1"


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


def _interface_addresses() -> list[str]:
    """IPv4 addresses of the real network interfaces (Linux); [] elsewhere."""
    try:
        import fcntl
        names = [name for _, name in socket.if_nameindex()]
    except (ImportError, OSError, AttributeError):
        return []
    found = []
    for name in names:
        if name.startswith(VIRTUAL_PREFIXES):
            continue
        address = _interface_address(fcntl, name)
        if address:
            found.append(address)
    return found


def _interface_address(fcntl_module: Any, name: str) -> str | None:
    request = struct.pack("256s", name.encode()[:15])
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            answer = fcntl_module.ioctl(probe.fileno(), SIOCGIFADDR, request)
        except OSError:
            return None
    return socket.inet_ntoa(answer[20:24])


def _hostname_addresses() -> list[str]:
    try:
        infos = socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET)
    except OSError:
        return []
    return [info[4][0] for info in infos]


def _routed_address() -> list[str]:
    """Ask the kernel which local address would route to a private network (no packet sent)."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("10.255.255.255", 1))
            return [probe.getsockname()[0]]
        except OSError:
            return []


def svg(url: str, title: str = "QR code para entrar na mesa") -> bytes:
    """A standalone SVG QR code of url (dark modules on white, with a quiet zone)."""
    buffer = io.BytesIO()
    segno.make(url, error="m").save(buffer, kind="svg", scale=8, border=4,
                                    dark="#000", light="#fff", xmldecl=False,
                                    title=title)
    return buffer.getvalue()


def terminal(url: str) -> str:
    """The QR code of url drawn with block characters for the terminal."""
    buffer = io.StringIO()
    segno.make(url, error="m").terminal(out=buffer, compact=True)
    return buffer.getvalue()


def banner(links: Links) -> str:
    """What `companion serve` prints at start (Portuguese)."""
    return "\n".join([
        "",
        "Mesa — companheiro do Mestre está no ar.",
        "",
        f"Jogadores: abram {links.player} no celular (mesma rede Wi-Fi)",
        "ou leiam o QR code:",
        terminal(links.player),
        f"Tela da mesa: {links.table}",
        f"Mestre (link secreto, não compartilhe): {links.gm}",
        "",
        "Ctrl+C encerra o servidor.",
        "",
    ])
