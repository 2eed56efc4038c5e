"""Link test and path finding: the rules of one removal, written as plainly as possible.

A grid is a list of lists of ints: 0 = empty, > 0 = a tile of that type, < 0 = a wall.
Two tiles link when they are of the same type, sit on different cells, and a polyline of
horizontal/vertical segments with at most ``max_turns`` turns joins them, passing only through
empty cells (the two endpoints excepted).

With ``border=True`` a virtual ring of empty cells surrounds the board and paths may run on it;
with ``border=False`` paths stay inside the board.

The search is the one the seed articles describe: pad the grid by one cell on every side (the
ring is 0 when border=True, a wall otherwise), then breadth-first search over states
(row, col, dir, turns) with a visited[r][c][dir][turns] array, one fresh array per call.
"""

from __future__ import annotations

from collections import deque

# Directions, in the order the BFS tries them: up, down, left, right.
# The order fixes which path find_path returns when several are equally good.
DIRS = [(-1, 0), (1, 0), (0, -1), (0, 1)]


def _opposite(d: int) -> int:
    """The reverse of direction d (up<->down, left<->right)."""
    return d ^ 1


def grid_shape(grid) -> tuple[int, int]:
    """(rows, cols) of a rectangular grid; ValueError if the rows have different lengths."""
    rows = len(grid)
    cols = len(grid[0]) if rows else 0
    for row in grid:
        if len(row) != cols:
            raise ValueError("grid rows have different lengths")
    return rows, cols


def check_point(p, rows: int, cols: int) -> tuple[int, int]:
    """Return p as an (row, col) tuple; ValueError if it is not a cell of the board."""
    r, c = p
    if not (0 <= r < rows and 0 <= c < cols):
        raise ValueError(f"point {tuple(p)} is outside the {rows}x{cols} board")
    return r, c


def _check_turns(max_turns: int) -> None:
    if max_turns < 0:
        raise ValueError("max_turns must be >= 0")


def _same_tile(grid, a, b) -> bool:
    """The cheap rules: two different cells holding tiles (not empty, not walls) of one type."""
    if a == b:
        return False
    va = grid[a[0]][a[1]]
    vb = grid[b[0]][b[1]]
    return va > 0 and va == vb


def pad_grid(grid, border: bool) -> list[list[int]]:
    """A (rows+2) x (cols+2) copy of grid with a ring around it: 0 (empty) if border, else -1 (wall).

    On the padded grid user cell (r, c) is (r+1, c+1), and no search needs bounds special cases
    other than "stay inside the padded array".
    """
    rows, cols = grid_shape(grid)
    ring = 0 if border else -1
    padded = [[ring] * (cols + 2)]
    for row in grid:
        padded.append([ring] + list(row) + [ring])
    padded.append([ring] * (cols + 2))
    return padded


def _new_visited(rows2: int, cols2: int, max_turns: int) -> list:
    """visited[r][c][dir][turns], all False, for a padded grid of rows2 x cols2."""
    return [[[[False] * (max_turns + 1) for _ in range(4)] for _ in range(cols2)]
            for _ in range(rows2)]


def can_link(grid, a, b, *, max_turns: int = 2, border: bool = True) -> bool:
    """True iff the tiles at a and b can be removed together.

    Same cell, an empty or wall endpoint, or different types give False (no error).
    ValueError if a or b is outside the board or max_turns < 0.
    """
    rows, cols = grid_shape(grid)
    a = check_point(a, rows, cols)
    b = check_point(b, rows, cols)
    _check_turns(max_turns)
    if not _same_tile(grid, a, b):
        return False

    padded = pad_grid(grid, border)
    rows2, cols2 = rows + 2, cols + 2
    ar, ac = a[0] + 1, a[1] + 1
    br, bc = b[0] + 1, b[1] + 1
    visited = _new_visited(rows2, cols2, max_turns)
    queue = deque()

    # First step out of a: any direction, no turn yet.
    for d, (dr, dc) in enumerate(DIRS):
        nr, nc = ar + dr, ac + dc
        if (nr, nc) == (br, bc):
            return True  # adjacent tiles
        if padded[nr][nc] == 0:
            visited[nr][nc][d][0] = True
            queue.append((nr, nc, d, 0))

    while queue:
        r, c, d, t = queue.popleft()
        for nd, (dr, dc) in enumerate(DIRS):
            if nd == _opposite(d):
                continue  # a U-turn never helps
            nt = t if nd == d else t + 1
            if nt > max_turns:
                continue
            nr, nc = r + dr, c + dc
            if not (0 <= nr < rows2 and 0 <= nc < cols2):
                continue  # off the padded grid (only possible on the ring)
            if (nr, nc) == (br, bc):
                return True
            if padded[nr][nc] != 0 or visited[nr][nc][nd][nt]:
                continue
            visited[nr][nc][nd][nt] = True
            queue.append((nr, nc, nd, nt))
    return False


