"""A seat program that speaks the protocol until it must play, then replies with a line the dealer's JSON parser
cannot hold: 60,000 nested arrays, under the line limit (RecursionError in the parser, not ValueError)."""

import json
import sys


def main() -> None:
    for line in sys.stdin:
        request = json.loads(line)
        kind = request["type"]
        if kind == "hello":
            reply = json.dumps({"type": "hello", "protocol": request["protocol"], "agent": {"name": "deep"}})
        elif kind in ("reset", "end_deal"):
            reply = json.dumps({"type": "ready"})
        elif kind == "act":
            reply = "[" * 60_000
        else:
            break
        sys.stdout.write(reply + "\n")
        sys.stdout.flush()


if __name__ == "__main__":  # a program, not a module the tests import
    main()
