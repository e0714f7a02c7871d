"""A replay buffer per network: the latest states and targets, sampled uniformly for SGD minibatches."""

from __future__ import annotations

import numpy as np


class Replay:
    """Ring buffers of (index row, target) per network name, ``capacity`` states each."""

    def __init__(self, capacity: int):
        self.capacity = capacity
        self._rows: dict[str, np.ndarray] = {}
        self._y: dict[str, np.ndarray] = {}
        self._size: dict[str, int] = {}
        self._next: dict[str, int] = {}

    def __len__(self) -> int:
        return sum(self._size.values())

    def size(self, name: str) -> int:
        return self._size.get(name, 0)

    def add(self, name: str, rows: np.ndarray, y: np.ndarray) -> None:
        if name not in self._rows:
            self._rows[name] = np.zeros((self.capacity, rows.shape[1]), dtype=np.int16)
            self._y[name] = np.zeros(self.capacity, dtype=np.float32)
            self._size[name] = self._next[name] = 0
        for start in range(0, len(y), self.capacity):
            part_rows, part_y = rows[start:start + self.capacity], y[start:start + self.capacity]
            at = (self._next[name] + np.arange(len(part_y))) % self.capacity
            self._rows[name][at] = part_rows
            self._y[name][at] = part_y
            self._next[name] = int((self._next[name] + len(part_y)) % self.capacity)
            self._size[name] = min(self.capacity, self._size[name] + len(part_y))

    def sample(self, name: str, k: int, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
        idx = rng.integers(self._size[name], size=k)
        return self._rows[name][idx], self._y[name][idx]
