// lagrangian: the covering LP with parity rows, relaxed by Lagrange multipliers and raised by subgradient
// steps at a search node, with parity rows of the node's own: a bound about as strong as the node's LP
// with its parity rounds (docs/experiments/2026-12-04-a-lagrangian-at-every-node.md), at a fraction of
// its cost, and warm from the multipliers of the node above.
//
// With multipliers λ_p ≥ 0 on the covering rows Σ_{m ∋ p} x_m ≥ D_p and μ_r ≥ 0 on parity rows r = (q, m),
// Σ_{m' ∋ q, m' ≠ m} x_m' − x_m ≥ −D_q (cover_lp.h), every 0/1 solution x of the position has
//     Σ x  ≥  L(λ, μ) = Σ_p (λ_p − M_p) D_p + Σ_{open m} min(0, c_m),
//     c_m = 1 − Σ_{p corner of m} (λ_p + M_p) + 2 Σ_{r: m_r = m} μ_r,      M_p = Σ_{r: q_r = p} μ_r,
// since at a solution each relaxed row's term μ(rhs − lhs) is at most 0, and each x_m ∈ {0, 1} is then
// chosen alone (x_m = 1 exactly when c_m < 0). A solution never presses a square twice, so 0/1 is no
// restriction. L is a point weighting (λ − M) plus a constant (the penalty, at most 0) that only rises as
// moves close, so the best L found at a node bounds its whole subtree, a move changing it by its four
// corners' weights: CoverBound holds it beside its other weightings.
//
// Each iteration is the Polyak subgradient step towards budget + 1: the subgradient is D_p − X_p for λ_p
// (X_p the chosen moves with a corner at p) and −D_q − X_q + 2 x_m for a row. Every third iteration the
// rows the chosen moves break are added: a 0-point that exactly one chosen move touches is the row of that
// point and move. The floats only steer; what the bound proves is L summed again in integers (units of
// 1/kWeightScale), so rounding can weaken it, never make it wrong.
//
// Vectorised like the work estimate (bounds.h): the moves of one size along one lattice row are a vector
// of lanes by their top-left point, their corners four shifted loads; each point's X is four shifted loads
// of each size's choices. A lane that is no move, and a closed move, has c = +∞.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

#include "lattice.h"
#include "cover_lp.h"

namespace unflip {
namespace {

constexpr int kLagrangianRows = 256;   // parity rows one node's Lagrangian keeps

template <class L>
class Lagrangian {
    static_assert(!L::kTri, "the parity rows hold for two colours only");
    using Bits = unflip::Bits<L>;
    using Lattice = unflip::Lattice<L>;
    using CoverWeights = unflip::CoverWeights<L>;
    using Point = typename L::Point;
    static constexpr int kStride = L::kStride, kLatticePoints = L::kLatticePoints, kMaxSide = L::kMaxSide;
    // Per size, a move's lane is its top-left point, kLead places in: X at a point reads the moves whose
    // other corners are there, up to (kStride + 1)·size places before it.
    static constexpr int kLead = (kStride + 1) * kMaxSide + 1;
    static constexpr int kPlaces = kLead + kLatticePoints + kStride;
    // A lattice row of moves reads corners up to (kStride + 1)·size + kStride − 1 past its first point.
    static constexpr int kPointsRead = kLatticePoints + 2 * kStride;
    static constexpr float kClosed = std::numeric_limits<float>::infinity();
    static constexpr float kMostWeight = 4;    // a multiplier's most, in moves: the weights stay well inside int32
    // The step (twice Polyak's at first) is halved after this many steps without a gain, and a node stops
    // after this many halvings in a row without one (1/32 of the first step).
    static constexpr int kStepsWithoutGain = 5, kHalvingsWithoutGain = 5;

public:
    // Multipliers: what one node hands the nodes below, and where a search without one starts (an LP's
    // exact duals).
    struct State {
        float lambda[kLatticePoints] = {};
        int rows = 0;
        Point row_point[kLagrangianRows] = {};
        uint16_t row_move[kLagrangianRows] = {};
        float mu[kLagrangianRows] = {};

