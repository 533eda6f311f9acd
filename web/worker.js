// The page's worker, after the core (createUnflipCore, web/unflip_core.js) and its wasm (CORE_WASM: deflated,
// as base64, web/build_page.py) in one Blob: the wasm is inflated with the browser's DecompressionStream and
// handed to the module as wasmBinary, so nothing is fetched; the module is made once and its main run once a
// request, as the command line would run ./unflip_solver on a board file.
// Requests are {id, args, board}; each progress line is posted as it is written ({id, progress}), and the
// run's end as {id, status, stdout, stderr}. A run that traps (its memory, say) ends as {id, crashed}: the
// page then starts a new worker, since this module's state is no longer to be trusted.
'use strict';

const output = { stdout: [], stderr: [], id: null };
async function inflated(base64) {
  const text = atob(base64);
  const deflated = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) deflated[i] = text.charCodeAt(i);
  const stream = new Blob([deflated]).stream().pipeThrough(new DecompressionStream('deflate'));
  return new Uint8Array(await new Response(stream).arrayBuffer());
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
  }),
);

const lines = (list) => list.map((line) => line + '\n').join('');

onmessage = async (event) => {
  const { id, args, board } = event.data;
  Object.assign(output, { stdout: [], stderr: [], id });
  try {
    // Inside the try: a wasm that would not inflate or compile is this run's failure, not a silent hang.
    const module = await core;
    module.FS.writeFile('/board.txt', board);
    const status = module.callMain([...args, '/board.txt']);
    postMessage({ id, status, stdout: lines(output.stdout), stderr: lines(output.stderr) });
  } catch (error) {
    postMessage({ id, crashed: String(error), stderr: lines(output.stderr) });
  }
};
