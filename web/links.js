// The game's share links, read and written in the page: unflip_frontend/links.py's reader in small, with
// its messages word for word (tests/frontend/test_web_page.py reads the same links with both). A link is
// `<page>?custom=s_W_H$m_2$v$<digits>` (the shape width first, a solution vector in the game's move order:
// the board is what it makes of an all-white one) or the tile form `s_W_H$m_2$t$1_2_…` (1 white, 2 black),
// the compact string alone too, percent-encoded or not, after a level's id and a '$' in a full identifier.
// A three-colour level is `m_3`: its vector one digit 0–2 a move (a square pressed twice counts two), its
// tiles tile − 1 = (A·x) mod 3, 1 cream, 2 blue and 3 red.
'use strict';

const UnflipLinks = (() => {
  const WHERE = 'game link';
  const GAME_PAGE = 'https://unflipgame.com/';
  // solver/contract.def's, put in the page by web/build_page.py: the sides the solver takes; and the most
  // digits the front end reads in a number (unflip_frontend/errors.py's MAX_DIGITS).
  const { min_side: MIN_SIZE, max_side: MAX_SIZE, max_digits: MAX_DIGITS } = BOARD_LIMITS;
  // The link's arithmetic field of each scheme: its number of colours.
  const COLOURS = new Map([
    ['m_2', 2],
    ['m_3', 3],
  ]);

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

  // The query's custom= values (parse_qs with blank values kept: '+' is a space).
  function customParameters(text) {
    const beforeFragment = text.split('#')[0];
    const at = beforeFragment.indexOf('?');
    const query = at < 0 ? '' : beforeFragment.slice(at + 1);
    const values = [];
    for (const pair of query.split('&')) {
      if (!pair) continue;
      const equals = pair.indexOf('=');
      const name = equals < 0 ? pair : pair.slice(0, equals);
      if (unquote(name.replace(/\+/g, ' ')) === 'custom')
        values.push(equals < 0 ? '' : unquote(pair.slice(equals + 1).replace(/\+/g, ' ')));
    }
    return values;
  }

  function compactString(input) {
    const text = input.trim();
    if (!text) fail('it is empty');
    if (text.includes('custom=')) {
      const values = customParameters(text);
      if (!values.length) fail(`${shown(text)} has no custom parameter in its query`);
      if (values.length > 1) fail(`${shown(text)} has ${values.length} custom parameters; a link holds one level`);
      if (!values[0].trim()) fail(`${shown(text)}: the custom parameter, which holds the level, is empty`);
      return values[0].trim();
    }
    if (text.includes('://')) fail(`${shown(text)} has no custom=… parameter, which holds the level`);
    return unquote(text);
  }

  const number = (n) => n.toLocaleString('en');

  // A number of one of the link's fields as the game writes it: ASCII digits without a leading zero, so that
  // a level has one spelling. A BigInt: the messages quote it whole.
  function readNumber(digits, field) {
    const length = Array.from(digits).length;
    if (length > MAX_DIGITS)
      fail(
        `${shown(digits)} in ${shown(field)} is ${number(length)} characters long; ` +
          `no number in a level has more than ${MAX_DIGITS} digits`,
      );
    if (!/^[0-9]+$/.test(digits)) fail(`${shown(digits)} in ${shown(field)} is not a number`);
    const value = BigInt(digits);
    if (digits !== value.toString())
      fail(`${shown(digits)} in ${shown(field)} has a leading zero; the game writes numbers without`);
    return value;
  }

  function readShape(geometry) {
    const match = /^s_([^_]+)_([^_]+)$/.exec(geometry);
    if (!match) fail(`the shape is ${shown(geometry)}; the game writes s_W_H (width first)`);
    const [width, height] = [readNumber(match[1], geometry), readNumber(match[2], geometry)];
    const fits = (side) => side >= BigInt(MIN_SIZE) && side <= BigInt(MAX_SIZE);
    if (!fits(width) || !fits(height))
      fail(
        `the shape s_${width}_${height} is ${width} wide and ${height} high; ` +
          `each side must be ${MIN_SIZE} to ${MAX_SIZE} tiles`,
      );
    return [Number(width), Number(height)];
  }

  // The number of colours the link's arithmetic field names.
  function readArithmetic(arithmetic) {
    const match = /^m_([^_]+)$/.exec(arithmetic);
    if (!match) fail(`the arithmetic is ${shown(arithmetic)}; the game writes m_2`);
    const colours = readNumber(match[1], arithmetic);
    if (!COLOURS.has(arithmetic))
      fail(
        `${arithmetic} would be a ${colours}-colour arithmetic; ` +
          "unflip solves the game's two-colour (m_2) and three-colour (m_3) levels",
      );
    return COLOURS.get(arithmetic);
  }

  // A digit each, or '_'-separated (with or without a leading '_'), as BigInts.
  function readValues(data) {
    if (!data) fail("nothing follows the last '$', where the level's values go");
    const pieces = data.includes('_') ? data.replace(/^_/, '').split('_') : Array.from(data);
    return pieces.map((piece) => readNumber(piece, data));
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

  // A press of a square as the player makes it: each tile one colour on, mod the colours (white to black
  // and back; of three, the game's tile 1 → 3 → 2 → 1, that is 0 → 2 → 1 → 0 here).
  function flip(board, [row, col, size], colours = 2) {
    for (let r = row; r < row + size; r++)
      for (let c = col; c < col + size; c++) board[r][c] = (board[r][c] + colours - 1) % colours;
  }

  // The level a vector makes, as the game's editor makes it: the board its presses clear, each tile the
  // number of presses that cover it, mod the colours (the editor presses the other way from the player).
  function boardOfVector(values, height, width, colours) {
    const moves = gameMoves(height, width);
    const entries = colours === 2 ? '0 or 1' : '0, 1 or 2';
    if (values.length !== moves.length)
      fail(
        `the solution vector has ${values.length} entries, but a ${height}×${width} board has ` +
          `${moves.length} moves (one entry each)`,
      );
    const bad = values.findIndex((value) => value >= BigInt(colours));
    if (bad >= 0) fail(`the solution vector has ${values[bad]} at entry ${bad + 1}; every entry is ${entries}`);
    const board = Array.from({ length: height }, () => new Array(width).fill(0));
    values.forEach((times, index) => {
      const [row, col, size] = moves[index];
      for (let r = row; r < row + size; r++)
        for (let c = col; c < col + size; c++) board[r][c] = (board[r][c] + Number(times)) % colours;
    });
    return board;
  }

  function boardOfTiles(values, height, width, colours) {
    if (values.length !== width * height)
      fail(`${values.length} tiles, but a board ${width} wide and ${height} high has ${width * height}`);
    const bad = values.findIndex((value) => value < 1n || value > BigInt(colours));
    const expected = colours === 2 ? '1 = white or 2 = black' : '1 = cream, 2 = blue or 3 = red';
    if (bad >= 0)
      fail(`tile ${values[bad]} at row ${Math.floor(bad / width) + 1}, col ${(bad % width) + 1} (expected ${expected})`);
    return Array.from({ length: height }, (_, r) => values.slice(r * width, (r + 1) * width).map((v) => Number(v) - 1));
  }

  // A game link or its compact string -> {board, colours}: rows of 0 (white, or cream) to colours - 1, and
  // 2 or 3; LinkError with the reason.
  function readLink(text) {
    const compact = compactString(text);
    let parts = compact.split('$');
    if (parts.length === 5 && !parts[0].startsWith('s_')) parts = parts.slice(1);
    if (parts.length !== 4)
      fail(`${shown(compact)} is not a level: expected s_W_H$m_2$v$<digits> or s_W_H$m_2$t$<tiles>`);
    const [geometry, arithmetic, form, data] = parts;
    const [width, height] = readShape(geometry);
    const colours = readArithmetic(arithmetic);
    const values = readValues(data);
    if (form === 'v') return { board: boardOfVector(values, height, width, colours), colours };
    if (form === 't') return { board: boardOfTiles(values, height, width, colours), colours };
    return fail(`${repr(form)} is not a level's form; the game writes v (a vector) or t (tiles)`);
  }

  // A link's board alone, as links.py's parse_link(text).board.
  const parseLink = (text) => readLink(text).board;

  // The compact string of a board and the moves that clear it, [row, col, size] each (of three colours, a
  // square pressed twice listed twice): each move's digit is how many times it is made.
  function compactVector(board, moves, colours = 2) {
    const [height, width] = [board.length, board[0].length];
    const times = new Map();
    for (const move of moves) times.set(move.join(' '), (times.get(move.join(' ')) || 0) + 1);
    const digits = gameMoves(height, width).map((move) => times.get(move.join(' ')) || 0);
    return `s_${width}_${height}$m_${colours}$v$${digits.join('')}`;
  }

  // The tile form, which any board has, solved or not.
  function compactTiles(board, colours = 2) {
    const tiles = board.flat().map((tile) => tile + 1);
    return `s_${board[0].length}_${board.length}$m_${colours}$t$${tiles.join('_')}`;
  }

  // The link that opens the board in the game with the moves as its solution (the game shows their count
  // as par).
  const shareLink = (board, moves, colours = 2) => `${GAME_PAGE}?custom=${compactVector(board, moves, colours)}`;

  return { LinkError, readLink, parseLink, compactTiles, compactVector, shareLink, gameMoves, flip, MIN_SIZE, MAX_SIZE };
})();

if (typeof module === 'object') module.exports = UnflipLinks;
