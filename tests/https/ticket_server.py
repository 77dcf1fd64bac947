#!/usr/bin/env python3
"""Stand-ins for the ticket services sbxview exports to, over HTTPS on
127.0.0.1, for the export tests.

    ticket_server.py --cert CERT --key KEY --log REQUESTS.jsonl --port-file PORT
                     [--token T] [--jira-user U] [--prefill N] [--fault JSON]...

Listens on a free port of 127.0.0.1 only and writes the port to PORT once it
accepts connections. One server holds four services, each under a prefix
that the test puts in the service's base URL:

  /github  GITHUB_API_URL   POST|GET /repos/O/R/issues/N/comments, GET /repos/O/R/issues/N,
                            PATCH /repos/O/R/issues/comments/ID (an edit)
  /gitlab  GITLAB_URL       POST|GET /api/v4/projects/GROUP%2FPROJECT/issues/N/notes,
                            PUT .../issues/N/notes/ID (an edit)
  /jira    JIRA_URL         POST|GET /rest/api/{2,3}/issue/KEY/comment,
                            GET|PUT .../issue/KEY/comment/ID (read one, an edit; 404 when
                            the issue has no such comment), DELETE .../issue/KEY/comment/ID
  /slack   SLACK_WEBHOOK_URL POST /slack/services/T0/B0/SECRET

Each request is checked as the real service would want it: the method, the
path, the credentials (Bearer TOKEN; PRIVATE-TOKEN TOKEN; Basic U:TOKEN; for
Slack the URL's last segment is TOKEN), the headers (GitHub's Accept and
X-GitHub-Api-Version, Content-Type: application/json on every POST), the
query of a listing (GitHub per_page <= 100; GitLab sort=desc and
order_by=created_at; Jira orderBy=-created) and the body's shape ({"body":
string}; Jira v3: {"body": an ADF doc}; Slack: {"text": string}), and the
length limits (GitHub 65,536 characters: a 422 like GitHub's). Anything
wrong is answered 400 with what was wrong, and logged as "bad".

Comments are kept in memory, per issue; --prefill N gives each issue N
comments (other people's) to page through.

Faults, once each unless "times" says (-1: always), for "route" post or
list (default post):
  {"action": "status", "status": 401|403|500|..., "message": ...}
  {"action": "too_long"}                   the service's answer to a comment over its limit
  {"action": "rate", "retry_after": S}     429 with Retry-After
  {"action": "primary_limit"}              GitHub's 403 with X-RateLimit-Remaining: 0
  {"action": "stored", "status": 502}      the comment is kept, then a 502
  {"action": "lost"}                       the comment is kept, the connection closes
  {"action": "redirect"}                   301 to another host
  {"action": "hang"}                       no answer at all

Every request is appended to REQUESTS.jsonl as {"method", "path", "query",
"headers", "body", "status", "bad"} once answered. The standard library only;
stop it with SIGTERM.
"""
import argparse
import base64
import json
import os
import re
import socket
import ssl
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit

STOP = threading.Event()
GITHUB_LIMIT = 65536


def utf16_len(s):
    return len(s.encode("utf-16-le")) // 2


class State:
    def __init__(self, args):
        self.a = args
        self.lock = threading.Lock()
        self.faults = [json.loads(f) for f in args.fault]
        self.issues = {}
        self.next_id = 1000

    def log(self, entry):
        with self.lock:
            with open(self.a.log, "a", encoding="utf-8") as f:
                f.write(json.dumps(entry) + "\n")

    def fault(self, route):
        with self.lock:
            for f in self.faults:
                if f.get("route", "post") != route:
                    continue
                times = f.get("times", 1)
                if times == 0:
                    continue
                if times > 0:
                    f["times"] = times - 1
                return f
            return None

    def comments(self, service, issue):
        with self.lock:
            k = (service, issue)
            if k not in self.issues:
                self.issues[k] = []
                for i in range(self.a.prefill):
                    self.issues[k].append(self.make(service, issue, "an earlier comment %d" % i))
            return self.issues[k]

    def make(self, service, issue, body):
        self.next_id += 1
        cid = self.next_id
        if service == "github":
            return {"id": cid, "body": body, "user": {"login": "someone"},
                    "html_url": "https://github.test/%s#issuecomment-%d" % (issue, cid)}
        if service == "gitlab":
            return {"id": cid, "body": body, "system": False, "noteable_type": "Issue"}
        return {"id": str(cid), "body": body,
                "self": "https://jira.test/rest/api/3/issue/%s/comment/%d" % (issue, cid)}

    def edit(self, service, issue, cid, body):
        """The comment cid (of issue, or of any issue when issue is None) now
        says body; None when there is none."""
        with self.lock:
            for (svc, iss), lst in self.issues.items():
                if svc != service or (issue is not None and iss != issue):
                    continue
                for c in lst:
                    if str(c["id"]) == str(cid):
                        c["body"] = body
                        c["edited"] = c.get("edited", 0) + 1
                        return c
            return None

    def find(self, service, issue, cid):
        with self.lock:
            for c in self.issues.get((service, issue), []):
                if str(c["id"]) == str(cid):
                    return dict(c)
            return None

    def remove(self, service, issue, cid):
        with self.lock:
            lst = self.issues.get((service, issue), [])
            for c in lst:
                if str(c["id"]) == str(cid):
                    lst.remove(c)
                    return True
            return False

    def add(self, service, issue, body):
        lst = self.comments(service, issue)
        with self.lock:
            c = self.make(service, issue, body)
            lst.append(c)
            return c


