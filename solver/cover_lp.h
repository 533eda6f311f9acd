// covering bound: the covering LP: exact integer point weights, and its warm-started dual simplex.
//
// Every 1-point of D must be toggled at least once and a move toggles four points, so the covering LP
//     min Σ x_m   subject to   Σ_{m has a corner at p} x_m ≥ 1 for every 1-point p,   x ≥ 0
// bounds the moves still needed. Its dual is a packing: point weights w ≥ 0 with Σ_{p corner of m} w_p ≤ 1
// for every move m. Any such weighting proves that at least Σ_{p is a 1-point} w_p moves remain, whatever
// the points' colours, so one weighting found at the root bounds every position below it: a move changes
// the sum only by its four corners' weights (by at most 1 downwards), which keeps the bound admissible,
// consistent, and maintained in four additions. Weights are integers in units of 1/kWeightScale, checked
// exactly, so floating-point error in the LP can only weaken the bound, never make it wrong.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <iterator>
#include <limits>
#include <vector>

#include "lattice.h"

namespace unflip {
namespace {

constexpr int kWeightScale = 1 << 20;
constexpr int kMaxCuts = 128;                    // parity rows one LP keeps
constexpr double kParityReach = 1.5;             // parity rows are tried on an LP within this of refuting

template <class L>
struct CoverWeights {
    int32_t of[L::kLatticePoints] = {};

