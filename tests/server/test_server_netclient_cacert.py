"""``parlour play --connect --cacert FILE`` (issue #36 item 3): a server whose TLS
certificate a private CA signed is trusted through that CA's file alone, over HTTPS for
the seat and WSS for the game; without it the certificate is refused in one line; a
file that is not a certificate is a usage error (exit 2) before any connection."""

from __future__ import annotations

import datetime
import faulthandler
import ipaddress
import os
import ssl
import subprocess
import sys
import tempfile
import textwrap
import threading
import time
from pathlib import Path

import httpx
import pytest
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID

from parlour.loadtest.procs import free_port
from parlour.netclient import play_remote

pytestmark = [pytest.mark.timeout(180)]


def _name(cn: str) -> x509.Name:
    return x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, cn)])


def make_ca_and_server_cert(folder: Path) -> tuple[Path, Path, Path]:
    """A private CA and a certificate it signs for localhost and 127.0.0.1."""
    now = datetime.datetime.now(datetime.UTC)
    ca_key = ec.generate_private_key(ec.SECP256R1())
    ca = (x509.CertificateBuilder().subject_name(_name("parlour test CA"))
          .issuer_name(_name("parlour test CA")).public_key(ca_key.public_key())
          .serial_number(x509.random_serial_number())
          .not_valid_before(now - datetime.timedelta(minutes=5))
          .not_valid_after(now + datetime.timedelta(days=1))
          .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
          .add_extension(x509.KeyUsage(False, False, False, False, False, True, True, False,
                                       False), critical=True)
          .sign(ca_key, hashes.SHA256()))
    key = ec.generate_private_key(ec.SECP256R1())
    cert = (x509.CertificateBuilder().subject_name(_name("localhost"))
            .issuer_name(ca.subject).public_key(key.public_key())
            .serial_number(x509.random_serial_number())
            .not_valid_before(now - datetime.timedelta(minutes=5))
            .not_valid_after(now + datetime.timedelta(days=1))
            .add_extension(x509.SubjectAlternativeName([
                x509.DNSName("localhost"), x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]),
                critical=False)
            .sign(ca_key, hashes.SHA256()))
    paths = folder / "ca.pem", folder / "server.pem", folder / "server.key"
    paths[0].write_bytes(ca.public_bytes(serialization.Encoding.PEM))
    paths[1].write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    paths[2].write_bytes(key.private_bytes(serialization.Encoding.PEM,
                                           serialization.PrivateFormat.PKCS8,
                                           serialization.NoEncryption()))
    return paths


SERVE = textwrap.dedent("""
    import sys, uvicorn
    from parlour.server import create_app
    from parlour.server.settings import Settings
    port, db, cert, key = sys.argv[1:]
    s = Settings(db_url="sqlite:///" + db, bot_delay=0.02, round_pause=0.0,
                 public_url=f"https://localhost:{port}")
    uvicorn.run(create_app(s, testing=True), host="127.0.0.1", port=int(port),
                ssl_certfile=cert, ssl_keyfile=key, log_level="info")
""")


@pytest.fixture
def tls_server(tmp_path):
    ca, cert, key = make_ca_and_server_cert(tmp_path)
    port = free_port()
    log = (tmp_path / "server.log").open("w")  # read back when the test fails
    proc = subprocess.Popen([sys.executable, "-c", SERVE, str(port),
                             str(tmp_path / "db.sqlite3"), str(cert), str(key)],
                            stdout=log, stderr=subprocess.STDOUT)
    base = f"https://localhost:{port}"
    try:
        deadline = time.monotonic() + 150
        while True:
            assert proc.poll() is None, "the TLS server exited"
            try:
                r = httpx.get(base + "/healthz", verify=ssl.create_default_context(cafile=ca),
                              timeout=5)
                if r.status_code == 200 and r.json().get("bots") != "starting":
                    break  # up, and its bot workers have loaded the engines
            except httpx.TransportError:
                pass
            assert time.monotonic() < deadline, "the TLS server never became ready"
            time.sleep(0.2)
        yield base, ca, proc
    finally:
        proc.terminate()
        proc.wait(30)
        log.close()


def test_the_private_ca_file_is_trusted_for_https_and_wss(tls_server):
    base, ca, server = tls_server

    def server_log() -> str:  # and where this process's threads stand
        with tempfile.TemporaryFile("w+") as f:
            faulthandler.dump_traceback(f, all_threads=True)
            f.seek(0)
            stacks = f.read()
        return (ca.parent / "server.log").read_text(errors="replace")[-3000:] + \
            "\n--- this process's threads:\n" + stacks[-5000:]

    r = httpx.post(base + "/api/tables", verify=ssl.create_default_context(cafile=ca),
                   timeout=60, json={
        "game": "fanti", "players": 2, "rules": {"rounds": 1}, "name": "Hana",
        "seats": [{"kind": "person"}, {"kind": "person"}]})
    assert r.status_code == 201, r.text
    invite = r.json()["invite_url"]
    assert invite.startswith("https://localhost:")

    refused: list[str] = []  # the system's trust does not know the private CA
    assert play_remote(invite, input_fn=lambda p: "q", output=refused.append, retries=0) == 1
    assert "CERTIFICATE_VERIFY_FAILED" in refused[-1] and refused[-1].startswith("parlour: ")

    out: list[str] = []
    welcomed = threading.Event()

    def output(line: str) -> None:
        out.append(line)
        if not line.startswith(("You sit in", "Your rejoin link")):
            welcomed.set()  # the table's state came over WSS, through the private CA

    codes: list[int] = []
    player = threading.Thread(target=lambda: codes.append(play_remote(
        invite, input_fn=lambda p: "q", output=output, retries=0, cacert=ca)), daemon=True)
    player.start()
    assert welcomed.wait(60), "\n".join(out) + "\n--- the server's log:\n" + server_log()
    server.terminate()  # the game cannot start without its host: end it here
    player.join(60)
    text = "\n".join(out)
    assert out[0].startswith("You sit in seat 1 at https://localhost:"), text
    assert "CERTIFICATE_VERIFY_FAILED" not in text and "Traceback" not in text
    assert codes, text


def test_a_bad_cacert_is_one_line_and_exit_2(tmp_path):
    not_pem = tmp_path / "ca.pem"
    not_pem.write_text("hello\n")
    env = {**os.environ, "NO_COLOR": "1"}
    for path in (not_pem, tmp_path / "missing.pem"):
        p = subprocess.run([sys.executable, "-m", "parlour", "play", "--connect",
                            "https://localhost:1/t/abc#invite=k", "--cacert", str(path)],
                           capture_output=True, text=True, env=env, timeout=60)
        assert p.returncode == 2, p.stderr
        assert f"--cacert {path}: not a readable PEM certificate file" in p.stderr
        assert "Traceback" not in p.stderr
    p = subprocess.run([sys.executable, "-m", "parlour", "play", "fanti", "--cacert",
                        str(not_pem)], capture_output=True, text=True, env=env, timeout=60)
    assert p.returncode == 2 and "--cacert goes with --connect" in p.stderr
