"""MOCKBA AI pieces (the AI contract of the game kit): ``evaluate(state, side)`` in [-1, 1].

Cheap and deterministic: the victory points the German holds so far (seed: +1 a calendar city
captured in time and held, Moscow 8; -1 a city whose deadline has passed without it, or
recaptured), measured against the undefined 5, blended with the balance of combat factors on the
map. A city whose deadline is still to come and is not yet taken counts 0.
"""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from typhoon.ai.budget import SEARCH_LEVELS
from typhoon.ai.shortlist import ShortlistSearchPlayer

from .engine import base_cf, bridge_need, distance, odds
from .rules import GERMAN, SIDE_NAMES, hex_index
from .state import Battle, State

DRAW_SCORE = 5


def provisional_points(s: Any) -> int:
    total = 0
    for h, deadline, pts in s.rules.victory:
        if s.taken >> h & 1 and s.control >> h & 1:
            total += pts
        elif s.turn > deadline or s.taken >> h & 1:
            total -= 1
    return int(total)


def _strength(s: Any, side: int) -> int:
    return sum(base_cf(s, u) for u, h in enumerate(s.loc) if h >= 0 and s.rules.units[u].side == side)


def evaluate(s: Any, side: int) -> float:
    if s.result is not None:
        if s.result == "draw":
            return 0.0
        return 1.0 if s.result == SIDE_NAMES[side] else -1.0
    vp = max(-1.0, min(1.0, (provisional_points(s) - DRAW_SCORE + 5 * (10 - s.turn) / 10) / 12))
    g, so = _strength(s, GERMAN), _strength(s, 1 - GERMAN)
    bal = (g - so) / max(1, g + so)
    v = max(-0.99, min(0.99, 0.7 * vp + 0.3 * bal))
    return v if side == GERMAN else -v


# ----------------------------------------------------------------------------- heuristic player
ATTACK_COLUMN = (3, 4)  # the worst column each side attacks at: German 2:1, Soviet 3:1
ENOUGH_COLUMN = 6  # 5:1: no attacker result, DE half the time; more units are better used elsewhere
FAR = 99


def _dist_map(r: Any, sources: Iterable[int]) -> list[int]:
    """Hexes from the nearest source (breadth first over the grid, lakes passable: a guide only)."""
    dist = [FAR] * len(r.terrain)
    todo: deque[int] = deque()
    for h in sources:
        if dist[h]:
            dist[h] = 0
            todo.append(h)
    while todo:
        h = todo.popleft()
        d = dist[h] + 1
        for n in r.nbrs[h]:
            if dist[n] > d:
                dist[n] = d
                todo.append(n)
    return dist


