"""Make the client's sounds (assets/sounds/*.wav) from code: short, quiet, made here (MIT).

    python tools/make_sounds.py

dice.wav: a few dice clattering (decaying clicks of filtered noise); card.wav: a card turned over
(a soft swish). Deterministic (seeded), 22,050 Hz mono 16-bit.
"""
from __future__ import annotations

import wave
from pathlib import Path

import numpy as np

RATE = 22050
OUT = Path(__file__).resolve().parents[1] / "assets" / "sounds"


def _write(name: str, samples: np.ndarray) -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    data = (np.clip(samples, -1, 1) * 32767 * 0.5).astype("<i2")
    with wave.open(str(OUT / name), "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(RATE)
        w.writeframes(data.tobytes())


def dice(rng: np.random.Generator) -> np.ndarray:
    out = np.zeros(int(RATE * 0.45))
    for k, t in enumerate(sorted(rng.uniform(0.0, 0.35, 7))):
        n = int(RATE * 0.03)
        click = rng.normal(0, 1, n) * np.exp(-np.linspace(0, 9, n))
        click = np.convolve(click, np.ones(4) / 4, mode="same")        # a little softer
        i = int(t * RATE)
        out[i:i + n] += click[: len(out) - i] * (1.0 - 0.08 * k)
    return out / max(1e-9, np.abs(out).max())


def card(rng: np.random.Generator) -> np.ndarray:
    n = int(RATE * 0.18)
    env = np.sin(np.linspace(0, np.pi, n)) ** 2
    swish = np.convolve(rng.normal(0, 1, n), np.ones(12) / 12, mode="same") * env
    return swish / max(1e-9, np.abs(swish).max()) * 0.7


if __name__ == "__main__":
    rng = np.random.default_rng(20261203)
    _write("dice.wav", dice(rng))
    _write("card.wav", card(rng))
    print("wrote", ", ".join(str(p) for p in sorted(OUT.glob("*.wav"))))
