"""Certificates of optimality (issue 21, docs/certificates.md): every certificate the solver writes is
checked VALID, at the oracle's optimum, by the independent checker (unflip_frontend/certificate_check.py),
and the checker rejects every kind of wrong certificate, each for its own reason."""

from __future__ import annotations

import gzip
import random
import re
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import oracle
import pytest
from helpers import MAX_SIDE, built, run_checker
from oracle import Board, board_from_mask, board_text
from test_solver_books import WEEKLY_OPTIMA

from unflip_frontend import certificate_check as checker

SINGLE = ("--threads", "1", "--quiet")


def tiles(board: Board) -> list[list[int]]:
    return [list(row) for row in board]


def verdict(board: Board, certificate: Path, target: int | str = 0) -> str:
    try:
        return f"VALID {checker.check_board(tiles(board), str(certificate), str(target))}"
    except checker.Invalid as exc:
        return f"INVALID: {exc}"


@pytest.fixture(scope="module")
def certify(run_solver, tmp_path_factory):
    """certify(board, target) -> (solver result, certificate path) for `unflip_solver --certificate`."""
    folder = tmp_path_factory.mktemp("certificates")
    made = iter(range(1 << 30))

    def run(board: Board, target: int | str = 0, *args: object) -> tuple[object, Path]:
        path = folder / f"{next(made)}.cert"
        return run_solver(board_text(board), "--target", target, *SINGLE, "--certificate", path, *args), path

    return run


def assert_all_valid(certify, cases: list[tuple[Board, int, int]]) -> list[str]:
    """cases: (board, target, oracle optimum); every certificate must be VALID at that optimum. Returns
    the certificates' texts, for the tests' premises."""
    with ThreadPoolExecutor(max_workers=2) as pool:
        runs = list(pool.map(lambda case: certify(case[0], case[1]), cases))
    failures, texts = [], []
    for (board, target, optimum), (result, path) in zip(cases, runs, strict=True):
        found = verdict(board, path, target) if result.returncode == 0 else f"solver exit {result.returncode}"
        if found != f"VALID {optimum}":
            failures.append(
                f"{len(board)}x{len(board[0])} target {target}: {found}, optimum {optimum}\n"
                f"{board_text(board)}{result.stderr}"
            )
        else:
            texts.append(path.read_text())
    assert not failures, f"{len(failures)} of {len(cases)} certificates wrong:\n\n" + "\n\n".join(
        failures[:3]
    )
    return texts


# --- every solvable 4x4 board, in one process ---------------------------------------------------


@pytest.fixture(scope="module")
def certify_boards():
    return built("unflip_certify_boards")


