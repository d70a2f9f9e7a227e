/**
 * A fixed set of ASCII names held as one sorted buffer, looked up by bisection. A `Set` of
 * ~120,000 strings is 120,000 heap objects that every full garbage collection marks; this is two
 * objects whose bytes live outside V8's heap (docs/performance.md, "Session 46").
 */
export class SortedNames {
  private readonly bytes: Buffer;
  /** Name i is bytes[starts[i], starts[i + 1]); one more entry than names. */
  private readonly starts: Uint32Array;

  /** ASCII names only (a domain in its xn-- form): their sort order is then their bytes' order. */
  constructor(names: Iterable<string>) {
    const sorted = [...new Set(names)].sort();
    const nonAscii = sorted.find((name) => Buffer.byteLength(name) !== name.length);
    if (nonAscii !== undefined) throw new Error(`SortedNames takes ASCII names only, not ${JSON.stringify(nonAscii)}`);
    this.starts = new Uint32Array(sorted.length + 1);
    this.bytes = Buffer.allocUnsafeSlow(sorted.reduce((length, name) => length + name.length, 0));
    let end = 0;
    sorted.forEach((name, index) => {
      this.starts[index] = end;
      end += this.bytes.write(name, end, 'latin1');
    });
    this.starts[sorted.length] = end;
  }

  get size(): number {
    return this.starts.length - 1;
  }

  has(name: string): boolean {
    const wanted = Buffer.from(name);
    let low = 0;
    let high = this.size - 1;
    while (low <= high) {
      const middle = (low + high) >>> 1;
      // Negative: the name at `middle` sorts before the wanted one.
      const order = this.bytes.compare(wanted, 0, wanted.length, this.starts[middle], this.starts[middle + 1]);
      if (order === 0) return true;
      if (order < 0) low = middle + 1;
      else high = middle - 1;
    }
    return false;
  }
}
