// line costs: per-line minimum pair counts, the pair and line bounds' raw material.
//
// A move puts one pair {c, c+k} into each of lattice rows r and r+k, and one pair {r, r+k} into each of
// columns c and c+k. Lattice row i can only receive pair distances 2..min(max(i, h-i), min(h, w)) (the
// square must fit), and likewise column j with w. cost[mask] is the fewest such pairs whose XOR is
// `mask`, found by breadth-first search over line masks, one table per line width and distance limit.
// The search goes a level at a time over sets of masks held as bits (mask m is bit m), where XOR-ing
// every mask of a set with one pair moves whole words (the pair's bits from 6 up) and bits inside each
// word (those below 6): a 15×15 board's tables in a third to a quarter of the time a mask at a time took,
// which every run pays before its search starts (the page makes three runs of each board).
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
        cost[0] = 0;
        // Pairs with the same bits below 6 in a row: the words those flip are made once a level for them.
        std::sort(pairs.begin(), pairs.end(), [](unsigned a, unsigned b) { return (a & 63) < (b & 63); });
        const size_t words = (masks + 63) / 64;
        std::vector<uint64_t> reached(words), frontier(words), next(words), flipped(words);
        reached[0] = frontier[0] = 1;
        for (uint8_t level = 1;; ++level) {
            std::fill(next.begin(), next.end(), 0);
            for (size_t first = 0; first < pairs.size();) {
                const unsigned within = pairs[first] & 63;
                for (size_t j = 0; j < words; ++j) flipped[j] = flip_within(frontier[j], within);
                for (; first < pairs.size() && (pairs[first] & 63) == within; ++first) {
                    const size_t across = pairs[first] >> 6;
                    for (size_t j = 0; j < words; ++j) next[j] |= flipped[j ^ across];
                }
            }
            bool grew = false;
            for (size_t j = 0; j < words; ++j) {
                next[j] &= ~reached[j];
                reached[j] |= next[j];
                grew |= next[j] != 0;
                for (uint64_t bits = next[j]; bits; bits &= bits - 1) cost[j * 64 + __builtin_ctzll(bits)] = level;
            }
            if (!grew) break;
            frontier.swap(next);
        }
        keys_.emplace_back(width, limit);
        tables_.push_back(std::move(cost));   // moving keeps the data pointer stable
        return tables_.back().data();
    }

    // The word of the set {m ^ within} for the set of masks in `word`, within < 64: bit m goes to bit
    // m ^ within, by swapping the halves of every block 2^(b+1) bits long for each bit b of within.
    static uint64_t flip_within(uint64_t word, unsigned within) {
        static constexpr uint64_t kLowHalves[6] = {0x5555555555555555u, 0x3333333333333333u, 0x0F0F0F0F0F0F0F0Fu,
                                                   0x00FF00FF00FF00FFu, 0x0000FFFF0000FFFFu, 0x00000000FFFFFFFFu};
        for (int b = 0; b < 6; ++b)
            if (within >> b & 1) {
                const int half = 1 << b;
                word = ((word >> half) & kLowHalves[b]) | ((word & kLowHalves[b]) << half);
            }
        return word;
    }
};

}  // namespace
}  // namespace unflip
