"""Moscow Attacked! AI pieces for the AI framework (docs/AI.md, KIT2.md "The AI contract"):
``evaluate`` (required: the framework's generic levels are built on it) and ``LEVELS`` with the
game's own rule-based heuristic player (also the player of ``calibrate.py``).

``evaluate`` scores the victory conditions of seed 001 (section 12): the German wins by holding
Smolensk, Bryansk and Moscow in supply; otherwise the Soviet wins the basic game and the
campaign is a draw unless the Soviet holds his six cities from turn 7. So it weighs Moscow and
the German's distance from it against the calendar, the victory cities, the strength on the map
and supply. It is cheap (two supply searches, cached on the state) and deterministic.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from typing import Any

from typhoon.ai.budget import SEARCH_LEVELS
from typhoon.ai.generic import RolloutSearchPlayer, _draw, expected_value
from typhoon.ai.shortlist import CalledOff, ShortlistSearchPlayer, called_off, without_called_off

from .engine import (
    GERMAN_VICTORY,
    MOSCOW,
    SOVIET_VICTORY,
    TULA,
    _source_dist,
    apply_unchecked,
    bombers_based,
    distance,
    in_supply,
    movement_allowance,
    odds,
    supply_dist,
    supply_lengths,
    supply_line,
    surrounded,
)
from .rules import GERMAN, SOVIET
from .rules import hex_index as _hex
from .state import DISPERSED, READY, Attack, Battle, State

RESULT_VALUE = {"german": 1.0, "soviet": -1.0, "draw": 0.0}
START_DISTANCE = 6  # Smolensk (H1) to Moscow (I7), the German start line


def _strength(s: State, side: int) -> float:
    r = s.rules
    total = 0.0
    for u, h in enumerate(s.loc):
        sp = r.units[u]
        if h >= 0 and sp.side == side:
            total += (sp.attack + sp.defense) * (0.6 if s.status[u] == DISPERSED else 1.0)
    return total


def moscow_distance(s: State) -> int:
    """Hexes from Moscow to the nearest German ground unit (0: a German unit is in Moscow)."""
    r = s.rules
    ds = [distance(h, MOSCOW) for u, h in enumerate(s.loc) if h >= 0 and r.units[u].side == GERMAN]
    return min(ds) if ds else 99


def german_score(s: State) -> float:
    """The position for the German side in [-1, 1] (1 = won)."""
    if s.result is not None:
        return RESULT_VALUE.get(s.result, 0.0)
    r = s.rules
    g, sv = _strength(s, GERMAN), _strength(s, SOVIET)
    material = math.log((g + 1.0) / (sv + 1.0))  # about 0.5 at the start
    held = sum(
        (2.0 if h == MOSCOW else 0.5)
        for h in GERMAN_VICTORY
        if s.controller(h) == GERMAN and supply_line(s, GERMAN, h) <= supply_lengths(s, GERMAN)
    )
    soviet_cities = sum(1 for h in SOVIET_VICTORY if s.controller(h) == SOVIET) / len(SOVIET_VICTORY)
    # The German has (last_turn - turn) turns left to close the distance to Moscow.
    left = max(0, r.last_turn - s.turn)
    d = min(moscow_distance(s), 12)
    progress = (START_DISTANCE - d) / START_DISTANCE
    calendar = math.tanh((1.2 * left - d) / 4.0) if d > 0 else 1.0
    units = [u for u, h in enumerate(s.loc) if h >= 0]
    sup = [0.0, 0.0]
    cnt = [0, 0]
    for u in units:
        side = r.units[u].side
        cnt[side] += 1
        sup[side] += 1.0 if in_supply(s, u) else 0.0
    supply = (sup[0] / max(1, cnt[0])) - (sup[1] / max(1, cnt[1]))
    x = (
        1.2 * (material - 0.5)
        + 0.6 * held
        + 0.8 * progress
        + 0.5 * calendar
        + 0.5 * supply
        - 0.4 * soviet_cities
    )
    return math.tanh(x)


def evaluate(state: Any, side: int) -> float:
    """How good the position is for ``side`` (0 German, 1 Soviet), in [-1, 1]."""
    v = german_score(state)
    return v if side == GERMAN else -v


# ----------------------------------------------------------------------------- heuristic player
ATTACK_COLUMN = 6  # 2:1 and better: no attacker result on the CRT (tables.json)
BREAK_COLUMN = 8  # 4:1: the armour attacks in Prepared Attacks for DE or BR half the time (7.6)
ENOUGH_COLUMN = 9  # 5:1: R1 at worst, DE or BR half the time; more units are better used elsewhere


def _ready_near(s: State, h: int, side: int) -> list[int]:
    r = s.rules
    return [
        u
        for u, x in enumerate(s.loc)
        if x >= 0 and r.units[u].side == side and s.status[u] == READY and x in r.nbrs[h]
    ]


def _place_value(s: State, h: int) -> float:
    r = s.rules
    if h == MOSCOW:
        return 6.0
    if h in GERMAN_VICTORY or h in SOVIET_VICTORY:
        return 3.0
    return 1.0 if r.places >> h & 1 else 0.0


# ---- pockets (German) and Moscow in depth (Soviet): issue 12 point 5, gaps.md "Calibration targets"
POCKET_WEATHER = frozenset({"good", "frost"})  # the panzer groups drive deep on dry or frozen ground
POCKET_BONUS = 1.5  # a surrounded target: R1 becomes D, R2 DE, DE BR (7.8), about two CRT columns
CLOSE_BONUS = 1.0  # a move that leaves a Soviet stack no retreat for the Operational Attacks
BEHIND_BONUS = 0.8  # a move onto a Soviet stack's Moscow side (the first half of a pocket)
CUT_WEIGHT = 0.3  # per Soviet defense factor a move puts out of supply (9.1, 9.3: +1 column on it)
# The value of being the first, second and third unit in a hex (5: three units, one army-level).
MOSCOW_SLOTS = (3.0, 2.0, 1.5)
RING_SLOTS = (2.5, 1.8, 1.0)  # the six hexes next to Moscow: a German attack on Moscow needs some
OTHER_SLOTS = (0.0, 0.7, 0.3)
FACING = 0.6  # per hex a screen hex lies nearer the Germans than Moscow does
MAKE_ROOM = 8.0  # a weaker army in Moscow leaves it to a stronger one that can reach it this phase


def moscow_ring(s: State) -> tuple[int, ...]:
    """The hexes next to Moscow: every German attack on Moscow comes from them (7.1)."""
    return s.rules.nbrs[MOSCOW]


def supply_cut(s: State, h: int) -> int:
    """Soviet defense factors in supply (9.1) that a German unit at ``h`` would put out of supply:
    the pocket a move there closes. Cached on the state."""
    memo: dict[int, int] = s._memo.setdefault("ai_cut", {})
    v = memo.get(h)
    if v is None:
        r = s.rules
        length = supply_lengths(s, SOVIET)
        before = _source_dist(s, SOVIET)
        after = supply_dist(s, SOVIET, s.occupied(GERMAN) | 1 << h)
        v = sum(
            r.units[u].defense
            for u, x in enumerate(s.loc)
            if x >= 0 and x != TULA and r.units[u].side == SOVIET and before[x] <= length < after[x]
        )
        memo[h] = v
    return v


def _ready_from(s: State, h: int, side: int) -> int:
    """Bitset of the hexes next to ``h`` holding a ready unit of ``side`` (where an attack can come from)."""
    out = 0
    for u in _ready_near(s, h, side):
        out |= 1 << s.loc[u]
    return out


def _german_distance(s: State, h: int) -> int:
    """Hexes from ``h`` to the nearest German ground unit (99: none)."""
    memo: dict[int, int] = s._memo.setdefault("ai_gdist", {})
    if h not in memo:
        r = s.rules
        hexes = [x for u, x in enumerate(s.loc) if x >= 0 and r.units[u].side == GERMAN]
        memo[h] = min((distance(h, x) for x in hexes), default=99)
    return memo[h]


def _hold_armour(s: State) -> bool:
    """German Prepared Attacks on dry or frozen ground: the infantry breaks the line, the armour
    joins only where needed for 3:1, and stays ready to drive through the gaps in Operational
    Movement (a unit that attacked may not move, 2.1) and close the pockets."""
    return s.side == GERMAN and s.phase_spec.key == "g_prepared" and s.weather in POCKET_WEATHER


def _garrison_rival(s: State, u: int) -> int:
    """The best defense factor of another ready Soviet army-level unit that can still reach Moscow
    this phase (0 if none): the army Moscow should hold (5: one army-level unit a hex)."""
    memo: dict[int, int] = s._memo.setdefault("ai_garrison", {})
    if u in memo:
        return memo[u]
    r = s.rules
    best = 0
    for v, x in enumerate(s.loc):
        sp = r.units[v]
        if v == u or x < 0 or x == MOSCOW or sp.side != SOVIET or not sp.army_level:
            continue
        # In reach of Moscow (the army in it keeps it out of move_options until it leaves).
        if s.status[v] == READY and not s.moved >> v & 1 and distance(x, MOSCOW) <= movement_allowance(s, v):
            best = max(best, sp.defense)
    memo[u] = best
    return best


class MaHeuristicPlayer:
    """Rule-based: attacks at 2:1 or better with the fewest units that reach the best column,
    moves each unit to the hex that scores best (German: towards Moscow, next to Soviet units,
    in supply; Soviet: cities and a line in front of Moscow, counter-attacking in Snow), and
    settles every other decision by a short rule or by ``evaluate`` one step ahead."""

    def __init__(self, seed: int | None = None, name: str = "heuristic"):
        self.name = name
        self.rng = random.Random(seed)

    def explain(self) -> str:
        return (
            "Moscow Attacked! heuristic: attacks at 2:1 or better (no attacker losses on the CRT) "
            "with the fewest units that reach the best column, first where the defenders cannot retreat "
            "(a pocket); moves each unit to its best-scoring hex (German: towards Moscow and next to Soviet "
            "units, in supply, closing pockets: hexes that leave Soviet stacks no retreat or cut their "
            "supply; Soviet: Moscow held by its strongest army and two more units, every hex next to it "
            "screened so that no German stacks can mass against it, the rest as a second line and "
            "reserves, counter-attacks in Snow); other choices by the position evaluation one step ahead."
        )

    # The dispatcher: every decision by its kind.
    def choose(self, state: Any, actions: Sequence[Any]) -> Any:
        s: State = state
        kinds = {a.kind for a in actions}
        b = s.battle
        if b is None:
            kind = s.phase_spec.kind
            if kind == "setup" or kinds == {"base"}:
                return self._base(s, actions)
            if kind == "combat":
                return self._declare(s, actions)
            if kind == "movement":
                return self._move(s, actions)
            if kind == "reinforce":
                return self._reinforce(s, actions)
            if "lose" in kinds:
                return self._smallest(s, [a for a in actions if a.kind == "lose"])
            return self._first(actions, "end")
        if b.step == "declare":
            return self._add_to_battle(s, b, actions)
        if "intercept" in kinds:
            # Interception loses the interceptor half the time (8.3 table): only over Moscow.
            if b.bomb:
                return next(a for a in actions if a.kind == "intercept")
            return self._first(actions, "pass")
        if "noretreat" in kinds:
            keep = _place_value(s, b.target) >= 3.0
            return next(a for a in actions if a.accept == keep)
        if "exchange" in kinds:
            return next(a for a in actions if a.accept)
        if kinds <= {"lose", "disperse"}:
            return self._loss(s, b, actions)
        return self._best_by_eval(s, actions)

    def _first(self, actions: Sequence[Any], kind: str) -> Any:
        for a in actions:
            if a.kind == kind:
                return a
        return actions[0]

    def _best_by_eval(self, s: State, actions: Sequence[Any]) -> Any:
        me = s.current_player()
        best, best_v = actions[0], -9.0
        for a in actions:
            v = evaluate(apply_unchecked(s, a), me)
            if v > best_v:
                best, best_v = a, v
        return best

    def _smallest(self, s: State, actions: Sequence[Any]) -> Any:
        r = s.rules
        return min(
            actions,
            key=lambda a: (
                r.units[r.unit_index[a.unit]].attack + r.units[r.unit_index[a.unit]].defense,
                a.unit,
            ),
        )

    def _loss(self, s: State, b: Battle, actions: Sequence[Any]) -> Any:
        r = s.rules
        need = b.losses

        def key(a: Any) -> tuple[int, int, str]:
            sp = r.units[r.unit_index[a.unit]]
            covers = sp.attack >= need
            return (0 if covers else 1, sp.attack + sp.defense if covers else -sp.attack, a.unit)

        return min(actions, key=key)

    def _base(self, s: State, actions: Sequence[Any]) -> Any:
        # The base farthest from every German unit.
        r = s.rules
        german = [h for u, h in enumerate(s.loc) if h >= 0 and r.units[u].side == GERMAN]
        bases = [a for a in actions if a.kind == "base"]
        if not bases:
            return self._first(actions, "end")

        def far(a: Any) -> tuple[int, str]:
            h = _hex(a.hex)
            return (min((distance(h, g) for g in german), default=99), a.hex)

        return max(bases, key=far)

    # ---- combat
    def _declare(self, s: State, actions: Sequence[Any]) -> Any:
        attacks = [a for a in actions if a.kind == "attack"]
        side = s.side
        must = "end" not in {a.kind for a in actions}
        hold = _hold_armour(s)
        best: tuple[float, str] | None = None
        for t in sorted({a.target for a in attacks}):
            h = _hex(t)
            near = _ready_near(s, h, side)
            col, _ = odds(s, Battle(h, tuple(near)))
            if hold and col < BREAK_COLUMN:
                # The armour attacks now only for a likely breakthrough (BR lets it advance and attack
                # again, 7.6); else the infantry alone must reach 2:1.
                col, _ = odds(s, Battle(h, tuple(u for u in near if not s.rules.units[u].is_armor)))
                col = col if col >= ATTACK_COLUMN else -1
            if col < 0:
                continue
            value = col + 0.5 * _place_value(s, h) + (1.0 if side == GERMAN and h in GERMAN_VICTORY else 0.0)
            if side == GERMAN and surrounded(s, h, _ready_from(s, h, side)):
                value += POCKET_BONUS
            if best is None or value > best[0]:
                best = (value, t)
        # A Soviet attack obliges attacks on every German army and korps next to the hexes it came
        # from (7.2): before the Snow the Soviet attacks only at 4:1 or better.
        threshold = ATTACK_COLUMN if side == GERMAN or s.weather == "snow" else ATTACK_COLUMN + 2
        if best is not None and (best[0] >= threshold or must):
            t = best[1]
            return self._strongest_attacker(s, [a for a in attacks if a.target == t])
        if must and attacks:
            return attacks[0]
        return self._first(actions, "end")

    @staticmethod
    def _from(s: State, units: tuple[int, ...]) -> int:
        out = 0
        for u in units:
            out |= 1 << s.loc[u]
        return out

    def _strongest_attacker(self, s: State, attacks: list[Attack]) -> Any:
        r = s.rules
        infantry_first = _hold_armour(s)
        return max(
            attacks,
            key=lambda a: (
                infantry_first and not r.units[r.unit_index[a.unit]].is_armor,
                r.units[r.unit_index[a.unit]].attack,
                a.unit,
            ),
        )

    def _add_to_battle(self, s: State, b: Battle, actions: Sequence[Any]) -> Any:
        r = s.rules
        more = [a for a in actions if a.kind == "attack"]
        full = tuple(b.attackers) + tuple(r.unit_index[a.unit] for a in more)
        best_col, _ = odds(s, Battle(b.target, full, b.air))
        col, _ = odds(s, b)
        if more and s.side == GERMAN and not surrounded(s, b.target, self._from(s, b.attackers)):
            # One more attacker from another hex may leave the defenders no retreat (7.7, 7.8).
            frm = self._from(s, b.attackers)
            closing = [a for a in more if surrounded(s, b.target, frm | 1 << s.loc[r.unit_index[a.unit]])]
            if closing:
                return self._strongest_attacker(s, closing)
        if _hold_armour(s) and col >= ATTACK_COLUMN + 1:
            more = [a for a in more if not r.units[r.unit_index[a.unit]].is_armor]  # kept to exploit
        if more and col < min(best_col, ENOUGH_COLUMN):
            return self._strongest_attacker(s, more)
        air = [a for a in actions if a.kind == "air"]
        if air and col < len(r.columns) - 1 and (s.side == GERMAN or col < ATTACK_COLUMN + 1):
            return air[0]
        return self._first(actions, "fire" if any(a.kind == "fire" for a in actions) else "cancel")

    # ---- movement
    def _hex_score(self, s: State, u: int, h: int) -> float:
        r = s.rules
        sp = r.units[u]
        side = sp.side
        enemy = s.occupied(1 - side)
        enemy_adj = [x for x in r.nbrs[h] if enemy >> x & 1]
        supplied = supply_line(s, side, h) <= supply_lengths(s, side)
        score = 0.0 if supplied else -6.0
        if side == GERMAN:
            # Towards the nearest German victory city not yet held (12.1: Bryansk, Moscow), then Moscow.
            # (The Soviet victory cities as goals too spread the wings historically but won 12 of 20
            # campaign games against the old Soviet heuristic, not 15: docs/MA_AI.md.)
            goals = [g for g in GERMAN_VICTORY if s.controller(g) != GERMAN] or [MOSCOW]
            score -= 1.5 * min(distance(h, g) for g in goals) + 0.3 * distance(h, MOSCOW)
            score += 1.5 if enemy_adj else 0.0
            if r.places >> h & 1 and s.controller(h) == SOVIET:
                score += _place_value(s, h)
            if s.phase_spec.key == "g_movement" and s.weather in POCKET_WEATHER:
                score += self._pocket(s, u, h, enemy_adj)
        else:
            attack_mode = s.weather == "snow"
            dm = distance(h, MOSCOW)
            score -= 0.6 * dm
            if r.places >> h & 1:
                score += 0.8 * _place_value(s, h)
                if s.controller(h) == GERMAN:
                    score += 1.5 * _place_value(s, h)
            if dm != 1 or attack_mode:
                score += (1.0 if attack_mode else -0.3) * len(enemy_adj)  # the screen stands
            friends = sum(1 for v, x in enumerate(s.loc) if x == h and v != u)
            slots = MOSCOW_SLOTS if dm == 0 else RING_SLOTS if dm == 1 else OTHER_SLOTS
            score += slots[min(friends, 2)]
            if dm == 1:
                # The screen's hexes on the German side first (the ones his stacks can reach).
                score += FACING * (_german_distance(s, MOSCOW) - _german_distance(s, h))
            if dm == 0 and self._makes_room(s, u):
                score -= MAKE_ROOM
            if r.terrain[h] != "clear":
                score += 0.4
        return score

    @staticmethod
    def _makes_room(s: State, u: int) -> bool:
        """Soviet unit ``u`` leaves Moscow (or stays out) for an army that can reach it this phase:
        a weaker army, or a small unit taking the last place while no army holds it (5: three units, one
        of them army-level; the army's defense is Moscow's)."""
        r = s.rules
        sp = r.units[u]
        rival = _garrison_rival(s, u)
        if sp.army_level:
            return rival > sp.defense
        others = [v for v in s.units_at(MOSCOW) if v != u and r.units[v].side == SOVIET]
        no_army = not any(r.units[v].army_level for v in others)
        return rival > 0 and no_army and len(others) >= 2

    def _pocket(self, s: State, u: int, h: int, enemy_adj: list[int]) -> float:
        """What German unit ``u`` at ``h`` adds to a pocket: Soviet stacks next to it left with no
        retreat for the Operational Attacks (7.7, 7.8) by it and the other ready units, Soviet
        factors cut from supply (9.1, for a move)."""
        value = 0.0
        for x in enemy_adj:
            frm = 0
            for v in _ready_near(s, x, GERMAN):
                if v != u:
                    frm |= 1 << s.loc[v]
            if not surrounded(s, x, frm) and surrounded(s, x, frm | 1 << h):
                value += CLOSE_BONUS
            elif distance(h, MOSCOW) < distance(x, MOSCOW):
                value += BEHIND_BONUS  # on the stack's Moscow side: half a pocket, its retreat cut
        return value + (CUT_WEIGHT * supply_cut(s, h) if h != s.loc[u] else 0.0)

    def _move(self, s: State, actions: Sequence[Any]) -> Any:
        r = s.rules
        by_unit: dict[str, list[Any]] = {}
        for a in actions:
            if a.kind == "move":
                by_unit.setdefault(a.unit, []).append(a)
        best, gain = None, 0.5
        for uid, moves in by_unit.items():
            u = r.unit_index[uid]
            here = self._hex_score(s, u, s.loc[u])
            for a in moves:
                g = self._hex_score(s, u, _hex(a.dst)) - here
                if g > gain:
                    best, gain = a, g
        return best if best is not None else self._first(actions, "end")

    # ---- Russian replacement, reinforcement and rail phase
    def _reinforce(self, s: State, actions: Sequence[Any]) -> Any:
        r = s.rules
        for kind in ("reinforce", "replace"):
            opts = [a for a in actions if a.kind == kind]
            if opts:
                return max(opts, key=lambda a: (self._hex_score(s, r.unit_index[a.unit], _hex(a.hex)), a.hex))
        if s.noretreat != "moscow" and any(a.kind == "order" and a.mode == "moscow" for a in actions):
            return next(a for a in actions if a.kind == "order" and a.mode == "moscow")
        bases = [a for a in actions if a.kind == "base"]
        if bases and not bombers_based(s):
            return self._base(s, bases)
        return self._first(actions, "end")


# A roll-out plays at most the budget's ``horizon`` decisions and at most this many steps, die rolls
# included: with the levels' horizon of 12 it hardly binds, but it bounds a decision's work whatever
# the horizon or the chance nodes (tests/ma/test_ma_search.py).
ROLLOUT_STEPS = 64
# Searched decisions in one phase before the heuristic decides alone for the rest of it: a combat
# phase of the basic game has about 40 (declarations, attackers, air, losses, retreats, advances).
PHASE_SEARCHES = 120


def _owed(actions: Sequence[Any]) -> bool:
    """Rule 7.2 attacks are still owed (``end`` not legal): the called-off attacks stay candidates
    then, since dropping them could leave only hopeless ones (a deadlock)."""
    return not any(a.kind == "end" for a in actions)


def _target(action: Any) -> int:
    return _hex(action.target)


class _MaRollouts(RolloutSearchPlayer):
    """The framework's roll-out search with two guards of Moscow Attacked!'s own: a roll-out
    stops after ``horizon`` decisions or :data:`ROLLOUT_STEPS` steps (die rolls included), and
    it never declares again an attack called off this phase (the search player's called-off
    attacks and its own, through :func:`typhoon.ai.shortlist.without_called_off`)."""

    def __init__(self, *args: Any, called_off: set[CalledOff], **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.called_off = called_off  # the search player's own set (typhoon.ai.shortlist)
        self.steps_done = 0  # roll-out steps (decisions and die rolls), all decisions together
        self.max_steps = 0  # the most roll-out steps one decision took
        self._decision_steps = 0

    def rollout(self, state: Any, action: Any, side: int, seed: int, k: int) -> float:
        game = self.game
        rng = random.Random(seed * 1000003 + k)
        gone = set(self.called_off)
        first = called_off(state, action)
        if first is not None:
            gone.add(first)
        t = game.apply_unchecked(state, action)
        decisions = steps = 0
        while not t.is_terminal and decisions < self.config.horizon and steps < ROLLOUT_STEPS:
            steps += 1
            if t.current_player() < 0:
                t = game.apply_unchecked(t, _draw(game, t, rng))
                continue
            acts = game.legal_actions(t)
            if gone and not _owed(acts):
                acts = without_called_off(t, acts, gone, _target)
            a = (self.rollout_policy or rollout_policy)(t, acts, rng)
            more = called_off(t, a)
            if more is not None:
                gone.add(more)
            t = game.apply_unchecked(t, a)
            decisions += 1
        self.steps_done += steps
        self._decision_steps += steps
        return (1.0 + expected_value(game, t, side, self.evaluate)) / 2.0

    def decide(self, state: Any, actions: Sequence[Any]) -> tuple[Any, str]:
        self._decision_steps = 0
        try:
            return super().decide(state, actions)
        finally:
            self.max_steps = max(self.max_steps, self._decision_steps)


class MaSearchPlayer(ShortlistSearchPlayer):
    """The search levels for Moscow Attacked!: roll-out search (roll-outs played by the
    heuristic) over a short list that always holds the heuristic's own choice, the rest the
    best by one-ply evaluation (:class:`typhoon.ai.shortlist.ShortlistSearchPlayer`), at combat
    decisions only (:func:`searched`; the rest are the heuristic's).

    An attack called off is not declared again in that phase (the shared guard of
    :mod:`typhoon.ai.shortlist`, in the roll-outs too), except while rule 7.2 attacks are still
    owed. After :data:`PHASE_SEARCHES` searched decisions in one phase the heuristic decides alone."""

    unsearched = "not a combat decision"

    def __init__(self, level: str, seed: int | None = None):
        super().__init__("ma", level, seed, MaHeuristicPlayer(seed), evaluate, rollout_policy)
        self.inner = _MaRollouts(
            self.game,
            evaluate,
            seed,
            name=level,
            config=self.inner.config,
            rollout_policy=rollout_policy,
            called_off=self.called_off,
        )
        self._searched_phase: tuple[int, int] = (-1, -1)
        self._searches = 0  # searched decisions in the phase ``_searched_phase``

    def target(self, action: Any) -> Any:
        return _target(action)

    def searched(self, state: Any) -> bool:
        if not searched(state):
            self.unsearched = "not a combat decision"
            return False
        here = (state.turn, state.phase)
        if here != self._searched_phase:
            self._searched_phase, self._searches = here, 0
        self._searches += 1
        self.unsearched = f"more than {PHASE_SEARCHES} searched decisions this phase"
        return self._searches <= PHASE_SEARCHES


def searched(s: State) -> bool:
    """Search weighs the combat decisions only (which attack to declare, attackers and air, fire
    or call off, losses, retreats, advances, exchanges): a roll-out of ``horizon`` decisions
    resolves a battle, while after one unit's move it is mostly the same side's further moves and
    the evaluation hardly moves (as for MOCKBA, docs/MOCKBA_AI.md). The movement phase was 30% of
    a game's search time (94 of 325 searched decisions, issue 12 profile)."""
    return s.battle is not None or s.phase_spec.kind == "combat"


def _search(level: str) -> Callable[[int | None], Any]:
    return lambda seed: MaSearchPlayer(level, seed)


LEVELS: dict[str, Callable[[int | None], Any]] = {
    "heuristic": lambda seed: MaHeuristicPlayer(seed),
    **{level: _search(level) for level in SEARCH_LEVELS},
}

_ROLLOUT = MaHeuristicPlayer(0)


def rollout_policy(state: Any, actions: Sequence[Any], rng: random.Random) -> Any:
    """The framework's search levels play their roll-outs with the game's heuristic (a few
    milliseconds a decision, against one evaluation per legal action for the generic one)."""
    return _ROLLOUT.choose(state, actions)


__all__ = [
    "LEVELS",
    "PHASE_SEARCHES",
    "ROLLOUT_STEPS",
    "MaHeuristicPlayer",
    "MaSearchPlayer",
    "evaluate",
    "german_score",
    "moscow_distance",
    "rollout_policy",
    "searched",
]
