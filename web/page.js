// The page: a board from a game link, a shipped book's level, the address's fragment or the editor; the
// solver (the WebAssembly core, in a worker) proves its optimum; the walkthrough, one hint, the count of
// optimal solutions and a share link back to the game. docs/web.md says how it is built and why.
'use strict';

const BOOKS = JSON.parse(document.getElementById('books').textContent);
const COUNT_CAP = 1000; // --max-solutions for the count: enough to say "many" without listing them all
const $ = (id) => document.getElementById(id);
const number = (n) => Number(n).toLocaleString('en');

// --- the solver, in a worker made from a Blob (no file is fetched, so it runs from file:// too) ----------

const solver = {
  url: URL.createObjectURL(
    new Blob([CORE_SOURCE, `\nconst CORE_WASM = ${JSON.stringify(CORE_WASM)};\n`, WORKER_SOURCE], {
      type: 'text/javascript',
    }),
  ),
  worker: null,
  pending: new Map(), // id -> {resolve, onProgress}
  lastId: 0,

  start() {
    this.worker = new Worker(this.url);
    this.worker.onmessage = ({ data }) => {
      const waiting = this.pending.get(data.id);
      if (!waiting) return;
      if (data.progress !== undefined) return waiting.onProgress(data.progress);
      this.pending.delete(data.id);
      if (data.crashed !== undefined) this.restart();
      waiting.resolve(data);
    };
  },

  // ./unflip_solver ARGS on the board's text -> {status, stdout, stderr}, {crashed}, or {ended} when stopped.
  run(args, text, onProgress = () => {}) {
    const id = ++this.lastId;
    return new Promise((resolve) => {
      this.pending.set(id, { resolve, onProgress });
      this.worker.postMessage({ id, args, board: text });
    });
  },

  // The only way to stop a search in a worker that cannot be reached while it runs: end the worker.
  restart() {
    this.worker.terminate();
    for (const { resolve } of this.pending.values()) resolve({ ended: true });
    this.pending.clear();
    this.start();
  },
};
solver.start();

// The protocol's output (docs/protocol.md) as a record: what the page needs of it.
function readOutput(stdout) {
  const result = { moves: [] };
  for (const line of stdout.trim().split('\n')) {
    const [word, ...rest] = line.split(' ');
    const value = Number(rest[0]);
    if (word === 'MOVES') result.optimum = value;
    else if (word === 'STOPPED' || word === 'LOWER_BOUND') result.bound = value;
    else if (word === 'SOLUTIONS') result.count = value;
    else if (word === 'INCOMPLETE') result.incomplete = true;
    else if (word === 'NODES') result.nodes = value;
    else if (word === 'TIME') result.seconds = value;
    else if (/^[0-9]+ [0-9]+ [0-9]+$/.test(line)) result.moves.push(line.split(' ').map(Number));
  }
  return result;
}

// --- the board -----------------------------------------------------------------------------------------

const state = {
  board: null, // rows of 0 (white) and 1 (black), or of three colours 0 to 2: what is edited and solved
  colours: 2, // 3 for a three-colour (tri) board, the game's m_3 levels
  title: '',
  par: null,
  cursor: [0, 0],
  busy: false,
  view: null, // after a solve: {start, moves, step, hintOnly}
  result: null, // the last outcome, as the tests and the status line read it
};

// The solver's board file and arguments: two colours as 0/1 digits; three as the game's digits 1 to 3, with
// --scheme tri (docs/protocol.md).
const boardText = (board, colours) =>
  board.map((row) => row.map((tile) => (colours === 3 ? tile + 1 : tile)).join('')).join('\n') + '\n';
const schemeArgs = (colours) => (colours === 3 ? ['--scheme', 'tri'] : []);
// A tri tile's class: 0 cream, 1 blue, 2 red (the game's 1, 2 and 3).
const TRI_CLASSES = ['cream', 'blue', 'red'];
const copy = (board) => board.map((row) => row.slice());
const inSquare = ([row, col, size], r, c) => r >= row && r < row + size && c >= col && c < col + size;
const span = (from, size) => (size > 1 ? `${from + 1}–${from + size}` : `${from + 1}`);
const flipText = ([row, col, size]) =>
  `flip the ${size}×${size} square covering rows ${span(row, size)}, cols ${span(col, size)}`;

