#!/usr/bin/env node
// A complete Black Maria engine in plain JavaScript (no npm packages) that
// speaks the ruleproof contract on stdio: one JSON-RPC 2.0 request per line
// on stdin, one response per line on stdout, logs on stderr only.
//
//   ruleproof certify --engine-cmd "node examples/node/black-maria.js" --game black-maria
//
// The rules: docs/rules/black-maria.md; the wire format: docs/protocol.md.
"use strict";
const readline = require("readline");

// ---------------------------------------------------------------- errors
// The four kinds of the contract, with their JSON-RPC codes.
const CODES = { illegal_move: -32001, bad_request: -32602, unsupported: -32002, internal: -32603 };
class EngineError extends Error {
  constructor(kind, message, clause) { super(message); this.kind = kind; this.clause = clause; }
}
const illegal = (clause, message) => new EngineError("illegal_move", `${clause}: ${message}`, clause);
const badRequest = (message) => new EngineError("bad_request", message);

// ---------------------------------------------------------------- cards
const RANKS = "23456789TJQKA";
const DECK = [..."CDHS"].flatMap((s) => [...RANKS].map((r) => r + s)); // clubs 2..A, then D, H, S
const ORDER = new Map(DECK.map((c, i) => [c, i]));
const suit = (card) => card[1];
const rankIndex = (card) => RANKS.indexOf(card[0]);
const sorted = (cards) => [...cards].sort((a, b) => ORDER.get(a) - ORDER.get(b));
const isCard = (x) => typeof x === "string" && ORDER.has(x);

// ---------------------------------------------------------------- the game
const SCHEMES = ["standard", "spades", "spot"];
const PHASE_CLAUSE = { deal: "BM-DEAL-1", pass: "BM-PASS-1", play: "BM-FOLLOW-1" };

function newGame(players, dealer, options) {
  const scoring = options.scoring ?? "standard";
  const empty = () => Array.from({ length: players }, () => []);
  return {
    players, dealer, scoring, target: options.target ?? (scoring === "spot" ? 500 : 100),
    phase: "deal", toAct: null, round: 0,
    deck: players === 3 ? DECK.filter((c) => c !== "2C") : [...DECK],
    removed: players === 3 ? ["2C"] : [],
    hands: empty(), passing: empty(), won: empty(), trick: [], trickSeats: [], leader: null,
    scores: Array(players).fill(0), winners: null,
  };
}

function legalMoves(g) {
  if (g.toAct === null) return []; // deal (the kit's move) and over
  const hand = g.hands[g.toAct];
  if (g.phase === "pass") {
    const moves = [];
    for (let i = 0; i < hand.length; i++)
      for (let j = i + 1; j < hand.length; j++)
        for (let k = j + 1; k < hand.length; k++) moves.push({ type: "pass", cards: [hand[i], hand[j], hand[k]] });
    return moves;
  }
  return playable(hand, g.trick).map((card) => ({ type: "play", card }));
}

// Follow the led suit if you can; otherwise (or when leading) play anything.
function playable(hand, trick) {
  if (trick.length === 0) return hand;
  const follow = hand.filter((c) => suit(c) === suit(trick[0]));
  return follow.length ? follow : hand;
}

function apply(g, move) {
  if (move === null || typeof move !== "object" || Array.isArray(move)) throw badRequest("move: must be an object");
  if (typeof move.type !== "string") throw badRequest("move.type: missing or not a string");
  if (g.phase === "over") throw illegal("BM-END-1", `the game is over: no ${move.type} move is allowed`);
  const clause = PHASE_CLAUSE[g.phase];
  if (!["deal", "pass", "play"].includes(move.type)) throw illegal(clause, `unknown move type ${JSON.stringify(move.type)}`);
  if (move.type === "deal") {
    if (!Array.isArray(move.hands) || !move.hands.every((h) => Array.isArray(h) && h.every((c) => typeof c === "string")))
      throw badRequest("move.hands: must be a list of lists of card strings");
  } else if (move.type === "pass") {
    if (!Array.isArray(move.cards) || !move.cards.every((c) => typeof c === "string")) throw badRequest("move.cards: must be a list of strings");
  } else if (typeof move.card !== "string") throw badRequest("move.card: missing or not a string");
  if (move.type !== g.phase) throw illegal(clause, `a ${move.type} move is not allowed in phase ${g.phase}`);
  return { deal, pass: passCards, play }[move.type](g, move);
}

