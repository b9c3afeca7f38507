"""The production way with its proxy: Debian's nginx, configured by the archive's own
``deploy/nginx-site.conf`` (rendered by ``deploy.nginx``), in front of gunicorn run as
``tests/test_gunicorn.py`` runs it (DEBUG off, HTTPS on, collectstatic, threaded workers), with
``FIVES_TRUSTED_PROXIES=1`` as docs/deploy.md says. One gunicorn and one nginx serve the module.

It checks that pages and the API answer through nginx; that nginx serves a static file's
brotli or gzip copy itself, cached for good when its name is hashed; that Django sees the
client's own address and scheme, not what the client wrote in X-Forwarded-For or
X-Forwarded-Proto; that HTTPS works with a given certificate; and that the same 20 logs, sent
through the API, the upload form and the recorder's send, in chunks (``Transfer-Encoding:
chunked``) and with a length, through gunicorn and through nginx, are all stored with every
byte. The slow-header figures are ``python -m bench.slowheaders``'s; its machinery is run
small here.
"""

from __future__ import annotations

import hashlib
import http.client
import http.server
import json
import os
import re
import select
import shutil
import socket
import ssl
import subprocess
import threading
import time
import uuid

import pytest

from bench import slowheaders
from bench.served import (
    NO_THROTTLES,
    SIGNED_IN,
    TEST_GUNICORN,
    Gunicorn,
    free_port,
    gunicorn_missing,
    manage,
    production_env,
)
from deploy import nginx
from tests.archive.helpers import valid_log

# CI sets it (.ci/run, after `make proxy` installed nginx): a missing nginx fails, not skips.
REQUIRED = os.environ.get("FIVES_REQUIRE_PROXY") == "1"
CLUB = "tbilisi-fives-club"
LOGS = [json.dumps(valid_log(seed)).encode() for seed in range(1, 21)]
PIECE = 1000  # bytes a chunk: each log goes in several
WAYS = [
    ("api", False),
    ("api", True),
    ("form", False),
    ("form", True),
    ("recorder", False),
    ("recorder", True),
]
SERVERS = ["gunicorn", "nginx"]


def needs(reason: str | None) -> None:
    if reason:
        if REQUIRED:
            pytest.fail(f"FIVES_REQUIRE_PROXY=1 but {reason}")
        pytest.skip(reason)


def person(way: str, chunked: bool, server: str) -> str:
    """Each way in has a sender of its own: the same document sent again by the same person
    would be the same upload, and a lost body would hide behind the one kept before."""
    return f"{way}-{'chunked' if chunked else 'length'}-{server}"


SETUP = (
    SIGNED_IN
    + f"""
import json
from django.contrib.auth import get_user_model
from clubs.models import Membership
from clubs.services import club_create
from games.tokens import token_create
owner = get_user_model().objects.create_user('nino')
club = club_create(owner=owner, name='Tbilisi Fives Club', slug={CLUB!r})
people = {{}}
for name in {[person(way, chunked, server) for way, chunked in WAYS for server in SERVERS]!r}:
    user = get_user_model().objects.create_user(name)
    Membership.objects.create(club=club, user=user, role='member')
    token = token_create(user=user, name='proxy', scopes=['read', 'upload'])[1]
    people[name] = {{'token': token, 'session': signed_in(user)}}
print(json.dumps({{'club': club.pk, 'people': people}}))
"""
)


