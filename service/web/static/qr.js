// A QR code of a short text (the link another device opens), drawn as SVG: byte mode, error correction level M,
// versions 1 to 6 (up to 106 bytes: a link of this page with its code fits). It loads only when a person makes a
// link code (me.js imports it then). The mask is fixed (pattern 0): any mask is a valid code, as its format
// information names it; scanners read it as well, and choosing one by penalty would double this module.

import {s} from "./dom.js";

// Per version 1..6 at level M: data codewords per block, blocks, error correction codewords per block.
const VERSIONS = [[16, 1, 10], [28, 1, 16], [44, 1, 26], [32, 2, 18], [43, 2, 24], [27, 4, 16]];
const MASK = 0;
const QUIET = 4; // modules of light border a scanner needs

// GF(256) with the QR polynomial x^8 + x^4 + x^3 + x^2 + 1: exponentials and logarithms.
const EXP = new Uint8Array(512);
const LOG = new Uint8Array(256);
for (let i = 0, x = 1; i < 255; i += 1, x = (x << 1) ^ (x & 0x80 ? 0x11d : 0)) {
  EXP[i] = x;
  LOG[x] = i;
}
for (let i = 255; i < 512; i += 1) EXP[i] = EXP[i - 255];
const times = (a, b) => (a && b ? EXP[LOG[a] + LOG[b]] : 0);

/** The Reed-Solomon error correction codewords of `data`: `count` of them. */
function correction(data, count) {
  let generator = [1];
  for (let i = 0; i < count; i += 1) { // times (x - α^i)
    generator = [...generator, 0].map((c, j) => c ^ (j ? times(generator[j - 1], EXP[i]) : 0));
  }
  const rest = new Array(count).fill(0);
  for (const byte of data) {
    const factor = byte ^ rest.shift();
    rest.push(0);
    for (let j = 0; j < count; j += 1) rest[j] ^= times(generator[j + 1], factor);
  }
  return rest;
}

/** The codewords of `bytes` in version `version` (1-based): data with padding, then blocks interleaved. */
function codewords(bytes, version) {
  const [size, blocks, ecCount] = VERSIONS[version - 1];
  const bits = [0, 1, 0, 0, ...[...Array(8)].map((_, i) => (bytes.length >> (7 - i)) & 1)];
  for (const byte of bytes) for (let i = 7; i >= 0; i -= 1) bits.push((byte >> i) & 1);
  const capacity = size * blocks * 8;
  bits.push(...new Array(Math.min(4, capacity - bits.length)).fill(0));
  while (bits.length % 8) bits.push(0);
  const data = [];
  for (let i = 0; i < bits.length; i += 8) data.push(bits.slice(i, i + 8).reduce((byte, bit) => (byte << 1) | bit, 0));
  for (let pad = 0xec; data.length < size * blocks; pad ^= 0xec ^ 0x11) data.push(pad);
  const split = [...Array(blocks)].map((_, b) => data.slice(b * size, (b + 1) * size));
  const ecs = split.map((block) => correction(block, ecCount));
  const out = [];
  for (let i = 0; i < size; i += 1) for (const block of split) out.push(block[i]);
  for (let i = 0; i < ecCount; i += 1) for (const ec of ecs) out.push(ec[i]);
  return out;
}

/** The modules (`true`: dark), rows of columns, of `text`'s QR code. */
export function modules(text) {
  const bytes = [...new TextEncoder().encode(text)];
  const version = VERSIONS.findIndex(([size, blocks]) => size * blocks >= bytes.length + 2) + 1;
  if (!version) throw new Error(`too long for a QR code here: ${bytes.length} bytes`);
  const width = 17 + 4 * version;
  const dark = [...Array(width)].map(() => new Array(width).fill(false));
  const fixed = [...Array(width)].map(() => new Array(width).fill(false));
  const set = (x, y, on) => {
    dark[y][x] = on;
    fixed[y][x] = true;
  };
  for (const [cx, cy] of [[3, 3], [width - 4, 3], [3, width - 4]]) { // finders and their separators
    for (let dy = -4; dy <= 4; dy += 1) {
      for (let dx = -4; dx <= 4; dx += 1) {
        const ring = Math.max(Math.abs(dx), Math.abs(dy));
        const [x, y] = [cx + dx, cy + dy];
        if (x >= 0 && y >= 0 && x < width && y < width) set(x, y, ring !== 2 && ring !== 4);
      }
    }
  }
  for (let i = 8; i < width - 8; i += 1) { // timing patterns
    set(i, 6, i % 2 === 0);
    set(6, i, i % 2 === 0);
  }
  if (version > 1) { // the one alignment pattern of versions 2 to 6
    for (let dy = -2; dy <= 2; dy += 1) {
      for (let dx = -2; dx <= 2; dx += 1) set(width - 7 + dx, width - 7 + dy, Math.max(Math.abs(dx), Math.abs(dy)) !== 1);
    }
  }
  drawFormat(set, width);
  const data = codewords(bytes, version);
  let bit = 0;
  for (let right = width - 1; right >= 1; right -= 2) { // two columns at a time, upward then downward
    if (right === 6) right = 5; // the vertical timing pattern is skipped
    for (let step = 0; step < width; step += 1) {
      for (const x of [right, right - 1]) {
        const y = ((right + 1) & 2) === 0 ? width - 1 - step : step;
        if (fixed[y][x]) continue;
        const on = bit < data.length * 8 && ((data[bit >> 3] >> (7 - (bit & 7))) & 1) === 1;
        dark[y][x] = on !== ((x + y) % 2 === 0); // mask pattern 0
        bit += 1;
      }
    }
  }
  return dark;
}

/** The format information (level M, the mask) in its two copies, and the dark module beside them. */
function drawFormat(set, width) {
  const info = (0b00 << 3) | MASK; // level M is 00
  let rest = info;
  for (let i = 0; i < 10; i += 1) rest = (rest << 1) ^ ((rest >> 9) * 0x537);
  const bits = ((info << 10) | rest) ^ 0x5412;
  const on = (i) => ((bits >> i) & 1) === 1;
  for (let i = 0; i <= 5; i += 1) set(8, i, on(i));
  set(8, 7, on(6));
  set(8, 8, on(7));
  set(7, 8, on(8));
  for (let i = 9; i < 15; i += 1) set(14 - i, 8, on(i));
  for (let i = 0; i < 8; i += 1) set(width - 1 - i, 8, on(i));
  for (let i = 8; i < 15; i += 1) set(8, width - 15 + i, on(i));
  set(8, width - 8, true);
}

/** `text`'s QR code as an SVG image named `label`: dark modules on white, whatever the page's colours. */
export function qrSvg(text, label) {
  const dark = modules(text);
  const side = dark.length + 2 * QUIET;
  const path = dark.flatMap((row, y) => row.map((on, x) => (on ? `M${x + QUIET} ${y + QUIET}h1v1h-1z` : ""))).join("");
  return s("svg", {class: "qr", viewBox: `0 0 ${side} ${side}`, role: "img", "aria-label": label, "shape-rendering": "crispEdges"},
    s("rect", {width: side, height: side, fill: "#fff"}), s("path", {d: path, fill: "#000"}));
}
