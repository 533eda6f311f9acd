// search: one worker's IDA* depth-first search, orbital branching, handing work to others.
#pragma once

#include <algorithm>
#include <array>
#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <iterator>
#include <limits>
#include <mutex>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "lattice.h"
#include "line_costs.h"
#include "switches.h"
#include "bounds.h"
#include "transposition.h"
#include "certificate.h"

namespace unflip {
namespace {

constexpr uint64_t kNodeBatch = 1024;           // nodes a worker counts before publishing them
// Under a node budget a worker publishes after at most 1/kBudgetShare of the remaining budget's share of
// one worker, so that all the workers together overshoot by less than 1/kBudgetShare of it (protocol.md).
constexpr uint64_t kBudgetShare = 16;

// The bounds a search holds, as one: each asked in turn (bounds.def's order) and only when its switch is
// on, without the search knowing which bounds there are.
template <class L, typename... Bound>
class BoundSet {
    using Grid = unflip::Grid<L>;
    using Move = unflip::Move<L>;
    using BoundContext = unflip::BoundContext<L>;
    using Node = unflip::Node<L>;

public:
    static constexpr size_t kCount = sizeof...(Bound);
    using Switched = std::array<bool, kCount>;   // per bound: on
    using Roots = std::tuple<typename Bound::Root...>;

    BoundSet(const BoundContext& context, const Switched& on) : bounds_(Bound(context)...), on_(on) {}

    static Roots prepare(const BoundContext& context, const Switched& on, const Grid& d) {
        Roots roots;
        for_each([&](auto index) {
            using Type = std::tuple_element_t<index, std::tuple<Bound...>>;
            if (on[index]) std::get<index>(roots) = Type::prepare(context, d);
        });
        return roots;
    }

    void reset(const Grid& d, const Roots& roots) {
        for_each([&](auto index) {
            if (on_[index]) std::get<index>(bounds_).reset(d, std::get<index>(roots));
        });
    }

    // The most any bound proves at the root d, its preparation included (after reset at d).
    int at_root(const Grid& d, const Roots& roots) const {
        int h = value(d, kUnbounded);
        for_each([&](auto index) {
            using Type = std::tuple_element_t<index, std::tuple<Bound...>>;
            if (on_[index]) h = std::max(h, Type::proven_at_root(std::get<index>(roots)));
        });
        return h;
    }

    void apply(const Move& m, const Grid& d) {
        for_each([&](auto index) {
            if (on_[index]) std::get<index>(bounds_).apply(m, d);
        });
    }
    void undo(const Move& m, const Grid& d) {
        for_each([&](auto index) {
            if (on_[index]) std::get<index>(bounds_).undo(m, d);
        });
    }

    // The largest bound, or the first one found above `budget`.
    int value(const Grid& d, int budget) const { return value(d, budget, std::index_sequence_for<Bound...>{}); }

    bool refutes(const Move& m, const Grid& d, int budget) const {
        return refutes(m, d, budget, std::index_sequence_for<Bound...>{});
    }

    // Refinement at a node, by the bounds that refine.
    bool refinement_due(uint64_t subtree_nodes, int budget, float estimated_work) const {
        return refinement_due(subtree_nodes, budget, estimated_work, std::index_sequence_for<Bound...>{});
    }
    int refine(const Node& node, int budget) {
        int h = 0;
        for_each([&](auto index) {
            auto& bound = std::get<index>(bounds_);
            if constexpr (std::decay_t<decltype(bound)>::kRefines)
                if (on_[index]) h = std::max(h, bound.refine(node, budget));
        });
        return h;
    }
    // Whether a refined bound now refutes a child the others let through.
    bool refined_refutes(const Move& m, const Grid& d, int budget) const {
        return refined_refutes(m, d, budget, std::index_sequence_for<Bound...>{});
    }
    void leave(const Node& node) {
        for_each([&](auto index) {
            auto& bound = std::get<index>(bounds_);
            if constexpr (std::decay_t<decltype(bound)>::kRefines)
                if (on_[index]) bound.leave(node);
        });
    }
    // At a node's entry, by the bounds that tighten there; loosen on leaving it.
    int tighten(const Node& node, int budget) {
        int h = 0;
        for_each([&](auto index) {
            auto& bound = std::get<index>(bounds_);
            if constexpr (std::decay_t<decltype(bound)>::kTightens)
                if (on_[index]) h = std::max(h, bound.tighten(node, budget));
        });
        return h;
    }
    void loosen(const Node& node) {
        for_each([&](auto index) {
            auto& bound = std::get<index>(bounds_);
            if constexpr (std::decay_t<decltype(bound)>::kTightens)
                if (on_[index]) bound.loosen(node);
        });
    }

