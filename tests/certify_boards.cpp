// Certificates for many boards of one shape in one process, for tests/test_certificates.py: a solver
// process per board would make the 32,768 certificates of every solvable 4×4 board a matter of minutes.
//
// Standard input: "H W T" (rows, columns, target colour), then board masks in decimal (tile (r, c) is bit
// r·W + c, as tests/oracle.py's board_from_mask). Each board is solved as `unflip_solver --threads 1
// --quiet --target T --certificate DIR/MASK.cert` would solve it, DIR being the one argument. Standard
// output: a line "MASK MOVES" per board solved (exit status 0), or the first one that is not (exit 1).

#include <cstdint>
#include <cstdio>
#include <exception>
#include <iostream>
#include <string>
#include <vector>

#include "../solver/driver.h"

int main(int argc, char** argv) {
    using namespace unflip;
    int h = 0, w = 0, target = 0;
    if (argc != 2 || !(std::cin >> h >> w >> target) || h < kMinSide || w < kMinSide || h * w > 32) {
        std::fprintf(stderr, "usage: certify_boards DIR < 'H W T' and board masks, H·W at most 32\n");
        return 2;
    }
    Options options;
    options.threads = 1;
    options.quiet = true;
    options.target = target;
    for (uint64_t mask; std::cin >> mask;) {
        Board board(h, std::vector<uint8_t>(w));
        for (int r = 0; r < h; ++r)
            for (int c = 0; c < w; ++c) board[r][c] = mask >> (r * w + c) & 1;
        options.certificate = std::string(argv[1]) + "/" + std::to_string(mask) + ".cert";
        try {
            Driver<SmallLayout> driver(board, options);
            const Outcome out = driver.run();
            if (out.code != ExitCode::solved) {
                std::printf("board mask %llu: exit %d\n", static_cast<unsigned long long>(mask), static_cast<int>(out.code));
                return 1;
            }
            std::printf("%llu %zu\n", static_cast<unsigned long long>(mask), out.moves.size());
        } catch (const std::exception& failure) {
            std::printf("board mask %llu: %s\n", static_cast<unsigned long long>(mask), failure.what());
            return 1;
        }
    }
    return 0;
}
