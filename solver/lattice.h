// lattice: the XOR-difference transform: tiles -> (H+1)×(W+1) corner bitboard, moves -> 4 bits;
// the board's symmetries as permutations of points and moves.
//
// D[i][j] = t[i][j] ^ t[i-1][j] ^ t[i][j-1] ^ t[i-1][j-1] over the (N+1)×(N+1) corner lattice, where t marks
// the tiles that still need flipping. A k×k flip at (r, c) toggles exactly the four corners (r, c),
// (r, c+k), (r+k, c), (r+k, c+k), and D is all zero exactly when t is. Point (i, j) is bit 16·i + j, so
// lattice row i is the 16-bit field i of the 256-bit board and the lowest set bit is the first 1-point
// in row-major order.
#pragma once

#include <algorithm>
#include <cstdint>
#include <limits>
#include <vector>

#include "contract.h"
#include "board_input.h"

namespace unflip {
namespace {

constexpr int kStride = 16;                     // bits per lattice row in the bitboard
constexpr int kLatticePoints = kStride * kStride;   // bits in the bitboard
static_assert(kMaxSide + 1 <= kStride, "a board's corner lattice must fit the bitboard");
constexpr int kMaxMoves = 1015;                 // squares on a 15×15 board: 14² + 13² + ... + 1²
constexpr int kMaxMovesPerPoint = 64;           // moves with a corner at one point: at most 4·(15−1) = 56
constexpr int kUnbounded = std::numeric_limits<int>::max();

// The widest vector the target has, in bytes. The hot loops' vectors (GCC's vector extension) are no
// wider: a wider one is built on the stack in halves and loaded back whole before those stores have
// landed, which with AVX2 made the work estimate 2/3 of the whole search on 13×13 boards, and without
// AVX put the LP's ratio test through the stack too.
#if defined(__AVX512F__)
constexpr int kVectorBytes = 64;
#elif defined(__AVX__)
constexpr int kVectorBytes = 32;
#else
constexpr int kVectorBytes = 16;
#endif

struct Bits {
    uint64_t w[4] = {0, 0, 0, 0};

    void flip(int bit) { w[bit >> 6] ^= uint64_t{1} << (bit & 63); }
    bool test(int bit) const { return (w[bit >> 6] >> (bit & 63)) & 1; }
    bool empty() const { return (w[0] | w[1] | w[2] | w[3]) == 0; }
    int lowest() const {
        for (int i = 0; i < 4; ++i)
            if (w[i]) return i * 64 + __builtin_ctzll(w[i]);
        return -1;
    }
    unsigned line(int i) const { return (w[i >> 2] >> ((i & 3) * kStride)) & 0xFFFF; }
    Bits& operator^=(const Bits& o) {
        for (int i = 0; i < 4; ++i) w[i] ^= o.w[i];
        return *this;
    }
};

inline int point(int i, int j) { return i * kStride + j; }

struct Move {
    uint8_t row, col, size;
    uint8_t corner[4];      // the four lattice points it toggles
    uint16_t row_pair;      // what it toggles in lattice rows row and row + size: bits col, col + size
    uint16_t column_pair;   // and in lattice columns col and col + size: bits row, row + size
    Bits bits;              // the four points in the lattice
};

// The eight symmetries of a square, as maps of the lattice; a move's image is the move on the image of
// its corners, so every symmetry permutes the moves.
constexpr int kSymmetries = 8;
using SymmetryGroup = uint8_t;                 // bit g: symmetry g belongs to the group
constexpr SymmetryGroup kTrivialGroup = 1;     // the identity alone

struct Lattice {
    int h = 0, w = 0;                          // the board's rows and columns; the lattice is (h+1)×(w+1)
    SymmetryGroup symmetries = 0;              // the symmetries of the board's shape
    std::vector<Move> moves;
    std::vector<std::vector<uint16_t>> at;     // at[p]: the moves having lattice point p as a corner
    uint8_t point_image[kSymmetries][kLatticePoints] = {};
    std::vector<uint16_t> move_image[kSymmetries];
    std::vector<SymmetryGroup> stabiliser;     // per move: the symmetries that map it to itself

