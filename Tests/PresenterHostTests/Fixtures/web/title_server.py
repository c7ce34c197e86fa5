#!/usr/bin/env python3
"""A loopback HTTP server for the get-title tests (WebTitleFetchTests).

    title_server.py

Listens on 127.0.0.1, on a port the kernel picks, prints "port N" on stdout
and serves until its stdin reaches end of file (the test process holds the
other end: when it ends, so does this server). Threaded: a slow page does
not hold up the others.

Pages (GET):
  /page?title=T&type=CT&charset=CS&meta=M&body=B
      an HTML page; every part optional:
        title    the <title> element's raw markup (default "Hello");
                 "-" for no title element at all
        type     the Content-Type header (default text/html); "-" for none
        charset  bytes of the page are encoded in this codec (default utf-8)
        meta     raw markup put first in <head> (a meta tag)
        body     raw markup for <body>
  /raw/NAME        a canned page whose bytes are written exactly (RAW below)
  /gate/NAME?...   the /page of the same query, once /open/NAME was asked
                   for (at most 30 s later): a test sees the fetch pending,
                   then lets it end, without a timed wait
  /open/NAME       opens that gate
  /redirect/N      302 to /redirect/N-1; /redirect/0 is a page titled "Arrived"
  /redirect-to?to=L
                   302 with Location L, as given (a hostile server's
                   file:///page?title=T, unix:/..., data:..., gopher://...)
  /auth?user=U&password=P&scheme=S
                   401 with a WWW-Authenticate challenge for scheme S
                   (default Basic) unless the request carries HTTP Basic
                   authentication for U and P; then a page titled
                   "Welcome U"
  /auth-echo       a page titled "Authorization: " and the request's
                   Authorization header ("none" without one)
  /loop            302 to itself
  /nowhere         302 with no Location
  /status/N        status N with an HTML page titled "Status N"
  /slow            the head, then nothing for 30 s (or until the client goes)
  /slow-head       nothing at all for 30 s
  /slow-title?title=T
                   the head and the title, then nothing for 30 s
  /huge?id=I&title=T&at=start|end&mib=N
                   N MiB (default 64) of filler with the title at the start
                   or the end, sent in 64 KiB writes; how much was written
                   before the client went is kept under I for /sent
  /sent?id=I       "N": the bytes /huge?id=I wrote ("-1" while it writes)
  /seen?path=P     how many requests for P (path and query) came so far
  /json            application/json
  /gzip            a page sent gzip-compressed (Content-Encoding: gzip)
  /chunked         a page sent in chunks (Transfer-Encoding: chunked), the
                   title split across three of them

As a proxy: a request line with an absolute URL (GET http://host/path)
is answered with a page titled "Proxied host/path", as a proxy would
forward it; the request is remembered for /proxied.
  /proxied         the absolute URLs proxied so far, one a line
"""
import base64
import gzip
import http.server
import socketserver
import sys
import threading
import time
import urllib.parse

sent = {}
seen = {}
proxied = []
lock = threading.Lock()
stop = threading.Event()
gates = {}


def gate(name):
    with lock:
        return gates.setdefault(name, threading.Event())

