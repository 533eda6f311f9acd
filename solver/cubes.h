// cubes: one bound's search split into independent pieces, "cubes" as in the SAT world's cube-and-conquer,
// so that machines that share nothing can search it; and one cube searched on its own.
//
// At a bound the search branches at a 1-point over the moves with a corner there; branch i uses move i and
// forbids the moves tried before it (and, under the board's symmetry, their images). A prefix of such
// decisions is a cube: the node it reaches, what is forbidden there, and the symmetries its subproblem keeps.
// The cubes at a split depth are exactly the nodes the undivided search enters at that depth (and the
// solutions and dead ends it meets above it), in its order, so together they cover that bound's search
// exactly: a solution within the bound is in some cube, and every cube searched is a piece of it.
// docs/protocol.md, "Cubes", gives the command line and the line formats.
#pragma once

#include <algorithm>
#include <cstdint>
#include <deque>
#include <string>
#include <vector>

#include "errors.h"
#include "contract.h"
#include "lattice.h"
#include "search.h"
#include "driver.h"

namespace unflip {
namespace {

constexpr int kMaxBound = limit_as<int>(limit::max_bound);
constexpr int kMaxSplitDepth = limit_as<int>(limit::max_split_depth);

// A cube of one target's search: the node `path` reaches, with `excluded` and `refuted` forbidden there
// (refuted: moves an ancestor's bounds turned away, which the search forbids without counting them against
// the branch-point choice), and `group`, the symmetries its subproblem is invariant under, which the
// search may go on breaking inside it.
struct Cube {
    int target = 0;
    SymmetryGroup group = kTrivialGroup;
    std::vector<uint16_t> path, excluded, refuted;
    int bound = 0;   // every solution in the cube has at least this many moves (its path, its node's bound)
};

// The cubes of one split, in the undivided search's order.
struct CubeListing {
    bool unsolvable = false;    // no root can reach its target: there are no cubes
    int target = 0;             // the target asked for (the first, with both)
    std::vector<Cube> cubes;
    // Branches whose bound exceeds what the bound leaves them: refuted from their move's corners by the
    // node above, or entered and cut at once.
    uint64_t dropped = 0;
    uint64_t nodes = 0;         // the nodes the split entered above the cubes, the dropped ones included
    double seconds = 0;
};

// The text of a cube, one word: target:group:path:excluded:refuted, each list moves "row.col.size"
// separated by commas, under tri an entry pressing its square twice "row.col.size.2" (docs/protocol.md,
// "Cubes").
template <class L>
inline std::string cube_text(const Cube& cube, const Lattice<L>& lattice) {
    auto moves = [&](const std::vector<uint16_t>& list) {
        std::string text;
        for (uint16_t index : list) {
            const Move<L>& m = lattice.moves[index];
            if (!text.empty()) text += ",";
            text += std::to_string(m.row) + "." + std::to_string(m.col) + "." + std::to_string(m.size);
            if (presses(m) == 2) text += ".2";
        }
        return text;
    };
    return std::to_string(cube.target) + ":" + std::to_string(cube.group) + ":" + moves(cube.path) + ":" +
           moves(cube.excluded) + ":" + moves(cube.refuted);
}

inline std::vector<std::string> split_text(const std::string& text, char separator) {
    std::vector<std::string> parts(1);
    for (char c : text) {
        if (c == separator) parts.emplace_back();
        else parts.back() += c;
    }
    return parts;
}

inline bool all_digits(const std::string& text) {
    return !text.empty() && text.size() <= 4 && text.find_first_not_of("0123456789") == std::string::npos;
}

// The target a cube's text names, read before the board is: the search is set up for it alone.
inline int cube_target(const std::string& text) {
    const std::string target = split_text(text, ':')[0];
    if (target != "0" && target != "1")
        throw Rejected("--cube needs target:group:path:excluded:refuted with target 0 or 1, not '" + text + "'");
    return target[0] - '0';
}

// A cube's text read against the board: every move fits it, no move is named twice, and the group is one
// of the board shape's symmetry groups' subsets that contains the identity.
template <class L>
inline Cube parse_cube(const std::string& text, const Lattice<L>& lattice) {
    const std::vector<std::string> fields = split_text(text, ':');
    if (fields.size() != 5)
        throw Rejected("--cube needs target:group:path:excluded:refuted (5 fields), not '" + text + "'");
    Cube cube;
    cube.target = cube_target(text);
    if (!all_digits(fields[1]) || std::stoi(fields[1]) > 255 || !(std::stoi(fields[1]) & 1) ||
        (std::stoi(fields[1]) & ~lattice.symmetries))
        throw Rejected("--cube: group '" + fields[1] + "' is not a set of this board's symmetries with the identity");
    cube.group = static_cast<SymmetryGroup>(std::stoi(fields[1]));
    std::vector<uint8_t> named(lattice.moves.size(), 0);
    auto read_moves = [&](const std::string& list, std::vector<uint16_t>& into) {
        if (list.empty()) return;
        for (const std::string& word : split_text(list, ',')) {
            const std::vector<std::string> numbers = split_text(word, '.');
            // Under tri a fourth number, 2, says the square is pressed twice.
            const bool twice = L::kTri && numbers.size() == 4 && numbers[3] == "2";
            if (numbers.size() != (twice ? 4u : 3u) || !all_digits(numbers[0]) || !all_digits(numbers[1]) ||
                !all_digits(numbers[2]))
                throw Rejected("--cube: '" + word + "' is not a move row.col.size" + (L::kTri ? " or row.col.size.2" : ""));
            const int row = std::stoi(numbers[0]), col = std::stoi(numbers[1]), size = std::stoi(numbers[2]);
            const auto found = std::find_if(lattice.moves.begin(), lattice.moves.end(), [&](const Move<L>& m) {
                return m.row == row && m.col == col && m.size == size && presses(m) == (twice ? 2 : 1);
            });
            if (found == lattice.moves.end())
                throw Rejected("--cube: the move " + word + " does not fit the " + std::to_string(lattice.h) + "x" +
                               std::to_string(lattice.w) + " board");
            const size_t index = static_cast<size_t>(found - lattice.moves.begin());
            if (named[index]) throw Rejected("--cube names the move " + word + " twice");
            named[index] = 1;
            into.push_back(static_cast<uint16_t>(index));
        }
    };
    read_moves(fields[2], cube.path);
    read_moves(fields[3], cube.excluded);
    read_moves(fields[4], cube.refuted);
    return cube;
}

// The cubes below a node, the undivided search's decisions made as it makes them (Search::expand): the
// same branch point and order, each tried branch forbidden to the later ones and, under the node's group,
// its orbit too; the refuted moves forbidden as the search forbids them. A node is a cube once `depth`
// decisions are made, or when it is solved; a node whose bound exceeds what is left is dropped.
template <class L>
class CubeSplitter {
    using Lattice = unflip::Lattice<L>;
    using Search = unflip::Search<L>;

public:
    CubeSplitter(const Lattice& lattice, const Switches& sw, Search& search, int bound, CubeListing& listing)
        : lattice_(lattice), sw_(sw), search_(search), bound_(bound), listing_(listing) {}

