// The WebAssembly core as the page's worker runs it (web/worker.js), for bench/web.py: the module made once,
// its main called for each board in turn, so that V8 compiles each function once (lazily, at its first call)
// and not once a level. `node bench/web_module.js CORE.js BOARDS.json ARGS...` (BOARDS.json a list of board
// texts) prints one JSON list: for each board, main's exit status, its standard output and its wall-clock
// seconds. Before the boards it solves the worker's own warm-up board once, its output dropped, as the page's
// worker does when it starts (its WARM_UP_BOARD, read from web/worker.js), so that the figures are the page's.
'use strict';
const fs = require('fs');
const path = require('path');
const vm = require('vm');

const workerSource = fs.readFileSync(path.join(__dirname, '..', 'web', 'worker.js'), 'utf8');
const warmUpBoard = vm.runInNewContext(workerSource.match(/^const WARM_UP_BOARD = (.*);$/m)[1]);

const [coreFile, boardsFile, ...args] = process.argv.slice(2);
const boards = JSON.parse(fs.readFileSync(boardsFile, 'utf8'));
let stdout = [];
require(path.resolve(coreFile))({
  // The wasm beside the JS (`make web` writes both), handed over whole: emscripten 3.1.6's own loading of it
  // under node 20 goes through node's fetch, which cannot read a file.
  wasmBinary: fs.readFileSync(coreFile.replace(/\.js$/, '.wasm')),
  noExitRuntime: true,
  print: (line) => stdout.push(line),
  printErr: () => {},
  quit: (status, toThrow) => {
    throw toThrow;
  },
}).then((core) => {
  core.FS.writeFile('/board.txt', warmUpBoard);
  core.callMain(['--threads', '1', '--quiet', '/board.txt']);
  const runs = boards.map((board) => {
    stdout = [];
    core.FS.writeFile('/board.txt', board);
    const started = performance.now();
    const status = core.callMain([...args, '/board.txt']);
    return { status, stdout: stdout.join('\n'), seconds: (performance.now() - started) / 1000 };
  });
  // Ended here, not when the event loop empties: a threaded core's (-pthread) pool of workers keeps node
  // running after main has returned.
  process.stdout.write(JSON.stringify(runs), () => process.exit(0));
});
