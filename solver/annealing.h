// annealing: short solutions found without proof, so that the search's last bound need not be searched.
//
// Iterative deepening ends with the search at the optimum, which must meet a solution; on a hard board
// it is the costliest bound of all (14×14 #1: 199 M of 205 M nodes), because the solutions are few and
// nothing tells the search where they are. Once bound b is exhausted, though, any solution of b + 1 moves
// is optimal, however it was found. Simulated annealing over press counts finds such solutions in a
// fraction of that time on most boards; the search's exhausted bounds are still the whole proof, and a
// solution is only ever reported after the bound below it was exhausted (driver.h).
//
// The state is a press count x_s for every square (0 or 1; under tri 0, 1 or 2) and its residue, the
// corner points it leaves unsolved (the board's difference grid plus the presses' corners, in the layout's
// arithmetic). Its energy is Σ x + kResidueWeight · |residue|; a step proposes changing one x by one press
// (two colours: in or out; tri: one more or one fewer, mod 3) and accepts it by the Metropolis rule, the
// temperature falling geometrically over a run. A weight just over ½ makes a solution (empty residue) a
// local minimum, since a press taken out leaves 4 corners unsolved, while a press in that trades 2 unsolved
// corners for 2 others costs only one unit: the walk crosses between solutions through states a press or
// two from one. Under tri a square pressed twice is one step from once and from not at all, as the game's
// third press undoes the first two.
#pragma once

#include <cmath>
#include <cstdint>
#include <vector>

#include "lattice.h"

namespace unflip {
namespace {

// The walk's settings, per arithmetic: the residue's weight, the temperatures a run cools between, the
// proposals the driver spends per node of the bound just exhausted, and the longest run (restarts from
// nothing meet more than one long run). Two colours: docs/experiments/2026-12-01-annealing-the-last-bound.md.
// A node costs some 400-600 proposals' time (13×13 #6 and 14×14 #3, with the LP solved where the estimate
// foresees work), so at worst 512 a node is about the bound's own time again, against a next bound that
// costs 10-100 times it; and it stops at the first solution it is after. (At 256, 14×14 #1's bound 36 took
// too few nodes for it to meet a 37: the search at 37 took 116 M nodes more, 290 s against 21 s.)
// Tri: docs/experiments/2026-12-03-three-colours.md, on dense 7×7 boards: at two colours' weight most runs
// end with corners left unsolved and no solution at all; at 0.8, warmer, runs of some 4,000 proposals a
// square meet the optimum in 0.5-1.4 M proposals. A tri node costs some 25 proposals' time and
// the next bound only about 3 times this one's, so 2 proposals a node: a bound with no solution loses under
// a tenth of its time, and the last one still gives annealing millions.
template <bool Tri>
struct AnnealingSchedule {
    static constexpr double kResidueWeight = 0.53;
    static constexpr double kHotTemperature = 0.35, kColdTemperature = 0.07;
    static constexpr uint64_t kStepsPerNode = 512;
    static constexpr uint64_t longest_run(size_t) { return uint64_t{1} << 27; }
};
template <>
struct AnnealingSchedule<true> {
    static constexpr double kResidueWeight = 0.8;
    static constexpr double kHotTemperature = 0.7, kColdTemperature = 0.3;
    static constexpr uint64_t kStepsPerNode = 2;
    static constexpr uint64_t longest_run(size_t squares) { return 4096 * uint64_t{squares}; }
};

template <class L>
class Annealer {
    using Grid = unflip::Grid<L>;
    using Lattice = unflip::Lattice<L>;
    using Point = typename L::Point;
    static constexpr int kLatticePoints = L::kLatticePoints;
    static constexpr int kColours = L::kTri ? 3 : 2;

public:
    using Schedule = AnnealingSchedule<L::kTri>;
    static constexpr double kResidueWeight = Schedule::kResidueWeight;
    static constexpr double kHotTemperature = Schedule::kHotTemperature;
    static constexpr double kColdTemperature = Schedule::kColdTemperature;
    // A proposal is half the time a square at a random unsolved corner, which is where presses pay; the
    // other half any square, so that the walk can also leave a solution.
    static constexpr uint32_t kFocusedShare = 1u << 31;
    static constexpr uint64_t kStepsPerCheck = 1 << 12;   // how often the temperature and `stop` are read

    Annealer(const Lattice& lattice, const Grid& d, uint64_t seed)
        : squares_(lattice.plain()), d_(d), state_(seed * 0x9E3779B97F4A7C15ull + 1) {}

    // One run of `steps` proposals from no presses, cooling from hot to cold; it stops early once it meets
    // a solution of `goal` presses or fewer, or when stop() says so. best() keeps the fewest presses of any
    // solution met in any run so far.
    template <typename Stop>
    void run(uint64_t steps, int goal, Stop&& stop) {
        start_from_nothing();
        const int squares = static_cast<int>(squares_.moves.size());
        const double cooling = std::pow(kColdTemperature / kHotTemperature,
                                        static_cast<double>(kStepsPerCheck) / static_cast<double>(steps));
        double temperature = kHotTemperature;
        for (uint64_t step = 0; step < steps; step += kStepsPerCheck) {
            if (stop()) return;
            set_acceptance(temperature);
            temperature *= cooling;   // a check's worth of cooling
            for (uint64_t k = 0; k < kStepsPerCheck; ++k) {
                const uint64_t r = next();
                int square;
                if (residue_count_ > 0 && static_cast<uint32_t>(r) < kFocusedShare) {
                    const auto& at = squares_.at[residue_[((r >> 32) & 0xFFFF) % residue_count_]];
                    square = at[(r >> 48) % at.size()];
                } else {
                    square = static_cast<int>((r >> 32) % squares);
                }
                // One press more, or under tri one fewer (the focus test reads only bit 31 of r's low half).
                const int change = L::kTri && (r & 1) ? kColours - 1 : 1;
                if (next32() >= threshold(square, change)) continue;
                press(square, change);
                if (residue_count_ == 0 && count_ < best_size_) {
                    keep_best();
                    if (best_size_ <= goal) return;
                }
            }
        }
    }

