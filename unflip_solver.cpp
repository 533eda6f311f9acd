// unflip_solver: exact, move-optimal solver for the Unflip puzzle.
//
// A board is H×W tiles (2 ≤ H, W ≤ 31); a move flips any k×k square (2 ≤ k ≤ min(H, W)). The solver
// proves the fewest moves that turn every tile into the target colour, and speaks the line protocol
// documented in docs/protocol.md: TARGET / MOVES / moves / NODES / TIME on stdout, or UNSOLVABLE, or
// STOPPED, or every optimal solution (SOLUTION / SOLUTIONS); progress on stderr; `error: ...` and exit 2
// for input it rejects, 4 for memory it cannot get. The exit statuses and limits are solver/contract.def's.
//
// This file is the command line: the switch and usage tables, argument parsing, printing and main. The
// solver itself is in families of header-only files under solver/, top to bottom (each includes the ones
// it needs, and the whole is one translation unit, a unity build: `g++ unflip_solver.cpp` builds it):
//   errors.h         what stops the solver before an answer, as exceptions only main turns into exits
//   contract.h       exit statuses and limits, from contract.def
//   board_input.h    reading and validating the board text
//   lattice.h        the XOR-difference transform: tiles -> (H+1)×(W+1) corner bitboard, moves -> 4 bits;
//                    the board's symmetries as permutations of points and moves
//   solvability.h    GF(2) elimination, so an unsolvable board never starts a search
//   line_costs.h     per-line minimum pair counts, the pair and line bounds' raw material
//   cover_lp.h       the covering LP: exact integer point weights, and its warm-started dual simplex
//   switches.h       every technique's switch, so its worth can be measured
//   bounds.h         the lower bounds, each one class behind one interface (docs/bounds.md); bounds.def
//                    lists them, with their switches
//   transposition.h  the lock-free table shared by all threads
//   certificate.h    the proof of optimality (--certificate), written as the search goes
//   annealing.h      short solutions found without proof, so the last bound need not be searched
//   search.h         one worker's IDA* depth-first search, orbital branching, handing work to others
//   driver.h         iterative deepening, the task queue, budgets, progress, enumeration
//   cubes.h          one bound's search split into independent cubes, and one cube searched alone
//
// Every technique has a switch (see kFlagSwitches and kNumberSwitches) so its worth can be measured.

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <iterator>
#include <new>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

#include "solver/errors.h"
#include "solver/contract.h"
#include "solver/board_input.h"
#include "solver/lattice.h"
#include "solver/solvability.h"
#include "solver/line_costs.h"
#include "solver/cover_lp.h"
#include "solver/switches.h"
#include "solver/bounds.h"
#include "solver/transposition.h"
#include "solver/certificate.h"
#include "solver/annealing.h"
#include "solver/search.h"
#include "solver/driver.h"
#include "solver/cubes.h"

