"""The HTTP transport of the chat client: one request per try, over the standard library, bounded in time and size.

Why not the HTTP library's own transport: its timeout bounds each network operation, not a request, so a server that
trickles a byte every half second holds a call forever; and it reads a reply of any length into memory. Here a try
ends at its deadline whatever the server sends (a timer shuts the socket down, which wakes a blocked read), and the
body is read up to `max_body_bytes`: past it a 2xx reply is refused unread (`BodyTooLong`), an error body is cut.
The openai client is handed this transport (`http_client=`), so its request building, status errors and
Retry-After are unchanged. One connection per try, closed after it; proxies from the environment are used as
urllib reads them (HTTPS through CONNECT).
"""

from __future__ import annotations

import base64
import http.client
import socket
import ssl
import threading
import urllib.parse
import urllib.request
import httpx2

_DROPPED_REQUEST = {"accept-encoding", "connection", "content-length", "transfer-encoding"}
"""Request headers http.client writes itself (the body is asked for uncompressed: no decompression of untrusted
bytes)."""
_DROPPED_RESPONSE = {"content-encoding", "content-length", "transfer-encoding", "connection"}
"""Response headers that describe the transfer, not the body handed on (already de-chunked, never decompressed)."""
CHUNK = 65_536


class BodyTooLong(httpx2.ReadError):
    """A 2xx body longer than the transport reads: the reply is refused unread (the message says how much)."""


class BoundedTransport(httpx2.BaseTransport):
    """Sends each request on a fresh connection, within `timeout` seconds in all, reading at most `max_body_bytes`."""

    def __init__(self, timeout: float, max_body_bytes: int) -> None:
        self.timeout = timeout
        self.max_body_bytes = max_body_bytes

    def handle_request(self, request: httpx2.Request) -> httpx2.Response:
        url = request.url
        https = url.scheme == "https"
        port = url.port or (443 if https else 80)
        target = url.raw_path.decode("ascii")
        headers = {k: v for k, v in request.headers.items() if k.lower() not in _DROPPED_REQUEST}
        connection, absolute = self._connection(url.host, port, https, headers)
        if absolute:  # a plain HTTP proxy takes the absolute URL
            target = f"http://{url.host}:{port}{target}"
        expired = threading.Event()

        def expire() -> None:
            expired.set()
            sock = connection.sock
            if sock is not None:
                try:
                    sock.shutdown(socket.SHUT_RDWR)  # wakes a read blocked on a trickling server
                except OSError:
                    pass

        timer = threading.Timer(self.timeout, expire)
        timer.daemon = True
        timer.start()
        try:
            connection.connect()
            if expired.is_set():
                raise socket.timeout("connect")
            connection.request(request.method, target, body=request.read(), headers=headers)
            response = connection.getresponse()
            body = self._body(response, request)
            if expired.is_set():
                raise socket.timeout("read")
        except BodyTooLong:
            raise
        except (OSError, http.client.HTTPException, ValueError, OverflowError) as err:  # OverflowError: a bad port
            if expired.is_set() or isinstance(err, socket.timeout):
                raise httpx2.ReadTimeout(f"no complete reply within {self.timeout:g} s", request=request) from None
            if isinstance(err, (ConnectionRefusedError, socket.gaierror)):
                raise httpx2.ConnectError(f"{type(err).__name__}: {err}", request=request) from None
            raise httpx2.ReadError(f"{type(err).__name__}: {err}", request=request) from None
        finally:
            timer.cancel()
            connection.close()
        kept = [(k, v) for k, v in response.getheaders() if k.lower() not in _DROPPED_RESPONSE]
        return httpx2.Response(response.status, headers=kept, content=body, request=request)

    def _body(self, response: http.client.HTTPResponse, request: httpx2.Request) -> bytes:
        """Return the body, read in chunks up to max_body_bytes (BodyTooLong for a longer 2xx body)."""
        parts, size = [], 0
        while True:
            chunk = response.read(CHUNK)
            if not chunk:
                return b"".join(parts)
            size += len(chunk)
            if size > self.max_body_bytes:
                if 200 <= response.status < 300:
                    raise BodyTooLong(f"the reply's body is longer than {self.max_body_bytes:,} bytes", request=request)
                parts.append(chunk[: len(chunk) - (size - self.max_body_bytes)])
                return b"".join(parts)  # an error body: its start says enough
            parts.append(chunk)

    def _connection(self, host: str, port: int, https: bool, headers: dict) -> tuple[http.client.HTTPConnection, bool]:
        """Return the connection to `host`, or to the environment's proxy for it, and whether the request line must
        carry the absolute URL (a plain HTTP proxy)."""
        proxy = (
            None if urllib.request.proxy_bypass(host) else urllib.request.getproxies().get("https" if https else "http")
        )
        context = ssl.create_default_context() if https else None
        if not proxy:
            return (
                http.client.HTTPSConnection(host, port, timeout=self.timeout, context=context)
                if https
                else http.client.HTTPConnection(host, port, timeout=self.timeout)
            ), False
        parsed = urllib.parse.urlsplit(proxy if "://" in proxy else f"http://{proxy}")
        auth: dict[str, str] = {}
        if parsed.username is not None:
            token = f"{urllib.parse.unquote(parsed.username)}:{urllib.parse.unquote(parsed.password or '')}"
            auth["Proxy-Authorization"] = "Basic " + base64.b64encode(token.encode()).decode()
        proxy_port = parsed.port or 80
        if https:
            connection = http.client.HTTPSConnection(parsed.hostname, proxy_port, timeout=self.timeout, context=context)
            connection.set_tunnel(host, port, headers=auth)
            return connection, False
        headers.update(auth)
        return http.client.HTTPConnection(parsed.hostname, proxy_port, timeout=self.timeout), True
