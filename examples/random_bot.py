#!/usr/bin/env python3
"""A kingdoms bot in the JSON-lines protocol of docs/bots.md: a uniformly random legal move.

It reads one request a line on standard input and answers each with one line, using nothing
but the message (no kingdoms import): any language that reads and writes JSON lines can do
the same. Run it in a match with ``kingdoms.agents.Subprocess(["python3",
"examples/random_bot.py"])``, or on the command line as ``--agents "cmd:python3
examples/random_bot.py"``. An optional argument seeds its choices.
"""

import json
import random
import sys


def main() -> None:
    rng = random.Random(int(sys.argv[1]) if len(sys.argv) > 1 else None)
    for line in sys.stdin:
        request = json.loads(line)
        # request: type "act", protocol, game, options, seat, view, legal [{id, notation}]
        move = rng.choice(request["legal"])
        print(json.dumps({"action": move["id"]}), flush=True)


if __name__ == "__main__":
    main()