class Served:
    def __init__(self, directory, env, gunicorn, proxy_port, setup):
        self.directory = directory
        self.env = env
        self.gunicorn = gunicorn
        self.proxy_port = proxy_port
        self.club_id = setup["club"]
        self.people = setup["people"]

    def port(self, server: str) -> int:
        return self.gunicorn.port if server == "gunicorn" else self.proxy_port

    def shell(self, code: str):
        """Run ``code`` in the served archive's Django; return the JSON it printed last."""
        return json.loads(manage(self.env, "shell", "-c", code).splitlines()[-1])


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    needs(gunicorn_missing())
    needs(nginx.missing())
    directory = tmp_path_factory.mktemp("proxy")
    env = production_env(
        directory,
        FIVES_HTTPS="1",  # as production: HSTS and secure cookies on HTTPS requests
        FIVES_SSL_REDIRECT="0",  # nginx redirects plain HTTP itself (and gunicorn is asked here)
        FIVES_TRUSTED_PROXIES="1",  # docs/deploy.md's setting behind this nginx
        **NO_THROTTLES,
    )
    manage(env, "migrate", "--noinput")
    manage(env, "collectstatic", "--noinput")
    setup = json.loads(manage(env, "shell", "-c", SETUP).splitlines()[-1])
    gunicorn = Gunicorn(env, free_port(), TEST_GUNICORN, log=directory / "gunicorn.log")
    proxy_port = free_port()
    site = nginx.site(
        upstream=f"127.0.0.1:{gunicorn.port}",
        static_root=directory / "static",
        server_name="127.0.0.1 localhost",
        http_listen=f"127.0.0.1:{proxy_port}",
    )
    proxy = nginx.Nginx(directory / "nginx", site, ports=[proxy_port])
    gunicorn.start()
    try:
        proxy.start()
        try:
            yield Served(directory, env, gunicorn, proxy_port, setup)
        finally:
            proxy.stop()
    finally:
        gunicorn.stop()


def ask(port, method, path, *, body=None, headers=None, chunked=False, source=None, tls=None):
    """One request to 127.0.0.1:``port`` (from the address ``source``; over TLS with the
    context ``tls``); ``chunked`` sends the body in chunks of PIECE bytes and no length.
    Return (status, headers, body)."""
    address = (source, 0) if source else None
    if tls is not None:
        connection = http.client.HTTPSConnection(
            "127.0.0.1", port, timeout=60, context=tls, source_address=address
        )
    else:
        connection = http.client.HTTPConnection(
            "127.0.0.1", port, timeout=60, source_address=address
        )
    headers = dict(headers or {})
    try:
        if chunked:
            headers["Transfer-Encoding"] = "chunked"
            pieces = (body[at : at + PIECE] for at in range(0, len(body), PIECE))
            connection.request(method, path, body=pieces, headers=headers, encode_chunked=True)
        else:
            connection.request(method, path, body=body, headers=headers)
        answer = connection.getresponse()
        return answer.status, answer.headers, answer.read()
    finally:
        connection.close()


def cookies_of(headers) -> dict[str, str]:
    found = {}
    for line in headers.get_all("Set-Cookie") or []:
        name, _, rest = line.partition("=")
        found[name.strip()] = rest.split(";", 1)[0]
    return found


def signed_in_form(port: int, session: str | None = None, path="/uploads/new/", source=None):
    """GET a form as a browser would: (the cookies to send back, the form's CSRF token)."""
    cookie = f"sessionid={session}" if session else ""
    status, headers, page = ask(port, "GET", path, headers={"Cookie": cookie}, source=source)
    assert status == 200, page[:500]
    csrf = cookies_of(headers)["csrftoken"]
    token = re.search(rb'name="csrfmiddlewaretoken" value="([^"]+)"', page)[1].decode()
    return "; ".join(filter(None, [cookie, f"csrftoken={csrf}"])), csrf, token


def multipart(fields: dict[str, str], filename: str, data: bytes) -> tuple[bytes, str]:
    boundary = uuid.uuid4().hex
    parts = [
        f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"\r\n\r\n{value}\r\n'.encode()
        for name, value in fields.items()
    ]
    parts.append(
        f'--{boundary}\r\nContent-Disposition: form-data; name="file"; filename="{filename}"\r\n'
        "Content-Type: application/json\r\n\r\n".encode()
        + data
        + b"\r\n"
    )
    parts.append(f"--{boundary}--\r\n".encode())
    return b"".join(parts), f"multipart/form-data; boundary={boundary}"