    // The bound of type B when the set holds it and its switch is on, else nullptr; and what it prepared
    // at a root. A certificate (certificate.h) reads the covering bound's weights through them.
    template <typename B>
    const B* find() const {
        const B* found = nullptr;
        for_each([&](auto index) {
            if constexpr (std::is_same_v<std::tuple_element_t<index, std::tuple<Bound...>>, B>)
                if (on_[index]) found = &std::get<index>(bounds_);
        });
        return found;
    }
    template <typename B>
    B* find() {
        return const_cast<B*>(std::as_const(*this).template find<B>());
    }
    template <typename B>
    static const typename B::Root* find_root(const Roots& roots, const Switched& on) {
        const typename B::Root* found = nullptr;
        for_each([&](auto index) {
            if constexpr (std::is_same_v<std::tuple_element_t<index, std::tuple<Bound...>>, B>)
                if (on[index]) found = &std::get<index>(roots);
        });
        return found;
    }

private:
    template <typename F>
    static void for_each(F&& f) {
        for_each(f, std::index_sequence_for<Bound...>{});
    }
    template <typename F, size_t... I>
    static void for_each(F& f, std::index_sequence<I...>) {
        (f(std::integral_constant<size_t, I>{}), ...);
    }

    template <size_t... I>
    int value(const Grid& d, int budget, std::index_sequence<I...>) const {
        int h = 0;
        // Left to right, stopping at the first bound that takes h above budget.
        (void)((on_[I] && (h = std::max(h, std::get<I>(bounds_).value(d, budget))) > budget) || ...);
        return h;
    }
    template <size_t... I>
    bool refutes(const Move& m, const Grid& d, int budget, std::index_sequence<I...>) const {
        return ((on_[I] && std::get<I>(bounds_).refutes(m, d, budget)) || ...);
    }
    template <size_t... I>
    bool refinement_due(uint64_t subtree_nodes, int budget, float estimated_work, std::index_sequence<I...>) const {
        return ((Bound::kRefines && on_[I] &&
                 std::get<I>(bounds_).refinement_due(subtree_nodes, budget, estimated_work)) ||
                ...);
    }
    template <size_t... I>
    bool refined_refutes(const Move& m, const Grid& d, int budget, std::index_sequence<I...>) const {
        return ((Bound::kRefines && on_[I] && std::get<I>(bounds_).refutes(m, d, budget)) || ...);
    }

    std::tuple<Bound...> bounds_;
    Switched on_;
};

// bounds.def's classes, in its order, for layout L: BoundList<L>::And<A<L>>::And<B<L>>::Set is
// BoundSet<L, A<L>, B<L>>.
template <class L, typename... Bound>
struct BoundList {
    template <typename Next>
    using And = BoundList<L, Bound..., Next>;
    using Set = BoundSet<L, Bound...>;
};
#define UNFLIP_BOUND(type, field, flag, help) ::template And<type<L>>
template <class L>
using SearchBounds = typename BoundList<L>
#include "bounds.def"
    ::Set;
#undef UNFLIP_BOUND

template <class L>
inline typename SearchBounds<L>::Switched bounds_switched(const Switches& sw) {
    return {{
#define UNFLIP_BOUND(type, field, flag, help) sw.field,
#include "bounds.def"
#undef UNFLIP_BOUND
    }};
}

// A piece of one bound's search: from a root, the node reached by `path`, with `excluded` forbidden,
// searching either the whole node (`moves` empty) or just the branches for `moves` there. `refuted` are
// forbidden too, as moves an ancestor's bounds refuted: the search blocks those without counting them
// against the branch-point choice, so a cube (cubes.h) that names them searches exactly what the
// undivided search does.
struct Task {
    int root = 0;
    std::vector<uint16_t> path, excluded, moves;
    SymmetryGroup group = kTrivialGroup;   // the symmetries the node's subproblem is invariant under
    std::vector<uint16_t> refuted;
    int piece = -1;   // a piece of a certificate (Search::split_into): its place among the pieces
    // Solve the bounds' LP at the node before searching it (a cube's: cubes.h). The undivided search has
    // one there already when the node's ancestors' subtrees grew big, and a cube, begun afresh, would
    // otherwise search with the root's weights until its own subtree grows big.
    bool refine_first = false;
    // A piece's decisions above it, one a path move: how many of `refuted` and `excluded` each forbade,
    // in order, and after how many of its exclusions it re-solved the LP (-1: it did not).
    struct Step {
        int refuted = 0, excluded = 0, refined_at = -1;
    };
    std::vector<Step> steps = {};
};

// State shared by the workers of one search: stop flags, the winning line, node counts for budgets, and
// the queue through which busy workers hand part of their subtree to idle ones.
struct Shared {
    std::atomic<bool> found{false};
    std::atomic<bool> aborted{false};   // budget ran out
    std::atomic<uint64_t> nodes{0};
    std::atomic<uint64_t> lagrangian_iterations{0};   // the workers' so far, published as they finish a bound
    uint64_t max_nodes = 0;              // the caller's node budget (0: none), which the workers enforce
    uint64_t workers = 1;
    std::mutex mutex;
    std::vector<uint16_t> solution;
    int solution_target = -1;

