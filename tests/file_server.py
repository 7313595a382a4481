"""A loopback HTTP file server for download tests: serves fixture bytes, honours Range, can cut a connection.

Records every request (path and Range header) so tests can check that a resume asked for the right bytes.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Self


@dataclass
class FileServerState:
    files: dict[str, bytes] = field(default_factory=dict)   # URL path -> body
    default: bytes | None = None                              # body for any other path (else 404)
    cut_after: dict[str, int] = field(default_factory=dict)   # path -> bytes sent before dropping, once
    ignore_range: bool = False
    requests: list[tuple[str, str | None]] = field(default_factory=list)


class _Handler(BaseHTTPRequestHandler):
    state: FileServerState

    def log_message(self, *args) -> None:  # keep test output clean
        pass

    def do_GET(self) -> None:
        st = self.server.state  # type: ignore[attr-defined]
        rng = self.headers.get("Range")
        st.requests.append((self.path, rng))
        body = st.files.get(self.path, st.default)
        if body is None:
            self.send_error(404)
            return
        start = 0
        if rng and not st.ignore_range and rng.startswith("bytes="):
            start = int(rng[6:].split("-", 1)[0])
            if start >= len(body):
                self.send_response(416)
                self.send_header("Content-Range", f"bytes */{len(body)}")
                self.send_header("Content-Length", "0")
                self.end_headers()
                return
            self.send_response(206)
            self.send_header("Content-Range", f"bytes {start}-{len(body) - 1}/{len(body)}")
        else:
            self.send_response(200)
        payload = body[start:]
        self.send_header("Content-Length", str(len(payload)))
        self.send_header("Accept-Ranges", "bytes")
        self.end_headers()
        cut = st.cut_after.pop(self.path, None)
        if cut is not None:
            self.wfile.write(payload[:cut])
            self.wfile.flush()
            self.close_connection = True
            self.connection.shutdown(2)
            return
        self.wfile.write(payload)


class FileServer:
    """``with FileServer() as srv: srv.state.files['/a'] = b'...'; url = srv.url + '/a'``."""

    def __init__(self) -> None:
        self.state = FileServerState()
        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
        self._httpd.state = self.state  # type: ignore[attr-defined]
        self._httpd.daemon_threads = True
        self.url = f"http://127.0.0.1:{self._httpd.server_address[1]}"
        self._thread = threading.Thread(target=self._httpd.serve_forever, kwargs={"poll_interval": 0.05},
                                        daemon=True)

    def __enter__(self) -> Self:
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._httpd.shutdown()
        self._httpd.server_close()


class SilentServer:
    """Accepts TCP connections and never answers (a hub that hangs)."""

    def __init__(self) -> None:
        import socket

        self._sock = socket.socket()
        self._sock.bind(("127.0.0.1", 0))
        self._sock.listen(16)
        self.url = f"http://127.0.0.1:{self._sock.getsockname()[1]}"

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc) -> None:
        self._sock.close()
