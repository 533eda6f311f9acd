// line costs: per-line minimum pair counts, the pair and line bounds' raw material.
//
// A move puts one pair {c, c+k} into each of lattice rows r and r+k, and one pair {r, r+k} into each of
// columns c and c+k. Lattice row i can only receive pair distances 2..min(max(i, h-i), min(h, w)) (the
// square must fit), and likewise column j with w. cost[mask] is the fewest such pairs whose XOR is
// `mask`, found by breadth-first search over line masks, one table per line width and distance limit.
//
// A line of up to 16 points is one table of 2^16 entries at most. A longer one (boards past 15, on the
// 32-point layout) would need 2^32, so its cost is composed from its two 16-point halves' tables, each
// of the least half-cost of its half (docs/bounds.md, "Wide lines: split line costs"): a lower bound on the
// fewest pairs, which is all the bounds need.
#pragma once

#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

#include "lattice.h"

namespace unflip {
namespace {

constexpr uint8_t kUnreachable = 64;            // line cost of a line state no pair set can clear

// Line costs for lines of up to 2·kSegmentPoints points: lines of 17 to 32 points (boards with a side past
// 15, docs/design-lattice-and-arithmetic.md section 3), where LineCosts' one table a line would have 2^32
// entries. A line of `width` points with distance limit `limit` takes the pairs {a, a+s}, 2 ≤ s ≤ limit,
// a+s < width, as in LineCosts. It is cut into a low segment, points 0 .. B-1 (B = kSegmentPoints), and a
// high one, points B .. width-1; each segment S has a table g_S(u), the least half-cost of making u on S
// from pairs with both ends in S (half-cost 2 each) and single ends (half-cost 1 each): the points of S
// where a pair can cross to the other segment, that is low points a with a partner b ≥ B at an allowed
// distance, B-limit ≤ a ≤ width-3, and high points b with a partner a < B, b ≤ B+limit-1. The cost of a
// line mask v is R'(v) = ceil((g_low(v's low points) + g_high(v's high points)) / 2): two loads and an add.
//
// R' ≤ R, the fewest pairs making v. Take such a set P of R(v) pairs, and split it into the pairs inside the
// low segment, those inside the high one, and the crossing pairs {a, b}, a < B ≤ b, whose ends lie in the
// windows above because b - a is an allowed distance. On the low segment, its inside pairs and the crossing
// pairs' low ends make v's low points: one way of making them, at half-cost 2·|P_low| + |P_crossing|, so
// g_low is at most that; likewise g_high ≤ 2·|P_high| + |P_crossing|. Summed, g_low + g_high ≤ 2·|P| =
// 2·R(v), and R(v) is a whole number, so the rounded-up half is at most R(v) too. A line that fits the low
// segment (width ≤ B) has no crossing ends: g_low = 2·R, g_high(0) = 0, and R' = R exactly.
//
// Unreachable lines: a segment mask nothing makes has half-cost 2·kUnreachable, so its line costs at least
// kUnreachable, as LineCosts marks it; by the argument above its line is unreachable indeed. Some
// unreachable lines cost less (any cost is a lower bound on a line no pair set clears): a line with an odd
// number of points (never in a difference grid, whose every line holds the corners of whole squares in
// twos), and, at limit 2, a line whose even or odd points are odd in number (pairs at distance 2 join
// points of one parity only). Every other line mask of even count is reachable once limit ≥ 3 and width ≥
// 4: the distances 2 and 3 connect all points, and in a connected graph every even set of points is the
// odd-degree set of some pairs. On a wide board (a side past 15) lattice row i has limit
// min(max(i, h-i), min(h, w)), and columns likewise, so limit 1 (no pairs at all) is only the middle line
// across a board 2 tiles thick, limit 2 the middle lines across boards 3 and 4 thick, and every other wide
// line has limit ≥ 3.
template <int kSegmentPoints = 16>
class SplitLineCost {
public:
    SplitLineCost() = default;
    SplitLineCost(const uint8_t* low, const uint8_t* high) : low_(low), high_(high) {}

    uint8_t operator()(uint32_t mask) const {
        return static_cast<uint8_t>((low_[mask & kLowPoints] + high_[mask >> kSegmentPoints] + 1) >> 1);
    }

private:
    static constexpr uint32_t kLowPoints = (1u << kSegmentPoints) - 1;
    const uint8_t* low_ = nullptr;
    const uint8_t* high_ = nullptr;
};

// The segment tables, built once and shared by every line whose segments are alike (LineCosts shares whole
// tables so); a SplitLineCost points into them for as long as this lives.
template <int kSegmentPoints = 16>
class SplitLineCosts {
public:
    static_assert(kSegmentPoints >= 1 && kSegmentPoints <= 16, "a segment table has 2^kSegmentPoints entries");
    static constexpr uint8_t kUnreachableHalf = 2 * kUnreachable;   // half-cost of a segment mask nothing makes

