"""A game's search levels over its own heuristic's short list.

The generic search (:class:`typhoon.ai.generic.RolloutSearchPlayer`) compares the one-ply best
actions; a game with a rule-based heuristic wants that heuristic's choice among the candidates
(else search cannot be measured against it fairly), often a short list the heuristic ranks
(a decision may have thousands of legal actions), and sometimes search only where it pays.
:class:`ShortlistSearchPlayer` is that player; a game subclasses it and overrides
:meth:`~ShortlistSearchPlayer.shortlist`, :meth:`~ShortlistSearchPlayer.searched` and
:meth:`~ShortlistSearchPlayer.after` as it needs.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

from typhoon.ai.budget import SEARCH_LEVELS, Budget
from typhoon.ai.generic import Evaluate, RolloutSearchPlayer, one_ply_values
from typhoon.games import game_module


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
        """The candidates (default: the heuristic's choice, then the one-ply best)."""
        own = self.heuristic.choose(state, actions)
        if len(actions) <= n:
            return list(actions)
        values = one_ply_values(self.game, state, actions, self.inner.evaluate)
        order = sorted(range(len(actions)), key=lambda i: -values[i])
        return [own] + [actions[i] for i in order if actions[i] != own][: n - 1]

    def after(self, state: Any, action: Any) -> None:
        """Hook: what the heuristic must remember of a searched choice."""

    def choose(self, state: Any, actions: Sequence[Any]) -> Any:
        self._own = None
        if state.current_player() < 0 or len(actions) == 1:
            return self.inner.choose(state, actions)
        if not self.searched(state):
            a = self.heuristic.choose(state, actions)
            self._own = f"{self.game.action_to_text(a)}: the heuristic's choice ({self.unsearched})"
            return a
        a = self.inner.choose(state, self.shortlist(state, actions, max(2, self.config.candidates)))
        self.after(state, a)
        return a

    def explain(self) -> str:
        return self._own or self.inner.explain()


__all__ = ["ShortlistSearchPlayer"]