        void from_duals(const typename CoverLp<L>::ExactDuals& duals) {
            for (int p = 0; p < kLatticePoints; ++p)
                lambda[p] = std::max(0.0f, static_cast<float>(duals.point[p]) / kWeightScale);
            rows = 0;
            for (int k = 0; k < duals.cuts && rows < kLagrangianRows; ++k) {
                if (duals.cut[k] <= 0) continue;
                row_point[rows] = duals.cut_point[k];
                row_move[rows] = duals.cut_move[k];
                mu[rows++] = static_cast<float>(duals.cut[k]) / kWeightScale;
            }
        }
    };

    // What a run proves: the fewest moves, and L at the best multipliers as a weighting of the points plus
    // a constant, in units of 1/kWeightScale (valid wherever the same or fewer moves are open).
    struct Proof {
        int moves = 0;
        CoverWeights weights;
        int64_t penalty = 0;
        int iterations = 0;
    };

    explicit Lagrangian(const Lattice& lattice) : lattice_(lattice) {
        std::fill(std::begin(closed_), std::end(closed_), kClosed);
        place_.resize(lattice.moves.size());
        for (size_t index = 0; index < lattice.moves.size(); ++index) {
            const Move<L>& m = lattice.moves[index];
            place_[index] = m.size * kPlaces + kLead + m.corner[0];
            closed_[m.size * kPlaces + kLead + m.corner[0]] = 0;
            move_at_[m.size * kPlaces + kLead + m.corner[0]] = static_cast<uint16_t>(index);
        }
        row_marks_.assign(lattice.moves.size(), 0);
    }

    // Raise L at position d with the moves `blocked` marks closed, from `start`, until it proves more than
    // `budget` moves, stops gaining or has taken `most_steps`; `best` gets the best multipliers met (start
    // may be best).
    Proof run(const Bits& d, const uint8_t* blocked, int budget, const State& start, State& best, int most_steps) {
        lay_out(d, blocked, start);
        Proof proof;
        const float target = static_cast<float>(budget) + 1;
        float best_value = -std::numeric_limits<float>::infinity();
        float scale = 2;
        int since_gain = 0, halvings_without_gain = 0;
        bool gained_since_halving = false;
        for (int iteration = 0; iteration < most_steps; ++iteration) {
            proof.iterations = iteration + 1;
            const float value = choose();
            if (value > best_value) {
                best_value = value;
                keep(best);
                since_gain = 0;
                gained_since_halving = true;
                // The floats say it refutes: the integers decide.
                if (value > static_cast<float>(budget) - 1e-3f) {
                    prove(d, blocked, best, proof);
                    if (proof.moves > budget) return proof;
                }
            } else if (++since_gain >= kStepsWithoutGain) {
                scale /= 2;
                since_gain = 0;
                halvings_without_gain = gained_since_halving ? 0 : halvings_without_gain + 1;
                gained_since_halving = false;
                if (halvings_without_gain >= kHalvingsWithoutGain) break;
            }
            count_points();
            if (iteration % 3 == 2) separate();
            if (!step(scale * (target - value))) break;   // the relaxation's optimum is this iterate's
        }
        prove(d, blocked, best, proof);
        return proof;
    }

private:
    using Floats = float __attribute__((vector_size(kVectorBytes)));
    static constexpr int kLanes = kVectorBytes / sizeof(float);
    static_assert(kStride % kLanes == 0, "a lattice row is whole vectors");