RAW = {
    # Upper-case tags and attributes on the title; white space to collapse.
    "upper": b"<!DOCTYPE html>\n<HTML><HEAD>\n<TITLE Lang=\"en\" data-x='a>b'>\n  Upper\tCase \r\n Title  </TITLE>"
             b"</HEAD><BODY>x</BODY></HTML>",
    # A comment and a script holding a fake title come first.
    "decoys": b"<html><head><!-- <title>not this</title> --><script>var t = '<title>nor this</title>';</script>"
              b"<title>The &quot;real&quot; one</title></head></html>",
}


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, format, *args):  # quiet: the tests read stdout
        pass

    def send_page(self, status, body, content_type="text/html; charset=utf-8", extra=()):
        self.send_response(status)
        if content_type is not None:
            self.send_header("Content-Type", content_type)
        for name, value in extra:
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self):
        with lock:
            seen[self.path] = seen.get(self.path, 0) + 1
        if self.path.startswith("http://") or self.path.startswith("https://"):
            return self.proxy()
        url = urllib.parse.urlsplit(self.path)
        query = dict(urllib.parse.parse_qsl(url.query, keep_blank_values=True))
        parts = url.path.strip("/").split("/")
        route = getattr(self, "route_" + parts[0].replace("-", "_"), None)
        if route is None:
            return self.send_page(404, b"<title>Not found</title>")
        route(parts[1:], query)

    def proxy(self):
        target = urllib.parse.urlsplit(self.path)
        with lock:
            proxied.append(self.path)
        title = "Proxied %s%s" % (target.netloc, target.path)
        self.send_page(200, ("<html><head><title>%s</title></head></html>" % title).encode())

    def route_page(self, parts, query):
        title = query.get("title", "Hello")
        charset = query.get("charset", "utf-8")
        head = query.get("meta", "") + ("" if title == "-" else "<title>%s</title>" % title)
        page = "<html><head>%s</head><body>%s</body></html>" % (head, query.get("body", ""))
        content_type = query.get("type", "text/html")
        self.send_page(200, page.encode(charset), None if content_type == "-" else content_type)

    def route_gate(self, parts, query):
        gate(parts[0]).wait(30)
        self.route_page([], query)

    def route_open(self, parts, query):
        gate(parts[0]).set()
        self.send_page(200, b"<title>Opened</title>")

    def route_raw(self, parts, query):
        self.send_page(200, RAW[parts[0]], "text/html")

    def route_redirect(self, parts, query):
        left = int(parts[0])
        if left == 0:
            return self.send_page(200, b"<title>Arrived</title>")
        self.send_page(302, b"", extra=[("Location", "/redirect/%d" % (left - 1))])

    def route_redirect_to(self, parts, query):
        self.send_page(302, b"", extra=[("Location", query.get("to", "/"))])

    def route_auth(self, parts, query):
        expected = "Basic " + base64.b64encode(
            ("%s:%s" % (query.get("user", ""), query.get("password", ""))).encode()).decode()
        if self.headers.get("Authorization") != expected:
            return self.send_page(401, b"<title>Who are you?</title>",
                                  extra=[("WWW-Authenticate", '%s realm="test", nonce="n", qop="auth"'
                                          % query.get("scheme", "Basic"))])
        self.send_page(200, ("<title>Welcome %s</title>" % query.get("user", "")).encode())

    def route_auth_echo(self, parts, query):
        said = self.headers.get("Authorization") or "none"
        self.send_page(200, ("<title>Authorization: %s</title>" % said).encode())

    def route_loop(self, parts, query):
        self.send_page(302, b"", extra=[("Location", "/loop")])

    def route_nowhere(self, parts, query):
        self.send_page(302, b"<title>Moved, but not saying where</title>")

    def route_status(self, parts, query):
        code = int(parts[0])
        self.send_page(code, ("<title>Status %d</title>" % code).encode())

    def route_slow(self, parts, query):
        self.send_response(200)
        self.send_header("Content-Type", "text/html")
        self.send_header("Content-Length", "100000")
        self.end_headers()
        self.wfile.write(b"<html><head>")
        self.wfile.flush()
        stop.wait(30)

    def route_slow_head(self, parts, query):
        stop.wait(30)

    def route_slow_title(self, parts, query):
        self.send_response(200)
        self.send_header("Content-Type", "text/html")
        self.send_header("Content-Length", "100000")
        self.end_headers()
        self.wfile.write(("<html><head><title>%s</title>" % query.get("title", "Slow")).encode())
        self.wfile.flush()
        stop.wait(30)

    def route_huge(self, parts, query):
        mib = int(query.get("mib", "64"))
        title = ("<title>%s</title>" % query.get("title", "Huge")).encode()
        at_end = query.get("at") == "end"
        chunk = b"<p>" + b"filler " * 9361 + b"</p>\n"  # 65,531 bytes
        count = mib * 1024 * 1024 // len(chunk)
        self.send_response(200)
        self.send_header("Content-Type", "text/html")
        self.send_header("Content-Length", str(len(title) + count * len(chunk)))
        self.end_headers()
        written = 0
        try:
            if not at_end:
                self.wfile.write(title)
                written += len(title)
            for _ in range(count):
                self.wfile.write(chunk)
                written += len(chunk)
            if at_end:
                self.wfile.write(title)
                written += len(title)
        except OSError:
            pass  # the client stopped reading and went
        finally:
            with lock:
                sent[query.get("id", "")] = written

    def route_sent(self, parts, query):
        with lock:
            value = sent.get(query.get("id", ""), -1)
        self.send_page(200, str(value).encode(), "text/plain")

    def route_seen(self, parts, query):
        with lock:
            value = seen.get(query.get("path", ""), 0)
        self.send_page(200, str(value).encode(), "text/plain")

    def route_proxied(self, parts, query):
        with lock:
            text = "".join(line + "\n" for line in proxied)
        self.send_page(200, text.encode(), "text/plain")

    def route_gzip(self, parts, query):
        body = gzip.compress(b"<html><head><title>Squeezed &amp; Sent</title></head>" + b"<p>x</p>" * 1000)
        self.send_page(200, body, extra=[("Content-Encoding", "gzip")])

    def route_chunked(self, parts, query):
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Transfer-Encoding", "chunked")
        self.end_headers()
        for piece in (b"<html><head><ti", b"tle>In Th", "ree Pièces</title>".encode(), b"</head></html>"):
            self.wfile.write(b"%x\r\n%s\r\n" % (len(piece), piece))
            self.wfile.flush()
        self.wfile.write(b"0\r\n\r\n")

    def route_json(self, parts, query):
        self.send_page(200, b'{"title": "not a page"}', "application/json")


class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
    daemon_threads = True
    allow_reuse_address = True


def main():
    server = Server(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    print("port %d" % server.server_address[1], flush=True)
    sys.stdin.buffer.read()  # until the test process is gone
    stop.set()
    server.shutdown()


if __name__ == "__main__":
    main()
