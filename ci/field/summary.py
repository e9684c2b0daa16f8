#!/usr/bin/env python3
"""Print a field trial's summary from a `wsconform run --json` report.

    summary.py LABEL REPORT.json

Prints the verdict counts, the distinct root causes (rule, severity,
evidence, type and member, count) and every scenario that did not pass with
its reason, so that a field run reads in one screen. A `wsconform gate` or
`wsproxy` report (no features: its checks are the gate's) prints the same,
each root cause with the direction of its frames (c2s: the client's). Uses only the standard
library: it runs on a machine that has Debian's python3.
"""
import json
import sys
from collections import Counter


def main() -> int:
    if len(sys.argv) != 3:
        print(__doc__.strip().splitlines()[2].strip(), file=sys.stderr)
        return 2
    label, path = sys.argv[1], sys.argv[2]
    with open(path, encoding="utf-8") as f:
        rep = json.load(f)
    scenarios = rep.get("scenarios") or []
    counts = Counter(s["verdict"] for s in scenarios)
    order = ["passed", "observation", "non-strict", "failed", "flaky", "inconclusive", "skipped", "error", "not-run"]
    print(f"== {label}: {rep.get('verdict', '?').upper()}  " +
          "  ".join(f"{v} {counts.get(v, 0)}" for v in order))
    for c in (rep.get("coverage") or {}).get("counts") or []:
        why = ", ".join(f"{n} {k}" for k, n in sorted((c.get("not_tested_why") or {}).items()))
        print(f"   requirements: {c.get('stated', 0)} stated: {c.get('passed', 0)} passed, "
              f"{c.get('non_strict', 0)} non-strict, {c.get('observed', 0)} observed, {c.get('failed', 0)} failed, "
              f"{c.get('not_tested', 0)} not tested ({why})")
    causes = rep.get("root_causes") or []
    print(f"   {len(causes)} distinct problems")
    for rc in causes:
        where = (rc.get("type") or "") + (rc.get("pointer") or "")
        scope = f"in {len(rc.get('scenarios') or [])} scenarios"
        if rep.get("kind") in ("gate", "proxy"):
            scope = f"{rc.get('dir', '?')}, first frame {(rc.get('first') or {}).get('frame', '?')}"
        print(f"   - {rc['severity']:<7} {rc['rule']:<36} {rc.get('evidence', ''):<14} {where:<40} x{rc['count']}"
              f"  {scope}")
    for s in scenarios:
        if s["verdict"] in ("passed", "skipped"):
            continue
        print(f"   * {s['verdict']:<12} {s['id']}: {(s.get('reason') or '')[:160]}")
    skipped = Counter(s.get("reason", "") for s in scenarios if s["verdict"] == "skipped")
    for reason, n in skipped.most_common():
        print(f"   ({n} skipped: {reason})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
