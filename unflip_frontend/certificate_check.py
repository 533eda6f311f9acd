"""An independent checker of unflip's certificates of optimality: what a sceptic reads instead of the solver.

    python unflip_frontend/certificate_check.py [--target 0|1|either] BOARD CERTIFICATE

BOARD is a text board (H lines of W digits, all 0/1, or all 1/2 with 1 the game's white); CERTIFICATE is
what `unflip_solver --certificate FILE` wrote, as it is or gzipped; the target asked is 0 (white, the
game's goal) unless --target says 1 (black) or either (the fewest moves to one colour or the other), and a
certificate for another target proves nothing about it. The answer is one line:

    VALID k (target t)           the solution reaches t in k moves, and no solution has fewer
    VALID unsolvable (target t)  no set of moves reaches t (with either, neither colour)
    INVALID: <reason>            the first thing found wrong (with the certificate's line)
    error: <reason>              a file that cannot be read, a certificate beyond this checker's caps
                                 (LARGEST_CERTIFICATE, LONGEST_LINE, LONGEST_WORD), or a board that is not one

and the exit status is 0, 1 or 2 accordingly. The format is docs/certificates.md's. This file imports only
Python's standard library and nothing of the solver or the front end: it has its own board reader and its
own moves, and recomputes every bound the certificate names.

Why a certificate proves what it claims. A board's tiles that differ from the target give the difference
grid D on the (H+1)x(W+1) corner lattice (D[i][j] is the parity of the differing tiles among the up to
four around corner (i, j)); a k x k move at (r, c) toggles exactly its four corners, and the board is at the
target exactly when D is zero. Moves commute and a move made twice undoes itself, so a shortest solution
is a set of moves. A node of the proof is a grid d, the moves it may no longer use, and a budget b; it
claims no set of at most b allowed moves clears d. The root is D with every move allowed and b = k - 1.
- A branch at a 1-point p of d: every solution toggles p, so it uses a move at p. Child i uses the i-th
  move listed and none listed before it (the solutions with those went to earlier children), so the
  children, ending with every allowed move at p listed ('E') or with the node itself with all listed
  ones excluded ('T'), leave no solution out.
- A weighting w >= 0 of the points, with parity rows' multipliers z >= 0 (a row (q, m) says that the
  allowed moves at q other than m number at least x_m - d_q, true of any solution, since it toggles q an
  odd number of times exactly when q is a 1-point): if every allowed move loads its corners and rows with
  at most one whole (the denominator), adding up the rows shows every solution has at least the sum of
  the 1-points' weights less the multipliers of the rows at 1-points. A weighting declared at a node holds
  below it too: the moves allowed there only get fewer.
- A set of points every allowed move has an even number of corners in: a move keeps the parity of the
  1-points in it, so if that is odd no set of moves clears d at all (an unsolvable board's whole proof,
  per target, is such a set).
- A shortest solution has at most H x W moves: the sets of tiles its moves flip are independent over GF(2)
  (were some of them to flip every tile an even number of times, leaving them out would be shorter), and
  H x W tiles have no more independent sets than that. A greater claim is false; and as a child spends a
  move of the budget, the tree nests no deeper than the claim.
- A move puts one pair of corners into each of two lattice rows, r and r + k, and into two columns, so a
  solution has at least half the rows' (and the columns') least pair counts, and, as no move reaches two
  adjacent rows, at least the counts of two adjacent lines added up.
"""

from __future__ import annotations

import gzip
import sys
import zlib
from collections.abc import Iterator
from typing import TextIO

EXIT_VALID, EXIT_INVALID, EXIT_UNREADABLE = 0, 1, 2
UNSOLVABLE = "unsolvable"  # what a certificate that no moves reach the target proves
UNREACHABLE = 1 << 30  # the pair count of a line no pairs clear: more than any budget
# The colours each target has a proof for, and the names the target asked may be given by (--target's).
TARGETS = {"0": [0], "1": [1], "either": [0, 1]}
TARGET_NAMES = {"0": "0", "1": "1", "either": "either", "white": "0", "black": "1"}

