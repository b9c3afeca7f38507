"""The archive's nginx configuration, from the templates beside this file.

    python -m deploy.nginx --server-name fives.example --static-root /srv/fives/staticfiles \\
        [--data-root /srv/fives/data] [--upstream 127.0.0.1:8000] \\
        [--stream-upstream 127.0.0.1:8001] \\
        [--certificate FULLCHAIN --certificate-key KEY] [--gate unix:/run/fives-nginx-gate.sock] \
        > /etc/nginx/sites-available/fives

writes the site (``nginx-site.conf`` filled in: the proxy in front of gunicorn and of the
live tables' event streams (gunicorn with uvicorn's workers), timeouts, limits per address
(at nginx, and at gunicorn through the gate, a second server on a local socket), static
files, TLS where a certificate is given) for Debian's ``/etc/nginx/nginx.conf``.
docs/deploy.md says the whole way. ``Nginx`` runs the same site in a folder of its own (its
gate's socket too), in the foreground, with ``nginx-standalone.conf`` around it: the tests
and ``bench.slowheaders`` do.
"""

from __future__ import annotations

import argparse
import os
import pathlib
import socket
import subprocess
import time

from deploy.process import Foreground

HERE = pathlib.Path(__file__).resolve().parent
NGINX = os.environ.get("FIVES_NGINX", "/usr/sbin/nginx")
# Debian's libnginx-mod-http-brotli-static (`make proxy` installs it with nginx).
BROTLI_MODULE = pathlib.Path("/usr/lib/nginx/modules/ngx_http_brotli_static_module.so")
MIME_TYPES = pathlib.Path("/etc/nginx/mime.types")
# The gate's socket (nginx-site.conf: the second server, which counts the requests at
# gunicorn); ``Nginx`` puts it in its own folder instead.
GATE = "unix:/run/fives-nginx-gate.sock"
# The archive's upload limit (settings.FIVES_UPLOAD_MAX_BYTES) and the form's fields on top.
UPLOAD_MAX_BYTES = int(os.environ.get("FIVES_UPLOAD_MAX_BYTES", 20 * 1024 * 1024))
FORM_FIELDS_BYTES = 1024 * 1024


def _render(template: str, **values: object) -> str:
    from django.template import Context, Engine

    text = (HERE / template).read_text(encoding="utf-8")
    context = {key: "" if value is None else value for key, value in values.items()}
    return Engine().from_string(text).render(Context(context, autoescape=False))


def _port(listen: str) -> int:
    return int(listen.rsplit(":", 1)[-1].split()[0])


def site(
    *,
    upstream: str,
    stream_upstream: str | None = None,
    static_root: str | os.PathLike,
    server_name: str = "_",
    http_listen: str = "80",
    https_listen: str = "443",
    certificate: str | os.PathLike | None = None,
    certificate_key: str | os.PathLike | None = None,
    brotli: bool | None = None,
    upload_max_bytes: int = UPLOAD_MAX_BYTES,
    requests_per_address: int = 16,
    requests_at_nginx: int = 256,
    gate: str = GATE,
    data_root: str | os.PathLike | None = None,
    data_url: str = "/data/files/",
) -> str:
    """Return the site's configuration: gunicorn at ``upstream`` (``host:port`` or
    ``unix:/path``) behind nginx on ``http_listen``, or on ``https_listen`` with TLS (plain
    HTTP then redirecting to it) when a ``certificate`` and its key are given; the live
    tables' event streams (``/live/stream/``) go to ``stream_upstream``, the ASGI server
    (without one, to gunicorn: the pages then ask again instead). Brotli copies
    are served where Debian's module is installed, unless ``brotli`` says otherwise. An
    address may have ``requests_at_nginx`` requests in progress at nginx (bodies arriving
    among them) and ``requests_per_address`` of them at gunicorn, counted by the gate
    listening on ``gate``. The open data's files (``FIVES_DATA_ROOT``) are served from
    ``data_root`` at ``data_url`` (``FIVES_DATA_URL``) where it is given."""
    if (certificate is None) != (certificate_key is None):
        raise ValueError("give a certificate and its key, or neither")
    https_port = _port(https_listen)
    return _render(
        "nginx-site.conf",
        upstream=upstream,
        stream_upstream=stream_upstream,
        static_root=str(static_root).rstrip("/"),
        server_name=server_name,
        http_listen=http_listen,
        https_listen=https_listen,
        https_port_suffix="" if https_port == 443 else f":{https_port}",
        certificate=certificate and str(certificate),
        certificate_key=certificate_key and str(certificate_key),
        brotli=BROTLI_MODULE.exists() if brotli is None else brotli,
        upload_max_bytes=str(upload_max_bytes),
        client_max_body_size=str(upload_max_bytes + FORM_FIELDS_BYTES),
        requests_per_address=str(requests_per_address),
        requests_at_nginx=str(requests_at_nginx),
        gate=gate,
        data_root=data_root and str(data_root).rstrip("/"),
        data_url="/" + data_url.strip("/") + "/",
    )