    std::mutex queue_mutex;
    std::condition_variable queue_ready;
    std::deque<Task> queue;
    int idle = 0;                        // workers waiting for a task (under queue_mutex)
    // With hand_back (one worker only), the node budget's stop leaves what was not searched in `rest`.
    bool hand_back = false;
    std::vector<Task> rest;
    std::atomic<bool> hungry{false};     // some worker waits and the queue is empty

    // Enumerating every optimal solution: each one reached is recorded and the search goes on.
    bool enumerating = false;
    bool listing = false;                // keep the solutions, not just their count
    uint64_t max_solutions = 0;          // 0: no limit
    uint64_t solution_count = 0;         // under mutex
    std::vector<std::vector<uint16_t>> solutions;
    std::atomic<bool> limited{false};    // max_solutions reached: there may be more
    // Only in the build without threads (kInlineWorker, driver.h): the driver's watch over the time budget
    // and the progress lines, which its one worker calls at the end of each node batch.
    std::function<void()> watch;

    bool stopping() const {
        return found.load(std::memory_order_relaxed) || aborted.load(std::memory_order_relaxed) ||
               limited.load(std::memory_order_relaxed);
    }

    void record_solution(const std::vector<uint16_t>& path) {
        std::lock_guard<std::mutex> lock(mutex);
        if (limited) return;
        ++solution_count;
        if (listing) solutions.push_back(path);
        if (max_solutions && solution_count >= max_solutions) limited = true;
    }
};

template <class L>
class Search {
    using Grid = unflip::Grid<L>;
    using Move = unflip::Move<L>;
    using Lattice = unflip::Lattice<L>;
    using Node = unflip::Node<L>;
    using CoverBound = unflip::CoverBound<L>;
    using SearchBounds = unflip::SearchBounds<L>;
    using Certifier = unflip::Certifier<L>;
    static constexpr int kStride = L::kStride, kLatticePoints = L::kLatticePoints;
    static constexpr int kMaxMovesPerPoint = L::kMaxMovesPerPoint;

public:
    Search(const Lattice& lattice, const LineCosts<L>& costs, TranspositionTable* tt, const Switches& sw,
           Shared& shared)
        : lattice_(lattice), tt_(tt), sw_(sw), shared_(shared), bounds_({lattice, costs, sw}, bounds_switched<L>(sw)),
          moves_(lattice.moves.data()), next_publish_(batch_after(shared.nodes.load())) {}

    void reset(int root, const Grid& d, const typename SearchBounds::Roots& roots) {
        root_ = root;
        base_depth_ = 0;
        d_ = d;
        bounds_.reset(d, roots);
        path_.clear();
        std::fill(std::begin(blocked_), std::end(blocked_), 0);
        for (int q = 0; q < kLatticePoints; ++q) available_[q] = static_cast<uint8_t>(lattice_.at[q].size());
    }

    // A blocked move is on the path or forbidden by an earlier sibling; available_[q] counts the moves
    // with a corner at q that are not (refuted siblings aside: see dfs). It only steers the choice of
    // branch point, so an overcount costs speed, never correctness.
    void block(uint16_t index) {
        blocked_[index] = 1;
        for (int q : moves_[index].corner) --available_[q];
    }
    void unblock(uint16_t index) {
        blocked_[index] = 0;
        for (int q : moves_[index].corner) ++available_[q];
    }

    // Where to branch, and what the work estimate weighs its children at (0 when it did not choose it).
    struct BranchPoint {
        int point = -1;
        float work = 0;
    };

    // Every solution toggles each 1-point an odd number of times, so it uses at least one available move
    // at any 1-point we pick. The point with the fewest available moves gives the fewest branches (one
    // is a forced move, none a dead end), as in exact-cover search; without the switch, the first point.
    // With --estimate-from moves left or more, where subtrees are big and choosing well pays for looking
    // at every move, the point whose children's estimated work sums least instead
    // (CoverBound::estimate_work): a branch the bounds nearly refute costs far less than one they barely
    // bound, which counting branches cannot tell apart.
    BranchPoint branch_point(int budget) {
        if (!sw_.fewest_branches) return {d_.lowest()};
        int best = -1, fewest = kUnbounded;
        const auto& differ = d_.nonzero();
        for (int word = 0; word < L::kWords; ++word)
            for (uint64_t bits = differ.w[word]; bits; bits &= bits - 1) {
                const int q = word * 64 + __builtin_ctzll(bits);
                if (available_[q] < fewest) {
                    fewest = available_[q];
                    best = q;
                    if (fewest <= 1) return {best};   // a forced move or a dead end: nothing to estimate
                }
            }
        if (sw_.work_estimate && budget >= sw_.estimate_from)
            if (CoverBound* cover = bounds_.template find<CoverBound>()) return least_work_point(*cover, budget);
        return {best};
    }

