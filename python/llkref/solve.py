"""Solvers: the exhaustive search (the only one allowed to say "unsolvable") and the seeds'
three heuristic strategies (greedy "freedom", greedy "mobility", bipartite "matching").

Every function takes the rules as keywords (max_turns, border, gravity), works on its own copy of
the grid (the caller's grid is never changed) and, when gravity is set, compacts the board once
before play, as the rules require. Moves are pairs ((r1, c1), (r2, c2)) with the first point
smaller, given in the board coordinates at the time they are played, so verify() can replay them.
"""

from __future__ import annotations

from collections import deque

from .board import (apply_gravity, copy_grid, count_tiles, moves, play_pair, tile_index,
                    _check_gravity)
from .link import can_link, grid_shape


def _start(grid, gravity) -> list[list[int]]:
    """The working copy a solver plays on: the caller's grid, copied, compacted by gravity."""
    _check_gravity(gravity)
    grid_shape(grid)
    work = copy_grid(grid)
    apply_gravity(work, gravity)
    return work


def _grid_key(grid) -> tuple:
    """The full grid as a tuple of tuples: a hashable key for one position."""
    return tuple(tuple(row) for row in grid)


# ---------------------------------------------------------------------------------------------
# Exhaustive search
# ---------------------------------------------------------------------------------------------

def solve_exhaustive(grid, *, max_turns: int = 2, border: bool = True, gravity=None,
                     node_limit=None):
    """Decide solvability by trying every legal move in order, depth first.

    Returns (solvable, moves, nodes):
      (True, moves, nodes)   the board clears; verify() accepts moves;
      (False, None, nodes)   no order of removals clears the board;
      (None, None, nodes)    node_limit positions were searched without an answer.

    nodes counts the positions entered (the start included). Positions found dead are remembered
    by their full grid, so no position is searched twice; that works unchanged with gravity.
    There is no pruning theory at all: this is the slow, obviously-correct reference.
    Quick reject: if some type has an odd number of tiles, (False, None, 0).
    """
    work = _start(grid, gravity)
    for positions in tile_index(work).values():
        if len(positions) % 2:
            return False, None, 0

    rules = {"max_turns": max_turns, "border": border}
    nodes = 1
    if count_tiles(work) == 0:
        return True, [], nodes
    if node_limit is not None and node_limit < 1:
        return None, None, 0

    dead = set()  # keys of positions from which the board cannot be cleared
    played = []   # the moves leading from the start to the position on top of the stack
    # Each frame: [key, grid, legal moves of that grid, index of the next move to try].
    # An explicit stack instead of recursion, so deep (large, easy) boards do not hit
    # Python's recursion limit.
    stack = [[_grid_key(work), work, moves(work, **rules), 0]]
    while stack:
        frame = stack[-1]
        key, position, legal, next_i = frame
        if next_i == len(legal):
            # Every move from here failed: the position is dead.
            dead.add(key)
            stack.pop()
            if played:
                played.pop()
            continue
        frame[3] = next_i + 1
        a, b = legal[next_i]
        child = copy_grid(position)
        play_pair(child, a, b, gravity)
        child_key = _grid_key(child)
        if child_key in dead:
            continue
        if node_limit is not None and nodes >= node_limit:
            return None, None, nodes
        nodes += 1
        if count_tiles(child) == 0:
            return True, played + [(a, b)], nodes
        played.append((a, b))
        stack.append([child_key, child, moves(child, **rules), 0])
    return False, None, nodes


# ---------------------------------------------------------------------------------------------
# Greedy strategies (seeds 001 and 004): can fail on solvable boards
# ---------------------------------------------------------------------------------------------

def _empty_neighbours(grid, p, border: bool) -> int:
    """Empty 4-neighbours of cell p. Off the board counts as empty when border=True (the ring)."""
    rows, cols = len(grid), len(grid[0])
    count = 0
    for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
        r, c = p[0] + dr, p[1] + dc
        if 0 <= r < rows and 0 <= c < cols:
            if grid[r][c] == 0:
                count += 1
        elif border:
            count += 1
    return count


def greedy_freedom(grid, *, max_turns: int = 2, border: bool = True, gravity=None):
    """Seed 001's greedy: always remove the linkable pair whose two tiles have the fewest empty
    4-neighbours in total (the most hemmed-in pair first); ties go to the smallest pair.

    Returns the move list if that clears the board, else None.
    """
    work = _start(grid, gravity)
    played = []
    while count_tiles(work) > 0:
        legal = moves(work, max_turns=max_turns, border=border)
        if not legal:
            return None
        # legal is sorted, and min() keeps the first of equal scores: ties -> smallest pair.
        a, b = min(legal, key=lambda m: _empty_neighbours(work, m[0], border)
                   + _empty_neighbours(work, m[1], border))
        play_pair(work, a, b, gravity)
        played.append((a, b))
    return played