namespace {

using namespace unflip;

constexpr int kMinThreads = limit_as<int>(limit::min_threads);
constexpr int kMaxThreads = kMaxWorkers;   // 1 in the build without threads (driver.h)
constexpr double kMinSeconds = limit_as<double>(limit::min_seconds);
constexpr double kMaxSeconds = limit_as<double>(limit::max_seconds);
constexpr uint64_t kMinNodes = limit_as<uint64_t>(limit::min_nodes);
constexpr uint64_t kMaxNodes = limit_as<uint64_t>(limit::max_nodes);
constexpr uint64_t kMinSolutions = limit_as<uint64_t>(limit::min_solutions);
constexpr uint64_t kMaxSolutions = limit_as<uint64_t>(limit::max_solutions);

const char* kUsageHead =
    "usage: unflip_solver [BOARD_FILE] [options]\n"
    "\n"
    "Reads an H x W board (2 <= H, W <= 31) from BOARD_FILE, or from standard input when none is given\n"
    "or it is '-': H lines of W digits, all 0/1 or all 1/2 (1/2 maps to 0/1: 1 -> 0, 2 -> 1).\n"
    "Prints the fewest k x k flips (2 <= k <= min(H, W)) that make every tile the target colour.\n"
    "\n"
    "options:\n"
    "  --target 0|1|either  colour every tile ends as (default 0, the game's goal); either: the\n"
    "                       shorter of the two, both raced bound by bound\n"    "  --scheme two|tri     two colours (default) or the game's three-colour levels: tiles\n"
    "                       1/2/3, a press turning each of its tiles 1 -> 3 -> 2 -> 1, MOVES\n"
    "                       counting presses; the output opens with SCHEME tri (docs/protocol.md)\n"
    "  --threads T          worker threads (default: all logical cores)\n"
    "  --max-seconds S      stop after S seconds without a claim (exit 3, STOPPED b)\n"
    "  --max-nodes N        stop after N search nodes without a claim (exit 3); with\n"
    "                       threads, at most 1/16 more (docs/protocol.md)\n"
    "  --lower-bound        no search: print the root's proven lower bound (LOWER_BOUND b, exit 0)\n"
    "  --wide-lattice       search on the 32-point lattice of boards past 15 even when the board\n"
    "                       is smaller: the same answers, a cross-check of that code\n"
    "  --all-solutions      every optimal solution, each a set of moves on one SOLUTION line\n"
    "  --count              only how many optimal solutions there are (SOLUTIONS k)\n"
    "  --max-solutions K    stop after K of them (then INCOMPLETE: there may be more)\n"
    "  --certificate FILE   also write a proof that no solution is shorter, for a checker\n"
    "                       that shares nothing with the solver (docs/certificates.md)\n"
    "  --quiet              no progress lines on standard error\n"
    "  --cubes D --bound B  no search: list the cubes of bound B, D decisions down (from --cube's\n"
    "                       when given), one 'CUBE bound spec' line each (docs/protocol.md)\n"
    "  --cube SPEC --bound B  search the one cube SPEC at bound B alone: its solution, or\n"
    "                       EXHAUSTED b (exit 1), or STOPPED b; --cube again: several in turn\n"
    "  --hand-back          with --cube, --max-nodes and --threads 1: a search the node budget\n"
    "                       stops prints what it had not searched as cubes, before STOPPED\n"
    "  --help               this text\n"
    "  --contract           the exit statuses and limits, one 'EXIT name status' or\n"
    "                       'LIMIT name value' line each (solver/contract.def's)\n"
    "  --list-switches      the switches below, one 'flag --name field' or\n"
    "                       'number --name low high default' line each\n"
    "\n"
    "switches, each turning one technique on or off so its worth can be measured:\n";

const char* kUsageTail =
    "\n"
    "output (standard output), exit status:\n"
    "  TARGET t / MOVES m / m lines 'row col size' (0-based top-left) / NODES n / TIME s   0 solved\n"
    "  TARGET t / UNSOLVABLE / NODES 0 / TIME s                                           1 unsolvable\n"
    "  error: <reason> (standard error only)                                              2 rejected\n"
    "  TARGET t / STOPPED b / NODES n / TIME s  (no solution has fewer than b moves)      3 stopped\n"
    "  error: cannot allocate <what> (standard error only)                                4 failed\n"
    "  TARGET t / LOWER_BOUND b / NODES 0 / TIME s  (with --lower-bound)                  0\n"
    "  TARGET t / MOVES m / SOLUTION r c k ... (one line each, --all-solutions only) /\n"
    "      SOLUTIONS k / [INCOMPLETE] / NODES n / TIME s  (enumerating)                   0\n"
    "  the same, the SOLUTION lines and k those found before a budget ran out, then\n"
    "      INCOMPLETE (the optimum m is proven; the count stopped)                        3 stopped\n"
    "  TARGET t / UNSOLVABLE / SOLUTIONS 0 / NODES 0 / TIME s  (enumerating)              1\n"
    "  CUBE b spec (one line each) / CUBES k / DROPPED d / NODES n / TIME s  (--cubes)    0\n"
    "  TARGET t / EXHAUSTED b / NODES n / TIME s  (--cube: no solution in it within b)    1\n"
    "  CUBE b spec (one line each) / CUBES k / TARGET t / STOPPED b / ...  (--hand-back)  3\n"
    "\n"
    "examples:\n"
    "  unflip_solver board.txt\n"
    "  unflip_solver --threads 2 --target either < board.txt\n"
    "  unflip_solver board.txt --all-solutions\n";

// Every technique's switch, one table for parsing and for --help, so the two cannot drift apart.
struct FlagSwitch {
    const char* flag;
    const char* name;   // the field's, for --list-switches
    bool Switches::*field;
    bool value;   // what the flag sets
    const char* help;
};
const FlagSwitch kFlagSwitches[] = {
    {"--no-symmetry", "symmetry", &Switches::symmetry, false,
     "branches that are images of earlier ones are searched"},
    {"--no-exclusion", "exclusion", &Switches::exclusion, false,
     "a branch no longer forbids the sibling moves tried before it"},
    {"--no-ordering", "ordering", &Switches::ordering, false,
     "moves are not ordered by how many 1-points they clear"},
    {"--no-fewest-branches", "fewest_branches", &Switches::fewest_branches, false,
     "branch at the first 1-point, not the one with fewest moves"},
    {"--no-work-estimate", "work_estimate", &Switches::work_estimate, false,
     "branch at the point with fewest moves everywhere, not where the\n"
     "                       children's estimated work sums least"},
    {"--no-parity-weights", "parity_weights", &Switches::parity_weights, false,
     "the parity rows' duals bound only the node whose LP they cut"},
    {"--no-lp-updates", "lp_updates", &Switches::lp_updates, false,
     "the LP's duals and primal are summed afresh at every pivot"},
    {"--no-dual-repair", "dual_repair", &Switches::dual_repair, false,
     "an LP whose rounded duals overload a move proves nothing"},
    {"--no-kept-rows", "kept_parity_rows", &Switches::kept_parity_rows, false,
     "a node's LP starts from the covering LP above it, not with the\n"
     "                       parity rows that bind there"},
    {"--no-lagrangian", "lagrangian", &Switches::lagrangian, false,
     "no Lagrangian with parity rows of the node's own at the nodes far\n"
     "                       from the leaves"},
    {"--no-annealing", "annealing", &Switches::annealing, false,
     "search the optimum's bound even when annealing could have found\n"
     "                       a solution there"},
    // Each lower bound's switch turns it off: one row each in solver/bounds.def.
#define UNFLIP_BOUND(type, field, flag, help) {flag, #field, &Switches::field, false, help},
#include "solver/bounds.def"
#undef UNFLIP_BOUND
    {"--tt", "tt", &Switches::tt, true,
     "use the shared transposition table (off by default: it does not pay;\n"
     "                       it also turns symmetry breaking off)"},
};

struct NumberSwitch {
    const char* flag;
    const char* metavar;
    int Switches::*field;
    int low, high;
    const char* help;
};
const NumberSwitch kNumberSwitches[] = {
    {"--parity-rounds", "R", &Switches::parity_rounds, 0, 100,
     "cut each LP by the parity rows its solution breaks, R rounds\n"
     "                       at most (default 6; 0: the covering LP alone)"},
    {"--parity-gain", "G", &Switches::parity_gain, 0, 100,
     "below the root, stop the parity rounds at one that raised the LP\n"
     "                       by less than G/100 of a move (default 80; 0: every round)"},
    {"--lp-after", "N", &Switches::lp_after, 0, 1 << 30,
     "solve the covering LP again at a node once its subtree has\n"
     "                       taken N nodes (default 2000; 0: at the root only,\n"
     "                       whatever --lp-ahead says)"},
    {"--lp-ahead", "W", &Switches::lp_ahead, 0, 1 << 30,
     "solve it on entering a node, too, when the work estimate weighs\n"
     "                       its children at W or more, 16 for each spare move (default\n"
     "                       0: never; 40 pays with --no-lagrangian)"},
    {"--lp-ahead-from", "B", &Switches::lp_ahead_from, 1, kMaxBound,
     "--lp-ahead only with B or more moves left (default 20)"},
    {"--lagrangian-from", "B", &Switches::lagrangian_from, 1, kMaxBound,
     "the Lagrangian at nodes with B or more moves left (default 12)"},
    {"--lagrangian-iterations", "I", &Switches::lagrangian_iterations, 1, 100000,
     "its subgradient steps a node, at most (default 60)"},
    {"--estimate-from", "B", &Switches::estimate_from, 1, kMaxBound,
     "the work estimate chooses the branch point with B or more moves\n"
     "                       left (default 10)"},
    {"--anneal-after", "N", &Switches::anneal_after, 0, 1 << 30,
     "anneal for a solution one move over a bound that took N nodes\n"
     "                       or more to exhaust (default 100000)"},
    {"--tt-min-budget", "B", &Switches::tt_min_budget, 1, kMaxStoredBudget + 1,
     "with --tt: consult the table only with B or more moves left\n"
     "                       (default 3)"},
};

void print_usage() {
    std::string text = kUsageHead;
    // Helps of any length: a fixed line buffer once cut one off without a word.
    auto add = [&](std::string named, const char* help) {
        named.resize(std::max<size_t>(named.size(), 20), ' ');
        text += "  " + named + " " + help + "\n";
    };
    for (const FlagSwitch& s : kFlagSwitches) add(s.flag, s.help);
    for (const NumberSwitch& s : kNumberSwitches) add(std::string(s.flag) + " " + s.metavar, s.help);
    text += kUsageTail;
    std::fputs(text.c_str(), stdout);
}

// The switches as data for scripts (tests/test_solver_switches.py, bench/switches.py), in the table's order.
void print_switches() {
    const Switches defaults;
    std::string text;
    for (const FlagSwitch& s : kFlagSwitches) text += std::string("flag ") + s.flag + " " + s.name + "\n";
    for (const NumberSwitch& s : kNumberSwitches)
        text += std::string("number ") + s.flag + " " + std::to_string(s.low) + " " + std::to_string(s.high) + " " +
                std::to_string(defaults.*(s.field)) + "\n";
    std::fputs(text.c_str(), stdout);
}

// contract.def as data, for the front end's check that both sides read the same contract.
void print_contract() {
    std::string text;
    for (const ContractEntry& entry : kContractEntries)
        text += std::string(entry.kind) + " " + entry.name + " " + entry.value + "\n";
    std::fputs(text.c_str(), stdout);
}

// Whole numbers are digits only (so '-1' cannot wrap around); a range check that NaN fails too.
template <typename T>
T parse_number(const std::string& flag, const std::string& text, T low, T high, const std::string& what) {
    const bool whole = std::is_integral<T>::value;
    std::istringstream in(text);
    T value{};
    const bool digits_only = !text.empty() && text.find_first_not_of("0123456789") == std::string::npos;
    if ((whole && !digits_only) || !(in >> value) || !in.eof() || !(value >= low && value <= high))
        throw Rejected(flag + " needs " + what + ", not '" + text + "'");
    return value;
}

// --cubes and --cube work at one bound, on one target's search when a cube is named.
void check_cube_options(Options& options, bool target_asked) {
    const bool cubes = options.split_depth >= 0, cube = !options.cube.empty();
    if (!cubes && !cube) {
        if (options.bound >= 0) throw Rejected("--bound is the bound of --cubes or --cube: give one of them");
        if (options.hand_back) throw Rejected("--hand-back hands back what a --cube search's --max-nodes left");
        return;
    }
    const char* mode = cubes ? "--cubes" : "--cube";
    if (options.bound < 0) throw Rejected(std::string(mode) + " needs --bound B, the bound it works at");
    if (options.enumerate || options.lower_bound_only)
        throw Rejected(std::string(mode) + " cannot be given with --all-solutions, --count, --max-solutions or "
                       "--lower-bound");
    if (cubes && (options.max_seconds > 0 || options.max_nodes > 0))
        throw Rejected("--cubes lists the cubes without searching them: drop --max-seconds and --max-nodes");
    if (cube) {
        if (target_asked) throw Rejected("--cube names its own target: drop --target");
        options.target = cube_target(options.cube.front());
        for (const std::string& text : options.cube)
            if (cube_target(text) != options.target) throw Rejected("the cubes of one --cube search share a target");
        if (cubes && options.cube.size() > 1) throw Rejected("--cubes lists the cubes below one --cube");
    }
    if (options.hand_back && (!cube || cubes || options.max_nodes == 0 || options.threads != 1))
        throw Rejected("--hand-back hands back what a --cube search's --max-nodes left, on --threads 1");
}

// What a tri board cannot be asked for yet.
void check_tri_options(const Options& options) {
    if (options.target != 0)
        throw Rejected("--target under --scheme tri is 0 only: every tile 1, the game's goal");
    if (!options.certificate.empty()) throw Rejected("--certificate is not for tri boards yet");
}

// What the command line asks for: a board solved by `options`, or a listing printed instead.
struct Command {
    enum class Listing { none, help, contract, switches } listing = Listing::none;
    Options options;
};

Command parse_arguments(int argc, char** argv) {
    Command command;
    Options& options = command.options;
    bool have_file = false, listing_asked = false, count_asked = false, target_asked = false;
    for (int i = 1; i < argc; ++i) {
        std::string arg = argv[i], value;
        const bool has_inline_value = arg.rfind("--", 0) == 0 && arg.find('=') != std::string::npos;
        if (has_inline_value) {
            value = arg.substr(arg.find('=') + 1);
            arg = arg.substr(0, arg.find('='));
        }
        auto take_value = [&]() -> std::string {
            if (has_inline_value) return value;
            if (i + 1 >= argc) throw Rejected(arg + " needs a value (see --help)");
            return argv[++i];
        };
        auto no_value = [&]() {
            if (has_inline_value) throw Rejected(arg + " takes no value (see --help)");
        };
        const auto flag_switch = std::find_if(std::begin(kFlagSwitches), std::end(kFlagSwitches),
                                              [&](const FlagSwitch& s) { return arg == s.flag; });
        const auto number_switch = std::find_if(std::begin(kNumberSwitches), std::end(kNumberSwitches),
                                                [&](const NumberSwitch& s) { return arg == s.flag; });
        if (arg == "--help" || arg == "-h") {
            command.listing = Command::Listing::help;
            return command;
        } else if (arg == "--contract") {
            command.listing = Command::Listing::contract;
            return command;
        } else if (arg == "--list-switches") {
            command.listing = Command::Listing::switches;
            return command;
        } else if (flag_switch != std::end(kFlagSwitches)) {
            no_value();
            options.sw.*(flag_switch->field) = flag_switch->value;
        } else if (number_switch != std::end(kNumberSwitches)) {
            const std::string range = "a whole number from " + std::to_string(number_switch->low) + " to " +
                                      std::to_string(number_switch->high);
            options.sw.*(number_switch->field) =
                parse_number<int>(arg, take_value(), number_switch->low, number_switch->high, range);
        } else if (arg == "--target") {
            target_asked = true;
            std::string t = take_value();
            if (t == "0") options.target = 0;
            else if (t == "1") options.target = 1;
            else if (t == "either") options.target = kEither;
            else throw Rejected("--target needs 0, 1 or either, not '" + t + "'");
        } else if (arg == "--scheme") {
            std::string scheme = take_value();
            if (scheme == "two") options.tri = false;
            else if (scheme == "tri") options.tri = true;
            else throw Rejected("--scheme needs two or tri, not '" + scheme + "'");
        } else if (arg == "--threads") {
            options.threads = parse_number<int>(arg, take_value(), kMinThreads, kMaxThreads,
                                                "a whole number from " + std::to_string(kMinThreads) + " to " +
                                                    std::to_string(kMaxThreads));
        } else if (arg == "--max-seconds") {
            options.max_seconds =
                parse_number<double>(arg, take_value(), kMinSeconds, kMaxSeconds, "a number of seconds > 0");
        } else if (arg == "--max-nodes") {
            options.max_nodes = parse_number<uint64_t>(arg, take_value(), kMinNodes, kMaxNodes, "a whole number > 0");
        } else if (arg == "--quiet") {
            no_value();
            options.quiet = true;
        } else if (arg == "--bound") {
            options.bound = parse_number<int>(arg, take_value(), 0, kMaxBound,
                                              "a whole number from 0 to " + std::to_string(kMaxBound));
        } else if (arg == "--cubes") {
            options.split_depth = parse_number<int>(arg, take_value(), 0, kMaxSplitDepth,
                                                    "a whole number from 0 to " + std::to_string(kMaxSplitDepth));
        } else if (arg == "--cube") {
            options.cube.push_back(take_value());
            if (options.cube.back().empty()) throw Rejected("--cube needs a cube, as --cubes lists them");
        } else if (arg == "--hand-back") {
            no_value();
            options.hand_back = true;
        } else if (arg == "--wide-lattice") {
            no_value();
            options.wide_lattice = true;
        } else if (arg == "--lower-bound") {
            no_value();
            options.lower_bound_only = true;
        } else if (arg == "--all-solutions") {
            no_value();
            listing_asked = true;
        } else if (arg == "--count") {
            no_value();
            count_asked = true;
        } else if (arg == "--certificate") {
            options.certificate = take_value();
            if (options.certificate.empty()) throw Rejected("--certificate needs a file name");
        } else if (arg == "--max-solutions") {
            options.max_solutions =
                parse_number<uint64_t>(arg, take_value(), kMinSolutions, kMaxSolutions, "a whole number > 0");
        } else if (arg.size() > 1 && arg[0] == '-') {
            throw Rejected("unknown option '" + arg + "' (see --help)");
        } else if (have_file) {
            throw Rejected("unexpected argument '" + arg + "': give at most one board file");
        } else {
            have_file = true;
            options.file = arg == "-" ? "" : arg;
        }
    }
    if (listing_asked && count_asked) throw Rejected("give --all-solutions or --count, not both");
    options.enumerate = listing_asked || count_asked || options.max_solutions > 0;
    options.list_solutions = options.enumerate && !count_asked;
    if (options.enumerate && options.lower_bound_only)
        throw Rejected(
            "--lower-bound searches nothing, so it cannot be given with --all-solutions, --count or --max-solutions");
    if (!options.certificate.empty() && (options.enumerate || options.lower_bound_only))
        throw Rejected("--certificate proves one solution optimal: give it without --all-solutions, --count, "
                       "--max-solutions and --lower-bound");
    if (options.tri) check_tri_options(options);
    check_cube_options(options, target_asked);
    return command;
}

std::string read_board_text(const Options& options) {
    if (options.file.empty()) return read_all(std::cin, "standard input");
    std::ifstream in(options.file, std::ios::binary);
    if (!in) throw Rejected("cannot read '" + options.file + "': " + std::strerror(errno));
    std::string text = read_all(in, "'" + options.file + "'");
    if (in.bad()) throw Rejected("cannot read '" + options.file + "': " + std::strerror(errno));
    return text;
}

// A solution's moves as 'row col size' triples, one a press: under tri a square pressed twice is its
// triple twice, one after the other.
template <class L>
std::vector<std::array<int, 3>> presses_of(const std::vector<uint16_t>& path, const Lattice<L>& lattice) {
    std::vector<std::array<int, 3>> triples;
    for (uint16_t index : path) {
        const Move<L>& m = lattice.moves[index];
        for (int t = 0; t < presses(m); ++t) triples.push_back({m.row, m.col, m.size});
    }
    return triples;
}

// The outcome's lines, opening with the scheme's under tri unless cubes handed back opened the output.
template <class L>
void print(const Outcome& out, const Lattice<L>& lattice, bool opens_output = true) {
    std::string text = L::kTri && opens_output ? "SCHEME tri\n" : "";
    text += "TARGET " + std::to_string(out.target) + "\n";
    if (out.bound_only) {
        text += "LOWER_BOUND " + std::to_string(out.lower_bound) + "\n";
    } else if (out.enumerated && (out.code == ExitCode::solved || out.counting_stopped)) {
        // Each solution a set, in a canonical order: moves sorted within a line, lines sorted.
        std::vector<std::vector<std::array<int, 3>>> sets;
        for (const std::vector<uint16_t>& solution : out.solutions) {
            std::vector<std::array<int, 3>> set = presses_of(solution, lattice);
            std::sort(set.begin(), set.end());
            sets.push_back(set);
        }
        std::sort(sets.begin(), sets.end());
        text += "MOVES " + std::to_string(lattice.presses_on(out.moves)) + "\n";
        for (const auto& set : sets) {
            text += "SOLUTION";
            for (const auto& move : set)
                text += " " + std::to_string(move[0]) + " " + std::to_string(move[1]) + " " + std::to_string(move[2]);
            text += "\n";
        }
        text += "SOLUTIONS " + std::to_string(out.solution_count) + "\n";
        if (out.incomplete) text += "INCOMPLETE\n";
    } else if (out.code == ExitCode::solved) {
        text += "MOVES " + std::to_string(lattice.presses_on(out.moves)) + "\n";
        for (const auto& move : presses_of(out.moves, lattice))
            text += std::to_string(move[0]) + " " + std::to_string(move[1]) + " " + std::to_string(move[2]) + "\n";
    } else if (out.exhausted) {
        text += "EXHAUSTED " + std::to_string(out.lower_bound) + "\n";
    } else if (out.code == ExitCode::unsolvable) {
        text += "UNSOLVABLE\n";
        if (out.enumerated) text += "SOLUTIONS 0\n";
    } else {
        text += "STOPPED " + std::to_string(out.lower_bound) + "\n";
    }
    char tail[96];
    std::snprintf(tail, sizeof tail, "NODES %llu\nTIME %.3f\n", static_cast<unsigned long long>(out.nodes),
                  out.seconds);
    text += tail;
    std::fwrite(text.data(), 1, text.size(), stdout);
    std::fflush(stdout);
}

// Cubes in the search's order, each 'CUBE bound spec', then 'CUBES k'; first in the output, so under tri
// after the scheme's line.
template <class L>
void print_cubes(const CubeListing& listing, const Lattice<L>& lattice) {
    std::string text = L::kTri ? "SCHEME tri\n" : "";
    for (const Cube& cube : listing.cubes)
        text += "CUBE " + std::to_string(cube.bound) + " " + cube_text(cube, lattice) + "\n";
    text += "CUBES " + std::to_string(listing.cubes.size()) + "\n";
    std::fwrite(text.data(), 1, text.size(), stdout);
}

// The cubes of a split, in the search's order, each 'CUBE bound spec'; or, with no root that can be
// solved, the unsolvable outcome.
template <class L>
int print_listing(const CubeListing& listing, const Lattice<L>& lattice) {
    if (listing.unsolvable) {
        Outcome out;
        out.target = listing.target;
        out.seconds = listing.seconds;
        print(out, lattice);
        return static_cast<int>(out.code);
    }
    print_cubes(listing, lattice);
    char tail[128];
    std::snprintf(tail, sizeof tail, "DROPPED %llu\nNODES %llu\nTIME %.3f\n",
                  static_cast<unsigned long long>(listing.dropped), static_cast<unsigned long long>(listing.nodes),
                  listing.seconds);
    std::fputs(tail, stdout);
    std::fflush(stdout);
    return static_cast<int>(ExitCode::solved);
}

// The board solved, listed or split as `options` asks, on the lattice layout L; its output printed and
// its exit status returned.
template <class L>
int run_on_layout(const Board& board, const Options& options) {
    Driver<L> driver(board, options);
    if (options.split_depth >= 0) return print_listing(driver.split(), driver.lattice());
    const Outcome out = options.cube.empty() ? driver.run() : driver.solve_cube();
    const bool handing_back = options.hand_back && out.code == ExitCode::stopped;
    if (handing_back) print_cubes(driver.handed_back(), driver.lattice());
    print(out, driver.lattice(), !handing_back);
    return static_cast<int>(out.code);
}

}  // namespace