    BranchPoint least_work_point(CoverBound& cover, int budget) {
        float work[kEstimatePoints<L>];
        cover.estimate_work(blocked_, budget, work);
        int best = -1;
        float least = std::numeric_limits<float>::infinity();
        const auto& differ = d_.nonzero();
        for (int word = 0; word < L::kWords; ++word)
            for (uint64_t bits = differ.w[word]; bits; bits &= bits - 1) {
                const int q = word * 64 + __builtin_ctzll(bits);
                if (work[q] < least) {
                    least = work[q];
                    best = q;
                    if (least == 0) return {best};
                }
            }
        return {best, least};
    }

    // A lower bound on the moves still needed (at least one while any point differs); stops early once
    // it exceeds `budget`.
    int bound(int budget) const { return std::max(d_.empty() ? 0 : 1, bounds_.value(d_, budget)); }

    // The root's bound, its bounds' preparation included: what the search need not try below.
    int bound_at_root(const typename SearchBounds::Roots& roots) const {
        return std::max(d_.empty() ? 0 : 1, bounds_.at_root(d_, roots));
    }

    void apply(uint16_t index) {
        const Move& m = moves_[index];
        if constexpr (L::kTri) d_.press(m);
        else d_ ^= m.bits;
        bounds_.apply(m, d_);
    }
    void undo(uint16_t index) {
        const Move& m = moves_[index];
        if constexpr (L::kTri) d_.unpress(m);
        else d_ ^= m.bits;
        bounds_.undo(m, d_);
    }

    // Under tri a path move fixes its square's presses: its other entry (index ^ 1) is blocked with it,
    // unless something blocked it already. Whether this blocked it, for unfix.
    bool fix_square(uint16_t index) {
        if constexpr (!L::kTri) return false;
        if (blocked_[index ^ 1]) return false;
        block(static_cast<uint16_t>(index ^ 1));
        return true;
    }
    void unfix_square(uint16_t index, bool fixed) {
        if (fixed) unblock(static_cast<uint16_t>(index ^ 1));
    }

    // Forbid a move for a whole search: the root split excludes a branch's earlier siblings this way.
    void exclude(uint16_t index) { block(index); }

    // Enter a move for good before a search: the root split applies its branch move this way.
    void push(uint16_t index) {
        apply(index);
        block(index);
        fix_square(index);
        path_.push_back(index);
    }

    // The available moves with a corner at p, split by the bounds of the position they lead to:
    // `refuted` cannot finish within budget - 1 more moves, `viable` can still be searched, the ones
    // clearing more 1-points first. Deciding a child from its move's four corners, without making the
    // move, is far cheaper than entering it. Under tri the moves are (square, times) entries, a child
    // costs its presses, and a press may zero no corner (a point can need two presses), so those come last.
    struct Branches {
        uint16_t viable[kMaxMovesPerPoint], refuted[kMaxMovesPerPoint];
        int viable_count = 0, refuted_count = 0;
        int point = -1;   // the 1-point they have a corner at (-1: a task's given branches)
    };
    // The expand loops on the stack, from the task's node down: what a worker can hand to another.
    struct Frame {
        Branches next;
        int current = 0, end = 0;
        SymmetryGroup group = kTrivialGroup;
        std::vector<uint16_t> excluded;   // what this loop has blocked: tried moves and their orbits
        // Part of this node's subtree, or of its current branch, went to another worker and may still
        // be running: a failure here proves nothing the table may keep, and (under the table) a later
        // sibling may not exclude that branch.
        bool handed = false, current_handed = false;
        int refined_at = -1;   // the excluded moves there were when it re-solved the LP (-1: not yet)
    };

    void branches(int p, int budget, Branches& out) const {
        out.point = p;
        uint16_t by_gain[5][kMaxMovesPerPoint];
        int filled[5] = {0, 0, 0, 0, 0};
        for (uint16_t index : lattice_.at[p]) {
            if (blocked_[index]) continue;
            const Move& m = moves_[index];
            if (bounds_.refutes(m, d_, budget - presses(m))) {
                out.refuted[out.refuted_count++] = index;
                continue;
            }
            int gain = 1;
            if constexpr (L::kTri) {
                if (sw_.ordering) {
                    gain = 0;
                    for (int q = 0; q < 4; ++q) gain += (d_.value(m.corner[q]) + step_at(m, q)) % 3 == 0;
                }
            } else if (sw_.ordering) {
                gain = d_.test(m.corner[0]) + d_.test(m.corner[1]) + d_.test(m.corner[2]) + d_.test(m.corner[3]);
            }
            by_gain[gain][filled[gain]++] = index;
        }
        for (int gain = 4; gain >= (L::kTri ? 0 : 1); --gain)
            for (int k = 0; k < filled[gain]; ++k) out.viable[out.viable_count++] = by_gain[gain][k];
    }