def greedy_mobility(grid, *, max_turns: int = 2, border: bool = True, gravity=None):
    """Seed 004's greedy: always remove the pair that leaves the most removable pairs afterwards;
    ties go to the smallest pair.

    Returns the move list if that clears the board, else None.
    """
    work = _start(grid, gravity)
    played = []
    while count_tiles(work) > 0:
        legal = moves(work, max_turns=max_turns, border=border)
        if not legal:
            return None
        best, best_score = None, -1
        for a, b in legal:  # sorted, and only a strictly better score replaces: ties -> smallest
            after = copy_grid(work)
            play_pair(after, a, b, gravity)
            score = len(moves(after, max_turns=max_turns, border=border))
            if score > best_score:
                best, best_score = (a, b), score
        play_pair(work, best[0], best[1], gravity)
        played.append(best)
    return played


# ---------------------------------------------------------------------------------------------
# Matching strategy (seed 003)
# ---------------------------------------------------------------------------------------------

def hopcroft_karp(adj: list[list[int]], n_right: int) -> list[int]:
    """Maximum bipartite matching. adj[u] lists the right vertices joined to left vertex u.

    Returns match_left: match_left[u] is u's partner on the right, or -1.
    Each phase: a BFS from all free left vertices lays the graph out in layers, then a DFS from
    each free left vertex augments along layer-increasing paths (vertex-disjoint shortest paths).
    """
    n_left = len(adj)
    match_left = [-1] * n_left
    match_right = [-1] * n_right
    unreachable = -1

    def bfs_layers(dist) -> bool:
        """Layer the left vertices; True if some free right vertex can be reached."""
        queue = deque()
        for u in range(n_left):
            if match_left[u] == -1:
                dist[u] = 0
                queue.append(u)
            else:
                dist[u] = unreachable
        found_free = False
        while queue:
            u = queue.popleft()
            for v in adj[u]:
                w = match_right[v]
                if w == -1:
                    found_free = True
                elif dist[w] == unreachable:
                    dist[w] = dist[u] + 1
                    queue.append(w)
        return found_free

    def dfs_augment(u, dist) -> bool:
        """Find an augmenting path from u along increasing layers; flip it if found."""
        for v in adj[u]:
            w = match_right[v]
            if w == -1 or (dist[w] == dist[u] + 1 and dfs_augment(w, dist)):
                match_left[u] = v
                match_right[v] = u
                return True
        dist[u] = unreachable  # u failed in this phase; do not try it again
        return False

    dist = [unreachable] * n_left
    while bfs_layers(dist):
        for u in range(n_left):
            if match_left[u] == -1:
                dfs_augment(u, dist)
    return match_left


def _matched_pairs(grid, max_turns: int, border: bool) -> list:
    """For each type: tiles numbered 0..m-1 in index order, even numbers on the left, odd on the
    right, an edge when the two tiles link right now; return the pairs of a maximum matching."""
    pairs = []
    for positions in tile_index(grid).values():
        left = positions[0::2]
        right = positions[1::2]
        adj = [[v for v in range(len(right))
                if can_link(grid, left[u], right[v], max_turns=max_turns, border=border)]
               for u in range(len(left))]
        match_left = hopcroft_karp(adj, len(right))
        for u, v in enumerate(match_left):
            if v != -1:
                pairs.append(tuple(sorted((left[u], right[v]))))
    return pairs


def matching(grid, *, max_turns: int = 2, border: bool = True, gravity=None):
    """Seed 003's strategy: per type a maximum matching (Hopcroft-Karp) of the currently
    linkable pairs, then remove the matched pairs that still link, re-checking each one because
    the board changes. Pairs that do not link yet wait for the next sweep; when a sweep removes
    nothing the matching is rebuilt from the current board. Stops when the board is clear
    (returns the moves) or when a freshly rebuilt matching removes nothing (returns None).
    """
    work = _start(grid, gravity)
    played = []
    pending = []  # matched pairs not removed yet

    def sweep() -> bool:
        """One pass over pending: remove every pair that links now. True if any was removed."""
        nonlocal pending
        waiting = []
        removed = False
        for a, b in pending:
            # can_link re-checks everything: the board (and with gravity, the tiles) moved.
            if can_link(work, a, b, max_turns=max_turns, border=border):
                play_pair(work, a, b, gravity)
                played.append((a, b))
                removed = True
            else:
                waiting.append((a, b))
        pending = waiting
        return removed

    while count_tiles(work) > 0:
        if sweep():
            continue
        pending = _matched_pairs(work, max_turns, border)
        if not sweep():
            return None
    return played