// The one place the solver's failures become `error:` lines and exit statuses.
int main(int argc, char** argv) {
    std::ios::sync_with_stdio(false);
    auto fail = [](ExitCode code, const char* why) {
        std::fprintf(stderr, "error: %s\n", why);
        return static_cast<int>(code);
    };
    try {
        const Command command = parse_arguments(argc, argv);
        switch (command.listing) {
            case Command::Listing::help: print_usage(); return 0;
            case Command::Listing::contract: print_contract(); return 0;
            case Command::Listing::switches: print_switches(); return 0;
            case Command::Listing::none: break;
        }
        const Options& options = command.options;
        const Board board = parse_board(read_board_text(options), options.tri);
        const bool small = std::max(board.size(), board[0].size()) <= static_cast<size_t>(SmallLayout::kMaxSide) &&
                           !options.wide_lattice;
        if (options.tri) return small ? run_on_layout<TriSmallLayout>(board, options)
                                      : run_on_layout<TriWideLayout>(board, options);
        return small ? run_on_layout<SmallLayout>(board, options) : run_on_layout<WideLayout>(board, options);
    } catch (const Rejected& rejected) {
        return fail(ExitCode::rejected, rejected.what());
    } catch (const Failed& failure) {
        return fail(ExitCode::failed, failure.what());
    } catch (const std::bad_alloc&) {
        return fail(ExitCode::failed, "cannot allocate memory");
    }
}