    // The node a task names, after reset: its exclusions in force and its path made.
    void enter(const Task& task) {
        for (uint16_t index : task.refuted) blocked_[index] = 1;
        for (uint16_t index : task.excluded)
            if (!blocked_[index]) block(index);
        for (uint16_t index : task.path) push(index);
    }

    // A piece's node, reached as the search above it reached it: each decision's refuted moves flagged,
    // its exclusions made, and the LP re-solved where it was, so the bounds are the ones it had there.
    void replay(const Task& task, int bound) {
        size_t refuted = 0, excluded = 0;
        int pressed = 0;   // the presses of the path so far: under tri a step may make two
        for (size_t f = 0; f < task.steps.size(); ++f) {
            const Task::Step& step = task.steps[f];
            for (int k = 0; k < step.refuted; ++k) blocked_[task.refuted[refuted++]] = 1;
            for (int k = 0; k <= step.excluded; ++k) {
                if (k == step.refined_at) bounds_.refine(node(), bound - pressed);
                if (k < step.excluded) block(task.excluded[excluded++]);
            }
            push(task.path[f]);
            pressed += presses(moves_[task.path[f]]);
        }
    }

    // True when a solution within `budget` more moves was found (it is then in path()). A subtree cut
    // short because another thread won or the budget ran out proves nothing, so it is never recorded.
    // Search the node a task names, within `budget` moves of the iteration's bound: its own branches
    // are `moves` when the task gives them, else the node's.
    bool run(const Task& task, int bound) {
        if (task.steps.empty()) enter(task);
        else replay(task, bound);
        bound_ = bound;
        base_depth_ = path_.size();
        task_excluded_ = &task.excluded;
        task_refuted_ = &task.refuted;
        const int budget = bound - lattice_.presses_on(path_);
        // A frame for each depth this task can reach, added as bounds grow rather than for the longest
        // conceivable solution up front: an easy board's search then touches a few pages, not 300 KB.
        if (frames_.size() <= static_cast<size_t>(budget)) frames_.resize(budget + 1);
        if (task.moves.empty() && task.refine_first && sw_.lp_after && bounds_.refinement_due(~uint64_t{0}, budget, 0)) {
            const Node here = node();
            const bool refuted = bounds_.refine(here, budget) > budget;
            const bool solved = !refuted && dfs(budget, task.group);
            bounds_.leave(here);
            return solved;
        }
        if (task.moves.empty()) return dfs(budget, task.group);
        if (++local_nodes_ == next_publish_ && !node_fits()) return false;
        Branches given;
        for (uint16_t index : task.moves) given.viable[given.viable_count++] = index;
        // What the bounds prove at this very node: the root's say little this deep.
        if (bounds_.refine(node(), budget) > budget) return false;
        return expand(budget, &given, task.group);
    }

    // True when a solution within `budget` more moves was found (it is then in path()); `group` holds
    // the symmetries this node's subproblem is invariant under. A subtree cut short because another
    // thread won or the budget ran out proves nothing, so it is never recorded.
    bool dfs(int budget, SymmetryGroup group) {
        if (pieces_ && path_.size() - base_depth_ == static_cast<size_t>(piece_depth_)) {
            hand_piece();
            return false;
        }
        if (++local_nodes_ == next_publish_) {
            if (!node_fits()) {
                if (shared_.hand_back) hand_back(group);
                return false;
            }
            // A certificate's pieces are fixed in advance, so that its text is the same on any threads.
            if (shared_.hungry.load(std::memory_order_relaxed) && !certifier_) share_work();
        }
        if (d_.empty()) {
            // Exclusion splits the solutions among the branches, so each set of moves arrives here once.
            if (!shared_.enumerating) return true;
            shared_.record_solution(path_);
            return false;
        }
        if (bound(budget) > budget) {
            certifying([&](auto& certifier) { certifier.leaf(d_, budget); });
            return false;
        }
        const Node here = node();
        const bool solved = bounds_.tighten(here, budget) <= budget && expand(budget, nullptr, group);
        bounds_.loosen(here);
        return solved;
    }

