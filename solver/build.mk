# How the solver is built, written down once: the Makefile includes this file, and the front end's build
# (unflip_frontend/build.py: the staleness check, the cache key, the compile command), setup.py and the
# install tests read it as text. Keep the NAME := words form, one line each.
#
# SOLVER_SOURCES: every file the solver is compiled from; editing any of them rebuilds it.
# SOLVER_STD_FLAGS: what every build of the solver needs (sanitizer and test builds too).
# SOLVER_OPT_FLAGS: the optimisation of the solver that is run.
# SOLVER_WEB_FLAGS: the WebAssembly core's (`make web`, em++, docs/web.md), with SOLVER_STD_FLAGS but its
#   -pthread: a page opened from a file cannot start threads, so UNFLIP_NO_THREADS has the driver run its
#   one worker inline (solver/driver.h); -msimd128 makes the 16-byte vectors WebAssembly's SIMD (the
#   weekly book in 0.6x the time), the same on every machine.
SOLVER_SOURCES := unflip_solver.cpp solver/contract.def solver/errors.h solver/contract.h solver/board_input.h solver/lattice.h solver/solvability.h solver/line_costs.h solver/cover_lp.h solver/lagrangian.h solver/switches.h solver/bounds.def solver/bounds.h solver/transposition.h solver/certificate.h solver/annealing.h solver/search.h solver/driver.h solver/cubes.h
SOLVER_STD_FLAGS := -std=c++17 -pthread
SOLVER_OPT_FLAGS := -O3 -march=native
SOLVER_WEB_FLAGS := -O3 -msimd128 -DUNFLIP_NO_THREADS
