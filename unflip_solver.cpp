// unflip_solver: exact, move-optimal solver for the Unflip puzzle.
//
// A board is H×W tiles (2 ≤ H, W ≤ 15); a move flips any k×k square (2 ≤ k ≤ min(H, W)). The solver
// proves the fewest moves that turn every tile into the target colour, and speaks the line protocol
// documented in README.md ("The solver and its line protocol"): TARGET / MOVES / moves / NODES / TIME on
// stdout, or UNSOLVABLE, or STOPPED, or every optimal solution (SOLUTION / SOLUTIONS); progress on stderr;
// `error: ...` and exit 2 for input it rejects.
//
// The file is organised in families, top to bottom:
//   board input     reading and validating the board text
//   lattice         the XOR-difference transform: tiles -> (H+1)×(W+1) corner bitboard, moves -> 4 bits;
//                   the board's symmetries as permutations of points and moves
//   solvability     GF(2) elimination, so an unsolvable board never starts a search
//   line costs      per-line minimum pair counts, the pair and line bounds' raw material
//   covering bound  the covering LP: exact integer point weights, and its warm-started dual simplex
//   transposition   the lock-free table shared by all threads
//   search          one worker's IDA* depth-first search, orbital branching, handing work to others
//   driver          iterative deepening, the task queue, budgets, progress, enumeration
//   protocol        command line (one table of switches for parsing and --help), output, main
//
// Every technique has a switch (see kFlagSwitches and kNumberSwitches) so its worth can be measured.

#include <algorithm>
#include <array>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <fstream>
#include <iostream>
#include <iterator>
#include <limits>
#include <memory>
#include <mutex>
#include <optional>
#include <sstream>
#include <string>
#include <sys/mman.h>
#include <thread>
#include <type_traits>
#include <vector>

namespace {

constexpr int kMinSize = 2;
constexpr int kMaxSize = 15;                    // (15+1)² = 256 corner points: one 256-bit bitboard
constexpr int kStride = 16;                     // bits per lattice row in the bitboard
constexpr int kLatticePoints = kStride * kStride;   // bits in the bitboard
constexpr int kMaxMoves = 1015;                 // squares on a 15×15 board: 14² + 13² + ... + 1²
constexpr size_t kMaxInputBytes = 1 << 16;      // far above any 15×15 board; guards against endless input
constexpr int kMaxStoredBudget = 63;            // a table entry keeps the failed budget in 6 bits
constexpr uint8_t kUnreachable = 64;            // line cost of a line state no pair set can clear
constexpr int kInitialTableLog2 = 12;           // 64 KiB: the table grows with the search
constexpr int kLargeTableLog2 = 24;             // 256 MB, the most it grows to on boards from 9×9 up
constexpr int kSmallTableLog2 = 20;             // 16 MB below that, where searches are short
constexpr int kLargeTableFromSize = 9;
constexpr int kMaxMovesPerPoint = 64;           // moves with a corner at one point: at most 4·(15−1) = 56
constexpr int kUnbounded = std::numeric_limits<int>::max();
constexpr uint64_t kNodeBatch = 1024;           // nodes a worker counts before publishing them

enum ExitCode { kSolved = 0, kUnsolvable = 1, kRejected = 2, kStopped = 3 };

[[noreturn]] void reject(const std::string& why) {
    std::fprintf(stderr, "error: %s\n", why.c_str());
    std::exit(kRejected);
}

// ───────────────────────────── board input ─────────────────────────────

// A board as rows of tile colours 0/1 (the 1/2 encoding already mapped: 1 -> 0, 2 -> 1).
using Board = std::vector<std::vector<uint8_t>>;

std::string describe_char(char ch) {
    unsigned char u = static_cast<unsigned char>(ch);
    if (u >= 0x21 && u < 0x7f) return std::string("'") + ch + "'";
    if (ch == ' ') return "a space";
    if (ch == '\t') return "a tab";
    char buf[16];
    std::snprintf(buf, sizeof buf, "byte 0x%02x", u);
    return buf;
}

std::string read_all(std::istream& in, const std::string& source) {
    std::string text;
    char buf[4096];
    while (in.read(buf, sizeof buf) || in.gcount() > 0) {
        text.append(buf, static_cast<size_t>(in.gcount()));
        if (text.size() > kMaxInputBytes)
            reject(source + " is larger than " + std::to_string(kMaxInputBytes) +
                   " bytes; a board is at most 15 lines of 15 digits");
    }
    return text;
}

Board parse_board(const std::string& text) {
    std::vector<std::string> lines;
    std::stringstream stream(text);
    for (std::string line; std::getline(stream, line);) {
        while (!line.empty() && (line.back() == '\r' || line.back() == ' ' || line.back() == '\t'))
            line.pop_back();
        lines.push_back(line);
    }
    while (!lines.empty() && lines.back().empty()) lines.pop_back();
    if (lines.empty()) reject("empty input: expected N lines of N digits (0/1 or 1/2)");

    int first_zero_line = 0, first_two_line = 0;
    for (size_t i = 0; i < lines.size(); ++i) {
        const int line_no = static_cast<int>(i) + 1;
        if (lines[i].empty())
            reject("line " + std::to_string(line_no) + " is blank; board rows must be consecutive");
        for (size_t j = 0; j < lines[i].size(); ++j) {
            char ch = lines[i][j];
            if (ch != '0' && ch != '1' && ch != '2')
                reject("line " + std::to_string(line_no) + ", column " + std::to_string(j + 1) + ": " +
                       describe_char(ch) + " is not a tile (tiles are 0/1 or 1/2 digits)");
            if (ch == '0' && !first_zero_line) first_zero_line = line_no;
            if (ch == '2' && !first_two_line) first_two_line = line_no;
        }
        if (lines[i].size() != lines[0].size())
            reject("line " + std::to_string(line_no) + " has " + std::to_string(lines[i].size()) +
                   " tiles but line 1 has " + std::to_string(lines[0].size()) +
                   "; every row must have the same length");
    }
    const size_t rows = lines.size(), cols = lines[0].size();
    if (rows < kMinSize || rows > kMaxSize || cols < kMinSize || cols > kMaxSize)
        reject("the board is " + std::to_string(rows) + "x" + std::to_string(cols) +
               " (rows x columns); each must be 2 to 15");
    if (first_zero_line && first_two_line)
        reject("the board mixes encodings: a 0 on line " + std::to_string(first_zero_line) +
               " and a 2 on line " + std::to_string(first_two_line) + "; use 0/1 or 1/2 throughout");

    // With a 2 anywhere the board is in the game's 1/2 encoding; otherwise digits are colours already.
    const char zero = first_two_line ? '1' : '0';
    Board board(rows, std::vector<uint8_t>(cols));
    for (size_t i = 0; i < rows; ++i)
        for (size_t j = 0; j < cols; ++j) board[i][j] = lines[i][j] == zero ? 0 : 1;
    return board;
}

// ───────────────────────────── lattice ─────────────────────────────
//
// D[i][j] = t[i][j] ^ t[i-1][j] ^ t[i][j-1] ^ t[i-1][j-1] over the (N+1)×(N+1) corner lattice, where t marks
// the tiles that still need flipping. A k×k flip at (r, c) toggles exactly the four corners (r, c),
// (r, c+k), (r+k, c), (r+k, c+k), and D is all zero exactly when t is. Point (i, j) is bit 16·i + j, so
// lattice row i is the 16-bit field i of the 256-bit board and the lowest set bit is the first 1-point
// in row-major order.

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

int point(int i, int j) { return i * kStride + j; }

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

// ───────────────────────────── solvability ─────────────────────────────

// Boards of 6×6 and smaller are not all solvable: the moves span a proper subspace of the difference
// grids. Elimination over GF(2) decides membership exactly, so the search only ever starts on a board it
// can finish.
bool solvable(const Lattice& lattice, Bits d) {
    std::vector<Bits> basis(kLatticePoints);
    std::vector<bool> has(kLatticePoints, false);
    for (const Move& m : lattice.moves) {
        Bits v = m.bits;
        for (int p = v.lowest(); p >= 0; p = v.lowest()) {
            if (!has[p]) {
                basis[p] = v;
                has[p] = true;
                break;
            }
            v ^= basis[p];
        }
    }
    for (int p = d.lowest(); p >= 0; p = d.lowest()) {
        if (!has[p]) return false;
        d ^= basis[p];
    }
    return true;
}

// ───────────────────────────── line costs ─────────────────────────────
//
// A move puts one pair {c, c+k} into each of lattice rows r and r+k, and one pair {r, r+k} into each of
// columns c and c+k. Lattice row i can only receive pair distances 2..min(max(i, h-i), min(h, w)) (the
// square must fit), and likewise column j with w. cost[mask] is the fewest such pairs whose XOR is
// `mask`, found by breadth-first search over line masks, one table per line width and distance limit.

struct LineCosts {
    std::vector<const uint8_t*> of_row, of_column;   // the table for each lattice row and column

    LineCosts(int h, int w) : of_row(h + 1), of_column(w + 1) {
        const int largest = std::min(h, w);
        for (int i = 0; i <= h; ++i) of_row[i] = table(w + 1, std::min(std::max(i, h - i), largest));
        for (int j = 0; j <= w; ++j) of_column[j] = table(h + 1, std::min(std::max(j, w - j), largest));
    }

private:
    std::vector<std::vector<uint8_t>> tables_;
    std::vector<std::pair<int, int>> keys_;   // (width, limit) of each table

    const uint8_t* table(int width, int limit) {
        for (size_t t = 0; t < keys_.size(); ++t)
            if (keys_[t] == std::make_pair(width, limit)) return tables_[t].data();
        const unsigned masks = 1u << width;
        std::vector<unsigned> pairs;
        for (int s = 2; s <= limit; ++s)
            for (int a = 0; a + s < width; ++a) pairs.push_back((1u << a) | (1u << (a + s)));
        // A line with limit below 2 (only the middle line of a board 2 tiles across) takes no pairs.
        std::vector<uint8_t> cost(masks, kUnreachable);
        std::vector<unsigned> frontier{0}, next;
        cost[0] = 0;
        for (uint8_t level = 1; !frontier.empty(); ++level) {
            next.clear();
            for (unsigned mask : frontier)
                for (unsigned pair : pairs)
                    if (cost[mask ^ pair] == kUnreachable) {
                        cost[mask ^ pair] = level;
                        next.push_back(mask ^ pair);
                    }
            frontier.swap(next);
        }
        keys_.emplace_back(width, limit);
        tables_.push_back(std::move(cost));   // moving keeps the data pointer stable
        return tables_.back().data();
    }
};

// ───────────────────────────── covering bound ─────────────────────────────
//
// Every 1-point of D must be toggled at least once and a move toggles four points, so the covering LP
//     min Σ x_m   subject to   Σ_{m has a corner at p} x_m ≥ 1 for every 1-point p,   x ≥ 0
// bounds the moves still needed. Its dual is a packing: point weights w ≥ 0 with Σ_{p corner of m} w_p ≤ 1
// for every move m. Any such weighting proves that at least Σ_{p is a 1-point} w_p moves remain, whatever
// the points' colours, so one weighting found at the root bounds every position below it: a move changes
// the sum only by its four corners' weights (by at most 1 downwards), which keeps the bound admissible,
// consistent, and maintained in four additions. Weights are integers in units of 1/kWeightScale, checked
// exactly, so floating-point error in the LP can only weaken the bound, never make it wrong.

constexpr int kWeightScale = 1 << 20;
constexpr int kMaxCuts = 128;                    // parity rows one LP keeps
constexpr double kParityReach = 1.5;             // parity rows are tried on an LP within this of refuting
constexpr int kCutRow = kLatticePoints;          // LP rows: a covering row per point, then parity rows
constexpr int kRows = kCutRow + kMaxCuts;

struct CoverWeights {
    int32_t of[kLatticePoints] = {};