class MockbaHeuristicPlayer:
    """Rule-based and cheap (no look-ahead): ranks the legal actions of each decision by a short
    rule and plays the best. German: units move towards the victory cities still to take and the
    Soviet line, attack at 2:1 or better with the fewest units that reach 5:1 (air points added
    where they shift the column), advance with the strongest attacker. Soviet: units close up to
    a line one hex from the Germans, favouring cities and fortifications, retake German-held
    victory cities and garrison Moscow once the Germans are within 6 hexes, dig in where the
    Germans are near, reinforcements and rebuilt units enter where the Germans come closest,
    attacks only at 3:1. Losses fall on the weakest unit; retreats follow the engine's first route."""

    def __init__(self, seed: int | None = None, name: str = "heuristic"):
        self.name = name
        self.rng = random.Random(seed)
        self._cancelled: set[tuple[int, int, int]] = set()  # attacks called off (never again this phase)
        self._maps: dict[tuple[Any, ...], list[int]] = {}

    def explain(self) -> str:
        return (
            "MOCKBA heuristic: German units head for the victory cities still to take and attack at 2:1 or "
            "better with the fewest units reaching 5:1; Soviet units hold a line one hex before the Germans "
            "(cities and fortifications first), dig in, and attack only at 3:1; losses on the weakest unit."
        )

    def choose(self, state: Any, actions: Sequence[Any]) -> Any:
        a = self.ranked(state, actions)[0]
        b = state.battle
        if a.kind == "cancel" and b is not None:
            if len(self._cancelled) > 256:
                self._cancelled.clear()
            self._cancelled.add((state.turn, state.phase, b.target))
        return a

    # -- ranking -------------------------------------------------------------------------------
    def ranked(self, s: State, actions: Sequence[Any], most: int | None = None) -> list[Any]:
        """The legal actions, best first (``most``: only that many)."""
        if len(actions) == 1:
            return list(actions)
        score = self._scorer(s, actions)
        order = sorted(range(len(actions)), key=lambda i: -score(actions[i]))
        return [actions[i] for i in order[: most or len(order)]]

    def _scorer(self, s: State, actions: Sequence[Any]) -> Callable[[Any], float]:
        kinds = {a.kind for a in actions}
        b = s.battle
        if b is not None:
            return self._battle_scorer(s, b, kinds)
        kind = s.phase_spec.kind
        if kind == "setup":
            return self._setup_scorer(s)
        if kind == "combat":
            return self._declare_scorer(s, actions)
        if kind in ("movement", "reinforce"):
            return self._move_scorer(s)
        if kind == "air":
            return lambda a: (
                (2.0 + _spec_cf(s, a.unit)) if a.kind == "airsupply" else (0.0 if a.kind == "end" else -1)
            )
        return lambda a: 1.0 if a.kind == "end" else 0.0

    def _setup_scorer(self, s: State) -> Callable[[Any], float]:
        """Free set-up: the standard lay-out when it is still open, else each unit as near its
        fixed lay-out hex as the legal hexes allow."""
        r = s.rules

        def score(a: Any) -> float:
            if a.kind == "standard":
                return 1e9
            sp = r.units[r.unit_index[a.unit]]
            return -float(distance(r, hex_index(a.hex), sp.setup))

        return score

    def _map(self, s: State, what: str) -> list[int]:
        """A distance map of this position: from the German units ("german"), the Soviet ones, or
        the German objectives ("goal": victory cities not held, then Moscow)."""
        key = (what, s.turn, s.control, s.occupied(GERMAN), s.occupied(1 - GERMAN))
        m = self._maps.get(key)
        if m is None:
            if len(self._maps) > 64:
                self._maps.clear()
            r = s.rules
            if what == "goal":
                left = [h for h, deadline, _ in r.victory if not s.control >> h & 1 and deadline >= s.turn]
                src = left or [h for h, _, _ in r.victory if not s.control >> h & 1] or [r.cities["Moscow"]]
            else:
                side = GERMAN if what == "german" else 1 - GERMAN
                src = [h for u, h in enumerate(s.loc) if h >= 0 and r.units[u].side == side]
            m = self._maps[key] = _dist_map(r, src)
        return m

    def _place_value(self, s: State, h: int) -> float:
        r = s.rules
        v = 0.0
        if r.city_hexes >> h & 1:
            v += 1.5
        if h in r.forts:
            v += 1.0
        if r.terrain[h] == "rough":
            v += 0.3
        return v

    def _move_scorer(self, s: State) -> Callable[[Any], float]:
        r = s.rules
        if s.side == GERMAN:
            goal, enemy = self._map(s, "goal"), self._map(s, "soviet")

            def value(h: int) -> float:
                return -goal[h] - 0.5 * min(enemy[h], 4) + (1.0 if enemy[h] == 1 else 0.0)

        else:
            enemy = self._map(s, "german")
            vic = {h: pts for h, _, pts in r.victory}

            def value(h: int) -> float:
                d = enemy[h]
                line = -abs(d - 1) if d >= 1 else -3.0
                v = line + (self._place_value(s, h) if d <= 3 else 0.0)
                if h in vic and s.control >> h & 1:  # retake a German-held victory city (seed: -1 for it)
                    v += 4.0 + vic[h]
                elif h in vic and vic[h] > 1 and d <= 6:  # garrison Moscow before the Germans arrive
                    v += 3.0
                return v

        def score(a: Any) -> float:
            k = a.kind
            if k == "end":
                return 0.0
            if k in ("move", "rail"):
                u = r.unit_index[a.unit]
                gain = value(hex_index(a.dst)) - value(s.loc[u])
                return gain - (0.5 if k == "rail" else 0.0)
            if k in ("reinforce", "rebuild"):
                return 5.0 + value(hex_index(a.hex))
            if k == "dig":
                u = r.unit_index[a.unit]
                return 1.2 if self._map(s, "german")[s.loc[u]] <= 2 else -1.0
            if k == "drop":
                return -1.0
            return -2.0  # undig and the rest

        return score

    def _declare_scorer(self, s: State, actions: Sequence[Any]) -> Callable[[Any], float]:
        """Attack the target whose every possible attacker (and air point) reaches the best column,
        if it reaches the side's threshold; the strongest attacker declares."""
        r = s.rules
        by_target: dict[str, list[int]] = {}
        for a in actions:
            if a.kind == "attack":
                by_target.setdefault(a.target, []).append(r.unit_index[a.unit])
        air = s.air_g if s.side == GERMAN else s.air_s
        best: dict[str, float] = {}
        for t, units in by_target.items():
            h = hex_index(t)
            if (s.turn, s.phase, h) in self._cancelled:
                continue
            col, _ = odds(s, Battle(h, tuple(units), air=min(air, len(units))))
            if col >= ATTACK_COLUMN[s.side]:
                best[t] = col + self._place_value(s, h) / 4

        def score(a: Any) -> float:
            if a.kind == "attack" and a.target in best:
                return 10.0 + best[a.target] + base_cf(s, r.unit_index[a.unit]) / 50
            if a.kind == "blow":  # optional rule 3: blow bridges near the Germans, after the attacks
                u = r.unit_index[a.unit]
                return 0.5 if bridge_need(s, r.bridge_index[r.pair(s.loc[u], hex_index(a.dst))]) == 5 else 0.2
            return 0.0 if a.kind == "end" else -1.0

        return score

    def _battle_scorer(self, s: State, b: Battle, kinds: set[str]) -> Callable[[Any], float]:
        r = s.rules
        if b.step == "declare":
            col, _ = odds(s, b)
            with_air = odds(s, Battle(b.target, b.attackers, air=b.air + 1, dair=b.dair))[0]
            enough = col >= ENOUGH_COLUMN
            ok = col >= ATTACK_COLUMN[s.side]

            def declare(a: Any) -> float:
                k = a.kind
                if k == "fire":
                    return 5.0 if enough or ok and not ({"attack", "air"} & kinds) else (1.0 if ok else -5)
                if k == "attack":
                    return -1.0 if enough else 3.0 + base_cf(s, r.unit_index[a.unit]) / 50
                if k == "air":
                    return 4.0 if with_air > col and not enough else -2.0
                if k == "cancel":
                    return 0.0
                return -3.0

            return declare
        if b.step == "support":
            return lambda a: 1.0 if a.accept else 0.0
        if b.step == "d3":
            hold = self._place_value(s, b.target) >= 1.0 and all(
                not s.red >> u & 1 and r.units[u].reduced for u in s.units_at(b.target)
            )
            return lambda a: (1.0 if hold else -1.0) if a.kind == "reduce" else 0.0
        if b.step == "advance":
            mine = any(r.units[u].side == s.side for u in s.units_at(b.target))
            return lambda a: (
                (-1.0 if mine else 1.0 + base_cf(s, r.unit_index[a.unit]) / 50)
                if a.kind == "advance"
                else 0.0
            )
        # retreat: the engine's first route (towards the side's own edge); losses: the weakest unit
        return lambda a: -_spec_cf(s, a.unit) if a.kind == "lose" else (-5.0 if a.kind == "reduce" else 0.0)