    // Branch on the moves at one 1-point. With exclusion each branch forbids the moves tried before it,
    // since any solution using one of them was already looked for in that branch; refuted moves count as
    // tried first, their branches being empty. Under a symmetry group G of the subproblem (orbital
    // branching), a failed branch forbids its move's whole G-orbit: a solution using an image g(m) maps by
    // g⁻¹ to one using m, already looked for. A branch's own subproblem keeps the symmetries fixing its
    // move.
    bool expand(int budget, const Branches* given, SymmetryGroup group) {
        const bool use_tt = sw_.tt && budget >= sw_.tt_min_budget;
        const uint64_t hash = use_tt ? hash_of(d_) : 0;
        if (use_tt && tt_->failed_budget(hash) >= budget) return false;

        Frame& frame = frames_[path_.size() - base_depth_];
        Branches& next = frame.next;
        next = Branches{};
        float estimated_work = 0;
        if (given) {
            next = *given;
        } else {
            const BranchPoint at = branch_point(budget);
            estimated_work = at.work;
            branches(at.point, budget, next);
        }
        certifying([&](auto& certifier) {
            certifier.branch(next.point, d_, budget, next.viable_count + next.refuted_count, next.refuted,
                             next.refuted_count);
        });
        frame.end = next.viable_count;
        frame.group = group;
        frame.excluded.clear();
        frame.handed = false;
        frame.refined_at = -1;

        // (Refuted moves only get the flag: leaving them in available_ costs the branch-point choice
        // 0.7% more nodes and saves 6% of the instructions.)
        if (sw_.exclusion)
            for (int k = 0; k < next.refuted_count; ++k) blocked_[next.refuted[k]] = 1;
        bool solved = false;
        int& tried = frame.current;
        const uint64_t nodes_at_start = local_nodes_;
        const Node here = node();   // its d is d_, which is this node's again whenever a child is chosen
        bool refined = false;
        for (tried = 0; tried < frame.end; ++tried) {
            const uint16_t index = next.viable[tried];
            if (blocked_[index]) continue;   // in the orbit of a branch tried before
            // Above a certificate's pieces, whose nodes only their own search counts, after the first
            // child, where a subtree of the tree's top has nearly always proved big.
            const bool due = pieces_ ? tried > 0 && bounds_.refinement_due(UINT64_MAX, budget, 0)
                                     : bounds_.refinement_due(local_nodes_ - nodes_at_start, budget, estimated_work);
            if (!refined && due) {
                // This subtree has proved big, or was foreseen to: refining the bounds for the children
                // still to come (the ones tried already are excluded, so the covering LP is tighter than
                // at entry) is now worth its cost.
                refined = true;
                frame.refined_at = static_cast<int>(frame.excluded.size());
                const bool refuted_here = bounds_.refine(here, budget) > budget;
                certifying([&](auto& certifier) { certifier.refined(bounds_, here, budget, refuted_here); });
                if (refuted_here) break;
            }
            if (refined && bounds_.refined_refutes(moves_[index], d_, budget - presses(moves_[index]))) {
                certifying([&](auto& certifier) { certifier.refuted(index, d_, budget); });
                if (sw_.exclusion) exclude_here(frame, index);
                continue;
            }
            certifying([&](auto& certifier) { certifier.child(index); });
            apply(index);
            block(index);
            // Below a tri child its square's presses are fixed, and only there: a later sibling may still
            // press the square the other number of times (exclusion forbids only the entries tried).
            const bool fixed = fix_square(index);
            path_.push_back(index);
            frame.current_handed = false;
            solved = dfs(budget - presses(moves_[index]), group & lattice_.stabiliser[index]);
            if (solved) break;
            path_.pop_back();
            unfix_square(index, fixed);
            undo(index);
            // A table entry written under an exclusion is sound only once the excluded branch has been
            // searched to the end (see share_work), which a branch partly handed away has not.
            if (sw_.exclusion && !(use_tt && frame.current_handed)) {
                frame.excluded.push_back(index);   // blocked already, as a path move
                exclude_orbit(frame, index, group);
            } else {
                unblock(index);
            }
            if (shared_.stopping()) break;
        }
        if (refined) bounds_.leave(here);
        if (!solved && !shared_.stopping()) certifying([](auto& certifier) { certifier.end_branch(); });
        if (sw_.exclusion) {
            for (uint16_t index : frame.excluded) unblock(index);
            for (int k = 0; k < next.refuted_count; ++k) blocked_[next.refuted[k]] = 0;
        }
        // A task's given branches are not the node's whole subtree: its earlier siblings belong to the
        // worker that handed them over, one of them perhaps still running.
        if (!solved && !shared_.stopping() && use_tt && !given && !frame.handed) tt_->record_failure(hash, budget);
        return solved;
    }

    // What the loop at depth f forbids below it, appended: the moves its bounds refuted, then the ones it
    // has tried and their orbits.
    void add_forbidden_by(size_t f, std::vector<uint16_t>& refuted, std::vector<uint16_t>& excluded) const {
        const Frame& frame = frames_[f];
        refuted.insert(refuted.end(), frame.next.refuted, frame.next.refuted + frame.next.refuted_count);
        excluded.insert(excluded.end(), frame.excluded.begin(), frame.excluded.end());
    }

    void exclude_here(Frame& frame, uint16_t index) {
        block(index);
        frame.excluded.push_back(index);
    }