    // The fewest presses of a solution met (kUnbounded: none yet), and that solution as the lattice's
    // moves (under tri, each square's entry for the times it is pressed), in the lattice's order.
    int best_size() const { return best_size_; }
    const std::vector<uint16_t>& best() const { return best_; }

private:
    void start_from_nothing() {
        presses_.assign(squares_.moves.size(), 0);
        count_ = 0;
        residue_count_ = 0;
        for (int p = 0; p < kLatticePoints; ++p) {
            if constexpr (L::kTri) value_[p] = static_cast<uint8_t>(d_.value(p));
            else value_[p] = d_.test(p);
            if (value_[p]) {
                place_[p] = static_cast<uint16_t>(residue_count_);
                residue_[residue_count_++] = static_cast<Point>(p);
            }
        }
    }

    // The Metropolis rule as 32-bit thresholds. Two colours: accept_[in the set][odd corners], the energy
    // changing by ∓1 and 0.53 for each of the 4 − 2·odd corners more left odd, the hot loop's cheapest
    // key. Tri: accept_[presses' change + 2][unsolved corners' change + 4].
    void set_acceptance(double temperature) {
        auto threshold_of = [&](double change) {
            const double p = change <= 0 ? 1.0 : std::exp(-change / temperature);
            return p >= 1.0 ? ~uint64_t{0} : static_cast<uint64_t>(p * 4294967296.0);
        };
        if constexpr (L::kTri) {
            for (int presses = -2; presses <= 2; ++presses)
                for (int unsolved = -4; unsolved <= 4; ++unsolved)
                    accept_[presses + 2][unsolved + 4] = threshold_of(presses + kResidueWeight * unsolved);
        } else {
            for (int in = 0; in < 2; ++in)
                for (int odd = 0; odd <= 4; ++odd)
                    accept_[in][odd] = threshold_of((in ? -1.0 : 1.0) + kResidueWeight * (4 - 2 * odd));
        }
    }

    // The threshold for `change` presses of `square` (set_acceptance's table).
    uint64_t threshold(int square, int change) const {
        const auto& corner = squares_.moves[square].corner;
        if constexpr (L::kTri) {
            int unsolved = 0;
            for (int q = 0; q < 4; ++q)
                unsolved += ((value_[corner[q]] + step_at(q, change)) % kColours != 0) - (value_[corner[q]] != 0);
            const int after = (presses_[square] + change) % kColours;
            return accept_[after - presses_[square] + 2][unsolved + 4];
        } else {
            int odd = 0;
            for (int p : corner) odd += value_[p];
            return accept_[presses_[square]][odd];
        }
    }

    void press(int square, int change) {
        const int after = (presses_[square] + change) % kColours;
        count_ += after - presses_[square];
        presses_[square] = static_cast<uint8_t>(after);
        const auto& corner = squares_.moves[square].corner;
        for (int q = 0; q < 4; ++q) {
            const int p = corner[q];
            if constexpr (L::kTri) {
                const bool was_unsolved = value_[p] != 0;
                value_[p] = static_cast<uint8_t>((value_[p] + step_at(q, change)) % kColours);
                if ((value_[p] != 0) == was_unsolved) continue;   // 1 to 2 or back: still unsolved
            } else {
                value_[p] ^= 1;
            }
            if (value_[p]) {
                place_[p] = static_cast<uint16_t>(residue_count_);
                residue_[residue_count_++] = static_cast<Point>(p);
            } else {
                const Point last = residue_[--residue_count_];
                residue_[place_[p]] = last;
                place_[last] = place_[p];
            }
        }
    }

    // The lattice's moves are each square's entries in turn, one a press count (Lattice's constructor).
    void keep_best() {
        best_size_ = count_;
        best_.clear();
        for (size_t square = 0; square < presses_.size(); ++square)
            if (presses_[square])
                best_.push_back(static_cast<uint16_t>(square * L::kTimes + presses_[square] - 1));
    }

    // xorshift64*: fast, and the same sequence from the same seed on every machine.
    uint64_t next() {
        state_ ^= state_ >> 12;
        state_ ^= state_ << 25;
        state_ ^= state_ >> 27;
        return state_ * 0x2545F4914F6CDD1Dull;
    }
    uint64_t next32() { return next() >> 32; }

    const unflip::Lattice<typename L::Plain>& squares_;   // the board's squares, once each
    const Grid d_;
    uint64_t state_;
    std::vector<uint8_t> presses_;   // per square
    int count_ = 0;
    uint8_t value_[kLatticePoints] = {};   // per point, what is left to make there, mod kColours
    Point residue_[kLatticePoints] = {};
    uint16_t place_[kLatticePoints] = {};   // where an unsolved point sits in residue_
    int residue_count_ = 0;
    uint64_t accept_[5][9] = {};
    int best_size_ = kUnbounded;
    std::vector<uint16_t> best_;
};

}  // namespace
}  // namespace unflip
