"""Train a masked-action agent for Battle for Moscow on the CPU with numpy only.

    python examples/train_masked_agent.py              # about three minutes of training
    python examples/train_masked_agent.py --quick      # about twenty seconds
    python examples/train_masked_agent.py --minutes 10 --side german --eval-games 200

The agent plays one side (German by default) in the Gymnasium environment
(:class:`typhoon.env.gym_env.BfmGymEnv`, the game-blind GameGymEnv bound to Battle for Moscow) against the bundled ``random`` player, and prints its
win rate against ``random`` before and after training.

Policy: a linear softmax over the *legal* action codes only (the mask), each code scored by
features that the action layout gives for free: its block (move, attack, end, ...), its unit,
its target hex, and the 88 observation channels at that hex (terrain, enemy zone of control,
city control, ...). All weights start at zero, so the untrained agent is exactly the uniform
random player. Training: REINFORCE with a running-mean baseline; the return is the game
result (+1 / -1 / 0) plus a small bonus for the cities the agent's side holds at the end
(the result stays what the printed win rate measures).
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from typhoon.env.gym_env import BfmGymEnv
from typhoon.games.bfm.env.actions import LAYOUT, NUM_ACTIONS, NUM_DIRECTIONS, NUM_HEXES, NUM_UNITS
from typhoon.games.bfm.env.observation import CH, NUM_CHANNELS

BLOCKS = list(LAYOUT.blocks)
NO_HEX = NUM_HEXES  # a column of zeros for codes without a hex
NO_UNIT = NUM_UNITS


def code_tables() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """block, hex and unit of every action code (hex and unit when the code alone says)."""
    block = np.zeros(NUM_ACTIONS, dtype=np.int64)
    hexes = np.full(NUM_ACTIONS, NO_HEX, dtype=np.int64)
    units = np.full(NUM_ACTIONS, NO_UNIT, dtype=np.int64)
    for b, (name, (start, n)) in enumerate(LAYOUT.blocks.items()):
        block[start : start + n] = b
        rel = np.arange(n)
        if name == "TO":
            units[start : start + n] = rel // NUM_HEXES
            hexes[start : start + n] = rel % NUM_HEXES
        elif name == "ATTACK":
            units[start : start + n] = rel // NUM_DIRECTIONS
        elif name == "RESOLVE":
            hexes[start : start + n] = rel
        elif name in ("LOSE", "ADVANCE", "RESTORE"):
            units[start : start + n] = rel
        elif name == "MOVE_VIA":
            for u, off in enumerate(LAYOUT.via_offset):
                table = LAYOUT.via_tables[LAYOUT.allowance[u]]
                for i, (dst, _via) in enumerate(table):
                    units[start + off + i] = u
                    hexes[start + off + i] = dst
    return block, hexes, units


class LinearPolicy:
    def __init__(self, rng: np.random.Generator):
        self.rng = rng
        self.block, self.hexes, self.units = code_tables()
        self.w_block = np.zeros(len(BLOCKS))
        self.w_hex = np.zeros(NUM_HEXES + 1)
        self.w_unit = np.zeros(NUM_UNITS + 1)
        self.w_obs = np.zeros(NUM_CHANNELS)
        self.zero_grad()

    def zero_grad(self) -> None:
        self.g_block = np.zeros_like(self.w_block)
        self.g_hex = np.zeros_like(self.w_hex)
        self.g_unit = np.zeros_like(self.w_unit)
        self.g_obs = np.zeros_like(self.w_obs)

    def act(self, obs: np.ndarray, mask: np.ndarray, learn: bool) -> int:
        codes = mask.nonzero()[0]
        b, h, u = self.block[codes], self.hexes[codes], self.units[codes]
        planes = np.concatenate([obs.reshape(NUM_CHANNELS, NUM_HEXES), np.zeros((NUM_CHANNELS, 1))], axis=1)
        cols = planes[:, h]  # (channels, legal)
        logits = self.w_block[b] + self.w_hex[h] + self.w_unit[u] + self.w_obs @ cols
        logits -= logits.max()
        p = np.exp(logits)
        p /= p.sum()
        i = int(self.rng.choice(len(codes), p=p))
        if learn:  # grad of log p[i] = phi(i) - sum_j p_j phi(j), accumulated over the episode
            onehot = -p
            onehot[i] += 1.0
            np.add.at(self.g_block, b, onehot)
            np.add.at(self.g_hex, h, onehot)
            np.add.at(self.g_unit, u, onehot)
            self.g_obs += cols @ onehot
        return int(codes[i])

    def step(self, scale: float, clip: float) -> None:
        norm = float(
            np.sqrt(sum(float((g * g).sum()) for g in (self.g_block, self.g_hex, self.g_unit, self.g_obs)))
        )
        if norm > clip:
            scale *= clip / norm
        self.w_block += scale * self.g_block
        self.w_hex += scale * self.g_hex
        self.w_unit += scale * self.g_unit
        self.w_obs += scale * self.g_obs
        self.w_hex[NO_HEX] = 0.0
        self.w_unit[NO_UNIT] = 0.0


def play(env: BfmGymEnv, policy: LinearPolicy, seed: int, learn: bool) -> tuple[float, float]:
    """One game; returns (result for the agent, share of cities its side holds at the end)."""
    obs, _ = env.reset(seed=seed)
    reward, done = 0.0, env.match.over
    while not done:
        code = policy.act(obs, env.action_masks(), learn)
        obs, r, done, _, _ = env.step(code)
        reward = float(r)
    mine = "city_german" if env.side == 0 else "city_soviet"
    cities = float(obs[CH[mine]].sum() / max(1.0, obs[CH["city"]].sum()))
    return reward, cities


def win_rate(env: BfmGymEnv, policy: LinearPolicy, games: int, seed: int) -> float:
    wins = sum(1 for g in range(games) if play(env, policy, seed + g, learn=False)[0] > 0)
    return wins / games


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--minutes", type=float, default=3.0, help="training time (default 3)")
    ap.add_argument("--quick", action="store_true", help="train for 20 seconds, evaluate on 50 games")
    ap.add_argument("--side", choices=["german", "soviet"], default="german")
    ap.add_argument("--edition", default="gdw1986")
    ap.add_argument("--eval-games", type=int, default=200)
    ap.add_argument("--lr", type=float, default=0.02)
    ap.add_argument("--clip", type=float, default=20.0, help="gradient norm clip per episode")
    ap.add_argument("--city-bonus", type=float, default=1.0)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    seconds = 20.0 if args.quick else args.minutes * 60.0
    eval_games = 50 if args.quick else args.eval_games

    env = BfmGymEnv(side=args.side, opponent="random", edition=args.edition)
    policy = LinearPolicy(np.random.default_rng(args.seed))
    t0 = time.perf_counter()
    before = win_rate(env, policy, eval_games, seed=10_000_000)
    print(
        f"{args.side} win rate vs random before training: {before:.1%} ({eval_games} games, "
        f"{time.perf_counter() - t0:.0f} s)",
        flush=True,
    )

    baseline, episodes = 0.0, 0
    recent: list[bool] = []
    t0 = time.perf_counter()
    last_report = t0
    while time.perf_counter() - t0 < seconds:
        policy.zero_grad()
        result, cities = play(env, policy, seed=args.seed * 1_000_003 + episodes, learn=True)
        ret = result + args.city_bonus * cities
        baseline += 0.02 * (ret - baseline) if episodes else ret
        policy.step(args.lr * (ret - baseline), args.clip)
        episodes += 1
        recent.append(result > 0)
        if time.perf_counter() - last_report > 30:
            last_report = time.perf_counter()
            window = recent[-100:]
            print(
                f"  {episodes} episodes, {last_report - t0:.0f} s, win rate over the last "
                f"{len(window)} training games {sum(window) / len(window):.0%}, mean return {baseline:+.2f}",
                flush=True,
            )
    train_s = time.perf_counter() - t0
    after = win_rate(env, policy, eval_games, seed=10_000_000)
    print(f"trained {episodes} episodes in {train_s:.0f} s")
    print(f"{args.side} win rate vs random after training: {after:.1%} ({eval_games} games)")
    top = np.argsort(policy.w_block)[::-1][:3]
    print("most preferred action kinds:", ", ".join(f"{BLOCKS[i]} ({policy.w_block[i]:+.2f})" for i in top))


if __name__ == "__main__":
    main()
