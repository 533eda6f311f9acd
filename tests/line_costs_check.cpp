// The split line costs of solver/line_costs.h (SplitLineCosts, the lines of 17 to 32 points) against exact
// line costs, for tests/test_line_costs.py:
//   (a) exhaustively, with segments of 8 points on every line of up to 16 points (every width and limit,
//       every mask), against LineCosts' breadth-first tables: R' ≤ R wherever R is finite, R' = R on a
//       line that fits one segment, and R' ≥ kUnreachable only where R is; the same with segments of 16,
//       where every such line fits one segment. Then which masks LineCosts finds reachable, against what
//       line_costs.h states.
//   (b) on random masks of 0-12 points on lines of 17 to 32 points, with segments of 16, against an exact
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
// T-join). The fewest such edges pair v's points up along shortest paths: a least T-join splits into
// edge-disjoint paths that pair v's points up, and any pairing's paths XOR to a T-join. So: breadth-first
// distances between points, then the least pairing by a DP over subsets of v's points.
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
            if (d < kFar)
                best = std::min(best, d + pair_up(left & ~(1u << first) & ~(1u << other), points, least));
        }
        return least[left] = best;
    }
};

// A check's count of masks and of those that break its rule, the first few of which it prints.
struct Check {
    const char* name;
    uint64_t masks = 0, failures = 0;

    // `why` is a printf format taking two ints.
    void fail(int width, int limit, uint32_t mask, const char* why, int first, int second) {
        if (failures++ >= kReportedFailures) return;
        std::printf("%s: width %d limit %d mask 0x%x: ", name, width, limit, mask);
        std::printf(why, first, second);
        std::printf("\n");
    }
    void summary(const char* more = "") const {
        std::printf("%s: %" PRIu64 " masks, %" PRIu64 " failures%s\n", name, masks, failures, more);
    }
};

// LineCosts' table for every line of up to 16 points, built once: the exact costs there.
class ShortLines {
public:
    ShortLines() {
        for (int width = 1; width <= 16; ++width)
            for (int limit = 0; limit < width; ++limit) costs_.emplace_back(limit, width - 1);
    }
    // Its row 0 has `width` points and limit `limit`; a moved LineCosts keeps its tables where they were.
    const uint8_t* exact(int width, int limit) const {
        return costs_[(width - 1) * width / 2 + limit].of_row[0];
    }

private:
    std::vector<LineCosts<SmallLayout>> costs_;
};

// R' as the check sees it: overstated by one, under --overstate, where the mask has points in both segments.
template <int kSegment>
int split_cost(const SplitLineCost<kSegment>& cost, uint32_t mask, bool overstate) {
    const bool both = (mask & ((1u << kSegment) - 1)) && (mask >> kSegment);
    return cost(mask) + (overstate && both ? 1 : 0);
}

// R' against the exact R: at most R where R is finite, R itself where the line fits one segment, and
// kUnreachable or more only where R is unreachable.
void compare(Check& check, int width, int limit, uint32_t mask, int split, int exact, bool one_segment) {
    ++check.masks;
    if (one_segment && split != exact)
        check.fail(width, limit, mask, "R' %d, not R %d, on one segment", split, exact);
    else if (exact != kUnreachable && split > exact)
        check.fail(width, limit, mask, "R' %d above R %d", split, exact);
    else if (split >= kUnreachable && exact != kUnreachable)
        check.fail(width, limit, mask, "R' %d marks a line of cost %d unreachable", split, exact);
}

// (a): every mask of every line of up to 16 points, against LineCosts.
template <int kSegment>
void check_every_short_line(const ShortLines& lines, bool overstate, Check& check) {
    SplitLineCosts<kSegment> split;
    uint64_t reachable = 0, below = 0, split_sum = 0, exact_sum = 0;
    for (int width = 1; width <= 16; ++width)
        for (int limit = 0; limit < width; ++limit) {
            const uint8_t* exact = lines.exact(width, limit);
            const SplitLineCost<kSegment> cost = split.line(width, limit);
            for (uint32_t mask = 0; mask < 1u << width; ++mask) {
                const int r = exact[mask], r_split = split_cost(cost, mask, overstate);
                compare(check, width, limit, mask, r_split, r, width <= kSegment);
                if (width == 16 && r != kUnreachable) {
                    ++reachable;
                    below += r_split < r;
                    split_sum += r_split;
                    exact_sum += r;
                }
            }
        }
    char strength[200];
    std::snprintf(strength, sizeof strength,
                  "; on 16 points R' < R on %" PRIu64 " of %" PRIu64
                  " reachable masks (%.1f%%), mean R' %.3f, R %.3f",
                  below, reachable, 100.0 * below / reachable, double(split_sum) / reachable,
                  double(exact_sum) / reachable);
    check.summary(strength);
}