    void exclude_orbit(Frame& frame, uint16_t index, SymmetryGroup group) {
        if (group == kTrivialGroup || !sw_.symmetry) return;
        lattice_.for_each_image(index, group, [&](uint16_t image) {
            if (!blocked_[image]) exclude_here(frame, image);
        });
    }

    // An idle worker waits: hand it the untried branches of the shallowest loop that has some (the
    // biggest piece of work there is, most likely), and stop that loop after its current branch.
    // With exclusion each handed branch forbids all the siblings before it, as it would here, except
    // under the table the one still running (see Driver): an entry written under an exclusion is only
    // sound once the excluded branch has finished.
    void share_work() {
        std::lock_guard<std::mutex> lock(shared_.queue_mutex);
        if (!shared_.queue.empty() || shared_.idle == 0) return;
        const size_t active = path_.size() - base_depth_;
        size_t f = 0;
        while (f < active && frames_[f].current + 1 >= frames_[f].end) ++f;
        if (f == active) return;
        Task task;
        task.root = root_;
        task.path.assign(path_.begin(), path_.begin() + static_cast<long>(base_depth_ + f));
        Frame& frame = frames_[f];
        task.group = frame.group;
        if (sw_.exclusion) {
            task.excluded = *task_excluded_;
            for (size_t g = 0; g <= f; ++g) add_forbidden_by(g, task.excluded, task.excluded);
            if (!sw_.tt) {
                const uint16_t running = frame.next.viable[frame.current];
                task.excluded.push_back(running);
                if (sw_.symmetry)
                    lattice_.for_each_image(running, frame.group, [&](uint16_t image) { task.excluded.push_back(image); });
            }
        }
        task.moves.assign(frame.next.viable + frame.current + 1, frame.next.viable + frame.end);
        frame.end = frame.current + 1;
        for (size_t g = 0; g <= f; ++g) frames_[g].handed = true;
        for (size_t g = 0; g < f; ++g) frames_[g].current_handed = true;
        shared_.queue.push_back(std::move(task));
        shared_.hungry = false;
        shared_.queue_ready.notify_one();
    }

    // The node here as a piece: the moves made, what the search forbids here, each as it forbids it
    // (refuted moves by their flag alone), and where it re-solved the LP, for replay.
    void hand_piece() {
        Task task;
        task.root = root_;
        task.path = path_;
        task.excluded = *task_excluded_;
        for (size_t f = 0; f < path_.size() - base_depth_; ++f) {
            const Frame& above = frames_[f];
            add_forbidden_by(f, task.refuted, task.excluded);
            task.steps.push_back({above.next.refuted_count, static_cast<int>(above.excluded.size()), above.refined_at});
        }
        task.piece = static_cast<int>(pieces_->size());
        pieces_->push_back(std::move(task));
        certifying([](auto& certifier) { certifier.hole(); });
    }

    // Stopped by the node budget at a node not yet searched (its move made, `group` its subproblem's): the
    // rest of this search, and the tasks still queued behind it, as tasks in the order it would have gone
    // on in, so that whoever searches them searches nothing twice. First the node itself, then each loop's
    // untried branches, the deepest loop's first. A branch forbids what its loop tried before it, the
    // branch the search was in the middle of included (what is left of that one is in the tasks before),
    // and their orbits, as a later sibling does; its ancestors' exclusions and refuted moves stay in force.
    // Each move is named once, as a cube's text must (a move already forbidden is not forbidden again).
    void hand_back(SymmetryGroup group) {
        const size_t active = path_.size() - base_depth_;
        std::vector<Task> in_force(active + 1);   // per loop: what its children have forbidden
        in_force[0].excluded = *task_excluded_;
        in_force[0].refuted = *task_refuted_;
        for (size_t f = 0; f < active; ++f) {
            Task& below = in_force[f + 1];
            below = in_force[f];
            if (sw_.exclusion) add_forbidden_by(f, below.refuted, below.excluded);
        }
        Task node = in_force[active];
        node.root = root_;
        node.path = path_;
        node.group = group;
        shared_.rest.push_back(std::move(node));
        for (size_t f = active; f-- > 0;) {
            const Frame& frame = frames_[f];
            Task sibling = in_force[f + 1];
            sibling.root = root_;
            sibling.path.assign(path_.begin(), path_.begin() + static_cast<long>(base_depth_ + f));
            std::vector<uint8_t> named(lattice_.moves.size(), 0);
            for (const std::vector<uint16_t>* list : {&sibling.path, &sibling.excluded, &sibling.refuted})
                for (uint16_t index : *list) named[index] = 1;
            auto forbid = [&](uint16_t index) {
                if (!sw_.exclusion) return;
                if (!named[index]) sibling.excluded.push_back(index);
                named[index] = 1;
                if (frame.group == kTrivialGroup || !sw_.symmetry) return;
                lattice_.for_each_image(index, frame.group, [&](uint16_t image) {
                    if (named[image]) return;
                    named[image] = 1;
                    sibling.excluded.push_back(image);
                });
            };
            forbid(frame.next.viable[frame.current]);
            for (int k = frame.current + 1; k < frame.end; ++k) {
                const uint16_t index = frame.next.viable[k];
                if (named[index]) continue;   // in the orbit of a branch before it
                Task branch = sibling;
                branch.path.push_back(index);
                branch.group = frame.group & lattice_.stabiliser[index];
                shared_.rest.push_back(std::move(branch));
                forbid(index);
            }
        }
        std::lock_guard<std::mutex> lock(shared_.queue_mutex);
        shared_.rest.insert(shared_.rest.end(), shared_.queue.begin(), shared_.queue.end());
    }

