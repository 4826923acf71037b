"""A deliberately bad engine: a malformed answer, then an illegal one, then nonsense forever."""

import sys

answers = iter(["move %%% not notation", "move setup nowhere", "hello"])
for raw in sys.stdin:
    word = raw.split(" ", 1)[0].strip()
    if word == "typhoon":
        print("ready bad", flush=True)
    elif word in ("go", "refused"):
        print(next(answers, "garbage"), flush=True)
    elif word == "quit":
        break
