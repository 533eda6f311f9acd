# unflip: build the solver, set up the Python side, run the checks.
#   make          build ./unflip_solver
#   make demo     fresh clone -> venv, solver, `python unflip.py daily 5`
#   make check    the inner loop, in 2 minutes or less: ruff, mypy, and pytest's fast tier (not the slow marker)
#   make test     fresh clone -> venv, solver, sanitizer builds, ruff, mypy, pytest: every test, CI's command
#   make asan     ./unflip_solver_asan  (AddressSanitizer + UndefinedBehaviorSanitizer)
#   make tsan     ./unflip_solver_tsan  (ThreadSanitizer)
#   make fuzz     libFuzzer over the solver's board parser for FUZZ_SECONDS (default 600); needs clang
#   make books    rebuild the three shipped books, byte for byte
#   make certify  a certificate of optimality for every level of the three shipped books, each checked
#   make web      web/unflip.html: the solver as WebAssembly in one page that works offline (docs/web.md); needs em++
#   make clean    remove what the build made (not the venv: `make distclean`)

include solver/build.mk

CXX      ?= g++
CXXSTD   := $(SOLVER_STD_FLAGS) -Wall -Wextra
CXXFLAGS ?= $(SOLVER_OPT_FLAGS)
PYTHON   ?= python3
FUZZCXX  ?= clang++
FUZZ_SECONDS ?= 600
VENV     := .venv
VPY      := $(VENV)/bin/python

.PHONY: all demo check test lint typecheck asan tsan fuzz books certify bench web clean distclean

all: unflip_solver

# Built under a name of its own and renamed into place: a solver that is running, or that another make or a
# first use of unflip.py is about to run, is never overwritten halfway ("Text file busy").
# Every solver target depends on all of SOLVER_SOURCES (solver/build.mk), so editing any header rebuilds it.
unflip_solver: $(SOLVER_SOURCES)
	$(CXX) $(CXXSTD) $(CXXFLAGS) -o .$@.$$$$.partial unflip_solver.cpp && mv -f .$@.$$$$.partial $@

unflip_solver_asan: $(SOLVER_SOURCES)
	$(CXX) $(CXXSTD) -O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=all -o $@ unflip_solver.cpp

unflip_solver_tsan: $(SOLVER_SOURCES)
	$(CXX) $(CXXSTD) -O1 -g -fsanitize=thread -o $@ unflip_solver.cpp

asan: unflip_solver_asan
tsan: unflip_solver_tsan

# Every board of a shape through the solver's search in one process (tests/all_boards.cpp says how), for
# tests/test_solver_all_boards.py: a process per board would take minutes.
unflip_all_boards: tests/all_boards.cpp $(SOLVER_SOURCES)
	$(CXX) $(CXXSTD) $(CXXFLAGS) -o $@ $<

# The fewest presses of every tri board of a shape up to 16 tiles, by breadth-first search (tests/tri_boards.cpp):
# the three-colour oracle, apart from the solver's sources, for tests/test_oracle.py and test_solver_tri.py.
unflip_tri_boards: tests/tri_boards.cpp
	$(CXX) $(CXXSTD) $(CXXFLAGS) -o $@ $<

# The split line costs of the lines past 16 points against exact costs (tests/line_costs_check.cpp says
# which), for tests/test_line_costs.py; `--strength` measures them (docs/bounds.md).
unflip_line_costs_check: tests/line_costs_check.cpp $(SOLVER_SOURCES)
	$(CXX) $(CXXSTD) $(CXXFLAGS) -o $@ $<

# Certificates for many boards of a shape in one process (tests/certify_boards.cpp), for
# tests/test_certificates.py.
unflip_certify_boards: tests/certify_boards.cpp $(SOLVER_SOURCES)
	$(CXX) $(CXXSTD) $(CXXFLAGS) -o $@ $<

# The solver's board parser under libFuzzer, AddressSanitizer and UndefinedBehaviorSanitizer: the harness
# calls solver/board_input.h's functions (fuzz/board_parser_fuzz.cpp says what it checks). New inputs go to
# fuzz/found/, a failing one to fuzz/artifacts/; inputs up to 70,000 bytes reach past the solver's 64 KiB cap.
unflip_solver_fuzz: fuzz/board_parser_fuzz.cpp $(SOLVER_SOURCES)
	$(FUZZCXX) $(SOLVER_STD_FLAGS) -O1 -g -fno-omit-frame-pointer -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all -o $@ $<

