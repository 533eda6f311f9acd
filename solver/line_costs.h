// line costs: per-line minimum pair counts, the pair and line bounds' raw material.
//
// A move puts one pair {c, c+k} into each of lattice rows r and r+k, and one pair {r, r+k} into each of
// columns c and c+k. Lattice row i can only receive pair distances 2..min(max(i, h-i), min(h, w)) (the
// square must fit), and likewise column j with w. cost[mask] is the fewest such pairs whose XOR is
// `mask`, found by breadth-first search over line masks, one table per line width and distance limit.
//
// A line of up to 16 points is one table of 2^16 entries at most. A longer one (boards past 15, on the
// 32-point layout) would need 2^32, so its cost is composed from its two 16-point halves' tables, each
// of the least half-cost of its half (docs/bounds.md, "Lines past 16 points"): a lower bound on the
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

// What a line's cost is read from on the layout: the line's table, or on the 32-point layout its two
// halves' half-cost tables (a line of 16 points or fewer has the doubled exact table low and nothing high).
struct HalfCostTables {
    const uint8_t* low;
    const uint8_t* high;
};
template <class L>
using LineTable = std::conditional_t<(L::kStride <= 16), const uint8_t*, HalfCostTables>;

inline int line_cost(const uint8_t* table, unsigned mask) { return table[mask]; }
inline int line_cost(const HalfCostTables& tables, unsigned mask) {
    return (tables.low[mask & 0xFFFF] + tables.high[mask >> 16] + 1) >> 1;
}

template <class L>
struct LineCosts {
    using Table = LineTable<L>;
    static constexpr bool kHalves = !std::is_same_v<Table, const uint8_t*>;
    std::vector<Table> of_row, of_column;   // the table for each lattice row and column

    LineCosts(int h, int w) : of_row(h + 1), of_column(w + 1) {
        const int largest = std::min(h, w);
        for (int i = 0; i <= h; ++i) of_row[i] = table(w + 1, std::min(std::max(i, h - i), largest));
        for (int j = 0; j <= w; ++j) of_column[j] = table(h + 1, std::min(std::max(j, w - j), largest));
    }

private:
    std::vector<std::vector<uint8_t>> tables_;
    std::vector<std::pair<int, int>> keys_;   // (width, limit) of each exact table
    std::vector<HalfCostTables> halves_;      // on the 32-point layout, by keys_' place

    Table table(int width, int limit) {
        for (size_t t = 0; t < keys_.size(); ++t)
            if (keys_[t] == std::make_pair(width, limit)) {
                if constexpr (kHalves) return halves_[t];
                else return tables_[t].data();
            }
        keys_.emplace_back(width, limit);
        if constexpr (!kHalves) {
            tables_.push_back(exact(width, limit));   // moving keeps the data pointer stable
            return tables_.back().data();
        } else {
            if (width <= 16) {
                std::vector<uint8_t> doubled = exact(width, limit);
                for (uint8_t& cost : doubled) cost = static_cast<uint8_t>(2 * cost);
                tables_.push_back(std::move(doubled));
                halves_.push_back({tables_.back().data(), kNothingHigh});
            } else {
                halves_.push_back(split(width, limit));
            }
            return halves_.back();
        }
    }

    // The fewest pairs of each mask of a line of `width` ≤ 16 points.
    static std::vector<uint8_t> exact(int width, int limit) {
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
        return cost;
    }

    // The two halves' half-cost tables of a line of more than 16 points. (For now nothing: zero, a bound
    // that proves nothing but is never wrong.)
    HalfCostTables split(int, int) { return {kNoCost, kNoCost}; }

    static inline const uint8_t kNothingHigh[1] = {0};
    static inline const uint8_t kNoCost[1 << 16] = {};
};

}  // namespace
}  // namespace unflip
