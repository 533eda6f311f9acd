#!/usr/bin/env python3
"""The smallest relations among the moves: sets of squares whose corners cancel, so that one part of the
set does what the rest does.

    python3 bench/relations.py --side 7 --largest 5
    python3 bench/relations.py --side 6 --largest 7

On an N x N board a move is its four lattice corners; a relation is a set of distinct moves whose
corners cancel mod 2. Split it into A and B and the moves of A do exactly what those of B do, so a
solution holding A is beaten by one holding B instead whenever B is smaller: the raw material of
dominance rules. Relations of up to --largest moves are found by meet in the middle (the XOR of
every set of up to half of them, hashed) and printed by the sizes of their squares, one of each kind
as an example, with how many splits of that kind there are. Sets of equal size (3 = 3) only reorder
solutions; a split like 3 = 2 or 4 = 3 makes a shorter one.
"""

import argparse
import itertools
from collections import Counter, defaultdict


def moves_of(side):
    return [(r, c, k) for k in range(2, side + 1) for r in range(side - k + 1) for c in range(side - k + 1)]


def corners(side, move):
    r, c, k = move
    bits = 0
    for i, j in ((r, c), (r, c + k), (r + k, c), (r + k, c + k)):
        bits ^= 1 << (i * (side + 1) + j)
    return bits


def relations(side, largest):
    """Per kind (the sizes of A's squares, then B's), the splits A = B of relations of up to `largest`
    moves with |A| = ceil, |B| = floor of half, and an example of each."""
    moves = moves_of(side)
    bits = [corners(side, m) for m in moves]
    by_xor = {}
    for size in range(1, largest // 2 + 1):
        table = defaultdict(list)
        for group in itertools.combinations(range(len(moves)), size):
            x = 0
            for index in group:
                x ^= bits[index]
            table[x].append(group)
        by_xor[size] = table
    kinds, examples = Counter(), {}
    for total in range(2, largest + 1):
        low, high = total // 2, total - total // 2
        for group in itertools.combinations(range(len(moves)), high):
            x = 0
            for index in group:
                x ^= bits[index]
            for other in by_xor[low].get(x, ()) if low else ():
                if set(group) & set(other) or (low == high and other <= group):
                    continue
                kind = (tuple(sorted(moves[i][2] for i in group)), tuple(sorted(moves[i][2] for i in other)))
                kinds[kind] += 1
                examples.setdefault(kind, ([moves[i] for i in group], [moves[i] for i in other]))
    return kinds, examples, len(moves)


def main():
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--side", type=int, default=7, help="the board's side (default 7)")
    parser.add_argument("--largest", type=int, default=5, help="moves in a relation at most (default 5)")
    options = parser.parse_args()
    if not 2 <= options.side <= 9 or not 2 <= options.largest <= 7:
        parser.error("--side must be 2-9 and --largest 2-7 (the enumeration grows as moves^(largest/2))")
    kinds, examples, count = relations(options.side, options.largest)
    side, largest = options.side, options.largest
    print(f"{side}x{side}: {count} moves; relations of up to {largest} moves, as A = B")
    if not kinds:
        print("none")
    by_total = sorted(kinds.items(), key=lambda item: (len(item[0][0]) + len(item[0][1]), -item[1]))
    for (a, b), splits in by_total:
        left, right = examples[(a, b)]
        print(f"{len(a)} = {len(b)}  sizes {a} = {b}: {splits} splits, e.g. {left} = {right}")


if __name__ == "__main__":
    main()