fuzz: unflip_solver_fuzz
	mkdir -p fuzz/found fuzz/artifacts
	./unflip_solver_fuzz fuzz/found fuzz/corpus -max_total_time=$(FUZZ_SECONDS) -max_len=70000 -artifact_prefix=fuzz/artifacts/ -print_final_stats=1

# The page (docs/web.md): the same core compiled by em++ (SOLVER_WEB_FLAGS: no threads) into one module,
# web/unflip_core.js and its wasm, web/unflip_core.wasm (the loaders hand it over as wasmBinary), which node
# runs too (web/core_node.js, for the tests and bench/web.py); then web/build_page.py writes the page with
# them, the wasm compressed, the page's scripts and the three shipped books embedded. Emscripten's JS optimiser needs node's acorn, which Debian puts in /usr/share/nodejs:
# a node from elsewhere does not look there.
EMXX     ?= em++
WEB_EMFLAGS := -fwasm-exceptions -Wno-bitwise-instead-of-logical -Wno-bitwise-conditional-parentheses -sMODULARIZE=1 -sEXPORT_NAME=createUnflipCore -sINVOKE_RUN=0 \
	-sALLOW_MEMORY_GROWTH=1 -sENVIRONMENT=worker,node -sEXPORTED_RUNTIME_METHODS=callMain,FS
WEB_BOOKS := daily=daily_levels_book.json main=main_levels_book.json weekly=weekly_challenges_book.json
WEB_PAGE_SOURCES := web/build_page.py web/page.html web/page.css web/page.js web/links.js web/worker.js \
	solver/contract.def unflip_frontend/contract.py \
	$(foreach book,$(WEB_BOOKS),$(word 2,$(subst =, ,$(book))))

web: web/unflip.html

# One build makes both (a grouped target), in a directory of its own, then moved into place: a build cut
# short leaves no half-written file.
web/unflip_core.js web/unflip_core.wasm &: $(SOLVER_SOURCES) solver/build.mk
	rm -rf web/.unflip_core.$$$$ && mkdir web/.unflip_core.$$$$ && \
	NODE_PATH="$${NODE_PATH:-/usr/share/nodejs}" $(EMXX) $(filter-out -pthread,$(SOLVER_STD_FLAGS)) $(SOLVER_WEB_FLAGS) \
		$(WEB_EMFLAGS) -o web/.unflip_core.$$$$/unflip_core.js unflip_solver.cpp && \
	mv -f web/.unflip_core.$$$$/unflip_core.wasm web/unflip_core.wasm && \
	mv -f web/.unflip_core.$$$$/unflip_core.js web/unflip_core.js && rmdir web/.unflip_core.$$$$

web/unflip.html: web/unflip_core.js web/unflip_core.wasm $(WEB_PAGE_SOURCES)
	$(PYTHON) web/build_page.py web/unflip_core.js web/unflip_core.wasm $@ $(WEB_BOOKS)

$(VENV)/.installed: requirements.txt requirements-dev.txt requirements-dask.txt
	$(PYTHON) -m venv $(VENV)
	$(VPY) -m pip install --quiet --disable-pip-version-check -r requirements-dev.txt -r requirements-dask.txt
	touch $@

demo: $(VENV)/.installed unflip_solver
	$(VPY) unflip.py daily 5

lint: $(VENV)/.installed
	$(VENV)/bin/ruff check .

typecheck: $(VENV)/.installed
	$(VENV)/bin/mypy

# The fast tier: every module exercised on small boards (docs/checks.md says what it proves and what the
# slow tier, tests/conftest.py's SLOW, adds). A change is done when `make test` passes, not this.
check: $(VENV)/.installed unflip_solver lint typecheck
	$(VPY) -m pytest -q -m "not slow"

test: $(VENV)/.installed unflip_solver unflip_solver_asan unflip_solver_tsan unflip_all_boards unflip_tri_boards lint typecheck
	$(VPY) -m pytest

books: $(VENV)/.installed unflip_solver
	$(VPY) unflip.py books --out .

# Every published par proven: each level's certificate made by the solver and checked by the independent
# checker, on demand rather than stored beside the books (docs/certificates.md says why).
certify: unflip_solver
	$(PYTHON) bench/certificates.py daily_levels_book.json main_levels_book.json weekly_challenges_book.json

clean:
	rm -f unflip_solver unflip_solver_asan unflip_solver_tsan unflip_solver_fuzz unflip_all_boards unflip_certify_boards \
		unflip_line_costs_check unflip_tri_boards
	rm -f web/unflip_core.js web/unflip_core.wasm web/unflip.html

distclean: clean
	rm -rf $(VENV) .pytest_cache .ruff_cache .mypy_cache build *.egg-info