function deal(g, { hands }) {
  const n = g.players, pack = new Set(n === 3 ? DECK.filter((c) => c !== "2C") : DECK), seen = new Set();
  if (hands.length !== n) throw illegal("BM-DEAL-1", `${hands.length} hands for ${n} players`);
  hands.forEach((hand, seat) => {
    if (hand.length !== pack.size / n) throw illegal("BM-DEAL-1", `hands[${seat}] has ${hand.length} cards, not ${pack.size / n}`);
    for (const c of hand) {
      if (!pack.has(c)) throw illegal("BM-DEAL-1", `${JSON.stringify(c)} is not a card of the ${n}-player pack`);
      if (seen.has(c)) throw illegal("BM-DEAL-1", `${c} is dealt twice`);
      seen.add(c);
    }
  });
  const empty = () => Array.from({ length: n }, () => []);
  Object.assign(g, {
    phase: "pass", toAct: (g.dealer + 1) % n, round: g.round + 1, deck: [], hands: hands.map(sorted),
    passing: empty(), won: empty(), trick: [], trickSeats: [], leader: null,
  });
  return g;
}

// Seats pass three cards in turn from the dealer's left; they reach the seat on
// the right all at once, when the dealer (the last) has passed.
function passCards(g, { cards }) {
  const seat = g.toAct, n = g.players, hand = g.hands[seat];
  if (cards.length !== 3) throw illegal("BM-PASS-1", `pass exactly 3 cards, not ${cards.length}`);
  for (const c of cards) if (!isCard(c)) throw illegal("BM-PASS-1", `${JSON.stringify(c)} names no card`);
  if (new Set(cards).size !== 3) throw illegal("BM-PASS-1", "a card is passed twice");
  for (const c of cards) if (!hand.includes(c)) throw illegal("BM-PASS-1", `${c} is not in hand/${seat}`);
  g.hands[seat] = hand.filter((c) => !cards.includes(c));
  g.passing[seat] = sorted(cards);
  if (seat !== g.dealer) { g.toAct = (seat + 1) % n; return g; }
  g.passing.forEach((passed, from) => { const to = (from - 1 + n) % n; g.hands[to] = sorted(g.hands[to].concat(passed)); });
  g.passing = Array.from({ length: n }, () => []);
  g.phase = "play";
  g.toAct = g.leader = (g.dealer + 1) % n;
  return g;
}

function play(g, { card }) {
  const seat = g.toAct, n = g.players, hand = g.hands[seat];
  if (!isCard(card)) throw illegal("BM-FOLLOW-1", `${JSON.stringify(card)} names no card`);
  if (!hand.includes(card)) throw illegal("BM-FOLLOW-1", `${card} is not in hand/${seat}`);
  if (!playable(hand, g.trick).includes(card)) throw illegal("BM-FOLLOW-1", `${card} revokes: ${suit(g.trick[0])} was led`);
  g.hands[seat] = hand.filter((c) => c !== card);
  g.trick.push(card);
  g.trickSeats.push(seat);
  if (g.trick.length < n) { g.toAct = (seat + 1) % n; return g; }
  // the highest card of the led suit takes the trick, and its winner leads next
  const led = suit(g.trick[0]);
  let best = 0;
  g.trick.forEach((c, i) => { if (suit(c) === led && rankIndex(c) > rankIndex(g.trick[best])) best = i; });
  const winner = g.trickSeats[best];
  g.won[winner].push(...g.trick);
  Object.assign(g, { trick: [], trickSeats: [], toAct: winner, leader: winner });
  if (g.hands.some((h) => h.length)) return g;
  return endRound(g);
}

function points(card, scoring) {
  if (suit(card) === "H") {
    if (scoring !== "spot") return 1;
    const r = card[0];
    return r === "A" ? 15 : "TJQK".includes(r) ? 10 : Number(r);
  }
  if (card === "QS") return scoring === "spot" ? 25 : 13;
  if (scoring === "spades") return { KS: 10, AS: 7 }[card] ?? 0;
  return 0;
}

function endRound(g) {
  g.scores = g.scores.map((s, seat) => s + g.won[seat].reduce((sum, c) => sum + points(c, g.scoring), 0));
  Object.assign(g, { toAct: null, leader: null });
  if (g.scores.some((s) => s >= g.target)) {
    const low = Math.min(...g.scores);
    g.phase = "over";
    g.winners = g.scores.flatMap((s, seat) => (s === low ? [seat] : []));
  } else {
    g.phase = "deal";
    g.dealer = (g.dealer + 1) % g.players;
  }
  return g;
}

