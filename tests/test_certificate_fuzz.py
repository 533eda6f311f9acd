"""The certificate checker under random mutations of real certificates (issue 34): whatever is changed,
dropped, repeated, swapped or cut, the checker answers VALID, INVALID or unreadable in one line, never with
a traceback, and never VALID but at the oracle's optimum for the target asked, on a certificate for that
target. The certificates are the solver's, on small boards that between them have a tree, weightings
declared below the root, parity rows, an unsolvable target and either."""

from __future__ import annotations

import gzip
import random
import re
from pathlib import Path

import oracle
import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st
from oracle import Board, board_text

from unflip_frontend import certificate_check as checker

TARGETS = ("0", "1", "either")
SINGLE = ("--threads", "1", "--quiet")
MUTATIONS = ["word", "number", "drop", "insert", "drop line", "copy line", "swap lines", "overclaim"]
# Words a mutation puts in: the format's own, and some no certificate has.
WORDS = st.sampled_from(
    "w B E T O W P L U end proof claim solution denominator target board unsolvable either "
    "unflip-certificate -1 1.5 0x1 9999999999999999999 99999999999999999999999 é".split()
    + ["9" * 5000]
)


@pytest.fixture(scope="module")
def certificates(run_solver, tmp_path_factory) -> list[tuple[Board, str, str, dict[str, int | str]]]:
    """(board, the target certified, the certificate, the oracle's answer for each target asked)."""
    rng = random.Random(35)
    branching = oracle.random_solvable_board(random.Random(40), 6)  # a tree, T w, parity rows
    one_colour = next(
        b
        for b in iter(lambda: oracle.random_board(rng, 3, 5), None)
        if oracle.is_solvable(b, 0) != oracle.is_solvable(b, 1)
    )
    folder = tmp_path_factory.mktemp("fuzz")
    made = []
    for board in (branching, one_colour):
        optima = [oracle.coset_optimum(board, target) for target in (0, 1)]
        reachable = [optimum for optimum in optima if optimum is not None]
        truth: dict[str, int | str] = {
            target: checker.UNSOLVABLE if optimum is None else optimum
            for target, optimum in zip(TARGETS, [*optima, min(reachable, default=None)], strict=True)
        }
        for target in TARGETS:
            path = folder / f"{len(made)}.cert"
            run_solver(board_text(board), "--target", target, *SINGLE, "--certificate", path)
            made.append((board, target, path.read_text(), truth))
            # Premise: unmutated, each is VALID at the oracle's optimum.
            assert checker.check_board([list(row) for row in board], str(path), target) == truth[target]
    text = made[0][2]
    assert "\nB " in text and "\nT w " in text and re.search(r"^(T )?w .* [1-9]\d* \d+ \d+ \d+$", text, re.M)
    assert "\nclaim unsolvable\n" in "".join(text for _, _, text, _ in made)
    return made


@st.composite
def mutated(draw: st.DrawFn, text: str) -> str:
    """One to four changes to the certificate's words or lines, perhaps cut short. An overclaim makes a
    false claim that still replays: a move of the solution made twice more, and the claim two higher."""
    lines = [line.split(" ") for line in text.split("\n")]
    for _ in range(draw(st.integers(1, 4))):
        kind = draw(st.sampled_from(MUTATIONS))
        j = draw(st.integers(0, len(lines) - 1))
        line = lines[j]
        i = draw(st.integers(0, max(len(line) - 1, 0)))
        if kind == "overclaim":
            at = next((n for n, words in enumerate(lines) if words[:1] == ["solution"]), -1)
            count = lines[at][2] if at >= 0 and len(lines[at]) == 3 else ""
            if count.isdigit() and 0 < int(count) < len(lines) - at and ["claim", count] in lines:
                lines[lines.index(["claim", count])] = ["claim", str(int(count) + 2)]
                lines[at][2] = str(int(count) + 2)
                move = lines[at + draw(st.integers(1, int(count)))]
                lines[at + 1 : at + 1] = [list(move), list(move)]
        elif kind == "word" and line:
            line[i] = draw(WORDS | st.integers(0, 300).map(str) | st.sampled_from(text.split()))
        # (A long run of digits is a grid written out, not a number: Python will not read one past 4,300.)
        elif kind == "number" and line and line[i].isdigit() and len(line[i]) <= 18:
            change = draw(st.sampled_from([-2, -1, 1, 2, 1 << 20]))
            line[i] = str(int(line[i]) + change)
        elif kind == "drop" and line:
            del line[i]
        elif kind == "insert":
            line.insert(i, draw(WORDS | st.integers(0, 300).map(str)))
        elif kind == "drop line" and len(lines) > 1:
            del lines[j]
        elif kind == "copy line":
            lines.insert(draw(st.integers(0, len(lines))), list(line))
        elif kind == "swap lines":
            k = draw(st.integers(0, len(lines) - 1))
            lines[j], lines[k] = lines[k], lines[j]
    result = "\n".join(" ".join(line) for line in lines)
    return result[: draw(st.integers(0, len(result)))] if draw(st.booleans()) else result


@pytest.fixture(scope="module")
def scratch(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("mutated") / "mutated.cert"


@settings(max_examples=400)
@given(data=st.data())
def test_a_mutated_certificate_is_one_line_and_valid_only_at_the_optimum_of_the_target_asked(
    certificates, scratch, data
):
    board, _, text, truth = data.draw(st.sampled_from(certificates))
    changed = data.draw(mutated(text))
    asked = data.draw(st.sampled_from(TARGETS))
    path = scratch
    encoded = changed.encode()
    path.write_bytes(gzip.compress(encoded, mtime=0) if data.draw(st.booleans()) else encoded)
    try:
        proven = checker.check_board([list(row) for row in board], str(path), asked)
    except (checker.Invalid, checker.Unreadable) as exc:
        event(type(exc).__name__)
        assert str(exc) and "\n" not in str(exc)
    else:
        event("VALID")
        words = changed.split()
        assert (words[words.index("target") + 1], proven) == (asked, truth[asked]), changed
