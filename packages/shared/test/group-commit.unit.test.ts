import { setImmediate as nextTurn } from 'node:timers/promises';
import { GroupCommit } from '@mailer/shared';

const deferred = () => {
  let release!: () => void;
  const done = new Promise<void>((resolve) => (release = resolve));
  return { done, release };
};

describe('GroupCommit', () => {
  it('writes a lone item at once', async () => {
    const writes: number[][] = [];
    const commit = new GroupCommit<number>(async (items) => void writes.push(items));
    await commit.add(1);
    expect(writes).toEqual([[1]]);
  });

  it('puts the items added in one turn into one write', async () => {
    const writes: number[][] = [];
    const commit = new GroupCommit<number>(async (items) => void writes.push(items));
    await Promise.all([commit.add(1), commit.add(2), commit.add(3)]);
    expect(writes).toEqual([[1, 2, 3]]);
  });

  it('puts the items that arrive during a write into the next one', async () => {
    const writes: number[][] = [];
    const first = deferred();
    const commit = new GroupCommit<number>(async (items) => {
      writes.push(items);
      if (writes.length === 1) await first.done;
    });
    const added = [commit.add(1)];
    await nextTurn();
    added.push(commit.add(2), commit.add(3), commit.add(4));
    first.release();
    await Promise.all(added);
    expect(writes).toEqual([[1], [2, 3, 4]]);
  });

  it("lets a write's callers answer before the next write leaves", async () => {
    const events: string[] = [];
    const first = deferred();
    const commit = new GroupCommit<number>(async (items) => {
      events.push(`write ${items.join(',')}`);
      if (items.includes(1)) await first.done;
    });
    const answered = commit.add(1).then(async () => {
      // An answer takes a few steps of its own (its handler's awaits) before it is sent.
      for (let step = 0; step < 5; step++) await Promise.resolve();
      events.push('answered 1');
    });
    await nextTurn();
    const second = commit.add(2);
    first.release();
    await Promise.all([answered, second]);
    expect(events).toEqual(['write 1', 'answered 1', 'write 2']);
  });

  it("answers each caller with its own item's result", async () => {
    const first = deferred();
    let calls = 0;
    const commit = new GroupCommit<number, string>(async (items) => {
      if (++calls === 1) await first.done;
      return items.map((item) => `written ${item}`);
    });
    const added = [commit.add(1), commit.add(2), commit.add(3)];
    first.release();
    expect(await Promise.all(added)).toEqual(['written 1', 'written 2', 'written 3']);
  });

  it('keeps each write within the item limit', async () => {
    const writes: number[][] = [];
    const first = deferred();
    const commit = new GroupCommit<number>(async (items) => {
      writes.push(items);
      if (writes.length === 1) await first.done;
    }, 2);
    const added = [1, 2, 3, 4, 5].map((item) => commit.add(item));
    first.release();
    await Promise.all(added);
    expect(writes).toEqual([[1, 2], [3, 4], [5]]);
  });

  it('fails every item of a failed write and goes on with the next', async () => {
    const first = deferred();
    let calls = 0;
    const commit = new GroupCommit<string>(async (items) => {
      calls += 1;
      if (calls === 1) await first.done;
      if (items.includes('bad')) throw new Error('write failed');
    });
    const lone = commit.add('ok-1');
    await nextTurn();
    const failing = [commit.add('bad'), commit.add('ok-2')];
    first.release();
    await expect(lone).resolves.toBeUndefined();
    await expect(failing[0]).rejects.toThrow('write failed');
    await expect(failing[1]).rejects.toThrow('write failed');
    await expect(commit.add('ok-3')).resolves.toBeUndefined();
  });
});
