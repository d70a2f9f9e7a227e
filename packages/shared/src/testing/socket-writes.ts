import type { Socket } from 'node:net';

/**
 * Counts what reaches `socket` from now on: one entry per write the kernel is asked for, with its
 * chunks. On this machine each write is a system call that wakes the peer, which is what the
 * coalescing on the hot paths saves.
 */
export function countSocketWrites(socket: Socket): number[] {
  const writes: number[] = [];
  const write = socket._write.bind(socket);
  const writev = socket._writev?.bind(socket);
  socket._write = (chunk, encoding, callback) => {
    writes.push(1);
    write(chunk, encoding, callback);
  };
  socket._writev = (chunks, callback) => {
    writes.push(chunks.length);
    writev?.(chunks, callback);
  };
  return writes;
}
