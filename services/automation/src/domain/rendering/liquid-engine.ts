import { Drop, ForTag, Liquid, TablerowTag, Tag, toValue, type Context, type Emitter, type TagToken, type TopLevelToken } from 'liquidjs';

/** A detail the template asked for that the contact and event lack, but the workflow has a fallback for. */
export class MissingValue extends Drop {
  constructor(readonly fallback: string) {
    super();
  }

  // Liquid reads a missing detail as nil, so `default:` and `if` see it missing; only a bare output
  // (no `default:`) falls back to the workflow's text, in the output escape below.
  override valueOf(): undefined {
    return undefined;
  }
}

export const RENDER_LIMITS = {
  /** Longest a template may render before it is aborted. */
  renderMs: 1000,
  /** Longest template source. */
  templateChars: 256 * 1024,
  /** Characters filters and loops may allocate in one render (liquidjs memoryLimit). */
  memory: 5_000_000,
  /** Longest rendered part. */
  outputChars: 1024 * 1024,
};

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&#34;', "'": '&#39;' };

/** Liquid's own stringification: nil is empty, arrays are joined. */
function toText(value: unknown): string {
  const plain: unknown = toValue(value);
  if (typeof plain === 'string') return plain;
  if (plain === undefined || plain === null) return '';
  if (Array.isArray(plain)) return plain.map(toText).join('');
  return String(plain);
}

const outputOf = (value: unknown) => toText(value instanceof MissingValue ? value.fallback : value);

/** Tags that read other templates from a file system: refused when a template is parsed. */
const FILE_SYSTEM_TAGS = ['include', 'render', 'layout'];

function forbiddenTag(name: string) {
  return class extends Tag {
    constructor(token: TagToken, remain: TopLevelToken[], liquid: Liquid) {
      super(token, remain, liquid);
      throw new Error(`the "${name}" tag is not allowed in workflow templates`);
    }

    *render(): Generator<unknown, void, unknown> {
      // never reached: the constructor refuses the tag at parse time
    }
  };
}

/** How long a loop may run before it hands the event loop back to other work (HTTP, other sends). */
const YIELD_EVERY_MS = 10;

/**
 * liquidjs only awaits promises, so a long loop runs as one chain of microtasks and blocks the
 * process until renderLimit aborts it. These loops give way to the event loop every few
 * milliseconds; the render budget still counts wall time, so the abort comes no later.
 */
function* givingWay<R>(inner: Generator<unknown, R, unknown>): Generator<unknown, R, unknown> {
  let lastYield = Date.now();
  let input: unknown;
  for (;;) {
    const step = inner.next(input);
    if (step.done) return step.value;
    input = yield step.value;
    if (Date.now() - lastYield >= YIELD_EVERY_MS) {
      yield new Promise((resolve) => setImmediate(resolve));
      lastYield = Date.now();
    }
  }
}

class YieldingFor extends ForTag {
  // eslint-disable-next-line @typescript-eslint/no-invalid-void-type -- liquidjs's own signature
  override *render(ctx: Context, emitter: Emitter): Generator<unknown, void | string, unknown> {
    // For's generator takes the rendered templates back; givingWay passes each resolved value through unchanged.
    // eslint-disable-next-line @typescript-eslint/no-invalid-void-type -- liquidjs's own signature
    return yield* givingWay(super.render(ctx, emitter) as Generator<unknown, void | string, unknown>);
  }
}

class YieldingTablerow extends TablerowTag {
  override *render(ctx: Context, emitter: Emitter): Generator<unknown, void, unknown> {
    return yield* givingWay(super.render(ctx, emitter));
  }
}

/**
 * A Liquid engine for one kind of output: `html` escapes every output (a `| raw` filter opts out),
 * `text` leaves it as is. Both refuse file-system tags, look only at own properties, and abort a
 * runaway template by time and memory.
 */
export function createLiquidEngine(mode: 'html' | 'text', limits = RENDER_LIMITS): Liquid {
  const engine = new Liquid({
    templates: {},
    ownPropertyOnly: true,
    strictFilters: true,
    strictVariables: false,
    parseLimit: limits.templateChars,
    renderLimit: limits.renderMs,
    memoryLimit: limits.memory,
    // The `date` filter's month and day names: the same on every server, whatever its locale. Given,
    // it also spares the process the ICU data liquidjs reads at construction to find the default
    // (about 8 MB of resident memory).
    locale: 'en-US',
    outputEscape:
      mode === 'html' ? (value: unknown) => outputOf(value).replace(/[&<>"']/g, (c) => HTML_ESCAPES[c] ?? c) : outputOf,
  });
  for (const name of FILE_SYSTEM_TAGS) engine.registerTag(name, forbiddenTag(name));
  engine.registerTag('for', YieldingFor);
  engine.registerTag('tablerow', YieldingTablerow);
  return engine;
}
