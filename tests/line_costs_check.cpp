// The split line costs of solver/line_costs.h (SplitLineCosts, the lines of 17 to 32 points) against exact
// line costs, for tests/test_line_costs.py:
//   (a) exhaustively, with segments of 8 points on every line of up to 16 points (every width and limit,
//       every mask), against LineCosts' breadth-first tables: R' ≤ R wherever R is finite, R' = R on a
//       line that fits one segment, and R' ≥ kUnreachable only where R is; the same with segments of 16,
//       where every such line fits one segment. It also checks the reachability docs/bounds.md states.
//   (b) on random masks of a few points on lines of 17 to 32 points, with segments of 16, against an exact
//       cost computed another way (ExactLineCost below), itself checked against LineCosts first.
//
// Usage: unflip_line_costs_check [--overstate | --strength]
//   --overstate  add one to R' on every mask with points in both segments: the checks must then fail
//   --strength   measure instead: how far R' falls below R (docs/bounds.md "Wide lines")
// Standard output: a summary line per check and a line for each of the first masks that break a rule.
// Exit status 0 when every check holds, 1 when one does not, 2 on a bad argument.

#include <algorithm>
#include <cinttypes>
#include <climits>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <random>
#include <vector>

#include "../solver/line_costs.h"

namespace {

using namespace unflip;

constexpr int kReportedFailures = 10;
constexpr int kFar = INT_MAX / 4;   // the distance between points no chain of pairs joins

// The fewest pairs making a line mask, worked out apart from both tables. A line's pairs are the edges of
// a graph on its points, and pairs whose XOR is v are edges whose odd-degree points are v's points (a
// T-join). The fewest such edges pair v's points up into chains of least total length: a least T-join
// splits into paths between v's points, and any pairing's paths XOR to one. So: breadth-first distances
// between points, then the least pairing by a DP over subsets of v's points.
class ExactLineCost {
public:
    ExactLineCost(int width, int limit) : width_(width), distance_(width, std::vector<int>(width, kFar)) {
        for (int from = 0; from < width; ++from) {
            std::vector<int>& d = distance_[from];
            std::vector<int> queue{from};
            d[from] = 0;
            for (size_t k = 0; k < queue.size(); ++k) {
                const int p = queue[k];
                for (int s = 2; s <= limit; ++s)
                    for (int q : {p - s, p + s})
                        if (q >= 0 && q < width && d[q] == kFar) {
                            d[q] = d[p] + 1;
                            queue.push_back(q);
                        }
            }
        }
    }

    int operator()(uint32_t mask) const {
        std::vector<int> points;
        for (int p = 0; p < width_; ++p)
            if (mask >> p & 1) points.push_back(p);
        const int n = static_cast<int>(points.size());
        if (n % 2) return kUnreachable;
        std::vector<int> least(size_t{1} << n, -1);   // over subsets of `points` still to pair
        const int best = pair_up((1u << n) - 1, points, least);
        return best >= kFar ? kUnreachable : best;
    }

private:
    int width_;
    std::vector<std::vector<int>> distance_;

