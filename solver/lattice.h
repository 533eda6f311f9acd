// lattice: the XOR-difference transform: tiles -> (H+1)×(W+1) corner bitboard, moves -> 4 bits;
// the board's symmetries as permutations of points and moves.
//
// D[i][j] = t[i][j] ^ t[i-1][j] ^ t[i][j-1] ^ t[i-1][j-1] over the (N+1)×(N+1) corner lattice, where t marks
// the tiles that still need flipping. A k×k flip at (r, c) toggles exactly the four corners (r, c),
// (r, c+k), (r+k, c), (r+k, c+k), and D is all zero exactly when t is. Point (i, j) is bit S·i + j of an
// S×S bitboard, S the layout's stride, so lattice row i is the S-bit field i and the lowest set bit is the
// first 1-point in row-major order.
//
// The stride is a compile-time Layout, and everything built on the lattice is a template over it: a board
// whose sides are 15 or less takes Layout<16> (256 bits, every loop over its words four long, a point a
// byte), a bigger one Layout<32> (1024 bits), chosen once per board (run_on_layout, unflip_solver.cpp), so
// the small boards' code is what it was before there were two.
//
// The layout also carries the arithmetic: two colours (GF(2), the above) or three (the game's tri levels,
// Z3). A tri tile needs c = tile − 1 presses mod 3; D is the 2D difference of c mod 3, a TriBits of two
// planes (value 1, value 2); a press of square (r, c, k) takes 1 off c on the square, so it adds −1 to D at
// (r, c) and (r+k, c+k) and +1 at (r, c+k) and (r+k, c), and D is all zero exactly when c is. A tri square
// can be pressed 0, 1 or 2 times in an optimal solution, so the tri Lattice lists each square twice, as two
// adjacent Move entries of `times` 1 and 2 (index 2s and 2s + 1): the search branches on (square, times).
#pragma once

#include <algorithm>
#include <cstdint>
#include <limits>
#include <type_traits>
#include <vector>

#include "contract.h"
#include "board_input.h"

namespace unflip {
namespace {

constexpr int kUnbounded = std::numeric_limits<int>::max();

// Squares of every size 2 or more on a side × side board: (side − 1)² + ... + 1².
constexpr int squares_on(int side) { return side < 2 ? 0 : (side - 1) * (side - 1) + squares_on(side - 1); }

template <int Stride, int Colours = 2>
struct Layout {
    static constexpr bool kTri = Colours == 3;
    static constexpr int kTimes = kTri ? 2 : 1;                // a square's entries in the moves, one a press count
    using Plain = Layout<Stride>;                              // the two-colour layout of the same stride
    static constexpr int kStride = Stride;                     // bits per lattice row in the bitboard
    static constexpr int kLatticePoints = Stride * Stride;     // bits in the bitboard
    static constexpr int kWords = kLatticePoints / 64;
    static constexpr int kLinesPerWord = 64 / Stride;
    static constexpr int kMaxSide = Stride - 1;                // the biggest board whose lattice fits
    static constexpr int kMaxMoves = squares_on(kMaxSide) * kTimes;
    static constexpr int kMaxMovesPerPoint = 4 * Stride * kTimes;   // at most 4·(kMaxSide − 1) squares have a
                                                                    // corner at one
    using Point = std::conditional_t<(kLatticePoints <= 256), uint8_t, uint16_t>;
    using LineMask = std::conditional_t<(Stride <= 16), uint16_t, uint32_t>;   // one lattice row or column
    static constexpr uint64_t kLineBits = (uint64_t{1} << Stride) - 1;
};
using SmallLayout = Layout<16>;   // sides up to 15
using WideLayout = Layout<32>;    // sides up to 31
using TriSmallLayout = Layout<16, 3>;
using TriWideLayout = Layout<32, 3>;
static_assert(SmallLayout::kMaxMoves == 1015 && SmallLayout::kMaxMovesPerPoint == 64);
static_assert(WideLayout::kMaxSide >= kMaxSide, "the widest layout takes every board the contract allows");

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

template <class L>
struct Bits {
    static constexpr int kWords = L::kWords;
    uint64_t w[kWords] = {};

