import type { Socket } from 'node:net';

/**
 * Counts what reaches `socket` from now on: one entry per write the kernel is asked for, with its
 * chunks. On this machine each write is a system call that wakes the peer, which is what the
 * coalescing on the hot paths saves.
 */
export function countSocketWrites(socket: Socket): number[] {
  const writes: number[] = [];
  const write = socket._write.bind(socket);
  socket._write = (chunk, encoding, callback) => {
    writes.push(1);
    write(chunk, encoding, callback);
  };
  // Only where the stream has one: a `_writev` that wrapped nothing would never call back, and
  // without one the stream writes each chunk through `_write`, counted above.
  const writev = socket._writev?.bind(socket);
  if (writev) {
    socket._writev = (chunks, callback) => {
      writes.push(chunks.length);
      writev(chunks, callback);
    };
  }
  return writes;
}