    // The fewest moves this weighting proves for the 1-points of d.
    static int moves_for(int64_t weight_sum) { return static_cast<int>((weight_sum + kWeightScale - 1) / kWeightScale); }
    int64_t sum(const Bits& d) const {
        int64_t total = 0;
        for (int word = 0; word < 4; ++word)
            for (uint64_t bits = d.w[word]; bits; bits &= bits - 1) total += of[word * 64 + __builtin_ctzll(bits)];
        return total;
    }
};

// LP weights (per lattice point) as integers in units of 1/kWeightScale, made exactly feasible for the
// moves not `blocked`: an overloaded move gives up weight at its corners that are 0-points in d first
// (their weight proves nothing here), then at its 1-points. Then the 0-points get whatever slack the
// moves leave: that only strengthens the bound wherever the search turns them into 1-points.
void to_integer_weights(const Lattice& lattice, const uint8_t* blocked, const double* value, const Bits& d,
                        CoverWeights& out) {
    const double scale = kWeightScale * (1 - 1e-9);
    for (int p = 0; p < kLatticePoints; ++p) out.of[p] = static_cast<int32_t>(std::floor(value[p] * scale));
    std::vector<int64_t> load(lattice.moves.size(), 0);
    for (size_t index = 0; index < lattice.moves.size(); ++index) {
        if (blocked[index]) continue;
        const Move& move = lattice.moves[index];
        int64_t total = 0;
        for (uint8_t p : move.corner) total += out.of[p];
        for (int pass = 0; pass < 2 && total > kWeightScale; ++pass)
            for (uint8_t p : move.corner) {
                if (total <= kWeightScale) break;
                if (d.test(p) != (pass == 1)) continue;
                const int32_t cut = static_cast<int32_t>(std::min<int64_t>(out.of[p], total - kWeightScale));
                out.of[p] -= cut;
                total -= cut;
            }
    }
    // Loads again, after the cuts (a cut lowers the loads of other moves too), then the 0-points'
    // share of the slack, point by point.
    for (size_t index = 0; index < lattice.moves.size(); ++index) {
        if (blocked[index]) continue;
        for (uint8_t p : lattice.moves[index].corner) load[index] += out.of[p];
    }
    for (int p = 0; p < kLatticePoints; ++p) {
        if (lattice.at[p].empty()) continue;
        int64_t slack = kWeightScale;
        for (uint16_t index : lattice.at[p])
            if (!blocked[index]) slack = std::min<int64_t>(slack, kWeightScale - load[index]);
        if (slack <= 0) continue;
        out.of[p] += static_cast<int32_t>(slack);
        for (uint16_t index : lattice.at[p]) load[index] += slack;
    }
}

// Σ a_i b_i with four running sums: the hot loops of the LP, which a single sum would serialise on the
// latency of each addition.
double dot(const double* a, const double* b, int n) {
    double sum[4] = {0, 0, 0, 0};
    int i = 0;
    for (; i + 4 <= n; i += 4)
        for (int k = 0; k < 4; ++k) sum[k] += a[i + k] * b[i + k];
    for (; i < n; ++i) sum[0] += a[i] * b[i];
    return (sum[0] + sum[1]) + (sum[2] + sum[3]);
}

// The covering LP of a position, kept by the bounded dual simplex method so that a child's LP starts
// from its parent's optimal basis: applying a move changes the right-hand side at its four corners and
// fixes the moves the child may not use (its own, and the siblings it excludes) at zero, and both keep
// the basis dual feasible; a few dual simplex pivots restore primal feasibility.
//
//     min Σ x_m   subject to   Σ_{m has a corner at p} x_m − s_p = D_p for every lattice point p,
//                              x, s ≥ 0,   x_m = 0 for fixed moves.
//
// A 0-point's row says nothing (its surplus absorbs any coverage), so one set of rows serves every
// position. The duals y are the point weights of the covering bound; the basis stays dual feasible, so
// y·D bounds the position after every pivot and pivoting stops once it exceeds the budget.
//
// Parity rows strengthen it: a solution toggles every 0-point q an even number of times, so a move m
// used at q needs another there,  Σ_{moves at q but m} x − x_m ≥ 0.  An optimal basis is cut by the rows
// it breaks most and solved again, a few rounds. Such a row is about q being a 0-point; where the search
// turns q into a 1-point its right-hand side becomes −1, which any 0/1 solution meets, so the row can
// stay without being wrong.
//
// Most rows keep their surplus basic. With the K basic moves M and the K rows T whose surplus is not
// basic, the basis inverse is determined by C = A[T, M]⁻¹ alone (x_M = C D_T, y_T = 1ᵀC, y = 0 off T), so
// only that K×K core is kept, K being about the LP's optimum rather than the (H+1)(W+1) rows. Each of
// the four kinds of pivot (a move or a surplus leaving, a move or a surplus entering) is a rank-one
// update or a bordering of C.
class CoverLp {
public:
    explicit CoverLp(const Lattice& lattice)
        : lattice_(lattice), moves_(static_cast<int>(lattice.moves.size())),
          stride_(std::min(moves_, (lattice.h + 1) * (lattice.w + 1) + kMaxCuts)) {
        state_.core.resize(static_cast<size_t>(stride_) * stride_);
        state_.move_at.resize(stride_);
        state_.row_at.resize(stride_);
        state_.fixed.resize(moves_);
        state_.slot_of_move.resize(moves_);
        candidate_.resize(moves_ + stride_);
        alpha_fix_.assign(moves_, 0.0);
        dual_fix_.assign(moves_, 0.0);
        for (const Move& m : lattice.moves) corner_storage_.push_back({m.corner[0], m.corner[1], m.corner[2], m.corner[3]});
        corner_table_ = corner_storage_.data();
        start_cold(Bits{});
    }

    // The slack basis: every surplus basic (K = 0), dual feasible since every move costs 1 and y = 0.
    void start_cold(const Bits& d) {
        State& s = state_;
        s.size = 0;
        s.cuts = 0;
        s.rhs = d;
        std::fill(s.fixed.begin(), s.fixed.end(), 0);
        std::fill(s.slot_of_move.begin(), s.slot_of_move.end(), -1);
        std::fill(std::begin(s.slot_of_row), std::end(s.slot_of_row), -1);
    }

    // Move the LP to position d, with the moves `blocked` marks fixed at zero. Fixing is one-way: a
    // position's blocked moves include its ancestors'.
    void set_position(const Bits& d, const uint8_t* blocked) {
        state_.rhs = d;
        for (int index = 0; index < moves_; ++index)
            if (blocked[index]) state_.fixed[index] = 1;
    }

    enum class Result { kOptimal, kAbove, kInfeasible, kIterationCap };

    // Dual simplex pivots until the basis is primal feasible (optimal), the dual bound exceeds
    // `budget` (the position is refuted), no allowed move can cover some 1-point, or the cap. With
    // `parity_rounds`, an optimal basis is then cut by the parity rows it violates and solved again,
    // that many times at most.
    Result solve(int budget, int parity_rounds = 0) {
        const int cap = 4 * stride_;
        for (int iteration = 0;; ++iteration) {
            compute_primal();
            const Leaving leave = most_infeasible();
            if (leave.slot < 0 && leave.row < 0) {
                if (parity_rounds-- > 0 && add_violated_parity_cuts()) continue;
                return Result::kOptimal;
            }
            if (iteration >= cap) return Result::kIterationCap;
            if (objective_ > budget + kBoundMargin) return Result::kAbove;
            if (!pivot(leave)) return Result::kInfeasible;
        }
    }

    // The fewest moves the current dual solution proves, exactly: y·D, with the parity rows' duals,
    // checked in integers against every allowed move (or 0 when the check fails).
    int proven_moves() {
        compute_duals();
        // The exact check: scale the duals to integers, then see that no allowed move is overloaded.
        const State& s = state_;
        std::vector<int64_t>& on_row = exact_dual_;
        on_row.assign(kRows, 0);
        const double scale = kWeightScale * (1 - 1e-9);
        for (int t = 0; t < s.size; ++t)
            on_row[s.row_at[t]] = static_cast<int64_t>(std::floor(std::max(0.0, dual_[t]) * scale));
        int64_t on_point[kLatticePoints] = {};
        for (int p = 0; p < kLatticePoints; ++p) on_point[p] = on_row[p];
        std::fill(fix_exact_.begin(), fix_exact_.end(), 0);
        for (int k = 0; k < s.cuts; ++k) {
            on_point[s.cut_point[k]] += on_row[kCutRow + k];
            fix_exact_[s.cut_move[k]] += 2 * on_row[kCutRow + k];
        }
        for (int index = 0; index < moves_; ++index) {
            if (s.fixed[index]) continue;
            const uint8_t* c = corner_table_[index].data();
            const int64_t load = on_point[c[0]] + on_point[c[1]] + on_point[c[2]] + on_point[c[3]] - fix_exact_[index];
            if (load > kWeightScale) return 0;
        }
        int64_t total = 0;
        for (int p = 0; p < kLatticePoints; ++p)
            if (s.rhs.test(p)) total += on_row[p];
        for (int k = 0; k < s.cuts; ++k)
            if (s.rhs.test(s.cut_point[k])) total -= on_row[kCutRow + k];
        return CoverWeights::moves_for(std::max<int64_t>(total, 0));
    }

    // The objective of the current basis: the LP's optimum once solve() says so.
    double value() const { return objective_; }

    // The LP's point duals as an exactly feasible integer weighting for the moves still allowed. The
    // parity rows' duals do not carry below this position (a parity row is about this position's
    // 0-points), so a move they relieved is trimmed back at its 0-corners first.
    void weights(CoverWeights& out) {
        compute_duals();
        double y[kLatticePoints] = {};
        for (int t = 0; t < state_.size; ++t)
            if (state_.row_at[t] < kCutRow) y[state_.row_at[t]] = std::max(0.0, dual_[t]);
        to_integer_weights(lattice_, state_.fixed.data(), y, state_.rhs, out);
    }

    // Everything a search needs to come back to this position after trying a child.
    struct State {
        int size = 0;                      // K
        std::vector<double> core;          // C, K×K in a stride_×stride_ array; row = move slot
        std::vector<uint16_t> move_at;     // the basic move in each row slot of C
        std::vector<uint16_t> row_at;      // the tight row in each column slot of C
        std::vector<int16_t> slot_of_move; // inverse of move_at; -1 when the move is not basic
        int16_t slot_of_row[kRows];        // inverse of row_at; -1 when the row's surplus is basic
        int cuts = 0;                      // parity rows so far
        uint8_t cut_point[kMaxCuts];       // row kCutRow + k: the 0-point q and the move m of
        uint16_t cut_move[kMaxCuts];       //   Σ_{moves at q but m} x − x_m ≥ −D_q
        std::vector<uint8_t> fixed;        // per move: held at zero
        Bits rhs;                          // D
    };
    void save(State& into) const { copy(state_, into); }
    void restore(const State& from) { copy(from, state_); }

private:
    static constexpr double kFeasibilityTolerance = 1e-9;
    static constexpr double kPivotTolerance = 1e-9;
    static constexpr double kBoundMargin = 1e-6;
    static constexpr int kCutsPerRound = 24;

