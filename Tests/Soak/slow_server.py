"""A slow loopback HTTP server for the soak's add-bookmark runs.

    python3 slow_server.py

Listens on 127.0.0.1 (a port the kernel picks), prints "port N" and serves,
one thread a connection, until its stdin reaches end of file. Every page is
slow or broken in its own way:

  /delay/MS?title=T   the page, after MS milliseconds
  /drip/MS?title=T    the head at once, then the page a few bytes every MS ms
  /stall              the head and the start of the page, then nothing
  /silent             nothing at all (not even a status line)
  /cut                half the page it announced, then the connection closes
  /status/N           status N after a short wait
  /big/MIB            MIB MiB of filler, then the title (the host stops at 1 MiB)

A stalled or silent page waits at most 60 s, or until the client goes.
"""
import http.server
import socketserver
import sys
import threading
import time
import urllib.parse

stop = threading.Event()


def page(title):
    return ("<html><head><title>%s</title></head><body>soak</body></html>" % title).encode()


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, format, *args):
        pass

    def head(self, length, status=200):
        self.send_response(status)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(length))
        self.end_headers()

    def do_GET(self):
        url = urllib.parse.urlsplit(self.path)
        query = dict(urllib.parse.parse_qsl(url.query))
        parts = url.path.strip("/").split("/")
        title = query.get("title", "Soak")
        try:
            self.serve(parts[0], parts[1:], title)
        except OSError:
            pass  # the client went away: that is what the soak does to it

    def serve(self, route, arguments, title):
        if route == "delay":
            stop.wait(int(arguments[0]) / 1000)
            body = page(title)
            self.head(len(body))
            self.wfile.write(body)
        elif route == "drip":
            body = page(title)
            self.head(len(body))
            for start in range(0, len(body), 7):
                self.wfile.write(body[start:start + 7])
                self.wfile.flush()
                stop.wait(int(arguments[0]) / 1000)
        elif route == "stall":
            self.head(100000)
            self.wfile.write(b"<html><head>")
            self.wfile.flush()
            stop.wait(60)
        elif route == "silent":
            stop.wait(60)
        elif route == "cut":
            body = page(title)
            self.head(len(body) * 2)
            self.wfile.write(body[: len(body) // 2])
            self.wfile.flush()
            self.close_connection = True
        elif route == "status":
            stop.wait(0.05)
            body = page("Status " + arguments[0])
            self.head(len(body), int(arguments[0]))
            self.wfile.write(body)
        elif route == "big":
            filler = b"<p>" + b"filler " * 9361 + b"</p>\n"
            count = int(arguments[0]) * 16
            tail = page(title)
            self.head(len(filler) * count + len(tail))
            for _ in range(count):
                self.wfile.write(filler)
            self.wfile.write(tail)
        else:
            body = page("Not found")
            self.head(len(body), 404)
            self.wfile.write(body)


class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
    daemon_threads = True
    request_queue_size = 128

    def handle_error(self, request, client_address):
        pass  # a client that went away (the soak kills fetches): nothing to report


server = Server(("127.0.0.1", 0), Handler)
print("port %d" % server.server_address[1], flush=True)
threading.Thread(target=server.serve_forever, daemon=True).start()
sys.stdin.read()
stop.set()
