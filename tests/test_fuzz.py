"""The solver's board parser under libFuzzer with AddressSanitizer and UndefinedBehaviorSanitizer, from the
seed corpus in fuzz/corpus, for a short run. fuzz/board_parser_fuzz.cpp says what must hold for every input;
`make fuzz` is the longer run docs/checks.md describes. Needs clang with libFuzzer: without it the test skips,
except under CI=true (.ci/run installs it), where it fails."""

import os
import re
import shutil
import subprocess

import pytest
from helpers import REPO, built, in_ci

FUZZ_SECONDS = 20  # CI's share; a longer run is `make fuzz FUZZ_SECONDS=...`
CORPUS = REPO / "fuzz" / "corpus"


def libfuzzer_links(compiler: str, folder) -> bool:
    """Whether the compiler can link a fuzz target at all: clang without its runtime (Debian's
    libclang-rt-dev) cannot."""
    if shutil.which(compiler) is None:
        return False
    probe = folder / "probe.cpp"
    probe.write_text('extern "C" int LLVMFuzzerTestOneInput(const char*, unsigned long) { return 0; }\n')
    linked = subprocess.run(
        [compiler, "-fsanitize=fuzzer", "-o", str(folder / "probe"), str(probe)], capture_output=True
    )
    return linked.returncode == 0


@pytest.fixture(scope="module")
def fuzzer(tmp_path_factory):
    compiler = os.environ.get("FUZZCXX", "clang++")
    if not libfuzzer_links(compiler, tmp_path_factory.mktemp("probe")):
        why = f"{compiler} with libFuzzer is not installed (Debian: apt-get install clang libclang-rt-dev)"
        if in_ci():
            pytest.fail(why + "; CI=true requires it")
        pytest.skip(why)
    return built("unflip_solver_fuzz")


def test_fuzzing_the_board_parser_finds_no_crash_no_sanitizer_report_and_no_broken_property(fuzzer, tmp_path):
    found = tmp_path / "found"
    found.mkdir()
    result = subprocess.run(
        [
            str(fuzzer),
            str(found),
            str(CORPUS),
            f"-max_total_time={FUZZ_SECONDS}",
            f"-artifact_prefix={tmp_path}/",
            "-print_final_stats=1",
        ],
        capture_output=True,
        text=True,
        timeout=FUZZ_SECONDS + 600,  # a safety net: libFuzzer stops itself after FUZZ_SECONDS
    )
    report = result.stderr[-6000:]
    assert result.returncode == 0, report
    assert not list(tmp_path.glob("crash-*")), report
    executed = re.search(r"^stat::number_of_executed_units: (\d+)$", result.stderr, re.M)
    assert executed, report
    assert int(executed[1]) > len(list(CORPUS.iterdir())), "the fuzzer ran no more than its seeds"
    print(f"libFuzzer ran {int(executed[1]):,} inputs in {FUZZ_SECONDS} s")  # docs/checks.md (pytest -s)