    int pair_up(uint32_t left, const std::vector<int>& points, std::vector<int>& least) const {
        if (!left) return 0;
        if (least[left] >= 0) return least[left];
        const int first = __builtin_ctz(left);
        int best = kFar;
        for (uint32_t rest = left & (left - 1); rest; rest &= rest - 1) {
            const int other = __builtin_ctz(rest);
            const int d = distance_[points[first]][points[other]];
            if (d < kFar) best = std::min(best, d + pair_up(left & ~(1u << first) & ~(1u << other), points, least));
        }
        return least[left] = best;
    }
};

struct Failures {
    uint64_t count = 0;
    void report(const char* check, int width, int limit, int segment, uint32_t mask, int split, int exact) {
        if (count++ < kReportedFailures)
            std::printf("%s: width %d limit %d segments of %d, mask 0x%x: R' %d, R %d\n", check, width, limit,
                        segment, mask, split, exact);
    }
};

// R' as the check sees it: overstated by one, under --overstate, where the mask has points in both segments.
template <int kSegment>
int split_cost(const SplitLineCost<kSegment>& cost, uint32_t mask, bool overstate) {
    const bool both = (mask & ((1u << kSegment) - 1)) && (mask >> kSegment);
    return cost(mask) + (overstate && both ? 1 : 0);
}

// What R' may be, given the exact R: at most R where R is finite, unreachable only where R is, and R itself
// where the line fits one segment.
bool admissible(int split, int exact, bool one_segment) {
    if (one_segment) return split == exact;
    if (exact == kUnreachable) return true;
    return split <= exact;
}

bool reachable_as_stated(uint32_t mask, int limit) {
    const int count = __builtin_popcount(mask);
    if (limit < 2) return mask == 0;
    if (limit == 2) return __builtin_popcount(mask & 0x55555555u) % 2 == 0 && count % 2 == 0;
    return count % 2 == 0;
}

// (a): every mask of every line of up to 16 points, against LineCosts.
template <int kSegment>
void check_every_short_line(bool overstate, Failures& failures) {
    SplitLineCosts<kSegment> split;
    uint64_t masks = 0, reachable = 0, below = 0, split_sum = 0, exact_sum = 0;
    for (int width = 1; width <= 16; ++width)
        for (int limit = 0; limit < width; ++limit) {
            const LineCosts costs(limit, width - 1);   // its row 0: `width` points, limit `limit`
            const uint8_t* exact = costs.of_row[0];
            const SplitLineCost<kSegment> cost = split.line(width, limit);
            for (uint32_t mask = 0; mask < 1u << width; ++mask) {
                const int r = exact[mask], r_split = split_cost(cost, mask, overstate);
                ++masks;
                if (!admissible(r_split, r, width <= kSegment) || (r_split >= kUnreachable && r != kUnreachable))
                    failures.report("every short line", width, limit, kSegment, mask, r_split, r);
                if ((r != kUnreachable) != reachable_as_stated(mask, limit))
                    failures.report("reachability as stated", width, limit, kSegment, mask, r_split, r);
                if (width == 16 && r != kUnreachable) {
                    ++reachable;
                    below += r_split < r;
                    split_sum += r_split;
                    exact_sum += r;
                }
            }
        }
    std::printf("segments of %d, every mask of lines of 1-16 points: %" PRIu64 " masks; on 16 points, R' < R on "
                "%" PRIu64 " of %" PRIu64 " reachable masks (%.1f%%), mean R' %.3f against R %.3f\n",
                kSegment, masks, below, reachable, 100.0 * below / reachable, double(split_sum) / reachable,
                double(exact_sum) / reachable);
}

// A random set of `count` points of a line of `width`: anywhere, or near the segments' border (the masks
// whose pairs cross it).
uint32_t random_mask(std::mt19937_64& random, int width, int count, bool near_border) {
    const int first = near_border ? std::max(0, 16 - 6) : 0, last = near_border ? std::min(width, 16 + 6) : width;
    uint32_t mask = 0;
    while (__builtin_popcount(mask) < std::min(count, last - first))
        mask |= 1u << std::uniform_int_distribution<int>(first, last - 1)(random);
    return mask;
}

// (b): the exact method against LineCosts on short lines, then R' against it on random wide-line masks.
void check_wide_lines(bool overstate, Failures& failures) {
    std::mt19937_64 random(37);
    uint64_t short_masks = 0;
    for (int width = 2; width <= 16; ++width)
        for (int limit = 0; limit < width; ++limit) {
            const LineCosts costs(limit, width - 1);
            const ExactLineCost exact(width, limit);
            for (int k = 0; k < 60; ++k, ++short_masks) {
                const uint32_t mask = random_mask(random, width, k % 11, false);
                if (exact(mask) != costs.of_row[0][mask])
                    failures.report("the exact method against LineCosts", width, limit, 0, mask, exact(mask),
                                    costs.of_row[0][mask]);
            }
        }
    SplitLineCosts<16> split;
    uint64_t wide_masks = 0;
    for (int width = 17; width <= 32; ++width)
        for (int limit = 0; limit < width; ++limit) {
            const ExactLineCost exact(width, limit);
            const SplitLineCost<16> cost = split.line(width, limit);
            for (int k = 0; k < 60; ++k, ++wide_masks) {
                const uint32_t mask = random_mask(random, width, 2 * (k % 7), k % 2);
                const int r = exact(mask), r_split = split_cost(cost, mask, overstate);
                if (!admissible(r_split, r, false) || (r_split >= kUnreachable && r != kUnreachable))
                    failures.report("random wide lines", width, limit, 16, mask, r_split, r);
            }
        }
    std::printf("the exact method agrees with LineCosts on %" PRIu64 " random masks of lines of 2-16 points; "
                "segments of 16, %" PRIu64 " random masks of 0-12 points on lines of 17-32 points\n",
                short_masks, wide_masks);
}

// --strength: R' against R on random masks of a few points on 32-point lines, and on the lines of designer
// boards (random presses on 16x16 to 31x31), where the pair bound is what the costs are for.
void measure_strength() {
    std::mt19937_64 random(2026);
    SplitLineCosts<16> split;
    std::printf("random masks on 32-point lines, segments of 16 (10,000 masks each): mean R' / mean R, "
                "share with R' = R\n%-8s", "points");
    const int limits[] = {3, 4, 8, 16, 31};
    for (int limit : limits) std::printf("   limit %-14d", limit);
    std::printf("\n");
    for (int count : {2, 4, 6, 8, 10}) {
        std::printf("%-8d", count);
        for (int limit : limits) {
            const ExactLineCost exact(32, limit);
            const SplitLineCost<16> cost = split.line(32, limit);
            double split_sum = 0, exact_sum = 0, equal = 0;
            for (int k = 0; k < 10000; ++k) {
                const uint32_t mask = random_mask(random, 32, count, false);
                split_sum += cost(mask);
                exact_sum += exact(mask);
                equal += cost(mask) == exact(mask);
            }
            std::printf("   %5.2f / %5.2f %4.0f%%", split_sum / 1e4, exact_sum / 1e4, equal / 1e2);
        }
        std::printf("\n");
    }
    std::printf("designer boards, 20 each: mean pair bound with R' / with R, share of nonempty lines with R' = R\n");
    for (int side : {16, 20, 24, 31})
        for (int presses : {10, 20, 40}) {
            double bound_split = 0, bound_exact = 0, lines = 0, equal = 0;
            for (int board = 0; board < 20; ++board) {
                std::vector<uint32_t> rows(side + 1), columns(side + 1);
                for (int p = 0; p < presses; ++p) {
                    const int size = std::uniform_int_distribution<int>(2, side)(random);
                    const int r = std::uniform_int_distribution<int>(0, side - size)(random);
                    const int c = std::uniform_int_distribution<int>(0, side - size)(random);
                    for (int i : {r, r + size}) rows[i] ^= (1u << c) | (1u << (c + size));
                    for (int j : {c, c + size}) columns[j] ^= (1u << r) | (1u << (r + size));
                }
                int sums[2][2] = {};   // [rows, columns][R', R]
                for (int which = 0; which < 2; ++which)
                    for (int i = 0; i <= side; ++i) {
                        const uint32_t mask = (which ? columns : rows)[i];
                        const int limit = std::min(std::max(i, side - i), side);   // the square must fit
                        const int r_split = split.line(side + 1, limit)(mask);
                        const int r = ExactLineCost(side + 1, limit)(mask);
                        sums[which][0] += r_split;
                        sums[which][1] += r;
                        lines += mask != 0;
                        equal += mask != 0 && r_split == r;
                    }
                bound_split += std::max((sums[0][0] + 1) / 2, (sums[1][0] + 1) / 2);
                bound_exact += std::max((sums[0][1] + 1) / 2, (sums[1][1] + 1) / 2);
            }
            std::printf("%2dx%-2d %2d presses: %5.2f / %5.2f, %5.1f%% of lines\n", side, side, presses,
                        bound_split / 20, bound_exact / 20, 100 * equal / lines);
        }
}

}  // namespace

int main(int argc, char** argv) {
    const bool overstate = argc == 2 && !std::strcmp(argv[1], "--overstate");
    const bool strength = argc == 2 && !std::strcmp(argv[1], "--strength");
    if (argc > 2 || (argc == 2 && !overstate && !strength)) {
        std::fprintf(stderr, "usage: unflip_line_costs_check [--overstate | --strength]\n");
        return 2;
    }
    if (strength) {
        measure_strength();
        return 0;
    }
    Failures failures;
    check_every_short_line<8>(overstate, failures);
    check_every_short_line<16>(overstate, failures);
    check_wide_lines(overstate, failures);
    std::printf("%" PRIu64 " failures\n", failures.count);
    return failures.count ? 1 : 0;
}