    void copy(const State& from, State& to) const {
        to.size = from.size;
        to.core.resize(from.core.size());
        for (int i = 0; i < from.size; ++i)
            std::copy_n(&from.core[static_cast<size_t>(i) * stride_], from.size, &to.core[static_cast<size_t>(i) * stride_]);
        to.move_at = from.move_at;
        to.row_at = from.row_at;
        to.slot_of_move = from.slot_of_move;
        std::copy(std::begin(from.slot_of_row), std::end(from.slot_of_row), std::begin(to.slot_of_row));
        to.cuts = from.cuts;
        std::copy_n(from.cut_point, from.cuts, to.cut_point);
        std::copy_n(from.cut_move, from.cuts, to.cut_move);
        to.fixed = from.fixed;
        to.rhs = from.rhs;
    }

    double* row(int i) { return &state_.core[static_cast<size_t>(i) * stride_]; }
    double at(int i, int t) const { return state_.core[static_cast<size_t>(i) * stride_ + t]; }

    // A row's right-hand side: D_p for a point's covering row, −D_q for a parity row at q (which says
    // nothing once q is a 1-point, and holds again when q is 0 again).
    double rhs_of(int r) const {
        if (r < kCutRow) return state_.rhs.test(r) ? 1.0 : 0.0;
        return state_.rhs.test(state_.cut_point[r - kCutRow]) ? -1.0 : 0.0;
    }
    // A row's coefficient on a move.
    double coefficient(int r, int index) const {
        const uint8_t* c = corner_table_[index].data();
        if (r < kCutRow) return (c[0] == r) + (c[1] == r) + (c[2] == r) + (c[3] == r);
        const int k = r - kCutRow;
        if (state_.cut_move[k] == index) return -1.0;
        const int q = state_.cut_point[k];
        return (c[0] == q) + (c[1] == q) + (c[2] == q) + (c[3] == q);
    }
    double basic_value(int index) const {
        const int i = state_.slot_of_move[index];
        return i < 0 ? 0.0 : value_[i];
    }
    // A row's activity under the basic solution: its left-hand side.
    double activity(int r) const {
        if (r < kCutRow) return cover_[r];
        const int k = r - kCutRow;
        return cover_[state_.cut_point[k]] - 2 * basic_value(state_.cut_move[k]);
    }

    // x_M = C D_T, each lattice point's coverage by the basic moves, and the objective Σ x_M.
    void compute_primal() {
        const State& s = state_;
        for (int t = 0; t < s.size; ++t) rhs_on_core_[t] = rhs_of(s.row_at[t]);
        objective_ = 0;
        std::fill(std::begin(cover_), std::end(cover_), 0.0);
        for (int i = 0; i < s.size; ++i) {
            const double* r = &s.core[static_cast<size_t>(i) * stride_];
            const double x = dot(r, rhs_on_core_, s.size);
            value_[i] = x;
            objective_ += x;
            for (uint8_t p : lattice_.moves[s.move_at[i]].corner) cover_[p] += x;
        }
    }

    // y_T = 1ᵀ C.
    void compute_duals() {
        const State& s = state_;
        std::fill(dual_, dual_ + s.size, 0.0);
        for (int i = 0; i < s.size; ++i) {
            const double* r = &s.core[static_cast<size_t>(i) * stride_];
            for (int t = 0; t < s.size; ++t) dual_[t] += r[t];
        }
    }

    // The leaving row of B⁻¹ on T for the surplus of row r: v = Σ_{basic m} A[r, m] C[m].
    void surplus_row(int r, double* v) const {
        const State& s = state_;
        std::fill(v, v + s.size, 0.0);
        auto add = [&](int i, double times) {
            const double* row_i = &s.core[static_cast<size_t>(i) * stride_];
            for (int t = 0; t < s.size; ++t) v[t] += times * row_i[t];
        };
        const int q = r < kCutRow ? r : s.cut_point[r - kCutRow];
        for (uint16_t index : lattice_.at[q]) {
            const int i = s.slot_of_move[index];
            if (i >= 0) add(i, 1.0);
        }
        if (r >= kCutRow) {
            const int i = s.slot_of_move[s.cut_move[r - kCutRow]];
            if (i >= 0) add(i, -2.0);
        }
    }

    // The basic variable furthest outside its bounds, by dual steepest edge (violation² over the
    // squared norm of its row of B⁻¹): a basic move below 0 (or above 0 when fixed), or the surplus of
    // a row off T below 0 — a 1-point the basic moves do not cover, or a parity row they break.
    struct Leaving {
        int slot = -1;    // a basic move's row slot, or
        int row = -1;     // a row whose surplus leaves
        bool rising = true;
    };
    Leaving most_infeasible() {
        const State& s = state_;
        Leaving leave;
        double worst = 0;
        for (int i = 0; i < s.size; ++i) {
            const double x = value_[i];
            const bool fixed = s.fixed[s.move_at[i]];
            double violation = fixed ? std::fabs(x) : -x;
            if (violation <= kFeasibilityTolerance) continue;
            const double* r = &s.core[static_cast<size_t>(i) * stride_];
            violation = violation * violation / dot(r, r, s.size);
            if (violation > worst) {
                worst = violation;
                leave = Leaving{i, -1, !(fixed && x > 0)};
            }
        }
        auto consider = [&](int r) {
            if (s.slot_of_row[r] >= 0) return;
            double violation = rhs_of(r) - activity(r);
            if (violation <= kFeasibilityTolerance) return;
            surplus_row(r, scratch_);
            violation = violation * violation / (1 + dot(scratch_, scratch_, s.size));
            if (violation > worst) {
                worst = violation;
                leave = Leaving{-1, r, true};
            }
        };
        for (int p = 0; p < kLatticePoints; ++p)
            if (!lattice_.at[p].empty()) consider(p);
        for (int k = 0; k < s.cuts; ++k) consider(kCutRow + k);
        return leave;
    }

    // Parity: a solution toggles every 0-point an even number of times, so a move used at a 0-point q
    // needs another at q:  Σ_{moves at q but m} x ≥ x_m. Adds the rows the basic solution breaks most.
    bool add_violated_parity_cuts() {
        State& s = state_;
        std::vector<Violation>& found = violations_;
        found.clear();
        for (int i = 0; i < s.size; ++i) {
            const double x = value_[i];
            if (x <= kFeasibilityTolerance) continue;
            for (uint8_t q : lattice_.moves[s.move_at[i]].corner) {
                if (s.rhs.test(q)) continue;
                const double by = 2 * x - cover_[q];
                if (by > 1e-6) found.push_back({by, q, s.move_at[i]});
            }
        }
        std::sort(found.begin(), found.end(), [](const Violation& a, const Violation& b) { return a.by > b.by; });
        int added = 0;
        for (const Violation& v : found) {
            if (added == kCutsPerRound || s.cuts == kMaxCuts) break;
            bool known = false;
            for (int k = 0; k < s.cuts && !known; ++k) known = s.cut_point[k] == v.q && s.cut_move[k] == v.m;
            if (known) continue;
            s.cut_point[s.cuts] = static_cast<uint8_t>(v.q);
            s.cut_move[s.cuts] = v.m;
            ++s.cuts;   // its surplus is basic, and negative: the next pivots see to it
            ++added;
        }
        return added > 0;
    }

    // One dual simplex pivot: α is the leaving row of B⁻¹ times each column that may enter; the entering
    // column keeps every reduced cost non-negative (the ratio test, in Harris's two passes for
    // stability); then C is updated for the kind of pivot.
    bool pivot(const Leaving& leave) {
        State& s = state_;
        compute_duals();
        double* basis_row = leave_row_;
        if (leave.slot >= 0) std::copy_n(row(leave.slot), s.size, basis_row);
        else surplus_row(leave.row, basis_row);
        // Per lattice point: the leaving row's and the duals' weight on every move with a corner there
        // (a point's own row, and the parity rows at it); the parity rows' moves get their −2 apart.
        std::fill(std::begin(row_at_point_), std::end(row_at_point_), 0.0);
        std::fill(std::begin(dual_at_point_), std::end(dual_at_point_), 0.0);
        fixed_moves_.clear();
        auto spread = [&](int r, double along, double dual) {
            if (r < kCutRow) {
                row_at_point_[r] += along;
                dual_at_point_[r] += dual;
                return;
            }
            const int k = r - kCutRow;
            row_at_point_[s.cut_point[k]] += along;
            dual_at_point_[s.cut_point[k]] += dual;
            alpha_fix_[s.cut_move[k]] -= 2 * along;
            dual_fix_[s.cut_move[k]] -= 2 * dual;
            fixed_moves_.push_back(s.cut_move[k]);
        };
        for (int t = 0; t < s.size; ++t) spread(s.row_at[t], basis_row[t], dual_[t]);
        if (leave.row >= 0) spread(leave.row, -1.0, 0.0);   // −A[r, ·] for a leaving surplus

        const double sign = leave.rising ? -1.0 : 1.0;
        int candidates = 0;
        double bound_ratio = std::numeric_limits<double>::infinity();
        for (int index = 0; index < moves_; ++index) {
            if (s.fixed[index] || s.slot_of_move[index] >= 0) continue;
            const uint8_t* c = corner_table_[index].data();
            const double a = sign * (row_at_point_[c[0]] + row_at_point_[c[1]] + row_at_point_[c[2]] +
                                     row_at_point_[c[3]] + alpha_fix_[index]);
            if (a <= kPivotTolerance) continue;
            const double reduced = std::max(0.0, 1.0 - (dual_at_point_[c[0]] + dual_at_point_[c[1]] +
                                                         dual_at_point_[c[2]] + dual_at_point_[c[3]] +
                                                         dual_fix_[index]));
            candidate_[candidates++] = Candidate{index, a, reduced};
            bound_ratio = std::min(bound_ratio, (reduced + kFeasibilityTolerance) / a);
        }
        for (uint16_t index : fixed_moves_) alpha_fix_[index] = dual_fix_[index] = 0;
        for (int t = 0; t < s.size; ++t) {
            const double a = -sign * basis_row[t];
            if (a <= kPivotTolerance) continue;
            const double reduced = std::max(0.0, dual_[t]);
            candidate_[candidates++] = Candidate{-1 - t, a, reduced};
            bound_ratio = std::min(bound_ratio, (reduced + kFeasibilityTolerance) / a);
        }
        int enter = 0;
        double largest = 0;
        for (int k = 0; k < candidates; ++k) {
            const Candidate& c = candidate_[k];
            if (c.alpha > largest && c.reduced / c.alpha <= bound_ratio) {
                largest = c.alpha;
                enter = c.column;
            }
        }
        if (largest == 0) return false;

        if (leave.slot >= 0 && enter >= 0) replace_move(leave.slot, enter);
        else if (leave.slot >= 0) drop_move_and_row(leave.slot, -1 - enter);
        else if (enter >= 0) add_move_and_row(enter, leave.row);
        else replace_row(-1 - enter, leave.row);
        return true;
    }

