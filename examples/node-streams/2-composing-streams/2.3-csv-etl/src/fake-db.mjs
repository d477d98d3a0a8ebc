// An in-memory stand-in for a database client, slow enough to make batching and backpressure visible.
import { setTimeout as sleep } from 'node:timers/promises';

export function createFakeDb({ latencyMs = 1 } = {}) {
  const db = {
    batches: [],
    inFlight: 0,
    maxInFlight: 0,
    async insertMany(rows) {
      db.inFlight += 1;
      db.maxInFlight = Math.max(db.maxInFlight, db.inFlight);
      await sleep(latencyMs); // one network round-trip per call, whatever the batch size
      db.batches.push(rows);
      db.inFlight -= 1;
    },
    get rows() {
      return db.batches.flat();
    },
  };
  return db;
}