# What this checker reads, so that a hostile file costs it bounded memory and time; beyond them a
# certificate is unreadable (exit 2), not INVALID. Decompressed characters: 12 times the largest certificate
# measured (83 MB, a 12x12 board's), and about a quarter of an hour of checking (docs/certificates.md).
LARGEST_CERTIFICATE = 1 << 30
LONGEST_LINE = 1 << 20  # the solver's longest, a weighting of 1,024 points and 128 parity rows: under 30 KB
# The sides of a board: solver/contract.def's min_side and max_side, written again here because this file
# reads nothing of the solver's (a test holds the two equal).
SIDES = range(2, 31 + 1)
# A board's row is a word of up to 31 tiles; the solver's numbers are 64-bit, of 19 digits at most, and
# 'unflip-certificate' is 18 characters.
LONGEST_WORD = max(SIDES[-1], 20)
# The pair counts of a lattice line are a table over its every mask: 2^16 entries on the longest line of a
# board of sides up to 15, 2^32 (no longer a table) on one of 31. The solver proves nothing by them past
# that (on a board with a side over 15 its leaves are W and O), and this checker takes no P or L leaf there.
LONGEST_COUNTED_LINE = 16


class Invalid(Exception):
    """The certificate does not prove what it claims; the message is the first reason."""


class Unreadable(Exception):
    """A file that cannot be read, a certificate beyond this checker's caps, or a board that is not one."""


def read_board(text: str) -> list[list[int]]:
    """H lines of W digits, each a number of SIDES: all 0/1, or all 1/2 (1 -> 0, 2 -> 1)."""
    rows = [line.strip() for line in text.splitlines()]
    while rows and not rows[-1]:
        rows.pop()
    digits = set("".join(rows))
    if not rows or not digits <= set("012") or {"0", "2"} <= digits or "" in rows:
        raise Unreadable("the board is not lines of 0/1 (or 1/2) digits")
    if len({len(row) for row in rows}) != 1 or len(rows) not in SIDES or len(rows[0]) not in SIDES:
        sides = f"{SIDES[0]} to {SIDES[-1]}"
        raise Unreadable(f"the board's lines are not {sides} rows of one length, {sides}")
    shift = 1 if "2" in digits else 0
    return [[int(ch) - shift for ch in row] for row in rows]


def ones(d: int) -> Iterator[int]:
    """The 1-points of a difference grid, lowest first."""
    while d:
        yield (d & -d).bit_length() - 1
        d &= d - 1


