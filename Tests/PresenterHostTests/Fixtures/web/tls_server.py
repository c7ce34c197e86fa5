#!/usr/bin/env python3
"""A loopback server for get-title's scheme tests (WebTitleSchemeTests):
one port that speaks both TLS and plain HTTP, as a test needs to see which
one a client chose.

    tls_server.py

Makes a self-signed certificate for 127.0.0.1 with openssl (in a temporary
folder, removed at the end), listens on 127.0.0.1 on a port the kernel
picks, prints "port N" on stdout and serves until its stdin reaches end of
file (the test process holds the other end). Each connection is told apart
by its first byte: 0x16 opens a TLS handshake (the certificate is not one
the client trusts: a client that checks refuses it), anything else is plain
HTTP.

Pages (GET):
  /page      a page titled "Over https" or "Over http", by what it came over
  /count     "tls=N http=M": the TLS handshakes begun so far and the plain
             HTTP requests for /page (this page itself is not counted)
"""
import http.server
import os
import shutil
import socket
import socketserver
import ssl
import subprocess
import sys
import tempfile
import threading

lock = threading.Lock()
counts = {"tls": 0, "http": 0}


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def do_GET(self):
        secure = isinstance(self.connection, ssl.SSLSocket)
        if self.path == "/count":
            with lock:
                body = "tls=%d http=%d" % (counts["tls"], counts["http"])
            self.answer(body.encode(), "text/plain")
        elif self.path == "/page":
            if not secure:
                with lock:
                    counts["http"] += 1
            title = "Over https" if secure else "Over http"
            self.answer(("<html><head><title>%s</title></head></html>" % title).encode(), "text/html")
        else:
            self.answer(b"not found", "text/plain", status=404)

    def answer(self, body, content_type, status=200):
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Connection", "close")
        self.end_headers()
        self.wfile.write(body)


class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
    daemon_threads = True
    context = None

    def finish_request(self, request, client_address):
        first = request.recv(1, socket.MSG_PEEK)
        if first == b"\x16":
            with lock:
                counts["tls"] += 1
            try:
                request = self.context.wrap_socket(request, server_side=True)
            except (ssl.SSLError, OSError):
                return  # the client refused the certificate
        self.RequestHandlerClass(request, client_address, self)


def main():
    folder = tempfile.mkdtemp(prefix="tls-server-")
    try:
        cert, key = os.path.join(folder, "cert.pem"), os.path.join(folder, "key.pem")
        subprocess.run(
            ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", cert,
             "-days", "2", "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1"],
            check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(cert, key)
        Server.context = context
        server = Server(("127.0.0.1", 0), Handler)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        sys.stdout.write("port %d\n" % server.server_address[1])
        sys.stdout.flush()
        sys.stdin.read()
        server.shutdown()
    finally:
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
