"""Masked PPO learns 2-player Brisca (``spanish``) against the random player, on the CPU.

The learner is one seat of :class:`brisca.envs.gymnasium.BriscaEnv` (its seat and
the dealer drawn every hand), the opponent ``random``, the reward ``dense`` (card
points as they are won, zero-sum, 1 = 120 points). The policy is a small MLP over
the observation vector whose logits are masked to the legal actions. Every
``--eval-every`` updates the greedy policy (arg-max) plays duplicate hands against
``random`` through the engine: ``--eval-deals`` deals, each played twice with the
seats swapped; the score counts a win 1 and a drawn hand 1/2.

Needs ``pip install 'brisca[rl]' torch==2.13.0`` (CPU). The run in docs/research.md:

    python examples/train_ppo.py --minutes 6 --eval-every 40 --eval-deals 300 --seed 1
"""

from __future__ import annotations

import argparse
import random
import time
from typing import Any

import numpy as np
import torch
from torch import nn

from brisca import Game
from brisca.actions import Action
from brisca.agents import make_agent
from brisca.envs.encode import ObservationEncoder
from brisca.envs.gymnasium import BriscaEnv
from brisca.game import View


class Policy(nn.Module):
    def __init__(self, obs_size: int, actions: int, hidden: int = 256) -> None:
        super().__init__()
        self.body = nn.Sequential(nn.Linear(obs_size, hidden), nn.ReLU(), nn.Linear(hidden, hidden), nn.ReLU())
        self.pi = nn.Linear(hidden, actions)
        self.v = nn.Linear(hidden, 1)

    def forward(self, obs: torch.Tensor, mask: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        h = self.body(obs)
        logits = self.pi(h).masked_fill(~mask, -1e9)
        return logits, self.v(h).squeeze(-1)


class PolicyAgent:
    """The trained policy as a brisca agent (arg-max over the legal actions)."""

    def __init__(self, policy: Policy, encoder: ObservationEncoder) -> None:
        self.policy, self.encoder = policy, encoder

    @torch.no_grad()
    def act(self, view: View) -> Action:
        obs = torch.from_numpy(self.encoder.encode(view)).unsqueeze(0)
        mask = torch.from_numpy(self.encoder.mask(view).astype(bool)).unsqueeze(0)
        logits, _ = self.policy(obs, mask)
        return self.encoder.codec.decode(int(logits.argmax()))


def duplicate(agent: Any, opponent: str, deals: int, seed: int) -> tuple[float, float]:
    """Score (win 1, draw 1/2) and mean point margin of ``agent`` over ``deals`` deals played twice."""
    rng = random.Random(seed)
    other = make_agent(opponent, seed=seed)
    score = margin = 0.0
    for _ in range(deals):
        deck = Game("spanish", 2, seed=rng.randrange(2**32)).deck
        for mine in (0, 1):
            game = Game("spanish", 2, deck=deck)
            while not game.is_over():
                turn = game.turn
                assert turn is not None
                game.apply((agent if turn == mine else other).act(game.view(turn)))
            result = game.result()
            assert result is not None
            score += 0.5 if result.winner is None else float(result.winner == mine)
            margin += result.side_points[mine] - result.side_points[1 - mine]
    return score / (2 * deals), margin / (2 * deals)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--minutes", type=float, default=6.0, help="training time budget")
    parser.add_argument("--envs", type=int, default=16)
    parser.add_argument("--steps", type=int, default=64, help="steps per environment per update")
    parser.add_argument("--epochs", type=int, default=4)
    parser.add_argument("--minibatch", type=int, default=256)
    parser.add_argument("--lr", type=float, default=1e-3)
    parser.add_argument("--entropy", type=float, default=0.01)
    parser.add_argument("--eval-every", type=int, default=40, help="updates between evaluations")
    parser.add_argument("--eval-deals", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--save", default="", help="save the policy's state_dict here")
    args = parser.parse_args()

    torch.manual_seed(args.seed)
    torch.set_num_threads(args.threads)
    envs = [BriscaEnv("spanish", 2, opponents="random", reward="dense") for _ in range(args.envs)]
    encoder = envs[0].encoder
    policy = Policy(encoder.size, encoder.codec.size)
    optimizer = torch.optim.Adam(policy.parameters(), lr=args.lr)
    gamma, lam, clip = 1.0, 0.95, 0.2

    obs = np.zeros((args.envs, encoder.size), np.float32)
    masks = np.zeros((args.envs, encoder.codec.size), bool)
    for i, env in enumerate(envs):
        o, info = env.reset(seed=args.seed * 1000 + i)
        obs[i], masks[i] = o, info["action_mask"].astype(bool)

    def evaluate(update: int, episodes: int, steps: int, elapsed: float) -> None:
        policy.eval()
        score, margin = duplicate(PolicyAgent(policy, encoder), "random", args.eval_deals, seed=12345)
        policy.train()
        print(f"{update:>6} {episodes:>9} {steps:>10} {elapsed:>8.0f} {score:>8.3f} {margin:>+8.1f}", flush=True)

    print(f"{'update':>6} {'episodes':>9} {'steps':>10} {'seconds':>8} {'score':>8} {'margin':>8}"
          f"   (vs random, duplicate over {2 * args.eval_deals} hands)")
    start = time.perf_counter()
    episodes = steps = update = 0
    evaluate(0, 0, 0, 0.0)
    T, N = args.steps, args.envs
    while time.perf_counter() - start < args.minutes * 60:
        b_obs = np.zeros((T, N, encoder.size), np.float32)
        b_mask = np.zeros((T, N, encoder.codec.size), bool)
        b_act = np.zeros((T, N), np.int64)
        b_logp = np.zeros((T, N), np.float32)
        b_val = np.zeros((T + 1, N), np.float32)
        b_rew = np.zeros((T, N), np.float32)
        b_done = np.zeros((T, N), np.float32)
        for t in range(T):
            with torch.no_grad():
                logits, value = policy(torch.from_numpy(obs), torch.from_numpy(masks))
                dist = torch.distributions.Categorical(logits=logits)
                action = dist.sample()
            b_obs[t], b_mask[t], b_act[t] = obs, masks, action.numpy()
            b_logp[t], b_val[t] = dist.log_prob(action).numpy(), value.numpy()
            for i, env in enumerate(envs):
                o, r, done, _trunc, info = env.step(int(action[i]))
                b_rew[t, i], b_done[t, i] = r, done
                if done:
                    episodes += 1
                    o, info = env.reset()
                obs[i], masks[i] = o, info["action_mask"].astype(bool)
            steps += N
        with torch.no_grad():
            b_val[T] = policy(torch.from_numpy(obs), torch.from_numpy(masks))[1].numpy()
        adv = np.zeros((T, N), np.float32)
        last = np.zeros(N, np.float32)
        for t in reversed(range(T)):
            live = 1.0 - b_done[t]
            delta = b_rew[t] + gamma * b_val[t + 1] * live - b_val[t]
            last = delta + gamma * lam * live * last
            adv[t] = last
        ret = adv + b_val[:T]
        flat = T * N
        f_obs = torch.from_numpy(b_obs.reshape(flat, -1))
        f_mask = torch.from_numpy(b_mask.reshape(flat, -1))
        f_act = torch.from_numpy(b_act.reshape(flat))
        f_logp = torch.from_numpy(b_logp.reshape(flat))
        f_adv = torch.from_numpy(adv.reshape(flat))
        f_ret = torch.from_numpy(ret.reshape(flat))
        for _ in range(args.epochs):
            for idx in torch.randperm(flat).split(args.minibatch):
                logits, value = policy(f_obs[idx], f_mask[idx])
                dist = torch.distributions.Categorical(logits=logits)
                a = f_adv[idx]
                a = (a - a.mean()) / (a.std() + 1e-8)
                ratio = (dist.log_prob(f_act[idx]) - f_logp[idx]).exp()
                pg = -torch.min(ratio * a, ratio.clamp(1 - clip, 1 + clip) * a).mean()
                vf = 0.5 * (value - f_ret[idx]).pow(2).mean()
                loss = pg + vf - args.entropy * dist.entropy().mean()
                optimizer.zero_grad()
                loss.backward()
                nn.utils.clip_grad_norm_(policy.parameters(), 0.5)
                optimizer.step()
        update += 1
        if update % args.eval_every == 0:
            evaluate(update, episodes, steps, time.perf_counter() - start)
    if update % args.eval_every:
        evaluate(update, episodes, steps, time.perf_counter() - start)
    greedy_score, greedy_margin = duplicate(PolicyAgent(policy, encoder), "greedy", args.eval_deals, seed=54321)
    print(f"final policy vs greedy: score {greedy_score:.3f}, margin {greedy_margin:+.1f}")
    if args.save:
        torch.save(policy.state_dict(), args.save)


if __name__ == "__main__":
    main()