function draw() {
  const element = $('board');
  const view = state.view;
  let shown = state.board;
  let move = null;
  if (view) {
    shown = copy(view.start);
    view.moves.slice(0, view.step).forEach((m) => UnflipLinks.flip(shown, m, state.colours));
    move = view.moves[view.step] || null;
  }
  const [height, width] = [shown.length, shown[0].length];
  element.style.setProperty('--cols', width);
  element.replaceChildren();
  shown.forEach((row, r) =>
    row.forEach((tile, c) => {
      const cell = document.createElement('div');
      cell.className = 'tile' + (state.colours === 3 ? ` ${TRI_CLASSES[tile]}` : tile ? ' black' : '');
      if (move && inSquare(move, r, c)) cell.classList.add('in-move');
      if (!view && r === state.cursor[0] && c === state.cursor[1]) cell.classList.add('cursor');
      cell.dataset.row = r;
      cell.dataset.col = c;
      element.append(cell);
    }),
  );
  element.classList.toggle('editing', !view);
  element.setAttribute(
    'aria-label',
    view
      ? `${height}×${width} board, step ${Math.min(view.step + 1, view.moves.length)} of ${view.moves.length}`
      : `${height}×${width} board: arrow keys move, Space flips a tile, Enter solves`,
  );
  drawWalkthrough();
}

function drawWalkthrough() {
  const view = state.view;
  $('walkthrough').hidden = !view;
  if (!view) return;
  const total = view.moves.length;
  const moves = $('walkthrough');
  moves.dataset.moves = JSON.stringify(view.moves);
  if (view.hintOnly) {
    $('step-text').textContent =
      total === 0
        ? 'Already solved: every tile is white.'
        : `Hint: ${flipText(view.moves[0])}. Then ${total - 1} more ` +
          `move${total - 1 === 1 ? '' : 's'} clear the board, and no fewer can.`;
  } else if (total === 0) {
    $('step-text').textContent = 'Already solved: every tile is white.';
  } else if (view.step < total) {
    $('step-text').textContent = `Step ${view.step + 1} of ${total}: ${flipText(view.moves[view.step])}`;
  } else {
    $('step-text').textContent = `Solved: every tile is white after ${total} move${total === 1 ? '' : 's'}.`;
  }
  $('prev').disabled = view.hintOnly || view.step === 0;
  $('next').disabled = view.hintOnly || view.step === total;
  $('whole').hidden = !view.hintOnly;
  $('steps').hidden = view.hintOnly;
}

function step(delta) {
  const view = state.view;
  if (!view || view.hintOnly) return;
  view.step = Math.max(0, Math.min(view.moves.length, view.step + delta));
  draw();
}

function setBoard(board, title = '', par = null, colours = 2) {
  stopSearch(false);
  state.board = board;
  state.colours = colours;
  state.title = title;
  state.par = par;
  state.view = null;
  state.cursor = [0, 0];
  $('rows').value = board.length;
  $('cols').value = board[0].length;
  $('title').textContent = title ? `${title} — ${board.length}×${board[0].length}` : '';
  draw();
}

function setStatus(outcome, text) {
  const status = $('status');
  status.dataset.outcome = outcome;
  status.textContent = text;
}

// --- solving --------------------------------------------------------------------------------------------

function setBusy(busy) {
  state.busy = busy;
  $('stop').disabled = !busy;
  for (const id of ['solve', 'hint']) $(id).disabled = busy;
}

// The bound a progress line proves: every bound below a searched one is exhausted (docs/protocol.md).
function provenBy(line) {
  const match = /^bound ([0-9]+) (exhausted|searching|annealing), nodes=([0-9]+)$/.exec(line);
  if (!match) return null;
  return { bound: Number(match[1]) + (match[2] === 'exhausted' ? 1 : 0), nodes: match[3] };
}

function finish(result, text) {
  state.result = result;
  setStatus(result.outcome, text);
}

// The player's Stop: the search ends with the protocol's STOPPED b, b the bound proven so far.
function stopSearch(byPlayer = true) {
  if (!state.busy) return;
  const search = state.search;
  solver.restart();
  setBusy(false);
  if (!byPlayer || !search) return;
  if (search.phase === 'count') {
    $('count').textContent = 'Counting stopped by the player.';
  } else {
    finish(
      { outcome: 'stopped', bound: search.bound, nodes: search.nodes },
      `Stopped by the player: STOPPED ${search.bound} — every solution needs at least ${search.bound} moves` +
        (search.nodes ? ` (${number(search.nodes)} nodes searched).` : '.'),
    );
  }
}

function rejectedBy(stderr) {
  const line = stderr.split('\n').find((l) => l.startsWith('error: ')) || 'error: the solver gave no reason';
  return line.slice('error: '.length);
}