    // The node's position and the multipliers to start from, in the iteration's arrays.
    void lay_out(const Bits& d, const uint8_t* blocked, const State& start) {
        for (int p = 0; p < kLatticePoints; ++p) one_[p] = d.test(p);
        std::memcpy(cost_, closed_, sizeof cost_);
        for (size_t index = 0; index < place_.size(); ++index)
            if (blocked[index]) cost_[place_[index]] = kClosed;
        std::copy(std::begin(start.lambda), std::end(start.lambda), lambda_);
        std::fill(std::begin(row_sum_), std::end(row_sum_), 0.0f);
        // A row whose multiplier fell to 0 above is left behind: the rows that bind here are separated again.
        for (int r = 0; r < rows_; ++r) row_marks_[row_move_[r]] = 0;
        rows_ = 0;
        std::fill(std::begin(mu_), std::end(mu_), 0.0f);
        std::fill(std::begin(row_one_), std::end(row_one_), 0.0f);
        std::fill(std::begin(row_gradient_), std::end(row_gradient_), 0.0f);
        for (int r = 0; r < start.rows; ++r)
            if (start.mu[r] > 0) add_row(start.row_point[r], start.row_move[r], start.mu[r]);
        for (int p = 0; p < kLatticePoints; ++p) load_[p] = lambda_[p] + row_sum_[p];
    }

    // Each move's reduced cost c, x_m = [c < 0] into chosen_, and L at these multipliers, in floats.
    float choose() {
        const Floats zero = {}, one = zero + 1.0f;
        Floats penalty = zero, part;
        const int sizes = std::min(lattice_.h, lattice_.w);
        for (int k = 2; k <= sizes; ++k)
            for (int r = 0; r + k <= lattice_.h; ++r)
                for (int piece = 0; piece < kStride; piece += kLanes) {
                    const int at = r * kStride + piece;
                    Floats cost;
                    std::memcpy(&cost, &cost_[k * kPlaces + kLead + at], sizeof cost);
                    cost += one;
                    for (int offset : {0, k, kStride * k, (kStride + 1) * k}) {
                        std::memcpy(&part, &load_[at + offset], sizeof part);
                        cost -= part;
                    }
                    const auto chosen = cost < zero;
                    penalty += chosen ? cost : zero;
                    const Floats flag = chosen ? one : zero;
                    std::memcpy(&chosen_[k * kPlaces + kLead + at], &flag, sizeof flag);
                }
        float value = 0;
        for (int lane = 0; lane < kLanes; ++lane) value += penalty[lane];
        return value + sum_of_products(lambda_, one_, kLatticePoints) - sum_of_products(row_one_, mu_, rows_);
    }

    // X_p for every point: the chosen moves with a corner there.
    void count_points() {
        Floats part;
        const int sizes = std::min(lattice_.h, lattice_.w);
        for (int r = 0; r <= lattice_.h; ++r) {
            const int tops = std::min(sizes, lattice_.h - r), bottoms = std::min(sizes, r);
            for (int piece = 0; piece < kStride; piece += kLanes) {
                const int q = r * kStride + piece;
                Floats total = {};
                for (int k = 2; k <= std::max(tops, bottoms); ++k) {
                    if (k <= tops)
                        for (int offset : {0, k}) {
                            std::memcpy(&part, &chosen_[k * kPlaces + kLead + q - offset], sizeof part);
                            total += part;
                        }
                    if (k <= bottoms)
                        for (int offset : {kStride * k, (kStride + 1) * k}) {
                            std::memcpy(&part, &chosen_[k * kPlaces + kLead + q - offset], sizeof part);
                            total += part;
                        }
                }
                std::memcpy(&touched_[q], &total, sizeof total);
            }
        }
    }

    // The rows the chosen moves break most plainly: a 0-point that one chosen move touches (one_ is 0 and
    // touched_ 0 outside the lattice).
    void separate() {
        int added = 0;
        const int sizes = std::min(lattice_.h, lattice_.w);
        const Floats zero = {}, one = zero + 1.0f;
        for (int p = 0; p < kLatticePoints && rows_ < kLagrangianRows && added < kNewRowsPerRound; p += kLanes) {
            Floats one_here, touched;
            std::memcpy(&one_here, &one_[p], sizeof one_here);
            std::memcpy(&touched, &touched_[p], sizeof touched);
            const auto found = (one_here == zero) & (touched == one);
            uint32_t lanes = 0;
            for (int lane = 0; lane < kLanes; ++lane) lanes |= static_cast<uint32_t>(found[lane] != 0) << lane;
            for (; lanes && rows_ < kLagrangianRows && added < kNewRowsPerRound; lanes &= lanes - 1) {
                const int q = p + __builtin_ctz(lanes);
                // The one chosen move there: q is its corner c, at one of four offsets from its top-left.
                for (int k = 2; k <= sizes; ++k) {
                    const int offsets[4] = {0, k, kStride * k, (kStride + 1) * k};
                    int c = 0;
                    while (c < 4 && chosen_[k * kPlaces + kLead + q - offsets[c]] == 0) ++c;
                    if (c == 4) continue;
                    const uint16_t index = move_at_[k * kPlaces + kLead + q - offsets[c]];
                    if (!(row_marks_[index] >> c & 1)) {
                        add_row(static_cast<Point>(q), index, 0);
                        ++added;
                    }
                    break;
                }
            }
        }
    }

