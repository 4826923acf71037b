"""A random engine that uses only the Typhoon engine protocol (docs/PROTOCOL.md), no typhoon code:
it asks for the legal actions and answers one at random (again if refused). The history lines
(`played`, `die`, `event`, `gameover`) and the position are ignored: a real engine reads them.

    python3 random_engine.py [SEED]

With a seed it plays exactly as Typhoon's built-in `random` level with that seed."""

import random
import sys


def main() -> None:
    rng = random.Random(int(sys.argv[1]) if len(sys.argv) > 1 else None)
    legal: list[str] = []
    expecting = 0
    for raw in sys.stdin:
        word, _, rest = raw.rstrip("\n").partition(" ")
        if word == "typhoon":
            print("ready random-py", flush=True)
        elif word == "go":
            print("legal", flush=True)
        elif word == "legal":
            legal, expecting = [], int(rest)
        elif word == "action":
            legal.append(rest)
            if len(legal) == expecting:
                print("move " + rng.choice(legal), flush=True)
        elif word == "refused" and legal:
            print("move " + rng.choice(legal), flush=True)
        elif word == "quit":
            return


if __name__ == "__main__":
    main()