def missing() -> str | None:
    """Say why nginx cannot run here (None: it can)."""
    if not os.access(NGINX, os.X_OK):
        return f"needs Debian's nginx at {NGINX} (make proxy installs it)"
    if not MIME_TYPES.exists():
        return f"needs nginx's {MIME_TYPES} (Debian's nginx-common)"
    return None


class Nginx(Foreground):
    """nginx serving ``site_text`` from the folder ``prefix`` (its configuration, pid, logs
    and temporary files), in the foreground, until ``stop``."""

    def __init__(self, prefix: pathlib.Path, site_text: str, *, ports: list[int], workers=2):
        self.prefix = prefix
        self.ports = ports
        # The gate's socket in this folder: two of these on one machine never share it.
        site_text = site_text.replace(GATE, f"unix:{prefix / 'gate.sock'}")
        for folder in ("temp/body", "temp/proxy", "temp/fastcgi", "temp/uwsgi", "temp/scgi"):
            (prefix / folder).mkdir(parents=True, exist_ok=True)
        brotli = "brotli_static on;" in site_text
        self.config = prefix / "nginx.conf"
        self.config.write_text(
            _render(
                "nginx-standalone.conf",
                prefix=str(prefix),
                workers=str(workers),
                # Started by root, nginx's workers would run as nobody, who cannot read a
                # private temporary folder: here they stay the user who started them.
                user="root root" if os.geteuid() == 0 else None,
                brotli=brotli,
                brotli_module=str(BROTLI_MODULE),
                site=site_text,
            ),
            encoding="utf-8",
        )

    @property
    def error_log(self) -> str:
        path = self.prefix / "error.log"
        return path.read_text(errors="replace") if path.exists() else ""

    def start(self, timeout: float = 20) -> None:
        command = [NGINX, "-p", str(self.prefix), "-c", str(self.config)]
        command += ["-e", str(self.prefix / "error.log")]  # its start-up errors too
        checked = subprocess.run([*command, "-t"], capture_output=True, text=True)
        if checked.returncode:
            raise RuntimeError(f"nginx refuses its configuration:\n{checked.stderr}")
        self.process = subprocess.Popen(
            command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True
        )
        deadline = time.monotonic() + timeout
        for port in self.ports:
            while True:
                try:
                    socket.create_connection(("127.0.0.1", port), 1).close()
                    break
                except OSError:
                    if self.process.poll() is not None or time.monotonic() > deadline:
                        self.stop()
                        raise RuntimeError(f"nginx did not listen:\n{self.error_log}") from None
                    time.sleep(0.05)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--server-name", required=True, help="the site's host names")
    parser.add_argument(
        "--static-root", required=True, help="where collectstatic wrote (STATIC_ROOT)"
    )
    parser.add_argument("--upstream", default="127.0.0.1:8000", help="gunicorn's --bind")
    parser.add_argument(
        "--stream-upstream",
        help="the event streams' server's --bind (gunicorn fivesite.asgi, uvicorn's workers)",
    )
    parser.add_argument(
        "--gate", default=GATE, help="the socket of nginx's gate to gunicorn (unix:/path)"
    )
    parser.add_argument(
        "--data-root", help="where the open data's files are written (FIVES_DATA_ROOT)"
    )
    parser.add_argument("--data-url", default="/data/files/", help="their address (FIVES_DATA_URL)")
    parser.add_argument("--http-listen", default="80")
    parser.add_argument("--https-listen", default="443")
    parser.add_argument("--certificate", help="the certificate chain (PEM): TLS on")
    parser.add_argument("--certificate-key", help="its private key (PEM)")
    parser.add_argument(
        "--brotli",
        choices=["auto", "on", "off"],
        default="auto",
        help="serve the brotli copies (auto: where Debian's module is installed)",
    )
    args = parser.parse_args()
    print(
        site(
            upstream=args.upstream,
            stream_upstream=args.stream_upstream,
            static_root=args.static_root,
            server_name=args.server_name,
            http_listen=args.http_listen,
            https_listen=args.https_listen,
            certificate=args.certificate,
            certificate_key=args.certificate_key,
            brotli=None if args.brotli == "auto" else args.brotli == "on",
            gate=args.gate,
            data_root=args.data_root,
            data_url=args.data_url,
        ),
        end="",
    )


if __name__ == "__main__":
    main()
