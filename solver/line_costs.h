// line costs: per-line minimum pair counts, the pair and line bounds' raw material.
//
// A move puts one pair {c, c+k} into each of lattice rows r and r+k, and one pair {r, r+k} into each of
// columns c and c+k. Lattice row i can only receive pair distances 2..min(max(i, h-i), min(h, w)) (the
// square must fit), and likewise column j with w. cost[mask] is the fewest such pairs whose XOR is
// `mask`, found by breadth-first search over line masks, one table per line width and distance limit.
#pragma once

#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

#include "lattice.h"

namespace unflip {
namespace {

constexpr uint8_t kUnreachable = 64;            // line cost of a line state no pair set can clear

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

}  // namespace
}  // namespace unflip
