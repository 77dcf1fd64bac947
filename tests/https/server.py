#!/usr/bin/env python3
"""A stand-in for Runtime's API over HTTPS on 127.0.0.1, for the fetch tests.

    server.py --cert CERT --key KEY --data SCENARIO.json --log REQUESTS.jsonl
              --port-file PORT

Listens on a free port of 127.0.0.1 only and writes the port to PORT once it
accepts connections. Serves, from SCENARIO.json:

    {"key": "...",                  the only accepted bearer token (else 401)
     "commands": {"<id>": [items]}, newest first; GET /v1/sandboxes/{id}/commands
     "events": [items],             GET /v1/events?resourceId=  (by resourceId)
     "audit": [items],              GET /v1/audit  ({events, next}, before=)
     "metrics": {"<id>": {...}},    GET /v1/sandboxes/{id}/metrics?range=
     "page_size": 3, "audit_page_size": 2,   at most this many items a page
     "audit_overlap": false,        each audit page repeats the last entry before
     "faults": [{"route": "commands|events|audit|metrics|*", "page": N,
                 "times": K (default 1, -1 for always), "action": A, ...}]}

Actions: "status" (status, retry_after, code, message, hint; the API's error
shape), "cut" (headers and half the body, then the connection closes),
"redirect" (302 to /v1/elsewhere), "hang" (never answers), "garbage" (200,
not JSON), "big" (200, a valid page of `size` bytes), "loop" (the page names
its own cursor as the next one), "raw" (status, headers, body as given).

Every request is appended to REQUESTS.jsonl as {"method", "path", "query",
"headers"} before it is answered. Cursors hold characters that must be
percent-encoded ("+", "/", "="): one sent unescaped reads back wrong and gets a
400. The standard library only; stop it with SIGTERM.
"""
import argparse
import json
import os
import re
import socket
import ssl
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit

RANGES = {"15m", "1h", "6h", "24h", "7d", "30d"}
STOP = threading.Event()


def cursor_for(prefix, offset):
    return "%s%d+x/y=" % (prefix, offset)


def offset_of(prefix, cursor):
    m = re.fullmatch(re.escape(prefix) + r"(\d+)\+x/y=", cursor)
    return int(m.group(1)) if m else None