    Lattice(int rows, int columns) : h(rows), w(columns), at(kLatticePoints) {
        // Static order inside at[p]: bigger squares first, so ties after the dynamic ordering favour
        // moves that reach further into the board.
        for (int k = std::min(h, w); k >= 2; --k)
            for (int r = 0; r + k <= h; ++r)
                for (int c = 0; c + k <= w; ++c) {
                    Move m{};
                    m.row = static_cast<uint8_t>(r);
                    m.col = static_cast<uint8_t>(c);
                    m.size = static_cast<uint8_t>(k);
                    const int pts[4][2] = {{r, c}, {r, c + k}, {r + k, c}, {r + k, c + k}};
                    for (int q = 0; q < 4; ++q) {
                        m.corner[q] = static_cast<uint8_t>(point(pts[q][0], pts[q][1]));
                        m.bits.flip(point(pts[q][0], pts[q][1]));
                    }
                    m.row_pair = static_cast<uint16_t>((1u << c) | (1u << (c + k)));
                    m.column_pair = static_cast<uint16_t>((1u << r) | (1u << (r + k)));
                    const uint16_t index = static_cast<uint16_t>(moves.size());
                    moves.push_back(m);
                    for (uint8_t p : m.corner) at[p].push_back(index);
                }
        build_symmetries();
    }

    // f(image) for the image of move `index` under each symmetry of `group` but the identity: its orbit, the
    // moves a failed branch forbids with it.
    template <typename F>
    void for_each_image(uint16_t index, SymmetryGroup group, F&& f) const {
        for (int g = 1; g < kSymmetries; ++g)
            if (group >> g & 1) f(move_image[g][index]);
    }

    // The symmetries of the board the difference grid d is invariant under.
    SymmetryGroup symmetries_of(const Bits& d) const {
        SymmetryGroup group = 0;
        for (int g = 0; g < kSymmetries; ++g) {
            if (!(symmetries >> g & 1)) continue;
            Bits image;
            for (int p = 0; p < kLatticePoints; ++p)
                if (d.test(p)) image.flip(point_image[g][p]);
            bool same = true;
            for (int w = 0; w < 4; ++w) same &= image.w[w] == d.w[w];
            if (same) group |= static_cast<SymmetryGroup>(1u << g);
        }
        return group;
    }

    // The difference grid of the tiles that differ from `target`.
    Bits difference(const Board& board, int target) const {
        auto needs_flip = [&](int i, int j) {
            return i >= 0 && j >= 0 && i < h && j < w && board[i][j] != target;
        };
        Bits d;
        for (int i = 0; i <= h; ++i)
            for (int j = 0; j <= w; ++j)
                if (needs_flip(i, j) ^ needs_flip(i - 1, j) ^ needs_flip(i, j - 1) ^ needs_flip(i - 1, j - 1))
                    d.flip(point(i, j));
        return d;
    }

private:
    // Symmetry g maps lattice point (i, j) to images[g]; a rectangle keeps only the four that do not
    // swap rows and columns (the identity, both mirrors and the half turn).
    void build_symmetries() {
        symmetries = h == w ? 0xFF : 0b00011101;
        for (int i = 0; i <= h; ++i)
            for (int j = 0; j <= w; ++j) {
                const int images[kSymmetries][2] = {{i, j},         {j, i},         {h - i, j},     {i, w - j},
                                                    {h - i, w - j}, {w - j, i},     {j, h - i},     {w - j, h - i}};
                for (int g = 0; g < kSymmetries; ++g)
                    if (symmetries >> g & 1)
                        point_image[g][point(i, j)] = static_cast<uint8_t>(point(images[g][0], images[g][1]));
            }
        std::vector<int> index_of(kLatticePoints * kStride + kStride, -1);   // by top-left point and size
        for (size_t index = 0; index < moves.size(); ++index)
            index_of[moves[index].corner[0] * kStride + moves[index].size] = static_cast<int>(index);
        stabiliser.assign(moves.size(), 0);
        for (int g = 0; g < kSymmetries; ++g) {
            if (!(symmetries >> g & 1)) continue;
            move_image[g].resize(moves.size());
            for (size_t index = 0; index < moves.size(); ++index) {
                const Move& m = moves[index];
                uint8_t top_left = 255;
                for (uint8_t p : m.corner) top_left = std::min(top_left, point_image[g][p]);
                move_image[g][index] = static_cast<uint16_t>(index_of[top_left * kStride + m.size]);
                if (move_image[g][index] == index) stabiliser[index] |= static_cast<SymmetryGroup>(1u << g);
            }
        }
    }
};

}  // namespace
}  // namespace unflip