    void flip(int bit) { w[bit >> 6] ^= uint64_t{1} << (bit & 63); }
    bool test(int bit) const { return (w[bit >> 6] >> (bit & 63)) & 1; }
    bool empty() const {
        uint64_t any = 0;
        for (int i = 0; i < kWords; ++i) any |= w[i];
        return any == 0;
    }
    int lowest() const {
        for (int i = 0; i < kWords; ++i)
            if (w[i]) return i * 64 + __builtin_ctzll(w[i]);
        return -1;
    }
    // Lattice row i, bit j its point (i, j).
    unsigned line(int i) const {
        const unsigned u = static_cast<unsigned>(i);
        return static_cast<unsigned>((w[u / L::kLinesPerWord] >> (u % L::kLinesPerWord * L::kStride)) & L::kLineBits);
    }
    bool operator==(const Bits& o) const {
        bool same = true;
        for (int i = 0; i < kWords; ++i) same &= w[i] == o.w[i];
        return same;
    }
    Bits& operator^=(const Bits& o) {
        for (int i = 0; i < kWords; ++i) w[i] ^= o.w[i];
        return *this;
    }
    // The points that still differ, as a grid of either arithmetic gives them (TriBits::nonzero).
    const Bits& nonzero() const { return *this; }
    // f(p) for every set point p, in order.
    template <typename F>
    void for_each(F&& f) const {
        for (int word = 0; word < kWords; ++word)
            for (uint64_t bits = w[word]; bits; bits &= bits - 1) f(word * 64 + __builtin_ctzll(bits));
    }
};

template <class L>
inline int point(int i, int j) { return i * L::kStride + j; }

template <class L>
struct Move {
    uint8_t row, col, size;
    uint8_t times;                  // the presses this entry makes: 1, or under tri 1 or 2 (in padding)
    typename L::Point corner[4];    // the four lattice points it toggles
    typename L::LineMask row_pair;      // what it toggles in lattice rows row and row + size: bits col, col + size
    typename L::LineMask column_pair;   // and in lattice columns col and col + size: bits row, row + size
    Bits<L> bits;                   // the four points in the lattice
};

// The presses a move makes, a constant 1 for two colours.
template <class L>
inline int presses(const Move<L>& m) {
    if constexpr (L::kTri) return m.times;
    else return 1;
}

// What a tri press adds to D at its corner q (0-3, Move::corner's order), mod 3: −times at (r, c) and
// (r+k, c+k), +times at the other two.
inline int step_at(int q, int times) { return q == 0 || q == 3 ? 3 - times : times; }
template <class L>
inline int step_at(const Move<L>& m, int q) { return step_at(q, m.times); }

// A tri difference grid: per point a value 0-2 mod 3, as two planes (value 1, value 2). It reads as Bits
// do where the search and the bounds only ask which points still differ.
template <class L>
struct TriBits {
    using Bits = unflip::Bits<typename L::Plain>;
    static constexpr int kWords = L::kWords;
    Bits one, two;

