"""The HTTP server of ``python -m sixtysix_env.web``: a fixed pool of worker threads, a bounded
queue of waiting connections, and a deadline on reading every request.

werkzeug's threaded server starts one thread per connection and waits for a request without a
timeout, so clients that open connections and send half a request ("slowloris") each hold a
thread for ever. Here ``threads`` workers serve the connections; up to ``queue_size`` more wait
for one (a socket each, no thread), and any beyond that are answered 503 at once and closed
unread. A worker gives up on a client that sends nothing for ``read_timeout`` seconds, or that has
not sent its whole request (line, headers and body) within ``request_deadline`` seconds of the
worker taking it, however slowly it drips bytes.
"""

from __future__ import annotations

import io
import queue
import socket
import threading
import time
from typing import Any

from werkzeug.serving import BaseWSGIServer, WSGIRequestHandler

__all__ = [
    "MAX_THREADS",
    "QUEUE_SIZE",
    "READ_TIMEOUT_S",
    "REQUEST_DEADLINE_S",
    "BoundedWSGIServer",
    "make_web_server",
]

MAX_THREADS = 16
"""Connections served at once, each by one worker thread (a browser opens at most 6 to a server)."""
QUEUE_SIZE = 64
"""Connections that may wait for a worker; the next one gets a 503 at once."""
READ_TIMEOUT_S = 10.0
"""Seconds a worker waits for the next bytes of a request before it drops the connection."""
REQUEST_DEADLINE_S = 30.0
"""Seconds a client has to send its whole request (a 1 MiB record takes well under one)."""

_BUSY_BODY = b'{"error": "the server is busy: every worker is in use, try again in a moment"}'
_BUSY = (
    b"HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json\r\nConnection: close\r\n"
    + f"Content-Length: {len(_BUSY_BODY)}\r\n\r\n".encode()
    + _BUSY_BODY
)


class _DeadlineSocketIO(io.RawIOBase):
    """The reading side of a connection: every ``recv`` waits at most the read timeout, and none
    starts once the request's deadline has passed (so a client dripping bytes is cut off too)."""

    def __init__(self, sock: socket.socket, read_timeout: float, deadline: float) -> None:
        self._sock = sock
        self._timeout = read_timeout
        self._deadline = deadline

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        left = self._deadline - time.monotonic()
        if left <= 0:
            raise TimeoutError("the client did not send its request in time")
        self._sock.settimeout(min(self._timeout, left))
        return self._sock.recv_into(buffer)


class _Handler(WSGIRequestHandler):
    """werkzeug's handler reading through :class:`_DeadlineSocketIO`."""

    server: BoundedWSGIServer

    def setup(self) -> None:
        super().setup()
        deadline = time.monotonic() + self.server.request_deadline
        self.connection.settimeout(self.server.read_timeout)  # also bounds each write of the answer
        self.rfile = io.BufferedReader(_DeadlineSocketIO(self.connection, self.server.read_timeout, deadline))


class BoundedWSGIServer(BaseWSGIServer):
    """A WSGI server with ``threads`` workers, ``queue_size`` waiting connections and the read
    limits of this module."""

    multithread = True

    def __init__(
        self,
        host: str,
        port: int,
        app: Any,
        *,
        threads: int = MAX_THREADS,
        queue_size: int = QUEUE_SIZE,
        read_timeout: float = READ_TIMEOUT_S,
        request_deadline: float = REQUEST_DEADLINE_S,
    ) -> None:
        if threads < 1 or queue_size < 0 or read_timeout <= 0 or request_deadline <= 0:
            raise ValueError(
                f"threads must be at least 1, queue_size at least 0 and the timeouts above 0 (got "
                f"threads={threads}, queue_size={queue_size}, read_timeout={read_timeout}, "
                f"request_deadline={request_deadline})"
            )
        handler = type("BoundedHandler", (_Handler,), {"protocol_version": "HTTP/1.1"})
        super().__init__(host, port, app, handler)
        self.threads = threads
        self.read_timeout = read_timeout
        self.request_deadline = request_deadline
        self._waiting: queue.Queue[tuple[Any, Any] | None] = queue.Queue(maxsize=queue_size + threads)
        self._workers: list[threading.Thread] = []
        self._pool_lock = threading.Lock()

    def process_request(self, request: Any, client_address: Any) -> None:
        """Queue the connection for a worker, or answer 503 when the queue is full."""
        try:
            self._waiting.put_nowait((request, client_address))
        except queue.Full:
            try:
                request.settimeout(1.0)
                request.sendall(_BUSY)
            except OSError:
                pass
            self.shutdown_request(request)
            return
        with self._pool_lock:
            if len(self._workers) < self.threads:
                worker = threading.Thread(target=self._work, daemon=True, name=f"web-worker-{len(self._workers)}")
                self._workers.append(worker)
                worker.start()

    def _work(self) -> None:
        while True:
            item = self._waiting.get()
            if item is None:
                return
            request, client_address = item
            try:
                self.finish_request(request, client_address)
            except Exception:
                self.handle_error(request, client_address)
            finally:
                self.shutdown_request(request)

    def server_close(self) -> None:
        """Close the socket, drop the connections still waiting, and end the workers."""
        super().server_close()
        with self._pool_lock:
            while True:
                try:
                    item = self._waiting.get_nowait()
                except queue.Empty:
                    break
                if item is not None:
                    self.shutdown_request(item[0])
            for _ in self._workers:
                self._waiting.put_nowait(None)  # the queue holds at least ``threads``: room for each
            self._workers = []


def make_web_server(host: str, port: int, app: Any, **limits: Any) -> BoundedWSGIServer:
    """The server for ``app`` on ``host:port``; ``limits`` override this module's numbers
    (``threads``, ``queue_size``, ``read_timeout``, ``request_deadline``)."""
    return BoundedWSGIServer(host, port, app, **limits)