    void split(int target, int root, const Grid<L>& d, const typename SearchBounds<L>::Roots& roots, const Task& node,
               int depth, int floor) {
        search_.reset(root, d, roots);
        search_.enter(node);
        const int made = lattice_.presses_on(node.path);
        const int budget = bound_ - made;
        const int h = search_.bound(budget);
        if (h > budget) {
            ++listing_.dropped;
            ++listing_.nodes;
            return;
        }
        if (depth == 0 || h == 0) {
            listing_.cubes.push_back(Cube{target, node.group, node.path, node.excluded, node.refuted,
                                          std::max(floor, made + h)});
            return;
        }
        ++listing_.nodes;
        typename Search::Branches next;
        search_.branches(search_.branch_point(budget).point, budget, next);
        listing_.dropped += static_cast<uint64_t>(next.refuted_count);

        std::vector<uint8_t> blocked(lattice_.moves.size(), 0);
        for (const std::vector<uint16_t>* list : {&node.path, &node.excluded, &node.refuted})
            for (uint16_t index : *list) blocked[index] = 1;
        Task child = node;
        child.path.push_back(0);
        if (sw_.exclusion)
            for (int k = 0; k < next.refuted_count; ++k) {
                blocked[next.refuted[k]] = 1;
                child.refuted.push_back(next.refuted[k]);
            }
        for (int k = 0; k < next.viable_count; ++k) {
            const uint16_t index = next.viable[k];
            if (blocked[index]) continue;   // in the orbit of a branch tried before
            child.path.back() = index;
            child.group = node.group & lattice_.stabiliser[index];
            split(target, root, d, roots, child, depth - 1, 0);
            if (!sw_.exclusion) continue;
            blocked[index] = 1;
            child.excluded.push_back(index);
            if (node.group == kTrivialGroup || !sw_.symmetry) continue;
            lattice_.for_each_image(index, node.group, [&](uint16_t image) {
                if (blocked[image]) return;
                blocked[image] = 1;
                child.excluded.push_back(image);
            });
        }
    }

private:
    const Lattice& lattice_;
    const Switches& sw_;
    Search& search_;
    int bound_;
    CubeListing& listing_;
};

// The symmetries a cube may go on breaking: those its text claims, as far as the root's group, kept
// along its path the way the search keeps them, allows.
template <class L>
inline SymmetryGroup cube_group(const Cube& cube, SymmetryGroup root_group, const Lattice<L>& lattice,
                                const Switches& sw) {
    if (!sw.symmetry) return kTrivialGroup;
    SymmetryGroup group = cube.group & root_group;
    for (uint16_t index : cube.path) group &= lattice.stabiliser[index];
    return group;
}

inline Task cube_task(const Cube& cube, SymmetryGroup group) {
    Task task;
    task.path = cube.path;
    task.excluded = cube.excluded;
    task.refuted = cube.refuted;
    task.group = group;
    task.refine_first = !cube.path.empty();   // the root's LP is solved already
    return task;
}

// The tasks of the cubes options.cube names, in their order.
template <class L>
inline std::deque<Task> cube_tasks(const Options& options, const Lattice<L>& lattice, SymmetryGroup root_group) {
    std::deque<Task> tasks;
    for (const std::string& text : options.cube) {
        const Cube cube = parse_cube(text, lattice);
        if (lattice.presses_on(cube.path) > options.bound)
            throw Rejected("--bound " + std::to_string(options.bound) + " is below the cube's " +
                           std::to_string(lattice.presses_on(cube.path)) + " moves");
        tasks.push_back(cube_task(cube, cube_group(cube, root_group, lattice, options.sw)));
    }
    return tasks;
}

template <class L>
CubeListing Driver<L>::split() {
    start_ = Clock::now();
    CubeListing listing;
    listing.target = roots_.front().target;
    if (!measure_live_roots()) {
        listing.unsolvable = true;
        listing.seconds = seconds_since(start_);
        return listing;
    }
    Search search(lattice_, costs_, table(), options_.sw, shared_);
    CubeSplitter<L> splitter(lattice_, options_.sw, search, options_.bound, listing);
    if (options_.cube.empty()) {
        for (size_t r = 0; r < live_.size(); ++r) {
            const Root& root = *live_[r];
            // As the undivided search does, a root whose bound exceeds the bound is not entered.
            if (root.h > options_.bound) {
                ++listing.dropped;
                continue;
            }
            Task task;
            task.group = options_.sw.symmetry ? root.group : kTrivialGroup;
            splitter.split(root.target, static_cast<int>(r), root.d, root.bounds, task, options_.split_depth, root.h);
        }
    } else {
        const Root& root = *live_.front();
        splitter.split(root.target, 0, root.d, root.bounds, cube_tasks(options_, lattice_, root.group).front(),
                       options_.split_depth, 0);
    }
    listing.seconds = seconds_since(start_);
    return listing;
}

template <class L>
Outcome Driver<L>::solve_cube() {
    start_ = Clock::now();
    Outcome out;
    out.target = roots_.front().target;
    if (!measure_live_roots()) return finish(out);
    shared_.hand_back = options_.hand_back;
    run_tasks(options_.bound, cube_tasks(options_, lattice_, live_.front()->group), options_.sw);
    if (shared_.found) {
        out.code = ExitCode::solved;
        out.moves = shared_.solution;
    } else if (shared_.aborted) {
        out.code = ExitCode::stopped;
        out.lower_bound = options_.bound;
    } else {
        out.exhausted = true;
        out.lower_bound = options_.bound;
    }
    return finish(out);
}

// What a search its node budget stopped had not searched, as cubes in the order it would have gone on
// in; each cube's bound is its path's presses, which no solution in it is fewer than.
template <class L>
CubeListing Driver<L>::handed_back() const {
    CubeListing listing;
    listing.target = roots_.front().target;
    for (const Task& task : shared_.rest)
        listing.cubes.push_back(Cube{listing.target, task.group, task.path, task.excluded, task.refuted,
                                     lattice_.presses_on(task.path)});
    return listing;
}

}  // namespace
}  // namespace unflip