    int value(int p) const { return one.test(p) + 2 * two.test(p); }
    void set(int p, int v) {
        if (one.test(p) != (v == 1)) one.flip(p);
        if (two.test(p) != (v == 2)) two.flip(p);
    }
    bool test(int p) const { return one.test(p) || two.test(p); }
    bool empty() const { return one.empty() && two.empty(); }
    Bits nonzero() const {
        Bits any = one;
        for (int i = 0; i < kWords; ++i) any.w[i] |= two.w[i];
        return any;
    }
    int lowest() const { return nonzero().lowest(); }
    template <typename F>
    void for_each(F&& f) const { nonzero().for_each(f); }
    bool operator==(const TriBits& o) const { return one == o.one && two == o.two; }
    void press(const Move<L>& m) {
        for (int q = 0; q < 4; ++q) set(m.corner[q], (value(m.corner[q]) + step_at(m, q)) % 3);
    }
    void unpress(const Move<L>& m) {
        for (int q = 0; q < 4; ++q) set(m.corner[q], (value(m.corner[q]) + 3 - step_at(m, q)) % 3);
    }
};

// A position's difference grid in the layout's arithmetic.
template <class L>
using Grid = std::conditional_t<L::kTri, TriBits<L>, Bits<L>>;

// The eight symmetries of a square, as maps of the lattice; a move's image is the move on the image of
// its corners, so every symmetry permutes the moves.
constexpr int kSymmetries = 8;
using SymmetryGroup = uint8_t;                 // bit g: symmetry g belongs to the group
constexpr SymmetryGroup kTrivialGroup = 1;     // the identity alone

template <class L>
struct Lattice {
    using Layout = L;
    using Bits = unflip::Bits<L>;
    using Move = unflip::Move<L>;
    using Point = typename L::Point;
    static constexpr int kStride = L::kStride, kLatticePoints = L::kLatticePoints;
    static int point(int i, int j) { return unflip::point<L>(i, j); }

    int h = 0, w = 0;                          // the board's rows and columns; the lattice is (h+1)×(w+1)
    SymmetryGroup symmetries = 0;              // the symmetries of the board's shape
    std::vector<Move> moves;
    std::vector<std::vector<uint16_t>> at;     // at[p]: the moves having lattice point p as a corner
    Point point_image[kSymmetries][kLatticePoints] = {};
    std::vector<uint16_t> move_image[kSymmetries];
    std::vector<SymmetryGroup> stabiliser;     // per move: the symmetries that map it to itself
    int character[kSymmetries] = {};           // +1 where a symmetry keeps a square's corner signs, −1 where it
                                               // negates them (mirrors, quarter turns): tri's χ(g)
    // Under tri, the board's squares once each (two-colour moves): the covering LP's lattice, which only
    // asks which points differ (CoverBound).
    struct NoSquares {};
    std::conditional_t<L::kTri, Lattice<typename L::Plain>, NoSquares> squares;

    Lattice(int rows, int columns) : h(rows), w(columns), at(kLatticePoints), squares(make_squares(rows, columns)) {
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
                        m.corner[q] = static_cast<Point>(point(pts[q][0], pts[q][1]));
                        m.bits.flip(point(pts[q][0], pts[q][1]));
                    }
                    using LineMask = typename L::LineMask;
                    m.row_pair = static_cast<LineMask>((LineMask{1} << c) | (LineMask{1} << (c + k)));
                    m.column_pair = static_cast<LineMask>((LineMask{1} << r) | (LineMask{1} << (r + k)));
                    for (int times = 1; times <= L::kTimes; ++times) {
                        m.times = static_cast<uint8_t>(times);
                        const uint16_t index = static_cast<uint16_t>(moves.size());
                        moves.push_back(m);
                        for (int p : m.corner) at[p].push_back(index);
                    }
                }
        build_symmetries();
    }

    // The lattice the covering LP works on: the squares once each.
    const Lattice<typename L::Plain>& plain() const {
        if constexpr (L::kTri) return squares;
        else return *this;
    }

    // The presses a path of moves makes (its length, for two colours).
    int presses_on(const std::vector<uint16_t>& path) const {
        if constexpr (!L::kTri) return static_cast<int>(path.size());
        int total = 0;
        for (uint16_t index : path) total += moves[index].times;
        return total;
    }

    // f(image) for the image of move `index` under each symmetry of `group` but the identity: its orbit, the
    // moves a failed branch forbids with it.
    template <typename F>
    void for_each_image(uint16_t index, SymmetryGroup group, F&& f) const {
        for (int g = 1; g < kSymmetries; ++g)
            if (group >> g & 1) f(move_image[g][index]);
    }

