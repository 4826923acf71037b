// A random engine in JavaScript (node), speaking only the Typhoon engine protocol (docs/PROTOCOL.md):
// it asks for the legal actions and answers one at random (again if refused); it ignores the
// history lines (played, die, event, gameover).   node random_engine.js
const readline = require("readline");
const rl = readline.createInterface({ input: process.stdin });
let legal = [];
let expecting = 0;
rl.on("line", (line) => {
  const i = line.indexOf(" ");
  const word = i < 0 ? line : line.slice(0, i);
  const rest = i < 0 ? "" : line.slice(i + 1);
  if (word === "typhoon") console.log("ready random-js");
  else if (word === "go") console.log("legal");
  else if (word === "legal") { legal = []; expecting = parseInt(rest, 10); }
  else if (word === "action") {
    legal.push(rest);
    if (legal.length === expecting) console.log("move " + legal[Math.floor(Math.random() * legal.length)]);
  } else if (word === "refused" && legal.length > 0) {
    console.log("move " + legal[Math.floor(Math.random() * legal.length)]);
  } else if (word === "quit") process.exit(0);
});