@pytest.mark.parametrize("target", [0, 1])
def test_every_solvable_4x4_board_has_a_valid_certificate_at_its_bfs_distance(
    certify_boards, tmp_path, target
):
    distance = oracle.bfs_distances_4x4()
    full = (1 << 16) - 1
    # A board reaches all-black in the distance of its complement from all-white.
    optimum = {mask: distance[mask ^ full] if target else distance[mask] for mask in sorted(distance)}
    made = subprocess.run(
        [str(certify_boards), str(tmp_path)],
        input=f"4 4 {target}\n" + " ".join(map(str, optimum)),
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert made.returncode == 0, made.stdout[-2000:] + made.stderr
    wrong, parity = [], 0
    for mask, moves in optimum.items():
        certificate = tmp_path / f"{mask}.cert"
        found = verdict(board_from_mask(mask, 4), certificate, target)
        if found != f"VALID {moves}":
            wrong.append(f"board mask {mask}: {found}, BFS distance {moves}")
        parity += re.search(r"^w .* [1-9]\d* \d+ \d+ \d+$", certificate.read_text(), re.M) is not None
    assert not wrong, f"{len(wrong)} of {len(optimum)} wrong: " + "; ".join(wrong[:5])
    # Premise: the root's bound settles every 4x4 board (the trees are the larger boards' tests), and
    # the parity rows' multipliers are what settles some of them.
    assert len(optimum) == 4096 and parity >= 100, f"only {parity} certificates have parity multipliers"


# --- random boards, rectangles, both targets ----------------------------------------------------


def test_random_boards_up_to_13x13_have_valid_certificates_at_the_oracle_optimum(certify):
    rng = random.Random(2121)
    cases = []
    for n in (5, 6):
        for i in range(8):
            board = oracle.random_solvable_board(rng, n)
            cases.append((board, i % 2, oracle.coset_optimum(board, i % 2)))
    for n in (7, 8):
        for i in range(3):
            board = oracle.random_solvable_board(rng, n)
            cases.append((board, i % 2, oracle.cpsat_optimum(board, i % 2)))
    for n in range(9, 14):
        for count in (6, 10):
            board = oracle.board_from_random_moves(rng, n, count)
            cases.append((board, count % 4 // 2, oracle.cpsat_optimum(board, count % 4 // 2)))
    texts = assert_all_valid(certify, cases)
    # Premises: trees, weightings declared below the root, and parity rows all take part.
    assert sum("\nB " in text for text in texts) >= 10
    assert any("\nT w " in text for text in texts)
    assert any(re.search(r"^w .* [1-9]\d* \d+ \d+ \d+$", text, re.M) for text in texts)


@pytest.mark.parametrize("h, w", [(3, 5), (4, 7), (5, 8), (6, 9), (9, 6), (7, 10)])
def test_rectangles_have_valid_certificates_for_both_targets(certify, h, w):
    rng = random.Random(h * 100 + w)
    cases = []
    for target in (0, 1):
        while len(cases) < 3 * (target + 1):
            board = oracle.random_board(rng, h, w)
            optimum = oracle.optimum(board, target) if target or h * w > 20 else oracle.coset_optimum(board)
            if optimum is not None:
                cases.append((board, target, optimum))
    assert_all_valid(certify, cases)


def test_a_certificate_for_either_target_proves_both(certify):
    board = oracle.board_from_random_moves(random.Random(7), 7, 9)
    optimum = min(oracle.cpsat_optimum(board, 0), oracle.cpsat_optimum(board, 1))
    result, path = certify(board, "either")
    assert verdict(board, path, "either") == f"VALID {optimum}"
    text = path.read_text()
    assert "target either\n" in text and "\nproof 0\n" in text and "\nproof 1\n" in text


@pytest.mark.parametrize("h, w", [(2, 3), (3, 5), (4, 7)])
def test_either_target_on_a_rectangle_one_colour_cannot_reach_is_proven_unreachable(certify, h, w, tmp_path):
    rng = random.Random(h * w)
    while True:
        board = oracle.random_board(rng, h, w)
        reachable = [oracle.is_solvable(board, target) for target in (0, 1)]
        if sum(reachable) == 1:
            break
    optimum = oracle.coset_optimum(board, reachable.index(True))
    result, path = certify(board, "either")
    assert verdict(board, path, "either") == f"VALID {optimum}"
    text = path.read_text()
    assert f"\nproof {reachable.index(False)}\nU " in text
    # Premise: the set is what proves it; a point taken out of it breaks the proof.
    unreachable = re.search(r"^U (\d+)((?: \d+)+)$", text, re.M)
    fewer = f"U {int(unreachable.group(1)) - 1}{unreachable.group(2).rsplit(' ', 1)[0]}"
    found = rejected(board, text.replace(unreachable.group(0), fewer), tmp_path, "either")
    assert "corners in the unreachable set" in found or "an even number of 1-points" in found


def unsolvable_board(rng: random.Random, h: int, w: int) -> Board:
    while True:
        board = oracle.random_board(rng, h, w)
        if not any(oracle.is_solvable(board, target) for target in (0, 1)):
            return board


@pytest.mark.parametrize("h, w", [(2, 2), (3, 5), (4, 4), (5, 8)])
def test_a_board_no_target_is_reachable_on_has_a_valid_unsolvable_certificate(certify, h, w):
    board = unsolvable_board(random.Random(h * 31 + w), h, w)
    for target in (0, 1, "either"):
        result, path = certify(board, target)
        assert result.returncode == 1 and "UNSOLVABLE" in result.stdout
        assert verdict(board, path, target) == "VALID unsolvable"
        proofs = re.findall(r"^proof (\d)\nU ", path.read_text(), re.M)
        assert proofs == (["0", "1"] if target == "either" else [str(target)])


@pytest.fixture(scope="module")
def unsolvable_certificate(certify):
    board = unsolvable_board(random.Random(5), 4, 5)
    result, path = certify(board, "either")
    assert verdict(board, path, "either") == "VALID unsolvable"
    return board, path.read_text()


def test_an_unsolvable_certificate_with_a_wrong_set_is_rejected(unsolvable_certificate, tmp_path):
    board, text = unsolvable_certificate
    # The second target's set, one point short: some move now has an odd number of corners in it, or the
    # 1-points an even number.
    head, _, tail = text.rpartition("\nU ")
    count, *points = tail.split("\n", 1)[0].split()
    mutated = f"{head}\nU {int(count) - 1} {' '.join(points[:-1])}\nend\n"
    found = rejected(board, mutated, tmp_path, "either")
    assert "corners in the unreachable set" in found or "an even number of 1-points" in found


def test_an_unsolvable_certificate_for_a_solvable_board_is_rejected(unsolvable_certificate, tmp_path):
    board, text = unsolvable_certificate
    rng = random.Random(5)
    solvable = next(b for b in iter(lambda: oracle.random_board(rng, 4, 5), None) if oracle.is_solvable(b, 0))
    # The same claim and sets, over a board of the same shape that moves can clear.
    mutated = text.replace(board_text(board), board_text(solvable))
    found = rejected(solvable, mutated, tmp_path, "either")
    assert "corners in the unreachable set" in found or "an even number of 1-points" in found


def test_a_version_1_certificate_cannot_claim_unsolvable(unsolvable_certificate, tmp_path):
    board, text = unsolvable_certificate
    mutated = text.replace("unflip-certificate 2\n", "unflip-certificate 1\n")
    assert "expected 'solution', found 'claim'" in rejected(board, mutated, tmp_path, "either")


# --- the published pars -------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["daily", "main", "weekly"])
def test_every_official_level_has_a_valid_certificate_at_its_par(certify, books, name):
    cases = []
    for level in books[name]:
        board = oracle.book_board(level)
        par = WEEKLY_OPTIMA[level["title"]] if name == "weekly" else level.get("par")
        cases.append((board, 0, par if par is not None else oracle.optimum(board)))
    assert len(cases) == {"daily": 159, "main": 120, "weekly": 20}[name]
    assert_all_valid(certify, cases)


# --- the solver's side --------------------------------------------------------------------------


def switch_settings(solver_path) -> list[tuple[str, ...]]:
    """Each flag switch alone and each number switch at its low end, from the solver's own list."""
    listing = subprocess.run(
        [str(solver_path), "--list-switches"], capture_output=True, text=True, check=True
    )
    settings = []
    for line in listing.stdout.splitlines():
        kind, name, *rest = line.split()
        settings.append((name,) if kind == "flag" else (name, rest[0]))
    return settings


def test_every_switch_still_gives_valid_certificates(certify, solver_path):
    rng = random.Random(77)
    boards = [oracle.random_solvable_board(rng, 7) for _ in range(2)]
    optima = [oracle.cpsat_optimum(board) for board in boards]
    failures, branching = [], 0
    for setting in switch_settings(solver_path):
        for board, optimum in zip(boards, optima, strict=True):
            result, path = certify(board, 0, *setting)
            found = verdict(board, path) if result.returncode == 0 else f"exit {result.returncode}"
            if found != f"VALID {optimum}":
                failures.append(f"{' '.join(setting)}: {found}, optimum {optimum} {result.stderr}")
            branching += found.startswith("VALID") and "\nB " in path.read_text()
    assert not failures, "\n".join(failures)
    assert branching >= len(switch_settings(solver_path)), "premise: the boards' certificates branch"


def test_a_certificates_proof_is_the_same_bytes_on_any_number_of_threads(run_solver, tmp_path):
    rng = random.Random(2024)
    boards = [oracle.random_solvable_board(rng, n) for n in (7, 8, 9)]
    branching = 0
    for k, board in enumerate(boards):
        texts = set()
        for threads in (1, 2, 3):
            path = tmp_path / f"{k}-{threads}.cert"
            result = run_solver(board_text(board), "--threads", threads, "--quiet", "--certificate", path)
            assert result.returncode == 0, result.stderr
            assert verdict(board, path).startswith("VALID ")
            # From the claim on: the solution above it is the solve's, which on several threads is
            # whichever optimal one a thread reached first.
            texts.add(path.read_text().partition("\nclaim ")[2])
        assert len(texts) == 1, f"board {k}: the proof differs between thread counts"
        # Premise: the tree goes below the split, so the threads had pieces to share.
        branching += len(re.findall(r"^(?:\d+ )?B \d+$", texts.pop(), re.M)) > 20
    assert branching >= 2


def test_a_search_cut_short_leaves_no_certificate(certify):
    board = oracle.random_solvable_board(random.Random(11), 11)  # a certified solve takes 1.4 M nodes
    result, path = certify(board, 0, "--max-nodes", 2000)
    assert result.returncode == 3
    assert not path.exists() and not list(path.parent.glob("*.partial"))


@pytest.mark.parametrize("other", ["--count", "--all-solutions", "--lower-bound", "--max-solutions=2"])
def test_a_certificate_is_refused_beside_enumeration_and_the_lower_bound(run_solver, tmp_path, other):
    result = run_solver(board_text(oracle.uniform(4, 1)), "--certificate", tmp_path / "c", other)
    assert result.returncode == 2 and "--certificate" in result.stderr


def test_an_already_solved_board_has_a_certificate_of_no_moves(certify):
    result, path = certify(oracle.uniform(5, 0), 0)
    assert verdict(oracle.uniform(5, 0), path) == "VALID 0"


# --- the checker rejects what is wrong ----------------------------------------------------------


@pytest.fixture(scope="module")
def tree_certificate(certify):
    """A certificate that branches, declares weightings below the root and has pair leaves."""
    board = oracle.random_solvable_board(random.Random(0), 7)
    result, path = certify(board, 0)
    text = path.read_text()
    assert verdict(board, path).startswith("VALID") and "\nT w " in text and " B " in text and " P\n" in text
    return board, text


def rejected(board: Board, text: str, tmp_path: Path, target: int | str = 0) -> str:
    path = tmp_path / "mutated.cert"
    path.write_text(text)
    found = verdict(board, path, target)
    assert found.startswith("INVALID: "), found
    return found


def with_first_weight_raised(text: str) -> str:
    """The certificate with its first declared point weight one unit more: every point has a move it makes
    tight, so that move is then overloaded."""
    lines = text.split("\n")
    at = next(n for n, line in enumerate(lines) if line.startswith("w "))
    words = lines[at].split()
    words[3] = str(int(words[3]) + 1)
    lines[at] = " ".join(words)
    return "\n".join(lines)


def test_a_raised_weight_is_rejected(tree_certificate, tmp_path):
    board, text = tree_certificate
    assert "the weighting loads move" in rejected(board, with_first_weight_raised(text), tmp_path)


def test_a_move_dropped_from_a_branching_is_rejected(tree_certificate, tmp_path):
    board, text = tree_certificate
    # The first branch whose children are all leaves, closed by E: drop its last child.
    match = re.search(r"^(?:\d+ )?B \d+\n(?:\d+ [OWPL]\n)+(\d+ [OWPL]\n)E\n", text, re.M)
    assert match
    mutated = text[: match.start(1)] + text[match.end(1) :]
    assert "leaves out the move" in rejected(board, mutated, tmp_path)


def test_an_overstated_leaf_is_rejected(tree_certificate, tmp_path):
    board, text = tree_certificate
    # The root's whole tree replaced by a leaf saying its weighting alone proves the budget.
    head, _, tree = text.partition("\nproof 0\n")
    declaration = tree.split("\n", 1)[0]
    mutated = f"{head}\nproof 0\n{declaration}\nW\nend\n"
    assert "a leaf's bound W proves" in rejected(board, mutated, tmp_path)


def test_a_solution_one_move_short_is_rejected(tree_certificate, tmp_path):
    board, text = tree_certificate
    count = int(re.search(r"^solution 0 (\d+)$", text, re.M).group(1))
    lines = text.split("\n")
    at = lines.index(f"solution 0 {count}")
    del lines[at + count]
    lines[at] = f"solution 0 {count - 1}"
    lines[lines.index(f"claim {count}")] = f"claim {count - 1}"
    assert "do not turn every tile into 0" in rejected(board, "\n".join(lines), tmp_path)


def test_a_certificate_for_another_board_is_rejected(tree_certificate, tmp_path):
    board, text = tree_certificate
    other = oracle.replay(board, [(0, 0, 2)])
    assert "another board" in rejected(other, text, tmp_path)


@pytest.mark.parametrize("kept", [0.5, 0.999])
def test_a_truncated_certificate_is_rejected(tree_certificate, tmp_path, kept):
    board, text = tree_certificate
    assert "ends early" in rejected(board, text[: int(len(text) * kept)], tmp_path)


def test_a_certificate_claiming_one_move_more_is_rejected(tree_certificate, tmp_path):
    board, text = tree_certificate
    count = int(re.search(r"^claim (\d+)$", text, re.M).group(1))
    mutated = text.replace(f"\nclaim {count}\n", f"\nclaim {count + 1}\n")
    assert f"the claim is {count + 1} moves, but the solution has {count}" in rejected(
        board, mutated, tmp_path
    )


def test_a_gzipped_certificate_checks_and_a_cut_one_is_unreadable(tree_certificate, tmp_path):
    board, text = tree_certificate
    zipped = gzip.compress(text.encode())
    (tmp_path / "whole.gz").write_bytes(zipped)
    assert verdict(board, tmp_path / "whole.gz").startswith("VALID")
    (tmp_path / "cut.gz").write_bytes(zipped[: len(zipped) // 2])
    with pytest.raises(checker.Unreadable):
        checker.check_board(tiles(board), str(tmp_path / "cut.gz"))


def test_the_checkers_answers_and_exit_statuses(tree_certificate, tmp_path):
    board, text = tree_certificate
    (tmp_path / "board.txt").write_text(board_text(board))
    (tmp_path / "good").write_text(text)
    (tmp_path / "bad").write_text(text[: len(text) // 2])
    count = re.search(r"^claim (\d+)$", text, re.M).group(1)
    good = run_checker(tmp_path / "board.txt", tmp_path / "good")
    assert (good.returncode, good.stdout) == (0, f"VALID {count} (target 0)\n")
    bad = run_checker(tmp_path / "board.txt", tmp_path / "bad")
    assert bad.returncode == 1 and bad.stdout.startswith("INVALID: the certificate ends early")
    missing = run_checker(tmp_path / "board.txt", tmp_path / "missing")
    assert missing.returncode == 2 and missing.stderr.startswith("error: ")
    assert run_checker(tmp_path / "good", tmp_path / "good").returncode == 2  # not a board
    for wrong in (["--target", "2"], ["--target"], ["--target=1"]):
        usage = run_checker(*wrong, tmp_path / "board.txt", tmp_path / "good")
        assert usage.returncode == 2 and usage.stderr.startswith("usage: certificate_check.py [--target 0|1|")


# --- the target asked (issue 34) ----------------------------------------------------------------


def test_a_certificate_for_target_1_proves_nothing_about_the_games_goal_unless_asked(tmp_path):
    # A board already all black: its target 1 certificate claims no moves, which says nothing of white.
    (tmp_path / "board.txt").write_text("11\n11\n")
    (tmp_path / "c").write_text(
        "unflip-certificate 2\nboard 2 2\n11\n11\ntarget 1\nsolution 1 0\nclaim 0\ndenominator 1\nend\n"
    )
    refused = run_checker(tmp_path / "board.txt", tmp_path / "c")
    assert (refused.returncode, refused.stdout) == (
        1,
        "INVALID: line 5: the certificate is for target 1, not the target asked, 0\n",
    )
    for asked in ("1", "black"):
        valid = run_checker("--target", asked, tmp_path / "board.txt", tmp_path / "c")
        assert (valid.returncode, valid.stdout) == (0, "VALID 0 (target 1)\n")


@pytest.fixture(scope="module")
def one_colour_rectangle(certify):
    """A 3x5 board only white can be reached on, and its certificates for 0, 1 (unsolvable) and either."""
    rng = random.Random(35)
    board = next(
        b
        for b in iter(lambda: oracle.random_board(rng, 3, 5), None)
        if oracle.is_solvable(b, 0) and not oracle.is_solvable(b, 1)
    )
    return board, {target: certify(board, target)[1] for target in ("0", "1", "either")}


@pytest.mark.parametrize("certified", ["0", "1", "either"])
def test_a_certificate_is_valid_only_for_the_target_it_is_for(one_colour_rectangle, certified):
    board, certificates = one_colour_rectangle
    optimum = oracle.coset_optimum(board, 0)
    for asked in ("0", "1", "either"):
        found = verdict(board, certificates[certified], asked)
        if asked == certified:
            assert found == f"VALID {'unsolvable' if asked == '1' else optimum}"
        else:
            why = f"the certificate is for target {certified}, not the target asked, {asked}"
            assert found == f"INVALID: line 6: {why}"


# --- hostile certificates (issue 34): each was a traceback, or a verdict of one -----------------


def deep_certificate(count: int, side: int = 15) -> tuple[Board, str]:
    """A side x side board one 2x2 square from white, its solution that square `count` times (odd: it
    replays), and a tree that is one path of children as deep as the claim allows (as long as moves are
    left), each at a 1-point the move before leaves, down to a branch with no budget left."""
    board = oracle.replay(oracle.uniform(side, 0), [(0, 0, 2)])
    lattice = checker.Lattice(side, side)
    d, used, tree = lattice.difference(tiles(board), 0), set(), ""
    for depth in range(count):
        ones = [p for p in range(len(lattice.at)) if d >> p & 1]
        free = {p: [m for m in lattice.at[p] if m not in used and d ^ lattice.bits[m]] for p in ones}
        p = max(ones, key=lambda p: len(free[p]))
        tree += f"B {p}\n"
        if depth == count - 1 or not free[p]:
            break
        move = free[p][0]
        tree += f"{lattice.at[p].index(move)} "
        used.add(move)
        d ^= lattice.bits[move]
    head = f"unflip-certificate 2\nboard {side} {side}\n{board_text(board)}target 0\nsolution 0 {count}\n"
    return board, head + "0 0 2\n" * count + f"claim {count}\ndenominator 1\nproof 0\n{tree}E\nend\n"


def test_a_tree_nested_deeper_than_a_shortest_solution_can_be_is_refused_by_the_solutions_length(tmp_path):
    # 1,001 moves, and children nested that deep: a recursion error before, the nesting being unbounded.
    board, text = deep_certificate(1001)
    assert text.count(" B ") > 900  # premise: the tree nests that deep
    assert rejected(board, text, tmp_path) == (
        "INVALID: line 19: the solution has 1001 moves, more than the board's tiles: not shortest"
    )


@pytest.mark.parametrize("side", [15, MAX_SIDE])
def test_the_deepest_tree_a_claim_allows_is_checked_within_pythons_recursion_limit(tmp_path, side):
    # side^2 moves on side^2 tiles: the tree gets to the bottom of side^2 - 1 children, where no budget is
    # left (on 31x31, 960 children: two frames each, past Python's default limit of 1,000).
    board, text = deep_certificate(side * side, side)
    assert text.count(" B ") == side * side - 1
    limit = sys.getrecursionlimit()
    assert rejected(board, text, tmp_path).endswith("a branch with no moves left to make")
    assert sys.getrecursionlimit() == limit  # raised while checking only


@pytest.fixture
def looked(monkeypatch) -> list[int]:
    """Every look the checker takes at whether a move is still allowed, for what a node costs it."""
    looks: list[int] = []

    class Counted(bytearray):
        def __getitem__(self, index):  # type: ignore[override]
            looks.append(index)
            return super().__getitem__(index)

    monkeypatch.setattr(checker, "bytearray", Counted, raising=False)
    return looks


def test_a_weighting_declared_again_and_again_costs_what_it_changes_not_every_move(looked, tmp_path):
    # 5,000 branches going on with 'T' and a weighting that changes nothing (or one point, to and fro):
    # each was a load of all 1,015 moves of a 15x15 board, hours for a 1 MB gzip file of them.
    board, text = deep_certificate(3)
    head, _, _ = text.partition("proof 0\n")
    p = re.search(r"^B (\d+)$", text, re.M).group(1)
    for change in ("w 0 0\n", "w 1 0 1 0\n", "w 1 0 0 0\n"):
        looked.clear()
        hostile = head + "proof 0\n" + f"B {p}\nT\n{change}" * 5_000 + "O\nend\n"
        found = rejected(board, hostile, tmp_path)
        assert found.endswith("a leaf's bound O proves 1 moves, not more than the 2 left")
        assert len(looked) < 5_000 * 50, change  # the moves at point 0 at most, not 1,015


def test_an_unreachable_set_costs_the_moves_at_its_points_not_every_move(looked, tmp_path):
    # Two squares from white on 15x15: every move at point 0 is a child, each leaves a 1-point with no
    # budget, and then the node, no move at point 0 left, has the 1-point 0 out of reach. The set's check
    # looked at all 1,015 moves, whatever the set held.
    board = oracle.replay(oracle.uniform(15, 0), [(0, 0, 2), (5, 5, 3)])
    children = "".join(f"{index} O\n" for index in range(14))
    head = f"unflip-certificate 2\nboard 15 15\n{board_text(board)}target 0\nsolution 0 2\n0 0 2\n5 5 3\n"
    path = tmp_path / "c.cert"
    path.write_text(head + f"claim 2\ndenominator 1\nproof 0\nB 0\n{children}T\nU 1 0\nend\n")
    assert verdict(board, path) == "VALID 2"
    assert len(looked) == 2 * 14  # each child's move, then the set's moves: those at point 0


def test_a_weighting_of_more_parity_rows_than_the_board_has_is_refused_before_they_are_read(
    tree_certificate, tmp_path
):
    # Its rows were read one by one and kept: a count of a billion and a file of zeros filled the memory.
    board, text = tree_certificate
    lines = text.split("\n")
    at = next(n for n, line in enumerate(lines) if line.startswith("w "))
    words = lines[at].split()
    words[2 + 2 * int(words[1])] = "1000000000"  # after the changed points' pairs: the count of rows
    lines[at] = " ".join(words)
    mutated = "\n".join(lines)
    rows = 4 * len(checker.Lattice(7, 7).moves)
    assert rejected(board, mutated, tmp_path).endswith(
        f"expected a whole number from 0 to {rows}, found '1000000000'"
    )


def test_a_certificate_over_the_checkers_cap_is_unreadable_and_says_the_cap(
    tree_certificate, tmp_path, monkeypatch
):
    board, text = tree_certificate
    (tmp_path / "c.gz").write_bytes(gzip.compress(text.encode()))
    # The cap counts the characters read, decompressed; the real one, 1 GiB, is too long to reach here.
    monkeypatch.setattr(checker, "LARGEST_CERTIFICATE", len(text) - 1)
    with pytest.raises(checker.Unreadable, match=f"^over {len(text) - 1:,} characters, this checker's cap$"):
        checker.check_board(tiles(board), str(tmp_path / "c.gz"))
    monkeypatch.setattr(checker, "LARGEST_CERTIFICATE", len(text))
    assert verdict(board, tmp_path / "c.gz").startswith("VALID")


# --- boards past 15 a side (issue 37) ------------------------------------------------------------


@pytest.fixture(scope="module")
def wide_certificates(certify) -> dict[tuple[int, int], tuple[Board, str, int]]:
    """A designer's board (a few random presses) of 20x20 and of 16x31: (board, certificate, optimum)."""
    made = {}
    for (h, w), presses in (((20, 20), 12), ((16, MAX_SIDE), 10)):
        board = oracle.board_from_random_moves(random.Random(h * w), h, presses, w=w)
        result, path = certify(board, 0)
        assert result.returncode == 0, result.describe()
        made[h, w] = board, path.read_text(), result.move_count
    return made


@pytest.mark.parametrize("shape", [(20, 20), (16, MAX_SIDE)], ids=["20x20", f"16x{MAX_SIDE}"])
def test_a_certificate_of_a_board_past_15_a_side_checks_valid_with_no_pair_or_line_leaf(
    wide_certificates, tmp_path, shape
):
    board, text, optimum = wide_certificates[shape]
    path = tmp_path / "wide.cert"
    path.write_text(text)
    assert verdict(board, path) == f"VALID {optimum}"
    assert not re.search(r"\s[PL]\n", text)  # the solver's search for it bounds by no line cost
    checked = run_checker(write_board(tmp_path, board), path)
    assert (checked.returncode, checked.stdout) == (0, f"VALID {optimum} (target 0)\n")


@pytest.mark.parametrize("shape", [(20, 20), (16, MAX_SIDE)], ids=["20x20", f"16x{MAX_SIDE}"])
def test_a_tampered_certificate_of_a_board_past_15_a_side_is_invalid(wide_certificates, tmp_path, shape):
    board, text, _ = wide_certificates[shape]
    assert "the weighting loads move" in rejected(board, with_first_weight_raised(text), tmp_path)


@pytest.mark.parametrize("leaf", ["P", "L"])
def test_a_pair_or_line_leaf_on_a_board_past_15_a_side_is_beyond_the_checkers_cap_in_one_line(
    wide_certificates, tmp_path, leaf
):
    # Its line costs would be a table of 2^21 (20x20) to 2^32 masks a line: the checker counts lines of
    # at most 16 points, and says so, within the memory run_checker allows (1 GiB).
    board, text, _ = wide_certificates[20, 20]
    lines = text.split("\n")
    at = lines.index("W")
    lines[at] = leaf
    path = tmp_path / "wide.cert"
    path.write_text("\n".join(lines))
    checked = run_checker(write_board(tmp_path, board), path)
    assert (checked.returncode, checked.stdout) == (2, "")
    assert checked.stderr == (
        f"error: line {at + 1}: a leaf's bound {leaf} needs the pair counts of lattice lines of 21 points; "
        "this checker's cap is 16 points (a table of 2^16 masks a line)\n"
    )


def write_board(tmp_path: Path, board: Board) -> Path:
    path = tmp_path / "board.txt"
    path.write_text(board_text(board))
    return path
