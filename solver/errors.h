// errors: what stops the solver before it has an answer, as exceptions. Only the command line's main
// turns one into its `error:` line and exit status, so a harness can call the library and see the
// failure instead of the process ending under it. The front end treats input the solver rejects (the
// caller's to fix) apart from the solver's own failures: memory it could not get (the machine's), or two
// of its methods contradicting each other (a bug, reported rather than answered through).
#pragma once

#include <stdexcept>
#include <string>

namespace unflip {
namespace {

// The board text or the command line is unusable; what() is the reason, one line.
class Rejected : public std::runtime_error {
public:
    explicit Rejected(const std::string& why) : std::runtime_error(why) {}
};

// The solver could not finish on its own account (exit status "failed"); what() says why, one line. The
// kinds below say whose the failure is.
class Failed : public std::runtime_error {
public:
    explicit Failed(const std::string& what) : std::runtime_error(what) {}
};

// The solver could not get memory it needs (the transposition table's mapping, say, or a worker thread's
// stack); what() says which.
class AllocationFailed : public Failed {
public:
    explicit AllocationFailed(const std::string& what) : Failed(what) {}
};

// Two of the solver's methods disagree, as annealing meeting a solution shorter than an exhausted bound
// allows; what() says which. Neither answer can be trusted, so there is none.
class Contradiction : public Failed {
public:
    explicit Contradiction(const std::string& what) : Failed(what) {}
};

}  // namespace
}  // namespace unflip