def send(served, way: str, chunked: bool, server: str, log: bytes) -> int | str:
    """Send one log the way named; return the upload the archive says it made, or what it
    answered instead."""
    port = served.port(server)
    me = served.people[person(way, chunked, server)]
    origin = f"http://127.0.0.1:{port}"
    if way == "api":
        status, headers, body = ask(
            port,
            "POST",
            "/api/v1/uploads/",
            body=log,
            chunked=chunked,
            headers={"Authorization": f"Bearer {me['token']}", "Content-Type": "application/json"},
        )
        return json.loads(body)["id"] if status == 202 else f"{status} {body[:200]!r}"
    cookies, csrf, token = me.setdefault("form", signed_in_form(port, me["session"]))
    if way == "form":
        data, content_type = multipart(
            {"csrfmiddlewaretoken": token, "club": str(served.club_id)}, "night.json", log
        )
        status, headers, body = ask(
            port,
            "POST",
            "/uploads/new/",
            body=data,
            chunked=chunked,
            headers={"Cookie": cookies, "Content-Type": content_type, "Origin": origin},
        )
        made = re.fullmatch(r".*/uploads/(\d+)/", headers.get("Location", ""))
        return int(made[1]) if status == 302 and made else f"{status} {body[:200]!r}"
    status, headers, body = ask(
        port,
        "POST",
        "/record/send/",
        body=json.dumps({"club": CLUB, "log": log.decode()}).encode(),
        chunked=chunked,
        headers={
            "Cookie": cookies,
            "X-CSRFToken": csrf,
            "Content-Type": "application/json",
            "Origin": origin,
        },
    )
    return json.loads(body)["upload"] if status == 201 else f"{status} {body[:200]!r}"


STORED = """
import hashlib, json
from games.models import Upload
found = {}
for upload in Upload.objects.filter(pk__in=IDS).prefetch_related('items'):
    document = upload.document
    found[upload.pk] = {
        'size': upload.size,
        'length': len(document),
        'sha256': hashlib.sha256(document).hexdigest(),
        'status': upload.status,
        'problem': upload.problem,
        'items': [[item.status, item.match_id] for item in upload.items.all()],
    }
print(json.dumps(found))
"""


def test_the_same_20_logs_are_stored_whole_however_sent(served):
    """0 bytes lost over chunked, length-given and form uploads of the same 20 logs, through
    gunicorn and through nginx: each kept as sent, each log the one match."""
    sent: dict[tuple[str, str, str], list[int | str]] = {}
    for way, chunked in WAYS:
        for server in SERVERS:
            answers = [send(served, way, chunked, server, log) for log in LOGS]
            sent[way, "chunked" if chunked else "length", server] = answers
    ids = [pk for answers in sent.values() for pk in answers if isinstance(pk, int)]
    assert len(set(ids)) == len(ids), "each sender's upload is an upload of its own"
    stored = served.shell(STORED.replace("IDS", repr(ids)))

    lost = []  # (way, sent how, server, log, what was answered or kept instead)
    bytes_lost = 0
    matches_of_log: list[set] = [set() for _ in LOGS]
    for name, answers in sent.items():
        for index, pk in enumerate(answers):
            upload = stored.get(str(pk)) if isinstance(pk, int) else None
            digest = hashlib.sha256(LOGS[index]).hexdigest()
            if upload is None or upload["sha256"] != digest:
                lost.append((*name, index, upload or pk))
                bytes_lost += len(LOGS[index]) - (upload["length"] if upload else 0)
                continue
            assert upload["status"] == "accepted", upload
            ((status, match),) = upload["items"]
            assert status in ("accepted", "duplicate") and match is not None, upload
            matches_of_log[index].add(match)
    ways_lost = sorted({name[:3] for name in lost})
    total = len(LOGS) * len(sent)
    assert not lost, f"{len(lost)} of {total} uploads lost ({bytes_lost} bytes), sent " + (
        f"{ways_lost}: {lost[:2]}"
    )
    assert all(len(found) == 1 for found in matches_of_log), "each log is one match"
    assert len(set().union(*matches_of_log)) == len(LOGS)


def test_pages_and_the_api_answer_through_nginx(served):
    status, headers, page = ask(served.proxy_port, "GET", "/")
    assert status == 200 and b"<html" in page
    assert headers["Server"] == "nginx", "no version said"
    assert "Retry-After" not in headers
    assert "script-src" in headers["Content-Security-Policy"]
    status, headers, body = ask(served.proxy_port, "GET", "/api/v1/matches/")
    assert status == 200 and "results" in json.loads(body)


