#!/usr/bin/env python3
"""The tile colours of render.py (``TYPE_COLOURS``): how they were chosen, and a check that the
table is still what this rule gives.

Rule: farthest-point selection in CIEDE2000 (the CIE's colour difference formula) over a grid
of sRGB colours of middle lightness. The picture's own colours (board, ring, walls, frame, path, step badges) are
placed first, so every tile colour is also far from them; then each new colour is the candidate
whose nearest colour already placed is the farthest. Types 1, 2, 3, ... get the colours in the
order they are picked, so the first types of a board are the most distinct.

    python ci/palette.py           print the table
    python ci/palette.py --check   exit 1 if render.TYPE_COLOURS differs from it

tests/test_render.py checks the property that matters (every two of the 36 colours differ by at
least a fixed CIEDE2000 distance) with its own implementation of the formula.
"""
from __future__ import annotations

import sys

import numpy as np

COUNT = 36
#: The sRGB grid the colours are picked from (steps of 17 on 0..255: 16 levels per channel).
LEVELS = np.arange(0, 256, 17)
#: CIELAB lightness range of tile colours: no tile as dark as a wall or as pale as the board.
LIGHTNESS = (30, 92)
#: Colours of the picture that tiles must stand out from (see render.py).
FIXED = ["#fbfaf7", "#f3efe6", "#3b3b3b", "#5a5a5a", "#d7263d", "#1f3a93", "#000000", "#ffffff"]


def srgb_to_lab(rgb: np.ndarray) -> np.ndarray:
    """(n, 3) sRGB in 0..255 -> (n, 3) CIELAB (D65)."""
    c = rgb / 255.0
    lin = np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)
    m = np.array([[0.4124564, 0.3575761, 0.1804375],
                  [0.2126729, 0.7151522, 0.0721750],
                  [0.0193339, 0.1191920, 0.9503041]])
    xyz = lin @ m.T / np.array([0.95047, 1.0, 1.08883])
    f = np.where(xyz > (6 / 29) ** 3, np.cbrt(xyz), xyz / (3 * (6 / 29) ** 2) + 4 / 29)
    return np.stack([116 * f[:, 1] - 16, 500 * (f[:, 0] - f[:, 1]), 200 * (f[:, 1] - f[:, 2])], axis=1)


def ciede2000(lab1: np.ndarray, lab2: np.ndarray) -> np.ndarray:
    """CIEDE2000 difference of (n, 3) against (n, 3) or (3,) Lab colours (kL = kC = kH = 1)."""
    L1, a1, b1 = lab1[..., 0], lab1[..., 1], lab1[..., 2]
    L2, a2, b2 = lab2[..., 0], lab2[..., 1], lab2[..., 2]
    C1, C2 = np.hypot(a1, b1), np.hypot(a2, b2)
    Cbar7 = ((C1 + C2) / 2) ** 7
    G = 0.5 * (1 - np.sqrt(Cbar7 / (Cbar7 + 25.0 ** 7)))
    a1p, a2p = (1 + G) * a1, (1 + G) * a2
    C1p, C2p = np.hypot(a1p, b1), np.hypot(a2p, b2)
    h1p = np.degrees(np.arctan2(b1, a1p)) % 360
    h2p = np.degrees(np.arctan2(b2, a2p)) % 360
    dLp, dCp = L2 - L1, C2p - C1p
    dhp = h2p - h1p
    dhp = np.where(dhp > 180, dhp - 360, np.where(dhp < -180, dhp + 360, dhp))
    dhp = np.where(C1p * C2p == 0, 0, dhp)
    dHp = 2 * np.sqrt(C1p * C2p) * np.sin(np.radians(dhp / 2))
    Lbarp, Cbarp = (L1 + L2) / 2, (C1p + C2p) / 2
    hsum = h1p + h2p
    hbarp = np.where(np.abs(h1p - h2p) > 180, np.where(hsum < 360, hsum + 360, hsum - 360), hsum) / 2
    hbarp = np.where(C1p * C2p == 0, hsum, hbarp)
    T = (1 - 0.17 * np.cos(np.radians(hbarp - 30)) + 0.24 * np.cos(np.radians(2 * hbarp))
         + 0.32 * np.cos(np.radians(3 * hbarp + 6)) - 0.20 * np.cos(np.radians(4 * hbarp - 63)))
    SL = 1 + 0.015 * (Lbarp - 50) ** 2 / np.sqrt(20 + (Lbarp - 50) ** 2)
    SC = 1 + 0.045 * Cbarp
    SH = 1 + 0.015 * Cbarp * T
    Cbarp7 = Cbarp ** 7
    RT = (-2 * np.sqrt(Cbarp7 / (Cbarp7 + 25.0 ** 7))
          * np.sin(np.radians(60 * np.exp(-(((hbarp - 275) / 25) ** 2)))))
    return np.sqrt((dLp / SL) ** 2 + (dCp / SC) ** 2 + (dHp / SH) ** 2
                   + RT * (dCp / SC) * (dHp / SH))


def hex_rgb(colour: str) -> np.ndarray:
    return np.array([int(colour[i:i + 2], 16) for i in (1, 3, 5)], dtype=float)


def palette(count: int = COUNT) -> list:
    grid = np.stack(np.meshgrid(LEVELS, LEVELS, LEVELS, indexing="ij"), axis=-1).reshape(-1, 3)
    lab = srgb_to_lab(grid.astype(float))
    keep = (lab[:, 0] >= LIGHTNESS[0]) & (lab[:, 0] <= LIGHTNESS[1])
    grid, lab = grid[keep], lab[keep]
    nearest = np.full(len(grid), np.inf)
    for colour in FIXED:
        nearest = np.minimum(nearest, ciede2000(lab, srgb_to_lab(hex_rgb(colour)[None])[0]))
    chosen = []
    for _ in range(count):
        i = int(np.argmax(nearest))        # ties: the first in grid order
        chosen.append("#%02x%02x%02x" % tuple(int(v) for v in grid[i]))
        nearest = np.minimum(nearest, ciede2000(lab, lab[i]))
    return chosen


def main(argv: list) -> int:
    table = palette()
    if "--check" in argv:
        from llkcore import render
        if list(render.TYPE_COLOURS) != table:
            print("render.TYPE_COLOURS is not what ci/palette.py computes:\n" + repr(table))
            return 1
        print(f"render.TYPE_COLOURS: the {COUNT} colours ci/palette.py computes")
        return 0
    labs = srgb_to_lab(np.array([hex_rgb(c) for c in table]))
    closest = min(float(ciede2000(labs[i], labs[j])) for i in range(COUNT) for j in range(i))
    print(f"# {COUNT} colours, closest pair CIEDE2000 {closest:.1f}")
    for k in range(0, COUNT, 6):
        print("    " + " ".join(f'"{c}",' for c in table[k:k + 6]))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
