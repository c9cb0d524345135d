/**
 * The lane batch members run in: one member per turn of the event loop, for every batch of every
 * handler in the process together. A batch is many calls on one request; if each batch yielded on
 * its own, four batches in flight would run four members between two turns of the loop, and any
 * other request would wait for all four at every step of its own handling (issue 17: a victim's
 * median went from 3.3 ms to 3.3 s). In one lane, other requests wait for at most one member.
 */

/** Schedules a callback after the current turn of the event loop, once I/O has been polled. */
const nextTurn: (callback: () => void) => void =
  typeof setImmediate === 'function'
    ? (callback) => {
        setImmediate(callback);
      }
    : (callback) => {
        setTimeout(callback, 0);
      };

/** Members waiting for their turn, first come first served. */
const waiting: Array<() => void> = [];
let scheduled = false;

function releaseOne(): void {
  scheduled = false;
  const next = waiting.shift();
  // The next release is for the next turn: whatever this member queues (I/O, other requests) goes first.
  if (waiting.length > 0) schedule();
  next?.();
}

function schedule(): void {
  if (scheduled) return;
  scheduled = true;
  nextTurn(releaseOne);
}

/** Resolves when it is this batch member's turn: at most one member is released per turn of the loop. */
export function batchTurn(): Promise<void> {
  return new Promise((resolve) => {
    waiting.push(resolve);
    schedule();
  });
}