def _spec_cf(s: State, uid: str) -> float:
    return float(base_cf(s, s.rules.unit_index[uid]))


class MockbaSearchPlayer(ShortlistSearchPlayer):
    """The search levels for MOCKBA (:class:`typhoon.ai.shortlist.ShortlistSearchPlayer`): roll-out
    search over the heuristic's best actions only (a decision may have ten thousand legal moves,
    too many to score one by one), its roll-outs played by the heuristic, at combat decisions
    only (:func:`searched`)."""

    unsearched = "not a combat decision"

    def __init__(self, level: str, seed: int | None = None):
        super().__init__("mockba", level, seed, MockbaHeuristicPlayer(seed), evaluate, rollout_policy)

    def searched(self, state: Any) -> bool:
        return searched(state)

    def target(self, action: Any) -> Any:
        return hex_index(action.target)

    def rank(self, state: Any, actions: Sequence[Any], n: int) -> list[Any]:
        return list(self.heuristic.ranked(state, actions, most=n))


def searched(s: Any) -> bool:
    """Search weighs combat decisions only (which attacks to declare, fire or add units and air,
    losses, retreats, advances): a roll-out of ``horizon`` decisions resolves a battle, while after
    one unit's move it is mostly the same side's further moves and the evaluation hardly moves, so
    searching the ~2,000 moves of a game cost 0.25-0.5 s each for noise (docs/MOCKBA_AI.md)."""
    return s.battle is not None or s.phase_spec.kind == "combat"


def _search(level: str) -> Callable[[int | None], Any]:
    return lambda seed: MockbaSearchPlayer(level, seed)


LEVELS: dict[str, Callable[[int | None], Any]] = {
    "heuristic": lambda seed: MockbaHeuristicPlayer(seed),
    **{level: _search(level) for level in SEARCH_LEVELS},
}

_ROLLOUT = MockbaHeuristicPlayer(0)


def rollout_policy(state: Any, actions: Sequence[Any], rng: random.Random) -> Any:
    """Roll-outs play the heuristic (a few milliseconds a decision, against one evaluation per
    legal action for the generic one-ply player)."""
    return _ROLLOUT.choose(state, actions)


__all__ = ["LEVELS", "MockbaHeuristicPlayer", "MockbaSearchPlayer", "evaluate", "rollout_policy"]
