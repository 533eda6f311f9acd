// The page's worker, after the core (createUnflipCore, web/unflip_core.js) in one Blob: the module is made
// once and its main run once a request, as the command line would run ./unflip_solver on a board file.
// Requests are {id, args, board}; each progress line is posted as it is written ({id, progress}), and the
// run's end as {id, status, stdout, stderr}. A run that traps (its memory, say) ends as {id, crashed}: the
// page then starts a new worker, since this module's state is no longer to be trusted.
'use strict';

const output = { stdout: [], stderr: [], id: null };
const core = createUnflipCore({
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
});

const lines = (list) => list.map((line) => line + '\n').join('');

onmessage = async (event) => {
  const { id, args, board } = event.data;
  const module = await core;
  Object.assign(output, { stdout: [], stderr: [], id });
  try {
    module.FS.writeFile('/board.txt', board);
    const status = module.callMain([...args, '/board.txt']);
    postMessage({ id, status, stdout: lines(output.stdout), stderr: lines(output.stderr) });
  } catch (error) {
    postMessage({ id, crashed: String(error), stderr: lines(output.stderr) });
  }
};
