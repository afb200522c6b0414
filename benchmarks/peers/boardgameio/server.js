// The peer of benchmarks/companion_load.py: boardgame.io's own server (Koa lobby API plus its
// socket.io transport, in-memory storage) with a trivial two-player game, "bench": each turn
// the player to move makes one move ("act", a number) and the turn passes to the other player.
// Usage: node server.js PORT   (prints "listening PORT" once it serves)
const { Server } = require('boardgame.io/server');

const Bench = {
  name: 'bench',
  minPlayers: 2,
  maxPlayers: 2,
  setup: () => ({ total: 0, moves: 0 }),
  turn: { minMoves: 1, maxMoves: 1 },
  moves: {
    act: ({ G }, n) => {
      G.total += n;
      G.moves += 1;
    },
  },
};

const port = Number.parseInt(process.argv[2] || '8000', 10);
const server = Server({ games: [Bench], origins: ['*'] });
server.run({ port, callback: () => console.log(`listening ${port}`) });
