import { Socket } from 'node:net';
import type { ChannelModel } from 'amqplib';

/** The part of amqplib's connection this relies on: its socket, and the pass that writes the channels' frames to it. */
interface MuxedConnection {
  stream: unknown;
  muxer: { _readIncoming: () => void };
}

function muxedConnection(model: ChannelModel): MuxedConnection | undefined {
  const connection: unknown = (model as unknown as { connection?: unknown }).connection;
  if (typeof connection !== 'object' || connection === null) return undefined;
  const { stream, muxer } = connection as Partial<MuxedConnection>;
  if (!(stream instanceof Socket) || typeof muxer?._readIncoming !== 'function') return undefined;
  return connection as MuxedConnection;
}

/**
 * Makes each of amqplib's write passes one socket write. amqplib gathers the frames every channel
 * queued since the last pass (publishes, acks) and writes them one `write()` each, which on a
 * socket with room is one system call each: under load a tenth of a service's CPU, most of it the
 * kernel waking the broker per frame. Corking the socket around the pass sends them as one
 * `writev`. Frames, their order and their flow control are amqplib's as before.
 *
 * This reaches into amqplib's connection (`connection.stream`, `connection.muxer._readIncoming`);
 * when a release changes that shape, nothing is patched and writes go out one by one as before.
 * Returns whether the writes are coalesced (a test pins it, so an upgrade that loses it is seen).
 */
export function coalesceFrameWrites(model: ChannelModel): boolean {
  const connection = muxedConnection(model);
  if (!connection) return false;
  const socket = connection.stream as Socket;
  const muxer = connection.muxer;
  const writePass = muxer._readIncoming.bind(muxer);
  muxer._readIncoming = () => {
    socket.cork();
    try {
      writePass();
    } finally {
      socket.uncork();
    }
  };
  return true;
}
