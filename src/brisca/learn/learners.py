"""The learners: PPO's clipped update, the imitation's classification and the critic's regression, on a network's
arrays. :class:`NumpyLearner` backpropagates by hand (no torch: small runs, the tests); :class:`TorchLearner`
computes the same with torch (the ``learn`` extra), on the GPU where there is one. Each saves and loads its
weights with its optimiser's state (a run's ``checkpoint_learner``)."""

from __future__ import annotations

import math
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from brisca.agents.net import LAYERS
from brisca.learn.network import Arrays


def _floats(x: Any) -> Any:
    """Encoded views as the network reads them: bytes (:func:`brisca.learn.network.merge` without ``floats``)
    scaled back to floats, as ``merge`` would have."""
    if x.dtype != np.uint8:
        return x
    out = x.astype(np.float32)
    out /= 255.0
    return out


class NumpyLearner:
    """PPO's clipped loss, backpropagated by hand and stepped with Adam: no torch needed (small runs, the tests)."""

    def __init__(self, arrays: Arrays, lr: float = 3e-4, clip: float = 0.2, value_coef: float = 0.5,
                 entropy: float = 0.01, max_norm: float = 0.5, seed: int = 0) -> None:
        self.p = {k: np.array(arrays[k], np.float32) for k in LAYERS}
        self.m = {k: np.zeros_like(v) for k, v in self.p.items()}
        self.v = {k: np.zeros_like(v) for k, v in self.p.items()}
        self.t = 0
        self.lr, self.clip, self.value_coef, self.entropy, self.max_norm = lr, clip, value_coef, entropy, max_norm
        self.rng = np.random.default_rng(seed)

    def arrays(self) -> Arrays:
        return {k: v.copy() for k, v in self.p.items()}

    def _forward(self, x: Any, mask: Any) -> tuple[Any, Any, Any, Any]:
        """The hidden layers, the masked policy's log-probabilities and the values."""
        p = self.p
        h1 = np.maximum(x @ p["w1"] + p["b1"], 0.0)
        h2 = np.maximum(h1 @ p["w2"] + p["b2"], 0.0)
        z = np.where(mask, h2 @ p["wp"] + p["bp"], -1e9)
        z = z - z.max(axis=1, keepdims=True)
        return h1, h2, z - np.log(np.exp(z).sum(axis=1, keepdims=True)), (h2 @ p["wv"] + p["bv"])[:, 0]

    def loss_and_grads(self, x: Any, mask: Any, act: Any, old: Any, adv: Any, ret: Any) -> tuple[dict[str, float],
                                                                                                  Arrays]:
        n = len(x)
        h1, h2, logp_all, value = self._forward(x, mask)
        prob = np.exp(logp_all) * mask
        rows = np.arange(n)
        logp = logp_all[rows, act]
        ratio = np.exp(logp - old)
        clipped = np.clip(ratio, 1 - self.clip, 1 + self.clip)
        surrogate = np.minimum(ratio * adv, clipped * adv)
        plogp = np.where(mask, prob * logp_all, 0.0)
        ent = -plogp.sum(axis=1)
        loss_pi = -surrogate.mean()
        loss_v = ((value - ret) ** 2).mean()
        active = ratio * adv <= clipped * adv
        g_logp = np.where(active, -ratio * adv, 0.0) / n
        dz = -prob * g_logp[:, None]
        dz[rows, act] += g_logp
        # d(-entropy)/dz_j = p_j (log p_j + H), weighed by the entropy coefficient.
        dz += self.entropy / n * (plogp + prob * ent[:, None])
        dv = (2 * self.value_coef / n) * (value - ret)
        g = self._backward(x, h1, h2, dz, dv)
        kl = float((old - logp).mean())
        stats = {"loss_pi": float(loss_pi), "loss_v": float(loss_v), "entropy": float(ent.mean()), "kl": kl,
                 "loss": float(loss_pi + self.value_coef * loss_v - self.entropy * ent.mean())}
        return stats, g

    def imitation_grads(self, x: Any, mask: Any, act: Any, ret: Any) -> tuple[dict[str, float], Arrays]:
        """Cross-entropy of the chosen actions under the masked policy, plus the values' squared error."""
        n = len(x)
        h1, h2, logp_all, value = self._forward(x, mask)
        prob = np.exp(logp_all) * mask
        rows = np.arange(n)
        dz = prob / n
        dz[rows, act] -= 1.0 / n
        dv = (2 * self.value_coef / n) * (value - ret)
        stats = {"cross_entropy": float(-logp_all[rows, act].mean()), "loss_v": float(((value - ret) ** 2).mean()),
                 "accuracy": float((logp_all.argmax(axis=1) == act).mean())}
        return stats, self._backward(x, h1, h2, dz, dv)

    def value_grads(self, x: Any, ret: Any) -> tuple[dict[str, float], Arrays]:
        """The values' squared error alone (a critic's loss: its policy head is never read)."""
        n = len(x)
        p = self.p
        h1 = np.maximum(x @ p["w1"] + p["b1"], 0.0)
        h2 = np.maximum(h1 @ p["w2"] + p["b2"], 0.0)
        value = (h2 @ p["wv"] + p["bv"])[:, 0]
        dv = (2.0 / n) * (value - ret)
        return {"loss_c": float(((value - ret) ** 2).mean())}, self._backward(x, h1, h2, np.zeros((n, len(p["bp"])),
                                                                                                 np.float32), dv)

    def regress(self, x: Any, ret: Any, epochs: int, minibatch: int) -> dict[str, float]:
        """Fit the values to ``ret`` (a critic's update)."""
        return self._steps(len(ret), epochs, minibatch, lambda idx: self.value_grads(x[idx], ret[idx]))

    def _backward(self, x: Any, h1: Any, h2: Any, dz: Any, dv: Any) -> Arrays:
        """The parameters' gradients from those of the logits (``dz``) and of the values (``dv``)."""
        p = self.p
        g: Arrays = {"wp": h2.T @ dz, "bp": dz.sum(0), "wv": h2.T @ dv[:, None], "bv": np.array([dv.sum()])}
        dh2 = (dz @ p["wp"].T + dv[:, None] @ p["wv"].T) * (h2 > 0)
        g["w2"], g["b2"] = h1.T @ dh2, dh2.sum(0)
        dh1 = (dh2 @ p["w2"].T) * (h1 > 0)
        g["w1"], g["b1"] = x.T @ dh1, dh1.sum(0)
        return g

    def imitate(self, batch: dict[str, Any], epochs: int, minibatch: int) -> dict[str, float]:
        """Learn ``batch``'s choices (its views as floats, or as bytes read a minibatch at a time)."""
        return self._steps(len(batch["act"]), epochs, minibatch, lambda idx: self.imitation_grads(
            _floats(batch["obs"][idx]), batch["mask"][idx], batch["act"][idx], batch["ret"][idx]))

    def _steps(self, n: int, epochs: int, minibatch: int,
               grads_of: Callable[[Any], tuple[dict[str, float], Arrays]]) -> dict[str, float]:
        """``epochs`` passes over ``n`` samples in shuffled minibatches, a step on ``grads_of(indices)`` each; the
        mean of its statistics."""
        totals: dict[str, float] = {}
        count = 0
        for _ in range(epochs):
            order = self.rng.permutation(n)
            for start in range(0, n, minibatch):
                stats, g = grads_of(order[start:start + minibatch])
                self.step(g)
                for k, v in stats.items():
                    totals[k] = totals.get(k, 0.0) + v
                count += 1
        return {k: v / max(1, count) for k, v in totals.items()}

    def step(self, g: Arrays) -> None:
        norm = math.sqrt(sum(float((v.astype(np.float64) ** 2).sum()) for v in g.values()))
        scale = min(1.0, self.max_norm / (norm + 1e-6))
        self.t += 1
        b1, b2 = 0.9, 0.999
        c1, c2 = 1 - b1 ** self.t, 1 - b2 ** self.t
        for k, grad in g.items():  # Adam as torch.optim.Adam computes it (eps 1e-5)
            grad = grad.astype(np.float32) * scale
            self.m[k] = b1 * self.m[k] + (1 - b1) * grad
            self.v[k] = b2 * self.v[k] + (1 - b2) * grad * grad
            self.p[k] -= (self.lr * (self.m[k] / c1) / (np.sqrt(self.v[k] / c2) + 1e-5)).astype(self.p[k].dtype)

    def update(self, batch: dict[str, Any], epochs: int, minibatch: int) -> dict[str, float]:
        adv = batch["adv"]
        adv = (adv - adv.mean()) / (adv.std() + 1e-8)
        return self._steps(len(batch["act"]), epochs, minibatch, lambda idx: self.loss_and_grads(
            batch["obs"][idx], batch["mask"][idx], batch["act"][idx], batch["logp"][idx], adv[idx],
            batch["ret"][idx]))

    def save(self, path: Path) -> None:
        state: dict[str, Any] = {f"p_{k}": v for k, v in self.p.items()} | {f"m_{k}": v for k, v in self.m.items()}
        state |= {f"v_{k}": v for k, v in self.v.items()}
        np.savez(path, t=np.array(self.t), **state)

    def load(self, path: Path) -> None:
        with np.load(path) as d:
            self.t = int(d["t"])
            for k in LAYERS:
                self.p[k], self.m[k], self.v[k] = d[f"p_{k}"], d[f"m_{k}"], d[f"v_{k}"]