    // u = C h, h = the entering move's column on T.
    void core_times_move(int index, double* u) const {
        const State& s = state_;
        std::fill(u, u + s.size, 0.0);
        for (int t = 0; t < s.size; ++t) {
            const double a = coefficient(s.row_at[t], index);
            if (a == 0) continue;
            for (int i = 0; i < s.size; ++i) u[i] += a * at(i, t);
        }
    }

    // Move `index` replaces the basic move in slot i; T is unchanged.
    void replace_move(int i, int index) {
        State& s = state_;
        double* u = column_;
        core_times_move(index, u);
        double* pivot_row = row(i);
        const double inverse = 1.0 / u[i];
        for (int t = 0; t < s.size; ++t) pivot_row[t] *= inverse;
        for (int l = 0; l < s.size; ++l) {
            if (l == i || u[l] == 0) continue;
            double* r = row(l);
            for (int t = 0; t < s.size; ++t) r[t] -= u[l] * pivot_row[t];
        }
        s.slot_of_move[s.move_at[i]] = -1;
        s.move_at[i] = static_cast<uint16_t>(index);
        s.slot_of_move[index] = static_cast<int16_t>(i);
    }

    // The basic move in slot i leaves and the surplus of the tight row in slot t enters: G loses
    // column i and row t, and C' = C without row i and column t, less C[·,t] C[i,·] / C[i,t].
    void drop_move_and_row(int i, int t) {
        State& s = state_;
        const double pivot = at(i, t);
        const double* pivot_row = row(i);
        for (int l = 0; l < s.size; ++l) {
            if (l == i) continue;
            double* r = row(l);
            const double factor = r[t] / pivot;
            if (factor == 0) continue;
            for (int c = 0; c < s.size; ++c) r[c] -= factor * pivot_row[c];
        }
        // Fill the holes with the last row and column.
        const int last = s.size - 1;
        s.slot_of_move[s.move_at[i]] = -1;
        s.slot_of_row[s.row_at[t]] = -1;
        if (i != last) {
            std::copy_n(row(last), s.size, row(i));
            s.move_at[i] = s.move_at[last];
            s.slot_of_move[s.move_at[i]] = static_cast<int16_t>(i);
        }
        if (t != last) {
            for (int l = 0; l < last; ++l) row(l)[t] = row(l)[last];
            s.row_at[t] = s.row_at[last];
            s.slot_of_row[s.row_at[t]] = static_cast<int16_t>(t);
        }
        s.size = last;
    }

    // Move `index` enters and the surplus of row r leaves: G gains row r and column `index`. With h
    // the move's column on T, g row r over the basic moves, a = A[r, index] and σ = a − gᵀCh:
    // C' = [[C + (Ch)(gᵀC)/σ, −Ch/σ], [−gᵀC/σ, 1/σ]].
    void add_move_and_row(int index, int r) {
        State& s = state_;
        double* u = column_;           // C h
        core_times_move(index, u);
        double* v = leave_row_;        // gᵀC, already computed as the leaving row
        double g_u = 0;
        for (int l = 0; l < s.size; ++l) g_u += coefficient(r, s.move_at[l]) * u[l];
        const double sigma = coefficient(r, index) - g_u;
        const int k = s.size;
        for (int l = 0; l < k; ++l) {
            double* row_l = row(l);
            const double factor = u[l] / sigma;
            for (int t = 0; t < k; ++t) row_l[t] += factor * v[t];
            row_l[k] = -factor;
        }
        double* last = row(k);
        for (int t = 0; t < k; ++t) last[t] = -v[t] / sigma;
        last[k] = 1.0 / sigma;
        s.move_at[k] = static_cast<uint16_t>(index);
        s.slot_of_move[index] = static_cast<int16_t>(k);
        s.row_at[k] = static_cast<uint16_t>(r);
        s.slot_of_row[r] = static_cast<int16_t>(k);
        s.size = k + 1;
    }

    // The surplus of row r leaves and that of the tight row in slot t enters: row t of G becomes r's
    // row. With v = gᵀC (the leaving row), C' = C − C[·,t] (v − e_t)ᵀ / v_t.
    void replace_row(int t, int r) {
        State& s = state_;
        double* v = leave_row_;
        const double pivot = v[t];
        v[t] -= 1.0;
        for (int l = 0; l < s.size; ++l) {
            double* row_l = row(l);
            const double factor = row_l[t] / pivot;
            if (factor == 0) continue;
            for (int c = 0; c < s.size; ++c) row_l[c] -= factor * v[c];
        }
        s.slot_of_row[s.row_at[t]] = -1;
        s.row_at[t] = static_cast<uint16_t>(r);
        s.slot_of_row[r] = static_cast<int16_t>(t);
    }

