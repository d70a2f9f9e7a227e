/** Names as byte ranges of one buffer: name i is source[starts[i], ends[i]). */
export interface NameRanges {
  source: Buffer;
  starts: Uint32Array;
  ends: Uint32Array;
}

/** Byte order of two ranges of one buffer, in JavaScript: a call into Buffer#compare costs more than the bytes. */
function compareBytes(source: Buffer, aStart: number, aEnd: number, bStart: number, bEnd: number): number {
  const shorter = Math.min(aEnd - aStart, bEnd - bStart);
  for (let offset = 0; offset < shorter; offset++) {
    const difference = source[aStart + offset]! - source[bStart + offset]!;
    if (difference !== 0) return difference;
  }
  return aEnd - aStart - (bEnd - bStart);
}

/**
 * A fixed set of ASCII names held as one sorted buffer, looked up by bisection. A `Set` of
 * ~120,000 strings is 120,000 heap objects that every full garbage collection marks; this is two
 * objects whose bytes live outside V8's heap (docs/adr/0037-email-address-rule-and-domain-verdict.md).
 */
export class SortedNames {
  private constructor(
    private readonly bytes: Buffer,
    /** Name i is bytes[starts[i], starts[i + 1]); one more entry than names. */
    private readonly starts: Uint32Array,
  ) {}

  /**
   * Names already in bytes (ASCII), sorted and deduplicated here without one string per name:
   * a list read from a file never becomes 120,000 short-lived heap strings.
   */
  static fromRanges({ source, starts, ends }: NameRanges): SortedNames {
    // Typed arrays and byte loops only: no heap object per name, not even a short-lived one.
    const compare = (a: number, b: number) => compareBytes(source, starts[a]!, ends[a]!, starts[b]!, ends[b]!);
    const order = new Uint32Array(starts.length).map((_, index) => index);
    if (order.some((name, index) => index > 0 && compare(order[index - 1]!, name) > 0)) order.sort(compare);
    let kept = 0;
    let length = 0;
    for (let index = 0; index < order.length; index++) {
      const name = order[index]!;
      if (kept > 0 && compare(order[kept - 1]!, name) === 0) continue;
      order[kept++] = name;
      length += ends[name]! - starts[name]!;
    }

    const bytes = Buffer.allocUnsafeSlow(length);
    const packedStarts = new Uint32Array(kept + 1);
    let end = 0;
    for (let index = 0; index < kept; index++) {
      const name = order[index]!;
      packedStarts[index] = end;
      for (let at = starts[name]!; at < ends[name]!; at++) bytes[end++] = source[at]!;
    }
    packedStarts[kept] = end;
    return new SortedNames(bytes, packedStarts);
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