def test_nginx_serves_static_files_precompressed_and_cached(served):
    static = served.directory / "static"
    _, _, page = ask(served.proxy_port, "GET", "/")
    name = re.search(rb'src="/static/(js/site\.[0-9a-f]{12}\.js)"', page)[1].decode()
    encodings = {"gzip": ".gz"}
    if nginx.BROTLI_MODULE.exists() or REQUIRED:
        encodings["br"] = ".br"
    for encoding, suffix in encodings.items():
        status, headers, body = ask(
            served.proxy_port, "GET", f"/static/{name}", headers={"Accept-Encoding": encoding}
        )
        assert status == 200 and headers["Content-Encoding"] == encoding
        # The copy collectstatic wrote, sent as it is; and nginx's own header (WhiteNoise
        # says max-age=315360000): the file never reached gunicorn.
        assert body == (static / (name + suffix)).read_bytes()
        assert headers["Cache-Control"] == "public, max-age=31536000, immutable"
        assert "Accept-Encoding" in headers["Vary"]
        assert headers["X-Content-Type-Options"] == "nosniff"
    status, headers, body = ask(served.proxy_port, "GET", f"/static/{name}")
    assert status == 200 and "Content-Encoding" not in headers
    assert body == (static / name).read_bytes()
    # A name without its hash may change: kept a minute.
    status, headers, _ = ask(served.proxy_port, "GET", "/static/replays/replay.js")
    assert status == 200 and headers["Cache-Control"] == "public, max-age=60"
    # Pyodide's files: its modules are JavaScript to the browser, its folder is its hash.
    (pyodide,) = (static / "recorder" / "pyodide").iterdir()
    folder = f"/static/recorder/pyodide/{pyodide.name}"
    status, headers, _ = ask(served.proxy_port, "GET", f"{folder}/pyodide.mjs")
    assert status == 200 and headers["Content-Type"] == "text/javascript"
    assert headers["Cache-Control"] == "public, max-age=31536000, immutable"
    status, headers, _ = ask(served.proxy_port, "GET", f"{folder}/pyodide.asm.wasm")
    assert status == 200 and headers["Content-Type"] == "application/wasm"


def addresses_seen(served) -> dict[str, str]:
    code = (
        "import json\nfrom axes.models import AccessAttempt\n"
        "print(json.dumps(dict(AccessAttempt.objects.values_list('username', 'ip_address'))))"
    )
    return served.shell(code)


def test_django_sees_the_clients_address_and_scheme_not_what_it_wrote(served):
    """Wrong passwords are counted by address (the sign-in lock-out): the address Django
    took is the one the attempt is stored under. The client comes from 127.0.0.2; nginx
    reaches gunicorn from 127.0.0.1."""

    def wrong_password(port: int, username: str, forwarded: str | None) -> None:
        cookies, _, token = signed_in_form(port, path="/accounts/login/", source="127.0.0.2")
        headers = {
            "Cookie": cookies,
            "Content-Type": "application/x-www-form-urlencoded",
            "Origin": f"http://127.0.0.1:{port}",
        }
        if forwarded:
            headers["X-Forwarded-For"] = forwarded
        body = f"csrfmiddlewaretoken={token}&username={username}&password=not-it".encode()
        status, _, page = ask(
            port, "POST", "/accounts/login/", body=body, headers=headers, source="127.0.0.2"
        )
        assert status == 200, page[:300]  # the form again, saying the password is wrong

    wrong_password(served.proxy_port, "through-nginx", None)
    wrong_password(served.proxy_port, "through-nginx-forged", "203.0.113.7")
    # Straight to gunicorn, the same forged header is believed: why gunicorn listens on
    # 127.0.0.1 alone behind nginx (and why this check can tell).
    wrong_password(served.gunicorn.port, "straight-forged", "203.0.113.7")
    seen = addresses_seen(served)
    assert seen["through-nginx"] == "127.0.0.2"
    assert seen["through-nginx-forged"] == "127.0.0.2"
    assert seen["straight-forged"] == "203.0.113.7"

    # The scheme: a client saying it came by HTTPS over plain HTTP is not believed (HSTS is
    # sent on HTTPS answers only); straight to gunicorn it would be.
    forged = {"X-Forwarded-Proto": "https"}
    _, headers, _ = ask(served.proxy_port, "GET", "/", headers=forged)
    assert "Strict-Transport-Security" not in headers
    _, headers, _ = ask(served.gunicorn.port, "GET", "/", headers=forged)
    assert "Strict-Transport-Security" in headers