    // The Lagrangian's iterations this worker's search made (CoverBound::tighten).
    uint64_t lagrangian_iterations() const {
        if (const CoverBound* cover = bounds_.template find<CoverBound>()) return cover->lagrangian_iterations();
        return 0;
    }

    // The shared count with this worker's nodes added.
    uint64_t publish_nodes() {
        const uint64_t batch = local_nodes_ - published_nodes_;
        published_nodes_ = local_nodes_;
        return shared_.nodes.fetch_add(batch, std::memory_order_relaxed) + batch;
    }

    // At the end of each batch: publish it, and under a node budget decide whether the node just counted,
    // the batch's last, is within the budget. If not, it is not searched, nor counted, and the search
    // stops. A batch's earlier nodes were searched before being counted, which is the overshoot; each
    // batch is at most 1/(kBudgetShare x workers) of the budget that remained at the batch before.
    bool node_fits() {
        const uint64_t total = publish_nodes();
        if (shared_.watch) shared_.watch();
        if (shared_.max_nodes && total > shared_.max_nodes) {
            --local_nodes_;
            --published_nodes_;
            shared_.nodes.fetch_sub(1, std::memory_order_relaxed);
            shared_.aborted = true;
            return false;
        }
        next_publish_ = local_nodes_ + batch_after(total);
        return true;
    }

    // The next batch's size, the shared count being `total`.
    uint64_t batch_after(uint64_t total) const {
        if (!shared_.max_nodes) return kNodeBatch;
        const uint64_t share = (shared_.max_nodes - std::min(total, shared_.max_nodes)) / (kBudgetShare * shared_.workers);
        return std::clamp<uint64_t>(share, 1, kNodeBatch);
    }

    const std::vector<uint16_t>& path() const { return path_; }

    // Write the proof of what this search exhausts as it goes (certificate.h): every sibling excluded,
    // no symmetry breaking and no table, so that the tree is exactly what it searched.
    void certify(Certifier* certifier) { certifier_ = certifier; }

    // For a certificate on several threads: search only the top `depth` decisions, and hand each node at
    // that depth to `pieces` as a task (a hole in the certificate, for the task's own text). Above it
    // the LP is re-solved after a node's first child, not after so many nodes, which only the pieces'
    // search would know; so every piece starts from the same bounds whoever searches it, when.
    void split_into(int depth, std::vector<Task>* pieces) {
        piece_depth_ = depth;
        pieces_ = pieces;
    }

private:
    Node node() const { return Node{d_, blocked_, path_.size()}; }

    // f(the certificate being written), when one is: never under tri, whose certificates are not made
    // yet, where the calls are not even compiled.
    template <typename F>
    void certifying(F&& f) {
        if constexpr (!L::kTri)
            if (certifier_) f(*certifier_);
    }

    const Lattice& lattice_;
    TranspositionTable* tt_;
    const Switches& sw_;
    Shared& shared_;

    Grid d_;
    SearchBounds bounds_;

    std::vector<Frame> frames_;
    size_t base_depth_ = 0;                         // path length at the task's node
    int root_ = 0, bound_ = 0;
    const std::vector<uint16_t>* task_excluded_ = nullptr;
    const std::vector<uint16_t>* task_refuted_ = nullptr;
    const Move* moves_;   // the lattice's moves, one indirection closer
    // Per move: on the path, or forbidden by an earlier sibling (and kStride bytes more, which the work
    // estimate reads past the last move).
    uint8_t blocked_[L::kMaxMoves + kStride] = {};
    uint8_t available_[kLatticePoints] = {};
    std::vector<uint16_t> path_;
    uint64_t local_nodes_ = 0, published_nodes_ = 0;
    uint64_t next_publish_;   // local_nodes_ at the end of this batch
    Certifier* certifier_ = nullptr;
    int piece_depth_ = 0;
    std::vector<Task>* pieces_ = nullptr;   // split_into's
};

}  // namespace
}  // namespace unflip
