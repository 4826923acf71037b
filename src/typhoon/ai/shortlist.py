"""A game's search levels over its own heuristic's short list.

The generic search (:class:`typhoon.ai.generic.RolloutSearchPlayer`) compares the one-ply best
actions; a game with a rule-based heuristic wants that heuristic's choice among the candidates
(else search cannot be measured against it fairly), often a short list the heuristic ranks
(a decision may have thousands of legal actions), and sometimes search only where it pays.
:class:`ShortlistSearchPlayer` is that player; a game subclasses it and overrides
:meth:`~ShortlistSearchPlayer.rank`, :meth:`~ShortlistSearchPlayer.searched` and
:meth:`~ShortlistSearchPlayer.after` as it needs.

An attack the player called off (``cancel`` during a declaration) is not a candidate again in that
phase: ``cancel`` restores the position exactly, so a search that valued declaring and calling off
alike could loop for ever (MOCKBA seed 1, turn 5; Moscow Attacked!'s 20-game match that never
ended). Where every declaration left has been called off and nothing but attacks is legal (the
game's rules oblige one), the next attack is declared and fought through: its ``cancel`` is no
longer a candidate while another step is legal. A game may still say where the filter must not
apply (:meth:`~ShortlistSearchPlayer.drop_called_off`).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Collection, Sequence
from typing import Any

from typhoon.ai.budget import SEARCH_LEVELS, Budget
from typhoon.ai.generic import Evaluate, RolloutSearchPlayer, one_ply_values
from typhoon.games import game_module

CalledOff = tuple[int, int, Any]  # (turn, phase, the battle's target): an attack called off


def called_off(state: Any, action: Any) -> CalledOff | None:
    """The attack ``action`` calls off, as (turn, phase, target); None for any other action."""
    b = getattr(state, "battle", None)
    if action.kind == "cancel" and b is not None:
        return (state.turn, state.phase, b.target)
    return None


def without_called_off(
    state: Any, actions: Sequence[Any], gone: Collection[CalledOff], target: Callable[[Any], Any]
) -> list[Any]:
    """``actions`` less the declarations (``attack`` actions before a battle is open) of an attack
    in ``gone`` this phase; ``target`` maps a declaration to its battle's target. All of them when
    nothing else would be left."""
    if getattr(state, "battle", None) is not None or not gone:
        return list(actions)
    here = (state.turn, state.phase)
    keep = [a for a in actions if a.kind != "attack" or (*here, target(a)) not in gone]
    return keep or list(actions)


class ShortlistSearchPlayer:
    """Roll-out search (roll-outs played by ``rollout_policy``) over :meth:`shortlist`; where
    :meth:`searched` says no, the heuristic decides alone (``unsearched``: why, in words)."""

    unsearched = "not a searched decision"

    def __init__(
        self,
        game: str,
        level: str,
        seed: int | None,
        heuristic: Any,
        evaluate: Evaluate,
        rollout_policy: Callable[[Any, Sequence[Any], random.Random], Any],
    ):
        self.name = level
        self.heuristic = heuristic
        self.game = game_module(game)
        self._own: str | None = None  # the reason, when the heuristic decided alone
        self.called_off: set[CalledOff] = set()  # attacks called off this phase (a ban, see above)
        self._phase: tuple[int, int] | None = None
        self._fight = False  # the battle being declared must be fought (see _drop)
        self.inner = RolloutSearchPlayer(
            self.game, evaluate, seed, name=level, config=SEARCH_LEVELS[level], rollout_policy=rollout_policy
        )

    @property
    def config(self) -> Budget:
        return self.inner.config

    @config.setter
    def config(self, value: Budget) -> None:
        self.inner.config = value

    @property
    def rollouts_done(self) -> int:
        return self.inner.rollouts_done

    def searched(self, state: Any) -> bool:
        """Whether this decision is searched (default: every one)."""
        return True

    def shortlist(self, state: Any, actions: Sequence[Any], n: int) -> list[Any]:
        """The candidates: :meth:`rank`'s, never an attack called off this phase."""
        return self.rank(state, self._drop(state, actions), n)

    def rank(self, state: Any, actions: Sequence[Any], n: int) -> list[Any]:
        """Hook: the ``n`` candidates (default: the heuristic's choice, then the one-ply best)."""
        own = self.heuristic.choose(state, actions)
        if len(actions) <= n:
            return list(actions)
        values = one_ply_values(self.game, state, actions, self.inner.evaluate)
        order = sorted(range(len(actions)), key=lambda i: -values[i])
        return [own] + [actions[i] for i in order if actions[i] != own][: n - 1]

    def target(self, action: Any) -> Any:
        """The battle target (as ``state.battle.target``) an attack declaration names (default: its
        ``target`` as it stands)."""
        return action.target

    def drop_called_off(self, state: Any, actions: Sequence[Any]) -> bool:
        """Hook: whether the attacks called off this phase are dropped from this decision (default:
        always)."""
        return True

    def _drop(self, state: Any, actions: Sequence[Any]) -> Sequence[Any]:
        if not self.called_off or not self.drop_called_off(state, actions):
            return actions
        if getattr(state, "battle", None) is None:
            # Every declaration left was called off once and nothing else is legal (attacks owed
            # under the game's rules): the one declared now is fought, or the player would
            # declare and call them off in turn for ever (Moscow Attacked! rule 7.2, seed 2).
            here = (state.turn, state.phase)
            self._fight = bool(actions) and all(
                a.kind == "attack" and (*here, self.target(a)) in self.called_off for a in actions
            )
            return without_called_off(state, actions, self.called_off, self.target)
        if self._fight:
            fought = [a for a in actions if a.kind != "cancel"]
            return fought or actions
        return actions

    def after(self, state: Any, action: Any) -> None:
        """Hook, called after every choice (searched, the heuristic's alone, or forced): remembers an
        attack called off; a game that overrides it calls this too."""
        gone = called_off(state, action)
        if gone is not None:
            self.called_off.add(gone)

    def choose(self, state: Any, actions: Sequence[Any]) -> Any:
        self._own = None
        here = (getattr(state, "turn", 0), getattr(state, "phase", 0))
        if here != self._phase:
            self._phase = here
            self.called_off.clear()  # a ban holds for its phase only
            self._fight = False
        actions = self._drop(state, actions)
        if state.current_player() < 0 or len(actions) == 1:
            a = self.inner.choose(state, actions)  # a forced cancel is remembered too
        elif not self.searched(state):
            a = self.heuristic.choose(state, actions)
            self._own = f"{self.game.action_to_text(a)}: the heuristic's choice ({self.unsearched})"
        else:
            a = self.inner.choose(state, self.shortlist(state, actions, max(2, self.config.candidates)))
        self.after(state, a)
        return a

    def explain(self) -> str:
        return self._own or self.inner.explain()


__all__ = ["CalledOff", "ShortlistSearchPlayer", "called_off", "without_called_off"]
