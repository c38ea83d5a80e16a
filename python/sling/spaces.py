"""The spaces and base classes of sling.env: Gymnasium's and PettingZoo's own when they are
importable, otherwise small stand-ins with the same attributes and methods, so that code written
for Gymnasium (``env.action_space.sample(mask)``, ``obs in env.observation_space``, ``.n``,
``.shape``, ``.dtype``, ``.seed``) runs unchanged without it.  Neither library is packaged for
Debian 12, and Sling must not require them.
"""

from __future__ import annotations

from typing import Any, List, Optional, Sequence, Tuple

import numpy as np

try:  # pragma: no cover - depends on the environment
    import gymnasium as _gymnasium
except ImportError:
    _gymnasium = None

try:  # pragma: no cover - depends on the environment
    import pettingzoo as _pettingzoo
except ImportError:
    _pettingzoo = None


def np_random(seed: Optional[int] = None) -> np.random.Generator:
    """A generator as gymnasium.utils.seeding.np_random makes it (PCG64 over a SeedSequence)."""
    if seed is not None and (not isinstance(seed, (int, np.integer)) or seed < 0):
        raise ValueError(f"seed must be a non-negative integer or None, not {seed!r}")
    return np.random.Generator(np.random.PCG64(np.random.SeedSequence(seed)))


class _Space:
    """The part of gymnasium.spaces.Space the stand-ins share: a shape, a dtype and a generator."""

    def __init__(self, shape: Tuple[int, ...], dtype: Any, seed: Optional[int] = None):
        self._shape = tuple(shape)
        self.dtype = np.dtype(dtype)
        self._np_random: Optional[np.random.Generator] = None
        if seed is not None:
            self.seed(seed)

    @property
    def shape(self) -> Tuple[int, ...]:
        return self._shape

    @property
    def np_random(self) -> np.random.Generator:
        if self._np_random is None:
            self.seed()
        return self._np_random  # type: ignore[return-value]

    @property
    def is_np_flattenable(self) -> bool:
        return True

    def seed(self, seed: Optional[int] = None) -> List[int]:
        """Seeds the space's sampler; returns the seed used, as Gymnasium does."""
        if seed is None:
            seed = int(np.random.SeedSequence().entropy) & ((1 << 63) - 1)
        self._np_random = np_random(seed)
        return [int(seed)]

    def __contains__(self, x: Any) -> bool:
        return self.contains(x)

    def contains(self, x: Any) -> bool:  # pragma: no cover - overridden
        raise NotImplementedError


class Discrete(_Space):
    """Integers start..start+n-1 (gymnasium.spaces.Discrete)."""

    def __init__(self, n: int, seed: Optional[int] = None, start: int = 0):
        if int(n) <= 0:
            raise ValueError("n (the number of elements) must be positive")
        self.n = np.int64(n)
        self.start = np.int64(start)
        super().__init__((), np.int64, seed)

    def sample(self, mask: Optional[np.ndarray] = None, probability: Optional[np.ndarray] = None
               ) -> np.int64:
        """A uniform element; with `mask` (int8, shape (n,), 1 where allowed) a uniform allowed
        one (start when none is), with `probability` one drawn by those weights."""
        if mask is not None and probability is not None:
            raise ValueError("give a mask or a probability, not both")
        if mask is not None:
            mask = np.asarray(mask)
            if mask.dtype != np.int8 or mask.shape != (int(self.n),):
                raise ValueError(f"the mask must be np.int8 of shape ({int(self.n)},), not "
                                 f"{mask.dtype} of shape {mask.shape}")
            allowed = np.flatnonzero(mask)
            if allowed.size == 0:
                return self.start
            return np.int64(self.start + self.np_random.choice(allowed))
        if probability is not None:
            probability = np.asarray(probability, dtype=np.float64)
            return np.int64(self.start + self.np_random.choice(int(self.n), p=probability))
        return np.int64(self.start + self.np_random.integers(int(self.n)))

    def contains(self, x: Any) -> bool:
        if isinstance(x, (int, np.integer)) and not isinstance(x, bool):
            value = int(x)
        elif isinstance(x, np.ndarray) and x.shape == () and np.issubdtype(x.dtype, np.integer):
            value = int(x)
        else:
            return False
        return bool(self.start <= value < self.start + self.n)

    def __eq__(self, other: Any) -> bool:
        return isinstance(other, Discrete) and self.n == other.n and self.start == other.start

    def __hash__(self) -> int:
        return hash((int(self.n), int(self.start)))

    def __repr__(self) -> str:
        return f"Discrete({int(self.n)})" if self.start == 0 else \
            f"Discrete({int(self.n)}, start={int(self.start)})"


class Box(_Space):
    """Arrays of a fixed shape with every entry in [low, high] (gymnasium.spaces.Box)."""

    def __init__(self, low: Any, high: Any, shape: Optional[Sequence[int]] = None,
                 dtype: Any = np.float32, seed: Optional[int] = None):
        dtype = np.dtype(dtype)
        if shape is None:
            shape = np.shape(low) if np.ndim(low) else np.shape(high)
        shape = tuple(int(d) for d in shape)
        self.low = np.full(shape, low, dtype=dtype) if np.ndim(low) == 0 else \
            np.asarray(low, dtype=dtype)
        self.high = np.full(shape, high, dtype=dtype) if np.ndim(high) == 0 else \
            np.asarray(high, dtype=dtype)
        if self.low.shape != shape or self.high.shape != shape:
            raise ValueError("low and high must be scalars or arrays of the box's shape")
        super().__init__(shape, dtype, seed)

    def is_bounded(self, manner: str = "both") -> bool:
        below, above = bool(np.all(np.isfinite(self.low))), bool(np.all(np.isfinite(self.high)))
        return {"both": below and above, "below": below, "above": above}[manner]

    def sample(self, mask: None = None) -> np.ndarray:
        """A uniform array in [low, high] (the boxes of sling.env are bounded)."""
        if mask is not None:
            raise ValueError("a Box samples without a mask")
        draw = self.np_random.uniform(self.low, self.high, size=self.shape)
        return draw.astype(self.dtype)

    def contains(self, x: Any) -> bool:
        if not isinstance(x, np.ndarray):
            try:
                x = np.asarray(x, dtype=self.dtype)
            except (ValueError, TypeError):
                return False
        return bool(np.can_cast(x.dtype, self.dtype) and x.shape == self.shape
                    and np.all(x >= self.low) and np.all(x <= self.high))

    def __eq__(self, other: Any) -> bool:
        return (isinstance(other, Box) and self.shape == other.shape and self.dtype == other.dtype
                and np.allclose(self.low, other.low) and np.allclose(self.high, other.high))

    def __hash__(self) -> int:
        return hash((self.shape, str(self.dtype)))

    def __repr__(self) -> str:
        return f"Box({self.low.min()}, {self.high.max()}, {self.shape}, {self.dtype})"


#: The classes sling.env's environments derive from and build their spaces with.
HAVE_GYMNASIUM = _gymnasium is not None
HAVE_PETTINGZOO = _pettingzoo is not None
if _gymnasium is not None:  # pragma: no cover - depends on the environment
    Box = _gymnasium.spaces.Box  # type: ignore[misc,assignment]  # noqa: F811
    Discrete = _gymnasium.spaces.Discrete  # type: ignore[misc,assignment]  # noqa: F811
    GymEnvBase: type = _gymnasium.Env
else:
    GymEnvBase = object
AECEnvBase: type = _pettingzoo.AECEnv if _pettingzoo is not None else object
