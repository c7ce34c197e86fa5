#!/usr/bin/env python3
"""A stand-in for the presenter process that breaks the presenter protocol
on purpose, for the host's tests (PresenterProcessConfiguration.executable
points here). It speaks the protocol of Sources/HostEngine/Sandbox/
PresenterMessage.swift correctly, except where FAKE_SCENARIO says:

  garbage-on-render      a frame whose body is no message
  oversized-on-render    a frame that announces 2 MiB
  wrong-sequence-on-show a reply numbered as no request was
  duplicate-reply-on-show  the show's reply twice
  bad-hello              hello with protocol version 99
  no-hello               a reply before any hello
  close-channel          closes its channel after the first reply, and stays
  unknown-view-on-show   asks for a frame for a view it was never given
  trailing-bytes-on-show bytes after the end of the show's reply
  too-many-on-render     5000 drawing operations
  paints-without-end     4096 boxes of 40 x 5 cells at each render, more than
                         a render of its own engine sends
  element-on-render      an element operation for a view it does not have
  evil-create-failed     a failed create in the name of a presenter it was
                         not given, made of escape sequences
  evil-refused           refuses to load, with escape sequences in the loader's
                         words of its refusal
  wrong-handles-on-load  answers a load with handles the host did not number
  unasked-refusal-on-load  refuses a file the load did not ask for

FAKE_PIDFILE, when set, gets its process id. Arguments: --presenter-process PID.
"""
import json
import os
import struct
import sys
import time

CHANNEL = 3
scenario = os.environ.get("FAKE_SCENARIO", "")
if os.environ.get("FAKE_PIDFILE"):
    # As the host's /proc numbers it: in a PID namespace of its own, getpid() is 1.
    with open(os.environ["FAKE_PIDFILE"], "w") as f:
        f.write("%s\n" % os.readlink("/proc/self"))


def send(body):
    os.write(CHANNEL, struct.pack("<I", len(body)) + body)


def string(text):
    data = text.encode()
    return struct.pack("<I", len(data)) + data


def reply(sequence, result, requests=b"\0\0\0\0"):
    send(bytes([103]) + struct.pack("<I", sequence) + result + requests)


def read_exactly(count):
    data = b""
    while len(data) < count:
        chunk = os.read(CHANNEL, count - len(data))
        if not chunk:
            sys.exit(0)
        data += chunk
    return data


def loaded(body):
    """The handles of a load (protocol 4): one per presenter asked for,
    numbered from where the last load left off."""
    global handles
    offset = 13
    files = struct.unpack("<I", body[offset:offset + 4])[0]
    offset += 4
    answer = []
    for _ in range(files):
        offset += 4 + struct.unpack("<I", body[offset:offset + 4])[0]
        presenters = struct.unpack("<I", body[offset:offset + 4])[0]
        offset += 4
        for _ in range(presenters):
            offset += 4
            offset += 4 + struct.unpack("<I", body[offset:offset + 4])[0]
            answer.append(handles)
            handles += 1
    return bytes([6]) + struct.pack("<I", len(answer)) + b"".join(struct.pack("<I", h) for h in answer)


def load_path(body):
    """The first file a load asks for."""
    length = struct.unpack("<I", body[17:21])[0]
    return body[21:21 + length].decode()


handles = 0
DONE = bytes([0])
OUTCOME = bytes([3]) + struct.pack("<i", 0) + string("") + string("") + b"\0"
DRAWING = bytes([4]) + struct.pack("<I", 0)
KEY = bytes([5, 0])

if scenario == "no-hello":
    reply(1, DONE)
else:
    # Protocol 5 (2's hello: the version, then the sandbox it says it is
    # under; a stand-in process confines nothing: every layer is off. 3
    # added a byte to render, which the stand-in does not read; 4 answers
    # a load with handles; 5 added an interactor's timing, which it does
    # not read either).
    SANDBOX = "\n".join(f"{layer}\toff\ta stand-in" for layer in
                        ["privileges", "seccomp", "landlock", "namespaces", "limits"])
    send(bytes([100]) + struct.pack("<I", 99 if scenario == "bad-hello" else 5) + string(SANDBOX))

while True:
    length = struct.unpack("<I", read_exactly(4))[0]
    body = read_exactly(length)
    kind, sequence = body[0], struct.unpack("<I", body[1:5])[0]
    if kind == 7 and scenario == "garbage-on-render":
        send(b"\xfe" * 10)
    elif kind == 7 and scenario == "oversized-on-render":
        os.write(CHANNEL, struct.pack("<I", 2 << 20) + b"\0" * 64)
    elif kind == 7 and scenario == "too-many-on-render":
        operation = bytes([1]) + struct.pack("<iiIII", 0, 0, 2, 2, 0)
        reply(sequence, bytes([4]) + struct.pack("<I", 5000) + operation * 5000)
    elif kind == 7 and scenario == "paints-without-end":
        operation = bytes([1]) + struct.pack("<iiIII", 0, 0, 40, 5, 0)
        reply(sequence, bytes([4]) + struct.pack("<I", 4096) + operation * 4096)
    elif kind == 7 and scenario == "element-on-render":
        send(bytes([102]) + struct.pack("<I", 999) + string("get-title-button") + struct.pack("<i", 1))
        reply(sequence, DRAWING)
    elif kind == 3 and scenario == "evil-create-failed":
        reply(sequence, bytes([2]) + string("\x1b]0;PWNED\x07\x1b[?25l") + struct.pack("<i", 1) + b"\0")
    elif kind == 2 and scenario == "evil-refused":
        record = "X\t" + json.dumps({"dlopen": {"_0": "\x1b[41mEVIL\x1b[0m\x1b[?25l"}}, separators=(",", ":"))
        reply(sequence, bytes([1, 0]) + string(load_path(body)) + string(record))
    elif kind == 2 and scenario == "wrong-handles-on-load":
        reply(sequence, bytes([6]) + struct.pack("<II", 1, 5))
    elif kind == 2 and scenario == "unasked-refusal-on-load":
        reply(sequence, bytes([1, 1]) + string("/elsewhere/libother.so") + string("fixture.misbehaving"))
    elif kind == 4 and scenario == "wrong-sequence-on-show":
        reply(sequence + 5, OUTCOME)
    elif kind == 4 and scenario == "unknown-view-on-show":
        reply(sequence, OUTCOME, struct.pack("<I", 1) + struct.pack("<IQ", 999, 0))
    elif kind == 4 and scenario == "trailing-bytes-on-show":
        send(bytes([103]) + struct.pack("<I", sequence) + OUTCOME + b"\0\0\0\0" + b"extra")
    else:
        result = loaded(body) if kind == 2 else {4: OUTCOME, 5: OUTCOME, 6: OUTCOME, 7: DRAWING, 8: KEY}.get(kind, DONE)
        reply(sequence, result)
        if kind == 4 and scenario == "duplicate-reply-on-show":
            reply(sequence, result)
        if scenario == "close-channel":
            os.close(CHANNEL)
            time.sleep(30)
