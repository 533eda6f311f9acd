// annealing: short solutions found without proof, so that the search's last bound need not be searched.
//
// Iterative deepening ends with the search at the optimum, which must meet a solution; on a hard board
// it is the costliest bound of all (14×14 #1: 199 M of 205 M nodes), because the solutions are few and
// nothing tells the search where they are. Once bound b is exhausted, though, any solution of b + 1 moves
// is optimal, however it was found. Simulated annealing over sets of moves finds such solutions in a
// fraction of that time on most boards; the search's exhausted bounds are still the whole proof, and a
// solution is only ever reported after the bound below it was exhausted (driver.h).
//
// The state is a set of moves and its residue, the corner points they leave odd (the board's difference
// grid XOR their corners). Its energy is |moves| + kResidueWeight · |residue|; a step proposes flipping
// one move in or out and accepts it by the Metropolis rule, the temperature falling geometrically over a
// run. A weight just over ½ makes a solution (empty residue) a local minimum, since a move taken out
// leaves 4 odd corners, while a move in that trades 2 odd corners for 2 others costs only one unit: the
// walk crosses between solutions through states a move or two from one.
#pragma once

#include <cmath>
#include <cstdint>
#include <vector>

#include "lattice.h"

namespace unflip {
namespace {

template <class L>
class Annealer {
    using Bits = unflip::Bits<L>;
    using Move = unflip::Move<L>;
    using Lattice = unflip::Lattice<L>;
    using Point = typename L::Point;
    static constexpr int kLatticePoints = L::kLatticePoints;

public:
    static constexpr double kResidueWeight = 0.53;
    static constexpr double kHotTemperature = 0.35, kColdTemperature = 0.07;
    // A proposal is half the time a move at a random odd corner, which is where flips pay; the other
    // half any move, so that the walk can also leave a solution.
    static constexpr uint32_t kFocusedShare = 1u << 31;
    static constexpr uint64_t kStepsPerCheck = 1 << 12;   // how often the temperature and `stop` are read

    Annealer(const Lattice& lattice, const Bits& d, uint64_t seed)
        : lattice_(lattice), d_(d), state_(seed * 0x9E3779B97F4A7C15ull + 1) {}

    // One run of `steps` proposals from the empty set, cooling from hot to cold; it stops early once it
    // meets a solution of `goal` moves or fewer, or when stop() says so. best() keeps the fewest moves of
    // any solution met in any run so far.
    template <typename Stop>
    void run(uint64_t steps, int goal, Stop&& stop) {
        start_from_empty();
        const int moves = static_cast<int>(lattice_.moves.size());
        const double cooling = std::pow(kColdTemperature / kHotTemperature,
                                        static_cast<double>(kStepsPerCheck) / static_cast<double>(steps));
        double temperature = kHotTemperature;
        for (uint64_t step = 0; step < steps; step += kStepsPerCheck) {
            if (stop()) return;
            set_acceptance(temperature);
            temperature *= cooling;   // a check's worth of cooling
            for (uint64_t k = 0; k < kStepsPerCheck; ++k) {
                const uint64_t r = next();
                int index;
                if (residue_count_ > 0 && static_cast<uint32_t>(r) < kFocusedShare) {
                    const auto& at = lattice_.at[residue_[((r >> 32) & 0xFFFF) % residue_count_]];
                    index = at[(r >> 48) % at.size()];
                } else {
                    index = static_cast<int>((r >> 32) % moves);
                }
                const Move& m = lattice_.moves[index];
                int odd = 0;
                for (int p : m.corner) odd += odd_[p];
                // odd of the 4 corners become even, the others odd: the residue changes by 4 − 2·odd.
                if (next32() >= accept_[chosen_[index]][odd]) continue;
                flip(index);
                if (residue_count_ == 0 && count_ < best_size_) {
                    keep_best();
                    if (best_size_ <= goal) return;
                }
            }
        }
    }

    // The fewest moves of a solution met (kUnbounded: none yet), and those moves, in the lattice's order.
    int best_size() const { return best_size_; }
    const std::vector<uint16_t>& best() const { return best_; }

private:
    void start_from_empty() {
        chosen_.assign(lattice_.moves.size(), 0);
        count_ = 0;
        residue_count_ = 0;
        for (int p = 0; p < kLatticePoints; ++p) {
            odd_[p] = d_.test(p);
            if (odd_[p]) {
                place_[p] = static_cast<uint16_t>(residue_count_);
                residue_[residue_count_++] = static_cast<Point>(p);
            }
        }
    }

    // accept_[in][odd]: the Metropolis rule as a 32-bit threshold, for a move in the set or not and the
    // number of its corners that are odd.
    void set_acceptance(double temperature) {
        for (int in = 0; in < 2; ++in)
            for (int odd = 0; odd <= 4; ++odd) {
                const double change = (in ? -1.0 : 1.0) + kResidueWeight * (4 - 2 * odd);
                const double p = change <= 0 ? 1.0 : std::exp(-change / temperature);
                accept_[in][odd] = p >= 1.0 ? ~uint64_t{0} : static_cast<uint64_t>(p * 4294967296.0);
            }
    }

    void flip(int index) {
        chosen_[index] ^= 1;
        count_ += chosen_[index] ? 1 : -1;
        for (int p : lattice_.moves[index].corner) {
            odd_[p] ^= 1;
            if (odd_[p]) {
                place_[p] = static_cast<uint16_t>(residue_count_);
                residue_[residue_count_++] = static_cast<Point>(p);
            } else {
                const Point last = residue_[--residue_count_];
                residue_[place_[p]] = last;
                place_[last] = place_[p];
            }
        }
    }

    void keep_best() {
        best_size_ = count_;
        best_.clear();
        for (size_t index = 0; index < chosen_.size(); ++index)
            if (chosen_[index]) best_.push_back(static_cast<uint16_t>(index));
    }

    // xorshift64*: fast, and the same sequence from the same seed on every machine.
    uint64_t next() {
        state_ ^= state_ >> 12;
        state_ ^= state_ << 25;
        state_ ^= state_ >> 27;
        return state_ * 0x2545F4914F6CDD1Dull;
    }
    uint64_t next32() { return next() >> 32; }

    const Lattice& lattice_;
    const Bits d_;
    uint64_t state_;
    std::vector<uint8_t> chosen_;
    int count_ = 0;
    uint8_t odd_[kLatticePoints] = {};
    Point residue_[kLatticePoints] = {};
    uint16_t place_[kLatticePoints] = {};   // where an odd point sits in residue_
    int residue_count_ = 0;
    uint64_t accept_[2][5] = {};
    int best_size_ = kUnbounded;
    std::vector<uint16_t> best_;
};

}  // namespace
}  // namespace unflip