class State:
    def __init__(self, scenario, log_path):
        self.s = scenario
        self.log_path = log_path
        self.lock = threading.Lock()
        self.faults = [dict(f) for f in scenario.get("faults", [])]
        self.counter = 0

    def log(self, entry):
        with self.lock:
            with open(self.log_path, "a", encoding="utf-8") as f:
                f.write(json.dumps(entry) + "\n")

    def fault(self, route, page):
        with self.lock:
            for f in self.faults:
                if f.get("route", "*") not in ("*", route):
                    continue
                if "page" in f and f["page"] != page:
                    continue
                times = f.get("times", 1)
                if times == 0:
                    continue
                if times > 0:
                    f["times"] = times - 1
                return f
            return None

    def request_id(self):
        with self.lock:
            self.counter += 1
            return "req_test_%d" % self.counter


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    disable_nagle_algorithm = True
    server_version = "runtime-test"

    def log_message(self, *args):
        pass

    # -- answers --------------------------------------------------------
    def send(self, status, body, headers=None):
        if isinstance(body, str):
            body = body.encode("utf-8")
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.send_header("x-request-id", self.rid)
        for k, v in (headers or {}).items():
            self.send_header(k, v)
        self.end_headers()
        self.wfile.write(body)

    def error(self, status, code, message, hint="", headers=None):
        body = {"error": {"code": code, "status": status, "message": message,
                          "hint": hint, "details": {}, "requestId": self.rid}}
        self.send(status, json.dumps(body), headers)

    def page(self, route, items, offset, size, prefix, env):
        """Returns the page's body and page number for items[offset:]."""
        chunk = items[offset:offset + size]
        nxt = offset + len(chunk)
        if route == "audit" and self.st.s.get("audit_overlap") and nxt < len(items):
            nxt -= 1
        more = nxt < len(items) and len(chunk) > 0
        data_key, next_key = env
        return {data_key: chunk, next_key: cursor_for(prefix, nxt) if more else None}

    # -- routing --------------------------------------------------------
    def do_GET(self):
        self.st = self.server.state
        self.rid = self.st.request_id()
        url = urlsplit(self.path)
        self.st.log({"method": "GET", "path": url.path, "query": url.query,
                     "headers": {k: v for k, v in self.headers.items()}})
        q = {k: v[0] for k, v in parse_qs(url.query, keep_blank_values=True).items()}
        key = self.st.s.get("key")
        if key is not None and self.headers.get("Authorization") != "Bearer " + key:
            return self.error(401, "unauthorized", "The API key is missing or not valid.",
                              "Create a key in the console and pass it as a Bearer token.")
        m = re.fullmatch(r"/v1/sandboxes/([^/]+)/(commands|metrics)", url.path)
        if m and m.group(2) == "commands":
            return self.listing("commands", self.st.s.get("commands", {}).get(m.group(1), []),
                                q, "cursor", 100, "c", ("data", "nextCursor"))
        if url.path == "/v1/events":
            items = [e for e in self.st.s.get("events", [])
                     if e.get("resourceId") == q.get("resourceId")]
            return self.listing("events", items, q, "cursor", 100, "e", ("data", "nextCursor"))
        if url.path == "/v1/audit":
            return self.listing("audit", self.st.s.get("audit", []), q, "before", 200, "a",
                                ("events", "next"))
        if m:
            return self.metrics(m.group(1), q)
        return self.error(404, "not_found", "No such route.")

    def limit(self, q, most):
        try:
            n = int(q.get("limit", ""))
        except ValueError:
            return None
        return n if 1 <= n <= most else None

    def listing(self, route, items, q, cursor_param, most, prefix, env):
        limit = self.limit(q, most)
        if limit is None:
            return self.error(400, "invalid_request", "limit must be 1-%d" % most)
        offset = 0
        if cursor_param in q:
            offset = offset_of(prefix, q[cursor_param])
            if offset is None:
                return self.error(400, "invalid_cursor", "That cursor is not one of ours.")
        size = min(limit, self.st.s.get("audit_page_size" if route == "audit" else "page_size",
                                        most))
        page_no = offset // size + 1 if size else 1
        body = self.page(route, items, offset, size, prefix, env)
        if self.fault_answer(route, page_no, body, env, q.get(cursor_param)):
            return
        self.send(200, json.dumps(body, indent=1))

    def metrics(self, sid, q):
        if q.get("range") not in RANGES:
            return self.error(400, "invalid_request", "range must be one of the six")
        obj = self.st.s.get("metrics", {}).get(sid)
        if obj is None:
            return self.error(404, "not_found", "No such sandbox.")
        obj = dict(obj, range=q["range"])
        if self.fault_answer("metrics", 1, obj, None, None):
            return
        self.send(200, json.dumps(obj, indent=2))

    def fault_answer(self, route, page_no, body, env, cursor):
        f = self.st.fault(route, page_no)
        if not f:
            return False
        act = f["action"]
        if act == "status":
            hdrs = {"Retry-After": f["retry_after"]} if "retry_after" in f else {}
            self.error(f["status"], f.get("code", "error"), f.get("message", ""),
                       f.get("hint", ""), hdrs)
        elif act == "cut":
            raw = json.dumps(body, indent=1).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(raw)))
            self.end_headers()
            self.wfile.write(raw[:len(raw) // 2])
            self.wfile.flush()
            self.close_connection = True
            try:
                self.connection.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
        elif act == "redirect":
            port = self.server.server_address[1]
            self.send(302, "{}", {"Location": "https://127.0.0.1:%d/v1/elsewhere" % port})
        elif act == "hang":
            STOP.wait(60)
            self.close_connection = True
        elif act == "garbage":
            self.send(200, "<html>this is not JSON</html>")
        elif act == "big":
            pad = "x" * max(0, f["size"] - 40)
            self.send(200, json.dumps({env[0]: [], env[1]: None, "pad": pad}))
        elif act == "loop":
            body = dict(body)
            body[env[1]] = cursor or cursor_for(route[0], 0)
            self.send(200, json.dumps(body))
        elif act == "raw":
            self.send(f["status"], f.get("body", ""), f.get("headers", {}))
        return True


def main():
    ap = argparse.ArgumentParser()
    for a in ("--cert", "--key", "--data", "--log", "--port-file"):
        ap.add_argument(a, required=True)
    args = ap.parse_args()
    with open(args.data, encoding="utf-8") as f:
        scenario = json.load(f)
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    httpd.daemon_threads = True
    httpd.state = State(scenario, args.log)
    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    ctx.load_cert_chain(args.cert, args.key)
    # the handshake happens in the request's thread, not in accept()
    httpd.socket = ctx.wrap_socket(httpd.socket, server_side=True,
                                   do_handshake_on_connect=False)
    tmp = args.port_file + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(str(httpd.server_address[1]))
    os.rename(tmp, args.port_file)
    try:
        httpd.serve_forever()
    finally:
        STOP.set()


if __name__ == "__main__":
    main()
