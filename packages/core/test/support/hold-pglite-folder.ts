// A second process for the PGlite folder lock's tests: opens the folder given as its argument
// with openDatabase, prints "held <pid>", then on a line of standard input closes it ("close":
// prints "closed") or leaves without closing ("exit": the exit hook releases; "crash": killed by
// itself with SIGKILL, so nothing runs and the lock stays behind, naming a dead pid).
import { createInterface } from 'node:readline';
import { openDatabase } from '@panel/core';

const database = await openDatabase({ dataDir: process.argv[2]! });
console.log(`held ${process.pid}`);
for await (const line of createInterface({ input: process.stdin })) {
  if (line === 'close') {
    await database.close();
    console.log('closed');
    process.exit(0);
  }
  if (line === 'exit') process.exit(0);
  if (line === 'crash') process.kill(process.pid, 'SIGKILL');
}
