// The game's share links, read and written in the page: unflip_frontend/links.py's reader in small, with
// its messages word for word (tests/frontend/test_web_page.py reads the same links with both). A link is
// `<page>?custom=s_W_H$m_2$v$<digits>` (the shape width first, a solution vector in the game's move order:
// the board is what it makes of an all-white one) or the tile form `s_W_H$m_2$t$1_2_…` (1 white, 2 black),
// the compact string alone too, percent-encoded or not, after a level's id and a '$' in a full identifier.
'use strict';

const UnflipLinks = (() => {
  const WHERE = 'game link';
  const GAME_PAGE = 'https://unflipgame.com/';
  // solver/contract.def's, put in the page by web/build_page.py: the sides the solver takes.
  const { min_side: MIN_SIZE, max_side: MAX_SIZE } = BOARD_LIMITS;

  class LinkError extends Error {}
  const fail = (message) => {
    throw new LinkError(`${WHERE}: ${message}`);
  };

  // Python's repr() of a string: single quotes unless it holds one and no double quote.
  function repr(text) {
    const quote = text.includes("'") && !text.includes('"') ? '"' : "'";
    let body = text.replace(/\\/g, '\\\\');
    if (quote === "'") body = body.replace(/'/g, "\\'");
    return quote + body + quote;
  }

  // Input as a message quotes it: printable, and short.
  function shown(text, limit = 60) {
    const chars = Array.from(text, (ch) => (ch !== ' ' && /[\p{C}\p{Z}]/u.test(ch) ? '\ufffd' : ch));
    return repr(chars.length <= limit ? chars.join('') : chars.slice(0, limit - 1).join('') + '…');
  }

  // Percent-decoding as Python's urllib.parse.unquote does it: bytes as UTF-8, a bad sequence as U+FFFD, a
  // '%' that starts no escape left as it is.
  function unquote(text) {
    return text.replace(/(?:%[0-9A-Fa-f]{2})+/g, (run) => {
      const bytes = run.slice(1).split('%').map((hex) => parseInt(hex, 16));
      return new TextDecoder('utf-8').decode(new Uint8Array(bytes));
    });
  }

  // The first custom= value of the query (parse_qs with blank values kept: '+' is a space).
  function customParameter(text) {
    const beforeFragment = text.split('#')[0];
    const at = beforeFragment.indexOf('?');
    const query = at < 0 ? '' : beforeFragment.slice(at + 1);
    for (const pair of query.split('&')) {
      if (!pair) continue;
      const equals = pair.indexOf('=');
      const name = equals < 0 ? pair : pair.slice(0, equals);
      if (unquote(name.replace(/\+/g, ' ')) === 'custom')
        return equals < 0 ? '' : unquote(pair.slice(equals + 1).replace(/\+/g, ' '));
    }
    return null;
  }

  function compactString(input) {
    const text = input.trim();
    if (!text) fail('it is empty');
    if (text.includes('custom=')) {
      const value = customParameter(text);
      if (value === null) fail(`${shown(text)} has no custom parameter in its query`);
      if (!value.trim()) fail(`${shown(text)}: the custom parameter, which holds the level, is empty`);
      return value.trim();
    }
    if (text.includes('://')) fail(`${shown(text)} has no custom=… parameter, which holds the level`);
    return unquote(text);
  }

  function readShape(geometry) {
    const match = /^s_([0-9]+)_([0-9]+)$/.exec(geometry);
    if (!match) fail(`the shape is ${shown(geometry)}; the game writes s_W_H (width first)`);
    const [width, height] = [BigInt(match[1]), BigInt(match[2])];
    const fits = (side) => side >= BigInt(MIN_SIZE) && side <= BigInt(MAX_SIZE);
    if (!fits(width) || !fits(height))
      fail(
        `the shape s_${width}_${height} is ${width} wide and ${height} high; ` +
          `each side must be ${MIN_SIZE} to ${MAX_SIZE} tiles`,
      );
    return [Number(width), Number(height)];
  }

  function readArithmetic(arithmetic) {
    const match = /^m_([0-9]+)$/.exec(arithmetic);
    if (!match) fail(`the arithmetic is ${shown(arithmetic)}; the game writes m_2`);
    if (arithmetic !== 'm_2')
      fail(`${arithmetic} is the game's ${BigInt(match[1])}-colour arithmetic; unflip solves the two-colour game (m_2) only`);
  }

  // A digit each, or '_'-separated (with or without a leading '_'); each value as its decimal text.
  function readValues(data) {
    if (!data) fail("nothing follows the last '$', where the level's values go");
    const pieces = data.includes('_') ? data.replace(/^_/, '').split('_') : Array.from(data);
    const bad = pieces.find((piece) => !/^[0-9]+$/.test(piece));
    if (bad !== undefined) fail(`${shown(bad)} in ${shown(data)} is not a number`);
    return pieces.map((piece) => BigInt(piece).toString());
  }

  // Every move of an H×W board in the game's order: the top-left column outermost, then the row, then the
  // size from 2 up (unflip_frontend/game_vectors.py).
  function gameMoves(height, width) {
    const moves = [];
    for (let col = 0; col < width; col++)
      for (let row = 0; row < height; row++)
        for (let size = MIN_SIZE; size <= Math.min(width - col, height - row); size++) moves.push([row, col, size]);
    return moves;
  }

  function flip(board, [row, col, size]) {
    for (let r = row; r < row + size; r++) for (let c = col; c < col + size; c++) board[r][c] ^= 1;
  }

  function boardOfVector(values, height, width) {
    const moves = gameMoves(height, width);
    if (values.length !== moves.length)
      fail(
        `the solution vector has ${values.length} entries, but a ${height}×${width} board has ` +
          `${moves.length} moves (one entry each)`,
      );
    const bad = values.findIndex((value) => value !== '0' && value !== '1');
    if (bad >= 0) fail(`the solution vector has ${values[bad]} at entry ${bad + 1}; every entry is 0 or 1`);
    const board = Array.from({ length: height }, () => new Array(width).fill(0));
    values.forEach((value, index) => value === '1' && flip(board, moves[index]));
    return board;
  }

  function boardOfTiles(values, height, width) {
    if (values.length !== width * height)
      fail(`${values.length} tiles, but a board ${width} wide and ${height} high has ${width * height}`);
    const bad = values.findIndex((value) => value !== '1' && value !== '2');
    if (bad >= 0)
      fail(
        `tile ${values[bad]} at row ${Math.floor(bad / width) + 1}, col ${(bad % width) + 1} ` +
          '(expected 1 = white or 2 = black)',
      );
    return Array.from({ length: height }, (_, r) => values.slice(r * width, (r + 1) * width).map((v) => Number(v) - 1));
  }

  // A game link or its compact string -> the board, rows of 0 (white) and 1; LinkError with the reason.
  function parseLink(text) {
    const compact = compactString(text);
    let parts = compact.split('$');
    if (parts.length === 5 && !parts[0].startsWith('s_')) parts = parts.slice(1);
    if (parts.length !== 4)
      fail(`${shown(compact)} is not a level: expected s_W_H$m_2$v$<digits> or s_W_H$m_2$t$<tiles>`);
    const [geometry, arithmetic, form, data] = parts;
    const [width, height] = readShape(geometry);
    readArithmetic(arithmetic);
    const values = readValues(data);
    if (form === 'v') return boardOfVector(values, height, width);
    if (form === 't') return boardOfTiles(values, height, width);
    return fail(`${repr(form)} is not a level's form; the game writes v (a vector) or t (tiles)`);
  }

  // The compact string of a board and a set of moves that clears it, [row, col, size] each.
  function compactVector(board, moves) {
    const [height, width] = [board.length, board[0].length];
    const chosen = new Set(moves.map((move) => move.join(' ')));
    const digits = gameMoves(height, width).map((move) => (chosen.has(move.join(' ')) ? '1' : '0'));
    return `s_${width}_${height}$m_2$v$${digits.join('')}`;
  }

  // The tile form, which any board has, solved or not.
  function compactTiles(board) {
    const tiles = board.flat().map((tile) => tile + 1);
    return `s_${board[0].length}_${board.length}$m_2$t$${tiles.join('_')}`;
  }

  // The link that opens the board in the game with the moves as its solution (the game shows their count
  // as par).
  const shareLink = (board, moves) => `${GAME_PAGE}?custom=${compactVector(board, moves)}`;

  return { LinkError, parseLink, compactTiles, compactVector, shareLink, gameMoves, flip, MIN_SIZE, MAX_SIZE };
})();

if (typeof module === 'object') module.exports = UnflipLinks;
