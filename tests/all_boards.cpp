// Every board of one shape through the solver's own search, in one process, checked against the oracle's
// breadth-first distances: the exhaustive check of tests/test_solver_all_boards.py, which a process per
// board would make a matter of minutes (65,536 solvable boards of 4×5 alone, a million in all).
//
// Standard input: "H W T" (rows, columns, target colour), then one byte per board mask m (tile (r, c) is
// bit r·W + c of m, as tests/oracle.py's board_from_mask): the oracle's optimum for that board, or 255
// when the target cannot be reached. Each board is solved as `unflip_solver --threads 1 --quiet
// --target T` would solve it; its moves are replayed on its tiles. Standard output: one summary line, and
// a line for each of the first boards that break a rule. Exit status 0 when none does, 1 otherwise.
//
// It calls the solver's driver (solver/driver.h) as the command line does, with the same options.
//
// `--scheme tri` checks three-colour boards (issue 36) on Driver<TriSmallLayout>: the header is "H W 0",
// then 3^(H·W) bytes in tests/tri_boards.cpp's order (the board whose tile (r, c) shows the game's digit t
// is entry Σ (t − 1)·3^(r·W + c)), so that program's output can be piped in after the header. Each board
// the table marks reachable is solved as `unflip_solver --scheme tri --threads 1 --quiet` would solve it
// and its presses replayed mod 3 (`--sample N`: a seeded sample of N of them; all 531,441 of 4×4 take 4
// minutes); of the unreachable ones, a seeded sample of kUnreachableSample must be named unsolvable (all
// of them, 42 million at 4×4, would take hours for what a sample shows).

#include <algorithm>
#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <iostream>
#include <random>
#include <string>
#include <vector>

#include "../solver/driver.h"

namespace {

using namespace unflip;

constexpr int kOracleUnreachable = 255;
constexpr int kReportedFailures = 10;
constexpr uint32_t kUnreachableSample = 20000;
constexpr uint32_t kSampleSeed = 36;

Board board_of(uint32_t mask, int h, int w) {
    Board board(h, std::vector<uint8_t>(w));
    for (int r = 0; r < h; ++r)
        for (int c = 0; c < w; ++c) board[r][c] = mask >> (r * w + c) & 1;
    return board;
}

// The tri board at entry `index` of tests/tri_boards.cpp's table, its tiles as parse_board gives them to
// the tri core: the game's digit t as t − 1, the presses the tile still needs mod 3.
Board tri_board_of(uint32_t index, int h, int w) {
    Board board(h, std::vector<uint8_t>(w));
    for (int r = 0; r < h; ++r)
        for (int c = 0; c < w; ++c, index /= 3) board[r][c] = index % 3;
    return board;
}

// What is wrong with the solver's answer for one board, or "" when nothing is.
template <class L>
std::string fault(const Board& board, const Outcome& out, const Lattice<L>& lattice, int target, int expected) {
    const std::string exited = "the solver exited " + std::to_string(static_cast<int>(out.code));
    if (expected == kOracleUnreachable)
        return out.code == ExitCode::unsolvable ? "" : "the oracle says unreachable, " + exited;
    const std::string optimum = "the oracle's optimum is " + std::to_string(expected);
    if (out.code != ExitCode::solved) return optimum + ", " + exited;
    if (lattice.presses_on(out.moves) != expected)
        return optimum + ", the solver's " + std::to_string(lattice.presses_on(out.moves));
    Board tiles = board;
    for (uint16_t index : out.moves) {
        const Move<L>& move = lattice.moves[index];
        for (int r = move.row; r < move.row + move.size; ++r)
            for (int c = move.col; c < move.col + move.size; ++c)
                // A tri press takes its tiles' c to c − 1 mod 3 (the game's 1 → 3 → 2 → 1), `times` over.
                if constexpr (L::kTri) tiles[r][c] = (tiles[r][c] + 3 - move.times) % 3;
                else tiles[r][c] ^= 1;
    }
    for (const auto& row : tiles)
        for (uint8_t tile : row)
            if (tile != target) return "its moves do not reach the target";
    return "";
}

// Every board through the search on layout L; the number of wrong answers.
template <class L>
uint64_t check_every_board(int h, int w, int target, const std::vector<uint8_t>& expected, uint64_t& solved,
                           uint64_t& unsolvable) {
    Options options;
    options.threads = 1;
    options.quiet = true;
    options.target = target;
    uint64_t failures = 0;
    for (uint32_t mask = 0; mask < expected.size(); ++mask) {
        const Board board = board_of(mask, h, w);
        Driver<L> driver(board, options);
        const Outcome out = driver.run();
        const std::string wrong = fault(board, out, driver.lattice(), target, expected[mask]);
        if (!wrong.empty() && failures++ < kReportedFailures)
            std::printf("board mask %u: %s\n", mask, wrong.c_str());
        (out.code == ExitCode::solved ? solved : unsolvable) += 1;
    }
    return failures;
}

// The first n entries of `pool` after n steps of a seeded Fisher–Yates shuffle, all of it when n is more.
std::vector<uint32_t> seeded_sample(std::vector<uint32_t> pool, uint32_t n, std::mt19937& random) {
    n = std::min<uint32_t>(n, static_cast<uint32_t>(pool.size()));
    for (uint32_t i = 0; i < n; ++i) {
        std::uniform_int_distribution<uint32_t> pick(i, static_cast<uint32_t>(pool.size()) - 1);
        std::swap(pool[i], pool[pick(random)]);
    }
    pool.resize(n);
    return pool;
}

// The reachable tri boards (a seeded sample of `reachable_sample` of them) and a seeded sample of the
// unreachable ones through the tri core; the number of wrong answers.
uint64_t check_tri_boards(int h, int w, const std::vector<uint8_t>& expected, uint32_t reachable_sample,
                          uint64_t& solved, uint64_t& unsolvable) {
    Options options;
    options.threads = 1;
    options.quiet = true;
    options.tri = true;
    std::vector<uint32_t> reachable, unreachable;
    for (uint32_t index = 0; index < expected.size(); ++index)
        (expected[index] == kOracleUnreachable ? unreachable : reachable).push_back(index);
    std::mt19937 random(kSampleSeed);
    std::vector<uint32_t> checked = seeded_sample(reachable, reachable_sample, random);
    for (uint32_t index : seeded_sample(unreachable, kUnreachableSample, random)) checked.push_back(index);
    uint64_t failures = 0;
    for (uint32_t index : checked) {
        const Board board = tri_board_of(index, h, w);
        Driver<TriSmallLayout> driver(board, options);
        const Outcome out = driver.run();
        const std::string wrong = fault(board, out, driver.lattice(), 0, expected[index]);
        if (!wrong.empty() && failures++ < kReportedFailures)
            std::printf("tri board index %u: %s\n", index, wrong.c_str());
        (out.code == ExitCode::solved ? solved : unsolvable) += 1;
    }
    return failures;
}

}  // namespace