    // The Polyak step of length `reach`/‖g‖² along the subgradient g; false when g is 0.
    bool step(float reach) {
        Floats part, norm_lanes = {};
        for (int p = 0; p < kLatticePoints; p += kLanes) {
            Floats one, touched;
            std::memcpy(&one, &one_[p], sizeof one);
            std::memcpy(&touched, &touched_[p], sizeof touched);
            part = one - touched;
            std::memcpy(&gradient_[p], &part, sizeof part);
            norm_lanes += part * part;
        }
        float norm = 0;
        for (int lane = 0; lane < kLanes; ++lane) norm += norm_lanes[lane];
        for (int r = 0; r < rows_; ++r)
            row_gradient_[r] = -row_one_[r] - touched_[row_point_[r]] + 2 * chosen_[row_place_[r]];
        norm += sum_of_products(row_gradient_, row_gradient_, rows_);
        if (norm == 0) return false;
        const float length = reach / norm;
        const Floats zero = {}, length_lanes = zero + length, most = zero + kMostWeight;
        // The rows first, their changes then spread to M and to their moves' costs (the gradient's place
        // takes the change); then λ, and λ + M.
        for (int r = 0; r < rows_; r += kLanes) {
            Floats mu, gradient;
            std::memcpy(&mu, &mu_[r], sizeof mu);
            std::memcpy(&gradient, &row_gradient_[r], sizeof gradient);
            Floats next = mu + length_lanes * gradient;
            next = next > zero ? next : zero;
            next = next < most ? next : most;
            std::memcpy(&mu_[r], &next, sizeof next);
            next -= mu;
            std::memcpy(&row_gradient_[r], &next, sizeof next);
        }
        for (int r = 0; r < rows_; ++r) {
            row_sum_[row_point_[r]] += row_gradient_[r];
            cost_[row_place_[r]] += 2 * row_gradient_[r];
        }
        for (int p = 0; p < kLatticePoints; p += kLanes) {
            Floats lambda, gradient, sum;
            std::memcpy(&lambda, &lambda_[p], sizeof lambda);
            std::memcpy(&gradient, &gradient_[p], sizeof gradient);
            std::memcpy(&sum, &row_sum_[p], sizeof sum);
            lambda += length_lanes * gradient;
            lambda = lambda > zero ? lambda : zero;
            lambda = lambda < most ? lambda : most;
            std::memcpy(&lambda_[p], &lambda, sizeof lambda);
            lambda += sum;
            std::memcpy(&load_[p], &lambda, sizeof lambda);
        }
        return true;
    }

    void keep(State& best) const {
        std::copy_n(lambda_, kLatticePoints, best.lambda);
        best.rows = rows_;
        std::copy_n(row_point_, rows_, best.row_point);
        std::copy_n(row_move_, rows_, best.row_move);
        std::copy_n(mu_, rows_, best.mu);
    }