class Lattice:
    """The corner lattice of an h x w board: point (i, j) is i * (w + 1) + j; the moves, largest first,
    then by row and column, as the certificate numbers them; and the pairs each lattice line can get."""

    def __init__(self, h: int, w: int) -> None:
        self.h, self.w, self.stride = h, w, w + 1
        self.moves = [
            (r, c, k) for k in range(min(h, w), 1, -1) for r in range(h - k + 1) for c in range(w - k + 1)
        ]
        self.corners = [
            (self.point(r, c), self.point(r, c + k), self.point(r + k, c), self.point(r + k, c + k))
            for r, c, k in self.moves
        ]
        self.bits = [sum(1 << p for p in corners) for corners in self.corners]
        points = (h + 1) * (w + 1)
        self.at: list[list[int]] = [[] for _ in range(points)]
        for m, corners in enumerate(self.corners):
            for p in corners:
                self.at[p].append(m)
        row_pairs = [
            {(1 << c) | (1 << (c + k)) for r, c, k in self.moves if i in (r, r + k)} for i in range(h + 1)
        ]
        column_pairs = [
            {(1 << r) | (1 << (r + k)) for r, c, k in self.moves if j in (c, c + k)} for j in range(w + 1)
        ]
        self.lines = [(w + 1, frozenset(pairs)) for pairs in row_pairs] + [
            (h + 1, frozenset(p)) for p in column_pairs
        ]
        self.tables: dict[tuple[int, frozenset[int]], list[int]] = {}

    def point(self, i: int, j: int) -> int:
        return i * self.stride + j

    def difference(self, board: list[list[int]], target: int) -> int:
        def differs(i: int, j: int) -> int:
            return int(0 <= i < self.h and 0 <= j < self.w and board[i][j] != target)

        return sum(
            1 << self.point(i, j)
            for i in range(self.h + 1)
            for j in range(self.w + 1)
            if differs(i, j) ^ differs(i - 1, j) ^ differs(i, j - 1) ^ differs(i - 1, j - 1)
        )

    def table(self, key: tuple[int, frozenset[int]]) -> list[int]:
        """Per mask of a line this wide, the fewest of these pairs whose exclusive or is the mask:
        breadth-first over every mask, once per kind of line."""
        width, pairs = key
        if key not in self.tables:
            cost = [UNREACHABLE] * (1 << width)
            cost[0] = 0
            frontier = [0]
            while frontier:
                reached = []
                for state in frontier:
                    for pair in pairs:
                        if cost[state ^ pair] == UNREACHABLE:
                            cost[state ^ pair] = cost[state] + 1
                            reached.append(state ^ pair)
                frontier = reached
            self.tables[key] = cost
        return self.tables[key]

    def line_costs(self, d: int) -> tuple[list[int], list[int]]:
        """The least pair counts of the lattice rows of d, and of its columns."""
        masks = [0] * (self.h + self.w + 2)
        for p in ones(d):
            i, j = divmod(p, self.stride)
            masks[i] |= 1 << j
            masks[self.h + 1 + j] |= 1 << i
        costs = [self.table(line)[mask] for line, mask in zip(self.lines, masks, strict=True)]
        return costs[: self.h + 1], costs[self.h + 1 :]


class Weighting:
    """Point weights and parity rows' multipliers (q, m, z); worth[p]: what a 1-point p adds to the bound."""

    def __init__(self, weights: list[int], cuts: list[tuple[int, int, int]]) -> None:
        self.weights, self.cuts = weights, cuts
        self.worth = list(weights)
        for q, _, z in cuts:
            self.worth[q] -= z

    def value(self, d: int) -> int:
        return sum(self.worth[p] for p in ones(d))


class Tokens:
    """The certificate's words, read lazily, with the line each came from, within this checker's caps."""

    def __init__(self, lines: TextIO) -> None:
        self.line = 0
        self.words = self.read(lines)

    def read(self, lines: TextIO) -> Iterator[str]:
        size = 0
        while text := lines.readline(LONGEST_LINE + 1):
            self.line += 1
            size += len(text)
            if size > LARGEST_CERTIFICATE:
                raise Unreadable(f"over {LARGEST_CERTIFICATE:,} characters, this checker's cap")
            if len(text) > LONGEST_LINE and not text.endswith("\n"):
                raise Unreadable(f"line {self.line} is over {LONGEST_LINE:,} characters, this checker's cap")
            yield from text.split()

    def word(self) -> str:
        word = next(self.words, None)
        if word is None:
            raise Invalid(f"the certificate ends early, after line {self.line}")
        if len(word) > LONGEST_WORD:
            cap = f"this checker's cap of {LONGEST_WORD}"
            raise Unreadable(f"line {self.line}: a word of {len(word):,} characters, more than {cap}")
        return word

    def number(self, low: int = 0, high: int | None = None) -> int:
        word = self.word()
        if not word.isdigit() or int(word) < low or (high is not None and int(word) > high):
            limits = f"from {low} to {high}" if high is not None else f"of at least {low}"
            raise Invalid(f"line {self.line}: expected a whole number {limits}, found {word!r}")
        return int(word)

    def expect(self, *words: str) -> None:
        for expected in words:
            if (found := self.word()) != expected:
                raise Invalid(f"line {self.line}: expected {expected!r}, found {found!r}")


