// The fewest presses of every tri board of one shape, by breadth-first search over the boards themselves:
// the oracle for three-colour boards (issue 36) that tests/test_oracle.py checks against CP-SAT and
// tests/test_solver_tri.py holds the solver to. Written apart from the solver: it includes none of its
// headers and knows nothing of its corner lattice, only the game's rule.
//
// `unflip_tri_boards H W` (sides at least 2, H·W at most 16) writes 3^(H·W) bytes to standard output, one
// per board: the board whose tile (r, c) shows t (1 cream, 2 blue, 3 red) is entry Σ (t − 1)·3^(r·W + c),
// and holds the fewest presses that turn every tile back to 1, or 255 when no presses do. Exit status 0,
// or 2 with a usage line.
//
// A game press turns its square's tiles 1 → 3 → 2 → 1, i.e. takes c = t − 1 to c − 1 mod 3. The search
// starts at the solved board and steps by the opposite turn, c + 1 (the editor's press): a shortest path
// of editor presses from the solved board to a board, walked backwards, is a shortest path of game presses
// from that board to the solved one, each undoing the last. So each board's depth is its optimum.

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace {

constexpr uint8_t kUnreachable = 255;

// A board as two bit planes, bit r·W + c of `one` set where c = 1 and of `two` where c = 2.
struct Planes {
    uint16_t one, two;
};

// Adds 1 mod 3 to every tile of `mask`: 0 → 1, 1 → 2, 2 → 0.
Planes turned(Planes p, uint16_t mask) {
    const uint16_t zero = static_cast<uint16_t>(~(p.one | p.two));
    return {static_cast<uint16_t>((zero & mask) | (p.one & ~mask)),
            static_cast<uint16_t>((p.one & mask) | (p.two & ~mask))};
}

}  // namespace

int main(int argc, char** argv) {
    const int h = argc == 3 ? std::atoi(argv[1]) : 0, w = argc == 3 ? std::atoi(argv[2]) : 0;
    if (h < 2 || w < 2 || h * w > 16) {
        std::fprintf(stderr, "usage: unflip_tri_boards H W  (sides at least 2, H·W at most 16)\n");
        return 2;
    }
    // Σ 3^i over the set bits i of a byte, for the low and the high byte of a plane.
    uint32_t low[256], high[256];
    for (int byte = 0; byte < 256; ++byte) {
        uint32_t power = 1, sum = 0;
        for (int bit = 0; bit < 8; ++bit, power *= 3)
            if (byte >> bit & 1) sum += power;
        low[byte] = sum;
        high[byte] = sum * 6561;  // 3^8
    }
    auto index = [&](Planes p) {
        return low[p.one & 255] + high[p.one >> 8] + 2 * (low[p.two & 255] + high[p.two >> 8]);
    };
    std::vector<uint16_t> squares;
    for (int k = 2; k <= (h < w ? h : w); ++k)
        for (int r = 0; r + k <= h; ++r)
            for (int c = 0; c + k <= w; ++c) {
                uint16_t mask = 0;
                for (int i = r; i < r + k; ++i)
                    for (int j = c; j < c + k; ++j) mask |= static_cast<uint16_t>(1u << (i * w + j));
                squares.push_back(mask);
            }
    uint32_t boards = 1;
    for (int t = 0; t < h * w; ++t) boards *= 3;
    std::vector<uint8_t> depth(boards, kUnreachable);
    std::vector<Planes> frontier{{0, 0}}, next;
    depth[0] = 0;
    for (uint8_t d = 1; !frontier.empty(); ++d) {
        next.clear();
        for (Planes p : frontier)
            for (uint16_t mask : squares) {
                const Planes q = turned(p, mask);
                uint8_t& seen = depth[index(q)];
                if (seen == kUnreachable) {
                    seen = d;
                    next.push_back(q);
                }
            }
        frontier.swap(next);
    }
    if (std::fwrite(depth.data(), 1, depth.size(), stdout) != depth.size() || std::fflush(stdout) != 0) {
        std::perror("unflip_tri_boards: writing the table");
        return 1;
    }
    return 0;
}
