#!/usr/bin/env node
// A Hearts bot in JavaScript that takes a seat through the seat protocol (docs/seat-protocol.md):
// one JSON object per line on stdin, one reply per line on stdout. It plays the lowest legal card,
// except that it dumps its highest legal card when it cannot follow suit, and passes its highest cards.
//   hearts-env arena 'seat:node examples/seat_bot.js' heuristic --deals 8
"use strict";
const readline = require("readline");

const PROTOCOL = 1;
let deck = [];            // card names in id order, from reset
let ranksPerSuit = 13;

function suitOf(card) { return Math.floor(card / ranksPerSuit); }

function choose(view) {
  const legal = view.legal.slice().sort((a, b) => a - b);
  if (view.phase === "PASS") return legal[legal.length - 1];          // pass the highest card
  if (view.trick.length > 0 && suitOf(legal[0]) !== suitOf(view.trick[0])) {
    return legal[legal.length - 1];                                    // void in the suit led: dump the highest
  }
  return legal[0];                                                     // else the lowest legal card
}

function reply(message) { process.stdout.write(JSON.stringify(message) + "\n"); }

const lines = readline.createInterface({ input: process.stdin, terminal: false });
lines.on("line", (line) => {
  const request = JSON.parse(line);
  switch (request.type) {
    case "hello":
      reply({ type: "hello", protocol: PROTOCOL, agent: { name: "seat_bot.js", weights: null } });
      break;
    case "reset":
      deck = request.deck;
      ranksPerSuit = deck.length / 4;
      reply({ type: "ready" });
      break;
    case "act":
      reply({ type: "card", card: choose(request.view) });
      break;
    case "end_deal":
      reply({ type: "ready" });
      break;
    case "goodbye":
      process.exit(0);
      break;
    default:
      reply({ type: "error", message: `unknown request ${request.type}` });
  }
});
