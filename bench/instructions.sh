#!/usr/bin/env bash
# Count the instructions the solver executes on some boards: a repeatable measure of a change, unlike
# seconds on a shared machine. Needs valgrind.
#
#   bench/instructions.sh                    the specification's board, four official weekly levels and
#                                            two seeded random 11x11 boards (the frontier's kind)
#   bench/instructions.sh board.txt my.txt   any board files
#   REV=HEAD~1 bench/instructions.sh         the same for the solver as committed at REV, to compare
#
# valgrind cannot run the AVX-512 code -march=native emits on some machines, so this builds its own
# copy for AVX2 with FMA (what every machine of the last decade has, and what valgrind runs); counts
# are comparable between two such builds, not with the native binary's speed. (Before 2e0c3b5 the copy
# was built for SSE2 alone; its counts are not comparable with these.)
set -euo pipefail
cd "$(dirname "$0")/.."
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The solver's sources: unflip_solver.cpp and, from the split into families on, solver/.
mkdir "$work/src"
if [ -n "${REV:-}" ]; then
    git archive "$REV" unflip_solver.cpp $(git ls-tree --name-only "$REV" solver) | tar -x -C "$work/src"
else
    cp -r unflip_solver.cpp solver "$work/src"
fi
g++ -std=c++17 -O3 -mavx2 -mfma -mpopcnt -pthread -o "$work/solver" "$work/src/unflip_solver.cpp"

boards=("$@")
if [ ${#boards[@]} -eq 0 ]; then
    books=../shared/books/weekly_challenges_book.json
    boards=(board.txt)
    if [ -f "$books" ]; then
        for level in 2 6 14 16; do    # Weekly #2, #6A, #13 and #15, the hardest to prove
            python3 - "$books" "$level" >"$work/weekly$level.txt" <<'PY'
import json, sys
level = json.load(open(sys.argv[1]))["levels"][int(sys.argv[2]) - 1]
print("\n".join("".join("0" if t == 1 else "1" for t in row) for row in level["tiles"]))
PY
            boards+=("$work/weekly$level.txt")
        done
    fi
    for index in 0 2; do    # bench/frontier.py's uniform 11#0 and 11#2, dense and nothing symmetric
        python3 -c "import sys; sys.path.insert(0, 'bench'); from run_book import uniform_rows
print('\n'.join(uniform_rows(11, $index)))" >"$work/uniform-11-$index.txt"
        boards+=("$work/uniform-11-$index.txt")
    done
fi

total=0
for board in "${boards[@]}"; do
    valgrind --tool=callgrind --callgrind-out-file="$work/out" "$work/solver" "$board" --threads 1 --quiet \
        >"$work/answer" 2>"$work/log"
    count=$(grep -E '^summary:|^totals:' "$work/out" | head -1 | awk '{print $2}')
    moves=$(grep MOVES "$work/answer" | awk '{print $2}')
    nodes=$(grep NODES "$work/answer" | awk '{print $2}')
    printf '%-40s moves %-3s nodes %-10s instructions %s\n' "$(basename "$board")" "$moves" "$nodes" "$count"
    total=$((total + count))
done
printf 'total instructions %s (solver %s)\n' "$total" "${REV:-working tree}"