    const Lattice& lattice_;
    const int moves_, stride_;
    State state_;
    double value_[kRows] = {}, cover_[kLatticePoints] = {}, dual_[kRows] = {};
    double leave_row_[kRows] = {}, column_[kRows] = {}, rhs_on_core_[kRows] = {}, scratch_[kRows] = {};
    double row_at_point_[kLatticePoints] = {}, dual_at_point_[kLatticePoints] = {};
    std::vector<double> alpha_fix_, dual_fix_;   // per move: the parity rows' −2 on their own move
    std::vector<uint16_t> fixed_moves_;
    std::vector<int64_t> exact_dual_, fix_exact_ = std::vector<int64_t>(kMaxMoves, 0);
    double objective_ = 0;
    struct Candidate {
        int column;       // a move's index, or −1 − t for the surplus of the tight row in slot t
        double alpha;     // its α, signed towards the leaving variable's bound
        double reduced;   // its reduced cost
    };
    std::vector<Candidate> candidate_;
    std::vector<std::array<uint8_t, 4>> corner_storage_;
    const std::array<uint8_t, 4>* corner_table_ = nullptr;
    struct Violation {
        double by;
        int q;
        uint16_t m;
    };
    std::vector<Violation> violations_;
};

// ───────────────────────────── transposition ─────────────────────────────
//
// For each difference state, the largest remaining budget that already failed from it. One 64-bit word an
// entry (58-bit fingerprint, 6-bit budget) so plain atomic loads and stores stay consistent without locks;
// two slots a bucket, the first kept for the larger budget, the second always replaced. A lost or
// overwritten entry only costs a re-search, never a wrong answer; entries are written only for subtrees
// that were searched to the end (see Search::dfs).

uint64_t splitmix64(uint64_t x) {
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

uint64_t hash_of(const Bits& d) {
    return splitmix64(d.w[0] ^ splitmix64(d.w[1] ^ splitmix64(d.w[2] ^ splitmix64(d.w[3]))));
}

class TranspositionTable {
public:
    // The table starts small and grows between bound iterations (when no thread is using it) as the
    // search proves big enough to need it, up to `max_log2_buckets`. A 256 MB table costs about 0.15 s
    // of page faults before it is any use, which would dominate the many boards solved in a few
    // thousand nodes.
    TranspositionTable(int initial_log2_buckets, int max_log2_buckets) : max_log2_(max_log2_buckets) {
        allocate(std::min(initial_log2_buckets, max_log2_buckets));
    }
    ~TranspositionTable() { munmap(slots_, bytes_); }
    TranspositionTable(const TranspositionTable&) = delete;
    TranspositionTable& operator=(const TranspositionTable&) = delete;

    size_t buckets() const { return mask_ + 1; }

    // Not thread-safe: only between iterations. Entries move to the bigger table; none is lost.
    void grow_for(uint64_t expected_entries) {
        int log2 = log2_;
        while (log2 < max_log2_ && (size_t{1} << log2) < expected_entries) ++log2;
        if (log2 == log2_) return;
        std::atomic<uint64_t>* old_slots = slots_;
        const size_t old_buckets = buckets(), old_bytes = bytes_;
        allocate(log2);
        for (size_t b = 0; b < old_buckets; ++b)
            for (int s = 1; s >= 0; --s) {
                const uint64_t e = old_slots[b * 2 + s].load(std::memory_order_relaxed);
                // The fingerprint holds the hash above its low kBudgetBits bits, and the old bucket
                // index those (tables have at least 2^kBudgetBits buckets), so the whole hash is recovered.
                if (e) record_failure((fingerprint_of(e) << kBudgetBits) | (b & kBudgetMask), budget_of(e));
            }
        munmap(old_slots, old_bytes);
    }

    int failed_budget(uint64_t hash) const {
        const std::atomic<uint64_t>* bucket = slots_ + (hash & mask_) * 2;
        const uint64_t fingerprint = hash >> kBudgetBits;
        for (int s = 0; s < 2; ++s) {
            const uint64_t e = bucket[s].load(std::memory_order_relaxed);
            if (e && fingerprint_of(e) == fingerprint) return budget_of(e);
        }
        return -1;
    }

    void record_failure(uint64_t hash, int budget) {
        if (budget < 1 || budget > kMaxStoredBudget) return;
        std::atomic<uint64_t>* bucket = slots_ + (hash & mask_) * 2;
        const uint64_t fingerprint = hash >> kBudgetBits, entry = pack(fingerprint, budget);
        const uint64_t kept = bucket[0].load(std::memory_order_relaxed);
        if (!kept || fingerprint_of(kept) == fingerprint || budget_of(kept) <= budget) {
            if (kept && fingerprint_of(kept) != fingerprint) bucket[1].store(kept, std::memory_order_relaxed);
            bucket[0].store(entry, std::memory_order_relaxed);
        } else {
            bucket[1].store(entry, std::memory_order_relaxed);
        }
    }

private:
    // An entry: the state's fingerprint (its hash without the low kBudgetBits bits) above the budget.
    static constexpr int kBudgetBits = 6;
    static constexpr uint64_t kBudgetMask = (uint64_t{1} << kBudgetBits) - 1;
    static_assert(kMaxStoredBudget <= static_cast<int>(kBudgetMask), "a stored budget must fit its bits");
    static uint64_t pack(uint64_t fingerprint, int budget) {
        return (fingerprint << kBudgetBits) | static_cast<uint64_t>(budget);
    }
    static uint64_t fingerprint_of(uint64_t entry) { return entry >> kBudgetBits; }
    static int budget_of(uint64_t entry) { return static_cast<int>(entry & kBudgetMask); }

    void allocate(int log2) {
        log2_ = log2;
        mask_ = (size_t{1} << log2) - 1;
        bytes_ = buckets() * 2 * sizeof(uint64_t);
        // Fresh anonymous pages are zero (an empty table) and paid for only when touched. Entries land
        // at random, so with 4 KiB pages a search faults in nearly every page; huge pages cut those
        // faults 512-fold.
        void* memory = mmap(nullptr, bytes_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (memory == MAP_FAILED) reject("cannot allocate the transposition table");
        madvise(memory, bytes_, MADV_HUGEPAGE);
        slots_ = static_cast<std::atomic<uint64_t>*>(memory);
    }

    int log2_ = 0, max_log2_ = 0;
    size_t mask_ = 0, bytes_ = 0;
    std::atomic<uint64_t>* slots_ = nullptr;
};

// ───────────────────────────── search ─────────────────────────────

struct Switches {
    // Off unless asked for: sibling exclusion already removes nearly every transposition, so on the
    // weekly levels the table prunes 1-4% of nodes while its cache misses cost 1.5-2x the time
    // (bench/switches.py; README, "What each technique is worth").
    bool tt = false;         // transposition table
    bool exclusion = true;   // a branch forbids the sibling moves tried before it
    bool ordering = true;    // try moves clearing more 1-points first
    bool pair_bound = true;  // ceil(sum of row costs / 2), ceil(sum of column costs / 2)
    bool line_bound = true;  // adjacent lines' costs add up
    bool cover_bound = true; // the covering LP's weighting of the 1-points, solved at the root
    bool fewest_branches = true;  // branch at the 1-point with the fewest available moves
    bool symmetry = true;    // a branch whose move is an image of an earlier one's is not searched
    int tt_min_budget = 3;   // the table is consulted only this far from the leaves
    int parity_rounds = 6;   // rounds of parity rows cutting a node's LP (0: none)
    int lp_after = 2000;     // the covering LP is solved again at a node once its subtree has taken
                             // this many nodes (0: at the root only)
};

// A piece of one bound's search: from a root, the node reached by `path`, with `excluded` forbidden,
// searching either the whole node (`moves` empty) or just the branches for `moves` there.
struct Task {
    int root = 0;
    std::vector<uint16_t> path, excluded, moves;
    SymmetryGroup group = kTrivialGroup;   // the symmetries the node's subproblem is invariant under
};

// State shared by the workers of one search: stop flags, the winning line, node counts for budgets, and
// the queue through which busy workers hand part of their subtree to idle ones.
struct Shared {
    std::atomic<bool> found{false};
    std::atomic<bool> aborted{false};   // budget ran out
    std::atomic<uint64_t> nodes{0};
    std::mutex mutex;
    std::vector<uint16_t> solution;
    int solution_target = -1;

    std::mutex queue_mutex;
    std::condition_variable queue_ready;
    std::deque<Task> queue;
    int idle = 0;                        // workers waiting for a task (under queue_mutex)
    std::atomic<bool> hungry{false};     // some worker waits and the queue is empty

    // Enumerating every optimal solution: each one reached is recorded and the search goes on.
    bool enumerating = false;
    bool listing = false;                // keep the solutions, not just their count
    uint64_t max_solutions = 0;          // 0: no limit
    uint64_t solution_count = 0;         // under mutex
    std::vector<std::vector<uint16_t>> solutions;
    std::atomic<bool> limited{false};    // max_solutions reached: there may be more

    bool stopping() const {
        return found.load(std::memory_order_relaxed) || aborted.load(std::memory_order_relaxed) ||
               limited.load(std::memory_order_relaxed);
    }

    void record_solution(const std::vector<uint16_t>& path) {
        std::lock_guard<std::mutex> lock(mutex);
        if (limited) return;
        ++solution_count;
        if (listing) solutions.push_back(path);
        if (max_solutions && solution_count >= max_solutions) limited = true;
    }
};

class Search {
public:
    Search(const Lattice& lattice, const LineCosts& costs, TranspositionTable* tt, const Switches& sw,
           Shared& shared)
        : lattice_(lattice), tt_(tt), sw_(sw), shared_(shared),
          moves_(lattice.moves.data()) {
        std::copy(costs.of_row.begin(), costs.of_row.end(), row_line_cost_);
        std::copy(costs.of_column.begin(), costs.of_column.end(), column_line_cost_);
    }

    void reset(int root, const Bits& d, const CoverWeights& weights, const CoverLp::State* lp_state) {
        root_ = root;
        base_depth_ = 0;
        d_ = d;
        weight_ = weights;
        if (lp_state) {
            if (!lp_) lp_ = std::make_unique<CoverLp>(lattice_);
            lp_->restore(*lp_state);
        }
        cover_sum_ = weight_.sum(d);
        row_sum_ = col_sum_ = 0;
        std::fill(std::begin(row_mask_), std::end(row_mask_), 0);
        std::fill(std::begin(col_mask_), std::end(col_mask_), 0);
        std::fill(std::begin(row_cost_), std::end(row_cost_), 0);
        std::fill(std::begin(col_cost_), std::end(col_cost_), 0);
        for (int i = 0; i <= lattice_.h; ++i)
            for (int j = 0; j <= lattice_.w; ++j)
                if (d.test(point(i, j))) {
                    row_mask_[i] |= static_cast<uint16_t>(1u << j);
                    col_mask_[j] |= static_cast<uint16_t>(1u << i);
                }
        for (int i = 0; i <= lattice_.h; ++i) {
            row_cost_[i] = row_line_cost_[i][row_mask_[i]];
            row_sum_ += row_cost_[i];
        }
        for (int j = 0; j <= lattice_.w; ++j) {
            col_cost_[j] = column_line_cost_[j][col_mask_[j]];
            col_sum_ += col_cost_[j];
        }
        path_.clear();
        std::fill(std::begin(blocked_), std::end(blocked_), 0);
        for (int q = 0; q < kLatticePoints; ++q) available_[q] = static_cast<uint8_t>(lattice_.at[q].size());
    }

    // A blocked move is on the path or forbidden by an earlier sibling; available_[q] counts the moves
    // with a corner at q that are not (refuted siblings aside: see dfs). It only steers the choice of
    // branch point, so an overcount costs speed, never correctness.
    void block(uint16_t index) {
        blocked_[index] = 1;
        for (uint8_t q : moves_[index].corner) --available_[q];
    }
    void unblock(uint16_t index) {
        blocked_[index] = 0;
        for (uint8_t q : moves_[index].corner) ++available_[q];
    }

    // Every solution toggles each 1-point an odd number of times, so it uses at least one available move
    // at any 1-point we pick. The point with the fewest available moves gives the fewest branches (one
    // is a forced move, none a dead end), as in exact-cover search; without the switch, the first point.
    int branch_point() const {
        if (!sw_.fewest_branches) return d_.lowest();
        int best = -1, fewest = kUnbounded;
        for (int word = 0; word < 4; ++word)
            for (uint64_t bits = d_.w[word]; bits; bits &= bits - 1) {
                const int q = word * 64 + __builtin_ctzll(bits);
                if (available_[q] < fewest) {
                    fewest = available_[q];
                    best = q;
                    if (fewest <= 1) return best;
                }
            }
        return best;
    }

    // A lower bound on the moves still needed; stops early once it exceeds `budget`.
    int bound(int budget) const {
        int h = d_.empty() ? 0 : 1;
        if (sw_.pair_bound) h = std::max({h, (row_sum_ + 1) / 2, (col_sum_ + 1) / 2});
        if (sw_.cover_bound) h = std::max(h, CoverWeights::moves_for(cover_sum_));
        // A move's two rows are k ≥ 2 apart, so no move serves two adjacent rows: their costs add up.
        // (The same holds for columns; it subsumes the largest single line cost.)
        if (sw_.line_bound)
            for (int i = 0; i < std::max(lattice_.h, lattice_.w) && h <= budget; ++i)   // 0 past the edge
                h = std::max({h, row_cost_[i] + row_cost_[i + 1], col_cost_[i] + col_cost_[i + 1]});
        return h;
    }

    // The pair bound of the position after `index`, from the four lines it changes, without making
    // the move: most children fail it, and turning them away here is much cheaper than entering them.
    int pair_bound_after(uint16_t index) const {
        const Move& m = moves_[index];
        int rows = row_sum_, columns = col_sum_;
        for (int i : {int(m.row), m.row + m.size})
            rows += row_line_cost_[i][row_mask_[i] ^ m.row_pair] - row_cost_[i];
        for (int j : {int(m.col), m.col + m.size})
            columns += column_line_cost_[j][col_mask_[j] ^ m.column_pair] - col_cost_[j];
        return std::max((rows + 1) / 2, (columns + 1) / 2);
    }

    // The covering bound of the position after `index`: the move's 1-corners lose their weight, its
    // 0-corners gain theirs.
    int64_t cover_sum_after(uint16_t index) const {
        int64_t sum = cover_sum_;
        for (uint8_t p : moves_[index].corner) sum += d_.test(p) ? -weight_.of[p] : weight_.of[p];
        return sum;
    }
    int cover_bound_after(uint16_t index) const { return CoverWeights::moves_for(cover_sum_after(index)); }

    void apply(uint16_t index) {
        const Move& m = moves_[index];
        d_ ^= m.bits;
        for (uint8_t p : m.corner) cover_sum_ += d_.test(p) ? weight_.of[p] : -weight_.of[p];
        for (int i : {int(m.row), m.row + m.size}) {
            row_mask_[i] ^= m.row_pair;
            const int cost = row_line_cost_[i][row_mask_[i]];
            row_sum_ += cost - row_cost_[i];
            row_cost_[i] = static_cast<uint8_t>(cost);
        }
        for (int j : {int(m.col), m.col + m.size}) {
            col_mask_[j] ^= m.column_pair;
            const int cost = column_line_cost_[j][col_mask_[j]];
            col_sum_ += cost - col_cost_[j];
            col_cost_[j] = static_cast<uint8_t>(cost);
        }
    }

    // Forbid a move for a whole search: the root split excludes a branch's earlier siblings this way.
    void exclude(uint16_t index) { block(index); }

    // Enter a move for good before a search: the root split applies its branch move this way.
    void push(uint16_t index) {
        apply(index);
        block(index);
        path_.push_back(index);
    }

    // The available moves with a corner at p, split by the pair bound of the position they lead to:
    // `refuted` cannot finish within budget - 1 more moves, `viable` can still be searched, the ones
    // clearing more 1-points first. Deciding a child from the four lines its move changes, without
    // making the move, is far cheaper than entering it.
    struct Branches {
        uint16_t viable[kMaxMovesPerPoint], refuted[kMaxMovesPerPoint];
        int viable_count = 0, refuted_count = 0;
    };
    // The expand loops on the stack, from the task's node down: what a worker can hand to another.
    struct Frame {
        Branches next;
        int current = 0, end = 0;
        SymmetryGroup group = kTrivialGroup;
        std::vector<uint16_t> excluded;   // what this loop has blocked: tried moves and their orbits
    };

    void branches(int p, int budget, Branches& out) const {
        uint16_t by_gain[5][kMaxMovesPerPoint];
        int filled[5] = {0, 0, 0, 0, 0};
        for (uint16_t index : lattice_.at[p]) {
            if (blocked_[index]) continue;
            if ((sw_.pair_bound && pair_bound_after(index) > budget - 1) ||
                (sw_.cover_bound && cover_bound_after(index) > budget - 1)) {
                out.refuted[out.refuted_count++] = index;
                continue;
            }
            const Move& m = moves_[index];
            const int gain = sw_.ordering ? d_.test(m.corner[0]) + d_.test(m.corner[1]) +
                                                d_.test(m.corner[2]) + d_.test(m.corner[3])
                                          : 1;
            by_gain[gain][filled[gain]++] = index;
        }
        for (int gain = 4; gain >= 1; --gain)
            for (int k = 0; k < filled[gain]; ++k) out.viable[out.viable_count++] = by_gain[gain][k];
    }

    // True when a solution within `budget` more moves was found (it is then in path()). A subtree cut
    // short because another thread won or the budget ran out proves nothing, so it is never recorded.
    // Search the node a task names, within `budget` moves of the iteration's bound: its own branches
    // are `moves` when the task gives them, else the node's.
    bool run(const Task& task, int bound) {
        for (uint16_t index : task.excluded)
            if (!blocked_[index]) block(index);
        for (uint16_t index : task.path) push(index);
        bound_ = bound;
        base_depth_ = path_.size();
        task_excluded_ = &task.excluded;
        const int budget = bound - static_cast<int>(path_.size());
        // A frame for each depth this task can reach, added as bounds grow rather than for the longest
        // conceivable solution up front: an easy board's search then touches a few pages, not 300 KB.
        if (frames_.size() <= static_cast<size_t>(budget)) frames_.resize(budget + 1);
        if (task.moves.empty()) return dfs(budget, task.group);
        if (++local_nodes_ % kNodeBatch == 0) publish_nodes();
        Branches given;
        for (uint16_t index : task.moves) given.viable[given.viable_count++] = index;
        // Weights from the LP of this very node: the root's say little this deep.
        if (sw_.cover_bound && solve_lp_here(budget) > budget) return false;
        return CoverWeights::moves_for(cover_sum_) <= budget && expand(budget, &given, task.group);
    }

    // True when a solution within `budget` more moves was found (it is then in path()); `group` holds
    // the symmetries this node's subproblem is invariant under. A subtree cut short because another
    // thread won or the budget ran out proves nothing, so it is never recorded.
    bool dfs(int budget, SymmetryGroup group) {
        if (++local_nodes_ % kNodeBatch == 0) {
            publish_nodes();
            if (shared_.hungry.load(std::memory_order_relaxed)) share_work();
        }
        if (d_.empty()) {
            // Exclusion splits the solutions among the branches, so each set of moves arrives here once.
            if (!shared_.enumerating) return true;
            shared_.record_solution(path_);
            return false;
        }
        if (bound(budget) > budget) return false;
        return expand(budget, nullptr, group);
    }

    // The covering LP of this node for the moves still allowed, warm from the last one solved above;
    // its weights replace the inherited ones where they prove more. The caller restores lp_ from
    // saved_[depth] when it leaves the node.
    // Returns the fewest moves this node's LP proves (with its parity rows, which the weights cannot
    // carry below it).
    int solve_lp_here(int budget) {
        const size_t depth = path_.size();
        if (saved_.size() <= depth) saved_.resize(depth + 1);
        lp_->save(saved_[depth]);
        lp_->set_position(d_, blocked_);
        lp_->solve(budget, 0);
        lp_->weights(fresh_);
        int proven = lp_->proven_moves();
        if (sw_.parity_rounds && proven <= budget && lp_->value() > budget - kParityReach) {
            // The parity rows only for this node's bound: the point weights and the state the
            // children start from stay those of the covering LP alone, whose weights carry further.
            // They raise the bound by about one move, so they are tried only where that can refute.
            if (covering_.size() <= depth) covering_.resize(depth + 1);
            lp_->save(covering_[depth]);
            lp_->solve(budget, sw_.parity_rounds);
            proven = std::max(proven, lp_->proven_moves());
            lp_->restore(covering_[depth]);
        }
        const int64_t fresh_sum = fresh_.sum(d_);
        if (fresh_sum > cover_sum_) {
            weight_ = fresh_;
            cover_sum_ = fresh_sum;
        }
        return std::max(proven, CoverWeights::moves_for(cover_sum_));
    }

    // Branch on the moves at one 1-point. With exclusion each branch forbids the moves tried before it,
    // since any solution using one of them was already looked for in that branch; refuted moves count as
    // tried first, their branches being empty. Under a symmetry group G of the subproblem (orbital
    // branching), a failed branch forbids its move's whole G-orbit: a solution using an image g(m) maps by
    // g⁻¹ to one using m, already looked for. A branch's own subproblem keeps the symmetries fixing its
    // move.
    bool expand(int budget, const Branches* given, SymmetryGroup group) {
        const bool use_tt = sw_.tt && budget >= sw_.tt_min_budget;
        const uint64_t hash = use_tt ? hash_of(d_) : 0;
        if (use_tt && tt_->failed_budget(hash) >= budget) return false;

        Frame& frame = frames_[path_.size() - base_depth_];
        Branches& next = frame.next;
        next = Branches{};
        if (given) next = *given;
        else branches(branch_point(), budget, next);
        frame.end = next.viable_count;
        frame.group = group;
        frame.excluded.clear();

        // (Refuted moves only get the flag: leaving them in available_ costs the branch-point choice
        // 0.7% more nodes and saves 6% of the instructions.)
        if (sw_.exclusion)
            for (int k = 0; k < next.refuted_count; ++k) blocked_[next.refuted[k]] = 1;
        bool solved = false;
        int& tried = frame.current;
        const uint64_t nodes_at_start = local_nodes_;
        bool lp_here = false;
        const CoverWeights inherited = weight_;
        const int64_t inherited_sum = cover_sum_;
        const size_t depth = path_.size();
        for (tried = 0; tried < frame.end; ++tried) {
            const uint16_t index = next.viable[tried];
            if (blocked_[index]) continue;   // in the orbit of a branch tried before
            if (sw_.cover_bound && sw_.lp_after && !lp_here &&
                local_nodes_ - nodes_at_start > static_cast<uint64_t>(sw_.lp_after)) {
                // This subtree has proved big: the covering LP for the children still to come (the ones
                // tried already are excluded, so it is tighter than at entry) is now worth its cost.
                lp_here = true;
                if (solve_lp_here(budget) > budget) break;
            }
            if (lp_here && cover_bound_after(index) > budget - 1) {
                if (sw_.exclusion) exclude_here(frame, index);
                continue;
            }
            apply(index);
            block(index);
            path_.push_back(index);
            solved = dfs(budget - 1, group & lattice_.stabiliser[index]);
            if (solved) break;
            path_.pop_back();
            apply(index);
            if (sw_.exclusion) {
                frame.excluded.push_back(index);   // blocked already, as a path move
                exclude_orbit(frame, index, group);
            } else {
                unblock(index);
            }
            if (shared_.stopping()) break;
        }
        if (lp_here) {
            lp_->restore(saved_[depth]);
            weight_ = inherited;
            cover_sum_ = inherited_sum;
        }
        if (sw_.exclusion) {
            for (uint16_t index : frame.excluded) unblock(index);
            for (int k = 0; k < next.refuted_count; ++k) blocked_[next.refuted[k]] = 0;
        }
        if (!solved && !shared_.stopping() && use_tt) tt_->record_failure(hash, budget);
        return solved;
    }

    void exclude_here(Frame& frame, uint16_t index) {
        block(index);
        frame.excluded.push_back(index);
    }

    void exclude_orbit(Frame& frame, uint16_t index, SymmetryGroup group) {
        if (group == kTrivialGroup || !sw_.symmetry) return;
        for (int g = 1; g < kSymmetries; ++g) {
            if (!(group >> g & 1)) continue;
            const uint16_t image = lattice_.move_image[g][index];
            if (!blocked_[image]) exclude_here(frame, image);
        }
    }

    // An idle worker waits: hand it the untried branches of the shallowest loop that has some (the
    // biggest piece of work there is, most likely), and stop that loop after its current branch.
    // With exclusion each handed branch forbids all the siblings before it, as it would here, except
    // under the table the one still running (see Driver): an entry written under an exclusion is only
    // sound once the excluded branch has finished.
    void share_work() {
        std::lock_guard<std::mutex> lock(shared_.queue_mutex);
        if (!shared_.queue.empty() || shared_.idle == 0) return;
        const size_t active = path_.size() - base_depth_;
        size_t f = 0;
        while (f < active && frames_[f].current + 1 >= frames_[f].end) ++f;
        if (f == active) return;
        Task task;
        task.root = root_;
        task.path.assign(path_.begin(), path_.begin() + static_cast<long>(base_depth_ + f));
        Frame& frame = frames_[f];
        task.group = frame.group;
        if (sw_.exclusion) {
            task.excluded = *task_excluded_;
            for (size_t g = 0; g <= f; ++g) {
                const Frame& above = frames_[g];
                task.excluded.insert(task.excluded.end(), above.next.refuted, above.next.refuted + above.next.refuted_count);
                task.excluded.insert(task.excluded.end(), above.excluded.begin(), above.excluded.end());
            }
            if (!sw_.tt) {
                const uint16_t running = frame.next.viable[frame.current];
                task.excluded.push_back(running);
                if (sw_.symmetry)
                    for (int g = 1; g < kSymmetries; ++g)
                        if (frame.group >> g & 1) task.excluded.push_back(lattice_.move_image[g][running]);
            }
        }
        task.moves.assign(frame.next.viable + frame.current + 1, frame.next.viable + frame.end);
        frame.end = frame.current + 1;
        shared_.queue.push_back(std::move(task));
        shared_.hungry = false;
        shared_.queue_ready.notify_one();
    }

    void publish_nodes() {
        shared_.nodes.fetch_add(local_nodes_ - published_nodes_, std::memory_order_relaxed);
        published_nodes_ = local_nodes_;
    }

    const std::vector<uint16_t>& path() const { return path_; }

private:
    const Lattice& lattice_;
    TranspositionTable* tt_;
    const Switches& sw_;
    Shared& shared_;

    Bits d_;
    // The lattice's rows and columns as line masks (bit j of row i is point (i, j); bit i of column j
    // too), kept beside d_ because the line costs are looked up by them on every move.
    uint16_t row_mask_[kStride] = {}, col_mask_[kStride] = {};
    uint8_t row_cost_[kStride] = {}, col_cost_[kStride] = {};
    int row_sum_ = 0, col_sum_ = 0;
    CoverWeights weight_;
    int64_t cover_sum_ = 0;   // Σ weight_ over the 1-points of d_
    std::unique_ptr<CoverLp> lp_;          // the covering LP at the deepest LP node above
    std::vector<CoverLp::State> saved_;    // its state on entry to each LP node, by depth
    std::vector<CoverLp::State> covering_; // a node's covering LP while parity rows are tried on it
    CoverWeights fresh_;

    std::vector<Frame> frames_;
    size_t base_depth_ = 0;                         // path length at the task's node
    int root_ = 0, bound_ = 0;
    const std::vector<uint16_t>* task_excluded_ = nullptr;
    // Hot-path copies of the lattice's moves and the line cost tables, one indirection closer.
    const Move* moves_;
    const uint8_t* row_line_cost_[kStride] = {};
    const uint8_t* column_line_cost_[kStride] = {};
    uint8_t blocked_[kMaxMoves] = {};   // per move: on the path, or forbidden by an earlier sibling
    uint8_t available_[kLatticePoints] = {};
    std::vector<uint16_t> path_;
    uint64_t local_nodes_ = 0, published_nodes_ = 0;
};

// ───────────────────────────── driver ─────────────────────────────

struct Options {
    std::string file;            // empty: standard input
    int target = 0;              // 0, 1, or kEither
    int threads = 0;             // 0: all logical cores
    double max_seconds = 0;      // 0: no limit
    uint64_t max_nodes = 0;      // 0: no limit
    bool quiet = false;
    bool lower_bound_only = false;   // report the root's bound, no search
    bool enumerate = false;          // every optimal solution: --all-solutions, --count, --max-solutions
    bool list_solutions = false;     // print them, not just their count
    uint64_t max_solutions = 0;
    Switches sw;
};
constexpr int kEither = 2;

struct Outcome {
    ExitCode code = kUnsolvable;
    int target = 0;              // the target the answer is about
    std::vector<uint16_t> moves;
    int lower_bound = 0;         // with kStopped or bound_only: no solution has fewer moves
    bool bound_only = false;     // --lower-bound: lower_bound is the answer
    bool enumerated = false;     // every optimal solution was looked for
    uint64_t solution_count = 0;
    bool incomplete = false;     // --max-solutions stopped the enumeration: there may be more
    std::vector<std::vector<uint16_t>> solutions;
    uint64_t nodes = 0;
    double seconds = 0;
};

using Clock = std::chrono::steady_clock;

class Driver {
public:
    Driver(const Board& board, const Options& options)
        : options_(options), lattice_(static_cast<int>(board.size()), static_cast<int>(board[0].size())),
          costs_(lattice_.h, lattice_.w) {
        if (options.sw.tt)
            tt_.emplace(kInitialTableLog2,
                        std::max(lattice_.h, lattice_.w) >= kLargeTableFromSize ? kLargeTableLog2 : kSmallTableLog2);
        const bool both = options.target == kEither;
        for (int target : {0, 1})
            if (both || options.target == target) {
                Root root;
                root.target = target;
                root.d = lattice_.difference(board, target);
                root.solvable = solvable(lattice_, root.d);
                // Symmetry breaking and the table do not mix: an entry written under an orbit's
                // exclusion would be reused where that orbit was never searched.
                if (options.sw.symmetry && options.sw.exclusion && !options.sw.tt)
                    root.group = lattice_.symmetries_of(root.d);
                if (root.solvable && options.sw.cover_bound) {
                    CoverLp lp(lattice_);
                    lp.start_cold(root.d);
                    lp.solve(kUnbounded);
                    lp.weights(root.weights);
                    lp.save(root.lp);
                    // The parity rows tighten the root's bound; the search starts from the covering
                    // LP alone, whose weights carry further.
                    lp.solve(kUnbounded, options.sw.parity_rounds);
                    root.lp_bound = lp.proven_moves();
                }
                roots_.push_back(root);
            }
        threads_ = options.threads > 0 ? options.threads
                                       : std::max(1u, std::thread::hardware_concurrency());
    }

    Outcome run() {
        start_ = Clock::now();
        Outcome out;
        out.target = roots_.front().target;

        std::vector<Root*> live;
        for (Root& root : roots_)
            if (root.solvable) live.push_back(&root);
        out.enumerated = options_.enumerate;
        if (live.empty()) return finish(out);
        live_ = live;

        // Every bound below the roots' own lower bound fails without search.
        Search probe(lattice_, costs_, table(), options_.sw, shared_);
        int bound = kUnbounded;
        for (Root* root : live) {
            probe.reset(0, root->d, root->weights, nullptr);
            root->h = std::max(probe.bound(kUnbounded), root->lp_bound);
            if (root->h < bound) {
                bound = root->h;
                out.target = root->target;
            }
        }
        if (options_.lower_bound_only) {
            out.code = kSolved;
            out.bound_only = true;
            out.lower_bound = bound;
            return finish(out);
        }
        if (bound == 0) {   // already solved: the empty set is the one solution
            out.code = kSolved;
            if (options_.enumerate) {
                out.enumerated = true;
                out.solution_count = 1;
                if (options_.list_solutions) out.solutions.emplace_back();
            }
            return finish(out);
        }

        for (uint64_t nodes_before = 0;; ++bound) {
            run_bound(bound, all_live(), options_.sw);
            // Size the table to the work: an entry for each node of the bound just searched.
            const uint64_t nodes = shared_.nodes.load();
            if (tt_) tt_->grow_for(nodes - nodes_before);
            nodes_before = nodes;
            if (shared_.found) {
                out.code = kSolved;
                out.moves = shared_.solution;
                out.target = shared_.solution_target;
                if (options_.enumerate) enumerate(bound, out);
                return finish(out);
            }
            if (shared_.aborted) {
                out.code = kStopped;
                out.lower_bound = bound;
                return finish(out);
            }
            if (!options_.quiet)
                std::fprintf(stderr, "bound %d exhausted, nodes=%llu\n", bound,
                             static_cast<unsigned long long>(shared_.nodes.load()));
        }
    }

private:
    // Every optimal solution, at the optimum `bound`: the search again at that bound, each solution
    // recorded as it is reached. Exclusion stays on (it is what makes each set arrive once); symmetry
    // breaking and the table, which keep one solution of many, are off. With both targets the
    // answer is about target 0 when it reaches the optimum, else target 1.
    void enumerate(int bound, Outcome& out) {
        Switches sw = options_.sw;
        sw.exclusion = true;
        sw.symmetry = false;
        sw.tt = false;
        shared_.found = false;
        shared_.enumerating = true;
        shared_.listing = options_.list_solutions;
        shared_.max_solutions = options_.max_solutions;
        for (size_t r = 0; r < live_.size(); ++r) {
            if (live_[r]->h > bound) continue;
            run_bound(bound, {static_cast<int>(r)}, sw);
            if (shared_.aborted) {
                out.code = kStopped;
                out.lower_bound = bound;
                return;
            }
            if (shared_.solution_count > 0) {
                out.target = live_[r]->target;
                break;
            }
        }
        out.solution_count = shared_.solution_count;
        out.incomplete = shared_.limited;
        out.solutions = shared_.solutions;
    }

    std::vector<int> all_live() const {
        std::vector<int> all(live_.size());
        for (size_t r = 0; r < live_.size(); ++r) all[r] = static_cast<int>(r);
        return all;
    }

    struct Root {
        int target = 0;
        Bits d;
        bool solvable = false;
        int h = 0;
        CoverWeights weights;   // all zero without the covering bound
        CoverLp::State lp;      // the covering LP solved at the root
        SymmetryGroup group = kTrivialGroup;   // the symmetries of d the search may break
        int lp_bound = 0;       // the fewest moves the root's LP proves, parity rows included
    };

    // One bound's search: a task per root that can still make it, on a queue the workers take from;
    // whenever one waits, a busy one hands it the untried branches of its shallowest loop (see
    // Search::share_work), until every worker waits and the queue is empty, or a solution or a budget
    // stops them.
    void run_bound(int bound, const std::vector<int>& roots, const Switches& sw) {
        shared_.queue.clear();
        for (int r : roots)
            if (live_[r]->h <= bound)
                shared_.queue.push_back(Task{r, {}, {}, {}, sw.symmetry ? live_[r]->group : kTrivialGroup});
        shared_.idle = 0;
        shared_.hungry = false;
        const int count = threads_;
        std::atomic<int> running{0};
        std::mutex done_mutex;
        std::condition_variable done;

        auto worker = [&]() {
            Search search(lattice_, costs_, table(), sw, shared_);
            for (;;) {
                Task task;
                {
                    std::unique_lock<std::mutex> lock(shared_.queue_mutex);
                    ++shared_.idle;
                    bool finished = false;
                    while (shared_.queue.empty()) {
                        if (shared_.idle == count || shared_.stopping()) {
                            finished = true;
                            break;
                        }
                        shared_.hungry = true;
                        shared_.queue_ready.wait_for(lock, std::chrono::milliseconds(5));
                    }
                    if (finished) {
                        shared_.queue_ready.notify_all();
                        break;
                    }
                    task = std::move(shared_.queue.front());
                    shared_.queue.pop_front();
                    --shared_.idle;
                }
                if (shared_.stopping()) continue;
                const Root& root = *live_[task.root];
                search.reset(task.root, root.d, root.weights, options_.sw.cover_bound ? &root.lp : nullptr);
                if (search.run(task, bound) && !shared_.found.exchange(true)) {
                    std::lock_guard<std::mutex> lock(shared_.mutex);
                    shared_.solution = search.path();
                    shared_.solution_target = root.target;
                }
            }
            search.publish_nodes();
            std::lock_guard<std::mutex> lock(done_mutex);
            --running;
            done.notify_all();
        };

        running = count;
        std::vector<std::thread> pool;
        for (int t = 0; t < count; ++t) pool.emplace_back(worker);

        // The main thread watches: budgets, and a progress line about once a second.
        auto last_report = Clock::now();
        {
            std::unique_lock<std::mutex> lock(done_mutex);
            while (running > 0) {
                done.wait_for(lock, std::chrono::milliseconds(20));
                const auto now = Clock::now();
                if ((options_.max_seconds > 0 && seconds_since(start_) >= options_.max_seconds) ||
                    (options_.max_nodes > 0 && shared_.nodes.load() >= options_.max_nodes))
                    shared_.aborted = true;
                if (!options_.quiet && now - last_report >= std::chrono::seconds(1)) {
                    last_report = now;
                    std::fprintf(stderr, "bound %d searching, nodes=%llu\n", bound,
                                 static_cast<unsigned long long>(shared_.nodes.load()));
                }
            }
        }
        for (std::thread& t : pool) t.join();
    }

    static double seconds_since(Clock::time_point start) {
        return std::chrono::duration<double>(Clock::now() - start).count();
    }

    Outcome& finish(Outcome& out) {
        out.nodes = shared_.nodes.load();
        out.seconds = seconds_since(start_);
        return out;
    }

public:
    const Lattice& lattice() const { return lattice_; }

private:
    TranspositionTable* table() { return tt_ ? &*tt_ : nullptr; }

    const Options& options_;
    Lattice lattice_;
    LineCosts costs_;
    std::optional<TranspositionTable> tt_;   // with --tt only: its memory is mapped, not left to malloc
    std::vector<Root> roots_;
    std::vector<Root*> live_;
    Shared shared_;
    int threads_ = 1;
    Clock::time_point start_;
};

// ───────────────────────────── protocol ─────────────────────────────

const char* kUsageHead =
    "usage: unflip_solver [BOARD_FILE] [options]\n"
    "\n"
    "Reads an H x W board (2 <= H, W <= 15) from BOARD_FILE, or from standard input when none is given\n"
    "or it is '-': H lines of W digits, all 0/1 or all 1/2 (1/2 maps to 0/1: 1 -> 0, 2 -> 1).\n"
    "Prints the fewest k x k flips (2 <= k <= min(H, W)) that make every tile the target colour.\n"
    "\n"
    "options:\n"
    "  --target 0|1|either  colour every tile ends as (default 0, the game's goal); either: the\n"
    "                       shorter of the two, both raced bound by bound\n"
    "  --threads T          worker threads (default: all logical cores)\n"
    "  --max-seconds S      stop after S seconds without a claim (exit 3, STOPPED b)\n"
    "  --max-nodes N        stop after about N search nodes without a claim (exit 3)\n"
    "  --lower-bound        no search: print the root's proven lower bound (LOWER_BOUND b, exit 0)\n"
    "  --all-solutions      every optimal solution, each a set of moves on one SOLUTION line\n"
    "  --count              only how many optimal solutions there are (SOLUTIONS k)\n"
    "  --max-solutions K    stop after K of them (then INCOMPLETE: there may be more)\n"
    "  --quiet              no progress lines on standard error\n"
    "  --help               this text\n"
    "\n"
    "switches, each turning one technique on or off so its worth can be measured:\n";

const char* kUsageTail =
    "\n"
    "output (standard output), exit status:\n"
    "  TARGET t / MOVES m / m lines 'row col size' (0-based top-left) / NODES n / TIME s   0 solved\n"
    "  TARGET t / UNSOLVABLE / NODES 0 / TIME s                                           1 unsolvable\n"
    "  error: <reason> (standard error only)                                              2 rejected\n"
    "  TARGET t / STOPPED b / NODES n / TIME s  (no solution has fewer than b moves)      3 stopped\n"
    "  TARGET t / LOWER_BOUND b / NODES 0 / TIME s  (with --lower-bound)                  0\n"
    "  TARGET t / MOVES m / SOLUTION r c k ... (one line each, --all-solutions only) /\n"
    "      SOLUTIONS k / [INCOMPLETE] / NODES n / TIME s  (enumerating)                   0\n"
    "  TARGET t / UNSOLVABLE / SOLUTIONS 0 / NODES 0 / TIME s  (enumerating)              1\n"
    "\n"
    "examples:\n"
    "  unflip_solver board.txt\n"
    "  unflip_solver --threads 2 --target either < board.txt\n"
    "  unflip_solver board.txt --all-solutions\n";

// Every technique's switch, one table for parsing and for --help, so the two cannot drift apart.
struct FlagSwitch {
    const char* flag;
    bool Switches::*field;
    bool value;   // what the flag sets
    const char* help;
};
const FlagSwitch kFlagSwitches[] = {
    {"--no-cover-bound", &Switches::cover_bound, false, "the covering LP's bound (root and nodes)"},
    {"--no-symmetry", &Switches::symmetry, false, "branches that are images of earlier ones are searched"},
    {"--no-exclusion", &Switches::exclusion, false, "a branch no longer forbids the sibling moves tried before it"},
    {"--no-ordering", &Switches::ordering, false, "moves are not ordered by how many 1-points they clear"},
    {"--no-fewest-branches", &Switches::fewest_branches, false,
     "branch at the first 1-point, not the one with fewest moves"},
    {"--no-pair-bound", &Switches::pair_bound, false, "the ceil(row costs / 2), ceil(column costs / 2) bound"},
    {"--no-line-bound", &Switches::line_bound, false, "the adjacent-lines bound"},
    {"--tt", &Switches::tt, true, "use the shared transposition table (off by default: it does not pay;\n"
                                  "                       it also turns symmetry breaking off)"},
};

struct NumberSwitch {
    const char* flag;
    const char* metavar;
    int Switches::*field;
    int low, high;
    const char* help;
};
const NumberSwitch kNumberSwitches[] = {
    {"--parity-rounds", "R", &Switches::parity_rounds, 0, 100,
     "cut each LP by the parity rows its solution breaks, R rounds\n"
     "                       at most (default 6; 0: the covering LP alone)"},
    {"--lp-after", "N", &Switches::lp_after, 0, 1 << 30,
     "solve the covering LP again at a node once its subtree has\n"
     "                       taken N nodes (default 2000; 0: at the root only)"},
    {"--tt-min-budget", "B", &Switches::tt_min_budget, 1, kMaxStoredBudget + 1,
     "with --tt: consult the table only with B or more moves left\n"
     "                       (default 3)"},
};

void print_usage() {
    std::string text = kUsageHead;
    char line[160];
    for (const FlagSwitch& s : kFlagSwitches) {
        std::snprintf(line, sizeof line, "  %-20s %s\n", s.flag, s.help);
        text += line;
    }
    for (const NumberSwitch& s : kNumberSwitches) {
        const std::string named = std::string(s.flag) + " " + s.metavar;
        std::snprintf(line, sizeof line, "  %-20s %s\n", named.c_str(), s.help);
        text += line;
    }
    text += kUsageTail;
    std::fputs(text.c_str(), stdout);
}

// Whole numbers are digits only (so '-1' cannot wrap around); a range check that NaN fails too.
template <typename T>
T parse_number(const std::string& flag, const std::string& text, T low, T high, const char* what) {
    const bool whole = std::is_integral<T>::value;
    std::istringstream in(text);
    T value{};
    const bool digits_only = !text.empty() && text.find_first_not_of("0123456789") == std::string::npos;
    if ((whole && !digits_only) || !(in >> value) || !in.eof() || !(value >= low && value <= high))
        reject(flag + " needs " + what + ", not '" + text + "'");
    return value;
}

Options parse_arguments(int argc, char** argv) {
    Options options;
    bool have_file = false, listing_asked = false, count_asked = false;
    for (int i = 1; i < argc; ++i) {
        std::string arg = argv[i], value;
        const bool has_inline_value = arg.rfind("--", 0) == 0 && arg.find('=') != std::string::npos;
        if (has_inline_value) {
            value = arg.substr(arg.find('=') + 1);
            arg = arg.substr(0, arg.find('='));
        }
        auto take_value = [&]() -> std::string {
            if (has_inline_value) return value;
            if (i + 1 >= argc) reject(arg + " needs a value (see --help)");
            return argv[++i];
        };
        auto no_value = [&]() {
            if (has_inline_value) reject(arg + " takes no value (see --help)");
        };
        const auto flag_switch = std::find_if(std::begin(kFlagSwitches), std::end(kFlagSwitches),
                                              [&](const FlagSwitch& s) { return arg == s.flag; });
        const auto number_switch = std::find_if(std::begin(kNumberSwitches), std::end(kNumberSwitches),
                                                [&](const NumberSwitch& s) { return arg == s.flag; });
        if (arg == "--help" || arg == "-h") {
            print_usage();
            std::exit(0);
        } else if (flag_switch != std::end(kFlagSwitches)) {
            no_value();
            options.sw.*(flag_switch->field) = flag_switch->value;
        } else if (number_switch != std::end(kNumberSwitches)) {
            const std::string range = "a whole number from " + std::to_string(number_switch->low) + " to " +
                                      std::to_string(number_switch->high);
            options.sw.*(number_switch->field) = parse_number<int>(arg, take_value(), number_switch->low,
                                                                    number_switch->high, range.c_str());
        } else if (arg == "--target") {
            std::string t = take_value();
            if (t == "0") options.target = 0;
            else if (t == "1") options.target = 1;
            else if (t == "either") options.target = kEither;
            else reject("--target needs 0, 1 or either, not '" + t + "'");
        } else if (arg == "--threads") {
            options.threads = parse_number<int>(arg, take_value(), 1, 1024, "a whole number from 1 to 1024");
        } else if (arg == "--max-seconds") {
            options.max_seconds = parse_number<double>(arg, take_value(), 1e-3, 1e9, "a number of seconds > 0");
        } else if (arg == "--max-nodes") {
            options.max_nodes = parse_number<uint64_t>(arg, take_value(), 1, UINT64_MAX, "a whole number > 0");
        } else if (arg == "--quiet") {
            no_value();
            options.quiet = true;
        } else if (arg == "--lower-bound") {
            no_value();
            options.lower_bound_only = true;
        } else if (arg == "--all-solutions") {
            no_value();
            listing_asked = true;
        } else if (arg == "--count") {
            no_value();
            count_asked = true;
        } else if (arg == "--max-solutions") {
            options.max_solutions = parse_number<uint64_t>(arg, take_value(), 1, UINT64_MAX, "a whole number > 0");
        } else if (arg.size() > 1 && arg[0] == '-') {
            reject("unknown option '" + arg + "' (see --help)");
        } else if (have_file) {
            reject("unexpected argument '" + arg + "': give at most one board file");
        } else {
            have_file = true;
            options.file = arg == "-" ? "" : arg;
        }
    }
    if (listing_asked && count_asked) reject("give --all-solutions or --count, not both");
    options.enumerate = listing_asked || count_asked || options.max_solutions > 0;
    options.list_solutions = options.enumerate && !count_asked;
    if (options.enumerate && options.lower_bound_only)
        reject("--lower-bound searches nothing, so it cannot be given with --all-solutions, --count or --max-solutions");
    return options;
}

std::string read_board_text(const Options& options) {
    if (options.file.empty()) return read_all(std::cin, "standard input");
    std::ifstream in(options.file, std::ios::binary);
    if (!in) reject("cannot read '" + options.file + "': " + std::strerror(errno));
    std::string text = read_all(in, "'" + options.file + "'");
    if (in.bad()) reject("cannot read '" + options.file + "': " + std::strerror(errno));
    return text;
}

void print(const Outcome& out, const Lattice& lattice) {
    std::string text = "TARGET " + std::to_string(out.target) + "\n";
    if (out.bound_only) {
        text += "LOWER_BOUND " + std::to_string(out.lower_bound) + "\n";
    } else if (out.code == kSolved && out.enumerated) {
        // Each solution a set, in a canonical order: moves sorted within a line, lines sorted.
        std::vector<std::vector<std::array<int, 3>>> sets;
        for (const std::vector<uint16_t>& solution : out.solutions) {
            std::vector<std::array<int, 3>> set;
            for (uint16_t index : solution) {
                const Move& m = lattice.moves[index];
                set.push_back({m.row, m.col, m.size});
            }
            std::sort(set.begin(), set.end());
            sets.push_back(set);
        }
        std::sort(sets.begin(), sets.end());
        text += "MOVES " + std::to_string(out.moves.size()) + "\n";
        for (const auto& set : sets) {
            text += "SOLUTION";
            for (const auto& move : set)
                text += " " + std::to_string(move[0]) + " " + std::to_string(move[1]) + " " + std::to_string(move[2]);
            text += "\n";
        }
        text += "SOLUTIONS " + std::to_string(out.solution_count) + "\n";
        if (out.incomplete) text += "INCOMPLETE\n";
    } else if (out.code == kSolved) {
        text += "MOVES " + std::to_string(out.moves.size()) + "\n";
        for (uint16_t index : out.moves) {
            const Move& m = lattice.moves[index];
            text += std::to_string(m.row) + " " + std::to_string(m.col) + " " + std::to_string(m.size) + "\n";
        }
    } else if (out.code == kUnsolvable) {
        text += "UNSOLVABLE\n";
        if (out.enumerated) text += "SOLUTIONS 0\n";
    } else {
        text += "STOPPED " + std::to_string(out.lower_bound) + "\n";
    }
    char tail[96];
    std::snprintf(tail, sizeof tail, "NODES %llu\nTIME %.3f\n", static_cast<unsigned long long>(out.nodes),
                  out.seconds);
    text += tail;
    std::fwrite(text.data(), 1, text.size(), stdout);
    std::fflush(stdout);
}

}  // namespace

int main(int argc, char** argv) {
    std::ios::sync_with_stdio(false);
    const Options options = parse_arguments(argc, argv);
    const Board board = parse_board(read_board_text(options));
    Driver driver(board, options);
    const Outcome out = driver.run();
    print(out, driver.lattice());
    return out.code;
}