class BusyGunicorn:
    """A gunicorn whose threads are busy, in front of the real one: it holds every request
    for ``/hold/`` until ``release`` (as a thread busy with it would), and passes every other
    request to the real gunicorn, whose answer it sends back (the refusals' words among them).
    """

    def __init__(self, gunicorn_port: int) -> None:
        self.holding = 0
        self.released = threading.Event()
        outer = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def log_message(self, *args) -> None:
                pass

            def _answer(self) -> None:
                if self.path.startswith("/hold/"):
                    outer.holding += 1
                    outer.released.wait(60)
                    self.send_response(200)
                    self.send_header("Content-Length", "0")
                    self.end_headers()
                    return
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length) if length else None
                status, headers, page = ask(
                    gunicorn_port, self.command, self.path, body=body, headers=dict(self.headers)
                )
                self.send_response(status)
                for name, value in headers.items():
                    if name.lower() not in ("connection", "transfer-encoding", "date", "server"):
                        self.send_header(name, value)
                self.end_headers()
                self.wfile.write(page)

            do_GET = do_POST = do_HEAD = _answer

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.port = self.server.server_address[1]
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def release(self) -> None:
        self.released.set()

    def close(self) -> None:
        self.released.set()
        self.server.shutdown()
        self.server.server_close()