// The reachability docs/bounds.md and line_costs.h state: no pairs below limit 2; at limit 2 an even count of
// even points and of odd points; from limit 3 any even count.
void check_reachability(const ShortLines& lines, Check& check) {
    for (int width = 1; width <= 16; ++width)
        for (int limit = 0; limit < width; ++limit)
            for (uint32_t mask = 0; mask < 1u << width; ++mask, ++check.masks) {
                const int even = __builtin_popcount(mask & 0x5555u), odd = __builtin_popcount(mask & 0xAAAAu);
                const bool stated = limit < 2 ? mask == 0 : limit == 2 ? even % 2 == 0 && odd % 2 == 0
                                                                      : (even + odd) % 2 == 0;
                if (stated != (lines.exact(width, limit)[mask] != kUnreachable))
                    check.fail(width, limit, mask, "reachable %d, stated %d", !stated, stated);
            }
    check.summary();
}

// A random set of `count` points of a line of `width`: anywhere, or near the segments' border (the masks
// whose pairs cross it).
uint32_t random_mask(std::mt19937_64& random, int width, int count, bool near_border) {
    const int first = near_border ? 16 - 6 : 0, last = near_border ? std::min(width, 16 + 6) : width;
    uint32_t mask = 0;
    while (__builtin_popcount(mask) < std::min(count, last - first))
        mask |= 1u << std::uniform_int_distribution<int>(first, last - 1)(random);
    return mask;
}

// (b), first: the exact method against LineCosts on random masks of the short lines.
void check_exact_method(const ShortLines& lines, Check& check) {
    std::mt19937_64 random(36);
    for (int width = 2; width <= 16; ++width)
        for (int limit = 0; limit < width; ++limit) {
            const ExactLineCost exact(width, limit);
            for (int k = 0; k < 60; ++k, ++check.masks) {
                const uint32_t mask = random_mask(random, width, k % 11, false);
                if (exact(mask) != lines.exact(width, limit)[mask])
                    check.fail(width, limit, mask, "the exact method's %d, LineCosts' %d", exact(mask),
                               lines.exact(width, limit)[mask]);
            }
        }
    check.summary();
}

// (b): R' with segments of 16 against the exact method on random masks of 0-12 points of the wide lines,
// half of them near the segments' border.
void check_wide_lines(bool overstate, Check& check) {
    std::mt19937_64 random(37);
    SplitLineCosts<16> split;
    for (int width = 17; width <= 32; ++width)
        for (int limit = 0; limit < width; ++limit) {
            const ExactLineCost exact(width, limit);
            const SplitLineCost<16> cost = split.line(width, limit);
            for (int k = 0; k < 60; ++k) {
                const uint32_t mask = random_mask(random, width, 2 * (k % 7), k % 2);
                compare(check, width, limit, mask, split_cost(cost, mask, overstate), exact(mask), false);
            }
        }
    check.summary();
}

// --strength: R' against R on random masks of a few points on 32-point lines, and on the lines of designer
// boards (random presses on 16x16 to 31x31), where the pair bound is what the costs are for.
void measure_strength() {
    std::mt19937_64 random(2026);
    SplitLineCosts<16> split;
    std::printf("random masks on 32-point lines, segments of 16 (10,000 masks each): mean R' / mean R, "
                "share with R' = R\n%-8s", "points");
    const int limits[] = {3, 4, 8, 16, 31};
    for (int limit : limits) std::printf("   limit %-13d", limit);
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
    std::printf("designer boards, 20 each: mean pair bound with R' / with R, "
                "share of nonempty lines with R' = R\n");
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
    const ShortLines lines;
    Check checks[] = {{"every short line, segments of 8"}, {"every short line, segments of 16"},
                      {"reachability as stated"}, {"the exact method against LineCosts"},
                      {"random wide lines, segments of 16"}};
    check_every_short_line<8>(lines, overstate, checks[0]);
    check_every_short_line<16>(lines, overstate, checks[1]);
    check_reachability(lines, checks[2]);
    check_exact_method(lines, checks[3]);
    check_wide_lines(overstate, checks[4]);
    for (const Check& check : checks)
        if (check.failures) return 1;
    return 0;
}