class Checker:
    def __init__(self, board: list[list[int]], tokens: Tokens, target: str) -> None:
        self.board, self.tokens, self.target = board, tokens, target
        self.lattice = Lattice(len(board), len(board[0]))
        self.blocked = bytearray(len(self.lattice.moves))
        self.denominator = 1

    def fail(self, why: str) -> Invalid:
        return Invalid(f"line {self.tokens.line}: {why}")

    def check(self) -> int | str:
        """The optimum the certificate proves for the target asked, or UNSOLVABLE; Invalid when it proves
        nothing about that target."""
        tokens, lattice = self.tokens, self.lattice
        tokens.expect("unflip-certificate")
        version = tokens.word()
        if version not in ("1", "2"):
            raise self.fail(f"version {version!r} of the format is not one this checker reads (1 or 2)")
        tokens.expect("board", str(lattice.h), str(lattice.w))
        for row in self.board:
            if tokens.word() != "".join(map(str, row)):
                raise self.fail("the certificate is for another board")
        tokens.expect("target")
        if (named := tokens.word()) not in TARGETS:
            raise self.fail("the target is not 0, 1 or either")
        if named != self.target:
            raise self.fail(f"the certificate is for target {named}, not the target asked, {self.target}")
        targets = TARGETS[named]
        word = tokens.word()
        if word == "claim" and version == "2":  # version 2's one addition: no solution, no tree
            tokens.expect("unsolvable")
            for target in targets:
                tokens.expect("proof", str(target), "U")
                self.unreachable(lattice.difference(self.board, target))
            self.end()
            return UNSOLVABLE
        if word != "solution":
            raise self.fail(f"expected 'solution', found {word!r}")
        claim = self.solution(targets)
        tokens.expect("denominator")
        self.denominator = tokens.number(1)
        for target in targets if claim > 0 else []:
            tokens.expect("proof", str(target))
            d = lattice.difference(self.board, target)
            nothing = Weighting([0] * len(lattice.at), [])
            self.node(d, claim - 1, 0, nothing)
        self.end()
        return claim

    def solution(self, targets: list[int]) -> int:
        """The solution (after its word 'solution'), replayed, and the claim that it is optimal."""
        tokens, lattice = self.tokens, self.lattice
        reached, count = tokens.number(0, 1), tokens.number()
        if count > lattice.h * lattice.w:
            raise self.fail(f"the solution has {count} moves, more than the board's tiles: not shortest")
        tiles = [row[:] for row in self.board]
        for _ in range(count):
            r, c, k = tokens.number(), tokens.number(), tokens.number()
            if (r, c, k) not in lattice.moves:
                raise self.fail(f"the solution's move {r} {c} {k} is not a move on this board")
            for i in range(r, r + k):
                for j in range(c, c + k):
                    tiles[i][j] ^= 1
        if reached not in targets or any(tile != reached for row in tiles for tile in row):
            raise self.fail(f"the solution's {count} moves do not turn every tile into {reached}")
        tokens.expect("claim")
        if (claim := tokens.number()) != count:
            raise self.fail(f"the claim is {claim} moves, but the solution has {count}")
        return claim

    def end(self) -> None:
        self.tokens.expect("end")
        if next(self.tokens.words, None) is not None:
            raise self.fail("there is more after the end")

    def node(self, d: int, budget: int, total: int, weighting: Weighting) -> None:
        """Check the node (d, the moves self.blocked marks, budget) and its subtree; total is the weighting
        in scope's value at d. A branch ending in 'T' goes on as this node, with its children excluded: a
        loop here, not a call, so that only children (each a move of the budget) nest."""
        if d == 0:
            raise self.fail(f"a node is solved with {budget} moves to spare: the tree says none is")
        excluded: list[int] = []
        try:
            while True:
                word = self.tokens.word()
                if word == "w":
                    weighting = self.declaration(weighting)
                    total = weighting.value(d)
                    word = self.tokens.word()
                if word == "B":
                    if self.branch(d, budget, total, weighting, excluded):
                        continue
                elif word in ("O", "W", "P", "L"):
                    self.leaf(word, d, budget, total)
                elif word == "U":
                    self.unreachable(d)
                else:
                    raise self.fail(f"expected a node ('w', 'B', 'O', 'W', 'P', 'L' or 'U'), found {word!r}")
                return
        finally:
            for m in excluded:
                self.blocked[m] = 0

    def unreachable(self, d: int) -> None:
        """A set of points that every allowed move has an even number of corners in, and d's 1-points an
        odd number: every move keeps the parity of the 1-points in it, so none ever clears them. (A move
        with no corner in the set has none: only those with one are counted.)"""
        lattice = self.lattice
        points = {self.tokens.number(0, len(lattice.at) - 1) for _ in range(self.tokens.number())}
        for m in sorted({m for p in points for m in lattice.at[p]}):
            if not self.blocked[m] and len(points.intersection(lattice.corners[m])) % 2:
                move = " ".join(map(str, lattice.moves[m]))
                raise self.fail(f"the move {move} has an odd number of corners in the unreachable set")
        if sum(d >> p & 1 for p in points) % 2 == 0:
            raise self.fail("the unreachable set holds an even number of 1-points")

    def declaration(self, scope: Weighting) -> Weighting:
        """A weighting: the points changed from the one in scope, then its parity rows, all checked. A move
        with no corner at a point changed, nor at a parity row's (the scope's or its own), is loaded as the
        scope loads it, which was checked where every move allowed here was allowed: only the moves at those
        points are checked, so that a declaration costs what it changes, not every move of the board."""
        tokens, lattice = self.tokens, self.lattice
        weights = list(scope.weights)
        changed = {q for q, _, _ in scope.cuts}
        for _ in range(tokens.number()):
            p = tokens.number(0, len(weights) - 1)
            weights[p] = tokens.number()
            changed.add(p)
        cuts = []
        for _ in range(tokens.number(0, 4 * len(lattice.moves))):  # the rows there are: a move's 4 corners'
            q = tokens.number(0, len(weights) - 1)
            cuts.append((q, lattice.at[q][tokens.number(0, len(lattice.at[q]) - 1)], tokens.number()))
            changed.add(q)
        moves = {m for p in changed for m in lattice.at[p]}
        load = {m: sum(weights[p] for p in lattice.corners[m]) for m in moves}
        for q, m, z in cuts:
            for move in lattice.at[q]:
                load[move] += -z if move == m else z
        for m in sorted(moves):
            if not self.blocked[m] and load[m] > self.denominator:
                raise self.fail(
                    f"the weighting loads move {' '.join(map(str, lattice.moves[m]))} with {load[m]}, "
                    f"more than the denominator {self.denominator}"
                )
        return Weighting(weights, cuts)

    def branch(self, d: int, budget: int, total: int, weighting: Weighting, excluded: list[int]) -> bool:
        """A branch and its children, each blocked and added to excluded (the node unblocks them); True when
        it ends in 'T', the node going on with them excluded, False when in 'E'."""
        lattice = self.lattice
        p = self.tokens.number(0, len(lattice.at) - 1)
        if not d >> p & 1:
            raise self.fail(f"a branch at point {p}, which is not a 1-point")
        if budget < 1:
            raise self.fail("a branch with no moves left to make")
        while True:
            word = self.tokens.word()
            if word == "E":
                left = [m for m in lattice.at[p] if not self.blocked[m]]
                if left:
                    move = " ".join(map(str, lattice.moves[left[0]]))
                    raise self.fail(f"the branch at point {p} leaves out the move {move}")
                return False
            if word == "T":
                return True
            if not word.isdigit() or int(word) >= len(lattice.at[p]):
                raise self.fail(f"expected a child of point {p}, 'E' or 'T', found {word!r}")
            m = lattice.at[p][int(word)]
            if self.blocked[m]:
                raise self.fail(f"the move {' '.join(map(str, lattice.moves[m]))} is not allowed here")
            self.blocked[m] = 1
            excluded.append(m)
            child_total = total
            for c in lattice.corners[m]:
                child_total += -weighting.worth[c] if d >> c & 1 else weighting.worth[c]
            self.node(d ^ lattice.bits[m], budget - 1, child_total, weighting)

    def leaf(self, kind: str, d: int, budget: int, total: int) -> None:
        if kind == "O":
            proven = 1  # a 1-point is left
        elif kind == "W":
            proven = -(-total // self.denominator)
        else:
            longest = max(self.lattice.h, self.lattice.w) + 1
            if longest > LONGEST_COUNTED_LINE:
                raise Unreadable(
                    f"line {self.tokens.line}: a leaf's bound {kind} needs the pair counts of lattice lines "
                    f"of {longest} points; this checker's cap is {LONGEST_COUNTED_LINE} points (a table of "
                    f"2^{LONGEST_COUNTED_LINE} masks a line)"
                )
            rows, columns = self.lattice.line_costs(d)
            if kind == "P":
                proven = max(-(-sum(rows) // 2), -(-sum(columns) // 2))
            else:
                proven = max(
                    a + b for costs in (rows, columns) for a, b in zip(costs, costs[1:], strict=False)
                )
        if proven <= budget:
            raise self.fail(f"a leaf's bound {kind} proves {proven} moves, not more than the {budget} left")


def open_certificate(path: str) -> TextIO:
    with open(path, "rb") as file:
        zipped = file.read(2) == b"\x1f\x8b"
    return gzip.open(path, "rt", encoding="ascii") if zipped else open(path, encoding="ascii")


def check(board_path: str, certificate_path: str, target: str = "0") -> int | str:
    """The optimum a certificate proves for the board in a file and the target asked ('0', '1' or
    'either'), or UNSOLVABLE; Invalid or Unreadable when it does not."""
    try:
        with open(board_path, encoding="utf-8") as file:
            board = read_board(file.read())
    except (OSError, UnicodeDecodeError) as exc:
        raise Unreadable(str(exc)) from None
    return check_board(board, certificate_path, target)


def check_board(board: list[list[int]], certificate_path: str, target: str = "0") -> int | str:
    """The optimum a certificate proves for a board (rows of 0/1 tiles) and the target asked, or
    UNSOLVABLE; Invalid or Unreadable."""
    # A tree nests at most H x W - 1 children deep (a longer solution is refused first), two frames a child:
    # on 31x31 past Python's default limit of 1,000. Python (3.11 on) calls a Python function without
    # growing the C stack, so the limit is raised that far while checking, and put back after.
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(limit + 2 * len(board) * len(board[0]))
    try:
        with open_certificate(certificate_path) as lines:
            return Checker(board, Tokens(lines), target).check()
    except (OSError, UnicodeDecodeError, EOFError, zlib.error) as exc:
        raise Unreadable(str(exc)) from None
    finally:
        sys.setrecursionlimit(limit)


def main(argv: list[str]) -> int:
    target = "0"
    if "--target" in argv[:-1]:
        at = argv.index("--target")
        target = TARGET_NAMES.get(argv[at + 1], "")
        argv = argv[:at] + argv[at + 2 :]
    if len(argv) != 2 or not target:
        print("usage: certificate_check.py [--target 0|1|either] BOARD CERTIFICATE", file=sys.stderr)
        return EXIT_UNREADABLE
    try:
        print(f"VALID {check(argv[0], argv[1], target)} (target {target})")
        return EXIT_VALID
    except Invalid as exc:
        print(f"INVALID: {exc}")
        return EXIT_INVALID
    except Unreadable as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_UNREADABLE


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