class TorchLearner:
    """The same loss and update with torch (the ``learn`` extra): on the GPU where there is one."""

    def __init__(self, arrays: Arrays, lr: float = 3e-4, clip: float = 0.2, value_coef: float = 0.5,
                 entropy: float = 0.01, max_norm: float = 0.5, seed: int = 0, device: str = "auto",
                 threads: int | None = None) -> None:
        import torch

        self.torch = torch
        if threads is not None:  # (the process's: torch has one pool of threads)
            torch.set_num_threads(threads)
        if device == "auto":
            device = "cuda" if torch.cuda.is_available() else "cpu"
        self.device = torch.device(device)
        torch.manual_seed(seed)
        self.p = {k: torch.nn.Parameter(torch.tensor(np.asarray(arrays[k]), device=self.device)) for k in LAYERS}
        self.lr = lr
        self.opt = torch.optim.Adam(list(self.p.values()), lr=lr, eps=1e-5)
        self.clip, self.value_coef, self.entropy, self.max_norm = clip, value_coef, entropy, max_norm
        self.gen = torch.Generator(device="cpu").manual_seed(seed)

    def arrays(self) -> Arrays:
        return {k: v.detach().cpu().numpy().copy() for k, v in self.p.items()}

    def _forward(self, x: Any, mask: Any) -> tuple[Any, Any]:
        """The masked policy's log-probabilities and the values."""
        p = self.p
        h2 = self._hidden(x)
        z = (h2 @ p["wp"] + p["bp"]).masked_fill(~mask, -1e9)
        return self.torch.log_softmax(z, dim=1), (h2 @ p["wv"] + p["bv"])[:, 0]

    def _hidden(self, x: Any) -> Any:
        """The second hidden layer's output."""
        p = self.p
        return self.torch.relu(self.torch.relu(x @ p["w1"] + p["b1"]) @ p["w2"] + p["b2"])

    def _steps(self, n: int, epochs: int, minibatch: int,
               loss_of: Callable[[Any], tuple[Any, dict[str, float]]]) -> dict[str, float]:
        """``epochs`` passes over ``n`` samples in shuffled minibatches, a step on ``loss_of(indices)`` each; the
        mean of its statistics."""
        totals: dict[str, float] = {}
        count = 0
        params = list(self.p.values())
        for _ in range(epochs):
            order = self.torch.randperm(n, generator=self.gen).to(self.device)
            for start in range(0, n, minibatch):
                loss, stats = loss_of(order[start:start + minibatch])
                self.opt.zero_grad()
                loss.backward()
                self.torch.nn.utils.clip_grad_norm_(params, self.max_norm)
                self.opt.step()
                for k, v in stats.items():
                    totals[k] = totals.get(k, 0.0) + v
                count += 1
        return {k: v / max(1, count) for k, v in totals.items()}

    def update(self, batch: dict[str, Any], epochs: int, minibatch: int) -> dict[str, float]:
        torch = self.torch
        x, mask, act, old, adv, ret = (torch.from_numpy(batch[k]).to(self.device)
                                       for k in ("obs", "mask", "act", "logp", "adv", "ret"))
        adv = (adv - adv.mean()) / (adv.std() + 1e-8)

        def loss_of(idx: Any) -> tuple[Any, dict[str, float]]:
            m = mask[idx]
            logp_all, value = self._forward(x[idx], m)
            logp = logp_all.gather(1, act[idx][:, None])[:, 0]
            ratio = torch.exp(logp - old[idx])
            a = adv[idx]
            loss_pi = -torch.minimum(ratio * a, ratio.clamp(1 - self.clip, 1 + self.clip) * a).mean()
            prob = logp_all.exp()
            ent = -(torch.where(m, prob * logp_all, torch.zeros_like(prob))).sum(1).mean()
            loss_v = ((value - ret[idx]) ** 2).mean()
            loss = loss_pi + self.value_coef * loss_v - self.entropy * ent
            return loss, {"loss_pi": loss_pi.item(), "loss_v": loss_v.item(), "entropy": ent.item(),
                          "kl": (old[idx] - logp).mean().item(), "loss": loss.item()}

        return self._steps(len(act), epochs, minibatch, loss_of)

    def imitate(self, batch: dict[str, Any], epochs: int, minibatch: int) -> dict[str, float]:
        """Learn ``batch``'s choices (its views as floats, or as bytes read a minibatch at a time)."""
        x, mask, act, ret = (self.torch.from_numpy(batch[k]).to(self.device) for k in ("obs", "mask", "act", "ret"))
        as_bytes = x.dtype == self.torch.uint8

        def loss_of(idx: Any) -> tuple[Any, dict[str, float]]:
            logp_all, value = self._forward(x[idx].float() / 255.0 if as_bytes else x[idx], mask[idx])
            ce = -logp_all.gather(1, act[idx][:, None])[:, 0].mean()
            loss_v = ((value - ret[idx]) ** 2).mean()
            return ce + self.value_coef * loss_v, {
                "cross_entropy": ce.item(), "loss_v": loss_v.item(),
                "accuracy": (logp_all.argmax(1) == act[idx]).float().mean().item()}

        return self._steps(len(act), epochs, minibatch, loss_of)

    def regress(self, x: Any, ret: Any, epochs: int, minibatch: int) -> dict[str, float]:
        """Fit the values to ``ret`` (a critic's update)."""
        torch = self.torch
        xt, rt = torch.from_numpy(x).to(self.device), torch.from_numpy(ret).to(self.device)
        p = self.p

        def loss_of(idx: Any) -> tuple[Any, dict[str, float]]:
            loss = (((self._hidden(xt[idx]) @ p["wv"] + p["bv"])[:, 0] - rt[idx]) ** 2).mean()
            return loss, {"loss_c": loss.item()}

        return self._steps(len(ret), epochs, minibatch, loss_of)

    def save(self, path: Path) -> None:
        self.torch.save({"p": {k: v.detach().cpu() for k, v in self.p.items()}, "opt": self.opt.state_dict()}, path)

    def load(self, path: Path) -> None:
        state = self.torch.load(path, map_location=self.device)
        with self.torch.no_grad():
            for k, v in state["p"].items():
                self.p[k].copy_(v)
        self.opt.load_state_dict(state["opt"])
        for group in self.opt.param_groups:  # this invocation's --lr, not the saved one
            group["lr"] = self.lr


def make_learner(backend: str, arrays: Arrays, lr: float, seed: int, device: str,
                 entropy: float = 0.01, threads: int | None = None) -> NumpyLearner | TorchLearner:
    """The learner of ``backend`` (auto: torch where it is installed, else numpy) on ``arrays``; torch on
    ``threads`` CPU threads (``None``: torch's own choice, every core)."""
    if backend == "auto":
        try:
            import torch  # noqa: F401

            backend = "torch"
        except ImportError:
            backend = "numpy"
    if backend == "torch":
        return TorchLearner(arrays, lr=lr, entropy=entropy, seed=seed, device=device, threads=threads)
    if backend != "numpy":
        raise ValueError(f"backend is auto, torch or numpy, not {backend!r}")
    return NumpyLearner(arrays, lr=lr, entropy=entropy, seed=seed)


#: Either learner (they share their methods: update, imitate, regress, arrays, save, load).
Learner = NumpyLearner | TorchLearner
