"""Why a connection attempt failed, named so a technician knows where to look.

paho reports a failed attempt with no reason; the link reads the exception paho
is handling when it calls ``on_connect_fail`` and names it here: a refused port,
an unknown host, or a certificate the link will not trust, which a pit
technician fixes on the display, not on the network.
"""

from __future__ import annotations

import socket
import ssl

#: OpenSSL's verify codes (X509_V_ERR_*) grouped by what a technician must fix.
_VERIFY_CAUSES = {
    2: "unknown CA", 18: "unknown CA", 19: "unknown CA", 20: "unknown CA", 21: "unknown CA",
    9: "not yet valid", 10: "expired", 23: "revoked", 62: "hostname mismatch",
    64: "hostname mismatch",
}  # fmt: skip


def connect_failure(error: BaseException | None) -> str:
    """Why a connection attempt failed, in a few words a log line can carry.

    >>> connect_failure(ConnectionRefusedError(111, "Connection refused"))
    'connection refused'
    >>> error = ssl.SSLCertVerificationError(1, "certificate verify failed")
    >>> error.verify_code, error.verify_message = 10, "certificate has expired"
    >>> connect_failure(error)
    'certificate verify failed: expired (certificate has expired)'
    """
    if isinstance(error, ssl.SSLCertVerificationError):
        cause = _VERIFY_CAUSES.get(getattr(error, "verify_code", 0), "untrusted certificate")
        detail = getattr(error, "verify_message", "") or error.reason or ""
        return f"certificate verify failed: {cause}" + (f" ({detail})" if detail else "")
    if isinstance(error, ssl.SSLError):
        what = (error.reason or str(error)).lower().replace("_", " ")
        return f"TLS handshake failed: {what}"
    if isinstance(error, ConnectionRefusedError):
        return "connection refused"
    if isinstance(error, socket.gaierror):
        return f"host name not found ({error.strerror or error})"
    if isinstance(error, TimeoutError):
        return "timed out"
    if isinstance(error, OSError):
        return (error.strerror or str(error) or type(error).__name__).lower()
    return "" if error is None else str(error) or type(error).__name__


def unanswered_connect(paho_reason: str, keepalive: int) -> str:
    """Why a connection ended before the broker answered its CONNECT, from paho's reason.

    paho itself ends a CONNECT left unanswered for a keepalive ("Keep alive
    timeout"); a broker that cannot take the client (a cluster node without its
    quorum) may instead close the connection without a word.

    >>> unanswered_connect("Keep alive timeout", 1)
    'the broker did not answer the CONNECT within the 1 s keepalive'
    >>> unanswered_connect("Unspecified error", 1)
    'the broker closed the connection without answering the CONNECT'
    """
    if paho_reason == "Keep alive timeout":
        return f"the broker did not answer the CONNECT within the {keepalive} s keepalive"
    return "the broker closed the connection without answering the CONNECT"
