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

#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <iostream>
#include <string>
#include <vector>

#include "../solver/driver.h"

namespace {

using namespace unflip;

constexpr int kOracleUnreachable = 255;
constexpr int kReportedFailures = 10;

Board board_of(uint32_t mask, int h, int w) {
    Board board(h, std::vector<uint8_t>(w));
    for (int r = 0; r < h; ++r)
        for (int c = 0; c < w; ++c) board[r][c] = mask >> (r * w + c) & 1;
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
    if (static_cast<int>(out.moves.size()) != expected)
        return optimum + ", the solver's " + std::to_string(out.moves.size());
    Board tiles = board;
    for (uint16_t index : out.moves) {
        const Move<L>& move = lattice.moves[index];
        for (int r = move.row; r < move.row + move.size; ++r)
            for (int c = move.col; c < move.col + move.size; ++c) tiles[r][c] ^= 1;
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

}  // namespace

// `unflip_all_boards [--wide-lattice]`: with the flag, the boards are searched on the 32-point layout of
// boards past 15, so every small board checks the wide code too.
int main(int argc, char** argv) {
    const bool wide = argc == 2 && std::string(argv[1]) == "--wide-lattice";
    int h = 0, w = 0, target = 0;
    const bool read = static_cast<bool>(std::cin >> h >> w >> target);
    if ((argc > 1 && !wide) || !read || h < kMinSide || w < kMinSide || h * w > 24 || (target != 0 && target != 1)) {
        std::fprintf(stderr, "usage: unflip_all_boards [--wide-lattice] < 'H W T' (H·W at most 24, T 0 or 1) "
                             "and the optimum bytes\n");
        return 2;
    }
    std::cin.get();   // the newline after the header
    const uint32_t boards = 1u << (h * w);
    std::vector<uint8_t> expected(boards);
    if (!std::cin.read(reinterpret_cast<char*>(expected.data()), boards)) {
        std::fprintf(stderr, "expected %u optimum bytes after the header\n", boards);
        return 2;
    }
    uint64_t solved = 0, unsolvable = 0;
    const uint64_t failures = wide ? check_every_board<WideLayout>(h, w, target, expected, solved, unsolvable)
                                   : check_every_board<SmallLayout>(h, w, target, expected, solved, unsolvable);
    std::printf("%dx%d target %d: %u boards, %" PRIu64 " solved, %" PRIu64 " unsolvable, %" PRIu64 " wrong\n",
                h, w, target, boards, solved, unsolvable, failures);
    return failures ? 1 : 0;
}
