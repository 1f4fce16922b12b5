"""Who else can use the dask scheduler: TLS certificates for ``tls://``, a warning for open TCP.

A dask scheduler runs whatever pickled task it is sent, so anyone who can connect to it runs code
as the user on every worker and reads every result. ``tls://HOST:PORT`` with certificates lets in
only the holders of a certificate signed by the cluster's CA (scheduler, workers and client check
each other's). The client's certificates come from dask's own configuration, as for any dask
client: the YAML files (``~/.config/dask/*.yaml``) or the ``DASK_...`` environment variables
(:func:`environment_variable`), never from a file of this repository:

- ``distributed.comm.tls.ca-file``: the CA certificate that signed the cluster's certificates;
- ``distributed.comm.tls.client.cert`` / ``.key``: this client's certificate and its private key
  (the key may instead follow the certificate in the same file);
- ``distributed.comm.require-encryption``: when true, no address but ``tls://`` is accepted.

:func:`scheduler_security` reads them and builds the SSL context before the scheduler is contacted,
so that missing or broken certificates are one line naming the setting (exit 2 from the command
line) rather than a TLS failure from inside dask.
"""
from __future__ import annotations

import ipaddress
import logging
import re
import socket

from distributed.comm.addressing import get_address_host, parse_address
from distributed.security import Security

from hertz2d.checks import InputError

log = logging.getLogger("hertz2d")

#: dask's configuration key of each TLS file the client uses, by ``Security`` attribute
CLIENT_TLS_SETTINGS = {"tls_ca_file": "distributed.comm.tls.ca-file",
                       "tls_client_cert": "distributed.comm.tls.client.cert",
                       "tls_client_key": "distributed.comm.tls.client.key"}
#: the settings a ``tls://`` address cannot do without (the key may be in the certificate's file)
REQUIRED_TLS_SETTINGS = ("tls_ca_file", "tls_client_cert")
#: the PEM block each setting's file must hold (without a key file, the certificate's holds the key)
PEM_BLOCKS = {"tls_ca_file": "CERTIFICATE", "tls_client_cert": "CERTIFICATE",
              "tls_client_key": "PRIVATE KEY"}


def environment_variable(setting: str) -> str:
    """The environment variable dask reads ``setting`` from:
    ``distributed.comm.tls.ca-file`` -> ``DASK_DISTRIBUTED__COMM__TLS__CA_FILE``."""
    return "DASK_" + setting.upper().replace(".", "__").replace("-", "_")


def _shown(attribute: str, value: str) -> str:
    """``setting='path'``, or ``setting (PEM text)`` for a certificate given inline."""
    setting = CLIENT_TLS_SETTINGS[attribute]
    return f"{setting} (PEM text)" if "\n" in value else f"{setting}={value!r}"


def _pem_text(attribute: str, value: str) -> str:
    """The PEM text a setting names (a file, or the text itself when it spans lines)."""
    if "\n" in value:
        return value
    try:
        with open(value, encoding="ascii", errors="replace") as file:
            return file.read()
    except OSError as error:
        raise InputError(f"{_shown(attribute, value)}: {error.strerror}") from None


def _holds(text: str, block: str) -> bool:
    """Whether PEM ``text`` has a ``block`` (``-----BEGIN RSA PRIVATE KEY-----`` is a key too)."""
    return re.search(rf"^-----BEGIN (?:[A-Z0-9]+ )?{block}-----", text, re.MULTILINE) is not None


def _check_files(security: Security) -> None:
    """Each client TLS setting that is set names a readable PEM file with the block it needs."""
    for attribute, block in PEM_BLOCKS.items():
        value = getattr(security, attribute)
        if value and not _holds(_pem_text(attribute, value), block):
            raise InputError(f"{_shown(attribute, value)} is not a PEM {block.lower()} (no "
                             f"'-----BEGIN {block}-----' line)")
    cert, key = security.tls_client_cert, security.tls_client_key
    if cert and not key and not _holds(_pem_text("tls_client_cert", cert), "PRIVATE KEY"):
        raise InputError(f"{_shown('tls_client_cert', cert)} holds no private key and "
                         f"{CLIENT_TLS_SETTINGS['tls_client_key']} is not set")


def _check_ssl_context(security: Security) -> None:
    """dask's own SSL context of the client, built once here to report what does not load (a key
    that is not the certificate's, say)."""
    try:
        security.get_connection_args("client")
    except (OSError, ValueError) as error:  # ssl.SSLError is an OSError
        settings = ", ".join(_shown(attribute, getattr(security, attribute))
                             for attribute in CLIENT_TLS_SETTINGS if getattr(security, attribute))
        raise InputError(f"the TLS certificates in dask's configuration do not load "
                         f"({settings}): {error}") from None


def _beyond_loopback(host: str) -> bool:
    """Whether ``host`` resolves to an address that is not loopback (False for a name that does
    not resolve: connecting to it fails and says so)."""
    try:
        found = socket.getaddrinfo(host, None)
    except OSError:
        return False
    return not all(ipaddress.ip_address(info[4][0]).is_loopback for info in found)


def _warn_if_open(address: str, name: str) -> None:
    """One warning when the plain TCP ``address`` is not on this machine's loopback."""
    try:
        host = get_address_host(address)
    except ValueError:  # not an address (no port, say): connecting reports it
        return
    if _beyond_loopback(host):
        log.warning(f"{name}={address!r} is plain TCP: anyone who can reach that port can run "
                    "code on the workers and read the results; use a tls:// address with "
                    "certificates, a private network, or an SSH tunnel to a scheduler that "
                    "listens on loopback only")


def scheduler_security(address: str, name: str = "scheduler") -> Security:
    """The client's ``Security`` for the scheduler at ``address``, from dask's configuration,
    its SSL context built; :class:`InputError` naming ``name=address`` and the setting when a
    ``tls://`` address has no certificates, when the certificates do not load, or when
    ``require-encryption`` is set for a ``tcp://`` address. Warns, in one line, when the address
    is plain TCP and not loopback. Contacts no scheduler."""
    try:
        security = Security()
    except ValueError as error:  # e.g. a TLS version dask does not support
        raise InputError(f"{name}={address!r}: {error}") from None
    scheme = parse_address(address)[0]  # HOST:PORT is dask's default scheme, tcp
    if scheme == "tls":
        missing = [CLIENT_TLS_SETTINGS[attribute] for attribute in REQUIRED_TLS_SETTINGS
                   if not getattr(security, attribute)]
        if missing:
            variables = ", ".join(f"${environment_variable(setting)}" for setting in missing)
            raise InputError(f"{name}={address!r} needs the client's TLS certificates in dask's "
                             f"configuration; not set: {', '.join(missing)} (e.g. {variables})")
    elif scheme == "tcp" and security.require_encryption:
        raise InputError(f"{name}={address!r} is plain TCP and dask's configuration requires "
                         "encryption (distributed.comm.require-encryption); give a tls:// address")
    try:
        _check_files(security)
        _check_ssl_context(security)
    except InputError as error:
        raise InputError(f"{name}={address!r}: {error}") from None
    if scheme == "tcp":
        _warn_if_open(address, name)
    return security