    // L at `state`'s multipliers, exactly, in units of 1/kWeightScale: the weighting λ − M, the penalty,
    // and the moves they prove at d.
    void prove(const Bits& d, const uint8_t* blocked, const State& state, Proof& proof) {
        int64_t weight[kLatticePoints];   // λ + M, for the moves' costs
        for (int p = 0; p < kLatticePoints; ++p) {
            proof.weights.of[p] = static_cast<int32_t>(std::floor(state.lambda[p] * kWeightScale));
            weight[p] = proof.weights.of[p];
        }
        for (int r = 0; r < state.rows; ++r) {
            const int32_t mu = static_cast<int32_t>(std::floor(state.mu[r] * kWeightScale));
            weight[state.row_point[r]] += mu;
            proof.weights.of[state.row_point[r]] -= mu;
            row_relief_[state.row_move[r]] += 2 * int64_t{mu};
        }
        int64_t penalty = 0;
        for (size_t index = 0; index < place_.size(); ++index) {
            const Move<L>& m = lattice_.moves[index];
            const int64_t cost = kWeightScale + row_relief_[index] - weight[m.corner[0]] - weight[m.corner[1]] -
                                 weight[m.corner[2]] - weight[m.corner[3]];
            if (!blocked[index] && cost < 0) penalty += cost;
        }
        for (int r = 0; r < state.rows; ++r) row_relief_[state.row_move[r]] = 0;
        proof.penalty = penalty;
        proof.moves = CoverWeights::moves_for(proof.weights.sum(d) + penalty);
    }

    void add_row(Point q, uint16_t move, float mu) {
        row_point_[rows_] = q;
        row_move_[rows_] = move;
        row_place_[rows_] = place_[move];
        row_one_[rows_] = one_[q];
        mu_[rows_++] = mu;
        row_sum_[q] += mu;
        cost_[place_[move]] += 2 * mu;
        row_marks_[move] |= corner_bit(move, q);
    }
    uint8_t corner_bit(uint16_t move, int q) const {
        const Move<L>& m = lattice_.moves[move];
        uint8_t bit = 1;
        for (int c = 0; c < 4 && m.corner[c] != q; ++c) bit = static_cast<uint8_t>(bit << 1);
        return bit;
    }

    static constexpr int kNewRowsPerRound = 16;
    // Σ a_i b_i over the first n entries, in lanes (n rounded up to whole vectors: the entries past n are
    // 0 in both).
    static float sum_of_products(const float* a, const float* b, int n) {
        Floats total = {}, x, y;
        for (int r = 0; r < n; r += kLanes) {
            std::memcpy(&x, &a[r], sizeof x);
            std::memcpy(&y, &b[r], sizeof y);
            total += x * y;
        }
        float sum = 0;
        for (int lane = 0; lane < kLanes; ++lane) sum += total[lane];
        return sum;
    }

    const Lattice& lattice_;
    std::vector<uint32_t> place_;   // per move: its place in the per-size arrays, read as one (size, lane)
    std::vector<uint8_t> row_marks_;   // per move: bit c when a row is its corner c's
    uint16_t move_at_[(kMaxSide + 1) * kPlaces] = {};   // per size and lane: the move there
    alignas(64) float closed_[(kMaxSide + 1) * kPlaces];   // per size and lane: 0 for a move, +∞ elsewhere
    alignas(64) float cost_[(kMaxSide + 1) * kPlaces];     // closed_, +∞ for the node's closed moves, plus the
                                                        // rows' 2μ
    alignas(64) float chosen_[(kMaxSide + 1) * kPlaces] = {};   // x_m
    alignas(64) float lambda_[kPointsRead] = {};
    alignas(64) float load_[kPointsRead] = {};          // λ + M
    alignas(64) float row_sum_[kLatticePoints] = {};    // M
    alignas(64) float one_[kLatticePoints] = {};        // D_p
    alignas(64) float touched_[kLatticePoints] = {};    // X_p
    alignas(64) float gradient_[kLatticePoints] = {};
    int rows_ = 0;
    // Per row: its point, its move, the move's place, D at the point, μ and the subgradient; past the
    // last row the floats are 0, so that the rows go a vector at a time.
    Point row_point_[kLagrangianRows] = {};
    uint16_t row_move_[kLagrangianRows] = {};
    uint32_t row_place_[kLagrangianRows] = {};
    alignas(64) float row_one_[kLagrangianRows] = {};
    alignas(64) float mu_[kLagrangianRows] = {};
    alignas(64) float row_gradient_[kLagrangianRows] = {};
    int64_t row_relief_[L::kMaxMoves] = {};
};

}  // namespace
}  // namespace unflip
