// The WebAssembly core as a command, for the tests and bench/web.py: `node web/core_node.js CORE.js ARGS...`
// runs CORE.js (what `make web` compiles) as ./unflip_solver runs: the board on standard input, the
// protocol's lines on standard output, progress and errors on standard error, and its exit status.
'use strict';
const fs = require('fs');
const path = require('path');

const [coreFile, ...args] = process.argv.slice(2);
const input = fs.readFileSync(0);
let read = 0;
require(path.resolve(coreFile))({
  // The wasm beside the JS (`make web` writes both), handed over whole: emscripten 3.1.6's own loading of it
  // under node 20 goes through node's fetch, which cannot read a file.
  wasmBinary: fs.readFileSync(coreFile.replace(/\.js$/, '.wasm')),
  stdin: () => (read < input.length ? input[read++] : null),
  print: (line) => process.stdout.write(line + '\n'),
  printErr: (line) => process.stderr.write(line + '\n'),
  // The core's exit ends its run, not node: callMain then returns the status.
  quit: (status, toThrow) => {
    throw toThrow;
  },
}).then((core) => {
  try {
    process.exitCode = core.callMain(args);
  } catch (error) {
    // A trap (memory the module cannot grow to, say) is the protocol's failure: one line, exit 4.
    process.stderr.write(`error: the WebAssembly core stopped: ${error.message || error}\n`);
    process.exitCode = 4;
  }
});