// Solve the board: its lower bound first (so that a Stop has a bound to report at once), then the search,
// then the number of optimal solutions. Resolves with the outcome once all three are done.
async function solve(hintOnly = false) {
  if (state.busy) return state.result;
  const board = copy(state.board);
  const colours = state.colours;
  const text = boardText(board, colours);
  const scheme = schemeArgs(colours);
  const search = { bound: 0, nodes: 0, phase: 'bound', started: performance.now() };
  state.search = search;
  state.view = null;
  draw();
  $('count').textContent = '';
  setBusy(true);
  setStatus('searching', 'Proving a lower bound…');
  const ended = (answer) => answer.ended || state.search !== search;
  const failed = (answer, why = null) => {
    setBusy(false);
    why ??= answer.crashed ? `the solver crashed: ${answer.crashed}` : rejectedBy(answer.stderr);
    finish({ outcome: 'failed', reason: why }, `Failed: ${why}`);
    return state.result;
  };

  const lower = await solver.run([...scheme, '--lower-bound', '--quiet'], text);
  if (ended(lower)) return state.result;
  if (lower.crashed || lower.status === 4) return failed(lower);
  if (lower.status === 2) {
    setBusy(false);
    const reason = rejectedBy(lower.stderr);
    finish({ outcome: 'rejected', reason }, `Rejected: ${reason}`);
    return state.result;
  }
  if (lower.status === 1) {
    setBusy(false);
    finish({ outcome: 'unsolvable' }, 'Unsolvable: no sequence of moves clears this board.');
    return state.result;
  }
  search.bound = readOutput(lower.stdout).bound;
  search.phase = 'search';
  setStatus('searching', `Searching: at least ${search.bound} moves…`);
  const found = await solver.run([...scheme, '--threads', '1'], text, (line) => {
    const progress = provenBy(line);
    if (!progress || state.search !== search) return;
    search.bound = Math.max(search.bound, progress.bound);
    search.nodes = Number(progress.nodes);
    setStatus(
      'searching',
      `Searching bound ${progress.bound}: ${number(progress.nodes)} nodes; ` +
        `every solution needs at least ${search.bound} moves.`,
    );
  });
  if (ended(found)) return state.result;
  if (found.crashed || found.status !== 0) return failed(found);
  const answer = readOutput(found.stdout);
  // Replayed before it is shown: a walkthrough that does not clear the board is the solver's failure.
  const replayed = copy(board);
  answer.moves.forEach((move) => UnflipLinks.flip(replayed, move, colours));
  if (answer.moves.length !== answer.optimum || replayed.flat().some((tile) => tile !== 0))
    return failed(found, "the solver's moves do not clear the board");
  state.view = { start: board, moves: answer.moves, step: 0, hintOnly };
  const par = state.par === null ? '' : ` The level's par is ${state.par}.`;
  finish(
    {
      outcome: 'solved',
      optimum: answer.optimum,
      moves: answer.moves,
      nodes: answer.nodes,
      shownAfter: (performance.now() - search.started) / 1000, // seconds until the walkthrough is shown
    },
    `Solved optimally. Optimal: ${answer.optimum} moves, proven (${number(answer.nodes)} nodes, ` +
      `${answer.seconds.toFixed(2)} s).${par}`,
  );
  const link = UnflipLinks.shareLink(board, answer.moves, colours);
  $('share').href = link;
  // The whole link holds a digit per move of the board's shape: hundreds.
  $('share').textContent = link.length > 60 ? link.slice(0, 59) + '…' : link;
  draw();

  search.phase = 'count';
  $('count').textContent = 'Counting the optimal solutions…';
  const counted = await solver.run([...scheme, '--count', '--max-solutions', String(COUNT_CAP), '--quiet'], text);
  if (ended(counted)) return state.result;
  setBusy(false);
  const count = readOutput(counted.stdout);
  state.result.count = count.count;
  state.result.incomplete = Boolean(count.incomplete);
  $('count').textContent = count.incomplete
    ? `At least ${number(count.count)} optimal solutions (counting stops there).`
    : count.count === 1
      ? 'Unique: this is the only optimal solution.'
      : `${number(count.count)} optimal solutions of ${answer.optimum} moves.`;
  return state.result;
}

// --- sources of boards --------------------------------------------------------------------------------

function reject(reason) {
  stopSearch(false);
  state.view = null;
  draw();
  finish({ outcome: 'rejected', reason }, `Rejected: ${reason}`);
}

function loadLink(text) {
  let read;
  try {
    read = UnflipLinks.readLink(text);
  } catch (error) {
    if (!(error instanceof UnflipLinks.LinkError)) throw error;
    reject(error.message);
    return Promise.resolve(state.result);
  }
  setBoard(read.board, read.colours === 3 ? 'Game link, three colours' : 'Game link', null, read.colours);
  return solve();
}

