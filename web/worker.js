// The page's worker, after the core (createUnflipCore, web/unflip_core.js) and its wasm (CORE_WASM: deflated,
// as base64, web/build_page.py) in one Blob: the wasm is inflated with the browser's DecompressionStream and
// handed to the module as wasmBinary, so nothing is fetched; the module is made once and its main run once a
// request, as the command line would run ./unflip_solver on a board file.
// Requests are {id, args, board}; each progress line is posted as it is written ({id, progress}), and the
// run's end as {id, status, stdout, stderr}. A run that traps (its memory, say) ends as {id, crashed}: the
// page then starts a new worker, since this module's state is no longer to be trusted.
// Before the first request the worker solves a small board of its own, its output dropped: V8 compiles a
// module's functions at their first call and first runs them as baseline (Liftoff) code, so a fresh
// module's first real search was up to twice as slow; the warm-up (about 25 ms) pays that while the player
// picks a board (docs/web.md, Speed).
'use strict';

const output = { stdout: [], stderr: [], id: null };
async function inflated(base64) {
  const text = atob(base64);
  const deflated = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) deflated[i] = text.charCodeAt(i);
  const stream = new Blob([deflated]).stream().pipeThrough(new DecompressionStream('deflate'));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

// A 7x7 board of 14 moves and about 500 nodes: the smallest tried that gave most of the gain.
const WARM_UP_BOARD = '0110101\n0001010\n1000010\n0111011\n0100010\n0000011\n0010110\n';

function warmedUp(module) {
  module.FS.writeFile('/board.txt', WARM_UP_BOARD);
  module.callMain(['--threads', '1', '--quiet', '/board.txt']);
  return module;
}

const core = inflated(CORE_WASM).then((wasmBinary) =>
  createUnflipCore({
    wasmBinary,
    // The runtime stays up between runs; the core's exit ends the run, and callMain returns its status.
    noExitRuntime: true,
    quit: (status, toThrow) => {
      throw toThrow;
    },
    print: (line) => output.stdout.push(line),
    printErr: (line) => {
      output.stderr.push(line);
      if (line.startsWith('bound ')) postMessage({ id: output.id, progress: line });
    },
  }).then(warmedUp),
);

const lines = (list) => list.map((line) => line + '\n').join('');

onmessage = async (event) => {
  const { id, args, board } = event.data;
  try {
    // Inside the try: a wasm that would not inflate or compile is this run's failure, not a silent hang.
    const module = await core;
    // After the wait, so that the warm-up's output is not this run's.
    Object.assign(output, { stdout: [], stderr: [], id });
    module.FS.writeFile('/board.txt', board);
    const status = module.callMain([...args, '/board.txt']);
    postMessage({ id, status, stdout: lines(output.stdout), stderr: lines(output.stderr) });
  } catch (error) {
    postMessage({ id, crashed: String(error), stderr: lines(output.stderr) });
  }
};
