"""The offline guard of the browser tests bites: a page's request to any host off the loopback is blocked and recorded.

Every page the browser tests open runs under widget_driver.OfflineGuard (conftest's `browsing` fixture; the website's
pages under test_website.Reader, which routes the same way): JupyterLab with each notebook (test_lab.py), each Voila
app (test_voila.py), each page of the site (test_website.py). Here a page asks for one of everything from hosts that
are not this machine's, and every request must be refused before it leaves and named in the record.
"""

from __future__ import annotations

import pytest

from widget_driver import OfflineGuard, is_local

# TEST-NET-1 (RFC 5737) and a reserved name (RFC 6761): nothing would answer even if a request got out.
OUTSIDE = ["http://192.0.2.1/image.png", "https://cdn.example.invalid/lib.js", "https://192.0.2.1/style.css"]
_ASK = """([image, script, style, fetched, socket]) => {
  const img = document.createElement('img'); img.src = image; document.body.appendChild(img);
  const js = document.createElement('script'); js.src = script; document.head.appendChild(js);
  const css = document.createElement('link'); css.rel = 'stylesheet'; css.href = style; document.head.appendChild(css);
  fetch(fetched).catch(() => null);
  new WebSocket(socket);
}"""


def test_what_counts_as_this_machine() -> None:
    for url in (
        "http://127.0.0.1:8888/lab",
        "ws://localhost:1/api",
        "http://[::1]:80/",
        "http://127.3.4.5/",
        "data:,x",
    ):
        assert is_local(url), url
    for url in (
        "https://cdn.jsdelivr.net/npm/x",
        "http://192.168.1.2/",
        "wss://example.org/",
        "http://127.0.0.1.nip.io/",
    ):
        assert not is_local(url), url


@pytest.mark.browser
def test_the_guard_blocks_and_records_every_kind_of_request(browser) -> None:
    context = browser.new_context()
    try:
        guard = OfflineGuard(context)
        page = context.new_page()
        page.set_content("<!doctype html><html><head></head><body></body></html>")
        page.evaluate(_ASK, [*OUTSIDE, "https://192.0.2.1/data.json", "wss://192.0.2.1/socket"])
        expected = {*OUTSIDE, "https://192.0.2.1/data.json", "websocket wss://192.0.2.1/socket"}
        deadline = 50
        while set(guard.outside) != expected and deadline:
            page.wait_for_timeout(100)
            deadline -= 1
        assert set(guard.outside) == expected, guard.outside
        with pytest.raises(AssertionError, match="asked for 5 URL"):
            guard.assert_none("the test page")
        guard.assert_none("the test page", known=sorted(expected))  # a known, named request is let pass the check
    finally:
        context.close()