    // The cost of each mask of a line of `width` (1 .. 2·kSegmentPoints) points with distance limit `limit`.
    SplitLineCost<kSegmentPoints> line(int width, int limit) {
        const int low = std::min(width, kSegmentPoints), high = width - low;
        // Where a pair can cross (both windows empty when limit < 2 or the line fits one segment).
        const bool crossing = high > 0 && limit >= 2;
        const int low_first = std::max(0, kSegmentPoints - limit);
        const int low_last = crossing ? std::min(kSegmentPoints, width - 2) - 1 : -1;
        const int high_last = crossing ? std::min(width, kSegmentPoints + limit) - 1 - kSegmentPoints : -1;
        return SplitLineCost<kSegmentPoints>(segment(Segment{low, limit, low_first, low_last}),
                                             segment(Segment{high, limit, 0, high_last}));
    }

private:
    struct Segment {
        int points, limit;
        int cross_first, cross_last;   // the points (0 = the segment's first) where a pair can cross out
        bool operator==(const Segment& o) const {
            return points == o.points && limit == o.limit && cross_first == o.cross_first &&
                   cross_last == o.cross_last;
        }
    };
    std::vector<std::vector<uint8_t>> tables_;
    std::vector<Segment> keys_;

    const uint8_t* segment(Segment key) {
        key.limit = std::min(key.limit, key.points - 1);   // longer distances fit no pair inside
        if (key.cross_first > key.cross_last) {   // none crosses: one key for every empty window
            key.cross_first = 0;
            key.cross_last = -1;
        }
        for (size_t t = 0; t < keys_.size(); ++t)
            if (keys_[t] == key) return tables_[t].data();
        std::vector<unsigned> steps[2];   // single ends (half-cost 1) and inside pairs (half-cost 2)
        for (int a = key.cross_first; a <= key.cross_last; ++a) steps[0].push_back(1u << a);
        for (int s = 2; s <= key.limit; ++s)
            for (int a = 0; a + s < key.points; ++a) steps[1].push_back((1u << a) | (1u << (a + s)));
        // Dijkstra with a bucket per half-cost: a mask is settled when its bucket is reached, as every step
        // costs 1 or 2. Finite half-costs stay far below kUnreachableHalf: the steps of a cheapest way form a
        // forest on the segment's points and one point outside that every single end joins, so there are
        // no more steps than points, each at most 2.
        std::vector<uint8_t> half(size_t{1} << key.points, kUnreachableHalf);
        std::vector<std::vector<unsigned>> reached_at{{0u}};
        half[0] = 0;
        for (size_t cost = 0; cost < reached_at.size(); ++cost)
            for (size_t k = 0; k < reached_at[cost].size(); ++k) {
                const unsigned mask = reached_at[cost][k];
                if (half[mask] != cost) continue;   // reached again more cheaply
                for (size_t step = 0; step < 2; ++step)
                    for (unsigned change : steps[step]) {
                        const size_t next = cost + 1 + step;
                        if (half[mask ^ change] <= next) continue;
                        half[mask ^ change] = static_cast<uint8_t>(next);
                        if (reached_at.size() <= next) reached_at.resize(next + 1);
                        reached_at[next].push_back(mask ^ change);
                    }
            }
        keys_.push_back(key);
        tables_.push_back(std::move(half));   // moving keeps the data pointer stable
        return tables_.back().data();
    }
};

// What a line's cost is read from on the layout: the line's exact table on the 16-point layout; on the
// 32-point one its two segments' tables (a line of 16 points or fewer has all of it in the low one, exact).
template <class L>
using LineTable = std::conditional_t<(L::kStride <= 16), const uint8_t*, SplitLineCost<>>;

inline int line_cost(const uint8_t* table, unsigned mask) { return table[mask]; }
inline int line_cost(const SplitLineCost<>& cost, unsigned mask) { return cost(mask); }

template <class L>
struct LineCosts {
    std::vector<LineTable<L>> of_row, of_column;   // the table for each lattice row and column

    LineCosts(int h, int w) : of_row(h + 1), of_column(w + 1) {
        // Tri boards have no line costs yet: their pair and line bounds are off (Driver::workable).
        if constexpr (L::kTri) return;
        const int largest = std::min(h, w);
        for (int i = 0; i <= h; ++i) of_row[i] = table(w + 1, std::min(std::max(i, h - i), largest));
        for (int j = 0; j <= w; ++j) of_column[j] = table(h + 1, std::min(std::max(j, w - j), largest));
    }

private:
    static constexpr bool kSplit = L::kStride > 16;
    std::vector<std::vector<uint8_t>> tables_;
    std::vector<std::pair<int, int>> keys_;   // (width, limit) of each table
    SplitLineCosts<> split_;                  // on the 32-point layout

    LineTable<L> table(int width, int limit) {
        if constexpr (kSplit) {
            return split_.line(width, limit);
        } else {
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
    }
};

}  // namespace
}  // namespace unflip