def slow_body(port: int, source: str) -> socket.socket:
    """A live step whose body comes a byte at a time (the issue's door): its headers and the
    first byte of its 100,000."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=10, source_address=(source, 0))
    sock.sendall(slowheaders.BODY_OPENING)
    return sock


def test_one_address_has_at_most_16_requests_at_gunicorn(served, tmp_path):
    """The gate counts an address's requests from when nginx has them whole until gunicorn
    has answered: with 16 at a busy gunicorn, one more from that address is answered 429, in
    the archive's words and saying when to come back, while other addresses, its static
    files and its bodies still arriving are served or kept; once gunicorn answers, the
    address is served again."""
    busy = BusyGunicorn(served.gunicorn.port)
    port = free_port()
    site = nginx.site(
        upstream=f"127.0.0.1:{busy.port}",
        static_root=served.directory / "static",
        server_name="127.0.0.1 localhost",
        http_listen=f"127.0.0.1:{port}",
    )
    held = [
        threading.Thread(target=ask, args=(port, "GET", "/hold/"), kwargs={"source": "127.0.0.3"})
        for _ in range(16)
    ]
    bodies: list[socket.socket] = []
    try:
        with nginx.Nginx(tmp_path / "nginx", site, ports=[port]):
            for thread in held:
                thread.start()
            deadline = time.monotonic() + 20
            while busy.holding < 16:
                assert time.monotonic() < deadline, f"{busy.holding} of 16 reached gunicorn"
                time.sleep(0.05)
            # Bodies still arriving from the address are kept at nginx, not refused.
            bodies = [slow_body(port, "127.0.0.3") for _ in range(20)]
            status, headers, page = ask(
                port, "GET", "/", headers={"Accept-Language": "ru"}, source="127.0.0.3"
            )
            assert status == 429 and headers["Retry-After"] == "1"
            assert "Попробуйте через 1 секунду" in page.decode()
            status, headers, body = ask(port, "GET", "/api/v1/", source="127.0.0.3")
            assert status == 429 and headers["Retry-After"] == "1"
            error = json.loads(body)["error"]
            assert error["code"] == "throttled" and error["retry_after"] == 1
            assert ask(port, "GET", "/", source="127.0.0.4")[0] == 200
            assert ask(port, "GET", "/static/replays/replay.js", source="127.0.0.3")[0] == 200
            assert not select.select(bodies, [], [], 0.5)[0], "a body arriving was answered"
            busy.release()
            for thread in held:
                thread.join(30)
            assert ask(port, "GET", "/", source="127.0.0.3")[0] == 200
    finally:
        for sock in bodies:
            sock.close()
        busy.close()


def test_slow_bodies_cost_their_address_only_their_own_connections(served):
    """The issue's pub: 40 live steps whose bodies trickle in (a byte every 3 s) from one
    address, more than its 16 places at gunicorn; that address's pages and API answers,
    arriving meanwhile, are all served. ``python -m bench.slowheaders`` measures the same,
    larger."""
    figures = slowheaders.measure_bodies(served.proxy_port, bodies=40, seconds=8, rate=5)
    print(slowheaders.report_bodies({"nginx": figures}, bodies=40, seconds=8, timeout=10, rate=5))
    assert figures.bodies_open_at_start == 40
    assert figures.requests >= 20
    assert figures.served == figures.requests, "the address was refused or lost requests"


def test_an_address_past_its_requests_at_nginx_is_refused_in_the_archives_words(served):
    """What nginx still bounds: an address's requests in progress at nginx (256), bodies
    arriving among them. Past that, its next request is answered 429 at once, in the
    archive's words (a body refused so is read first: sent whole, it is answered so too;
    trickling, it is cut within seconds); other addresses are served."""
    bodies = [slow_body(served.proxy_port, "127.0.0.5") for _ in range(256)]
    try:
        deadline = time.monotonic() + 60
        while (status := ask(served.proxy_port, "GET", "/", source="127.0.0.5")[0]) != 429:
            # nginx reads the held bodies' headers as it gets to them: until all 256 are
            # counted, a probe is served. Each body trickles on meanwhile (a byte each
            # round), as a slow phone's does: a body silent for 20 s is cut by nginx
            # (client_body_timeout), and on a loaded CI machine the probes took that long.
            assert status == 200
            cut = [sock for sock in select.select(bodies, [], [], 0)[0]]
            assert time.monotonic() < deadline and not cut, (
                f"256 bodies arriving, yet the address is served ({len(cut)} cut by nginx)"
            )
            for sock in bodies:
                sock.send(b"x")
            time.sleep(0.1)
        status, headers, page = ask(
            served.proxy_port, "GET", "/", headers={"Accept-Language": "ru"}, source="127.0.0.5"
        )
        assert status == 429 and headers["Retry-After"] == "1"
        assert "Попробуйте через 1 секунду" in page.decode()
        status, _, body = ask(
            served.proxy_port, "POST", "/api/v1/uploads/", body=LOGS[0], source="127.0.0.5"
        )
        assert status == 429 and json.loads(body)["error"]["code"] == "throttled"
        one_more = slow_body(served.proxy_port, "127.0.0.5")
        bodies.append(one_more)
        one_more.settimeout(10)
        started = time.monotonic()
        answer = one_more.recv(100)  # its body stops coming: nginx lets it go
        assert time.monotonic() - started < 5, "a refused body trickling was held"
        assert not answer.startswith(b"HTTP/1.1 2"), answer
        assert ask(served.proxy_port, "GET", "/", source="127.0.0.4")[0] == 200
    finally:
        for sock in bodies:
            sock.close()
    deadline = time.monotonic() + 10
    while ask(served.proxy_port, "GET", "/", source="127.0.0.5")[0] != 200:
        assert time.monotonic() < deadline, "the address is still refused"
        time.sleep(0.1)


def test_a_body_past_the_limit_is_refused_by_nginx_in_the_archives_words(served):
    """Past the upload limit and the form's fields (21 MiB), nginx answers 413 as soon as it
    reads the length, before a byte of the body: the API's error shape, or a page in the
    reader's language."""
    too_large = str(nginx.UPLOAD_MAX_BYTES + nginx.FORM_FIELDS_BYTES + 1)
    me = served.people[person("api", False, "nginx")]
    status, _, body = ask(
        served.proxy_port,
        "POST",
        "/api/v1/uploads/",
        headers={"Authorization": f"Bearer {me['token']}", "Content-Length": too_large},
    )
    assert status == 413
    assert json.loads(body)["error"]["code"] == "too-large"
    status, _, page = ask(
        served.proxy_port,
        "POST",
        "/uploads/new/",
        headers={"Content-Length": too_large, "Accept-Language": "ka"},
    )
    assert status == 413 and "არაფერი შენახულა" in page.decode()
    # Asked for straight, the address of those words is nginx's own 404.
    assert ask(served.proxy_port, "GET", "/proxy/refused/413/")[0] == 404


