"""A seat program that plays its lowest legal card and states weights whose name and checksum try to write rows
and markup into the result's page and the leaderboard's table."""

import json
import sys

INJECTED = {"file": "w.npz |\n| injected | row | +9.99 |\n`", "sha256": "`| +9.99 |` <b>bold</b>\n| row |"}

def main() -> None:
    for line in sys.stdin:
        request = json.loads(line)
        kind = request["type"]
        if kind == "hello":
            reply = {"type": "hello", "protocol": request["protocol"], "agent": {"name": "claims", "weights": INJECTED}}
        elif kind in ("reset", "end_deal"):
            reply = {"type": "ready"}
        elif kind == "act":
            reply = {"type": "card", "card": min(request["view"]["legal"])}
        else:
            break
        sys.stdout.write(json.dumps(reply) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":  # a program, not a module the tests import
    main()