    // The symmetries of the board the difference grid d is invariant under. Under tri, g maps the solutions
    // of D to those of χ(g)·g(D) (its character: a mirror or a quarter turn negates a square's corner signs),
    // so g may be broken when χ(g)·g(D) = D: with χ(g) = −1 the image's planes are the other way round.
    SymmetryGroup symmetries_of(const Grid<L>& d) const {
        auto image_of = [&](int g, const auto& plane) {
            std::remove_cv_t<std::remove_reference_t<decltype(plane)>> image;
            for (int p = 0; p < kLatticePoints; ++p)
                if (plane.test(p)) image.flip(point_image[g][p]);
            return image;
        };
        SymmetryGroup group = 0;
        for (int g = 0; g < kSymmetries; ++g) {
            if (!(symmetries >> g & 1)) continue;
            bool kept;
            if constexpr (L::kTri) {
                const auto one = image_of(g, d.one), two = image_of(g, d.two);
                kept = character[g] > 0 ? one == d.one && two == d.two : one == d.two && two == d.one;
            } else {
                kept = image_of(g, d) == d;
            }
            if (kept) group |= static_cast<SymmetryGroup>(1u << g);
        }
        return group;
    }

    // The difference grid of the tiles that differ from `target`; under tri, of the presses each tile
    // still needs mod 3 (the board's values, tile − 1: the target is 0).
    Grid<L> difference(const Board& board, int target) const {
        if constexpr (L::kTri) {
            auto needs = [&](int i, int j) { return i >= 0 && j >= 0 && i < h && j < w ? board[i][j] : 0; };
            TriBits<L> d;
            for (int i = 0; i <= h; ++i)
                for (int j = 0; j <= w; ++j)
                    d.set(point(i, j), (needs(i, j) - needs(i - 1, j) - needs(i, j - 1) + needs(i - 1, j - 1) + 6) % 3);
            return d;
        } else {
            return two_colour_difference(board, target);
        }
    }

private:
    Bits two_colour_difference(const Board& board, int target) const {
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

    static auto make_squares(int rows, int columns) {
        if constexpr (L::kTri) return Lattice<typename L::Plain>(rows, columns);
        else return NoSquares{};
    }

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
                        point_image[g][point(i, j)] = static_cast<Point>(point(images[g][0], images[g][1]));
            }
        // χ(g): whether g takes a square's top-left corner (+ under tri) to its image's top-left or
        // bottom-right corner (+ too), read off the square of side 2 at the origin.
        for (int g = 0; g < kSymmetries; ++g) {
            if (!(symmetries >> g & 1)) continue;
            const int corners[4] = {point(0, 0), point(0, 2), point(2, 0), point(2, 2)};
            int low = kLatticePoints, high = -1;
            for (int p : corners) {
                low = std::min<int>(low, point_image[g][p]);
                high = std::max<int>(high, point_image[g][p]);
            }
            const int top_left = point_image[g][corners[0]];
            character[g] = top_left == low || top_left == high ? 1 : -1;
        }
        // By top-left point, size and presses.
        auto key = [](int top_left, const Move& m) { return (top_left * kStride + m.size) * L::kTimes + presses(m) - 1; };
        std::vector<int> index_of((kLatticePoints * kStride + kStride) * L::kTimes, -1);
        for (size_t index = 0; index < moves.size(); ++index)
            index_of[key(moves[index].corner[0], moves[index])] = static_cast<int>(index);
        stabiliser.assign(moves.size(), 0);
        for (int g = 0; g < kSymmetries; ++g) {
            if (!(symmetries >> g & 1)) continue;
            move_image[g].resize(moves.size());
            for (size_t index = 0; index < moves.size(); ++index) {
                const Move& m = moves[index];
                int top_left = kLatticePoints;
                for (int p : m.corner) top_left = std::min<int>(top_left, point_image[g][p]);
                move_image[g][index] = static_cast<uint16_t>(index_of[key(top_left, m)]);
                if (move_image[g][index] == index) stabiliser[index] |= static_cast<SymmetryGroup>(1u << g);
            }
        }
    }
};

}  // namespace
}  // namespace unflip
