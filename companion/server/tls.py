"""`serve --https`: a self-signed certificate made at start, so phones may use their microphone.

Browsers give a page its microphone only in a secure context (https, or localhost). At the
table there is no certificate authority: the companion makes its own certificate for this
machine's addresses, valid for a year, kept in the GM's data folder so a phone that
accepted it once is not asked again. The browser warns the first time ("sua conexão não é
particular"): the README says how to go on.
"""
from __future__ import annotations

import datetime
import ipaddress
from pathlib import Path

from companion.store.private import write_private
from companion.tables.errors import CompanionError
from companion.tables.narration import Narrator

VALID_DAYS = 365


class TlsError(CompanionError):
    """No certificate can be made (the cryptography package is missing)."""


def certificate(folder: Path, addresses: list[str], words: Narrator) -> tuple[Path, Path]:
    """(cert.pem, key.pem) in folder for these IP addresses/names, made when missing (its name
    and the error when it cannot be made in `words`)."""
    cert, key = folder / "mesa-cert.pem", folder / "mesa-key.pem"
    if cert.is_file() and key.is_file():
        return cert, key
    try:
        from cryptography import x509
        from cryptography.hazmat.primitives import hashes, serialization
        from cryptography.hazmat.primitives.asymmetric import ec
        from cryptography.x509.oid import NameOID
    except ImportError:
        raise TlsError(words.render("servidor_no_ar.sem_cryptography", {})) from None
    private = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(
        NameOID.COMMON_NAME, words.render("servidor_no_ar.nome_do_certificado", {}))])
    alternatives: list[x509.GeneralName] = [x509.DNSName("localhost")]
    for address in dict.fromkeys(addresses):
        try:
            alternatives.append(x509.IPAddress(ipaddress.ip_address(address)))
        except ValueError:
            alternatives.append(x509.DNSName(address))
    now = datetime.datetime.now(datetime.timezone.utc)
    built = (x509.CertificateBuilder().subject_name(name).issuer_name(name)
             .public_key(private.public_key()).serial_number(x509.random_serial_number())
             .not_valid_before(now - datetime.timedelta(minutes=5))
             .not_valid_after(now + datetime.timedelta(days=VALID_DAYS))
             .add_extension(x509.SubjectAlternativeName(alternatives), critical=False)
             .sign(private, hashes.SHA256()))
    folder.mkdir(parents=True, exist_ok=True)
    write_private(key, private.private_bytes(serialization.Encoding.PEM,
                                             serialization.PrivateFormat.PKCS8,
                                             serialization.NoEncryption()))
    write_private(cert, built.public_bytes(serialization.Encoding.PEM))
    return cert, key
