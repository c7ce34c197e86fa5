"""One client of the drive part: connects to the driver's socket, sends
COUNT actions (start with an empty working message, then succeed), closes
its sending side and prints whatever the driver sends back (error lines)."""
import socket
import sys

path, first, count = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
conn = socket.socket(socket.AF_UNIX)
conn.connect(path)
lines = ['{"start": "a%d", "working": ""}\n{"succeed": "a%d"}\n' % (i, i) for i in range(first, first + count)]
conn.sendall("".join(lines).encode())
conn.shutdown(socket.SHUT_WR)
replies = b""
while True:
    chunk = conn.recv(65536)
    if not chunk:
        break
    replies += chunk
sys.stdout.write(replies.decode())
