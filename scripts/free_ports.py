#!/usr/bin/env python3
"""Free TCP ports on 127.0.0.1 for servers that must be named before they start (the throw-away Postgres and
broker, the compose smoke run's services).

Ports are taken below the kernel's ephemeral range: a port the kernel hands out for bind(0) comes from that
range, and between closing the probe and the server binding it, an outgoing connection (a service's to Postgres
or the broker) could take it as its source port (the server then fails with EADDRINUSE). Where fewer than
4,000 ports lie below that range, the kernel's choice. No port is handed out twice by one process.

usage: free_ports.py N    prints N distinct ports, space-separated
"""
import random
import socket
import sys

_handed_out: set[int] = set()


def free_port() -> int:
    with open("/proc/sys/net/ipv4/ip_local_port_range") as f:
        ephemeral_low = int(f.read().split()[0])
    low = max(1024, ephemeral_low - 12_000)
    for _ in range(1_000 if ephemeral_low - low >= 4_000 else 0):
        port = random.randrange(low, ephemeral_low)
        if port in _handed_out:
            continue
        with socket.socket() as sock:
            try:
                sock.bind(("127.0.0.1", port))
            except OSError:
                continue
        _handed_out.add(port)
        return port
    while True:
        with socket.socket() as sock:
            sock.bind(("127.0.0.1", 0))
            port = sock.getsockname()[1]
        if port not in _handed_out:
            _handed_out.add(port)
            return port


if __name__ == "__main__":
    print(" ".join(str(free_port()) for _ in range(int(sys.argv[1]))))