def find_path(grid, a, b, *, max_turns: int = 2, border: bool = True):
    """The corner points of the best path from a to b, or None if they do not link.

    "Best": among all paths with the FEWEST turns (<= max_turns), the SHORTEST (total length in
    cells); among those, the one whose sequence of unit steps comes first when steps are ordered
    up < down < left < right (compared step by step from a). That is the path this BFS completes
    first: it visits states by length, and the queue at each length is in that step order,
    because children are queued in the order of their parents, each parent's in direction order.

    The result starts with a, ends with b, consecutive points differ in exactly one coordinate and
    no two consecutive segments are collinear, so it has path_turns(path) + 2 points. Points on the
    ring have row -1 / rows or col -1 / cols.

    Why this is right: the BFS runs by path length over states that carry the exact number of
    turns taken so far, so the first time it reaches b with exactly t turns it has the shortest
    t-turn path. Taking the smallest such t gives fewest turns, then shortest.
    """
    rows, cols = grid_shape(grid)
    a = check_point(a, rows, cols)
    b = check_point(b, rows, cols)
    _check_turns(max_turns)
    if not _same_tile(grid, a, b):
        return None

    padded = pad_grid(grid, border)
    rows2, cols2 = rows + 2, cols + 2
    ar, ac = a[0] + 1, a[1] + 1
    br, bc = b[0] + 1, b[1] + 1
    visited = _new_visited(rows2, cols2, max_turns)
    came_from = {}  # state -> previous state (None for the first step out of a)
    first_at_b = [None] * (max_turns + 1)  # first_at_b[t]: first state reaching b with t turns
    queue = deque()

    for d, (dr, dc) in enumerate(DIRS):
        nr, nc = ar + dr, ac + dc
        state = (nr, nc, d, 0)
        if (nr, nc) == (br, bc):
            if first_at_b[0] is None:
                first_at_b[0] = state
                came_from[state] = None
        elif padded[nr][nc] == 0:
            visited[nr][nc][d][0] = True
            came_from[state] = None
            queue.append(state)

    while queue:
        r, c, d, t = queue.popleft()
        for nd, (dr, dc) in enumerate(DIRS):
            if nd == _opposite(d):
                continue  # a U-turn never helps
            nt = t if nd == d else t + 1
            if nt > max_turns:
                continue
            nr, nc = r + dr, c + dc
            if not (0 <= nr < rows2 and 0 <= nc < cols2):
                continue
            state = (nr, nc, nd, nt)
            if (nr, nc) == (br, bc):
                # The path ends at b; it is never expanded further. Keep only the first
                # (= shortest) arrival for each exact turn count.
                if first_at_b[nt] is None:
                    first_at_b[nt] = state
                    came_from[state] = (r, c, d, t)
                continue
            if padded[nr][nc] != 0 or visited[nr][nc][nd][nt]:
                continue
            visited[nr][nc][nd][nt] = True
            came_from[state] = (r, c, d, t)
            queue.append(state)

    end = next((s for s in first_at_b if s is not None), None)
    if end is None:
        return None

    # Walk the predecessors back to a: every cell of the path, in padded coordinates.
    cells = []
    state = end
    while state is not None:
        cells.append((state[0], state[1]))
        state = came_from[state]
    cells.append((ar, ac))
    cells.reverse()

    # Keep the endpoints and the cells where the direction changes; back to the user's frame.
    corners = [cells[0]]
    for i in range(1, len(cells) - 1):
        before = (cells[i][0] - cells[i - 1][0], cells[i][1] - cells[i - 1][1])
        after = (cells[i + 1][0] - cells[i][0], cells[i + 1][1] - cells[i][1])
        if before != after:
            corners.append(cells[i])
    corners.append(cells[-1])
    return [(r - 1, c - 1) for r, c in corners]


def path_length(path) -> int:
    """Total length of a corner path, in cells (sum of the segment lengths)."""
    return sum(abs(r2 - r1) + abs(c2 - c1) for (r1, c1), (r2, c2) in zip(path, path[1:]))


def path_turns(path) -> int:
    """Number of turns of a corner path: direction changes between consecutive segments.

    Zero-length segments are ignored, so a path with redundant points is counted correctly.
    """

    def sign(x):
        return (x > 0) - (x < 0)

    directions = []
    for (r1, c1), (r2, c2) in zip(path, path[1:]):
        step = (sign(r2 - r1), sign(c2 - c1))
        if step != (0, 0):
            directions.append(step)
    return sum(1 for d1, d2 in zip(directions, directions[1:]) if d1 != d2)