class Bad(Exception):
    pass


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    disable_nagle_algorithm = True
    server_version = "tickets-test"

    def log_message(self, *args):
        pass

    def send(self, status, body, headers=None, ctype="application/json"):
        if not isinstance(body, str):
            body = json.dumps(body)
        raw = body.encode("utf-8")
        self.send_response(status)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(raw)))
        for k, v in (headers or {}).items():
            self.send_header(k, v)
        self.end_headers()
        self.wfile.write(raw)
        self.entry["status"] = status

    def do_GET(self):
        self.handle_any("GET")

    def do_POST(self):
        self.handle_any("POST")

    def do_PUT(self):
        self.handle_any("PUT")

    def do_PATCH(self):
        self.handle_any("PATCH")

    def do_DELETE(self):
        self.handle_any("DELETE")

    def edited(self, svc, issue, cid, body):
        self.header("Content-Type", "application/json")
        self.need(isinstance(body, dict) and list(body) == ["body"],
                  "the request body is {\"body\": ...}")
        if svc == "jira" and self.jira_api == "3":
            self.need(isinstance(body["body"], dict) and body["body"].get("type") == "doc",
                      "a v3 comment's body is an ADF document")
        else:
            self.need(isinstance(body["body"], str), "the request body is {\"body\": string}")
        c = self.st.edit(svc, issue, cid, body["body"])
        if c is None:
            if svc == "jira":
                return self.send(404, {"errorMessages": ["Can not find a comment for the id: %s."
                                                         % cid], "errors": {}})
            return self.send(404, {"message": "Not Found"})
        return self.send(200, c)

    def handle_any(self, method):
        self.st = self.server.state
        url = urlsplit(self.path)
        n = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(n) if n else b""
        try:
            body = json.loads(raw) if raw else None
        except ValueError:
            body = raw.decode("utf-8", "replace")
        self.entry = {"method": method, "path": url.path, "query": url.query,
                      "headers": dict(self.headers.items()), "body": body, "status": None}
        q = {k: v[0] for k, v in parse_qs(url.query, keep_blank_values=True).items()}
        try:
            self.route(method, url.path, q, body)
        except Bad as e:
            self.entry["bad"] = str(e)
            self.send(400, {"message": "test server: " + str(e)})
        finally:
            self.st.log(self.entry)

    def need(self, cond, what):
        if not cond:
            raise Bad(what)

    def header(self, name, want):
        got = self.headers.get(name)
        self.need(got == want, "header %s is %r, wanted %r" % (name, got, want))

    def route(self, method, path, q, body):
        tok = self.st.a.token
        m = re.fullmatch(r"/github/repos/([A-Za-z0-9_.-]+)/([A-Za-z0-9_.-]+)/issues/comments/(\d+)",
                         path)
        if m:
            if self.headers.get("Authorization") != "Bearer " + tok:
                return self.send(401, {"message": "Bad credentials"})
            self.header("Accept", "application/vnd.github+json")
            self.need(method == "PATCH", "a comment is edited with PATCH")
            return self.edited("github", None, m.group(3), body)
        m = re.fullmatch(r"/gitlab/api/v4/projects/([A-Za-z0-9_.-]+(?:%2F[A-Za-z0-9_.-]+)+)"
                         r"/issues/(\d+)/notes/(\d+)", path)
        if m:
            if self.headers.get("PRIVATE-TOKEN") != tok:
                return self.send(401, {"message": "401 Unauthorized"})
            self.need(method == "PUT", "a note is edited with PUT")
            issue = "%s/-/issues/%s" % (m.group(1).replace("%2F", "/"), m.group(2))
            return self.edited("gitlab", issue, m.group(3), body)
        m = re.fullmatch(r"/github/repos/([A-Za-z0-9_.-]+)/([A-Za-z0-9_.-]+)/issues/(\d+)"
                         r"(/comments)?", path)
        if m:
            if self.headers.get("Authorization") != "Bearer " + tok:
                return self.send(401, {"message": "Bad credentials",
                                       "documentation_url": "https://docs.github.com/rest"})
            self.header("Accept", "application/vnd.github+json")
            self.header("X-GitHub-Api-Version", "2022-11-28")
            issue = "%s/%s/issues/%s" % m.group(1, 2, 3)
            if not m.group(4):
                self.need(method == "GET", "the issue is only read")
                return self.send(200, {"number": int(m.group(3)),
                                       "comments": len(self.st.comments("github", issue))})
            return self.service("github", issue, method, q, body)
        m = re.fullmatch(r"/gitlab/api/v4/projects/([A-Za-z0-9_.-]+(?:%2F[A-Za-z0-9_.-]+)+)"
                         r"/issues/(\d+)/notes", path)
        if m:
            if self.headers.get("PRIVATE-TOKEN") != tok:
                return self.send(401, {"message": "401 Unauthorized"})
            issue = "%s/-/issues/%s" % (m.group(1).replace("%2F", "/"), m.group(2))
            return self.service("gitlab", issue, method, q, body)
        m = re.fullmatch(r"/jira/rest/api/([23])/issue/([A-Z][A-Z0-9_]*-\d+)/comment/(\d+)", path)
        if m:
            cred = base64.b64encode(("%s:%s" % (self.st.a.jira_user, tok)).encode()).decode()
            if self.headers.get("Authorization") != "Basic " + cred:
                return self.send(401, {"errorMessages": ["You are not authenticated."],
                                       "errors": {}})
            self.jira_api = m.group(1)
            if method == "DELETE":
                if self.st.remove("jira", m.group(2), m.group(3)):
                    return self.send(204, "", ctype="text/plain")
                return self.send(404, {"errorMessages": ["Can not find a comment for the id: %s."
                                                         % m.group(3)], "errors": {}})
            if method == "GET":
                c = self.st.find("jira", m.group(2), m.group(3))
                if c is None:
                    return self.send(404, {"errorMessages": ["Can not find a comment for the "
                                                             "id: %s." % m.group(3)], "errors": {}})
                return self.send(200, c)
            self.need(method == "PUT", "a Jira comment is edited with PUT")
            return self.edited("jira", m.group(2), m.group(3), body)
        m = re.fullmatch(r"/jira/rest/api/([23])/issue/([A-Z][A-Z0-9_]*-\d+)/comment", path)
        if m:
            cred = base64.b64encode(("%s:%s" % (self.st.a.jira_user, tok)).encode()).decode()
            if self.headers.get("Authorization") != "Basic " + cred:
                return self.send(401, {"errorMessages": ["You are not authenticated."],
                                       "errors": {}})
            self.jira_api = m.group(1)
            return self.service("jira", m.group(2), method, q, body)
        m = re.fullmatch(r"/slack/services/T0/B0/([A-Za-z0-9_]+)", path)
        if m:
            if m.group(1) != tok:
                return self.send(403, "invalid_token", ctype="text/plain")
            return self.service("slack", "channel", method, q, body)
        raise Bad("no such route: %s %s" % (method, path))

    def service(self, svc, issue, method, q, body):
        if method == "GET":
            self.need(svc != "slack", "a webhook is not read")
            f = self.st.fault("list")
            if f and self.fault(f, svc, issue, None):
                return
            return self.listing(svc, issue, q)
        self.need(method == "POST", "comments are made with POST")
        self.header("Content-Type", "application/json")
        if svc == "slack":
            self.need(isinstance(body, dict) and isinstance(body.get("text"), str),
                      "a Slack payload is {\"text\": ...}")
            text = body["text"]
        else:
            self.need(isinstance(body, dict) and list(body) == ["body"],
                      "the request body is {\"body\": ...}")
            text = body["body"]
            if svc == "jira" and self.jira_api == "3":
                self.need(isinstance(text, dict) and text.get("type") == "doc" and
                          text.get("version") == 1 and isinstance(text.get("content"), list),
                          "a v3 comment's body is an ADF document")
            else:
                self.need(isinstance(text, str), "the comment's body is a string")
        if svc == "github" and utf16_len(text) > GITHUB_LIMIT:
            self.entry["bad"] = "over GitHub's limit"
            return self.too_long(svc)
        f = self.st.fault("post")
        if f and self.fault(f, svc, issue, text):
            return
        return self.created(svc, issue, text)

    def created(self, svc, issue, text):
        if svc == "slack":
            self.st.add("slack", issue, text)
            return self.send(200, "ok", ctype="text/plain")
        c = self.st.add(svc, issue, text)
        return self.send(201, c)

    def listing(self, svc, issue, q):
        items = self.st.comments(svc, issue)
        if svc == "github":
            per = int(q.get("per_page", "30"))
            self.need(1 <= per <= 100, "per_page is 1..100")
            page = int(q.get("page", "1"))
            return self.send(200, items[(page - 1) * per: page * per])
        if svc == "gitlab":
            self.need(q.get("sort") == "desc" and q.get("order_by") == "created_at",
                      "notes are listed newest first")
            per = int(q.get("per_page", "20"))
            page = int(q.get("page", "1"))
            newest = list(reversed(items))
            return self.send(200, newest[(page - 1) * per: page * per])
        self.need(q.get("orderBy") == "-created", "comments are listed newest first")
        per = int(q.get("maxResults", "50"))
        start = int(q.get("startAt", "0"))
        newest = list(reversed(items))
        return self.send(200, {"startAt": start, "maxResults": per, "total": len(items),
                               "comments": newest[start:start + per]})

    def too_long(self, svc):
        """Each service's own answer to a comment over its limit."""
        if svc == "github":
            self.send(422, {"message": "Validation Failed", "errors": [
                {"resource": "IssueComment", "code": "custom", "field": "body",
                 "message": "body is too long (maximum is 65536 characters)"}],
                "documentation_url": "https://docs.github.com/rest"})
        elif svc == "gitlab":
            self.send(400, {"message": {"note": ["Note is too long (maximum is 1000000 "
                                                 "characters)"]}})
        elif svc == "jira":
            self.send(400, {"errorMessages": [], "errors": {
                "comment": "The entered text is too long. It exceeds the allowed limit of "
                           "32,767 characters."}})
        else:
            self.send(400, "invalid_payload", ctype="text/plain")

    def fault(self, f, svc, issue, text):
        act = f["action"]
        self.entry["fault"] = act
        if act == "status":
            msg = f.get("message", "failed")
            body = ({"errorMessages": [msg], "errors": {}} if svc == "jira" else
                    msg if svc == "slack" else {"message": msg})
            self.send(f["status"], body, ctype="text/plain" if svc == "slack" else
                      "application/json")
        elif act == "primary_limit":
            # GitHub's primary rate limit: 403, remaining 0, reset in a second
            self.send(403, {"message": "API rate limit exceeded for user ID 1.",
                            "documentation_url": "https://docs.github.com/rest"},
                      {"X-RateLimit-Remaining": "0",
                       "X-RateLimit-Reset": str(int(time.time()) + 1)})
        elif act == "too_long":
            self.too_long(svc)
        elif act == "rate":
            self.send(429, {"message": "API rate limit exceeded"} if svc != "slack" else
                      "rate_limited", {"Retry-After": str(f.get("retry_after", 1))},
                      ctype="text/plain" if svc == "slack" else "application/json")
        elif act == "stored":
            self.st.add(svc, issue, text)
            self.send(f.get("status", 502), "<html>502 Bad Gateway</html>", ctype="text/html")
        elif act == "lost":
            self.st.add(svc, issue, text)
            self.entry["status"] = "lost"
            self.close_connection = True
            try:
                self.connection.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
        elif act == "redirect":
            self.send(301, "", {"Location": "https://elsewhere.test/moved?secret=no"})
        elif act == "hang":
            self.entry["status"] = "hang"
            self.st.log(self.entry)
            self.entry = {"method": "-", "path": "-", "query": "", "status": "closed"}
            STOP.wait(60)
            self.close_connection = True
        else:
            return False
        return True


def main():
    ap = argparse.ArgumentParser()
    for a in ("--cert", "--key", "--log", "--port-file"):
        ap.add_argument(a, required=True)
    ap.add_argument("--token", default="ghp_TESTTOKEN0123456789abcdefABCDEF012345")
    ap.add_argument("--jira-user", default="reviewer@example.com")
    ap.add_argument("--prefill", type=int, default=0)
    ap.add_argument("--fault", action="append", default=[])
    args = ap.parse_args()
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    httpd.daemon_threads = True
    httpd.state = State(args)
    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    ctx.load_cert_chain(args.cert, args.key)
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
