"""One mask for secrets in database references (issue 33): a password never reaches a stored
run, a message or an output. Every form a reference takes is covered: a URL's userinfo
(``postgresql://alice:PW@host``), a query or conninfo keyword (``?password=PW``,
``password='P W' host=…``, ``sslpassword``), an environment assignment on a command line
(``PGPASSWORD=PW``), and, in messages, the literal password of every reference this process
opened (a driver's error may quote it without its keyword), and of ``$PGPASSWORD``."""

from __future__ import annotations

import os
import re
import shlex
from collections.abc import Iterable
from urllib.parse import parse_qsl, unquote, urlsplit

MASK = "***"
MIN_LITERAL = 4  # a shorter password is masked where its form shows it, not everywhere
_USERINFO = re.compile(r"([A-Za-z][A-Za-z0-9+.-]*://[^:/@\s?#]*):[^@\s]*@")
_KEYWORD = re.compile(
    r"(?i)(\b(?:ssl)?password\s*=\s*|\bPGPASSWORD\s*=\s*)('(?:[^'\\]|\\.)*'?|[^&\s#'\"]+)"
)
_known: set[str] = set()


def remember(ref) -> None:
    """Mask ``ref``'s password (and its percent-decoded form) in every later message."""
    for secret in passwords(str(ref)):
        if len(secret) >= MIN_LITERAL:
            _known.update({secret, unquote(secret)})


def passwords(ref: str) -> list[str]:
    """The passwords a reference carries: its userinfo's and its query's ``password``."""
    found = []
    if "://" in ref:
        try:
            parts = urlsplit(ref)
            if parts.password:
                found.append(parts.password)
            found += [v for k, v in parse_qsl(parts.query) if k.lower().endswith("password")]
        except ValueError:  # a malformed URL (a bad port): only the patterns apply
            pass
    found += [m.group(2).strip("'") for m in _KEYWORD.finditer(ref)]
    return [p for p in found if p]


def redact(text) -> str:
    """``text`` (a reference, a command line, an error message) with every password masked."""
    out = _USERINFO.sub(rf"\1:{MASK}@", str(text))
    out = _KEYWORD.sub(rf"\1{MASK}", out)
    literals = set(_known)
    env = os.environ.get("PGPASSWORD")
    if env and len(env) >= MIN_LITERAL:
        literals.add(env)
    for secret in sorted(literals, key=len, reverse=True):
        out = out.replace(secret, MASK)
    return out


def command_line(argv: Iterable[str]) -> str:
    """A command line to store or print: each argument masked, then quoted for a shell."""
    return shlex.join(redact(a) for a in argv)