function loadLevel(book, level) {
  const levels = BOOKS[book].levels;
  if (!(Number.isInteger(level) && level >= 1 && level <= levels.length)) {
    reject(`${BOOKS[book].name} has levels 1 to ${levels.length}, not ${level}`);
    return Promise.resolve(state.result);
  }
  const { title, par, rows } = levels[level - 1];
  setBoard(
    rows.map((row) => Array.from(row, Number)),
    `${BOOKS[book].name} ${level}: ${title}`,
    par,
  );
  return solve();
}

function blankBoard() {
  const [height, width] = [Number($('rows').value), Number($('cols').value)];
  setBoard(
    Array.from({ length: height }, () => new Array(width).fill(0)),
    '',
    null,
    state.colours,
  );
  const turn = state.colours === 3 ? 'turn them cream, blue, red' : 'make them black';
  setStatus('', `Click or tap tiles to ${turn}, then Solve.`);
}

function flipTile(r, c) {
  if (state.view || state.busy) return;
  // Each click turns the tile one colour on: of three, cream, blue, red, cream.
  state.board[r][c] = (state.board[r][c] + 1) % state.colours;
  state.cursor = [r, c];
  state.title = state.title && !state.title.endsWith('(edited)') ? `${state.title} (edited)` : state.title;
  state.par = null;
  $('title').textContent = state.title;
  draw();
}

function loadFragment() {
  const fragment = location.hash.slice(1);
  if (fragment) loadLink(fragment);
}

// --- wiring ---------------------------------------------------------------------------------------------

for (const id of ['rows', 'cols'])
  for (let n = UnflipLinks.MIN_SIZE; n <= UnflipLinks.MAX_SIZE; n++) $(id).append(new Option(String(n), n));
for (const [key, book] of Object.entries(BOOKS)) $('book').append(new Option(`${book.name} (${book.levels.length})`, key));

$('link-form').addEventListener('submit', (event) => {
  event.preventDefault();
  loadLink($('link').value);
});
$('level-form').addEventListener('submit', (event) => {
  event.preventDefault();
  loadLevel($('book').value, Number($('level').value));
});
$('blank').addEventListener('click', blankBoard);
$('solve').addEventListener('click', () => solve(false));
$('hint').addEventListener('click', () => solve(true));
$('stop').addEventListener('click', () => stopSearch(true));
$('prev').addEventListener('click', () => step(-1));
$('next').addEventListener('click', () => step(1));
$('whole').addEventListener('click', () => {
  state.view.hintOnly = false;
  draw();
});
$('edit').addEventListener('click', () => {
  stopSearch(false);
  state.board = copy(state.view ? state.view.start : state.board);
  state.view = null;
  setStatus('', 'Click or tap tiles to flip them, then Solve.');
  draw();
});
$('copy').addEventListener('click', async () => {
  const link = $('share').href;
  try {
    await navigator.clipboard.writeText(link);
    $('copy').textContent = 'Copied';
  } catch {
    prompt('Copy the link:', link);
  }
});
$('board').addEventListener('click', (event) => {
  const cell = event.target.closest('.tile');
  if (cell) flipTile(Number(cell.dataset.row), Number(cell.dataset.col));
});
$('board').addEventListener('keydown', (event) => {
  if (state.view) return;
  const [height, width] = [state.board.length, state.board[0].length];
  const moves = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
  if (moves[event.key]) {
    const [dr, dc] = moves[event.key];
    state.cursor = [
      Math.max(0, Math.min(height - 1, state.cursor[0] + dr)),
      Math.max(0, Math.min(width - 1, state.cursor[1] + dc)),
    ];
    draw();
  } else if (event.key === ' ') {
    flipTile(...state.cursor);
  } else if (event.key === 'Enter') {
    solve(false);
  } else {
    return;
  }
  event.preventDefault();
  event.stopPropagation();
});
document.addEventListener('keydown', (event) => {
  if (event.target.closest('input, select, textarea') || event.altKey || event.ctrlKey || event.metaKey) return;
  if (event.key === 'ArrowRight' || event.key === 'n') step(1);
  else if (event.key === 'ArrowLeft' || event.key === 'p') step(-1);
  else if (event.key === 'Escape') stopSearch(true);
});
window.addEventListener('hashchange', loadFragment);

// What the page tests drive and read (tests/frontend/test_web_page.py): the same functions the controls call.
window.unflipPage = { state, books: BOOKS, loadLink, loadLevel, solve, stopSearch, step };

const first = BOOKS.daily.levels[0];
setBoard(first.rows.map((row) => Array.from(row, Number)), `${BOOKS.daily.name} 1: ${first.title}`, first.par);
setStatus('', 'Pick a level, paste a game link, or draw a board; then Solve.');
loadFragment();
