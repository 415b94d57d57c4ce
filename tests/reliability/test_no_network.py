"""The appliance opens no network port: checked in the source and in a running process.

The only socket the project may make is the sd_notify datagram to systemd in
app/watchdog.py (AF_UNIX, SOCK_DGRAM, sendto only). Each check is first shown
to catch a process or a source that does listen, so it cannot pass by accident.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

from app.games.macao import dump_record
from tests.reliability.helpers import seeded_game

REPO = Path(__file__).resolve().parents[2]
SOURCE_FOLDERS = ("app", "hardware", "vision", "bench")
SOCKET_ALLOWED_IN = {"app/watchdog.py"}
NETWORK_MODULES = {"socket", "socketserver", "http.server", "xmlrpc.server", "wsgiref.simple_server", "ssl"}
SERVER_CALLS = {"listen", "accept", "serve_forever", "start_server", "start_unix_server", "create_server",
                "create_datagram_endpoint", "create_connection", "open_connection"}
SOCKET_SERVER_CALLS = {"bind", "connect", "recv", "recvfrom"}  # checked only where socket is imported
PROC_NET_TABLES = ("tcp", "tcp6", "udp", "udp6", "raw", "raw6")
TCP_LISTEN = "0A"


def network_findings(source: str, relative: str) -> list[str]:
    """Every network or server use in one Python source, as 'file:line what'."""
    tree = ast.parse(source, filename=relative)
    findings = []
    imports_socket = False
    for node in ast.walk(tree):
        if isinstance(node, ast.Import | ast.ImportFrom):
            names = [alias.name for alias in node.names] if isinstance(node, ast.Import) else [node.module or ""]
            for name in names:
                if name in NETWORK_MODULES or name.split(".")[0] == "socket":
                    imports_socket = imports_socket or name == "socket"
                    if relative not in SOCKET_ALLOWED_IN:
                        findings.append(f"{relative}:{node.lineno} imports {name}")
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            if node.func.attr in SERVER_CALLS:
                findings.append(f"{relative}:{node.lineno} calls .{node.func.attr}()")
            if ast.unparse(node.func) == "socket.socket":
                arguments = ast.unparse(node)
                if relative not in SOCKET_ALLOWED_IN or "AF_UNIX" not in arguments or "SOCK_DGRAM" not in arguments:
                    findings.append(f"{relative}:{node.lineno} makes {arguments}")
    if imports_socket:
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
                if node.func.attr in SOCKET_SERVER_CALLS:
                    findings.append(f"{relative}:{node.lineno} calls .{node.func.attr}() next to a socket")
    return findings


def project_sources() -> list[Path]:
    return sorted(path for folder in SOURCE_FOLDERS for path in (REPO / folder).rglob("*.py"))


def test_the_scanner_catches_a_server() -> None:
    server = "import socket\ns = socket.socket(socket.AF_INET, socket.SOCK_STREAM)\ns.bind(('', 80))\ns.listen()\n"
    assert len(network_findings(server, "app/evil.py")) == 4
    asyncio_server = "import asyncio\nasync def main():\n    await asyncio.start_server(None, port=8080)\n"
    assert network_findings(asyncio_server, "app/evil.py") == ["app/evil.py:3 calls .start_server()"]
    assert network_findings("import http.server\n", "vision/evil.py") == ["vision/evil.py:1 imports http.server"]
    tcp_in_watchdog = "import socket\nsocket.socket(socket.AF_INET, socket.SOCK_STREAM)\n"
    assert network_findings(tcp_in_watchdog, "app/watchdog.py")


def test_the_source_opens_no_network_port() -> None:
    sources = project_sources()
    assert len(sources) > 20 and REPO / "app" / "session.py" in sources
    findings = [found for path in sources
                for found in network_findings(path.read_text(encoding="utf-8"), path.relative_to(REPO).as_posix())]
    assert findings == []
    others = [path for path in sources if path.relative_to(REPO).as_posix() not in SOCKET_ALLOWED_IN]
    assert all("socket.socket(" not in path.read_text(encoding="utf-8") for path in others)


def socket_inodes(pid: int) -> set[str]:
    inodes = set()
    for fd in Path(f"/proc/{pid}/fd").iterdir():
        try:
            target = fd.readlink().as_posix()
        except OSError:
            continue  # closed meanwhile
        if target.startswith("socket:["):
            inodes.add(target[len("socket:["):-1])
    return inodes


def inet_sockets(pid: int) -> list[tuple[str, str, str]]:
    """(table, local address, state) of every TCP/UDP/raw socket the process holds."""
    inodes = socket_inodes(pid)
    found = []
    for table in PROC_NET_TABLES:
        lines = Path(f"/proc/{pid}/net/{table}").read_text().splitlines()[1:]
        for line in lines:
            fields = line.split()
            if fields[9] in inodes:
                found.append((table, fields[1], fields[3]))
    return found


def inspect_while_running(code: str) -> tuple[set[str], list[tuple[str, str, str]], str]:
    """Run code in a child that prints 'ready' and waits for a line; look at its sockets meanwhile."""
    child = subprocess.Popen([sys.executable, "-c", code], cwd=REPO, stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert child.stdin is not None and child.stdout is not None and child.stderr is not None
    output = []
    for line in child.stdout:
        if line == "ready\n":
            break
        output.append(line)
    try:
        inodes, inet = socket_inodes(child.pid), inet_sockets(child.pid)
    finally:
        child.stdin.close()
        child.wait(timeout=30)
        errors = child.stderr.read()
        child.stdout.close()
        child.stderr.close()
    assert child.returncode == 0, errors
    return inodes, inet, "".join(output)


def test_the_port_inspection_sees_a_listening_socket() -> None:
    code = ("import socket, sys\ns = socket.socket()\ns.bind(('127.0.0.1', 0))\ns.listen()\n"
            "print('ready', flush=True)\nsys.stdin.readline()\n")
    inodes, inet, _ = inspect_while_running(code)
    assert len(inodes) == 1
    assert [(table, state) for table, _address, state in inet] == [("tcp", TCP_LISTEN)]


def test_scoring_and_playing_open_no_socket_at_all(tmp_path: Path) -> None:
    record = seeded_game(31)
    path = tmp_path / "record.json"
    path.write_text(dump_record(record), encoding="utf-8")
    code = f"""
import sys
from app.cli import main
from app.session import Session
assert main(["score", {str(path)!r}]) == 0
session = Session.open({str(tmp_path / "windrose.db")!r})
session.new_game("macao", {{"started": "now", "players": [{{"colour": "orange", "name": "Ann"}}, {{"colour": "white", "name": "Ben"}}], "wall": ["white", "orange"]}})
print("ready", flush=True)
sys.stdin.readline()
session.close()
"""
    inodes, inet, output = inspect_while_running(code)
    assert '"winner"' in output  # the score really ran
    assert inet == [] and inodes == set()