def test_https_with_a_given_certificate(served, tmp_path):
    needs(None if shutil.which("openssl") else "needs openssl to make a certificate")
    certificate, key = tmp_path / "fullchain.pem", tmp_path / "key.pem"
    command = ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1"]
    command += ["-keyout", str(key), "-out", str(certificate), "-subj", "/CN=localhost"]
    command += ["-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1"]
    subprocess.run(command, check=True, capture_output=True)
    plain, secure = free_port(), free_port()
    site = nginx.site(
        upstream=f"127.0.0.1:{served.gunicorn.port}",
        static_root=served.directory / "static",
        server_name="127.0.0.1 localhost",
        http_listen=f"127.0.0.1:{plain}",
        https_listen=f"127.0.0.1:{secure}",
        certificate=certificate,
        certificate_key=key,
    )
    tls = ssl.create_default_context(cafile=str(certificate))
    with nginx.Nginx(tmp_path / "nginx", site, ports=[plain, secure]):
        status, headers, _ = ask(plain, "GET", "/matches/?page=2")
        assert status == 301
        assert headers["Location"] == f"https://127.0.0.1:{secure}/matches/?page=2"
        status, headers, page = ask(secure, "GET", "/", tls=tls)
        assert status == 200 and b"<html" in page
        # Django knows the request came by HTTPS: HSTS, and the secure cookie of a form.
        assert headers["Strict-Transport-Security"].startswith("max-age=31536000")
        status, headers, _ = ask(secure, "GET", "/accounts/login/", tls=tls)
        assert status == 200
        assert any(
            line.startswith("csrftoken=") and "Secure" in line
            for line in headers.get_all("Set-Cookie")
        )
        status, headers, _ = ask(
            secure, "GET", "/static/replays/replay.js", tls=tls, headers={"Accept-Encoding": "gzip"}
        )
        assert status == 200 and headers["Content-Encoding"] == "gzip"


def test_the_slow_header_bench_runs_small(served):
    """``python -m bench.slowheaders`` measures with the same machinery, larger: here its
    slow connections are held against both servers, and every normal request is counted."""
    for port in (served.gunicorn.port, served.proxy_port):
        figures = slowheaders.measure(port, slow=8, requests=12, rate=10, timeout=10)
        assert figures.slow_open_at_start == 8
        assert figures.answered + figures.timed_out + figures.failed == 12
        assert figures.statuses.get(200, 0) >= 1
    assert "timed out at 10 s" in slowheaders.report(
        {"gunicorn alone": figures, "nginx in front": figures}, slow=8, timeout=10, rate=10
    )


@pytest.mark.django_db
def test_the_words_nginx_asks_for_when_it_refuses(client):
    """fivesite/refusals.py, asked as nginx asks (without nginx): a page in the reader's
    language, or under /api/ the API's error shape, a 429's wait said alike in both."""
    page = client.get("/proxy/refused/413/", HTTP_ACCEPT_LANGUAGE="ru")
    assert page.status_code == 413 and "Ничего не сохранено" in page.content.decode()
    answer = client.get("/proxy/refused/429/", HTTP_X_FIVES_REFUSED_URI="/api/v1/uploads/")
    assert answer.status_code == 429 and answer["Retry-After"] == "1"
    error = answer.json()["error"]
    assert error["code"] == "throttled" and error["retry_after"] == 1
    assert "1 second" in error["message"]
    assert client.get("/proxy/refused/502/").status_code == 404