    // The fewest moves this weighting proves for the 1-points of d.
    // (A weighting with parity rows folded in can sum to less than nothing: that proves nothing.)
    static int moves_for(int64_t weight_sum) {
        return weight_sum <= 0 ? 0 : static_cast<int>((weight_sum + kWeightScale - 1) / kWeightScale);
    }
    int64_t sum(const Bits<L>& d) const {
        int64_t total = 0;
        d.for_each([&](int p) { total += of[p]; });
        return total;
    }
};

// LP weights (per lattice point) as integers in units of 1/kWeightScale, made exactly feasible for the
// moves not `blocked`: an overloaded move gives up weight at its corners that are 0-points in d first
// (their weight proves nothing here), then at its 1-points. Then the 0-points get whatever slack the
// moves leave: that only strengthens the bound wherever the search turns them into 1-points.
template <class L>
inline void to_integer_weights(const Lattice<L>& lattice, const uint8_t* blocked, const double* value,
                               const Bits<L>& d, CoverWeights<L>& out) {
    const double scale = kWeightScale * (1 - 1e-9);
    for (int p = 0; p < L::kLatticePoints; ++p) out.of[p] = static_cast<int32_t>(std::floor(value[p] * scale));
    std::vector<int64_t> load(lattice.moves.size(), 0);
    for (size_t index = 0; index < lattice.moves.size(); ++index) {
        if (blocked[index]) continue;
        const Move<L>& move = lattice.moves[index];
        int64_t total = 0;
        for (int p : move.corner) total += out.of[p];
        for (int pass = 0; pass < 2 && total > kWeightScale; ++pass)
            for (int p : move.corner) {
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
        for (int p : lattice.moves[index].corner) load[index] += out.of[p];
    }
    for (int p = 0; p < L::kLatticePoints; ++p) {
        if (lattice.at[p].empty()) continue;
        int64_t slack = kWeightScale;
        for (uint16_t index : lattice.at[p])
            if (!blocked[index]) slack = std::min<int64_t>(slack, kWeightScale - load[index]);
        if (slack <= 0) continue;
        out.of[p] += static_cast<int32_t>(slack);
        for (uint16_t index : lattice.at[p]) load[index] += slack;
    }
}

// Σ a_i b_i with sixteen running sums: the hot loops of the LP, which fewer sums would serialise on the
// latency of each addition.
inline double dot(const double* a, const double* b, int n) {
    constexpr int kSums = 16;
    double sum[kSums] = {};
    int i = 0;
    for (; i + kSums <= n; i += kSums)
        for (int k = 0; k < kSums; ++k) sum[k] += a[i + k] * b[i + k];
    for (; i + 4 <= n; i += 4)
        for (int k = 0; k < 4; ++k) sum[k] += a[i + k] * b[i + k];
    for (; i < n; ++i) sum[0] += a[i] * b[i];
    double total = 0;
    for (int k = 0; k < kSums; ++k) total += sum[k];
    return total;
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
template <class L>
class CoverLp {
    using Bits = unflip::Bits<L>;
    using Move = unflip::Move<L>;
    using Lattice = unflip::Lattice<L>;
    using CoverWeights = unflip::CoverWeights<L>;
    using Point = typename L::Point;
    static constexpr int kStride = L::kStride, kLatticePoints = L::kLatticePoints;

public:
    static constexpr int kCutRow = kLatticePoints;   // LP rows: a covering row per point, then parity rows
    static constexpr int kRows = kCutRow + kMaxCuts;

    explicit CoverLp(const Lattice& lattice)
        : lattice_(lattice), moves_(static_cast<int>(lattice.moves.size())),
          stride_(std::min(moves_, (lattice.h + 1) * (lattice.w + 1) + kMaxCuts)) {
        state_.core.resize(static_cast<size_t>(stride_) * stride_);
        state_.move_at.resize(stride_);
        state_.row_at.resize(stride_);
        state_.fixed.resize(moves_);
        state_.slot_of_move.resize(moves_);
        candidate_.resize(stride_);
        alpha_fix_.assign(moves_, 0.0);
        dual_fix_.assign(moves_, 0.0);
        for (const Move& m : lattice.moves) corner_storage_.push_back({m.corner[0], m.corner[1], m.corner[2], m.corner[3]});
        corner_table_ = corner_storage_.data();
        lay_out_grid();
        start_cold(Bits{});
    }

    // The slack basis: every surplus basic (K = 0), dual feasible since every move costs 1 and y = 0.
    void start_cold(const Bits& d) {
        State& s = state_;
        s.size = 0;
        s.cuts = 0;
        s.rhs = d;
        duals_current_ = primal_current_ = false;
        std::fill(s.fixed.begin(), s.fixed.end(), 0);
        std::fill(s.slot_of_move.begin(), s.slot_of_move.end(), -1);
        std::fill(std::begin(s.slot_of_row), std::end(s.slot_of_row), -1);
        open_all();
    }

    // Move the LP to position d, with the moves `blocked` marks fixed at zero. Fixing is one-way: a
    // position's blocked moves include its ancestors'.
    void set_position(const Bits& d, const uint8_t* blocked) {
        state_.rhs = d;
        primal_current_ = false;
        for (int index = 0; index < moves_; ++index)
            if (blocked[index]) state_.fixed[index] = 1;
        open_all();
    }

    // Forget the parity rows whose surplus is basic: they are outside the core C, so the basis, its
    // primal and its duals stay as they are, and the rows that bind are kept for the positions below
    // (a parity row holds at every position, whatever its point's colour).
    void drop_slack_cuts() {
        State& s = state_;
        int kept = 0;
        for (int k = 0; k < s.cuts; ++k) {
            const int slot = s.slot_of_row[kCutRow + k];
            if (slot < 0) continue;
            s.cut_point[kept] = s.cut_point[k];
            s.cut_move[kept] = s.cut_move[k];
            s.slot_of_row[kCutRow + kept] = static_cast<int16_t>(slot);
            s.row_at[slot] = static_cast<uint16_t>(kCutRow + kept);
            ++kept;
        }
        for (int k = kept; k < s.cuts; ++k) s.slot_of_row[kCutRow + k] = -1;
        s.cuts = kept;
    }

    enum class Result { kOptimal, kAbove, kInfeasible, kIterationCap };

    // Dual simplex pivots until the basis is primal feasible (optimal), the dual bound exceeds
    // `budget` (the position is refuted), no allowed move can cover some 1-point, or the cap. With
    // `parity_rounds`, an optimal basis is then cut by the parity rows it violates and solved again,
    // that many times at most, and no more once a round has raised the optimum by less than
    // `least_gain`: at the search's nodes the rounds raise it by about 0.77, 0.35, 0.16, 0.05, 0.01 and
    // 0.002 in turn (13×13 #6), while each costs 15-85 pivots, so the last ones are nearly all cost.
    Result solve(int budget, int parity_rounds = 0, double least_gain = 0) {
        const int cap = 4 * stride_;
        double last_optimum = -std::numeric_limits<double>::infinity();
        for (int iteration = 0;; ++iteration) {
            compute_primal();
            const Leaving leave = most_infeasible();
            if (leave.slot < 0 && leave.row < 0) {
                const bool gaining = least_gain <= 0 || objective_ >= last_optimum + least_gain;
                last_optimum = objective_;
                if (gaining && parity_rounds-- > 0 && add_violated_parity_cuts()) continue;
                return Result::kOptimal;
            }
            if (iteration >= cap) return Result::kIterationCap;
            if (objective_ > budget + kBoundMargin) return Result::kAbove;
            if (!pivot(leave)) return Result::kInfeasible;
        }
    }

    // The current dual solution as an exact integer proof, in units of 1/kWeightScale: per lattice point
    // its covering row's weight, and per parity row its point, its move and its multiplier.
    struct ExactDuals {
        int64_t point[kLatticePoints] = {};
        int cuts = 0;
        Point cut_point[kMaxCuts] = {};
        uint16_t cut_move[kMaxCuts] = {};
        int64_t cut[kMaxCuts] = {};
    };
    void proof_duals(ExactDuals& out) {
        duals_current_ = false;   // summed afresh from the basis, free of the pivots' rank-one rounding
        exact_duals();
        const State& s = state_;
        out = ExactDuals{};
        for (int p = 0; p < kLatticePoints; ++p) out.point[p] = exact_dual_[p];
        for (int k = 0; k < s.cuts; ++k) out.cut[k] = exact_dual_[kCutRow + k];
        out.cuts = s.cuts;
        std::copy_n(s.cut_point, s.cuts, out.cut_point);
        std::copy_n(s.cut_move, s.cuts, out.cut_move);
    }

    // The fewest moves the current dual solution proves, exactly: y·D, with the parity rows' duals,
    // checked in integers against every allowed move (or 0 when the check fails).
    int proven_moves() {
        if (!exact_duals()) return 0;
        const State& s = state_;
        const std::vector<int64_t>& on_row = exact_dual_;
        int64_t total = 0;
        for (int p = 0; p < kLatticePoints; ++p)
            if (s.rhs.test(p)) total += on_row[p];
        for (int k = 0; k < s.cuts; ++k)
            if (s.rhs.test(s.cut_point[k])) total -= on_row[kCutRow + k];
        return CoverWeights::moves_for(std::max<int64_t>(total, 0));
    }

    // The duals with the parity rows' duals folded in, as a point weighting that bounds every position below
    // this one, not just this one. A parity row's right-hand side is −D_q at any position (it holds for
    // every 0/1 solution, whatever q's colour), so y·b(D') = Σ_p (y_p − Σ_{rows at p} u) D'_p is the
    // dual bound at every D' below, for the same (or fewer) allowed moves: a 0-point with parity rows
    // weighs less than nothing, and the search pays for turning it into a 1-point. False when the exact
    // check fails (out is then untouched). The moves' slack then goes to the points, as in
    // to_integer_weights.
    bool parity_weights(CoverWeights& out) {
        if (!exact_duals()) return false;
        const State& s = state_;
        const std::vector<int64_t>& on_row = exact_dual_;
        int64_t weight[kLatticePoints];
        for (int p = 0; p < kLatticePoints; ++p) weight[p] = on_row[p];
        for (int k = 0; k < s.cuts; ++k) weight[s.cut_point[k]] -= on_row[kCutRow + k];
        for (int p = 0; p < kLatticePoints; ++p) {
            if (lattice_.at[p].empty()) continue;
            int64_t slack = kWeightScale;
            for (uint16_t index : lattice_.at[p])
                if (!s.fixed[index]) slack = std::min(slack, kWeightScale - load_[index]);
            if (slack > 0) {
                weight[p] += slack;
                for (uint16_t index : lattice_.at[p]) load_[index] += slack;
            }
        }
        for (int p = 0; p < kLatticePoints; ++p) {
            if (weight[p] < std::numeric_limits<int32_t>::min() / 2) return false;
            out.of[p] = static_cast<int32_t>(weight[p]);
        }
        return true;
    }

    // The objective of the current basis: the LP's optimum once solve() says so.
    double value() const { return objective_; }

    // The covering rows' duals alone as an exactly feasible integer weighting for the moves still
    // allowed (parity_weights keeps the parity rows' too): a move the parity rows relieved is trimmed
    // back at its 0-corners first.
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
        std::vector<double> core;          // C, K×K, its rows stride_ apart (K when saved); row = move slot
        std::vector<uint16_t> move_at;     // the basic move in each row slot of C
        std::vector<uint16_t> row_at;      // the tight row in each column slot of C
        std::vector<int16_t> slot_of_move; // inverse of move_at; -1 when the move is not basic
        int16_t slot_of_row[kRows];        // inverse of row_at; -1 when the row's surplus is basic
        int cuts = 0;                      // parity rows so far
        Point cut_point[kMaxCuts];         // row kCutRow + k: the 0-point q and the move m of
        uint16_t cut_move[kMaxCuts];       //   Σ_{moves at q but m} x − x_m ≥ −D_q
        std::vector<uint8_t> fixed;        // per move: held at zero
        Bits rhs;                          // D
    };
    void save(State& into) const { copy(state_, stride_, into, state_.size); }
    // Off, the duals and the primal are summed afresh at every pivot (each pivot's rank-one update is then
    // discarded): the LP follows exactly the path it took before the updates, which the certificate's
    // search needs to solve an LP again as the search solved it.
    void update_by_pivot(bool on) { refresh_ = on ? kRefresh : 1; }
    // On, a move the exact duals overload by their rounding is mended from its corners' covering duals
    // (relieve) rather than failing the proof. Off for a certificate, whose duals are stated as solved.
    void repair_rounding(bool on) { repair_ = on; }

    void restore(const State& from) {
        copy(from, from.size, state_, stride_);
        duals_current_ = primal_current_ = false;
        open_all();
    }

private:
    static constexpr double kFeasibilityTolerance = 1e-9;
    static constexpr double kPivotTolerance = 1e-9;
    static constexpr double kBoundMargin = 1e-6;
    static constexpr int kCutsPerRound = 24;
    static constexpr int kRefresh = 16;

    // The duals in integers (units of 1/kWeightScale, rounded down) into exact_dual_ by row, and each
    // allowed move's load under them into load_; true when no allowed move is overloaded.
    bool exact_duals() {
        compute_duals();
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
            const Point* c = corner_table_[index].data();
            load_[index] = on_point[c[0]] + on_point[c[1]] + on_point[c[2]] + on_point[c[3]] - fix_exact_[index];
        }
        bool feasible = true;
        for (int index = 0; index < moves_; ++index)
            if (!s.fixed[index] && load_[index] > kWeightScale && !(repair_ && relieve(index))) feasible = false;
        return feasible;
    }

    // Rounding a parity row's dual down loads its own move (whose coefficient there is −1) by up to a
    // unit, and a tight move then fails the check by that unit, losing the whole proof for a rounding.
    // Taking the excess from the covering duals at the move's corners (its 0-points first, whose weight
    // proves nothing here) only lowers other moves' loads, so one pass mends every move it can.
    bool relieve(int index) {
        int64_t excess = load_[index] - kWeightScale;
        for (int pass = 0; pass < 2 && excess > 0; ++pass)
            for (int p : corner_table_[index]) {
                if (excess == 0) break;
                if (state_.rhs.test(p) != (pass == 1)) continue;
                const int64_t cut = std::min(exact_dual_[p], excess);
                if (cut <= 0) continue;
                exact_dual_[p] -= cut;
                excess -= cut;
                for (uint16_t at : lattice_.at[p]) load_[at] -= cut;
            }
        return excess == 0;
    }

    // C's rows are `from_stride` apart in `from` and `to_stride` in `to`: the LP's own state keeps them
    // stride_ apart, room for any K, and a saved one K apart, as small as its K (at 31×31, stride_² doubles
    // are 10 MB, and a search saves a state at every depth it refines).
    void copy(const State& from, int from_stride, State& to, int to_stride) const {
        to.size = from.size;
        to.core.resize(std::max(to.core.size(), static_cast<size_t>(from.size) * to_stride));
        for (int i = 0; i < from.size; ++i)
            std::copy_n(&from.core[static_cast<size_t>(i) * from_stride], from.size,
                        &to.core[static_cast<size_t>(i) * to_stride]);
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
        const Point* c = corner_table_[index].data();
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
    // Like the duals, x_M follows each pivot by the rank-one change of C (and of D_T), and is computed
    // afresh after a restore, a new position and every kRefresh pivots.
    void compute_primal() {
        const State& s = state_;
        if (!primal_current_) {
            primal_current_ = true;
            pivots_since_refresh_ = 0;
            duals_current_ = false;
            for (int t = 0; t < s.size; ++t) rhs_on_core_[t] = rhs_of(s.row_at[t]);
            for (int i = 0; i < s.size; ++i) value_[i] = dot(&s.core[static_cast<size_t>(i) * stride_], rhs_on_core_, s.size);
        }
        objective_ = 0;
        std::fill(std::begin(cover_), std::end(cover_), 0.0);
        for (int i = 0; i < s.size; ++i) {
            const double x = value_[i];
            objective_ += x;
            for (int p : lattice_.moves[s.move_at[i]].corner) cover_[p] += x;
        }
    }

    // y_T = 1ᵀ C. Each pivot updates y by the same rank-one change as C, in O(K) rather than O(K²);
    // it is summed afresh after a restore and every kRefresh pivots, so rounding cannot build up.
    void compute_duals() {
        if (duals_current_) return;
        duals_current_ = true;
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
            // A surplus row's norm is at least 1, so one that cannot beat the worst so far even at 1 is
            // passed over without computing its row of B⁻¹ (it would lose the strict comparison anyway).
            if (violation <= kFeasibilityTolerance || violation * violation <= worst) return;
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
            for (int q : lattice_.moves[s.move_at[i]].corner) {
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
            s.cut_point[s.cuts] = static_cast<Point>(v.q);
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
        double bound_ratio = price_moves(sign);
        int candidates = 0;
        for (int t = 0; t < s.size; ++t) {
            const double a = -sign * basis_row[t];
            if (a <= kPivotTolerance) continue;
            const double reduced = std::max(0.0, dual_[t]);
            candidate_[candidates++] = Candidate{-1 - t, a, reduced};
            bound_ratio = std::min(bound_ratio, (reduced + kFeasibilityTolerance) / a);
        }
        // The moves first, then the surpluses, the first of the largest α winning, as in one pass.
        int enter = 0;
        double largest = 0;
        best_move(bound_ratio, enter, largest);
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
        if (++pivots_since_refresh_ >= refresh_) duals_current_ = primal_current_ = false;
        return true;
    }

    // The ratio test prices every move at once, on a grid: the moves of size k by their top-left point p,
    // whose four corners are then p, p + k, p + Sk and p + (S + 1)k (S the stride), so that a whole size's α (and duals'
    // sum) is four shifted runs of row_at_point_ added, which the compiler vectorises, where a move at a
    // time gathers its corners and branches. A cell whose square would leave the lattice (c + k > w) is
    // no move and stays shut. Sizes run from the largest, as the moves' indices do, so cells keep the
    // moves' order and the first of equal candidates is the one a pass over the moves would take.
    void lay_out_grid() {
        int start = 0;
        for (int k = std::min(lattice_.h, lattice_.w); k >= 2; --k) {
            const int length = (lattice_.h - k) * kStride + (lattice_.w - k) + 1;
            runs_.push_back({k, start, length});
            start += length;
        }
        const int cells = (start + kLanes - 1) / kLanes * kLanes;
        move_of_cell_.assign(cells, -1);
        open_.assign(cells, 0.0);
        cell_alpha_.assign(cells, 0.0);
        cell_reduced_.assign(cells, 0.0);
        cell_of_move_.resize(moves_);
        for (int index = 0; index < moves_; ++index) {
            const Move& m = lattice_.moves[index];
            const int cell = runs_[std::min(lattice_.h, lattice_.w) - m.size].start + m.corner[0];
            cell_of_move_[index] = cell;
            move_of_cell_[cell] = index;
        }
    }

    // A move may enter when it is neither fixed nor basic: open_ says so per cell, for the ratio test's
    // lanes, and is set again wherever either changes.
    void open_all() {
        for (int index = 0; index < moves_; ++index) reopen(index);
    }
    void reopen(int index) {
        open_[cell_of_move_[index]] = !state_.fixed[index] && state_.slot_of_move[index] < 0 ? 1.0 : 0.0;
    }

    // Every open move's α, signed towards the leaving variable's bound, into cell_alpha_ (0 unless it is a
    // candidate, α > tolerance) and its reduced cost into cell_reduced_; returns the least of the
    // candidates' Harris ratios. The parity rows' −2 on their own moves is added after the corners, and
    // cleared for the next pivot.
    double price_moves(double sign) {
        const double* __restrict along = row_at_point_;
        const double* __restrict dual = dual_at_point_;
        for (const SizeRun& run : runs_) {
            const int k = run.size;
            double* __restrict alpha = &cell_alpha_[run.start];
            double* __restrict reduced = &cell_reduced_[run.start];
            for (int p = 0; p < run.length; ++p) {
                alpha[p] = ((along[p] + along[p + k]) + along[p + kStride * k]) + along[p + (kStride + 1) * k];
                reduced[p] = ((dual[p] + dual[p + k]) + dual[p + kStride * k]) + dual[p + (kStride + 1) * k];
            }
        }
        for (uint16_t index : fixed_moves_) {
            const int cell = cell_of_move_[index];
            cell_alpha_[cell] += alpha_fix_[index];
            cell_reduced_[cell] += dual_fix_[index];
            alpha_fix_[index] = dual_fix_[index] = 0;
        }
        constexpr double kNone = std::numeric_limits<double>::infinity();
        const Lanes zero = {}, none = zero + kNone, one = zero + 1,
                    tolerance = zero + kPivotTolerance, feasibility = zero + kFeasibilityTolerance,
                    towards = zero + sign;
        Lanes least = none, a, open, less;
        double* alpha = cell_alpha_.data();
        double* reduced = cell_reduced_.data();
        for (size_t g = 0; g < open_.size(); g += kLanes) {
            std::memcpy(&a, alpha + g, sizeof a);
            std::memcpy(&open, &open_[g], sizeof open);
            std::memcpy(&less, reduced + g, sizeof less);
            a = a * towards * open;
            less = one - less;
            const auto candidate = a > tolerance;
            const Lanes cost = less > zero ? less : zero;
            const Lanes ratio = (cost + feasibility) / (candidate ? a : one);
            const Lanes kept = candidate ? a : zero;
            std::memcpy(alpha + g, &kept, sizeof kept);
            std::memcpy(reduced + g, &cost, sizeof cost);
            least = candidate & (ratio < least) ? ratio : least;
        }
        double smallest = least[0];
        for (int lane = 1; lane < kLanes; ++lane) smallest = std::min(smallest, least[lane]);
        return smallest;
    }

    // The candidate move with the largest α among those within the ratio test's bound (the first of
    // equals), as `enter` and `largest`; both untouched when there is none.
    void best_move(double bound_ratio, int& enter, double& largest) const {
        const Lanes zero = {}, bound = zero + bound_ratio;
        Lanes most = zero, a, cost;
        const double* alpha = cell_alpha_.data();
        const double* reduced = cell_reduced_.data();
        for (size_t g = 0; g < open_.size(); g += kLanes) {
            std::memcpy(&a, alpha + g, sizeof a);
            std::memcpy(&cost, reduced + g, sizeof cost);
            const Lanes within = (a > zero) & (cost <= bound * a) ? a : zero;
            most = most < within ? within : most;
        }
        double best = most[0];
        for (int lane = 1; lane < kLanes; ++lane) best = std::max(best, most[lane]);
        if (best <= largest) return;
        for (size_t g = 0; g < open_.size(); ++g)
            if (alpha[g] == best && reduced[g] <= bound_ratio * alpha[g]) {
                enter = move_of_cell_[g];
                largest = best;
                return;
            }
    }

    // Up to four doubles at once, as many as the target's vectors hold (GCC's vector extension). No
    // function takes or returns one: without AVX that would be an ABI GCC warns about.
    static constexpr int kLanes = std::min<int>(4, kVectorBytes / sizeof(double));
    using Lanes = double __attribute__((vector_size(kLanes * sizeof(double))));
    static_assert(sizeof(Lanes) <= kVectorBytes, "no wider than the target's vectors (lattice.h)");

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
        // y' = y + C[i] (1 − Σ u) / u_i
        double u_sum = 0;
        for (int l = 0; l < s.size; ++l) u_sum += u[l];
        const double dual_factor = (1 - u_sum) * inverse;
        for (int t = 0; t < s.size; ++t) dual_[t] += dual_factor * pivot_row[t];
        for (int t = 0; t < s.size; ++t) pivot_row[t] *= inverse;
        value_[i] *= inverse;   // x' = C' D_T
        for (int l = 0; l < s.size; ++l) {
            if (l == i || u[l] == 0) continue;
            value_[l] -= u[l] * value_[i];
            double* r = row(l);
            for (int t = 0; t < s.size; ++t) r[t] -= u[l] * pivot_row[t];
        }
        s.slot_of_move[s.move_at[i]] = -1;
        reopen(s.move_at[i]);
        s.move_at[i] = static_cast<uint16_t>(index);
        s.slot_of_move[index] = static_cast<int16_t>(i);
        reopen(index);
    }

    // The basic move in slot i leaves and the surplus of the tight row in slot t enters: G loses
    // column i and row t, and C' = C without row i and column t, less C[·,t] C[i,·] / C[i,t].
    void drop_move_and_row(int i, int t) {
        State& s = state_;
        const double pivot = at(i, t);
        const double* pivot_row = row(i);
        const double dual_factor = dual_[t] / pivot;   // y' = y − C[i] y_t / C[i,t]
        for (int c = 0; c < s.size; ++c) dual_[c] -= dual_factor * pivot_row[c];
        for (int l = 0; l < s.size; ++l) {
            if (l == i) continue;
            double* r = row(l);
            const double factor = r[t] / pivot;
            if (factor == 0) continue;
            value_[l] -= factor * value_[i];
            for (int c = 0; c < s.size; ++c) r[c] -= factor * pivot_row[c];
        }
        // Fill the holes with the last row and column.
        const int last = s.size - 1;
        s.slot_of_move[s.move_at[i]] = -1;
        reopen(s.move_at[i]);
        s.slot_of_row[s.row_at[t]] = -1;
        if (i != last) {
            std::copy_n(row(last), s.size, row(i));
            value_[i] = value_[last];
            s.move_at[i] = s.move_at[last];
            s.slot_of_move[s.move_at[i]] = static_cast<int16_t>(i);
        }
        if (t != last) {
            for (int l = 0; l < last; ++l) row(l)[t] = row(l)[last];
            dual_[t] = dual_[last];
            rhs_on_core_[t] = rhs_on_core_[last];
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
        double u_sum = 0;   // y' = [y + v (Σ u − 1) / σ, (1 − Σ u) / σ]
        for (int l = 0; l < k; ++l) u_sum += u[l];
        for (int t = 0; t < k; ++t) dual_[t] += v[t] * (u_sum - 1) / sigma;
        dual_[k] = (1 - u_sum) / sigma;
        const double b_r = rhs_of(r);   // x' = [x + u (v·D_T − b_r) / σ, (b_r − v·D_T) / σ]
        const double step = (dot(v, rhs_on_core_, k) - b_r) / sigma;
        for (int l = 0; l < k; ++l) value_[l] += u[l] * step;
        value_[k] = -step;
        rhs_on_core_[k] = b_r;
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
        reopen(index);
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
        // x' = x + C[·,t] ((b_r − b_t) − (v − e_t)·D'_T / v_t), D'_T being D_T with b_r for b_t
        const double b_r = rhs_of(r), b_t = rhs_on_core_[t];
        const double along = (b_r - b_t) - (dot(v, rhs_on_core_, s.size) + pivot * (b_r - b_t) - b_r) / pivot;
        for (int l = 0; l < s.size; ++l) value_[l] += at(l, t) * along;
        rhs_on_core_[t] = b_r;
        v[t] -= 1.0;
        const double dual_factor = dual_[t] / pivot;   // y' = y − y_t (v − e_t) / v_t
        for (int c = 0; c < s.size; ++c) dual_[c] -= dual_factor * v[c];
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
    std::vector<int64_t> exact_dual_, fix_exact_ = std::vector<int64_t>(L::kMaxMoves, 0);
    std::vector<int64_t> load_ = std::vector<int64_t>(L::kMaxMoves, 0);   // per allowed move, after exact_duals
    double objective_ = 0;
    bool duals_current_ = false;   // dual_ is 1ᵀC of the current basis
    bool primal_current_ = false;  // value_ is C D_T, and rhs_on_core_ D_T
    int pivots_since_refresh_ = 0;
    int refresh_ = kRefresh;   // pivots between sums afresh: 1 sums afresh at every pivot
    bool repair_ = true;       // relieve moves the rounding overloads
    struct Candidate {
        int column;       // −1 − t for the surplus of the tight row in slot t (moves: best_move)
        double alpha;     // its α, signed towards the leaving variable's bound
        double reduced;   // its reduced cost
    };
    std::vector<Candidate> candidate_;
    struct SizeRun {
        int size, start, length;   // the moves of one size: top-left points 0 .. length − 1 from cell start
    };
    std::vector<SizeRun> runs_;
    std::vector<int> cell_of_move_, move_of_cell_;   // move_of_cell_: −1 where a cell is no move
    std::vector<double> open_;                       // per cell: 1 when the move may enter
    std::vector<double> cell_alpha_, cell_reduced_;
    std::vector<std::array<Point, 4>> corner_storage_;
    const std::array<Point, 4>* corner_table_ = nullptr;
    struct Violation {
        double by;
        int q;
        uint16_t m;
    };
    std::vector<Violation> violations_;
};

}  // namespace
}  // namespace unflip
