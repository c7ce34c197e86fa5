#!/usr/bin/env python3
"""Clients of `presenter-host drive --socket PATH` for the tests.

    socket_clients.py PATH two      two clients at once: "a" sends a bad line
                                    between its start and succeed, "b" a start,
                                    a progress and a succeed with the same id
                                    "x"; prints each client's replies as JSON
    socket_clients.py PATH leave    starts an action and disconnects
"""
import json
import socket
import sys
import threading

path, mode = sys.argv[1], sys.argv[2]


def client(lines, replies, key, barrier=None):
    conn = socket.socket(socket.AF_UNIX)
    conn.connect(path)
    if barrier:
        barrier.wait()  # both connected before either writes
    conn.sendall("".join(line + "\n" for line in lines).encode())
    conn.shutdown(socket.SHUT_WR)
    data = b""
    while chunk := conn.recv(65536):
        data += chunk
    replies[key] = [json.loads(line) for line in data.decode().splitlines()]


if mode == "two":
    replies = {}
    barrier = threading.Barrier(2)
    a = threading.Thread(target=client, args=([
        '{"start": "x", "working": "Client A works"}',
        'not json',
        '{"succeed": "x", "message": "Client A done"}'], replies, "a", barrier))
    b = threading.Thread(target=client, args=([
        '{"start": "x", "working": "Client B works"}',
        '{"progress": "x", "fraction": 0.5}',
        '{"succeed": "x", "message": "Client B done"}'], replies, "b", barrier))
    a.start(); b.start(); a.join(); b.join()
    print(json.dumps(replies, sort_keys=True))
elif mode == "leave":
    client(['{"start": "y", "working": "Left open"}'], {}, "c")