function toJson(g) {
  const zones = {};
  if (g.deck.length) zones.deck = g.deck;
  if (g.removed.length) zones.removed = g.removed;
  for (let s = 0; s < g.players; s++) {
    zones[`hand/${s}`] = g.hands[s];
    zones[`passing/${s}`] = g.passing[s];
    zones[`won/${s}`] = g.won[s];
  }
  zones.trick = g.trick;
  return {
    game: "black-maria", players: g.players, options: { scoring: g.scoring, target: g.target },
    dealer: g.dealer, phase: g.phase, to_act: g.toAct, round: g.round, zones, scores: g.scores,
    result: g.winners && { winners: g.winners }, trick_seats: g.trickSeats, leader: g.leader,
  };
}

// ---------------------------------------------------------------- the contract
const OTHER_GAMES = ["idiot", "fool", "moon"];
let game = null;
let leaving = false; // set by bye: answer, then exit

function checkSetup({ game: name, players, dealer, options = {} }) {
  if (OTHER_GAMES.includes(name)) throw new EngineError("unsupported", `${name} is not implemented here`);
  if (name !== "black-maria") throw badRequest(`game: ${JSON.stringify(name)} is not a game of the contract`);
  if (players !== 3 && players !== 4) throw badRequest("players: must be 3 or 4");
  if (!Number.isInteger(dealer) || dealer < 0 || dealer >= players) throw badRequest("dealer: not a seat");
  if (options === null || typeof options !== "object" || Array.isArray(options)) throw badRequest("options: must be an object");
  for (const [k, v] of Object.entries(options)) {
    if (k === "scoring" && SCHEMES.includes(v)) continue;
    if (k === "target" && Number.isInteger(v) && v >= 1 && v <= 1000) continue;
    throw badRequest(`options.${k}: ${JSON.stringify(v)} is not supported`);
  }
}

const METHODS = {
  hello: () => ({
    protocol: 1,
    engine: { name: "node-black-maria", version: "1.0.0" },
    games: { "black-maria": { players: [3, 4], options: { scoring: SCHEMES, target: { min: 1, max: 1000 } } } },
  }),
  new_game: (p) => { checkSetup(p); game = newGame(p.players, p.dealer, p.options ?? {}); return { state: toJson(game) }; },
  legal_moves: () => ({ moves: legalMoves(current()) }),
  apply: (p) => {
    // work on a copy, so that a rejected move leaves the game exactly as it was
    const copy = structuredClone(current());
    game = apply(copy, p.move);
    return { state: toJson(game) };
  },
  state: () => ({ state: toJson(current()) }),
  bye: () => { leaving = true; return {}; },
};

function current() {
  if (game === null) throw badRequest("no game: call new_game first");
  return game;
}

function handle(line) {
  let req;
  try { req = JSON.parse(line); } catch (e) {
    return { id: null, error: { code: -32700, message: `parse error: ${e.message}`, data: { kind: "bad_request" } } };
  }
  if (req === null || typeof req !== "object" || req.jsonrpc !== "2.0" || typeof req.method !== "string")
    return { id: null, error: { code: -32600, message: "invalid request", data: { kind: "bad_request" } } };
  const method = METHODS[req.method];
  if (!method) return { id: req.id, error: { code: -32601, message: `unknown method ${req.method}`, data: { kind: "unsupported" } } };
  try {
    const params = req.params ?? {};
    if (typeof params !== "object" || Array.isArray(params)) throw badRequest("params: must be an object");
    return { id: req.id, result: method(params) };
  } catch (err) {
    const kind = err instanceof EngineError ? err.kind : "internal";
    if (kind === "internal") console.error(err.stack); // stderr is our log
    const data = err.clause ? { kind, clause: err.clause } : { kind };
    return { id: req.id, error: { code: CODES[kind], message: err.message, data } };
  }
}

const rl = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
rl.on("line", (line) => {
  // one request per line in, one response per line out; at EOF node simply exits
  if (leaving) return; // lines already buffered after bye
  process.stdout.write(JSON.stringify({ jsonrpc: "2.0", ...handle(line) }) + "\n");
  if (leaving) { rl.close(); process.stdout.write("", () => process.exit(0)); }
});
