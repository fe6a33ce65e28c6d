"""The LAN address printed in the QR code: the routed address first, virtual adapters (WSL,
Hyper-V, VirtualBox, VMware, VPN, Docker, loopback) never chosen over the Wi-Fi."""
from __future__ import annotations

import ipaddress

import pytest

from companion.server import qr
from companion.server.qr import Adapter, choose_address
from companion.tables.files import Tables
from tests.clock_helpers import Clock

WIFI_WINDOWS = Adapter("{7A1C-GUID}", "Intel(R) Wi-Fi 6 AX201 160MHz", ("192.168.0.12",))
WSL = Adapter("{11-GUID}", "Hyper-V Virtual Ethernet Adapter", ("172.24.96.1",))
VETHERNET = Adapter("vEthernet (WSL)", "vEthernet (WSL)", ("172.25.0.1",))
VIRTUALBOX = Adapter("{22-GUID}", "VirtualBox Host-Only Ethernet Adapter", ("192.168.56.1",))
VMWARE = Adapter("{33-GUID}", "VMware Virtual Ethernet Adapter for VMnet8", ("192.168.80.1",))
VPN = Adapter("{44-GUID}", "TAP-Windows Adapter V9", ("10.8.0.6",))
TAILSCALE = Adapter("tailscale0", "tailscale0", ("100.101.102.103",))
LOOPBACK = Adapter("lo", "lo", ("127.0.0.1",))
WINDOWS_LOOPBACK = Adapter("{55-GUID}", "Software Loopback Interface 1", ("127.0.0.1",))
DOCKER = Adapter("docker0", "docker0", ("172.17.0.1",))
WLAN_LINUX = Adapter("wlp2s0", "wlp2s0", ("192.168.1.30",))
EN0_MAC = Adapter("en0", "en0", ("10.0.0.44",))
UTUN_MAC = Adapter("utun3", "utun3", ("10.99.0.2",))

WINDOWS_LAPTOP = [WSL, VIRTUALBOX, VMWARE, VPN, WINDOWS_LOOPBACK, VETHERNET, WIFI_WINDOWS]


@pytest.mark.parametrize("adapter", [WSL, VETHERNET, VIRTUALBOX, VMWARE, VPN, TAILSCALE,
                                     LOOPBACK, WINDOWS_LOOPBACK, DOCKER, UTUN_MAC])
def test_virtual_adapters_are_known(adapter: Adapter) -> None:
    assert qr.is_virtual(adapter)


@pytest.mark.parametrize("adapter", [WIFI_WINDOWS, WLAN_LINUX, EN0_MAC,
                                     Adapter("eth0", "eth0", ("192.168.1.2",)),
                                     Adapter("{66}", "Realtek PCIe GbE Family Controller", ())])
def test_real_adapters_are_not_virtual(adapter: Adapter) -> None:
    assert not qr.is_virtual(adapter)


def test_the_routed_address_wins_when_a_real_adapter_has_it() -> None:
    assert choose_address("192.168.0.12", WINDOWS_LAPTOP) == "192.168.0.12"
    # even listed after the virtual ones, and when the list cannot be read at all
    assert choose_address("192.168.1.30", [DOCKER, LOOPBACK, WLAN_LINUX]) == "192.168.1.30"
    assert choose_address("192.168.0.12", []) == "192.168.0.12"


@pytest.mark.parametrize("routed", ["10.8.0.6", "172.24.96.1", "192.168.56.1", "172.25.0.1"])
def test_a_routed_address_on_a_virtual_adapter_gives_way_to_the_wifi(routed: str) -> None:
    assert choose_address(routed, WINDOWS_LAPTOP) == "192.168.0.12"


def test_a_vpn_default_route_on_a_mac_gives_way_to_en0() -> None:
    assert choose_address("10.99.0.2", [LOOPBACK, UTUN_MAC, EN0_MAC]) == "10.0.0.44"


def test_without_a_route_the_first_private_real_address() -> None:
    assert choose_address(None, WINDOWS_LAPTOP) == "192.168.0.12"
    assert choose_address(None, [LOOPBACK, DOCKER, EN0_MAC]) == "10.0.0.44"


def test_only_virtual_adapters_keep_the_routed_address_else_loopback() -> None:
    assert choose_address("172.24.96.1", [WSL, LOOPBACK]) == "172.24.96.1"
    assert choose_address(None, [WSL, LOOPBACK]) == "127.0.0.1"
    assert choose_address("127.0.0.1", [LOOPBACK]) == "127.0.0.1"
    assert choose_address(None, []) == "127.0.0.1"


def test_this_machine_gives_a_real_ipv4() -> None:
    found = ipaddress.IPv4Address(qr.lan_ip())
    assert not found.is_link_local and not found.is_unspecified


def test_the_banner_tells_a_windows_gm_about_the_firewall(tables: Tables) -> None:
    links = qr.Links("http://192.168.0.12:8765", "t")
    assert "Firewall do Windows" in qr.banner(links, tables.narration, windows=True)
    assert "redes privadas" in qr.banner(links, tables.narration, windows=True)
    assert "Firewall" not in qr.banner(links, tables.narration, windows=False)


def test_the_shown_address_follows_a_laptop_that_changed_networks() -> None:
    """A Wi-Fi reconnect gives the laptop another address: after REFRESH seconds the base
    phones are shown (QR code, links) is read again; within it the system is not asked."""
    clock, addresses, asked = Clock(), ["192.168.0.12"], []

    def address() -> str:
        asked.append(clock.now)
        return addresses[-1]

    live = qr.LiveBase("0.0.0.0", 8765, address=address, clock=clock)
    assert live() == "http://192.168.0.12:8765"
    addresses.append("10.0.0.7")
    clock.now = live.REFRESH / 2
    assert live() == "http://192.168.0.12:8765" and len(asked) == 1
    clock.now = live.REFRESH
    assert live() == "http://10.0.0.7:8765"
    assert qr.current_base(live) == "http://10.0.0.7:8765"


def test_a_named_host_is_shown_as_given_and_never_looked_up() -> None:
    live = qr.LiveBase("::1", 443, "https", address=lambda: pytest.fail("no lookup"))
    assert live() == "https://[::1]:443"
    assert qr.current_base("http://x:1") == "http://x:1" and qr.current_base(None) is None
