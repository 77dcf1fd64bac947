#!/usr/bin/env python3
"""Prints a scenario for server.py: one sandbox that ran 28 to 19 minutes ago,
7 commands (3 a page), 3 lifecycle events, audit entries around it (2 a page;
a fetch keeps 3: those of 12, 25 and 35 minutes ago) and its metrics, all
timed from now.

    scenario.py [--sandbox ID] [--key KEY] [--fault JSON]...
"""
import argparse
import datetime
import json


def iso(minutes_ago):
    t = datetime.datetime.now(datetime.timezone.utc) - datetime.timedelta(minutes=minutes_ago)
    return t.strftime("%Y-%m-%dT%H:%M:%S.") + "%03dZ" % (t.microsecond // 1000)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--sandbox", default="7f3a2c10")
    ap.add_argument("--key", default="rk_test_SECRET_9f8e7d")
    ap.add_argument("--fault", action="append", default=[])
    a = ap.parse_args()
    sb = a.sandbox
    actor = {"kind": "agent", "id": "key_ci_7Qx", "name": "ci-agent"}
    commands = [{"id": "cmd-%d" % k, "sandboxId": sb, "program": "pytest", "exitCode": 0,
                 "state": "exited", "startedAt": iso(20 + k), "durationMs": 2000,
                 "actor": actor} for k in range(7)]
    events = [{"id": "ev-%s" % t, "type": "sandbox." + t, "createdAt": iso(m),
               "resourceId": sb, "data": {"sandbox": {"id": sb, "state": t}}}
              for t, m in (("stopped", 19), ("running", 27), ("created", 28))]
    audit = [{"seq": "%06d" % (100 - m), "id": "au-%d" % m, "at": iso(m),
              "action": "network.rules_changed", "actor": actor,
              "target": {"type": "sandbox", "id": sb} if m == 12 else
              {"type": "key", "id": "key_ci_7Qx"}, "detail": {}, "via": "api",
              "sandbox": sb if m == 25 else None}
             for m in (1, 12, 25, 35, 40, 120)]
    metrics = {"sandboxId": sb, "range": "?", "stepSeconds": 10,
               "points": [{"at": iso(25), "cpuPercent": 68.4, "memoryBytes": 536870912}]}
    print(json.dumps({"key": a.key, "page_size": 3, "audit_page_size": 2,
                      "commands": {sb: commands}, "events": events, "audit": audit,
                      "metrics": {sb: metrics},
                      "faults": [json.loads(f) for f in a.fault]}))


if __name__ == "__main__":
    main()
