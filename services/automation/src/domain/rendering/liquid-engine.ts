import { Drop, Liquid, Tag, toValue, type TagToken, type TopLevelToken } from 'liquidjs';

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
    outputEscape:
      mode === 'html' ? (value: unknown) => outputOf(value).replace(/[&<>"']/g, (c) => HTML_ESCAPES[c] ?? c) : outputOf,
  });
  for (const name of FILE_SYSTEM_TAGS) engine.registerTag(name, forbiddenTag(name));
  return engine;
}
