"""A seat program that plays its lowest legal card and states things about itself, as its first argument says:
``weights`` (the default): weights whose name and checksum try to write rows and markup into the result's page and
the leaderboard's table; ``notes``: a count of fallbacks it never had with each end_deal reply (its own word:
recorded, never counted as a reference seat's); ``bad-notes``: notes that are not counts (a negative one among
thousands of kinds), the seat's protocol forfeit."""

import json
import sys

INJECTED = {"file": "w.npz |\n| injected | row | +9.99 |\n`", "sha256": "`| +9.99 |` <b>bold</b>\n| row |"}
NOTES = {"notes": {"fallback": 9}, "bad-notes": {**{f"k{i}": 1 for i in range(3000)}, "fallback": -1}}


def main(mode: str) -> None:
    for line in sys.stdin:
        request = json.loads(line)
        kind = request["type"]
        if kind == "hello":
            weights = INJECTED if mode == "weights" else None
            reply = {"type": "hello", "protocol": request["protocol"], "agent": {"name": "claims", "weights": weights}}
        elif kind == "reset":
            reply = {"type": "ready"}
        elif kind == "end_deal":
            reply = {"type": "ready", **({"notes": NOTES[mode]} if mode in NOTES else {})}
        elif kind == "act":
            reply = {"type": "card", "card": min(request["view"]["legal"])}
        else:
            break
        sys.stdout.write(json.dumps(reply) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":  # a program, not a module the tests import
    main(sys.argv[1] if len(sys.argv) > 1 else "weights")
