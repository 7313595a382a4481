"""Serving the app: port and host checks, then uvicorn (extra ``web``)."""

from __future__ import annotations

from jiancha._util.lazy import require
from jiancha.errors import ConfigError

#: The interface served by default: this machine only.
DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8000
PORT_RANGE = (1, 65535)


def check_port(port: int) -> int:
    """``port`` when it is a TCP port number, else ConfigError naming the range."""
    lo, hi = PORT_RANGE
    if not lo <= port <= hi:
        raise ConfigError(f"--port {port} is not a TCP port; expected {lo}–{hi} (e.g. --port {DEFAULT_PORT})")
    return port


def check_listen(host: str, port: int) -> None:
    """Fail now, before anything is loaded, when HOST:PORT cannot be listened on (a port out of range or in
    use, an unknown interface)."""
    import socket

    check_port(port)

    with socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET) as s:
        try:
            s.bind((host, port))
        except OSError as exc:
            raise ConfigError(f"cannot listen on {host}:{port} ({exc.strerror or exc}); choose another --port or "
                              "--host") from None


def serve(app, host: str, port: int) -> None:
    """Run ``app`` on http://HOST:PORT/ until interrupted."""
    uvicorn = require("uvicorn", "web")
    check_listen(host, port)
    uvicorn.run(app, host=host, port=port)