// `unflip_all_boards [--wide-lattice | --scheme tri]`: with --wide-lattice, the boards are searched on the
// 32-point layout of boards past 15, so every small board checks the wide code too.
int main(int argc, char** argv) {
    const std::vector<std::string> args(argv + 1, argv + argc);
    const bool wide = args == std::vector<std::string>{"--wide-lattice"};
    const bool tri = args.size() >= 2 && args[0] == "--scheme" && args[1] == "tri";
    uint32_t reachable_sample = UINT32_MAX;   // every reachable board
    const bool sampled = tri && args.size() == 4 && args[2] == "--sample" &&
                         args[3].find_first_not_of("0123456789") == std::string::npos && args[3].size() < 10;
    if (sampled) reachable_sample = static_cast<uint32_t>(std::stoul(args[3]));
    int h = 0, w = 0, target = 0;
    const bool read = static_cast<bool>(std::cin >> h >> w >> target);
    if ((argc > 1 && !wide && !(tri && (args.size() == 2 || sampled))) || !read || h < kMinSide || w < kMinSide || h * w > (tri ? 16 : 24) ||
        (target != 0 && (tri || target != 1))) {
        std::fprintf(stderr, "usage: unflip_all_boards [--wide-lattice | --scheme tri [--sample N]] < 'H W T' (H·W at most 24, "
                             "T 0 or 1; under tri at most 16, T 0) and the optimum bytes\n");
        return 2;
    }
    std::cin.get();   // the newline after the header
    uint32_t boards = 1;
    for (int t = 0; t < h * w; ++t) boards *= tri ? 3 : 2;
    std::vector<uint8_t> expected(boards);
    if (!std::cin.read(reinterpret_cast<char*>(expected.data()), boards)) {
        std::fprintf(stderr, "expected %u optimum bytes after the header\n", boards);
        return 2;
    }
    uint64_t solved = 0, unsolvable = 0;
    if (tri) {
        const uint64_t failures = check_tri_boards(h, w, expected, reachable_sample, solved, unsolvable);
        std::printf("%dx%d tri: %u boards, %" PRIu64 " solved, %" PRIu64 " unsolvable, %" PRIu64 " wrong\n", h, w,
                    boards, solved, unsolvable, failures);
        return failures ? 1 : 0;
    }
    const uint64_t failures = wide ? check_every_board<WideLayout>(h, w, target, expected, solved, unsolvable)
                                   : check_every_board<SmallLayout>(h, w, target, expected, solved, unsolvable);
    std::printf("%dx%d target %d: %u boards, %" PRIu64 " solved, %" PRIu64 " unsolvable, %" PRIu64 " wrong\n",
                h, w, target, boards, solved, unsolvable, failures);
    return failures ? 1 : 0;
}
